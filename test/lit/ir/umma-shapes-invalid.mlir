// RUN: tilepipe-opt %s -split-input-file -verify-diagnostics

// The tcgen05.mma shape and accumulator rules of tileas.umma (issue 35,
// point 2; layout/mma_shapes.h, which the runtime's static_asserts share):
// M = 64 or 128 (block-scaled: 128), N = 8..256 in steps of 8 (kind::i8:
// 8, 16, 24, then steps of 16), K whole instructions of 32 bytes, and the
// accumulator types per kind. Each message names its rule. The accepted
// side of every boundary is in umma-shapes.mlir.

func.func @m96(%a: !tileas.smem<96x64xbf16>, %b: !tileas.smem<128x64xbf16>, %acc: !tileas.tmem<96x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::f16 MMA of a legal M, got M = 96 (96x128x64 MxNxK); rule: tcgen05.mma cta_group::1 takes M = 64 or 128 rows per CTA (the block-scaled kind::mxf8f6f4: M = 128)}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<96x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<96x128xf32> -> !tileas.tmem<96x128xf32>
  return
}

// -----

func.func @m32_tf32(%a: !tileas.smem<32x32xf32>, %b: !tileas.smem<64x32xf32>, %acc: !tileas.tmem<32x64xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::tf32 MMA of a legal M, got M = 32 (32x64x32 MxNxK); rule: tcgen05.mma cta_group::1 takes M = 64 or 128 rows per CTA (the block-scaled kind::mxf8f6f4: M = 128)}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<32x32xf32>, !tileas.smem<64x32xf32>, !tileas.tmem<32x64xf32> -> !tileas.tmem<32x64xf32>
  return
}

// -----

func.func @n4(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<4x64xbf16>, %acc: !tileas.tmem<128x4xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::f16 MMA of a legal N, got N = 4 (128x4x64 MxNxK); rule: tcgen05.mma cta_group::1 takes N = 8..256 in steps of 8 (kind::i8: 8, 16, 24, then 32..256 in steps of 16)}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xbf16>, !tileas.smem<4x64xbf16>, !tileas.tmem<128x4xf32> -> !tileas.tmem<128x4xf32>
  return
}

// -----

func.func @n12_m64(%a: !tileas.smem<64x64xf16>, %b: !tileas.smem<12x64xf16>, %acc: !tileas.tmem<64x12xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::f16 MMA of a legal N, got N = 12 (64x12x64 MxNxK); rule: tcgen05.mma cta_group::1 takes N = 8..256 in steps of 8 (kind::i8: 8, 16, 24, then 32..256 in steps of 16)}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<64x64xf16>, !tileas.smem<12x64xf16>, !tileas.tmem<64x12xf32> -> !tileas.tmem<64x12xf32>
  return
}

// -----

func.func @n264(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<264x64xbf16>, %acc: !tileas.tmem<128x264xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::f16 MMA of a legal N, got N = 264 (128x264x64 MxNxK); rule: tcgen05.mma cta_group::1 takes N = 8..256 in steps of 8 (kind::i8: 8, 16, 24, then 32..256 in steps of 16)}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xbf16>, !tileas.smem<264x64xbf16>, !tileas.tmem<128x264xf32> -> !tileas.tmem<128x264xf32>
  return
}

// -----

func.func @n20_fp8(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<20x128xf8E4M3FN>, %acc: !tileas.tmem<128x20xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::f8f6f4 MMA of a legal N, got N = 20 (128x20x128 MxNxK); rule: tcgen05.mma cta_group::1 takes N = 8..256 in steps of 8 (kind::i8: 8, 16, 24, then 32..256 in steps of 16)}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<20x128xf8E4M3FN>, !tileas.tmem<128x20xf32> -> !tileas.tmem<128x20xf32>
  return
}

// -----

func.func @n40_i8(%a: !tileas.smem<128x64xi8>, %b: !tileas.smem<40x64xi8>, %acc: !tileas.tmem<128x40xi32>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::i8 MMA of a legal N, got N = 40 (128x40x64 MxNxK); rule: tcgen05.mma cta_group::1 takes N = 8..256 in steps of 8 (kind::i8: 8, 16, 24, then 32..256 in steps of 16)}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xi8>, !tileas.smem<40x64xi8>, !tileas.tmem<128x40xi32> -> !tileas.tmem<128x40xi32>
  return
}

// -----

func.func @k8_bf16(%a: !tileas.smem<128x8xbf16>, %b: !tileas.smem<128x8xbf16>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::f16 MMA of a legal K, got K = 8 (128x128x8 MxNxK); rule: a tile's K is whole tcgen05.mma instructions of 32 bytes of K: a multiple of 16 (f16/bf16), 8 (tf32) or 32 (8-bit types)}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x8xbf16>, !tileas.smem<128x8xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @k24_f16(%a: !tileas.smem<128x24xf16>, %b: !tileas.smem<128x24xf16>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::f16 MMA of a legal K, got K = 24 (128x128x24 MxNxK); rule: a tile's K is whole tcgen05.mma instructions of 32 bytes of K: a multiple of 16 (f16/bf16), 8 (tf32) or 32 (8-bit types)}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x24xf16>, !tileas.smem<128x24xf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @k4_tf32(%a: !tileas.smem<128x4xf32>, %b: !tileas.smem<128x4xf32>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::tf32 MMA of a legal K, got K = 4 (128x128x4 MxNxK); rule: a tile's K is whole tcgen05.mma instructions of 32 bytes of K: a multiple of 16 (f16/bf16), 8 (tf32) or 32 (8-bit types)}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x4xf32>, !tileas.smem<128x4xf32>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @k16_fp8(%a: !tileas.smem<128x16xf8E5M2>, %b: !tileas.smem<128x16xf8E5M2>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::f8f6f4 MMA of a legal K, got K = 16 (128x128x16 MxNxK); rule: a tile's K is whole tcgen05.mma instructions of 32 bytes of K: a multiple of 16 (f16/bf16), 8 (tf32) or 32 (8-bit types)}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x16xf8E5M2>, !tileas.smem<128x16xf8E5M2>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @k48_i8(%a: !tileas.smem<64x48xi8>, %b: !tileas.smem<64x48xi8>, %acc: !tileas.tmem<64x64xi32>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::i8 MMA of a legal K, got K = 48 (64x64x48 MxNxK); rule: a tile's K is whole tcgen05.mma instructions of 32 bytes of K: a multiple of 16 (f16/bf16), 8 (tf32) or 32 (8-bit types)}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<64x48xi8>, !tileas.smem<64x48xi8>, !tileas.tmem<64x64xi32> -> !tileas.tmem<64x64xi32>
  return
}

