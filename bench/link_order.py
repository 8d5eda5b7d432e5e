#!/usr/bin/env python3
"""Writes Sources/alicia-player/link-order.txt: the executable's functions that run while an episode
plays over HTTP, in the order lld should lay them out (DECISIONS.md, "Link order").

Started by bench/link-order, which builds the release binary with a link map and makes sure a
PulseAudio server answers. The binary plays the 2-hour bench WAV from a loopback nginx into a pipe
sink under callgrind; every function callgrind saw run in the executable is hot. Hot functions whose
input section holds little else come first, so they pack into a few pages; those inside big
monolithic sections (parts of the static Swift runtime and libdispatch) come last, since placing
them drags the whole section along.
"""
import shutil, os, re, signal, subprocess, sys, tempfile, time

import bench

ORDER = os.path.join(bench.ROOT, "Sources", "alicia-player", "link-order.txt")
BIG_SECTION = 64 * 1024  # the kernel maps file pages 64 KiB at a time around a fault


def executed_functions(binary, profile):
    """Names (mangled) of the functions callgrind saw run inside `binary`."""
    objects, functions, current, hot = {}, {}, None, set()
    for line in open(profile, errors="replace"):
        m = re.match(r"^(c?ob)=\((\d+)\)(?: (.*))?", line)
        if m:
            if m.group(3):
                objects[m.group(2)] = m.group(3)
            if m.group(1) == "ob":
                current = objects[m.group(2)]
            continue
        m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?", line)
        if m:
            if m.group(3):
                functions[m.group(2)] = m.group(3)
            if m.group(1) == "fn" and current == binary:
                hot.add(functions[m.group(2)])
    return hot


def section_sizes(link_map):
    """For each symbol in lld's link map, the size of the input section that holds it."""
    sizes, size = {}, None
    for line in open(link_map):
        fields = line.split()
        if len(fields) >= 5 and ":(" in line and re.match(r"^[0-9a-f]+$", fields[0]):
            size = int(fields[2], 16)
        elif len(fields) == 5 and size is not None and re.match(r"^[0-9a-f]+$", fields[0]):
            sizes[fields[4]] = size
    return sizes


def addresses(binary):
    out = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    return {f[2]: int(f[0], 16) for f in (l.split() for l in out.splitlines()) if len(f) == 3}


def main():
    binary = os.path.realpath(sys.argv[1])
    link_map = sys.argv[2]
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 8
    media = os.path.join(bench.ROOT, "bench", "out")
    os.makedirs(media, exist_ok=True)
    bench.log("generating the 2-hour test WAV (once)")
    bench.wav(os.path.join(media, "two-hours.wav"), 7200, 2)
    nginx = bench.Nginx(media)
    profile = tempfile.mktemp(prefix="alicia-callgrind.")
    # Valgrind 3.19 gives up on the DWARF 5 that clang writes for the C targets: it profiles a copy
    # without debug info (the symbol table, which names the functions, stays; addresses are the same).
    profiled = tempfile.mktemp(prefix="alicia-player-profiled.")
    shutil.copy(binary, profiled)
    subprocess.run(["strip", "--strip-debug", profiled], check=True)
    try:
        sink = bench.Sink()
        bench.log(f"playing {seconds:.0f} s under callgrind")
        process = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}",
             profiled, "play", nginx.url("two-hours.wav"), "--device", sink.name, "--loudness", "off"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while sink.first_audio is None and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        if sink.first_audio is None:
            sys.exit("bench: no audio reached the sink under callgrind")
        time.sleep(seconds)
        process.send_signal(signal.SIGINT)
        process.wait(60)
        sink.close()
        hot = executed_functions(profiled, profile)
    finally:
        nginx.stop()
        for path in (profile, profiled):
            if os.path.exists(path):
                os.remove(path)
    sizes = section_sizes(link_map)
    where = addresses(binary)
    known = sorted((name for name in hot if name in where), key=lambda name: where[name])
    small = [name for name in known if sizes.get(name, 0) <= BIG_SECTION]
    big = [name for name in known if sizes.get(name, 0) > BIG_SECTION]
    with open(ORDER, "w") as f:
        f.write("\n".join(small + big) + "\n")
    bench.log(f"{len(small)} functions in small sections, {len(big)} in big ones: {os.path.relpath(ORDER, bench.ROOT)}")


if __name__ == "__main__":
    main()
