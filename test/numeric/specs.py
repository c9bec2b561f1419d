"""What each kernel computes, written independently of the translator: the
problems to run, random inputs, and a float64 reference per output, with a
tolerance per data type (docs/cpu-emulation.md). scripts/numcheck.py runs
them on the CPU emulator (and, with --gpu, on a GPU).

Inputs are drawn so that they are exact in the kernel's element type (the
launcher's conversion from float32 is then the identity), so the only
rounding is the kernel's own: float32 accumulation and the output type.
"""
import copy
import math

import numpy as np

# Tolerances (atol, rtol) per output type: bf16 keeps 8 significant bits, so
# one rounding of the result to nearest is at most 2^-8 relative; the atol
# covers the float32 accumulation of K <= 4096 products of values in [-1, 1)
# (measured worst: 0.99 of the bound on the split-K loop, whose spec states
# its own). float32 outputs: accumulation order only.
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


def running_max_reference(q, k, v_sk, block):
    """What examples/attention_fwd.mlir's loop computes: O = sum_j exp2(S_j -
    m_j) V_j over the key blocks j, with m_j the running row maximum of
    blocks 0..j. Its O is never rescaled by exp2(m_old - m_new) (only the row
    sum is), so this equals attention_reference only when no later block
    raises a row's maximum. Returns (O, |O| bound) as attention_reference."""
    q = q.astype(np.float64)
    v = v_sk.astype(np.float64)
    o = np.zeros((q.shape[0], v.shape[1]))
    mag = np.zeros_like(o)
    m = np.full((q.shape[0], 1), -np.inf)
    for j in range(0, k.shape[0], block):
        s = q @ k[j:j + block].astype(np.float64).T
        m = np.maximum(m, s.max(axis=1, keepdims=True))
        p = np.exp2(s - m)
        o += p @ v[j:j + block]
        mag += p @ np.abs(v[j:j + block])
    return o, mag


class Attention:
    """examples/fa4_fwd.mlir (two 128-row Q tiles per CTA, K and V in one
    ring) and examples/attention_fwd.mlir (one Q tile, K and V in pipes of
    their own); both read V as [kv, d] (an MN-major B, `b_mn_major`):
    O = unnormalised softmax(Q K^T) V per 128-row Q tile, head dim 128."""

    head = 128
    block = 128

    def __init__(self, mlir, q_rows_per_cta, v_transposed, depth,
                 rescales_o=True):
        self.mlir = mlir
        self.q_rows = q_rows_per_cta
        self.v_t = v_transposed
        self.depth = depth
        # False: the loop does not rescale O when the running maximum grows
        # (running_max_reference).
        self.rescales_o = rescales_o
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
        if self.rescales_o:
            o, mag = attention_reference(inputs["Q"], inputs["K"], v)
        else:
            o, mag = running_max_reference(inputs["Q"], inputs["K"], v,
                                           self.block)
        return {"O": (o, 1e-3 + 2.0 ** -7 * mag)}


SPECS["fa4_fwd"] = Attention("examples/fa4_fwd.mlir", 256, False, 3)
SPECS["attention_fwd"] = Attention("examples/attention_fwd.mlir", 128, False, 3,
                                   rescales_o=False)


# ---------------------------------------------------------------------------
# The block-scaled FP8 GEMM and the loops of test/lit/cuda/Inputs.
# ---------------------------------------------------------------------------

U32 = 2.0 ** -24  # float32 unit roundoff


