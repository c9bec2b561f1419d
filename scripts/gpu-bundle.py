#!/usr/bin/env python3
"""Makes the bundle a lent GPU machine runs (`make gpu-bundle`; docs/cuda.md).

  scripts/gpu-bundle.py [--build DIR] [--out DIR] [--quick] [--only NAME,...] [--kernels-only]
                        [--jobs N]

tilepipe's tools link LLVM and MLIR 19 (about 130 MiB of shared libraries),
which a lent machine does not have and which do not fit the 64 MiB the device
tool carries. So everything that needs tilepipe is done here, once: every
kernel of gpu-check's Hopper steps is translated for sm_90a, built with nvcc
for sm_90a (the CUDA runtime linked shared and carried in the bundle) and
with g++ against the CPU emulator; the device probe, the fidelity programs
(both sides) and the GauS CUDA tests are built beside them.

`scripts/gpu-check.py --bundle DIR` on the machine then needs python3 with
numpy and the driver alone. Per kernel it draws each problem's inputs with
numcheck.py's seeds from the spec named in the manifest (with what the spec
learnt from the lowering here, a cuTile kernel's arguments), runs the GPU
binary and the emulator binary on them, and compares both with the float64
reference and with each other.

Layout: DIR/manifest.json; DIR/bin (the binaries); DIR/lib (libcudart);
DIR/cu (each kernel's CUDA, for the record).

Exit status: 0 the bundle is complete; 1 a kernel could not be prepared (the
manifest lists the rest, and says which failed); 2 usage or no nvcc.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numcheck  # noqa: E402
from cudalower import INCLUDE, NVCC, PROBE_CU, REGISTER_MMA_TARGETS, lower  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPECS = os.path.join(SRC, "test", "numeric", "specs.py")
CUTILE_SPECS = os.path.join(SRC, "test", "numeric", "cutile_specs.py")
FIXTURES = os.path.join(SRC, "test", "cutile", "fixtures")
GAUS_CUDA_TESTS = os.path.join("unittests", "GausCudaTests")

# (step, specs file, target or None for the spec's own, names). The kernels
# every sm_90a numeric lit test checks on the emulator (test/lit/cuda/
# numeric-sm90a*.test), so the GPU checks the same ones.
KERNELS = [
    ("hopper-gemm", SPECS, None,
     ["hgemm_relu_sm90a", "gemm_gelu_sm90a", "residual_gemm_sm90a", "bias_relu_gemm_sm90a",
      "bias_gemm_n32_sm90a", "bias_gemm_prologue_sm90a", "gemm_m64_sm90a", "swiglu_sm90a",
      "residual_gemm_persistent_sm90a", "bias_relu_gemm_persistent_sm90a",
      "hgemm_relu_persistent_sm90a", "residual_gemm_peeled_sm90a", "gemm_m64_peeled_sm90a",
      "bias_relu_gemm_peeled_sm90a", "gemm_gelu_staged_sm90a", "bias_relu_gemm_staged_sm90a",
      "dual_gemm_sm90a", "gemm256_rowscale_bias", "gemm256_rowscale_bias_persistent"]),
    ("hopper-gemm", SPECS, "sm_90a",
     ["gemm_mainloop", "gemm_mainloop_persistent", "gemm128_persistent", "gemm128_persistent_coop",
      "splitk_gemm", "grouped_leaky_gemm", "tf32_gemm", "dequant_scale",
      "lincomb_gemm", "gemm_two_outputs", "gemm_two_outputs_peeled", "tf32_residual_relu_256",
      "scaled_bias_silu_256", "matmul_kn_leaky", "layerscale_residual_256", "fp8_scaled_gemm",
      "weight_grad"]),
    ("hopper-gemm", CUTILE_SPECS, "sm_90a",
     ["cutile_matmul", "cutile_matmul_bias_act", "cutile_batched_matmul", "cutile_linear_gelu",
      "cutile_linear_fp8", "cutile_linear_tf32", "cutile_gemm_accumulate", "cutile_matmul_persistent",
      "cutile_matmul_256", "cutile_matmul_tf32", "cutile_weight_grad_tf32",
      "cutile_matmul_fp8", "cutile_matmul_f32_small", "cutile_linear_few_rows", "cutile_linear_lora",
      "cutile_matmul_i8", "cutile_linear_w8a8", "cutile_gemm_i8_requant",
      "cutile_matmul_u8", "cutile_gemm_w4a16", "cutile_gemm_w4a16_i32", "cutile_gemm_i8_shift",
      "cutile_store_branches"]),
    ("hopper-attention", SPECS, "sm_90a",
     ["attn_scale_hd64", "attn_scale_hd128", "attn_scale_hd128_lse", "attn_rescale_hd64",
      "attn_rescale_hd128", "attn_scale_hd64_peeled", "attn_m64_hd128_lse", "attn_m64_hd64",
      "attn_bn64_hd128", "attn_causal_hd128"]),
    ("hopper-attention", CUTILE_SPECS, "sm_90a",
     ["cutile_attention", "cutile_attention_head", "cutile_attention_causal",
      "cutile_attention_two_stage", "cutile_attention_alibi", "cutile_attention_bhsd",
      "cutile_attention_fmha", "cutile_attention_last_block", "cutile_decode_gqa_mma",
      "cutile_decode_alibi", "cutile_attention_fp8", "cutile_attention_tutorial"]),
]
# hopper-rows: cuTile's row kernels through `tilepipe compile --target
# sm_90a` (fixture, the spec of the stage code it falls back to).
ROWS = [("softmax", "cutile_softmax"), ("layernorm", "cutile_layernorm_peeled"),
        ("rmsnorm", "cutile_rmsnorm_peeled")]


def run(cmd, timeout=900, **kw):
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors="replace", timeout=timeout, **kw)
        return r.returncode, r.stdout
    except subprocess.TimeoutExpired:
        return 124, f"timed out after {timeout} s"


def learnt(spec, before):
    """The attributes a spec's prepare step set or changed (JSON: tuples
    become lists, which the specs only iterate or unpack)."""
    return {k: v for k, v in vars(spec).items() if k not in before or before[k] is not v}


def nvcc_sm90a(src, exe, extra=(), shared_runtime=True):
    """nvcc for sm_90a. The runtime is linked shared and found beside the
    bundle (DIR/lib), so each binary carries its kernels and not a copy of it;
    a binary that is run from a copy elsewhere (the fidelity script's) links
    it statically."""
    runtime = (["-cudart", "shared", "-Xlinker", "-rpath=$ORIGIN/../lib"] if shared_runtime
               else [])
    return run([NVCC, "-std=c++17", "-O2", "-gencode", "arch=compute_90a,code=sm_90a"]
               + runtime + ["-I", INCLUDE, "-I", SRC] + list(extra) + [src, "-o", exe])


class Bundle:
    def __init__(self, args):
        self.args = args
        self.build = os.path.abspath(args.build)
        self.out = os.path.abspath(args.out)
        self.work = os.path.join(self.build, "gpu-bundle-work")
        self.kernels = {}
        self.failures = []

    def rel(self, path):
        return os.path.relpath(path, self.out)

    # --- the numeric kernels ------------------------------------------------

    def lowered(self, spec, name, target, tmp, log):
        """The kernel's .cu, as numcheck.py makes it."""
        target = target or getattr(spec, "target", None)
        source = (spec.prepare(self.build, tmp, log, target in REGISTER_MMA_TARGETS)
                  if hasattr(spec, "prepare") else os.path.join(SRC, spec.mlir))
        if not source:
            return None
        done = lower(source, self.build, tmp, getattr(spec, "materialize", ""), name, log=log,
                     target=target,
                     translate=getattr(spec, "translate", ""))
        return done[1] if done else None

    def prepare_kernel(self, step, spec, name, cu, specs_path, state, log):
        """Both binaries of one kernel, and what the machine needs to draw
        its problems: the spec (by file and name) and the state its prepare
        step learnt from the lowering (a cuTile spec's arguments)."""
        exe = os.path.join(self.out, "bin", name + ".gpu")
        rc, out = nvcc_sm90a(cu, exe, ["-DTILEPIPE_MAIN"])
        if rc:
            log(f"{name}: nvcc sm_90a failed\n{out[-3000:]}")
            return None
        cpu = os.path.join(self.work, name, name + ".cpu")
        cc = numcheck.compile_kernel(cu, cpu, INCLUDE, "cpu", self.build)
        if cc.returncode:
            log(f"{name}: the emulator build failed\n{cc.stdout[-3000:]}")
            return None
        shutil.copy2(cpu, os.path.join(self.out, "bin", name + ".cpu"))
        shutil.copy2(cu, os.path.join(self.out, "cu", name + ".cu"))
        return {"step": step, "gpu": f"bin/{name}.gpu", "cpu": f"bin/{name}.cpu",
                "cu": f"cu/{name}.cu", "specs": os.path.relpath(specs_path, SRC),
                "state": state, "quick": self.args.quick,
                "problems": [spec.describe(p) for p in spec.problems(quick=self.args.quick)]}

    def spec_kernel(self, step, specs_path, target, name):
        lines = []
        specs = numcheck.load_specs(specs_path)
        spec = specs[name]
        tmp = os.path.join(self.work, name)
        os.makedirs(tmp, exist_ok=True)
        start = time.time()
        before = dict(vars(spec))
        cu = self.lowered(spec, name, target, tmp, lines.append)
        rec = (self.prepare_kernel(step, spec, name, cu, specs_path, learnt(spec, before),
                                   lines.append) if cu else None)
        return name, rec, lines, time.time() - start

    def rows_kernel(self, fixture, name):
        lines = []
        spec = numcheck.load_specs(CUTILE_SPECS)[name]
        tmp = os.path.join(self.work, name)
        os.makedirs(tmp, exist_ok=True)
        start = time.time()
        cu = os.path.join(tmp, fixture + ".sm90a.cu")
        rc, out = run([os.path.join(self.build, "bin", "tilepipe"), "compile",
                       os.path.join(FIXTURES, fixture + "-13.4.tileirbc"), "--target", "sm_90a",
                       "-o", cu])
        rec = None
        before = dict(vars(spec))
        if rc:
            lines.append(f"{name}: tilepipe compile failed\n{out}")
        elif not hasattr(spec, "prepare") or spec.prepare(self.build, tmp, lines.append,
                                                          register_mma=True):
            rec = self.prepare_kernel("hopper-rows", spec, name, cu, CUTILE_SPECS,
                                      learnt(spec, before), lines.append)
        return name, rec, lines, time.time() - start

    # --- the other binaries ---------------------------------------------------

    def tools(self):
        """(what, ok, note) for the probe, fidelity and GauS binaries."""
        done = []
        probe_cu = os.path.join(self.work, "probe.cu")
        with open(probe_cu, "w") as f:
            f.write(PROBE_CU)
        rc, out = nvcc_sm90a(probe_cu, os.path.join(self.out, "bin", "probe"))
        done.append(("probe", rc == 0, out[-500:]))
        for source in ("tma", "wgmma", "rounding"):
            src = os.path.join(SRC, "test", "fidelity", f"{source}_fidelity.cu")
            rc, out = nvcc_sm90a(src, os.path.join(self.out, "bin", f"fid-{source}.gpu"),
                                 ["-DTP_FIDELITY_CC=90"], shared_runtime=False)
            done.append((f"fidelity {source} (nvcc)", rc == 0, out[-500:]))
            rc, out = run(["g++", "-std=c++17", "-O1", "-Wno-psabi", "-x", "c++", "-DTILEPIPE_CPU",
                           "-I", INCLUDE, "-I", SRC, src, "-o",
                           os.path.join(self.out, "bin", f"fid-{source}.cpu")])
            done.append((f"fidelity {source} (g++)", rc == 0, out[-500:]))
        gaus = os.path.join(self.build, GAUS_CUDA_TESTS)
        if os.path.exists(gaus):
            shutil.copy2(gaus, os.path.join(self.out, "bin", "GausCudaTests"))
            done.append(("GausCudaTests", True, ""))
        else:
            done.append(("GausCudaTests", False, f"{gaus} not built"))
        return done

    def make(self):
        if not os.path.exists(NVCC):
            print(f"gpu-bundle: no CUDA Toolkit ({NVCC})")
            return 2
        if os.path.exists(self.out):
            shutil.rmtree(self.out)
        for d in ("bin", "lib", "cu"):
            os.makedirs(os.path.join(self.out, d))
        os.makedirs(self.work, exist_ok=True)
        cudart = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(NVCC))),
                              "lib64", "libcudart.so.13")
        shutil.copy2(cudart, os.path.join(self.out, "lib"))
        only = set(self.args.only.split(",")) if self.args.only else None
        jobs = []
        for step, specs_path, target, names in KERNELS:
            jobs += [(self.spec_kernel, (step, specs_path, target, n)) for n in names
                     if not only or n in only]
        jobs += [(self.rows_kernel, (fixture, n)) for fixture, n in ROWS
                 if not only or n in only]
        start = time.time()
        status = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.args.jobs) as pool:
            tools = pool.submit(lambda: [] if self.args.kernels_only else self.tools())
            futures = [pool.submit(f, *a) for f, a in jobs]
            for future in futures:
                name, rec, lines, secs = future.result()
                for line in lines:
                    print(line)
                if rec is None:
                    self.failures.append(name)
                    print(f"{name}: NOT prepared ({secs:.0f} s)", flush=True)
                    status = 1
                    continue
                self.kernels[name] = rec
                print(f"{name}: built for sm_90a and the emulator; {len(rec['problems'])} "
                      f"problems ({secs:.0f} s)", flush=True)
            binaries = tools.result()
        for what, ok, note in binaries:
            print(f"{what}: {'built' if ok else 'FAILED: ' + note}")
            status |= 0 if ok else 1
        manifest = {"made": time.strftime("%Y-%m-%dT%H:%M:%S"),
                    "commit": run(["git", "-C", SRC, "rev-parse", "--short", "HEAD"])[1].strip(),
                    "kernels": self.kernels, "not_prepared": self.failures,
                    "binaries": {w: ok for w, ok, _ in binaries}}
        with open(os.path.join(self.out, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
            f.write("\n")
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(self.out)
                   for f in fs)
        print(f"gpu-bundle: {len(self.kernels)} kernels, {size / 2**20:.1f} MiB in {self.out} "
              f"({time.time() - start:.0f} s)" + (f"; not prepared: {', '.join(self.failures)}"
                                                 if self.failures else ""))
        return status


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="gpu-bundle",
                    help="the bundle's folder (default gpu-bundle, ignored by git, carried)")
    ap.add_argument("--quick", action="store_true", help="only each spec's quick problems")
    ap.add_argument("--only", help="comma-separated kernel names")
    ap.add_argument("--kernels-only", action="store_true",
                    help="no probe, fidelity or GauS binaries (a test of the kernels' part)")
    ap.add_argument("--jobs", type=int, default=max(1, os.cpu_count() or 1))
    ap.add_argument("--timeout", type=int, default=600, help="seconds per emulator run")
    return Bundle(ap.parse_args()).make()


if __name__ == "__main__":
    sys.exit(main())
