// RUN: tilepipe-opt %s -split-input-file -verify-diagnostics

// Verifier rules of the block-scale operands of tileas.umma: both or
// neither, in tensor memory, FP8 A and B, an f32 accumulator, K a multiple
// of the 32-element scale block, UE8M0 (ui8) factors, scale_a M x K/32 and
// scale_b N x K/32 (rows above 128 lanes in further column blocks).

func.func @scale_a_only(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<128x128xf8E4M3FN>,
                        %acc: !tileas.tmem<128x128xf32>, %sfa: !tileas.tmem<128x4xui8>) {
  // expected-error @+1 {{'tileas.umma' op expects both scale_a and scale_b or neither, got only scale_a}}
  %d = "tileas.umma"(%a, %b, %acc, %sfa) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> : (!tileas.smem<128x128xf8E4M3FN>, !tileas.smem<128x128xf8E4M3FN>, !tileas.tmem<128x128xf32>, !tileas.tmem<128x4xui8>) -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @scale_b_only(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<128x128xf8E4M3FN>,
                        %acc: !tileas.tmem<128x128xf32>, %sfb: !tileas.tmem<128x4xui8>) {
  // expected-error @+1 {{'tileas.umma' op expects both scale_a and scale_b or neither, got only scale_b}}
  %d = "tileas.umma"(%a, %b, %acc, %sfb) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}> : (!tileas.smem<128x128xf8E4M3FN>, !tileas.smem<128x128xf8E4M3FN>, !tileas.tmem<128x128xf32>, !tileas.tmem<128x4xui8>) -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @scale_one_operand(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<128x128xf8E4M3FN>,
                             %acc: !tileas.tmem<128x128xf32>, %sfa: !tileas.tmem<128x4xui8>) {
  // expected-error @+1 {{expected ','}}
  %d = tileas.umma %a, %b, %acc scale(%sfa) : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<128x128xf8E4M3FN>, !tileas.tmem<128x128xf32> scale(!tileas.tmem<128x4xui8>) -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @scale_in_smem(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<128x128xf8E4M3FN>,
                         %acc: !tileas.tmem<128x128xf32>, %sfa: !tileas.smem<128x4xui8>,
                         %sfb: !tileas.tmem<128x4xui8>) {
  // expected-error @+1 {{'tileas.umma' op operand #3 must be a tile in tensor memory, but got '!tileas.smem<128x4xui8>'}}
  %d = "tileas.umma"(%a, %b, %acc, %sfa, %sfb) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}> : (!tileas.smem<128x128xf8E4M3FN>, !tileas.smem<128x128xf8E4M3FN>, !tileas.tmem<128x128xf32>, !tileas.smem<128x4xui8>, !tileas.tmem<128x4xui8>) -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @scaled_bf16(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<128x64xbf16>,
                       %acc: !tileas.tmem<128x128xf32>, %sfa: !tileas.tmem<128x2xui8>,
                       %sfb: !tileas.tmem<128x2xui8>) {
  // expected-error @+1 {{'tileas.umma' op expects FP8 (f8E4M3FN, f8E5M2) or FP4 A and B with scale factors, got 'bf16'}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> scale(!tileas.tmem<128x2xui8>, !tileas.tmem<128x2xui8>) -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @scaled_int8(%a: !tileas.smem<128x128xi8>, %b: !tileas.smem<128x128xi8>,
                       %acc: !tileas.tmem<128x128xi32>, %sfa: !tileas.tmem<128x4xui8>,
                       %sfb: !tileas.tmem<128x4xui8>) {
  // expected-error @+1 {{'tileas.umma' op expects FP8 (f8E4M3FN, f8E5M2) or FP4 A and B with scale factors, got 'i8'}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) : !tileas.smem<128x128xi8>, !tileas.smem<128x128xi8>, !tileas.tmem<128x128xi32> scale(!tileas.tmem<128x4xui8>, !tileas.tmem<128x4xui8>) -> !tileas.tmem<128x128xi32>
  return
}

// -----

func.func @scaled_not_blackwell_fp8(%a: !tileas.smem<128x128xf8E4M3FNUZ>, %b: !tileas.smem<128x128xf8E4M3FNUZ>,
                                    %acc: !tileas.tmem<128x128xf32>, %sfa: !tileas.tmem<128x4xui8>,
                                    %sfb: !tileas.tmem<128x4xui8>) {
  // expected-error @+1 {{'tileas.umma' op expects FP8 (f8E4M3FN, f8E5M2) or FP4 A and B with scale factors, got 'f8E4M3FNUZ'}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) : !tileas.smem<128x128xf8E4M3FNUZ>, !tileas.smem<128x128xf8E4M3FNUZ>, !tileas.tmem<128x128xf32> scale(!tileas.tmem<128x4xui8>, !tileas.tmem<128x4xui8>) -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @scaled_f16_acc(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<128x128xf8E4M3FN>,
                          %acc: !tileas.tmem<128x128xf16>, %sfa: !tileas.tmem<128x4xui8>,
                          %sfb: !tileas.tmem<128x4xui8>) {
  // expected-error @+1 {{'tileas.umma' op expects an f32 accumulator with scale factors, got 'f16'}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<128x128xf8E4M3FN>, !tileas.tmem<128x128xf16> scale(!tileas.tmem<128x4xui8>, !tileas.tmem<128x4xui8>) -> !tileas.tmem<128x128xf16>
  return
}

// -----

func.func @k_not_a_block_multiple(%a: !tileas.smem<128x48xf8E4M3FN>, %b: !tileas.smem<128x48xf8E4M3FN>,
                                  %acc: !tileas.tmem<128x128xf32>, %sfa: !tileas.tmem<128x1xui8>,
                                  %sfb: !tileas.tmem<128x1xui8>) {
  // expected-error @+1 {{'tileas.umma' op expects K (48) to be a multiple of the scale block (32)}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) : !tileas.smem<128x48xf8E4M3FN>, !tileas.smem<128x48xf8E4M3FN>, !tileas.tmem<128x128xf32> scale(!tileas.tmem<128x1xui8>, !tileas.tmem<128x1xui8>) -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @scale_f32(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<128x128xf8E4M3FN>,
                     %acc: !tileas.tmem<128x128xf32>, %sfa: !tileas.tmem<128x4xf32>,
                     %sfb: !tileas.tmem<128x4xui8>) {
  // expected-error @+1 {{'tileas.umma' op expects scale_a to hold UE8M0 factors (ui8), got 'f32'}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<128x128xf8E4M3FN>, !tileas.tmem<128x128xf32> scale(!tileas.tmem<128x4xf32>, !tileas.tmem<128x4xui8>) -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @scale_signless_i8(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<128x128xf8E4M3FN>,
                             %acc: !tileas.tmem<128x128xf32>, %sfa: !tileas.tmem<128x4xui8>,
                             %sfb: !tileas.tmem<128x4xi8>) {
  // expected-error @+1 {{'tileas.umma' op expects scale_b to hold UE8M0 factors (ui8), got 'i8'}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<128x128xf8E4M3FN>, !tileas.tmem<128x128xf32> scale(!tileas.tmem<128x4xui8>, !tileas.tmem<128x4xi8>) -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @scale_a_rows(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<128x128xf8E4M3FN>,
                        %acc: !tileas.tmem<128x128xf32>, %sfa: !tileas.tmem<64x4xui8>,
                        %sfb: !tileas.tmem<128x4xui8>) {
  // expected-error @+1 {{'tileas.umma' op expects scale_a to be 128x4 (M = 128 rows of K/32 = 4 factors), got 64x4}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<128x128xf8E4M3FN>, !tileas.tmem<128x128xf32> scale(!tileas.tmem<64x4xui8>, !tileas.tmem<128x4xui8>) -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @scale_a_columns(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<128x128xf8E4M3FN>,
                           %acc: !tileas.tmem<128x128xf32>, %sfa: !tileas.tmem<128x2xui8>,
                           %sfb: !tileas.tmem<128x4xui8>) {
  // expected-error @+1 {{'tileas.umma' op expects scale_a to be 128x4 (M = 128 rows of K/32 = 4 factors), got 128x2}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<128x128xf8E4M3FN>, !tileas.tmem<128x128xf32> scale(!tileas.tmem<128x2xui8>, !tileas.tmem<128x4xui8>) -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @scale_b_rows(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<64x128xf8E4M3FN>,
                        %acc: !tileas.tmem<128x64xf32>, %sfa: !tileas.tmem<128x4xui8>,
                        %sfb: !tileas.tmem<128x4xui8>) {
  // expected-error @+1 {{'tileas.umma' op expects scale_b to be 64x4 (N = 64 rows of K/32 = 4 factors), got 128x4}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<64x128xf8E4M3FN>, !tileas.tmem<128x64xf32> scale(!tileas.tmem<128x4xui8>, !tileas.tmem<128x4xui8>) -> !tileas.tmem<128x64xf32>
  return
}

// -----

func.func @scale_b_not_folded(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<256x128xf8E4M3FN>,
                              %acc: !tileas.tmem<128x256xf32>, %sfa: !tileas.tmem<128x4xui8>,
                              %sfb: !tileas.tmem<128x4xui8>) {
  // expected-error @+1 {{'tileas.umma' op expects scale_b to be 128x8 (N = 256 rows of K/32 = 4 factors, rows above 128 in further column blocks), got 128x4}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<256x128xf8E4M3FN>, !tileas.tmem<128x256xf32> scale(!tileas.tmem<128x4xui8>, !tileas.tmem<128x4xui8>) -> !tileas.tmem<128x256xf32>
  return
}

// -----

func.func @tmem_copy_shape(%s: !tileas.smem<128x4xui8>) {
  // expected-error @+1 {{'tileas.tmem_copy' op expects the result tile 128x8xui8 to match the source tile 128x4xui8}}
  %t = tileas.tmem_copy %s : !tileas.smem<128x4xui8> -> !tileas.tmem<128x8xui8>
  return
}