def mma_rounding_bound(a, b, k_step, bits, steps_per_sum=None):
    """Elementwise bound on how far a tensor core's sum of A B^T (float64 a
    [M, K], b [N, K]) lies from the exact one. Each MMA instruction adds its
    k_step products to the accumulator with one alignment and rounding in an
    unspecified direction, keeping `bits` significant bits of the result:
    2^(1 - bits) (sum over instructions of |partial sum after it| + sum |a b|).
    The partial sums restart every `steps_per_sum` instructions (an
    accumulator the loop reads and zeroes per K-block).

    Measured on an H200 (docs/gpu-results.md): the 16-bit MMA (f32
    accumulator) lands up to 0.47 x 2^-24 of sum |partial| from the exact sum
    at K = 4096, about one rounding per instruction (bits = 24) as the
    emulator's, but not on the same bits; the 8-bit MMA keeps about 14 bits
    (bits = 14; the DeepSeek-V3 technical report, section 3.3.2, says the
    same of H800), up to 2^-12.8 of sum |a b| per K-block measured."""
    m, k = a.shape
    n = b.shape[0]
    pad = -k % k_step
    a = np.pad(a, ((0, 0), (0, pad)))
    b = np.pad(b, ((0, 0), (0, pad)))
    steps = a.shape[1] // k_step
    per = steps_per_sum or max(steps, 1)
    groups = -(-steps // per)
    each = np.einsum("mjk,njk->mnj", a.reshape(m, steps, k_step), b.reshape(n, steps, k_step))
    each = np.pad(each, ((0, 0), (0, 0), (0, groups * per - steps))).reshape(m, n, groups, per)
    partial = np.abs(np.cumsum(each, axis=3)).sum(axis=(2, 3))
    return 2.0 ** (1 - bits) * (partial + np.abs(a) @ np.abs(b).T)


def fp8_mma_bound(c, scale, a, b, k):
    """The bound of a bf16 output bf16(scale (a b^T)) of an 8-bit MMA that
    accumulates all of K in one accumulator: bf16's rounding (2^-8 of the
    value, and of the error), the MMA's own sums at 14 bits
    (mma_rounding_bound; an H200 measured on these kernels, 2026-12-04:
    the plain f32 bound failed on 2% of their elements), and float32
    roundings of K terms and the scale."""
    mma = scale * mma_rounding_bound(a, b, 32, 14)
    mag = scale * (np.abs(a) @ np.abs(b).T)
    return 2.0 ** -8 * np.abs(c) + 2 * mma + 2 * (k + 2) * U32 * mag


def e4m3_value(code):
    """The value of an OCP FP8 E4M3 (f8E4M3FN) byte: sign, 4-bit exponent
    (bias 7), 3-bit mantissa; exponent 0 is subnormal (m / 8 * 2^-6);
    S.1111.111 is NaN and there is no infinity (max 448)."""
    code = np.asarray(code, dtype=np.uint8).astype(np.int64)
    s = np.where(code >> 7, -1.0, 1.0)
    e = (code >> 3) & 0xF
    m = (code & 7).astype(np.float64)
    mag = np.where(e == 0, m / 8.0 * 2.0 ** -6, (1.0 + m / 8.0) * np.exp2(e - 7.0))
    return np.where((e == 15) & (m == 7), np.nan, s * mag)


# Every finite E4M3 code (the two NaN codes, 0x7F and 0xFF, left out), so
# that the tensor core's decoding of each one, subnormals and +-0
# included, is checked.
E4M3_CODES = np.array([c for c in range(256) if c & 0x7F != 0x7F], dtype=np.uint8)


def random_e4m3(rng, shape):
    """Raw E4M3 bytes (.npy uint8: the main takes them as they are)."""
    return rng.choice(E4M3_CODES, size=shape).astype(np.uint8)


def with_oob(t, shape):
    """A tile read by TMA at a corner of t: out-of-bounds elements are zero
    (tiled TMA's OOB fill), here by zero-padding t up to `shape`."""
    out = np.zeros(shape, dtype=np.float64)
    rows, cols = min(t.shape[0], shape[0]), min(t.shape[1], shape[1])
    out[:rows, :cols] = t[:rows, :cols]
    return out


class GemmBlockScaledFp8(Gemm):
    """examples/gemm_blockscaled_fp8.mlir: MXFP8 block-scaled GEMM,
    C[m, n] = bf16(sum_k A[m, k] SFA[m, k / 32] B[n, k] SFB[n, k / 32]) with
    E4M3 A [M, K] and B [N, K] and UE8M0 factors (2^(e - 127)), one per 32
    elements of K (tcgen05.mma kind::mxf8f6f4.block_scale, scale_vec::1X).
    128x256 CTA tile, K-block 128 (4 factors per row per K-block), 4-deep
    ring; CTA (x, y) owns rows 128 x and columns 256 y. The factors are given
    logically, [rows][ceil(K / 32)] uint8, which the main packs into the
    128x4 atoms its TMA reads (host/main.cuh, packScaleFactors)."""

    mlir = "examples/gemm_blockscaled_fp8.mlir"
    tile_m, tile_n, tile_k, depth = 128, 256, 128, 4
    # Elementwise bound (the reference comes with it). Every product
    # A * 2^a * B * 2^b is exact in float32 (3 + 3 mantissa bits, power-of-2
    # factors, the smallest 2^-9 * 2^-9 * 2^-7 * 2^-7 = 2^-32 still normal),
    # so the float32 accumulation of the K products is the only rounding
    # before the output: |x - ref| <= K * 2^-24 * sum_k |products| in any
    # order. bf16 keeps 8 significant bits, so rounding x to nearest moves it
    # by at most 2^-8 |x| <= 2^-8 |ref| + 2^-8 |x - ref|: the bound is
    # 2^-8 |ref| + 2 K 2^-24 sum_k |products|. Products span 2^-32 .. 2^32,
    # so no fixed atol fits: the bound scales with them.
    tolerance = {"C": "bound"}

    def problems(self, quick=False):
        d = self.depth
        # (M, N, K): trips 0, 1, 2, depth, depth + 1 and 64; several CTAs; M
        # and N multiples of the tile and not; K a multiple of the K-block
        # and not (K = 560: the last K-block half out of bounds, 18 factors
        # per row, the packer's padding factor 0 meets zero-filled A and B).
        probs = [(128, 256, 0), (256, 512, 128), (200, 300, 256), (128, 256, 128 * d),
                 (136, 264, 128 * d + 48)]
        if not quick:
            probs.append((256, 256, 128 * 64))
        return probs

    def inputs(self, rng, p):
        m, n, k = p
        blocks = math.ceil(k / 32)
        # Factor exponents 120..134: 2^-7 .. 2^7, products stay far inside
        # float32 and bf16.
        return {"A": random_e4m3(rng, (m, k)), "B": random_e4m3(rng, (n, k)),
                "SFA": rng.integers(120, 135, size=(m, blocks)).astype(np.uint8),
                "SFB": rng.integers(120, 135, size=(n, blocks)).astype(np.uint8)}

    def reference(self, inputs, p):
        k = p[2]

        def scaled(x, sf):
            f = np.exp2(sf.astype(np.float64) - 127.0)
            return e4m3_value(x) * np.repeat(f, 32, axis=1)[:, :k]

        a = scaled(inputs["A"], inputs["SFA"])
        b = scaled(inputs["B"], inputs["SFB"])
        c = a @ b.T
        mag = np.abs(a) @ np.abs(b).T
        return {"C": (c, 2.0 ** -8 * np.abs(c) + 2 * k * U32 * mag)}


SPECS["gemm_blockscaled_fp8"] = GemmBlockScaledFp8()


class DequantScale:
    """test/lit/cuda/Inputs/dequant-scale.mlir: one 128x128 tile of C at
    (m, n), C = bf16(sum over K-blocks of scale[r] * (A_kb B_kb^T)), E4M3 A
    [MA, K] and B [NB, K], a per-tile-row float32 scale (row broadcast:
    scale[r] multiplies row m + r of the tile). K-block 128, 7-deep rings.

    The kernel does not read gpu.block_id: every CTA computes and stores the
    same tile (identical bytes); several CTAs check that nothing is shared
    between them. The tile may hang over the matrices' ends (TMA loads zeros
    there and the store clips); C outside the tile keeps its zeros."""

    mlir = "test/lit/cuda/Inputs/dequant-scale.mlir"
    tile, tile_k, depth = 128, 128, 7
    # Elementwise bound. Per K-block the MMA sums the E4M3 x E4M3 products
    # (exact in float32) with its own rounding (mma_rounding_bound: about 14
    # bits on Hopper, measured), then one float32 rounding for * scale and
    # one for + acc: |x - ref| <= |scale| mma + (K + 2 trips + 1) * 2^-24 *
    # |scale| * sum_k |a b| in all. The bf16 output (8 significant bits)
    # adds at most 2^-8 |x|, within 2^-8 |ref| + 2^-8 |x - ref|: hence 2^-8
    # |ref| + 2 |scale| mma + 2 (K + 2 trips + 1) 2^-24 |scale| sum_k |a b|.
    tolerance = {"C": "bound"}

    def problems(self, quick=False):
        d = self.depth
        # (MA, NB, K, m, n, CTAs): trips 0, 1, 2, depth, depth + 1, 64; the
        # tile inside the matrices, at their far corner, and half over their
        # ends; K a multiple of the K-block and not.
        probs = [(128, 128, 0, 0, 0, 1), (256, 384, 128, 128, 256, 2),
                 (200, 170, 256, 128, 128, 1), (128, 128, 128 * d, 0, 0, 1),
                 (256, 200, 128 * d + 96, 128, 128, 2)]
        if not quick:
            probs.append((128, 128, 128 * 64, 0, 0, 1))
        return probs

    def describe(self, p):
        ma, nb, k, m, n, ctas = p
        return (f"A={ma}x{k} B={nb}x{k} tile=({m},{n}) trips={math.ceil(k / self.tile_k)} "
                f"grid={self.grid(p)}")

    def grid(self, p):
        return (p[5], 1, 1)

    def inputs(self, rng, p):
        ma, nb, k = p[:3]
        # Scales exact in float32, of either sign, |s| in [0.5, 2).
        scale = (rng.uniform(0.5, 2.0, 128) * rng.choice([-1.0, 1.0], 128)).astype(np.float32)
        return {"A": random_e4m3(rng, (ma, k)), "B": random_e4m3(rng, (nb, k)),
                "scale": scale}

    def scalars(self, p):
        return {"m": p[3], "n": p[4], "K": p[2]}

    def outputs(self, p):
        return {"C": (p[0], p[1])}

    def reference(self, inputs, p):
        ma, nb, k, m, n, _ = p
        t = self.tile
        a = with_oob(e4m3_value(inputs["A"])[m:], (t, k))
        b = with_oob(e4m3_value(inputs["B"])[n:], (t, k))
        s = inputs["scale"].astype(np.float64)[:, None]
        tile = s * (a @ b.T)
        mag = np.abs(s) * (np.abs(a) @ np.abs(b).T)
        trips = math.ceil(k / self.tile_k)
        c = np.zeros((ma, nb))
        bound = np.zeros((ma, nb))
        rows, cols = max(0, min(t, ma - m)), max(0, min(t, nb - n))
        c[m:m + rows, n:n + cols] = tile[:rows, :cols]
        # The 8-bit MMA's own accumulation (mma_rounding_bound: 14 bits,
        # the accumulator zeroed per K-block of 4 instructions), scaled.
        mma = np.abs(s) * mma_rounding_bound(a, b, 32, 14, self.tile_k // 32)
        bound[m:m + rows, n:n + cols] = (2.0 ** -8 * np.abs(tile) + 2 * mma
                                         + 2 * (k + 2 * trips + 1) * U32 * mag)[:rows, :cols]
        return {"C": (c, bound)}


SPECS["dequant_scale"] = DequantScale()


class StreamExp2:
    """test/lit/cuda/Inputs/stream-exp2.mlir: per iteration i < n, rows
    128 i .. 128 i + 127, columns 0 .. 63 of X are loaded (TMA), raised to
    exp2 and stored to the same place of Y. One loop per CTA over all n
    tiles (the kernel reads no gpu.block_id: several CTAs store identical
    bytes). Y elsewhere (columns past 63, rows past 128 n) keeps its zeros;
    rows of the last tile past the tensor's end are clipped by the store."""

    mlir = "test/lit/cuda/Inputs/stream-exp2.mlir"
    tile_r, tile_c, depth = 128, 64, 5
    # Elementwise: ex2.approx.ftz.f32 is within 2 ulp (2^-22 relative for
    # normal results; inputs in [-16, 16) keep them normal); 2^-21 leaves a
    # factor 2. Where Y is not written the reference is 0 and so is the bound.
    tolerance = {"Y": "bound"}

    def problems(self, quick=False):
        d = self.depth
        # (rows, columns, n, CTAs): trips 0, 1, 2, depth, depth + 1, 64; rows
        # a multiple of the tile and not, more rows than the loop covers,
        # columns past the box.
        probs = [(128, 64, 0, 1), (256, 64, 1, 2), (200, 72, 2, 1), (128 * d, 64, d, 1),
                 (128 * d + 60, 64, d + 1, 2)]
        if not quick:
            probs.append((128 * 64, 64, 64, 1))
        return probs

    def describe(self, p):
        return f"X={p[0]}x{p[1]} trips={p[2]} grid={self.grid(p)}"

    def grid(self, p):
        return (p[3], 1, 1)

    def inputs(self, rng, p):
        return {"X": rng.uniform(-16.0, 16.0, size=p[:2]).astype(np.float32)}

    def scalars(self, p):
        return {"n": p[2]}

    def outputs(self, p):
        return {"Y": p[:2]}

    def reference(self, inputs, p):
        rows = min(p[0], 128 * p[2])
        y = np.zeros(p[:2])
        y[:rows, :64] = np.exp2(inputs["X"][:rows, :64].astype(np.float64))
        return {"Y": (y, 2.0 ** -21 * y)}


SPECS["stream_exp2"] = StreamExp2()


class CoshStream(StreamExp2):
    """test/lit/cuda/Inputs/cosh-stream.mlir: Y = cosh(X) as
    0.5 (2^u + 2^-u), u = X log2 e in float32, over rows 128 b .. 128 b + 127
    (CTA b) and columns 0 .. 64 tiles - 1. Y elsewhere keeps its zeros; the
    stores clip rows and columns past the tensor's end. The grid and the
    output are stream_exp2's."""

    mlir = "test/lit/cuda/Inputs/cosh-stream.mlir"
    tolerance = {"Y": "bound"}

    def problems(self, quick=False):
        # (rows, columns, tiles, CTAs): trips 0, 1, 2, 6, 64; rows and
        # columns a multiple of the tile and not; CTAs past the rows.
        probs = [(128, 64, 0, 1), (256, 64, 1, 2), (200, 130, 3, 2),
                 (384, 384, 6, 3), (130, 100, 2, 3)]
        if not quick:
            probs.append((256, 64 * 64, 64, 2))
        return probs

    def describe(self, p):
        return f"X={p[0]}x{p[1]} tiles={p[2]} grid={self.grid(p)}"

    def inputs(self, rng, p):
        return {"X": rng.uniform(-12.0, 12.0, size=p[:2]).astype(np.float32)}

    def scalars(self, p):
        return {"tiles": p[2]}

    def region(self, p):
        """The rows and columns the loop writes."""
        return min(p[0], 128 * p[3]), min(p[1], 64 * p[2])

    def covered(self, inputs, p):
        rows, cols = self.region(p)
        return inputs["X"][:rows, :cols].astype(np.float64)

    def placed(self, p, y, bound):
        """Y and its bound over the whole output, zero where nothing is
        written."""
        full, full_bound = np.zeros(p[:2]), np.zeros(p[:2])
        rows, cols = y.shape
        full[:rows, :cols] = y
        full_bound[:rows, :cols] = bound
        return {"Y": (full, full_bound)}

    def reference(self, inputs, p):
        x = self.covered(inputs, p)
        y = np.cosh(x)
        # u = x log2 e rounded to float32 (the constant too: 2^-24 relative
        # each) moves 2^u by ln 2 |u| 2^-23 relative; ex2.approx is within
        # 2 ulp (2^-22), the add and the multiply round once each.
        u = np.abs(x) * np.log2(np.e)
        return self.placed(p, y, y * (np.log(2.0) * u * 2.0 ** -23 + 2.0 ** -21))


SPECS["cosh_stream"] = CoshStream()


class SiluBf16(CoshStream):
    """test/lit/cuda/Inputs/silu-bf16.mlir: Y = X / (1 + e^-X), X and Y
    bf16, computed in float32, over the same tiles as cosh_stream."""

    mlir = "test/lit/cuda/Inputs/silu-bf16.mlir"
    tolerance = {"Y": "bound"}

    def inputs(self, rng, p):
        return {"X": bf16(rng.uniform(-20.0, 20.0, size=p[:2]).astype(np.float32))}

    def reference(self, inputs, p):
        x = self.covered(inputs, p)
        y = x / (1.0 + np.exp(-x))
        # One rounding to bf16 (2^-9 relative to nearest, 2^-8 covers it);
        # the float32 steps (expf within 2 ulp, an add, an IEEE division)
        # add a few 2^-24 on top.
        return self.placed(p, y, np.abs(y) * (2.0 ** -8 + 2.0 ** -20))


SPECS["silu_bf16"] = SiluBf16()


def erf(x):
    """math.erf elementwise in float64 (numpy has none)."""
    return np.vectorize(math.erf, otypes=[np.float64])(x)


class ElementwiseMath(CoshStream):
    """test/lit/cuda/Inputs/elementwise-math.mlir: with u = |X|,
    Y = sqrt(u) + log(u + 1) rsqrt(X^2 + 1) - min(X, s) / (1 + u)
        + tanh(X) log2(u + 2) + sin(X) cos(X) + erf(X / 4) + (X + s) / 8,
    s a scalar argument, over the same tiles as cosh_stream."""

    mlir = "test/lit/cuda/Inputs/elementwise-math.mlir"
    tolerance = {"Y": "bound"}

    def inputs(self, rng, p):
        return {"X": rng.uniform(-50.0, 50.0, size=p[:2]).astype(np.float32)}

    def scalars(self, p):
        return {"tiles": p[2], "s": 3.25}

    def reference(self, inputs, p):
        x = self.covered(inputs, p)
        u = np.abs(x)
        terms = [np.sqrt(u), np.log(u + 1) / np.sqrt(x * x + 1),
                 -np.minimum(x, 3.25) / (1 + u), np.tanh(x) * np.log2(u + 2),
                 np.sin(x) * np.cos(x), erf(x / 4), (x + 3.25) / 8]
        y = sum(terms)
        # Each term within a few float32 ulp (CUDA's functions: 2 ulp at
        # most, IEEE sqrt and division exact; runtime/math.cuh; the fma
        # rounds sin cos + erf once), each
        # float32 step rounding once more: 2^-20 of the terms' magnitudes.
        # The arguments u + 1 and u + 2 are rounded before the logarithms
        # read them (2^-24 relative), which moves log(u + 1) and
        # log2(u + 2) by up to 2^-24 and 2^-24 / ln 2 absolute whatever u
        # (the factors they meet are at most 1): 2^-22 covers both.
        bound = 2.0 ** -20 * sum(np.abs(t) for t in terms) + 2.0 ** -22
        return self.placed(p, y, bound)


SPECS["elementwise_math"] = ElementwiseMath()


class LeakyClamp(CoshStream):
    """test/lit/cuda/Inputs/leaky-clamp.mlir: Y = min(X > 0 ? X : X / 64, t)
    through arith.cmpf and arith.select, t a scalar argument, over the same
    tiles as cosh_stream. Exact: X / 64 is a power-of-two scaling."""

    mlir = "test/lit/cuda/Inputs/leaky-clamp.mlir"
    threshold = 5.5

    def scalars(self, p):
        return {"tiles": p[2], "t": self.threshold}

    def reference(self, inputs, p):
        x = self.covered(inputs, p)
        y = np.minimum(np.where(x > 0, x, x / 64), self.threshold)
        return self.placed(p, y, np.zeros_like(y))


SPECS["leaky_clamp"] = LeakyClamp()


class SoftmaxRows(CoshStream):
    """test/lit/cuda/Inputs/softmax-rows.mlir: per iteration i < blocks,
    rows 128 i .. 128 i + 127 of X (128 columns) go to Y as their row
    softmax, e = exp2((x - max) log2 e), Y = e (1 / sum e). One CTA walks
    every block (several CTAs store identical bytes)."""

    mlir = "test/lit/cuda/Inputs/softmax-rows.mlir"
    tolerance = {"Y": "bound"}

    def problems(self, quick=False):
        # (rows, columns, blocks, CTAs): trips 0, 1, 2, 5; rows past the
        # blocks, a block past the rows, columns past the tile.
        probs = [(128, 128, 0, 1), (256, 128, 1, 2), (300, 130, 2, 1),
                 (640, 128, 5, 1), (200, 128, 2, 2)]
        if not quick:
            probs.append((128 * 64, 128, 64, 1))
        return probs

    def describe(self, p):
        return f"X={p[0]}x{p[1]} blocks={p[2]} grid={self.grid(p)}"

    def inputs(self, rng, p):
        return {"X": rng.uniform(-8.0, 8.0, size=p[:2]).astype(np.float32)}

    def scalars(self, p):
        return {"blocks": p[2]}

    def region(self, p):
        return min(p[0], 128 * p[2]), min(p[1], 128)

    def reference(self, inputs, p):
        rows, cols = self.region(p)
        # Columns past the tensor's end load as zeros (TMA fills them).
        x = np.zeros((rows, 128))
        x[:, :cols] = self.covered(inputs, p)
        e = np.exp(x - x.max(axis=1, keepdims=True))
        y = (e / e.sum(axis=1, keepdims=True))[:, :cols]
        # ex2.approx (2^-22) of an argument rounded to float32 (|u| < 24:
        # 2^-20 relative in e), a float32 row sum of 128 terms (2^-17
        # relative at worst), an IEEE division and a multiply: 2^-16.
        return self.placed(p, y, 2.0 ** -16 * y)


SPECS["softmax_rows"] = SoftmaxRows()


class SoftmaxTempBf16(SoftmaxRows):
    """test/lit/cuda/Inputs/softmax-temp-bf16.mlir (issue 35, a fresh plain
    kernel): bf16 rows of 128 columns, Y = softmax(X / t) per row, t a
    scalar passed in, as e = exp(X / t - max) and Y = e / sum e, rounded to
    bf16. Blocks, grid and region are softmax_rows'."""

    mlir = "test/lit/cuda/Inputs/softmax-temp-bf16.mlir"
    temperature = 0.7

    def inputs(self, rng, p):
        return {"X": bf16(rng.uniform(-6.0, 6.0, size=p[:2]).astype(np.float32))}

    def scalars(self, p):
        return {"blocks": p[2], "t": self.temperature}

    def reference(self, inputs, p):
        rows, cols = self.region(p)
        # Columns past the tensor's end load as zeros (TMA fills them), and
        # take part in the row's max and sum.
        x = np.zeros((rows, 128))
        x[:, :cols] = self.covered(inputs, p)
        z = x / np.float64(np.float32(self.temperature))
        e = np.exp(z - z.max(axis=1, keepdims=True))
        y = (e / e.sum(axis=1, keepdims=True))[:, :cols]
        # One rounding to bf16 (2^-9 relative, 2^-8 covers it); before it,
        # the float32 steps: the IEEE division by t (z within 2^-24
        # relative, |z| < 9: 2^-20 absolute in the exponent), expf (2 ulp),
        # the row sum of 128 terms (2^-17) and the IEEE division.
        return self.placed(p, y, y * (2.0 ** -8 + 2.0 ** -15))


SPECS["softmax_temp_bf16"] = SoftmaxTempBf16()


class CpAsyncRowSum:
    """test/lit/cuda/Inputs/cpasync-rowsum.mlir: out[r] = sum over i < n and
    c < 64 of src[128 i + r, c] (cp.async tiles of a static 4096x64 float32
    source, reduce_sum over each row, accumulated in registers), stored with
    TMA after the loop. The source holds 32 tiles, so n <= 32: a longer loop
    would read past it. No gpu.block_id: several CTAs store identical bytes;
    out past 128 elements keeps its zeros."""

    mlir = "test/lit/cuda/Inputs/cpasync-rowsum.mlir"
    rows, depth = 128, 2
    # Elementwise bound: 63 float32 additions per tile row and one into the
    # accumulator per trip, at most (65 n + 1) * 2^-24 * sum |terms|.
    tolerance = {"out": "bound"}

    def problems(self, quick=False):
        d = self.depth
        # (n, out length, CTAs): trips 0, 1, 2 = depth, depth + 1 and the
        # source's 32 (the most it holds; 64 would read past its end).
        probs = [(0, 128, 1), (1, 128, 2), (d, 200, 1), (d + 1, 128, 2)]
        if not quick:
            probs.append((32, 128, 1))
        return probs

    def describe(self, p):
        return f"trips={p[0]} out={p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (p[2], 1, 1)

    def inputs(self, rng, p):
        return {"src": rng.uniform(-1.0, 1.0, size=(4096, 64)).astype(np.float32)}

    def scalars(self, p):
        return {"n": p[0]}

    def outputs(self, p):
        return {"out": (p[1],)}

    def reference(self, inputs, p):
        n = p[0]
        src = inputs["src"][:128 * n].astype(np.float64).reshape(n, 128, 64)
        out = np.zeros(p[1])
        bound = np.zeros(p[1])
        out[:128] = src.sum(axis=(0, 2))
        bound[:128] = (65 * n + 1) * U32 * np.abs(src).sum(axis=(0, 2))
        return {"out": (out, bound)}


SPECS["cpasync_rowsum"] = CpAsyncRowSum()

class Row64ReduceAll:
    """test/lit/cuda/Inputs/row64-reduce-all.mlir: each block of 64 values
    divided by its sum. 64 values over a SIMT agent's 128 threads are held
    twice (the rows of a 64-row tile), and tileas.reduce_all counts each once
    (tp::row64_once). Positive values keep the sums away from zero."""

    mlir = "test/lit/cuda/Inputs/row64-reduce-all.mlir"
    tolerance = {"Y": (1e-6, 1e-5)}

    def problems(self, quick=False):
        return [(1,), (2,), (5,)]

    def describe(self, p):
        return f"blocks={p[0]}"

    def grid(self, p):
        return (1, 1, 1)

    def inputs(self, rng, p):
        return {"X": rng.uniform(0.5, 2.0, size=(64 * p[0],)).astype(np.float32)}

    def scalars(self, p):
        return {"n": p[0]}

    def outputs(self, p):
        return {"Y": (64 * p[0],)}

    def reference(self, inputs, p):
        x = inputs["X"].astype(np.float64).reshape(p[0], 64)
        return {"Y": (x / x.sum(axis=1, keepdims=True)).reshape(-1)}


SPECS["row64_reduce_all"] = Row64ReduceAll()



class ArithSoftmax:
    """test/lit/cuda/Inputs/arith-softmax.mlir: CTA x holds Q rows 128 x ..
    128 x + 127 (loaded before the loop); per iteration j < n, S = Q K_j^T
    with K_j the key rows 128 j .. 128 j + 127 (a UMMA without accumulate:
    S is overwritten), and out = maximumf(out, exp2(S)) elementwise from 0:
    out[r, c] = max(0, max_j exp2(S_j[r, c])). Key rows past K's end are
    zeros (TMA's OOB fill), so S = 0 and exp2 = 1 there."""

    mlir = "test/lit/cuda/Inputs/arith-softmax.mlir"
    tile, head, depth = 128, 128, 6
    # Elementwise bound. S is a float32 sum of 128 exact bf16 products:
    # |dS| <= 128 * 2^-24 * T with T = sum_d |q_d k_d|, so exp2(S) is off by
    # a factor 2^dS, ln 2 |dS| relative to first order (doubled for the
    # second); ex2.approx is within 2 ulp (2^-22, 2^-21 with a factor 2).
    # A maximum's error is at most the largest of its terms' errors.
    tolerance = {"out": "bound"}

    def problems(self, quick=False):
        d = self.depth
        # (query rows, key rows, n): trips 0, 1, 2, depth, depth + 1, 64;
        # several CTAs; query rows a multiple of the tile and not; key rows
        # short of the last block.
        probs = [(128, 128, 0), (256, 128, 1), (200, 256, 2), (128, 128 * d, d),
                 (300, 128 * d + 88, d + 1)]
        if not quick:
            probs.append((128, 128 * 64, 64))
        return probs

    def describe(self, p):
        return f"Sq={p[0]} Sk={p[1]} trips={p[2]} grid={self.grid(p)}"

    def grid(self, p):
        return (math.ceil(p[0] / self.tile), 1, 1)

    def inputs(self, rng, p):
        return {"Q": uniform_bf16(rng, (p[0], self.head)),
                "K": uniform_bf16(rng, (p[1], self.head))}

    def scalars(self, p):
        return {"n": p[2]}

    def outputs(self, p):
        return {"out": (p[0], self.head)}

    def reference(self, inputs, p):
        sq, sk, n = p
        q = inputs["Q"].astype(np.float64)
        k = with_oob(inputs["K"].astype(np.float64), (128 * n, self.head))
        out = np.zeros((sq, self.tile))
        bound = np.zeros((sq, self.tile))
        for j in range(n):
            kj = k[128 * j:128 * (j + 1)]
            e = np.exp2(q @ kj.T)
            t = np.abs(q) @ np.abs(kj).T
            out = np.maximum(out, e)
            bound = np.maximum(bound, e * (2 * math.log(2) * 128 * U32 * t + 2.0 ** -21))
        return {"out": (out, bound)}


SPECS["arith_softmax"] = ArithSoftmax()


class SplitKGemm:
    """test/lit/cuda/Inputs/splitk-gemm.mlir: split z of gridDim.z sums the
    K-blocks [z s, min(z s + s, ceil(K / 64))) with s = ceil(ceil(K / 64) /
    splits) (none for a trailing split: its tile is zeros) of the tile (tm,
    tn) = (x / ceil(N / 256), x % ceil(N / 256)), and stores it to rows z M +
    128 tm of P [splits M, N]: P[z M + i, j] = sum over its K-blocks of
    A[i, k] B[j, k]. bf16 in, float32 accumulation, bf16 out.

    M is a multiple of 128 when splits > 1: a partial row tile of slice z
    would run into slice z + 1 (the TMA store clips only at P's end), which
    the kernel as written does not guard, so M % 128 != 0 is run with one
    split."""

    mlir = "test/lit/cuda/Inputs/splitk-gemm.mlir"
    tile_m, tile_n, tile_k, depth = 128, 256, 64, 4
    # Elementwise bound (the reference comes with it). bf16 products are
    # exact in float32, so the accumulation of a split's k products is the
    # only rounding before the output, |x - ref| <= k 2^-24 sum |a b|; bf16
    # keeps 8 significant bits, so its rounding adds at most 2^-8 |x| <=
    # 2^-8 |ref| + 2^-8 |x - ref|. (A relative 2^-8 alone is what one bf16
    # rounding can take in full, leaving the accumulation nothing.)
    tolerance = {"P": "bound"}

    def problems(self, quick=False):
        d = self.depth
        # (M, N, K, splits): per-split trips 0 (K = 0, and a trailing split
        # with no K-blocks: 4 blocks over 3 splits of 2), 1, 2, depth,
        # depth + 1 (a partial last K-block), 64; several CTAs in x and z; M
        # and N multiples of the tile and not.
        probs = [(128, 256, 0, 1), (256, 512, 64 * 3, 2), (128, 300, 64 * 4, 3),
                 (200, 300, 64 * d, 1), (128, 264, 64 * 2 * (d + 1) - 24, 2)]
        if not quick:
            probs.append((128, 256, 64 * 128, 2))
        return probs

    def shares(self, p):
        """Per split, its [first, last) K-blocks."""
        k, splits = p[2], p[3]
        blocks = math.ceil(k / self.tile_k)
        share = math.ceil(blocks / splits)
        return [(z * share, max(min(z * share + share, blocks), z * share))
                for z in range(splits)]

    def describe(self, p):
        trips = [last - first for first, last in self.shares(p)]
        return f"M={p[0]} N={p[1]} K={p[2]} splits={p[3]} trips={trips} grid={self.grid(p)}"

    def grid(self, p):
        m, n, _, splits = p
        return (math.ceil(m / self.tile_m) * math.ceil(n / self.tile_n), 1, splits)

    def inputs(self, rng, p):
        m, n, k, _ = p
        return {"A": uniform_bf16(rng, (m, k)), "B": uniform_bf16(rng, (n, k))}

    def scalars(self, p):
        return {"M": p[0], "N": p[1], "K": p[2]}

    def outputs(self, p):
        return {"P": (p[0] * p[3], p[1])}

    def reference(self, inputs, p):
        a = inputs["A"].astype(np.float64)
        b = inputs["B"].astype(np.float64)
        parts, bounds = [], []
        for first, last in self.shares(p):
            ks = slice(first * self.tile_k, last * self.tile_k)
            part = a[:, ks] @ b[:, ks].T
            k = min(last * self.tile_k, p[2]) - first * self.tile_k
            parts.append(part)
            bounds.append(2.0 ** -8 * np.abs(part)
                          + 2 * max(k, 0) * U32 * (np.abs(a[:, ks]) @ np.abs(b[:, ks]).T))
        return {"P": (np.concatenate(parts, axis=0), np.concatenate(bounds, axis=0))}


SPECS["splitk_gemm"] = SplitKGemm()


class TwoLoopRmsNorm:
    """test/lit/cuda/Inputs/two-loop-rmsnorm.mlir: CTA b takes rows 128 b ..
    128 b + 127; a first loop over the 64-column chunks of X sums the
    squares, a second scales each chunk: Y = X rsqrt(sum X^2 / N + 1e-6) W,
    bf16 in and out. Peeled, the second loop's rings lie over the first's
    (one member, every thread meets between the loops)."""

    mlir = "test/lit/cuda/Inputs/two-loop-rmsnorm.mlir"
    tolerance = {"Y": BF16_TOL}

    def problems(self, quick=False):
        # (rows, N): trips 1, 2 (a partial chunk), 8 (each loop's ring
        # depth) and 9, several CTAs, rows past the tensor's end.
        probs = [(128, 64), (256, 100), (200, 512), (384, 576)]
        if not quick:
            probs.append((130, 64 * 64))
        return probs

    def describe(self, p):
        return f"X={p[0]}x{p[1]} trips={math.ceil(p[1] / 64)} grid={self.grid(p)}"

    def grid(self, p):
        return (math.ceil(p[0] / 128), 1, 1)

    def inputs(self, rng, p):
        return {"X": uniform_bf16(rng, p), "W": bf16(rng.uniform(0.5, 1.5, p[1]).astype(np.float32))}

    def scalars(self, p):
        return {"N": p[1]}

    def outputs(self, p):
        return {"Y": p}

    def reference(self, inputs, p):
        x = inputs["X"].astype(np.float64)
        r = 1.0 / np.sqrt((x * x).sum(axis=1, keepdims=True) / p[1] + np.float64(np.float32(1e-6)))
        return {"Y": x * r * inputs["W"].astype(np.float64)[None, :]}




def peeled(spec):
    """The same kernel as peeled (unspecialized) stage code: one 128-thread
    agent issues TMA, tcgen05.cp and UMMA from its elected thread, so every
    wait that guards only that thread's work must be its alone (a lagging
    warp otherwise waits on a phase that has come round again)."""
    variant = copy.copy(spec)
    variant.materialize = "mode=unspecialized"
    return variant


for _name in ["gemm_mainloop", "gemm_blockscaled_fp8", "dequant_scale", "stream_exp2", "cpasync_rowsum",
              "arith_softmax", "splitk_gemm", "cosh_stream", "silu_bf16", "elementwise_math",
              "softmax_rows", "leaky_clamp", "softmax_temp_bf16"]:
    SPECS[_name + "_peeled"] = peeled(SPECS[_name])
# Peeled only: warp-specialized, the two loops' rings lie side by side and the
# translation refuses the kernel for SMEM (test/lit/cuda/smem-two-loops.test).
SPECS["two_loop_rmsnorm_peeled"] = peeled(TwoLoopRmsNorm())


def uniform_f16(rng, shape):
    return rng.uniform(-1.0, 1.0, size=shape).astype(np.float16).astype(np.float32)


def uniform_tf32(rng, shape):
    """Values with 10 mantissa bits, exact in tf32 (the MMA keeps 10)."""
    x = rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)
    return (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


class HgemmRelu(Gemm):
    """C = max(A . B^T, 0): fp16 in, float32 out, 128x128 tiles, K-block 64
    (test/lit/cuda/Inputs/hgemm-relu.mlir, a loop written as a user would)."""

    mlir = "test/lit/cuda/Inputs/hgemm-relu.mlir"
    tile_m, tile_n, tile_k, depth = 128, 128, 64, 4
    # float32 out: the products are exact in float32, and the MMA rounds
    # about once per instruction of 16 (mma_rounding_bound), on top of the
    # float32 tolerance.
    tolerance = {"C": "bound"}

    def problems(self, quick=False):
        probs = [(128, 128, 0), (256, 384, 64), (200, 130, 128), (128, 128, 256),
                 (130, 250, 328)]
        if not quick:
            probs.append((128, 128, 4096))
        return probs

    def inputs(self, rng, p):
        m, n, k = p
        return {"A": uniform_f16(rng, (m, k)), "B": uniform_f16(rng, (n, k))}

    def reference(self, inputs, p):
        a = inputs["A"].astype(np.float64)
        b = inputs["B"].astype(np.float64)
        c = np.maximum(a @ b.T, 0.0)
        atol, rtol = F32_TOL
        return {"C": (c, atol + rtol * c + mma_rounding_bound(a, b, 16, 24))}


class Tf32Gemm(Gemm):
    """C = A . B^T with tf32 tensor cores, bf16 out, 128x128 tiles, K-block
    32 (test/lit/cuda/Inputs/tf32-gemm.mlir)."""

    mlir = "test/lit/cuda/Inputs/tf32-gemm.mlir"
    tile_m, tile_n, tile_k, depth = 128, 128, 32, 4

    def problems(self, quick=False):
        probs = [(128, 128, 0), (256, 384, 32), (200, 130, 64), (128, 128, 128),
                 (130, 250, 168)]
        if not quick:
            probs.append((128, 128, 2048))
        return probs

    def inputs(self, rng, p):
        m, n, k = p
        return {"A": uniform_tf32(rng, (m, k)), "B": uniform_tf32(rng, (n, k))}


class GemmGelu(Gemm):
    """C = gelu(alpha A . B^T), tanh form, bf16 in and out, 128x128 tiles,
    K-block 64 (test/lit/cuda/Inputs/gemm-gelu.mlir: an epilogue of arith
    and math ops with a scale passed in)."""

    mlir = "test/lit/cuda/Inputs/gemm-gelu.mlir"
    tile_m, tile_n, tile_k, depth = 128, 128, 64, 4
    alpha = 0.375
    tolerance = {"C": "bound"}

    def problems(self, quick=False):
        probs = [(128, 128, 0), (256, 384, 64), (200, 130, 128), (128, 128, 256),
                 (130, 250, 328)]
        if not quick:
            probs.append((128, 128, 4096))
        return probs

    def scalars(self, p):
        return {"K": p[2], "alpha": self.alpha}

    def reference(self, inputs, p):
        a = inputs["A"].astype(np.float64)
        b = inputs["B"].astype(np.float64)
        x = self.alpha * (a @ b.T)
        g = 0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))
        # The accumulation's float32 error (2 K u |A| |B|^T), through the
        # scale and gelu's slope (at most 1.13); tanhf within 2 ulp of a
        # value near 1 (2^-22 absolute), times x / 2; the epilogue's float32
        # steps (a few 2^-24 relative); one rounding to bf16 (2^-8).
        k = p[2]
        acc = 2 * k * U32 * (np.abs(a) @ np.abs(b).T)
        bound = (2.0 ** -8 * np.abs(g) + 1.13 * self.alpha * acc
                 + 2.0 ** -22 * np.abs(x) + 2.0 ** -20 * (np.abs(x) + np.abs(g)))
        return {"C": (g, bound)}


