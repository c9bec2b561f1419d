// RUN: tilepipe-opt %s -split-input-file -verify-diagnostics

func.func @tma_load_coords(%d: !tileas.tma_desc<128x64xbf16>, %i: index) {
  // expected-error @+1 {{'tileas.tma_load' op expects one coordinate per descriptor dimension (2), got 1}}
  %a = tileas.tma_load %d[%i] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  return
}

// -----

func.func @tma_load_shape(%d: !tileas.tma_desc<128x64xbf16>, %i: index) {
  // expected-error @+1 {{'tileas.tma_load' op expects the result tile 64x64xbf16 to match the descriptor box 128x64xbf16}}
  %a = tileas.tma_load %d[%i, %i] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<64x64xbf16>
  return
}

// -----

func.func @tma_load_element(%d: !tileas.tma_desc<128x64xbf16>, %i: index) {
  // expected-error @+1 {{'tileas.tma_load' op expects the result tile 128x64xf16 to match the descriptor box 128x64xbf16}}
  %a = tileas.tma_load %d[%i, %i] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xf16>
  return
}

// -----

func.func @tma_store_coords(%b: !tileas.smem<128x64xbf16>, %d: !tileas.tma_desc<128x64xbf16>, %i: index) {
  // expected-error @+1 {{'tileas.tma_store' op expects one coordinate per descriptor dimension (2), got 3}}
  tileas.tma_store %b, %d[%i, %i, %i] : !tileas.smem<128x64xbf16>, !tileas.tma_desc<128x64xbf16>
  return
}

// -----

func.func @tma_store_tile(%b: !tileas.smem<64x64xbf16>, %d: !tileas.tma_desc<128x64xbf16>, %i: index) {
  // expected-error @+1 {{'tileas.tma_store' op expects the stored tile 64x64xbf16 to match the descriptor box 128x64xbf16}}
  tileas.tma_store %b, %d[%i, %i] : !tileas.smem<64x64xbf16>, !tileas.tma_desc<128x64xbf16>
  return
}

// -----

func.func @cp_async_coords(%src: memref<?x?xbf16>, %i: index) {
  // expected-error @+1 {{'tileas.cp_async' op expects one coordinate per source dimension (2), got 1}}
  %s = tileas.cp_async %src[%i] : memref<?x?xbf16> -> !tileas.smem<64x64xbf16>
  return
}

// -----

func.func @cp_async_rank(%src: memref<?x?xbf16>, %i: index) {
  // expected-error @+1 {{'tileas.cp_async' op expects the tile rank (3) to match the source rank (2)}}
  %s = tileas.cp_async %src[%i, %i] : memref<?x?xbf16> -> !tileas.smem<2x64x64xbf16>
  return
}

// -----

func.func @cp_async_element(%src: memref<?x?xbf16>, %i: index) {
  // expected-error @+1 {{'tileas.cp_async' op expects the tile element type 'f16' to match the source element type 'bf16'}}
  %s = tileas.cp_async %src[%i, %i] : memref<?x?xbf16> -> !tileas.smem<64x64xf16>
  return
}

// -----

func.func @cp_async_fit(%src: memref<?x32xbf16>, %i: index) {
  // expected-error @+1 {{'tileas.cp_async' op expects tile dimension 1 (64) to fit in the source dimension (32)}}
  %s = tileas.cp_async %src[%i, %i] : memref<?x32xbf16> -> !tileas.smem<64x64xbf16>
  return
}

// -----

func.func @tmem_load_tile(%t: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.tmem_load' op expects the result tile 64x128xf32 to match the source tile 128x128xf32}}
  %r = tileas.tmem_load %t : !tileas.tmem<128x128xf32> -> tensor<64x128xf32>
  return
}

// -----

func.func @tmem_load_dynamic(%t: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.tmem_load' op result #0 must be statically shaped tensor of any type values, but got 'tensor<?x128xf32>'}}
  %r = tileas.tmem_load %t : !tileas.tmem<128x128xf32> -> tensor<?x128xf32>
  return
}

// -----

func.func @tmem_store_tile(%v: tensor<128x128xbf16>) {
  // expected-error @+1 {{'tileas.tmem_store' op expects the result tile 128x128xf16 to match the source tile 128x128xbf16}}
  %t = tileas.tmem_store %v : tensor<128x128xbf16> -> !tileas.tmem<128x128xf16>
  return
}

// -----

func.func @smem_load_tile(%s: !tileas.smem<128x128xbf16>) {
  // expected-error @+1 {{'tileas.smem_load' op expects the result tile 128x64xbf16 to match the source tile 128x128xbf16}}
  %v = tileas.smem_load %s : !tileas.smem<128x128xbf16> -> tensor<128x64xbf16>
  return
}

// -----

