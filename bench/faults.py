#!/usr/bin/env python3
"""Faults survived: alicia-player beside mpv under the same network and sound-server faults.

Started by bench/faults, which installs what is missing, builds the release binary and makes sure a
PulseAudio server answers. A private nginx on 127.0.0.1 serves a 20 s noise WAV (no sample is 0, so a
silent frame out of the sink is a gap); each player reaches it through a fault proxy of its own (this
script, run with --proxy, in a process of its own) and plays into a PulseAudio pipe sink of its own
whose FIFO is read and kept. The capture is then compared with the file's samples. The two players
run side by side, one row (fault) at a time. Writes the "Faults" section of BENCHMARKS.md and leaves
the rest of the file as it is.
"""
import argparse, array, asyncio, datetime, itertools, json, os, re, shutil, signal, socket, struct, subprocess, sys
import tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import Nginx, write_section  # noqa: E402 (the same loopback nginx as bench/run)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RATE, CHANNELS, WIDTH = 48000, 2, 2
FRAME = CHANNELS * WIDTH
BYTE_RATE = RATE * FRAME
SECONDS = 20
MIB = 1 << 20
PLAYERS = ("alicia-player", "mpv")


def log(text):
    print(f"bench/faults: {text}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# The fault proxy (a process of its own: python3 faults.py --proxy ...).
#
# One request per connection (it asks nginx for `Connection: close`), so that a request is a
# connection and "every Nth request" and "every 1 MB of a connection" mean the same for any player.
# Commands on stdin: "down" (the server stops: listener closed, open connections closed), "up" (it
# starts again on the same port). A line per request goes to --log as JSON.

async def proxy_main(args):
    state = {"requests": 0, "stalled": False, "server": None, "writers": set(), "next_send": 0.0}
    log_file = open(args.log, "a", buffering=1)

    def note(**fields):
        log_file.write(json.dumps(fields) + "\n")

    async def pace(n):
        if not args.rate:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        state["next_send"] = max(state["next_send"], now) + n / args.rate
        delay = state["next_send"] - n / args.rate - now
        if delay > 0:
            await asyncio.sleep(delay)

    async def handle(reader, writer):
        state["writers"].add(writer)
        writer.transport.set_write_buffer_limits(0)
        number = 0
        status = None
        sent = 0
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            state["requests"] += 1
            number = state["requests"]
            lines = head.decode("latin-1").split("\r\n")
            range_header = next((l.split(":", 1)[1].strip() for l in lines if l.lower().startswith("range:")), "")
            if args.fail_500 and number % 10 in (2, 5, 8):
                writer.write(b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                await writer.drain()
                status = 500
                return
            kept = [l for l in lines[1:] if l and not l.lower().startswith(("connection:", "keep-alive:"))]
            request = "\r\n".join([lines[0]] + kept + ["Connection: close", "", ""]).encode("latin-1")
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", args.upstream)
            try:
                up_writer.write(request)
                await up_writer.drain()
                response_head = await up_reader.readuntil(b"\r\n\r\n")
                status = int(response_head.split(b" ", 2)[1])
                writer.write(response_head)
                await writer.drain()
                match = re.match(r"bytes=(\d+)-", range_header)
                offset = int(match.group(1)) if match and status == 206 else 0
                while True:
                    data = await up_reader.read(16384)
                    if not data:
                        break
                    for i in range(0, len(data), 4096):
                        piece = data[i:i + 4096]
                        if args.rst_every and sent + len(piece) >= args.rst_every:
                            piece = piece[:args.rst_every - sent]
                            writer.write(piece)
                            await writer.drain()
                            sent += len(piece)
                            sock = writer.get_extra_info("socket")
                            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                            writer.transport.abort()
                            status = f"{status}+RST"
                            return
                        if args.stall_at is not None and not state["stalled"] and offset + len(piece) > args.stall_at:
                            state["stalled"] = True
                            note(event="stall", seconds=args.stall_seconds, offset=offset)
                            await asyncio.sleep(args.stall_seconds)
                        await pace(len(piece))
                        if writer.is_closing():
                            return
                        writer.write(piece)
                        await writer.drain()
                        offset += len(piece)
                        sent += len(piece)
            finally:
                up_writer.close()
        except (ConnectionError, asyncio.IncompleteReadError, OSError):
            pass
        finally:
            state["writers"].discard(writer)
            if number:
                note(request=number, status=status, range=range_header if number else "", sent=sent)
            if not writer.is_closing():
                writer.close()

    async def start():
        state["server"] = await asyncio.start_server(handle, "127.0.0.1", args.port, reuse_address=True)

    await start()
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    commands = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(commands), sys.stdin)
    while True:
        line = (await commands.readline()).decode().strip()
        if not line:
            break
        if line == "down":
            state["server"].close()
            for writer in list(state["writers"]):
                writer.close()
            await state["server"].wait_closed()
            note(event="down")
        elif line == "up":
            await start()
            note(event="up")
        print("ok", flush=True)


class Proxy:
    """The fault proxy for one player in one row."""

    def __init__(self, upstream, workdir, **faults):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.log = os.path.join(workdir, f"proxy-{self.port}.log")
        cmd = [sys.executable, os.path.abspath(__file__), "--proxy", "--port", str(self.port), "--upstream", str(upstream),
               "--log", self.log]
        for key, value in faults.items():
            if value is True:
                cmd.append("--" + key.replace("_", "-"))
            elif value is not None and value is not False:
                cmd += ["--" + key.replace("_", "-"), str(value)]
        self.process = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self.process.stdout.readline().strip() != "ready":
            raise SystemExit("bench/faults: the fault proxy did not start")

    def command(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        self.process.stdout.readline()

    def requests(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return [entry for entry in map(json.loads, f) if "request" in entry]

    def stop(self):
        try:
            self.process.stdin.close()
            self.process.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


# ---------------------------------------------------------------------------------------------
# Media, server, sound.

def noise_wav(path, seconds):
    """Noise with no zero sample (high bytes odd), every frame different: a frame out of place is found."""
    size = int(seconds * RATE) * FRAME
    header = b"RIFF" + struct.pack("<I", 36 + size) + b"WAVEfmt " + struct.pack(
        "<IHHIIHH", 16, 1, CHANNELS, RATE, BYTE_RATE, FRAME, 16) + b"data" + struct.pack("<I", size)
    data = bytearray(os.urandom(size))
    data[1::2] = bytes(b | 0x01 for b in data[1::2])
    with open(path, "wb") as f:
        f.write(header + data)
    return bytes(data)


class Capture:
    """Reads a pipe sink's FIFO into memory until closed. The FIFO outlives a killed PulseAudio, and a
    new daemon's pipe sink on the same path writes into it again, so one capture spans a restart."""

    def __init__(self, fifo):
        self.fifo = fifo
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
        self.data = bytearray()
        self.first_audio = None
        self.stopping = False
        self.fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        # A pipe holds 64 KiB (0.34 s here) by default. The pipe sink, paced by the system clock,
        # drops what it cannot write at once, so a reader late by more than that (a loaded machine)
        # would lose frames that the player did play: 1 MiB gives it 5 s.
        try:
            import fcntl
            fcntl.fcntl(self.fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
        except OSError:
            pass
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        import select
        while not self.stopping:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                continue
            if not data:
                time.sleep(0.01)  # no writer for the moment (the daemon is down)
                continue
            if self.first_audio is None and data.count(0) != len(data):
                self.first_audio = time.monotonic()
            self.data += data

    def close(self):
        self.stopping = True
        self.thread.join(2)
        os.close(self.fd)


class PipeSink:
    """A module-pipe-sink loaded into the answering PulseAudio, with its capture."""

    def __init__(self, workdir, name):
        self.name = name
        fifo = os.path.join(workdir, name + ".fifo")
        self.capture = Capture(fifo)
        out = subprocess.run(["pactl", "load-module", "module-pipe-sink", f"file={fifo}", f"sink_name={name}",
                              "format=s16le", f"rate={RATE}", f"channels={CHANNELS}", "use_system_clock_for_timing=yes"],
                             check=True, capture_output=True, text=True)
        self.module = out.stdout.strip()

    def close(self):
        time.sleep(0.3)
        self.capture.close()
        subprocess.run(["pactl", "unload-module", self.module], capture_output=True)


class OwnPulse:
    """A PulseAudio daemon of this script's own, with both players' pipe sinks loaded at start, so that
    killing it disturbs nothing else and a restarted one has the same sinks at once."""

    def __init__(self, workdir, sinks):
        self.dir = tempfile.mkdtemp(prefix="alicia-faults-pulse.")
        os.makedirs(os.path.join(self.dir, "runtime"), mode=0o700)
        os.makedirs(os.path.join(self.dir, "home"), mode=0o700)
        self.socket = os.path.join(self.dir, "native")
        self.sinks = sinks  # name -> fifo
        self.process = None
        self.start()

    def start(self):
        env = dict(os.environ, HOME=os.path.join(self.dir, "home"), XDG_RUNTIME_DIR=os.path.join(self.dir, "runtime"))
        env.pop("PULSE_SERVER", None)
        cmd = ["pulseaudio", "-n", "--daemonize=no", "--use-pid-file=no", "--system=no", "--exit-idle-time=-1",
               "--disallow-exit", "--realtime=no", "--high-priority=no", f"--log-target=file:{self.dir}/pulseaudio.log",
               "-L", f"module-native-protocol-unix auth-anonymous=1 socket={self.socket}",
               "-L", "module-null-sink sink_name=faults_null"]
        for name, fifo in self.sinks.items():
            cmd += ["-L", f"module-pipe-sink file={fifo} sink_name={name} format=s16le rate={RATE} channels={CHANNELS} "
                          "use_system_clock_for_timing=yes"]
        self.process = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        for _ in range(100):
            if subprocess.run(["pactl", "info"], env=self.env(), capture_output=True).returncode == 0:
                return
            time.sleep(0.05)
        raise SystemExit("bench/faults: the private PulseAudio did not come up")

    def env(self):
        return dict(os.environ, PULSE_SERVER=f"unix:{self.socket}")

    def kill(self):
        self.process.kill()
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def player_command(player, url, sink, extra=()):
    if player == "alicia-player":
        return [os.path.join(ROOT, ".build/release/alicia-player"), "play", url, "--device", sink, "--from-start",
                "--loudness", "off", "--no-ipc", *extra]
    return ["mpv", "--no-config", "--no-video", "--ao=pulse", f"--audio-device=pulse/{sink}", *extra, url]


# ---------------------------------------------------------------------------------------------
# Comparing a capture with the file.

def find_aligned(haystack, needle, start=0):
    while True:
        q = haystack.find(needle, start)
        if q < 0 or q % FRAME == 0:
            return q
        start = q + 1


def analyse(captured, source, other):
    """Gaps (silent frames between the first and the last audible one; the file has none) and the
    audible frames laid against the file: frames skipped, frames played twice, frames of the other
    (replacement) file, frames of neither, and the file's end never played."""
    captured = bytes(captured[:len(captured) // FRAME * FRAME])
    result = {"audible_s": 0.0, "gaps": 0, "longest_gap_s": 0.0, "stretches": [], "missing": 0, "repeated": 0,
              "foreign": 0, "unknown": 0, "jumps": [], "tail_s": len(source) / BYTE_RATE, "exact": False, "heard_any": False}
    # Audible stretches and gaps: runs of non-zero and zero frames (leading and trailing silence dropped).
    frames = array.array("I", captured)
    runs = []
    for audible_run, group in itertools.groupby(frames, key=bool):
        runs.append((audible_run, sum(1 for _ in group)))
    while runs and not runs[0][0]:
        runs.pop(0)
    while runs and not runs[-1][0]:
        runs.pop()
    stretches = [length for sound, length in runs if sound]
    gaps = [length for sound, length in runs if not sound]
    audible = bytearray()
    position = next((i for i, v in enumerate(frames) if v), 0)
    for sound, length in runs:
        if sound:
            audible += captured[position * FRAME:(position + length) * FRAME]
        position += length
    if not audible:
        return result
    result.update(heard_any=True, audible_s=len(audible) / BYTE_RATE, gaps=len(gaps),
                  longest_gap_s=max(gaps, default=0) / RATE, stretches=[s / RATE for s in stretches])
    # Content: walk the audible frames against the file.
    audible = bytes(audible)
    a = p = 0
    block = 4096 * FRAME
    steps = 0
    while a < len(audible):
        steps += 1
        if steps > 200000:
            result["unknown"] += (len(audible) - a) // FRAME
            break
        if audible[a:a + block] == source[p:p + block] and a + block <= len(audible):
            a += block
            p += block
            continue
        if audible[a:a + FRAME] == source[p:p + FRAME]:
            a += FRAME
            p += FRAME
            continue
        key = audible[a:a + 4 * FRAME]
        q = find_aligned(source, key) if len(key) == 4 * FRAME else -1
        if q >= 0:
            if q > p:
                result["missing"] += (q - p) // FRAME
            else:
                result["repeated"] += (p - q) // FRAME
            if len(result["jumps"]) < 20:  # where (s of the file) and by how many frames (+ skipped, - again)
                result["jumps"].append((round(p / BYTE_RATE, 3), (q - p) // FRAME))
            p = q
            continue
        r = find_aligned(other, key) if other and len(key) == 4 * FRAME else -1
        if r >= 0:
            while a < len(audible) and audible[a:a + FRAME] == other[r:r + FRAME]:
                if audible[a:a + block] == other[r:r + block]:
                    a += block
                    r += block
                    result["foreign"] += block // FRAME
                else:
                    a += FRAME
                    r += FRAME
                    result["foreign"] += 1
            continue
        result["unknown"] += 1
        if len(result["jumps"]) < 20:
            result["jumps"].append((round(p / BYTE_RATE, 3), "unknown frame"))
        a += FRAME
    result["tail_s"] = max(0, len(source) - p) / BYTE_RATE
    result["exact"] = audible == source
    return result


# ---------------------------------------------------------------------------------------------
# The rows.

ROWS = [
    ("rst", "The connection reset (RST) after every 1 MiB of a response"),
    ("stall", "A 3 s stall mid-body (nothing sent at the file's middle byte; link 1.5x the byte rate)"),
    ("outage", "A 15 s outage 3 s into playback: the server stopped (connections closed, port refused) and started again on the same port (link 1.5x the byte rate)"),
    ("giveup", "A 30 s outage 3 s into playback (alicia-player with --give-up-after 5; link 1.5x the byte rate)"),
    ("http500", "30 % of requests answered HTTP 500 (requests 2, 5, 8, ... of each run; the connection also reset every 1 MiB, so each player has to ask again)"),
    ("slow", "A link at two thirds of the byte rate (128 kB/s for 192 kB/s of audio)"),
    ("replaced", "The file replaced by a different one (new ETag and Last-Modified) 2 s into playback, same URL (link 1.5x the byte rate)"),
    ("pulse", "PulseAudio killed (SIGKILL) 5 s into playback and started again 2 s later (a daemon of this script's own, same sinks)"),
]
FAST = int(1.5 * BYTE_RATE)


def row_setup(row, size):
    """Proxy faults and extra player options for a row."""
    faults, extra = {}, {"alicia-player": [], "mpv": []}
    if row == "rst":
        faults = {"rst_every": MIB}
    elif row == "stall":
        faults = {"rate": FAST, "stall_at": size // 2, "stall_seconds": 3}
    elif row in ("outage", "giveup", "replaced"):
        faults = {"rate": FAST}
        if row == "giveup":
            extra["alicia-player"] = ["--give-up-after", "5"]
    elif row == "http500":
        faults = {"fail_500": True, "rst_every": MIB}
    elif row == "slow":
        faults = {"rate": BYTE_RATE * 2 // 3}
    return faults, extra


def run_row(row, nginx, media, source, other, workdir, timeout):
    size = len(source) + 44
    faults, extra = row_setup(row, size)
    own_pulse = None
    sinks, proxies, files = {}, {}, {}
    for player in PLAYERS:
        name = f"faults_{row}_{player.replace('-', '_')}"
        files[player] = f"{row}-{player}.wav"
        shutil.copyfile(os.path.join(media, "episode.wav"), os.path.join(media, files[player]))
        proxies[player] = Proxy(nginx.port, workdir, **faults)
        sinks[player] = name
    env = dict(os.environ)
    if row == "pulse":
        fifos = {name: os.path.join(workdir, name + ".fifo") for name in sinks.values()}
        captures = {player: Capture(fifos[sinks[player]]) for player in PLAYERS}
        own_pulse = OwnPulse(workdir, fifos)
        env = own_pulse.env()
        pipe_sinks = None
    else:
        pipe_sinks = {player: PipeSink(workdir, sinks[player]) for player in PLAYERS}
        captures = {player: pipe_sinks[player].capture for player in PLAYERS}
    # alicia-player keeps its positions (and its cache) in directories of this run's own.
    alicia_env = dict(env, XDG_STATE_HOME=os.path.join(workdir, f"{row}-state"),
                      XDG_CACHE_HOME=os.path.join(workdir, f"{row}-cache"))
    if os.environ.get("FAULTS_ALICIA_LOG"):  # a directory: alicia-player's debug log per row there
        alicia_env.update(ALICIA_LOG="debug", ALICIA_LOG_FILE=os.path.join(os.environ["FAULTS_ALICIA_LOG"], f"{row}.log"))
    processes, outputs, started = {}, {}, {}
    for player in PLAYERS:
        url = f"http://127.0.0.1:{proxies[player].port}/media/{files[player]}"
        outputs[player] = open(os.path.join(workdir, f"{row}-{player}.out"), "w+")
        started[player] = time.monotonic()
        processes[player] = subprocess.Popen(player_command(player, url, sinks[player], extra[player]),
                                             env=alicia_env if player == "alicia-player" else env,
                                             stdin=subprocess.DEVNULL, stdout=outputs[player], stderr=subprocess.STDOUT)
    events = {player: [] for player in PLAYERS}

    def control(player):
        capture, proxy = captures[player], proxies[player]
        deadline = time.monotonic() + 30
        while capture.first_audio is None and time.monotonic() < deadline and processes[player].poll() is None:
            time.sleep(0.01)
        if capture.first_audio is None:
            return
        if row in ("outage", "giveup"):
            time.sleep(max(0, capture.first_audio + 3 - time.monotonic()))
            proxy.command("down")
            events[player].append(("down", time.monotonic()))
            time.sleep(15 if row == "outage" else 30)
            proxy.command("up")
            events[player].append(("up", time.monotonic()))
        elif row == "replaced":
            time.sleep(max(0, capture.first_audio + 2 - time.monotonic()))
            path = os.path.join(media, files[player])
            shutil.copyfile(os.path.join(media, "replacement.wav"), path + ".new")
            os.utime(path + ".new", (1_000_000_000, 1_000_000_000))
            os.rename(path + ".new", path)
            events[player].append(("replaced", time.monotonic()))

    threads = [threading.Thread(target=control, args=(p,), daemon=True) for p in PLAYERS]
    for t in threads:
        t.start()
    if row == "pulse":
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(captures[p].first_audio is None for p in PLAYERS):
            time.sleep(0.01)
        time.sleep(5)
        own_pulse.kill()
        killed = time.monotonic()
        time.sleep(2)
        own_pulse.start()
        for p in PLAYERS:
            events[p] += [("killed", killed), ("restarted", time.monotonic())]
    ended = {}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and len(ended) < len(PLAYERS):
        for player in PLAYERS:
            if player not in ended and processes[player].poll() is not None:
                ended[player] = time.monotonic()
        time.sleep(0.05)
    results = {}
    for player in PLAYERS:
        process = processes[player]
        killed = process.poll() is None
        if killed:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            ended[player] = time.monotonic()
        results[player] = {"status": process.returncode, "killed": killed,
                           "seconds": ended[player] - started[player]}
    for t in threads:
        t.join(1)
    time.sleep(0.5)
    if pipe_sinks:
        for sink in pipe_sinks.values():
            sink.close()
    else:
        for capture in captures.values():
            capture.close()
        own_pulse.stop()
    for player in PLAYERS:
        outputs[player].seek(0)
        text = outputs[player].read()
        outputs[player].close()
        requests = proxies[player].requests()
        proxies[player].stop()
        results[player].update(analyse(captures[player].data, source, other if row == "replaced" else None))
        results[player]["message"] = message(player, text)
        results[player]["requests"] = len(requests)
        results[player]["errors_500"] = sum(1 for r in requests if r["status"] == 500)
        results[player]["resets"] = sum(1 for r in requests if str(r["status"]).endswith("RST"))
        results[player]["first_audio_s"] = (captures[player].first_audio - started[player]) if captures[player].first_audio else None
        results[player]["events"] = [(name, round(t - started[player], 2)) for name, t in events[player]]
        os.remove(os.path.join(media, files[player]))
    results["alicia-player"]["saved_position_s"] = saved_position(os.path.join(workdir, f"{row}-state"))
    return results


def saved_position(state_home):
    try:
        with open(os.path.join(state_home, "alicia-player", "positions.json")) as f:
            positions = json.load(f).get("positions", {})
    except (OSError, ValueError):
        return None
    for entry in positions.values():
        value = entry.get("position_ms", entry.get("position"))
        if isinstance(value, (int, float)):
            return value / 1000
    return None


MPV_CHATTER = re.compile(r"^\s*(\(\+\)|Playing:|AO:|A:|\[file\]|\[cplayer\] Set property|Exiting\.\.\. \(End of file\))")


def message(player, text):
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r", "\n")
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    if player == "mpv":
        lines = [l for l in lines if not MPV_CHATTER.match(l)]
    # Lines that differ only in their numbers count as one, with how often they came.
    seen, counts = [], {}
    for l in lines:
        shape = re.sub(r"\d+(\.\d+)?", "N", l)
        if shape not in counts:
            seen.append((shape, l))
            counts[shape] = 0
        counts[shape] += 1
    shown = [l[:160] + (f" (x{counts[shape]})" if counts[shape] > 1 else "") for shape, l in seen[:3]]
    return " / ".join(shown)


def cell(row, r):
    parts = []
    if r["killed"]:
        parts.append(f"still running after {r['seconds']:.0f} s (stopped)")
    else:
        parts.append(f"exit {r['status']} after {r['seconds']:.1f} s")
    if not r["heard_any"]:
        parts.append("no audio")
    else:
        if r["exact"]:
            parts.append("bit-exact")
        else:
            content = []
            if r["tail_s"] > 0.001:
                content.append(f"stopped {r['tail_s']:.2f} s before the end ({r['audible_s']:.2f} s heard)")
            if r["missing"]:
                content.append(f"{r['missing']} frames ({r['missing'] / RATE * 1000:.0f} ms) skipped")
            if r["repeated"]:
                content.append(f"{r['repeated']} frames ({r['repeated'] / RATE * 1000:.0f} ms) played twice")
            if r["foreign"]:
                content.append(f"**{r['foreign']} frames of the new file spliced in**")
            if r["unknown"]:
                content.append(f"{r['unknown']} frames of neither file")
            if not (r["missing"] or r["repeated"] or r["foreign"] or r["unknown"]):
                content.append("what was heard is exact")
            parts.append("; ".join(content))
        if r["gaps"]:
            gaps = f"{r['gaps']} gap{'s' if r['gaps'] != 1 else ''}, longest {r['longest_gap_s']:.2f} s"
            if r["stretches"][-1] < 0.1:
                gaps += f" (after it only {r['stretches'][-1] * 1000:.0f} ms more)"
            parts.append(gaps)
        else:
            parts.append("no gap")
        if row == "slow":
            inner = r["stretches"][:-1] or r["stretches"]
            parts.append(f"{len(r['stretches'])} playing stretches, shortest {min(inner):.2f} s (the last not counted)")
    if row in ("rst", "http500"):
        requests = f"{r['requests']} requests"
        if r["errors_500"]:
            requests += f", {r['errors_500']} answered 500"
        if r["resets"]:
            requests += f", {r['resets']} reset"
        parts.append(requests)
    if row == "giveup" and r.get("saved_position_s") is not None:
        parts.append(f"position saved: {r['saved_position_s']:.2f} s")
    if row == "replaced":
        parts.append(f"{r['requests']} request{'s' if r['requests'] != 1 else ''}")
    if r["message"]:
        parts.append("says: " + "\u201c" + r["message"].replace("|", "\\|") + "\u201d")
    return "; ".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--proxy", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int)
    parser.add_argument("--upstream", type=int)
    parser.add_argument("--log")
    parser.add_argument("--rate", type=int)
    parser.add_argument("--rst-every", type=int)
    parser.add_argument("--stall-at", type=int)
    parser.add_argument("--stall-seconds", type=float, default=3)
    parser.add_argument("--fail-500", action="store_true")
    parser.add_argument("--only", help="comma-separated rows (" + ",".join(r for r, _ in ROWS) + "); prints, writes nothing")
    parser.add_argument("--out", default=os.path.join(ROOT, "BENCHMARKS.md"))
    args = parser.parse_args()
    if args.proxy:
        asyncio.run(proxy_main(args))
        return
    rows = [r for r in ROWS if not args.only or r[0] in args.only.split(",")]
    media = os.path.join(ROOT, "bench", "out", "faults")
    os.makedirs(media, exist_ok=True)
    source = noise_wav(os.path.join(media, "episode.wav"), SECONDS)
    other = noise_wav(os.path.join(media, "replacement.wav"), SECONDS)
    workdir = tempfile.mkdtemp(prefix="alicia-faults.")
    nginx = Nginx(media)
    all_results = {}
    began = time.monotonic()
    load_before = os.getloadavg()[0]
    try:
        for row, title in rows:
            log(f"{row}: {title}")
            timeout = {"giveup": 75, "outage": 70, "slow": 75}.get(row, 50)
            results = run_row(row, nginx, media, source, other, workdir, timeout)
            all_results[row] = results
            for player in PLAYERS:
                log(f"  {player}: {cell(row, results[player])}")
                log(f"    stretches of sound (s): {[round(x, 2) for x in results[player]['stretches']][:20]}")
                if results[player]["jumps"]:
                    log(f"    jumps (file second, frames): {results[player]['jumps']}")
    finally:
        nginx.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    with open(os.path.join(ROOT, "bench", "out", "faults.json"), "w") as f:
        json.dump(all_results, f, indent=1, default=str)
    versions = {
        "alicia-player": subprocess.run([os.path.join(ROOT, ".build/release/alicia-player"), "--version"],
                                        capture_output=True, text=True).stdout.strip(),
        "mpv": " ".join(subprocess.run(["mpv", "--version"], capture_output=True, text=True).stdout.split()[:2]),
    }
    lines = [
        "## Faults",
        "",
        f"Measured by `bench/faults` on {datetime.date.today().isoformat()} in {time.monotonic() - began:.0f} s "
        f"({versions['alicia-player']}; {versions['mpv']}), one run per fault, on {os.cpu_count()} cores shared with other work "
        f"(load average {load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end).",
        f"Both players play the same {SECONDS} s noise WAV (48 kHz stereo s16, no sample 0) from a loopback nginx,",
        "each through a fault proxy of its own (one request per connection) into a PulseAudio pipe sink of its own,",
        "side by side; the sink's output is compared with the file's samples: silent frames between the first and",
        "the last audible one are gaps, and the audible frames are laid against the file (skipped, played twice,",
        "from the replacement). alicia-player: `play URL --from-start --loudness off --no-ipc`; mpv:",
        "`--no-config --no-video --ao=pulse`; \"says\" is what each printed (mpv's usual status lines left out).",
        "Where the link is 1.5x the byte rate, it is so that both players are still downloading when the fault",
        "comes (on a free loopback link mpv has the whole file within a second, alicia-player its 10 s read-ahead).",
        "A player that fetches the file in one request never sees it replaced: nginx goes on sending the file it",
        "opened.",
        "",
        "| fault | alicia-player | mpv |",
        "| --- | --- | --- |",
    ]
    for row, title in rows:
        lines.append(f"| {title} | {cell(row, all_results[row]['alicia-player'])} | {cell(row, all_results[row]['mpv'])} |")
    section = "\n".join(lines) + "\n"
    print(section)
    if not args.only:
        write_section(args.out, "Faults", section)
        log(f"wrote the Faults section of {args.out}")


if __name__ == "__main__":
    main()
