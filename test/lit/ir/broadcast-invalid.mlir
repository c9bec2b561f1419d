// RUN: tilepipe-opt %s -split-input-file -verify-diagnostics

// tileas.broadcast's verifier: one message per rule, each naming it.

func.func @wrong_length(%bias: tensor<64xf32>) {
  // expected-error @+1 {{'tileas.broadcast' op expects the input to be the result 'tensor<128x128xf32>' without its broadcast dimensions [0], 'tensor<128xf32>', got 'tensor<64xf32>'}}
  %b = tileas.broadcast %bias dimensions = [0] : tensor<64xf32> -> tensor<128x128xf32>
  return
}

// -----

func.func @wrong_length_rows(%m: tensor<64xf32>) {
  // expected-error @+1 {{'tileas.broadcast' op expects the input to be the result 'tensor<128x64xf32>' without its broadcast dimensions [1], 'tensor<128xf32>', got 'tensor<64xf32>'}}
  %b = tileas.broadcast %m dimensions = [1] : tensor<64xf32> -> tensor<128x64xf32>
  return
}

// -----

func.func @wrong_element(%bias: tensor<128xbf16>) {
  // expected-error @+1 {{'tileas.broadcast' op expects the input element type 'bf16' to equal the result's 'f32' (a broadcast copies values; convert with tileas.cvt first)}}
  %b = tileas.broadcast %bias dimensions = [0] : tensor<128xbf16> -> tensor<128x128xf32>
  return
}

// -----

func.func @wrong_rank(%bias: tensor<128xf32>) {
  // expected-error @+1 {{'tileas.broadcast' op expects the result rank (2) to be the input rank (1) plus the number of broadcast dimensions (2)}}
  %b = tileas.broadcast %bias dimensions = [0, 1] : tensor<128xf32> -> tensor<128x128xf32>
  return
}

// -----

func.func @dimension_range(%bias: tensor<128xf32>) {
  // expected-error @+1 {{'tileas.broadcast' op expects the broadcast dimensions to be increasing result dimensions in [0, 2), got [2]}}
  %b = tileas.broadcast %bias dimensions = [2] : tensor<128xf32> -> tensor<128x128xf32>
  return
}

// -----

func.func @dimension_order(%s: tensor<f32>) {
  // expected-error @+1 {{'tileas.broadcast' op expects the broadcast dimensions to be increasing result dimensions in [0, 2), got [1, 0]}}
  %b = tileas.broadcast %s dimensions = [1, 0] : tensor<f32> -> tensor<128x128xf32>
  return
}

// -----

func.func @not_float(%v: tensor<128xi32>) {
  // expected-error @+1 {{'tileas.broadcast' op operand #0 must be}}
  %b = tileas.broadcast %v dimensions = [0] : tensor<128xi32> -> tensor<128x128xi32>
  return
}

// -----

// The elementwise ops keep their rule: a vector as the second operand is one
// value per row; a per-column vector goes through tileas.broadcast.
func.func @column_vector_in_add(%x: tensor<128x64xf32>, %bias: tensor<64xf32>) {
  // expected-error @+1 {{'tileas.add' op expects the second operand to be 'tensor<128x64xf32>', a row broadcast 'tensor<128xf32>' or a scalar 'f32', got 'tensor<64xf32>' (a vector per column is spread over the rows first: tileas.broadcast %v dimensions = [0] : 'tensor<64xf32>' -> 'tensor<128x64xf32>')}}
  %y = tileas.add %x, %bias : tensor<128x64xf32>, tensor<64xf32>
  return
}
