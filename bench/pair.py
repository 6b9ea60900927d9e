#!/usr/bin/env python3
"""Run two builds of nqueens side by side and compare their CPU time.

usage: bench/pair.py ROUNDS BIN_A BIN_B -- ARGS...

Each round starts BIN_A and BIN_B at the same moment (one process per core on a
2-core machine), with the same ARGS, the first to start alternating from round to
round, and reads each process's user + sys CPU time and peak RSS from wait4. A
"{D}" in ARGS becomes a fresh temporary directory for each process. It prints a
line per process and the medians; it exits 1 if a process fails and 2 on a usage
error. Pairs taken in one run are the figures to compare on a shared, noisy
machine: both builds see the same noise.
"""

import os
import statistics
import subprocess
import sys
import tempfile


def start(binary, args):
    d = tempfile.mkdtemp(prefix="pair.")
    argv = [binary] + [a.replace("{D}", d) for a in args]
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return p, d


def finish(p):
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace").strip().splitlines()
    p.stderr.close()
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, err


def main(argv):
    if len(argv) < 4 or "--" not in argv:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    cut = argv.index("--")
    head, args = argv[1:cut], argv[cut + 1:]
    if len(head) != 3 or not head[0].isdigit() or int(head[0]) < 1:
        print("pair.py: want ROUNDS BIN_A BIN_B before --", file=sys.stderr)
        return 2
    rounds, bins = int(head[0]), head[1:]
    cpu = {b: [] for b in bins}
    for r in range(rounds):
        order = bins if r % 2 == 0 else bins[::-1]
        procs = [(b,) + start(b, args) for b in order]
        for b, p, _ in procs:
            t, rss, err = finish(p)
            if p.returncode != 0:
                print(f"pair.py: {b} exited {p.returncode}: {' '.join(err[-1:])}", file=sys.stderr)
                return 1
            cpu[b].append(t)
            print(f"round {r + 1} {b}: {t:.3f} s CPU, {rss:.0f} MiB")
        sys.stdout.flush()
    a, b = (statistics.median(cpu[x]) for x in bins)
    print(f"median {bins[0]}: {a:.3f} s  {bins[1]}: {b:.3f} s  ratio A/B {a / b:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
