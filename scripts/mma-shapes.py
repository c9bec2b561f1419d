#!/usr/bin/env python3
"""Enumerates the tcgen05.mma shapes the tileas.umma verifier accepts and
takes one small GEMM per accepted shape through the whole tool chain
(issue 35, point 2; docs/cuda.md, "MMA shapes").

Per variant (operand type, accumulator type, block scaling):
 1. candidates M in {32, 64, 96, 128, 256} x N in 4..264 in steps of 4 go to
    the verifier (tilepipe-opt, one split per candidate); the accepted set
    is printed as ranges and compared with the ISA's table (EXPECTED), so a
    verifier that accepts or refuses one shape too many fails;
 2. each accepted shape becomes a GEMM loop (TMA loads of A and B, the
    UMMA, the accumulator read and stored as f32) in one module, which is
    scheduled, materialized and translated function by function;
 3. the kernels that translate are compiled as one file by g++ against the
    CPU emulator (-DTILEPIPE_CPU) and, with --nvcc, by nvcc for sm_100a;
 4. with --run, a driver compiled with that file launches every kernel on
    the emulator (two CTAs along M and N, two K blocks, inputs in {-1,
    -1/2, 0, 1/2, 1}, so every sum is exact in the accumulator) and compares
    C with a float64 reference, exactly.

A kernel that fails a step is reported with the step and the first line of
its diagnostic, and the script exits 1; --allow names steps where failures
are expected on this branch (printed as EXPECTED-FAIL, exit 0).
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

import kernelcache

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = os.path.join(SRC, "cuda", "include")
NVCC = "/usr/local/cuda/bin/nvcc"

# name: (operand type, accumulator type, block-scaled, kind, K-block)
VARIANTS = {
    "bf16_f32": ("bf16", "f32", False, "kind::f16", 64),
    "f16_f32": ("f16", "f32", False, "kind::f16", 64),
    "f16_f16": ("f16", "f16", False, "kind::f16", 64),
    "tf32_f32": ("f32", "f32", False, "kind::tf32", 32),
    "e4m3_f32": ("f8E4M3FN", "f32", False, "kind::f8f6f4", 128),
    "e5m2_f32": ("f8E5M2", "f32", False, "kind::f8f6f4", 128),
    "e4m3_f16": ("f8E4M3FN", "f16", False, "kind::f8f6f4", 128),
    "mx_e4m3_f32": ("f8E4M3FN", "f32", True, "kind::mxf8f6f4", 128),
}
CPP = {"bf16": "__nv_bfloat16", "f16": "__half", "f32": "float",
       "f8E4M3FN": "__nv_fp8_e4m3", "f8E5M2": "__nv_fp8_e5m2"}
CANDIDATE_M = [32, 64, 96, 128, 256]
CANDIDATE_N = list(range(4, 268, 4))


def expected(scaled):
    """The ISA's cta_group::1 dense shapes (PTX ISA, tcgen05 "Matrix
    shape"), written apart from layout/mma_shapes.h."""
    ms = [128] if scaled else [64, 128]
    return {(m, n) for m in ms for n in range(8, 257, 8)}


def run_tool(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, **kw)


def umma_text(m, n, k, t, acc, scaled):
    a, b = f"!tileas.smem<{m}x{k}x{t}>", f"!tileas.smem<{n}x{k}x{t}>"
    c = f"!tileas.tmem<{m}x{n}x{acc}>"
    if not scaled:
        return a, b, c, "", ""
    sa = f"!tileas.tmem<{min(m, 128)}x{-(-m // 128) * (k // 32)}xui8>"
    sb = f"!tileas.tmem<{min(n, 128)}x{-(-n // 128) * (k // 32)}xui8>"
    return a, b, c, f" scale(%sfa, %sfb)", f" scale({sa}, {sb})"


def verifier_probe(m, n, variant):
    t, acc, scaled, _, k = VARIANTS[variant]
    a, b, c, sc, st = umma_text(m, n, k, t, acc, scaled)
    args = f"%a: {a}, %b: {b}, %acc: {c}"
    if scaled:
        sa, sb = re.findall(r"!tileas\.tmem<[^>]*>", st)
        args += f", %sfa: {sa}, %sfb: {sb}"
    return (f"func.func @p_{m}_{n}({args}) {{\n"
            f"  %d = tileas.umma %a, %b, %acc{sc} : {a}, {b}, {c}{st} -> {c}\n"
            f"  return\n}}\n")