SPECS["hgemm_relu"] = HgemmRelu()
SPECS["gemm_gelu"] = GemmGelu()
SPECS["tf32_gemm"] = Tf32Gemm()

# FA4 written plainly (no ring, no `into`, alpha read across warp groups):
# the same computation as fa4_fwd.
SPECS["fa4_plain"] = Attention("test/lit/cuda/Inputs/fa4-plain.mlir", 256,
                               False, 3)


class GemmTwoOutputs(Gemm):
    """C = A . B^T and D = max(A . B^T, 0), both bf16, 128x256 tiles, with
    the two epilogue staging tiles over the drained mainloop slots
    (test/lit/cuda/Inputs/gemm-two-outputs.mlir)."""

    mlir = "test/lit/cuda/Inputs/gemm-two-outputs.mlir"
    tolerance = {"C": BF16_TOL, "D": BF16_TOL}

    def outputs(self, p):
        return {"C": (p[0], p[1]), "D": (p[0], p[1])}

    def reference(self, inputs, p):
        c = super().reference(inputs, p)["C"]
        return {"C": c, "D": np.maximum(c, 0.0)}


SPECS["gemm_two_outputs"] = GemmTwoOutputs()


class AttentionHd64(Attention):
    """FA4 at head dim 64 written plainly (test/lit/cuda/Inputs/fa4-hd64.mlir):
    Q, K, V and O tiles 128x64, S and P 128x128."""

    head = 64


