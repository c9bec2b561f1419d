#!/usr/bin/env python3
"""Takes tile-IR kernels through the whole pipeline and checks what nvcc makes
of the CUDA the translator writes (docs/cuda.md):

  tilepipe-opt --tileas-generate-schedule --tileas-materialize-schedule=print-plan
      -canonicalize -cse  ->  tilepipe-translate --tileas-to-cuda  ->  nvcc

Per file, it checks ptxas's report of the sm_100a kernel (-gencode
arch=compute_100a,code=sm_100a, as docs/blackwell-facts.md section 6 records):
named barriers within the hardware's 16 and equal to the ids the kernel uses,
spilled bytes per thread within --max-spill (registers are reported: ptxas
keeps them within the launch bound by construction) and the setmaxnreg split
within the register file (printed as [producer, consumer] counts, or per
warpgroup, 56/216/88/152, when the consumers' counts differ); and the shared
memory the
compiled layout reserves for tiles (offsetof the first barrier, a device
constant of the same compile, read from its PTX) equal to what the plan
counts. It also compiles the same file as the protocol harness for sm_90a
(-DTILEPIPE_HARNESS). nvcc compiles device code only (-cubin). Prints one summary per kernel; exit 1 on a failed check,
2 when a step fails to run.
"""
import argparse
import concurrent.futures
import os
import re
import sys
import tempfile

import kernelcache
from cudalower import NVCC, add_common_arguments, lower
from cudalower import run as run_tool


def run(cmd, build=None):
    """A tool run; nvcc's in a CPU slot of the build folder."""
    if cmd[0] != NVCC:
        return run_tool(cmd)
    with kernelcache.Slot(build):
        return run_tool(cmd)


def ptxas_summary(output):
    m = re.search(r"Used (\d+) registers(?:, used (\d+) barriers)?", output)
    if not m:
        return None
    return int(m.group(1)), int(m.group(2) or 0)


def probe_layout(ptx):
    """(offset of the first barrier, size) of the kernel's shared memory
    struct: the probe's two device constants as the PTX initializes them."""
    text = open(ptx).read()
    value = {m.group(1): int(m.group(2)) for m in
             re.finditer(r"\.u64 tp_probe_(tiles|total) = (\d+);", text)}
    # A constant that is 0 (no tiles) is written without an initializer.
    return value.get("tiles", 0), value["total"]


