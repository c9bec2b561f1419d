// A fresh kernel (session 28), written as a user would: a transformer
// block's output projection with its bias, LayerScale and the residual
// add fused into the GEMM's epilogue, as inference libraries fuse them:
//   D[m, n] = R[m, n] + gamma[n] * ((X . W^T)[m, n] + bias[n]),
// X the block's activations (M x K), W nn.Linear's weight (N x K), f16 X,
// W, R and D, f32 bias and gamma; 128 x 256 tiles, K-block 64; grid x over
// M tiles, y over N tiles. The residual and both vectors are brought in by
// TMA after the loop.
func.func @layerscale_residual(%descX: !tileas.tma_desc<128x64xf16> {tileas.name = "X"},
                               %descW: !tileas.tma_desc<256x64xf16> {tileas.name = "W"},
                               %descBias: !tileas.tma_desc<256xf32> {tileas.name = "bias"},
                               %descGamma: !tileas.tma_desc<256xf32> {tileas.name = "gamma"},
                               %descR: !tileas.tma_desc<128x256xf16> {tileas.name = "R"},
                               %descD: !tileas.tma_desc<128x256xf16> {tileas.name = "D"},
                               %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c256 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %x = tileas.tma_load %descX[%m, %k] : !tileas.tma_desc<128x64xf16> -> !tileas.smem<128x64xf16>
    %w = tileas.tma_load %descW[%n, %k] : !tileas.tma_desc<256x64xf16> -> !tileas.smem<256x64xf16>
    %d = tileas.umma %x, %w, %accIn {accumulate}
        : !tileas.smem<128x64xf16>, !tileas.smem<256x64xf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  %bs = tileas.tma_load %descBias[%n] : !tileas.tma_desc<256xf32> -> !tileas.smem<256xf32>
  %gs = tileas.tma_load %descGamma[%n] : !tileas.tma_desc<256xf32> -> !tileas.smem<256xf32>
  %rs = tileas.tma_load %descR[%m, %n] : !tileas.tma_desc<128x256xf16> -> !tileas.smem<128x256xf16>
  %bias = tileas.smem_load %bs : !tileas.smem<256xf32> -> tensor<256xf32>
  %gamma = tileas.smem_load %gs : !tileas.smem<256xf32> -> tensor<256xf32>
  %bt = tileas.broadcast %bias dimensions = [0] : tensor<256xf32> -> tensor<128x256xf32>
  %gt = tileas.broadcast %gamma dimensions = [0] : tensor<256xf32> -> tensor<128x256xf32>
  %y = tileas.tmem_load %acc : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
  %yb = arith.addf %y, %bt : tensor<128x256xf32>
  %ys = arith.mulf %yb, %gt : tensor<128x256xf32>
  %r = tileas.smem_load %rs : !tileas.smem<128x256xf16> -> tensor<128x256xf16>
  %rf = arith.extf %r : tensor<128x256xf16> to tensor<128x256xf32>
  %out = arith.addf %rf, %ys : tensor<128x256xf32>
  %oh = arith.truncf %out : tensor<128x256xf32> to tensor<128x256xf16>
  %s = tileas.smem_store %oh : tensor<128x256xf16> -> !tileas.smem<128x256xf16>
  tileas.tma_store %s, %descD[%m, %n] : !tileas.smem<128x256xf16>, !tileas.tma_desc<128x256xf16>
  return
}
