#!/usr/bin/env python3
"""Compiles every kernel of the numeric specs (test/numeric/specs.py) with
nvcc for sm_100a and checks that ptxas spills nothing (issue 35, point 6).

The list is the specs' own: each spec's tile IR (`mlir`) with its
materializer options (`materialize`: peeled, persistent, both), so a kernel
added to specs.py, or a variant of one, is checked without editing a test.
Specs that differ only in their problems (the same file and options) compile
to the same CUDA and are compiled once, under the first spec's name.

Each kernel goes through scripts/cuda-check.py's check (generate,
materialize, -canonicalize -cse, --tileas-to-cuda, nvcc -Xptxas -v: named
barriers, SMEM layout, setmaxnreg split) with --max-spill (default 0); the
compiles run in parallel (-j). Prints one summary line per kernel in the
specs' order, then a total; exit 1 when any kernel spills more than allowed
or fails another check, 2 when a step fails to run.
Needs numpy (specs.py draws its inputs with it; scripts/testvenv.py).
"""
import argparse
import glob
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from cudalower import NVCC  # noqa: E402


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def kernels(specs, only, covered=frozenset()):
    """(name, mlir, materialize) per distinct kernel, in the specs' order,
    but those `covered` names by (file name, materialize). A spec for
    another target (an sm_90a kernel written with its register accumulator,
    or a hopper() variant of an sm_100a one) is not an sm_100a kernel: the
    nvcc-sm90a tests check those."""
    seen = set(covered)
    out = []
    for name, spec in specs.items():
        if only and name not in only:
            continue
        if getattr(spec, "target", None) not in (None, "sm_100a"):
            continue
        key = (os.path.basename(spec.mlir), getattr(spec, "materialize", ""))
        if key in seen:
            continue
        seen.add(key)
        out.append((name, spec.mlir, key[1]))
    return out


def covered_by_tests(test_dir, specs):
    """(file name, materialize options) of every kernel that a cuda-check.py
    or spill-check.py run in test_dir's lit tests compiles for sm_100a with
    --max-spill 0 (a spill-check.py run: the specs it names, but those it
    --allow's)."""
    covered = set()
    for test in sorted(glob.glob(os.path.join(test_dir, "*.test"))):
        lines = [m.group(1) for m in re.finditer(r"^# RUN:(.*)$", open(test).read(), re.M)]
        command = ""
        for line in lines:
            command += line.rstrip().rstrip("\\") + " "
            if line.rstrip().endswith("\\"):
                continue
            words = command.split()
            command = ""
            flags = dict(zip(words, words[1:]))
            if any(w.endswith("spill-check.py") for w in words):
                if flags.get("--max-spill", "0") != "0" or "--list" in words:
                    continue
                allowed = {b.partition("=")[0] for a, b in zip(words, words[1:])
                            if a == "--allow"}
                for w in words:
                    if w in specs and w not in allowed:
                        covered.add((os.path.basename(specs[w].mlir),
                                     getattr(specs[w], "materialize", "")))
                continue
            if not any(w.endswith("cuda-check.py") for w in words):
                continue
            # The specs are checked for sm_100a: a run for another target
            # covers nothing here.
            if flags.get("--max-spill") != "0" or flags.get("--target", "sm_100a") != "sm_100a":
                continue
            materialize = flags.get("--materialize", "")
            for w in words:
                if w.endswith(".mlir"):
                    covered.add((os.path.basename(w), materialize))
    return covered


