"""What scripts/cuda-check.py, harness.py, gpu-check.py and gpu-bundle.py
share: a tile-IR file through generate, materialize (print-plan),
-canonicalize -cse and --tileas-to-cuda, the paths and defaults they use
(docs/cuda.md), and the device probe's source."""
import os
import subprocess

NVCC = "/usr/local/cuda/bin/nvcc"
INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cuda", "include")

# The device probe: cudaGetDeviceCount through the same runtime the checks
# link, so "a device" means one our binaries can use (nvidia-smi can list a
# GPU that an old driver cannot run CUDA 13 code on). 77 when there is none.
PROBE_CU = r"""
#include <cstdio>
#include <cuda_runtime.h>
int main() {
  int n = 0, driver = 0, runtime = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    std::printf("%s\n", e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    return 77;
  }
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
    std::printf("cudaGetDeviceProperties failed\n");
    return 77;
  }
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::printf("{\"count\": %d, \"name\": \"%s\", \"major\": %d, \"minor\": %d, "
              "\"sms\": %d, \"driver\": %d, \"runtime\": %d}\n",
              n, p.name, p.major, p.minor, p.multiProcessorCount, driver, runtime);
  return 0;
}
"""


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, **kw)


# The built-in targets whose tensor core accumulates in registers: their
# loops are rewritten first (docs/retarget.md), as `tilepipe compile` does.
REGISTER_MMA_TARGETS = ("sm_90a",)


def lower(path, build, tmp, materialize="", name=None, log=print, target=None, translate="",
          schedule=""):
    """(name, .cu path, tilepipe-opt's output with the plan), or None after
    printing which step failed. `materialize` adds options to the
    materializer (e.g. mode=unspecialized for peeled code). log prints the
    failure (a caller checking kernels side by side collects it). `target`
    (a built-in name) schedules and materializes for that target instead of
    sm_100a. `translate`: options of tilepipe-translate (a spec's, e.g.
    --tileas-wgmma-epilogue=staged). `schedule`: more options of the
    scheduler (e.g. stages=min-buffer)."""
    name = name or os.path.splitext(os.path.basename(path))[0]
    mat = os.path.join(tmp, name + ".mat.mlir")
    cu = os.path.join(tmp, name + ".cu")
    on = f" target={target}" if target else ""
    sched = " ".join(o for o in (on.strip(), schedule.strip()) if o)
    opt = run([os.path.join(build, "bin", "tilepipe-opt"), path]
              + (["--tileas-umma-to-wgmma"] if target in REGISTER_MMA_TARGETS else [])
              + ["--tileas-generate-schedule" + (f"={sched}" if sched else ""),
                 "--tileas-materialize-schedule=print-plan" + (f" {materialize}" if materialize else "") + on,
                 "-canonicalize",
                 "-cse", "-o", mat])
    if opt.returncode:
        log(f"{name}: tilepipe-opt failed\n{opt.stdout}")
        return None
    tr = run([os.path.join(build, "bin", "tilepipe-translate")] + translate.split() + [
              "--tileas-to-cuda", mat, "-o", cu])
    if tr.returncode:
        log(f"{name}: tilepipe-translate failed\n{tr.stdout}")
        return None
    return name, cu, opt.stdout


def add_common_arguments(ap):
    ap.add_argument("files", nargs="+")
    ap.add_argument("--build", default="build")
    ap.add_argument("--include", default=INCLUDE)
