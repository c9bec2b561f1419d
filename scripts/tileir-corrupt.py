#!/usr/bin/env python3
"""Feeds truncated and byte-flipped tileir bytecode to the reader.

For every input file: prefixes cut at evenly spread offsets (and the
offsets of the first bytes, where the header and section table are), and
copies with one byte flipped at spread offsets. A truncated file must be
refused: exit status 1, one "tileir bytecode: offset 0x...:" error, no
output file. A flipped file may still be valid bytecode (a padding byte, a
constant's value): then the output must exist and parse again with
tilepipe-opt; otherwise it is refused as above. Never a crash (a signal, an
exit status other than 0 and 1) and never a hang (a timeout).

  scripts/tileir-corrupt.py --build build [--samples 32] [--head 32] FILE...
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ERROR = re.compile(r"error: tileir bytecode: offset 0x[0-9a-f]+: ")


def offsets(size, samples, head):
    """The first `head` offsets (header, section table) and `samples` spread."""
    picked = set(range(min(size, head)))
    for i in range(samples):
        picked.add(i * size // samples)
    return sorted(o for o in picked if o < size)


def run(translate, data, workdir, timeout):
    src = os.path.join(workdir, "in.tileirbc")
    out = os.path.join(workdir, "out.mlir")
    with open(src, "wb") as f:
        f.write(data)
    if os.path.exists(out):
        os.remove(out)
    try:
        proc = subprocess.run([translate, "--import-tileir-bytecode", src, "-o", out],
                              capture_output=True, text=True, errors="replace",
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", None, out
    return proc.returncode, proc.stderr, out


def check(case, rc, stderr, out, must_fail, opt):
    """A problem with this run, or None."""
    if rc == "hang":
        return f"{case}: no answer within the time limit"
    if rc not in (0, 1):
        return f"{case}: exit status {rc} (a crash?)\n{stderr[-2000:]}"
    if rc == 1:
        if not ERROR.search(stderr):
            return f"{case}: refused without a byte offset: {stderr.strip()[:300]}"
        if os.path.exists(out):
            return f"{case}: refused but wrote {out}"
        return None
    if must_fail:
        return f"{case}: accepted a truncated file"
    if not os.path.exists(out):
        return f"{case}: accepted but wrote no output"
    again = subprocess.run([opt, out], capture_output=True, text=True, errors="replace")
    if again.returncode != 0:
        return f"{case}: accepted, but the output does not parse: {again.stderr[:300]}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--build", default="build")
    ap.add_argument("--samples", type=int, default=32)
    ap.add_argument("--head", type=int, default=32, help="offsets from 0 always taken")
    ap.add_argument("--timeout", type=float, default=20)
    args = ap.parse_args()
    translate = os.path.join(args.build, "bin", "tilepipe-translate")
    opt = os.path.join(args.build, "bin", "tilepipe-opt")
    problems, runs, refused = [], 0, 0
    with tempfile.TemporaryDirectory() as workdir:
        for path in args.files:
            data = open(path, "rb").read()
            name = os.path.basename(path)
            for cut in offsets(len(data), args.samples, args.head):
                rc, err, out = run(translate, data[:cut], workdir, args.timeout)
                runs += 1
                refused += rc == 1
                problem = check(f"{name} cut at {cut}", rc, err, out, True, opt)
                if problem:
                    problems.append(problem)
            for at in offsets(len(data), args.samples, args.head):
                flipped = bytearray(data)
                flipped[at] ^= 0xff
                rc, err, out = run(translate, bytes(flipped), workdir, args.timeout)
                runs += 1
                refused += rc == 1
                problem = check(f"{name} byte {at} flipped", rc, err, out, False, opt)
                if problem:
                    problems.append(problem)
    for problem in problems:
        print("tileir-corrupt: " + problem)
    print(f"tileir-corrupt: {runs} runs on {len(args.files)} files, {refused} refused "
          f"with an offset, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
