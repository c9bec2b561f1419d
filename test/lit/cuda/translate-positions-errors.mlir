// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule=mode=unspecialized \
// RUN:   | not tilepipe-translate --tileas-to-cuda -o %t.cu 2>&1 | FileCheck %s
// RUN: test ! -e %t.cu

// Integer math on positions without a runtime function is an error at the
// op (docs/cuda.md, "Positions"), not C++ that nvcc rejects.
func.func @shift_positions(%descX: !tileas.tma_desc<128x64xf32> {tileas.name = "X"},
                           %descY: !tileas.tma_desc<128x64xf32> {tileas.name = "Y"},
                           %tiles: index {tileas.name = "tiles"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %ninf = arith.constant dense<0xFF800000> : tensor<128x64xf32>
  %two = arith.constant dense<2> : tensor<128x64xi32>
  scf.for %j = %c0 to %tiles step %c1 {
    %col = arith.muli %j, %c64 : index
    %a = tileas.tma_load %descX[%c0, %col] : !tileas.tma_desc<128x64xf32> -> !tileas.smem<128x64xf32>
    %x = tileas.smem_load %a : !tileas.smem<128x64xf32> -> tensor<128x64xf32>
    %cols = tileas.iota dimension = 1 : tensor<128x64xi32>
    %rows = tileas.iota dimension = 0 : tensor<128x64xi32>
    // CHECK: error: 'arith.divui' on a tile is not translated to CUDA (tiles of positions take addi, subi, muli, andi, ori, xori, maxsi, minsi, divsi, remsi, floordivsi, ceildivsi, shli, shrsi, cmpi and sitofp)
    %half = arith.divui %rows, %two : tensor<128x64xi32>
    %keep = arith.cmpi sle, %cols, %half : tensor<128x64xi32>
    %y = arith.select %keep, %x, %ninf : tensor<128x64xi1>, tensor<128x64xf32>
    %o = tileas.smem_store %y : tensor<128x64xf32> -> !tileas.smem<128x64xf32>
    tileas.tma_store %o, %descY[%c0, %col] : !tileas.smem<128x64xf32>, !tileas.tma_desc<128x64xf32>
  }
  return
}
