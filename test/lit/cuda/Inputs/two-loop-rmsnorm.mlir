// RMSNorm in two loops over 64-column chunks of a 128-row block (cuTile's
// rmsnorm sample, test/cutile/fixtures/rmsnorm-13.4.tileirbc, as the
// lowering writes it, at 128 x 64 tiles): the first loop sums the squares,
// the second scales X by rsqrt(mean + 1e-6) and W and stores Y. Peeled, the
// second loop's rings lie over the first's (KernelLayout.cpp,
// overlaySequentialLoops). Y = X rsqrt(sum X^2 / N + 1e-6) W, bf16.
module {
  func.func @rmsnorm_two_loops(%arg0: !tileas.tma_desc<128x64xbf16> {tileas.name = "X"}, %arg1: !tileas.tma_desc<64xbf16> {tileas.name = "W"}, %arg2: !tileas.tma_desc<128x64xbf16> {tileas.name = "Y"}, %arg3: i32 {tileas.name = "N"}) {
    %c1_i32 = arith.constant 1 : i32
    %c1_i32_0 = arith.constant 1 : i32
    %c1_i32_1 = arith.constant 1 : i32
    %cst = arith.constant 9.99999997E-7 : f32
    %block_id_x = gpu.block_id  x
    %0 = arith.index_cast %block_id_x : index to i32
    %c256_i32 = arith.constant 64 : i32
    %1 = arith.ceildivsi %arg3, %c256_i32 : i32
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32_3 = arith.constant 1 : i32
    %2 = scf.for %arg4 = %c0_i32 to %1 step %c1_i32_3 iter_args(%arg5 = %cst_2) -> (tensor<128xf32>)  : i32 {
      %8 = arith.index_cast %0 : i32 to index
      %c32 = arith.constant 128 : index
      %9 = arith.muli %8, %c32 : index
      %10 = arith.index_cast %arg4 : i32 to index
      %c256 = arith.constant 64 : index
      %11 = arith.muli %10, %c256 : index
      %12 = tileas.tma_load %arg0[%9, %11] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
      %13 = tileas.smem_load %12 : !tileas.smem<128x64xbf16> -> tensor<128x64xbf16>
      %14 = tileas.cvt %13 : tensor<128x64xbf16> -> tensor<128x64xf32>
      %15 = arith.mulf %14, %14 : tensor<128x64xf32>
      %16 = tileas.reduce_sum %15 : tensor<128x64xf32> -> tensor<128xf32>
      %17 = arith.addf %arg5, %16 : tensor<128xf32>
      scf.yield %17 : tensor<128xf32>
    }
    %3 = arith.sitofp %arg3 : i32 to f32
    %splat = tensor.splat %3 : tensor<128xf32>
    %4 = arith.divf %2, %splat : tensor<128xf32>
    %cst_4 = arith.constant dense<9.99999997E-7> : tensor<128xf32>
    %5 = arith.addf %4, %cst_4 : tensor<128xf32>
    %6 = math.rsqrt %5 : tensor<128xf32>
    %c0_i32_5 = arith.constant 0 : i32
    %c1_i32_6 = arith.constant 1 : i32
    %7 = tileas.broadcast %6 dimensions = [1] : tensor<128xf32> -> tensor<128x64xf32>
    scf.for %arg4 = %c0_i32_5 to %1 step %c1_i32_6  : i32 {
      %8 = arith.index_cast %0 : i32 to index
      %c32 = arith.constant 128 : index
      %9 = arith.muli %8, %c32 : index
      %10 = arith.index_cast %arg4 : i32 to index
      %c256 = arith.constant 64 : index
      %11 = arith.muli %10, %c256 : index
      %12 = tileas.tma_load %arg0[%9, %11] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
      %13 = tileas.smem_load %12 : !tileas.smem<128x64xbf16> -> tensor<128x64xbf16>
      %14 = arith.index_cast %arg4 : i32 to index
      %c256_7 = arith.constant 64 : index
      %15 = arith.muli %14, %c256_7 : index
      %16 = tileas.tma_load %arg1[%15] : !tileas.tma_desc<64xbf16> -> !tileas.smem<64xbf16>
      %17 = tileas.smem_load %16 : !tileas.smem<64xbf16> -> tensor<64xbf16>
      %18 = tileas.cvt %13 : tensor<128x64xbf16> -> tensor<128x64xf32>
      %19 = arith.mulf %18, %7 : tensor<128x64xf32>
      %20 = tileas.cvt %17 : tensor<64xbf16> -> tensor<64xf32>
      %21 = tileas.broadcast %20 dimensions = [0] : tensor<64xf32> -> tensor<128x64xf32>
      %22 = arith.mulf %19, %21 : tensor<128x64xf32>
      %23 = tileas.cvt %22 : tensor<128x64xf32> -> tensor<128x64xbf16>
      %24 = arith.index_cast %0 : i32 to index
      %c32_8 = arith.constant 128 : index
      %25 = arith.muli %24, %c32_8 : index
      %26 = arith.index_cast %arg4 : i32 to index
      %c256_9 = arith.constant 64 : index
      %27 = arith.muli %26, %c256_9 : index
      %28 = tileas.smem_store %23 : tensor<128x64xbf16> -> !tileas.smem<128x64xbf16>
      tileas.tma_store %28, %arg2[%25, %27] : !tileas.smem<128x64xbf16>, !tileas.tma_desc<128x64xbf16>
    }
    return
  }
}

