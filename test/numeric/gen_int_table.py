#!/usr/bin/env python3
"""Writes test/lit/cuda/Inputs/int-table.mlir: a kernel that evaluates every
integer op of arith on scalars (index, i32, i64 and i1: add, sub, mul, the
signed and unsigned divisions, remainders, ceil and floor divisions, min,
max, shifts, bitwise ops, every cmpi predicate, select, the casts and the
extended ops addui_extended, mulsi_extended, mului_extended) from
kernel arguments, before its loop, and stores the results as float tiles.

CTA (x, y) takes the operand pair x, a = a0 + x * da and b = b0 + x * db
(negative ones included), and stores value y of OPS: its 64-bit two's
complement (sign-extended from its type; i1 zero-extended) in four 16-bit
pieces, piece i (the loop's iteration i, cut out with shrui and andi inside
the loop) as a 128x4 tile of floats at rows 128 x, columns 16 y + 4 i.
test/numeric/specs.py (IntTable) checks them against int_ref() below, an
independent statement of arith's semantics in Python integers.

Usage: gen_int_table.py > test/lit/cuda/Inputs/int-table.mlir"""

# (name, width, MLIR text producing %v from %a, %b of that width); the
# value is then widened to i64 as VALUE_TO_I64 says. Widths: 32, 64 (i64),
# "index", 1.
BINARY = ["addi", "subi", "muli", "divsi", "divui", "remsi", "remui",
          "ceildivsi", "ceildivui", "floordivsi", "minsi", "minui", "maxsi",
          "maxui", "andi", "ori", "xori"]
SHIFTS = ["shli", "shrsi", "shrui"]
PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt",
              "uge"]
TYPES = {"i32": 32, "i64": 64, "index": 64}


