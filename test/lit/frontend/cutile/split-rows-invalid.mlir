// RUN: tilepipe-opt %s --tileas-split-rows -split-input-file -verify-diagnostics

// What splitting rows over lanes refuses, each at the op, saying why.

func.func @columns_not_divisible(%s: !tileas.smem<16x4xf32>) -> !tileas.smem<16x4xf32> {
  // expected-error @+1 {{a register tile of 16 x 4 has its rows split over 8 threads each (the translation gives a row a thread of 128); its columns must divide by 8}}
  %x = tileas.smem_load %s : !tileas.smem<16x4xf32> -> tensor<16x4xf32>
  %y = tileas.smem_store %x : tensor<16x4xf32> -> !tileas.smem<16x4xf32>
  return %y : !tileas.smem<16x4xf32>
}

// -----

func.func @column_from_a_reduction(%s: !tileas.smem<32x128xf32>, %t: !tileas.smem<128x64xf32>) -> !tileas.smem<32x128xf32> {
  %x = tileas.smem_load %s : !tileas.smem<32x128xf32> -> tensor<32x128xf32>
  %u = tileas.smem_load %t : !tileas.smem<128x64xf32> -> tensor<128x64xf32>
  // expected-error @+1 {{a per-column vector spread over a tile whose rows are split over 4 lanes is read from shared memory (a 1-D load) or computed elementwise from such vectors, not made by tileas.reduce_max}}
  %c = tileas.reduce_max %u : tensor<128x64xf32> -> tensor<128xf32>
  %b = tileas.broadcast %c dimensions = [0] : tensor<128xf32> -> tensor<32x128xf32>
  %y = arith.addf %x, %b : tensor<32x128xf32>
  %o = tileas.smem_store %y : tensor<32x128xf32> -> !tileas.smem<32x128xf32>
  return %o : !tileas.smem<32x128xf32>
}

// -----

func.func @row_vector_gathered(%s: !tileas.smem<16x256xf32>, %g: memref<?xf32>, %i: tensor<16xi32>, %st: index, %n: index) -> !tileas.smem<16x256xf32> {
  %x = tileas.smem_load %s : !tileas.smem<16x256xf32> -> tensor<16x256xf32>
  // expected-error @+1 {{makes a per-row vector of a tile whose rows are split over 8 lanes, which only elementwise math, loops, reductions, positions, gathers at positions made here and 1-D loads do here}}
  %v = tileas.global_gather %g[%i : tensor<16xi32>] strides(%st) bounds(%n) padding = 0.0 : f32 : memref<?xf32> -> tensor<16xf32>
  %b = tileas.broadcast %v dimensions = [1] : tensor<16xf32> -> tensor<16x256xf32>
  %y = arith.addf %x, %b : tensor<16x256xf32>
  %o = tileas.smem_store %y : tensor<16x256xf32> -> !tileas.smem<16x256xf32>
  return %o : !tileas.smem<16x256xf32>
}
