#!/usr/bin/env python3
"""Lowers tile-IR kernels to CUDA for a GPU machine that has no build tree
(a lent device: nvcc and the source tree, no LLVM/MLIR). It writes, per file
and mode, the clean protocol-harness source and one per seeded bug
(scripts/harness.py's seed()), and scripts/harness-run.sh compiles and runs
what is there:

  scripts/harness-bundle.py --out DIR [--build build] [--modes ws,peeled] F.mlir...
  scripts/harness-run.sh DIR            (on the GPU machine)

Exit status: 0 every file lowered; 1 a file failed to lower (it is named).
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cudalower import lower  # noqa: E402
from harness import seed  # noqa: E402

MODES = {"ws": "", "peeled": "mode=unspecialized"}
BUGS = ["missing-wait", "wrong-phase"]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--build", default="build")
    ap.add_argument("--modes", default="ws,peeled")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.files:
            base = os.path.splitext(os.path.basename(path))[0]
            for mode in args.modes.split(","):
                name = f"{base}.{mode}"
                lowered = lower(path, args.build, tmp, MODES[mode], name=name)
                if not lowered:
                    failed = 1
                    continue
                text = open(lowered[1]).read()
                with open(os.path.join(args.out, name + ".clean.cu"), "w") as f:
                    f.write(text)
                for bug in BUGS:
                    seeded = seed(text, bug)
                    if seeded is None:
                        print(f"{name}: no consumer wait to plant {bug} in")
                        continue
                    with open(os.path.join(args.out, f"{name}.{bug}.cu"), "w") as f:
                        f.write(seeded)
                print(f"{name}: lowered")
    return failed


if __name__ == "__main__":
    sys.exit(main())