func.func @smem_store_tile(%v: tensor<128x128xbf16>) {
  // expected-error @+1 {{'tileas.smem_store' op expects the result tile 128x128xf32 to match the source tile 128x128xbf16}}
  %s = tileas.smem_store %v : tensor<128x128xbf16> -> !tileas.smem<128x128xf32>
  return
}

// -----

func.func @umma_a_rank(%a: !tileas.smem<2x128x64xbf16>, %b: !tileas.smem<128x64xbf16>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects A to be a rank-2 MxK tile, got 2x128x64xbf16}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<2x128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @umma_b_rank(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<64xbf16>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects B to be a rank-2 NxK tile, got 64xbf16}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xbf16>, !tileas.smem<64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @umma_k(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<128x32xbf16>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects A to be MxK and B NxK with the same K, got A 128x64, B 128x32}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xbf16>, !tileas.smem<128x32xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @umma_ab_element(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<128x64xf16>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects A and B to have the same element type, got 'bf16' and 'f16'}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @umma_acc_shape(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<256x64xbf16>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects the accumulator to be MxN = 128x256, got 128x128}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @umma_acc_element(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<128x64xbf16>, %acc: !tileas.tmem<128x128xbf16>) {
  // expected-error @+1 {{'tileas.umma' op expects the accumulator element type to be f32, f16 or i32, got 'bf16'}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xbf16> -> !tileas.tmem<128x128xbf16>
  return
}

// -----

func.func @umma_int_acc(%a: !tileas.smem<128x64xi8>, %b: !tileas.smem<128x64xi8>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects an i32 accumulator for integer A and B and an f32 or f16 accumulator for float A and B, got 'i8' operands and an 'f32' accumulator}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xi8>, !tileas.smem<128x64xi8>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @umma_result(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<128x64xbf16>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects the result type to equal the accumulator type '!tileas.tmem<128x128xf32>', got '!tileas.tmem<128x128xf16>'}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf16>
  return
}

// -----

func.func @umma_bf16_f16_acc(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<128x64xbf16>, %acc: !tileas.tmem<128x128xf16>) {
  // expected-error @+1 {{'tileas.umma' op expects a kind::f16 MMA on 'bf16' operands to accumulate in a legal type, got 'f16'; rule: tcgen05.mma accumulates kind::f16 in f32 (f16 A and B also in f16)}}
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf16> -> !tileas.tmem<128x128xf16>
  return
}

// -----