def ops():
    """[(label, mlir lines computing %r{k} : i64)] in CTA-y order."""
    out = []
    for t, w in TYPES.items():
        for name in BINARY:
            out.append((f"{name} {t}", t, [f"%x = arith.{name} %a_{t}, %b_{t} : {t}"]))
        for name in SHIFTS:
            # The amount b mod w: in range, so the result is never poison.
            out.append((f"{name} {t}", t, [
                f"%s = arith.andi %b_{t}, %w1_{t} : {t}",
                f"%x = arith.{name} %a_{t}, %s : {t}"]))
        for p in PREDICATES:
            out.append((f"cmpi {p} {t}", "i1", [f"%x = arith.cmpi {p}, %a_{t}, %b_{t} : {t}"]))
        out.append((f"select {t}", t, [
            f"%c = arith.cmpi ult, %a_{t}, %b_{t} : {t}",
            f"%x = arith.select %c, %a_{t}, %b_{t} : {t}"]))
    # i1 operands: the low bits of a and b; signed i1 values are 0 and -1.
    for p in PREDICATES:
        out.append((f"cmpi {p} i1", "i1", [f"%x = arith.cmpi {p}, %a_i1, %b_i1 : i1"]))
    for name in ["andi", "ori", "xori", "minsi", "maxui"]:
        out.append((f"{name} i1", "i1", [f"%x = arith.{name} %a_i1, %b_i1 : i1"]))
    out += [
        ("index_cast i32->index", "index", ["%x = arith.index_cast %a_i32 : i32 to index"]),
        ("index_castui i32->index", "index", ["%x = arith.index_castui %a_i32 : i32 to index"]),
        ("index_cast index->i32", "i32", ["%x = arith.index_cast %big_index : index to i32"]),
        ("index_castui index->i32", "i32", ["%x = arith.index_castui %big_index : index to i32"]),
        ("extsi i32->i64", "i64", ["%x = arith.extsi %a_i32 : i32 to i64"]),
        ("extui i32->i64", "i64", ["%x = arith.extui %a_i32 : i32 to i64"]),
        ("trunci i64->i32", "i32", ["%x = arith.trunci %big_i64 : i64 to i32"]),
        ("extsi i1->i32", "i32", ["%x = arith.extsi %a_i1 : i1 to i32"]),
        ("extui i1->i64", "i64", ["%x = arith.extui %a_i1 : i1 to i64"]),
        ("trunci i64->i1", "i1", ["%x = arith.trunci %big_i64 : i64 to i1"]),
        ("sitofp fptosi i32", "i32", [
            "%f = arith.sitofp %a_i32 : i32 to f32",
            "%x = arith.fptosi %f : f32 to i32"]),
        ("sitofp fptosi i64", "i64", [
            "%f = arith.sitofp %big_i64 : i64 to f32",
            "%x = arith.fptosi %f : f32 to i64"]),
        ("uitofp fptoui i32", "i64", [
            "%f = arith.uitofp %a_i32 : i32 to f32",
            "%x = arith.fptoui %f : f32 to i64"]),
        ("uitofp fptoui i64", "i64", [
            "%s = arith.andi %a_i64, %mask40 : i64",
            "%f = arith.uitofp %s : i64 to f32",
            "%x = arith.fptoui %f : f32 to i64"]),
    ]
    # The extended ops, one row per result (%x the one kept, %y the other).
    for t in ["i32", "i64"]:
        out += [
            (f"addui_extended sum {t}", t,
             [f"%x, %y = arith.addui_extended %a_{t}, %b_{t} : {t}, i1"]),
            (f"addui_extended carry {t}", "i1",
             [f"%y, %x = arith.addui_extended %a_{t}, %b_{t} : {t}, i1"]),
            (f"mulsi_extended low {t}", t,
             [f"%x, %y = arith.mulsi_extended %a_{t}, %b_{t} : {t}"]),
            (f"mulsi_extended high {t}", t,
             [f"%y, %x = arith.mulsi_extended %a_{t}, %b_{t} : {t}"]),
            (f"mului_extended low {t}", t,
             [f"%x, %y = arith.mului_extended %a_{t}, %b_{t} : {t}"]),
            (f"mului_extended high {t}", t,
             [f"%y, %x = arith.mului_extended %a_{t}, %b_{t} : {t}"]),
        ]
    return out


def widen(t):
    """MLIR lines taking %x of type t to %r : i64 (sign-extended; i1 zero)."""
    if t == "i64":
        return ["%r = arith.addi %x, %zero_i64 : i64"]
    if t == "index":
        return ["%r = arith.index_cast %x : index to i64"]
    if t == "i32":
        return ["%r = arith.extsi %x : i32 to i64"]
    return ["%r = arith.extui %x : i1 to i64"]


def rename(lines, k):
    """SSA names %x, %r, %s, %c, %f of value k made unique."""
    out = []
    for line in lines:
        for n in ["%x", "%y", "%r", "%s", "%c", "%f"]:
            line = line.replace(n + " ", f"{n}{k} ").replace(n + ",", f"{n}{k},")
            if line.endswith(n):
                line = line[: -len(n)] + f"{n}{k}"
        out.append(line)
    return out


