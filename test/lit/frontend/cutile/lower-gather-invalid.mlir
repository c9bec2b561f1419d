// Gathers and scatters --tileir-to-tileas refuses (docs/cuda-tile-lowering.md,
// "Gathers and scatters of a box"): an error at the access or its offsets,
// and a non-zero exit.
// RUN: tilepipe-opt %s --tileir-to-tileas -split-input-file -verify-diagnostics
// RUN: not tilepipe-opt %s --tileir-to-tileas -split-input-file 2>&1 | FileCheck %s

// An index computed in i64 (a product of positions after widening) is
// neither a box nor the positions the threads read.
tileir.entry @squares(%a: tile<ptr<f32>>, %n: tile<i32>, %s: tile<i32>, %c: tile<ptr<f32>>, %cn: tile<i32>, %cs: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %i = iota : tile<256xi32>
  %i64 = exti %i signed : tile<256xi32> -> tile<256xi64>
  %off = muli %i64, %i64 : tile<256xi64>
  %p0 = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
  %p1 = broadcast %p0 : tile<1xptr<f32>> -> tile<256xptr<f32>>
  // CHECK: error: a gather or scatter whose element offsets are not a sum of i32 indices, each widened and times the array's stride, is not lowered (an index computed in i64 is not)
  // expected-error @+1 {{a gather or scatter whose element offsets are not a sum of i32 indices}}
  %ptrs = offset %p1, %off : tile<256xptr<f32>>, tile<256xi64> -> tile<256xptr<f32>>
  %x, %tok = load_ptr_tko weak %ptrs token = %t : tile<256xptr<f32>> -> tile<256xf32>, token
  return
}

// -----

// TMA fills past the bounds with zeros, and threads read a float constant
// there instead (softmax's -inf); a padding that varies is refused.
tileir.entry @padded(%a: tile<ptr<f32>>, %n: tile<i32>, %s: tile<i32>, %v: tile<f32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %one = constant <i64: 1> : tile<256xi64>
  %i = iota : tile<256xi32>
  %i64 = exti %i signed : tile<256xi32> -> tile<256xi64>
  %n64 = exti %n signed : tile<i32> -> tile<i64>
  %n0 = reshape %n64 : tile<i64> -> tile<1xi64>
  %n1 = broadcast %n0 : tile<1xi64> -> tile<256xi64>
  %m = cmpi less_than %i64, %n1, unsigned : tile<256xi64> -> tile<256xi1>
  %off = muli %i64, %one : tile<256xi64>
  %p0 = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
  %p1 = broadcast %p0 : tile<1xptr<f32>> -> tile<256xptr<f32>>
  %ptrs = offset %p1, %off : tile<256xptr<f32>>, tile<256xi64> -> tile<256xptr<f32>>
  %v0 = reshape %v : tile<f32> -> tile<1xf32>
  %pad = broadcast %v0 : tile<1xf32> -> tile<256xf32>
  // CHECK: error: a gather padded with other than a float constant or zero is not lowered: threads read a float constant past the bounds where TMA wrote zeros
  // expected-error @+1 {{a gather padded with other than a float constant or zero is not lowered}}
  %x, %tok = load_ptr_tko weak %ptrs mask = %m : tile<256xi1> padding = %pad : tile<256xf32> token = %t : tile<256xptr<f32>> -> tile<256xf32>, token
  return
}

// -----

// Only weak accesses: an acquiring load orders what TMA does not.
tileir.entry @acquire(%a: tile<ptr<f32>>, %n: tile<i32>, %s: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %one = constant <i64: 1> : tile<256xi64>
  %i = iota : tile<256xi32>
  %i64 = exti %i signed : tile<256xi32> -> tile<256xi64>
  %off = muli %i64, %one : tile<256xi64>
  %p0 = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
  %p1 = broadcast %p0 : tile<1xptr<f32>> -> tile<256xptr<f32>>
  %ptrs = offset %p1, %off : tile<256xptr<f32>>, tile<256xi64> -> tile<256xptr<f32>>
  // CHECK: error: a gather or scatter with acquire ordering is not lowered: only weak accesses are
  // expected-error @+1 {{a gather or scatter with acquire ordering is not lowered}}
  %x, %tok = load_ptr_tko acquire device %ptrs token = %t : tile<256xptr<f32>> -> tile<256xf32>, token
  return
}

// -----

// What TMA cannot move (here a box starting at an index that is not a
// multiple of 16 bytes) the threads read; i32 too (an index read from
// memory), but no wider integers.
tileir.entry @shifted(%a: tile<ptr<i64>>, %n: tile<i32>, %s: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %one = constant <i64: 1> : tile<256xi64>
  %c1 = constant <i32: 1> : tile<i32>
  %c256 = constant <i32: 256> : tile<i32>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %start = muli %bx, %c256 : tile<i32>
  %left = subi %start, %c1 : tile<i32>
  %l0 = reshape %left : tile<i32> -> tile<1xi32>
  %l1 = broadcast %l0 : tile<1xi32> -> tile<256xi32>
  %i = iota : tile<256xi32>
  %j = addi %l1, %i : tile<256xi32>
  %j64 = exti %j signed : tile<256xi32> -> tile<256xi64>
  %off = muli %j64, %one : tile<256xi64>
  %p0 = reshape %a : tile<ptr<i64>> -> tile<1xptr<i64>>
  %p1 = broadcast %p0 : tile<1xptr<i64>> -> tile<256xptr<i64>>
  %ptrs = offset %p1, %off : tile<256xptr<i64>>, tile<256xi64> -> tile<256xptr<i64>>
  // CHECK: error: a gather of 'i64' is not lowered: the threads read floats and i32
  // expected-error @+1 {{a gather of 'i64' is not lowered}}
  %x, %tok = load_ptr_tko weak %ptrs token = %t : tile<256xptr<i64>> -> tile<256xi64>, token
  return
}
