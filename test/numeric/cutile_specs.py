"""Numeric specs of cuTile kernels (docs/cuda-tile-lowering.md): each
kernel's tile IR is made when the test runs, from its checked-in bytecode
fixture, by `tilepipe-translate --import-tileir-bytecode` and `tilepipe-opt
--tileir-to-tileas`; scripts/numcheck.py then schedules, materializes,
translates and runs it on the CPU emulator as any spec.

The arguments are given the way cuTile's calling convention passes them:
each spec names its arrays and scalars by cuTile parameter number, and the
lowered function's `tileas.cutile.source` attributes say which argument is
which array's tensor map, which array's shape or which scalar, as a launcher
reads them. References are the kernels' mathematics in float64, written here
independently of the kernels and of the emulator."""
import copy
import os
import re
import subprocess

import numpy as np

from specs import (BF16_TOL, E4M3_CODES, F32_TOL, bf16, e4m3_value, fp8_mma_bound,
                   mma_rounding_bound, random_e4m3, uniform_bf16, uniform_f16, uniform_tf32)

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# `%arg0: !tileas.tma_desc<128x64xbf16> {tileas.cutile.source = {array = 0 :
# i64}, tileas.name = "A"}` in the lowered function's signature.
ARGUMENT = re.compile(r'%\w+: [^{,)]+ \{tileas\.cutile\.source = \{([^}]*)\}, '
                      r'tileas\.name = "([^"]*)"\}')


def parse_source(text):
    """{'array': 0, 'shape': 1} from `array = 0 : i64, shape = 1 : i64`."""
    return {k: int(v) for k, v in re.findall(r'(\w+) = (-?\d+)', text)}


def arguments(tileas):
    """[(name, source)] of the lowered function's arguments. The name is the
    main's positional one, `argN` for the N-th parameter (docs/cuda.md, "The
    main"), which holds whatever the debug info named the parameters."""
    return [(f"arg{i}", parse_source(s)) for i, (s, _) in enumerate(ARGUMENT.findall(tileas))]


# `{dtype = bf16, index = i32, kind = "array", ...}` entries of the lowered
# function's `tileas.cutile.params`, in parameter order.
PARAM = re.compile(r'\{dtype = (\w+)(?:, index = \w+)?, kind = "(array|scalar)"')
BYTES = {"f64": 8, "f32": 4, "i32": 4, "bf16": 2, "f16": 2, "i16": 2}


def element_bytes(tileas):
    """{parameter: element bytes} of the lowered function's arrays."""
    return {k: BYTES.get(dtype, 1) for k, (dtype, kind) in enumerate(PARAM.findall(tileas))
            if kind == "array"}


def padded_stride(shape, dim, nbytes):
    """The stride of dimension `dim` of an array the generated main allocates:
    rows padded to whole 16-byte units, as a TMA needs (tilepipe/host/
    main.cuh, Array::allocate); a kernel that addresses elements itself
    (tileas.global_store) reads the stride argument."""
    if dim == len(shape) - 1:
        return 1
    per = 16 // nbytes
    pitch = -(-shape[-1] // per) * per
    return int(pitch * np.prod(shape[dim + 1:-1]))


class CuTileSpec:
    """A kernel given by its fixture. Subclasses give `fixture`, `tolerance`
    (by output parameter number), `problems`, `describe`, `grid`,
    `arrays(rng, p)` (the input arrays by parameter number), `output_shapes(p)`
    (by parameter number), `scalar_values(p)` and `expected(arrays, p)` (the
    reference by output parameter number)."""

    lowering = ""  # more --tileir-to-tileas options

    def scalar_values(self, p):
        return {}

    def prepare(self, build, tmp, log, register_mma=False):
        """The tileas file numcheck takes, made from the fixture; None after
        logging the step that failed. Where tilepipe-translate has no
        bytecode import yet, the fixture's tileirdisasm text in the dialect's
        syntax (test/lit/frontend/cutile/Inputs) is lowered instead.
        `register_mma`: for a target whose tensor core accumulates in
        registers (cudalower.REGISTER_MMA_TARGETS), the lowering makes the
        wgmmas itself (--tileir-to-tileas=wgmma), as `tilepipe compile`
        does."""
        stem = os.path.splitext(os.path.basename(self.fixture))[0]
        translate = os.path.join(build, "bin", "tilepipe-translate")
        tileir = os.path.join(tmp, stem + ".tileir.mlir")
        tileas = os.path.join(tmp, stem + ".tileas.mlir")
        steps = []
        if has_bytecode_import(translate):
            steps.append([translate, "--import-tileir-bytecode", os.path.join(SRC, self.fixture),
                          "--mlir-print-debuginfo", "-o", tileir])
        else:
            tileir = os.path.join(SRC, "test", "lit", "frontend", "cutile", "Inputs",
                                  stem + ".tileir.mlir")
        # With the locations, a later step's diagnostic names the kernel's
        # source line (the bytecode's debug info).
        options = (["wgmma"] if register_mma else []) + ([self.lowering] if self.lowering else [])
        lowering = "--tileir-to-tileas" + ("=" + " ".join(options) if options else "")
        steps.append([os.path.join(build, "bin", "tilepipe-opt"), tileir, lowering,
                      "--mlir-print-debuginfo", "-o", tileas])
        for cmd in steps:
            run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if run.returncode:
                log(f"{stem}: {os.path.basename(cmd[0])} failed\n{run.stdout}")
                return None
        text = open(tileas).read()
        self.arguments = arguments(text)
        self.element_bytes = element_bytes(text)
        self.tolerance = {n: self.tolerances[src["array"]] for n, src in self.arguments
                          if "array" in src and len(src) == 1 and src["array"] in self.tolerances}
        return tileas

    def _maps(self):
        """(tensor-map argument names by array, names of the other arguments
        with their sources)."""
        maps, others = {}, []
        for name, src in self.arguments:
            if set(src) == {"array"}:
                maps.setdefault(src["array"], []).append(name)
            else:
                others.append((name, src))
        return maps, others

    def inputs(self, rng, p):
        arrays = self.arrays(rng, p)
        maps, _ = self._maps()
        return {n: a for k, a in arrays.items() for n in maps.get(k, [])}

    def outputs(self, p):
        maps, _ = self._maps()
        return {maps[k][0]: shape for k, shape in self.output_shapes(p).items()}

    def scalars(self, p):
        _, others = self._maps()
        shapes = dict(self.output_shapes(p))
        shapes.update({k: a.shape for k, a in self.arrays(np.random.default_rng(0), p).items()})
        values = self.scalar_values(p)
        out = {}
        for name, src in others:
            if "shape" in src:
                out[name] = shapes[src["array"]][src["shape"]]
            elif "stride" in src:
                out[name] = padded_stride(shapes[src["array"]], src["stride"],
                                          self.element_bytes.get(src["array"], 4))
            else:
                out[name] = values[src["scalar"]]
        return out

    def reference(self, inputs, p):
        maps, _ = self._maps()
        arrays = {k: inputs[names[0]] for k, names in maps.items() if names[0] in inputs}
        return {maps[k][0]: ref for k, ref in self.expected(arrays, p).items()}


def has_bytecode_import(translate):
    run = subprocess.run([translate, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    return "--import-tileir-bytecode" in run.stdout


def cdiv(a, b):
    return -(-a // b)


class Matmul(CuTileSpec):
    """C = A B (test/cutile/kernels/matmul.py): 128 x 256 tiles, K step 64,
    bf16 in, f32 accumulation, bf16 out; B is K x N (N contiguous)."""
    fixture = "test/cutile/fixtures/matmul-13.4.tileirbc"
    tm, tn, tk = 128, 256, 64
    tolerances = {2: BF16_TOL}

    def problems(self, quick=False):
        # trip counts 1, 2, 9; ragged M, N and K; one CTA and several
        probs = [(128, 256, 64), (200, 300, 100), (256, 512, 64 * 9)]
        return probs if quick else probs + [(130, 260, 40)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]} K={p[2]} trips={cdiv(p[2], self.tk)} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], self.tm), cdiv(p[1], self.tn), 1)

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, n))}

    def output_shapes(self, p):
        return {2: (p[0], p[1])}

    def expected(self, a, p):
        return {2: a[0].astype(np.float64) @ a[1].astype(np.float64)}


class GemmStoreColmajor(Matmul):
    """C = A B written column-major (test/cutile/lower/kernels/
    gemm_store_colmajor.py): the output array is C^T, N x M, each 128 x 64
    tile stored through a transposed view (order=(1, 0))."""
    fixture = "test/cutile/lower/fixtures/gemm_store_colmajor-13.4.tileirbc"
    tm, tn, tk = 128, 64, 64

    def output_shapes(self, p):
        return {2: (p[1], p[0])}

    def expected(self, a, p):
        return {2: (a[0].astype(np.float64) @ a[1].astype(np.float64)).T}


class Matmul256(Matmul):
    """C = A B at 256 x 128 tiles (test/cutile/lower/kernels/matmul_256.py):
    sm_90a only, one wgmma tile over two consumer warpgroups (a 256-row MMA
    has no tcgen05 form one CTA issues). Ragged M below one tile and above
    it, trip counts 0, 1, 2 and 9."""
    fixture = "test/cutile/lower/fixtures/matmul_256-13.4.tileirbc"
    tm, tn, tk = 256, 128, 64
    target = "sm_90a"

    def problems(self, quick=False):
        probs = [(256, 128, 64), (300, 200, 100), (512, 256, 64 * 9)]
        return probs if quick else probs + [(130, 260, 40), (256, 128, 0)]


class MatmulBiasAct(Matmul):
    """D = leaky_relu(A B + bias[n]), alpha 1/8 (matmul_bias_act.py): 128 x
    128 tiles, the bias loaded after the loop (the epilogue); a 1-D grid of
    one block per tile of D, taken in groups of 8 tile rows (the kernel
    computes its tile from the block index with i32 division and
    remainders)."""
    fixture = "test/cutile/fixtures/matmul_bias_act-13.4.tileirbc"
    tm, tn, tk = 128, 128, 64
    tolerances = {3: BF16_TOL}

    def problems(self, quick=False):
        # as Matmul's, and 10 x 2 tiles: a full group of 8 tile rows and a
        # partial one of 2
        probs = super().problems(quick)
        return probs if quick else probs + [(128 * 9 + 5, 256, 128)]

    def grid(self, p):
        return (cdiv(p[0], self.tm) * cdiv(p[1], self.tn), 1, 1)

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, n)),
                2: rng.uniform(-2, 2, n).astype(np.float32)}

    def output_shapes(self, p):
        return {3: (p[0], p[1])}

    def expected(self, a, p):
        y = a[0].astype(np.float64) @ a[1].astype(np.float64) + a[2].astype(np.float64)[None, :]
        return {3: np.maximum(y, 0.125 * y)}


class BatchedMatmul(Matmul):
    """C[b] = A[b] B[b] (batched_matmul.py): rank-3 arrays, (1, 128, 64) and
    (1, 64, 128) tiles, grid z over the batch."""
    fixture = "test/cutile/fixtures/batched_matmul-13.4.tileirbc"
    tm, tn, tk = 128, 128, 64
    tolerances = {2: BF16_TOL}

    def problems(self, quick=False):
        probs = [(1, 128, 128, 64), (3, 200, 130, 100), (2, 256, 256, 64 * 7)]
        return probs

    def describe(self, p):
        return f"batch={p[0]} M={p[1]} N={p[2]} K={p[3]} trips={cdiv(p[3], self.tk)} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[1], self.tm), cdiv(p[2], self.tn), p[0])

    def arrays(self, rng, p):
        b, m, n, k = p
        return {0: uniform_bf16(rng, (b, m, k)), 1: uniform_bf16(rng, (b, k, n))}

    def output_shapes(self, p):
        return {2: (p[0], p[1], p[2])}

    def expected(self, a, p):
        return {2: np.matmul(a[0].astype(np.float64), a[1].astype(np.float64))}


class RowSpec(CuTileSpec):
    """A kernel of one 128 x 128 row tile per CTA (no loop: the lowering
    runs the body as a loop of one trip); M ragged, N = 128."""
    rows = 128

    def problems(self, quick=False):
        return [(128,), (200,)] if quick else [(128,), (200,), (128 * 5 + 3,)]

    def describe(self, p):
        return f"M={p[0]} N=128 grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], self.rows), 1, 1)


class SoftmaxRows(RowSpec):
    """Y = softmax(X) over rows (test/cutile/lower/kernels/softmax_rows.py);
    f32; exp is within 2 ulp on the device, the C library's on the CPU."""
    fixture = "test/cutile/lower/fixtures/softmax_rows-13.4.tileirbc"
    tolerances = {1: (1e-6, 1e-5)}

    def arrays(self, rng, p):
        return {0: rng.uniform(-4, 4, (p[0], 128)).astype(np.float32)}

    def output_shapes(self, p):
        return {1: (p[0], 128)}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return {1: e / e.sum(axis=1, keepdims=True)}


class RowBlockSpec(CuTileSpec):
    """A kernel of `rows` rows of an M x N problem a block, grid (cdiv(M,
    rows), 1, 1); `probs` its problems, the first two the quick ones."""
    rows = 1
    probs = []

    def problems(self, quick=False):
        return self.probs[:2] if quick else self.probs

    def describe(self, p):
        return f"M={p[0]} N={p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], self.rows), 1, 1)


class ChunkedRowSpec(RowBlockSpec):
    """A norm over rows in tiles of 32 x 256 (test/cutile/kernels/rmsnorm.py,
    layernorm.py): each row split over 4 of an agent's threads (docs/
    cuda-tile-lowering.md, "Tiles of fewer than 128 rows"), two loops over
    column chunks; M and N ragged, chunk counts 1, 2 and 6."""
    rows = 32
    probs = [(32, 256), (50, 300), (32 * 3 + 5, 256 * 5 + 7)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]} trips={cdiv(p[1], 256)} grid={self.grid(p)}"


class SoftmaxPadded(RowBlockSpec):
    """Y = softmax(X) over rows in 16 x 256 tiles with -inf padding
    (softmax_padded.py); each row split over 8 lanes. Inputs are all
    negative, so a zero fill past N would be the row maximum and add
    exp(-max) per padded column: only the -inf padding matches."""
    fixture = "test/cutile/lower/fixtures/softmax_padded-13.4.tileirbc"
    tolerances = {1: (1e-6, 1e-5)}
    rows = 16
    probs = [(16, 256), (50, 200), (16 * 9 + 3, 36)]

    def arrays(self, rng, p):
        return {0: -rng.uniform(0.5, 6, p).astype(np.float32)}

    def output_shapes(self, p):
        return {1: p}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return {1: e / e.sum(axis=1, keepdims=True)}


class SoftmaxRowMasked(SoftmaxPadded):
    """Y = softmax(X) over rows, one (1, 1024) row a block, the columns past N
    masked with ct.arange positions (softmax_row_masked.py). The inputs are
    SoftmaxPadded's, all negative, so a column past N left at the load's zero
    would be the row maximum: only the mask matches."""
    fixture = "test/cutile/lower/fixtures/softmax_row_masked-13.4.tileirbc"
    rows = 1
    probs = [(3, 1000), (2, 7), (5, 1024), (4, 513)]


class Softmax(SoftmaxPadded):
    """cuTile's own softmax shape (test/cutile/kernels/softmax.py): 16 x 1024
    f32 tiles padded with -inf, a row wider than a TMA box (4 boxes of 256,
    a BlockedTile) split over 8 lanes."""
    fixture = "test/cutile/fixtures/softmax-13.4.tileirbc"
    probs = [(16, 1024), (50, 1000), (16 * 5 + 1, 300), (3, 20)]


class L2NormPairs(RowBlockSpec):
    """Rows scaled to unit length, (2, 512) tiles (l2norm_pairs.py): each
    row over 64 lanes, its sum combined across two warps."""
    fixture = "test/cutile/lower/fixtures/l2norm_pairs-13.4.tileirbc"
    tolerances = {1: (1e-6, 1e-5)}
    rows = 2
    probs = [(2, 512), (9, 300), (64, 8)]

    def arrays(self, rng, p):
        return {0: rng.uniform(-2, 2, p).astype(np.float32)}

    def output_shapes(self, p):
        return {1: p}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        return {1: x / np.sqrt((x * x).sum(axis=1, keepdims=True) + np.float64(np.float32(1e-12)))}


class RmsNormRows(RowSpec):
    """Y = X rsqrt(mean X^2 + eps) gamma (rmsnorm_rows.py), bf16 in and out,
    eps a scalar parameter."""
    fixture = "test/cutile/lower/fixtures/rmsnorm_rows-13.4.tileirbc"
    tolerances = {2: BF16_TOL}
    eps = 1e-5

    def arrays(self, rng, p):
        return {0: uniform_bf16(rng, (p[0], 128)), 1: bf16(rng.uniform(0.5, 1.5, 128).astype(np.float32))}

    def output_shapes(self, p):
        return {2: (p[0], 128)}

    def scalar_values(self, p):
        return {3: self.eps}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        r = 1.0 / np.sqrt((x * x).mean(axis=1, keepdims=True) + np.float64(np.float32(self.eps)))
        return {2: x * r * a[1].astype(np.float64)[None, :]}


class LayerNormRows(RowSpec):
    """Y = (X - mean) rsqrt(var + 1e-5) gamma + beta (layernorm_rows.py), f32."""
    fixture = "test/cutile/lower/fixtures/layernorm_rows-13.4.tileirbc"
    tolerances = {3: (1e-5, 1e-5)}

    def arrays(self, rng, p):
        return {0: rng.uniform(-2, 2, (p[0], 128)).astype(np.float32),
                1: rng.uniform(0.5, 1.5, 128).astype(np.float32),
                2: rng.uniform(-1, 1, 128).astype(np.float32)}

    def output_shapes(self, p):
        return {3: (p[0], 128)}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        d = x - x.mean(axis=1, keepdims=True)
        r = 1.0 / np.sqrt((d * d).mean(axis=1, keepdims=True) + np.float64(np.float32(1e-5)))
        return {3: d * r * a[1].astype(np.float64)[None, :] + a[2].astype(np.float64)[None, :]}




