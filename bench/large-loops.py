#!/usr/bin/env python3
"""Large generated loop bodies (issue 8): writes seeded JSON problems
(docs/problem-format.md) and measures `tilepipe schedule` on them.

    python3 bench/large-loops.py gen N SEED OUT.json   # one generated loop
    python3 bench/large-loops.py gen N SEED OUT.json --recurrence   # bound by a recurrence
    python3 bench/large-loops.py hyp OUT.json          # EPFL hyp.aig as a DAG
    python3 bench/large-loops.py run                   # the sweep, one TSV row per run
    python3 bench/large-loops.py plot SWEEP.tsv OUT.svg  # wall time and peak RSS against ops

A generated loop of N ops:

- op classes (class, resource, blocking, latency): div (r1, 1, 4), mul (r2, 2, 3), mem (r4, 3, 5),
  alu (r8, 4, 1), mov (no resource, latency 1); resource limits r1 = 1, r2 = 2, r4 = 4, r8 = 8;
- classes are drawn with weights chosen so that r1 and r2 carry the same load, r4 about 95% and r8 about 90% of it:
  several resources run near saturation and the resource bound is about 0.17 N;
- each op has about 3 predecessors (1 to 5, distinct) drawn from the previous 200 ops (distance 0; the edge takes the
  predecessor's latency);
- every 16th op gets one loop-carried edge (distance 1) to an op drawn from the previous 200 ops.

`--recurrence` makes a loop whose bound is a recurrence, like the 2,651-op HLS loop of issue 23: every resource's
limit is 4 times the above (r1 = 4, ..., r8 = 32), each op has 1 to 3 predecessors, and every 16th op carries an edge
(distance 1) back 1000 to 2000 ops, which closes long cycles. Above 2000 ops first fit alone ended 18-28% above MII on
these; the evicting rungs the search then runs reach it (docs/generators.md).

`hyp` decodes ../shared/data/epfl-aig/aig/hyp.aig (binary AIGER) the way that folder's SOURCE.md builds its .dag
files: the constant node (only when referenced), the inputs, the AND gates; one edge per distinct fan-in. Inputs are
latency-0 ops without a resource, AND gates latency-1 ops; `--and-limit L` puts the gates on a pool of capacity L.
See bench/README.md.
"""
import argparse
import json
import os
import random
import shlex
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RESOURCES = [("r1", 1), ("r2", 2), ("r4", 4), ("r8", 8)]
# class, resource, blocking, latency, weight. Load per op of a class is
# blocking / limit: 1, 1, 0.75, 0.5; weights give loads 1 : 1 : 0.95 : 0.9.
CLASSES = [
    ("div", "r1", 1, 4, 1.0),
    ("mul", "r2", 2, 3, 1.0),
    ("mem", "r4", 3, 5, 0.95 / 0.75),
    ("alu", "r8", 4, 1, 0.9 / 0.5),
    ("mov", None, 0, 1, 1.0),
]
WINDOW = 200
CARRIED_EVERY = 16


def generate(n, seed, recurrence=False):
    """The generated loop; `recurrence` makes it bound by a recurrence (fewer
    predecessors, carried edges 1000 to 2000 ops back, 4x the limits)."""
    rng = random.Random(seed)
    weights = [c[4] for c in CLASSES]
    preds = [1, 2, 3] if recurrence else [1, 2, 3, 3, 3, 4, 5]
    ops, edges = [], []
    for i in range(n):
        cls, res, blocking, latency, _ = rng.choices(CLASSES, weights)[0]
        op = {"name": "o%d" % i, "class": cls, "latency": latency}
        if res:
            op["resource"] = res
            op["blocking"] = blocking
        ops.append(op)
        lo = max(0, i - WINDOW)
        want = min(i - lo, rng.choice(preds))
        for p in sorted(rng.sample(range(lo, i), want)):
            edges.append({"src": "o%d" % p, "dst": "o%d" % i})
        if i % CARRIED_EVERY == CARRIED_EVERY - 1:
            if recurrence:
                j = rng.randrange(max(0, i - 2000), max(1, i - 1000))
            else:
                j = rng.randrange(max(0, i - WINDOW), i + 1)
            edges.append({"src": "o%d" % i, "dst": "o%d" % j, "distance": 1})
    kind = "recurrence" if recurrence else "large"
    return {
        "name": "%s_%d_s%d" % (kind, n, seed),
        "comment": "bench/large-loops.py gen %d %d%s" % (n, seed, " --recurrence" if recurrence else ""),
        "resources": [{"name": r, "limit": (4 if recurrence else 1) * l} for r, l in RESOURCES],
        "ops": ops,
        "edges": edges,
    }