SPECS["fa4_hd64"] = AttentionHd64("test/lit/cuda/Inputs/fa4-hd64.mlir", 256,
                                  False, 3)

for _name in ["fa4_plain", "fa4_hd64", "gemm_two_outputs"]:
    SPECS[_name + "_peeled"] = peeled(SPECS[_name])


# Register tiles handed between warp groups through the SMEM pipes the
# materializer makes (docs/stage-code.md; issue 21).
SPECS["fa4_correction_alpha"] = Attention(
    "test/lit/materialize/Inputs/fa4-correction-alpha.mlir", 256, False, 3)


class WarpGroupRowmax:
    """test/lit/materialize/Inputs/warp-group-rowmax.mlir: CTA x holds Q rows
    128 x .. 128 x + 127; S_j = Q K_j^T per key block j < n (K rows 128 j ..
    128 j + 127), m_j = the row maximum of S_j, M_j = max(M_{j-1}, m_j) with
    M_{-1} = 0. Outputs, per row: M = M_{n-1} (0 when n = 0), sum = sum_j
    m_j, runsum = sum_j M_j."""

    mlir = "test/lit/materialize/Inputs/warp-group-rowmax.mlir"
    tile, head, depth = 128, 128, 6
    # Elementwise bounds. S is a float32 sum of 128 exact bf16 products:
    # |dS| <= 128 * 2^-24 * T with T = sum_d |q_d k_d|, and a maximum is off
    # by at most the largest error of its terms; each float32 addition of a
    # sum adds 2^-24 of the partial sum. Doubled for room.
    tolerance = {"M": "bound", "sum": "bound", "runsum": "bound"}

    def problems(self, quick=False):
        d = self.depth
        # (query rows, n): trips 0, 1, 2, depth, depth + 1, 64; several CTAs;
        # query rows a multiple of the tile and not.
        probs = [(128, 0), (256, 1), (200, 2), (128, d), (300, d + 1)]
        if not quick:
            probs.append((128, 64))
        return probs

    def describe(self, p):
        return f"Sq={p[0]} Sk={128 * p[1]} trips={p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (math.ceil(p[0] / self.tile), 1, 1)

    def inputs(self, rng, p):
        return {"Q": uniform_bf16(rng, (p[0], self.head)),
                "K": uniform_bf16(rng, (128 * p[1], self.head))}

    def scalars(self, p):
        return {"nKV": p[1]}

    def outputs(self, p):
        return {"M": (p[0],), "sum": (p[0],), "runsum": (p[0],)}

    def reference(self, inputs, p):
        sq, n = p
        q = inputs["Q"].astype(np.float64)
        k = inputs["K"].astype(np.float64)
        m_run, total, run = np.zeros(sq), np.zeros(sq), np.zeros(sq)
        d_run, d_total, d_sum = np.zeros(sq), np.zeros(sq), np.zeros(sq)
        for j in range(n):
            kj = k[128 * j:128 * (j + 1)]
            err = 128 * U32 * (np.abs(q) @ np.abs(kj).T).max(axis=1)
            mx = (q @ kj.T).max(axis=1)
            total += mx
            d_total += err + U32 * np.abs(total)
            m_run = np.maximum(m_run, mx)
            d_run = np.maximum(d_run, err)
            run += m_run
            d_sum += d_run + U32 * np.abs(run)
        return {"M": (m_run, 2 * d_run + 1e-6), "sum": (total, 2 * d_total + 1e-6),
                "runsum": (run, 2 * d_sum + 1e-6)}


SPECS["warp_group_rowmax"] = WarpGroupRowmax()

for _name in ["fa4_correction_alpha", "warp_group_rowmax"]:
    SPECS[_name + "_peeled"] = peeled(SPECS[_name])
SPECS["fa4_hd64_vt"] = AttentionHd64("test/lit/cuda/Inputs/fa4-hd64-vt.mlir",
                                     256, True, 3)

# Attention written as a user would, one softmax warp group that also
# rescales O in TMEM before O += P V (issue 21's fresh loops), head dim 64
# and 128; every K/V block may raise a row's maximum, so O must be rescaled.
SPECS["attn_rescale_hd64"] = AttentionHd64(
    "test/lit/cuda/Inputs/attn-rescale-hd64.mlir", 128, False, 3)
