"""Internet radio (issue 42): an endless ICY station (Tests/Servers/icy_server.py: 128 kb/s, a
second's burst, a title every 2 s of audio) played by alicia-player and by mpv, in one run: first
audio (from launch to the first non-silent byte a pipe sink emits), and a minute of playing, quiet
and then beside two busy loops, counted for silent runs of 256 frames or more (underflows: the
sink fills one with a render block of about 1,000 frames; decoded MP3 noise has the odd zero
sample, never a run), with the peak RSS. Started by bench/live-radio, which builds the release
binary and makes sure a PulseAudio server answers. Prints the table; writes nothing."""
import argparse, os, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

SERVER = os.path.join(bench.ROOT, "Tests", "Servers", "icy_server.py")


def station(mp3, directory):
    """Starts the station; its URL and process."""
    port_file = os.path.join(directory, "port")
    process = subprocess.Popen([sys.executable, SERVER, mp3, port_file, os.path.join(directory, "requests.log"), "16000", "0"])
    for _ in range(200):
        if os.path.exists(port_file):
            return f"http://127.0.0.1:{open(port_file).read().strip()}/stream", process
        time.sleep(0.025)
    process.kill()
    raise SystemExit("bench: the ICY server did not start")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    media = bench.media_dir()
    # Longer than a minute's play, so that no loop point (a new encoder delay) falls inside it; no
    # ID3 and no info frame, so that the loop is frames only.
    mp3 = os.path.join(media, "radio-128k.mp3")
    if not os.path.exists(mp3):
        bench.ffmpeg("-f", "lavfi", "-i", "anoisesrc=d=90:c=pink:r=44100:a=0.3:seed=3", "-ac", "2", "-c:a", "libmp3lame",
                     "-b:a", "128k", "-id3v2_version", "0", "-write_xing", "0", mp3)
    directory = tempfile.mkdtemp(prefix="alicia-bench-radio.")
    url, server = station(mp3, directory)
    try:
        print(f"a live MP3 station (128 kb/s, 1 s burst, ICY titles), {args.runs} starts each, median (min-max); "
              f"{args.seconds:g} s played, quiet and beside 2 busy loops")
        print(f"  {'player':16} {'first audio':>20} {'silent runs quiet':>18} {'busy':>6} {'peak RSS':>10}")
        for player in ("alicia-player", "mpv"):
            times = []
            for _ in range(args.runs):
                result = bench.run(player, url, play_for=0.3)
                times.append(result["ttfa"] * 1000 if result["ttfa"] is not None else float("nan"))
            quiet = bench.gaps_run(player, url, speed=None, seconds=args.seconds, loops=0, min_frames=256)
            busy = bench.gaps_run(player, url, speed=None, seconds=args.seconds, loops=2, min_frames=256)
            print(f"  {player:16} {statistics.median(times):8.0f} ms ({min(times):.0f}-{max(times):.0f})"
                  f" {quiet['gaps']:>18} {busy['gaps']:>6} {(quiet['rss'] or 0) / 1024:8.1f} MiB")
    finally:
        server.kill()


if __name__ == "__main__":
    main()
