#!/usr/bin/env python3
"""Runs translated kernels on the CPU emulator and compares every output with
a reference computed independently in float64 (docs/cpu-emulation.md).

Per kernel spec (test/numeric/specs.py): the tile IR goes through generate,
materialize, -canonicalize -cse and --tileas-to-cuda; g++ compiles the .cu
with -DTILEPIPE_CPU -DTILEPIPE_MAIN (the kernel, its generated launcher and
main, the emulator); each problem of the spec (trip counts 0, 1, 2, depth,
depth + 1 and >= 64, several CTAs, M and N multiples of the tile and not)
gets random inputs as .npy files, runs, and its outputs are compared with the
spec's reference within the tolerance the spec states per data type.

Prints one line per run and a summary per kernel; exit 1 on any mismatch,
fault or deadlock, 2 when a step fails to run.
Needs numpy (scripts/testvenv.py makes the environment)."""
import argparse
import concurrent.futures
import errno
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# One OpenBLAS thread: the references are small products, and the library's
# spinning workers took as much CPU again as the checks (docs/testing.md,
# "CI time, sixth round"). Before numpy is imported, which reads it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernelcache  # noqa: E402
from cudalower import INCLUDE, NVCC, REGISTER_MMA_TARGETS, lower  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CXX = os.environ.get("CXX", "g++")


