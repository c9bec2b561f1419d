#!/usr/bin/env python3
"""Every check that needs a GPU, in one run (`make gpu-check`; docs/cuda.md).

  scripts/gpu-check.py [--build DIR] [--steps numcheck,hopper-rows,hopper-gemm,hopper-attention,
                       harness,fidelity,timing,gaus-cuda] [--sizes 4096,8192] [--seqs 16384]
                       [--repeat 20] [--warmup 10] [--rotate 4] [--json FILE] [-v]

Steps, each ending in one verdict line:
  numcheck  scripts/numcheck.py --mode gpu --compare-cpu (the translated
            kernels on the GPU and on the CPU emulator, both against the
            float64 reference), in the test venv (scripts/testvenv.py).
            sm_100 only: the kernels are built for sm_100a (tcgen05).
  hopper-rows  cuTile's softmax, LayerNorm and RMSNorm through `tilepipe
            compile --target sm_90a`, built for sm_90a and run on the GPU and
            the emulator (numcheck --mode gpu --arch sm_90a --compare-cpu
            --cu): sm_90 only (tilepipe's first kernels on a Hopper).
  hopper-gemm  the GEMM family for sm_90a (wgmma, the accumulator in
            registers; docs/cuda.md, "Hopper"): the *_sm90a specs and the
            bundled 128 x 256 GEMMs with --target sm_90a, each on the GPU and
            the emulator against float64 at several shapes (trip counts 0,
            1, 2, many; ragged edges): sm_90 only.
  hopper-attention  attention for sm_90a (S, P and O in the consumer
            warpgroups' registers, in the fragment's rows; docs/cuda.md):
            head dim 64 and 128, the LSE output, O rescaled before and
            after P V, and cuTile's attention sample, each on the GPU and the
            emulator against float64: sm_90 only.
  harness   scripts/harness.py on examples/*.mlir: clean (every run clean),
            then --seed-bug missing-wait and --seed-bug wrong-phase (every
            kernel's seeded bug caught). Runs on sm_90a and sm_100a.
  fidelity  scripts/fidelity-check.sh --source tma, wgmma and rounding: the
            emulator's TMA loads and its wgmma.mma_async (fragments,
            descriptors, arithmetic) against the hardware, byte for byte;
            rounding: one wgmma per operand kind on sums that round, the
            integer kinds bit for bit, the float kinds measured (results
            bit-identical; the dumps feed a model of the hardware's
            rounding). wgmma and rounding need sm_90a (a Hopper).
  gaus-cuda BUILD/unittests/GausCudaTests (carry it with build/bin): the
            GauS CUDA relaxation against the CPU one on random instances and
            DAGs, and its time per forward+backward on 50k-node graphs
            beside the CPU path's (GausCuda.Timing).
  timing    cuBLAS (bench/gpu/cublas_gemm.cu --check) and the translated
            examples/gemm_mainloop.mlir kernel (sm_100a on a Blackwell,
            sm_90a on a Hopper), on M = N = K = each of --sizes, bf16 in,
            fp32 accumulate, bf16 out; TFLOP/s of each and their ratio, each
            result checked on sampled elements against a float64 dot
            product; with torch and triton on the machine also
            torch.matmul and the Triton GEMM of bench/peers
            (bench/gpu/peer_gemm_timing.py: do_bench medians, rotated
            inputs). On a Hopper also attention at head dim 128, one head of
            each of --seqs query rows and keys: tilepipe's
            attn-scale-hd128.mlir for sm_90a (its output checked on sampled
            rows, bench/gpu/attention_sample_check.py) beside torch's SDPA
            backends and the Triton attention of bench/peers
            (bench/gpu/peer_attention_timing.py). tilepipe's and cuBLAS's
            times are the median of --repeat launches, each timed on its
            own after --warmup untimed ones, the inputs rotated over
            --rotate copies and L2 cleared before each launch outside its
            timing (the generated main's --repeat, cublas_gemm.cu); the
            peers' are do_bench's median, measured the same way.

Results go to build/gpu-check.json (--json), full step outputs to
build/gpu-check/*.log, and a Markdown table for docs/cuda.md to stdout.

The whole run must fit a lent device's 10-minute command limit; when it does
not, run the steps one at a time (--steps numcheck, --steps harness,
--steps timing, each with its own --json).

Exit status: 0 every step passed (a step skipped because the device lacks
sm_100 counts as passed); 1 a step failed or could not run; 2 usage;
77 skipped: no CUDA Toolkit or no CUDA device (make gpu-check turns 77 into
0, after the message).
"""
import argparse
import contextlib
import glob
import io
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cudalower import INCLUDE, NVCC, PROBE_CU, lower  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(SRC, "scripts")
SKIPPED = 77
STEPS = ["numcheck", "hopper-rows", "hopper-gemm", "hopper-attention", "harness", "fidelity",
         "timing", "gaus-cuda"]
# The GauS CUDA relaxation's tests (docs/gaus.md): carried with build/bin.
GAUS_CUDA_TESTS = os.path.join("unittests", "GausCudaTests")

# examples/gemm_mainloop.mlir's CTA tile (descC is 128x256): its launch grid
# is ceil(M / 128) x ceil(N / 256), as test/numeric/specs.py's Gemm says.
GEMM_MLIR = os.path.join(SRC, "examples", "gemm_mainloop.mlir")
# hopper-gemm: (numcheck options, specs) per run.
HOPPER_GEMMS = [
    ([], ["hgemm_relu_sm90a", "gemm_gelu_sm90a", "residual_gemm_sm90a", "bias_relu_gemm_sm90a",
          "bias_gemm_n32_sm90a", "bias_gemm_prologue_sm90a", "gemm_m64_sm90a",
          "residual_gemm_persistent_sm90a", "dual_gemm_sm90a", "gemm256_rowscale_bias"]),
    (["--target", "sm_90a"], ["gemm_mainloop", "splitk_gemm", "grouped_leaky_gemm",
                              "matmul_kn_leaky", "layerscale_residual_256", "fp8_scaled_gemm",
                              "weight_grad"]),
    (["--target", "sm_90a", "--specs", os.path.join(SRC, "test", "numeric", "cutile_specs.py")],
     ["cutile_matmul", "cutile_matmul_bias_act", "cutile_batched_matmul", "cutile_linear_gelu",
      "cutile_linear_fp8", "cutile_linear_tf32", "cutile_gemm_accumulate", "cutile_matmul_persistent",
      "cutile_matmul_256", "cutile_matmul_tf32", "cutile_weight_grad_tf32",
      "cutile_matmul_fp8", "cutile_matmul_f32_small", "cutile_linear_few_rows", "cutile_linear_lora",
      "cutile_matmul_i8", "cutile_linear_w8a8", "cutile_gemm_i8_requant",
      "cutile_matmul_u8", "cutile_gemm_w4a16", "cutile_gemm_w4a16_i32", "cutile_gemm_i8_shift",
      "cutile_store_branches"]),
]
GEMM_TILE_M, GEMM_TILE_N = 128, 256
# Other forms of the GEMM the timing step runs when a bundle has them, with
# the CTA tile whose grid each walks (a persistent kernel walks the grid it
# is given): the persistent 128 x 256 (two cooperative consumer
# warpgroups), and the 128 x 128 GEMM persistent with two ping-pong consumer
# copies and with one (docs/cuda.md, "Ping-pong consumers").
GEMM_VARIANTS = {"gemm_mainloop_persistent": (128, 256), "gemm128_persistent": (128, 128),
                 "gemm128_persistent_coop": (128, 128)}