def accepted_shapes(build, variant, tmp):
    """The (M, N) candidates the verifier accepts: one split each; the
    splits that fail name their line."""
    cands = [(m, n) for m in CANDIDATE_M for n in CANDIDATE_N]
    chunks, starts, line = [], [], 1
    for m, n in cands:
        text = verifier_probe(m, n, variant)
        starts.append(line)
        chunks.append(text)
        line += text.count("\n") + 1  # and the separator
    path = os.path.join(tmp, f"probe_{variant}.mlir")
    with open(path, "w") as f:
        f.write("// -----\n".join(chunks))
    out = run_tool([os.path.join(build, "bin", "tilepipe-opt"), path, "-split-input-file",
                    "-o", os.devnull]).stdout
    # "within split at FILE:L offset :l:c: error": L is the split's first
    # line, its separator's for every split but the first.
    bad_lines = {int(x) + 1 for x in
                 re.findall(r"within split at \S*probe_\w+\.mlir:(\d+) offset :\d+:\d+: error",
                            out)}
    refused = set()
    for i, (m, n) in enumerate(cands):
        end = starts[i + 1] if i + 1 < len(cands) else 1 << 30
        if any(starts[i] <= ln < end for ln in bad_lines):
            refused.add((m, n))
    return [c for c in cands if c not in refused], out


def ranges(shapes):
    """{M: 'N=8..256/8'} for printing."""
    by_m = {}
    for m, n in shapes:
        by_m.setdefault(m, []).append(n)
    out = []
    for m in sorted(by_m):
        ns = sorted(by_m[m])
        steps = {b - a for a, b in zip(ns, ns[1:])}
        if len(steps) <= 1:
            step = steps.pop() if steps else 0
            out.append(f"M={m} N={ns[0]}..{ns[-1]}/{step}")
        else:
            out.append(f"M={m} N={','.join(map(str, ns))}")
    return "; ".join(out)


def kernel_name(variant, m, n):
    return f"mma_{variant}_{m}x{n}"


