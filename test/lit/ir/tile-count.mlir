// RUN: tilepipe-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// tileas.tile_count: a kernel that walks its own tiles says how many, in
// its body outside its loops, once.
// CHECK-LABEL: func.func @walks
// CHECK: tileas.tile_count %{{.*}}
func.func @walks(%m: index, %n: index) {
  %tiles = arith.muli %m, %n : index
  tileas.tile_count %tiles
  return
}

// -----

func.func @in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'tileas.tile_count' op expects to stand in a function's body, outside its loops}}
    tileas.tile_count %n
  }
  return
}

// -----

func.func @twice(%n: index) {
  // expected-error @+1 {{'tileas.tile_count' op expects one tile count in a function, got 2}}
  tileas.tile_count %n
  tileas.tile_count %n
  return
}