# hopper-attention: (numcheck options, specs) per run.
HOPPER_ATTENTION = [
    (["--target", "sm_90a"], ["attn_scale_hd64", "attn_scale_hd128", "attn_scale_hd128_lse",
                              "attn_rescale_hd64", "attn_rescale_hd128", "attn_bn64_hd128",
                              "attn_causal_hd128"]),
    (["--target", "sm_90a", "--specs", os.path.join(SRC, "test", "numeric", "cutile_specs.py")],
     ["cutile_attention", "cutile_attention_causal", "cutile_attention_two_stage",
      "cutile_attention_alibi", "cutile_attention_bhsd", "cutile_attention_fmha",
      "cutile_attention_last_block", "cutile_decode_gqa_mma", "cutile_decode_alibi",
      "cutile_attention_fp8", "cutile_attention_tutorial"]),
]
# The timed attention (head dim 128, the base-2 softmax with the scale passed
# in): one 128-row Q tile per CTA, K and V blocks of 128 keys.
ATTN_MLIR = os.path.join(SRC, "test", "lit", "cuda", "Inputs", "attn-scale-hd128.mlir")
ATTN_HEAD, ATTN_TILE = 128, 128



def sh(cmd, timeout=None, **kw):
    """(exit status, stdout+stderr); a timeout is status 124 with a note."""
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=timeout, **kw)
        return r.returncode, r.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        return 124, out + f"\n(timed out after {timeout} s)\n"


def json_lines(text):
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
    return out


def timed_line(j, repeat):
    """A timed binary's JSON line (the generated main's --repeat,
    cublas_gemm.cu): its median as "ms", and the fields that say how it was
    measured, for the results."""
    return {"ms": float(j["ms"]), **{k: j[k] for k in (
        "mean_ms", "min_ms", "max_ms", "warmup", "rotate", "l2_flush") if k in j},
        "launches": j.get("launches", j.get("iters", repeat))}


def method(res):
    """How a time in the verdict lines was measured."""
    if "mean_ms" not in res:
        return f"mean of {res['launches']} launches"
    how = f"median of {res['launches']} launches (mean {res['mean_ms']:.3f} ms)"
    if res.get("rotate"):
        how += f", inputs rotated over {res['rotate']} set{'s' * (res['rotate'] != 1)}"
    if res.get("l2_flush"):
        how += ", L2 cleared before each"
    return how


def tail(text, n=12):
    return "\n".join(text.rstrip().splitlines()[-n:])


def first_errors(text, n=2):
    """A compiler's first error lines (its last lines are only "Compilation
    aborted"), or the tail when it printed none."""
    errs = [l.strip() for l in text.splitlines() if re.search(r"\berror\b", l)]
    return "\n".join(errs[:n]) if errs else tail(text, n)


def numpy_python(build):
    """(python, None) with numpy, or (None, why): the test venv under the
    build folder, else, on a lent GPU machine with no package index, the
    system python3 when it has numpy (the venv is too large to carry)."""
    import testvenv
    python, reason = testvenv.ensure(build)
    if python:
        return python, None
    system = shutil.which("python3")
    if system and subprocess.run([system, "-c", "import numpy"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL).returncode == 0:
        return system, None
    return None, reason


def dry_run(bundle):
    """What a lent GPU machine needs from here, and whether it fits: the
    bundle (scripts/gpu-bundle.py: every kernel translated and built here,
    since tilepipe's tools link LLVM and MLIR, which the machine lacks)
    complete, and with the working tree within the 64 MiB the device tool
    carries."""
    limit = 64 << 20
    manifest = os.path.join(bundle, "manifest.json")
    if not os.path.exists(manifest):
        print(f"gpu-check --dry-run: no {manifest} (make gpu-bundle)")
        return 1
    with open(manifest) as f:
        made = json.load(f)
    tracked = subprocess.run(["git", "-C", SRC, "ls-files", "-z"], capture_output=True).stdout
    tree = sum(os.path.getsize(os.path.join(SRC, f)) for f in tracked.decode().split("\0")
               if f and os.path.isfile(os.path.join(SRC, f)))
    carried = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(bundle) for f in fs)
    ok = tree + carried <= limit
    print(f"gpu-check --dry-run: the working tree {tree / 2**20:.1f} MiB + {bundle} "
          f"{carried / 2**20:.1f} MiB = {(tree + carried) / 2**20:.1f} MiB of {limit >> 20} MiB")
    missing = made.get("not_prepared", []) + [w for w, built in made.get("binaries", {}).items()
                                              if not built]
    if missing:
        print(f"  not in the bundle: {', '.join(missing)}")
        ok = False
    steps = {}
    for rec in made["kernels"].values():
        steps[rec["step"]] = steps.get(rec["step"], 0) + 1
    print("  " + ", ".join(f"{step}: {n} kernels" for step, n in sorted(steps.items()))
          + f" (commit {made.get('commit')}, made {made.get('made')})")
    print("gpu-check --dry-run: " + ("ready" if ok else "NOT ready") +
          "; on the machine: bash scripts/gpu-lent-run.sh, carrying gpu-bundle")
    return 0 if ok else 1