def check_one(kernel, args, tmp_root):
    """Runs scripts/cuda-check.py on one kernel, in its own folder, with its
    printout captured so that parallel compiles do not interleave."""
    name, mlir, materialize = kernel
    tmp = tempfile.mkdtemp(prefix=name + ".", dir=tmp_root)
    # cuda-check names its summary after the file: a link named after the
    # spec tells the variants of one file apart.
    path = os.path.join(tmp, name + ".mlir")
    os.symlink(os.path.join(SRC, mlir), path)
    cmd = [sys.executable, os.path.join(HERE, "cuda-check.py"), "--build", args.build,
           "--include", args.include, path]
    if materialize:
        cmd[2:2] = ["--materialize", materialize]
    start = time.monotonic()
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return res.returncode, res.stdout, time.monotonic() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kernels", nargs="*", help="spec names (default: all)")
    ap.add_argument("--build", default="build")
    ap.add_argument("--include", default=os.path.join(SRC, "cuda", "include"))
    ap.add_argument("--specs", default=os.path.join(SRC, "test", "numeric", "specs.py"))
    ap.add_argument("--max-spill", type=int, default=0,
                    help="bytes of spill stores per thread allowed (default 0)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--allow", action="append", default=[], metavar="NAME=BYTES",
                    help="a known spill: this kernel may spill up to BYTES")
    ap.add_argument("--uncovered", metavar="TEST_DIR",
                    help="only the kernels no cuda-check.py run of the lit tests "
                         "in TEST_DIR compiles with --max-spill 0")
    ap.add_argument("--strict", action="store_true",
                    help="fail on cuda-check's other checks too (SMEM plan, "
                         "barriers); by default they are reported as notes")
    ap.add_argument("--times", action="store_true", help="print each kernel's seconds")
    ap.add_argument("--list", action="store_true",
                    help="print the kernels that would be compiled and stop")
    args = ap.parse_args()
    specs = load_module("specs", args.specs).SPECS
    unknown = [k for k in args.kernels if k not in specs]
    if unknown:
        print(f"spill-check: no spec named {', '.join(unknown)}")
        return 2
    allowed = {}
    for a in args.allow:
        name, _, limit = a.partition("=")
        if name not in specs or not limit.isdigit():
            print(f"spill-check: bad --allow {a} (NAME=BYTES, NAME a spec)")
            return 2
        allowed[name] = int(limit)
    covered = covered_by_tests(args.uncovered, specs) if args.uncovered else frozenset()
    todo = kernels(specs, set(args.kernels), covered)
    if args.list:
        for name, mlir, materialize in todo:
            print(f"{name}: {mlir} {materialize}".rstrip())
        print(f"spill-check: {len(todo)} kernels")
        return 0
    if not os.path.exists(NVCC):
        print(f"spill-check: skipped: no CUDA Toolkit ({NVCC} not found)")
        return 0
    worst = 0
    failed = []
    with tempfile.TemporaryDirectory() as tmp_root, \
            ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = pool.map(lambda k: check_one(k, args, tmp_root), todo)
        for (name, _, _), (rc, text, secs) in zip(todo, results):
            limit = allowed.get(name, args.max_spill)
            spilled = re.search(r"(\d+) B spilled", text)
            if not spilled:
                sys.stdout.write(text)
                print(f"{name}: FAIL: no ptxas report")
                worst, failed = 2, failed + [name]
                continue
            # cuda-check's summary, and its other checks' findings as notes
            # unless --strict.
            for line in text.splitlines():
                if ": FAIL: " in line and not args.strict:
                    line = line.replace(": FAIL: ", ": note: ")
                print(line)
            bad = int(spilled.group(1)) > limit or (args.strict and rc)
            if int(spilled.group(1)) > limit:
                print(f"{name}: FAIL: {spilled.group(1)} B spilled per thread, more "
                      f"than the {limit} B allowed")
            if args.times:
                print(f"{name}: {secs:.1f} s")
            if bad:
                worst = max(worst, 1)
                failed.append(name)
    known = [f"{n} {b} B" for n, b in allowed.items() if any(n == k[0] for k in todo)]
    print(f"spill-check: {len(todo) - len(failed)} of {len(todo)} kernels pass "
          f"(--max-spill {args.max_spill}" + (f"; known spills allowed: {', '.join(known)}"
                                              if known else "") + ")" +
          (f"; failing: {', '.join(failed)}" if failed else ""))
    return worst


if __name__ == "__main__":
    sys.exit(main())