SPECS["attn_rescale_hd128"] = Attention(
    "test/lit/cuda/Inputs/attn-rescale-hd128.mlir", 128, False, 3)
SPECS["fa4_hd64_ring"] = AttentionHd64(
    "test/lit/cuda/Inputs/fa4-hd64-ring.mlir", 256, True, 3)
SPECS["fa4_hd64_ring_peeled"] = peeled(SPECS["fa4_hd64_ring"])
for _name in ["attn_rescale_hd64", "attn_rescale_hd128"]:
    SPECS[_name + "_peeled"] = peeled(SPECS[_name])

# Loops that name no warp groups; the scheduler infers them (issue 21;
# scheduler/mlir/WarpGroups.h).
SPECS["attn_two_q"] = AttentionHd64("test/lit/cuda/Inputs/attn-two-q.mlir",
                                    256, False, 3)
SPECS["fa4_unmarked"] = Attention("test/lit/cuda/Inputs/fa4-unmarked.mlir",
                                  256, False, 3)
for _name in ["attn_two_q", "fa4_unmarked"]:
    SPECS[_name + "_peeled"] = peeled(SPECS[_name])


def persistent(spec, problems):
    """The same kernel made persistent (--tileas-materialize-schedule=
    persistent): each CTA runs tile after tile of the grid, the accumulator
    double-buffered between the MMA warp and the epilogue. The emulator
    launches 2 CTAs (TP_CPU_CTAS), so every CTA runs several tiles and the
    second accumulator slot and the pipes' iterations across tiles are
    used."""
    variant = copy.copy(spec)
    variant.materialize = "persistent"
    variant.problems = lambda quick=False: problems
    return variant


# Grids of 1 to 9 tiles (M and N not multiples of the tile among them), trip
# counts 0, 1, 3 (the ring's depth) and 5: up to 5 tiles per CTA.
SPECS["gemm_mainloop_persistent"] = persistent(
    SPECS["gemm_mainloop"],
    [(128, 256, 0), (384, 512, 64), (300, 700, 192), (640, 512, 320), (200, 300, 128)])
SPECS["gemm_blockscaled_fp8_persistent"] = persistent(
    SPECS["gemm_blockscaled_fp8"],
    [(256, 512, 128), (200, 300, 512), (384, 768, 560)])
SPECS["gemm_mainloop_persistent_peeled"] = persistent(
    peeled(SPECS["gemm_mainloop"]), SPECS["gemm_mainloop_persistent"].problems())
SPECS["gemm_mainloop_persistent_peeled"].materialize = "persistent mode=unspecialized"


class Gemm128(Gemm):
    """The bundled GEMM at 128 x 128 tiles (test/lit/cuda/Inputs/gemm-128x128.mlir):
    on sm_90a, persistent, its consumer runs as two ping-pong copies."""

    mlir = "test/lit/cuda/Inputs/gemm-128x128.mlir"
    tile_n = 128


SPECS["gemm128"] = Gemm128()
# Grids of 1 to 12 tiles over the emulator's 2 CTAs (up to 6 a CTA, 3 a
# ping-pong copy), trip counts 0, 1, 3 and 5.
SPECS["gemm128_persistent"] = persistent(
    SPECS["gemm128"],
    [(128, 128, 0), (384, 512, 64), (300, 250, 192), (200, 300, 320), (256, 128, 64 * 17)])
# The same with one consumer copy (cooperative), which the GPU times beside it.
SPECS["gemm128_persistent_coop"] = persistent(SPECS["gemm128"], SPECS["gemm128_persistent"].problems())
SPECS["gemm128_persistent_coop"].materialize = "persistent consumers=cooperative"
# fp16 with a ReLU epilogue and tf32, persistent (their quick problems).
for _name in ["hgemm_relu", "tf32_gemm"]:
    SPECS[_name + "_persistent"] = persistent(SPECS[_name], SPECS[_name].problems(quick=True))


class GroupedLeakyGemm(Gemm):
    """test/lit/cuda/Inputs/grouped-leaky-gemm.mlir, written as Triton's
    matmul tutorial is: a 1-D grid over the output tiles in grouped order
    (GROUP_M = 8), C = leaky_relu(A . B^T, 0.01), bf16 in and out. The
    reference knows nothing of the grouping: every element of C is checked,
    so a tile computed twice or never shows."""

    mlir = "test/lit/cuda/Inputs/grouped-leaky-gemm.mlir"

    def problems(self, quick=False):
        # Tile grids of 1, 2 x 3, 9 x 2 (a partial group of 1 row after the
        # full group of 8) and 3 x 3 with partial edge tiles; K below, at
        # and past the ring's depth.
        probs = [(128, 256, 0), (256, 700, 64), (1100, 512, 192), (300, 600, 320)]
        if not quick:
            probs.append((1100, 512, 64 * 40))
        return probs

    def grid(self, p):
        m, n, _ = p
        return (math.ceil(m / self.tile_m) * math.ceil(n / self.tile_n), 1, 1)

    def scalars(self, p):
        return {"M": p[0], "N": p[1], "K": p[2]}

    def reference(self, inputs, p):
        c = super().reference(inputs, p)["C"]
        return {"C": np.where(c >= 0, c, 0.01 * c)}


SPECS["grouped_leaky_gemm"] = GroupedLeakyGemm()
SPECS["grouped_leaky_gemm_peeled"] = peeled(SPECS["grouped_leaky_gemm"])
SPECS["grouped_leaky_gemm_persistent"] = persistent(
    SPECS["grouped_leaky_gemm"], SPECS["grouped_leaky_gemm"].problems(quick=True))


class SourceGemm(Gemm):
    """D = alpha * (A . B^T) + beta * S, bf16 in and out, the source tile S
    loaded by TMA after the loop (CUTLASS's epilogue with a C operand). S is
    drawn as exact bf16, so the only roundings are the kernel's float32
    arithmetic and D's bf16."""

    source, alpha, beta = "C", 1.0, 1.0
    tolerance = {"D": BF16_TOL}

    def inputs(self, rng, p):
        m, n, _ = p
        ins = super().inputs(rng, p)
        ins[self.source] = uniform_bf16(rng, (m, n))
        return ins

    def outputs(self, p):
        return {"D": (p[0], p[1])}

    def reference(self, inputs, p):
        acc = super().reference(inputs, p)["C"]
        src = inputs[self.source].astype(np.float64)
        return {"D": self.alpha * acc + self.beta * src}


class LinCombGemm(SourceGemm):
    """test/lit/cuda/Inputs/lincomb-gemm.mlir, CUTLASS's default epilogue
    written plainly: D = 1.5 * (A . B^T) - 0.5 * C, 128x256 tiles, C loaded
    after the loop; grid x over N tiles and y over M tiles."""

    mlir = "test/lit/cuda/Inputs/lincomb-gemm.mlir"
    alpha, beta = 1.5, -0.5

    def problems(self, quick=False):
        # One tile, 2 x 3 tiles with partial edges (C read past its end is
        # zero-filled, D's stores clipped), trip counts 0, 1, depth + 1.
        probs = [(128, 256, 0), (256, 512, 64), (200, 700, 320), (130, 260, 64 * 4)]
        if not quick:
            probs.append((384, 512, 64 * 40))
        return probs

    def grid(self, p):
        m, n, _ = p
        return (math.ceil(n / self.tile_n), math.ceil(m / self.tile_m), 1)


class Tf32ResidualRelu256(SourceGemm):
    """test/lit/cuda/Inputs/tf32-residual-relu-256.mlir, issue 38's fresh
    kernel of session 25: D = relu(A . B^T + R), f32 A and B on tf32 tensor
    cores, bf16 R and D, 128x256 tiles, K-block 32."""

    mlir = "test/lit/cuda/Inputs/tf32-residual-relu-256.mlir"
    tile_m, tile_n, tile_k, depth = 128, 256, 32, 4
    source = "R"

    def problems(self, quick=False):
        # One tile, trip count 0; 2 x 2 tiles with ragged edges; K not a
        # multiple of the block (TMA zero-fills); trips past the ring.
        probs = [(128, 256, 0), (256, 512, 32), (200, 300, 72), (130, 260, 32 * 6)]
        if not quick:
            probs.append((256, 256, 32 * 40))
        return probs

    def inputs(self, rng, p):
        m, n, k = p
        return {"A": uniform_tf32(rng, (m, k)), "B": uniform_tf32(rng, (n, k)),
                "R": uniform_bf16(rng, (m, n))}

    def reference(self, inputs, p):
        return {"D": np.maximum(super().reference(inputs, p)["D"], 0.0)}


SPECS["tf32_residual_relu_256"] = Tf32ResidualRelu256()


class ScaledBiasSilu256(Gemm):
    """test/lit/cuda/Inputs/scaled-bias-silu-256.mlir, issue 38's fresh
    kernel of session 26: D = silu(sa[m] sb[n] (A . B^T) + bias[n]), bf16 A,
    B and D, f32 per-row scale sa, per-column scale sb and bias, 128 x 256
    tiles, K-block 64 (a quantized linear layer's epilogue, written
    plainly); grid x over M tiles, y over N tiles. Past M and N the vectors'
    TMA reads zeros and D's stores are clipped."""

    mlir = "test/lit/cuda/Inputs/scaled-bias-silu-256.mlir"
    tile_m, tile_n, tile_k, depth = 128, 256, 64, 4
    tolerance = {"D": BF16_TOL}

    def problems(self, quick=False):
        # One tile at trip count 0 (D = silu(bias)); 2 x 2 tiles; ragged M
        # and N with K not a multiple of the block; trips past the ring.
        probs = [(128, 256, 0), (256, 512, 64), (200, 300, 136), (130, 260, 64 * 6)]
        if not quick:
            probs.append((256, 256, 64 * 40))
        return probs

    def inputs(self, rng, p):
        m, n, _ = p
        ins = super().inputs(rng, p)
        # Scales of either sign around 1, a bias that moves SiLU across 0.
        ins["sa"] = (rng.uniform(0.25, 2.0, m) * rng.choice([-1.0, 1.0], m)).astype(np.float32)
        ins["sb"] = rng.uniform(0.25, 2.0, n).astype(np.float32)
        ins["bias"] = rng.uniform(-2.0, 2.0, n).astype(np.float32)
        return ins

    def outputs(self, p):
        return {"D": (p[0], p[1])}

    def reference(self, inputs, p):
        acc = super().reference(inputs, p)["C"]
        sa = inputs["sa"].astype(np.float64)[:, None]
        sb = inputs["sb"].astype(np.float64)[None, :]
        y = sa * sb * acc + inputs["bias"].astype(np.float64)[None, :]
        return {"D": y / (1.0 + np.exp(-y))}


SPECS["scaled_bias_silu_256"] = ScaledBiasSilu256()
SPECS["lincomb_gemm"] = LinCombGemm()
SPECS["lincomb_gemm_peeled"] = peeled(SPECS["lincomb_gemm"])


class MatmulKnLeaky(Gemm):
    """test/lit/cuda/Inputs/matmul-kn-leaky.mlir, issue 38's fresh kernel of
    session 27: Triton's matmul tutorial, C = leaky_relu(A . B, 0.01) with
    A M x K and B K x N, both row-major f16 (B's tile MN-major), f16 C,
    128 x 128 tiles, K-block 64; grid x over M tiles, y over N tiles."""

    mlir = "test/lit/cuda/Inputs/matmul-kn-leaky.mlir"
    tile_m, tile_n, tile_k, depth = 128, 128, 64, 4
    tolerance = {"C": (1e-3, 2.0 ** -10)}

    def problems(self, quick=False):
        # Trip count 0; 2 x 3 tiles; ragged M, N and K; trips past the ring.
        probs = [(128, 128, 0), (256, 384, 64), (200, 136, 136), (130, 264, 64 * 6)]
        if not quick:
            probs.append((256, 256, 64 * 40))
        return probs

    def inputs(self, rng, p):
        m, n, k = p
        return {"A": uniform_f16(rng, (m, k)), "B": uniform_f16(rng, (k, n))}

    def reference(self, inputs, p):
        c = inputs["A"].astype(np.float64) @ inputs["B"].astype(np.float64)
        return {"C": np.where(c >= 0, c, 0.01 * c)}


SPECS["matmul_kn_leaky"] = MatmulKnLeaky()


