#!/usr/bin/env python3
"""The cuTile kernels' bytecode (test/cutile/fixtures) compiled by NVIDIA's
tileiras and by tilepipe, side by side, from their sm_100a binaries
(docs/cuda-tile.md). One command:

    python3 bench/cutile/compare.py [--build build] [--out DIR]
                                    [--tilepipe-cu NAME=FILE.cu ...] [--only NAME ...]

tileiras side: `tileiras --gpu-name=sm_100 -O3 X.tileirbc -o X.cubin` with
CUDA_HOME unset, from the environment `scripts/testvenv.py BUILD cutile`
makes under the build folder (made here when missing).

tilepipe side: the kernel's CUDA, from (first that applies) --tilepipe-cu,
`BUILD/bin/tilepipe compile X.tileirbc -o X.cu` (the CUDA Tile IR front
end), or a stand-in tile-IR example through tilepipe-opt and
tilepipe-translate (marked as such in the table); nvcc compiles it for
sm_100a inside a host program that prints the kernel's dynamic shared
memory (sizeof its tp_smem_ struct).

Both binaries are read by bench/cutile/cubin.py. Writes DIR/cutile.md (the
table) and DIR/cutile.json (every figure); DIR defaults to BUILD/cutile-bench."""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import cubin  # noqa: E402
import testvenv  # noqa: E402
from cudalower import INCLUDE, NVCC, lower  # noqa: E402

FIXTURES = os.path.join(ROOT, "test", "cutile", "fixtures")
VERSION = "13.4"
# Tile-IR examples that compute (nearly) the same problem, for kernels the
# front end cannot compile yet: (example, how it differs).
STAND_INS = {
    "matmul": ("examples/gemm_mainloop.mlir", "same 128x256x64 bf16 tile, but B is N x K (K-major; "
               "cuTile's is K x N) and K a multiple of 64"),
    "attention": ("examples/attention_fwd.mlir", "D 128 (cuTile's: 64); O neither rescaled nor divided by l"),
}
ELEMENT_BYTES = {"bf16": 2, "f16": 2, "f32": 4, "f64": 8, "i8": 1, "i16": 2, "i32": 4, "i64": 8,
                 "f8E4M3FN": 1, "f8E5M2": 1}


def say(msg):
    print(f"cutile-bench: {msg}", flush=True)


def run(cmd, env=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)


# -- The bytecode: what each loop loads -------------------------------------

def loop_load_bytes(disasm):
    """Bytes each `for` loop of the tileirdisasm text loads per iteration,
    outermost first."""
    lines = disasm.splitlines()
    loads = []
    for k, line in enumerate(lines):
        m = re.match(r"^(\s*)(?:%\S+ = )?for ", line)
        if not m:
            continue
        indent, total = m.group(1), 0
        for body in lines[k + 1:]:
            if body.startswith(indent + "}"):
                break
            t = re.search(r"load_view_tko .*-> tile<([0-9x]+)x(\w+)>, token", body)
            if t:
                total += math.prod(int(d) for d in t.group(1).split("x")) * ELEMENT_BYTES.get(t.group(2), 0)
        loads.append(total)
    return loads


# -- tileiras ---------------------------------------------------------------

def compile_tileiras(build, fixture, out, gpu="sm_100"):
    tileiras = testvenv.tool_path(build, "tileiras")
    env = {k: v for k, v in os.environ.items() if k != "CUDA_HOME"}
    binary = os.path.join(out, os.path.basename(fixture).replace(".tileirbc", ".tileiras.cubin"))
    proc = run([tileiras, f"--gpu-name={gpu}", "-O3", fixture, "-o", binary], env=env)
    if proc.returncode:
        say(f"{os.path.basename(fixture)}: tileiras failed: {proc.stdout.strip()[-300:]}")
        return None
    return binary


def tileiras_meta(facts, load_bytes):
    """What backs the SASS's ring depths for tileiras: how many iterations'
    loads its SMEM could hold at most, and its mbarrier count; and its
    roles, as far as setmaxnreg tells them."""
    per_iter = max(load_bytes or [0])
    fits = f"SMEM fits <= {facts['smem_static'] // per_iter} x {per_iter} B; " if per_iter else ""
    regs = facts["setmaxnreg"]
    roles = "setmaxnreg " + "/".join(map(str, regs)) if regs else "one role (no setmaxnreg)"
    return {"smem_dynamic": 0, "depths": f"{fits}{facts['mbarriers']} mbarriers", "roles": roles}


# -- tilepipe ---------------------------------------------------------------

