#!/usr/bin/env python3
"""Stage assignment for fewest buffered bytes (issue 12, docs/performance.md):
the bytes each policy buffers with the II and rows fixed, and its time.

    python3 bench/stages.py hatschet [--data ../shared/data/hatschet-msp]   # every HatScheT instance
    python3 bench/stages.py examples                           # the bundled Blackwell loops
    python3 bench/stages.py large                              # generated loops of 1k-10k ops

hatschet: `tilepipe schedule --stages=P --stage-ms` for P in asap, late, min-cut,
min-buffer on every MachSuite/origami instance (unit sizes: each value 1 B in
registers, as the files carry no bit widths). One TSV row per instance, then a
summary: how often min-buffer is below each other policy, that it is never
above, how much min-cut loses where it loses, and the stage times.

examples: each bundled example (and the user loops of test/lit/cuda/Inputs)
through `tilepipe-opt --tileas-generate-schedule=print-schedule stages=P
--tileas-materialize-schedule=print-plan`: the buffered SMEM / TMEM / register
bytes at minimum depths, the plan's pipes (the TMA ring depths the freed SMEM
buys) and the wall time of the pass pipeline.

large: bench/large-loops.py's generated loops (1000, 3000, 10000 ops) with each
policy's stage time.
"""
import argparse
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POLICIES = ["asap", "late", "min-cut", "min-buffer"]


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(REPO, "bench", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def schedule(tool, args, policy):
    out = subprocess.run([tool, "schedule"] + args + ["--stages=" + policy, "--stage-ms"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=600)
    if not out.stdout.strip():
        return None
    return json.loads(out.stdout)


def key(b):
    return (b["smem"] + b["tmem"], b["registers"])


def total(b):
    return b["smem"] + b["tmem"] + b["registers"]


def summarize(rows):
    n = len(rows)
    print(f"# {n} instances scheduled")
    exact = [r["min-buffer"] for r in rows]
    for p in ["asap", "late", "min-cut"]:
        below = sum(1 for r in rows if key(r["min-buffer"]["bytes"]) < key(r[p]["bytes"]))
        above = sum(1 for r in rows if key(r["min-buffer"]["bytes"]) > key(r[p]["bytes"]))
        ratios = [(total(r[p]["bytes"]) + 1) / (total(r["min-buffer"]["bytes"]) + 1) for r in rows]
        worse = [x for x in ratios if x > 1]
        print(f"# min-buffer below {p} on {below} of {n}, above on {above}; ({p} + 1)/(min-buffer + 1) bytes: "
              f"geomean {statistics.geometric_mean(ratios):.3f}, max {max(ratios):.3f}"
              + (f", where worse: median {statistics.median(worse):.3f}" if worse else ""))
    more = sum(1 for r in rows if r["min-buffer"]["stages"] > r["asap"]["stages"])
    print(f"# min-buffer uses more stages than asap on {more} of {n}")
    for p in POLICIES:
        ms = [r[p]["stage_ms"] for r in rows]
        print(f"# {p}: stage time median {statistics.median(ms):.3f} ms, max {max(ms):.3f} ms")


def run_hatschet(args):
    suite = load("run-suite")
    tool = os.path.join(args.build, "bin", "tilepipe")
    rows = []
    print("instance\tops\tII\t" + "\t".join(f"{p}_bytes\t{p}_stages\t{p}_ms" for p in POLICIES))
    for name, graph, rm in suite.find_instances(args.data):
        a = [graph] + (["--resources", rm] if rm else [])
        row = {}
        for p in POLICIES:
            r = schedule(tool, a, p)
            if not r or not r["verified"]:
                row = None
                break
            row[p] = {"bytes": r["buffered_bytes"], "stages": r["stages"], "stage_ms": r["stage_ms"],
                      "ii": r["ii"], "ops": r["ops"]}
        if not row:
            continue
        assert len({row[p]["ii"] for p in POLICIES}) == 1, name  # The II never changes.
        rows.append(row)
        print(f"{name}\t{row['asap']['ops']}\t{row['asap']['ii']}\t" +
              "\t".join(f"{total(row[p]['bytes'])}\t{row[p]['stages']}\t{row[p]['stage_ms']:.3f}"
                        for p in POLICIES), flush=True)
    summarize(rows)


def run_examples(args):
    opt = os.path.join(args.build, "bin", "tilepipe-opt")
    files = sorted(os.path.join(REPO, "examples", f) for f in os.listdir(os.path.join(REPO, "examples"))
                   if f.endswith(".mlir"))
    inputs = os.path.join(REPO, "test", "lit", "cuda", "Inputs")
    files += sorted(os.path.join(inputs, f) for f in os.listdir(inputs) if f.endswith(".mlir"))
    print("loop\tpolicy\tII\tstages\tsmem_B\ttmem_B\treg_B\tplan_smem_B\tTMA ring depths\tms")
    for f in files:
        for p in POLICIES:
            t0 = time.perf_counter()
            out = subprocess.run([opt, f, f"--tileas-generate-schedule=print-schedule stages={p}",
                                  "--tileas-materialize-schedule=print-plan", "-o", os.devnull],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
            ms = (time.perf_counter() - t0) * 1000
            m = re.search(r"buffered: smem (\d+) B, tmem (\d+) B .*registers (\d+) B", out)
            ii = re.search(r"^II (\d+).*stages (\d+)", out, re.M)
            plan = re.search(r"^smem (\d+) B", out, re.M)
            rings = re.findall(r"tma -> \w+, smem \d+ B, depth (\d+)", out)
            if not m or not ii:
                continue
            print(f"{os.path.basename(f)}\t{p}\t{ii.group(1)}\t{ii.group(2)}\t{m.group(1)}\t{m.group(2)}\t"
                  f"{m.group(3)}\t{plan.group(1) if plan else '-'}\t{','.join(rings) or '-'}\t{ms:.0f}")


def run_large(args):
    large = os.path.join(REPO, "bench", "large-loops.py")
    tool = os.path.join(args.build, "bin", "tilepipe")
    print("ops\tpolicy\tII\tstages\tbytes\tstage_ms")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (1000, 3000, 10000):
            path = os.path.join(tmp, f"loop{n}.json")
            subprocess.run([sys.executable, large, "gen", str(n), "1", path], check=True)
            for p in POLICIES:
                r = schedule(tool, [path], p)
                if r and r["verified"]:
                    print(f"{n}\t{p}\t{r['ii']}\t{r['stages']}\t{total(r['buffered_bytes'])}\t{r['stage_ms']:.1f}",
                          flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["hatschet", "examples", "large"])
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--data", default=os.path.join(REPO, "..", "shared", "data", "hatschet-msp"))
    args = ap.parse_args()
    {"hatschet": run_hatschet, "examples": run_examples, "large": run_large}[args.what](args)


if __name__ == "__main__":
    main()
