module {
  func.func @attn(%arg0: !tileas.smem<128x128xbf16>, %arg1: !tileas.tma_desc<64x128xbf16>, %arg2: !tileas.tma_desc<128x64xbf16>, %arg3: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %cst = arith.constant dense<0xFF800000> : tensor<128xf32>
    %0 = tileas.alloc_tmem : !tileas.tmem<128x64xf32>
    %1 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
    %2:2 = scf.for %arg4 = %c0 to %arg3 step %c1 iter_args(%arg5 = %cst, %arg6 = %1) -> (tensor<128xf32>, !tileas.tmem<128x128xf32>) {
      %3 = arith.muli %arg4, %c64 {tileas.schedule.cycle = 0 : i64, tileas.schedule.order = 0 : i32, tileas.schedule.stage = 0 : i32} : index
      %4 = tileas.tma_load %arg1[%3, %c0] {tileas.schedule.cycle = 2 : i64, tileas.schedule.order = 1 : i32, tileas.schedule.stage = 0 : i32} : !tileas.tma_desc<64x128xbf16> -> !tileas.smem<64x128xbf16>
      %5 = tileas.tma_load %arg2[%c0, %3] {tileas.schedule.cycle = 258 : i64, tileas.schedule.order = 2 : i32, tileas.schedule.stage = 0 : i32} : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
      %6 = tileas.umma %arg0, %4, %0 {tileas.schedule.cycle = 3592 : i64, tileas.schedule.order = 3 : i32, tileas.schedule.stage = 5 : i32} : !tileas.smem<128x128xbf16>, !tileas.smem<64x128xbf16>, !tileas.tmem<128x64xf32> -> !tileas.tmem<128x64xf32>
      %7 = tileas.tmem_load %6 {tileas.schedule.cycle = 3984 : i64, tileas.schedule.order = 4 : i32, tileas.schedule.stage = 6 : i32} : !tileas.tmem<128x64xf32> -> tensor<128x64xf32>
      %8 = tileas.reduce_max %7 {tileas.schedule.cycle = 4098 : i64, tileas.schedule.order = 5 : i32, tileas.schedule.stage = 6 : i32} : tensor<128x64xf32> -> tensor<128xf32>
      %9 = tileas.max %arg5, %8 {tileas.schedule.cycle = 4368 : i64, tileas.schedule.order = 6 : i32, tileas.schedule.stage = 6 : i32} : tensor<128xf32>, tensor<128xf32>
      %10 = tileas.sub %7, %9 {tileas.schedule.cycle = 4376 : i64, tileas.schedule.order = 7 : i32, tileas.schedule.stage = 6 : i32} : tensor<128x64xf32>, tensor<128xf32>
      %11 = tileas.exp2 %10 {tileas.schedule.cycle = 4636 : i64, tileas.schedule.order = 8 : i32, tileas.schedule.stage = 7 : i32} : tensor<128x64xf32>
      %12 = tileas.cvt %11 {tileas.schedule.cycle = 5168 : i64, tileas.schedule.order = 9 : i32, tileas.schedule.stage = 8 : i32} : tensor<128x64xf32> -> tensor<128x64xbf16>
      %13 = tileas.tmem_store %12 {tileas.schedule.cycle = 5300 : i64, tileas.schedule.order = 10 : i32, tileas.schedule.stage = 8 : i32} : tensor<128x64xbf16> -> !tileas.tmem<128x64xbf16>
      %14 = tileas.umma %13, %5, %arg6 {accumulate, tileas.schedule.cycle = 5896 : i64, tileas.schedule.order = 11 : i32, tileas.schedule.stage = 9 : i32} : !tileas.tmem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
      scf.yield %9, %14 : tensor<128xf32>, !tileas.tmem<128x128xf32>
    } {tileas.schedule.generator = "cost-based", tileas.schedule.ii = 1800 : i32, tileas.schedule.mii = 512 : i32, tileas.schedule.stages = 10 : i32}
    return
  }
}