def tilepipe_cuda(build, name, fixture, given, tmp, hopper=False):
    """(.cu path, source note) for kernel `name`, or (None, why)."""
    if name in given:
        return given[name], f"given: {given[name]}"
    driver = os.path.join(build, "bin", "tilepipe")
    cu = os.path.join(tmp, name + ".cu")
    if os.path.exists(driver):
        proc = run([driver, "compile", fixture, "-o", cu] + (["--target", "sm_90a"] if hopper else []))
        if proc.returncode == 0 and os.path.exists(cu):
            return cu, "tilepipe compile"
        first = (proc.stdout.strip().splitlines() or ["no output"])[0]
        why = f"tilepipe compile: {first[:160]}"
    else:
        why = "no tilepipe driver"
    if name in STAND_INS and not hopper:
        example, differs = STAND_INS[name]
        lowered = lower(os.path.join(ROOT, example), build, tmp, name=name, log=lambda _: None)
        if lowered:
            return lowered[1], f"stand-in: {example} ({differs})"
    return None, why


def compile_tilepipe(cu, out, name):
    """(host executable holding the sm_100a kernel, dynamic SMEM, ptxas's
    spill bytes) or None."""
    text = open(cu).read()
    struct = re.search(r"struct (tp_smem_\w+)\s*\{", text)
    probe = os.path.join(out, name + ".tilepipe-probe.cu")
    with open(probe, "w") as f:
        f.write(f'#include "{os.path.abspath(cu)}"\n#include <cstdio>\n')
        size = f"sizeof({struct.group(1)})" if struct else "(size_t)0"
        f.write(f'int main() {{ std::printf("%zu\\n", {size}); return 0; }}\n')
    exe = os.path.join(out, name + ".tilepipe")
    proc = run([NVCC, "-std=c++17", "-gencode", "arch=compute_100a,code=sm_100a", "-I", INCLUDE,
                probe, "-o", exe, "-Xptxas", "-v", "-diag-suppress", "177"])
    if proc.returncode:
        say(f"{name}: nvcc failed: {proc.stdout.strip()[-300:]}")
        return None
    spill = sum(int(x) for x in re.findall(r"(\d+) bytes spill stores", proc.stdout))
    dynamic = int(run([exe]).stdout.strip() or 0) if struct else None
    return exe, dynamic, spill


def tilepipe_meta(cu, dynamic):
    """Ring depths and warp roles from the generated CUDA: the shared-memory
    struct's comments (`pipe 0: tma, 4 x 16384 B`) and the warp-range
    blocks (`if ((tp_warp >= 4 && tp_warp < 8))`)."""
    text = open(cu).read()
    depths = "; ".join(f"pipe {m.group(1)} {m.group(2)} {m.group(3)} x {m.group(4)} B" for m in
                       re.finditer(r"// pipe (\d+): (\w+), (\d+) x (\d+) B", text))
    blocks = list(re.finditer(r"if \(\(tp_warp >= (\d+) && tp_warp < (\d+)\)\)", text))
    roles = []
    for k, m in enumerate(blocks):
        body = text[m.end():blocks[k + 1].start() if k + 1 < len(blocks) else len(text)]
        what = [label for key, label in (("tma_load", "TMA"), ("umma", "MMA"), ("tmem_load", "TMEM ld"),
                                         ("tma_store", "TMA st")) if f"tp::{key}" in body]
        lo, hi = int(m.group(1)), int(m.group(2)) - 1
        roles.append(f"w{lo}{'' if lo == hi else f'-{hi}'} {'+'.join(what) or 'SIMT'}")
    return {"smem_dynamic": dynamic, "depths": f".cu: {depths}" if depths else ".cu: no ring",
            "roles": ", ".join(roles)}


# -- The table --------------------------------------------------------------

def loop_cell(m, kind):
    if not m:
        return "-"
    extra = {"tma": ("tma_load", "wait", "arrive", "branch"), "mma": ("mma", "commit", "wait", "branch")}[kind]
    return f"{m['total']} ({', '.join(str(m.get(k, 0)) for k in extra)})"


def other_loops(facts):
    """Innermost loops that are neither the TMA nor the MMA loop and do
    more than spin on a barrier: their sizes."""
    steady = [facts["tma_loop"], facts["mma_loop"]]
    sizes = [m["total"] for m in facts["loops"]
             if m not in steady and m["total"] - m.get("wait", 0) - m.get("branch", 0) > 6]
    return ", ".join(map(str, sorted(sizes, reverse=True))) or "-"