def check(path, build, include, tmp, harness, quiet, max_spill=None,
          materialize="", log=print, target=None):
    lowered = lower(path, build, tmp, materialize, log=log, target=target)
    arch = target or "sm_100a"
    if not lowered:
        return 2
    name, cu, plan_text = lowered
    plan = [int(x) for x in re.findall(r"^smem (\d+) B", plan_text, re.M)]
    text = open(cu).read()
    threads = int(re.search(r"__launch_bounds__\((\d+)", text).group(1))
    kernel = re.search(r"void (\w+)\(", text).group(1)
    ids = [int(x) for x in re.findall(
        r"tp::(?:agent_sync|named_arrive)\((\d+),", text)]
    # A ping-pong agent's copies sync on First and First + 1.
    ids += [int(x) + 1 for x in re.findall(r"tp::copy_sync<(\d+)>", text)]
    # Two warpgroups taking issue turns: their pair of turn barriers and their
    # pair of own barriers, each First and First + 1.
    ids += [int(x) + 1 for x in re.findall(
        r"tp::(?:issue_turn_\w+|group_sync)<(\d+)>", text)]
    expected_barriers = max(ids + [0]) + 1
    regs = {int(x) for x in re.findall(r"setmaxnreg_(?:inc|dec)<(\d+)>", text)}

    # One device-only nvcc run gives both what ptxas says of the kernel and
    # the shared memory layout: the .cu is compiled with two device
    # constants, the layout's offset of the first barrier and its size, which
    # the PTX spells out. The host pass (cudafe++ and the host compiler, more
    # than half of nvcc's time) is left out: the device pass parses and
    # checks the host code too, and nvcc-main.test, harness-build.test and
    # the tests that run nvcc -c themselves compile it to the end
    # (docs/testing.md, "CI time").
    probe = os.path.join(tmp, name + "_smem.cu")
    # A kernel of the threads alone (a histogram) has no barrier: its tiles
    # end where the TMEM base word (always there) starts.
    first_barrier = re.search(r"uint64_t (\w+)\[", text)
    tiles = f"offsetof(tp_smem_{kernel}, {first_barrier.group(1) if first_barrier else 'tmem_base'})"
    with open(probe, "w") as f:
        f.write(f'#include "{cu}"\n#include <cstddef>\n'
                f"__device__ unsigned long long tp_probe_tiles = {tiles};\n"
                f"__device__ unsigned long long tp_probe_total = sizeof(tp_smem_{kernel});\n")
    keep = os.path.join(tmp, name + ".nvcc")
    os.makedirs(keep, exist_ok=True)
    failures = []
    nv = run([NVCC, "-std=c++17", "-gencode", f"arch=compute_{arch[3:]},code={arch}",
              "-I", include, probe, "-cubin", "-o", os.path.join(keep, name + ".cubin"),
              "-keep", "-keep-dir", keep, "-Xptxas", "-v", "-diag-suppress", "177"], build)
    summary = ptxas_summary(nv.stdout)
    if nv.returncode or not summary:
        log(f"{name}: nvcc {arch} failed\n{nv.stdout}")
        return 1
    used_regs, barriers = summary
    spill = re.search(r"(\d+) bytes spill stores", nv.stdout)
    spill = int(spill.group(1)) if spill else 0
    budget = min(255, 65536 // threads // 8 * 8)
    if barriers > 16:
        failures.append(f"{barriers} named barriers, more than 16")
    if barriers != expected_barriers:
        failures.append(f"ptxas counts {barriers} named barriers, the kernel "
                        f"uses ids up to {expected_barriers - 1}")
    # ptxas never exceeds the launch bound (__launch_bounds__ caps it, and it
    # spills instead), so the registers are reported, and what can fail is
    # the spill: more bytes than the bound the caller states.
    # ptxas's notes that it took the wgmmas' asynchrony away: serialized
    # for want of registers (C7512) or for reads of an accumulator while a
    # wgmma may write it (C7514), or a warpgroup.arrive injected before a
    # wgmma whose registers were written after the fence (C7519).
    lost = sorted(set(re.findall(r"\((C75(?:12|14|19))\)", nv.stdout)))
    if lost:
        failures.append("ptxas serializes or fences the wgmmas (" + ", ".join(lost) + ")")
    if max_spill is not None and spill > max_spill:
        failures.append(f"{spill} B spilled per thread, more than the {max_spill} B "
                        f"allowed (--max-spill)")
    # The setmaxnreg split: every warpgroup runs one, and the counts fit the
    # registers the CTA holds from launch (launch count x threads): more
    # blocks a setmaxnreg.inc forever; a warpgroup left out shares its
    # agent's code at the launch count, and ptxas allocates that code
    # within the smaller count.
    counts = {}
    for one, lo, hi, r in re.findall(
            r"\(tp_warp / 4 (?:== (\d+)|>= (\d+) && tp_warp / 4 < (\d+))\)\) \{"
            r"\s*tp::setmaxnreg_(?:inc|dec)<(\d+)>", text):
        for g in ([int(one)] if one else range(int(lo), int(hi))):
            counts[g] = int(r)
    if counts:
        pool = budget * threads
        split = sum(counts.values()) * 128
        if split > pool:
            failures.append(f"the setmaxnreg split needs {split} registers, "
                            f"the CTA holds {pool}")
        left = [g for g in range(threads // 128) if g not in counts]
        if left:
            failures.append(f"warpgroups {left} run no setmaxnreg")

    tiles, total = probe_layout(os.path.join(keep, name + "_smem.ptx"))
    if len(plan) == 1 and tiles != plan[0]:
        failures.append(f"tiles take {tiles} B of SMEM, the plan counts "
                        f"{plan[0]} B")
    if total > 232448:
        failures.append(f"{total} B of SMEM, more than a CTA's 232448")

    # One count per consumer warpgroup: [producer, consumer]; a split by
    # need (docs/cuda.md, "Registers") gives each warpgroup its own, printed
    # in warpgroup order.
    if len(regs) > 2 and counts:
        split_text = "/".join(str(counts[g]) for g in sorted(counts))
    else:
        split_text = str(sorted(regs) or 'none')
    line = (f"{name}: {arch} {used_regs} registers (budget {budget}, "
            f"{threads} threads, setmaxnreg {split_text}), "
            f"{spill} B spilled, "
            f"{barriers} named barriers, SMEM tiles {tiles} B (plan "
            f"{', '.join(map(str, plan))} B), total {total} B")
    if harness:
        # Device code only, as above: ptxas's summary is what is checked.
        hv = run([NVCC, "-std=c++17", "-DTILEPIPE_HARNESS", "-gencode",
                  "arch=compute_90a,code=sm_90a", "-I", include, "-cubin", cu,
                  "-o", os.path.join(tmp, name + ".h.cubin"), "-Xptxas", "-v",
                  "-diag-suppress", "177"], build)
        hs = ptxas_summary(hv.stdout)
        if hv.returncode or not hs:
            log(f"{name}: nvcc harness sm_90a failed\n{hv.stdout}")
            return 1
        line += f"; harness sm_90a {hs[0]} registers, {hs[1]} named barriers"
    if not quiet or failures:
        log(line)
    for f in failures:
        log(f"{name}: FAIL: {f}")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(ap)
    ap.add_argument("--harness", action="store_true",
                    help="also compile the sm_90a protocol harness")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--max-spill", type=int,
                    help="fail when ptxas spills more bytes per thread than this")
    ap.add_argument("--target", choices=["sm_100a", "sm_90a"],
                    help="schedule, materialize, translate and compile for this target "
                         "(default sm_100a; sm_90a: the loop rewritten for wgmma first)")
    ap.add_argument("--materialize", default="",
                    help="options of --tileas-materialize-schedule for every "
                         "file (mode=unspecialized: peeled; persistent)")
    args = ap.parse_args()
    if not os.path.exists(NVCC):
        print(f"cuda-check: skipped: no CUDA Toolkit ({NVCC} not found)")
        return 0
    # The kernels are checked side by side, each nvcc run in a CPU slot
    # shared with the other tests (scripts/kernelcache.py), each in its own
    # folder; their lines are printed in the command line's order.
    worst = 0
    jobs = max(1, int(os.environ.get("TILEPIPE_TEST_JOBS", os.cpu_count() or 1)))
    with tempfile.TemporaryDirectory() as tmp:
        def one(i, path):
            lines = []
            folder = os.path.join(tmp, str(i))
            os.makedirs(folder)
            rc = check(path, args.build, args.include, folder, args.harness, args.quiet,
                       args.max_spill, args.materialize, log=lines.append,
                       target=args.target)
            return lines, rc

        with concurrent.futures.ThreadPoolExecutor(max_workers=min(jobs, len(args.files))) as pool:
            futures = [pool.submit(one, i, path) for i, path in enumerate(args.files)]
            for future in futures:
                lines, rc = future.result()
                for line in lines:
                    print(line, flush=True)
                worst = max(worst, rc)
    return worst


if __name__ == "__main__":
    sys.exit(main())
