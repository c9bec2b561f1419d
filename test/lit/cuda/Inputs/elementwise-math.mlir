// The float functions of math and arith on register tiles, in one plainly
// written streaming loop with a scale passed in as a scalar (tensor.splat):
//   u = |x|, y = sqrt(u) + log(u + 1) rsqrt(x x + 1) - min(x, s) / (1 + u)
//                + tanh(x) log2(u + 2) + fma(sin x, cos x, erf(x / 4))
//                + (maxnum(x, s) + minnum(x, s)) / 8
// CTA b owns rows 128 b .. 128 b + 127 and walks `tiles` column tiles of 64.
func.func @elementwise_math(%descX: !tileas.tma_desc<128x64xf32> {tileas.name = "X"},
                            %descY: !tileas.tma_desc<128x64xf32> {tileas.name = "Y"},
                            %s: f32 {tileas.name = "s"},
                            %tiles: index {tileas.name = "tiles"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %row = arith.muli %bx, %c128 : index
  %one = arith.constant dense<1.0> : tensor<128x64xf32>
  %two = arith.constant dense<2.0> : tensor<128x64xf32>
  %quarter = arith.constant dense<0.25> : tensor<128x64xf32>
  %eighth = arith.constant dense<0.125> : tensor<128x64xf32>
  %sv = tensor.splat %s : tensor<128x64xf32>
  scf.for %j = %c0 to %tiles step %c1 {
    %col = arith.muli %j, %c64 : index
    %t = tileas.tma_load %descX[%row, %col] : !tileas.tma_desc<128x64xf32> -> !tileas.smem<128x64xf32>
    %x = tileas.smem_load %t : !tileas.smem<128x64xf32> -> tensor<128x64xf32>
    %u = math.absf %x : tensor<128x64xf32>
    %a = math.sqrt %u : tensor<128x64xf32>
    %u1 = arith.addf %u, %one : tensor<128x64xf32>
    %l = math.log %u1 : tensor<128x64xf32>
    %xx = arith.mulf %x, %x : tensor<128x64xf32>
    %xx1 = arith.addf %xx, %one : tensor<128x64xf32>
    %r = math.rsqrt %xx1 : tensor<128x64xf32>
    %b = arith.mulf %l, %r : tensor<128x64xf32>
    %m = arith.minimumf %x, %sv : tensor<128x64xf32>
    %c = arith.divf %m, %u1 : tensor<128x64xf32>
    %th = math.tanh %x : tensor<128x64xf32>
    %u2 = arith.addf %u, %two : tensor<128x64xf32>
    %lg = math.log2 %u2 : tensor<128x64xf32>
    %d = arith.mulf %th, %lg : tensor<128x64xf32>
    %ab = arith.addf %a, %b : tensor<128x64xf32>
    %abc = arith.subf %ab, %c : tensor<128x64xf32>
    %abcd = arith.addf %abc, %d : tensor<128x64xf32>
    %sn = math.sin %x : tensor<128x64xf32>
    %cs = math.cos %x : tensor<128x64xf32>
    %xq = arith.mulf %x, %quarter : tensor<128x64xf32>
    %er = math.erf %xq : tensor<128x64xf32>
    %f = math.fma %sn, %cs, %er : tensor<128x64xf32>
    %mx = arith.maxnumf %x, %sv : tensor<128x64xf32>
    %mn = arith.minnumf %x, %sv : tensor<128x64xf32>
    %mm = arith.addf %mx, %mn : tensor<128x64xf32>
    %g = arith.mulf %mm, %eighth : tensor<128x64xf32>
    %fg = arith.addf %f, %g : tensor<128x64xf32>
    %y = arith.addf %abcd, %fg : tensor<128x64xf32>
    %o = tileas.smem_store %y : tensor<128x64xf32> -> !tileas.smem<128x64xf32>
    tileas.tma_store %o, %descY[%row, %col] : !tileas.smem<128x64xf32>, !tileas.tma_desc<128x64xf32>
  }
  return
}
