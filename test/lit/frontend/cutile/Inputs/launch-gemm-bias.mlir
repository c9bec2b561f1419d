// What the cuTile lowering writes for a GEMM with a bias epilogue, by hand:
// C = alpha * (A . B) + bias[n], bf16 A (M x K) and B (K x N, N contiguous:
// cuTile's mma(a, b, acc) takes B as it lies, so the UMMA reads it
// MN-major), f32 bias and alpha, bf16 C. The cuTile kernel's parameters,
// in the order its bytecode entry lists them after flattening
// (cutile_python_v1): A, B, bias, C arrays with 32-bit shapes and strides,
// then the f32 scalar alpha. Each CTA computes one 128 x 128 tile of C;
// the trip count is ceildiv(K, 64) with K = A.shape[1].
func.func @gemm_bias(
    %descA: !tileas.tma_desc<128x64xbf16>
        {tileas.name = "A", tileas.cutile.source = {array = 0 : i64}},
    %descB: !tileas.tma_desc<64x128xbf16>
        {tileas.name = "B", tileas.cutile.source = {array = 1 : i64}},
    %descBias: !tileas.tma_desc<128xf32>
        {tileas.name = "bias", tileas.cutile.source = {array = 2 : i64}},
    %descC: !tileas.tma_desc<128x128xbf16>
        {tileas.name = "C", tileas.cutile.source = {array = 3 : i64}},
    %K: index {tileas.name = "K",
               tileas.cutile.source = {array = 0 : i64, shape = 1 : i64}},
    %alpha: f32 {tileas.name = "alpha",
                 tileas.cutile.source = {scalar = 4 : i64}})
    attributes {tileas.cutile.params = [
      {kind = "array", dtype = bf16, rank = 2 : i64, index = i32},
      {kind = "array", dtype = bf16, rank = 2 : i64, index = i32},
      {kind = "array", dtype = f32, rank = 1 : i64, index = i32},
      {kind = "array", dtype = bf16, rank = 2 : i64, index = i32},
      {kind = "scalar", dtype = f32}]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c128 : index
  %trips = arith.ceildivui %K, %c64 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc = scf.for %t = %c0 to %trips step %c1
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %k = arith.muli %t, %c64 : index
    %a = tileas.tma_load %descA[%m, %k]
        : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%k, %n]
        : !tileas.tma_desc<64x128xbf16> -> !tileas.smem<64x128xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate, b_mn_major}
        : !tileas.smem<128x64xbf16>, !tileas.smem<64x128xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %bs = tileas.tma_load %descBias[%n]
      : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  %bias = tileas.smem_load %bs : !tileas.smem<128xf32> -> tensor<128xf32>
  %bt = tileas.broadcast %bias dimensions = [0]
      : tensor<128xf32> -> tensor<128x128xf32>
  %x = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %xs = tileas.mul %x, %alpha : tensor<128x128xf32>, f32
  %y = tileas.add %xs, %bt : tensor<128x128xf32>, tensor<128x128xf32>
  %yb = tileas.cvt %y : tensor<128x128xf32> -> tensor<128x128xbf16>
  %o = tileas.smem_store %yb : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %o, %descC[%m, %n]
      : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