class RmsNorm(ChunkedRowSpec):
    """Y = X rsqrt(mean X^2 + 1e-6) W, bf16 in and out, f32 statistics."""
    fixture = "test/cutile/fixtures/rmsnorm-13.4.tileirbc"
    tolerances = {2: BF16_TOL}

    def arrays(self, rng, p):
        return {0: uniform_bf16(rng, p), 1: bf16(rng.uniform(0.5, 1.5, p[1]).astype(np.float32))}

    def output_shapes(self, p):
        return {2: p}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        r = 1.0 / np.sqrt((x * x).mean(axis=1, keepdims=True) + np.float64(np.float32(1e-6)))
        return {2: x * r * a[1].astype(np.float64)[None, :]}


class LayerNorm(ChunkedRowSpec):
    """Y = (X - mean) rsqrt(E[X^2] - mean^2 + 1e-5) W + B, f32."""
    fixture = "test/cutile/fixtures/layernorm-13.4.tileirbc"
    tolerances = {3: (1e-4, 1e-4)}

    def arrays(self, rng, p):
        return {0: rng.uniform(-2, 2, p).astype(np.float32),
                1: rng.uniform(0.5, 1.5, p[1]).astype(np.float32),
                2: rng.uniform(-1, 1, p[1]).astype(np.float32)}

    def output_shapes(self, p):
        return {3: p}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        mu = x.mean(axis=1, keepdims=True)
        var = (x * x).mean(axis=1, keepdims=True) - mu * mu
        r = 1.0 / np.sqrt(var + np.float64(np.float32(1e-5)))
        return {3: (x - mu) * r * a[1].astype(np.float64)[None, :] + a[2].astype(np.float64)[None, :]}


class LayerNormRow(LayerNorm):
    """The same mathematics, one (1, 1024) row tile a block
    (layernorm_row.py): the row over all 128 threads, reduced whole
    (tileas.reduce_all)."""
    fixture = "test/cutile/lower/fixtures/layernorm_row-13.4.tileirbc"
    tolerances = {3: (1e-5, 1e-5)}
    rows = 1
    probs = [(1, 1024), (6, 1000), (3, 36)]

    def describe(self, p):
        return RowBlockSpec.describe(self, p)


def softmax_times_v(s, v):
    """O = softmax(s) V in float64 (s: the scores, -inf where masked) and its
    bound: P is rounded to bf16 before P V (2^-8 of each term's magnitude,
    with float32 accumulation 2^-7), then O is rounded to bf16 (2^-8)."""
    e = np.exp(s - s.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    o = w @ v
    return o, 2.0 ** -7 * (w @ np.abs(v)) + 2.0 ** -8 * np.abs(o) + 1e-3


class AttentionHead(CuTileSpec):
    """O = softmax(scale Q K^T) V for one head (attention_head.py), bf16 Q, K,
    V and O, D = 64, keys in blocks of 128 (trip count Lk / 128). P is rounded
    to bf16 before P V and the scores' exp2 is the device's approximation, so
    the bound is measured against sum |p v| as specs.attention_reference
    does."""
    fixture = "test/cutile/lower/fixtures/attention_head-13.4.tileirbc"
    tolerances = {3: BF16_TOL}
    scale = 0.125

    def problems(self, quick=False):
        # (Lq, Lk): trip counts 1, 2, 5; ragged Lq; one CTA and several
        probs = [(128, 128), (200, 256), (256, 128 * 5)]
        return probs

    def describe(self, p):
        return f"Lq={p[0]} Lk={p[1]} trips={p[1] // 128} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 128), 1, 1)

    def arrays(self, rng, p):
        lq, lk = p
        return {0: uniform_bf16(rng, (lq, 64)), 1: uniform_bf16(rng, (lk, 64)), 2: uniform_bf16(rng, (lk, 64))}

    def output_shapes(self, p):
        return {3: (p[0], 64)}

    def scalar_values(self, p):
        return {4: self.scale}

    def expected(self, a, p):
        q, k, v = (a[i].astype(np.float64) for i in range(3))
        return {3: softmax_times_v(self.scale * (q @ k.T), v)}


class AttentionCausal(AttentionHead):
    """Causal attention for one head (lower/kernels/attention_causal.py):
    query row i sees keys j <= i + Lk - Lq, the mask made of ct.arange
    positions (tileas.iota); keys past Lk masked too, so Lk is any length.
    Block b runs cdiv(min((b + 1) 128 + Lk - Lq, Lk), 128) trips."""
    fixture = "test/cutile/lower/fixtures/attention_causal-13.4.tileirbc"

    def problems(self, quick=False):
        # (Lq, Lk): one trip; ragged Lq and Lk (2 and 3 trips, the last
        # block partly past Lk); queries at the end of 700 keys (6 trips, a
        # diagonal inside a block); several blocks with the diagonal on
        # block boundaries.
        probs = [(128, 128), (200, 300), (100, 700), (384, 384)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return f"Lq={p[0]} Lk={p[1]} trips<={cdiv(p[1], 128)} grid={self.grid(p)}"

    def expected(self, a, p):
        lq, lk = p
        q, k, v = (a[i].astype(np.float64) for i in range(3))
        s = self.scale * (q @ k.T)
        visible = np.arange(lk)[None, :] <= np.arange(lq)[:, None] + (lk - lq)
        return {3: softmax_times_v(np.where(visible, s, -np.inf), v)}


class AttentionTwoStage(AttentionCausal):
    """Causal attention in two loops, as Triton's fused-attention tutorial
    stages it (lower/kernels/attention_two_stage.py): the blocks below the
    diagonal unmasked, then the diagonal block masked, one accumulator
    handed from the first loop to the second. The lowering makes the two
    one loop (docs/cuda-tile-lowering.md, "Loops cuTile split"); kept two
    (fuse-split-loops=false), sm_90a peels both and sm_100a refuses a TMEM
    accumulator two loops share."""
    fixture = "test/cutile/lower/fixtures/attention_two_stage-13.4.tileirbc"
    target = "sm_90a"

    def problems(self, quick=False):
        # Sq = Sk: one block (0 unmasked trips), two, ragged, five.
        probs = [(128, 128), (256, 256), (200, 200), (640, 640)]
        return probs[:3] if quick else probs


class AttentionTutorial(CuTileSpec):
    """Triton's tutorial staging (attention_tutorial.py): fp16, head dim 64,
    128-row Q blocks over 64-key blocks, the diagonal loop written from
    zero; O (fp16) and the base-2 log-sum-exp M per row. N = 128 (no
    unmasked trip), 256 and 512, one and two heads."""
    fixture = "test/cutile/lower/fixtures/attention_tutorial-13.4.tileirbc"
    tolerances = {3: (2e-3, 2e-2), 4: (1e-3, 1e-3)}
    scale = 0.125

    def problems(self, quick=False):
        probs = [(1, 128), (2, 256), (1, 512)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return f"ZH={p[0]} N={p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (p[1] // 128, p[0], 1)

    def arrays(self, rng, p):
        return {i: uniform_f16(rng, (p[0], p[1], 64)) for i in range(3)}

    def output_shapes(self, p):
        return {3: (p[0], p[1], 64), 4: (p[0], p[1])}

    def scalar_values(self, p):
        return {5: self.scale}

    def expected(self, a, p):
        n = p[1]
        q, k, v = (a[i].astype(np.float64) for i in range(3))
        s = np.einsum("zmd,znd->zmn", q, k) * self.scale
        s = np.where(np.tril(np.ones((n, n), dtype=bool))[None], s, -np.inf)
        mx = s.max(-1, keepdims=True)
        e = np.exp(s - mx)
        l = e.sum(-1, keepdims=True)
        return {3: np.einsum("zmn,znd->zmd", e / l, v), 4: (mx + np.log(l))[..., 0] / np.log(2.0)}


class AttentionAlibi(AttentionCausal):
    """Causal attention with ALiBi (lower/kernels/attention_alibi.py): the
    scores plus slope (j - i), positions converted to float; Sq = Sk."""
    fixture = "test/cutile/lower/fixtures/attention_alibi-13.4.tileirbc"
    slope = -0.0625

    def problems(self, quick=False):
        probs = [(128, 128), (200, 200), (256, 256), (640, 640)]
        return probs[:2] if quick else probs

    def scalar_values(self, p):
        return {4: self.scale, 5: self.slope}

    def expected(self, a, p):
        q, k, v = (a[i].astype(np.float64) for i in range(3))
        i, j = np.arange(p[0])[:, None], np.arange(p[1])[None, :]
        s = self.scale * (q @ k.T) + self.slope * (j - i)
        return {3: softmax_times_v(np.where(j <= i, s, -np.inf), v)}


class Attention(AttentionHead):
    """The batched form (test/cutile/kernels/attention.py): Q, K, V, O of H
    x L x D (rank-3 views, tiles of a batch of one), grid (cdiv(S, 128), H).
    `d` and `block` (rows of Q and keys a tile) serve other head dims."""
    fixture = "test/cutile/fixtures/attention-13.4.tileirbc"
    d, block = 64, 128

    def problems(self, quick=False):
        # (H, S, T): trip counts 1, 2, 4; ragged S; several heads
        return [(1, 128, 128), (2, 200, 256), (3, 256, 128 * 4)]

    def describe(self, p):
        return f"H={p[0]} S={p[1]} T={p[2]} trips={cdiv(p[2], self.block)} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[1], self.block), p[0], 1)

    def arrays(self, rng, p):
        h, s, t = p
        return {0: uniform_bf16(rng, (h, s, self.d)), 1: uniform_bf16(rng, (h, t, self.d)),
                2: uniform_bf16(rng, (h, t, self.d))}

    def output_shapes(self, p):
        return {3: (p[0], p[1], self.d)}

    def expected(self, a, p):
        per_head = [AttentionHead.expected(self, {i: a[i][h] for i in range(3)}, None)[3]
                    for h in range(p[0])]
        return {3: (np.stack([o for o, _ in per_head]), np.stack([b for _, b in per_head]))}


class AttentionSoftcapGqa(CuTileSpec):
    """Gemma 2's soft-capped grouped-query attention
    (attention_softcap_gqa.py): O[h] = softmax(cap tanh(scale Q[h] K[g]^T /
    cap)) V[g], g = h // 4, head dim 128, natural-base softmax. Trip counts
    1, 3 and 6; ragged S; 4 and 8 query heads over 1 and 2 KV heads."""
    fixture = "test/cutile/lower/fixtures/attention_softcap_gqa-13.4.tileirbc"
    tolerances = {3: BF16_TOL}
    scale, cap, group, d = 128 ** -0.5, 2.0, 4, 128

    def problems(self, quick=False):
        probs = [(4, 128, 128), (4, 200, 384), (8, 256, 768)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return f"H={p[0]} S={p[1]} T={p[2]} trips={p[2] // 128} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[1], 128), p[0], 1)

    def arrays(self, rng, p):
        h, s, t = p
        kv = h // self.group
        return {0: uniform_bf16(rng, (h, s, self.d)), 1: uniform_bf16(rng, (kv, t, self.d)),
                2: uniform_bf16(rng, (kv, t, self.d))}

    def output_shapes(self, p):
        return {3: (p[0], p[1], self.d)}

    def scalar_values(self, p):
        return {4: self.scale, 5: self.cap}

    def expected(self, a, p):
        per_head = []
        for h in range(p[0]):
            q = a[0][h].astype(np.float64)
            k, v = (a[i][h // self.group].astype(np.float64) for i in (1, 2))
            per_head.append(softmax_times_v(self.cap * np.tanh(self.scale * (q @ k.T) / self.cap), v))
        return {3: (np.stack([o for o, _ in per_head]), np.stack([b for _, b in per_head]))}


class GemmBiasFirst(Matmul):
    """D = relu(A B + bias[n]) at 128 x 256 x 64 tiles, the bias read before
    the K loop (gemm_bias_first.py): trip counts 1, 2, 9; ragged M, N, K."""
    fixture = "test/cutile/lower/fixtures/gemm_bias_first-13.4.tileirbc"
    tolerances = {3: BF16_TOL}

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, n)),
                2: rng.uniform(-2, 2, n).astype(np.float32)}

    def output_shapes(self, p):
        return {3: (p[0], p[1])}

    def expected(self, a, p):
        y = a[0].astype(np.float64) @ a[1].astype(np.float64) + a[2].astype(np.float64)[None, :]
        return {3: np.maximum(y, 0.0)}


class Matmul128(Matmul):
    """The problems of a 128 x 128 tile with K step tk: trip counts 1, 2
    and 9, ragged M, N and K (and `last`, the full run's extra one)."""
    tm, tn, tk = 128, 128, 64

    def problems(self, quick=False):
        probs = [(128, 128, self.tk), (200, 300, 100), (256, 128, self.tk * 9)]
        return probs if quick else probs + [self.last]

    last = (130, 260, 40)


class AttentionBhsd(AttentionHead):
    """The (batch, heads, sequence, dim) form (test/cutile/lower/kernels/
    attention_bhsd.py): rank-4 Q, K, V, O with H = 4, (1, 1, 128, 64) tiles,
    K^T by ct.transpose, grid (cdiv(S, 128), B H, 1)."""
    fixture = "test/cutile/lower/fixtures/attention_bhsd-13.4.tileirbc"
    heads = 4

    def problems(self, quick=False):
        # (B, S, T): trip counts 1, 2, 3; ragged S; two batches
        return [(1, 128, 128), (2, 200, 256), (1, 256, 384)]

    def describe(self, p):
        return f"B={p[0]} H={self.heads} S={p[1]} T={p[2]} trips={p[2] // 128} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[1], 128), p[0] * self.heads, 1)

    def arrays(self, rng, p):
        b, s, t = p
        return {i: uniform_bf16(rng, (b, self.heads, n, 64)) for i, n in [(0, s), (1, t), (2, t)]}

    def output_shapes(self, p):
        return {3: (p[0], self.heads, p[1], 64)}

    def expected(self, a, p):
        heads = [AttentionHead.expected(self, {i: a[i][b, h] for i in range(3)}, None)[3]
                 for b in range(p[0]) for h in range(self.heads)]
        shape = self.output_shapes(p)[3]
        return {3: tuple(np.stack([x[i] for x in heads]).reshape(shape) for i in range(2))}


class AttentionFmha(AttentionHead):
    """Causal attention in cuTile's FMHA sample form (test/cutile/lower/
    kernels/attention_fmha.py): rank-4 arrays, H = 4 query heads over 2 K, V
    heads, D = 128, the mask applied from block mask_start on by a branch
    that cuTile splits the loop at; grid (cdiv(S, 128), B H, 1)."""
    fixture = "test/cutile/lower/fixtures/attention_fmha-13.4.tileirbc"
    heads, group, d = 4, 2, 128
    scale = 0.08838834764831845

    def problems(self, quick=False):
        # (B, S): one block (the diagonal one only); ragged S over two
        # batches (blocks of 1 and 2 trips); three blocks (trips 1 to 3:
        # unmasked blocks before the diagonal); S below a block.
        probs = [(1, 128), (2, 200), (1, 384), (1, 50)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return f"B={p[0]} H={self.heads} S={p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[1], 128), p[0] * self.heads, 1)

    def arrays(self, rng, p):
        b, s = p
        kv = (b, self.heads // self.group, s, self.d)
        return {0: uniform_bf16(rng, (b, self.heads, s, self.d)), 1: uniform_bf16(rng, kv),
                2: uniform_bf16(rng, kv)}

    def output_shapes(self, p):
        return {3: (p[0], self.heads, p[1], self.d)}

    def expected(self, a, p):
        b, s = p
        shape = self.output_shapes(p)[3]
        out, tol = np.zeros(shape), np.zeros(shape)
        visible = np.arange(s)[None, :] <= np.arange(s)[:, None]
        for i in range(b):
            for h in range(self.heads):
                q, k, v = (a[n][i, h // (self.group if n else 1)].astype(np.float64) for n in range(3))
                scores = np.where(visible, self.scale * (q @ k.T), -np.inf)
                out[i, h], tol[i, h] = softmax_times_v(scores, v)
        return {3: (out, tol)}


class AttentionGqaShapes(AttentionHead):
    """Grouped-query attention with the group read from the arrays
    (test/cutile/lower/kernels/attention_gqa_shapes.py): HQ = 6 query heads
    over HKV K/V heads, head h reading K/V head h // (6 // HKV); D = 64,
    keys in blocks of 64 with those past T masked; grid (cdiv(S, 128), B 6, 1).
    HKV varies between problems: the kernel has no constant for it."""
    fixture = "test/cutile/lower/fixtures/attention_gqa_shapes-13.4.tileirbc"
    heads, d = 6, 64

    def problems(self, quick=False):
        # (B, HKV, S, T): groups of 3, one block and one trip; groups of 2,
        # ragged S and T (3 trips, the last one key); multi-head (groups of
        # 1) over two batches; one K/V head for all six, 5 trips.
        probs = [(1, 2, 128, 64), (1, 3, 200, 129), (2, 6, 70, 100), (1, 1, 128, 300)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return f"B={p[0]} HKV={p[1]} S={p[2]} T={p[3]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[2], 128), p[0] * self.heads, 1)

    def arrays(self, rng, p):
        b, hkv, s, t = p
        kv = (b, hkv, t, self.d)
        return {0: uniform_bf16(rng, (b, self.heads, s, self.d)), 1: uniform_bf16(rng, kv),
                2: uniform_bf16(rng, kv)}

    def output_shapes(self, p):
        return {3: (p[0], self.heads, p[2], self.d)}

    def expected(self, a, p):
        b, hkv, s, t = p
        shape = self.output_shapes(p)[3]
        out, tol = np.zeros(shape), np.zeros(shape)
        for i in range(b):
            for h in range(self.heads):
                g = h * hkv // self.heads
                q = a[0][i, h].astype(np.float64)
                k, v = (a[n][i, g].astype(np.float64) for n in (1, 2))
                out[i, h], tol[i, h] = softmax_times_v(self.scale * (q @ k.T), v)
        return {3: (out, tol)}


class AttentionHd256(Attention):
    """Attention at head dim 256 with 64 x 64 tiles (test/cutile/lower/
    kernels/attention_hd256.py): rank-3 (BH, S, 256) arrays, keys past T
    masked; grid (cdiv(S, 64), BH, 1). Compiled with stages=min-buffer,
    the fallback `tilepipe compile` takes where the default stages' rings
    do not fit in SMEM."""
    fixture = "test/cutile/lower/fixtures/attention_hd256-13.4.tileirbc"
    scale = 0.0625
    d, block = 256, 64

    def problems(self, quick=False):
        # (BH, S, T): one block, one trip; ragged S and T (4 blocks, 4
        # trips, the last of 8 keys); two heads, 5 trips; S and T below a
        # tile.
        probs = [(1, 64, 64), (1, 200, 200), (2, 128, 320), (1, 30, 17)]
        return probs[:2] if quick else probs


class AttentionLastBlock(AttentionHead):
    """Attention whose keys end inside the last block, masked there by an
    `if j == n - 1:` cuTile keeps in the loop (test/cutile/lower/kernels/
    attention_last_block.py): any Lk, D = 64, natural exp."""
    fixture = "test/cutile/lower/fixtures/attention_last_block-13.4.tileirbc"

    def problems(self, quick=False):
        # (Lq, Lk): keys filling their blocks; ragged keys in one block, in
        # the third, in the fifth; 20 keys (the only block the last).
        probs = [(128, 128), (200, 300), (130, 333), (256, 600), (128, 20)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return f"Lq={p[0]} Lk={p[1]} trips={cdiv(p[1], 128)} grid={self.grid(p)}"


class LinearGelu(Matmul128):
    """Y = gelu(X W^T + b) (test/cutile/lower/kernels/linear_gelu.py): W is
    N x K, nn.Linear's layout, transposed with ct.transpose after its load;
    128 x 128 tiles, K step 64, GELU's tanh form."""
    fixture = "test/cutile/lower/fixtures/linear_gelu-13.4.tileirbc"
    tolerances = {3: BF16_TOL}

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (n, k)),
                2: uniform_bf16(rng, (n,))}

    def output_shapes(self, p):
        return {3: (p[0], p[1])}

    def expected(self, a, p):
        x, w, b = (a[i].astype(np.float64) for i in range(3))
        h = x @ w.T + b[None, :]
        return {3: 0.5 * h * (1 + np.tanh(0.7978845608028654 * (h + 0.044715 * h ** 3)))}


class MatmulGeluPow(Matmul128):
    """C = gelu(A B) with the cube written `h ** 3` (test/cutile/lower/
    kernels/matmul_gelu_pow.py): tile IR's fpowi, lowered as multiplies;
    B K x N, 128 x 128 tiles, K step 64."""
    fixture = "test/cutile/lower/fixtures/matmul_gelu_pow-13.4.tileirbc"
    tolerances = {2: BF16_TOL}

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, n))}

    def expected(self, a, p):
        h = a[0].astype(np.float64) @ a[1].astype(np.float64)
        return {2: 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))}


class VectorAdd(CuTileSpec):
    """c = a + b (test/cutile/lower/kernels/vector_add.py, cuTile's sample):
    1-D tiles of 1024 f32, N a whole tile, ragged, one block, five
    elements; the sum is exact in f32, so the tolerance is none."""
    fixture = "test/cutile/lower/fixtures/vector_add-13.4.tileirbc"
    tolerances = {2: (0.0, 0.0)}

    def problems(self, quick=False):
        probs = [(1024,), (3000,), (5,)]
        return probs if quick else probs + [(10000,)]

    def describe(self, p):
        return f"N={p[0]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 1024), 1, 1)

    def arrays(self, rng, p):
        return {0: rng.standard_normal(p).astype(np.float32), 1: rng.standard_normal(p).astype(np.float32)}

    def output_shapes(self, p):
        return {2: p}

    def expected(self, a, p):
        return {2: (a[0] + a[1]).astype(np.float64)}


class OneInput(CuTileSpec):
    """One f32 input (parameter 0) of the problem's shape, standard normal;
    the grid walks `block` elements along the problem's dimensions `walks`.
    The problems are `probs`, and `more` on a full run."""
    block, walks, names = (1024,), (0,), ("N",)
    probs, more = (), ()

    def problems(self, quick=False):
        return list(self.probs) + ([] if quick else list(self.more))

    def describe(self, p):
        return " ".join(f"{n}={v}" for n, v in zip(self.names, p)) + f" grid={self.grid(p)}"

    def grid(self, p):
        g = [cdiv(p[d], n) for d, n in zip(self.walks, self.block)]
        return tuple(g + [1] * (3 - len(g)))

    def arrays(self, rng, p):
        return {0: rng.standard_normal(p).astype(np.float32)}



class VectorAddGather(VectorAdd):
    """VectorAdd in the sample's gather form (vector_add_gather.py): the
    same problems; a box gathered and scattered by TMA."""
    fixture = "test/cutile/lower/fixtures/vector_add_gather-13.4.tileirbc"


class VectorAddGather2d(VectorAdd):
    """c = a + b over (8, 128) tiles gathered by row and column positions
    (vector_add_gather_2d.py): whole tiles, ragged both ways, one block."""
    fixture = "test/cutile/lower/fixtures/vector_add_gather_2d-13.4.tileirbc"

    def problems(self, quick=False):
        probs = [(8, 128), (20, 300), (3, 100)]
        return probs if quick else probs + [(64, 1024)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 8), cdiv(p[1], 128), 1)


class GatherGemm(Matmul128):
    """C = A B, its tiles gathered by positions (gather_gemm.py)."""
    fixture = "test/cutile/lower/fixtures/gather_gemm-13.4.tileirbc"


class MaskedLength(CuTileSpec):
    """Arrays of L f32 (parameters 0 .. arrays_in - 1, standard normal) and
    a length n <= L a mask keeps (parameter `length`), problems (L, n); the
    grid walks `block` elements; the output is parameter `out`, of L."""
    block, arrays_in, length, out = 1024, 1, 2, 1
    probs, more = (), ()

    def problems(self, quick=False):
        return list(self.probs) + ([] if quick else list(self.more))

    def describe(self, p):
        return f"len={p[0]} n={p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], self.block), 1, 1)

    def arrays(self, rng, p):
        return {k: rng.standard_normal((p[0],)).astype(np.float32) for k in range(self.arrays_in)}

    def scalar_values(self, p):
        return {self.length: p[1]}

    def output_shapes(self, p):
        return {self.out: (p[0],)}


class GatherMasked(MaskedLength):
    """y = 2 x + 1 with x gathered under `offs < n` (gather_masked.py):
    n the length, n inside the last block, n inside the first block of
    several. One fma: within an f32 rounding."""
    fixture = "test/cutile/lower/fixtures/gather_masked-13.4.tileirbc"
    tolerances = {1: (1e-6, 1e-6)}
    block = 512
    probs, more = [(1024, 1024), (1024, 700), (600, 5)], [(3000, 2999)]

    def expected(self, a, p):
        x = a[0].astype(np.float64).copy()
        x[p[1]:] = 0.0
        return {1: x * 2.0 + 1.0}

class GatherRowsum(OneInput):
    """Each row's sum, gathered 256 columns a trip (gather_rowsum.py): trip
    counts 1, 4 (ragged) and 1 (a partial piece)."""
    fixture = "test/cutile/lower/fixtures/gather_rowsum-13.4.tileirbc"
    tolerances = {1: (1e-5, 1e-5)}
    block, names = (1,), ("M", "N")
    probs, more = [(4, 256), (7, 1000), (3, 100)], [(2, 2048)]

    def scalar_values(self, p):
        return {2: p[1]}

    def output_shapes(self, p):
        return {1: (p[0],)}

    def expected(self, a, p):
        return {1: a[0].astype(np.float64).sum(axis=1)}


class BlockSums(OneInput):
    """Each 1024-element block's sum of squares and largest magnitude
    (block_sums.py): one block, ragged, short."""
    fixture = "test/cutile/lower/fixtures/block_sums-13.4.tileirbc"
    tolerances = {1: (1e-5, 1e-5), 2: (0.0, 0.0)}
    probs = [(1024,), (5000,), (100,)]

    def output_shapes(self, p):
        return {1: (cdiv(p[0], 1024),), 2: (cdiv(p[0], 1024),)}

    def expected(self, a, p):
        x = np.zeros(cdiv(p[0], 1024) * 1024)
        x[:p[0]] = a[0]
        x = x.reshape(-1, 1024)
        return {1: (x * x).sum(axis=1), 2: np.abs(x).max(axis=1)}


class SoftmaxGather(SoftmaxRowMasked):
    """Triton's softmax with gathers (softmax_gather.py): rows of 781 and of
    5 (most of the row the -inf padding), then a full row of 1024;
    SoftmaxPadded's inputs, all below zero, so a zero read past the end
    would be the maximum."""
    fixture = "test/cutile/lower/fixtures/softmax_gather-13.4.tileirbc"
    probs = [(3, 781), (2, 5), (4, 1024)]


class Stencil(OneInput):
    """y[i] = x[i-1] - 2 x[i] + x[i+1], zero past the ends (stencil.py): one
    block, ragged, three elements, several blocks. Two roundings."""
    fixture = "test/cutile/lower/fixtures/stencil-13.4.tileirbc"
    tolerances = {1: (1e-6, 1e-6)}
    block, probs, more = (512,), [(512,), (1000,), (3,)], [(5000,)]

    def output_shapes(self, p):
        return {1: p}

    def expected(self, a, p):
        x = np.concatenate([[0.0], a[0].astype(np.float64), [0.0]])
        return {1: x[:-2] - 2.0 * x[1:-1] + x[2:]}


class VectorAddMasked(MaskedLength):
    """out = x + y below n, untouched (zero) from n on
    (vector_add_masked.py): n the length, n inside the last block, n inside
    the first of several."""
    fixture = "test/cutile/lower/fixtures/vector_add_masked-13.4.tileirbc"
    tolerances = {2: (0.0, 0.0)}
    arrays_in, length, out = 2, 3, 2
    probs, more = [(1024, 1024), (3000, 2500), (700, 3)], [(3000, 3000)]

    def expected(self, a, p):
        r = (a[0] + a[1]).astype(np.float64)
        r[p[1]:] = 0.0
        return {2: r}

class GatherStrided(CuTileSpec):
    """y[i] = x[2 i], zero past x's end (gather_strided.py): y of one block,
    several, and longer than half of x."""
    fixture = "test/cutile/lower/fixtures/gather_strided-13.4.tileirbc"
    tolerances = {1: (0.0, 0.0)}

    def problems(self, quick=False):
        return [(512, 256), (2000, 1000), (300, 256)]

    def describe(self, p):
        return f"len(x)={p[0]} len(y)={p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[1], 256), 1, 1)

    def arrays(self, rng, p):
        return {0: rng.standard_normal((p[0],)).astype(np.float32)}

    def output_shapes(self, p):
        return {1: (p[1],)}

    def expected(self, a, p):
        x = np.zeros(2 * p[1] + 2)
        x[:p[0]] = a[0]
        return {1: x[0:2 * p[1]:2].copy()}


class Embedding(CuTileSpec):
    """out[i, :] = table[ids[i], :] (embedding.py): ids loaded by a view,
    read by the threads as the gather's row index. Ragged ids and rows
    narrower than the tile; an id past the table (and a negative one) reads
    zeros, as the gather's bounds mask says. A copy."""
    fixture = "test/cutile/lower/fixtures/embedding-13.4.tileirbc"
    tolerances = {2: (0.0, 0.0)}

    def problems(self, quick=False):
        # (ids, table rows, row width)
        probs = [(128, 50, 64), (300, 1000, 64), (5, 7, 40)]
        return probs if quick else probs + [(1000, 3, 64)]

    def describe(self, p):
        return f"ids={p[0]} rows={p[1]} D={p[2]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 128), 1, 1)

    def arrays(self, rng, p):
        ids = rng.integers(0, p[1], size=p[0])
        ids[::7] = p[1]  # past the table
        ids[3::11] = -1
        table = rng.standard_normal((p[1], p[2])).astype(np.float32)
        return {0: ids.astype(np.float32), 1: table}

    def output_shapes(self, p):
        return {2: (p[0], p[2])}

    def expected(self, a, p):
        ids = a[0].astype(np.int64)
        inside = (ids >= 0) & (ids < p[1])
        out = np.zeros((p[0], p[2]))
        out[inside] = a[1][ids[inside]]
        return {2: out}


class IntAffine(CuTileSpec):
    """y = 3 x + i % 5 on i32 (int_affine.py): one block, ragged, shorter
    than a block. Exact."""
    fixture = "test/cutile/lower/fixtures/int_affine-13.4.tileirbc"
    tolerances = {1: (0.0, 0.0)}

    def problems(self, quick=False):
        return [(256,), (1000,), (3,)]

    def describe(self, p):
        return f"L={p[0]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 256), 1, 1)

    def arrays(self, rng, p):
        return {0: rng.integers(-10000, 10000, p[0]).astype(np.float32)}

    def output_shapes(self, p):
        return {1: p}

    def expected(self, a, p):
        return {1: 3.0 * a[0].astype(np.float64) + np.arange(p[0]) % 256 % 5}


class GemmGatherB(Matmul128):
    """C = A B[perm] (gemm_gather_b.py): B's rows gathered by indices read
    from memory in each K step, written to SMEM by the threads for the MMA;
    perm a permutation of K's rows (past its end, zeros)."""
    fixture = "test/cutile/lower/fixtures/gemm_gather_b-13.4.tileirbc"
    tolerances = {3: BF16_TOL}

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, n)),
                2: rng.permutation(k).astype(np.float32)}

    def output_shapes(self, p):
        return {3: (p[0], p[1])}

    def expected(self, a, p):
        b = a[1].astype(np.float64)[a[2].astype(np.int64)]
        return {3: a[0].astype(np.float64) @ b}


