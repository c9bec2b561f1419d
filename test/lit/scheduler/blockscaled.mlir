// RUN: tilepipe-opt %examples/gemm_blockscaled_fp8.mlir --tileas-generate-schedule=print-schedule -o %t.example.mlir | FileCheck %s --check-prefix=TABLE
// RUN: FileCheck %s --check-prefix=IR < %t.example.mlir
// RUN: tilepipe-opt %s --tileas-generate-schedule | FileCheck %s --check-prefix=RATE

// The block-scaled FP8 GEMM example schedules; its scale-factor copies
// (tmem_copy, tcgen05.cp) are SSA predecessors of the scaled UMMA, so they
// are seated before it (the table lists ops by cycle), on the tensor core's
// issue slot, and the UMMA has the FP8 class.

// TABLE: op class cycle stage order  slots
// TABLE: tileas.tma_load tma_load
// TABLE: = tileas.tmem_copy tmem_copy {{.*}} tc_and_mma+tp_smem_rd
// TABLE-NEXT: = tileas.tmem_copy tmem_copy {{.*}} tc_and_mma+tp_smem_rd
// TABLE-NEXT: = tileas.umma umma_f8 {{.*}} tc_and_mma+tp_mma+tp_smem_rd

// IR: %[[SFA:.*]] = tileas.tmem_copy %{{.*}} {tileas.schedule.cycle
// IR: %[[SFB:.*]] = tileas.tmem_copy %{{.*}} {tileas.schedule.cycle
// IR: tileas.umma %{{.*}}, %{{.*}}, %{{.*}} scale(%[[SFA]], %[[SFB]]) {accumulate, tileas.schedule.cycle
// IR: } {tileas.schedule.generator = "cost-based"

// An FP8 UMMA with K=128 costs what a BF16 one with K=64 costs at equal M,N
// (blackwell-facts 1.2/1.3: FP8 K=32 in the cycles of BF16 K=16): 512 cycles
// on the tensor core (the II, also the accumulator recurrence) and a
// latency of 512 + 136, after which the accumulator can be read.

// RATE-LABEL: func.func @bf16_k64
// RATE: tileas.umma {{.*}}tileas.schedule.cycle = 0 : i64
// RATE: tileas.tmem_load {{.*}}tileas.schedule.cycle = 648 : i64
// RATE: tileas.schedule.ii = 512 : i32, tileas.schedule.mii = 512 : i32
func.func @bf16_k64(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<256x64xbf16>,
                    %acc0: !tileas.tmem<128x256xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc = scf.for %i = %c0 to %n step %c1
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>,
          !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    %r = tileas.tmem_load %d : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  return
}

// RATE-LABEL: func.func @fp8_k128
// RATE: tileas.umma {{.*}}tileas.schedule.cycle = 0 : i64
// RATE: tileas.tmem_load {{.*}}tileas.schedule.cycle = 648 : i64
// RATE: tileas.schedule.ii = 512 : i32, tileas.schedule.mii = 512 : i32
func.func @fp8_k128(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<256x128xf8E4M3FN>,
                    %acc0: !tileas.tmem<128x256xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc = scf.for %i = %c0 to %n step %c1
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<256x128xf8E4M3FN>,
          !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    %r = tileas.tmem_load %d : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  return
}

// The same with block scaling: the two scale-factor copies (512 B and 1 KiB
// at 128 B/clk: 4 and 8 cycles) share the tensor core's issue slot with the
// UMMA, so the II is 512 + 4 + 8; the UMMA waits for the later copy.
// RATE-LABEL: func.func @mxfp8_k128
// RATE: tileas.tmem_copy {{.*}}tileas.schedule.cycle = 8 : i64
// RATE: tileas.tmem_copy {{.*}}tileas.schedule.cycle = 0 : i64
// RATE: tileas.umma {{.*}}tileas.schedule.cycle = 12 : i64
// RATE: tileas.schedule.ii = 524 : i32, tileas.schedule.mii = 524 : i32
func.func @mxfp8_k128(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<256x128xf8E4M3FN>,
                      %sa: !tileas.smem<128x4xui8>, %sb: !tileas.smem<128x8xui8>,
                      %acc0: !tileas.tmem<128x256xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc = scf.for %i = %c0 to %n step %c1
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %sfa = tileas.tmem_copy %sa : !tileas.smem<128x4xui8> -> !tileas.tmem<128x4xui8>
    %sfb = tileas.tmem_copy %sb : !tileas.smem<128x8xui8> -> !tileas.tmem<128x8xui8>
    %d = tileas.umma %a, %b, %accIn scale(%sfa, %sfb) {accumulate}
        : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<256x128xf8E4M3FN>,
          !tileas.tmem<128x256xf32>
          scale(!tileas.tmem<128x4xui8>, !tileas.tmem<128x8xui8>)
        -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  return
}
