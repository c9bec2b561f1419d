#!/usr/bin/env python3
"""Compares the ops tilepipe's reader prints with what tileirdisasm prints.

For each bytecode file, both texts go through tilepipe-opt in MLIR's generic
form: tileirdisasm's after its ops are put in the tileir dialect (its text
is the dialect's own syntax, `entry` aside), ours as read. The sequences of
ops are then compared one by one: name, operand types and result types
(the generic form spells them all out, in the same order for both). Any
difference, or a text that does not parse, is reported.

  scripts/tileir-compare.py --build build --disasm PATH/tileirdisasm FILE...
"""

import argparse
import os
import re
import subprocess
import sys

# `%0:2 = "tileir.for"(%a, %b) <{...}> ({` or `"tileir.return"() : () -> ()`:
# the op name, then (at the line's `: (...) -> ...`) its types.
OP = re.compile(r'"(tileir\.[a-z_0-9]+)"')
TYPES = re.compile(r" : \((.*)\) -> (.*?)( loc\(.*\))?$")


def generic(opt, text):
    proc = subprocess.run([opt, "--mlir-print-op-generic", "-"], input=text,
                          capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        raise ValueError(proc.stderr.strip()[:500])
    return proc.stdout


def ops(text):
    """(name, operand types, result types) of every tileir op, in order. An
    op with regions has its types on the line that closes them (`}) : ...`)."""
    found, open_ops = [], []
    for line in text.splitlines():
        name = OP.search(line)
        types = TYPES.search(line)
        if name:
            found.append([name.group(1), "", ""])
            if types:
                found[-1][1:] = [types.group(1), types.group(2)]
            elif line.rstrip().endswith("({"):
                open_ops.append(len(found) - 1)
        elif line.lstrip().startswith("})") and open_ops:
            index = open_ops.pop()
            if types:
                found[index][1:] = [types.group(1), types.group(2)]
    return [tuple(op) for op in found]


def compare(path, opt, translate, disasm):
    ours = subprocess.run([translate, "--import-tileir-bytecode", path],
                          capture_output=True, text=True, errors="replace")
    if ours.returncode != 0:
        return None, [f"{path}: the reader refused it: {ours.stderr.strip()}"]
    theirs = subprocess.run([disasm, path], capture_output=True, text=True,
                            errors="replace")
    if theirs.returncode != 0:
        return None, [f"{path}: tileirdisasm refused it: {theirs.stderr.strip()}"]
    nvidia = re.sub(r"^entry ", "tileir.entry ", theirs.stdout, flags=re.M)
    try:
        a, b = ops(generic(opt, ours.stdout)), ops(generic(opt, nvidia))
    except ValueError as err:
        return None, [f"{path}: does not parse: {err}"]
    problems = []
    if len(a) != len(b):
        problems.append(f"{path}: {len(a)} ops read, tileirdisasm prints {len(b)}")
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            problems.append(f"{path}: op {i}: read {x}, tileirdisasm {y}")
            break
    return len(a), problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--build", default="build")
    ap.add_argument("--disasm", required=True, help="tileirdisasm to compare with")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "tilepipe-opt")
    translate = os.path.join(args.build, "bin", "tilepipe-translate")
    total, problems = 0, []
    for path in args.files:
        count, found = compare(path, opt, translate, args.disasm)
        total += count or 0
        problems += found
    for problem in problems:
        print("tileir-compare: " + problem)
    print(f"tileir-compare: {len(args.files)} files, {total} ops compared, "
          f"{len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