// -----

func.func @bf16_f16acc(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<128x64xbf16>, %acc: !tileas.tmem<128x128xf16>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::f16 MMA on 'bf16' operands to accumulate in a legal type, got 'f16'; rule: tcgen05.mma accumulates kind::f16 in f32 (f16 A and B also in f16), kind::tf32 and block-scaled kinds in f32, kind::f8f6f4 in f32 or f16, kind::i8 in s32}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf16> -> !tileas.tmem<128x128xf16>
  return
}

// -----

func.func @tf32_f16acc(%a: !tileas.smem<128x32xf32>, %b: !tileas.smem<128x32xf32>, %acc: !tileas.tmem<128x128xf16>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::tf32 MMA on 'f32' operands to accumulate in a legal type, got 'f16'; rule: tcgen05.mma accumulates kind::f16 in f32 (f16 A and B also in f16), kind::tf32 and block-scaled kinds in f32, kind::f8f6f4 in f32 or f16, kind::i8 in s32}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x32xf32>, !tileas.smem<128x32xf32>, !tileas.tmem<128x128xf16> -> !tileas.tmem<128x128xf16>
  return
}

// -----

func.func @f64(%a: !tileas.smem<128x64xf64>, %b: !tileas.smem<128x64xf64>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects A and B of a tcgen05.mma type (f16, bf16, f32 read as tf32, f8E4M3FN, f8E5M2 or i8), got 'f64'}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xf64>, !tileas.smem<128x64xf64>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @i16(%a: !tileas.smem<128x64xi16>, %b: !tileas.smem<128x64xi16>, %acc: !tileas.tmem<128x128xi32>) {
  // expected-error @+1 {{'tileas.umma' op expects A and B of a tcgen05.mma type (f16, bf16, f32 read as tf32, f8E4M3FN, f8E5M2 or i8), got 'i16'}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xi16>, !tileas.smem<128x64xi16>, !tileas.tmem<128x128xi32> -> !tileas.tmem<128x128xi32>
  return
}

// -----

func.func @mx_m64(%a: !tileas.smem<64x128xf8E4M3FN>, %b: !tileas.smem<128x128xf8E4M3FN>,
                  %acc: !tileas.tmem<64x128xf32>, %sfa: !tileas.tmem<64x4xui8>, %sfb: !tileas.tmem<128x4xui8>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::mxf8f6f4 MMA of a legal M, got M = 64 (64x128x128 MxNxK); rule: tcgen05.mma cta_group::1 takes M = 64 or 128 rows per CTA (the block-scaled kind::mxf8f6f4: M = 128)}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) : !tileas.smem<64x128xf8E4M3FN>, !tileas.smem<128x128xf8E4M3FN>, !tileas.tmem<64x128xf32> scale(!tileas.tmem<64x4xui8>, !tileas.tmem<128x4xui8>) -> !tileas.tmem<64x128xf32>
  return
}

// -----

func.func @ts_n4_mn_major(%a: !tileas.tmem<128x64xf16>, %b: !tileas.smem<64x4xf16>, %acc: !tileas.tmem<128x4xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::f16 MMA of a legal N, got N = 4 (128x4x64 MxNxK); rule: tcgen05.mma cta_group::1 takes N = 8..256 in steps of 8 (kind::i8: 8, 16, 24, then 32..256 in steps of 16)}}
  %d = tileas.umma %a, %b, %acc {b_mn_major} : !tileas.tmem<128x64xf16>, !tileas.smem<64x4xf16>, !tileas.tmem<128x4xf32> -> !tileas.tmem<128x4xf32>
  return
}

// -----

// An MN-major 8-bit B of N = 24: 24 bytes are not whole core-matrix rows.
func.func @mn_major_fp8_n24(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<128x24xf8E4M3FN>, %acc: !tileas.tmem<128x24xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects an MN-major operand's N (24 x 8 bits) to span whole 16-byte core-matrix rows; rule: MN-major canonical layouts are made of 8 x 16-byte core matrices}}
  %d = tileas.umma %a, %b, %acc {b_mn_major} : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<128x24xf8E4M3FN>, !tileas.tmem<128x24xf32> -> !tileas.tmem<128x24xf32>
  return
}

// -----

// `a_unsigned` / `b_unsigned` mark a u8 operand of an integer MMA; on any
// other type they are refused.
func.func @unsigned_bf16(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<128x64xbf16>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects `b_unsigned` only on an 8-bit integer operand, got B of 'bf16'}}
  %d = tileas.umma %a, %b, %acc {b_unsigned} : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}
