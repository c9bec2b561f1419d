// Stage code of test/lit/cuda/Inputs/cpasync-rowsum.mlir for the translation tests: made once from the
// repository root by scripts/stage-inputs.py, that is by
//   tilepipe-opt test/lit/cuda/Inputs/cpasync-rowsum.mlir --tileas-generate-schedule --tileas-materialize-schedule -canonicalize -cse
// The tests that read it run only tilepipe-translate (docs/testing.md).

#loc1 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":3:1)
#loc2 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":3:27)
#loc3 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":4:28)
#loc4 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":5:28)
#loc6 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":6:9)
#loc7 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":7:9)
#loc8 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":8:11)
#loc9 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":9:8)
#loc10 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":10:8)
#loc11 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":11:12)
#loc12 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":12:10)
#loc13 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":13:10)
#loc14 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":14:10)
#loc15 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":15:10)
#loc16 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":18:9)
#loc17 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":19:3)
#loc18 = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":20:3)
module {
  func.func @cpasync_rowsum(%arg0: memref<4096x64xf32> {tileas.name = "src"} loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":3:27), %arg1: index {tileas.name = "n"} loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":4:28), %arg2: !tileas.tma_desc<128xf32> {tileas.name = "out"} loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":5:28)) attributes {tileas.src = #loc1} {
    %c0 = arith.constant {tileas.src = #loc6} 0 : index loc(#loc5)
    %c1 = arith.constant {tileas.src = #loc7} 1 : index loc(#loc5)
    %c128 = arith.constant {tileas.src = #loc8} 128 : index loc(#loc8)
    %cst = arith.constant {tileas.src = #loc9} dense<0.000000e+00> : tensor<128xf32> loc(#loc9)
    %0 = tileas.pipe.create {bytes = 32768 : i64, consumers = ["simt"], depth = 2 : i32, order = 1 : i32, producer = "cpasync", stage = 0 : i32, tileas.src = #loc10} : !tileas.pipe<!tileas.smem<128x64xf32>> loc(#loc10)
    tileas.agent {order = 1 : i32, role = "load", stage = 0 : i32, tileas.src = #loc10, warps = 1 : i32} {
      %1 = arith.maxsi %arg1, %c0 {tileas.src = #loc10} : index loc(#loc10)
      scf.for %arg3 = %c0 to %1 step %c1 {
        %2 = arith.muli %arg3, %c128 {tileas.schedule.cycle = 0 : i64, tileas.schedule.order = 0 : i32, tileas.schedule.stage = 0 : i32, tileas.src = #loc11} : index loc(#loc11)
        %3 = tileas.pipe.producer_acquire %0, %arg3 {order = 1 : i32, stage = 0 : i32, tileas.src = #loc10} : !tileas.pipe<!tileas.smem<128x64xf32>> -> !tileas.smem<128x64xf32> loc(#loc10)
        %4 = tileas.cp_async %arg0[%2, %c0] into %3 {tileas.schedule.cycle = 2 : i64, tileas.schedule.order = 1 : i32, tileas.schedule.stage = 0 : i32, tileas.src = #loc12} : memref<4096x64xf32> -> !tileas.smem<128x64xf32> loc(#loc12)
        tileas.pipe.producer_commit %0, %arg3, %4 {order = 1 : i32, stage = 0 : i32, tileas.src = #loc10, via = "cpasync_arrive"} : !tileas.pipe<!tileas.smem<128x64xf32>> loc(#loc10)
      } {tileas.schedule.generator = "cost-based", tileas.schedule.ii = 1311 : i32, tileas.schedule.mii = 1311 : i32, tileas.schedule.stages = 2 : i32, tileas.src = #loc10} loc(#loc10)
      tileas.agent_yield {tileas.src = #loc10} loc(#loc10)
    } loc(#loc10)
    tileas.agent {order = 2 : i32, role = "simt", stage = 1 : i32, tileas.src = #loc10, warps = 4 : i32} {
      %1 = arith.maxsi %arg1, %c0 {tileas.src = #loc10} : index loc(#loc10)
      %2:2 = scf.for %arg3 = %c0 to %1 step %c1 iter_args(%arg4 = %cst, %arg5 = %cst) -> (tensor<128xf32>, tensor<128xf32>) {
        %4 = tileas.pipe.consumer_wait %0, %arg3 {order = 2 : i32, stage = 1 : i32, tileas.src = #loc10} : !tileas.pipe<!tileas.smem<128x64xf32>> -> !tileas.smem<128x64xf32> loc(#loc10)
        %5 = tileas.smem_load %4 {tileas.schedule.cycle = 1602 : i64, tileas.schedule.order = 2 : i32, tileas.schedule.stage = 1 : i32, tileas.src = #loc13} : !tileas.smem<128x64xf32> -> tensor<128x64xf32> loc(#loc13)
        tileas.pipe.consumer_release %0, %arg3 {order = 2 : i32, stage = 1 : i32, tileas.src = #loc10, via = "arrive"} : !tileas.pipe<!tileas.smem<128x64xf32>> loc(#loc10)
        %6 = tileas.reduce_sum %5 {tileas.schedule.cycle = 1753 : i64, tileas.schedule.order = 3 : i32, tileas.schedule.stage = 1 : i32, tileas.src = #loc14} : tensor<128x64xf32> -> tensor<128xf32> loc(#loc14)
        %7 = tileas.add %arg5, %6 {tileas.schedule.cycle = 2023 : i64, tileas.schedule.order = 4 : i32, tileas.schedule.stage = 1 : i32, tileas.src = #loc15} : tensor<128xf32>, tensor<128xf32> loc(#loc15)
        scf.yield {tileas.src = #loc10} %7, %7 : tensor<128xf32>, tensor<128xf32> loc(#loc10)
      } {tileas.schedule.generator = "cost-based", tileas.schedule.ii = 1311 : i32, tileas.schedule.mii = 1311 : i32, tileas.schedule.stages = 2 : i32, tileas.src = #loc10} loc(#loc10)
      %3 = tileas.smem_store %2#0 {tileas.src = #loc16} : tensor<128xf32> -> !tileas.smem<128xf32> loc(#loc16)
      tileas.tma_store %3, %arg2[%c0] {tileas.src = #loc17} : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32> loc(#loc17)
      tileas.agent_yield {tileas.src = #loc10} loc(#loc10)
    } loc(#loc10)
    return {tileas.src = #loc18} loc(#loc18)
  } loc(#loc1)
} loc(#loc)
#loc = loc("test/lit/cuda/Inputs/cpasync-rowsum.mlir":0:0)
#loc5 = loc(unknown)