class GemmScaledB(Matmul128):
    """C = A (B / 2) (gemm_scaled_b.py): each K step's B tile read by the
    threads, halved in f32 and written back to SMEM as bf16 for the MMA,
    its rows split over two threads; trip counts 1, 2, 9 and a ragged K."""
    fixture = "test/cutile/lower/fixtures/gemm_scaled_b-13.4.tileirbc"
    tolerances = {2: BF16_TOL}

    def expected(self, a, p):
        return {2: a[0].astype(np.float64) @ (0.5 * a[1].astype(np.float64))}


class GemmScaledA(GemmScaledB):
    """C = (A / 2) B (gemm_scaled_a.py): the A tile halved by the threads."""
    fixture = "test/cutile/lower/fixtures/gemm_scaled_a-13.4.tileirbc"


class AttentionBwdDkDv(CuTileSpec):
    """FlashAttention's dK, dV (attention_bwd_dkdv.py) against float64: lse
    and delta from a float64 forward of the same Q, K, V, dO; S = 64 (one
    query block), 128 (two), 200 (ragged: keys and queries past S are
    zeros), 512 (eight)."""
    fixture = "test/cutile/lower/fixtures/attention_bwd_dkdv-13.4.tileirbc"
    tolerances = {6: (2e-2, 2e-2), 7: (2e-2, 2e-2)}
    scale = 0.125
    key_block = 128

    def problems(self, quick=False):
        probs = [(64,), (128,), (200,)]
        return probs if quick else probs + [(512,)]

    def describe(self, p):
        return f"S={p[0]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], self.key_block), 1, 1)

    def arrays(self, rng, p):
        q, k, v, do = (uniform_bf16(rng, (p[0], 64)) for _ in range(4))
        x = self.scale * q.astype(np.float64) @ k.astype(np.float64).T
        m = x.max(axis=1, keepdims=True)
        lse = (m + np.log(np.exp(x - m).sum(axis=1, keepdims=True)))[:, 0]
        o = np.exp(x - lse[:, None]) @ v.astype(np.float64)
        delta = (o * do.astype(np.float64)).sum(axis=1)
        return {0: q, 1: k, 2: v, 3: do, 4: lse.astype(np.float32), 5: delta.astype(np.float32)}

    def scalar_values(self, p):
        return {8: self.scale}

    def output_shapes(self, p):
        return {6: (p[0], 64), 7: (p[0], 64)}

    def grads(self, a):
        q, k, v, do = (a[i].astype(np.float64) for i in range(4))
        lse, delta = a[4].astype(np.float64), a[5].astype(np.float64)
        p = np.exp(self.scale * q @ k.T - lse[:, None])
        ds = p * (do @ v.T - delta[:, None])
        return self.scale * ds @ k, self.scale * ds.T @ q, p.T @ do

    def expected(self, a, p):
        _, dk, dv = self.grads(a)
        return {6: dk, 7: dv}


class AttentionBwdDq(AttentionBwdDkDv):
    """FlashAttention's dQ (attention_bwd_dq.py): 128-query blocks, lse and
    delta read once before the loop over 64-key blocks."""
    fixture = "test/cutile/lower/fixtures/attention_bwd_dq-13.4.tileirbc"
    tolerances = {6: (2e-2, 2e-2)}

    def scalar_values(self, p):
        return {7: self.scale}

    def output_shapes(self, p):
        return {6: (p[0], 64)}

    def expected(self, a, p):
        return {6: self.grads(a)[0]}


class SwigluGemm(Matmul128):
    """Y = silu(X Wg) * (X Wu) (swiglu_gemm.py): two accumulators."""
    fixture = "test/cutile/lower/fixtures/swiglu_gemm-13.4.tileirbc"
    tolerances = {3: BF16_TOL}

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, n)),
                2: uniform_bf16(rng, (k, n))}

    def output_shapes(self, p):
        return {3: (p[0], p[1])}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        gate, up = x @ a[1].astype(np.float64), x @ a[2].astype(np.float64)
        return {3: gate / (1 + np.exp(-gate)) * up}


class MatmulStoreT(GemmScaledB):
    """C^T = (A B)^T (matmul_store_t.py): the accumulator transposed through
    SMEM after the loop."""
    fixture = "test/cutile/lower/fixtures/matmul_store_t-13.4.tileirbc"

    def output_shapes(self, p):
        return {2: (p[1], p[0])}

    def expected(self, a, p):
        return {2: (a[0].astype(np.float64) @ a[1].astype(np.float64)).T}


