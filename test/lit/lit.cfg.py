# lit configuration for tilepipe's tile-IR tests.
import os
import sys
import lit.formats

config.name = "tilepipe"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".json", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilepipe_obj_root, "test", "lit")

path = os.pathsep.join([config.tilepipe_tools_dir, config.llvm_tools_dir,
                        config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["PATH"] = path
# numpy's OpenBLAS starts a thread per core whose workers spin after each
# product: on CI's 2 cores, beside lit's other worker, numcheck's float64
# references took twice the CPU (docs/testing.md, "CI time, sixth round").
config.environment["OPENBLAS_NUM_THREADS"] = "1"
config.substitutions.append(("%tilepipe_src", config.tilepipe_src_root))
config.substitutions.append(("%examples", os.path.join(config.tilepipe_src_root, "examples")))

# The CUDA Toolkit is optional: tests that compile the translated kernels
# with nvcc say `REQUIRES: nvcc` and are reported unsupported without it.
config.substitutions.append(("%cuda_include", os.path.join(config.tilepipe_src_root, "cuda", "include")))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%tilepipe_obj", config.tilepipe_obj_root))

# The long tier (make test-long; docs/testing.md, "Test tiers"): the sweeps
# whose full matrix costs minutes of CI (mma-shapes' emulator runs and nvcc
# compiles, the bad-input campaign's count, the internal-error sweep's
# generator and policy pairs) run a fixed part of it under `make test` and all
# of it where the feature `long` is on.
if lit_config.params.get("long") or os.environ.get("TILEPIPE_LONG_TESTS") == "1":
    config.available_features.add("long")

# An AddressSanitizer build (make test-sanitize) reserves terabytes of address
# space for its shadow memory at start, which the campaign's address-space
# limit (scripts/campaign.py --memory-gb, 6 GB) refuses: every run would be a
# finding. %campaign_memory turns the limit off there.
import re
if re.search(r"-fsanitize=\S*address", getattr(config, "tilepipe_cxx_flags", "")):
    config.available_features.add("asan")
    config.substitutions.append(("%campaign_memory", "--memory-gb 0"))
else:
    config.substitutions.append(("%campaign_memory", ""))
if config.tilepipe_have_cuda == "ON" and os.path.exists("/usr/local/cuda/bin/nvcc"):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", "/usr/local/cuda/bin/nvcc"))

# The numeric checks run the translated kernels and compare with references
# computed by numpy, from the virtual environment scripts/testvenv.py makes
# under the build folder (never the core build's dependency).
_venv_python = os.path.join(config.tilepipe_obj_root, "venv", "bin", "python")
if os.path.exists(_venv_python):
    import subprocess
    if subprocess.run([_venv_python, "-c", "import numpy"], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode == 0:
        config.available_features.add("numpy")
        config.substitutions.append(("%numpy_python", _venv_python))

# The peer comparison (bench/peers/peers.py) needs its own environment under
# the build folder (Triton and the pip cuobjdump), which make test makes when
# the package index is reachable.
_peers_python = os.path.join(config.tilepipe_obj_root, "peers-venv", "bin", "python")
if os.path.exists(_peers_python):
    import subprocess
    if subprocess.run([_peers_python, "-c", "import triton, nvidia"], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode == 0:
        config.available_features.add("peers")
        # The pip cuobjdump (nvidia-cuda-cuobjdump), for SASS checks.
        import glob
        _dumps = sorted(glob.glob(os.path.join(config.tilepipe_obj_root, "peers-venv", "lib",
                                               "python3*", "site-packages", "nvidia", "cu*",
                                               "bin", "cuobjdump")))
        if _dumps:
            config.available_features.add("cuobjdump")
            config.substitutions.append(("%cuobjdump", _dumps[-1]))

# The CUDA Tile IR front end's tests (docs/cuda-tile.md) export cuTile
# kernels with NVIDIA's cuda-tile package and run tileiras and tileirdisasm,
# from the environment `scripts/testvenv.py BUILD cutile` makes under the
# build folder (make test makes it; without the package index the tests
# that say `REQUIRES: cutile` are reported unsupported, with the reason).
# tileiras loads the libnvvm of CUDA_HOME when that is set, and fails with
# only "failed to compile Tile IR program" against an older toolkit: the
# substitution runs it with CUDA_HOME unset.
import importlib.util
_spec = importlib.util.spec_from_file_location(
    "tilepipe_testvenv", os.path.join(config.tilepipe_src_root, "scripts", "testvenv.py"))
testvenv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(testvenv)
if testvenv.has_packages(config.tilepipe_obj_root, "cutile"):
    config.available_features.add("cutile")
    config.substitutions.append(("%cutile_python", testvenv.venv_python(config.tilepipe_obj_root, "cutile")))
    config.substitutions.append(("%tileirdisasm", testvenv.tool_path(config.tilepipe_obj_root, "tileirdisasm")))
    config.substitutions.append(("%tileiras", "env -u CUDA_HOME " +
                                 testvenv.tool_path(config.tilepipe_obj_root, "tileiras")))