class Checker:
    def __init__(self, args):
        self.args = args
        # Absolute: numcheck.py and harness.py run from the source root.
        self.build = os.path.abspath(args.build)
        self.work = os.path.join(self.build, "gpu-check")
        os.makedirs(self.work, exist_ok=True)
        self.results = []  # one dict per verdict line
        self.device = None
        self.timing = {}
        # A bundle made here by scripts/gpu-bundle.py: the binaries, so that
        # the machine runs no tilepipe tool (they link LLVM and MLIR).
        self.bundle = os.path.abspath(args.bundle) if args.bundle else None

    def bundled(self, name):
        return os.path.join(self.bundle, "bin", name)

    # --- output -----------------------------------------------------------

    def log(self, name, text):
        path = os.path.join(self.work, name + ".log")
        with open(path, "w") as f:
            f.write(text)
        if self.args.verbose:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return path

    def verdict(self, step, status, summary, **details):
        """status: pass, fail (the check ran and found a problem), error (it
        could not run), skip (not applicable to this device). One line, so
        that it is one row of the Markdown table."""
        summary = " / ".join(l.strip() for l in summary.splitlines() if l.strip())
        self.results.append(dict(step=step, status=status, summary=summary, **details))
        print(f"{step}: {status.upper()}: {summary}", flush=True)

    # --- device -------------------------------------------------------------

    def find_device(self):
        """(device dict, None) or (None, why there is none)."""
        smi = shutil.which("nvidia-smi")
        smi_note = "nvidia-smi not found"
        if smi:
            rc, out = sh([smi, "-L"], timeout=20)
            if rc != 0 or not re.search(r"^GPU \d+:", out, re.M):
                first = (out.strip().splitlines() or ["no output"])[0]
                return None, f"nvidia-smi -L lists no GPU: {first}"
            smi_note = None
        probe_cu = os.path.join(self.work, "probe.cu")
        probe = os.path.join(self.work, "probe")
        # Rebuilt only when the source changed: the probe is the part of a
        # no-device run that takes time (nvcc, about 3 s).
        fresh = (os.path.exists(probe) and os.path.exists(probe_cu)
                 and open(probe_cu).read() == PROBE_CU)
        if self.bundle:
            probe = self.bundled("probe")
        elif not fresh:
            with open(probe_cu, "w") as f:
                f.write(PROBE_CU)
            rc, out = sh([NVCC, "-std=c++17", probe_cu, "-o", probe], timeout=120)
            if rc:
                return None, f"the device probe did not build: {first_errors(out)}"
        rc, out = sh([probe], timeout=60)
        if rc == SKIPPED:
            why = out.strip() or "no device"
            return None, f"cudaGetDeviceCount: {why}" + (f"; {smi_note}" if smi_note else "")
        found = json_lines(out)
        if rc or not found:
            return None, f"the device probe failed (exit {rc}): {tail(out, 3)}"
        return found[0], None

    def sm(self):
        return f"sm_{self.device['major']}{self.device['minor']}"

    def sm100(self):
        """None when the sm_100a kernels can run here, else why not."""
        major, minor = self.device["major"], self.device["minor"]
        if (major, minor) == (10, 0):
            return None
        if major == 9:
            return "skipped on sm_90 (tcgen05 needs sm_100)"
        # sm_100a code (the 'a' features) runs on compute capability 10.0
        # only, not on 10.3 (B300) or 12.x.
        return (f"skipped on {self.sm()} (built for sm_100a, which runs only on "
                f"compute capability 10.0)")

    def tools_missing(self):
        if self.bundle:
            return None
        need = [os.path.join(self.build, "bin", t) for t in ("tilepipe-opt", "tilepipe-translate")]
        gone = [p for p in need if not os.path.exists(p)]
        return f"{', '.join(gone)} not built (make tools)" if gone else None

    # --- a. numeric checks on the GPU ----------------------------------------

    def step_numcheck(self):
        step = "numcheck"
        why = self.sm100()
        if why:
            self.verdict(step, "skip", f"numeric check on the GPU: {why}")
            return
        import testvenv
        python, reason = testvenv.ensure(self.build)
        if not python:
            self.verdict(step, "error", f"no test venv ({reason}); build it with "
                         f"`python3 scripts/testvenv.py {self.build}` where pip can "
                         f"reach the index and carry {self.build}/venv")
            return
        cmd = [python, os.path.join(SCRIPTS, "numcheck.py"), "--mode", "gpu",
               "--compare-cpu", "--build", self.build]
        start = time.time()
        rc, out = sh(cmd, timeout=self.args.timeout, cwd=SRC)
        secs = time.time() - start
        logf = self.log("numcheck", out)
        # numcheck.py's per-kernel lines: "NAME: A of B runs match the
        # reference", or "NAME: gpu|cpu build failed" before the compiler's
        # output.
        summary = [l for l in out.splitlines()
                   if re.search(r": \d+ of \d+ runs\b|^\S+: \w+ build failed", l)]
        for line in summary:
            print(f"  {line}")
        if "unrecognized arguments" in out:
            self.verdict(step, "error", "numcheck.py does not accept --mode gpu "
                         f"--compare-cpu yet ({tail(out, 1)})", log=logf)
        elif rc == 0:
            self.verdict(step, "pass", "; ".join(summary) or "exit 0",
                         seconds=round(secs, 1), log=logf, lines=summary)
        else:
            bad = [l for l in out.splitlines() if re.search(r"MISMATCH|FAIL", l)][:5]
            for line in bad or first_errors(out, 5).splitlines():
                print(f"  {line}")
            status = "fail" if rc == 1 else "error"
            self.verdict(step, status, f"numcheck.py exit {rc}"
                         + (f": {'; '.join(summary)}" if summary else f" (see {logf})"),
                         seconds=round(secs, 1), log=logf, lines=summary + bad)

    # --- b. the protocol harness ----------------------------------------------

    def step_harness(self):
        if self.bundle:
            self.verdict("harness", "skip", "harness.py translates with tilepipe, which a bundle "
                         "cannot carry (it runs on the emulator in make test)")
            return
        examples = sorted(glob.glob(os.path.join(SRC, "examples", "*.mlir")))
        for bug in [None, "missing-wait", "wrong-phase"]:
            step = "harness" + (f" --seed-bug {bug}" if bug else " (clean)")
            cmd = [sys.executable, os.path.join(SCRIPTS, "harness.py"),
                   "--build", self.build] + (["--seed-bug", bug] if bug else []) + examples
            start = time.time()
            rc, out = sh(cmd, timeout=self.args.timeout, cwd=SRC)
            secs = time.time() - start
            logf = self.log("harness-" + (bug or "clean"), out)
            # harness.py's per-kernel lines (see its main): "NAME: A of B runs
            # clean", "NAME: seeded BUG: caught|NOT CAUGHT (...)", "NAME:
            # built; not run (no CUDA device)", "NAME: HANG: ...", and the
            # build failures "NAME: nvcc failed", "NAME: tilepipe-... failed",
            # "NAME: no consumer wait to plant the bug in".
            lines = [l for l in out.splitlines() if re.match(
                r"^[\w.-]+: (\d+ of \d+ runs clean|seeded |built; not run|HANG|"
                r"nvcc failed|tilepipe-\S+ failed|no consumer wait)", l)]
            for line in lines:
                print(f"  {line}")
            per_kernel = {}
            for line in lines:
                name, _, rest = line.partition(": ")
                per_kernel.setdefault(name, []).append(rest)
            if bug:
                good = [n for n, r in per_kernel.items() if any(": caught" in x for x in r)]
            else:
                good = [n for n, r in per_kernel.items()
                        if any(re.match(r"(\d+) of \1 runs clean", x) and not x.startswith("0 of")
                               for x in r)]
            # Every example must appear and pass; harness.py's exit status
            # (1 a check failed, 2 a step failed) must agree.
            want = [os.path.splitext(os.path.basename(e))[0] for e in examples]
            ok = rc == 0 and sorted(good) == sorted(want)
            what = "caught" if bug else "clean"
            summary = f"{len(good)} of {len(want)} kernels {what}"
            if "not run (no CUDA device)" in out:
                summary += "; the harness found no CUDA device"
            if rc == 124:
                summary += f"; timed out after {self.args.timeout} s"
            elif rc:
                summary += f"; harness.py exit {rc}"
            if not ok and not lines:
                for line in tail(out).splitlines():
                    print(f"  {line}")
            self.verdict(step, "pass" if ok else ("fail" if rc in (0, 1) else "error"),
                         summary + f" ({secs:.0f} s)", kernels=per_kernel, log=logf,
                         seconds=round(secs, 1))

    # --- cuTile's row kernels on a Hopper -----------------------------------------

    def hopper_ready(self, step):
        """Whether the sm_90a steps can run here; else their verdict."""
        if self.device["major"] != 9:
            self.verdict(step, "skip", f"skipped on {self.sm()} (these are built for sm_90a)")
            return False
        if self.tools_missing():
            self.verdict(step, "error", self.tools_missing())
            return False
        return True

    def step_hopper_rows(self):
        step = "hopper-rows"
        if not self.hopper_ready(step):
            return
        if self.bundle:
            self.bundle_specs(step, "row kernels")
            return
        fixtures = os.path.join(SRC, "test", "cutile", "fixtures")
        specs = os.path.join(SRC, "test", "numeric", "cutile_specs.py")
        # (fixture, numcheck spec): the spec of the stage code tilepipe
        # compile falls back to (peeled for the two norms, docs/cuda-tile.md).
        kernels = [("softmax", "cutile_softmax"), ("layernorm", "cutile_layernorm_peeled"),
                   ("rmsnorm", "cutile_rmsnorm_peeled")]
        python, reason = numpy_python(self.build)
        if not python:
            self.verdict(step, "error", f"no numpy environment ({reason})")
            return
        good, logs = 0, []
        start = time.time()
        for fixture, spec in kernels:
            cu = os.path.join(self.work, fixture + ".sm90a.cu")
            rc, out = sh([os.path.join(self.build, "bin", "tilepipe"), "compile",
                          os.path.join(fixtures, fixture + "-13.4.tileirbc"), "--target", "sm_90a",
                          "-o", cu], timeout=self.args.timeout)
            logs.append(out)
            if rc:
                print(f"  {fixture}: tilepipe compile failed: {first_errors(out)}")
                continue
            rc, out = sh([python, os.path.join(SCRIPTS, "numcheck.py"), "--build", self.build,
                          "--specs", specs, "--cu", cu, "--mode", "gpu", "--arch", "sm_90a",
                          "--compare-cpu", spec], timeout=self.args.timeout, cwd=SRC)
            logs.append(out)
            last = (out.strip().splitlines() or ["no output"])[-1]
            print(f"  {fixture}: {last}")
            good += rc == 0
        secs = time.time() - start
        logf = self.log("hopper-rows", "\n".join(logs))
        self.verdict(step, "pass" if good == len(kernels) else "fail",
                     f"{good} of {len(kernels)} row kernels match on the GPU and the emulator "
                     f"({secs:.0f} s)", log=logf, seconds=round(secs, 1))

    def step_hopper_gemm(self):
        self.hopper_specs("hopper-gemm", HOPPER_GEMMS, "sm_90a GEMMs")

    def step_hopper_attention(self):
        self.hopper_specs("hopper-attention", HOPPER_ATTENTION, "sm_90a attention kernels")

    def bundle_specs(self, step, what):
        """The bundle's kernels of this step on the GPU and the emulator, on
        the same inputs, against float64 and each other (scripts/bundlerun.py)."""
        import bundlerun
        start = time.time()
        results, missing = bundlerun.run(self.bundle, step, os.path.join(self.work, step),
                                         jobs=min(12, os.cpu_count() or 1),
                                         timeout=min(self.args.timeout, 60))
        good = sum(runs == ok for _, runs, ok, _ in results.values())
        same = sum(r[3][0] for r in results.values())
        elements = sum(r[3][1] for r in results.values())
        logs = []
        for name, (lines, runs, ok, _) in results.items():
            logs += lines
            print(f"  {lines[-1]}")
            for line in lines[:-1]:
                if ": match:" not in line:
                    print(f"    {line[:600]}")
        secs = time.time() - start
        logf = self.log(step, "\n".join(logs))
        note = f"; not in the bundle: {', '.join(missing)}" if missing else ""
        self.verdict(step, "pass" if good == len(results) and results else "fail",
                     f"{good} of {len(results)} sm_90a {what} match float64 on the GPU and on "
                     f"the emulator; {same} of {elements} output elements bit-identical between "
                     f"the two ({secs:.0f} s){note}", log=logf, seconds=round(secs, 1),
                     identical=[same, elements],
                     kernels={n: r[0][-1] for n, r in results.items()})

    def hopper_specs(self, step, runs, what):
        """numcheck on the GPU and the emulator, sm_90a, per (options, specs)."""
        if not self.hopper_ready(step):
            return
        if self.bundle:
            self.bundle_specs(step, what.replace("sm_90a ", ""))
            return
        python, reason = numpy_python(self.build)
        if not python:
            self.verdict(step, "error", f"no numpy environment ({reason})")
            return
        start = time.time()
        good = total = 0
        logs = []
        for extra, names in runs:
            rc, out = sh([python, os.path.join(SCRIPTS, "numcheck.py"), "--build", self.build,
                          "--mode", "gpu", "--arch", "sm_90a", "--compare-cpu"] + extra + names,
                         timeout=self.args.timeout, cwd=SRC)
            logs.append(out)
            for name in names:
                m = re.search(rf"^{re.escape(name)}: (\d+) of (\d+) runs match", out, re.M)
                total += 1
                good += bool(m and m.group(1) == m.group(2))
                print(f"  {name}: {m.group(0) if m else 'no verdict'}")
        secs = time.time() - start
        logf = self.log(step, "\n".join(logs))
        self.verdict(step, "pass" if good == total else "fail",
                     f"{good} of {total} {what} match on the GPU and the emulator "
                     f"({secs:.0f} s)", log=logf, seconds=round(secs, 1))

    def step_gaus_cuda(self):
        step = "gaus-cuda"
        exe = (self.bundled("GausCudaTests") if self.bundle
               else os.path.join(self.build, GAUS_CUDA_TESTS))
        if not os.path.exists(exe):
            self.verdict(step, "error", f"{exe} not here (build it and carry it with build/bin)")
            return
        start = time.time()
        rc, out = sh([exe, "--gtest_brief=0"], timeout=self.args.timeout)
        secs = time.time() - start
        logf = self.log("gaus-cuda", out)
        passed = re.search(r"\[  PASSED  \] (\d+) tests?", out)
        skipped = re.search(r"\[  SKIPPED \] (\d+) tests?", out)
        timings = re.findall(r"^formulation (\w+): (\d+) nodes.*CPU ([\d.]+) ms, CUDA ([\d.]+) ms "
                             r"\(([\d.]+)x\)", out, re.M)
        for form, nodes, cpu_ms, gpu_ms, speedup in timings:
            print(f"  formulation {form}, {nodes} nodes: CPU {cpu_ms} ms, CUDA {gpu_ms} ms "
                  f"({speedup}x)")
        self.timing["gaus_cuda"] = [{"formulation": f, "nodes": int(n), "cpu_ms": float(c),
                                     "cuda_ms": float(g)} for f, n, c, g, _ in timings]
        summary = (f"{passed.group(1) if passed else 0} tests passed"
                   + (f", {skipped.group(1)} skipped" if skipped else "")
                   + (f"; CUDA {min(float(t[4]) for t in timings):.1f}x to "
                      f"{max(float(t[4]) for t in timings):.1f}x the CPU" if timings else "")
                   + f" ({secs:.0f} s)")
        # On a device one test is skipped by design (WithoutDeviceSaysWhy);
        # the timing test's lines say the device tests ran.
        status = "pass" if rc == 0 and timings else "fail" if rc else "error"
        self.verdict(step, status, summary, log=logf, seconds=round(secs, 1))

    # --- the emulator against the hardware ---------------------------------------

    def step_fidelity(self):
        for source in self.args.fidelity.split(","):
            step = f"fidelity ({source})"
            if source in ("wgmma", "rounding") and self.device["major"] != 9:
                self.verdict(step, "skip", f"skipped on {self.sm()} (wgmma is sm_90a's)")
                continue
            out_dir = os.path.join(self.work, "fidelity-" + source)
            env = dict(os.environ, FIDELITY_ARCH=f"{self.device['major']}{self.device['minor']}a",
                       NVCC=NVCC)
            if self.bundle:
                env["FIDELITY_PREBUILT"] = self.bundled(f"fid-{source}")
            start = time.time()
            rc, out = sh(["bash", os.path.join(SCRIPTS, "fidelity-check.sh"), "--source", source,
                          "--out", out_dir], timeout=self.args.timeout, env=env)
            secs = time.time() - start
            logf = self.log("fidelity-" + source, out)
            m = re.findall(r"^(\d+) of (\d+) configurations match.*$", out, re.M)
            summary = (f"{m[-1][0]} of {m[-1][1]} configurations match" if m
                       else tail(out, 2))
            # The rounding source measures the float kinds (their integer
            # kinds must match): how many results are bit-identical.
            fl = re.findall(r"^float results bit-identical: (\d+) of (\d+)$", out, re.M)
            if fl:
                summary += f"; f32 results bit-identical: {fl[-1][0]} of {fl[-1][1]}"
            status = "pass" if rc == 0 else "fail" if rc == 1 else "error"
            self.verdict(step, status, summary + f" ({secs:.0f} s)", log=logf,
                         seconds=round(secs, 1))

    # --- c. timings -------------------------------------------------------------

    def nvcc(self):
        """This machine's nvcc (the bundle mode finds it on PATH too)."""
        return NVCC if os.path.exists(NVCC) else (shutil.which("nvcc") or NVCC)

    def nvcc_rpath(self):
        # The binaries find libcublas wherever this nvcc's toolkit keeps it,
        # whether or not the loader's configuration lists that folder.
        root = os.path.dirname(os.path.dirname(os.path.realpath(self.nvcc())))
        return [f"-Xlinker=-rpath={os.path.join(root, d)}" for d in ("lib64", "lib")]

    def step_timing(self):
        # The tilepipe kernel for this device: sm_100a on a Blackwell, the
        # loop rewritten for wgmma and built for sm_90a on a Hopper.
        arch = "sm_90a" if self.device["major"] == 9 else "sm_100a"
        why = None if arch == "sm_90a" else self.sm100()
        for n in self.args.sizes:
            flops = 2.0 * n * n * n
            cublas = self.time_cublas(n, flops)
            if why:
                self.verdict("timing tilepipe", "skip", f"tilepipe kernel: {why}")
                tile = None
            else:
                tile = self.time_tilepipe(n, flops, arch)
            # The bundle's other forms of the same loop (docs/cuda.md,
            # "Persistent kernels"), timed beside it.
            for kernel in self.gemm_variants(arch)[1:]:
                other = self.time_tilepipe(n, flops, arch, kernel)
                if cublas and other:
                    ratio = round(cublas["ms"] / other["ms"], 3)
                    self.timing.setdefault("variant_ratios", {}).setdefault(kernel, {})[str(n)] = ratio
                    print(f"tilepipe {kernel} / cuBLAS: {ratio:.2f} ({other['tflops']:.0f} vs "
                          f"{cublas['tflops']:.0f} TFLOP/s at M = N = K = {n})")
            peers = self.time_peers(n)
            if cublas and tile:
                ratio = cublas["ms"] / tile["ms"]  # same FLOPs: the TFLOP/s ratio
                self.timing.setdefault("ratios", {})[str(n)] = round(ratio, 3)
                self.timing["ratio"] = round(ratio, 3)
                print(f"tilepipe / cuBLAS: {ratio:.2f} ({tile['tflops']:.0f} vs "
                      f"{cublas['tflops']:.0f} TFLOP/s at M = N = K = {n})")
            if tile and "triton" in peers:
                ratio = peers["triton"]["ms"] / tile["ms"]
                self.timing.setdefault("triton_ratios", {})[str(n)] = round(ratio, 3)
                print(f"tilepipe / Triton: {ratio:.2f} ({tile['tflops']:.0f} vs "
                      f"{peers['triton']['tflops']:.0f} TFLOP/s at M = N = K = {n})")
        if arch == "sm_90a":
            for seq in self.args.seqs:
                self.time_attention(seq)

    def gemm_variants(self, arch):
        """The timed GEMM kernels: gemm_mainloop, then the bundle's other
        forms of it for sm_90a."""
        if not self.bundle or arch != "sm_90a":
            return ["gemm_mainloop"]
        return ["gemm_mainloop"] + [k for k in sorted(GEMM_VARIANTS)
                                    if os.path.exists(self.bundled(k + ".gpu"))]

    def time_attention(self, seq):
        """tilepipe's sm_90a attention at head dim 128 beside SDPA's backends
        and Triton's, one head of `seq` rows and keys."""
        tile = self.time_tilepipe_attention(seq)
        peers = self.time_attention_peers(seq)
        ratios = self.timing.setdefault("attention_ratios", {}).setdefault(str(seq), {})
        for name, peer in peers.items():
            if tile:
                ratios[name] = round(peer["ms"] / tile["ms"], 3)
                print(f"tilepipe attention / {name}: {ratios[name]:.2f} ({tile['tflops']:.0f} vs "
                      f"{peer['tflops']:.0f} TFLOP/s, seq {seq}, head {ATTN_HEAD})")

    def time_attention_peers(self, seq):
        step = "timing attention peers"
        rc, _ = sh(["python3", "-c", "import torch, triton"], timeout=120)
        if rc:
            self.verdict(step, "skip", "no torch and triton in python3 here")
            return {}
        rc, out = sh(["python3", os.path.join(SRC, "bench", "gpu", "peer_attention_timing.py"),
                      str(seq), "--rotate", str(max(self.args.rotate, 1))],
                     timeout=self.args.timeout)
        logf = self.log(f"attention-peers-{seq}", out)
        lines = [j for j in json_lines(out) if "library" in j]
        found = {j["library"]: j for j in lines if "ms" in j}
        if rc or not found:
            self.verdict(step, "error", f"peer_attention_timing.py exit {rc}: {tail(out, 3)}",
                         log=logf)
            return {}
        self.timing.setdefault("attention_peers", {})[str(seq)] = lines
        self.verdict(step, "pass", "; ".join(
            f"{j['library']}: {j['ms']:.3f} ms, {j['tflops']:.0f} TFLOP/s" if "ms" in j
            else f"{j['library']}: {j['error'][:60]}" for j in lines) + self.peer_method(),
            result=lines)
        return found

    def time_tilepipe_attention(self, seq):
        step = "timing tilepipe attention"
        if self.tools_missing():
            self.verdict(step, "error", self.tools_missing())
            return None
        exe = self.prebuilt_or_built(step, ATTN_MLIR, "attn_scale_hd128", "attn-scale-hd128.sm90a",
                                     "sm_90a")
        if not exe:
            return None
        data = os.path.join(self.work, "data")
        os.makedirs(data, exist_ok=True)
        paths = {x: os.path.join(data, f"attn-{x}.npy") for x in "QKVO"}
        scale = struct.unpack("<f", struct.pack("<f", math.log2(math.e) / math.sqrt(ATTN_HEAD)))[0]
        try:
            for i, x in enumerate("QKV"):
                PeriodicBf16(11 + i, seq * ATTN_HEAD).write_npy(paths[x], (seq, ATTN_HEAD))
            cmd = [exe] + [f"{x}={paths[x]}" for x in "QKV"] + [
                f"scale={scale!r}", f"nKV={-(-seq // ATTN_TILE)}",
                "--out", f"O={paths['O']}", "--shape", f"O={seq},{ATTN_HEAD}",
                "--grid", f"{-(-seq // ATTN_TILE)},1,1"] + self.timing_options()
            rc, out = sh(cmd, timeout=self.args.timeout)
            logf = self.log(f"tilepipe-attention-{seq}", " ".join(cmd) + "\n" + out)
            timed = [j for j in json_lines(out) if "ms" in j]
            if rc or not timed:
                self.verdict(step, "fail" if rc == 1 else "error",
                             f"attn-scale-hd128.gpu exit {rc}: {tail(out, 3)}", log=logf)
                return None
            how = timed_line(timed[-1], self.args.repeat)
            ms = how["ms"]
            rc, out = sh(["python3", os.path.join(SRC, "bench", "gpu", "attention_sample_check.py")]
                         + [paths[x] for x in "QKVO"] + [repr(scale)], timeout=300)
            found = json_lines(out)
            check = found[0] if found else {"check": "error", "note": tail(out, 2)}
        finally:
            for p in paths.values():
                if os.path.exists(p):
                    os.remove(p)
        flops = 4.0 * seq * seq * ATTN_HEAD
        res = {"kernel": "attn-scale-hd128", "arch": "sm_90a", "seq": seq, "head": ATTN_HEAD,
               **how, "tflops": round(flops / (ms * 1e-3) / 1e12, 1),
               "repeat": self.args.repeat, **check}
        self.timing.setdefault("tilepipe_attention", {})[str(seq)] = res
        status = "pass" if check.get("check") == "pass" else "fail"
        self.verdict(step, status, f"tilepipe attention (sm_90a, head {ATTN_HEAD}) seq {seq}: "
                     f"{ms:.3f} ms, {res['tflops']:.0f} TFLOP/s, {method(res)} (check: "
                     f"{check.get('check')}, {check.get('samples')} rows, worst "
                     f"{check.get('worst_ratio')} of the bound)",
                     result=res)
        return res if status == "pass" else None

    def time_peers(self, n):
        """torch.matmul and the Triton GEMM at n (bench/gpu/peer_gemm_timing.py),
        when the machine's python3 has torch and triton; {} otherwise."""
        step = "timing peers"
        rc, _ = sh(["python3", "-c", "import torch, triton"], timeout=120)
        if rc:
            self.verdict(step, "skip", "no torch and triton in python3 here")
            return {}
        rc, out = sh(["python3", os.path.join(SRC, "bench", "gpu", "peer_gemm_timing.py"), str(n),
                      "--rotate", str(max(self.args.rotate, 1))], timeout=self.args.timeout)
        logf = self.log(f"peers-{n}", out)
        lines = [j for j in json_lines(out) if "library" in j]
        found = {("triton" if j["library"] == "triton" else "torch"): j
                 for j in lines if "ms" in j}
        if rc or not found:
            self.verdict(step, "error", f"peer_gemm_timing.py exit {rc}: {tail(out, 3)}", log=logf)
            return {}
        self.timing.setdefault("peers", {})[str(n)] = found
        self.verdict(step, "pass" if len(found) == len(lines) else "error", "; ".join(
            f"{j['library']} {n}^3: {j['ms']:.3f} ms, {j['tflops']:.0f} TFLOP/s" if "ms" in j
            else f"{j['library']} {n}^3: {j.get('error', '?')[:200]}" for j in lines)
            + self.peer_method(), result=found)
        return found

    def peer_method(self):
        """How the peers' times were measured, for their verdict lines."""
        sets = max(self.args.rotate, 1)
        return (f" (do_bench medians, inputs rotated over {sets} set{'s' * (sets != 1)}, "
                "L2 cleared before each launch)")

    def timing_options(self):
        """The generated main's timing options (host/main.cuh,
        time_launches), as cublas_gemm.cu is given them."""
        return ["--repeat", str(self.args.repeat), "--warmup", str(self.args.warmup),
                "--rotate", str(self.args.rotate)]

    def time_cublas(self, n, flops):
        step = "timing cublas"
        exe = os.path.join(self.work, "cublas_gemm")
        src = os.path.join(SRC, "bench", "gpu", "cublas_gemm.cu")
        # Built once per run (nvcc takes 10-20 s), not once per size.
        rc, out = (0, "") if getattr(self, "cublas_built", False) else sh(
            [self.nvcc(), "-std=c++17", "-O2", src, "-lcublas", "-o", exe] + self.nvcc_rpath(),
            timeout=300)
        self.cublas_built = rc == 0
        if rc:
            self.log("cublas-build", out)
            self.verdict(step, "error", f"nvcc cublas_gemm.cu failed: {first_errors(out)}")
            return None
        rc, out = sh([exe, str(n), str(n), str(n), "--check",
                      "--iters", str(self.args.repeat), "--warmup", str(self.args.warmup),
                      "--rotate", str(max(self.args.rotate, 1))], timeout=self.args.timeout)
        logf = self.log("cublas", out)
        found = [j for j in json_lines(out) if j.get("library") == "cublas"]
        if rc or not found:
            self.verdict(step, "fail" if rc == 1 else "error",
                         f"cublas_gemm exit {rc}: {tail(out, 3)}", log=logf)
            return None
        res = {**found[0], **timed_line(found[0], self.args.repeat)}
        self.timing["cublas"] = res
        self.verdict(step, "pass", f"cuBLAS {n}^3 bf16: {res['ms']:.3f} ms, "
                     f"{res['tflops']:.0f} TFLOP/s, {method(res)} (check: {res.get('check')}, "
                     f"{res.get('samples')} samples)", result=res)
        return res

    def prebuilt_or_built(self, step, mlir, kernel, name, arch):
        """The timed kernel's binary: the bundle's (its numeric check's, the
        same translation for sm_90a), else lowered and built here; None after
        the step's verdict."""
        if self.bundle:
            exe = self.bundled(kernel + ".gpu")
            if arch == "sm_90a" and os.path.exists(exe):
                return exe
            self.verdict(step, "error", f"{exe}: not in the bundle for {arch}")
            return None
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            lowered = lower(mlir, self.build, self.work, name=name,
                            target=arch if arch != "sm_100a" else None)
        if not lowered:
            self.log(f"{name}-lower", buf.getvalue())
            self.verdict(step, "error", f"lowering {os.path.basename(mlir)} failed: "
                         f"{tail(buf.getvalue(), 3)}")
            return None
        return self.build_main(step, lowered[1], os.path.join(self.work, f"{name}.{arch}.gpu"),
                               arch, f"{name}-build")

    def build_main(self, step, cu, exe, arch, logname):
        """nvcc of a translated kernel with its generated main; the binary,
        or None after the step's verdict."""
        rc, out = sh([NVCC, "-std=c++17", "-O2", "-gencode", f"arch=compute_{arch[3:]},code={arch}",
                      "-DTILEPIPE_MAIN", "-I", self.args.include, cu, "-o", exe], timeout=300)
        if rc:
            logf = self.log(logname, out)
            self.verdict(step, "error", f"nvcc -DTILEPIPE_MAIN {arch} failed "
                         f"(see {logf}): {first_errors(out, 1)}")
            return None
        return exe

    def time_tilepipe(self, n, flops, arch="sm_100a", kernel="gemm_mainloop"):
        step = "timing tilepipe" + ("" if kernel == "gemm_mainloop" else f" {kernel}")
        missing = self.tools_missing()
        if missing:
            self.verdict(step, "error", missing)
            return None
        exe = self.prebuilt_or_built(step, GEMM_MLIR, kernel, kernel, arch)
        if not exe:
            return None
        # Inputs through the generated main's interface (numcheck.py's
        # run_problem): NAME=FILE.npy per tensor (float32, bf16-exact, the
        # launcher converts), scalars as NAME=VALUE, --out/--shape per output,
        # --grid, and --repeat N (--warmup, --rotate) for the timed launches.
        # The names are those test/numeric/specs.py's Gemm passes (A, B, K;
        # output C).
        data = os.path.join(self.work, "data")
        os.makedirs(data, exist_ok=True)
        a_path, b_path, c_path = (os.path.join(data, x + ".npy") for x in "ABC")
        a_gen = PeriodicBf16(1, n * n)
        b_gen = PeriodicBf16(2, n * n)
        try:
            a_gen.write_npy(a_path, (n, n))
            b_gen.write_npy(b_path, (n, n))
            if os.path.exists(c_path):
                os.remove(c_path)
            tm, tn = GEMM_VARIANTS.get(kernel, (GEMM_TILE_M, GEMM_TILE_N))
            grid = f"{-(-n // tm)},{-(-n // tn)},1"
            cmd = [exe, f"A={a_path}", f"B={b_path}", f"K={n}",
                   "--out", f"C={c_path}", "--shape", f"C={n},{n}",
                   "--grid", grid] + self.timing_options()
            rc, out = sh(cmd, timeout=self.args.timeout)
            logf = self.log(f"{kernel}-{n}", " ".join(cmd) + "\n" + out)
            timed = [j for j in json_lines(out) if "ms" in j]
            if rc or not timed:
                hint = ("" if timed else
                        "; it printed no JSON line with \"ms\" (a main generated before "
                        "--warmup and --rotate refuses them: make gpu-bundle again)")
                self.verdict(step, "fail" if rc == 1 else "error",
                             f"{kernel}.gpu exit {rc}{hint}: {tail(out, 3)}", log=logf)
                return None
            how = timed_line(timed[-1], self.args.repeat)
            ms = how["ms"]
            check = sample_check(c_path, a_gen, b_gen, n, self.args.samples)
        finally:
            for p in (a_path, b_path, c_path):
                if os.path.exists(p):
                    os.remove(p)
        res = {"kernel": kernel, "arch": arch, "m": n, "n": n, "k": n, **how,
               "tflops": round(flops / (ms * 1e-3) / 1e12, 1), "repeat": self.args.repeat,
               **check}
        if kernel == "gemm_mainloop":
            self.timing["tilepipe"] = res
            self.timing.setdefault("tilepipe_by_size", {})[str(n)] = res
        else:
            self.timing.setdefault("variants", {}).setdefault(kernel, {})[str(n)] = res
        status = "pass" if check["check"] == "pass" else "fail"
        self.verdict(step, status, f"tilepipe {kernel} ({arch}) {n}^3 bf16: {ms:.3f} ms, "
                     f"{res['tflops']:.0f} TFLOP/s, {method(res)} (check: {check['check']}, "
                     f"{check['samples']} samples{check.get('note', '')})", result=res)
        return res if status == "pass" else None

    # --- d. report -------------------------------------------------------------

    def markdown(self):
        d = self.device
        rows = [("device", f"{d['name']} ({self.sm()}, {d['sms']} SMs; driver {d['driver']}, "
                           f"runtime {d['runtime']})")]
        for r in self.results:
            rows.append((r["step"], f"{r['status']}: {r['summary']}".replace("|", "\\|")))
        for n, r in self.timing.get("ratios", {}).items():
            rows.append((f"tilepipe / cuBLAS at {n}^3", f"{r:.2f}"))
        for kernel, by in self.timing.get("variant_ratios", {}).items():
            for n, r in by.items():
                rows.append((f"tilepipe {kernel} / cuBLAS at {n}^3", f"{r:.2f}"))
        for n, r in self.timing.get("triton_ratios", {}).items():
            rows.append((f"tilepipe / Triton at {n}^3", f"{r:.2f}"))
        for seq, by in self.timing.get("attention_ratios", {}).items():
            for name, r in by.items():
                rows.append((f"tilepipe attention / {name}, seq {seq}, head {ATTN_HEAD}",
                             f"{r:.2f}"))
        out = [f"GPU checks ({time.strftime('%Y-%m-%d')}, `make gpu-check`):", "",
               "| check | result |", "|---|---|"]
        out += [f"| {a} | {b} |" for a, b in rows]
        return "\n".join(out)