def gemm(variant, m, n):
    """One GEMM loop at this shape: C[M x N] (f32) = A . B^T, K-block k."""
    t, acc, scaled, _, k = VARIANTS[variant]
    name = kernel_name(variant, m, n)
    a, b, c, sc, st = umma_text(m, n, k, t, acc, scaled)
    params = [f'%descA: !tileas.tma_desc<{m}x{k}x{t}> {{tileas.name = "A"}}',
              f'%descB: !tileas.tma_desc<{n}x{k}x{t}> {{tileas.name = "B"}}']
    loads = [f"    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<{m}x{k}x{t}> -> {a}",
             f"    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<{n}x{k}x{t}> -> {b}"]
    if scaled:
        ga, gb = -(-m // 128), -(-n // 128)
        sa, sb = re.findall(r"!tileas\.tmem<[^>]*>", st)
        params += [f'%descSFA: !tileas.tma_desc<{ga}x{k // 4}x16xui8> {{tileas.name = "SFA"}}',
                   f'%descSFB: !tileas.tma_desc<{gb}x{k // 4}x16xui8> {{tileas.name = "SFB"}}']
        loads += [
            "    %kr = arith.divui %k, %c4 : index",
            f"    %ra = arith.muli %bx, %c{ga} : index",
            f"    %rb = arith.muli %by, %c{gb} : index",
            f"    %xa = tileas.tma_load %descSFA[%ra, %kr, %c0] : !tileas.tma_desc<{ga}x{k // 4}x16xui8> -> !tileas.smem<{ga}x{k // 4}x16xui8>",
            f"    %xb = tileas.tma_load %descSFB[%rb, %kr, %c0] : !tileas.tma_desc<{gb}x{k // 4}x16xui8> -> !tileas.smem<{gb}x{k // 4}x16xui8>",
            f"    %sfa = tileas.tmem_copy %xa : !tileas.smem<{ga}x{k // 4}x16xui8> -> {sa}",
            f"    %sfb = tileas.tmem_copy %xb : !tileas.smem<{gb}x{k // 4}x16xui8> -> {sb}"]
    params += [f'%descC: !tileas.tma_desc<{m}x{n}xf32> {{tileas.name = "C"}}',
               '%K: index {tileas.name = "K"}']
    read = [f"  %r = tileas.tmem_load %acc : {c} -> tensor<{m}x{n}x{acc}>"]
    out = "%r"
    if acc != "f32":
        read.append(f"  %w = tileas.cvt %r : tensor<{m}x{n}x{acc}> -> tensor<{m}x{n}xf32>")
        out = "%w"
    sep = ",\n    "
    return f"""func.func @{name}({sep.join(params)}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %ck = arith.constant {k} : index
  %cm = arith.constant {m} : index
  %cn = arith.constant {n} : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %cm : index
  %n = arith.muli %by, %cn : index
  %acc0 = tileas.alloc_tmem : {c}
  %acc = scf.for %k = %c0 to %K step %ck iter_args(%accIn = %acc0) -> ({c}) {{
{chr(10).join(loads)}
    %d = tileas.umma %a, %b, %accIn{sc} {{accumulate}} : {a}, {b}, {c}{st} -> {c}
    scf.yield %d : {c}
  }}
{chr(10).join(read)}
  %s = tileas.smem_store {out} : tensor<{m}x{n}xf32> -> !tileas.smem<{m}x{n}xf32>
  tileas.tma_store %s, %descC[%m, %n] : !tileas.smem<{m}x{n}xf32>, !tileas.tma_desc<{m}x{n}xf32>
  return
}}
"""


def split_functions(module_text):
    """{name: a module holding that function alone}."""
    lines = module_text.splitlines()
    # The attribute aliases the stage code's source stamps name
    # (`tileas.src = #locN`; docs/stage-code.md), defined once at the top.
    aliases = "".join(l + "\n" for l in lines if l.startswith("#"))
    head = aliases + next((l for l in lines if l.startswith("module")), "module {")
    funcs, cur, name = {}, None, None
    for line in lines:
        mt = re.match(r"  func\.func @(\w+)\(", line)
        if mt:
            cur, name = [line], mt.group(1)
            continue
        if cur is not None:
            cur.append(line)
            if line == "  }":
                funcs[name] = head + "\n" + "\n".join(cur) + "\n}\n"
                cur = None
    return funcs


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()[:300]
    return text.strip().splitlines()[-1][:300] if text.strip() else "(no output)"


DRIVER_HEAD = r"""
#include <tilepipe/host/main.cuh>
#include <cmath>
#include <cstdio>
#include <random>

namespace {
tp::host::NpyArray npy(const std::vector<int64_t> &shape,
                       const std::vector<float> &v) {
  tp::host::NpyArray a;
  a.descr = "<f4";
  a.itemBytes = 4;
  a.shape = shape;
  a.data.resize(v.size() * 4);
  std::memcpy(a.data.data(), v.data(), v.size() * 4);
  return a;
}
tp::host::NpyArray npyBytes(const std::vector<int64_t> &shape,
                            const std::vector<uint8_t> &v) {
  tp::host::NpyArray a;
  a.descr = "|u1";
  a.itemBytes = 1;
  a.shape = shape;
  a.data.assign(v.begin(), v.end());
  return a;
}

/// Values in {-1, -1/2, 0, 1/2, 1}: exact in every operand type, and every
/// sum of K <= 256 products is exact in f32 and f16.
std::vector<float> values(size_t n, std::mt19937 &rng) {
  std::vector<float> v(n);
  for (float &x : v)
    x = 0.5f * float(int(rng() % 5) - 2);
  return v;
}

template <class TA, bool Scaled, class Launch>
bool check(const char *name, int m, int n, int kBlock, Launch launch) {
  // Two CTAs along M and N, the second ragged; two K blocks. Block-scaled:
  // one CTA along N, whose scale-factor atoms (128 rows each) then start
  // at row 0; a second CTA's N rows would start mid-atom.
  int64_t M = m + m / 2, N = Scaled ? n : n + (n > 8 ? n / 2 : n),
          K = 2 * kBlock;
  std::mt19937 rng(uint32_t(m * 1000 + n));
  std::vector<float> a = values(size_t(M * K), rng), b = values(size_t(N * K), rng);
  std::string err;
  tp::host::Array<TA> A, B;
  tp::host::Array<float> C;
  tp::host::Array<uint8_t> SA, SB;
  std::vector<uint8_t> sa(size_t(M * (K / 32))), sb(size_t(N * (K / 32)));
  bool ok = A.allocate({M, K}, err) && A.fill(npy({M, K}, a), err) &&
            A.upload(err) && B.allocate({N, K}, err) &&
            B.fill(npy({N, K}, b), err) && B.upload(err) &&
            C.allocate({M, N}, err) && C.upload(err);
  if (ok && Scaled) {
    // UE8M0 factors 2^-1, 2^0 or 2^1 per row and 32-element block.
    for (uint8_t &s : sa) s = uint8_t(126 + rng() % 3);
    for (uint8_t &s : sb) s = uint8_t(126 + rng() % 3);
    auto pa = tp::host::packScaleFactors(npyBytes({M, K / 32}, sa));
    auto pb = tp::host::packScaleFactors(npyBytes({N, K / 32}, sb));
    ok = SA.allocate(pa.shape, err) && SA.fill(pa, err) && SA.upload(err) &&
         SB.allocate(pb.shape, err) && SB.fill(pb, err) && SB.upload(err);
  }
  if (!ok) {
    std::printf("%s: FAIL setup: %s\n", name, err.c_str());
    return false;
  }
  dim3 grid(2, Scaled ? 1 : 2, 1);
  tp::host::Status s = tp::host::finish(
      launch(A, B, SA, SB, C, int64_t(K), grid));
  if (!s.ok) {
    std::printf("%s: FAIL run: %s\n", name, s.report.substr(0, 400).c_str());
    return false;
  }
  if (!C.download(err)) {
    std::printf("%s: FAIL download: %s\n", name, err.c_str());
    return false;
  }
  std::vector<float> c = C.toF32();
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double want = 0;
      for (int64_t k = 0; k < K; ++k) {
        double f = 1;
        if (Scaled)
          f = std::ldexp(1.0, sa[size_t(i * (K / 32) + k / 32)] - 127) *
              std::ldexp(1.0, sb[size_t(j * (K / 32) + k / 32)] - 127);
        want += double(a[size_t(i * K + k)]) * double(b[size_t(j * K + k)]) * f;
      }
      double got = c[size_t(i * N + j)];
      if (got != want) {
        std::printf("%s: MISMATCH at (%lld, %lld): got %g, want %g\n", name,
                    (long long)i, (long long)j, got, want);
        return false;
      }
    }
  std::printf("%s: match (%lldx%lld, K %lld)\n", name, (long long)M,
              (long long)N, (long long)K);
  return true;
}
} // namespace

int main() {
  int bad = 0;
"""


# Between two kernels' CUDA in the batched translation's output.
KERNEL_MARKER = "// ----- mma-shapes: next kernel"


def translate_all(translate, functions, tmp, variant, run):
    """Every kernel's CUDA from one tilepipe-translate run over the
    functions as split-input chunks (a process per kernel cost 3 s of CPU
    per variant, 2 of the test's 13), or None when one of them fails: the
    caller then translates them one by one and names the failures. Each
    chunk's output is the same bytes as its own run's."""
    if not functions:
        return []
    src = os.path.join(tmp, f"gemm_{variant}.split.mlir")
    out = os.path.join(tmp, f"gemm_{variant}.split.cu")
    with open(src, "w") as f:
        f.write("\n// -----\n".join(functions))
    r = run([translate, "--tileas-to-cuda", src, "-split-input-file",
             "-output-split-marker=" + KERNEL_MARKER, "-o", out])
    if r.returncode:
        return None
    parts = open(out).read().split(KERNEL_MARKER + "\n")
    return parts if len(parts) == len(functions) else None


def driver_call(variant, m, n):
    t, _, scaled, _, k = VARIANTS[variant]
    name = kernel_name(variant, m, n)
    sargs = "SA.tensor(), SB.tensor(), " if scaled else ""
    return (f"  bad += !check<{CPP[t]}, {'true' if scaled else 'false'}>(\"{name}\", {m}, {n}, {k},\n"
            f"      [](auto &A, auto &B, auto &SA, auto &SB, auto &C, int64_t K, dim3 g) {{\n"
            f"        (void)SA; (void)SB;\n"
            f"        return tp_launch_{name}(A.tensor(), B.tensor(), {sargs}C.tensor(), K, g,\n"
            f"                                 tp::host::LaunchOptions{{}});\n"
            f"      }});\n")


def check_variant(args, variant, tmp, allow, opt, translate):
    """One variant's steps; (lines to print, totals, status, expected
    failures)."""
    lines = []
    say = lines.append
    state = {"status": 0}
    totals = {"accepted": 0, "translated": 0, "compiled": 0, "nvcc": 0, "matched": 0}
    expected_fails = []

    def run(cmd, **kw):
        # The compilers and the emulator run in a CPU slot.
        with kernelcache.Slot(args.build):
            return run_tool(cmd, **kw)

    def report(variant, step, m, what):
        allowed = (variant, step) in allow or (variant, step, str(m)) in allow
        say(f"{variant} {step}: {'EXPECTED-FAIL' if allowed else 'FAIL'} {what}")
        name = f"{variant} {step}" + (f" M={m}" if m else "")
        if allowed and name not in expected_fails:
            expected_fails.append(name)
        if not allowed:
            state["status"] = 1

    def steps():
        t, acc, scaled, kind, k = VARIANTS[variant]
        shapes, _ = accepted_shapes(args.build, variant, tmp)
        want = expected(scaled)
        say(f"{variant} ({kind}, {t} x {t} -> {acc}, K-block {k}): the verifier accepts "
            f"{len(shapes)} of {len(CANDIDATE_M) * len(CANDIDATE_N)} candidates: {ranges(shapes)}")
        totals["accepted"] += len(shapes)
        if set(shapes) != want:
            extra, missing = sorted(set(shapes) - want), sorted(want - set(shapes))
            report(variant, "verifier", 0, f"differs from the ISA table: accepts {extra[:8]} "
                   f"beyond it, refuses {missing[:8]} in it")
        if args.n:
            ns = {int(x) for x in args.n.split(",")}
            shapes = [s for s in shapes if s[1] in ns]
        if args.m:
            ms = {int(x) for x in args.m.split(",")}
            shapes = [s for s in shapes if s[0] in ms]
        if scaled:
            # tmem_copy makes scale tiles of 128 lanes and the verifier asks
            # scale_b for N lanes: below N = 128 no IR feeds the MMA.
            narrow = [s for s in shapes if s[1] < 128]
            if narrow:
                say(f"{variant}: N < 128 ({len(narrow)} shapes) not expressible end to end: "
                    f"tmem_copy makes 128-lane scale tiles, scale_b has N lanes")
            shapes = [s for s in shapes if s[1] >= 128]
        module = os.path.join(tmp, f"gemm_{variant}.mlir")
        with open(module, "w") as f:
            f.write("\n".join(gemm(variant, m, n) for m, n in shapes))
        mat = os.path.join(tmp, f"gemm_{variant}.mat.mlir")
        # Without locations: split_functions reads the printed text.
        r = run([opt, module, "--tileas-generate-schedule", "--tileas-materialize-schedule",
                 "-canonicalize", "-cse", "-mlir-print-debuginfo=false", "-o", mat])
        if r.returncode:
            report(variant, "schedule", 0, first_error(r.stdout))
            return
        funcs = split_functions(open(mat).read())
        cus, translated = [], []
        failed = {}
        names = [kernel_name(variant, m, n) for m, n in shapes]
        batched = translate_all(translate, [funcs[name] for name in names], tmp, variant, run)
        for (m, n), name, text in zip(shapes, names, batched or [None] * len(names)):
            cu = os.path.join(tmp, f"{name}.cu")
            if text is not None:
                with open(cu, "w") as f:
                    f.write(text)
            else:
                # One kernel at a time, to name the ones that fail.
                one = os.path.join(tmp, f"{name}.mat.mlir")
                with open(one, "w") as f:
                    f.write(funcs[name])
                r = run([translate, "--tileas-to-cuda", one, "-o", cu])
                if r.returncode:
                    failed.setdefault(m, []).append((n, first_error(r.stdout)))
                    continue
            cus.append(cu)
            translated.append((m, n))
        for m, fails in sorted(failed.items()):
            report(variant, "translate", m,
                   f"M={m}: {len(fails)} shapes (N={','.join(str(n) for n, _ in fails[:6])}"
                   f"{',...' if len(fails) > 6 else ''}): {fails[0][1]}")
        totals["translated"] += len(translated)
        say(f"{variant}: {len(translated)} of {len(shapes)} accepted shapes translate: "
            f"{ranges(translated)}")
        if not translated:
            return
        whole = os.path.join(tmp, f"all_{variant}.cu")
        with open(whole, "w") as f:
            for cu in cus:
                f.write(open(cu).read() + "\n")
        r = run(["g++", "-std=c++17", "-fsyntax-only", "-x", "c++", "-DTILEPIPE_CPU",
                 "-Wno-psabi", "-I", args.include, whole])
        if r.returncode:
            report(variant, "g++", 0, first_error(r.stdout))
            return
        totals["compiled"] += len(translated)
        say(f"{variant}: g++ -DTILEPIPE_CPU compiles all {len(translated)}")
        nvcc_here = args.nvcc and (args.nvcc_variants is None
                                   or variant in args.nvcc_variants.split(","))
        if nvcc_here and os.path.exists(NVCC):
            r = run([NVCC, "-std=c++17", "-gencode", "arch=compute_100a,code=sm_100a",
                     "-I", args.include, "-diag-suppress", "177", "-c", whole, "-o",
                     os.path.join(tmp, f"all_{variant}.o")])
            if r.returncode:
                report(variant, "nvcc", 0, first_error(r.stdout))
            else:
                totals["nvcc"] += len(translated)
                say(f"{variant}: nvcc sm_100a compiles all {len(translated)}")
        if args.run:
            run_n = {int(x) for x in args.run_n.split(",")} if args.run_n else None
            ran = [(m, n) for m, n in translated if run_n is None or n in run_n]
            # Only the kernels that run: g++ -O1 of the rest costs minutes.
            chosen = os.path.join(tmp, f"run_{variant}.cu")
            with open(chosen, "w") as f:
                for cu, mn in zip(cus, translated):
                    if mn in ran:
                        f.write(open(cu).read() + "\n")
            drv = os.path.join(tmp, f"run_{variant}.cpp")
            with open(drv, "w") as f:
                f.write(f'#include "{chosen}"\n' + DRIVER_HEAD)
                for m, n in ran:
                    f.write(driver_call(variant, m, n))
                f.write('  std::printf("bad %d\\n", bad);\n  return bad != 0;\n}\n')
            exe = os.path.join(tmp, f"run_{variant}")
            r = run(["g++", "-std=c++17", "-O1", "-g0", "-Wno-psabi", "-x", "c++",
                     "-DTILEPIPE_CPU", "-I", args.include, drv, "-o", exe])
            if r.returncode:
                report(variant, "driver", 0, first_error(r.stdout))
                return
            r = run([exe], timeout=3000)
            ran_lines = r.stdout.splitlines()
            good = sum(1 for l in ran_lines if l.endswith(")") and ": match (" in l)
            for l in ran_lines:
                if ": FAIL" in l or "MISMATCH" in l:
                    mm = re.search(r"_(\d+)x\d+:", l)
                    report(variant, "run", mm.group(1) if mm else 0, l)
            totals["matched"] += good
            say(f"{variant}: {good} of {len(ran)} run on the emulator and match the "
                f"float64 reference exactly")

    steps()
    return lines, totals, state["status"], expected_fails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--include", default=INCLUDE)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--nvcc", action="store_true", help="also compile with nvcc for sm_100a")
    ap.add_argument("--nvcc-variants",
                    help="with --nvcc: only these variants (comma separated); make test's "
                         "budget compiles one variant per tcgen05 kind and accumulator")
    ap.add_argument("--run", action="store_true", help="run every kernel on the emulator")
    ap.add_argument("--run-n", help="with --run: only the kernels of these N (comma separated)")
    ap.add_argument("--n", help="only these N (comma separated) past the verifier step")
    ap.add_argument("--m", help="only these M (comma separated) past the verifier step")
    ap.add_argument("--allow", default="",
                    help="comma-separated variant:step (or variant:step:M) failures expected here")
    ap.add_argument("--keep", help="keep the work files in this folder")
    args = ap.parse_args()
    allow = {tuple(a.split(":")) for a in args.allow.split(",") if a}
    tmp_ctx = tempfile.TemporaryDirectory()
    tmp = args.keep or tmp_ctx.name
    os.makedirs(tmp, exist_ok=True)
    opt = os.path.join(args.build, "bin", "tilepipe-opt")
    translate = os.path.join(args.build, "bin", "tilepipe-translate")
    status = 0
    totals = {"accepted": 0, "translated": 0, "compiled": 0, "nvcc": 0, "matched": 0}
    expected_fails = []
    # The variants are checked side by side (each compile and emulator run in
    # a CPU slot shared with the other tests, scripts/kernelcache.py) and
    # printed in order.
    variants = args.variants.split(",")
    jobs = max(1, int(os.environ.get("TILEPIPE_TEST_JOBS", os.cpu_count() or 1)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(jobs, len(variants))) as pool:
        futures = [pool.submit(check_variant, args, v, tmp, allow, opt, translate)
                   for v in variants]
        for future in futures:
            lines, counts, bad, fails = future.result()
            for line in lines:
                print(line, flush=True)
            for k, v in counts.items():
                totals[k] += v
            status |= bad
            expected_fails += [f for f in fails if f not in expected_fails]
    print("total: " + ", ".join(f"{k} {v}" for k, v in totals.items()) +
          f"; expected failures: {', '.join(expected_fails) or 'none'}; "
          f"{'FAIL' if status else 'ok'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
