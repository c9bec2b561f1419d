// A vector that tileas.broadcast spreads along columns (dimensions = [0])
// is held whole by every thread of the agent; what cannot give it so is an
// error at the op, with the rule, and no output.
// RUN: not tilepipe-translate --tileas-to-cuda %s -split-input-file 2>&1 | FileCheck %s

// A row reduction gives one value per row, spread over the agent's threads.
// CHECK: offset :10:10: error: makes 'tensor<128xf32>', which a tileas.broadcast spreads along columns (dimensions = [0]); such a vector is loaded from shared memory (tileas.smem_load), made by tileas.iota or computed elementwise from such vectors, not made per row by 'tileas.reduce_sum'
func.func @reduced(%x: tensor<128x128xf32>) {
  tileas.agent {role = "simt", warps = 4 : i32} {
    %s = tileas.reduce_sum %x : tensor<128x128xf32> -> tensor<128xf32>
    %b = tileas.broadcast %s dimensions = [0] : tensor<128xf32> -> tensor<128x128xf32>
    %y = tileas.add %x, %b : tensor<128x128xf32>, tensor<128x128xf32>
    tileas.agent_yield
  }
  return
}

// -----

// The same vector read per row too (tileas.add's rank-1 operand).
// CHECK: offset :11:10: error: reads 'tensor<128xf32>' as a per-row vector, but a tileas.broadcast spreads it along columns (dimensions = [0]); broadcast it along columns here too, or use two vectors
func.func @both_ways(%x: tensor<128x128xf32>) {
  %buf = tileas.alloc_smem : !tileas.smem<128xf32>
  tileas.agent {role = "simt", warps = 4 : i32} {
    %v = tileas.smem_load %buf : !tileas.smem<128xf32> -> tensor<128xf32>
    %b = tileas.broadcast %v dimensions = [0] : tensor<128xf32> -> tensor<128x128xf32>
    %y = tileas.add %x, %b : tensor<128x128xf32>, tensor<128x128xf32>
    %z = tileas.add %y, %v : tensor<128x128xf32>, tensor<128xf32>
    tileas.agent_yield
  }
  return
}

// -----

// Broadcasts other than a vector over a rank-2 tile's rows or columns.
// CHECK: offset :7:10: error: only broadcasts of a vector over a rank-2 tile, dimensions = [0] or [1], are translated to CUDA
func.func @scalar_tile(%s: tensor<f32>, %x: tensor<128x128xf32>) {
  tileas.agent {role = "simt", warps = 4 : i32} {
    %b = tileas.broadcast %s dimensions = [0, 1] : tensor<f32> -> tensor<128x128xf32>
    %y = tileas.add %x, %b : tensor<128x128xf32>, tensor<128x128xf32>
    tileas.agent_yield
  }
  return
}