# Seeded bugs (issue 20, point 4): each is planted into the CUDA the compiler
# compiles, either the emitted kernel (.cu) or a copy of the runtime headers
# it includes, and the numbers (or the emulator's deadlock and fault reports)
# must catch it. (file, pattern, replacement): the first match is replaced.
SEEDED_BUGS = {
    # The MMA's descriptor says 64-byte swizzle where the TMA wrote 128-byte.
    "swizzle-mismatch": (".cu", r"(tp::umma_\w+<[^>]*?KMajor<tp::MmaTile<[^>]*?)tp::Swizzle::B128",
                         r"\1tp::Swizzle::B64"),
    # Each MMA instruction's K slice starts one 32-byte atom too far.
    "k-advance": ("layout/tile.cuh", r"\+ \(step_offset\(s\) >> 4\)",
                  "+ (step_offset(s + 1) >> 4)"),
    # enable-input-d always on: the accumulator never starts from zero.
    "enable-input-d": (".cu", r"bool (v\d+) = tp::acc_enable\([^;]*\);", r"bool \1 = true;"),
    # The block-scaled MMA reads the scale factors of the next K block.
    "sf-id": ("layout/scale_factors.cuh", r"mma_id\(int s\) \{ return uint32_t\(s % 4\)",
              "mma_id(int s) { return uint32_t((s + 1) % 4)"),
    # A tf32 operand given MN-major staged in one tile, not two in turn: the next
    # copy overwrites the tile the wgmma still in flight reads.
    "staged-one-tile": (".cu", r"tp::smem_slot\(S\.(staged\d+), (\d+), 2, ",
                          r"tp::smem_slot(S.\1, \2, 1, "),
    # The staged operand written row after row, unswizzled, where the wgmma's
    # descriptor reads the 128B swizzle.
    "staged-unswizzled": ("runtime/wgmma.cuh", r"dst \+ Dst::offset\(c \+ j, k\)",
                          "dst + uint32_t(((c + j) * Dst::kCols + k) * sizeof(T))"),
    # An 8-bit staged operand's bytes regrouped in the wrong order: column
    # c + j of row k + r lands in byte 3 - r of its word.
    "staged-byte-order": ("runtime/wgmma.cuh", r"& 0xffu\) << \(8 \* r\);",
                          "& 0xffu) << (8 * (3 - r));"),
    # A 32-row tile keeps the fragment's rows 32-63 (computed from the 32
    # rows after the A tile) instead of rows 0-31.
    "half-band-rows": ("runtime/wgmma.cuh", r"if \(Rows && row >= Rows\)",
                       "if (Rows && (row < Rows || row >= 2 * Rows))"),
    # A narrow tile's SIMT code loads and stores all 64 rows of the
    # fragment, the rows past the tile's included.
    "narrow-rows-kept": ("runtime/wgmma.cuh", r"return Rows == 0 \|\| row\(slot\) < Rows;",
                         "return true;"),
    # The first consumer wait on a full barrier is gone.
    "missing-wait": (".cu", r"\n\s*tp::mbar_wait\(S\.full\d+, \d+, \w+, 0\);", ""),
    # The first consumer wait on a full barrier waits for the other parity.
    "wrong-parity": (".cu", r"(tp::mbar_wait\(S\.full\d+, \d+, \w+, )0\);", r"\g<1>1);"),
    # A producer waits for the empty barrier's parity 0 at its first round,
    # which no consumer has completed: a deadlock.
    "producer-parity": (".cu", r"(tp::mbar_wait\(S\.empty\d+, \d+, \w+, )1\);", r"\g<1>0);"),
    # A slot is released by a plain arrive when the MMA is issued, not by
    # tcgen05.commit when it has read the slot.
    "early-release": (".cu", r"tp::umma_arrive\((S\.empty\d+)", r"tp::mbar_arrive(\1"),
    # A slot the consumer keeps past its load, read again by later stages
    # (cuda/CarriedTiles.cpp, carrySmemSlots), is released one iteration
    # early in the loop (i - d + 1 instead of i - d): one slot is released
    # twice and another never, so the producer waits on it forever (the
    # emulator reports the deadlock); with a longer loop the producer would
    # refill a slot a later stage has still to read.
    "kept-slot-early": (".cu", r"(tp::mbar_arrive\(S\.empty0, \d+, )(v\d+)\);", r"\g<1>\2 + 1);"),
    # A ring tile read by fewer consumer groups than the ring's others
    # arrives once instead of for the difference too: its slot's empty
    # barrier never completes, and the producer waits for it forever.
    "ring-one-arrival": (".cu", r"(tp::umma_arrive\((S\.empty\d+), \d+, \w+\);)\n\s*tp::umma_arrive\(\2, \d+, \w+\);",
                         r"\1"),
    # A joined pipe's commit adds no bytes: the stage's phase completes on
    # the other tile's bytes alone, and the MMA may read this one before
    # it lands.
    "join-no-expect": (".cu", r"\n\s*tp::mbar_expect_tx\([^;]*\);", ""),
    # A persistent kernel keeps the accumulator's written-slot mask from
    # one tile to the next: a later tile's first MMA adds to the stale
    # accumulator of an earlier tile in the same slot.
    "tile-mask-kept": (".cu", r"\n\s*v\d+ = 0u;", ""),
    # The epilogue's source tile (C, loaded after the loop) is read without
    # waiting for its TMA load to land.
    "epilogue-load-no-wait": (".cu", r"\n\s*tp::mbar_wait\(S\.epiload\d+,[^;]*;", ""),
    # A persistent kernel waits for every tile's source tile on the phase
    # of its first: from the second tile on, the wait returns at once and
    # the epilogue reads the tile before its load lands.
    "epilogue-load-phase": (".cu", r"(tp::mbar_wait\(S\.epiload\d+, 1, (v\d+), 0\);\n\s*int64_t v\d+ = \2 \+ 1;)\n\s*\2 = v\d+;",
                            r"\1"),
    # A vector per column (tileas.broadcast dimensions = [0]: bias[n],
    # gamma[n]) broadcast along the wrong axis: each thread reads the
    # vector's element of its row and repeats it along the row.
    "broadcast-axis": (".cu", r"tp::smem_vec_cols<(\d+), (\w+)>\((\w+), \w+\)",
                       r"tp::bcast_rows<\1>(tp::smem_load<1, \2, 1>(\3, int(threadIdx.x) % 128))"),
    # Two epilogue tiles staged over the drained slots at the same bytes: the
    # second is written while the first one's TMA store may still read.
    "overlay-same-offset": (".cu", r"tp::smem_addr\((S\.pipe\d+) \+ \d+\)",
                            r"tp::smem_addr(\1)"),
    # A 16-bit accumulator allocated packed, two elements per column: half
    # the kernel's TMEM columns, so its MMAs write columns not allocated.
    "acc-packed-columns": (".cu", r"tp::tmem_alloc\(([^,;]*), (\d+)", r"tp::tmem_alloc(\1, \2 / 2"),
    # A 16-bit accumulator read in the packed form (tcgen05.st's layout, two
    # elements per column) instead of one element per column.
    "acc-read-packed": (".cu", r"(tp::tmem_load(?:_cols)?<[^;]*?), tp::TmemLayout::Acc>", r"\1>"),
    # arith.addi does not wrap around: an add that overflows its type keeps
    # its first operand (any value but the wrapped one is wrong).
    "addi-no-wrap": ("runtime/int_arith.cuh",
                     r"(T addi\(T a, T b\) \{\n\s*)return ([^;]*);",
                     r"\1T r = \2;\n  return (b > 0 && r < a) || (b < 0 && r > a) ? a : r;"),
    # mulsi_extended's 64-bit high half read as unsigned (no correction for
    # negative operands).
    "mulsi-high-unsigned": ("runtime/int_arith.cuh", r"\n\s*hi -= a < 0 \? ub : 0;\n\s*hi -= b < 0 \? ua : 0;", ""),
    # Ping-pong consumers (docs/cuda.md). A copy starts each tile's pipe
    # iterations where its own last tile ended, not where the other copy's
    # did: it waits for iterations the producer loads into other slots.
    "turn-base-own": (".cu", r"(int64_t v\d+ = tp::turn_base\([^;]*\);)\n\s*v\d+ = v\d+;", r"\1"),
    # A copy stages its epilogue without waiting for its turn: both copies
    # write the one staging tile at once.
    "turn-epilogue-no-wait": (".cu", r"\n\s*tp::turn_wait\(\(S\.turns \+ 2\)[^;]*;", ""),
    # A copy waits for its epilogue's source tile on the phase of its own
    # count of tiles (count + copy), not the CTA's (2 count + copy): from its
    # second tile on it waits for a phase the other copy's load completed.
    "turn-epiload-phase": (".cu", r"int64_t (v\d+) = 2 \* (v\d+);\n(\s*)int64_t (v\d+) = \1 \+ \(\(tp_warp",
                           r"int64_t \1 = \2;\n\3int64_t \4 = \1 + ((tp_warp"),
    # A persistent kernel's walk stops one tile short of the count: the
    # last tile is computed by no CTA.
    "tile-walk-short": (".cu", r"for \(int64_t (v\d+) = (v\d+); \1 < (v\d+); \1 \+= (v\d+)\) \{",
                        r"for (int64_t \1 = \2; \1 < \3 - 1; \1 += \4) {"),
    # An M = 64 accumulator read as if M were 128 (.32x32b, lane = row).
    "m64-read-as-m128": (".cu", r"(tp::tmem_load(?:_cols)?<[^;]*?), tp::TmemLayout::Acc64>", r"\1>"),
    # Threads write a UMMA operand in SMEM (attention's P at M = 64)
    # row-major, not in the swizzled layout the MMA's descriptor reads.
    "p-row-major": (".cu", r"tp::smem_store_mma<tp::MmaTile<[^;]*?, (\d+), tp::Swizzle::\w+>, (\w+), (\d+)>",
                    r"tp::smem_store<\1, \2, \3>"),
    # Hopper (issue 38). A slot a wgmma read is released without the
    # wgmma.wait_group that retires the MMA: the producer may refill it
    # while the tensor core still reads it.
    "wgmma-no-wait": ("runtime/wgmma.cuh", r"(TP_DEVICE void wgmma_wait\(\) \{\n\s*)(ptx::wgmma_wait_group<Pending>\(\);)",
                      r"\1if (Pending == 0) \2"),
    # The accumulator stored from the fragment of the next lane quad (the
    # thread's rows one quad off).
    "wgmma-acc-quad": ("runtime/wgmma.cuh", r"wg::acc_element\(t, i\)",
                       "wg::acc_element((t + 4) % wg::kThreads, i)"),
    # The rows' stores into a 128B-swizzled staging tile XOR the chunk with
    # row / 8 instead of row % 8 (the TMA store then reads other bytes).
    "wgmma-rows-swizzle": ("layout/wgmma_layout.cuh",
                           r"z\(\(y >> 4\) \^ uint32_t\(rows_row\(t, 0\) % 8\)\)",
                           "z((y >> 4) ^ uint32_t((rows_row(t, 0) / 8) % 8))"),
    # The sm_90 descriptors say 64-byte swizzle where the TMA wrote 128-byte.
    "wgmma-desc-swizzle": ("runtime/wgmma.cuh", r"return sm100 & ~\(uint64_t\(7\) << 46\);",
                           "return (sm100 & ~(uint64_t(7) << 46)) ^ (uint64_t(3) << 62);"),
    # The fragment's rows with the two rows of a lane swapped (row slot h
    # holding row 16 w + lane / 4 + 8 (1 - h)): attention's row maximum and
    # sum mix rows.
    "wgmma-rows-half": ("layout/wgmma_layout.cuh", r"return \(\(i >> 1\) & 1\) \* \(n / 4\)",
                        "return (((i >> 1) & 1) ^ 1) * (n / 4)"),
    # P's m64k16 A registers packed row-major instead of the ISA's order
    # (register r: row slot r / 2, columns 2 (r % 2)).
    "wgmma-a-regs": ("layout/wgmma_layout.cuh", r"return \(r % 2\) \* \(k / 4\) \+ 4 \* s \+ 2 \* \(r / 2\)",
                     "return (r / 2) * (k / 4) + 4 * s + 2 * (r % 2)"),
    # The wait before an accumulator is read in the rows lets one group more
    # stay pending (the first such read of the kernel's text).
    "wgmma-rows-early": (".cu", r"tp::wgmma_wait<(\d)>\(\);(\s*tp::Frag<float, \d+> v\d+ = tp::wgmma_rows<)",
                         r"tp::wgmma_wait<\g<1>+1>();\2"),
    # A row reduction finished over half the lane quad.
    "wgmma-quad-reduce": (".cu", r"tp::reduce_lanes_max<4>", "tp::reduce_lanes_max<2>"),
    # A K-block counted in 16-bit instructions whatever the type: a tf32
    # block of K 32 issues two m64nNk8 instead of four (half of K).
    "wgmma-k-steps-16bit": ("runtime/wgmma.cuh", r"constexpr int kSteps = AV::kK \* int\(sizeof\(TA\)\) / 32;",
                            "constexpr int kSteps = AV::kK * 2 / 32;"),
    # An epilogue in column pieces (cuda/emit/RowsPieces.cpp) storing every
    # piece at the first piece's columns.
    "rows-piece-store": ("runtime/wgmma.cuh",
                         r"saddr \+ offset\(slot, int\(c\) \+ j\),(\s*reinterpret_cast<const unsigned char)",
                         r"saddr + offset(slot, j),\1"),
    # A per-column vector read for each piece at the first piece's columns
    # (the bias of columns 0-31 applied to all of them).
    "cols-piece-first": ("runtime/wgmma.cuh", r"at\.template col<C>\(int\(c\) \+ j\)",
                         "at.template col<C>(j)"),
    # Warpgroup w of a 256-row tile issuing its two bands from band w, not
    # 2 w (the second warpgroup recomputes rows 64-191).
    "wgmma-first-band": (".cu", r"int32_t (v\d+) = (v\d+) \* 2;", r"int32_t \1 = \2;"),
    # An MN-major A (a weight gradient's dY^T) issued with imm-trans-a 0:
    # its descriptor's bytes read as if K-major.
    "wgmma-trans-a": ("runtime/wgmma.cuh", r"AV::kMNMajor \? 1 : 0>\(dg", "0>(dg"),
    # Positions (runtime/positions.cuh): the fragment rows' row index of a
    # lane's two rows swapped (a causal diagonal 8 rows off), and a column
    # piece's indices counted from 0 in every piece.
    "iota-rows-swap": ("runtime/positions.cuh", r"int32_t\(at\.row\(slot\)\)",
                       "int32_t(at.row(slot ^ 1))"),
    "iota-cols-piece": ("runtime/positions.cuh", r"f\.v\[i\] = int32_t\(c \+ i\);",
                        "f.v[i] = int32_t(i);"),
    # A per-column vector of positions in the fragment's rows given the
    # lane quad's first column pair only (ALiBi's key distances 2 (lane % 4)
    # off for three lanes of four).
    "cols-iota-quad": ("runtime/positions.cuh", r"f\.v\[j\] = int32_t\(at\.template col<C>\(j\)\);",
                       "f.v[j] = int32_t(at.template col<C>(j) & ~6);"),
    # V staged for an 8-bit P from the rows in K order, not in the order the
    # P registers hold the keys (layout::wgmma::key_of_a8).
    "f8-key-order": ("runtime/wgmma.cuh", r"PermuteK \? layout::wgmma::key_of_a8\(k \+ r\)",
                     "false ? layout::wgmma::key_of_a8(k + r)"),
    # An s8 operand issued as u8 (wgmma's type, tcgen05's A/B type code):
    # every negative element reads 256 too high.
    "i8-wgmma-unsigned": ("runtime/wgmma.cuh",
                          r"kSame<T, int8_t> \? ptx::WgmmaInt8::S8 : ptx::WgmmaInt8::U8",
                          "ptx::WgmmaInt8::U8"),
    # An arithmetic right shift of a tile done logically (the sign not
    # copied): 4-bit weights unpacked by `w >> 4` lose their sign.
    "shrsi-logical": ("runtime/positions.cuh", r"TP_TILE_INT\(tile_shrsi, T, shrsi\(x, y\)\)",
                      "TP_TILE_INT(tile_shrsi, T, detail::wrap<T>(detail::bits(x) >> detail::bits(y)))"),
    # A u8 operand read through an int8_t view (as signed): every element
    # over 127 reads 256 too low.
    "u8-view-signed": (".cu", r"MmaTile<uint8_t,", "MmaTile<int8_t,"),
    "i8-idesc-unsigned": ("layout/instr_desc.cuh",
                          r"(struct MmaElem<int8_t> \{ // kind::i8: signed 1\n.*\n.*\n"
                          r"  static constexpr uint32_t kFormat = )1;",
                          r"\g<1>0;"),
    # A tile passed in read in the rows with the two rows of a lane swapped
    # (DeepGEMM's per-row scale applied to the row 8 away).
    "wgmma-param-rows": ("runtime/wgmma.cuh", r"p \+ static_cast<size_t>\(at\.row\(slot\)\) \* C;",
                         "p + static_cast<size_t>(at.row(slot ^ 1)) * C;"),
    # Threads' accesses (runtime/threads.cuh): an atomic add that stores
    # (a split-K's partial products overwrite each other), and the scalar a
    # kernel reads from memory read at the array's base (every MoE block
    # multiplies by expert 0's weights).
    "combine-store": ("runtime/threads.cuh", r"atomicAdd\(p, v\);", "*p = v;"),
    # A wgmma operand the threads write overwritten while the wgmma before
    # may still read it (no wait for it).
    "operand-store-no-wait": (".cu", r"tp::wgmma_wait<0>\(\);(\s*)tp::agent_sync\((\d+), (\d+)\);(\s*)"
                              r"tp::smem_store_mma", r"tp::smem_store_mma"),
    # The same in the steady-state loop only (its store a stage before the
    # wgmma that reads it, carried to the next iteration's row): the one
    # the translation missed when it looked for the wgmma among the store's
    # direct users.
    "operand-store-no-wait-loop": (".cu", r"\n        tp::wgmma_wait<0>\(\);\n        tp::agent_sync\(\d+, \d+\);\n"
                                   r"        tp::smem_store_mma", r"\n        tp::smem_store_mma"),
    # A column statistic the threads wrote to SMEM read back whole before
    # all of them wrote it (softmax_columns.py: the barrier after
    # smem_store_row_lanes dropped).
    "column-vector-no-sync": (".cu", r"(tp::smem_store_row_lanes<\d+, float>\([^;]*\);\n)    tp::agent_sync\(\d+, \d+\);\n",
                              r"\1"),
    # A running sum whose lanes skip the totals of the lanes before them
    # (row_cumsum.py: each 32-element piece scanned alone).
    "scan-no-lane-prefix": ("runtime/frag.cuh", r"if \(inRow >= 1\)\n#pragma unroll\n        for",
                            "if (inRow < 0)\n#pragma unroll\n        for"),
    # A reverse scan over split rows taking the lanes before it, as the
    # forward scan does, instead of those after (row_suffix_sums.py).
    "scan-reverse-lanes-before": ("runtime/frag.cuh", r"return Rev \? lane \+ m : lane - m;",
                                  "return Rev ? lane - m : lane - m;"),
    # A 64-value vector summed over 128 threads with both copies of each
    # value counted (row64-reduce-all.mlir: tp::row64_once dropped).
    "row64-counted-twice": ("runtime/tmem.cuh", r"if \(threadInAgent & 16\)", "if (threadInAgent < 0)"),
    # A padded tile in the wgmma fragment's rows padded by the wrong extent
    # (attention_bias_mask.py: the bias's valid rows and columns swapped).
    "rows-padding-swapped": ("runtime/wgmma.cuh", r"if \(at.row\(slot\) >= validRows \|\|\n          at.template col<C>\(int\(c\) \+ j\) >= validCols\)",
                             "if (at.row(slot) >= validCols ||\n          at.template col<C>(int(c) + j) >= validRows)"),
    "load-one-base": ("runtime/threads.cuh", r"return inside \? p\[offset\] : T\(0\);",
                      "return inside ? p[0] : T(0);"),
    # A branch's TMA store not taken writes anyway: its box is left where
    # the branch put it instead of moved out of the tensor.
    "branch-store-taken": (".cu", r"(\w+) \? (\w+) : 1073741824;", r"\1 ? \2 : \2;"),
    # A per-row vector's atomic made by each of the L lanes that hold its
    # row, not the first (the mask SplitRows adds dropped).
    "combine-row-every-lane": (".cu",
                               r"tp::global_combine<(tp::Combine::\w+)>\((\w+), (\w+), \w+, ",
                               r"tp::global_combine<\1>(\2, \3, tp::splat<bool, 1>(true), "),
    # A one-element atomic combined by every thread of the agent, not one.
    "combine-one-every-thread": ("runtime/threads.cuh",
                                 r"if \(inside && threadInAgent == 0\)\n    detail::combine_one",
                                 "if (inside)\n    detail::combine_one"),
}


