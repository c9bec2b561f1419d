#!/usr/bin/env python3
"""tilepipe beside Triton, CUTLASS and FlashAttention-4 on the same kernels,
measured from their sm_100a binaries (docs/peers.md). One command:

    python3 bench/peers/peers.py [--build build] [--cutlass] [--fa4] [--only NAME...]

It makes a virtual environment under the build folder (BUILD/peers-venv;
never the system, never needed by the core build or `make run`) with Triton
and the pip cuobjdump, compiles each kernel for sm_100a without a GPU, reads
its SASS, and writes BUILD/peers/peers.md and peers.json: per kernel the
registers, spills, shared memory, warps, and the instruction mix of its MMA
and load loops. --cutlass also installs nvidia-cutlass (CUTLASS's C++
headers) and compiles its SM100 GEMM collective (about 2 minutes and 3 GB);
--fa4 installs flash-attn-4 (a pre-release, with torch: about 4 GB) and
compiles its forward kernel. Without the package index it says so and
compares only what it has."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import sass  # noqa: E402
from cudalower import INCLUDE, NVCC, lower  # noqa: E402
from testvenv import pip_reason  # noqa: E402

BASE = ["triton==3.9.0", "nvidia-cuda-cuobjdump", "nvidia-cuda-nvdisasm"]
CUTLASS = ["nvidia-cutlass"]
FA4 = ["--pre", "flash-attn-4"]

# The kernels, by the problem they solve; tilepipe's from the bundled examples.
TILEPIPE = {
    "tilepipe_gemm": ("gemm", "examples/gemm_mainloop.mlir"),
    "tilepipe_gemm_fp8": ("gemm_fp8", "examples/gemm_blockscaled_fp8.mlir"),
    "tilepipe_attention": ("attention", "examples/attention_fwd.mlir"),
    "tilepipe_fa4": ("attention", "examples/fa4_fwd.mlir"),
    # Persistent tiles, the accumulator double-buffered (docs/cuda.md).
    "tilepipe_gemm_persistent": ("gemm", "examples/gemm_mainloop.mlir", "persistent"),
    # 128 x 128 tiles, persistent: on sm_90a two ping-pong consumer copies
    # (docs/cuda.md, "Ping-pong consumers"), beside CUTLASS's ping-pong.
    "tilepipe_gemm128_pingpong": ("gemm128", "test/lit/cuda/Inputs/gemm-128x128.mlir", "persistent"),
}
TRITON = {"triton_gemm": "gemm", "triton_gemm_fp8": "gemm_fp8", "triton_attention": "attention"}


def say(msg):
    print(f"peers: {msg}", flush=True)


def environment(build, extra):
    """The venv's python, or None with the reason printed."""
    root = os.path.join(os.path.abspath(build), "peers-venv")
    python = os.path.join(root, "bin", "python")
    want = list(BASE) + extra
    stamp = os.path.join(root, "tilepipe-packages.json")
    if os.path.exists(stamp) and json.load(open(stamp)) == want:
        return python
    steps = [] if os.path.exists(python) else [[sys.executable, "-m", "venv", root]]
    steps.append([python, "-m", "pip", "install", "-q", "--disable-pip-version-check"] + BASE)
    if extra:
        steps.append([python, "-m", "pip", "install", "-q", "--disable-pip-version-check"] + extra)
    for step in steps:
        say("installing: " + " ".join(step[5:] or step[2:]))
        proc = subprocess.run(step, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if proc.returncode:
            say(f"skipped: the peers' environment could not be made ({pip_reason(proc.stdout)})")
            return None
    json.dump(want, open(stamp, "w"))
    return python


def cuobjdump(python):
    site = subprocess.run([python, "-c", "import nvidia, os; print(os.path.dirname(nvidia.__path__[0]))"],
                          capture_output=True, text=True).stdout.strip()
    path = os.path.join(site, "nvidia", "cu13", "bin", "cuobjdump")
    return path if os.path.exists(path) else None


# The tilepipe kernels that have a Hopper form (docs/cuda.md, "Hopper"): the
# GEMM, rewritten for wgmma; attention and the block-scaled GEMM have none yet.
TILEPIPE_SM90A = ("tilepipe_gemm", "tilepipe_gemm128_pingpong")


def compile_tilepipe(build, out, arch="sm_100a"):
    """Each example through generate, materialize, translate and nvcc for
    `arch` (sm_90a: the loop rewritten for wgmma first)."""
    cubins = {}
    if not os.path.exists(NVCC):
        say(f"tilepipe kernels skipped: no CUDA Toolkit ({NVCC})")
        return cubins
    hopper = arch == "sm_90a"
    for name, (_, mlir, *options) in TILEPIPE.items():
        if hopper and name not in TILEPIPE_SM90A:
            continue
        # Ping-pong is a Hopper form: on sm_100a the 128 x 128 GEMM adds nothing.
        if not hopper and name == "tilepipe_gemm128_pingpong":
            continue
        with tempfile.TemporaryDirectory() as tmp:
            lowered = lower(os.path.join(ROOT, mlir), build, tmp, " ".join(options), name=name,
                            target=arch if hopper else None)
            if not lowered:
                say(f"{name}: lowering failed")
                continue
            cu = lowered[1]
            plan = lowered[2]
            mat = open(os.path.join(tmp, name + ".mat.mlir")).read()
            depths = [f"{m.group(1)}->{m.group(2)} {m.group(3)}"
                      for m in re.finditer(r"\n  (\w+) -> (\w+), \w+ [^\n]*?, depth (\d+)", plan)]
            smem = re.search(r"\nsmem (\d+) B", plan)
            # A ping-pong agent (replicas = 2) runs on two copies of its warps.
            agents = [(m.group(2), int(m.group(3)), int(m.group(1) or 1)) for m in
                      re.finditer(r'tileas.agent \{[^}]*?(?:replicas = (\d+) : i32, )?'
                                  r'role = "(\w+)"[^}]*warps = (\d+)', mat)]
            roles = [f"{r} {w}" + (f" x{n} (ping-pong)" if n > 1 else "") for r, w, n in agents]
            json.dump({"shared": int(smem.group(1)) if smem else None,
                       "num_warps": sum(w * n for _, w, n in agents), "roles": ", ".join(roles),
                       "depths": "; ".join(depths), "schedule": tilepipe_schedule(build, mlir, arch)},
                      open(os.path.join(out, name + ".json"), "w"), indent=1)
            cubin = os.path.join(out, name + ".cubin")
            proc = subprocess.run([NVCC, "-std=c++17", "-cubin", "-gencode",
                                   f"arch=compute_{arch[3:]},code={arch}",
                                   "-I", INCLUDE, cu, "-o", cubin], capture_output=True, text=True)
            if proc.returncode:
                say(f"{name}: nvcc failed: {proc.stderr.strip()[-300:]}")
                continue
            cubins[name] = cubin
    return cubins


def tilepipe_schedule(build, mlir, arch="sm_100a"):
    """tilepipe's own decisions for the loop, in the terms Triton's are
    printed in: the stage of each op class (print-schedule)."""
    hopper = arch == "sm_90a"
    proc = subprocess.run([os.path.join(build, "bin", "tilepipe-opt"), os.path.join(ROOT, mlir)]
                          + (["--tileas-umma-to-wgmma"] if hopper else [])
                          + ["--tileas-generate-schedule=print-schedule"
                             + (f" target={arch}" if hopper else ""), "-o", os.devnull],
                          capture_output=True, text=True)
    top = re.search(r"^II (\d+), MII \d+ .*stages (\d+)", proc.stdout, re.M)
    stages = {}
    for m in re.finditer(r"^%\w+ = tileas\.(\w+)\s+\w+\s+\d+\s+(\d+)\s", proc.stdout, re.M):
        if m.group(1) in ("tma_load", "umma", "wgmma", "tmem_load", "cp_async"):
            stages.setdefault(m.group(1), set()).add(int(m.group(2)))
    return {"ii": int(top.group(1)) if top else None,
            "max_stage": int(top.group(2)) - 1 if top else None,
            "stage_of": {k: sorted(v) for k, v in sorted(stages.items())}}


def compile_triton(python, out, names):
    proc = subprocess.run([python, os.path.join(HERE, "triton_kernels.py"), out] + names,
                          capture_output=True, text=True)
    if proc.returncode:
        say("Triton kernels failed: " + proc.stderr.strip()[-400:])
        return {}
    return {name: os.path.join(out, name + ".cubin") for name in names
            if os.path.exists(os.path.join(out, name + ".cubin"))}


def triton_schedule(python, out, name):
    """Triton's own pipelining decisions for the loop: the stage of each op
    as TritonGPUScheduleLoops assigned it (the IR before TritonGPUPipeline)."""
    env = dict(os.environ, MLIR_ENABLE_DUMP="1", TRITON_ALWAYS_COMPILE="1")
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run([python, os.path.join(HERE, "triton_kernels.py"), tmp, name],
                              capture_output=True, text=True, env=env)
    dump = proc.stderr
    at = dump.find("IR Dump Before TritonGPUPipeline")
    if at < 0:
        return None
    end = dump.find("// -----//", at + 10)
    ir = dump[at:end if end > 0 else len(dump)]
    stages = {}
    for line in ir.splitlines():
        m = re.search(r"= (?:\w+\.)?([\w.]+) .*loop\.stage = (\d+)", line)
        if m and any(k in m.group(1) for k in ("tma", "copy", "mma", "load", "wait", "barrier")):
            stages.setdefault(m.group(1), set()).add(int(m.group(2)))
    top = re.search(r"tt\.scheduled_max_stage = (\d+)", ir)
    return {"max_stage": int(top.group(1)) if top else None,
            "stage_of": {k: sorted(v) for k, v in sorted(stages.items())}}


def compile_cutlass(python, out, arch="sm_100a"):
    """CUTLASS's GEMM for `arch`; on sm_90a its cooperative 128x256 and its
    ping-pong 128x128 kernels."""
    if arch != "sm_90a":
        return compile_cutlass_one(python, out, arch, "cutlass_gemm", 0)
    found = compile_cutlass_one(python, out, arch, "cutlass_gemm", 1)
    found.update(compile_cutlass_one(python, out, arch, "cutlass_gemm128_pingpong", 2))
    return found


def compile_cutlass_one(python, out, arch, name, sm90):
    inc = subprocess.run([python, "-c", "import cutlass_library, os; "
                          "print(os.path.join(os.path.dirname(cutlass_library.__file__), 'source'))"],
                         capture_output=True, text=True).stdout.strip()
    if not inc or not os.path.exists(os.path.join(inc, "include", "cutlass")):
        say("CUTLASS skipped: nvidia-cutlass ships no C++ headers here")
        return {}
    hopper = arch == "sm_90a"
    say(f"compiling CUTLASS's {'SM90' if hopper else 'SM100'} GEMM {name} (about 2 minutes)")
    exe = os.path.join(out, name)
    # -gencode for sm_90a: the -arch shorthand also runs a plain sm_90 pass,
    # which rejects wgmma.
    target = (["-gencode", "arch=compute_90a,code=sm_90a", f"-DTP_CUTLASS_SM90={sm90}"] if hopper
              else ["-arch=sm_100a"])
    proc = subprocess.run([NVCC, "-std=c++17", "-O3"] + target + ["--expt-relaxed-constexpr",
                           "-I", os.path.join(inc, "include"), "-I", os.path.join(inc, "tools", "util", "include"),
                           os.path.join(HERE, "cutlass_gemm.cu"), "-o", exe], capture_output=True, text=True)
    if proc.returncode:
        say("CUTLASS failed: " + proc.stderr.strip()[-400:])
        return {}
    # The host program prints the kernel's own shared storage, mainloop
    # stages and threads without a GPU.
    info = subprocess.run([exe, "--info"], capture_output=True, text=True).stdout
    m = re.search(r"smem/CTA=(\d+) B, stages=(\d+), threads=(\d+), accumulators=(\d+)", info)
    if m:
        roles = ("a TMA producer warpgroup, 2 consumer warpgroups "
                 + ("(ping-pong)" if sm90 == 2 else "(cooperative)") if hopper
                 else "TMA, MMA, epilogue, scheduler warps")
        accs = ("registers: 128x128xf32 per consumer warpgroup" if sm90 == 2
                else "registers: 64x256xf32 per consumer warpgroup" if hopper
                else f"tmem 128x256xf32 x{m.group(4)}")
        json.dump({"shared": int(m.group(1)), "num_warps": int(m.group(3)) // 32,
                   "roles": roles,
                   "depths": f"smem A+B x{m.group(2)} (one barrier pair a stage); {accs}"},
                  open(os.path.join(out, name + ".json"), "w"), indent=1)
    return {name: exe}


def compile_fa4(python, out):
    proc = subprocess.run([python, os.path.join(HERE, "fa4_kernel.py"), out], capture_output=True, text=True)
    if proc.returncode:
        say("FA4 failed: " + proc.stderr.strip()[-400:])
        return {}
    cubin = os.path.join(out, "fa4.cubin")
    return {"fa4": cubin} if os.path.exists(cubin) else {}


PROBLEM = {**{k: v[0] for k, v in TILEPIPE.items()}, **TRITON, "cutlass_gemm": "gemm",
           "cutlass_gemm128_pingpong": "gemm128", "fa4": "attention"}


def row(name, report, meta):
    kernels = [(k, v) for k, v in report.items()]
    k, r = max(kernels, key=lambda kv: kv[1]["total"].get("mma", 0))
    res = r["res"]
    cells = {"kernel": name, "problem": PROBLEM.get(name, "?"), "registers": res.get("REG"),
             "stack": res.get("STACK", 0), "local": res.get("LOCAL", 0), "sass": r["total"].get("total")}
    for loop in ("load_loop", "mma_loop"):
        m = r[loop] or {}
        cells[loop] = {key: m.get(key, 0) for key in ("total", "mma", "tma_load", "wait", "arrive", "commit", "branch")}
    cells.update(meta or {})
    return cells


def markdown(rows):
    head = ("| kernel | problem | registers | stack (spill) | load loop: instructions (TMA, waits, arrives, "
            "branches) | MMA loop: instructions (MMA, commits, waits, branches) | shared memory | warps (roles) "
            "| buffers (depth) |")
    lines = [head, "|" + "---|" * 9]
    for c in rows:
        ld, mm = c["load_loop"], c["mma_loop"]
        lines.append(f"| {c['kernel']} | {c['problem']} | {c['registers']} | {c['stack']} | "
                     f"{ld['total']} ({ld['tma_load']}, {ld['wait']}, {ld['arrive']}, {ld['branch']}) | "
                     f"{mm['total']} ({mm['mma']}, {mm['commit']}, {mm['wait']}, {mm['branch']}) | "
                     f"{c.get('shared') or ''} | {c.get('num_warps') or ''} ({c.get('roles') or ''}) | "
                     f"{c.get('depths') or ''} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out")
    ap.add_argument("--arch", choices=["sm_100a", "sm_90a"], default="sm_100a",
                    help="the target the peers are compiled for (sm_90a: Hopper; tilepipe's "
                         "kernels are left out there until it emits CUDA for sm_90a)")
    ap.add_argument("--cutlass", action="store_true")
    ap.add_argument("--fa4", action="store_true")
    ap.add_argument("--only", nargs="*", help="kernel names (default: all that apply)")
    ap.add_argument("--env-only", action="store_true",
                    help="only make the environment (make test does, for test/lit/bench/peers)")
    args = ap.parse_args()
    if args.env_only:
        return 0 if environment(args.build, []) else 1
    hopper = args.arch == "sm_90a"
    out = os.path.abspath(args.out or os.path.join(args.build, "peers" + ("-sm90a" if hopper else "")))
    if hopper:
        os.environ["TP_PEERS_ARCH"] = "90"
    os.makedirs(out, exist_ok=True)
    extra = (CUTLASS if args.cutlass else []) + (FA4 if args.fa4 else [])
    python = environment(args.build, extra)
    if not python:
        return 0
    dump = cuobjdump(python)
    if not dump:
        say("skipped: no cuobjdump in the peers' environment")
        return 0
    want = lambda n: not args.only or n in args.only  # noqa: E731
    cubins = {}
    # Hopper has no block-scaled MMA: the FP8 peer is Blackwell's only.
    triton_names = [n for n in TRITON if want(n) and not (hopper and n == "triton_gemm_fp8")]
    if triton_names:
        cubins.update(compile_triton(python, out, triton_names))
    if any(want(n) for n in TILEPIPE):
        if hopper:
            say("tilepipe on sm_90a: the GEMM only (attention and the block-scaled GEMM have no "
                "Hopper translation yet; docs/retarget.md)")
        cubins.update({k: v for k, v in compile_tilepipe(args.build, out, args.arch).items()
                       if want(k)})
    if args.cutlass:
        cubins.update(compile_cutlass(python, out, args.arch))
    if args.fa4 and hopper:
        say("FA4 skipped on sm_90a (a Blackwell kernel)")
    elif args.fa4:
        cubins.update(compile_fa4(python, out))
    rows, full = [], {}
    for name in sorted(cubins):
        report = sass.analyze(dump, cubins[name])
        meta_path = os.path.join(out, name + ".json")
        meta = json.load(open(meta_path)) if os.path.exists(meta_path) else {}
        if name in TRITON and want(name):
            meta["schedule"] = triton_schedule(python, out, name)
            ttgir = open(os.path.join(out, name + ".ttgir")).read()
            rings = sorted(set(re.findall(r"memdesc<(\d+)x(\d+x\d+x\w+), #shared", ttgir)))
            accs = sorted(set(re.findall(r"memdesc<((?:\d+x)?\d+x\d+xf32), #tmem", ttgir)))
            meta["depths"] = "; ".join([f"smem {t} x{d}" for d, t in rings] + [f"tmem {a}" for a in accs])
            meta["roles"] = "warp-specialized" if "ttg.warp_specialize" in ttgir else "one role"
        rows.append(row(name, report, {k: meta.get(k) for k in ("shared", "num_warps", "num_stages", "schedule",
                                                                 "roles", "depths")}))
        full[name] = {"sass": report, "meta": meta}
    with open(os.path.join(out, "peers.json"), "w") as f:
        json.dump(rows, f, indent=1, sort_keys=True)
    table = markdown(rows)
    with open(os.path.join(out, "peers.md"), "w") as f:
        f.write(table)
    print(table, end="")
    for c in rows:
        sched = c.get("schedule")
        if not sched:
            continue
        whose = "Triton's" if c["kernel"] in TRITON else "tilepipe's"
        ii = f"II {sched['ii']}, " if sched.get("ii") else ""
        print(f"{c['kernel']}: {whose} loop schedule: {ii}max stage {sched['max_stage']}, "
              + ", ".join(f"{k} at stage {v}" for k, v in sched["stage_of"].items()))
    say(f"wrote {out}/peers.md and peers.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
