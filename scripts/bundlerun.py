"""The numeric checks of a GPU bundle, on the machine that has the GPU
(scripts/gpu-bundle.py makes the bundle; scripts/gpu-check.py --bundle runs
this). Needs numpy, the driver and the bundle; no tilepipe tool.

Per kernel of the manifest: the spec named there, with what its prepare step
learnt from the lowering, draws each problem's inputs with numcheck.py's seeds;
the GPU binary and the emulator binary run on them; each output is compared
with the float64 reference (the spec's tolerance), and the GPU's with the
emulator's (how far apart, and how many elements are bit-identical)."""
import concurrent.futures
import json
import os
import time

import numpy as np

import numcheck

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EMU_SEED = 1


def load(bundle):
    with open(os.path.join(bundle, "manifest.json")) as f:
        return json.load(f)


def spec_of(bundle_rec, name):
    specs = numcheck.load_specs(os.path.join(SRC, bundle_rec["specs"]))
    spec = specs[name]
    for key, value in bundle_rec["state"].items():
        if key == "tolerance":
            value = {k: tuple(v) if isinstance(v, list) else v for k, v in value.items()}
        setattr(spec, key, value)
    return spec


def bytes_of(x):
    """One row of bytes per element."""
    return np.ascontiguousarray(x).view(np.uint8).reshape(x.size, -1)


def agreement(gpu, emu, ref, tol):
    """(bit-identical elements, elements, note) of one output. Both sides
    already match the reference within its bound, so they lie within twice
    the bound of each other; what this adds is how often the emulator gives
    the hardware's very bits, and by how much (in bounds) the rest differ."""
    if gpu.shape != emu.shape:
        return 0, gpu.size, f"shapes {gpu.shape} and {emu.shape}"
    if isinstance(ref, tuple):
        bound = ref[1]
    else:
        atol, rtol = tol
        bound = atol + rtol * np.abs(ref)
    diff = np.abs(gpu.astype(np.float64) - emu.astype(np.float64))
    same = (int(np.count_nonzero((bytes_of(gpu) == bytes_of(emu)).all(axis=1)))
            if gpu.dtype == emu.dtype and gpu.size else 0)
    worst = float((diff / np.maximum(bound, 1e-300)).max()) if diff.size else 0.0
    return same, gpu.size, (f"max |gpu - emu| {float(diff.max()) if diff.size else 0.0:.3g} "
                            f"({worst:.2f} of the bound), {same} of {gpu.size} bit-identical")


def check_kernel(bundle, name, rec, work, timeout):
    """(lines, runs, good, [bit-identical, elements]): GPU and emulator
    against float64, and how far apart they are."""
    lines = []
    try:
        spec = spec_of(rec, name)
    except Exception as e:  # a spec the tree no longer has: say so, go on
        return [f"{name}: spec not loadable: {e}"], 1, 0, [0, 0]
    problems = spec.problems(quick=rec.get("quick", False))
    if [spec.describe(p) for p in problems] != rec["problems"]:
        return [f"{name}: the spec's problems differ from the bundle's (rebuild it)"], 1, 0, [0, 0]
    gpu = os.path.join(bundle, rec["gpu"])
    cpu = os.path.join(bundle, rec["cpu"])
    runs = good = 0
    identical = [0, 0]  # bit-identical elements of the GPU's and the emulator's, of all
    for i, problem in enumerate(problems):
        what = spec.describe(problem)
        # The problem's inputs and reference once, for both sides.
        inputs = spec.inputs(np.random.default_rng(1000 + i), problem)
        ref = spec.reference(inputs, problem)
        outs = {}
        verdicts = []
        for side, exe in (("gpu", gpu), ("emu", cpu)):
            tmp = os.path.join(work, name, f"p{i}-{side}")
            os.makedirs(tmp, exist_ok=True)
            got, note, secs = numcheck.execute(exe, spec, problem, inputs, tmp, EMU_SEED, timeout)
            ok = got is not None
            if ok:
                ok, note = numcheck.judge(spec, got, ref)
                outs[side] = got
            verdicts.append((side, ok, note, secs))
        runs += 1
        both = all(ok for _, ok, _, _ in verdicts)
        agree = []
        if both:
            for k in spec.outputs(problem):
                same, size, note = agreement(outs["gpu"][k], outs["emu"][k], ref[k],
                                             spec.tolerance[k])
                identical[0] += same
                identical[1] += size
                agree.append(f"{k}: {note}")
        good += both
        detail = "; ".join(f"{side} {'match' if ok else 'MISMATCH' if 'differ' in note else 'FAIL'}"
                           f" ({note[:300]}; {secs:.2f} s)" for side, ok, note, secs in verdicts)
        lines.append(f"{name} {what}: {'match' if both else 'MISMATCH'}: {detail}"
                     + (f"; {'; '.join(agree)}" if agree else ""))
    lines.append(f"{name}: {good} of {runs} runs match the reference on the GPU and the emulator; "
                 f"{identical[0]} of {identical[1]} output elements bit-identical between them")
    return lines, runs, good, identical


def run(bundle, step, work, jobs=8, timeout=120, only=None):
    """{kernel: (lines, runs, good, identical)} of the bundle's kernels of `step`, the
    kernels checked side by side."""
    manifest = load(bundle)
    names = [n for n, rec in sorted(manifest["kernels"].items())
             if rec["step"] == step and (not only or n in only)]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {n: pool.submit(check_kernel, bundle, n, manifest["kernels"][n], work, timeout)
                   for n in names}
        for n in names:
            results[n] = futures[n].result()
    missing = [n for n in manifest.get("not_prepared", [])]
    return results, missing


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bundle")
    ap.add_argument("step")
    ap.add_argument("--work", default="/tmp/bundlerun")
    ap.add_argument("--jobs", type=int, default=8)
    ap.add_argument("--only")
    args = ap.parse_args()
    start = time.time()
    results, _ = run(args.bundle, args.step, args.work, args.jobs,
                     only=set(args.only.split(",")) if args.only else None)
    bad = 0
    for name, (lines, runs, good, _) in results.items():
        print("\n".join(lines))
        bad += runs != good
    print(f"{len(results) - bad} of {len(results)} kernels match ({time.time() - start:.0f} s)")
    return int(bad != 0)


if __name__ == "__main__":
    import sys
    sys.exit(main())