class PeriodicBf16:
    """A long stream of bf16-exact values in [-1, 1): a random block of a
    prime length repeated. Pure Python (the system python3 has no numpy) and
    fast for 64 M elements; the odd period makes every row of an 8192-wide
    matrix a different shift, so a kernel that reads the wrong row or column
    still gets a wrong answer. Element e is block[e % period]."""

    PERIOD = 65521

    def __init__(self, seed, count):
        rng = random.Random(seed)
        self.count = count
        self.block = [bf16_round(rng.uniform(-1.0, 1.0)) for _ in range(self.PERIOD)]

    def at(self, e):
        return self.block[e % self.PERIOD]

    def write_npy(self, path, shape):
        header = ("{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }"
                  % ", ".join(map(str, shape)))
        pad = 64 - (10 + len(header) + 1) % 64
        header = header + " " * pad + "\n"
        raw = struct.pack(f"<{self.PERIOD}f", *self.block)
        whole, rest = divmod(self.count, self.PERIOD)
        with open(path, "wb") as f:
            f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
            chunk = raw * 64
            for _ in range(whole // 64):
                f.write(chunk)
            f.write(raw * (whole % 64))
            f.write(raw[:4 * rest])


def bf16_round(x):
    """float -> the nearest bf16 (ties to even), as a Python float."""
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", u))[0]


def read_npy_f4(path, indices):
    """The float32 elements at flat `indices` of a C-order '<f4' .npy file."""
    with open(path, "rb") as f:
        pre = f.read(10)
        if pre[:6] != b"\x93NUMPY":
            raise ValueError(f"{path}: not a .npy file")
        if pre[6] == 1:
            hlen = struct.unpack("<H", pre[8:10])[0]
            start = 10 + hlen
        else:
            hlen = struct.unpack("<I", pre[8:10] + f.read(2))[0]
            start = 12 + hlen
        f.seek(0)
        header = f.read(start).decode("latin1")
        if "'<f4'" not in header:
            raise ValueError(f"{path}: expected float32 ('<f4'), header {header.strip()}")
        out = []
        for i in indices:
            f.seek(start + 4 * i)
            out.append(struct.unpack("<f", f.read(4))[0])
        return out


def sample_check(c_path, a_gen, b_gen, n, samples):
    """C = A B^T on sampled elements (the corners, then random) against a
    float64 dot product, with cublas_gemm.cu's bound: 2^-8 |ref| (one bf16
    rounding of the result, doubled) + 1e-5 sum |a_i b_i| (fp32
    accumulation)."""
    rng = random.Random(3)
    picks = [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)]
    picks += [(rng.randrange(n), rng.randrange(n)) for _ in range(max(0, samples - 4))]
    try:
        got = read_npy_f4(c_path, [i * n + j for i, j in picks])
    except (OSError, ValueError, struct.error) as e:
        return {"check": "fail", "samples": 0, "note": f"; C not readable: {e}"}
    bad, max_err, first = 0, 0.0, None
    for (i, j), g in zip(picks, got):
        ref = mag = 0.0
        for p in range(n):
            prod = a_gen.at(i * n + p) * b_gen.at(j * n + p)
            ref += prod
            mag += abs(prod)
        err = abs(g - ref)
        if not err <= 2.0 ** -8 * abs(ref) + 1e-5 * mag + 1e-6:  # NaN fails
            bad += 1
            first = first or f"; first C[{i}][{j}] = {g!r}, want {ref!r}"
        elif err > max_err:
            max_err = err
    res = {"check": "pass" if bad == 0 else "fail", "samples": len(picks), "bad": bad,
           "max_abs_err": max_err}
    if first:
        res["note"] = f", {bad} differ{first}"
    return res


