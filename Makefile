# tilepipe: two commands on a fresh Debian 12 machine.
#   make run   install what is missing, build, schedule the bundled Blackwell examples
#   make test  install what is missing, build, run every test (unit + lit)
BUILD ?= build
JOBS ?= $(shell nproc)
OPT := $(BUILD)/bin/tilepipe-opt
EXAMPLES := $(sort $(wildcard examples/*.mlir))

.PHONY: all deps deps-fuzz configure build tools run test test-long test-sanitize fuzz bench harness gpu-check gpu-check-dry-run gpu-bundle clean format

all: build

deps:
	@scripts/install-deps.sh

# make test also needs clang-19 and libFuzzer for the fuzz smoke run.
deps-fuzz:
	@scripts/install-deps.sh --with-fuzz

# WERROR=ON (CI): warnings in our own code fail the build.
WERROR ?= OFF
$(BUILD)/build.ninja: | deps
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTILEPIPE_WERROR=$(WERROR)

configure: deps $(BUILD)/build.ninja

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# Only the three tools the examples need (the tests and benchmarks are most of
# the build).
tools: configure
	@echo "tilepipe: building tilepipe-opt, tilepipe and tilepipe-translate"
	@cmake --build $(BUILD) -j $(JOBS) --target tilepipe-opt tilepipe tilepipe-translate

run: tools
	@for f in $(EXAMPLES); do \
	  echo "== $$f"; \
	  $(OPT) $$f --tileas-generate-schedule=print-schedule --tileas-materialize-schedule=print-plan -o /dev/null || exit 1; \
	done
	@echo "== CUDA: each example's kernel through --tileas-to-cuda and nvcc (ptxas summary; skipped without the CUDA Toolkit)"
	@python3 scripts/cuda-check.py --build $(BUILD) $(EXAMPLES)

# --fuzz: the fuzz smoke run (scripts/fuzz-smoke.sh: each fuzzer 5 s in
# $(FUZZ_BUILD) when clang-19 and libclang-rt-19-dev are installed). make
# test skips the two MLIR fuzzers (fuzz-mlir, fuzz-tileir-bytecode): their
# sanitized build of both dialects took 125 of the smoke run's 283 s on 2
# cores; make test-long and make fuzz run them (docs/testing.md).
# run-tests.py builds (--build-first) while it makes the tests' pip
# environments: on a clean clone their downloads overlap the compile.
FUZZ_SMOKE_SKIP ?= mlir tileir-bytecode
test: deps-fuzz configure
	@FUZZ_SMOKE_SKIP="$(FUZZ_SMOKE_SKIP)" FUZZ_BUILD=$(FUZZ_BUILD) python3 scripts/run-tests.py --build $(BUILD) --build-first $(JOBS) --fuzz

# make test with the long tier (docs/testing.md, "Test tiers"): the sweeps
# that make test runs in part (mma-shapes, the campaign, the internal-error
# sweep) run whole; about 3 more minutes on 2 cores.
test-long: deps-fuzz configure
	@TILEPIPE_LONG_TESTS=1 FUZZ_BUILD=$(FUZZ_BUILD) python3 scripts/run-tests.py --build $(BUILD) --build-first $(JOBS) --fuzz

# The whole build and every test under AddressSanitizer and
# UndefinedBehaviorSanitizer (GCC's runtimes); UB aborts the test that hits it.
SAN_BUILD ?= build-sanitize
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
test-sanitize: deps
	@test -f $(SAN_BUILD)/build.ninja || cmake -G Ninja -S . -B $(SAN_BUILD) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS="$(SAN_FLAGS)" \
	  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
	@cmake --build $(SAN_BUILD) -j $(JOBS)
	@ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  python3 scripts/run-tests.py --build $(SAN_BUILD)

# libFuzzer targets (docs/fuzzing.md): clang-19 build in $(FUZZ_BUILD), each
# fuzzer run for FUZZ_SECONDS on a copy of its corpus; fails on any crash.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 20
fuzz: deps
	@JOBS=$(JOBS) scripts/fuzz.sh --build $(FUZZ_BUILD) --seconds $(FUZZ_SECONDS)

# The protocol harness (docs/cuda.md) on every example: builds the sm_90a and
# sm_100a harness of each kernel and runs it where a GPU is present
# (HARNESS_ARGS, e.g. --seed-bug wrong-phase).
harness: tools
	@python3 scripts/harness.py --build $(BUILD) $(HARNESS_ARGS) $(EXAMPLES)

# Every GPU check in one run (scripts/gpu-check.py): the numeric checks on the
# GPU, the protocol harness clean and with seeded bugs, and the GEMM against
# cuBLAS; results in $(BUILD)/gpu-check.json. Without a CUDA device the script
# prints "skipped: no CUDA device" and exits 77, which is a pass here: a
# machine without a GPU has nothing to check, and `make gpu-check` must not
# fail on it.
gpu-check: tools
	@python3 scripts/gpu-check.py --build $(BUILD) || test $$? -eq 77

# The bundle a lent machine runs (scripts/gpu-bundle.py): every Hopper
# kernel translated here and built for sm_90a and the emulator, since the
# machine cannot run tilepipe's tools (they link LLVM and MLIR). There:
# bash scripts/gpu-lent-run.sh, carrying gpu-bundle (docs/retarget.md).
gpu-bundle: tools
	@python3 scripts/testvenv.py $(BUILD) numpy >/dev/null
	@$(BUILD)/venv/bin/python scripts/gpu-bundle.py --build $(BUILD) --out gpu-bundle

# Without a GPU: the bundle made, complete, and within the device tool's
# 64 MiB with the working tree.
gpu-check-dry-run: gpu-bundle
	@python3 scripts/gpu-check.py --dry-run --bundle gpu-bundle

bench: build
	@cmake --build $(BUILD) --target bench-all

clean:
	rm -rf $(BUILD)
