#!/usr/bin/env python3
"""vtebench's `scrolling_top_region` stream, with the writer's own time per sample.

Each sample does what vtebench 0.3.1 does for that benchmark (a reset, the alternate screen
with a scroll region from row 2, then 1 MiB of `y\\n` timed as one write) and records where
the writing thread's time went meanwhile: its user and system CPU and its voluntary
(waited for the terminal) and involuntary (preempted) context switches, from
getrusage(RUSAGE_THREAD). One line per sample: wall ms, user ms, system ms, waits,
preemptions. docs/performance.md, "What a writer's time is made of".

Usage (inside the terminal to measure):
  sluice-bench run-in --terminal NAME -- python3 benches/vtebench-writer.py OUT SECONDS
"""
import os
import resource
import sys
import time


def write_all(data):
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]


def main():
    out, seconds = sys.argv[1], float(sys.argv[2])
    rows = os.get_terminal_size().lines
    setup = f"\x1b[?1049h\x1b[2;{rows}r".encode()
    bench = b"y\n" * (1 << 19)  # 1 MiB: vtebench's default --min-bytes
    samples = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        write_all(b"\x1bc")
        write_all(setup)
        before = resource.getrusage(resource.RUSAGE_THREAD)
        start = time.perf_counter()
        write_all(bench)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_THREAD)
        samples.append((
            wall * 1e3,
            (after.ru_utime - before.ru_utime) * 1e3,
            (after.ru_stime - before.ru_stime) * 1e3,
            after.ru_nvcsw - before.ru_nvcsw,
            after.ru_nivcsw - before.ru_nivcsw,
        ))
    with open(out, "w") as f:
        for s in samples:
            f.write("%.2f %.2f %.2f %d %d\n" % s)


if __name__ == "__main__":
    main()
