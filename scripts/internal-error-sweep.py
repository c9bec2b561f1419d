#!/usr/bin/env python3
"""Every bundled input through every generator and stage policy: none may
print "internal error", crash or hang (issue 24, point 5).

"internal error" is reserved for bugs: a message a user's input can provoke
is a diagnostic with a location. The sweep runs

- every .mlir of examples/, test/lit/ (their Inputs too) and the MLIR and
  schedule fuzz corpora, split at "// -----", through
  --tileas-generate-schedule under each generator (serial, cost-based, auto)
  and stage policy (late, asap, min-cut, min-buffer); then once with the
  default schedule through --tileas-materialize-schedule in both modes, and
  through tilepipe-translate --tileas-to-cuda;
- every JSON problem of test/lit/ and the problem-json and schedule fuzz
  corpora, and every graphML instance with its resource model, through
  `tilepipe schedule` under each generator and stage policy.

Exit status 1, with the failing commands, when any run prints "internal
error", dies of a signal or passes the time limit; 0 otherwise.

    python3 scripts/internal-error-sweep.py [--build build] [--jobs N]
"""
import argparse
import concurrent.futures
import glob
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATORS = ["serial", "cost-based", "auto"]
STAGES = ["late", "asap", "min-cut", "min-buffer"]


def inputs():
    def files(*patterns):
        out = set()
        for p in patterns:
            out.update(glob.glob(os.path.join(REPO, p), recursive=True))
        return sorted(out)

    mlir = files("examples/*.mlir", "test/lit/**/*.mlir", "fuzz/corpus/mlir/*",
                 "fuzz/corpus/schedule/*.mlir")
    # The fuzz corpus holds MLIR without a suffix; keep what parses as text.
    # The translation tests' stage code (test/lit/cuda/Inputs/stage/) is the
    # pipeline's output, not tile IR: the sweep materializes its own.
    mlir = [f for f in mlir if not f.endswith((".json", ".xml", ".graphml"))
            and "/Inputs/stage/" not in f]
    json_ = files("test/lit/**/*.json", "fuzz/corpus/problem-json/*",
                  "fuzz/corpus/schedule/*.json")
    graphml = []
    for g in files("test/lit/**/*.graphml"):
        rm = g[: -len(".graphml")] + "_RM.xml"
        if os.path.exists(rm):
            graphml.append((g, rm))
    return mlir, json_, graphml


def policies(index, every, per_input=len(STAGES)):
    """(generator, stages) pairs for the input numbered `index`: every pair
    when `every`, else `per_input` stage policies (all four by default) with
    the generators in turn, both shifted by the input's number, so that the
    inputs together meet every pair (a third of the runs at four an input,
    a twelfth at one: make test's budget)."""
    if every:
        return [(g, s) for g in GENERATORS for s in STAGES]
    start = (index * per_input) % len(STAGES)
    ks = [(start + j) % len(STAGES) for j in range(per_input)]
    return [(GENERATORS[(k + index) % len(GENERATORS)], STAGES[k]) for k in ks]


def commands(build, every=False, per_input=len(STAGES)):
    opt = os.path.join(build, "bin", "tilepipe-opt")
    tr = os.path.join(build, "bin", "tilepipe-translate")
    tp = os.path.join(build, "bin", "tilepipe")
    mlir, json_, graphml = inputs()
    cmds = []
    for i, f in enumerate(mlir):
        for g, s in policies(i, every, per_input):
            cmds.append([opt, f, "-split-input-file", "-o", os.devnull,
                         "--tileas-generate-schedule=generator=%s stages=%s time-limit-ms=2000" % (g, s)])
        for mode in ["warp-specialized", "unspecialized"]:
            cmds.append([opt, f, "-split-input-file", "-o", os.devnull, "--tileas-generate-schedule",
                         "--tileas-materialize-schedule=mode=%s" % mode])
        cmds.append([tr, "--tileas-to-cuda", f, "-split-input-file", "-o", os.devnull])
    for i, f in enumerate(json_):
        for g, s in policies(i, every, per_input):
            cmds.append([tp, "schedule", f, "--generator=" + g, "--stages=" + s, "--time-limit-ms=2000"])
    for i, (g_file, rm) in enumerate(graphml):
        for g, s in policies(i, every, per_input):
            cmds.append([tp, "schedule", g_file, "--resources", rm, "--generator=" + g,
                         "--stages=" + s, "--time-limit-ms=2000"])
    return cmds, len(mlir), len(json_), len(graphml)


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "passed the %d s limit" % timeout
    text = p.stdout.decode("utf-8", "replace")
    if "internal error" in text:
        line = next(x for x in text.splitlines() if "internal error" in x)
        return "printed: " + line[:300]
    if p.returncode < 0:
        return "died of signal %d" % -p.returncode
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per run")
    ap.add_argument("--limit", type=int, default=0, help="run only the first N commands (tests of the sweep)")
    ap.add_argument("--every-policy", action="store_true",
                    help="every generator with every stage policy on each input (3x the runs)")
    ap.add_argument("--policies-per-input", type=int, default=len(STAGES), choices=range(1, len(STAGES) + 1),
                    help="stage policies per input without --every-policy (make test: 1)")
    args = ap.parse_args()
    cmds, n_mlir, n_json, n_graphml = commands(os.path.abspath(args.build), args.every_policy,
                                               args.policies_per_input)
    if args.limit:
        cmds = cmds[: args.limit]
    failures = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for cmd, why in zip(cmds, pool.map(lambda c: run(c, args.timeout), cmds)):
            if why:
                failures.append((cmd, why))
    print("internal-error sweep: %d runs over %d MLIR files, %d JSON problems, %d graphML instances; "
          "%d failed" % (len(cmds), n_mlir, n_json, n_graphml, len(failures)))
    for cmd, why in failures:
        print("FAIL: %s\n  %s" % (" ".join(cmd), why))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
