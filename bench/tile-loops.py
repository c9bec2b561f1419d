#!/usr/bin/env python3
"""Generated tile loops (issue 35, point 7): seeded `tileas` loops of TMA loads,
UMMAs, TMEM loads and SIMT ops, with constraint groups, written as MLIR that the
verifier and the scheduling pass accept, and a timed sweep of the scheduler on them.

    python3 bench/tile-loops.py gen N SEED OUT.mlir      # one loop of about N ops
    python3 bench/tile-loops.py run                      # the sweep, one TSV row per loop
    python3 bench/tile-loops.py run --sizes 43,200 --seeds 1,2 --extra-args="time-limit-ms=1000"
    python3 bench/tile-loops.py run --examples           # the bundled examples/*.mlir as well
    python3 bench/tile-loops.py run --table --target sm_90a   # the same loops for Hopper

A loop is a sequence of units drawn with a seeded random.Random until the body
holds N schedulable ops (the last unit is cut short where it can be):

- gemm: K-slices of a GEMM k-block, each a TMA load of A (128x64 bf16) and of
  B (Nx64 bf16, N in 64/128/256) and a UMMA accumulating into a carried TMEM
  accumulator (an iter_arg); with probability --group-rate the two loads of a
  slice form a constraint group (gid, and leader_gid on the second);
- attn: an attention step in the FA4 shape: TMA loads of K and V, S = Q K^T on
  the tensor core (Q loaded before the loop), the online softmax on SIMT
  units (tmem_load, reduce_max, max, sub, exp2, reduce_sum, the rescale of
  the row sum), P stored to TMEM as bf16, O += P V as a TS-mode UMMA; m, l
  and O carried; K and V of one step form a same-depth group with
  probability --group-rate (the issue's "attention with same-depth groups");
- epi: an epilogue chain on an earlier unit's accumulator of this
  iteration: tmem_load, 1-5 element-wise ops (mul by a scalar, add of a row
  vector, exp2, max, fma), cvt to bf16, smem_store and a TMA store;
- simt: a TMA load of an f32 tile, smem_load, 1-6 element-wise ops, a row
  reduction, and the row vector added to a carried one.

Every tile the loop reads before the loop (Q, the row vectors) is a function
argument or loaded in the prologue, so the loop body is the whole problem.
`run` schedules each loop with `tilepipe-opt --tileas-generate-schedule=print-schedule`
and prints: file, ops, MII (and its parts), the II found, II / MII, the generator
and the wall time of the process; the summary line gives the worst ratio and
the slowest run. See bench/README.md and docs/performance.md.
"""
import argparse
import os
import resource
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Loop:
    """The body under construction: SSA names, carried values, arguments."""

    def __init__(self, rng, group_rate):
        self.rng = rng
        self.group_rate = group_rate
        self.body = []  # lines of the loop body
        self.ops = 0  # schedulable tileas ops in the body
        self.args = {}  # function argument name -> type
        self.pre = []  # lines before the loop
        self.iters = []  # (name, init, type, yielded value name placeholder)
        self.next_id = 0
        self.next_gid = 1
        self.accs = []  # (value, type) tmem accumulators made this iteration

    def fresh(self, stem):
        self.next_id += 1
        return "%%%s%d" % (stem, self.next_id)

    def desc(self, shape, elem):
        name = "%%d%s%s" % (shape.replace("x", "_"), elem)
        self.args[name] = "!tileas.tma_desc<%sx%s>" % (shape, elem)
        return name

    def op(self, line):
        self.body.append("    " + line)
        self.ops += 1

    def carried(self, stem, init_line, ty):
        """An iter_arg: returns (block argument, index into iters)."""
        init = self.fresh(stem + "0")
        self.pre.append("  %s = %s" % (init, init_line))
        arg = self.fresh(stem)
        self.iters.append([arg, init, ty, arg])
        return arg, len(self.iters) - 1

    def group(self, first, second):
        """Attributes of a same-depth constraint group of two ops."""
        gid = self.next_gid
        self.next_gid += 2
        return ("{tileas.schedule.constraint.gid = %d : i32}" % gid,
                "{tileas.schedule.constraint.gid = %d : i32, "
                "tileas.schedule.constraint.leader_gid = %d : i32}" % (gid + 1, gid))

    def tma_load(self, shape, elem, row, attrs=""):
        d = self.desc(shape, elem)
        v = self.fresh("t")
        self.op("%s = tileas.tma_load %s[%s, %%c0] %s: !tileas.tma_desc<%sx%s> -> "
                "!tileas.smem<%sx%s>" % (v, d, row, attrs + " " if attrs else "",
                                         shape, elem, shape, elem))
        return v

    def elementwise(self, x, shape, count):
        """`count` element-wise ops on the f32 tile x of `shape` (MxN)."""
        m = shape.split("x")[0]
        ty = "tensor<%sxf32>" % shape
        for _ in range(count):
            kind = self.rng.choice(["mul", "add", "exp2", "max", "fma", "sub"])
            y = self.fresh("e")
            if kind == "exp2":
                self.op("%s = tileas.exp2 %s : %s" % (y, x, ty))
            elif kind == "fma":
                self.args["%scale"] = "f32"
                self.args["%%row%s" % m] = "tensor<%sxf32>" % m
                self.op("%s = tileas.fma %s, %%row%s, %%scale : %s, tensor<%sxf32>, f32"
                        % (y, x, m, ty, m))
            elif kind in ("mul", "max"):
                self.args["%scale"] = "f32"
                self.op("%s = tileas.%s %s, %%scale : %s, f32" % (y, kind, x, ty))
            else:
                self.args["%%row%s" % m] = "tensor<%sxf32>" % m
                self.op("%s = tileas.%s %s, %%row%s : %s, tensor<%sxf32>"
                        % (y, kind, x, m, ty, m))
            x = y
        return x


