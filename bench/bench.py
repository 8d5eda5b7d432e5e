#!/usr/bin/env python3
"""Side-by-side figures for alicia-player and mpv (and paplay where it applies), in one run.

Started by bench/run, which installs what is missing, builds the release binary and makes sure a
PulseAudio server answers. Everything is on this machine: a private nginx on 127.0.0.1 serves the
generated WAVs, and each measured run plays into its own module-pipe-sink (paced by the system clock)
whose FIFO a reader thread watches, so "first audio" is the first non-silent byte the sink emits.
Each figure is measured several times; the table gives the median and the spread (min-max).
"""
import argparse, datetime, os, platform, re, shutil, signal, socket, statistics, struct, subprocess
import json, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RATE, CHANNELS, WIDTH = 48000, 2, 2
BYTE_RATE = RATE * CHANNELS * WIDTH
# module-pipe-sink, paced by the system clock, renders one pipe buffer (PIPE_BUF, 4096 bytes) per
# tick: new audio leaves the sink only at the next tick, 0 to 21.3 ms after the player hands it over.
SINK_TICK = 4096 / BYTE_RATE


def media_dir():
    """bench/out, where the benchmarks keep the media they make (made once, kept between runs)."""
    path = os.path.join(ROOT, "bench", "out")
    os.makedirs(path, exist_ok=True)
    return path


def log(text):
    print(f"bench: {text}", file=sys.stderr, flush=True)


def wav(path, seconds, seed):
    """A noise WAV (never an all-zero frame), written fast: one random block repeated."""
    frames = int(seconds * RATE)
    size = frames * CHANNELS * WIDTH
    if os.path.exists(path) and os.path.getsize(path) == size + 44:
        return
    header = b"RIFF" + struct.pack("<I", 36 + size) + b"WAVEfmt " + struct.pack(
        "<IHHIIHH", 16, 1, CHANNELS, RATE, BYTE_RATE, CHANNELS * WIDTH, 16) + b"data" + struct.pack("<I", size)
    block = bytearray(os.urandom(1 << 22))
    block[1::2] = bytes(b | 0x01 for b in block[1::2])  # high bytes odd: no sample is ever 0
    with open(path, "wb") as f:
        f.write(header)
        left = size
        while left:
            n = min(left, len(block))
            f.write(block[:n])
            left -= n


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", *arguments], check=True)


