#!/usr/bin/env python3
"""The GEMM's steady-state loops, tileiras against tilepipe, instruction by
instruction (docs/cuda-tile.md, "Loop length against tileiras"):

    python3 bench/cutile/loops.py [--build build] [--sass]

tileiras compiles the cuTile GEMM's fixture (test/cutile/fixtures/
matmul-13.4.tileirbc) for sm_100; tilepipe lowers bench/cutile/matmul-kn.mlir
(the same GEMM written in tile IR, B N-contiguous) and examples/
gemm_mainloop.mlir (B K-major) and nvcc compiles them for sm_100a. Prints,
per kernel, registers, ptxas's spill bytes and the TMA and MMA loops' mix
(bench/cutile/cubin.py); --sass adds each loop's instructions with their
predicates. Needs the environment `scripts/testvenv.py BUILD cutile` makes
(made here when missing) and the CUDA Toolkit."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import compare  # noqa: E402
import cubin  # noqa: E402
import sass  # noqa: E402
import testvenv  # noqa: E402
from cudalower import INCLUDE, NVCC, lower  # noqa: E402

TILEPIPE = [("matmul-kn (B MN-major)", "bench/cutile/matmul-kn.mlir"),
            ("gemm_mainloop (B K-major)", "examples/gemm_mainloop.mlir")]
FIXTURE = os.path.join(ROOT, "test", "cutile", "fixtures", "matmul-13.4.tileirbc")


def nvcc_cubin(cu, out):
    """(cubin, spill bytes) of the .cu for sm_100a."""
    proc = subprocess.run([NVCC, "-std=c++17", "-cubin", "-gencode", "arch=compute_100a,code=sm_100a",
                           "-I", INCLUDE, "-Xptxas", "-v", cu, "-o", out],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode:
        sys.exit(f"loops: nvcc failed on {cu}:\n{proc.stdout[-2000:]}")
    return out, sum(int(x) for x in re.findall(r"(\d+) bytes spill stores", proc.stdout))


def loop_text(cuobjdump, path, lo, hi):
    """The loop's instructions, predicates kept, NOPs left out."""
    lines = []
    for line in sass.tool(cuobjdump, "-sass", path).splitlines():
        m = sass.INSN.match(line)
        if m and lo <= int(m.group(1), 16) <= hi and m.group(3) != "NOP":
            pred = (m.group(2) or "").strip()
            lines.append(f"    {m.group(1)[-5:]}  {pred:6} {m.group(3)}{m.group(4)}{m.group(5).rstrip()}")
    return lines


def report(cuobjdump, label, path, spill, show):
    facts = cubin.analyze(cuobjdump, path)
    insns = sass.disassemble(cuobjdump, path)
    for name, f in facts.items():
        print(f"{label}: {f['registers']} registers, {spill} B spilled; "
              f"TMA loop {compare.loop_cell(f['tma_loop'], 'tma')}, "
              f"MMA loop {compare.loop_cell(f['mma_loop'], 'mma')}")
        if not show:
            continue
        for kind in ("tma_load", "mma"):
            found = cubin.steady_loop(insns[name], kind)
            if found:
                print(f"  {'TMA' if kind == 'tma_load' else 'MMA'} loop:")
                print("\n".join(loop_text(cuobjdump, path, *found[0])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--sass", action="store_true", help="print each loop's instructions")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    python, reason = testvenv.ensure(build, "cutile")
    if not python:
        print(f"loops: skipped: no cuTile environment ({reason})")
        return 0
    cuobjdump = testvenv.tool_path(build, "cuobjdump")
    print("(TMA loop: total (UTMALDG, waits, arrives, branches); "
          "MMA loop: total (MMAs, commits, waits, branches))")
    with tempfile.TemporaryDirectory() as tmp:
        binary = compare.compile_tileiras(build, FIXTURE, tmp)
        if binary:
            report(cuobjdump, "tileiras matmul", binary, "-", args.sass)
        for label, mlir in TILEPIPE:
            lowered = lower(os.path.join(ROOT, mlir), build, tmp)
            if not lowered:
                return 1
            path, spill = nvcc_cubin(lowered[1], os.path.join(tmp, lowered[0] + ".cubin"))
            report(cuobjdump, f"tilepipe {label}", path, spill, args.sass)
    return 0


if __name__ == "__main__":
    sys.exit(main())