def unit_gemm(loop, budget):
    rng = loop.rng
    n = rng.choice([64, 128, 256])
    slices = max(1, min(rng.choice([1, 2, 2, 4]), budget // 3))
    acc_ty = "!tileas.tmem<128x%dxf32>" % n
    acc, idx = loop.carried("acc", "tileas.alloc_tmem : %s" % acc_ty, acc_ty)
    for _ in range(slices):
        ga, gb = loop.group(0, 0) if rng.random() < loop.group_rate else ("", "")
        a = loop.tma_load("128x64", "bf16", "%row", ga)
        b = loop.tma_load("%dx64" % n, "bf16", "%row", gb)
        d = loop.fresh("acc")
        loop.op("%s = tileas.umma %s, %s, %s {accumulate} : !tileas.smem<128x64xbf16>, "
                "!tileas.smem<%dx64xbf16>, %s -> %s" % (d, a, b, acc, n, acc_ty, acc_ty))
        acc = d
    loop.iters[idx][3] = acc
    loop.accs.append((acc, "128x%d" % n))


def unit_attn(loop, budget):
    rng = loop.rng
    hd = rng.choice([64, 128])
    qname = "%%q%d" % hd
    if qname not in [l.split(" =")[0].strip() for l in loop.pre]:
        d = loop.desc("128x%d" % hd, "bf16")
        loop.pre.append("  %s = tileas.tma_load %s[%%c0, %%c0] : !tileas.tma_desc<128x%dxbf16> "
                        "-> !tileas.smem<128x%dxbf16>" % (qname, d, hd, hd))
    s_ty = "!tileas.tmem<128x128xf32>"
    sbuf = loop.fresh("sbuf")
    loop.pre.append("  %s = tileas.alloc_tmem : %s" % (sbuf, s_ty))
    o_ty = "!tileas.tmem<128x%dxf32>" % hd
    o, oi = loop.carried("o", "tileas.alloc_tmem : %s" % o_ty, o_ty)
    m, mi = loop.carried("m", "arith.constant dense<0xFF800000> : tensor<128xf32>",
                         "tensor<128xf32>")
    l, li = loop.carried("l", "arith.constant dense<0.0> : tensor<128xf32>",
                         "tensor<128xf32>")
    gk, gv = loop.group(0, 0) if rng.random() < loop.group_rate else ("", "")
    k = loop.tma_load("128x%d" % hd, "bf16", "%row", gk)
    v = loop.tma_load("128x%d" % hd, "bf16", "%row", gv)
    s = loop.fresh("s")
    loop.op("%s = tileas.umma %s, %s, %s : !tileas.smem<128x%dxbf16>, !tileas.smem<128x%dxbf16>, "
            "%s -> %s" % (s, qname, k, sbuf, hd, hd, s_ty, s_ty))
    f = "tensor<128x128xf32>"
    r = "tensor<128xf32>"
    sr, mx, mn, sh, p, rs, dl, al, ls, ln, pb, pt, on = [loop.fresh(x) for x in (
        "sr", "mx", "mn", "sh", "p", "rs", "dl", "al", "ls", "ln", "pb", "pt", "on")]
    loop.op("%s = tileas.tmem_load %s : %s -> %s" % (sr, s, s_ty, f))
    loop.op("%s = tileas.reduce_max %s : %s -> %s" % (mx, sr, f, r))
    loop.op("%s = tileas.max %s, %s : %s, %s" % (mn, m, mx, r, r))
    loop.op("%s = tileas.sub %s, %s : %s, %s" % (sh, sr, mn, f, r))
    loop.op("%s = tileas.exp2 %s : %s" % (p, sh, f))
    loop.op("%s = tileas.reduce_sum %s : %s -> %s" % (rs, p, f, r))
    loop.op("%s = tileas.sub %s, %s : %s, %s" % (dl, m, mn, r, r))
    loop.op("%s = tileas.exp2 %s : %s" % (al, dl, r))
    loop.op("%s = tileas.mul %s, %s : %s, %s" % (ls, l, al, r, r))
    loop.op("%s = tileas.add %s, %s : %s, %s" % (ln, ls, rs, r, r))
    loop.op("%s = tileas.cvt %s : %s -> tensor<128x128xbf16>" % (pb, p, f))
    loop.op("%s = tileas.tmem_store %s : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>"
            % (pt, pb))
    loop.op("%s = tileas.umma %s, %s, %s {accumulate, b_mn_major} : !tileas.tmem<128x128xbf16>, "
            "!tileas.smem<128x%dxbf16>, %s -> %s" % (on, pt, v, o, hd, o_ty, o_ty))
    loop.iters[oi][3] = on
    loop.iters[mi][3] = mn
    loop.iters[li][3] = ln
    loop.accs.append((on, "128x%d" % hd))


def unit_epi(loop, budget):
    rng = loop.rng
    if not loop.accs:
        return unit_gemm(loop, budget)
    acc, shape = rng.choice(loop.accs)
    n = int(shape.split("x")[1])
    x = loop.fresh("x")
    loop.op("%s = tileas.tmem_load %s : !tileas.tmem<%sxf32> -> tensor<%sxf32>"
            % (x, acc, shape, shape))
    x = loop.elementwise(x, shape, max(1, min(rng.randint(1, 5), budget - 4)))
    c, st = loop.fresh("c"), loop.fresh("st")
    loop.op("%s = tileas.cvt %s : tensor<%sxf32> -> tensor<%sxbf16>" % (c, x, shape, shape))
    loop.op("%s = tileas.smem_store %s : tensor<%sxbf16> -> !tileas.smem<%sxbf16>"
            % (st, c, shape, shape))
    d = loop.desc(shape, "bf16")
    loop.op("tileas.tma_store %s, %s[%%row, %%c0] : !tileas.smem<%sxbf16>, "
            "!tileas.tma_desc<%sxbf16>" % (st, d, shape, shape))


def unit_simt(loop, budget):
    rng = loop.rng
    shape = rng.choice(["128x64", "128x32"])
    acc, idx = loop.carried("v", "arith.constant dense<0.0> : tensor<128xf32>",
                            "tensor<128xf32>")
    t = loop.tma_load(shape, "f32", "%row")
    x = loop.fresh("x")
    loop.op("%s = tileas.smem_load %s : !tileas.smem<%sxf32> -> tensor<%sxf32>"
            % (x, t, shape, shape))
    x = loop.elementwise(x, shape, max(1, min(rng.randint(1, 6), budget - 4)))
    r, a = loop.fresh("r"), loop.fresh("a")
    red = rng.choice(["reduce_sum", "reduce_max"])
    loop.op("%s = tileas.%s %s : tensor<%sxf32> -> tensor<128xf32>" % (r, red, x, shape))
    loop.op("%s = tileas.add %s, %s : tensor<128xf32>, tensor<128xf32>" % (a, acc, r))
    loop.iters[idx][3] = a


UNITS = [(unit_gemm, 3), (unit_attn, 2), (unit_epi, 3), (unit_simt, 2)]


def generate(n, seed, group_rate=0.3):
    """The MLIR text of a loop of about `n` schedulable ops (at least 3)."""
    rng = random.Random(seed)
    loop = Loop(rng, group_rate)
    while loop.ops < n:
        budget = n - loop.ops
        if budget < 3:
            # A short tail: element-wise ops on a carried row vector.
            acc, idx = loop.carried("v", "arith.constant dense<0.0> : tensor<128xf32>",
                                    "tensor<128xf32>")
            x = acc
            for _ in range(budget):
                y = loop.fresh("e")
                loop.op("%s = tileas.exp2 %s : tensor<128xf32>" % (y, x))
                x = y
            loop.iters[idx][3] = x
            break
        fns = [u for u, w in UNITS for _ in range(w)]
        fn = rng.choice(fns)
        if fn is unit_attn and budget < 15:
            fn = unit_gemm
        fn(loop, budget)
    args = ",\n    ".join("%s: %s" % (a, t) for a, t in sorted(loop.args.items()))
    out = ["// Generated by bench/tile-loops.py gen %d %d (group rate %.2f): %d ops."
           % (n, seed, group_rate, loop.ops),
           "func.func @tile_loop(%s,\n    %%n: index) {" % args,
           "  %c0 = arith.constant 0 : index",
           "  %c1 = arith.constant 1 : index",
           "  %c128 = arith.constant 128 : index"]
    out += loop.pre
    names = ", ".join("%s = %s" % (i[0], i[1]) for i in loop.iters)
    types = ", ".join(i[2] for i in loop.iters)
    res = "%res = " if loop.iters else ""
    if loop.iters:
        out.append("  %sscf.for %%j = %%c0 to %%n step %%c1 iter_args(%s) -> (%s) {"
                   % (res.replace("%res", "%%res:%d" % len(loop.iters)), names, types))
    else:
        out.append("  scf.for %j = %c0 to %n step %c1 {")
    out.append("    %row = arith.muli %j, %c128 : index")
    out += loop.body
    if loop.iters:
        out.append("    scf.yield %s : %s" % (", ".join(i[3] for i in loop.iters), types))
    out.append("  }")
    out.append("  return")
    out.append("}")
    return "\n".join(out) + "\n", loop.ops


SCHEDULE_LINE = re.compile(r"^II (\d+), MII (\d+) \(resource (\d+), fine-density (\d+), "
                           r"recurrence (\d+), dependency (\d+)\)")


HOPPER = False  # run --target sm_90a: the loops rewritten for wgmma first


def schedule(path, opt, extra):
    """Runs the pass on `path`; returns (fields, seconds, output)."""
    args = "print-schedule" + (" " + extra if extra else "")
    if HOPPER:
        args += " target=sm_90a"
    cmd = [opt, path] + (["--tileas-umma-to-wgmma"] if HOPPER else []) + [
        "--tileas-generate-schedule=" + args, "-o", "/dev/null"]
    t0 = time.monotonic()
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.monotonic() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
    rows = []
    gen = ""
    for line in (p.stdout + p.stderr).splitlines():
        if line.startswith("generator:"):
            gen = line.split()[1]
        m = SCHEDULE_LINE.match(line)
        if m:
            rows.append([int(x) for x in m.groups()] + [gen])
    return rows, secs, cpu, p


def table(files, a):
    """The point-7 table: one row per loop, CPU seconds of the whole process
    (user + sys, so a shared machine's load does not count). Exit 1 when a
    loop is over --max-ratio (II / MII) or --max-cpu."""
    print("size\tseed\tops\tbound\tII\tratio\tCPU s")
    over = 0
    worst, slowest = 0.0, 0.0
    for path in files:
        m = re.search(r"tile-(\d+)-s(\d+)", os.path.basename(path))
        size, seed = m.groups() if m else ("-", "-")
        rows, _, cpu, p = schedule(path, a.opt, a.extra_args)
        ops = len(re.findall(r"^\s+%\S+ = tileas\.\w+|^\s+tileas\.tma_store",
                             open(path).read(), re.M))
        if p.returncode or not rows:
            print("%s\t%s\t%d\t-\t-\t-\t%.2f\tFAILED" % (size, seed, ops, cpu))
            over += 1
            continue
        ii, mii = rows[0][0], rows[0][1]
        ratio = ii / max(1, mii)
        bad = ratio > a.max_ratio or cpu > a.max_cpu
        over += bad
        worst, slowest = max(worst, ratio), max(slowest, cpu)
        print("%s\t%s\t%d\t%d\t%d\t%.3f\t%.2f%s" % (size, seed, ops, mii, ii, ratio, cpu,
                                                 "\tOVER" if bad else ""))
        sys.stdout.flush()
    print("# %d loops, worst II/bound %.3f, most CPU %.2f s, %d over (limits %.2f, %.2f s)"
          % (len(files), worst, slowest, over, a.max_ratio, a.max_cpu))
    return 1 if over else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("ops", type=int)
    g.add_argument("seed", type=int)
    g.add_argument("out")
    g.add_argument("--group-rate", type=float, default=0.3)
    r = sub.add_parser("run")
    r.add_argument("--sizes", default="10,43,100,200,500,1000")
    r.add_argument("--seeds", default="1,2,3")
    r.add_argument("--group-rate", type=float, default=0.3)
    r.add_argument("--opt", default=os.path.join(REPO, "build/bin/tilepipe-opt"))
    r.add_argument("--extra-args", default="", help="more pass options, space-separated")
    r.add_argument("--examples", action="store_true", help="also examples/*.mlir")
    r.add_argument("--keep", help="keep the generated files in this folder")
    r.add_argument("--table", action="store_true",
                   help="print size, seed, ops, bound, II, ratio and CPU seconds only, "
                        "and fail when a loop is over --max-ratio or --max-cpu")
    r.add_argument("--max-ratio", type=float, default=1.10)
    r.add_argument("--max-cpu", type=float, default=1.0)
    r.add_argument("--target", choices=["sm_100a", "sm_90a"], default="sm_100a",
                   help="sm_90a: each loop through --tileas-umma-to-wgmma, then scheduled "
                        "against the built-in Hopper model (docs/retarget.md)")
    a = ap.parse_args()
    global HOPPER
    HOPPER = getattr(a, "target", "sm_100a") == "sm_90a"
    if a.cmd == "gen":
        text, ops = generate(a.ops, a.seed, a.group_rate)
        with open(a.out, "w") as f:
            f.write(text)
        print("%s: %d ops" % (a.out, ops), file=sys.stderr)
        return 0
    folder = a.keep or tempfile.mkdtemp(prefix="tile-loops-")
    os.makedirs(folder, exist_ok=True)
    files = []
    for n in [int(x) for x in a.sizes.split(",") if x]:
        for s in [int(x) for x in a.seeds.split(",") if x]:
            path = os.path.join(folder, "tile-%d-s%d.mlir" % (n, s))
            with open(path, "w") as f:
                f.write(generate(n, s, a.group_rate)[0])
            files.append(path)
    if a.table:
        return table(files, a)
    if a.examples:
        ex = os.path.join(REPO, "examples")
        files += sorted(os.path.join(ex, f) for f in os.listdir(ex) if f.endswith(".mlir"))
    print("file\tloop\tops\tMII\tres\tfine\trec\tdep\tII\tII/MII\tgenerator\tseconds\tstatus")
    worst, slowest, failed = 0.0, 0.0, 0
    for path in files:
        rows, secs, _, p = schedule(path, a.opt, a.extra_args)
        ops = len(re.findall(r"^\s+%\S+ = tileas\.\w+|^\s+tileas\.tma_store",
                             open(path).read(), re.M))
        status = "ok" if p.returncode == 0 else "exit %d" % p.returncode
        warn = [l for l in p.stderr.splitlines() if "warning" in l]
        if warn:
            status += "; " + warn[0].split("warning: ", 1)[-1][:80]
        if not rows:
            failed += 1
            print("%s\t-\t%d\t-\t-\t-\t-\t-\t-\t-\t-\t%.2f\t%s"
                  % (os.path.basename(path), ops, secs, status))
        for i, (ii, mii, res, fine, rec, dep, gen) in enumerate(rows):
            ratio = ii / max(1, mii)
            worst = max(worst, ratio)
            print("%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.3f\t%s\t%.2f\t%s"
                  % (os.path.basename(path), i, ops, mii, res, fine, rec, dep, ii, ratio,
                     gen, secs, status))
        slowest = max(slowest, secs)
        sys.stdout.flush()
    print("# %d files, worst II/MII %.3f, slowest %.2f s, %d without a schedule"
          % (len(files), worst, slowest, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