def podcast_mp3(path, seconds):
    """A 32 kb/s mono MP3 as podcasts come (ID3v2.4, a LAME/Info frame with its table of contents):
    a minute of pink noise encoded once and copied end to end by ffmpeg's muxer, which writes the
    info frame for the whole (a third of a second, not the 25 s of encoding two hours)."""
    if os.path.exists(path):
        return
    chunk = path + ".chunk.mp3"
    ffmpeg("-f", "lavfi", "-i", "anoisesrc=d=61:c=pink:r=22050:a=0.3:seed=11", "-ac", "1", "-c:a", "libmp3lame",
           "-b:a", "32k", "-id3v2_version", "0", chunk)
    ffmpeg("-stream_loop", str(int(seconds // 61)), "-i", chunk, "-c:a", "copy", "-t", str(seconds),
           "-id3v2_version", "4", "-write_xing", "1", path + ".part.mp3")
    os.rename(path + ".part.mp3", path)
    os.unlink(chunk)


def podcast_m4a(path, seconds):
    """AAC-LC at 96 kb/s in an M4A (index first), stereo 48 kHz pink noise."""
    if os.path.exists(path):
        return
    ffmpeg("-f", "lavfi", "-i", f"anoisesrc=d={seconds}:c=pink:r=48000:a=0.3:seed=12", "-ac", "2", "-c:a", "aac",
           "-b:a", "96k", "-movflags", "+faststart", path + ".part.m4a")
    os.rename(path + ".part.m4a", path)


class Nginx:
    def __init__(self, root):
        self.dir = tempfile.mkdtemp(prefix="alicia-bench-nginx.")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.log = os.path.join(self.dir, "access.log")
        conf = os.path.join(self.dir, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""
user root;
worker_processes 1;
error_log {self.dir}/error.log;
pid {self.dir}/nginx.pid;
events {{ worker_connections 64; }}
http {{
  log_format bench '$request_uri $status $bytes_sent "$http_range"';
  access_log {self.log} bench;
  client_body_temp_path {self.dir}/body; proxy_temp_path {self.dir}/proxy;
  fastcgi_temp_path {self.dir}/fcgi; uwsgi_temp_path {self.dir}/uwsgi; scgi_temp_path {self.dir}/scgi;
  types {{ audio/wav wav; audio/mpeg mp3; audio/mp4 m4a; }}
  server {{
    listen 127.0.0.1:{self.port};
    location /media/ {{ alias {root}/; }}
    # A podcast's tracking prefixes: 302 to 302 to the file.
    location /hop1/ {{ rewrite ^/hop1/(.*)$ /hop2/$1 redirect; }}
    location /hop2/ {{ rewrite ^/hop2/(.*)$ /media/$1 redirect; }}
  }}
}}
""")
        self.process = subprocess.Popen(["nginx", "-p", self.dir, "-c", conf, "-g", "daemon off;"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("bench: nginx did not start")

    def url(self, name):
        return f"http://127.0.0.1:{self.port}/media/{name}"

    def log_size(self):
        return os.path.getsize(self.log) if os.path.exists(self.log) else 0

    def bytes_since(self, offset, settle=0.5):
        lines = self.lines_since(offset, settle)
        return sum(int(line.split()[2]) for line in lines if len(line.split()) > 2), len(lines)

    def lines_since(self, offset, settle=0.5):
        time.sleep(settle)
        with open(self.log) as f:
            f.seek(offset)
            return f.read().splitlines()

    def redirect_url(self, name):
        return f"http://127.0.0.1:{self.port}/hop1/{name}"

    def stop(self):
        self.process.terminate()
        self.process.wait(5)
        shutil.rmtree(self.dir, ignore_errors=True)


# Skip silence's levels, as the README gives them: (minimum pause, share kept, most kept), seconds.
SILENCE_LEVELS = {"mild": (0.5, 0.5, 1.0), "medium": (0.3, 0.3, 0.6), "strong": (0.15, 0.1, 0.3)}


def speech_wav(path, seconds, seed):
    """A speech-like WAV: bursts of noise 150-600 ms long with 10 ms raised-cosine edges, between
    pauses of digital silence from 80 ms to 3 s (every length of the list in turn, shuffled), opening
    and closing on a burst. Returns the pauses' lengths in seconds."""
    import array
    import math
    import random
    rng = random.Random(seed)
    lengths = [0.08, 0.12, 0.2, 0.35, 0.5, 0.8, 1.2, 2.0, 3.0]
    samples = array.array("h")
    pauses = []
    edge = int(0.01 * RATE)
    while True:
        burst = int(rng.uniform(0.15, 0.6) * RATE)
        for i in range(burst):
            shape = 1.0
            if i < edge or burst - 1 - i < edge:
                shape = 0.5 - 0.5 * math.cos(math.pi * min(i, burst - 1 - i) / edge)
            for _ in range(CHANNELS):
                samples.append(int(rng.uniform(-0.3, 0.3) * 32767 * shape))
        if len(samples) >= seconds * RATE * CHANNELS:
            break
        if not pauses or len(pauses) % len(lengths) == 0:
            rng.shuffle(lengths)
        pause = lengths[len(pauses) % len(lengths)]
        pauses.append(pause)
        samples.extend([0] * (int(pause * RATE) * CHANNELS))
    data = samples.tobytes()
    header = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack(
        "<IHHIIHH", 16, 1, CHANNELS, RATE, BYTE_RATE, CHANNELS * WIDTH, 16) + b"data" + struct.pack("<I", len(data))
    with open(path, "wb") as f:
        f.write(header + data)
    return pauses


def predicted_saving(pauses, level):
    """What the level's rules cut from `pauses`: a pause under the minimum is kept whole; a longer
    one keeps its share, up to the most kept."""
    minimum, share, most = SILENCE_LEVELS[level]
    return sum(p - min(p * share, most) for p in pauses if p >= minimum)


def played_through(cmd, sink, timeout):
    """Runs `cmd` to its end into the kept capture `sink`; returns the captured frames (32-bit words
    of 16-bit stereo) and the indices of the first and last audible one (None, None: silence)."""
    import array
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _wait_or_kill(process, timeout=timeout)
    time.sleep(0.5)
    sink.close()
    frames = array.array("I", bytes(sink.kept[:len(sink.kept) // 4 * 4]))
    start = next((i for i, v in enumerate(frames) if v), None)
    end = next((i for i in range(len(frames) - 1, -1, -1) if frames[i]), None)
    return frames, start, end


def skip_silence_run(path, level):
    """Plays `path` with --skip-silence=LEVEL into a kept capture; returns the seconds saved: the
    file's length less the capture's from its first to its last audible frame."""
    sink = Sink(keep=True)
    cmd = [os.path.join(ROOT, ".build/release/alicia-player"), "play", path, "--device", sink.name, "--from-start",
           "--loudness", "off", f"--skip-silence={level}"]
    frames, start, end = played_through(cmd, sink, timeout=120)
    if start is None:
        return {"saved": None}
    length = (os.path.getsize(path) - 44) // (CHANNELS * WIDTH)
    return {"saved": (length - (end + 1 - start)) / RATE}


class Sink:
    """A pipe sink with a reader that notes when the first non-silent byte arrives, and (when
    given the frames of a target region) when the first frame of that region arrives."""

    def __init__(self, watch=None, keep=False):
        self.watch = watch
        self.keep = keep
        self.kept = bytearray()
        self.target_seen = None
        self.carry = b""
        self.total = 0
        self.dir = tempfile.mkdtemp(prefix="alicia-bench-sink.")
        self.fifo = os.path.join(self.dir, "fifo")
        self.name = f"bench_{os.getpid()}_{int(time.time() * 1000) % 10**8}"
        out = subprocess.run(["pactl", "load-module", "module-pipe-sink", f"file={self.fifo}",
                              f"sink_name={self.name}", "format=s16le", f"rate={RATE}", f"channels={CHANNELS}",
                              "use_system_clock_for_timing=yes"], check=True, capture_output=True, text=True)
        self.module = out.stdout.strip()
        self.first_audio = None
        self.audible_bytes = 0
        self.stopping = False
        self.fd = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        import select
        while not self.stopping:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                continue
            if not data:
                continue
            now = time.monotonic()
            if self.watch is not None and self.target_seen is None:
                self.scan(data, now)
            self.total += len(data)
            if self.keep:
                self.kept += data
            if data.count(0) != len(data):
                if self.first_audio is None:
                    self.first_audio = now
                self.audible_bytes += len(data) - data.count(0)

    def scan(self, data, now):
        """Looks for any 16-byte frame-aligned window of the target region (the stream out of the
        sink is frame-aligned from its first byte: windows start at multiples of 4)."""
        buffer = self.carry + data
        base = self.total - len(self.carry)
        for i in range((-base) % 4, len(buffer) - 15, 4):
            if buffer[i:i + 16] in self.watch:
                self.target_seen = now
                return
        self.carry = buffer[-15:]

    def close(self):
        self.stopping = True
        self.thread.join(2)
        subprocess.run(["pactl", "unload-module", self.module], capture_output=True)
        os.close(self.fd)
        shutil.rmtree(self.dir, ignore_errors=True)


def proc_stats(pid):
    """(peak RSS in KiB, user+system CPU seconds, RSS now in KiB) of a live process."""
    hwm = now = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                hwm = int(line.split()[1])
            if line.startswith("VmRSS:"):
                now = int(line.split()[1])
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return hwm, (int(fields[11]) + int(fields[12])) / ticks, now


def command(player, sink, url, start=None, speed=None, extra=None):
    if player == "alicia-player":
        # --from-start: runs of the same file must not resume where the last one stopped. Matched
        # loudness (on by default) is off unless `extra` asks for it, so the figures stay those of
        # plain playback, as mpv's are.
        cmd = [os.path.join(ROOT, ".build/release/alicia-player"), "play", url, "--device", sink, "--from-start"]
        cmd += extra if extra is not None else ["--loudness", "off"]
        if start is not None:
            cmd += ["--start", str(start)]
        if speed is not None:
            cmd += ["--speed", str(speed)]
    elif player == "mpv":
        cmd = ["mpv", "--no-config", "--no-video", "--really-quiet", "--ao=pulse", f"--audio-device=pulse/{sink}", url]
        if start is not None:
            cmd.insert(1, f"--start={start}")
        if speed is not None:  # mpv keeps the pitch with its default scaletempo2 filter
            cmd.insert(1, f"--speed={speed}")
    else:  # paplay: local files only, from the start
        cmd = ["paplay", "-d", sink, url]
    return cmd


class BusyLoops:
    """`count` busy loops at normal priority (one per core on a two-core machine), for a `with`."""

    def __init__(self, count=2):
        self.count = count

    def __enter__(self):
        self.children = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(self.count)]
        return self

    def __exit__(self, *exc):
        for child in self.children:
            child.kill()
            child.wait()


def run(player, url, start=None, play_for=None, nginx=None, speed=None, extra=None, then=None, env=None,
        from_start=True, sink=None):
    """Starts a player; returns time to first audio, peak RSS, CPU seconds, bytes fetched, seconds audible.
    `then`: more URLs after `url` (a queue). `env`: the player's environment. `from_start`: False lets
    alicia-player resume where the last run with the same state left the file."""
    sink = sink or Sink()
    offset = nginx.log_size() if nginx else 0
    cmd = command(player, sink.name, url, start, speed, extra)
    if then:
        cmd += then
    if not from_start and player == "alicia-player":
        cmd.remove("--from-start")
    began = time.monotonic()
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=dict(os.environ, **(env or {})))
    deadline = began + 20
    while sink.first_audio is None and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.002)
    ttfa = (sink.first_audio - began) if sink.first_audio else None
    if play_for:
        end = (sink.first_audio or began) + play_for
        while time.monotonic() < end and process.poll() is None:
            time.sleep(0.01)
    stats = proc_stats(process.pid) if process.poll() is None else (None, None, None)
    process.send_signal(signal.SIGINT)
    _wait_or_kill(process)
    lines = nginx.lines_since(offset) if nginx else []
    fetched = sum(int(line.split()[2]) for line in lines if len(line.split()) > 2) if nginx else None
    audible = sink.audible_bytes / BYTE_RATE
    sink.close()
    return {"ttfa": ttfa, "rss": stats[0], "cpu": stats[1], "rss_now": stats[2], "fetched": fetched, "audible": audible,
            "requests": len(lines), "hops": sum(1 for line in lines if line.startswith("/hop"))}


def gaps_run(player, url, speed, seconds=20, loops=2, min_frames=1):
    """Plays `url` at `speed` for `seconds` of wall time with `loops` busy loops beside it, into a kept
    capture; returns the silent runs of at least `min_frames` between the first and the last audible
    frame (the test files have no silent frame; a decoded MP3 has the odd zero sample, so its runs
    are counted from a few hundred frames: an underflow is a whole render block, ~1,000) and their
    longest, in seconds."""
    import array
    sink = Sink(keep=True)
    with BusyLoops(loops):
        result = run(player, url, play_for=seconds, speed=speed, sink=sink)
    frames = array.array("I", bytes(sink.kept[:len(sink.kept) // 4 * 4]))
    audible = [i for i in (next((i for i, v in enumerate(frames) if v), None),
                           next((i for i in range(len(frames) - 1, -1, -1) if frames[i]), None)) if i is not None]
    gaps, longest, silent = 0, 0, 0
    if len(audible) == 2:
        for v in frames[audible[0]:audible[1] + 1]:
            if v == 0:
                silent += 1
            elif silent:
                if silent >= min_frames:
                    gaps, longest = gaps + 1, max(longest, silent)
                silent = 0
    result.update({"gaps": gaps, "longest": longest / RATE})
    return result


def resume_run(url):
    """alicia-player plays `url` for 3 s and is stopped (SIGINT); a second run with the same state
    resumes there: its time to first audio."""
    state = tempfile.mkdtemp(prefix="alicia-bench-state.")
    try:
        run("alicia-player", url, play_for=3, env={"XDG_STATE_HOME": state})
        return run("alicia-player", url, env={"XDG_STATE_HOME": state}, from_start=False)
    finally:
        shutil.rmtree(state, ignore_errors=True)


class BlackHole:
    """A TCP server on 127.0.0.1 that takes connections and never answers: a sync server that hangs."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.held = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                self.held.append(self.sock.accept()[0])
            except OSError:
                return


def gpodder_server():
    """A real gpodder.net-API server (gpodder-fastapi-router, bench/run installs its venv), as the
    sync tests run it; (process, URL) or None when its venv is missing."""
    python = os.environ.get("ALICIA_TEST_GPODDER_PYTHON", "")
    if not os.access(python, os.X_OK):
        return None
    data = tempfile.mkdtemp(prefix="alicia-bench-gpodder.")
    port_file = os.path.join(data, "port")
    process = subprocess.Popen([python, os.path.join(ROOT, "Tests/Servers/gpodder_server.py"), data, port_file, "bench", "bench-pw"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not os.path.exists(port_file) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    with open(port_file) as f:
        return process, f"http://127.0.0.1:{int(f.read())}"


def synced_run(url, server):
    """alicia-player plays `url` with a sync account set up for `server` (a pass runs at start, on a
    thread of its own): its time to first audio."""
    home = tempfile.mkdtemp(prefix="alicia-bench-sync.")
    try:
        os.makedirs(os.path.join(home, "config/alicia-player"))
        account = os.path.join(home, "config/alicia-player/sync.json")
        with open(os.open(account, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            json.dump({"server": server, "user": "bench", "device": "bench", "password": "bench-pw", "dialect": "gpodder.net"}, f)
        return run("alicia-player", url, env={"XDG_CONFIG_HOME": os.path.join(home, "config"),
                                              "XDG_DATA_HOME": os.path.join(home, "data"),
                                              "XDG_STATE_HOME": os.path.join(home, "state")})
    finally:
        shutil.rmtree(home, ignore_errors=True)


def cache_run(url):
    """alicia-player downloads `url` into an empty cache, then plays it (from the cache): its time to
    first audio."""
    cache = tempfile.mkdtemp(prefix="alicia-bench-cache.")
    try:
        subprocess.run([os.path.join(ROOT, ".build/release/alicia-player"), "download", url], check=True,
                       env=dict(os.environ, XDG_CACHE_HOME=cache), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return run("alicia-player", url, env={"XDG_CACHE_HOME": cache})
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def whole_run(player, url):
    """Plays `url` to its end as a user runs it (alicia-player's defaults, matched loudness on) under
    `/usr/bin/time -f %M`; returns its peak RSS as time reports it."""
    sink = Sink()
    report = tempfile.NamedTemporaryFile(prefix="alicia-bench-time.", delete=False)
    report.close()
    cmd = ["/usr/bin/time", "-f", "%M", "-o", report.name] + command(player, sink.name, url, extra=[])
    try:
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        with open(report.name) as f:
            return {"rss": int(f.read().split()[-1])}
    finally:
        os.unlink(report.name)
        sink.close()


def join_gap_run(player, first, second):
    """Plays `first` then `second` as one queue into a kept capture; returns the frames of silence
    between the first and the last audible frame (the test files have no silent frame) and whether
    the audio is exactly the two files' samples in order."""
    sink = Sink(keep=True)
    if player == "alicia-player":
        cmd = [os.path.join(ROOT, ".build/release/alicia-player"), "play", first, second, "--device", sink.name, "--from-start",
               "--loudness", "off"]
    else:
        cmd = ["mpv", "--no-config", "--no-video", "--really-quiet", "--gapless-audio=yes", "--ao=pulse",
               f"--audio-device=pulse/{sink.name}", first, second]
    frames, start, end = played_through(cmd, sink, timeout=60)
    if start is None:
        return {"gap": None, "exact": False}
    inside = frames[start:end + 1]
    expected = bytearray()
    for path in (first, second):
        local = path if not path.startswith("http") else os.path.join(ROOT, "bench", "out", path.rsplit("/", 1)[1])
        with open(local, "rb") as f:
            expected += f.read()[44:]
    return {"gap": inside.count(0), "exact": inside.tobytes() == bytes(expected)}


def queue_rss_run(player, path, entries=1000, play_for=10):
    """Peak RSS while playing the first of `entries` queued copies of one local file."""
    sink = Sink()
    if player == "alicia-player":
        cmd = [os.path.join(ROOT, ".build/release/alicia-player"), "play"] + [path] * entries + ["--device", sink.name, "--from-start",
                                                                                               "--loudness", "off"]
    else:
        cmd = ["mpv", "--no-config", "--no-video", "--really-quiet", "--ao=pulse", f"--audio-device=pulse/{sink.name}"] + [path] * entries
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while sink.first_audio is None and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.01)
    end = (sink.first_audio or time.monotonic()) + play_for
    while time.monotonic() < end and process.poll() is None:
        time.sleep(0.05)
    stats = proc_stats(process.pid) if process.poll() is None else (None, None, None)
    process.send_signal(signal.SIGINT)
    _wait_or_kill(process)
    sink.close()
    return {"rss": stats[0]}


def ipc_roundtrip_run(player, path, requests=1000):
    """Round trips of `get_property time-pos` over the player's JSON IPC socket while it plays:
    the median in seconds (the first 50 are a warm-up)."""
    import json, socket as sockets
    sink = Sink()
    socket_path = os.path.join(sink.dir, "ipc.sock")
    if player == "alicia-player":
        cmd = [os.path.join(ROOT, ".build/release/alicia-player"), "play", path, "--device", sink.name, "--from-start",
               "--ipc", socket_path]
    else:
        cmd = ["mpv", "--no-config", "--no-video", "--really-quiet", "--ao=pulse", f"--audio-device=pulse/{sink.name}",
               f"--input-ipc-server={socket_path}", path]
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = sockets.socket(sockets.AF_UNIX, sockets.SOCK_STREAM)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            client.connect(socket_path)
            break
        except OSError:
            time.sleep(0.01)
    while sink.first_audio is None and time.monotonic() < deadline:
        time.sleep(0.01)
    reader = client.makefile("rb")
    request = json.dumps({"command": ["get_property", "time-pos"], "request_id": 1}).encode() + b"\n"
    times = []
    for i in range(requests + 50):
        began = time.perf_counter()
        client.sendall(request)
        while True:
            reply = json.loads(reader.readline())
            if "event" not in reply:
                break
        if i >= 50:
            times.append(time.perf_counter() - began)
    client.close()
    process.send_signal(signal.SIGINT)
    _wait_or_kill(process)
    sink.close()
    return {"roundtrip": statistics.median(times)}


def download_run(player, url, size):
    """Throughput of downloading `url` (a 10-minute WAV on the loopback nginx) into a fresh place:
    `alicia-player download URL` into an empty cache (a .part, fsync, renamed into place) against
    `curl -s -o FILE URL`, both run to completion; bytes per second of wall time."""
    place = tempfile.mkdtemp(prefix="alicia-bench-download.")
    try:
        if player == "alicia-player":
            env = dict(os.environ, XDG_CACHE_HOME=place, XDG_CONFIG_HOME=place)
            cmd = [os.path.join(ROOT, ".build/release/alicia-player"), "download", url]
        else:
            env = dict(os.environ)
            cmd = ["curl", "-s", "-o", os.path.join(place, "out.wav"), url]
        began = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elapsed = time.perf_counter() - began
        written = sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(place) for f in files
                      if f.endswith(".wav"))
        if written != size:
            raise SystemExit(f"bench: {player} wrote {written} bytes of {size}")
        return {"throughput": size / elapsed}
    finally:
        shutil.rmtree(place, ignore_errors=True)


def target_windows(path, seconds_at, span=2.0):
    """The 16-byte windows of the source's frames from `seconds_at` on, for `span` seconds."""
    with open(path, "rb") as f:
        f.seek(44 + int(seconds_at * RATE) * CHANNELS * WIDTH)
        region = f.read(int(span * RATE) * CHANNELS * WIDTH + 16)
    return {region[i:i + 16] for i in range(0, len(region) - 15, 4)}


def seek_run(player, url, path, fraction=0.5, log=None):
    """Starts playing from the start, then seeks to `fraction` of the file: the Studio's digit key
    through a pseudo-terminal for alicia-player, the IPC socket's absolute-percent seek for mpv.
    Returns seconds from the seek command to the first frame of the target at the sink.

    The seek is sent at a random point of the sink's tick: the sink's ticks are locked to when the
    stream started, so a fixed delay would land every run at the same phase and measure where that
    phase falls rather than the player. With `log`, alicia-player writes its debug log there."""
    import pty, json, random
    duration = (os.path.getsize(path) - 44) / BYTE_RATE
    sink = Sink(watch=target_windows(path, duration * fraction))
    socket_path = os.path.join(sink.dir, "mpv.sock")
    if player == "alicia-player":
        master, slave = pty.openpty()
        import fcntl, termios
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", ALICIA_LOUDNESS="off")
        if log:
            env.update(ALICIA_LOG="debug", ALICIA_LOG_FILE=log)
        process = subprocess.Popen(command(player, sink.name, url), stdin=slave, stdout=slave, stderr=slave,
                                   env=env, start_new_session=True)
        os.close(slave)
        drain = threading.Thread(target=lambda: _drain(master), daemon=True)
        drain.start()
    else:
        master = None
        process = subprocess.Popen(command(player, sink.name, url) + [f"--input-ipc-server={socket_path}"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while sink.first_audio is None and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.005)
    time.sleep(1.0 + random.uniform(0, SINK_TICK))  # playing steadily before the seek
    sent = time.monotonic()
    if player == "alicia-player":
        os.write(master, str(int(fraction * 10)).encode())
    else:
        with socket.socket(socket.AF_UNIX) as client:
            client.connect(socket_path)
            client.sendall((json.dumps({"command": ["seek", fraction * 100, "absolute-percent"]}) + "\n").encode())
    deadline = time.monotonic() + 10
    while sink.target_seen is None and time.monotonic() < deadline:
        time.sleep(0.001)
    latency = (sink.target_seen - sent) if sink.target_seen else None
    if master is not None:
        os.write(master, b"q")
    else:
        process.send_signal(signal.SIGINT)
    _wait_or_kill(process)
    if master is not None:
        os.close(master)
    sink.close()
    return {"seek": latency}


def engine_seek_run(url, path):
    """alicia-player's own part of a seek, from its debug log: from taking the seek command to
    uncorking the new segment with its prebuffer queued (what a sink with no tick would add to)."""
    log = tempfile.mktemp(prefix="alicia-bench-log.")
    try:
        seek_run("alicia-player", url, path, log=log)
        stamps = {}
        with open(log) as f:
            for line in f:
                stamp, _, text = line.partition(" ")
                if "flushing" in text and "seek to frame" in text:
                    stamps["seek"] = float(stamp)
                elif "uncorking" in text and "seek" in stamps and "uncork" not in stamps:
                    stamps["uncork"] = float(stamp)
        if "seek" in stamps and "uncork" in stamps:
            return {"engine": (stamps["uncork"] - stamps["seek"]) / 1000}
        return {"engine": None}
    finally:
        if os.path.exists(log):
            os.remove(log)


def _wait_or_kill(process, timeout=5):
    """Waits up to `timeout` seconds for a player told to stop (or ending), then kills it."""
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _drain(fd):
    """Reads what the Studio draws, so its writes never block."""
    while True:
        try:
            if not os.read(fd, 65536):
                return
        except OSError:
            return


class DemoVoice:
    """`alicia-player demo --serve --voicing ...`: a demo backend whose /api/speak voices each text in
    time (chunk n `delays[n]` seconds after the text's first ask), for the read-aloud rows."""

    def __init__(self, delays):
        self.port = free_port()
        self.token = "bench%d" % os.getpid()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen([os.path.join(ROOT, ".build/release/alicia-player"), "demo", "--serve",
                                         "--port", str(self.port), "--token", self.token,
                                         "--voicing", ",".join(str(d) for d in delays)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the demo backend did not start")

    def env(self):
        return {"ALICIA_BASE_URL": self.base, "ALICIA_TOKEN": self.token}

    def speak(self, text):
        import json, urllib.request
        request = urllib.request.Request(self.base + "/api/speak", data=json.dumps({"text": text, "kind": "synthesis"}).encode(),
                                         headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as reply:
            return json.load(reply)

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        _wait_or_kill(self.process)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def first_chunk_run(voice, first_delay, wait_until_ready=False):
    """A warming synthesis read aloud: seconds from its first chunk being voiced (`first_delay` after
    the first ask) to the first audio. As it renders: `alicia-player speak TEXT`. Waiting until
    ready (as before): /api/speak asked once a second until `ready`, then its chunks played."""
    sink = Sink()
    text = f"Bench read-aloud {time.time_ns()}."
    player = os.path.join(ROOT, ".build/release/alicia-player")
    env = dict(os.environ, **voice.env())
    began = time.monotonic()
    if wait_until_ready:
        while True:
            status = voice.speak(text)
            if status["status"] == "ready":
                break
            time.sleep(1)
        cmd = [player, "play", "--device", sink.name, "--loudness", "off", "--from-start"] + \
              [voice.base + c["url"] + "?token=" + voice.token for c in status["chunks"]]
    else:
        cmd = [player, "speak", text, "--device", sink.name, "--loudness", "off"]
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 30
    while sink.first_audio is None and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.002)
    after = (sink.first_audio - began - first_delay) if sink.first_audio else None
    process.send_signal(signal.SIGINT)
    _wait_or_kill(process)
    sink.close()
    return {"after_chunk": after}


READ_ALOUD = [
    "Read-aloud: first audio of a warming synthesis, after its first chunk is voiced (chunks voiced at 1 s and 7 s; "
    "`alicia-player speak`)",
    "Read-aloud: the same, waiting until ready (as before: /api/speak asked once a second until `ready`, then played; "
    "the ratio is to playing as it renders, a row up)",
]


def read_aloud_rows(runs):
    """The two read-aloud rows alone (`--only read-aloud`), as table rows."""
    voice = DemoVoice([1, 7])
    try:
        rendering = summary([first_chunk_run(voice, 1.0)["after_chunk"] for _ in range(runs)], "ms", 1000, 0)
        log(f"{READ_ALOUD[0]}: {rendering[0]}")
        ready = summary([first_chunk_run(voice, 1.0, wait_until_ready=True)["after_chunk"] for _ in range(runs)], "ms", 1000, 0)
        log(f"{READ_ALOUD[1]}: {ready[0]}")
    finally:
        voice.stop()
    ratio = f"{ready[1] / rendering[1]:.2f}" if rendering[1] and ready[1] is not None else "n/a"
    return [f"| {READ_ALOUD[0]} | {rendering[0]} |  |  | n/a |  |",
            f"| {READ_ALOUD[1]} | {ready[0]} |  |  | {ratio} |  |"]


def summary(values, unit, scale=1.0, digits=1):
    values = [v * scale for v in values if v is not None]
    if not values:
        return "n/a", None
    median = statistics.median(values)
    return f"{median:.{digits}f} {unit} ({min(values):.{digits}f}-{max(values):.{digits}f})", median


def write_section(path, heading, section):
    """Replaces the `## heading` section of the Markdown file at `path` with `section` (added at
    the end when there is none), keeping every other section as it is: bench/faults and bench/feeds
    write theirs this way."""
    text = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    start = text.find(f"\n## {heading}\n")
    if start >= 0:
        end = text.find("\n## ", start + 1)
        rest = text[end:] if end >= 0 else ""
        text = text[:start].rstrip("\n") + "\n\n" + section.rstrip("\n") + "\n" + rest
    else:
        text = text.rstrip("\n") + "\n\n" + section.rstrip("\n") + "\n"
    with open(path, "w") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", default=os.path.join(ROOT, "BENCHMARKS.md"))
    parser.add_argument("--only", help="measure only the figures whose title contains this (case-insensitive; "
                        "alternatives split by |); "
                        "prints the table without writing --out")
    args = parser.parse_args()

    if args.only and "read-aloud" in args.only.lower():
        # The read-aloud rows need only the release binary (its own demo backend): no media, no nginx.
        for row in read_aloud_rows(args.runs):
            print(row)
        return
    media = os.path.join(ROOT, "bench", "out")
    os.makedirs(media, exist_ok=True)
    log("generating test files (10 min and 2 h, 48 kHz 16-bit stereo)")
    wav(os.path.join(media, "ten-minutes.wav"), 600, 1)
    wav(os.path.join(media, "two-hours.wav"), 7200, 2)
    wav(os.path.join(media, "join-a.wav"), 5, 3)
    wav(os.path.join(media, "six-seconds.wav"), 6, 5)
    wav(os.path.join(media, "join-b.wav"), 5, 4)
    log("generating a 2-hour MP3 and a 10-minute M4A (ffmpeg)")
    podcast_mp3(os.path.join(media, "two-hours.mp3"), 7200)
    podcast_m4a(os.path.join(media, "ten-minutes.m4a"), 600)
    nginx = Nginx(media)
    players = ["alicia-player", "mpv"]
    rows = []

    def compare(title, key, unit, scale, digits, make, include_paplay=None, runs=None, only=None, against=None):
        """Measures a row; `against`: the title of an earlier row whose alicia-player median is the
        ratio's denominator (a feature's cost over plain playback), instead of mpv's."""
        if args.only and not any(part.lower() in title.lower() for part in args.only.split("|")):
            return
        results = {}
        for player in list(only or players) + ([include_paplay[0]] if include_paplay else []):
            samples = []
            for _ in range(runs or args.runs):
                samples.append(make(player)[key])
            results[player] = summary(samples, unit, scale, digits)
            log(f"{title}: {player} {results[player][0]}")
        ratio = None
        a, m = results["alicia-player"][1], results.get("mpv", results.get("curl", ("", None)))[1]
        if against is not None:
            m = next((r[1]["alicia-player"][1] for r in rows if r[0] == against), None)
        if a is not None and m:
            ratio = a / m
        rows.append((title, results, ratio))

    try:
        two_hours = nginx.url("two-hours.wav")
        ten_local = os.path.join(media, "ten-minutes.wav")

        def first_audio(title, make, only=None, floor=None):
            """A first-audio row, with paplay's (a local file from its start: the floor; `floor` says
            how, when not plainly) in the same run."""
            compare(f"Time to first audio, {title}", "ttfa", "ms", 1000, 0,
                    lambda p: make(p) if p != "paplay" else (floor or (lambda q: run(q, ten_local)))(p),
                    include_paplay=["paplay"], only=only)

        first_audio("a local file", lambda p: run(p, ten_local))
        first_audio("from the start (HTTP)", lambda p: run(p, two_hours, nginx=nginx))
        plain_http = "Time to first audio, from the start (HTTP)"
        hole = BlackHole()
        compare("Time to first audio, from the start (HTTP), sync set up with a server that never answers "
                "(alicia-player only; ratio to its plain row)", "ttfa", "ms", 1000, 0,
                lambda p: synced_run(two_hours, f"http://127.0.0.1:{hole.port}"), only=["alicia-player"], against=plain_http)
        real = gpodder_server()
        if real:
            compare("Time to first audio, from the start (HTTP), sync set up with a real gpodder.net server "
                    "(alicia-player only; ratio to its plain row)", "ttfa", "ms", 1000, 0,
                    lambda p: synced_run(two_hours, real[1]), only=["alicia-player"], against=plain_http)
            real[0].terminate()
        first_audio("--start 1:00:00 of 2 h (HTTP)", lambda p: run(p, two_hours, start="3600", nginx=nginx))
        first_audio("the first item of a queue of two (HTTP)",
                    lambda p: run(p, two_hours, nginx=nginx, then=[nginx.url("ten-minutes.wav")]))
        first_audio("from a resume position (HTTP; alicia-player only)", lambda p: resume_run(nginx.url("ten-minutes.wav")),
                    only=["alicia-player"])
        first_audio("from the cache (alicia-player only)", lambda p: cache_run(nginx.url("ten-minutes.wav")),
                    only=["alicia-player"])

        def under_load(p):
            with BusyLoops(2):
                return run(p, ten_local)

        first_audio("a local file, two busy loops beside it", under_load, floor=under_load)
        compare("2x speed for 20 s with two busy loops beside it (HTTP): gaps in the sound (silent runs)", "gaps", "gaps", 1, 0,
                lambda p: gaps_run(p, two_hours, speed=2))
        compare("Seek to audio: to 50 % of 2 h while playing (HTTP)", "seek", "ms", 1000, 0,
                lambda p: seek_run(p, two_hours, os.path.join(media, "two-hours.wav")), runs=3 * args.runs)
        compare("Seek, the player's part: command to uncorked with the prebuffer queued", "engine", "ms", 1000, 1,
                lambda p: engine_seek_run(two_hours, os.path.join(media, "two-hours.wav")), only=["alicia-player"])
        compare("Peak RSS, `play URL` of a 6-second WAV to its end (HTTP; as `/usr/bin/time -f %M` measures it)",
                "rss", "MiB", 1 / 1024, 1, lambda p: whole_run(p, nginx.url("six-seconds.wav")))
        compare("Peak RSS, 10-minute WAV, 10 s played (HTTP)", "rss", "MiB", 1 / 1024, 1,
                lambda p: run(p, nginx.url("ten-minutes.wav"), play_for=10, nginx=nginx))
        compare("Peak RSS, 2-hour WAV, 10 s played (HTTP)", "rss", "MiB", 1 / 1024, 1,
                lambda p: run(p, two_hours, play_for=10, nginx=nginx))
        plain_cpu = "CPU per minute of audio at 1x (user+sys, 20 s played)"
        compare(plain_cpu, "cpu", "s", 3, 2,
                lambda p: run(p, two_hours, play_for=20, nginx=nginx))
        compare("CPU per minute of audio at 2x, pitch kept (user+sys, 20 s = 40 s of audio played)", "cpu", "s", 1.5, 2,
                lambda p: run(p, two_hours, play_for=20, nginx=nginx, speed=2))
        compare("CPU per minute of audio at 1x with --skip-silence and --loudness -16 (user+sys, 20 s played; "
                "the ratio is to plain 1x, two rows up)", "cpu", "s", 3, 2,
                lambda p: run(p, two_hours, play_for=20, nginx=nginx,
                              extra=["--skip-silence=medium", "--loudness", "-16"]), only=["alicia-player"],
                against=plain_cpu)
        exact = {}

        def join(player, first, second, where):
            result = join_gap_run(player, first, second)
            exact.setdefault((player, where), []).append(result["exact"])
            return result

        join_a, join_b = os.path.join(media, "join-a.wav"), os.path.join(media, "join-b.wav")
        compare("Join gap: frames of silence between two 5 s WAVs, local (mpv --gapless-audio=yes)", "gap", "frames", 1, 0,
                lambda p: join(p, join_a, join_b, "local"))
        compare("Join gap: frames of silence between two 5 s WAVs, HTTP (mpv --gapless-audio=yes)", "gap", "frames", 1, 0,
                lambda p: join(p, nginx.url("join-a.wav"), nginx.url("join-b.wav"), "HTTP"))
        compare("Peak RSS, a queue of 1,000 entries, 10 s played", "rss", "MiB", 1 / 1024, 1,
                lambda p: queue_rss_run(p, join_a))
        compare("IPC round trip: get_property time-pos on the JSON socket while playing (median of 1,000)", "roundtrip", "µs",
                1e6, 0, lambda p: ipc_roundtrip_run(p, join_a))
        compare("Bytes fetched, 10 s played from the start of 2 h", "fetched", "MiB", 1 / 2**20, 2,
                lambda p: run(p, two_hours, play_for=10, nginx=nginx))
        compare("Bytes fetched, 10 s played from 80 % of 2 h", "fetched", "MiB", 1 / 2**20, 2,
                lambda p: run(p, two_hours, start="5760", play_for=10, nginx=nginx))
        compare("Peak RSS, 10-minute AAC (M4A, 96 kb/s), 10 s played (HTTP; the ratio is to the 10-minute WAV's)",
                "rss", "MiB", 1 / 1024, 1, lambda p: run(p, nginx.url("ten-minutes.m4a"), play_for=10, nginx=nginx),
                only=["alicia-player"], against="Peak RSS, 10-minute WAV, 10 s played (HTTP)")
        wav_now = "RSS while playing (at 10 s), 10-minute WAV (HTTP)"
        compare(wav_now, "rss_now", "MiB", 1 / 1024, 1,
                lambda p: run(p, nginx.url("ten-minutes.wav"), play_for=10, nginx=nginx), only=["alicia-player"])
        compare("RSS while playing (at 10 s), 10-minute AAC (M4A, 96 kb/s) (HTTP; the ratio is to the WAV's, a row up)",
                "rss_now", "MiB", 1 / 1024, 1, lambda p: run(p, nginx.url("ten-minutes.m4a"), play_for=10, nginx=nginx),
                only=["alicia-player"], against=wav_now)
        # A resume reaches the engine as a start position: --start 90 % is the same path.
        mp3_redirected = nginx.redirect_url("two-hours.mp3")
        compare("Time to first audio, MP3 (2 h, 32 kb/s) from 90 % through a 302 → 302 chain", "ttfa", "ms", 1000, 0,
                lambda p: run(p, mp3_redirected, start="6480", nginx=nginx))
        hops = {}

        def redirected(player):
            result = run(player, mp3_redirected, start="6480", play_for=10, nginx=nginx)
            hops.setdefault(player, []).append((result["requests"], result["hops"]))
            return result

        compare("Bytes fetched, MP3 (2 h, 32 kb/s) from 90 % through a 302 → 302 chain, 10 s played", "fetched", "MiB",
                1 / 2**20, 2, redirected)
        ten_minutes = os.path.join(media, "ten-minutes.wav")
        compare("Download throughput, 10-minute WAV on loopback (the mpv column is `curl -o`)", "throughput", "MiB/s",
                1 / 2**20, 0, lambda p: download_run(p, nginx.url("ten-minutes.wav"), os.path.getsize(ten_minutes)),
                only=["alicia-player", "curl"])
        voice = DemoVoice([1, 7])
        try:
            compare(READ_ALOUD[0], "after_chunk", "ms", 1000, 0, lambda p: first_chunk_run(voice, 1.0), only=["alicia-player"])
            compare(READ_ALOUD[1], "after_chunk", "ms", 1000, 0, lambda p: first_chunk_run(voice, 1.0, wait_until_ready=True),
                    only=["alicia-player"], against=READ_ALOUD[0])
        finally:
            voice.stop()
        speech = os.path.join(media, "speech-like.wav")
        pauses = speech_wav(speech, 60, seed=0x5EC)
        for level in SILENCE_LEVELS:
            compare(f"Skip silence, time saved on 60 s of a speech-like signal ({len(pauses)} pauses of 80 ms to 3 s): "
                    f"{level} (its rules predict {predicted_saving(pauses, level):.1f} s)", "saved", "s", 1, 1,
                    lambda p, level=level: skip_silence_run(speech, level), only=["alicia-player"], runs=1)
    finally:
        nginx.stop()

    versions = {
        "alicia-player": subprocess.run([os.path.join(ROOT, ".build/release/alicia-player"), "--version"],
                                        capture_output=True, text=True).stdout.strip(),
        "mpv": " ".join(subprocess.run(["mpv", "--version"], capture_output=True, text=True).stdout.split()[:2]),
        "pulseaudio": subprocess.run(["pulseaudio", "--version"], capture_output=True, text=True).stdout.strip(),
        "nginx": subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip(),
    }
    with open("/proc/meminfo") as f:
        memory = int(f.readline().split()[1]) / 2**20
    table = ["| figure | alicia-player | mpv | paplay | alicia-player / mpv | alicia-player / paplay |",
             "| --- | --- | --- | --- | --- | --- |"]
    for title, results, ratio in rows:
        a, floor = results["alicia-player"][1], results.get("paplay", ("", None))[1]
        to_paplay = f"{a / floor:.2f}" if a is not None and floor else ""
        table.append(f"| {title} | {results['alicia-player'][0]} | {results.get('mpv', results.get('curl', ('',)))[0]} | "
                     f"{results.get('paplay', ('',))[0]} | {f'{ratio:.2f}' if ratio is not None else 'n/a'} | {to_paplay} |")
    played = 10 * BYTE_RATE / 2**20
    text = "\n".join([
        "# Benchmarks",
        "",
        f"Measured by `bench/run` on {datetime.date.today().isoformat()}: {os.cpu_count()} cores, "
        f"{memory:.1f} GiB, {platform.platform()}.",
        "Versions: " + "; ".join(versions.values()) + ".",
        f"Each figure: median of {args.runs} runs (min-max; seeks: {3 * args.runs} runs). Loopback nginx; each run plays into its own",
        "PulseAudio pipe sink; first audio = the first non-silent byte out of the sink's FIFO.",
        f"For reference, 10 s of the test audio is {played:.2f} MiB; alicia-player's read-ahead is 10 s more.",
        "",
        *table,
        "",
        "First audio: from starting the player to the first non-silent byte out of its sink; paplay plays",
        "the 10-minute WAV from a local file on every first-audio row, in the same run, as the floor",
        "(libpulse and libsndfile, nothing else). The resume row plays 3 s, stops (SIGINT) and starts again",
        "with the same state; the cache row downloads the file first. Under load: two busy loops",
        "(`sh -c 'while :; do :; done'`) at normal priority beside the player, one per core. Gaps at 2x:",
        "silent runs between the first and the last audible frame of a 20 s capture (the noise has no",
        "silent frame of its own).",
        "",
        "Seek to audio: alicia-player gets the Studio's `5` key through a pseudo-terminal, mpv an",
        "absolute-percent seek on its IPC socket; timed from the command to the first frame of the target",
        f"position out of the sink. The sink emits audio in ticks of {SINK_TICK * 1000:.1f} ms (one 4096-byte pipe",
        "buffer), so new audio waits 0 to one tick for the next one; each seek is sent at a random phase",
        "of the tick. The player's own part (alicia-player only) comes from its debug log, in separate runs.",
        "",
        "Download throughput: wall time of `alicia-player download URL` into an empty cache (a `.part`,",
        "fsync, renamed into place) against `curl -s -o FILE URL` (no fsync), each run to completion. The",
        "download writes 1 MiB at a time (libcurl hands over 16 KiB pieces) and starts the disk's writeback",
        "every 8 MiB, so its closing fsync has little left to wait for; curl leaves the whole file dirty in",
        "the page cache for the kernel to write later.",
        "",
        "Join gap: the two files played as one queue into one pipe sink; the silent frames counted between",
        "the first and the last audible frame (the noise has none of its own). Bit-exact (the capture is",
        "the two files' samples in order, nothing dropped or repeated), by run: "
        + "; ".join(f"{player} {where}: {', '.join('yes' if ok else 'no' for ok in runs)}"
                    for (player, where), runs in sorted(exact.items())) + ".",
        "",
        "MP3 through redirects: a 2-hour, 32 kb/s MP3 (28.8 MB; ffmpeg's Info frame with its table of",
        "contents) behind `/hop1/` → 302 `/hop2/` → 302 `/media/`, started at 1:48:00 (90 %), as a resume",
        "starts it. Requests (of them, through the hops), by run: "
        + "; ".join(f"{player}: {', '.join(f'{r} ({h})' for r, h in runs)}" for player, runs in sorted(hops.items())) + ".",
        "",
        "Read-aloud: `alicia-player demo --serve --voicing 1,7` (its /api/speak voices a text's first chunk 1 s",
        "after the text is first asked for, its second after 7 s, then says `ready`); the figure is the time",
        "from starting the player to its first audio, less that 1 s. As it renders: `alicia-player speak TEXT`.",
        "Waiting until ready, as the player did before: /api/speak asked once a second until `ready`, then",
        "`alicia-player play` of the chunks.",
        "",
    ])
    if not args.only:
        # bench/faults and bench/feeds write sections of their own (## Faults, ## Feeds: each to the
        # next "## " or the end): keep every one this script does not write.
        if os.path.exists(args.out):
            old = open(args.out).read()
            ours = {line for line in text.splitlines() if line.startswith("## ")}
            starts = [i for i in range(len(old)) if old.startswith("\n## ", i)]
            for index, start in enumerate(starts):
                end = starts[index + 1] if index + 1 < len(starts) else len(old)
                section = old[start:end]
                if section.splitlines()[1] not in ours:
                    text = text.rstrip("\n") + "\n" + section.rstrip("\n") + "\n"
        with open(args.out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
