// Loops whose induction variable is i16, i32 or i64 (scf.for ... : iN), as
// users write them when trip counts come from i32 kernel arguments: the
// stage code counts rows in index, from the bounds sign-extended to index
// (scf.for compares signed), and each row's induction value is lb + i * step
// computed in the loop's own type. Bad loops are refused at the user's line.
// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule \
// RUN:   --tileas-materialize-schedule -canonicalize -cse -verify-diagnostics \
// RUN: | FileCheck %s
// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule \
// RUN:   --tileas-materialize-schedule=mode=unspecialized -canonicalize -cse \
// RUN:   -verify-diagnostics | FileCheck %s --check-prefix=PEELED

// CHECK-LABEL: func.func @i16_loop
// CHECK: tileas.agent {{.*}}role = "load"
// CHECK: [[UB:%[0-9]+]] = arith.index_cast %arg3 {{.*}}: i16 to index
// CHECK: [[N:%[0-9]+]] = arith.maxsi [[UB]], %c0 {{.*}}: index
// CHECK: scf.for [[ROW:%arg[0-9]+]] = %c0 to [[N]] step %c1
// CHECK: [[I:%[0-9]+]] = arith.index_cast [[ROW]] {{.*}}: index to i16
// CHECK: arith.extsi [[I]] {{.*}}: i16 to i32
// PEELED-LABEL: func.func @i16_loop
// PEELED: arith.index_cast %arg3 {{.*}}: i16 to index
// PEELED: arith.index_cast %{{[0-9a-z]+}} {{.*}}: index to i16
func.func @i16_loop(%descA: !tileas.tma_desc<128x64xbf16>,
                    %descB: !tileas.tma_desc<256x64xbf16>,
                    %descC: !tileas.tma_desc<128x256xbf16>, %trips: i16) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i16
  %one = arith.constant 1 : i16
  %c6 = arith.constant 6 : i32
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %i = %z to %trips step %one
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) : i16 {
    %i32 = arith.extsi %i : i16 to i32
    %k32 = arith.shli %i32, %c6 : i32
    %k = arith.index_cast %k32 : i32 to index
    %a = tileas.tma_load %descA[%c0, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%c0, %k] : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
  %o = tileas.cvt %r : tensor<128x256xf32> -> tensor<128x256xbf16>
  %s = tileas.smem_store %o : tensor<128x256xbf16> -> !tileas.smem<128x256xbf16>
  tileas.tma_store %s, %descC[%c0, %c0] : !tileas.smem<128x256xbf16>, !tileas.tma_desc<128x256xbf16>
  return
}

// -----

// An i64 loop from a lower bound and step: ceil((ub - lb) / step) rows, and
// the induction value lb + i * step in i64.
// CHECK-LABEL: func.func @i64_strided
// CHECK: tileas.agent {{.*}}role = "load"
// CHECK: [[UB:%[0-9]+]] = arith.index_cast %arg3 {{.*}}: i64 to index
// CHECK: [[SPAN:%[0-9]+]] = arith.subi [[UB]], %c5 {{.*}}: index
// CHECK: arith.ceildivsi [[SPAN]], %c3 {{.*}}: index
// CHECK: [[I:%[0-9]+]] = arith.index_cast %{{arg[0-9]+}} {{.*}}: index to i64
// CHECK: [[S:%[0-9]+]] = arith.muli [[I]], %c3_i64 {{.*}}: i64
// CHECK: arith.addi [[S]], %c5_i64 {{.*}}: i64
func.func @i64_strided(%descA: !tileas.tma_desc<128x64xbf16>,
                       %descB: !tileas.tma_desc<256x64xbf16>,
                       %descC: !tileas.tma_desc<128x256xbf16>, %ub: i64) {
  %c0 = arith.constant 0 : index
  %lb = arith.constant 5 : i64
  %step = arith.constant 3 : i64
  %c64 = arith.constant 64 : i64
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %i = %lb to %ub step %step
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) : i64 {
    %k64 = arith.muli %i, %c64 : i64
    %k = arith.index_cast %k64 : i64 to index
    %a = tileas.tma_load %descA[%c0, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%c0, %k] : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
  %o = tileas.cvt %r : tensor<128x256xf32> -> tensor<128x256xbf16>
  %s = tileas.smem_store %o : tensor<128x256xbf16> -> !tileas.smem<128x256xbf16>
  tileas.tma_store %s, %descC[%c0, %c0] : !tileas.smem<128x256xbf16>, !tileas.tma_desc<128x256xbf16>
  return
}

// -----

// A float induction variable: refused by scf.for's verifier at the loop.
func.func @float_iv(%descA: !tileas.tma_desc<128x64xbf16>, %n: f32) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{'scf.for' op operand #0 must be signless integer or index, but got 'f32'}}
  scf.for %i = %z to %n step %one : f32 {
    %a = tileas.tma_load %descA[%c0, %c0] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  }
  return
}

// -----

// Bounds of different types: refused where the loop reads them.
func.func @mixed_bounds(%descA: !tileas.tma_desc<128x64xbf16>, %n: i32) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  // expected-note @+1 {{prior use here}}
  %one = arith.constant 1 : index
  // expected-error @+1 {{use of value '%one' expects different type than prior uses: 'i32' vs 'index'}}
  scf.for %i = %z to %n step %one : i32 {
    %a = tileas.tma_load %descA[%c0, %c0] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  }
  return
}

// -----

// An i1 loop stepping by true: its step is -1 (i1 is signed in scf.for's
// bounds), which the check of the original loop refuses at the loop.
func.func @i1_step(%descA: !tileas.tma_desc<128x64xbf16>,
                   %descB: !tileas.tma_desc<256x64xbf16>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant false
  %t = arith.constant true
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  // expected-error @+3 {{loop step -1 <= 0}}
  // expected-note @+2 {{in the stage code of this loop}}
  // expected-remark @+1 {{pipes not joined}}
  %acc = scf.for %i = %f to %t step %t
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) : i1 {
    %a = tileas.tma_load %descA[%c0, %c0] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%c0, %c0] : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  return
}
