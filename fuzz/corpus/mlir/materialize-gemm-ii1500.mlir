module {
  func.func @gemm(%arg0: !tileas.tma_desc<128x64xbf16>, %arg1: !tileas.tma_desc<128x64xbf16>, %arg2: !tileas.tma_desc<128x128xbf16>, %arg3: index, %arg4: index, %arg5: index) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
    %1 = scf.for %arg6 = %c0 to %arg5 step %c64 iter_args(%arg7 = %0) -> (!tileas.tmem<128x128xf32>) {
      %5 = tileas.tma_load %arg0[%arg3, %arg6] {tileas.schedule.cycle = 0 : i64, tileas.schedule.order = 0 : i32, tileas.schedule.stage = 0 : i32} : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
      %6 = tileas.tma_load %arg1[%arg4, %arg6] {tileas.schedule.cycle = 256 : i64, tileas.schedule.order = 1 : i32, tileas.schedule.stage = 0 : i32} : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
      %7 = tileas.umma %5, %6, %arg7 {accumulate, tileas.schedule.cycle = 3846 : i64, tileas.schedule.order = 2 : i32, tileas.schedule.stage = 7 : i32} : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
      scf.yield %7 : !tileas.tmem<128x128xf32>
    } {tileas.schedule.generator = "cost-based", tileas.schedule.ii = 1500 : i32, tileas.schedule.mii = 512 : i32, tileas.schedule.stages = 9 : i32}
    %2 = tileas.tmem_load %1 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %3 = tileas.cvt %2 : tensor<128x128xf32> -> tensor<128x128xbf16>
    %4 = tileas.smem_store %3 : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
    tileas.tma_store %4, %arg2[%arg3, %arg4] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
    return
  }
}