def markdown(rows):
    head = ("| kernel | compiler | threads | registers | spills (STL+LDL, stack B) | SMEM static + dynamic B "
            "| TMEM cols | TMA loop: total (UTMALDG, waits, arrives, branches) "
            "| MMA loop: total (MMAs, commits, waits, branches) | other loops | ring depths (backing) | roles |")
    lines = [head, "|" + "---|" * 12]
    for r in rows:
        f = r["facts"]
        if f is None:
            lines.append(f"| {r['kernel']} | {r['compiler']} | not compiled (see below) |" + " |" * 9)
            continue
        dynamic = "?" if r["smem_dynamic"] is None else r["smem_dynamic"]
        lines.append(
            f"| {r['kernel']} | {r['compiler']} | {f['threads']} | {f['registers']} | "
            f"{f['spill_insns']}, {f['stack']} | {f['smem_static']} + {dynamic} | "
            f"{f['tmem_columns']} | {loop_cell(f['tma_loop'], 'tma')} | {loop_cell(f['mma_loop'], 'mma')} | "
            f"{other_loops(f)} | {', '.join(map(str, f['ring_depths'])) or '-'} ({r['depths']}) | {r['roles']} |")
    notes = [f"- {r['kernel']}, tilepipe: {r['note']}" for r in rows if r["compiler"] == "tilepipe"]
    return "\n".join(lines) + "\n\n" + "\n".join(notes) + "\n"


def only_kernel(facts):
    """The one kernel's facts (a tilepipe probe also holds none other)."""
    return next(iter(facts.values())) if facts else None


def compare(build, out, given, only, arch="sm_100"):
    hopper = arch == "sm_90"
    cuobjdump = testvenv.tool_path(build, "cuobjdump")
    disasm = testvenv.tool_path(build, "tileirdisasm")
    fixtures = sorted(f for f in os.listdir(FIXTURES) if f.endswith(f"-{VERSION}.tileirbc"))
    rows = []
    for fixture_name in fixtures:
        name = fixture_name[:-len(f"-{VERSION}.tileirbc")]
        if only and name not in only:
            continue
        fixture = os.path.join(FIXTURES, fixture_name)
        say(f"{name}: tileiras")
        loads = loop_load_bytes(run([disasm, fixture]).stdout)
        binary = compile_tileiras(build, fixture, out, arch)
        facts = only_kernel(cubin.analyze(cuobjdump, binary)) if binary else None
        row = {"kernel": name, "compiler": "tileiras", "facts": facts, "note": "tileiras failed",
               "load_bytes": loads}
        row.update(tileiras_meta(facts, loads) if facts else {})
        rows.append(row)
        say(f"{name}: tilepipe")
        with tempfile.TemporaryDirectory() as tmp:
            cu, note = tilepipe_cuda(build, name, fixture, given, tmp, hopper)
            if cu and hopper and name in given:
                cu, note = None, "a given .cu is compiled for sm_100a only"
            if cu and not os.path.exists(NVCC):
                cu, note = None, f"no CUDA Toolkit ({NVCC})"
            made = compile_tilepipe(cu, out, name) if cu else None
            row = {"kernel": name, "compiler": "tilepipe", "facts": None, "note": note}
            if made:
                exe, dynamic, spill = made
                row["facts"] = only_kernel(cubin.analyze(cuobjdump, exe))
                row["ptxas_spill_bytes"] = spill
                row.update(tilepipe_meta(cu, dynamic))
            elif cu:
                row["note"] = note + "; nvcc failed"
            rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out")
    ap.add_argument("--tilepipe-cu", action="append", default=[], metavar="NAME=FILE.cu",
                    help="tilepipe's CUDA for kernel NAME (instead of tilepipe compile)")
    ap.add_argument("--only", nargs="*", help="kernel names (default: every fixture)")
    ap.add_argument("--arch", choices=["sm_100", "sm_90"], default="sm_100",
                    help="tileiras's --gpu-name (sm_90: Hopper; tilepipe's side then goes through "
                         "`tilepipe compile --target sm_90a`, which does not emit CUDA yet)")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    python, reason = testvenv.ensure(build, "cutile")
    if not python:
        say(f"skipped: no cuTile environment ({reason})")
        return 0
    if not os.path.exists(NVCC):
        say(f"tilepipe's side skipped: no CUDA Toolkit ({NVCC})")
    given = dict(item.split("=", 1) for item in args.tilepipe_cu)
    out = os.path.abspath(args.out or os.path.join(
        build, "cutile-bench" + ("-sm90" if args.arch == "sm_90" else "")))
    os.makedirs(out, exist_ok=True)
    rows = compare(build, out, {k: os.path.abspath(v) for k, v in given.items()}, args.only, args.arch)
    with open(os.path.join(out, "cutile.json"), "w") as f:
        json.dump(rows, f, indent=1, sort_keys=True)
    table = markdown(rows)
    with open(os.path.join(out, "cutile.md"), "w") as f:
        f.write(table)
    print(table, end="")
    say(f"wrote {out}/cutile.md and cutile.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
