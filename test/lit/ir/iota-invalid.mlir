// RUN: tilepipe-opt %s -split-input-file -verify-diagnostics

// tileas.iota's verifier: one message per rule, each naming it.

func.func @i64_positions() {
  // expected-error @+1 {{'tileas.iota' op expects i32 positions, got 'i64'}}
  %p = tileas.iota dimension = 0 : tensor<128x128xi64>
  return
}

// -----

func.func @rank3() {
  // expected-error @+1 {{'tileas.iota' op expects a rank-1 or rank-2 tile, got 'tensor<2x128x128xi32>'}}
  %p = tileas.iota dimension = 0 : tensor<2x128x128xi32>
  return
}

// -----

func.func @dimension_past_rank() {
  // expected-error @+1 {{'tileas.iota' op expects a dimension of the tile (0 to 1), got 2}}
  %p = tileas.iota dimension = 2 : tensor<128x128xi32>
  return
}

// -----

func.func @dynamic() {
  // expected-error @+1 {{'tileas.iota' op expects a static shape whose positions fit i32, got 'tensor<?x128xi32>'}}
  %p = tileas.iota dimension = 1 : tensor<?x128xi32>
  return
}
