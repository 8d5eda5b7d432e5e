"""First audio of a long local file with matched loudness on (issue 42): a 2-hour MP3 played by
alicia-player with `--loudness -16` and with `--loudness off`, and by paplay (the floor), in one
run, each into its own pipe sink (bench.py's `Sink`: first audio is the first non-silent byte the
sink emits). Started by bench/loudness-start, which builds the release binary and makes sure a
PulseAudio server answers. Prints the medians and the spreads; writes nothing."""
import argparse, os, statistics, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hours", type=float, default=2)
    args = parser.parse_args()
    media = bench.media_dir()
    path = os.path.join(media, f"speech-{args.hours:g}h.mp3")
    if not os.path.exists(path):
        bench.log(f"making {path}")
        tone = "0.3*sin(2*PI*180*t)*(0.6+0.4*sin(2*PI*4*t))*lt(mod(t\\,5)\\,3.8)+0.002*random(0)"
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                        f"aevalsrc='{tone}':s=44100:d={int(args.hours * 3600)}", "-ac", "2", "-b:a", "64k", path], check=True)
    state = {"XDG_STATE_HOME": os.path.join(media, "state"), "XDG_CACHE_HOME": os.path.join(media, "cache")}
    rows = [("alicia-player, --loudness -16", "alicia-player", ["--loudness", "-16"]),
            ("alicia-player, --loudness off", "alicia-player", ["--loudness", "off"]),
            ("paplay", "paplay", None)]
    print(f"first audio of a {args.hours:g}-hour local MP3 (64 kb/s), {args.runs} runs each, median (min-max); "
          f"a pipe sink's tick is {bench.SINK_TICK * 1000:.1f} ms")
    for title, player, extra in rows:
        times = []
        for _ in range(args.runs):
            # A fresh state each run: no loudness kept from the last one.
            subprocess.run(["rm", "-rf", state["XDG_STATE_HOME"], state["XDG_CACHE_HOME"]], check=True)
            result = bench.run(player, path, play_for=0.2, extra=extra, env=state)
            times.append(result["ttfa"] * 1000 if result["ttfa"] is not None else float("nan"))
        print(f"  {title:32} {statistics.median(times):7.0f} ms ({min(times):.0f}-{max(times):.0f})")


if __name__ == "__main__":
    main()
