"""Checks a tilepipe attention output on sampled rows against float64, for
scripts/gpu-check.py's attention timing (issue 38, point 6c): O = softmax_2(Q
K^T x scale) V, the base-2 softmax of test/lit/cuda/Inputs/attn-scale-hd128.mlir
(scale = log2(e) / sqrt(d)), with test/numeric/specs.py's AttentionScaled
bound (P and O in bf16: 1e-3 + 2^-7 of (P |V|) / l per element).

    python3 attention_sample_check.py Q.npy K.npy V.npy O.npy SCALE [--rows N]

Reads the float32 .npy files itself and computes with numpy, else with torch
(the lent machine's python3 has torch and may lack numpy). Prints one JSON
line {"check": "pass"|"fail", "samples", "max_abs_err", "worst_ratio"} and
exits 1 on a failed check.
"""
import argparse
import array
import ast
import json
import random
import sys


def load_npy(path):
    """(shape, values) of a little-endian row-major float32 .npy."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:6] != b"\x93NUMPY":
        raise SystemExit(f"{path}: not a .npy file")
    width = 2 if raw[6] == 1 else 4
    size = int.from_bytes(raw[8:8 + width], "little")
    start = 8 + width + size
    header = ast.literal_eval(raw[8 + width:start].decode("latin1"))
    if header["descr"] != "<f4" or header["fortran_order"]:
        raise SystemExit(f"{path}: {header['descr']}, not row-major <f4")
    values = array.array("f")
    values.frombytes(raw[start:])
    return header["shape"], values


def matrices(paths):
    """The four as float64 matrices of numpy, else of torch (on the GPU when
    there is one), and the module's name."""
    loaded = [load_npy(p) for p in paths]
    try:
        import numpy as np
        return [np.frombuffer(v, dtype=np.float32).reshape(s).astype(np.float64)
                for s, v in loaded], "numpy"
    except ImportError:
        import torch
        dev = "cuda" if torch.cuda.is_available() else "cpu"
        return [torch.frombuffer(bytearray(v.tobytes()), dtype=torch.float32).reshape(s)
                .to(dev, torch.float64) for s, v in loaded], "torch"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("q")
    ap.add_argument("k")
    ap.add_argument("v")
    ap.add_argument("o")
    ap.add_argument("scale", type=float)
    ap.add_argument("--rows", type=int, default=64)
    args = ap.parse_args()
    (q, k, v, o), lib = matrices([args.q, args.k, args.v, args.o])
    rows = sorted(random.Random(7).sample(range(q.shape[0]), min(args.rows, q.shape[0])))
    qs, os_ = q[rows], o[rows]
    s = (qs @ k.T) * args.scale
    if lib == "numpy":
        import numpy as np
        e = np.exp2(s - s.max(axis=1, keepdims=True))
        finite = bool(np.isfinite(os_).all())
    else:
        import torch
        e = torch.exp2(s - s.max(dim=1, keepdim=True).values)
        finite = bool(torch.isfinite(os_).all())
    l = e.sum(1).reshape(-1, 1)
    want, mag = (e @ v) / l, (e @ abs(v)) / l
    err = abs(os_ - want)
    ratio = float((err / (1e-3 + 2.0 ** -7 * mag)).max())
    ok = ratio <= 1.0 and finite
    print(json.dumps({"check": "pass" if ok else "fail", "samples": len(rows),
                      "max_abs_err": float(err.max()), "worst_ratio": round(ratio, 4),
                      "with": lib}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