class SplitKGemm(Matmul128):
    """C += A B with K split four ways along the grid's third dimension,
    each CTA adding its partial product with `ct.atomic_add`
    (split_k_gemm.py); C starts random. K tiles 1 (three CTAs add
    nothing), 4 (one each), 9 (3, 3, 3, 0); ragged M, N, K."""
    fixture = "test/cutile/lower/fixtures/split_k_gemm-13.4.tileirbc"
    tolerances = {2: (1e-3, 1e-5)}

    def problems(self, quick=False):
        probs = [(128, 128, 64), (200, 300, 256), (128, 256, 576)]
        return probs if quick else probs + [(130, 100, 1000)]

    def grid(self, p):
        return (cdiv(p[0], self.tm), cdiv(p[1], self.tn), 4)

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, n)),
                2: rng.standard_normal((m, n)).astype(np.float32)}

    def expected(self, a, p):
        return {2: a[2].astype(np.float64) + a[0].astype(np.float64) @ a[1].astype(np.float64)}


class Histogram(CuTileSpec):
    """hist[v] += 1 for each value of x with `ct.atomic_add` on i32
    (histogram.py): values outside the bins (-2, -1, bins, bins + 1) not
    counted, many values a bin (collisions inside a thread and across
    threads and CTAs), the initial counts kept. Exact."""
    fixture = "test/cutile/lower/fixtures/histogram-13.4.tileirbc"
    tolerances = {1: (0.0, 0.0)}

    def problems(self, quick=False):
        return [(1024, 16), (5000, 100), (3, 7)]

    def describe(self, p):
        return f"L={p[0]} bins={p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 1024), 1, 1)

    def arrays(self, rng, p):
        x = rng.integers(-2, p[1] + 2, p[0])
        return {0: x.astype(np.float32), 1: rng.integers(0, 5, p[1]).astype(np.float32)}

    def output_shapes(self, p):
        return {1: (p[1],)}

    def expected(self, a, p):
        x = a[0].astype(np.int64)
        x = x[(x >= 0) & (x < p[1])]
        return {1: a[1].astype(np.float64) + np.bincount(x, minlength=p[1])}


class MoeGemm(CuTileSpec):
    """Y[r] = weight[r] X[r // replicas] W[e]^T for each routed row r a
    block of 128 slots of `order` lists, e the block's expert (moe_gemm.py,
    cuTile's MoE sample's form). Routing as the sample's host code makes it:
    each token picks `replicas` distinct experts, rows r = token * replicas
    + j sorted by expert, each expert's list padded to 128 with R (a row
    past Y). Problems (tokens, K, N, experts, replicas): trip counts 1, 2
    and 9, ragged K and N, a block of padding only past an expert's rows."""
    fixture = "test/cutile/lower/fixtures/moe_gemm-13.4.tileirbc"
    tolerances = {2: BF16_TOL}

    def problems(self, quick=False):
        probs = [(48, 64, 128, 4, 2), (37, 100, 200, 3, 2), (300, 576, 256, 2, 1)]
        return probs if quick else probs + [(130, 128, 128, 8, 4)]

    def routing(self, p):
        tokens, _, _, experts, replicas = p
        rng = np.random.default_rng(sum(p))
        choice = np.stack([rng.permutation(experts)[:replicas] for _ in range(tokens)])
        flat = choice.reshape(-1)
        rows = np.argsort(flat, kind="stable")
        order, expert = [], []
        for e in range(experts):
            mine = list(rows[flat[rows] == e])
            blocks = max(1, cdiv(len(mine), 128)) if e == 0 else cdiv(len(mine), 128)
            order += mine + [tokens * replicas] * (blocks * 128 - len(mine))
            expert += [e] * blocks
        return np.array(order), np.array(expert)

    def describe(self, p):
        return (f"T={p[0]} K={p[1]} N={p[2]} experts={p[3]} replicas={p[4]} "
                f"trips={cdiv(p[1], 64)} grid={self.grid(p)}")

    def grid(self, p):
        return (len(self.routing(p)[1]), cdiv(p[2], 128), 1)

    def arrays(self, rng, p):
        tokens, k, n, experts, replicas = p
        order, expert = self.routing(p)
        return {0: uniform_bf16(rng, (tokens, k)), 1: uniform_bf16(rng, (experts, n, k)),
                3: rng.uniform(0.0, 1.0, tokens * replicas).astype(np.float32),
                4: order.astype(np.float32), 5: expert.astype(np.float32)}

    def output_shapes(self, p):
        return {2: (p[0] * p[4], p[2])}

    def scalar_values(self, p):
        return {6: p[4]}

    def expected(self, a, p):
        tokens, _, n, _, replicas = p
        y = np.zeros((tokens * replicas, n))
        order, expert = a[4].astype(np.int64), a[5].astype(np.int64)
        x, w = a[0].astype(np.float64), a[1].astype(np.float64)
        for i, r in enumerate(order):
            if r < tokens * replicas:
                y[r] = a[3][r] * (x[r // replicas] @ w[expert[i // 128]].T)
        return {2: y}


class TransposeGather(OneInput):
    """Y = X^T through a gather in the transposed order
    (transpose_gather.py): one tile, ragged, two tiles of rows. A copy."""
    fixture = "test/cutile/lower/fixtures/transpose_gather-13.4.tileirbc"
    tolerances = {1: (0.0, 0.0)}
    block, walks, names = (128, 64), (1, 0), ("M", "N")
    probs = [(64, 128), (100, 300), (64, 256)]

    def output_shapes(self, p):
        return {1: (p[1], p[0])}

    def expected(self, a, p):
        return {1: a[0].T.astype(np.float64)}


class RowDiff(OneInput):
    """y[r, c] = x[r, c + 1] - x[r, c], zero past a row's end (row_diff.py):
    one tile, rows of 256 with no padding between them (a read past the end
    lands on the next row), ragged both ways."""
    fixture = "test/cutile/lower/fixtures/row_diff-13.4.tileirbc"
    tolerances = {1: (1e-6, 1e-6)}
    block, walks, names = (8, 128), (0, 1), ("M", "N")
    probs = [(8, 128), (20, 256), (13, 100)]

    def output_shapes(self, p):
        return {1: p}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        nxt = np.zeros_like(x)
        nxt[:, :-1] = x[:, 1:]
        return {1: nxt - x}


class Transpose(CuTileSpec):
    """Y = X^T (test/cutile/lower/kernels/transpose.py, cuTile's sample):
    128 x 128 f16 tiles; one tile, ragged both ways, several blocks. A copy:
    exact."""
    fixture = "test/cutile/lower/fixtures/transpose-13.4.tileirbc"
    tolerances = {1: (0.0, 0.0)}
    tile = 128

    def problems(self, quick=False):
        probs = [(128, 128), (200, 130), (256, 384)]
        return probs if quick else probs + [(1000, 500)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], self.tile), cdiv(p[1], self.tile), 1)

    def arrays(self, rng, p):
        return {0: uniform_f16(rng, p)}

    def output_shapes(self, p):
        return {1: (p[1], p[0])}

    def expected(self, a, p):
        return {1: a[0].T.astype(np.float64)}


class TransposeF32(Transpose):
    """Y = s X^T (transpose_f32.py): 32 x 32 f32 tiles, rows over 4 lanes;
    s = 0.5, exact."""
    fixture = "test/cutile/lower/fixtures/transpose_f32-13.4.tileirbc"
    tile = 32

    def problems(self, quick=False):
        probs = [(32, 32), (50, 70), (96, 64)]
        return probs if quick else probs + [(1000, 500)]

    def scalar_values(self, p):
        return {2: 0.5}

    def arrays(self, rng, p):
        return {0: rng.standard_normal(p).astype(np.float32)}

    def expected(self, a, p):
        return {1: 0.5 * a[0].T.astype(np.float64)}


class LayerNormStats(RowBlockSpec):
    """LayerNorm storing each row's mean and reciprocal deviation (test/
    cutile/lower/kernels/layernorm_stats.py, cuTile's sample): one row a
    block in pieces of 1024 (1, 2 and 3 pieces, ragged); x around -2.3 as
    the sample draws it. Y is bf16; Mean and Rstd f32 (sums of up to 3000
    terms in f32: 1e-5 relative)."""
    fixture = "test/cutile/lower/fixtures/layernorm_stats-13.4.tileirbc"
    tolerances = {3: (2e-2, 2.0 ** -7), 4: (1e-5, 1e-5), 5: (1e-5, 1e-4)}
    probs = [(5, 1000), (2, 3000), (4, 1024), (3, 2048)]
    eps = 1e-5

    def scalar_values(self, p):
        return {6: self.eps}

    def arrays(self, rng, p):
        return {0: bf16((-2.3 + 0.5 * rng.standard_normal(p)).astype(np.float32)),
                1: bf16(rng.standard_normal(p[1]).astype(np.float32)),
                2: bf16(rng.standard_normal(p[1]).astype(np.float32))}

    def output_shapes(self, p):
        return {3: p, 4: (p[0],), 5: (p[0],)}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        mu = x.mean(axis=1, keepdims=True)
        rstd = 1 / np.sqrt(((x - mu) ** 2).mean(axis=1, keepdims=True) + self.eps)
        y = (x - mu) * rstd * a[1].astype(np.float64) + a[2].astype(np.float64)
        return {3: y, 4: mu[:, 0], 5: rstd[:, 0]}


class LayerNormGathers(RowBlockSpec):
    """Triton's fused LayerNorm forward with masked gathers (layernorm_gathers.py):
    one row a block in 512-column chunks (1, 2, 3 and 4 of them, ragged, a
    row of 100). X f16 around 1.5, W and B f32; Y f16 (one rounding), Mean
    and Rstd f32 (sums of up to 2048 terms)."""
    fixture = "test/cutile/lower/fixtures/layernorm_gathers-13.4.tileirbc"
    tolerances = {1: (2e-3, 2.0 ** -10), 4: (1e-5, 1e-5), 5: (1e-5, 1e-4)}
    probs = [(5, 1000), (3, 512), (2, 1537), (4, 100), (1, 2048)]
    eps = 1e-5

    def scalar_values(self, p):
        return {6: self.eps}

    def arrays(self, rng, p):
        x = (1.5 + 0.7 * rng.standard_normal(p)).astype(np.float16).astype(np.float32)
        return {0: x, 2: rng.uniform(0.5, 1.5, p[1]).astype(np.float32),
                3: rng.uniform(-1.0, 1.0, p[1]).astype(np.float32)}

    def output_shapes(self, p):
        return {1: p, 4: (p[0],), 5: (p[0],)}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        mean = x.mean(axis=1)
        centred = x - mean[:, None]
        rstd = 1 / np.sqrt((centred * centred).mean(axis=1) + self.eps)
        y = centred * rstd[:, None] * a[2].astype(np.float64) + a[3].astype(np.float64)
        return {1: y, 4: mean, 5: rstd}


class Bmm3dTiles(CuTileSpec):
    """Batched GEMM with 3-D tiles straight into ct.mma (test/cutile/lower/
    kernels/bmm_3d_tiles.py): Y[b] = relu(X[b] W[b]), bf16, (1, 128, 64) x
    (1, 64, 128) tiles, grid (cdiv(M, 128), cdiv(N, 128), Bt)."""
    fixture = "test/cutile/lower/fixtures/bmm_3d_tiles-13.4.tileirbc"
    tolerances = {2: BF16_TOL}

    def problems(self, quick=False):
        # (Bt, M, N, K): one tile and one K step; three batches of ragged M,
        # N and K (2 K steps, the last of 36); two batches, 7 K steps.
        probs = [(1, 128, 128, 64), (3, 200, 130, 100), (2, 256, 256, 448)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return f"Bt={p[0]} M={p[1]} N={p[2]} K={p[3]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[1], 128), cdiv(p[2], 128), p[0])

    def arrays(self, rng, p):
        b, m, n, k = p
        return {0: uniform_bf16(rng, (b, m, k)), 1: uniform_bf16(rng, (b, k, n))}

    def output_shapes(self, p):
        return {2: (p[0], p[1], p[2])}

    def expected(self, a, p):
        return {2: np.maximum(np.matmul(a[0].astype(np.float64), a[1].astype(np.float64)), 0.0)}


class CrossEntropyRows(CuTileSpec):
    """Softmax cross-entropy per row (test/cutile/lower/kernels/
    cross_entropy_rows.py): loss[r] = logsumexp(x[r]) - x[r, target[r]], 0
    where target[r] < 0; 32-row tiles (rows split over 4 lanes), bf16 logits
    in 256-column chunks, the NEG_INF padding past V."""
    fixture = "test/cutile/lower/fixtures/cross_entropy_rows-13.4.tileirbc"
    tolerances = {2: (1e-4, 1e-5)}

    def problems(self, quick=False):
        # (M, V): one block and one chunk; ragged rows and a last chunk of
        # 232 columns; three blocks of 6 chunks, the last row block short.
        probs = [(32, 256), (50, 1000), (70, 1300)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return f"M={p[0]} V={p[1]} trips={cdiv(p[1], 256)} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 32), 1, 1)

    def arrays(self, rng, p):
        m, v = p
        target = rng.integers(0, v, size=m)
        target[0], target[-1] = 0, v - 1  # the first column, the last one
        target[2::5] = -1  # ignored rows
        return {0: bf16(rng.uniform(-4.0, 4.0, (m, v)).astype(np.float32)),
                1: target.astype(np.float32)}

    def output_shapes(self, p):
        return {2: (p[0],)}

    def expected(self, a, p):
        x, target = a[0].astype(np.float64), a[1].astype(np.int64)
        top = x.max(axis=1)
        lse = top + np.log(np.exp(x - top[:, None]).sum(axis=1))
        picked = x[np.arange(x.shape[0]), np.maximum(target, 0)]
        return {2: np.where(target >= 0, lse - picked, 0.0)}


class RowRms(RowBlockSpec):
    """Each row's root mean square and largest magnitude (row_rms.py): `ct.sum`
    and `ct.max` with no axis of (1, 256) accumulators; rows of 1, 2 and 5
    tiles, ragged, and a row shorter than a tile."""
    fixture = "test/cutile/lower/fixtures/row_rms-13.4.tileirbc"
    tolerances = {1: (1e-5, 1e-5), 2: (0.0, 0.0)}
    probs = [(3, 700), (2, 256), (4, 1280), (1, 100)]

    def arrays(self, rng, p):
        return {0: rng.standard_normal(p).astype(np.float32)}

    def output_shapes(self, p):
        return {1: (p[0],), 2: (p[0],)}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        return {1: np.sqrt((x * x).mean(axis=1)), 2: np.abs(x).max(axis=1)}


class RowStats(RowBlockSpec):
    """Each row's maximum and sum of squares, one element each (row_stats.py):
    rows of 1024 and of 700 (the zeros past N count: inputs are negative,
    so the maximum is 0 there)."""
    fixture = "test/cutile/lower/fixtures/row_stats-13.4.tileirbc"
    tolerances = {1: (0.0, 0.0), 2: (1e-5, 1e-5)}
    probs = [(5, 700), (3, 1024), (1, 1024)]

    def arrays(self, rng, p):
        return {0: -rng.uniform(0.5, 3, p).astype(np.float32)}

    def output_shapes(self, p):
        return {1: (p[0],), 2: (p[0],)}

    def expected(self, a, p):
        x = np.zeros((p[0], 1024))
        x[:, :p[1]] = a[0]
        return {1: x.max(axis=1), 2: (x * x).sum(axis=1)}


class ChunkMaxima(RowBlockSpec):
    """Each row's maximum per chunk of 256 and its sum (chunk_maxima.py):
    1, 3 (ragged: a 3-column CM, its rows padded to 4) and 4 chunks; the
    sum is bf16."""
    fixture = "test/cutile/lower/fixtures/chunk_maxima-13.4.tileirbc"
    tolerances = {1: (0.0, 0.0), 2: BF16_TOL}
    probs = [(5, 700), (3, 1024), (2, 256)]

    def arrays(self, rng, p):
        return {0: -rng.uniform(0.5, 3, p).astype(np.float32)}

    def output_shapes(self, p):
        return {1: (p[0], cdiv(p[1], 256)), 2: (p[0],)}

    def expected(self, a, p):
        m, n = p
        x = np.zeros((m, cdiv(n, 256) * 256))
        x[:, :n] = a[0]
        return {1: x.reshape(m, -1, 256).max(axis=2), 2: x.sum(axis=1)}


class ColumnSums(CuTileSpec):
    """S[j] = sum_i X[i, j] over the first 128 rows (test/cutile/lower/
    kernels/column_sums.py): a reduction down the columns, the loaded tile
    read transposed. M below, at and above 128; N ragged."""
    fixture = "test/cutile/lower/fixtures/column_sums-13.4.tileirbc"
    tolerances = {1: F32_TOL}

    def problems(self, quick=False):
        return [(128, 128), (100, 300), (200, 130)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[1], 128), 1, 1)

    def arrays(self, rng, p):
        return {0: rng.uniform(-1, 1, p).astype(np.float32)}

    def output_shapes(self, p):
        return {1: (p[1],)}

    def expected(self, a, p):
        return {1: a[0][:128].astype(np.float64).sum(axis=0)}


class ColumnNorms(ColumnSums):
    """S[j] = sum_i X[i, j]^2 over the first 128 rows (column_norms.py): a
    reduction down the columns of X * X, in registers, which the threads
    write to SMEM and read back transposed."""
    fixture = "test/cutile/lower/fixtures/column_norms-13.4.tileirbc"

    def expected(self, a, p):
        x = a[0][:128].astype(np.float64)
        return {1: (x * x).sum(axis=0)}


class ColumnMeans(ColumnSums):
    """out[j] = sum_i X[i, j]^2 / M (column_means.py): a column sum of a
    register tile in every iteration, 64-row steps; M below one step, ragged
    and 16 steps, N ragged."""
    fixture = "test/cutile/lower/fixtures/column_means-13.4.tileirbc"

    def problems(self, quick=False):
        return [(40, 128), (300, 200), (1024, 128)]

    def scalar_values(self, p):
        return {2: p[0]}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        return {1: (x * x).sum(axis=0) / p[0]}


class LayerNormRows16(CuTileSpec):
    """LayerNorm of 16 rows a block storing each row's mean and rstd
    (layernorm_rows16.py): M = 16, ragged 100 and 5."""
    fixture = "test/cutile/lower/fixtures/layernorm_rows16-13.4.tileirbc"
    tolerances = {3: BF16_TOL, 4: (1e-5, 1e-5), 5: (1e-4, 1e-4)}
    eps = 1e-5

    def problems(self, quick=False):
        return [(16,), (100,), (5,)]

    def describe(self, p):
        return f"M={p[0]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 16), 1, 1)

    def arrays(self, rng, p):
        x = (rng.standard_normal((p[0], 1024)) * 2 + 0.5).astype(np.float32)
        return {0: bf16(x), 1: uniform_bf16(rng, (1024,)), 2: uniform_bf16(rng, (1024,))}

    def scalar_values(self, p):
        return {6: self.eps}

    def output_shapes(self, p):
        return {3: (p[0], 1024), 4: (p[0],), 5: (p[0],)}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        mean = x.mean(axis=1)
        xc = x - mean[:, None]
        rstd = 1 / np.sqrt((xc * xc).mean(axis=1) + np.float64(np.float32(self.eps)))
        return {3: xc * rstd[:, None] * a[1][None, :] + a[2][None, :], 4: mean, 5: rstd}


class LayerNormBwdDx(CuTileSpec):
    """LayerNorm's input gradient, 8 rows a block reading each row's mean
    and rstd back (layernorm_bwd_dx.py): M = 8, ragged 100 and 5."""
    fixture = "test/cutile/lower/fixtures/layernorm_bwd_dx-13.4.tileirbc"
    tolerances = {5: BF16_TOL}

    def problems(self, quick=False):
        return [(8,), (100,), (5,)]

    def describe(self, p):
        return f"M={p[0]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 8), 1, 1)

    def arrays(self, rng, p):
        x = bf16((rng.standard_normal((p[0], 512)) * 2 + 0.5).astype(np.float32))
        xd = x.astype(np.float64)
        mean = xd.mean(axis=1)
        rstd = 1 / np.sqrt(xd.var(axis=1) + 1e-5)
        return {0: x, 1: uniform_bf16(rng, (p[0], 512)), 2: uniform_bf16(rng, (512,)),
                3: mean.astype(np.float32), 4: rstd.astype(np.float32)}

    def output_shapes(self, p):
        return {5: (p[0], 512)}

    def expected(self, a, p):
        x, dy, w = (a[i].astype(np.float64) for i in range(3))
        mean, rstd = a[3].astype(np.float64), a[4].astype(np.float64)
        xhat = (x - mean[:, None]) * rstd[:, None]
        wdy = w[None, :] * dy
        c1 = (xhat * wdy).mean(axis=1)
        c2 = wdy.mean(axis=1)
        return {5: (wdy - (xhat * c1[:, None] + c2[:, None])) * rstd[:, None]}


class MathFunctions(CuTileSpec):
    """atan2, tan, sinh, cosh, ceil, floor, pow and a float `%`
    (math_functions.py) on 32 x 64 tiles: ragged edges, values in [-2, 2).
    The CPU emulator computes each function correctly rounded; ceil and
    floor are exact (a zero tolerance); `%` adds the divisor back in f32
    where fmodf's sign is not the divisor's, one rounding."""
    fixture = "test/cutile/lower/fixtures/math_functions-13.4.tileirbc"
    tolerances = {2: F32_TOL, 3: F32_TOL, 4: (1e-5, 1e-5), 5: (0, 0), 6: (1e-5, 1e-5), 7: F32_TOL}

    def problems(self, quick=False):
        return [(32, 64), (100, 300), (5, 7)]

    def describe(self, p):
        return f"{p[0]} x {p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 32), cdiv(p[1], 64), 1)

    def arrays(self, rng, p):
        return {0: rng.uniform(-2, 2, p).astype(np.float32), 1: rng.uniform(-2, 2, p).astype(np.float32)}

    def output_shapes(self, p):
        return {k: p for k in range(2, 8)}

    def expected(self, a, p):
        x, y = a[0].astype(np.float64), a[1].astype(np.float64)
        # ceil, floor and % of values the kernel rounds to f32 first.
        x3, y3 = (a[0] * np.float32(3)).astype(np.float64), (a[1] * np.float32(3)).astype(np.float64)
        x4 = (a[0] * np.float32(4)).astype(np.float64)
        d = (np.abs(a[1]) + np.float32(0.25)).astype(np.float64)
        return {2: np.sqrt(x * x + y * y), 3: np.arctan2(y, x),
                4: np.tan(x * 0.5) + np.sinh(x) - np.cosh(y),
                5: np.ceil(x3) * 10 + np.floor(y3), 6: np.power(np.abs(x) + 0.5, y), 7: np.mod(x4, d)}


class SoftmaxColumns(CuTileSpec):
    """Softmax down each column of a 128-row block, 32 columns a block
    (softmax_columns.py): M = 128, a ragged 100 x 300, and 5 columns."""
    fixture = "test/cutile/lower/fixtures/softmax_columns-13.4.tileirbc"
    tolerances = {1: F32_TOL}

    def problems(self, quick=False):
        return [(128, 32), (100, 300), (128, 5)]

    def describe(self, p):
        return f"{p[0]} x {p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[1], 32), 1, 1)

    def arrays(self, rng, p):
        return {0: (rng.standard_normal(p) * 3).astype(np.float32)}

    def output_shapes(self, p):
        return {1: p}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        e = np.exp(x - x.max(axis=0)[None, :])
        return {1: e / e.sum(axis=0)[None, :]}


class GemmInt8Weights(CuTileSpec):
    """bf16 activations times int8 weights dequantized by a per-column f32
    scale in registers (gemm_int8_weights.py): trip counts 1, 2 and 9,
    ragged edges. The reference rounds the dequantized weight to bf16 as
    the kernel does before its MMA."""
    fixture = "test/cutile/lower/fixtures/gemm_int8_weights-13.4.tileirbc"
    tolerances = {3: BF16_TOL}

    def problems(self, quick=False):
        return [(128, 128, 64), (200, 300, 100), (256, 128, 576)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]} K={p[2]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 128), cdiv(p[1], 128), 1)

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: rng.integers(-128, 128, (k, n)).astype(np.int8),
                2: rng.uniform(0.001, 0.01, n).astype(np.float32)}

    def output_shapes(self, p):
        return {3: (p[0], p[1])}

    def expected(self, a, p):
        w = bf16(a[1].astype(np.float32) * a[2][None, :]).astype(np.float64)
        return {3: a[0].astype(np.float64) @ w}