RESULTS_HEAD = """# Results on a lent GPU (`make gpu-check`, scripts/gpu-check.py)

Written by the script on a machine with a GPU, one section per run, the newest first
(at most {keep}); each is the table the run printed. The steps and what each checks
are in the script's help. Nothing here is edited by hand.
"""


def write_results(path, table, steps, commit, keep=8):
    """docs/gpu-results.md: this run's table above the earlier runs'."""
    earlier = []
    if os.path.exists(path):
        with open(path) as f:
            text = f.read()
        earlier = ["## Run " + part.strip() + "\n" for part in text.split("\n## Run ")[1:]]
    what = f"steps {', '.join(steps)}" + (f"; bundle of commit {commit}" if commit else "")
    run = f"## Run of {time.strftime('%Y-%m-%d %H:%M')} UTC ({what})\n\n{table}\n"
    with open(path, "w") as f:
        f.write(RESULTS_HEAD.format(keep=keep) + "\n" + "\n".join([run] + earlier[:keep - 1]))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--include", default=INCLUDE)
    ap.add_argument("--steps", default=",".join(STEPS),
                    help="comma-separated subset of " + ",".join(STEPS))
    ap.add_argument("--sizes", default="4096,8192",
                    help="M = N = K of the timings, comma-separated")
    ap.add_argument("--size", type=int, help="one size instead of --sizes")
    ap.add_argument("--seqs", default="16384",
                    help="query rows = keys of the attention timings (one head, head dim 128), "
                         "comma-separated")
    ap.add_argument("--repeat", type=int, default=20,
                    help="timed launches per kernel, each timed on its own; the median is reported")
    ap.add_argument("--warmup", type=int, default=10, help="untimed launches before them")
    ap.add_argument("--rotate", type=int, default=4,
                    help="copies of the inputs the launches take in turn (0: one set for "
                         "tilepipe, 1 for cuBLAS and the peers)")
    ap.add_argument("--samples", type=int, default=256,
                    help="elements of the tilepipe GEMM checked against float64")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per command")
    ap.add_argument("--json", help="where the results go (default BUILD/gpu-check.json)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every step's output")
    ap.add_argument("--fidelity", default="tma,wgmma,rounding",
                    help="the fidelity step's sources (tma: 459 configurations, 153 of them a "
                         "fault and a fresh process each; wgmma: 20; rounding: 33)")
    ap.add_argument("--bundle", help="run the binaries of this bundle (scripts/gpu-bundle.py) "
                    "instead of translating and building here: a lent machine has no LLVM")
    ap.add_argument("--dry-run", action="store_true",
                    help="no GPU needed: check what a lent machine needs from here (size, builds)")
    args = ap.parse_args()
    if args.dry_run:
        return dry_run(os.path.abspath(args.bundle or "gpu-bundle"))
    steps = [s for s in args.steps.split(",") if s]
    unknown = [s for s in steps if s not in STEPS]
    if unknown:
        ap.error(f"unknown step(s) {', '.join(unknown)}; choose from {', '.join(STEPS)}")
    try:
        args.sizes = [args.size] if args.size else [int(s) for s in args.sizes.split(",") if s]
    except ValueError:
        ap.error(f"--sizes: not a list of integers: {args.sizes}")
    try:
        args.seqs = [int(s) for s in args.seqs.split(",") if s]
    except ValueError:
        ap.error(f"--seqs: not a list of integers: {args.seqs}")
    if not args.sizes or min(args.sizes) <= 0 or args.repeat <= 0 or args.samples < 4:
        ap.error("--sizes and --repeat must be positive, --samples at least 4")
    if args.warmup < 0 or args.rotate < 0:
        ap.error("--warmup and --rotate must not be negative")
    json_path = args.json or os.path.join(args.build, "gpu-check.json")

    def skip(why):
        print(f"gpu-check: skipped: {why}")
        os.makedirs(os.path.dirname(os.path.abspath(json_path)), exist_ok=True)
        with open(json_path, "w") as f:
            json.dump({"skipped": why, "when": time.strftime("%Y-%m-%dT%H:%M:%S")}, f)
            f.write("\n")
        return SKIPPED

    if args.bundle and not os.path.exists(os.path.join(args.bundle, "manifest.json")):
        ap.error(f"--bundle {args.bundle}: no manifest.json (make it with scripts/gpu-bundle.py)")
    if not args.bundle and not os.path.exists(NVCC):
        return skip(f"no CUDA Toolkit ({NVCC} not found)")
    checker = Checker(args)
    device, why = checker.find_device()
    if not device:
        return skip(f"no CUDA device ({why})")
    checker.device = device
    print(f"gpu-check: {device['name']} ({checker.sm()}, {device['sms']} SMs), "
          f"steps {', '.join(steps)}", flush=True)
    start = time.time()
    for step in steps:
        print(f"== {step}", flush=True)
        getattr(checker, "step_" + step.replace("-", "_"))()
    failed = [r for r in checker.results if r["status"] in ("fail", "error")]
    report = {"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "device": device,
              "steps": checker.results, "timing": checker.timing,
              "seconds": round(time.time() - start, 1), "ok": not failed}
    with open(json_path, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    table = checker.markdown()
    print()
    print(table)
    print()
    # The record in the tree (issue 38): docs/gpu-results.md, this run's table
    # first, the earlier runs' below it.
    commit = None
    if args.bundle:
        with open(os.path.join(args.bundle, "manifest.json")) as f:
            commit = json.load(f).get("commit")
    write_results(os.path.join(SRC, "docs", "gpu-results.md"), table, steps, commit)
    passed = sum(r["status"] == "pass" for r in checker.results)
    skipped = sum(r["status"] == "skip" for r in checker.results)
    print(f"gpu-check: {passed} passed, {len(failed)} failed, {skipped} skipped "
          f"({report['seconds']:.0f} s); results in {json_path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