def read_aig(path):
    """(inputs, ands as (lhs_var, rhs0_lit, rhs1_lit)) of a binary AIGER file."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.index(b"\n")
    fields = data[:end].split()
    if fields[0] != b"aig":
        sys.exit("%s: not a binary AIGER file" % path)
    m, i, l, o, a = (int(x) for x in fields[1:6])
    pos = end + 1
    for _ in range(l + o):  # latch and output lines
        pos = data.index(b"\n", pos) + 1

    def number():
        nonlocal pos
        x, shift = 0, 0
        while True:
            byte = data[pos]
            pos += 1
            x |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return x
            shift += 7

    ands = []
    for k in range(a):
        lhs = 2 * (i + l + k + 1)
        rhs0 = lhs - number()
        rhs1 = rhs0 - number()
        ands.append((lhs >> 1, rhs0, rhs1))
    return i, ands


def hyp_problem(aig, and_limit):
    inputs, ands = read_aig(aig)
    uses_const = any(r0 >> 1 == 0 or r1 >> 1 == 0 for _, r0, r1 in ands)
    ops, edges = [], []
    if uses_const:
        ops.append({"name": "v0", "class": "const", "latency": 0})
    for v in range(1, inputs + 1):
        ops.append({"name": "v%d" % v, "class": "input", "latency": 0})
    for lhs, r0, r1 in ands:
        op = {"name": "v%d" % lhs, "class": "and", "latency": 1}
        if and_limit:
            op["resource"] = "and"
        ops.append(op)
        for src in sorted({r0 >> 1, r1 >> 1}):
            edges.append({"src": "v%d" % src, "dst": "v%d" % lhs})
    problem = {"name": os.path.splitext(os.path.basename(aig))[0],
               "comment": "bench/large-loops.py hyp", "ops": ops, "edges": edges}
    if and_limit:
        problem["resources"] = [{"name": "and", "limit": and_limit}]
    return problem


def write(problem, out):
    with open(out, "w") as f:
        json.dump(problem, f, separators=(",", ":"))


def measure(tilepipe, path, extra, timeout):
    """The tilepipe result object plus wall_s, rss_mb and status."""
    cmd = ["/usr/bin/time", "-f", "%M", tilepipe, "schedule", path] + extra
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    status = None
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        # Kill tilepipe, not /usr/bin/time, so that time still reports the
        # peak RSS; then the whole session, should anything be left.
        status = "killed after %d s" % timeout
        try:
            with open("/proc/%d/task/%d/children" % (proc.pid, proc.pid)) as f:
                for child in f.read().split():
                    os.kill(int(child), signal.SIGKILL)
        except OSError:
            pass
        try:
            stdout, stderr = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            stdout, stderr = proc.communicate()
    wall = time.monotonic() - start
    lines = [x for x in stderr.strip().splitlines() if not x.startswith("Command terminated")]
    rss_kb = int(lines[-1]) if lines and lines[-1].isdigit() else -1
    try:
        result = json.loads(stdout)
    except ValueError:
        result = {}
    result["wall_s"] = wall
    result["rss_mb"] = rss_kb / 1024.0
    warnings = [x for x in lines[:-1] if x.strip()]
    result["status"] = status or "rc %d" % proc.returncode
    if warnings:
        result["status"] += ": " + warnings[0][:160]
    return result


def row(name, ops, edges, r):
    ii, mii = r.get("ii"), r.get("mii")
    gap = "%.2f%%" % (100.0 * (ii - mii) / mii) if ii and mii else "-"
    return "\t".join(str(x) for x in [
        name, ops, edges, mii if mii else "-", r.get("res_mii", "-"), r.get("rec_mii", "-"),
        ii if ii else "-", gap, "%.2f" % r["wall_s"], r.get("ms", "-"),
        "%.0f" % r["rss_mb"] if "rss_mb" in r else "-", r.get("verified", "-"), r["status"]])


def plot(tsv, out):
    """Wall time and peak RSS against ops, log-log, one mark per run, with
    the issue's targets as dashed lines; an SVG drawn here (no plotting
    package is a dependency)."""
    rows = []
    with open(tsv) as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(head, line.rstrip("\n").split("\t")))
            if r.get("ops", "").isdigit() and r.get("wall_s") not in (None, "-"):
                rows.append((int(r["ops"]), float(r["wall_s"]), float(r["rss_MB"])))
    if not rows:
        sys.exit("plot: no rows in " + tsv)
    import math
    W, H, L, B, T = 360, 260, 60, 40, 30
    panels = [("wall time (s)", 1, [(1e5, 1.0), (1e6, 10.0)], 0.01, 100.0),
              ("peak RSS (MB)", 2, [(1e6, 1000.0)], 1.0, 10000.0)]
    xlo, xhi = 1e3, 1e7
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="DejaVu Sans Mono" '
           'font-size="11">' % (2 * W + 20, H + 20), '<rect width="100%" height="100%" fill="white"/>']
    for p, (label, col, targets, ylo, yhi) in enumerate(panels):
        ox = 10 + p * (W + 10)
        def X(v):
            return ox + L + (W - L - 20) * (math.log10(v) - math.log10(xlo)) / (math.log10(xhi) - math.log10(xlo))
        def Y(v):
            v = min(max(v, ylo), yhi)
            return T + (H - T - B) * (1 - (math.log10(v) - math.log10(ylo)) / (math.log10(yhi) - math.log10(ylo)))
        svg.append('<text x="%d" y="18">%s against ops</text>' % (ox + L, label))
        svg.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black"/>'
                   % (X(xlo), Y(yhi), X(xhi) - X(xlo), Y(ylo) - Y(yhi)))
        e = int(round(math.log10(xlo)))
        while 10 ** e <= xhi:
            x = X(10 ** e)
            svg.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>' % (x, Y(ylo), x, Y(ylo) + 4))
            svg.append('<text x="%.1f" y="%.1f" text-anchor="middle">1e%d</text>' % (x, Y(ylo) + 16, e))
            e += 1
        e = int(round(math.log10(ylo)))
        while 10 ** e <= yhi:
            y = Y(10 ** e)
            svg.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>' % (X(xlo) - 4, y, X(xlo), y))
            svg.append('<text x="%.1f" y="%.1f" text-anchor="end">%g</text>' % (X(xlo) - 6, y + 4, 10 ** e))
            e += 1
        for tx, ty in targets:
            svg.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="gray" stroke-dasharray="4 3"/>'
                       % (X(xlo), Y(ty), X(tx), Y(ty)))
            svg.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="gray" stroke-dasharray="4 3"/>'
                       % (X(tx), Y(ty), X(tx), Y(ylo)))
        for ops, wall, rss in rows:
            v = wall if col == 1 else rss
            svg.append('<circle cx="%.1f" cy="%.1f" r="3" fill="none" stroke="#1f4e9c"/>' % (X(ops), Y(v)))
    svg.append('</svg>')
    with open(out, "w") as f:
        f.write("\n".join(svg) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("n", type=int)
    g.add_argument("seed", type=int)
    g.add_argument("out")
    g.add_argument("--recurrence", action="store_true", help="a loop bound by a recurrence")
    h = sub.add_parser("hyp")
    h.add_argument("out")
    h.add_argument("--aig", default=os.path.join(REPO, "..", "shared", "data", "epfl-aig", "aig", "hyp.aig"))
    h.add_argument("--and-limit", type=int, default=0)
    r = sub.add_parser("run")
    r.add_argument("--tilepipe", default=os.path.join(REPO, "build", "bin", "tilepipe"))
    r.add_argument("--sizes", default="1000,4000,10000,100000")
    r.add_argument("--seeds", default="1,2,3")
    r.add_argument("--extra-args", default="--time-limit-ms=10000",
                   help="more `tilepipe schedule` options, one shell-quoted string")
    r.add_argument("--timeout", type=int, default=600, help="seconds per run before it is killed")
    r.add_argument("--hyp", action="store_true", help="also run hyp.aig (unlimited, and with an AND pool of 64)")
    r.add_argument("--aig", default=os.path.join(REPO, "..", "shared", "data", "epfl-aig", "aig", "hyp.aig"))
    r.add_argument("--keep", help="keep the generated files in this folder")
    pl = sub.add_parser("plot")
    pl.add_argument("tsv", help="the output of `run`")
    pl.add_argument("out", help="the SVG to write")
    args = ap.parse_args()

    if args.cmd == "plot":
        plot(args.tsv, args.out)
        return
    if args.cmd == "gen":
        write(generate(args.n, args.seed, args.recurrence), args.out)
        return
    if args.cmd == "hyp":
        write(hyp_problem(args.aig, args.and_limit), args.out)
        return

    extra = shlex.split(args.extra_args)
    folder = args.keep or tempfile.mkdtemp(prefix="tilepipe-large-")
    os.makedirs(folder, exist_ok=True)
    print("\t".join(["loop", "ops", "edges", "MII", "ResMII", "RecMII", "II", "II/MII-1", "wall_s", "ms",
                     "rss_MB", "verified", "status"]), flush=True)
    jobs = [(int(n), int(s)) for n in args.sizes.split(",") if n for s in args.seeds.split(",") if s]
    for n, seed in jobs:
        problem = generate(n, seed)
        path = os.path.join(folder, "%s.json" % problem["name"])
        write(problem, path)
        r = measure(args.tilepipe, path, extra, args.timeout)
        print(row(problem["name"], len(problem["ops"]), len(problem["edges"]), r), flush=True)
    if args.hyp:
        for limit in (0, 64):
            problem = hyp_problem(args.aig, limit)
            name = problem["name"] + ("_and%d" % limit if limit else "")
            path = os.path.join(folder, name + ".json")
            write(problem, path)
            r = measure(args.tilepipe, path, extra, args.timeout)
            print(row(name, len(problem["ops"]), len(problem["edges"]), r), flush=True)


if __name__ == "__main__":
    main()