class GemmTiles(CuTileSpec):
    """An M x N output in tiles of tile_m x tile_n, one CTA each, problems
    given as (M, N, K): describe, grid and the output's shape (parameter
    `out`) for the GEMMs below."""
    tile_m, tile_n, out = 128, 128, 2

    def describe(self, p):
        return f"M={p[0]} N={p[1]} K={p[2]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], self.tile_m), cdiv(p[1], self.tile_n), 1)

    def output_shapes(self, p):
        return {self.out: (p[0], p[1])}


class MatmulI8(GemmTiles):
    """An int8 GEMM accumulated in int32 (matmul_i8.py): tcgen05's
    kind::i8 on sm_100a, wgmma's s8 on sm_90a. Integer MMA is exact, so the
    outputs must equal the int64 reference: trip counts 1, 2 (K ragged, the
    rest TMA's zeros) and 16, ragged M and N, and operands at the int8
    extremes, whose products would round in f32 sums."""
    fixture = "test/cutile/lower/fixtures/matmul_i8-13.4.tileirbc"
    tolerances = {2: (0.0, 0.0)}

    def problems(self, quick=False):
        return [(128, 128, 64), (200, 300, 100), (256, 256, 1024)]

    def arrays(self, rng, p):
        m, n, k = p
        a = rng.integers(-128, 128, (m, k)).astype(np.int8)
        b = rng.integers(-128, 128, (k, n)).astype(np.int8)
        # A row and a column at the extremes: K products of 16,384 each.
        a[0, :] = -128
        b[:, 0] = -128
        return {0: a, 1: b}

    def expected(self, a, p):
        return {2: (a[0].astype(np.int64) @ a[1].astype(np.int64)).astype(np.float64)}


class MatmulU8(MatmulI8):
    """matmul_i8 with uint8 activations (matmul_u8.py): A 0..255 (a row at
    255, its products with B's -128 column the largest in magnitude), B
    int8; exact."""
    fixture = "test/cutile/lower/fixtures/matmul_u8-13.4.tileirbc"

    def arrays(self, rng, p):
        m, n, k = p
        a = rng.integers(0, 256, (m, k)).astype(np.uint8)
        b = rng.integers(-128, 128, (k, n)).astype(np.int8)
        a[0, :] = 255
        b[:, 0] = -128
        return {0: a, 1: b}


class GemmW4A16(GemmTiles):
    """4-bit weights packed two to a byte, unpacked by shifts on the int8
    tile (gemm_w4a16.py): the reference unpacks with numpy's shifts on
    int32, scales in f32 and rounds to bf16 as the kernel does before its
    MMAs. Trip counts 1, 2 and 8; M and N ragged."""
    fixture = "test/cutile/lower/fixtures/gemm_w4a16-13.4.tileirbc"
    tolerances = {3: BF16_TOL}
    out = 3

    def problems(self, quick=False):
        return [(128, 128, 64), (200, 300, 128), (256, 256, 512)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]} K={2 * p[2]} grid={self.grid(p)}"

    def arrays(self, rng, p):
        m, n, half = p
        lo = rng.integers(-8, 8, (half, n))
        hi = rng.integers(-8, 8, (half, n))
        packed = ((lo & 0xF) | ((hi & 0xF) << 4)).astype(np.uint8).view(np.int8)
        return {0: uniform_bf16(rng, (m, 2 * half)), 1: packed,
                2: rng.uniform(0.01, 0.1, n).astype(np.float32)}

    def expected(self, a, p):
        half = p[2]
        w = a[1].astype(np.int32)
        s = a[2][None, :]
        lo = bf16(((w << 28) >> 28).astype(np.float32) * s).astype(np.float64)
        hi = bf16((w >> 4).astype(np.float32) * s).astype(np.float64)
        x = a[0].astype(np.float64)
        return {3: x[:, :half] @ lo + x[:, half:] @ hi}


class GemmW4A16I32(GemmW4A16):
    """gemm_w4a16.py unpacked after widening to int32 (gemm_w4a16_i32.py)."""
    fixture = "test/cutile/lower/fixtures/gemm_w4a16_i32-13.4.tileirbc"


class GemmI8Shift(MatmulI8):
    """An int8 GEMM requantized by `>> 7` in int32, clamped and narrowed
    to int8 (gemm_i8_shift.py, trunci): exact."""
    fixture = "test/cutile/lower/fixtures/gemm_i8_shift-13.4.tileirbc"

    def expected(self, a, p):
        acc = a[0].astype(np.int64) @ a[1].astype(np.int64)
        return {2: np.clip(acc >> 7, -128, 127).astype(np.float64)}


class LinearW8A8(GemmTiles):
    """W8A8 (linear_w8a8.py): int8 X (M x K) and W (N x K), the i32
    accumulator converted to f32 and scaled per row and per column, a bf16
    bias added, stored bf16: trip counts 1, 2 (K ragged) and 8, M and N
    ragged."""
    fixture = "test/cutile/lower/fixtures/linear_w8a8-13.4.tileirbc"
    tolerances = {5: BF16_TOL}
    out = 5

    def problems(self, quick=False):
        return [(128, 128, 128), (200, 300, 200), (256, 384, 1024)]

    def arrays(self, rng, p):
        m, n, k = p
        return {0: rng.integers(-128, 128, (m, k)).astype(np.int8),
                1: rng.integers(-128, 128, (n, k)).astype(np.int8),
                2: rng.uniform(0.001, 0.02, m).astype(np.float32),
                3: rng.uniform(0.001, 0.02, n).astype(np.float32), 4: uniform_bf16(rng, (n,))}

    def expected(self, a, p):
        acc = (a[0].astype(np.int64) @ a[1].astype(np.int64).T).astype(np.float64)
        y = acc * a[2].astype(np.float64)[:, None] * a[3].astype(np.float64)[None, :]
        return {5: y + a[4].astype(np.float64)[None, :]}


class GemmI8Requant(GemmTiles):
    """An int8 GEMM with an i32 bias added in i32 and requantized to int8
    (gemm_i8_requant.py): the reference converts and scales in f32 as the
    kernel does, clamps and truncates, so the outputs must be equal. The
    bias (an i32 array) is handed over as float32 values, as numcheck hands
    integer arrays."""
    fixture = "test/cutile/lower/fixtures/gemm_i8_requant-13.4.tileirbc"
    tolerances = {3: (0.0, 0.0)}
    tile_n, out = 64, 3
    scale = 0.0005

    def problems(self, quick=False):
        return [(128, 64, 64), (200, 100, 100), (256, 192, 640)]

    def arrays(self, rng, p):
        m, n, k = p
        return {0: rng.integers(-128, 128, (m, k)).astype(np.int8),
                1: rng.integers(-128, 128, (k, n)).astype(np.int8),
                2: rng.integers(-100000, 100000, n).astype(np.float32)}

    def scalar_values(self, p):
        return {4: self.scale}

    def expected(self, a, p):
        acc = a[0].astype(np.int64) @ a[1].astype(np.int64) + a[2].astype(np.int64)[None, :]
        y = acc.astype(np.int32).astype(np.float32) * np.float32(self.scale)
        y = np.minimum(np.maximum(y, np.float32(-128)), np.float32(127))
        return {3: np.trunc(y).astype(np.float64)}


class AttentionDecode(CuTileSpec):
    """One query per row against its sequence's keys and values, 64-row
    blocks (attention_decode.py): S = 128, 300 (ragged, five blocks), 5
    (one partial block)."""
    fixture = "test/cutile/lower/fixtures/attention_decode-13.4.tileirbc"
    tolerances = {3: BF16_TOL}
    scale = 0.125

    def problems(self, quick=False):
        return [(2, 128), (3, 300), (1, 5)]

    def describe(self, p):
        return f"BH={p[0]} S={p[1]}"

    def grid(self, p):
        return (p[0], 1, 1)

    def arrays(self, rng, p):
        bh, s = p
        return {0: uniform_bf16(rng, (bh, 128)), 1: uniform_bf16(rng, (bh, s, 128)),
                2: uniform_bf16(rng, (bh, s, 128))}

    def scalar_values(self, p):
        return {4: self.scale}

    def output_shapes(self, p):
        return {3: (p[0], 128)}

    def expected(self, a, p):
        q, k, v = (a[i].astype(np.float64) for i in range(3))
        s = np.einsum("bd,bsd->bs", q, k) * self.scale
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return {3: np.einsum("bs,bsd->bd", e / e.sum(axis=1, keepdims=True), v)}


class GemmB2b(CuTileSpec):
    """Two linear layers back to back (gemm_b2b.py): Y = bf16(relu(X W0))
    W1, the second product an MMA after the loop. M = 128 with one K step,
    a ragged 200 x 100, 256 x 576 (nine). The reference rounds the hidden
    layer to bf16 as the kernel does; a sum that lands on a rounding
    boundary may round the other way, hence the wider tolerance."""
    fixture = "test/cutile/lower/fixtures/gemm_b2b-13.4.tileirbc"
    tolerances = {3: (3e-2, 2e-2)}

    def problems(self, quick=False):
        return [(128, 64), (200, 100), (256, 576)]

    def describe(self, p):
        return f"M={p[0]} K={p[1]}"

    def grid(self, p):
        return (cdiv(p[0], 128), 1, 1)

    def arrays(self, rng, p):
        m, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, 64)),
                2: uniform_bf16(rng, (64, 128))}

    def output_shapes(self, p):
        return {3: (p[0], 128)}

    def expected(self, a, p):
        x, w0, w1 = (a[i].astype(np.float64) for i in range(3))
        hidden = bf16(np.maximum(x @ w0, 0.0)).astype(np.float64)
        return {3: hidden @ w1}


class AttentionPagedDecode(CuTileSpec):
    """One query a sequence over a paged KV cache (attention_paged_decode.py):
    pages of 64 rows in a shuffled block table, lengths read from memory.
    (batch, pages in the cache, table width, lengths): lengths 64 and 200,
    then 1, 129 and 384 (one row, a page and a row, six whole pages)."""
    fixture = "test/cutile/lower/fixtures/attention_paged_decode-13.4.tileirbc"
    tolerances = {5: BF16_TOL}
    scale = 0.09

    def problems(self, quick=False):
        return [(2, 8, 4, (64, 200)), (3, 20, 6, (1, 129, 384)), (1, 4, 3, (150,))]

    def describe(self, p):
        return f"B={p[0]} pages={p[1]} lengths={p[3]}"

    def grid(self, p):
        return (p[0], 1, 1)

    def arrays(self, rng, p):
        b, pages, width, lengths = p
        table = np.stack([rng.permutation(pages)[:width] for _ in range(b)])
        return {0: uniform_bf16(rng, (b, 128)), 1: uniform_bf16(rng, (pages, 64, 128)),
                2: uniform_bf16(rng, (pages, 64, 128)), 3: table.astype(np.float32),
                4: np.array(lengths, dtype=np.float32)}

    def scalar_values(self, p):
        return {6: self.scale}

    def output_shapes(self, p):
        return {5: (p[0], 128)}

    def expected(self, a, p):
        out = []
        for i, n in enumerate(p[3]):
            pages = a[3][i].astype(np.int64)
            k = np.concatenate([a[1][g] for g in pages]).astype(np.float64)[:n]
            v = np.concatenate([a[2][g] for g in pages]).astype(np.float64)[:n]
            s = k @ a[0][i].astype(np.float64) * self.scale
            e = np.exp(s - s.max())
            out.append(e @ v / e.sum())
        return {5: np.stack(out)}