func.func @umma_b_in_tmem(%a: !tileas.smem<128x64xbf16>, %b: !tileas.tmem<128x64xbf16>, %acc: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op operand #1 must be a tile buffer in shared memory, but got '!tileas.tmem<128x64xbf16>'}}
  %d = "tileas.umma"(%a, %b, %acc) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (!tileas.smem<128x64xbf16>, !tileas.tmem<128x64xbf16>, !tileas.tmem<128x128xf32>) -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @exp2_int(%x: tensor<128x128xi32>) {
  // expected-error @+1 {{'tileas.exp2' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<128x128xi32>'}}
  %e = tileas.exp2 %x : tensor<128x128xi32>
  return
}

// -----

func.func @exp2_result(%x: tensor<128x128xf32>) {
  // expected-error @+1 {{'tileas.exp2' op requires the same type for all operands and results}}
  %e = "tileas.exp2"(%x) : (tensor<128x128xf32>) -> tensor<128x128xf16>
  return
}

// -----

func.func @add_shape(%x: tensor<128x128xf32>, %y: tensor<64x128xf32>) {
  // expected-error @+1 {{'tileas.add' op expects the second operand to be 'tensor<128x128xf32>', a row broadcast 'tensor<128xf32>' or a scalar 'f32', got 'tensor<64x128xf32>'}}
  %0 = tileas.add %x, %y : tensor<128x128xf32>, tensor<64x128xf32>
  return
}

// -----

func.func @sub_row(%x: tensor<128x64xf32>, %m: tensor<64xf32>) {
  // expected-error @+1 {{'tileas.sub' op expects the second operand to be 'tensor<128x64xf32>', a row broadcast 'tensor<128xf32>' or a scalar 'f32', got 'tensor<64xf32>'}}
  %0 = tileas.sub %x, %m : tensor<128x64xf32>, tensor<64xf32>
  return
}

// -----

func.func @mul_scalar(%x: tensor<128x128xf32>, %s: f16) {
  // expected-error @+1 {{'tileas.mul' op expects the second operand to be 'tensor<128x128xf32>', a row broadcast 'tensor<128xf32>' or a scalar 'f32', got 'f16'}}
  %0 = tileas.mul %x, %s : tensor<128x128xf32>, f16
  return
}

// -----

func.func @max_element(%x: tensor<128x128xf32>, %y: tensor<128x128xf16>) {
  // expected-error @+1 {{'tileas.max' op expects the second operand to be 'tensor<128x128xf32>', a row broadcast 'tensor<128xf32>' or a scalar 'f32', got 'tensor<128x128xf16>'}}
  %0 = tileas.max %x, %y : tensor<128x128xf32>, tensor<128x128xf16>
  return
}

// -----

func.func @add_rank0(%x: tensor<f32>, %y: tensor<1xf32>) {
  // expected-error @+1 {{'tileas.add' op expects the second operand to be 'tensor<f32>' or a scalar 'f32', got 'tensor<1xf32>'}}
  %0 = tileas.add %x, %y : tensor<f32>, tensor<1xf32>
  return
}

// -----

func.func @add_result(%x: tensor<128x128xf32>) {
  // expected-error @+1 {{'tileas.add' op failed to verify that all of {lhs, result} have same type}}
  %0 = "tileas.add"(%x, %x) : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf16>
  return
}

// -----

func.func @fma_b(%a: tensor<128x128xf32>, %b: tensor<64xf32>, %c: f32) {
  // expected-error @+1 {{'tileas.fma' op expects the second operand to be 'tensor<128x128xf32>', a row broadcast 'tensor<128xf32>' or a scalar 'f32', got 'tensor<64xf32>'}}
  %0 = tileas.fma %a, %b, %c : tensor<128x128xf32>, tensor<64xf32>, f32
  return
}

// -----

func.func @fma_c(%a: tensor<128x128xf32>, %b: tensor<128xf32>, %c: bf16) {
  // expected-error @+1 {{'tileas.fma' op expects the third operand to be 'tensor<128x128xf32>', a row broadcast 'tensor<128xf32>' or a scalar 'f32', got 'bf16'}}
  %0 = tileas.fma %a, %b, %c : tensor<128x128xf32>, tensor<128xf32>, bf16
  return
}

// -----

func.func @cvt_shape(%x: tensor<128x128xf32>) {
  // expected-error @+1 {{'tileas.cvt' op expects the result shape 128x64 to match the input shape 128x128}}
  %0 = tileas.cvt %x : tensor<128x128xf32> -> tensor<128x64xbf16>
  return
}

// -----

func.func @cvt_int(%x: tensor<128x128xf32>) {
  // expected-error @+1 {{'tileas.cvt' op result #0 must be statically shaped tensor of floating-point values, but got 'tensor<128x128xi32>'}}
  %0 = tileas.cvt %x : tensor<128x128xf32> -> tensor<128x128xi32>
  return
}

// -----

func.func @reduce_rank0(%x: tensor<f32>) {
  // expected-error @+1 {{'tileas.reduce_max' op expects an input of rank at least 1}}
  %0 = tileas.reduce_max %x : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @reduce_shape(%x: tensor<128x64xf32>) {
  // expected-error @+1 {{'tileas.reduce_max' op expects the result to be the input reduced over its last dimension, 'tensor<128xf32>', got 'tensor<64xf32>'}}
  %0 = tileas.reduce_max %x : tensor<128x64xf32> -> tensor<64xf32>
  return
}

// -----

func.func @reduce_element(%x: tensor<128x64xf32>) {
  // expected-error @+1 {{'tileas.reduce_sum' op expects the result to be the input reduced over its last dimension, 'tensor<128xf32>', got 'tensor<128xf16>'}}
  %0 = tileas.reduce_sum %x : tensor<128x64xf32> -> tensor<128xf16>
  return
}

// -----

func.func @alloc_smem_type() {
  // expected-error @+1 {{'tileas.alloc_smem' op result #0 must be a tile buffer in shared memory, but got 'tensor<128x64xbf16>'}}
  %0 = tileas.alloc_smem : tensor<128x64xbf16>
  return
}

// -----

func.func @alloc_tmem_type() {
  // expected-error @+1 {{'tileas.alloc_tmem' op result #0 must be a tile in tensor memory, but got '!tileas.smem<128x128xf32>'}}
  %0 = tileas.alloc_tmem : !tileas.smem<128x128xf32>
  return
}

// -----

// smem_load transposed reads an R x C tile as its C x R transpose.
func.func @transposed_shape(%s: !tileas.smem<64x128xf32>) {
  // expected-error @+1 {{'tileas.smem_load' op expects the result tile 64x128xf32 to match the transposed source tile 128x64xf32}}
  %r = tileas.smem_load %s transposed : !tileas.smem<64x128xf32> -> tensor<64x128xf32>
  return
}

// -----

func.func @transposed_vector(%s: !tileas.smem<128xf32>) {
  // expected-error @+1 {{'tileas.smem_load' op transposed expects a 2-D source, got 128xf32}}
  %r = tileas.smem_load %s transposed : !tileas.smem<128xf32> -> tensor<128xf32>
  return
}

// -----

func.func @transposed_lanes(%s: !tileas.smem<32x64xf32>) {
  // expected-error @+1 {{'tileas.smem_load' op with lanes = 4 expects the register tile to be 128 x (C / 4) for an R x C tile with R * 4 = 128, a vector of 128 for one of R, got 64x32xf32 and 128x16xf32}}
  %r = tileas.smem_load %s transposed {lanes = 4} : !tileas.smem<32x64xf32> -> tensor<128x16xf32>
  return
}

// -----

func.func @global_store_type(%v: f16, %p: memref<?xf32>, %i: index, %ok: i1) {
  // expected-error @+1 {{'tileas.global_store' op expects a value of the array's element type 'f32', got 'f16'}}
  tileas.global_store %v, %p[%i] if %ok : f16, memref<?xf32>
  return
}

// -----

func.func @global_load_type(%p: memref<?xi32>, %i: index, %ok: i1) {
  // expected-error @+1 {{'tileas.global_load' op expects a result of the array's element type 'i32', got 'f32'}}
  %e = tileas.global_load %p[%i] if %ok : memref<?xi32> -> f32
  return
}

// -----

func.func @gather_index_padding(%x: memref<?xi32>, %i: tensor<128xi32>, %s: index, %n: index) {
  // expected-error @+1 {{'tileas.global_gather' op expects a padding of the element type 'i32'}}
  %v = tileas.global_gather %x[%i : tensor<128xi32>] strides(%s) bounds(%n) padding = 0.0 : f32 : memref<?xi32> -> tensor<128xi32>
  return
}

// -----

func.func @combine_max_f32(%v: tensor<128xf32>, %y: memref<?xf32>, %i: tensor<128xi32>, %n: index) {
  // expected-error @+1 {{'tileas.global_scatter' op expects combine = add or xchg on f32 or i32, or max, min, and, or, xor on i32; got max on 'f32'}}
  tileas.global_scatter %v, %y[%i : tensor<128xi32>] strides(%n) bounds(%n) {combine = "max"} : tensor<128xf32>, memref<?xf32>
  return
}

// -----

func.func @fenced_store(%v: tensor<128xf32>, %y: memref<?xf32>, %i: tensor<128xi32>, %n: index) {
  // expected-error @+1 {{'tileas.global_scatter' op expects `fenced` only with `combine`}}
  tileas.global_scatter %v, %y[%i : tensor<128xi32>] strides(%n) bounds(%n) {fenced} : tensor<128xf32>, memref<?xf32>
  return
}

// -----

func.func @gather_rank(%x: memref<?x?xf32>, %i: tensor<128xi32>, %s: index, %n: index) {
  // expected-error @+1 {{'tileas.global_gather' op expects one index tile, stride and bound per dimension of the array (2), got 1, 1 and 1}}
  %v = tileas.global_gather %x[%i : tensor<128xi32>] strides(%s) bounds(%n) padding = 0.0 : f32 : memref<?x?xf32> -> tensor<128xf32>
  return
}

// -----

func.func @gather_index_shape(%x: memref<?xf32>, %i: tensor<64xi32>, %s: index, %n: index) {
  // expected-error @+1 {{'tileas.global_gather' op expects index tiles of the data tile's shape}}
  %v = tileas.global_gather %x[%i : tensor<64xi32>] strides(%s) bounds(%n) padding = 0.0 : f32 : memref<?xf32> -> tensor<128xf32>
  return
}

// -----

func.func @gather_padding(%x: memref<?xf32>, %i: tensor<128xi32>, %s: index, %n: index) {
  // expected-error @+1 {{'tileas.global_gather' op expects a padding of the element type 'f32'}}
  %v = tileas.global_gather %x[%i : tensor<128xi32>] strides(%s) bounds(%n) padding = 0.0 : f16 : memref<?xf32> -> tensor<128xf32>
  return
}

// -----

func.func @scatter_type(%v: tensor<128xf16>, %x: memref<?xf32>, %i: tensor<128xi32>, %s: index, %n: index, %k: tensor<64xi1>) {
  // expected-error @+1 {{'tileas.global_scatter' op expects a tile of the array's element type 'f32', got 'f16'}}
  tileas.global_scatter %v, %x[%i : tensor<128xi32>] strides(%s) bounds(%n) : tensor<128xf16>, memref<?xf32>
  return
}

// -----

func.func @scatter_mask(%v: tensor<128xf32>, %x: memref<?xf32>, %i: tensor<128xi32>, %s: index, %n: index, %k: tensor<64xi1>) {
  // expected-error @+1 {{'tileas.global_scatter' op expects a mask of the data tile's shape}}
  tileas.global_scatter %v, %x[%i : tensor<128xi32>] strides(%s) bounds(%n) mask(%k : tensor<64xi1>) : tensor<128xf32>, memref<?xf32>
  return
}
