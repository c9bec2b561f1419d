// RUN: tilepipe-opt %s -split-input-file -verify-diagnostics

// The verifiers of rows split over lanes: one message per rule.

func.func @rows_times_lanes(%s: !tileas.smem<32x256xf32>) {
  // expected-error @+1 {{'tileas.smem_load' op with lanes = 8 expects the register tile to be 128 x (C / 8) for an R x C tile with R * 8 = 128, a vector of 128 for one of R, or a vector of C, got 32x256xf32 and 128x32xf32}}
  %r = tileas.smem_load %s {lanes = 8} : !tileas.smem<32x256xf32> -> tensor<128x32xf32>
  return
}

// -----

func.func @store_no_vector(%r: tensor<128x64xf32>) {
  // expected-error @+1 {{'tileas.smem_store' op with lanes = 4 expects the register tile to be 128 x (C / 4) for an R x C tile with R * 4 = 128, a vector of 128 for one of R, got 256xf32 and 128x64xf32}}
  %s = tileas.smem_store %r {lanes = 4} : tensor<128x64xf32> -> !tileas.smem<256xf32>
  return
}

// -----

func.func @kind(%p: tensor<128xf32>) {
  // expected-error @+1 {{'tileas.reduce_lanes' op expects kind "sum" or "max", got "min"}}
  %t = tileas.reduce_lanes %p {kind = "min", lanes = 4} : tensor<128xf32>
  return
}

// -----

func.func @lanes_past_the_vector(%p: tensor<64xf32>) {
  // expected-error @+1 {{'tileas.reduce_lanes' op expects lanes a power of two of at most 128 that divides the length 64, got 128}}
  %t = tileas.reduce_lanes %p {kind = "max", lanes = 128} : tensor<64xf32>
  return
}

// -----

func.func @reduce_all_type(%p: tensor<1024xf32>) {
  // expected-error @+1 {{'tileas.reduce_all' op expects a vector and a result of its element type, got 'tensor<1024xf32>' -> 'f16'}}
  %t = tileas.reduce_all %p {kind = "max"} : tensor<1024xf32> -> f16
  return
}
