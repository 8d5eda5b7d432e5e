"""Renders one hour of speech at 1.5x with skipped silence and matched loudness to Opus 48 kb/s with
alicia-player, ffmpeg and mpv, and prints each one's wall time, CPU time and peak RSS (GNU time),
and the ratios to alicia-player's. See bench/render."""
import argparse
import os
import subprocess
import sys
import tempfile

PLAYER = os.path.abspath(".build/release/alicia-player")
SILENCE = "silenceremove=stop_periods=-1:stop_duration=0.3:stop_threshold=-45dB"


def measure(command, env=None):
    """Wall seconds, CPU seconds and peak RSS (MiB) of `command`, through GNU time."""
    timed = ["/usr/bin/time", "-f", "%e %U %S %M"] + command
    done = subprocess.run(timed, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"bench/render: {' '.join(command)} failed:\n{done.stderr[-2000:]}")
    wall, user, system, rss = done.stderr.strip().splitlines()[-1].split()
    return float(wall), float(user) + float(system), int(rss) / 1024


def make_input(path, seconds):
    tone = "0.3*sin(2*PI*180*t)*(0.6+0.4*sin(2*PI*4*t))*lt(mod(t\\,5)\\,3.8)+0.002*random(0)"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    f"aevalsrc='{tone}':s=44100:d={seconds}", "-ac", "2", "-c:a", "pcm_s16le", path], check=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=3600)
    parser.add_argument("--input", help="an existing WAV to use instead of making one")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="alicia-bench-render.")
    source = args.input or os.path.join(work, "speech.wav")
    if not args.input:
        make_input(source, args.seconds)
    env = dict(os.environ, XDG_CACHE_HOME=work, XDG_STATE_HOME=work, XDG_CONFIG_HOME=work)
    rows = [
        ("alicia-player render", [PLAYER, "render", source, "--speed", "1.5", "--skip-silence", "--loudness", "-16",
                                  "--bitrate", "48", "-o", os.path.join(work, "alicia.opus")]),
        ("ffmpeg (atempo, silenceremove, loudnorm, libopus)",
         ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", source, "-af",
          f"atempo=1.5,{SILENCE},loudnorm=I=-16:TP=-1", "-c:a", "libopus", "-b:a", "48k", os.path.join(work, "ffmpeg.opus")]),
        ("mpv --o (scaletempo2, silenceremove, loudnorm, libopus)",
         ["mpv", "--no-config", "--really-quiet", source, "--speed=1.5", f"--af=lavfi=[{SILENCE},loudnorm=I=-16:TP=-1]",
          "--o=" + os.path.join(work, "mpv.opus"), "--of=ogg", "--oac=libopus", "--oacopts=b=48000"]),
    ]
    results = [(name, measure(command, env)) for name, command in rows]
    base = results[0][1]
    print(f"input: {args.seconds} s of 44.1 kHz stereo speech-like audio; output: Ogg Opus 48 kb/s at 1.5x")
    print(f"{'':58} {'wall s':>8} {'cpu s':>8} {'rss MiB':>8} {'x real time':>12} {'wall ratio':>10}")
    for name, (wall, cpu, rss) in results:
        print(f"{name:58} {wall:8.1f} {cpu:8.1f} {rss:8.1f} {args.seconds / wall:12.0f} {wall / base[0]:10.2f}")


if __name__ == "__main__":
    main()