class LayerScaleResidual256(Gemm):
    """test/lit/cuda/Inputs/layerscale-residual-256.mlir, issue 38's fresh
    kernel of session 28: a transformer block's output projection with bias,
    LayerScale and the residual fused, D = R + gamma[n] (X . W^T + bias[n]),
    f16 X, W, R and D, f32 bias and gamma, 128 x 256 tiles, K-block 64; grid
    x over M tiles, y over N tiles."""

    mlir = "test/lit/cuda/Inputs/layerscale-residual-256.mlir"
    tile_m, tile_n, tile_k, depth = 128, 256, 64, 4
    tolerance = {"D": (1e-3, 2.0 ** -10)}

    # One tile at trip count 0 (D = R + gamma bias); 2 x 2 tiles; ragged M,
    # N and K; trips past the ring: the 128 x 256 problems of session 26's.
    problems = ScaledBiasSilu256.problems

    def inputs(self, rng, p):
        m, n, k = p
        # LayerScale's gamma is small in trained models (1e-5 .. 1e-1 at
        # init); here of either sign and up to 1, so the product shows.
        return {"X": uniform_f16(rng, (m, k)), "W": uniform_f16(rng, (n, k)),
                "bias": rng.uniform(-1.0, 1.0, n).astype(np.float32),
                "gamma": rng.uniform(-1.0, 1.0, n).astype(np.float32),
                "R": uniform_f16(rng, (m, n))}

    def outputs(self, p):
        return {"D": (p[0], p[1])}

    def reference(self, inputs, p):
        y = inputs["X"].astype(np.float64) @ inputs["W"].astype(np.float64).T
        y = (y + inputs["bias"].astype(np.float64)[None, :]) * \
            inputs["gamma"].astype(np.float64)[None, :]
        return {"D": inputs["R"].astype(np.float64) + y}


SPECS["layerscale_residual_256"] = LayerScaleResidual256()


class Fp8ScaledGemm(Gemm):
    """test/lit/cuda/Inputs/fp8-scaled-gemm.mlir, a fresh kernel of session
    29: an FP8 linear layer with per-tensor scales passed by value,
    D = bf16(sa sb (A . B^T)), E4M3 A (M x K) and B (N x K), 128 x 128
    tiles, K-block 128; grid x over M tiles, y over N tiles. The scales'
    product is a scalar the epilogue's piece loop multiplies by."""

    mlir = "test/lit/cuda/Inputs/fp8-scaled-gemm.mlir"
    tile_m, tile_n, tile_k, depth = 128, 128, 128, 4
    tolerance = {"D": "bound"}
    sa, sb = 0.0234375, -0.5

    def problems(self, quick=False):
        # Trip count 0; 2 x 3 tiles; ragged M, N and K; trips past the ring.
        probs = [(128, 128, 0), (256, 384, 128), (200, 136, 200), (130, 264, 128 * 6)]
        if not quick:
            probs.append((128, 128, 128 * 30))
        return probs

    def inputs(self, rng, p):
        m, n, k = p
        return {"A": random_e4m3(rng, (m, k)), "B": random_e4m3(rng, (n, k))}

    def scalars(self, p):
        return {"K": p[2], "sa": self.sa, "sb": self.sb}

    def outputs(self, p):
        return {"D": (p[0], p[1])}

    def reference(self, inputs, p):
        # E4M3 products are exact in float32; the 8-bit MMA keeps about 14
        # bits of its sums (fp8_mma_bound), then the scale (two roundings)
        # and bf16's rounding.
        k = p[2]
        a, b = e4m3_value(inputs["A"]), e4m3_value(inputs["B"])
        s = float(np.float32(self.sa) * np.float32(self.sb))
        c = s * (a @ b.T)
        mag = abs(s) * (np.abs(a) @ np.abs(b).T)
        return {"D": (c, fp8_mma_bound(c, abs(s), a, b, k))}


SPECS["fp8_scaled_gemm"] = Fp8ScaledGemm()


class Gemm256RowScaleBias(Gemm):
    """test/lit/cuda/Inputs/gemm256-rowscale-bias.mlir, a fresh kernel of
    session 29 written for sm_90a with its register accumulator: D =
    bf16(s[m] (A . B^T) + bias[n]) at CUTLASS's cooperative 256 x 128 tile,
    K-block 64: two consumer warpgroups of two 64-row bands each."""

    mlir = "test/lit/cuda/Inputs/gemm256-rowscale-bias.mlir"
    target = "sm_90a"
    tile_m, tile_n, tile_k, depth = 256, 128, 64, 4
    tolerance = {"D": BF16_TOL}

    def problems(self, quick=False):
        # Trip count 0; 2 x 2 tiles; ragged M, N and K; trips past the ring.
        probs = [(256, 128, 0), (512, 256, 64), (300, 200, 136), (260, 130, 64 * 6)]
        if not quick:
            probs.append((256, 128, 64 * 30))
        return probs

    def inputs(self, rng, p):
        m, n, _ = p
        ins = super().inputs(rng, p)
        ins["s"] = rng.uniform(-2.0, 2.0, m).astype(np.float32)
        ins["bias"] = rng.uniform(-2.0, 2.0, n).astype(np.float32)
        return ins

    def outputs(self, p):
        return {"D": (p[0], p[1])}

    def reference(self, inputs, p):
        c = super().reference(inputs, p)["C"]
        return {"D": inputs["s"].astype(np.float64)[:, None] * c
                + inputs["bias"].astype(np.float64)[None, :]}


SPECS["gemm256_rowscale_bias"] = Gemm256RowScaleBias()


class WeightGrad(Gemm):
    """test/lit/cuda/Inputs/weight-grad.mlir, a fresh kernel of session 29:
    a linear layer's weight gradient dW = dY^T X, dY (T x Nout) and X
    (T x Kin) token-major, so both MMA operands are MN-major (A K x M, B
    K x N); f32 dW, 128 x 128 tiles, 64 tokens a K-block. Problems are
    (Nout, Kin, T)."""

    mlir = "test/lit/cuda/Inputs/weight-grad.mlir"
    tile_m, tile_n, tile_k, depth = 128, 128, 64, 4
    tolerance = {"dW": (1e-3, 1e-5)}

    def problems(self, quick=False):
        # No tokens; 2 x 3 tiles; ragged Nout, Kin and T; past the ring.
        probs = [(128, 128, 0), (256, 384, 64), (200, 136, 136), (130, 264, 64 * 6)]
        if not quick:
            probs.append((128, 128, 64 * 30))
        return probs

    def describe(self, p):
        return f"Nout={p[0]} Kin={p[1]} T={p[2]} trips={math.ceil(p[2] / 64)} grid={self.grid(p)}"

    def inputs(self, rng, p):
        m, n, t = p
        return {"dY": uniform_bf16(rng, (t, m)), "X": uniform_bf16(rng, (t, n))}

    def scalars(self, p):
        return {"T": p[2]}

    def outputs(self, p):
        return {"dW": (p[0], p[1])}

    def reference(self, inputs, p):
        return {"dW": inputs["dY"].astype(np.float64).T @ inputs["X"].astype(np.float64)}


SPECS["weight_grad"] = WeightGrad()

class DualGemm(Gemm):
    """test/lit/cuda/Inputs/dual-gemm.mlir, a fresh kernel of session 29:
    two K loops summing into one accumulator, D = bf16(X Wx^T + H Wh^T)
    (an RNN cell's gate pre-activation), 128 x 128 tiles, K-block 64. For
    sm_90a only (hopper() below): for sm_100a the materializer refuses a
    TMEM accumulator two loops share (docs/materialize.md)."""

    mlir = "test/lit/cuda/Inputs/dual-gemm.mlir"
    tile_m, tile_n, tile_k, depth = 128, 128, 64, 4
    tolerance = {"D": BF16_TOL}

    def problems(self, quick=False):
        # Both loops empty; trips 1 and 2; one loop empty either way; ragged
        # M, N and K; past the 7-deep rings in both loops.
        probs = [(128, 128, 0, 0), (256, 256, 64, 128), (200, 136, 136, 0), (130, 264, 0, 200),
                 (128, 128, 64 * 9, 64 * 8 + 8)]
        if not quick:
            probs.append((256, 128, 64 * 20, 64 * 17))
        return probs

    def describe(self, p):
        m, n, kx, kh = p
        return (f"M={m} N={n} Kx={kx} Kh={kh} trips={math.ceil(kx / 64)}+{math.ceil(kh / 64)} "
                f"grid={self.grid(p)}")

    def grid(self, p):
        return (math.ceil(p[0] / 128), math.ceil(p[1] / 128), 1)

    def inputs(self, rng, p):
        m, n, kx, kh = p
        return {"X": uniform_bf16(rng, (m, kx)), "Wx": uniform_bf16(rng, (n, kx)),
                "H": uniform_bf16(rng, (m, kh)), "Wh": uniform_bf16(rng, (n, kh))}

    def scalars(self, p):
        return {"Kx": p[2], "Kh": p[3]}

    def outputs(self, p):
        return {"D": (p[0], p[1])}

    def reference(self, inputs, p):
        f = {k: v.astype(np.float64) for k, v in inputs.items()}
        return {"D": f["X"] @ f["Wx"].T + f["H"] @ f["Wh"].T}

class ResidualGemm(SourceGemm):
    """test/lit/cuda/Inputs/residual-gemm.mlir: D = A . B^T + R, 128x128
    tiles; R is loaded after the loop, before the accumulator is read."""

    mlir = "test/lit/cuda/Inputs/residual-gemm.mlir"
    tile_m, tile_n = 128, 128
    source = "R"

    def problems(self, quick=False):
        probs = [(128, 128, 0), (256, 384, 64), (200, 130, 320), (130, 250, 64 * 6)]
        if not quick:
            probs.append((384, 256, 64 * 40))
        return probs


SPECS["residual_gemm"] = ResidualGemm()
SPECS["residual_gemm_peeled"] = peeled(SPECS["residual_gemm"])
SPECS["residual_gemm_persistent"] = persistent(
    SPECS["residual_gemm"], SPECS["residual_gemm"].problems(quick=True))


# Broadcasts both ways (issue 35, point 3): a vector per column (bias[n],
# gamma[n], beta[n]) spread over the rows with tileas.broadcast dimensions =
# [0], loaded by TMA as a 1-D box; and a value per row spread over the
# columns (dimensions = [1]).

class BiasReluGemm(Gemm):
    """test/lit/cuda/Inputs/bias-relu-gemm.mlir: D = relu(A . B^T + bias[n]),
    bf16 A, B and D, float32 accumulation and bias, 128x128 tiles; grid x
    over M tiles, y over N tiles. bias is loaded after the loop, its 128
    values of the tile's columns (past N: zeros, and D's stores clipped)."""

    mlir = "test/lit/cuda/Inputs/bias-relu-gemm.mlir"
    tile_m, tile_n = 128, 128
    tolerance = {"D": BF16_TOL}

    def problems(self, quick=False):
        # One tile; 2 x 3 tiles; M and N short of the tile (N = 130: the
        # last tile's bias has 2 values and 126 zeros); K trip counts 0, 1,
        # 5 and past the ring's depth.
        probs = [(128, 128, 0), (256, 384, 64), (200, 130, 320), (130, 250, 64 * 6)]
        if not quick:
            probs.append((384, 256, 64 * 40))
        return probs

    def inputs(self, rng, p):
        m, n, _ = p
        ins = super().inputs(rng, p)
        # Half the outputs negative before the bias, so the ReLU and the
        # bias's column both show.
        ins["bias"] = rng.uniform(-2.0, 2.0, size=(n,)).astype(np.float32)
        return ins

    def outputs(self, p):
        return {"D": (p[0], p[1])}

    def reference(self, inputs, p):
        acc = super().reference(inputs, p)["C"]
        bias = inputs["bias"].astype(np.float64)
        return {"D": np.maximum(acc + bias[None, :], 0.0)}


SPECS["bias_relu_gemm"] = BiasReluGemm()
SPECS["bias_relu_gemm_peeled"] = peeled(SPECS["bias_relu_gemm"])


