#!/usr/bin/env python3
"""Runs `tilepipe schedule` over every HatScheT instance of the MachSuite and
origami sets and writes one TSV row per instance:

    instance  ops  MII  II  ref_II  ms  verified

ref_II is the II HatScheT's SAT scheduler found (reference-sat-ii.tsv; `-`
when it has no row or timed out), ms the scheduling time tilepipe reports.
Ends with a summary: instances, verified, II == MII, II <= ref_II, the instances above MII with
their exact-check verdict, total ms.
See bench/README.md."""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def natural_key(text):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def find_instances(data):
    """(instance name, graph path, resource model path or None), sorted.

    Any HatScheT-format folder: every X.graphml (or its chaining variant X.200MHz.graphml) below DATA, with its
    resource model beside it as X_RM.xml (MachSuite, CHStone) or XRM.xml (origami). The name is the path below
    DATA without .graphml.
    """
    found = []
    for folder, dirs, files in os.walk(data):
        dirs.sort()
        for name in files:
            m = re.fullmatch(r"(.+?)(\.200MHz)?\.graphml", name)
            if not m:
                continue
            rm = None
            for candidate in (m.group(1) + "_RM.xml", m.group(1) + "RM.xml"):
                if os.path.exists(os.path.join(folder, candidate)):
                    rm = os.path.join(folder, candidate)
                    break
            rel = os.path.relpath(os.path.join(folder, name), data)[:-len(".graphml")]
            found.append((rel.replace(os.sep, "/"), os.path.join(folder, name), rm))
    return sorted(found, key=lambda f: natural_key(f[0]))


def read_reference(data):
    """instance name -> reference II (int), from reference-sat-ii.tsv."""
    ref = {}
    path = os.path.join(data, "reference-sat-ii.tsv")
    if not os.path.exists(path):
        return ref
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 4 or not cols[3].isdigit():
                continue  # TIMEOUT_OR_FAIL or a malformed row: no reference.
            name = cols[0]
            if name.startswith("benchmarks/"):
                name = name[len("benchmarks/"):]
            if name.endswith(".graphml"):
                name = name[:-len(".graphml")]
            ref[name] = int(cols[3])
    return ref


def run_one(tilepipe, graph, rm, extra, timeout):
    """Returns (result dict or None, error text)."""
    cmd = [tilepipe, "schedule", graph, "--resources", rm] + extra
    began = time.monotonic()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s"
    wall_ms = 1000.0 * (time.monotonic() - began)
    lines = [l for l in proc.stdout.splitlines() if l.strip()]
    result = None
    if lines:
        try:
            result = json.loads(lines[-1])
        except json.JSONDecodeError:
            result = None
    if result is None:
        err = proc.stderr.strip().splitlines()
        return None, f"exit {proc.returncode}: " + (err[0] if err else "no output")
    if proc.returncode not in (0, 1):
        return None, f"exit {proc.returncode}"
    result["wall_ms"] = wall_ms
    first_error = next((l for l in proc.stderr.splitlines() if ": error: " in l), "")
    return result, first_error


def fmt(value):
    return "-" if value is None else str(value)


def fmt_opt(value):
    """optimal column: 1 proven, 0 a smaller II exists, - undecided/unchecked."""
    return "-" if value is None else str(int(bool(value)))


def read_optimum(path):
    """instance name -> (proven optimum or None, MII), from a --prove-optimal TSV of this script."""
    out = {}
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            row = dict(zip(header, line.rstrip("\n").split("\t")))
            if row.get("II", "-") == "-":
                continue
            ii, mii = int(row["II"]), int(row["MII"])
            # Proven optimal, or the II equals the bound: either way no smaller II exists.
            out[row["instance"]] = (ii if row.get("optimal") == "1" or ii == mii else None, mii)
    return out


