#!/usr/bin/env python3
"""Side-by-side figures for alicia-player's podcast commands (subscribe, refresh, episodes) against
newsboat and gPodder's CLI (gpo), in one run; writes the "Feeds" section of BENCHMARKS.md.

Started by bench/feeds, which installs what is missing and builds the release binary. Everything is
on this machine: a small threaded HTTP server of this script's own serves generated RSS feeds from
four ports of 127.0.0.1 (four origins: alicia-player counts "a host" by host and port), waits a
fixed latency (50 ms) before every answer, 200 or 304 alike, and honours If-None-Match and
If-Modified-Since with a stable ETag and Last-Modified; it gzips a body when asked to. Each tool run
has a temp home of its own (HOME, XDG_*, GPODDER_HOME) and is timed from outside (wall clock) under
/usr/bin/time (user+sys CPU, peak RSS). Each figure is the median of --runs runs (min-max).
"""
import argparse, datetime, email.utils, gzip, json, os, platform, re, shutil, signal, sqlite3, statistics
import subprocess, sys, tempfile, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from bench import write_section  # noqa: E402 (one way to replace a section of BENCHMARKS.md)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALICIA = os.path.join(ROOT, ".build", "release", "alicia-player")
TIME = "/usr/bin/time"
BASE = 1_700_000_000  # the newest episode's date of version 1 of every feed (2023-11-14)
WORDS = ("signal harbour lantern tide compass orbit meadow ember quarry willow cipher atlas "
         "beacon drift falcon garnet hollow island juniper kestrel lumen marrow nimbus opal").split()


def log(text):
    print(f"bench/feeds: {text}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Feeds and the server


def words(seed, count):
    return " ".join(WORDS[(seed * 7 + i * 13) % len(WORDS)] for i in range(count))


def rss(title, origin, slug, items, base):
    """An RSS 2.0 feed with the iTunes tags, `items` episodes numbered newest first from `items`
    down to 1, each with an enclosure, about 1 KB an item; episode `base` is dated BASE, one a day
    (so a version with one more episode keeps the others' dates)."""
    newest = items
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" '
        'xmlns:content="http://purl.org/rss/1.0/modules/content/">\n<channel>\n'
        f"<title>{title}</title>\n<link>{origin}/show/{slug}</link>\n"
        f"<description>{words(len(slug), 30)}</description>\n<language>en-us</language>\n"
        f"<itunes:author>The {title} team</itunes:author>\n"
        f'<itunes:image href="{origin}/art/{slug}.jpg"/>\n'
        '<itunes:category text="Technology"/>\n<itunes:explicit>false</itunes:explicit>\n'
    ]
    for k in range(items):
        number = newest - k
        date = email.utils.formatdate(BASE + (number - base) * 86400 + 3600 * (number % 7), usegmt=True)
        seconds = 1200 + (number * 397) % 3600
        out.append(
            f"<item>\n<title>Episode {number}: {words(number, 5)}</title>\n"
            f"<link>{origin}/show/{slug}/{number}</link>\n"
            f'<guid isPermaLink="false">{slug}-episode-{number}</guid>\n'
            f"<pubDate>{date}</pubDate>\n"
            f"<description>{words(number, 60)}. Number {number} of the show.</description>\n"
            f'<enclosure url="{origin}/media/{slug}/{number}.mp3" length="{seconds * 16000}" type="audio/mpeg"/>\n'
            f"<itunes:duration>{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}</itunes:duration>\n"
            f"<itunes:episode>{number}</itunes:episode>\n<itunes:episodeType>full</itunes:episodeType>\n"
            "</item>\n")
    out.append("</channel>\n</rss>\n")
    return "".join(out).encode()


