"""The silence a voice note leaves behind (issue 42, item 10): an episode (a 12 s noise WAV) with a
note (a 2 s noise WAV of another seed) at 3 s, `--voice-focus pause`, played into a pipe sink of
whichever server PULSE_SERVER names (PulseAudio, or pipewire-pulse on a private PipeWire: run
through bench/voice-gap, which starts both in turn). Counted in the capture: silent runs of 64
frames or more between the first and the last audible frame (the noise has no silent frame of its
own), their number and the longest, per run. Prints the figures; writes nothing."""
import argparse, array, os, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def gaps(kept, min_frames=64):
    frames = array.array("I", bytes(kept[:len(kept) // 4 * 4]))
    audible = [i for i, v in enumerate(frames) if v]
    if not audible:
        return []
    runs, silent = [], 0
    for v in frames[audible[0]:audible[-1] + 1]:
        if v == 0:
            silent += 1
        else:
            if silent >= min_frames:
                runs.append(silent)
            silent = 0
    return runs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--label", default="PulseAudio")
    parser.add_argument("--binary", default=os.path.join(bench.ROOT, ".build/release/alicia-player"),
                        help="the player to measure (a debug build, an older one)")
    args = parser.parse_args()
    media = bench.media_dir()
    episode, note = os.path.join(media, "gap-episode.wav"), os.path.join(media, "gap-note.wav")
    bench.wav(episode, 12, 11)
    bench.wav(note, 2, 12)
    binary = args.binary
    longest = []
    for _ in range(args.runs):
        sink = bench.Sink(keep=True)
        state = tempfile.mkdtemp(prefix="alicia-bench-gap.")
        subprocess.run([binary, "play", episode, "--device", sink.name, "--from-start", "--loudness", "off", "--no-ipc",
                        "--voice-at", f"3={note}", "--voice-focus", "pause"],
                       env=dict(os.environ, XDG_STATE_HOME=state), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True, timeout=120)
        sink.close()
        runs = gaps(sink.kept)
        longest.append(max(runs, default=0) / bench.RATE * 1000)
        bench.log(f"{args.label}: silent runs {[round(r / bench.RATE * 1000, 1) for r in runs]} ms")
    print(f"| {args.label} | {statistics.median(longest):.1f} ms ({min(longest):.1f}-{max(longest):.1f}) |")


if __name__ == "__main__":
    main()
