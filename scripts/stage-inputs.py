#!/usr/bin/env python3
"""Writes the stage code the translation tests start from
(test/lit/cuda/Inputs/stage/, docs/testing.md, "Translation tests start
from stage code").

The translate-*.test files run only tilepipe-translate on these files, so a
change to the scheduler or the materializer moves no CUDA CHECK line; the
end-to-end tests (translate-gemm, translate-arith, translate-mutex,
translate-error-source-loc, nvcc-*, numeric-*) still run the whole chain.
Each file is the output of

    tilepipe-opt SOURCE --tileas-generate-schedule
        --tileas-materialize-schedule[=OPTIONS] -canonicalize -cse

run from the repository root (so its locations name SOURCE relative to it),
under a header that says so. Run it again, and review the CUDA the tests
check, when the stage code itself should change:

    python3 scripts/stage-inputs.py --build build
"""
import argparse
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGE_DIR = os.path.join("test", "lit", "cuda", "Inputs", "stage")

# output name (under STAGE_DIR): (source, --tileas-materialize-schedule options)
STAGE_INPUTS = {
    "gemm_mainloop.mlir": ("examples/gemm_mainloop.mlir", ""),
    "gemm_mainloop.peeled.mlir": ("examples/gemm_mainloop.mlir", "mode=unspecialized"),
    "fa4_fwd.mlir": ("examples/fa4_fwd.mlir", ""),
    "arith-softmax.mlir": ("test/lit/cuda/Inputs/arith-softmax.mlir", ""),
    "ceildiv-gemm.mlir": ("test/lit/cuda/Inputs/ceildiv-gemm.mlir", ""),
    "cpasync-rowsum.mlir": ("test/lit/cuda/Inputs/cpasync-rowsum.mlir", ""),
    "dequant-scale.mlir": ("test/lit/cuda/Inputs/dequant-scale.mlir", ""),
    "elementwise-math.mlir": ("test/lit/cuda/Inputs/elementwise-math.mlir", ""),
    "i32-grouped-gemm.mlir": ("test/lit/cuda/Inputs/i32-grouped-gemm.mlir", ""),
    "i32-trips.mlir": ("test/lit/cuda/translate-i32-loop.mlir", ""),
    "int-table.mlir": ("test/lit/cuda/Inputs/int-table.mlir", ""),
    "softmax-temp-bf16.mlir": ("test/lit/cuda/Inputs/softmax-temp-bf16.mlir", ""),
    "splitk-gemm.mlir": ("test/lit/cuda/Inputs/splitk-gemm.mlir", ""),
}


def command(opt, source, options):
    materialize = "--tileas-materialize-schedule" + (f"={options}" if options else "")
    return [opt, source, "--tileas-generate-schedule", materialize, "-canonicalize", "-cse"]


def header(source, options):
    shown = " ".join(command("tilepipe-opt", source, options))
    return (f"// Stage code of {source} for the translation tests: made once from the\n"
            f"// repository root by scripts/stage-inputs.py, that is by\n"
            f"//   {shown}\n"
            f"// The tests that read it run only tilepipe-translate (docs/testing.md).\n\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("names", nargs="*", help="only these outputs (default: all)")
    args = ap.parse_args()
    opt = os.path.join(os.path.abspath(args.build), "bin", "tilepipe-opt")
    for name in args.names or sorted(STAGE_INPUTS):
        source, options = STAGE_INPUTS[name]
        proc = subprocess.run(command(opt, source, options), cwd=REPO, capture_output=True,
                              text=True)
        if proc.returncode:
            sys.stderr.write(proc.stderr)
            print(f"stage-inputs: {name}: tilepipe-opt exited {proc.returncode}")
            return 1
        with open(os.path.join(REPO, STAGE_DIR, name), "w") as f:
            f.write(header(source, options) + proc.stdout)
        print(f"stage-inputs: wrote {os.path.join(STAGE_DIR, name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