def plant(bug, cu, include, tmp):
    """(cu, include, line) with the bug planted: a patched copy of the .cu or
    of the headers, and the 1-based line of the planted change."""
    target, pattern, repl = SEEDED_BUGS[bug]
    if target == ".cu":
        text = open(cu).read()
    else:
        inc = os.path.join(tmp, "seeded-include")
        if os.path.exists(inc):
            shutil.rmtree(inc)
        shutil.copytree(include, inc)
        include = inc
        path = os.path.join(inc, "tilepipe", target)
        text = open(path).read()
    m = re.search(pattern, text)
    if not m:
        return None
    line = text.count("\n", 0, m.start()) + 1 + (1 if m.group(0).startswith("\n") else 0)
    text = text[:m.start()] + m.expand(repl) + text[m.end():]
    if target == ".cu":
        cu = os.path.join(tmp, f"seeded-{bug}.cu")
        open(cu, "w").write(text)
        return cu, include, f"{os.path.basename(cu)}:{line}"
    open(path, "w").write(text)
    return cu, include, f"tilepipe/{target}:{line}"


def load_specs(path):
    # A spec module beside specs.py may import it (test/numeric/cutile_specs.py).
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec = importlib.util.spec_from_file_location("specs", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.SPECS


# The g++ flags that decide the emulator binary's code: the precompiled
# runtime header is made with exactly these (scripts/kernelcache.py).
# -Wno-psabi: GCC notes that passing the 128-byte-aligned CUtensorMap by
# value changed ABI in GCC 4.6; nothing here links across it.
CPU_FLAGS = ["-std=c++17", "-O1", "-g0", "-Wno-psabi", "-DTILEPIPE_CPU", "-DTILEPIPE_MAIN"]


def compile_kernel(cu, exe, include, mode, build=None, arch="sm_100a", lib_include=None):
    """The same .cu file, its launcher and main: g++ against the CPU emulator,
    or nvcc for `arch` (the GPU check: sm_100a, or sm_90a for a kernel with
    no tcgen05 work); through the kernel cache under the build folder (the
    same text is compiled once)."""
    if mode == "gpu":
        num = arch[len("sm_"):]
        cmd = [NVCC, "-std=c++17", "-O2", "-gencode", f"arch=compute_{num},code={arch}",
               "-DTILEPIPE_MAIN", "-I", include, cu, "-o", exe]
        return kernelcache.compile(cmd, cu, exe, build)
    cmd = [CXX] + CPU_FLAGS[:4] + ["-x", "c++"] + CPU_FLAGS[4:] + ["-I", include, cu, "-o", exe]
    return kernelcache.compile(cmd, cu, exe, build, pch_flags=CPU_FLAGS, lib_include=lib_include)


def compare(name, got, ref, tol):
    """(ok, note) with the spec's per-type tolerance: |got - ref| <= atol +
    rtol * |ref| elementwise, or the spec's own elementwise bound when its
    reference comes with one; NaN never matches, an infinity matches the
    same infinity (the log-sum-exp of a split with no keys is -inf)."""
    bound = None
    if isinstance(ref, tuple):  # (reference, elementwise bound) from the spec
        ref, bound = ref
    if got.shape != ref.shape:
        return False, f"shape {got.shape} != reference {ref.shape}"
    with np.errstate(invalid="ignore"):
        err = np.abs(got.astype(np.float64) - ref)
    err[np.isinf(ref) & (got == ref)] = 0.0
    if bound is None:
        atol, rtol = tol
        bound = atol + rtol * np.abs(ref)
    bad = ~(err <= bound)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        return False, (f"{int(bad.sum())} of {bad.size} elements of {name} differ; first at "
                       f"{idx}: got {float(got[idx])!r}, want {float(ref[idx])!r} "
                       f"(allowed {float(bound[idx]):.3g})")
    return True, f"max |err| {float(err.max()) if err.size else 0.0:.3g}"


def run_problem(exe, spec, problem, tmp, seed, emu_seed, timeout):
    rng = np.random.default_rng(seed)
    inputs = spec.inputs(rng, problem)
    got, note, secs = execute(exe, spec, problem, inputs, tmp, emu_seed, timeout)
    if got is None:
        return False, note, secs
    return (*judge(spec, got, spec.reference(inputs, problem)), secs)


def execute(exe, spec, problem, inputs, tmp, emu_seed, timeout):
    """({output name: array}, "", seconds), or (None, why, seconds): the
    binary run on `inputs` through the generated main's interface (NAME=FILE
    per tensor, NAME=VALUE per scalar, --out/--shape per output, --grid and
    the emulator's --seed)."""
    args = [exe]
    for name, arr in inputs.items():
        path = os.path.join(tmp, f"in_{name}.npy")
        np.save(path, arr)
        args.append(f"{name}={path}")
    for name, value in spec.scalars(problem).items():
        args.append(f"{name}={value}")
    outs = spec.outputs(problem)
    for name, shape in outs.items():
        path = os.path.join(tmp, f"out_{name}.npy")
        if os.path.exists(path):
            os.remove(path)
        args += ["--out", f"{name}={path}", "--shape", f"{name}={','.join(map(str, shape))}"]
    args += ["--grid", ",".join(map(str, spec.grid(problem))), "--seed", str(emu_seed)]
    start = time.time()
    try:
        proc = run_binary(args, timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s", time.time() - start
    secs = time.time() - start
    if proc.returncode:
        return None, f"exit {proc.returncode}:\n{proc.stdout.strip()}", secs
    return {name: np.load(os.path.join(tmp, f"out_{name}.npy")) for name in outs}, "", secs


def run_binary(args, timeout):
    """subprocess.run of a binary this process just wrote. Another thread's
    fork can still hold the binary's write descriptor (inherited until that
    child execs), and exec then fails with ETXTBSY: a race, so try again."""
    for attempt in range(20):
        try:
            return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, timeout=timeout)
        except OSError as e:
            if e.errno != errno.ETXTBSY or attempt == 19:
                raise
            time.sleep(0.05 * (attempt + 1))


def judge(spec, got, ref):
    """(all outputs within the spec's tolerance, note)."""
    notes = []
    for name in got:
        ok, note = compare(name, got[name], ref[name], spec.tolerance[name])
        if not ok:
            return False, note
        notes.append(note)
    return True, "; ".join(notes)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kernels", nargs="*", help="spec names (default: all)")
    ap.add_argument("--build", default="build")
    ap.add_argument("--include", default=INCLUDE)
    ap.add_argument("--specs", default=os.path.join(SRC, "test", "numeric", "specs.py"))
    ap.add_argument("--cu", help="use this .cu instead of translating")
    ap.add_argument("--seed-bug", choices=sorted(SEEDED_BUGS),
                    help="plant this bug; success is then some run failing")
    ap.add_argument("--emu-seeds", default="1", help="emulator seeds, comma separated")
    ap.add_argument("--quick", action="store_true", help="only each spec's quick problems")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--keep", help="keep the work files in this folder")
    ap.add_argument("--mode", choices=["cpu", "gpu"], default="cpu",
                    help="run on the CPU emulator (default) or on the GPU (nvcc, --arch)")
    ap.add_argument("--arch", choices=["sm_100a", "sm_90a"], default="sm_100a",
                    help="with --mode gpu: the target nvcc builds for (sm_90a: a Hopper, for "
                         "kernels with no tcgen05 work)")
    ap.add_argument("--target", choices=["sm_100a", "sm_90a"],
                    help="schedule, materialize and translate for this target (sm_90a: the loop "
                         "rewritten for wgmma first, docs/retarget.md); default: the spec's, else "
                         "sm_100a")
    ap.add_argument("--compare-cpu", action="store_true",
                    help="with --mode gpu: also run the CPU emulator on the same inputs")
    args = ap.parse_args()
    specs = load_specs(args.specs)
    names = args.kernels or list(specs)
    tmp_ctx = tempfile.TemporaryDirectory()
    tmp = args.keep or tmp_ctx.name
    os.makedirs(tmp, exist_ok=True)
    # The kernels are checked side by side (translated, compiled and run in
    # their own folders, each emulator run in a CPU slot shared with the
    # other tests: scripts/kernelcache.py); their lines are printed in the
    # order of the command line, each kernel's when it is done.
    jobs = max(1, int(os.environ.get("TILEPIPE_TEST_JOBS", os.cpu_count() or 1)))
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=min(jobs, len(names)) or 1)
    futures = [pool.submit(check_kernel, args, specs[name], name, kernel_folder(tmp, names, i))
               for i, name in enumerate(names)]
    # Every kernel is reported, also after one whose step failed (exit 2).
    status, step_failed = 0, False
    try:
        for future in futures:
            lines, bits = future.result()
            for line in lines:
                print(line, flush=True)
            if bits == 2:
                step_failed = True
            else:
                status |= bits
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return 2 if step_failed else status


