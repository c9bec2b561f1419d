// cuTile's FMHA sample at head dim 64 (test/cutile/lower/kernels/attention_fmha.py
// with D = 64), lowered by --tileir-to-tileas -canonicalize -cse: its two
// loops made one (register-budget.mlir).
module {
  func.func @fmha_gqa64(%arg0: !tileas.tma_desc<1x1x128x64xbf16> {tileas.cutile.source = {array = 0 : i64}, tileas.name = "param0"}, %arg1: !tileas.tma_desc<1x1x128x64xbf16> {tileas.cutile.source = {array = 1 : i64}, tileas.name = "param1"}, %arg2: !tileas.tma_desc<1x1x128x64xbf16> {tileas.cutile.source = {array = 2 : i64}, tileas.name = "param2"}, %arg3: !tileas.tma_desc<1x1x128x64xbf16> {tileas.cutile.source = {array = 3 : i64}, tileas.name = "param3"}, %arg4: i32 {tileas.cutile.source = {array = 0 : i64, shape = 1 : i64}, tileas.name = "param0_shape1"}, %arg5: i32 {tileas.cutile.source = {array = 1 : i64, shape = 2 : i64}, tileas.name = "param1_shape2"}, %arg6: f32 {tileas.cutile.source = {scalar = 4 : i64}, tileas.name = "param4"}) attributes {tileas.cutile.params = [{dtype = bf16, index = i32, kind = "array", name = "param0", rank = 4 : i64}, {dtype = bf16, index = i32, kind = "array", name = "param1", rank = 4 : i64}, {dtype = bf16, index = i32, kind = "array", name = "param2", rank = 4 : i64}, {dtype = bf16, index = i32, kind = "array", name = "param3", rank = 4 : i64}, {dtype = f32, kind = "scalar", name = "param4"}]} {
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0xFF800000> : tensor<128x128xf32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %c128 = arith.constant 128 : index
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %cst_2 = arith.constant dense<0xFF800000> : tensor<128xf32>
    %cst_3 = arith.constant 1.44269502 : f32
    %c0_i32 = arith.constant 0 : i32
    %c2_i32 = arith.constant 2 : i32
    %c128_i32 = arith.constant 128 : i32
    %c1_i32 = arith.constant 1 : i32
    %0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
    %1 = tileas.alloc_tmem : !tileas.tmem<128x64xf32>
    %block_id_x = gpu.block_id  x
    %2 = arith.index_cast %block_id_x : index to i32
    %block_id_y = gpu.block_id  y
    %3 = arith.index_cast %block_id_y : index to i32
    %4 = arith.floordivsi %3, %arg4 : i32
    %5 = arith.remsi %3, %arg4 : i32
    %6 = arith.cmpi slt, %5, %c0_i32 : i32
    %7 = arith.cmpi slt, %arg4, %c0_i32 : i32
    %8 = arith.xori %6, %7 : i1
    %9 = arith.cmpi ne, %5, %c0_i32 : i32
    %10 = arith.andi %8, %9 : i1
    %11 = arith.addi %5, %arg4 : i32
    %12 = arith.select %10, %11, %5 : i32
    %13 = arith.floordivsi %12, %c2_i32 : i32
    %14 = arith.muli %2, %c128_i32 : i32
    %15 = arith.index_cast %4 : i32 to index
    %16 = arith.index_cast %12 : i32 to index
    %17 = arith.muli %block_id_x, %c128 : index
    %18 = tileas.tma_load %arg0[%15, %16, %17, %c0] : !tileas.tma_desc<1x1x128x64xbf16> -> !tileas.smem<128x64xbf16>
    %19 = arith.addi %2, %c1_i32 : i32
    %20 = arith.muli %19, %c128_i32 : i32
    %21 = arith.minsi %20, %arg5 : i32
    %22 = arith.ceildivsi %21, %c128_i32 : i32
    %23 = arith.floordivsi %14, %c128_i32 : i32
    %24:3 = scf.for %arg7 = %c0_i32 to %22 step %c1_i32 iter_args(%arg8 = %1, %arg9 = %cst_1, %arg10 = %cst_2) -> (!tileas.tmem<128x64xf32>, tensor<128xf32>, tensor<128xf32>)  : i32 {
      %30 = arith.cmpi sge, %arg7, %23 : i32
      %31 = tileas.tmem_load %arg8 : !tileas.tmem<128x64xf32> -> tensor<128x64xf32>
      %32 = arith.index_cast %13 : i32 to index
      %33 = arith.index_cast %arg7 : i32 to index
      %34 = arith.muli %33, %c128 : index
      %35 = tileas.tma_load %arg1[%15, %32, %34, %c0] : !tileas.tma_desc<1x1x128x64xbf16> -> !tileas.smem<128x64xbf16>
      %36 = tileas.umma %18, %35, %0 : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
      %37 = tileas.tmem_load %36 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
      %38 = arith.muli %arg7, %c128_i32 : i32
      %splat = tensor.splat %14 : tensor<128x128xi32>
      %39 = tileas.iota dimension = 0 : tensor<128x128xi32>
      %40 = arith.addi %splat, %39 : tensor<128x128xi32>
      %splat_4 = tensor.splat %38 : tensor<128x128xi32>
      %41 = tileas.iota dimension = 1 : tensor<128x128xi32>
      %42 = arith.addi %splat_4, %41 : tensor<128x128xi32>
      %43 = arith.cmpi sge, %40, %42 : tensor<128x128xi32>
      %44 = arith.select %43, %cst_0, %cst : tensor<128x128xi1>, tensor<128x128xf32>
      %45 = arith.addf %37, %44 : tensor<128x128xf32>
      %splat_5 = tensor.splat %30 : tensor<128x128xi1>
      %46 = arith.select %splat_5, %45, %37 : tensor<128x128xi1>, tensor<128x128xf32>
      %47 = tileas.reduce_max %46 : tensor<128x128xf32> -> tensor<128xf32>
      %48 = arith.mulf %arg6, %cst_3 : f32
      %splat_6 = tensor.splat %48 : tensor<128xf32>
      %49 = arith.mulf %47, %splat_6 : tensor<128xf32>
      %50 = arith.maxnumf %arg10, %49 : tensor<128xf32>
      %51 = tileas.broadcast %50 dimensions = [1] : tensor<128xf32> -> tensor<128x128xf32>
      %52 = arith.negf %51 : tensor<128x128xf32>
      %splat_7 = tensor.splat %48 : tensor<128x128xf32>
      %53 = math.fma %46, %splat_7, %52 : tensor<128x128xf32>
      %54 = math.exp2 %53 : tensor<128x128xf32>
      %55 = tileas.reduce_sum %54 : tensor<128x128xf32> -> tensor<128xf32>
      %56 = arith.subf %arg10, %50 : tensor<128xf32>
      %57 = math.exp2 %56 : tensor<128xf32>
      %58 = math.fma %arg9, %57, %55 : tensor<128xf32>
      %59 = tileas.broadcast %57 dimensions = [1] : tensor<128xf32> -> tensor<128x64xf32>
      %60 = arith.mulf %31, %59 : tensor<128x64xf32>
      %61 = tileas.tma_load %arg2[%15, %32, %34, %c0] : !tileas.tma_desc<1x1x128x64xbf16> -> !tileas.smem<128x64xbf16>
      %62 = tileas.cvt %54 : tensor<128x128xf32> -> tensor<128x128xbf16>
      %63 = tileas.tmem_store %62 : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
      %64 = tileas.tmem_store %60 : tensor<128x64xf32> -> !tileas.tmem<128x64xf32>
      %65 = tileas.umma %63, %61, %64 {accumulate, b_mn_major} : !tileas.tmem<128x128xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x64xf32> -> !tileas.tmem<128x64xf32>
      scf.yield %65, %58, %50 : !tileas.tmem<128x64xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %25 = tileas.tmem_load %24#0 : !tileas.tmem<128x64xf32> -> tensor<128x64xf32>
    %26 = tileas.broadcast %24#1 dimensions = [1] : tensor<128xf32> -> tensor<128x64xf32>
    %27 = arith.divf %25, %26 : tensor<128x64xf32>
    %28 = tileas.cvt %27 : tensor<128x64xf32> -> tensor<128x64xbf16>
    %29 = tileas.smem_store %28 : tensor<128x64xbf16> -> !tileas.smem<128x64xbf16>
    tileas.tma_store %29, %arg3[%15, %16, %17, %c0] : !tileas.smem<128x64xbf16>, !tileas.tma_desc<1x1x128x64xbf16>
    return
  }
}

