#!/usr/bin/env python3
"""A wgmma rounding dump (test/fidelity/rounding_fidelity.cu, "TPRD1")
against a model of how Hopper's tensor core rounds, per configuration:
how many of the 4096 results the model gives bit for bit.

    scripts/mma-rounding.py DUMP[.gz] [--only SUBSTR] [--fp8-bits F]

The model, fitted on an H200's dump (2026-12-04, docs/cpu-emulation.md
"How the tensor core rounds"): for one instruction, the reference exponent E
is the largest of the products' exponent sums (ea + eb of the operands, the
significand product in [1, 4)) and the accumulator's exponent; every product
and the accumulator are cut toward zero to a multiple of 2^(E - F); the cut
terms are summed exactly, and the sum is cut toward zero to f32. F is 25
for bf16, f16 and tf32 (the dump: 49,152 of 49,152 results); for the 8-bit
floats F = 13 fits the probes but not every random sum (--fp8-bits).
Integer kinds: the exact s32 sum, wrapping.

Exit status: 0 when every 16-bit and tf32 result and every integer result
fits, 1 otherwise, 2 on a bad dump. Needs numpy.
"""

import argparse
import gzip
import struct
import sys

import numpy as np

KINDS = ["bf16", "f16", "tf32", "e4m3", "e5m2", "e4m3_e5m2", "s8", "u8_s8", "u8"]
EXACT_KINDS = {"bf16", "f16", "tf32", "s8", "u8_s8", "u8"}
ROWS = COLS = 64


def fp8_table(exp_bits):
    man = 7 - exp_bits
    bias = (1 << (exp_bits - 1)) - 1
    codes = np.arange(256)
    sign = np.where(codes >> 7, -1.0, 1.0)
    e = (codes >> man) & ((1 << exp_bits) - 1)
    m = (codes & ((1 << man) - 1)) / float(1 << man)
    return sign * np.where(e == 0, m * 2.0 ** (1 - bias), (1 + m) * np.exp2(e - bias))


def operand(kind, is_b):
    if kind == "e4m3_e5m2":
        return "e5m2" if is_b else "e4m3"
    if kind == "u8_s8":
        return "s8" if is_b else "u8"
    return kind


def decode(kind, raw):
    """The values of one operand's 64 rows of 32 bytes."""
    if kind == "bf16":
        return (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if kind == "f16":
        return raw.view(np.float16).astype(np.float64)
    if kind == "tf32":
        return (raw.view(np.uint32) & 0xFFFFE000).view(np.float32).astype(np.float64)
    if kind in ("e4m3", "e5m2"):
        return fp8_table(4 if kind == "e4m3" else 5)[raw]
    return raw.view(np.int8).astype(np.float64) if kind == "s8" else raw.astype(np.float64)


def read_dump(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    if not data.startswith(b"TPRD1\n"):
        raise ValueError(f"{path}: not a rounding dump (TPRD1)")
    pos, out = 6, []
    while pos < len(data):
        end = data.index(b"\n", pos)
        name = data[pos:end].decode()
        pos = end + 1
        status, kind, _, scale_d = struct.unpack_from("<4I", data, pos)
        pos += 16
        ab = np.frombuffer(data, np.uint8, 2 * ROWS * 32, pos).reshape(2 * ROWS, 32).copy()
        pos += 2 * ROWS * 32
        c = np.frombuffer(data, np.uint32, ROWS * COLS, pos).reshape(ROWS, COLS).copy()
        pos += 4 * ROWS * COLS
        d = None
        if status == 0:
            d = np.frombuffer(data, np.uint32, ROWS * COLS, pos).reshape(ROWS, COLS).copy()
            pos += 4 * ROWS * COLS
        k = KINDS[kind]
        out.append((name, k, scale_d, decode(operand(k, False), ab[:ROWS]),
                    decode(operand(k, True), ab[ROWS:]), c, d))
    return out


def exponent(x):
    """floor(log2 |x|) elementwise; a very small number where x is 0."""
    _, e = np.frexp(x)
    return np.where(x == 0, -10**6, e - 1)


def cut_to_f32(s):
    """s (float64, exact) cut toward zero to f32, as u32 bits."""
    f = s.astype(np.float32)
    over = np.abs(f.astype(np.float64)) > np.abs(s)
    f = np.where(over, np.nextafter(f, np.float32(0)), f)
    return f.view(np.uint32)


def model_float(a, b, c, scale_d, bits):
    """[64, 64] results of D = A B^T (+ C) under the truncating model."""
    prod = a[:, None, :] * b[None, :, :]  # exact in float64
    ref = (exponent(a)[:, None, :] + exponent(b)[None, :, :])
    ref = np.where((a[:, None, :] == 0) | (b[None, :, :] == 0), -10**6, ref).max(axis=2)
    cf = c.view(np.float32).astype(np.float64) if scale_d else np.zeros((ROWS, COLS))
    ref = np.maximum(ref, exponent(cf))
    q = np.exp2((ref - bits).astype(np.float64))[:, :, None]
    # |term / q| < 2^(bits + 2): each cut term and their sum stay exact.
    s = (np.trunc(prod / q) * q).sum(axis=2) + (np.trunc(cf / q[:, :, 0]) * q[:, :, 0])
    return cut_to_f32(s)


def model_int(a, b, c, scale_d):
    s = (a.astype(np.int64) @ b.astype(np.int64).T) + (c.view(np.int32).astype(np.int64)
                                                      if scale_d else 0)
    return (s & 0xFFFFFFFF).astype(np.uint32)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dump")
    ap.add_argument("--only", default="")
    ap.add_argument("--fp8-bits", type=int, default=13)
    args = ap.parse_args()
    try:
        entries = read_dump(args.dump)
    except (OSError, ValueError, struct.error) as e:
        print(f"mma-rounding: {e}", file=sys.stderr)
        return 2
    bad = 0
    for name, kind, scale_d, a, b, c, d in entries:
        if args.only not in name:
            continue
        if d is None:
            print(f"{name}: did not run")
            bad += kind in EXACT_KINDS
            continue
        if kind in ("s8", "u8_s8", "u8"):
            got = model_int(a, b, c, scale_d)
        else:
            bits = args.fp8_bits if kind not in ("bf16", "f16", "tf32") else 25
            got = model_float(a, b, c, scale_d, bits)
        same = int((got == d).sum())
        print(f"{name}: {same} of {d.size} bit-identical to the model")
        bad += kind in EXACT_KINDS and same != d.size
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
