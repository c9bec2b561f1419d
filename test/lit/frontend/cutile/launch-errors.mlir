// RUN: tilepipe-translate --tileas-to-cuda %s -split-input-file -verify-diagnostics -o /dev/null

// The cuTile launcher is written from the lowering's attributes
// (tileas.cutile.params on the function, tileas.cutile.source on each
// argument); attributes that do not describe a launch are an error at the
// function or at the argument, and no CUDA is written.

// expected-error @+1 {{tileas.cutile.params[0]: unknown kind 'tensor' (expected "array" or "scalar")}}
func.func @bad_kind(%d: !tileas.tma_desc<128xf32> {tileas.cutile.source = {array = 0 : i64}})
    attributes {tileas.cutile.params = [{kind = "tensor", dtype = f32}]} {
  %c0 = arith.constant 0 : index
  %s = tileas.tma_load %d[%c0] : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %s, %d[%c0] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  return
}

// -----

// expected-error @+1 {{tileas.cutile.params[0]: an array needs `index` = i32 or i64}}
func.func @bad_index(%d: !tileas.tma_desc<128xf32> {tileas.cutile.source = {array = 0 : i64}})
    attributes {tileas.cutile.params = [{kind = "array", dtype = f32, rank = 1 : i64, index = f32}]} {
  %c0 = arith.constant 0 : index
  %s = tileas.tma_load %d[%c0] : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %s, %d[%c0] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  return
}

// -----

func.func @no_source(%d: !tileas.tma_desc<128xf32> {tileas.cutile.source = {array = 0 : i64}},
    // expected-error @+1 {{kernel parameter 'arg1': no tileas.cutile.source: the cuTile launcher cannot fill it}}
    %n: index)
    attributes {tileas.cutile.params = [{kind = "array", dtype = f32, rank = 1 : i64, index = i32}]} {
  %s = tileas.tma_load %d[%n] : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %s, %d[%n] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  return
}

// -----

func.func @wrong_dtype(
    // expected-error @+1 {{kernel parameter 'X': its descriptor's rank and element type differ from array 0's}}
    %d: !tileas.tma_desc<128xf32> {tileas.name = "X", tileas.cutile.source = {array = 0 : i64}})
    attributes {tileas.cutile.params = [{kind = "array", dtype = bf16, rank = 1 : i64, index = i32}]} {
  %c0 = arith.constant 0 : index
  %s = tileas.tma_load %d[%c0] : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %s, %d[%c0] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  return
}

// -----

func.func @no_dimension(%d: !tileas.tma_desc<128xf32> {tileas.cutile.source = {array = 0 : i64}},
    // expected-error @+1 {{kernel parameter 'n': array 0 has no dimension 1}}
    %n: index {tileas.name = "n", tileas.cutile.source = {array = 0 : i64, shape = 1 : i64}})
    attributes {tileas.cutile.params = [{kind = "array", dtype = f32, rank = 1 : i64, index = i32}]} {
  %s = tileas.tma_load %d[%n] : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %s, %d[%n] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  return
}

// -----

func.func @scalar_is_array(%d: !tileas.tma_desc<128xf32> {tileas.cutile.source = {array = 0 : i64}},
    // expected-error @+1 {{kernel parameter 'arg1': `scalar = 0` does not name a scalar parameter}}
    %x: f32 {tileas.cutile.source = {scalar = 0 : i64}})
    attributes {tileas.cutile.params = [{kind = "array", dtype = f32, rank = 1 : i64, index = i32}]} {
  %c0 = arith.constant 0 : index
  %s = tileas.tma_load %d[%c0] : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %s, %d[%c0] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  return
}

// -----

func.func @desc_from_shape(
    // expected-error @+1 {{kernel parameter 'arg0': a tma_desc is made from a whole array ({array = K})}}
    %d: !tileas.tma_desc<128xf32> {tileas.cutile.source = {array = 0 : i64, shape = 0 : i64}})
    attributes {tileas.cutile.params = [{kind = "array", dtype = f32, rank = 1 : i64, index = i32}]} {
  %c0 = arith.constant 0 : index
  %s = tileas.tma_load %d[%c0] : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %s, %d[%c0] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  return
}

// -----

// A memref argument is the base pointer of an array of its element type.
func.func @pointer_dtype(
    // expected-error @+1 {{kernel parameter 'arg0': its element type differs from array 0's}}
    %p: memref<?xf32> {tileas.cutile.source = {array = 0 : i64}})
    attributes {tileas.cutile.params = [{kind = "array", dtype = f16, rank = 1 : i64, index = i32}]} {
  %c0 = arith.constant 0 : index
  %ok = arith.constant true
  %v = arith.constant 1.0 : f32
  tileas.global_store %v, %p[%c0] if %ok : f32, memref<?xf32>
  return
}
