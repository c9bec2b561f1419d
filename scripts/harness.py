#!/usr/bin/env python3
"""The protocol harness (docs/cuda.md): the translated kernel of each tile-IR
file, compiled with -DTILEPIPE_HARNESS, runs its pipes, barriers and mutexes
for real on a GPU with every payload replaced by a checksummed stamp of its
pipe iteration; every consumer checks it read the stamp of its own iteration,
and every wait is bounded (a timeout is reported, never a hang).

  scripts/harness.py [--trips 0,1,2,4,5,1000] [--ctas 1,4,132]
                     [--seed-bug missing-wait|wrong-phase] KERNEL.mlir|KERNEL.cu...
  scripts/harness.py --lower-to DIR KERNEL.mlir...
  scripts/harness.py --build-to DIR [--arch sm_90a] [--seed-bug B] KERNEL.mlir...

For a GPU machine without a build tree (a lent device: nvcc and the source
tree, no LLVM): --lower-to writes each file's translated kernel here, as
DIR/NAME.ws.cu (warp-specialized), DIR/NAME.peeled.cu and, where the planner
makes it persistent, DIR/NAME.persistent.cu, and runs nothing;
given .cu files, the script skips the lowering and builds and runs them
there, seeded bugs included. --build-to goes one step further and compiles
here (nvcc needs no GPU): DIR/NAME.harness, or DIR/NAME.BUG.harness with a
seeded bug; given .harness files, the script only runs them (the bug, if
any, read back from the name), so a lent device spends its minutes running.

Per file: tilepipe-opt (generate, materialize, -canonicalize -cse),
tilepipe-translate --tileas-to-cuda, nvcc -DTILEPIPE_HARNESS
-DTILEPIPE_HARNESS_MAIN for sm_90a (H100, H200) and sm_100a, then the binary,
which prints one JSON line per (trip count, CTA count).

--seed-bug plants a protocol bug in the emitted CUDA before compiling it (the
first consumer wait on a full barrier removed, or waiting on the wrong
parity); the run must then report an error or a timeout.

Exit status: 0 when every run met the expectation (clean runs clean, seeded
bugs caught) or no GPU was found (each kernel reported as skipped, after
building it); 1 otherwise; 2 when a step failed to run.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from cudalower import NVCC, add_common_arguments, lower, run


def seed(text, bug):
    """The emitted CUDA with one protocol bug planted in the first consumer
    wait on a full barrier (tp::mbar_wait(S.fullN, depth, k, 0))."""
    m = re.search(r"^\s*tp::mbar_wait\(S\.full\d+, \d+, \w+, 0\);\n", text,
                  re.M)
    if not m:
        return None
    if bug == "missing-wait":
        return text[:m.start()] + text[m.end():]
    line = m.group(0).replace(", 0);", ", 1);")
    return text[:m.start()] + line + text[m.end():]


def lower_to(args):
    """--lower-to: both modes of every file as .cu, nothing run."""
    os.makedirs(args.lower_to, exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.files:
            base = os.path.splitext(os.path.basename(path))[0]
            for mode, options in [("ws", ""), ("peeled", "mode=unspecialized"),
                                  ("persistent", "persistent")]:
                lowered = lower(path, args.build, tmp, options,
                                name=f"{base}.{mode}")
                if not lowered:
                    failed = 2
                    continue
                # A loop the planner keeps at one tile per CTA (its remark
                # says why) is the ws kernel again.
                if mode == "persistent" and \
                        "tileas.persistent" not in open(lowered[1].replace(".cu", ".mat.mlir")).read():
                    continue
                shutil.copy(lowered[1], args.lower_to)
                print(f"{base}.{mode}: lowered")
    return failed


def build(path, args, tmp):
    if path.endswith(".harness"):
        return os.path.splitext(os.path.basename(path))[0], path
    if path.endswith(".cu"):
        name = os.path.splitext(os.path.basename(path))[0]
        cu = os.path.join(tmp, name + ".cu")
        shutil.copy(path, cu)
    else:
        lowered = lower(path, args.build, tmp)
        if not lowered:
            return None
        name, cu, _ = lowered
    exe = os.path.join(args.build_to or tmp,
                       name + (f".{args.seed_bug}" if args.seed_bug else "") +
                       ".harness")
    if args.seed_bug:
        text = open(cu).read()
        seeded = seed(text, args.seed_bug)
        if seeded is None:
            print(f"{name}: no consumer wait to plant the bug in")
            return None
        # Say which line changed, so that a test can see the bug is planted
        # where it means to be even where no GPU runs the binary.
        old, new = text.splitlines(), seeded.splitlines()
        at = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), len(new))
        print(f"{name}: planted {args.seed_bug} at line {at + 1}: "
              f"'{old[at].strip()}' -> '{new[at].strip() if len(new) == len(old) else '(removed)'}'")
        open(cu, "w").write(seeded)
    r = run([NVCC, "-std=c++17", "-DTILEPIPE_HARNESS", "-DTILEPIPE_HARNESS_MAIN",
             *[a for arch in args.arch.split(",")
               for a in ("-gencode", f"arch=compute_{arch[3:]},code={arch}")],
             "-I", args.include, cu, "-o", exe, "-diag-suppress", "177"])
    if r.returncode:
        print(f"{name}: nvcc failed\n{r.stdout}")
        return None
    return name, exe


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(ap)
    ap.add_argument("--trips", default="")
    ap.add_argument("--ctas", default="")
    ap.add_argument("--seed-bug", choices=["missing-wait", "wrong-phase"])
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--lower-to", metavar="DIR")
    ap.add_argument("--build-to", metavar="DIR")
    ap.add_argument("--arch", default="sm_90a,sm_100a",
                    help="the SASS targets nvcc builds (comma-separated)")
    args = ap.parse_args()
    if args.lower_to:
        return lower_to(args)
    if args.build_to:
        os.makedirs(args.build_to, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            built = [build(path, args, tmp) for path in args.files]
        for b in built:
            if b:
                print(f"{b[0]}: built {b[1]}")
        return 0 if all(built) else 2
    if not os.path.exists(NVCC) and not all(f.endswith(".harness")
                                            for f in args.files):
        print(f"harness: skipped: no CUDA Toolkit ({NVCC} not found)")
        return 0
    worst = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.files:
            built = build(path, args, tmp)
            if not built:
                worst = 2
                continue
            name, exe = built
            bug = args.seed_bug
            if path.endswith(".harness"):
                bug = next((b for b in ("missing-wait", "wrong-phase")
                            if name.endswith("." + b)), None)
            cmd = [exe] + ([args.trips] if args.trips else []) + \
                ([args.ctas] if args.trips and args.ctas else [])
            try:
                r = run(cmd, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                print(f"{name}: HANG: the harness ran past {args.timeout} s")
                worst = 1
                continue
            sys.stdout.write(r.stdout)
            if r.returncode == 77:
                print(f"{name}: built; not run (no CUDA device)")
                continue
            runs = [json.loads(l) for l in r.stdout.splitlines()
                    if l.startswith("{")]
            bad = [x for x in runs if not x.get("ok")]
            if bug:
                verdict = "caught" if bad else "NOT CAUGHT"
                print(f"{name}: seeded {bug}: {verdict} "
                      f"({len(bad)} of {len(runs)} runs report it)")
                worst = max(worst, 0 if bad else 1)
            else:
                print(f"{name}: {len(runs) - len(bad)} of {len(runs)} runs "
                      f"clean")
                worst = max(worst, 1 if bad or r.returncode else 0)
    return worst


if __name__ == "__main__":
    sys.exit(main())