def kernel_folder(tmp, names, i):
    """The work folder of the i-th kernel: its name (an index too when the
    command line names it twice)."""
    name = names[i] if names.count(names[i]) == 1 else f"{names[i]}.{i}"
    folder = os.path.join(tmp, name)
    os.makedirs(folder, exist_ok=True)
    return folder


def lower_as_compile(source, build, tmp, spec, name, out, target):
    """lower()'s result for the spec's options, with the fallbacks of
    `tilepipe compile` where the spec leaves the choice open: where
    warp-specialized stage code fails (a statistic between two loops would
    sit outside the agents), peeled stage code; where both run out of SMEM,
    the schedule's stages placed for the fewest buffered bytes
    (stages=min-buffer), warp-specialized then peeled. A line says which."""
    materialize = getattr(spec, "materialize", "")
    schedule = getattr(spec, "schedule", "")
    translate = getattr(spec, "translate", "")
    failure = []
    lowered = lower(source, build, tmp, materialize, name, log=failure.append, target=target,
                    translate=translate, schedule=schedule)
    if lowered:
        return lowered
    mode_open, stages_open = "mode=" not in materialize, "stages=" not in schedule
    text = failure[0] if failure else ""
    error = next((line for line in text.splitlines() if "error:" in line), "")
    peeled = (materialize + " mode=unspecialized").strip()
    min_buffer = (schedule + " stages=min-buffer").strip()

    def over_smem(lines):
        return any("fails to assign smem buffer" in t or "of shared memory; a CTA has" in t
                   for t in lines)

    # (schedule, materialize, what, only after an SMEM failure)
    attempts = []
    if mode_open:
        attempts.append((schedule, peeled, "peeled stage code", False))
    if stages_open:
        attempts.append((min_buffer, materialize, "stages=min-buffer", True))
        if mode_open:
            attempts.append((min_buffer, peeled, "peeled stage code with stages=min-buffer", True))
    smem = over_smem(failure)
    for sched, mat, what, for_smem in attempts:
        if for_smem and not smem:
            continue
        tried = []
        lowered = lower(source, build, tmp, mat, name, log=tried.append, target=target,
                        translate=translate, schedule=sched)
        if lowered:
            first = "warp-specialized stage code" if what == "peeled stage code" else \
                "the default schedule's stage code"
            out.append(f"{name}: {first} failed ({error.strip()}); checked as {what}, "
                       "as 'tilepipe compile' falls back to")
            return lowered
        smem = smem or over_smem(tried)
    out.extend(failure)
    return None