class RowArgmax(CuTileSpec):
    """ct.argmax and ct.argmin along rows, 16 rows a block (row_argmax.py):
    values rounded to whole numbers so that ties are common (the first
    column wins), M = 16, a ragged 40 x 200 (argmax may not pick the -inf
    padding, argmin reads inside the row only), 5 rows, and rows with NaN
    (a NaN loses to any number: numpy's argmax of the row with NaN as -inf)."""
    fixture = "test/cutile/lower/fixtures/row_argmax-13.4.tileirbc"
    tolerances = {1: (0, 0), 2: (0, 0), 3: (0, 0)}

    def problems(self, quick=False):
        return [(16, 256, False), (40, 200, False), (5, 256, False), (16, 256, True)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]}" + (" with NaN" if p[2] else "")

    def grid(self, p):
        return (cdiv(p[0], 16), 1, 1)

    def arrays(self, rng, p):
        x = np.round(rng.standard_normal((p[0], p[1])) * 2).astype(np.float32)
        if p[2]:
            x[0, 3] = np.nan
            x[2, :40] = np.nan
            x[2, 100] = 50.0
            x[5, 0] = np.nan
        return {0: x}

    def output_shapes(self, p):
        return {1: (p[0],), 2: (p[0],), 3: (p[0],)}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        nan = np.isnan(x)
        return {1: np.argmax(np.where(nan, -np.inf, x), axis=1).astype(np.float64),
                2: np.argmin(np.where(nan, np.inf, x), axis=1).astype(np.float64),
                3: np.where(nan, -np.inf, x).max(axis=1)}


class DotProduct(CuTileSpec):
    """A dot product and a squared norm over the grid by one-element
    atomics (dot_product.py): N = 1024 (one block), 5000 (five, the last
    ragged), 7."""
    fixture = "test/cutile/lower/fixtures/dot_product-13.4.tileirbc"
    tolerances = {2: (1e-3, 1e-5)}

    def problems(self, quick=False):
        return [(1024,), (5000,), (7,)]

    def describe(self, p):
        return f"N={p[0]}"

    def grid(self, p):
        return (cdiv(p[0], 1024), 1, 1)

    def arrays(self, rng, p):
        return {0: rng.standard_normal(p).astype(np.float32),
                1: rng.standard_normal(p).astype(np.float32)}

    def output_shapes(self, p):
        return {2: (2,)}

    def expected(self, a, p):
        x, y = a[0].astype(np.float64), a[1].astype(np.float64)
        return {2: np.array([x @ y, x @ x])}


class StoreBranches(CuTileSpec):
    """Stores under an `if` on the block index (store_branches.py): M = 128
    (block 0 alone: no total), 300 (three blocks, the last ragged), 512."""
    fixture = "test/cutile/lower/fixtures/store_branches-13.4.tileirbc"
    tolerances = {1: (0, 1e-7), 2: (0, 1e-7), 3: (1e-3, 1e-5)}

    def problems(self, quick=False):
        return [(128,), (300,), (512,)]

    def describe(self, p):
        return f"M={p[0]}"

    def grid(self, p):
        return (cdiv(p[0], 128), 1, 1)

    def arrays(self, rng, p):
        return {0: rng.standard_normal((p[0], 64)).astype(np.float32)}

    def output_shapes(self, p):
        return {1: (p[0], 64), 2: (128, 64), 3: (1,)}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        y = np.concatenate([x[b:b + 128] * (2.0 if b // 128 % 2 == 0 else 3.0)
                            for b in range(0, p[0], 128)])
        first = np.zeros((128, 64))
        first[:min(128, p[0])] = x[:128] + 1.0
        return {1: y, 2: first, 3: np.array([x[128:256].sum()])}


class AttentionCausal64(CuTileSpec):
    """Causal attention of 64-row blocks, head dim 64 (attention_causal64.py):
    S = 64 (one block), 200 (four, the last ragged), 512 (eight)."""
    fixture = "test/cutile/lower/fixtures/attention_causal64-13.4.tileirbc"
    tolerances = {3: BF16_TOL}
    scale = 0.125

    def problems(self, quick=False):
        return [(64,), (200,), (512,)]

    def describe(self, p):
        return f"S={p[0]}"

    def grid(self, p):
        return (cdiv(p[0], 64), 1, 1)

    def arrays(self, rng, p):
        s = p[0]
        return {0: uniform_bf16(rng, (s, 64)), 1: uniform_bf16(rng, (s, 64)),
                2: uniform_bf16(rng, (s, 64))}

    def scalar_values(self, p):
        return {4: self.scale}

    def output_shapes(self, p):
        return {3: (p[0], 64)}

    def expected(self, a, p):
        q, k, v = (a[i].astype(np.float64) for i in range(3))
        s = q @ k.T * self.scale
        i = np.arange(p[0])
        s = np.where(i[None, :] <= i[:, None], s, -np.inf)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return {3: (e / e.sum(axis=1, keepdims=True)) @ v}


class BatchStats(CuTileSpec):
    """Each batch's mean over the sequence and largest value per position
    from a (1, S, D) block of a rank-3 array (batch_stats.py): (B, S, D) =
    (2, 64, 128), (5, 50, 128) ragged along S, (3, 64, 100) ragged along D."""
    fixture = "test/cutile/lower/fixtures/batch_stats-13.4.tileirbc"
    tolerances = {1: (1e-6, 1e-5), 2: (0, 0)}

    def problems(self, quick=False):
        return [(2, 64, 128), (5, 50, 128), (3, 64, 100)]

    def describe(self, p):
        return f"B={p[0]} S={p[1]} D={p[2]}"

    def grid(self, p):
        return (p[0], 1, 1)

    def arrays(self, rng, p):
        return {0: uniform_bf16(rng, p)}

    def output_shapes(self, p):
        return {1: (p[0], p[2]), 2: (p[0], p[1])}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        return {1: x.mean(axis=1), 2: x.max(axis=2)}


class ArgmaxChunks(CuTileSpec):
    """Each row's argmax over 128-column chunks (argmax_chunks.py): values
    rounded to whole numbers, so ties within and across chunks are common
    (the first column wins): 128 x 128, 200 x 1000, 5 x 300."""
    fixture = "test/cutile/lower/fixtures/argmax_chunks-13.4.tileirbc"
    tolerances = {1: (0, 0)}

    def problems(self, quick=False):
        return [(128, 128), (200, 1000), (5, 300)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]}"

    def grid(self, p):
        return (cdiv(p[0], 128), 1, 1)

    def arrays(self, rng, p):
        return {0: np.round(rng.standard_normal(p) * 3).astype(np.float32)}

    def output_shapes(self, p):
        return {1: (p[0],)}

    def expected(self, a, p):
        return {1: np.argmax(a[0], axis=1).astype(np.float64)}


class GemmKMasked(CuTileSpec):
    """A GEMM masking A's columns past K in registers (gemm_k_masked.py):
    128 x 128 x 64, 200 x 300 x 100 (ragged K), 256 x 256 x 576."""
    fixture = "test/cutile/lower/fixtures/gemm_k_masked-13.4.tileirbc"
    tolerances = {2: BF16_TOL}

    def problems(self, quick=False):
        return [(128, 128, 64), (200, 300, 100), (256, 256, 576)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]} K={p[2]}"

    def grid(self, p):
        return (cdiv(p[0], 128), cdiv(p[1], 128), 1)

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, n))}

    def output_shapes(self, p):
        return {2: (p[0], p[1])}

    def expected(self, a, p):
        return {2: a[0].astype(np.float64) @ a[1].astype(np.float64)}


class QuantizeRows(CuTileSpec):
    """Per-row int8 quantization (quantize_rows.py), the reference in f32
    as the kernel computes: 16 x 512, a ragged 40 x 300, 5 rows."""
    fixture = "test/cutile/lower/fixtures/quantize_rows-13.4.tileirbc"
    tolerances = {1: (0, 0), 2: (0, 1e-6)}

    def problems(self, quick=False):
        return [(16, 512), (40, 300), (5, 512)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]}"

    def grid(self, p):
        return (cdiv(p[0], 16), 1, 1)

    def arrays(self, rng, p):
        return {0: bf16(rng.standard_normal(p) * 2)}

    def output_shapes(self, p):
        return {1: p, 2: (p[0],)}

    def expected(self, a, p):
        x = a[0].astype(np.float32)
        scale = np.maximum(np.abs(x).max(axis=1), np.float32(1e-8)) / np.float32(127.0)
        q = np.floor((x / scale[:, None]).astype(np.float32) + np.float32(0.5))
        return {1: q.astype(np.float64), 2: scale.astype(np.float64)}


class RowSuffixSums(CuTileSpec):
    """Reverse running sums and products along rows (row_suffix_sums.py):
    16 x 256, a ragged 100 x 200 (the zero padding past the row inside the
    suffixes: a sum unchanged, a product's factor 1), 5 rows."""
    fixture = "test/cutile/lower/fixtures/row_suffix_sums-13.4.tileirbc"
    tolerances = {1: (1e-5, 1e-5), 2: (1e-5, 1e-5)}

    def problems(self, quick=False):
        return [(16, 256), (100, 200), (5, 256)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]}"

    def grid(self, p):
        return (cdiv(p[0], 16), 1, 1)

    def arrays(self, rng, p):
        return {0: rng.standard_normal(p).astype(np.float32)}

    def output_shapes(self, p):
        return {1: p, 2: p}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        suffix = lambda t, f: f(t[:, ::-1], axis=1)[:, ::-1]
        return {1: suffix(x, np.cumsum), 2: suffix(1.0 + x / 256.0, np.cumprod)}


class GreedyTokens(CuTileSpec):
    """The argmax of bf16 logits and the winning logit (greedy_tokens.py):
    logits on a grid of quarters so that ties are common: 8 x 1024, a
    ragged 20 x 1000, 3 x 700."""
    fixture = "test/cutile/lower/fixtures/greedy_tokens-13.4.tileirbc"
    tolerances = {1: (0, 0), 2: (0, 0)}

    def problems(self, quick=False):
        return [(8, 1024), (20, 1000), (3, 700)]

    def describe(self, p):
        return f"M={p[0]} V={p[1]}"

    def grid(self, p):
        return (cdiv(p[0], 8), 1, 1)

    def arrays(self, rng, p):
        return {0: bf16(np.round(rng.standard_normal(p) * 8) / 4)}

    def output_shapes(self, p):
        return {1: (p[0],), 2: (p[0],)}

    def expected(self, a, p):
        return {1: np.argmax(a[0], axis=1).astype(np.float64),
                2: a[0].max(axis=1).astype(np.float64)}


class RowCumsum(CuTileSpec):
    """A running sum and a running product along each row, 16 rows a
    block, each row over 8 threads (row_cumsum.py): M = 16, a ragged 100 x
    200, 5 rows. The product's factors 1 + x / 256 keep it near 1."""
    fixture = "test/cutile/lower/fixtures/row_cumsum-13.4.tileirbc"
    tolerances = {1: (1e-5, 1e-5), 2: (1e-5, 1e-5), 3: (1e-5, 1e-5)}

    def problems(self, quick=False):
        return [(16, 256), (100, 200), (5, 256)]

    def describe(self, p):
        return f"{p[0]} x {p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 16), 1, 1)

    def arrays(self, rng, p):
        return {0: rng.standard_normal(p).astype(np.float32)}

    def output_shapes(self, p):
        return {1: p, 2: (p[0],), 3: p}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        return {1: np.cumsum(x, axis=1), 2: x.sum(axis=1), 3: np.cumprod(1 + x / 256, axis=1)}


class GemmAlphaBeta(CuTileSpec):
    """D = alpha A B + beta C with f32 C and D at 128 x 256 x 64
    (gemm_alpha_beta.py): trip counts 1, 2 and 10, ragged edges."""
    fixture = "test/cutile/lower/fixtures/gemm_alpha_beta-13.4.tileirbc"
    tolerances = {3: (1e-3, 1e-3)}

    def problems(self, quick=False):
        return [(128, 256, 64), (200, 300, 100), (256, 512, 640)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]} K={p[2]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 128), cdiv(p[1], 256), 1)

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, n)),
                2: rng.standard_normal((m, n)).astype(np.float32)}

    def scalar_values(self, p):
        return {4: 1.5, 5: -0.5}

    def output_shapes(self, p):
        return {3: (p[0], p[1])}

    def expected(self, a, p):
        return {3: 1.5 * (a[0].astype(np.float64) @ a[1].astype(np.float64)) - 0.5 * a[2]}


class AttentionBiasMask(CuTileSpec):
    """Attention with an additive bias tile and a key padding mask
    (attention_bias_mask.py): 128 x 64 keys, a ragged 300 x 200 (the bias
    padded with -inf past the keys), 64 queries and 5 keys. Key 0 is always
    kept, so every row has a key."""
    fixture = "test/cutile/lower/fixtures/attention_bias_mask-13.4.tileirbc"
    tolerances = {5: (2e-2, 2e-2)}
    scale = 0.125

    def problems(self, quick=False):
        return [(128, 64), (300, 200), (64, 5)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 128), 1, 1)

    def arrays(self, rng, p):
        m, n = p
        keep = (rng.uniform(0, 1, n) > 0.3).astype(np.float32)
        keep[0] = 1
        return {0: uniform_bf16(rng, (m, 64)), 1: uniform_bf16(rng, (n, 64)), 2: uniform_bf16(rng, (n, 64)),
                3: rng.standard_normal((m, n)).astype(np.float32), 4: keep}

    def scalar_values(self, p):
        return {6: self.scale}

    def output_shapes(self, p):
        return {5: (p[0], 64)}

    def expected(self, a, p):
        q, k, v = (a[i].astype(np.float64) for i in range(3))
        s = q @ k.T * self.scale + a[3].astype(np.float64)
        s = np.where(a[4][None, :] > 0.5, s, -np.inf)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return {5: (e / e.sum(axis=1, keepdims=True)) @ v}


class TransposeScaled(OneInput):
    """Y = (2 X + 1)^T, the transpose of a register tile
    (transpose_scaled.py): one tile, ragged, two tiles of columns."""
    fixture = "test/cutile/lower/fixtures/transpose_scaled-13.4.tileirbc"
    tolerances = {1: (1e-6, 1e-6)}
    block, walks, names = (128, 64), (0, 1), ("M", "N")
    probs = [(128, 64), (300, 100), (128, 256)]

    def output_shapes(self, p):
        return {1: (p[1], p[0])}

    def expected(self, a, p):
        return {1: (a[0].astype(np.float64) * 2.0 + 1.0).T}


class LinearFp8(Matmul):
    """Y = bf16(scale X W^T) (test/cutile/lower/kernels/linear_fp8.py): E4M3
    X (M x K) and W (N x K, transposed with ct.transpose), 128 x 128 tiles,
    K step 128."""
    fixture = "test/cutile/lower/fixtures/linear_fp8-13.4.tileirbc"
    tm, tn, tk = 128, 128, 128
    scale = 0.0078125

    def problems(self, quick=False):
        # trip counts 1, 2, 6; ragged M, N and K
        probs = [(128, 128, 128), (200, 136, 200), (130, 264, 128 * 6)]
        return probs if quick else probs + [(256, 384, 256)]

    def arrays(self, rng, p):
        m, n, k = p
        return {0: random_e4m3(rng, (m, k)), 1: random_e4m3(rng, (n, k))}

    def scalar_values(self, p):
        return {3: self.scale}

    def output_shapes(self, p):
        return {2: (p[0], p[1])}

    def expected(self, a, p):
        # E4M3 products are exact in f32; the 8-bit MMA's 14-bit sums, the
        # K-term sum and the scale bound the error before bf16's rounding.
        x, w = e4m3_value(a[0]), e4m3_value(a[1])
        c = self.scale * (x @ w.T)
        return {2: (c, fp8_mma_bound(c, self.scale, x, w, p[2]))}


class LinearTf32(Matmul128):
    """Y = X W^T in f32 on tf32 tensor cores (test/cutile/lower/kernels/
    linear_tf32.py): operands converted with astype(ct.tfloat32), W (N x K)
    transposed; 128 x 128 tiles, K step 32. Inputs exact in tf32, so the
    MMA's dropping of low bits and astype's rounding agree; the bound is
    the MMA's rounding of its sums."""
    fixture = "test/cutile/lower/fixtures/linear_tf32-13.4.tileirbc"
    tk = 32

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_tf32(rng, (m, k)), 1: uniform_tf32(rng, (n, k))}

    def output_shapes(self, p):
        return {2: (p[0], p[1])}

    def expected(self, a, p):
        x, w = a[0].astype(np.float64), a[1].astype(np.float64)
        c = x @ w.T
        atol, rtol = F32_TOL
        return {2: (c, atol + rtol * np.abs(c) + mma_rounding_bound(x, w, 8, 24))}


class MatmulTf32(Matmul128):
    """C = A B on f32 arrays through tf32 tensor cores, as cuTile's matmul
    sample writes it for float32 (test/cutile/lower/kernels/matmul_tf32.py):
    B is K x N, which wgmma reads K-major only, so the consumer transposes
    each slot through SMEM (docs/cuda.md, "tf32 B given K x N"). sm_90a only:
    tcgen05 reads an MN-major tf32 operand only in a swizzle the translation
    does not emit. Inputs exact in tf32; trip counts 1, 4, 9 and 2."""
    fixture = "test/cutile/lower/fixtures/matmul_tf32-13.4.tileirbc"
    tk = 32
    target = "sm_90a"

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_tf32(rng, (m, k)), 1: uniform_tf32(rng, (k, n))}

    def expected(self, a, p):
        x, w = a[0].astype(np.float64), a[1].astype(np.float64)
        c = x @ w
        atol, rtol = F32_TOL
        return {2: (c, atol + rtol * np.abs(c) + mma_rounding_bound(x, w.T, 8, 24))}


class MatmulF32Small(MatmulTf32):
    """cuTile's matmul sample on f32 arrays at its f32 tiles, 32 x 32 x 32
    (test/cutile/lower/kernels/matmul_f32_small.py): B staged K-major and the
    32-row tile issued as a 64-row wgmma on sm_90a. Trip counts 1, 4, 9, 2;
    ragged M, N and K; up to 45 CTAs."""
    fixture = "test/cutile/lower/fixtures/matmul_f32_small-13.4.tileirbc"
    tm, tn, tk = 32, 32, 32