class RowNorm(CoshStream):
    """A norm over 128-column rows: CTA b of the grid walks row blocks b,
    b + grid, ... below `blocks`; columns past the tensor's end load as
    zeros (TMA fills them) and count in the row's statistics, as the IR
    says (its mean is the sum times 1/128); the stores clip them."""

    eps = 1.0e-5

    def problems(self, quick=False):
        # (rows, columns, blocks, CTAs): trips 0, 1, 2 and 3 per CTA; rows
        # past the blocks, a block past the rows (ragged), columns short
        # of the tile.
        probs = [(128, 128, 0, 1), (256, 128, 2, 2), (300, 128, 3, 1),
                 (200, 100, 2, 1), (640, 128, 5, 2)]
        if not quick:
            probs.append((128 * 64, 128, 64, 2))
        return probs

    def describe(self, p):
        return f"X={p[0]}x{p[1]} blocks={p[2]} grid={self.grid(p)}"

    def scalars(self, p):
        return {"blocks": p[2]}

    def region(self, p):
        return min(p[0], 128 * p[2]), min(p[1], 128)

    def rows(self, inputs, p):
        """The covered rows of X, zero-padded to the tile's 128 columns."""
        rows, cols = self.region(p)
        x = np.zeros((rows, 128))
        x[:, :cols] = self.covered(inputs, p)
        return x

    def vector(self, inputs, name, p):
        v = np.zeros(128)
        cols = min(p[1], 128)
        v[:cols] = inputs[name][:cols].astype(np.float64)
        return v


class RmsNormGamma(RowNorm):
    """test/lit/cuda/Inputs/rmsnorm-gamma.mlir: y = x rsqrt(mean(x^2) + eps)
    gamma[n], X, gamma and Y bf16, computed in float32."""

    mlir = "test/lit/cuda/Inputs/rmsnorm-gamma.mlir"
    tolerance = {"Y": "bound"}

    def inputs(self, rng, p):
        return {"X": bf16(rng.uniform(-4.0, 4.0, size=p[:2]).astype(np.float32)),
                "gamma": bf16(rng.uniform(-2.0, 2.0, size=(p[1],)).astype(np.float32))}

    def reference(self, inputs, p):
        rows, cols = self.region(p)
        x = self.rows(inputs, p)
        gamma = self.vector(inputs, "gamma", p)
        rstd = 1.0 / np.sqrt((x * x).sum(axis=1, keepdims=True) / 128 + self.eps)
        y = (x * rstd * gamma[None, :])[:, :cols]
        # One rounding to bf16 (2^-9 relative; 2^-8 covers it); before it,
        # float32: 128 squares summed (2^-17 relative at worst), rsqrtf
        # (2 ulp) and three multiplies: 2^-16 relative.
        return self.placed(p, y, np.abs(y) * (2.0 ** -8 + 2.0 ** -16))


SPECS["rmsnorm_gamma"] = RmsNormGamma()
SPECS["rmsnorm_gamma_peeled"] = peeled(SPECS["rmsnorm_gamma"])


class LayerNormAffine(RowNorm):
    """test/lit/cuda/Inputs/layernorm-affine.mlir: y = (x - mean) rsqrt(var +
    eps) gamma[n] + beta[n], var the mean of (x - mean)^2, all float32."""

    mlir = "test/lit/cuda/Inputs/layernorm-affine.mlir"
    tolerance = {"Y": "bound"}

    def inputs(self, rng, p):
        return {"X": rng.uniform(-4.0, 4.0, size=p[:2]).astype(np.float32),
                "gamma": rng.uniform(-2.0, 2.0, size=(p[1],)).astype(np.float32),
                "beta": rng.uniform(-2.0, 2.0, size=(p[1],)).astype(np.float32)}

    def reference(self, inputs, p):
        rows, cols = self.region(p)
        x = self.rows(inputs, p)
        gamma = self.vector(inputs, "gamma", p)
        beta = self.vector(inputs, "beta", p)
        mean = x.mean(axis=1, keepdims=True)
        d = x - mean
        rstd = 1.0 / np.sqrt((d * d).mean(axis=1, keepdims=True) + self.eps)
        scale = rstd * np.abs(gamma[None, :])
        y = (d * rstd * gamma[None, :] + beta[None, :])[:, :cols]
        # float32: the mean of 128 values is off by 2^-17 max|x| at worst,
        # which moves every d; the variance's sum and rsqrtf 2^-16 relative;
        # the multiply and the fma round once each.
        amax = np.abs(x).max(axis=1, keepdims=True)
        bound = scale * (2.0 ** -16 * (np.abs(d) + amax)) + 2.0 ** -22 * np.abs(beta[None, :])
        bound = bound[:, :cols] + 2.0 ** -22 * np.abs(y)
        return self.placed(p, y, bound)


SPECS["layernorm_affine"] = LayerNormAffine()
SPECS["layernorm_affine_peeled"] = peeled(SPECS["layernorm_affine"])

# The vector made in one agent and broadcast in another (a pipe slot).
SPECS["rmsnorm_gamma_wg"] = copy.copy(SPECS["rmsnorm_gamma"])
SPECS["rmsnorm_gamma_wg"].mlir = "test/lit/cuda/Inputs/rmsnorm-gamma-wg.mlir"


class BiasGemmN32(BiasReluGemm):
    """test/lit/cuda/Inputs/bias-gemm-n32.mlir: D = max(A . B^T + bias[n],
    0), bf16 A and B, float32 D, 128x32 tiles (the bias held whole by every
    thread, nothing streamed)."""

    mlir = "test/lit/cuda/Inputs/bias-gemm-n32.mlir"
    tile_n = 32
    tolerance = {"D": F32_TOL}

    def problems(self, quick=False):
        probs = [(128, 32, 0), (256, 96, 64), (200, 40, 320), (130, 70, 64 * 6)]
        if not quick:
            probs.append((384, 64, 64 * 40))
        return probs


SPECS["bias_gemm_n32"] = BiasGemmN32()
SPECS["bias_gemm_n32_peeled"] = peeled(SPECS["bias_gemm_n32"])

# gamma read and converted once before the loop (a user's hoisting).
SPECS["rmsnorm_gamma_hoisted"] = copy.copy(SPECS["rmsnorm_gamma"])
SPECS["rmsnorm_gamma_hoisted"].mlir = "test/lit/cuda/Inputs/rmsnorm-gamma-hoisted.mlir"
SPECS["rmsnorm_gamma_hoisted_peeled"] = peeled(SPECS["rmsnorm_gamma_hoisted"])


class BiasGemmPrologue(BiasReluGemm):
    """test/lit/cuda/Inputs/bias-gemm-prologue.mlir: bias_relu_gemm with a
    bf16 bias loaded before the loop and converted in the epilogue."""

    mlir = "test/lit/cuda/Inputs/bias-gemm-prologue.mlir"

    def inputs(self, rng, p):
        ins = super().inputs(rng, p)
        ins["bias"] = bf16(ins["bias"])
        return ins


SPECS["bias_gemm_prologue"] = BiasGemmPrologue()
SPECS["bias_gemm_prologue_peeled"] = peeled(SPECS["bias_gemm_prologue"])
SPECS["bias_gemm_prologue_persistent"] = persistent(
    SPECS["bias_gemm_prologue"], SPECS["bias_gemm_prologue"].problems(quick=True))
SPECS["bias_relu_gemm_persistent"] = persistent(
    SPECS["bias_relu_gemm"], SPECS["bias_relu_gemm"].problems(quick=True))
SPECS["gemm256_rowscale_bias_peeled"] = peeled(SPECS["gemm256_rowscale_bias"])
SPECS["gemm256_rowscale_bias_persistent"] = persistent(
    SPECS["gemm256_rowscale_bias"], [(512, 256, 64), (768, 384, 128)])


class HgemmF16Acc(Gemm):
    """C = A . B^T with fp16 in, an fp16 accumulator in TMEM and fp16 out,
    128x128 tiles, K-block 64 (test/lit/cuda/Inputs/hgemm-f16acc.mlir: the
    accumulator as tcgen05.mma leaves it, one element per 32-bit column).

    The reference is the exact float64 product; the bound per element is
    what rounding to fp16 (unit roundoff u = 2^-11) may cost. The MMA
    accumulates K = 16 per instruction and PTX leaves its internal order
    and rounding open, so the bound allows one rounding of the running sum
    per instruction, each at most u |S_t| (S_t: the exact sum after t
    instructions) plus half the fp16 subnormal spacing (2^-25), counted
    twice for an order or rounding other than the emulator's, and the
    rounding of the result itself: 2 u sum_t |S_t| + u |C| + T 2^-24.
    A value read in the wrong layout is off by the magnitude of C."""

    mlir = "test/lit/cuda/Inputs/hgemm-f16acc.mlir"
    tile_m, tile_n, tile_k, depth = 128, 128, 64, 4
    tolerance = {"C": None}  # the spec's own bound (reference below)

    def problems(self, quick=False):
        probs = [(128, 128, 0), (256, 384, 64), (200, 130, 128), (128, 128, 256),
                 (130, 250, 328)]
        if not quick:
            probs.append((128, 128, 4096))
        return probs

    def inputs(self, rng, p):
        m, n, k = p
        return {"A": uniform_f16(rng, (m, k)), "B": uniform_f16(rng, (n, k))}

    def reference(self, inputs, p):
        a = inputs["A"].astype(np.float64)
        b = inputs["B"].astype(np.float64)
        u = 2.0 ** -11
        partial = np.zeros((a.shape[0], b.shape[0]))
        rounded = np.zeros_like(partial)
        steps = 0
        for k0 in range(0, a.shape[1], 16):
            partial += a[:, k0:k0 + 16] @ b[:, k0:k0 + 16].T
            rounded += np.abs(partial)
            steps += 1
        bound = 2 * u * rounded + u * np.abs(partial) + steps * 2.0 ** -24
        return {"C": (partial, bound)}


SPECS["hgemm_f16acc"] = HgemmF16Acc()
SPECS["hgemm_f16acc_peeled"] = peeled(SPECS["hgemm_f16acc"])


class GemmM64(SourceGemm):
    """test/lit/cuda/Inputs/gemm-m64-residual.mlir: D = relu(A . B^T + R) with
    64x128 tiles, tcgen05.mma at M = 64 (its accumulator rows 16 apart in
    each TMEM lane quadrant) and 64-row register tiles in the epilogue. The
    reference knows nothing of the layout: a row read from the wrong lane
    shows as another row's numbers (or NaN, never written)."""

    mlir = "test/lit/cuda/Inputs/gemm-m64-residual.mlir"
    tile_m, tile_n = 64, 128
    source = "R"

    def problems(self, quick=False):
        probs = [(64, 128, 0), (128, 256, 64), (100, 130, 320), (64, 128, 64 * 4),
                 (72, 250, 64 * 5)]
        if not quick:
            probs.append((192, 256, 64 * 40))
        return probs

    def reference(self, inputs, p):
        return {"D": np.maximum(super().reference(inputs, p)["D"], 0.0)}


SPECS["gemm_m64"] = GemmM64()
SPECS["gemm_m64_peeled"] = peeled(SPECS["gemm_m64"])


class HgemmM64F16Acc(HgemmF16Acc):
    """test/lit/cuda/Inputs/hgemm-m64-f16acc.mlir: the f16-accumulating GEMM
    with 64x128 tiles (M = 64 and an f16 D together: read with .16x32bx2,
    one element per column, packed in registers). Bound as HgemmF16Acc."""

    mlir = "test/lit/cuda/Inputs/hgemm-m64-f16acc.mlir"
    tile_m, tile_n = 64, 128


SPECS["hgemm_m64_f16acc"] = HgemmM64F16Acc()




# ---------------------------------------------------------------------------
# Plain kernels of issue 35 (no register spills): attention with the scores
# scaled by the softmax scale, with and without the log-sum-exp, and RMSNorm
# over 128-column rows.
# ---------------------------------------------------------------------------


