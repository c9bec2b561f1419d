// A GEMM mainloop over an i32 trip count (a kernel argument): rows count from
// it sign-extended (in an int32_t, widened), each row's i32 value is the row
// truncated, and the protocol harness finds the argument that sets the trip
// count through the index_cast (it printed "no parameter sets ..." before).
// RUN: tilepipe-translate --tileas-to-cuda %S/Inputs/stage/i32-trips.mlir | FileCheck %s
// (this loop's stage code, checked in by scripts/stage-inputs.py)
// CHECK: void i32_trips({{.*}}, int32_t [[TRIPS:v[0-9]+]])
// CHECK: if ((tp_warp >= 0 && tp_warp < 1)) {
// CHECK: int64_t [[T64:v[0-9]+]] = (int64_t) [[TRIPS]];
// CHECK-NEXT: int64_t [[N:v[0-9]+]] = tp::max_i([[T64]], 0);
// CHECK-NEXT: int32_t [[N32:v[0-9]+]] = (int32_t) [[N]];
// CHECK-NEXT: for (int32_t [[C:v[0-9]+]] = 0; [[C]] < [[N32]]; [[C]] += 1) {
// CHECK-NEXT: int64_t [[ROW:v[0-9]+]] = (int64_t) [[C]];
// CHECK-NEXT: int32_t [[I:v[0-9]+]] = (int32_t) [[ROW]];
// CHECK-NEXT: int32_t {{v[0-9]+}} = tp::shli<int32_t>([[I]], 6);
// CHECK-NOT: no parameter sets the trip count
// CHECK: i32_trips<<<(unsigned)c, 256, sizeof(tp_smem_i32_trips)>>>(desc, desc, desc, (int64_t)(t * 1));
func.func @i32_trips(%descA: !tileas.tma_desc<128x64xbf16>,
                    %descB: !tileas.tma_desc<256x64xbf16>,
                    %descC: !tileas.tma_desc<128x256xbf16>, %trips: i32) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c6 = arith.constant 6 : i32
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %i = %z to %trips step %one
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) : i32 {
    %k32 = arith.shli %i, %c6 : i32
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