def mlir():
    table = ops()
    body = []
    for k, (label, t, lines) in enumerate(table):
        body.append(f"  // {k}: {label}")
        body += ["  " + line for line in rename(lines + widen(t), k)]
    # The chain that picks value y of the CTA.
    body.append("  %sel0 = arith.constant 0 : i64")
    for k in range(len(table)):
        body.append(f"  %is{k} = arith.cmpi eq, %by, %k{k} : index")
        body.append(f"  %sel{k + 1} = arith.select %is{k}, %r{k}, %sel{k} : i64")
    consts = "\n".join(f"  %k{k} = arith.constant {k} : index" for k in range(len(table)))
    return f"""// Generated by test/numeric/gen_int_table.py: every integer op of arith on
// scalars from kernel arguments (test/numeric/specs.py, IntTable). CTA
// (x, y) stores value y for the operand pair x as four 16-bit pieces.
func.func @int_table(%descR: !tileas.tma_desc<128x4xf32> {{tileas.name = "R"}},
                     %a0: index {{tileas.name = "a0"}},
                     %da: index {{tileas.name = "da"}},
                     %b0: index {{tileas.name = "b0"}},
                     %db: i32 {{tileas.name = "db"}},
                     %big: i64 {{tileas.name = "big"}}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %zero_i64 = arith.constant 0 : i64
  %w1_i32 = arith.constant 31 : i32
  %w1_i64 = arith.constant 63 : i64
  %w1_index = arith.constant 63 : index
  %c16_i64 = arith.constant 16 : i64
  %mask16 = arith.constant 65535 : i64
  %mask40 = arith.constant 1099511627775 : i64
{consts}
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %xda = arith.muli %bx, %da : index
  %a_index = arith.addi %a0, %xda : index
  %bx32 = arith.index_cast %bx : index to i32
  %xdb = arith.muli %bx32, %db : i32
  %b0_32 = arith.index_cast %b0 : index to i32
  %b_i32 = arith.addi %b0_32, %xdb : i32
  %b_index = arith.index_cast %b_i32 : i32 to index
  %a_i64 = arith.index_cast %a_index : index to i64
  // Not index_cast: -canonicalize folds index_cast(index_cast(x)) to x, as
  // upstream MLIR does, which would skip index_cast i32->index's work.
  %a_i32 = arith.trunci %a_i64 : i64 to i32
  %b_i64 = arith.extsi %b_i32 : i32 to i64
  %a_i1 = arith.trunci %a_i32 : i32 to i1
  %b_i1 = arith.trunci %b_i32 : i32 to i1
  %big_i64 = arith.muli %big, %a_i64 : i64
  %big_index = arith.index_cast %big_i64 : i64 to index
{chr(10).join(body)}
  %row = arith.muli %bx, %c128 : index
  %col0 = arith.muli %by, %c16 : index
  scf.for %i = %c0 to %c4 step %c1 {{
    %i64 = arith.index_cast %i : index to i64
    %sh = arith.muli %i64, %c16_i64 : i64
    %hi = arith.shrui %sel{len(table)}, %sh : i64
    %piece = arith.andi %hi, %mask16 : i64
    %pf = arith.uitofp %piece : i64 to f32
    %tile = tensor.splat %pf : tensor<128x4xf32>
    %s = tileas.smem_store %tile : tensor<128x4xf32> -> !tileas.smem<128x4xf32>
    %ci = arith.muli %i, %c4 : index
    %col = arith.addi %col0, %ci : index
    tileas.tma_store %s, %descR[%row, %col] : !tileas.smem<128x4xf32>, !tileas.tma_desc<128x4xf32>
  }}
  return
}}
"""


# ---------------------------------------------------------------------------
# arith's semantics, in Python integers, written from the MLIR arith docs.
# ---------------------------------------------------------------------------

