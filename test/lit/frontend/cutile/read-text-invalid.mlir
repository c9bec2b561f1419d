// The tileir verifiers reject what no cuTile kernel contains.
// RUN: tilepipe-opt %s -split-input-file -verify-diagnostics

tileir.entry @k(%p: tile<ptr<f32>>) {
  // expected-error @+1 {{needs one operand per dynamic size and stride}}
  %v = "tileir.make_tensor_view"(%p) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tileir.tile<ptr<f32>>) -> !tileir.tensor_view<?xf32, strides=[1]>
  return
}

// -----

tileir.entry @k(%p: tile<ptr<f32>>) {
  %v = make_tensor_view %p, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
  // expected-error @+1 {{partition_view tile rank 2 differs from the tensor_view's 1}}
  %pv = make_partition_view %v : partition_view<tile=(4x4), tensor_view<64xf32, strides=[1]>>
  return
}

// -----

tileir.entry @k(%p: tile<ptr<f32>>, %i: tile<i32>) {
  %t = make_token : token
  %v = make_tensor_view %p, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
  %pv = make_partition_view %v : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
  // expected-error @+1 {{tile '!tileir.tile<32xf32>' does not match the partition view's tiles}}
  %x, %xt = load_view_tko weak %pv[%i] token = %t : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>, tile<i32> -> tile<32xf32>, token
  return
}

// -----

tileir.entry @k(%a: tile<16x8xbf16>, %b: tile<16x8xbf16>, %c: tile<16x8xf32>) {
  // expected-error @+1 {{shapes must be MxK, KxN and MxN}}
  %d = mmaf %a, %b, %c : tile<16x8xbf16>, tile<16x8xbf16>, tile<16x8xf32>
  return
}

// -----

tileir.entry @k(%a: tile<4xf32>) {
  // expected-error @+1 {{can only repeat dimensions of size 1}}
  %b = broadcast %a : tile<4xf32> -> tile<8xf32>
  return
}

// -----

tileir.entry @k(%a: tile<4x8xf32>) {
  // expected-error @+1 {{dim 2 is out of range}}
  %r = reduce %a dim=2 identities=[0.0 : f32] : tile<4x8xf32> -> tile<4xf32> (%l: tile<f32>, %r: tile<f32>) {
    %s = addf %l, %r : tile<f32>
    yield %s : tile<f32>
  }
  return
}

// -----

tileir.entry @k(%a: tile<i32>) {
  // expected-error @+1 {{unknown assume predicate 'positive'}}
  %b = assume positive<1>, %a : tile<i32>
  return
}

// -----

// expected-error @+1 {{unknown padding_value 'one'}}
tileir.entry @k(%a: tile<i32>, %v: partition_view<tile=(4), padding_value = one, tensor_view<?xf32, strides=[1]>>) {
  return
}

// -----

// expected-error @+1 {{tile dimensions must be positive}}
tileir.entry @k(%a: tile<0xf32>) {
  return
}