class Feeds:
    """What the servers answer: /feed/N.xml (the refresh set, `items` episodes; version 2 has one
    more, with a new ETag and Last-Modified) and /big/N.xml (the library set, `big_items` each)."""

    def __init__(self, ports, count, items, big_count, big_items):
        self.ports, self.count, self.items = ports, count, items
        self.big_count, self.big_items = big_count, big_items
        self.latency = 0.0
        self.version = 1
        self.lock = threading.Lock()
        self.counts = {}
        self.times = []
        self.cache = {}

    def origin(self, n):
        return f"http://127.0.0.1:{self.ports[n % len(self.ports)]}"

    def url(self, kind, n):
        return f"{self.origin(n)}/{kind}/{n}.xml"

    def entry(self, port, path):
        m = re.fullmatch(r"/(feed|big)/(\d+)\.xml", path)
        if not m:
            return None
        kind, n = m.group(1), int(m.group(2))
        limit = self.count if kind == "feed" else self.big_count
        if n >= limit or self.ports[n % len(self.ports)] != port:
            return None
        version = self.version if kind == "feed" else 1
        key = (kind, n, version)
        with self.lock:
            hit = self.cache.get(key)
        if hit:
            return hit
        items = (self.items if kind == "feed" else self.big_items) + version - 1
        body = rss(f"{'Show' if kind == 'feed' else 'Archive'} {n} {words(n, 2).title()}", self.origin(n),
                   f"{kind}{n}", items, items - version + 1)
        modified = BASE + 3600 * version
        hit = (f'"{kind}{n}-v{version}"', email.utils.formatdate(modified, usegmt=True), modified,
               body, gzip.compress(body, 6))
        with self.lock:
            self.cache[key] = hit
        return hit

    def warm(self):
        """Makes every body the runs ask for before any run, so that no run waits on Python making one."""
        for version in (1, 2):
            self.version = version
            for n in range(self.count):
                self.entry(self.ports[n % len(self.ports)], f"/feed/{n}.xml")
        self.version = 1
        for n in range(self.big_count):
            self.entry(self.ports[n % len(self.ports)], f"/big/{n}.xml")

    def arrived(self):
        with self.lock:
            self.times.append((time.monotonic(), 1))

    def count_answer(self, what):
        with self.lock:
            self.counts[what] = self.counts.get(what, 0) + 1
            self.times.append((time.monotonic(), -1))

    def take_counts(self):
        with self.lock:
            counts, self.counts, self.times = self.counts, {}, []
        return counts

    def longest_silence(self, begin, end):
        """The longest stretch between `begin` and `end` in which no request came in and no answer
        went out, when it began (seconds after `begin`) and how many requests the server held
        then: where a slow run spent its time, on the server's side (requests held) or the tool's."""
        with self.lock:
            events = sorted(e for e in self.times if begin <= e[0] <= end)
        marks, held, holding = [begin], [0], 0
        for t, step in events:
            holding += step
            marks.append(t)
            held.append(holding)
        marks.append(end)
        gap, at, waiting = max((b - a, a - begin, h) for a, b, h in zip(marks, marks[1:], held))
        return gap, at, waiting


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # The headers and the body go out in two writes: with Nagle's algorithm on, the body would wait
    # for the client's delayed ACK of the headers (40 ms on Linux) on every 200.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def do_GET(self):
        feeds = self.server.feeds
        feeds.arrived()
        if feeds.latency:
            time.sleep(feeds.latency)
        hit = feeds.entry(self.server.server_address[1], self.path.split("?")[0])
        if hit is None:
            feeds.count_answer("404 " + self.path.split("/")[1])
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        etag, modified_text, modified, body, zipped = hit
        match = self.headers.get("If-None-Match")
        since = self.headers.get("If-Modified-Since")
        if match is not None:
            fresh = match.strip() == "*" or etag in [t.strip().removeprefix("W/") for t in match.split(",")]
        elif since is not None:
            try:
                fresh = email.utils.parsedate_to_datetime(since).timestamp() >= modified
            except (TypeError, ValueError):
                fresh = False
        else:
            fresh = False
        if fresh:
            feeds.count_answer("304")
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", modified_text)
            self.end_headers()
            return
        accept = self.headers.get("Accept-Encoding", "")
        compressed = any(part.strip().split(";")[0] == "gzip" and "q=0" not in part.replace(" ", "")
                         for part in accept.split(","))
        data = zipped if compressed else body
        feeds.count_answer("200 gzip" if compressed else "200")
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml; charset=utf-8")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", modified_text)
        if compressed:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128


