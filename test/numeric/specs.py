"""What each kernel computes, written independently of the translator: the
problems to run, random inputs, and a float64 reference per output, with a
tolerance per data type (docs/cpu-emulation.md). scripts/numcheck.py runs
them on the CPU emulator (and, with --gpu, on a GPU).

Inputs are drawn so that they are exact in the kernel's element type (the
launcher's conversion from float32 is then the identity), so the only
rounding is the kernel's own: float32 accumulation and the output type.
"""
import math

import numpy as np

# Tolerances (atol, rtol) per output type: one bf16 rounding of the result is
# at most 2^-9 relative; twice that covers the float32 accumulation of the
# K <= 4096 products of values in [-1, 1) too. float32 outputs: accumulation
# order only.
BF16_TOL = (1e-3, 2.0 ** -8)
F32_TOL = (1e-4, 1e-5)


def bf16(x):
    """Rounds float32 values to bfloat16 (to nearest, ties to even), kept as
    float32."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


def uniform_bf16(rng, shape):
    return bf16(rng.uniform(-1.0, 1.0, size=shape).astype(np.float32))


class Gemm:
    """C[M, N] = A[M, K] . B[N, K]^T, bf16 in, float32 accumulation, bf16 out
    (examples/gemm_mainloop.mlir: 128x256 CTA tile, K-block 64, 4-deep ring)."""

    mlir = "examples/gemm_mainloop.mlir"
    tile_m, tile_n, tile_k, depth = 128, 256, 64, 4
    tolerance = {"C": BF16_TOL}

    def problems(self, quick=False):
        d = self.depth
        # (M, N, K): trip counts 0, 1, 2, depth, depth + 1 and 64; several
        # CTAs; M, N (and K) multiples of the tile and not.
        probs = [(128, 256, 0), (256, 512, 64), (200, 300, 128), (128, 256, 64 * d),
                 (136, 264, 64 * d + 40)]
        if not quick:
            probs.append((128, 256, 64 * 64))
        return probs

    def describe(self, p):
        m, n, k = p
        return f"M={m} N={n} K={k} trips={math.ceil(k / self.tile_k)} grid={self.grid(p)}"

    def grid(self, p):
        m, n, _ = p
        return (math.ceil(m / self.tile_m), math.ceil(n / self.tile_n), 1)

    def inputs(self, rng, p):
        m, n, k = p
        return {"A": uniform_bf16(rng, (m, k)), "B": uniform_bf16(rng, (n, k))}

    def scalars(self, p):
        return {"K": p[2]}

    def outputs(self, p):
        return {"C": (p[0], p[1])}

    def reference(self, inputs, p):
        a = inputs["A"].astype(np.float64)
        b = inputs["B"].astype(np.float64)
        return {"C": a @ b.T}


SPECS = {
    "gemm_mainloop": Gemm(),
}


def attention_reference(q, k, v_sk):
    """Unnormalised attention in base 2, as the examples define it (tileas has
    no division, so the kernels store O before dividing by the row sum):
    O = sum_j exp2(S_j - m) V_j with S = Q K^T and m the row maximum over all
    keys. The kernels compute it online (running maximum, O rescaled by
    exp2(m_old - m_new), P rounded to bf16 before P V); the result is the same
    up to those roundings. Returns (O, |O| bound): the bound is the sum of
    |p v| terms, against which the bf16 roundings are measured."""
    q = q.astype(np.float64)
    s = q @ k.astype(np.float64).T
    if s.shape[1] == 0:
        z = np.zeros((q.shape[0], v_sk.shape[1]))
        return z, z
    m = s.max(axis=1, keepdims=True)
    p = np.exp2(s - m)
    v = v_sk.astype(np.float64)
    return p @ v, p @ np.abs(v)


class Attention:
    """examples/fa4_fwd.mlir (two 128-row Q tiles per CTA, K and V in one
    ring) and examples/attention_fwd.mlir (one Q tile, V^T in global memory):
    O = unnormalised softmax(Q K^T) V per 128-row Q tile, head dim 128."""

    head = 128
    block = 128

    def __init__(self, mlir, q_rows_per_cta, v_transposed, depth):
        self.mlir = mlir
        self.q_rows = q_rows_per_cta
        self.v_t = v_transposed
        self.depth = depth
        # P in bf16 (2^-9 relative) and O in bf16 (2^-9): 2^-7 of the
        # magnitude sum bounds both with room for float32 accumulation.
        self.tolerance = {"O": "bound"}

    def problems(self, quick=False):
        d = self.depth
        # (query rows, key blocks): trip counts 0, 1, 2, depth, depth + 1 and
        # 64; several CTAs; query rows a multiple of the CTA's rows and not.
        probs = [(self.q_rows, 0), (2 * self.q_rows, 1), (self.q_rows + 72, 2),
                 (self.q_rows, d), (self.q_rows, d + 1)]
        if not quick:
            probs.append((self.q_rows, 64))
        return probs

    def describe(self, p):
        return f"Sq={p[0]} Sk={p[1] * self.block} trips={p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (math.ceil(p[0] / self.q_rows), 1, 1)

    def inputs(self, rng, p):
        sq, sk = p[0], p[1] * self.block
        v = uniform_bf16(rng, (sk, self.head))
        return {"Q": uniform_bf16(rng, (sq, self.head)),
                "K": uniform_bf16(rng, (sk, self.head)),
                "V": np.ascontiguousarray(v.T) if self.v_t else v}

    def scalars(self, p):
        return {"nKV": p[1]}

    def outputs(self, p):
        return {"O": (p[0], self.head)}

    def reference(self, inputs, p):
        v = inputs["V"].T if self.v_t else inputs["V"]
        o, mag = attention_reference(inputs["Q"], inputs["K"], v)
        return {"O": (o, 1e-3 + 2.0 ** -7 * mag)}


SPECS["fa4_fwd"] = Attention("examples/fa4_fwd.mlir", 256, False, 3)