class WeightGradTf32(Matmul128):
    """dW = X^T dY in f32 on tf32 tensor cores (test/cutile/lower/kernels/
    weight_grad_tf32.py): X's tile transposed, so A is given T x K and B T x
    N, both MN-major, both staged K-major on sm_90a; 128 x 128 tiles of dW,
    token step 32. Problems are (K, N, T): trip counts 1, 4, 9 and 2,
    ragged K, N and T."""
    fixture = "test/cutile/lower/fixtures/weight_grad_tf32-13.4.tileirbc"
    tk = 32
    target = "sm_90a"

    def arrays(self, rng, p):
        k, n, t = p
        return {0: uniform_tf32(rng, (t, k)), 1: uniform_tf32(rng, (t, n))}

    def expected(self, a, p):
        x, dy = a[0].astype(np.float64), a[1].astype(np.float64)
        c = x.T @ dy
        atol, rtol = F32_TOL
        return {2: (c, atol + rtol * np.abs(c) + mma_rounding_bound(x.T, dy.T, 8, 24))}


class MatmulFp8(Matmul128):
    """C = A B in e4m3 with B K x N (test/cutile/lower/kernels/matmul_fp8.py):
    MN-major B, read as it is by tcgen05 and staged K-major by the sm_90a
    consumer; 128 x 128 tiles, K step 128, bf16 out. Trip counts 1, 2, 6."""
    fixture = "test/cutile/lower/fixtures/matmul_fp8-13.4.tileirbc"
    tk = 128

    def problems(self, quick=False):
        probs = [(128, 128, 128), (200, 136, 200), (130, 264, 128 * 6)]
        return probs if quick else probs + [(256, 384, 256)]

    def arrays(self, rng, p):
        m, n, k = p
        return {0: random_e4m3(rng, (m, k)), 1: random_e4m3(rng, (k, n))}

    def expected(self, a, p):
        # E4M3 products are exact in f32; the 8-bit MMA's 14-bit sums and
        # the K-term sum bound the error before bf16's rounding.
        x, w = e4m3_value(a[0]), e4m3_value(a[1])
        c = x @ w
        return {2: (c, fp8_mma_bound(c, 1.0, x, w.T, p[2]))}


class GemmAccumulate(Matmul128):
    """D = C + A B (test/cutile/lower/kernels/gemm_accumulate.py), the
    accumulator started from C: 128 x 128 tiles, K step 64, bf16 in and
    out. Trip count 0 (the full run's last problem) leaves D = C."""
    fixture = "test/cutile/lower/fixtures/gemm_accumulate-13.4.tileirbc"
    tolerances = {3: BF16_TOL}
    last = (130, 260, 0)

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, n)),
                2: bf16(4 * uniform_bf16(rng, (m, n)))}

    def output_shapes(self, p):
        return {3: (p[0], p[1])}

    def expected(self, a, p):
        return {3: a[2].astype(np.float64) + a[0].astype(np.float64) @ a[1].astype(np.float64)}


class MatmulPersistent(Matmul):
    """C = A B walked by a persistent loop over tiles in grouped order
    (test/cutile/lower/kernels/matmul_persistent.py): 128 x 128 tiles, K
    step 64. The grid is the CTAs: fewer than the tiles, one, more than
    the tiles; a full group of 8 tile rows and a partial one."""
    fixture = "test/cutile/lower/fixtures/matmul_persistent-13.4.tileirbc"
    tm, tn, tk = 128, 128, 64
    tolerances = {2: BF16_TOL}

    def problems(self, quick=False):
        # (M, N, K, CTAs): 6 tiles on 2 CTAs, trip counts 1, 2, 9 and 0,
        # ragged edges, 20 tiles in groups of 8 on 3 CTAs, 2 tiles on 4
        probs = [(256, 384, 128, 2), (200, 300, 100, 4), (384, 256, 64 * 9, 1)]
        return probs if quick else probs + [(128 * 10, 256, 64, 3), (130, 260, 0, 2)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]} K={p[2]} tiles={cdiv(p[0], 128) * cdiv(p[1], 128)} ctas={p[3]}"

    def grid(self, p):
        return (p[3], 1, 1)

    def arrays(self, rng, p):
        m, n, k, _ = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, n))}

    def output_shapes(self, p):
        return {2: (p[0], p[1])}


class RopeInplace(CuTileSpec):
    """RoPE in place over (1, H, 1, R) boxes (rope_inplace.py): the arrays
    are inputs and outputs; one token, 5 and 17 tokens a sequence."""
    fixture = "test/cutile/lower/fixtures/rope_inplace-13.4.tileirbc"
    tolerances = {0: BF16_TOL, 1: BF16_TOL}

    def problems(self, quick=False):
        return [(2, 5), (1, 1), (3, 17)]

    def describe(self, p):
        return f"B={p[0]} S={p[1]}"

    def grid(self, p):
        return (p[0] * p[1], 1, 1)

    def arrays(self, rng, p):
        b, s = p
        ang = rng.uniform(-3, 3, (s, 64))
        return {0: uniform_bf16(rng, (b, 16, s, 128)), 1: uniform_bf16(rng, (b, 4, s, 128)),
                2: np.cos(ang).astype(np.float32), 3: np.sin(ang).astype(np.float32)}

    def scalar_values(self, p):
        return {4: p[1]}

    def output_shapes(self, p):
        return {0: (p[0], 16, p[1], 128), 1: (p[0], 4, p[1], 128)}

    def expected(self, a, p):
        c = a[2].astype(np.float64)[None, None]
        s = a[3].astype(np.float64)[None, None]
        out = {}
        for k in (0, 1):
            x = a[k].astype(np.float64)
            x1, x2 = x[..., :64], x[..., 64:]
            out[k] = np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)
        return out


class SplitkMerge(CuTileSpec):
    """Flash-decoding's merge (splitk_merge.py): 16, 11 and 1 splits (the
    gathered vector padded with -inf past them)."""
    fixture = "test/cutile/lower/fixtures/splitk_merge-13.4.tileirbc"
    tolerances = {2: BF16_TOL}

    def problems(self, quick=False):
        return [(2, 3, 16), (1, 2, 11), (2, 1, 1)]

    def describe(self, p):
        return f"B={p[0]} H={p[1]} splits={p[2]}"

    def grid(self, p):
        return (p[0], p[1], 1)

    def arrays(self, rng, p):
        b, h, ns = p
        return {0: rng.standard_normal((b, h, ns, 64)).astype(np.float32),
                1: (rng.standard_normal((b, h, ns)) * 3).astype(np.float32)}

    def output_shapes(self, p):
        return {2: (p[0], p[1], 64)}

    def expected(self, a, p):
        lse = a[1].astype(np.float64)
        w = np.exp2(lse - lse.max(axis=2, keepdims=True))
        w /= w.sum(axis=2, keepdims=True)
        return {2: (a[0].astype(np.float64) * w[..., None]).sum(axis=2)}


class RowSumsAtomic(CuTileSpec):
    """Row sums added by atomics (row_sums_atomic.py): S holds values
    before; 1, 3 and 4 column blocks, ragged M."""
    fixture = "test/cutile/lower/fixtures/row_sums_atomic-13.4.tileirbc"
    tolerances = {1: F32_TOL}

    def problems(self, quick=False):
        return [(16, 256), (40, 700), (5, 1024)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]}"

    def grid(self, p):
        return (cdiv(p[0], 16), cdiv(p[1], 256), 1)

    def arrays(self, rng, p):
        return {0: rng.standard_normal(p).astype(np.float32),
                1: rng.standard_normal(p[0]).astype(np.float32)}

    def output_shapes(self, p):
        return {1: (p[0],)}

    def expected(self, a, p):
        return {1: a[1].astype(np.float64) + a[0].astype(np.float64).sum(axis=1)}


class ShortSoftmax(CuTileSpec):
    """A softmax of a 32-vector a block (short_softmax.py): N = 32, 20 (the
    -inf padding) and 1."""
    fixture = "test/cutile/lower/fixtures/short_softmax-13.4.tileirbc"
    tolerances = {1: F32_TOL, 2: F32_TOL}

    def problems(self, quick=False):
        return [(4, 32), (3, 20), (1, 1)]

    def describe(self, p):
        return f"B={p[0]} N={p[1]}"

    def grid(self, p):
        return (p[0], 1, 1)

    def arrays(self, rng, p):
        return {0: (rng.standard_normal(p) * 3).astype(np.float32)}

    def output_shapes(self, p):
        return {1: p, 2: (p[0], 2)}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        m = x.max(axis=1, keepdims=True)
        e = np.exp(x - m)
        s = e.sum(axis=1, keepdims=True)
        return {1: e / s, 2: np.concatenate([m, m + np.log(s)], axis=1)}


class DecodeSplitKv(CuTileSpec):
    """Split-KV decoding, transposed (decode_split_kv.py): S = 300 over 2
    splits (the last block masked), 256 in one, and 100 over 3 (two
    empty splits: O 0, L -inf). The scores are rounded to bf16, as
    ct.matmul of bf16 gives them. sm_100a only: sm_90a refuses the
    column maximum of a wgmma accumulator (docs/cuda-tile-lowering.md)."""
    target = "sm_100a"
    fixture = "test/cutile/lower/fixtures/decode_split_kv-13.4.tileirbc"
    tolerances = {3: BF16_TOL, 4: (0.05, 0.01)}
    scale = 0.088

    def problems(self, quick=False):
        return [(1, 2, 300, 2), (2, 1, 256, 1), (1, 1, 100, 3)]

    def describe(self, p):
        return f"B={p[0]} Hkv={p[1]} S={p[2]} splits={p[3]}"

    def grid(self, p):
        return (p[0], p[1], p[3])

    def arrays(self, rng, p):
        b, h, s, ns = p
        return {0: uniform_bf16(rng, (b, h, 8, 128)), 1: uniform_bf16(rng, (b, h, s, 128)),
                2: uniform_bf16(rng, (b, h, s, 128))}

    def scalar_values(self, p):
        return {5: self.scale, 6: p[2]}

    def output_shapes(self, p):
        return {3: (p[0], p[1], 8, p[3], 128), 4: (p[0], p[1], 8, p[3])}

    def expected(self, a, p):
        b, h, s, ns = p
        o = np.zeros((b, h, 8, ns, 128))
        l = np.zeros((b, h, 8, ns))
        q, k, v = (x.astype(np.float64) for x in (a[0], a[1], a[2]))
        for i in range(b):
            for j in range(h):
                sc = bf16(q[i, j] @ k[i, j].T).astype(np.float64) * self.scale * 1.4426950408889634
                for t in range(ns):
                    lo, hi = t * 256, min(t * 256 + 256, s)
                    if hi <= lo:
                        o[i, j, :, t] = 0.0
                        l[i, j, :, t] = -np.inf
                        continue
                    x = sc[:, lo:hi]
                    m = x.max(axis=1, keepdims=True)
                    e = np.exp2(x - m)
                    o[i, j, :, t] = (e @ v[i, j, lo:hi]) / e.sum(axis=1, keepdims=True)
                    l[i, j, :, t] = m[:, 0] + np.log2(e.sum(axis=1))
        return {3: o, 4: l}


class SplitKGemm64(CuTileSpec):
    """A split-K GEMM at 64-row tiles (split_k_gemm64.py): C holds random
    values before; K split 1, 2 and 3 ways, ragged M, N and K."""
    fixture = "test/cutile/lower/fixtures/split_k_gemm64-13.4.tileirbc"
    tolerances = {2: F32_TOL}

    def problems(self, quick=False):
        return [(64, 128, 64, 1, 1), (100, 200, 256, 2, 2), (130, 128, 384, 3, 2)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]} K={p[2]} splits={p[3]} per={p[4]}"

    def grid(self, p):
        return (cdiv(p[0], 64), cdiv(p[1], 128), p[3])

    def arrays(self, rng, p):
        m, n, k, _, _ = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, n)),
                2: rng.standard_normal((m, n)).astype(np.float32)}

    def scalar_values(self, p):
        return {3: p[4]}

    def output_shapes(self, p):
        return {2: (p[0], p[1])}

    def expected(self, a, p):
        return {2: a[2].astype(np.float64) + a[0].astype(np.float64) @ a[1].astype(np.float64)}


class GemmBiasGrad(CuTileSpec):
    """A GEMM and its output's column sums added into DB by atomics
    (gemm_bias_grad.py): ragged M and N, 1, 3 and 4 K tiles."""
    fixture = "test/cutile/lower/fixtures/gemm_bias_grad-13.4.tileirbc"
    tolerances = {2: BF16_TOL, 3: (2e-3, 1e-3)}

    def problems(self, quick=False):
        return [(128, 128, 64), (300, 200, 130), (256, 384, 256)]

    def describe(self, p):
        return f"M={p[0]} N={p[1]} K={p[2]}"

    def grid(self, p):
        return (cdiv(p[0], 128), cdiv(p[1], 128), 1)

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (k, n)),
                3: rng.standard_normal(n).astype(np.float32)}

    def output_shapes(self, p):
        return {2: (p[0], p[1]), 3: (p[1],)}

    def expected(self, a, p):
        y = a[0].astype(np.float64) @ a[1].astype(np.float64)
        return {2: y, 3: a[3].astype(np.float64) + y.sum(axis=0)}


