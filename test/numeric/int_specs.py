"""Numeric specs of integer index arithmetic (issue 35, point 5), for
scripts/numcheck.py --specs test/numeric/int_specs.py: a GEMM whose trip
count, tile origins and CTA-to-tile map are unsigned divisions, remainders
and shifts, and a table of every integer op of arith evaluated from kernel
arguments (negative ones included) against gen_int_table.py's statement of
arith's semantics in Python integers."""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_int_table  # noqa: E402
from specs import BF16_TOL, Gemm, RmsNormGamma, peeled, persistent  # noqa: E402


class CeilDivGemm(Gemm):
    """test/lit/cuda/Inputs/ceildiv-gemm.mlir: C = A . B^T in 128x128 tiles,
    trips = ceildivui(K, 64), CTA x takes tile (x / ceildivui(N, 128),
    x % ceildivui(N, 128)). Ragged K: TMA reads zeros past K."""

    mlir = "test/lit/cuda/Inputs/ceildiv-gemm.mlir"
    tile_m, tile_n, tile_k, depth = 128, 128, 64, 4
    tolerance = {"C": BF16_TOL}

    def problems(self, quick=False):
        # Trip counts 0, 1 (K = 40: ragged), 2 (K = 65: one element into the
        # second block), depth, depth + 1 (ragged); N not a multiple of 128.
        probs = [(128, 128, 0), (128, 256, 40), (200, 300, 65),
                 (256, 130, 64 * 4), (136, 264, 64 * 4 + 24)]
        if not quick:
            probs.append((128, 384, 64 * 40 + 1))
        return probs

    def grid(self, p):
        m, n, _ = p
        return (math.ceil(m / self.tile_m) * math.ceil(n / self.tile_n), 1, 1)

    def scalars(self, p):
        return {"N": p[1], "K": p[2]}


class ShiftGemm(CeilDivGemm):
    """test/lit/cuda/Inputs/shift-gemm.mlir: ceildiv_gemm with trips =
    (K + 63) >> 6 (arith.shrui)."""

    mlir = "test/lit/cuda/Inputs/shift-gemm.mlir"

    def problems(self, quick=False):
        return super().problems(quick=True)


class I32GroupedGemm(CeilDivGemm):
    """test/lit/cuda/Inputs/i32-grouped-gemm.mlir: Triton's grouped tile
    order (GROUP_M = 8) in i32 from i32 arguments M, N, K, and an i32 loop
    over cdiv(K, 64) K-blocks. The reference knows nothing of the grouping:
    every element of C is checked, so a tile computed twice or never shows."""

    mlir = "test/lit/cuda/Inputs/i32-grouped-gemm.mlir"

    def problems(self, quick=False):
        # Trip counts 0, 1 (ragged), 2 (one element into the second block),
        # 4 and 5 (ragged); tile grids 1, 2 x 2, 9 x 2 (a partial group of
        # one tile row after the full group of 8), 2 x 3 with edge tiles.
        probs = [(128, 128, 0), (256, 256, 40), (1100, 200, 65),
                 (256, 300, 64 * 4), (136, 264, 64 * 4 + 24)]
        if not quick:
            probs.append((128, 384, 64 * 40 + 1))
        return probs

    def scalars(self, p):
        return {"M": p[0], "N": p[1], "K": p[2]}


class RmsNormI32(RmsNormGamma):
    """test/lit/cuda/Inputs/rmsnorm-i32.mlir: rmsnorm_gamma with an i32
    block count and an i32 loop from the CTA's id by the grid's size."""

    mlir = "test/lit/cuda/Inputs/rmsnorm-i32.mlir"


class RmsNormI64(RmsNormGamma):
    """test/lit/cuda/Inputs/rmsnorm-i64.mlir: the same with an i64 loop."""

    mlir = "test/lit/cuda/Inputs/rmsnorm-i64.mlir"


class IntTable:
    """test/lit/cuda/Inputs/int-table.mlir (gen_int_table.py): CTA (x, y)
    stores value y of the table for operand pair x, a = a0 + x da, b = b0 +
    x db, as four 16-bit pieces of its 64-bit two's complement, each a
    128x4 tile of floats. Exact."""

    mlir = "test/lit/cuda/Inputs/int-table.mlir"
    tolerance = {"R": (0.0, 0.0)}

    def __init__(self):
        self.count = len(gen_int_table.labels())

    def problems(self, quick=False):
        # (pairs, a0, da, b0, db, big): small values of both signs; i32
        # values near the ends of the range (the i32 ops wrap, the index
        # ones do not); index values beyond i32 (index_cast truncates). No
        # b is 0 (division by zero is undefined) and no i32 pair is
        # INT_MIN / -1.
        # Overflow (arith wraps around): in i32 a = INT32_MIN + 5, b = 7
        # (subi, muli overflow), then INT32_MIN + 3, b = -9 (addi, muli; a
        # near INT32_MAX would make sitofp-fptosi's float 2^31, poison);
        # a = INT64_MAX - 4, then INT64_MIN + 5 in i64 and index (the
        # kernel's own a0 + x da wraps), with big = 2 (big a wraps to -10,
        # then 10).
        probs = [(6, -37, 29, 5, -3, 1000003),
                 (4, -2147483000, 1234567891, -7, 4, 3),
                 (4, 5 * 10 ** 12, -3 * 10 ** 12, 3, -2, -77),
                 (2, -2 ** 31 + 5, -2, 7, -16, 3),
                 (2, 2 ** 63 - 5, 10, 7, 2, 2)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return (f"pairs={p[0]} a0={p[1]} da={p[2]} b0={p[3]} db={p[4]} "
                f"big={p[5]} values={self.count} grid={self.grid(p)}")

    def grid(self, p):
        return (p[0], self.count, 1)

    def inputs(self, rng, p):
        return {}

    def scalars(self, p):
        return {"a0": p[1], "da": p[2], "b0": p[3], "db": p[4], "big": p[5]}

    def outputs(self, p):
        return {"R": (128 * p[0], 16 * self.count)}

    def reference(self, inputs, p):
        pairs, a0, da, b0, db, big = p
        r = np.zeros(self.outputs(p)["R"])
        for x in range(pairs):
            a = a0 + x * da
            b = gen_int_table.to_signed(b0 + x * db, 32)
            for y, v in enumerate(gen_int_table.values(a, b, big)):
                u = gen_int_table.to_unsigned(v, 64)
                for i in range(4):
                    cols = slice(16 * y + 4 * i, 16 * y + 4 * i + 4)
                    r[128 * x:128 * (x + 1), cols] = (u >> (16 * i)) & 0xFFFF
        return {"R": r}


SPECS = {
    "ceildiv_gemm": CeilDivGemm(),
    # One 128-thread agent: the index math runs in it, not before roles split.
    "ceildiv_gemm_peeled": peeled(CeilDivGemm()),
    "shift_gemm": ShiftGemm(),
    "int_table": IntTable(),
    "i32_grouped_gemm": I32GroupedGemm(),
    "i32_grouped_gemm_peeled": peeled(I32GroupedGemm()),
    "rmsnorm_i32": RmsNormI32(),
    "rmsnorm_i32_peeled": peeled(RmsNormI32()),
    "rmsnorm_i64": RmsNormI64(),
}
# Persistent: grids of 1 to 9 tiles over the emulator's 2 CTAs, trip counts
# 0, 1, 3 and 5.
SPECS["i32_grouped_gemm_persistent"] = persistent(
    I32GroupedGemm(), [(128, 128, 0), (384, 256, 64), (300, 700, 192),
                       (1100, 128, 320)])