def check_kernel(args, spec, name, tmp):
    """(lines to print, status bits) of one kernel: 0 when every run matches
    (or a planted bug is caught), 1 otherwise, 2 when a step fails to run."""
    out = []
    target = args.target or getattr(spec, "target", None)
    register_mma = target in REGISTER_MMA_TARGETS
    if args.cu:
        cu = args.cu
        # A cuTile spec learns its arguments' meaning from the lowering.
        if hasattr(spec, "prepare") and not spec.prepare(args.build, tmp, out.append, register_mma):
            return out, 2
    else:
        # A spec whose tile IR is made when the test runs (a cuTile kernel
        # lowered from its bytecode) says where it is.
        source = (spec.prepare(args.build, tmp, out.append, register_mma)
                  if hasattr(spec, "prepare") else os.path.join(SRC, spec.mlir))
        if not source:
            return out, 2
        lowered = lower_as_compile(source, args.build, tmp, spec, name, out, target)
        if not lowered:
            return out, 2
        cu = lowered[1]
    include = args.include
    planted = lib_include = None
    if args.seed_bug:
        seeded = plant(args.seed_bug, cu, include, tmp)
        if not seeded:
            out.append(f"{name}: seeded {args.seed_bug}: not applicable (no site in this kernel)")
            return out, 1
        cu, include, planted = seeded
        # A bug planted in the kernel-side atoms (runtime/, layout/) leaves
        # the emulator and the main's helpers as they are: the kernel links
        # the library made from the clean headers (docs/testing.md, "CI
        # time, sixth round"); the patched atoms are compiled into the
        # kernel's own object, which the linker reads first.
        if SEEDED_BUGS[args.seed_bug][0].startswith(("runtime/", "layout/")):
            lib_include = args.include
    exes = []
    modes = [args.mode] + (["cpu"] if args.mode == "gpu" and args.compare_cpu else [])
    for mode in modes:
        exe = os.path.join(tmp, f"{name}.{mode}")
        cc = compile_kernel(cu, exe, include, mode, args.build, getattr(args, "arch", "sm_100a"),
                            lib_include)
        if cc.returncode:
            out.append(f"{name}: {mode} build failed\n{cc.stdout[-6000:]}")
            return out, 2
        exes.append((mode, exe))
    problems = spec.problems(quick=args.quick)
    runs = ok = 0
    caught = None
    for p_index, problem in enumerate(problems):
        if caught:
            break
        for mode, exe in exes:
            seeds = args.emu_seeds.split(",") if mode == "cpu" else ["0"]
            for emu_seed in [int(s) for s in seeds]:
                runs += 1
                with kernelcache.Slot(args.build):
                    good, note, secs = run_problem(exe, spec, problem, tmp, 1000 + p_index,
                                                   emu_seed, args.timeout)
                ok += good
                verdict = "match" if good else "MISMATCH" if "differ" in note else "FAIL"
                if planted and not good and not caught:
                    caught = f"{verdict} at {spec.describe(problem)} {mode} seed {emu_seed}: {note}"
                    break
                where = f"emu-seed {emu_seed}" if mode == "cpu" else "gpu"
                out.append(f"{name} {spec.describe(problem)} {where}: {verdict} "
                           f"({note}; {secs:.2f} s)")
    if planted:
        if caught:
            out.append(f"{name}: seeded {args.seed_bug} at {planted}: caught ({caught[:2000]})")
            return out, 0
        out.append(f"{name}: seeded {args.seed_bug} at {planted}: NOT caught in {runs} runs")
        return out, 1
    out.append(f"{name}: {ok} of {runs} runs match the reference")
    return out, int(ok != runs)

if __name__ == "__main__":
    sys.exit(main())