class AttentionScaled(Attention):
    """test/lit/cuda/Inputs/attn-scale-hd{64,128}[-lse].mlir: S = Q K^T x
    scale (scale = log2(e) / sqrt(head dim), passed in as f32), the online
    softmax in base 2 with O rescaled in place, O divided by the row sum
    after the loop: O = softmax_2(S) V. With `lse`, also the row's
    log-sum-exp in base 2, LSE = m + log2(l)."""

    def __init__(self, mlir, head, lse):
        super().__init__(mlir, 128, False, 3)
        self.head = head
        self.lse = lse
        self.scale = float(np.float32(math.log2(math.e) / math.sqrt(head)))
        if lse:
            self.tolerance = {"O": "bound", "LSE": "bound"}

    def problems(self, quick=False):
        # (query rows, key blocks): trips 1, 2, depth, depth + 1 and 64 (a
        # loop of no block divides by a zero sum); several CTAs; query rows a
        # multiple of the tile and not.
        d = self.depth
        probs = [(128, 1), (256, 2), (200, d), (128, d + 1)]
        if not quick:
            probs.append((128, 64))
        return probs

    def scalars(self, p):
        return {"nKV": p[1], "scale": self.scale}

    def outputs(self, p):
        out = {"O": (p[0], self.head)}
        if self.lse:
            out["LSE"] = (p[0],)
        return out

    def reference(self, inputs, p):
        q = inputs["Q"].astype(np.float64)
        k = inputs["K"].astype(np.float64)
        v = inputs["V"].astype(np.float64)
        s = (q @ k.T) * self.scale
        m = s.max(axis=1, keepdims=True)
        e = np.exp2(s - m)
        l = e.sum(axis=1, keepdims=True)
        o, mag = (e @ v) / l, (e @ np.abs(v)) / l
        # P and O in bf16 (2^-9 relative each), as Attention's bound.
        out = {"O": (o, 1e-3 + 2.0 ** -7 * mag)}
        if self.lse:
            lse = (m + np.log2(l))[:, 0]
            # S in float32 (128 products, a few 2^-24 of |S|), ex2.approx in
            # the row sum (2^-22 relative each), log2f (1 ulp): 2^-16 of |S|
            # and of log2(l), with an absolute floor.
            out["LSE"] = (lse, 1e-5 + 2.0 ** -16 * (np.abs(m[:, 0]) +
                                                   np.log2(l[:, 0]) + 1))
        return out


def add_attention_specs(prefix, cls):
    """PREFIX_hd{64,128}[_lse] and their peeled forms, each from
    test/lit/cuda/Inputs/PREFIX-hd{64,128}[-lse].mlir with dashes."""
    for head in (64, 128):
        for lse in (False, True):
            name = f"{prefix}_hd{head}" + ("_lse" if lse else "")
            SPECS[name] = cls(
                f"test/lit/cuda/Inputs/{name.replace('_', '-')}.mlir", head, lse)
            SPECS[name + "_peeled"] = peeled(SPECS[name])


add_attention_specs("attn_scale", AttentionScaled)



class AttentionCausal(AttentionScaled):
    """test/lit/cuda/Inputs/attn-causal-hd128.mlir (session 30's fresh
    kernel): AttentionScaled at head dim 128 with the causal mask of a
    prefill (Sq = Sk, query i sees keys j <= i) written with tileas.iota;
    query block b runs b + 1 key blocks."""

    def __init__(self):
        super().__init__("test/lit/cuda/Inputs/attn-causal-hd128.mlir", 128,
                         False)

    def problems(self, quick=False):
        # Sequence lengths: one block (one trip); two blocks (1 and 2
        # trips); ragged (the padded query rows of the last block unstored);
        # five blocks (up to 5 trips).
        probs = [(128,), (256,), (200,), (640,)]
        return probs[:3] if quick else probs

    def describe(self, p):
        return f"S={p[0]} trips<={math.ceil(p[0] / 128)} grid={self.grid(p)}"

    def inputs(self, rng, p):
        s = p[0]
        return {"Q": uniform_bf16(rng, (s, self.head)),
                "K": uniform_bf16(rng, (s, self.head)),
                "V": uniform_bf16(rng, (s, self.head))}

    def scalars(self, p):
        return {"scale": self.scale}

    def reference(self, inputs, p):
        q, k, v = (inputs[n].astype(np.float64) for n in ("Q", "K", "V"))
        s = (q @ k.T) * self.scale
        s = np.where(np.tril(np.ones(s.shape, bool)), s, -np.inf)
        e = np.exp2(s - s.max(axis=1, keepdims=True))
        l = e.sum(axis=1, keepdims=True)
        o, mag = (e @ v) / l, (e @ np.abs(v)) / l
        return {"O": (o, 1e-3 + 2.0 ** -7 * mag)}


SPECS["attn_causal_hd128"] = AttentionCausal()
SPECS["attn_causal_hd128_peeled"] = peeled(SPECS["attn_causal_hd128"])


class AttentionBn64(AttentionScaled):
    """test/lit/cuda/Inputs/attn-bn64-hd128.mlir (session 27's fresh
    attention): AttentionScaled at head dim 128 with 64-key blocks, as
    Triton's fused-attention tutorial tiles it; S and P are 128 x 64."""

    block = 64

    def __init__(self):
        super().__init__("test/lit/cuda/Inputs/attn-bn64-hd128.mlir", 128, False)


SPECS["attn_bn64_hd128"] = AttentionBn64()

class AttentionM64(AttentionScaled):
    """test/lit/cuda/Inputs/attn-m64-hd{64,128}[-lse].mlir: AttentionScaled
    with 64-row Q tiles (tcgen05.mma M = 64), P handed to O += P V through
    SMEM in the MMA's swizzled layout. Query rows ragged against 64."""

    def __init__(self, mlir, head, lse):
        super().__init__(mlir, head, lse)
        self.q_rows = 64

    def problems(self, quick=False):
        # (query rows, key blocks): trips 1, 2, depth, depth + 1 and 40;
        # one and several CTAs; query rows a multiple of 64 and not.
        d = self.depth
        probs = [(64, 1), (192, 2), (100, d), (64, d + 1)]
        if not quick:
            probs.append((136, 40))
        return probs


add_attention_specs("attn_m64", AttentionM64)


class RmsNormRows(CoshStream):
    """test/lit/cuda/Inputs/rmsnorm-rows.mlir: Y = X rsqrt(mean(X^2) + eps)
    per row of 128 columns, X and Y bf16, the statistics in float32. CTA b
    walks blocks 128 (b blocks + i), i < blocks. Y elsewhere keeps its
    zeros; rows past the tensor's end are clipped by the store."""

    mlir = "test/lit/cuda/Inputs/rmsnorm-rows.mlir"
    eps = 1e-5
    tolerance = {"Y": "bound"}

    def problems(self, quick=False):
        # (rows, columns, blocks per CTA, CTAs): trips 0, 1, 2, 5, 64;
        # rows past the blocks, a block past the rows, columns past the tile.
        probs = [(128, 128, 0, 1), (256, 128, 1, 2), (300, 130, 2, 2),
                 (640, 128, 5, 1), (1000, 128, 3, 3)]
        if not quick:
            probs.append((128 * 64, 128, 64, 1))
        return probs

    def describe(self, p):
        return f"X={p[0]}x{p[1]} blocks={p[2]} grid={self.grid(p)}"

    def inputs(self, rng, p):
        return {"X": bf16(rng.uniform(-4.0, 4.0, size=p[:2]).astype(np.float32))}

    def scalars(self, p):
        return {"blocks": p[2], "eps": self.eps}

    def region(self, p):
        return min(p[0], 128 * p[2] * p[3]), min(p[1], 128)

    def reference(self, inputs, p):
        rows, cols = self.region(p)
        # Columns past the tensor's end load as zeros (TMA fills them).
        x = np.zeros((rows, 128))
        x[:, :cols] = self.covered(inputs, p)
        eps = float(np.float32(self.eps))
        y = x / np.sqrt((x * x).sum(axis=1, keepdims=True) / 128 + eps)
        y = y[:, :cols]
        # One rounding to bf16 (2^-9 relative); the float32 sum of squares
        # (2^-17), rsqrtf (2 ulp) and the multiply add a few 2^-20 on top.
        return self.placed(p, y, np.abs(y) * (2.0 ** -8 + 2.0 ** -16))


SPECS["rmsnorm_rows"] = RmsNormRows()
SPECS["rmsnorm_rows_peeled"] = peeled(SPECS["rmsnorm_rows"])


class Fa4Scaled(Attention):
    """test/lit/cuda/Inputs/fa4-scale-hd128.mlir: fa4_unmarked with the
    scores scaled before the row max, S = Q K^T x scale (scale =
    log2(e) / sqrt(128), passed in as f32); O unnormalised as the FA4
    examples store it: O = sum_j exp2(S_j - m) V_j."""

    def __init__(self):
        super().__init__("test/lit/cuda/Inputs/fa4-scale-hd128.mlir", 256, False, 3)
        self.scale = float(np.float32(math.log2(math.e) / math.sqrt(128)))

    def scalars(self, p):
        return {"nKV": p[1], "scale": self.scale}

    def reference(self, inputs, p):
        # Scaling Q scales S exactly as the kernel's multiply does, up to
        # its float32 rounding (2^-24 of |S|), which the bound covers.
        q = inputs["Q"].astype(np.float64) * self.scale
        o, mag = attention_reference(q, inputs["K"], inputs["V"])
        return {"O": (o, 1e-3 + 2.0 ** -7 * mag)}


SPECS["fa4_scale_hd128"] = Fa4Scaled()
SPECS["fa4_scale_hd128_peeled"] = peeled(SPECS["fa4_scale_hd128"])


class SwiGlu(Gemm):
    """test/lit/cuda/Inputs/swiglu.mlir, a SwiGLU MLP's first half as a user
    writes it (LLaMA's FFN): gate = A Wg^T and up = A Wu^T in one loop, two
    accumulators, then H = silu(gate) * up, bf16 in and out, 128x64 tiles.
    Written as the fresh kernel of issue 38's session 23: on sm_90a its two
    MMAs landed in different stages of one agent, with prologue and drain
    MMAs around the loop."""

    mlir = "test/lit/cuda/Inputs/swiglu.mlir"
    tile_m, tile_n, tile_k, depth = 128, 64, 64, 4
    tolerance = {"H": (2e-3, 2.0 ** -7)}

    def problems(self, quick=False):
        probs = [(128, 64, 0), (256, 128, 64), (200, 100, 192), (130, 190, 448)]
        if not quick:
            probs.append((128, 64, 4096))
        return probs

    def inputs(self, rng, p):
        m, n, k = p
        s = 1.0 / math.sqrt(max(k, 1))
        return {"A": uniform_bf16(rng, (m, k)),
                "Wg": bf16(rng.uniform(-1.0, 1.0, size=(n, k)).astype(np.float32) * s),
                "Wu": bf16(rng.uniform(-1.0, 1.0, size=(n, k)).astype(np.float32) * s)}

    def outputs(self, p):
        return {"H": (p[0], p[1])}

    def reference(self, inputs, p):
        a = inputs["A"].astype(np.float64)
        g = a @ inputs["Wg"].astype(np.float64).T
        u = a @ inputs["Wu"].astype(np.float64).T
        return {"H": g / (1.0 + np.exp(-g)) * u}


SPECS["swiglu"] = SwiGlu()
# Persistent: on sm_90a its consumer's two MMAs a k-block sit in a branch on
# the trip count around a peeled loop, and its ping-pong copies take turns
# on that branch (docs/cuda.md, "Ping-pong consumers").
SPECS["swiglu_persistent"] = persistent(SPECS["swiglu"], SPECS["swiglu"].problems(quick=True))


def hopper(spec):
    """The same kernel for sm_90a (issue 38): its loop rewritten for wgmma
    (docs/retarget.md), scheduled and materialized against the Hopper model
    and translated with the accumulator in registers (docs/cuda.md,
    "Hopper"). The reference and the problems are the sm_100a spec's."""
    variant = copy.copy(spec)
    variant.target = "sm_90a"
    return variant


# The GEMM family whose tiles one consumer warpgroup holds (M N <= 128 x
# 128), warp-specialized and persistent.
for _name in ["hgemm_relu", "gemm_gelu", "residual_gemm", "bias_relu_gemm", "bias_gemm_n32",
              "bias_gemm_prologue", "gemm_m64", "hgemm_relu_persistent",
              "residual_gemm_persistent", "bias_relu_gemm_persistent", "swiglu",
              "bias_relu_gemm_peeled", "residual_gemm_peeled", "gemm_m64_peeled"]:
    SPECS[_name + "_sm90a"] = hopper(SPECS[_name])

SPECS["dual_gemm_sm90a"] = hopper(DualGemm())

# The epilogue staged through SMEM (tilepipe-translate
# --tileas-wgmma-epilogue=staged), the fallback of the rows: a GELU and a
# per-column bias.
for _name in ["gemm_gelu", "bias_relu_gemm"]:
    SPECS[_name + "_staged_sm90a"] = hopper(SPECS[_name])
    SPECS[_name + "_staged_sm90a"].translate = "--tileas-wgmma-epilogue=staged"
