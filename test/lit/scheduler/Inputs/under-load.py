#!/usr/bin/env python3
"""Runs a command under artificial load (issue 35, point 8): starts busy-loop
processes, one per CPU, at normal priority, runs the command at nice 5, so it
gets a small share of the machine (about a tenth), and kills
the busy loops when it ends (each also ends by itself after --limit seconds).
The command's stdout and exit status pass through.

    under-load.py [--limit S] -- COMMAND ARGS...
"""
import os
import subprocess
import sys

BUSY = "import time\nend = time.monotonic() + %f\nwhile time.monotonic() < end:\n    pass\n"


def main():
    args = sys.argv[1:]
    limit = 120.0
    if args[:1] == ["--limit"]:
        limit = float(args[1])
        args = args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    busy = [subprocess.Popen([sys.executable, "-c", BUSY % limit])
            for _ in range(os.cpu_count() or 1)]
    try:
        return subprocess.run(["nice", "-n", "5"] + args).returncode
    finally:
        for p in busy:
            p.kill()
        for p in busy:
            p.wait()


if __name__ == "__main__":
    sys.exit(main())