def to_signed(v, w):
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def to_unsigned(v, w):
    return v & ((1 << w) - 1)


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def binary(name, a, b, w):
    """a, b: the operands' signed values; result as an integer of width w
    (any representative: the caller wraps it)."""
    ua, ub = to_unsigned(a, w), to_unsigned(b, w)
    if name == "addi":
        return a + b
    if name == "subi":
        return a - b
    if name == "muli":
        return a * b
    if name == "divsi":
        return trunc_div(a, b)
    if name == "divui":
        return ua // ub
    if name == "remsi":
        return a - b * trunc_div(a, b)
    if name == "remui":
        return ua % ub
    if name == "ceildivsi":
        return -((-a) // b)
    if name == "ceildivui":
        return -((-ua) // ub)
    if name == "floordivsi":
        return a // b
    if name == "minsi":
        return min(a, b)
    if name == "minui":
        return min(ua, ub)
    if name == "maxsi":
        return max(a, b)
    if name == "maxui":
        return max(ua, ub)
    if name == "andi":
        return ua & ub
    if name == "ori":
        return ua | ub
    if name == "xori":
        return ua ^ ub
    if name == "shli":
        return ua << ub
    if name == "shrsi":
        return a >> ub
    if name == "shrui":
        return ua >> ub
    raise ValueError(name)


def cmp(p, a, b, w):
    ua, ub = to_unsigned(a, w), to_unsigned(b, w)
    return {"eq": a == b, "ne": a != b, "slt": a < b, "sle": a <= b,
            "sgt": a > b, "sge": a >= b, "ult": ua < ub, "ule": ua <= ub,
            "ugt": ua > ub, "uge": ua >= ub}[p]


def f32_round(v):
    """The float32 nearest to integer v (ties to even; v < 2^53, so the
    float64 step is exact)."""
    import struct
    return int(struct.unpack("f", struct.pack("f", float(v)))[0])


def values(a_index, b_i32, big):
    """Every value of OPS for one operand pair, as arith defines it, each as
    the signed 64-bit value the kernel widens it to."""
    a64 = to_signed(a_index, 64)
    a32 = to_signed(a64, 32)
    b32 = to_signed(b_i32, 32)
    b64 = b32
    a1, b1 = a32 & 1, b32 & 1  # i1 bits
    big64 = to_signed(big * a64, 64)
    out = []
    for t, w in TYPES.items():
        a, b = (a32, b32) if w == 32 else (a64, b64)
        for name in BINARY:
            out.append(to_signed(binary(name, a, b, w), w))
        for name in SHIFTS:
            s = to_unsigned(b, w) & (w - 1)
            out.append(to_signed(binary(name, a, s, w), w))
        for p in PREDICATES:
            out.append(int(cmp(p, a, b, w)))
        out.append(a if to_unsigned(a, w) < to_unsigned(b, w) else b)
    s1 = lambda v: -v  # i1's signed value of bit v
    for p in PREDICATES:
        out.append(int(cmp(p, s1(a1), s1(b1), 1)))
    out.append(a1 & b1)
    out.append(a1 | b1)
    out.append(a1 ^ b1)
    out.append(to_unsigned(min(s1(a1), s1(b1)), 1))
    out.append(max(a1, b1))
    out += [
        a32,                                  # index_cast i32 -> index
        to_unsigned(a32, 32),                 # index_castui i32 -> index
        to_signed(big64, 32),                 # index_cast index -> i32
        to_signed(big64, 32),                 # index_castui index -> i32
        a32,                                  # extsi
        to_unsigned(a32, 32),                 # extui
        to_signed(big64, 32),                 # trunci i64 -> i32
        -a1,                                  # extsi i1 -> i32
        a1,                                   # extui i1 -> i64
        big64 & 1,                            # trunci i64 -> i1
        f32_round(a32),                       # sitofp, fptosi i32
        f32_round(big64),                     # sitofp, fptosi i64
        f32_round(to_unsigned(a32, 32)),      # uitofp i32, fptoui i64
        f32_round(to_unsigned(a64, 40)),      # uitofp i64 & 2^40-1, fptoui
    ]
    for w, (a, b) in [(32, (a32, b32)), (64, (a64, b64))]:
        ua, ub = to_unsigned(a, w), to_unsigned(b, w)
        out += [
            to_signed(ua + ub, w),            # addui_extended sum
            int(ua + ub >= 1 << w),           # addui_extended carry
            to_signed(a * b, w),              # mulsi_extended low
            to_signed((a * b) >> w, w),       # mulsi_extended high
            to_signed(ua * ub, w),            # mului_extended low
            to_signed((ua * ub) >> w, w),     # mului_extended high
        ]
    return out


def labels():
    return [label for label, _, _ in ops()]


if __name__ == "__main__":
    print(mlir(), end="")