def start_servers(feeds_args):
    servers = [Server(("127.0.0.1", 0), Handler) for _ in range(4)]
    ports = [s.server_address[1] for s in servers]
    feeds = Feeds(ports, *feeds_args)
    for s in servers:
        s.feeds = feeds
        threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
    return feeds, servers


# ---------------------------------------------------------------------------------------------
# Running the tools


class Home:
    """A temp home for one tool run: HOME, XDG_* and GPODDER_HOME inside it."""

    def __init__(self, parent, name):
        self.dir = tempfile.mkdtemp(prefix=name + ".", dir=parent)
        self.env = dict(os.environ)
        for key in [k for k in self.env if k.startswith(("XDG_", "ALICIA_", "GPODDER_"))]:
            del self.env[key]
        self.env.update(HOME=self.dir, XDG_DATA_HOME=f"{self.dir}/data", XDG_STATE_HOME=f"{self.dir}/state",
                        XDG_CACHE_HOME=f"{self.dir}/cache", XDG_CONFIG_HOME=f"{self.dir}/config",
                        GPODDER_HOME=f"{self.dir}/gpodder", GPODDER_DOWNLOAD_DIR=f"{self.dir}/gpodder/Downloads",
                        LANG="C.UTF-8", TERM="dumb")
        self.env.pop("DISPLAY", None)
        for sub in ("data", "state", "cache", "config", "gpodder"):
            os.makedirs(f"{self.dir}/{sub}", exist_ok=True)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


class Failed(Exception):
    pass


def pressure():
    """The kernel's stall totals (PSI, µs): some task waiting for a CPU, every task waiting on I/O."""
    totals = {}
    for kind, line in (("cpu", "some"), ("io", "full")):
        try:
            for text in open(f"/proc/pressure/{kind}"):
                if text.startswith(line):
                    totals[kind] = int(text.split("total=")[1])
        except OSError:
            pass
    return totals


