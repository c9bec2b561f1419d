#!/usr/bin/env python3
"""The tileas.wgmma verifier against PTX's wgmma.mma_async shape table.

Offers the verifier M in {32, 64, ..., 320} x N in 4..264/4 for each operand
and accumulator type combination, K sweeps, MN-major and register-A variants,
all in one `tilepipe-opt -split-input-file` run, and compares what it accepts
with the ISA's rules as written here, apart from layout/wgmma_shapes.h (PTX
ISA, "Asynchronous Warpgroup Level Matrix Shape"; docs/wgmma-facts.md):
M 64 per warpgroup (tilepipe: up to 4 warpgroups), N 8..256/8 (s8/u8: 8, 16,
24, 32..256/16), K whole instructions of 32 bytes, f16 accumulators for f16
and 8-bit float operands only, transposes for f16/bf16 in SMEM only, and
the tile op's two extensions: tf32 and 8-bit float operands in SMEM given
MN-major (transposed through SMEM by the sm_90a translation), and M = 32
with A in SMEM (issued as 64 rows, rows 0-31 kept).

    python3 scripts/wgmma-shapes.py --build build

Prints one line per combination and exits 1 when the verifier and the table
disagree on any candidate, naming the first few.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

M_CANDIDATES = [32, 64, 96, 128, 192, 256, 320]
N_CANDIDATES = list(range(4, 265, 4))
BITS = {"f16": 16, "bf16": 16, "f32": 32, "f8E4M3FN": 8, "f8E5M2": 8, "i8": 8, "ui8": 8}
FAMILY = {"f16": "f16", "bf16": "bf16", "f32": "tf32", "f8E4M3FN": "f8", "f8E5M2": "f8",
          "i8": "int", "ui8": "int"}
# (A, B, accumulator): every legal combination and some that are not.
COMBOS = [("f16", "f16", "f32"), ("f16", "f16", "f16"), ("bf16", "bf16", "f32"),
          ("bf16", "bf16", "f16"), ("f32", "f32", "f32"), ("f32", "f32", "f16"),
          ("f8E4M3FN", "f8E4M3FN", "f32"), ("f8E4M3FN", "f8E5M2", "f16"),
          ("f8E5M2", "f8E5M2", "f32"), ("i8", "i8", "i32"), ("i8", "ui8", "i32"),
          ("ui8", "ui8", "f32"), ("f16", "bf16", "f32"), ("bf16", "f8E4M3FN", "f32"),
          ("i8", "f8E4M3FN", "f32"), ("f16", "f16", "i32")]


def isa_accepts(a, b, acc, m, n, k, reg_a=False, a_mn=False, b_mn=False):
    fa, fb = FAMILY[a], FAMILY[b]
    if fa != fb or (fa in ("f16", "bf16", "tf32") and a != b):
        return False
    acc_ok = {"f16": acc in ("f32", "f16"), "bf16": acc == "f32", "tf32": acc == "f32",
              "f8": acc in ("f32", "f16"), "int": acc == "i32"}[fa]
    if not acc_ok:
        return False
    # The tile op's one extension of the ISA's rule: tf32 and 8-bit
    # operands in SMEM given MN-major, which the sm_90a translation
    # transposes through SMEM (docs/cuda.md, "Operands given MN-major").
    staged = fa in ("tf32", "f8", "int") and not reg_a
    if (a_mn or b_mn) and not staged and (fa not in ("f16", "bf16") or (a_mn and reg_a)):
        return False
    # ... and a 32-row tile with A in SMEM, issued as 64 rows.
    if not ((m % 64 == 0 and 64 <= m <= 256) or (m == 32 and not reg_a)):
        return False
    n_ok = (n in (8, 16, 24) or (32 <= n <= 256 and n % 16 == 0)) if fa == "int" \
        else (8 <= n <= 256 and n % 8 == 0)
    k_instr = 256 // BITS[a]
    return n_ok and k % k_instr == 0 and k > 0


def probe(a, b, acc, m, n, k, reg_a=False, a_mn=False, b_mn=False):
    at = f"tensor<{m}x{k}x{a}>" if reg_a else \
        (f"!tileas.smem<{k}x{m}x{a}>" if a_mn else f"!tileas.smem<{m}x{k}x{a}>")
    bt = f"!tileas.smem<{k}x{n}x{b}>" if b_mn else f"!tileas.smem<{n}x{k}x{b}>"
    ct = f"tensor<{m}x{n}x{acc}>"
    attrs = [x for x, on in (("a_mn_major", a_mn), ("b_mn_major", b_mn)) if on]
    attr = (" {" + ", ".join(["accumulate"] + attrs) + "}")
    return (f"func.func @p(%a: {at}, %b: {bt}, %c: {ct}) -> {ct} {{\n"
            f"  %d = tileas.wgmma %a, %b, %c{attr} : {at}, {bt}, {ct} -> {ct}\n"
            f"  return %d : {ct}\n}}\n")


def verdicts(opt, cases, tmp):
    """For each case, whether the verifier accepted its split."""
    chunks, starts, line = [], [], 1
    for c in cases:
        text = probe(*c)
        starts.append(line)
        chunks.append(text)
        line += text.count("\n") + 1
    path = os.path.join(tmp, "wgmma_probe.mlir")
    with open(path, "w") as f:
        f.write("// -----\n".join(chunks))
    out = subprocess.run([opt, path, "-split-input-file", "-o", os.devnull],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    bad = sorted(int(x) + 1 for x in re.findall(
        r"within split at \S*wgmma_probe\.mlir:(\d+) offset :\d+:\d+: error", out))
    refused, j = set(), 0
    for i in range(len(cases)):
        end = starts[i + 1] if i + 1 < len(cases) else 1 << 30
        while j < len(bad) and bad[j] < starts[i]:
            j += 1
        if j < len(bad) and bad[j] < end:
            refused.add(i)
    messages = re.findall(r"error: ('tileas\.wgmma' op .*)", out)
    return [i not in refused for i in range(len(cases))], messages


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "tilepipe-opt")
    groups = []
    for a, b, acc in COMBOS:
        k = 256 // BITS[a] * 2
        groups.append((f"{a} x {b} -> {acc}: M x N",
                       [(a, b, acc, m, n, k) for m in M_CANDIDATES for n in N_CANDIDATES]))
        kk = 256 // BITS[a]
        groups.append((f"{a} x {b} -> {acc}: K, register A, MN-major",
                       [(a, b, acc, 64, 64, x) for x in (kk // 2, kk, kk * 3 // 2, kk * 2, kk * 4)]
                       + [(a, b, acc, 128, 128, kk, True), (a, b, acc, 64, 64, kk, False, True),
                          (a, b, acc, 64, 64, kk, False, False, True),
                          (a, b, acc, 64, 64, kk, True, True)]))
    cases = [c for _, g in groups for c in g]
    with tempfile.TemporaryDirectory() as tmp:
        got, messages = verdicts(opt, cases, tmp)
    status, i = 0, 0
    total_ok = total = 0
    for name, g in groups:
        want = [isa_accepts(*c) for c in g]
        have = got[i:i + len(g)]
        i += len(g)
        wrong = [c for c, w, h in zip(g, want, have) if w != h]
        total += len(g)
        total_ok += sum(have)
        if wrong:
            status = 1
            print(f"{name}: MISMATCH on {len(wrong)} of {len(g)}: " +
                  "; ".join(f"M={c[3]} N={c[4]} K={c[5]} -> verifier "
                            f"{'accepts' if not isa_accepts(*c) else 'refuses'}"
                            for c in wrong[:4]))
        else:
            print(f"{name}: the verifier accepts {sum(have)} of {len(g)}, as the table")
    rules = sorted({m.split("rule: ", 1)[1] for m in messages if "rule: " in m})
    print(f"messages naming a rule: {sum('rule: ' in m for m in messages)} of {len(messages)}; "
          f"distinct rules: {len(rules)}")
    print(f"total: {total} candidates, {total_ok} accepted; {'FAIL' if status else 'ok'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