def softmax_rows(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


class AttentionMla(CuTileSpec):
    """MLA-style attention (attention_mla.py): scores from two products,
    q_nope k_nope^T + q_pe k_pe^T; 64 keys (one block), 200 (the last
    block masked) and 384, 1 and 2 heads."""
    fixture = "test/cutile/lower/fixtures/attention_mla-13.4.tileirbc"
    tolerances = {5: BF16_TOL}
    scale = 0.07

    def problems(self, quick=False):
        return [(1, 64), (2, 200), (1, 384)]

    def describe(self, p):
        return f"H={p[0]} S={p[1]}"

    def grid(self, p):
        return (cdiv(p[1], 64), p[0], 1)

    def arrays(self, rng, p):
        h, s = p
        return {0: uniform_bf16(rng, (h, s, 128)), 1: uniform_bf16(rng, (h, s, 64)), 2: uniform_bf16(rng, (h, s, 128)),
                3: uniform_bf16(rng, (s, 64)), 4: uniform_bf16(rng, (h, s, 128))}

    def scalar_values(self, p):
        return {6: self.scale}

    def output_shapes(self, p):
        return {5: (p[0], p[1], 128)}

    def expected(self, a, p):
        h, s = p
        f = lambda x: x.astype(np.float64)
        out = []
        for i in range(h):
            q = np.concatenate([f(a[0][i]), f(a[1][i])], axis=1)
            k = np.concatenate([f(a[2][i]), f(a[3])], axis=1)
            out.append(softmax_rows(q @ k.T * self.scale) @ f(a[4][i]))
        return {5: np.stack(out)}


class DecodeGqaMma(CuTileSpec):
    """Decoding attention for 16 grouped query heads on the tensor core
    (decode_gqa_mma.py): S = Q K^T and O = P V as 16-row MMAs, keys in
    blocks of 64 masked past S. (BKV, S): one block, a ragged 300 over two
    KV heads (5 trips), 1,000 keys (16 trips), 30 keys (one partial block)."""
    fixture = "test/cutile/lower/fixtures/decode_gqa_mma-13.4.tileirbc"
    tolerances = {3: BF16_TOL}
    scale = 0.088

    def problems(self, quick=False):
        probs = [(1, 64), (2, 300), (1, 1000), (1, 30)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return f"BKV={p[0]} S={p[1]} trips={cdiv(p[1], 64)} grid={self.grid(p)}"

    def grid(self, p):
        return (p[0], 1, 1)

    def arrays(self, rng, p):
        b, n = p
        return {0: uniform_bf16(rng, (b, 16, 128)), 1: uniform_bf16(rng, (b, n, 128)),
                2: uniform_bf16(rng, (b, n, 128))}

    def output_shapes(self, p):
        return {3: (p[0], 16, 128)}

    def scalar_values(self, p):
        return {4: self.scale}

    def expected(self, a, p):
        heads = [softmax_times_v(self.scale * (a[0][h].astype(np.float64) @ a[1][h].astype(np.float64).T),
                                 a[2][h].astype(np.float64)) for h in range(p[0])]
        return {3: (np.stack([o for o, _ in heads]), np.stack([b for _, b in heads]))}


class DecodeAlibi(DecodeGqaMma):
    """Grouped-query decode with ALiBi (decode_alibi.py): S = scale Q K^T +
    slope_h (j - (S - 1)), the positions a per-column vector made by
    tileas.iota, the slopes ALiBi's geometric sequence for the heads. The
    problems are decode_gqa_mma's."""
    fixture = "test/cutile/lower/fixtures/decode_alibi-13.4.tileirbc"
    heads = 16
    tolerances = {4: BF16_TOL}

    def arrays(self, rng, p):
        b, n, h = p[0], p[1], self.heads
        slopes = 2.0 ** (-8.0 * (np.arange(h) + 1) / h)
        return {0: uniform_bf16(rng, (b, h, 128)), 1: uniform_bf16(rng, (b, n, 128)),
                2: uniform_bf16(rng, (b, n, 128)), 3: slopes.astype(np.float32)}

    def output_shapes(self, p):
        return {4: (p[0], self.heads, 128)}

    def scalar_values(self, p):
        return {5: self.scale}

    def expected(self, a, p):
        b, n = p
        bias = a[3].astype(np.float64)[:, None] * (np.arange(n) - (n - 1.0))[None, :]
        heads = [softmax_times_v(self.scale * (a[0][x].astype(np.float64) @ a[1][x].astype(np.float64).T) + bias,
                                 a[2][x].astype(np.float64)) for x in range(b)]
        return {4: (np.stack([o for o, _ in heads]), np.stack([e for _, e in heads]))}


class DecodeAlibiMqa(DecodeAlibi):
    """decode_alibi_mqa.py: 64 query heads a KV head, one 64-row tile."""
    fixture = "test/cutile/lower/fixtures/decode_alibi_mqa-13.4.tileirbc"
    heads = 64


class LinearLora(CuTileSpec):
    """Y = X W^T + bf16(s X A^T) B^T, rank 16 (linear_lora.py): the
    low-rank product rounded to bf16 as the kernel rounds it. One K step, a
    ragged 200 x 300 x 100 (2 trips), 256 x 128 x 640 (10)."""
    fixture = "test/cutile/lower/fixtures/linear_lora-13.4.tileirbc"
    tolerances = {4: (2e-3, 2.0 ** -7)}
    s = 0.5

    def problems(self, quick=False):
        probs = [(128, 128, 64), (200, 300, 100), (256, 128, 640)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return f"M={p[0]} N={p[1]} K={p[2]} trips={cdiv(p[2], 64)} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 128), cdiv(p[1], 128), 1)

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (n, k)), 2: uniform_bf16(rng, (16, k)),
                3: uniform_bf16(rng, (n, 16))}

    def output_shapes(self, p):
        return {4: (p[0], p[1])}

    def scalar_values(self, p):
        return {5: self.s}

    def expected(self, a, p):
        x = a[0].astype(np.float64)
        xa = bf16((self.s * (x @ a[2].astype(np.float64).T)).astype(np.float32)).astype(np.float64)
        return {4: x @ a[1].astype(np.float64).T + xa @ a[3].astype(np.float64).T}


def small_e4m3(rng, shape):
    """Raw E4M3 bytes of values in [-1, 1] (attention's inputs)."""
    codes = E4M3_CODES[np.abs(e4m3_value(E4M3_CODES)) <= 1.0]
    return rng.choice(codes, size=shape).astype(np.uint8)


def round_e4m3(x):
    """Non-negative x rounded to the nearest E4M3 value, ties to the even
    code (cvt.rn.satfinite.e4m3x2.f32 on values below 448)."""
    vals = e4m3_value(np.arange(0x7F, dtype=np.uint8))  # 0 .. 448, ascending
    i = np.clip(np.searchsorted(vals, x), 1, len(vals) - 1)
    lo, hi = vals[i - 1], vals[i]
    even_lo = (i - 1) % 2 == 0
    return np.where(x - lo < hi - x, lo, np.where(x - lo > hi - x, hi, np.where(even_lo, lo, hi)))


class AttentionFp8(CuTileSpec):
    """FP8 attention (attention_fp8.py): e4m3 Q, K, V in [-1, 1], P rounded
    to e4m3 before P V. The bound: P's rounding (2^-4 of each term), the
    exponential's approximation and O's bf16 rounding (2^-8). (Lq, Lk): one
    trip, ragged 200 x 300 (3 trips), 256 x 1000 (8)."""
    fixture = "test/cutile/lower/fixtures/attention_fp8-13.4.tileirbc"
    tolerances = {3: BF16_TOL}
    qk_scale, v_scale = 0.5, 0.5

    def problems(self, quick=False):
        probs = [(128, 128), (200, 300), (256, 1000)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return f"Lq={p[0]} Lk={p[1]} trips={cdiv(p[1], 128)} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 128), 1, 1)

    def arrays(self, rng, p):
        lq, lk = p
        return {0: small_e4m3(rng, (lq, 128)), 1: small_e4m3(rng, (lk, 128)), 2: small_e4m3(rng, (lk, 128))}

    def output_shapes(self, p):
        return {3: (p[0], 128)}

    def scalar_values(self, p):
        return {4: self.qk_scale, 5: self.v_scale}

    def expected(self, a, p):
        q, k, v = (e4m3_value(a[i]) for i in range(3))
        s = self.qk_scale * (q @ k.T)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        total = e.sum(axis=1, keepdims=True)
        o = self.v_scale * (round_e4m3(e) @ v) / total
        bound = self.v_scale * 2.0 ** -4 * (e @ np.abs(v)) / total + 2.0 ** -8 * np.abs(o) + 1e-3
        return {3: (o, bound)}


class AttentionVarlen(CuTileSpec):
    """Causal attention over packed sequences (attention_varlen.py): each
    problem is the sequences' lengths; Cu their starts (int32 as the main
    takes integer arrays, in float32). One sequence of one block; three of
    100, 30 and 200 (a block shorter than its tile, several blocks); four
    of 1, 130, 64 and 257 (a one-row sequence, trips up to 5)."""
    fixture = "test/cutile/lower/fixtures/attention_varlen-13.4.tileirbc"
    tolerances = {3: BF16_TOL}
    scale = 0.125

    def problems(self, quick=False):
        probs = [(64,), (100, 30, 200), (1, 130, 64, 257)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return f"lengths={p} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(max(p), 64), len(p), 1)

    def arrays(self, rng, p):
        t = sum(p)
        cu = np.concatenate([[0], np.cumsum(p)])
        return {0: uniform_bf16(rng, (t, 64)), 1: uniform_bf16(rng, (t, 64)), 2: uniform_bf16(rng, (t, 64)),
                4: cu.astype(np.float32)}

    def output_shapes(self, p):
        return {3: (sum(p), 64)}

    def scalar_values(self, p):
        return {5: self.scale}

    def expected(self, a, p):
        outs, bounds, s0 = [], [], 0
        for n in p:
            q, k, v = (a[i][s0:s0 + n].astype(np.float64) for i in range(3))
            seen = np.arange(n)[None, :] <= np.arange(n)[:, None]
            o, b = softmax_times_v(np.where(seen, self.scale * (q @ k.T), -np.inf), v)
            outs.append(o)
            bounds.append(b)
            s0 += n
        return {3: (np.concatenate(outs), np.concatenate(bounds))}


class LinearFewRows(CuTileSpec):
    """Y = X W^T + b at 8-row tiles (linear_few_rows.py), W N x K: 8 tokens
    at one K step, a ragged 5 x 300 x 200 (4 trips), 40 x 256 x 640 (10)."""
    fixture = "test/cutile/lower/fixtures/linear_few_rows-13.4.tileirbc"
    tolerances = {3: BF16_TOL}

    def problems(self, quick=False):
        probs = [(8, 64, 64), (5, 300, 200), (40, 256, 640)]
        return probs[:2] if quick else probs

    def describe(self, p):
        return f"M={p[0]} N={p[1]} K={p[2]} trips={cdiv(p[2], 64)} grid={self.grid(p)}"

    def grid(self, p):
        return (cdiv(p[0], 8), cdiv(p[1], 64), 1)

    def arrays(self, rng, p):
        m, n, k = p
        return {0: uniform_bf16(rng, (m, k)), 1: uniform_bf16(rng, (n, k)), 2: uniform_bf16(rng, (n,))}

    def output_shapes(self, p):
        return {3: (p[0], p[1])}

    def expected(self, a, p):
        return {3: a[0].astype(np.float64) @ a[1].astype(np.float64).T + a[2]}


SPECS = {
    "cutile_matmul": Matmul(),
    "cutile_matmul_bias_act": MatmulBiasAct(),
    "cutile_matmul_256": Matmul256(),
    "cutile_batched_matmul": BatchedMatmul(),
    "cutile_softmax_rows": SoftmaxRows(),
    "cutile_softmax_padded": SoftmaxPadded(),
    "cutile_softmax": Softmax(),
    "cutile_layernorm_row": LayerNormRow(),
    "cutile_l2norm_pairs": L2NormPairs(),
    "cutile_rmsnorm_rows": RmsNormRows(),
    "cutile_layernorm_rows": LayerNormRows(),
    "cutile_attention_head": AttentionHead(),
    "cutile_attention": Attention(),
    "cutile_attention_causal": AttentionCausal(),
    "cutile_softmax_row_masked": SoftmaxRowMasked(),
    "cutile_attention_two_stage": AttentionTwoStage(),
    "cutile_attention_alibi": AttentionAlibi(),
    "cutile_linear_gelu": LinearGelu(),
    "cutile_linear_fp8": LinearFp8(),
    "cutile_linear_tf32": LinearTf32(),
    "cutile_matmul_tf32": MatmulTf32(),
    "cutile_matmul_f32_small": MatmulF32Small(),
    "cutile_weight_grad_tf32": WeightGradTf32(),
    "cutile_matmul_fp8": MatmulFp8(),
    "cutile_gemm_accumulate": GemmAccumulate(),
    "cutile_matmul_persistent": MatmulPersistent(),
    "cutile_attention_bhsd": AttentionBhsd(),
    "cutile_attention_gqa_shapes": AttentionGqaShapes(),
    "cutile_attention_hd256": AttentionHd256(),
    "cutile_attention_fmha": AttentionFmha(),
    "cutile_attention_last_block": AttentionLastBlock(),
    "cutile_matmul_gelu_pow": MatmulGeluPow(),
    "cutile_vector_add": VectorAdd(),
    "cutile_transpose": Transpose(),
    "cutile_transpose_f32": TransposeF32(),
    "cutile_row_stats": RowStats(),
    "cutile_column_sums": ColumnSums(),
    "cutile_column_norms": ColumnNorms(),
    "cutile_transpose_scaled": TransposeScaled(),
    "cutile_chunk_maxima": ChunkMaxima(),
    "cutile_vector_add_gather": VectorAddGather(),
    "cutile_vector_add_gather_2d": VectorAddGather2d(),
    "cutile_gather_gemm": GatherGemm(),
    "cutile_gather_masked": GatherMasked(),
    "cutile_gather_rowsum": GatherRowsum(),
    "cutile_block_sums": BlockSums(),
    "cutile_softmax_gather": SoftmaxGather(),
    "cutile_stencil": Stencil(),
    "cutile_vector_add_masked": VectorAddMasked(),
    "cutile_transpose_gather": TransposeGather(),
    "cutile_row_diff": RowDiff(),
    "cutile_gather_strided": GatherStrided(),
    "cutile_embedding": Embedding(),
    "cutile_moe_gemm": MoeGemm(),
    "cutile_int_affine": IntAffine(),
    "cutile_split_k_gemm": SplitKGemm(),
    "cutile_gemm_gather_b": GemmGatherB(),
    "cutile_histogram": Histogram(),
    "cutile_gemm_scaled_a": GemmScaledA(),
    "cutile_gemm_scaled_b": GemmScaledB(),
    "cutile_column_means": ColumnMeans(),
    "cutile_attention_bwd_dkdv": AttentionBwdDkDv(),
    "cutile_attention_bwd_dq": AttentionBwdDq(),
    "cutile_swiglu_gemm": SwigluGemm(),
    "cutile_matmul_store_t": MatmulStoreT(),
    "cutile_layernorm_rows16": LayerNormRows16(),
    "cutile_layernorm_bwd_dx": LayerNormBwdDx(),
    "cutile_math_functions": MathFunctions(),
    "cutile_softmax_columns": SoftmaxColumns(),
    "cutile_gemm_int8_weights": GemmInt8Weights(),
    "cutile_matmul_i8": MatmulI8(),
    "cutile_matmul_u8": MatmulU8(),
    "cutile_gemm_w4a16": GemmW4A16(),
    "cutile_gemm_w4a16_i32": GemmW4A16I32(),
    "cutile_gemm_i8_shift": GemmI8Shift(),
    "cutile_attention_tutorial": AttentionTutorial(),
    "cutile_linear_w8a8": LinearW8A8(),
    "cutile_gemm_i8_requant": GemmI8Requant(),
    "cutile_attention_decode": AttentionDecode(),
    "cutile_row_cumsum": RowCumsum(),
    "cutile_gemm_alpha_beta": GemmAlphaBeta(),
    "cutile_attention_bias_mask": AttentionBiasMask(),
    "cutile_gemm_b2b": GemmB2b(),
    "cutile_attention_paged_decode": AttentionPagedDecode(),
    "cutile_row_argmax": RowArgmax(),
    "cutile_dot_product": DotProduct(),
    "cutile_store_branches": StoreBranches(),
    "cutile_attention_causal64": AttentionCausal64(),
    "cutile_batch_stats": BatchStats(),
    "cutile_argmax_chunks": ArgmaxChunks(),
    "cutile_gemm_k_masked": GemmKMasked(),
    "cutile_quantize_rows": QuantizeRows(),
    "cutile_row_suffix_sums": RowSuffixSums(),
    "cutile_greedy_tokens": GreedyTokens(),
    "cutile_rope_inplace": RopeInplace(),
    "cutile_splitk_merge": SplitkMerge(),
    "cutile_row_sums_atomic": RowSumsAtomic(),
    "cutile_short_softmax": ShortSoftmax(),
    "cutile_decode_split_kv": DecodeSplitKv(),
    "cutile_split_k_gemm64": SplitKGemm64(),
    "cutile_gemm_bias_grad": GemmBiasGrad(),
    "cutile_attention_mla": AttentionMla(),
    "cutile_row_rms": RowRms(),
    "cutile_cross_entropy_rows": CrossEntropyRows(),
    "cutile_bmm_3d_tiles": Bmm3dTiles(),
    "cutile_gemm_store_colmajor": GemmStoreColmajor(),
    "cutile_decode_gqa_mma": DecodeGqaMma(),
    "cutile_attention_softcap_gqa": AttentionSoftcapGqa(),
    "cutile_linear_few_rows": LinearFewRows(),
    "cutile_decode_alibi": DecodeAlibi(),
    "cutile_decode_alibi_mqa": DecodeAlibiMqa(),
    "cutile_linear_lora": LinearLora(),
    "cutile_attention_fp8": AttentionFp8(),
    "cutile_attention_varlen": AttentionVarlen(),
    "cutile_gemm_bias_first": GemmBiasFirst(),
}

# cuTile's two loops as they come (the lowering's fuse-split-loops=false):
# on sm_90a peeled, the accumulator passing between them in registers.
_split = copy.copy(SPECS["cutile_attention_fmha"])
_split.lowering = "fuse-split-loops=false"
_split.materialize = "mode=unspecialized"
SPECS["cutile_attention_fmha_split"] = _split

# The f32 sample at 32 x 32 x 32 made persistent: the emulator's 2 CTAs
# walk up to 35 tiles each, trip counts 0, 1, 3 and 4; the first warp's
# epilogue rejoins the others at each tile's end.
_small = copy.copy(SPECS["cutile_matmul_f32_small"])
_small.materialize = "persistent"
_small.problems = lambda quick=False: [(64, 64, 32), (200, 300, 100), (100, 70, 0), (96, 128, 96)]
SPECS["cutile_matmul_f32_small_persistent"] = _small
# Its fallback epilogue, staged through SMEM (rows 0-31 kept, the first warp
# a row a thread), forced: the rows epilogue is the translation's first
# choice since session 47.
_staged = copy.copy(SPECS["cutile_matmul_f32_small"])
_staged.translate = "--tileas-wgmma-epilogue=staged"
SPECS["cutile_matmul_f32_small_staged"] = _staged

# Peeled only, as `tilepipe compile` falls back to: warp-specialized, the
# statistics between the loops would sit outside the agents.
SPECS["cutile_layernorm_stats_peeled"] = LayerNormStats()
SPECS["cutile_layernorm_stats_peeled"].materialize = "mode=unspecialized"
# As written (numcheck checks it peeled, as `tilepipe compile` falls back
# to) and peeled by the spec.
SPECS["cutile_layernorm_gathers"] = LayerNormGathers()
SPECS["cutile_layernorm_gathers_peeled"] = LayerNormGathers()
SPECS["cutile_layernorm_gathers_peeled"].materialize = "mode=unspecialized"

# Tiles of 32 rows, as peeled stage code only: warp-specialized, the two
# loops' rings lie side by side and need more SMEM than a CTA has.
for _name, _spec in [("cutile_rmsnorm", RmsNorm()), ("cutile_layernorm", LayerNorm())]:
    _spec.materialize = "mode=unspecialized"
    SPECS[_name + "_peeled"] = _spec

# The same kernels as peeled (one-agent) stage code.
for _name in ["cutile_matmul_bias_act", "cutile_batched_matmul", "cutile_softmax_rows",
              "cutile_softmax_padded", "cutile_softmax", "cutile_layernorm_row",
              "cutile_l2norm_pairs",
              "cutile_layernorm_rows", "cutile_attention_head", "cutile_attention_causal",
              "cutile_linear_gelu", "cutile_linear_fp8", "cutile_linear_tf32", "cutile_matmul_tf32",
              "cutile_matmul_f32_small", "cutile_weight_grad_tf32", "cutile_matmul_fp8",
              "cutile_gemm_accumulate",
              "cutile_matmul_persistent", "cutile_attention_bhsd", "cutile_attention_fmha",
              "cutile_attention_last_block", "cutile_matmul_gelu_pow", "cutile_vector_add",
              "cutile_transpose", "cutile_transpose_f32", "cutile_row_stats",
              "cutile_column_sums", "cutile_chunk_maxima", "cutile_vector_add_gather",
              "cutile_gather_gemm", "cutile_gather_masked", "cutile_gather_rowsum",
              "cutile_softmax_gather", "cutile_stencil", "cutile_vector_add_masked",
              "cutile_transpose_gather", "cutile_row_diff", "cutile_transpose_scaled",
              "cutile_embedding", "cutile_moe_gemm", "cutile_split_k_gemm", "cutile_histogram",
              "cutile_gemm_gather_b", "cutile_gemm_scaled_a", "cutile_gemm_scaled_b",
              "cutile_column_means", "cutile_attention_bwd_dkdv", "cutile_attention_bwd_dq",
              "cutile_swiglu_gemm", "cutile_matmul_store_t", "cutile_gemm_int8_weights",
              "cutile_attention_decode", "cutile_gemm_alpha_beta", "cutile_attention_bias_mask",
              "cutile_gemm_b2b", "cutile_attention_paged_decode", "cutile_dot_product",
              "cutile_store_branches", "cutile_attention_causal64", "cutile_batch_stats",
              "cutile_argmax_chunks", "cutile_gemm_k_masked", "cutile_decode_split_kv",
              "cutile_attention_mla", "cutile_row_rms", "cutile_gemm_bias_first",
              "cutile_cross_entropy_rows", "cutile_bmm_3d_tiles", "cutile_attention_hd256",
              "cutile_gemm_store_colmajor", "cutile_decode_gqa_mma", "cutile_linear_few_rows",
              "cutile_decode_alibi", "cutile_attention_fp8", "cutile_attention_varlen",
              "cutile_matmul_i8", "cutile_matmul_u8", "cutile_attention_tutorial", "cutile_gemm_w4a16",
              "cutile_gemm_w4a16_i32", "cutile_gemm_i8_shift", "cutile_linear_w8a8", "cutile_gemm_i8_requant"]:
    _peeled = copy.copy(SPECS[_name])
    _peeled.materialize = "mode=unspecialized"
    SPECS[_name + "_peeled"] = _peeled
SPECS["cutile_attention_gqa_shapes_peeled"] = AttentionGqaShapes()
SPECS["cutile_attention_gqa_shapes_peeled"].materialize = "mode=unspecialized"