def print_gap(rows, optimum):
    """The default II against the proven optimum: issue 23's 10% target."""
    known = [(r, optimum[r["instance"]][0]) for r in rows
             if r["ii"] is not None and optimum.get(r["instance"], (None, 0))[0] is not None]
    known_names = {r["instance"] for r, _ in known}
    unknown = [r for r in rows if r["ii"] is not None and r["instance"] not in known_names]
    within = [r for r, opt in known if r["ii"] <= 1.1 * opt]
    at = [r for r, opt in known if r["ii"] == opt]
    worst = max(known, key=lambda k: k[0]["ii"] / k[1], default=None)
    print(f"vs optimum:   {len(known)} with a proven optimum: {len(at)} at it, {len(within)} within 10%"
          + (f", worst {worst[0]['instance']} II {worst[0]['ii']} against {worst[1]} "
             f"(+{100.0 * (worst[0]['ii'] / worst[1] - 1):.1f}%)" if worst else ""))
    for r, opt in known:
        if r["ii"] > 1.1 * opt:
            print(f"  over 10%: {r['instance']}: II {r['ii']}, optimum {opt}")
    if unknown:
        print(f"  no proven optimum for {len(unknown)}: " + ", ".join(r["instance"] for r in unknown[:10]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tilepipe", default=os.path.join(REPO, "build", "bin", "tilepipe"),
                        help="the tilepipe binary (default: build/bin/tilepipe)")
    parser.add_argument("--data", default=os.path.join(REPO, "..", "shared", "data", "hatschet-msp"),
                        help="the hatschet-msp folder (default: ../shared/data/hatschet-msp)")
    parser.add_argument("--out", default=os.path.join(REPO, "bench", "results", "hatschet.tsv"),
                        help="the TSV to write (default: bench/results/hatschet.tsv)")
    parser.add_argument("--extra-args", default="",
                        help="more options for `tilepipe schedule`, one string "
                             "(e.g. \"--generator=serial\")")
    parser.add_argument("--timeout", type=float, default=120,
                        help="seconds per instance before it counts as failed (default 120)")
    parser.add_argument("--filter", default="",
                        help="only instances whose name contains this text")
    parser.add_argument("--optimum", default="",
                        help="a TSV this script wrote with --extra-args=--prove-optimal: the summary then "
                             "compares each II with the proven optimum there")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every row")
    args = parser.parse_args()

    if not os.access(args.tilepipe, os.X_OK):
        print(f"run-suite: cannot run '{args.tilepipe}' (build it with ninja -C build tilepipe)",
              file=sys.stderr)
        return 2
    instances = [i for i in find_instances(args.data) if args.filter in i[0]]
    if not instances:
        print(f"run-suite: no instances under '{args.data}'", file=sys.stderr)
        return 2
    reference = read_reference(args.data)
    extra = shlex.split(args.extra_args)

    rows = []
    broken = []
    start = time.monotonic()
    for name, graph, rm in instances:
        if rm is None:
            result, error = None, "no resource model beside the graph"
        else:
            result, error = run_one(args.tilepipe, graph, rm, extra, args.timeout)
        ref = reference.get(name)
        if result is None:
            broken.append((name, error))
            row = dict(instance=name, ops=None, mii=None, ii=None, ref=ref, ms=None, verified=False,
                       optimal=None, wall=None)
        else:
            row = dict(instance=name, ops=result.get("ops"), mii=result.get("mii"),
                       ii=result.get("ii"), ref=ref, ms=result.get("ms"),
                       verified=bool(result.get("verified")), optimal=result.get("optimal"),
                       wall=result["wall_ms"])
            if not row["verified"]:
                broken.append((name, error or "not verified"))
        rows.append(row)
        if args.verbose:
            print(f"{name}\t{fmt(row['ops'])}\t{fmt(row['mii'])}\t{fmt(row['ii'])}\t"
                  f"{fmt(row['ref'])}\t{fmt(row['ms'])}\t{int(row['verified'])}", flush=True)
    wall = time.monotonic() - start

    out_dir = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(out_dir, exist_ok=True)
    with open(args.out, "w") as f:
        f.write("instance\tops\tMII\tII\tref_II\tms\tverified\toptimal\twall_ms\n")
        for r in rows:
            ms = "-" if r["ms"] is None else f"{r['ms']:.3f}"
            wall_ms = "-" if r["wall"] is None else f"{r['wall']:.0f}"
            f.write(f"{r['instance']}\t{fmt(r['ops'])}\t{fmt(r['mii'])}\t{fmt(r['ii'])}\t"
                    f"{fmt(r['ref'])}\t{ms}\t{int(r['verified'])}\t{fmt_opt(r['optimal'])}\t{wall_ms}\n")

    count = len(rows)
    verified = [r for r in rows if r["verified"]]
    at_mii = [r for r in verified if r["ii"] is not None and r["ii"] == r["mii"]]
    with_ref = [r for r in rows if r["ref"] is not None]
    meets_ref = [r for r in with_ref if r["verified"] and r["ii"] <= r["ref"]]
    beats_ref = [r for r in with_ref if r["verified"] and r["ii"] < r["ref"]]
    total_ms = sum(r["ms"] for r in rows if r["ms"] is not None)
    pct = lambda n, d: f"{100.0 * n / d:.1f}%" if d else "-"
    print(f"instances:    {count}")
    print(f"verified:     {len(verified)} ({pct(len(verified), count)})")
    print(f"II == MII:    {len(at_mii)} ({pct(len(at_mii), count)})")
    print(f"II <= ref_II: {len(meets_ref)} of {len(with_ref)} with a reference "
          f"({pct(len(meets_ref), len(with_ref))}; {len(beats_ref)} below it)")
    above = [r for r in verified if r["ii"] is not None and r["ii"] != r["mii"]]
    if above:
        proven = [r for r in above if r["optimal"] is True]
        missed = [r for r in above if r["optimal"] is False]
        print(f"II > MII:     {len(above)}: {len(proven)} proven optimal, {len(missed)} with a "
              f"smaller feasible II, {len(above) - len(proven) - len(missed)} undecided "
              f"(pass --extra-args=--prove-optimal to check)")
        for r in above:
            print(f"  {r['instance']}: MII {r['mii']}, II {r['ii']}, optimal {fmt_opt(r['optimal'])}")
    if args.optimum:
        print_gap(rows, read_optimum(args.optimum))
    walls = sorted(r["wall"] for r in rows if r["wall"] is not None)
    if walls:
        slow = max((r for r in rows if r["wall"] is not None), key=lambda r: r["wall"])
        print(f"wall:         median {walls[len(walls) // 2]:.0f} ms, {sum(w > 2000 for w in walls)} over 2 s, "
              f"slowest {slow['instance']} ({slow['ops']} ops) {slow['wall']:.0f} ms (process included)")
    print(f"total ms:     {total_ms:.3f} (scheduling only; {wall:.1f} s wall for the run)")
    print(f"wrote {args.out}")
    for name, error in broken:
        print(f"failed: {name}: {error}")
    # Only instances that gave no result at all (a crash, a bad file, a
    # timeout) make the run fail; an unverified schedule is a result.
    return 1 if any(r["ms"] is None for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
