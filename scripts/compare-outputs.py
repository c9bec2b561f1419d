#!/usr/bin/env python3
"""Write every output a refactor must not change, and compare two such trees.

  compare-outputs.py dump --build BUILD OUT     write the outputs of BUILD's tools
  compare-outputs.py compare BEFORE AFTER       byte-compare two dumps; exit 1 on
                                                any difference

For every bundled example and every MLIR test input (test/lit/**/*.mlir), the
dump holds four files: the printed schedule (NAME.sched), the pipes and mutexes
of the plan (NAME.plan), the stage code (NAME.stage) and its CUDA translation
(NAME.cu). Each file also records the tool's exit status and its stderr, so a
diagnostic that moves or changes counts as a difference, as an output does.
Inputs that are meant to fail (error tests) are dumped all the same: their
diagnostics are output too. cuTile's kernels (the bytecode fixtures under
test/cutile and the tile IR text inputs, *.tileir.mlir) are lowered first
(--tileir-to-tileas); their dump holds the lowered tileas (NAME.tileas) too.

Run it before the first move of a refactor and after the last (docs/testing.md,
"Behaviour unchanged"); the refactor is output-neutral when `compare` prints
"identical".
"""

import argparse
import concurrent.futures
import os
import pathlib
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent
TIMEOUT_S = 120


def inputs():
    files = sorted(REPO.glob("examples/*.mlir"))
    # Not the translation tests' stage code (test/lit/cuda/Inputs/stage/):
    # it is already the pipeline's output, not tile IR.
    files += sorted(f for f in REPO.glob("test/lit/**/*.mlir")
                    if "Inputs/stage" not in f.as_posix())
    # cuTile kernels: their fixtures go through the lowering first.
    files += sorted(REPO.glob("test/cutile/**/*.tileirbc"))
    return files


def key(path):
    """A flat, unique file stem for an input (its path with / as __)."""
    return str(path.relative_to(REPO)).replace("/", "__").rsplit(".", 1)[0]


def is_tileir(path):
    return path.suffix == ".tileirbc" or path.name.endswith(".tileir.mlir")


def lowered(build, path):
    """(exit, tileas text, stderr) of a cuTile input's --tileir-to-tileas."""
    opt = str(build / "bin" / "tilepipe-opt")
    src = str(path.relative_to(REPO))
    text = None
    if path.suffix == ".tileirbc":
        rc, text, err = run([str(build / "bin" / "tilepipe-translate"),
                             "--import-tileir-bytecode", src])
        if rc != 0:
            return rc, text, err
    cmd = [opt, "-" if text is not None else src, "--tileir-to-tileas"]
    return run(cmd, stdin=text)


def run(cmd, stdin=None):
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True,
                           timeout=TIMEOUT_S, cwd=REPO)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


def record(rc, out, err):
    return b"exit: %s\n--- stdout\n%s--- stderr\n%s" % (
        str(rc).encode(), out, err)


def dump_one(build, out_dir, path):
    opt = str(build / "bin" / "tilepipe-opt")
    translate = str(build / "bin" / "tilepipe-translate")
    src = str(path.relative_to(REPO))
    stem = out_dir / key(path)
    text = None
    if is_tileir(path):
        rc, text, err = lowered(build, path)
        (stem.with_suffix(".tileas")).write_bytes(record(rc, text, err))
        src = "-"
    sched = [opt, src, "--tileas-generate-schedule=print-schedule",
             "-o", os.devnull]
    plan = [opt, src, "--tileas-generate-schedule",
            "--tileas-materialize-schedule=print-plan", "-o", os.devnull]
    stage = [opt, src, "--tileas-generate-schedule",
             "--tileas-materialize-schedule", "-canonicalize", "-cse"]
    (stem.with_suffix(".sched")).write_bytes(record(*run(sched, text)))
    (stem.with_suffix(".plan")).write_bytes(record(*run(plan, text)))
    rc, stage_text, err = run(stage, text)
    (stem.with_suffix(".stage")).write_bytes(record(rc, stage_text, err))
    if rc == 0:
        cu = run([translate, "--tileas-to-cuda", "-", "-o", "-"],
                 stdin=stage_text)
    else:
        cu = ("not run", b"", b"")
    (stem.with_suffix(".cu")).write_bytes(record(*cu))


def dump(args):
    build = pathlib.Path(args.build).resolve()
    out_dir = pathlib.Path(args.out).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    files = inputs()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(lambda p: dump_one(build, out_dir, p), files))
    print(f"dumped {len(files)} inputs x 4 outputs (5 for cuTile's, with "
          f"the lowered tileas) to {out_dir}")
    return 0


def compare(args):
    before = pathlib.Path(args.before)
    after = pathlib.Path(args.after)
    names_b = {p.name for p in before.iterdir()}
    names_a = {p.name for p in after.iterdir()}
    differ = sorted(n for n in names_b & names_a
                    if (before / n).read_bytes() != (after / n).read_bytes())
    only_b = sorted(names_b - names_a)
    only_a = sorted(names_a - names_b)
    for n in differ:
        print(f"differs: {n}")
    for n in only_b:
        print(f"only before: {n}")
    for n in only_a:
        print(f"only after: {n}")
    same = len(names_b & names_a) - len(differ)
    if differ or only_b or only_a:
        print(f"{same} identical, {len(differ)} differ, {len(only_b)} only "
              f"before, {len(only_a)} only after")
        return 1
    print(f"identical: {same} files")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--build", default="build")
    d.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    d.add_argument("out")
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    args = ap.parse_args()
    return dump(args) if args.cmd == "dump" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
