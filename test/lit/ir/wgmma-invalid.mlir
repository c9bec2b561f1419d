// RUN: tilepipe-opt %s -split-input-file -verify-diagnostics

// tileas.wgmma's verifier: each message names the PTX rule it applies
// (layout/wgmma_shapes.h; the whole table is checked by wgmma-shapes.test).

func.func @m(%a: !tileas.smem<96x16xbf16>, %b: !tileas.smem<64x16xbf16>, %c: tensor<96x64xf32>) {
  // expected-error @+1 {{expects a bf16 wgmma tile of a legal M, got M = 96 (96x64x16 MxNxK); rule: wgmma.mma_async takes M = 64 rows per warpgroup: a tile's M is a multiple of 64, one warpgroup per 64 rows, at most 4 (256); tileas.wgmma also takes a tile of 8, 16 or 32 rows, issued as 64}}
  %d = tileas.wgmma %a, %b, %c : !tileas.smem<96x16xbf16>, !tileas.smem<64x16xbf16>, tensor<96x64xf32> -> tensor<96x64xf32>
  return
}

// -----

// 8, 16 and 32 rows are taken, A in SMEM or in registers (issued as 64,
// ir/WgmmaStaging.h); 48 rows are not.
func.func @m48_register_a(%a: tensor<48x16xbf16>, %b: !tileas.smem<64x16xbf16>, %c: tensor<48x64xf32>) {
  // expected-error @+1 {{expects a bf16 wgmma tile of a legal M, got M = 48 (48x64x16 MxNxK)}}
  %d = tileas.wgmma %a, %b, %c : tensor<48x16xbf16>, !tileas.smem<64x16xbf16>, tensor<48x64xf32> -> tensor<48x64xf32>
  return
}

// -----

func.func @n(%a: !tileas.smem<64x16xf16>, %b: !tileas.smem<264x16xf16>, %c: tensor<64x264xf32>) {
  // expected-error @+1 {{got N = 264 (64x264x16 MxNxK); rule: wgmma.mma_async takes N = 8..256 in steps of 8 (s8/u8: 8, 16, 24, then 32..256 in steps of 16)}}
  %d = tileas.wgmma %a, %b, %c : !tileas.smem<64x16xf16>, !tileas.smem<264x16xf16>, tensor<64x264xf32> -> tensor<64x264xf32>
  return
}

// -----

func.func @n_int8(%a: !tileas.smem<64x32xi8>, %b: !tileas.smem<40x32xi8>, %c: tensor<64x40xi32>) {
  // expected-error @+1 {{expects a s8/u8 wgmma tile of a legal N, got N = 40}}
  %d = tileas.wgmma %a, %b, %c : !tileas.smem<64x32xi8>, !tileas.smem<40x32xi8>, tensor<64x40xi32> -> tensor<64x40xi32>
  return
}

// -----

func.func @k(%a: !tileas.smem<64x12xf32>, %b: !tileas.smem<64x12xf32>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{expects a tf32 wgmma tile of a legal K, got K = 12}}
  %d = tileas.wgmma %a, %b, %c : !tileas.smem<64x12xf32>, !tileas.smem<64x12xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @k_f8(%a: !tileas.smem<64x16xf8E4M3FN>, %b: !tileas.smem<64x16xf8E4M3FN>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{expects a e4m3/e5m2 wgmma tile of a legal K, got K = 16 (64x64x16 MxNxK); rule: a tile's K is whole wgmma.mma_async instructions of 32 bytes of K: a multiple of 16 (f16/bf16), 8 (tf32) or 32 (8-bit types)}}
  %d = tileas.wgmma %a, %b, %c : !tileas.smem<64x16xf8E4M3FN>, !tileas.smem<64x16xf8E4M3FN>, tensor<64x64xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @acc(%a: !tileas.smem<64x16xbf16>, %b: !tileas.smem<64x16xbf16>, %c: tensor<64x64xf16>) {
  // expected-error @+1 {{expects a legal accumulator for bf16 operands, got 'f16'; rule: wgmma.mma_async accumulates f16 operands in f32 or f16, bf16 and tf32 in f32, e4m3/e5m2 in f32 or f16, s8/u8 in s32}}
  %d = tileas.wgmma %a, %b, %c : !tileas.smem<64x16xbf16>, !tileas.smem<64x16xbf16>, tensor<64x64xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @types(%a: !tileas.smem<64x16xf16>, %b: !tileas.smem<64x16xbf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{expects A and B of one wgmma type family, got 'f16' and 'bf16'; rule: wgmma.mma_async multiplies f16 x f16, bf16 x bf16, tf32 x tf32 (f32 tiles), any two of e4m3/e5m2, or any two of s8/u8}}
  %d = tileas.wgmma %a, %b, %c : !tileas.smem<64x16xf16>, !tileas.smem<64x16xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  return
}

// -----

// tf32 and 8-bit operands given MN-major in SMEM are staged K-major by the
// sm_90a translation (ir/WgmmaStaging.h; s8/u8 since session 49); an A in
// registers is never MN-major.
func.func @transpose_s8_register_a(%a: tensor<32x64xi8>, %b: !tileas.smem<64x32xi8>, %c: tensor<64x64xi32>) {
  // expected-error @+1 {{expects no MN-major A here (s8/u8, A in registers); rule: wgmma.mma_async transposes (imm-trans-a/b) only f16 and bf16 operands in shared memory; an A in registers is read M x K}}
  %d = tileas.wgmma %a, %b, %c {a_mn_major} : tensor<32x64xi8>, !tileas.smem<64x32xi8>, tensor<64x64xi32> -> tensor<64x64xi32>
  return
}

// -----

func.func @transpose_reg_a(%a: tensor<16x64xbf16>, %b: !tileas.smem<64x16xbf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{expects no MN-major A here (bf16, A in registers)}}
  %d = tileas.wgmma %a, %b, %c {a_mn_major} : tensor<16x64xbf16>, !tileas.smem<64x16xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @acc_shape(%a: !tileas.smem<64x16xbf16>, %b: !tileas.smem<64x16xbf16>, %c: tensor<64x128xf32>) {
  // expected-error @+1 {{expects the accumulator to be MxN = 64x64, got 'tensor<64x128xf32>'}}
  %d = tileas.wgmma %a, %b, %c : !tileas.smem<64x16xbf16>, !tileas.smem<64x16xbf16>, tensor<64x128xf32> -> tensor<64x128xf32>
  return
}

// -----

func.func @k_mismatch(%a: !tileas.smem<64x16xbf16>, %b: !tileas.smem<64x32xbf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{expects A and B with the same K}}
  %d = tileas.wgmma %a, %b, %c : !tileas.smem<64x16xbf16>, !tileas.smem<64x32xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  return
}

// -----

// A u8 operand (`a_unsigned`) is an 8-bit integer one.
func.func @unsigned_f8(%a: !tileas.smem<64x32xf8E4M3FN>, %b: !tileas.smem<64x32xf8E4M3FN>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tileas.wgmma' op expects `a_unsigned` only on an 8-bit integer operand, got A of 'f8E4M3FN'}}
  %d = tileas.wgmma %a, %b, %c {a_unsigned} : !tileas.smem<64x32xf8E4M3FN>, !tileas.smem<64x32xf8E4M3FN>, tensor<64x64xf32> -> tensor<64x64xf32>
  return
}