def run(command, home, stdout, timeout):
    """Runs `command` in a process group of its own, all of which is killed if it outlives `timeout`
    or this script is stopped meanwhile."""
    process = subprocess.Popen(command, env=home.env, cwd=home.dir, stdin=subprocess.DEVNULL, stdout=stdout,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
    except BaseException as error:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
        if isinstance(error, subprocess.TimeoutExpired):
            raise Failed(f"{' '.join(command[:3])}: no end within {timeout} s")
        raise
    if process.returncode != 0:
        raise Failed(f"{' '.join(command[:4])}: exit {process.returncode}: {err.decode(errors='replace')[-600:]}")
    return out


def timed(command, home, timeout=900):
    """Runs `command` under /usr/bin/time; returns wall seconds, CPU seconds, peak RSS in MiB."""
    report = home.path("time.txt")
    stalls = pressure()
    begin = time.monotonic()
    run([TIME, "-f", "%U %S %M", "-o", report, *command], home, subprocess.DEVNULL, timeout)
    end = time.monotonic()
    wall = end - begin
    stalls = {k: (v - stalls[k]) / 1e6 for k, v in pressure().items() if k in stalls}
    line = open(report).read().strip().splitlines()[-1].split()
    user, system, rss_kib = float(line[0]), float(line[1]), int(line[2])
    return {"wall": wall, "cpu": user + system, "rss": rss_kib / 1024, "begin": begin, "end": end, "stalls": stalls}


def untimed(command, home, timeout=900):
    return run(command, home, subprocess.PIPE, timeout)


def opml(path, urls):
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n<head><title>bench</title></head>\n<body>\n')
        for i, url in enumerate(urls):
            f.write(f'<outline type="rss" text="Feed {i}" title="Feed {i}" xmlUrl="{url}"/>\n')
        f.write("</body>\n</opml>\n")


def count_rows(database, query):
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute(query).fetchone()[0]


class Alicia:
    name = "alicia-player"

    def __init__(self, home):
        self.home = home

    def command(self, *arguments):
        return [ALICIA, *arguments]

    def episodes(self):
        shows = json.loads(untimed(self.command("shows", "--json"), self.home))
        return sum(show["episodes"] for show in shows)


class Newsboat:
    def __init__(self, home, threads, urls):
        self.home = home
        self.name = "newsboat" if threads == 1 else f"newsboat-{threads}"
        with open(home.path("urls"), "w") as f:
            f.write("".join(url + "\n" for url in urls))
        with open(home.path("newsboat.conf"), "w") as f:
            f.write(f"reload-threads {threads}\nshow-read-feeds yes\n")

    def reload(self):
        return ["newsboat", "-u", self.home.path("urls"), "-c", self.home.path("cache.db"),
                "-C", self.home.path("newsboat.conf"), "-x", "reload"]

    def episodes(self):
        return count_rows(self.home.path("cache.db"), "SELECT count(*) FROM rss_item")


class Gpodder:
    name = "gPodder"

    def __init__(self, home):
        self.home = home

    def command(self, *arguments):
        return ["gpo", *arguments]

    def episodes(self):
        return count_rows(self.home.path("gpodder", "Database"), "SELECT count(*) FROM episode")


# ---------------------------------------------------------------------------------------------
# The figures


def summary(values):
    return statistics.median(values), min(values), max(values)


def fmt(kind, values):
    if not values:
        return ""
    median, low, high = summary(values)
    if kind == "rss":
        return f"{median:.1f} MiB ({low:.1f}-{high:.1f})"
    if median < 1:
        return f"{median * 1000:.0f} ms ({low * 1000:.0f}-{high * 1000:.0f})"
    return f"{median:.2f} s ({low:.2f}-{high:.2f})"


TOOLS = ["alicia-player", "newsboat", "newsboat-8", "gPodder"]
NAMES = {"alicia-player": "alicia-player", "newsboat": "newsboat", "newsboat-8": "newsboat, 8 threads", "gPodder": "gPodder"}


def record(results, row, tool, figures, answers=None, episodes=None, silence=None):
    slot = results.setdefault(row, {}).setdefault(tool, {"wall": [], "cpu": [], "rss": [], "answers": [], "episodes": [],
                                                         "silence": [], "stalls": []})
    for key in ("wall", "cpu", "rss"):
        slot[key].append(figures[key])
    if answers is not None:
        slot["answers"].append(answers)
    if episodes is not None:
        slot["episodes"].append(episodes)
    slot["silence"].append(silence)
    slot["stalls"].append(figures["stalls"])
    log(f"  {row} {tool}: {figures['wall']:.3f} s wall, {figures['cpu']:.2f} s CPU, {figures['rss']:.1f} MiB"
        + (f"; answers {answers}" if answers is not None else "") + (f"; {episodes} episodes" if episodes is not None else "")
        + (f"; longest silence {silence[0]:.2f} s at {silence[1]:.2f} s, {silence[2]} held" if silence else "")
        + "".join(f"; {k} pressure {v:.2f} s" for k, v in figures["stalls"].items()))


def refresh_rows(feeds, work, runs, results, tools):
    """Per run and tool, on a fresh home: the first fetch of the 200 feeds (every answer a 200 with a
    body), then a refresh where every feed answers 304, then one where every feed changed (one new
    episode, a new ETag: every answer a 200 with a body)."""
    urls = [feeds.url("feed", n) for n in range(feeds.count)]
    for run in range(runs):
        log(f"refresh, run {run + 1} of {runs}")
        for tool in tools:
            feeds.version = 1
            feeds.take_counts()
            home = Home(work, tool)
            try:
                if tool == "alicia-player":
                    a = Alicia(home)
                    opml(home.path("feeds.opml"), urls)
                    steps = [("first", a.command("subscribe", home.path("feeds.opml"))),
                             ("unchanged", a.command("refresh", "--quiet")), ("changed", a.command("refresh", "--quiet"))]
                    count = a.episodes
                elif tool.startswith("newsboat"):
                    n = Newsboat(home, 8 if tool == "newsboat-8" else 1, urls)
                    # newsboat keeps a feed's ETag and Last-Modified only from its second fetch on (the
                    # first stores them before the feed's row exists): its second reload asks without
                    # them and gets every body again. That one is untimed (its answers are noted), so
                    # that the timed one is the conditional reload the row is about.
                    steps = [("first", n.reload()), ("settle", n.reload()), ("unchanged", n.reload()),
                             ("changed", n.reload())]
                    count = n.episodes
                else:
                    g = Gpodder(home)
                    opml(home.path("feeds.opml"), urls)
                    steps = [("first", g.command("import", home.path("feeds.opml"))), ("unchanged", g.command("update")),
                             ("changed", g.command("update"))]
                    count = g.episodes
                for row, step in steps:
                    feeds.version = 2 if row == "changed" else 1
                    if row == "settle":
                        untimed(step, home)
                        answers = feeds.take_counts()
                        log(f"  {tool}: the untimed reload between the first and the conditional one: answers {answers}")
                        results.setdefault("settle", {}).setdefault(tool, []).append(answers)
                        continue
                    figures = timed(step, home)
                    silence = feeds.longest_silence(figures["begin"], figures["end"])
                    record(results, row, tool, figures, feeds.take_counts(), count(), silence)
            finally:
                home.remove()


def parse_row(feeds, work, runs, results, tools, big_file):
    """Subscribing to one local 5,000-episode feed file, on a fresh home each run."""
    for run in range(runs):
        log(f"parse, run {run + 1} of {runs}")
        for tool in [t for t in tools if t != "newsboat-8"]:  # one feed: its threads do not matter
            home = Home(work, tool)
            try:
                if tool == "alicia-player":
                    a = Alicia(home)
                    step, count = a.command("subscribe", big_file), a.episodes
                elif tool.startswith("newsboat"):
                    n = Newsboat(home, 1, ["file://" + big_file])
                    step, count = n.reload(), n.episodes
                else:
                    g = Gpodder(home)
                    untimed(g.command("set", "limit.episodes", "100000"), home)
                    step, count = g.command("subscribe", "file://" + big_file), g.episodes
                record(results, "parse", tool, timed(step, home), None, count())
            finally:
                home.remove()


def library_row(feeds, work, runs, results, tools):
    """Listing every episode of a library of 50 feeds of 1,000 episodes (subscribed first, untimed,
    with no added latency): alicia-player `episodes --json`, gPodder `gpo episodes` (text)."""
    urls = [feeds.url("big", n) for n in range(feeds.big_count)]
    feeds.latency = 0
    for tool in tools:
        home = Home(work, tool)
        try:
            opml(home.path("big.opml"), urls)
            if tool == "alicia-player":
                a = Alicia(home)
                untimed(a.command("subscribe", home.path("big.opml")), home)
                step, count = a.command("episodes", "--json"), a.episodes
                size = len(untimed(step, home))
                listed = len(json.loads(untimed(step, home)))
            elif tool == "gPodder":
                g = Gpodder(home)
                untimed(g.command("set", "limit.episodes", "100000"), home)
                untimed(g.command("import", home.path("big.opml")), home, timeout=1800)
                step, count = g.command("episodes"), g.episodes
                out = untimed(step, home)
                size, listed = len(out), sum(1 for line in out.decode().splitlines() if line.startswith("      "))
            else:
                continue
            log(f"library {tool}: {count()} episodes in the database, {listed} listed, {size / 1e6:.1f} MB printed")
            results.setdefault("library-size", {})[tool] = (count(), listed, size)
            for run in range(runs):
                record(results, "library", tool, timed(step, home), None, None)
        finally:
            home.remove()


def versions():
    def first(command, pattern=r"(.*)"):
        try:
            out = subprocess.run(command, capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.TimeoutExpired):
            return "?"
        m = re.search(pattern, out)
        return m.group(1).strip() if m else "?"
    gpodder = first(["dpkg-query", "-W", "-f=${Version}", "gpodder"])
    return {"alicia-player": first([ALICIA, "--version"]), "newsboat": first(["newsboat", "--version"], r"(newsboat [\d.]+)"),
            "gPodder": f"gPodder {gpodder}", "python": platform.python_version()}


def table(results, args):
    """The rows: each figure of each scenario, alicia-player beside the others, with ratios."""
    scenarios = [
        ("first", f"Refresh {args.feeds} feeds, the first time (every feed a 200 with a body)"),
        ("unchanged", f"Refresh {args.feeds} feeds, nothing changed (every feed a 304)"),
        ("changed", f"Refresh {args.feeds} feeds, every feed changed (a 200 with a body, one new episode each)"),
        ("parse", f"Subscribe to one local {args.big_feed_items:,}-episode feed file ({args.big_feed_mb:.1f} MB)"),
        ("library", f"List {args.big_count * args.big_items:,} episodes ({args.big_count} feeds × {args.big_items:,}; "
                    "alicia-player `episodes --json`, gPodder `gpo episodes`)"),
    ]
    figures = [("wall", "wall time"), ("cpu", "CPU (user+sys)"), ("rss", "peak RSS")]
    others = [t for t in TOOLS[1:] if any(t in results.get(s, {}) for s, _ in scenarios)]
    head = "| figure | " + " | ".join(NAMES[t] for t in TOOLS[:1] + others) + " | " + " | ".join(
        f"alicia-player / {NAMES[t]}" for t in others) + " |"
    lines = [head, "| " + " | ".join(["---"] * (2 + 2 * len(others))) + " |"]
    for scenario, title in scenarios:
        if scenario not in results:
            continue
        row = results[scenario]
        for key, label in figures:
            mine = row.get("alicia-player", {}).get(key, [])
            cells = [fmt(key, mine)]
            ratios = []
            for t in others:
                theirs = row.get(t, {}).get(key, [])
                cells.append(fmt(key, theirs))
                if mine and theirs:
                    ratios.append(f"{statistics.median(mine) / statistics.median(theirs):.2f}" if statistics.median(theirs) else "n/a")
                else:
                    ratios.append("")
            lines.append(f"| {title}: {label} | " + " | ".join(cells + ratios) + " |")
    return lines


def targets(results, args):
    """The issue's targets, each met or not (medians)."""
    def median(row, tool, key):
        values = results.get(row, {}).get(tool, {}).get(key)
        return statistics.median(values) if values else None
    out = []
    for row, label in (("first", "the first refresh"), ("unchanged", "the all-304 refresh")):
        mine = median(row, "alicia-player", "wall")
        if mine is None:
            continue
        others = [t for t in ("newsboat", "newsboat-8", "gPodder") if median(row, t, "wall") is not None]
        slower = [NAMES[t] for t in others if median(row, t, "wall") <= mine]
        out.append(f"{label} faster than " + " / ".join(NAMES[t] for t in others) + ": "
                   + ("met" if not slower else "not met (not faster than " + ", ".join(slower) + ")"))
        rss = median(row, "alicia-player", "rss")
        out.append(f"{label} at most 40 MiB: {'met' if rss <= 40 else 'not met'} ({rss:.1f} MiB)")
    wall, rss = median("parse", "alicia-player", "wall"), median("parse", "alicia-player", "rss")
    if wall is not None:
        out.append(f"the {args.big_feed_items:,}-episode feed in at most 0.3 s: {'met' if wall <= 0.3 else 'not met'} ({wall * 1000:.0f} ms), "
                   f"at most 40 MiB: {'met' if rss <= 40 else 'not met'} ({rss:.1f} MiB)")
    wall = median("library", "alicia-player", "wall")
    if wall is not None:
        out.append(f"`episodes --json` of {args.big_count * args.big_items:,} in at most 0.2 s: {'met' if wall <= 0.2 else 'not met'} ({wall * 1000:.0f} ms)")
    return "; ".join(out) or "none measured"


def outliers_text(results):
    """Runs that took over twice their row's median, with the longest stretch in which the server
    sent no answer: a stall on the tool's side (or the machine's) rather than the server's."""
    parts = []
    for scenario in ("first", "unchanged", "changed", "parse", "library"):
        for tool in TOOLS:
            slot = results.get(scenario, {}).get(tool)
            if not slot:
                continue
            median = statistics.median(slot["wall"])
            for run, wall in enumerate(slot["wall"]):
                if wall > 2 * median:
                    silence = slot["silence"][run]
                    parts.append(f"{scenario}, {NAMES[tool]}, run {run + 1}: {wall:.2f} s (median {median:.2f} s)"
                                 + (f", of which {silence[0]:.2f} s from {silence[1]:.2f} s in with no request coming in and no"
                                    f" answer going out ({silence[2]} request{'s' if silence[2] != 1 else ''} held by the server then)"
                                    if silence else "")
                                 + (" (the machine meanwhile: " + ", ".join(
                                     f"{v:.1f} s with some task waiting for a CPU" if k == "cpu" else f"{v:.1f} s with every task waiting on I/O"
                                     for k, v in slot["stalls"][run].items()) + ")" if slot["stalls"][run] else ""))
    return "; ".join(parts)


def answers_text(results):
    """What the server answered each tool in each refresh row (the same in every run, or each run's)."""
    parts = []
    for scenario in ("first", "unchanged", "changed"):
        for tool in TOOLS:
            slot = results.get(scenario, {}).get(tool)
            if not slot:
                continue
            seen = []
            for a in slot["answers"]:
                text = ", ".join(f"{v} × {k}" for k, v in sorted(a.items()))
                if text not in seen:
                    seen.append(text)
            episodes = sorted(set(slot["episodes"]))
            parts.append(f"{scenario}, {NAMES[tool]}: {' / '.join(seen) or 'none'} ({'/'.join(map(str, episodes))} episodes after)")
    return "; ".join(parts)


def main():
    global ALICIA
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--feeds", type=int, default=200)
    parser.add_argument("--items", type=int, default=50)
    parser.add_argument("--latency", type=float, default=0.05, help="seconds the server waits before each answer")
    parser.add_argument("--big-feed-items", type=int, default=5000)
    parser.add_argument("--big-count", type=int, default=50)
    parser.add_argument("--big-items", type=int, default=1000)
    parser.add_argument("--only", help="comma-separated: refresh,parse,library; prints, writes nothing")
    parser.add_argument("--tools", default=",".join(TOOLS), help="comma-separated, of " + ",".join(TOOLS))
    parser.add_argument("--out", default=os.path.join(ROOT, "BENCHMARKS.md"))
    parser.add_argument("--binary", default=ALICIA, help="the alicia-player to measure (default: the release build)")
    args = parser.parse_args()
    ALICIA = os.path.abspath(args.binary)
    only = set(args.only.split(",")) if args.only else {"refresh", "parse", "library"}
    tools = [t for t in TOOLS if t in args.tools.split(",")]
    for program in (ALICIA, TIME):
        if not os.access(program, os.X_OK):
            sys.exit(f"bench/feeds: {program} is missing (bench/feeds builds and installs it)")

    # SIGTERM (and SIGHUP) end the run as Ctrl-C does, through the cleanup below: the servers stop
    # and the temp dirs go.
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, lambda *_: sys.exit(143))
    work = tempfile.mkdtemp(prefix="alicia-feeds.")
    feeds, servers = start_servers((args.feeds, args.items, args.big_count, args.big_items))
    feeds.warm()
    results = {}
    began = time.monotonic()
    load_before = os.getloadavg()[0]
    try:
        big_file = os.path.join(work, "big-feed.xml")
        with open(big_file, "wb") as f:
            f.write(rss("One Big Show", "http://127.0.0.1:9", "bigshow", args.big_feed_items, args.big_feed_items))
        args.big_feed_mb = os.path.getsize(big_file) / 1e6
        args.feed_kb = len(feeds.entry(feeds.ports[0], "/feed/0.xml")[3]) / 1e3
        args.feed_gz_kb = len(feeds.entry(feeds.ports[0], "/feed/0.xml")[4]) / 1e3
        if "refresh" in only:
            feeds.latency = args.latency
            refresh_rows(feeds, work, args.runs, results, tools)
        if "parse" in only:
            parse_row(feeds, work, args.runs, results, tools, big_file)
        if "library" in only:
            library_row(feeds, work, args.runs, results, tools)
    finally:
        for s in servers:
            s.shutdown()
            s.server_close()
        shutil.rmtree(work, ignore_errors=True)
    load_after = os.getloadavg()[0]
    v = versions()
    size = results.get("library-size", {})
    settle = "; ".join(f"{NAMES[tool]}: " + " / ".join(dict.fromkeys(", ".join(f"{v} × {k}" for k, v in sorted(a.items()))
                                                            for a in runs))
                       for tool, runs in results.get("settle", {}).items())
    lines = [
        "## Feeds",
        "",
        f"Measured by `bench/feeds` on {datetime.date.today().isoformat()} in {time.monotonic() - began:.0f} s: "
        f"{os.cpu_count()} cores shared with other work (load average {load_before:.1f} at the start, {load_after:.1f} at the end).",
        f"Versions: {v['alicia-player']}; {v['newsboat']}; {v['gPodder']} (`gpo`).",
        f"Each figure: median of {args.runs} runs (min-max); wall time from outside, CPU (user+sys) and peak RSS from",
        "`/usr/bin/time`. Every run of every tool starts from an empty temp home (HOME, XDG_*, GPODDER_HOME).",
        "Targets: " + targets(results, args) + ".",
        "",
        *table(results, args),
        "",
        f"Refresh: {args.feeds} generated RSS 2.0 feeds with the iTunes tags, {args.items} episodes each with an enclosure",
        f"({args.feed_kb:.0f} KB, {args.feed_gz_kb:.0f} KB gzipped), served by the script's own threaded HTTP server on four",
        f"ports of 127.0.0.1 (four origins of {args.feeds // 4} feeds), which waits {args.latency * 1000:.0f} ms before every answer,",
        "200 or 304 alike, honours If-None-Match and If-Modified-Since (a stable ETag and Last-Modified) and",
        "gzips a body when asked to. alicia-player fetches 8 at once, 2 an origin (host and port); newsboat one",
        "at a time (its default, `reload-threads 1`; the \"newsboat, 8 threads\" column sets `reload-threads 8`);",
        "gPodder one at a time. Each run, per tool, on one fresh home, in this order:",
        "- the first time: alicia-player `subscribe feeds.opml` (200 outlines; it fetches each feed in full and",
        "  keeps its validators), newsboat `-u urls -c cache.db -C config -x reload` on an empty cache, gPodder",
        "  `gpo import feeds.opml` (it subscribes each outline, fetching it in full);",
        "- nothing changed: alicia-player `refresh --quiet`, newsboat `-x reload`, gPodder `gpo update`. newsboat",
        "  keeps a feed's ETag and Last-Modified only from its second fetch of it on, so its second reload asks",
        f"  without them and gets every body again ({settle or 'not run'}); that reload is",
        "  untimed, and the timed one is its third, the first that sends validators;",
        "- every feed changed (one more episode, a new ETag and Last-Modified): the same commands again.",
        "",
        "What the server answered, by row and tool (every run alike unless split by /), and the episodes in",
        "the tool's database after: " + answers_text(results) + ".",
        "",
        *(["Runs over twice their row's median (the median stands; they are in the min-max): " + outliers_text(results) + ".", ""]
          if outliers_text(results) else []),
        f"Subscribe to one feed file: the same generator, {args.big_feed_items:,} episodes in a local file, on a fresh home:",
        "alicia-player `subscribe FILE`; newsboat `-x reload` of its file:// URL on an empty cache (newsboat reads",
        "file:// itself); gPodder `gpo subscribe file://…` (it reads the file itself), after `gpo set limit.episodes",
        "100000`, untimed, since it keeps only 200 episodes a feed by default. Episodes in the database after: "
        + "; ".join(f"{NAMES[t]}: {'/'.join(map(str, sorted(set(slot['episodes']))))}"
                    for t, slot in results.get("parse", {}).items()) + ".",
        "",
        f"List: {args.big_count} feeds of {args.big_items:,} episodes, subscribed first, untimed, with no added latency (gPodder",
        "with `limit.episodes` raised as above), then every episode listed, to /dev/null: alicia-player",
        "`episodes --json`, gPodder `gpo episodes` (text; there is no JSON). "
        + "; ".join(f"{NAMES[tool]}: {db:,} episodes in the database, {listed:,} listed, {size_b / 1e6:.1f} MB printed"
                    for tool, (db, listed, size_b) in size.items())
        + ". newsboat has no command that lists items outside its interface (`-x print-unread` prints a count):",
        "no figure.",
        "",
    ]
    section = "\n".join(lines)
    print(section)
    os.makedirs(os.path.join(ROOT, "bench", "out"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "out", "feeds.json"), "w") as f:
        json.dump(results, f, indent=1, default=str)
    if not args.only:
        write_section(args.out, "Feeds", section)
        log(f"wrote the Feeds section of {args.out}")


if __name__ == "__main__":
    main()
