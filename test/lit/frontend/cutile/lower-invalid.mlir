// What --tileir-to-tileas refuses: an error at the op, saying why, and a
// non-zero exit (docs/cuda-tile-lowering.md, "What is refused").
// Each error stands at its op (-verify-diagnostics), and the tool exits
// non-zero with the message:
// RUN: tilepipe-opt %s --tileir-to-tileas -split-input-file -verify-diagnostics
// RUN: not tilepipe-opt %s --tileir-to-tileas -split-input-file 2>&1 | FileCheck %s

// TMA fills out-of-bounds elements with zero; threads read a tile loaded
// with another padding with it (smem_load valid(..) padding = V), which
// only a float tile has.
tileir.entry @pad(%p: tile<ptr<i32>>, %m: tile<i32>, %n: tile<i32>, %s0: tile<i32>, %s1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %v = make_tensor_view %p, shape = [%m, %n], strides = [%s0, %s1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,?]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pv = make_partition_view %v : partition_view<tile=(128x128), padding_value = neg_inf, tensor_view<?x?xi32, strides=[?,?]>>
  // CHECK: error: a load of 'i32' with padding_value = neg_inf is not lowered: only float tiles are padded with other than zero
  // expected-error @+1 {{a load of 'i32' with padding_value = neg_inf is not lowered}}
  %x, %tok = load_view_tko weak %pv[%bx, %bx] token = %t : partition_view<tile=(128x128), padding_value = neg_inf, tensor_view<?x?xi32, strides=[?,?]>>, tile<i32> -> tile<128x128xi32>, token
  return
}

// -----

// A TMA box holds at most 256 elements per dimension; only the innermost
// is split into several boxes.
tileir.entry @wide(%p: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %s0: tile<i32>, %s1: tile<i32>) optimization_hints=<default = {}> {
  %v = make_tensor_view %p, shape = [%m, %n], strides = [%s0, %s1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]>
  // CHECK: error: a tile of 1024 elements along tensor dimension 0 is not lowered: a TMA box holds at most 256 per dimension (only the innermost is split into several boxes)
  // expected-error @+1 {{a tile of 1024 elements along tensor dimension 0 is not lowered}}
  %pv = make_partition_view %v : partition_view<tile=(1024x16), tensor_view<?x?xf32, strides=[?,?]>>
  return
}

// -----

// A box's rows are whole 16-byte units.
tileir.entry @narrow(%p: tile<ptr<bf16>>, %m: tile<i32>, %n: tile<i32>, %s0: tile<i32>, %s1: tile<i32>) optimization_hints=<default = {}> {
  %v = make_tensor_view %p, shape = [%m, %n], strides = [%s0, %s1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,?]>
  // CHECK: error: a tile whose innermost dimension spans 8 bytes is not lowered: a TMA box's inner dimension is a multiple of 16 bytes (a tile of one element is, stored by a thread)
  // expected-error @+1 {{a tile whose innermost dimension spans 8 bytes is not lowered}}
  %pv = make_partition_view %v : partition_view<tile=(128x4), tensor_view<?x?xbf16, strides=[?,?]>>
  return
}

// -----

// Integer tiles are positions (i32 tiles of iota and the i1 masks made of
// them) or i32, i16 and i8 data; a tile of i64 is none of these.
tileir.entry @inttile() optimization_hints=<default = {}> {
  %c = constant <i64: 3> : tile<128xi64>
  // CHECK: error: integer math on a tile is lowered only on i32, i16, i8 and i1 tiles
  // expected-error @+1 {{integer math on a tile is lowered only on i32, i16, i8 and i1 tiles in registers (positions and their masks, integer data, integer MMA results)}}
  %d = addi %c, %c : tile<128xi64>
  return
}

// -----

// Max and sum are the reductions tileas has.
tileir.entry @product(%p: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %s0: tile<i32>, %s1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %v = make_tensor_view %p, shape = [%m, %n], strides = [%s0, %s1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pv = make_partition_view %v : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>
  %x, %tok = load_view_tko weak %pv[%bx, %bx] token = %t : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> tile<128x128xf32>, token
  // CHECK: error: a reduction whose combiner is not one maxf, minf or addf of its arguments is not lowered
  // expected-error @+1 {{a reduction whose combiner is not one maxf, minf or addf of its arguments is not lowered}}
  %r = reduce %x dim=1 identities=[1.000000e+00 : f32] : tile<128x128xf32> -> tile<128xf32> (%l: tile<f32>, %q: tile<f32>) {
    %s = mulf %l, %q : tile<f32>
    yield %s : tile<f32>
  }
  return
}

// -----

// A reduce of a value and its index together (the body's arguments each
// operand's lhs and rhs in turn, as tileirdisasm prints them) whose
// combiner keeps the right pair on ties is not cuTile's argmax (the
// smaller index on ties, row-argmax.test): refused.
tileir.entry @argmax(%p: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %s0: tile<i32>, %s1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %v = make_tensor_view %p, shape = [%m, %n], strides = [%s0, %s1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pv = make_partition_view %v : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>
  %x, %tok = load_view_tko weak %pv[%bx, %bx] token = %t : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> tile<128x128xf32>, token
  %i = iota : tile<128xi32>
  %i1 = reshape %i : tile<128xi32> -> tile<1x128xi32>
  %cols = broadcast %i1 : tile<1x128xi32> -> tile<128x128xi32>
  // CHECK: error: a reduction of several tiles at once other than ct.argmax and ct.argmin is not lowered
  // expected-error @+1 {{a reduction of several tiles at once other than ct.argmax and ct.argmin is not lowered}}
  %r:2 = reduce %x, %cols dim=1 identities=[0xFF800000 : f32, 0 : i32] : tile<128x128xf32>, tile<128x128xi32> -> tile<128xf32>, tile<128xi32> (%l0: tile<f32>, %r0: tile<f32>, %l1: tile<i32>, %r1: tile<i32>) {
    %gt = cmpf greater_than ordered %l0, %r0 : tile<f32> -> tile<i1>
    %v0 = select %gt, %l0, %r0 : tile<i1>, tile<f32>
    %v1 = select %gt, %l1, %r1 : tile<i1>, tile<i32>
    yield %v0, %v1 : tile<f32>, tile<i32>
  }
  return
}

// -----

// An accumulator in TMEM starts from zeros (the first MMA overwrites it),
// or from data that only MMAs add to in the loop (added after it): one the
// loop's SIMT work also reads (here scales) would have to start in TMEM.
tileir.entry @accinit(%a: tile<ptr<bf16>>, %m: tile<i32>, %k: tile<i32>, %s0: tile<i32>, %s1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %v = make_tensor_view %a, shape = [%m, %k], strides = [%s0, %s1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,?]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pa = make_partition_view %v : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,?]>>
  %pb = make_partition_view %v : partition_view<tile=(64x128), tensor_view<?x?xbf16, strides=[?,?]>>
  %zero = constant <i32: 0> : tile<i32>
  %one = constant <i32: 1> : tile<i32>
  %init = constant <f32: 1.0> : tile<128x128xf32>
  // CHECK: error: an MMA accumulator that starts from a tile other than zeros is lowered only when nothing but MMAs adds to it in the loop
  // expected-error @+1 {{an MMA accumulator that starts from a tile other than zeros is lowered only when nothing but MMAs adds to it in the loop (its initial value is then added after the loop)}}
  %acc = for %i in (%zero to %k, step %one) : tile<i32> iter_values(%c = %init) -> (tile<128x128xf32>) {
    %x, %t1 = load_view_tko weak %pa[%bx, %i] token = %t : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,?]>>, tile<i32> -> tile<128x64xbf16>, token
    %y, %t2 = load_view_tko weak %pb[%i, %bx] token = %t : partition_view<tile=(64x128), tensor_view<?x?xbf16, strides=[?,?]>>, tile<i32> -> tile<64x128xbf16>, token
    %h = mulf %c, %c : tile<128x128xf32>
    %d = mmaf %x, %y, %h : tile<128x64xbf16>, tile<64x128xbf16>, tile<128x128xf32>
    continue %d : tile<128x128xf32>
  }
  return
}

// -----

// tilepipe's float math rounds to nearest even.
tileir.entry @rounding() optimization_hints=<default = {}> {
  %c = constant <f32: 1.0> : tile<128x128xf32>
  // CHECK: error: rounding mode zero is not lowered: tilepipe's float math rounds to nearest even
  // expected-error @+1 {{rounding mode zero is not lowered}}
  %d = addf %c, %c rounding<zero> : tile<128x128xf32>
  return
}

// -----

// `x ** n` with an integer n is multiplies: n a constant of magnitude at
// most 16 (docs/cuda-tile-lowering.md).
tileir.entry @fpowi_varying(%n: tile<i32>) optimization_hints=<default = {}> {
  %c = constant <f32: 1.5> : tile<128x128xf32>
  %r = reshape %n : tile<i32> -> tile<1x1xi32>
  %e = broadcast %r : tile<1x1xi32> -> tile<128x128xi32>
  // CHECK: error: `x ** n` with an integer n (fpowi) is lowered only for a constant n of magnitude at most 16, as multiplies; write a larger or varying power as exp2(n * log2(x))
  // expected-error @+1 {{`x ** n` with an integer n (fpowi) is lowered only for a constant n of magnitude at most 16}}
  %d = fpowi %c, %e : tile<128x128xf32>, tile<128x128xi32>
  return
}

// -----

tileir.entry @fpowi_large() optimization_hints=<default = {}> {
  %c = constant <f32: 1.5> : tile<128x128xf32>
  %e = constant <i32: 17> : tile<128x128xi32>
  // expected-error @+1 {{`x ** n` with an integer n (fpowi) is lowered only for a constant n of magnitude at most 16}}
  %d = fpowi %c, %e : tile<128x128xf32>, tile<128x128xi32>
  return
}

// -----

// A tile of one element read padded (every thread reads the element, zero
// outside the array: tileas.global_load).
tileir.entry @element_load(%p: tile<ptr<f32>>, %m: tile<i32>, %s: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %v = make_tensor_view %p, shape = [%m], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pv = make_partition_view %v : partition_view<tile=(1), padding_value = nan, tensor_view<?xf32, strides=[1]>>
  // CHECK: error: a load of one element with padding_value = nan is not lowered: the threads read zero outside the tensor
  // expected-error @+1 {{a load of one element with padding_value = nan is not lowered}}
  %x, %tok = load_view_tko weak %pv[%bx] token = %t : partition_view<tile=(1), padding_value = nan, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1xf32>, token
  return
}

// -----

// Positions are i32 (tileas.iota's type).
tileir.entry @iota() optimization_hints=<default = {}> {
  // CHECK: error: an iota other than a vector of i32 is not lowered
  // expected-error @+1 {{an iota other than a vector of i32 is not lowered}}
  %i = iota : tile<128xi64>
  return
}

// -----

// A loop around another is lowered only as cuTile's persistent loop over
// output tiles (lower-persistent.test): from the block index, by the grid.
tileir.entry @persistent(%n: tile<i32>) optimization_hints=<default = {}> {
  %zero = constant <i32: 0> : tile<i32>
  %one = constant <i32: 1> : tile<i32>
  // CHECK: error: a loop around another loop is lowered only as a persistent loop over output tiles, `for t in range(ct.bid(0), tiles, ct.num_blocks(0))` at the kernel's top level: this one does not start at the block index and step by the grid (x)
  // expected-error @+1 {{a loop around another loop is lowered only as a persistent loop over output tiles}}
  for %t in (%zero to %n, step %one) : tile<i32> {
    for %k in (%zero to %n, step %one) : tile<i32> {
      continue
    }
    continue
  }
  return
}

// -----

// Inside the tile loop the block index is the tile's: a kernel that reads
// the physical one too is refused.
tileir.entry @persistent_reads_bid(%n: tile<i32>) optimization_hints=<default = {}> {
  %zero = constant <i32: 0> : tile<i32>
  %one = constant <i32: 1> : tile<i32>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
  // CHECK: error: a loop around another loop is lowered only as a persistent loop over output tiles, `for t in range(ct.bid(0), tiles, ct.num_blocks(0))` at the kernel's top level: the kernel reads the block index or the grid elsewhere too (a 'tileir.addi')
  // expected-error @+1 {{the kernel reads the block index or the grid elsewhere too (a 'tileir.addi')}}
  for %t in (%bx to %n, step %gx) : tile<i32> {
    %u = addi %t, %bx : tile<i32>
    for %k in (%zero to %u, step %one) : tile<i32> {
      continue
    }
    continue
  }
  return
}

// -----

// One pipelined loop a tile: a kernel with two (a norm's sum and its scaling
// pass) is written for one tile per block instead.
tileir.entry @persistent_two_loops(%n: tile<i32>) optimization_hints=<default = {}> {
  %zero = constant <i32: 0> : tile<i32>
  %one = constant <i32: 1> : tile<i32>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
  // CHECK: error: {{.*}}: this one holds 2 loops, and a kernel that walks its own tiles runs one pipelined loop a tile (write it for one tile per block)
  // expected-error @+1 {{this one holds 2 loops}}
  for %t in (%bx to %n, step %gx) : tile<i32> {
    for %k in (%zero to %n, step %one) : tile<i32> {
      continue
    }
    for %j in (%zero to %n, step %one) : tile<i32> {
      continue
    }
    continue
  }
  return
}

// -----

// Values carried from tile to tile would tie the tiles' order.
tileir.entry @persistent_carries(%n: tile<i32>) optimization_hints=<default = {}> {
  %zero = constant <i32: 0> : tile<i32>
  %one = constant <i32: 1> : tile<i32>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
  // CHECK: error: {{.*}}: this one carries values from tile to tile
  // expected-error @+1 {{this one carries values from tile to tile}}
  %s = for %t in (%bx to %n, step %gx) : tile<i32> iter_values(%c = %zero) -> (tile<i32>) {
    for %k in (%zero to %n, step %one) : tile<i32> {
      continue
    }
    %d = addi %c, %t : tile<i32>
    continue %d : tile<i32>
  }
  return
}

// -----

// scf.for compares its bounds signed.
tileir.entry @unsigned(%n: tile<i32>) optimization_hints=<default = {}> {
  %zero = constant <i32: 0> : tile<i32>
  %one = constant <i32: 1> : tile<i32>
  // CHECK: error: a loop that compares its induction variable unsigned is not lowered
  // expected-error @+1 {{a loop that compares its induction variable unsigned is not lowered}}
  for %i in (%zero to %n, step %one) : tile<i32> attributes {unsigned_cmp} {
    continue
  }
  return
}

// -----

// An op without a tileas meaning.
tileir.entry @cat() optimization_hints=<default = {}> {
  %m = constant <f32: 1.0> : tile<8x8xf32>
  // CHECK: error: 'tileir.cat' is not lowered to tileas
  // expected-error @+1 {{'tileir.cat' is not lowered to tileas}}
  %p = cat %m, %m dim = 1 : tile<8x8xf32>, tile<8x8xf32> -> tile<8x16xf32>
  return
}

// -----

// A float-to-integer conversion is lowered signed, toward zero and not
// saturating (quantize-rows.test).
tileir.entry @ftoi_saturating() optimization_hints=<default = {}> {
  %m = constant <f32: 1.0> : tile<128x64xf32>
  // CHECK: error: a saturating float-to-integer conversion is not lowered
  // expected-error @+1 {{a saturating float-to-integer conversion is not lowered}}
  %p = ftoi %m signed saturating : tile<128x64xf32> -> tile<128x64xi8>
  return
}

// -----

// Integer tiles become floats only as positions (a position-dependent bias,
// i32, signed): an i64 tile is not one.
tileir.entry @itof_i64() optimization_hints=<default = {}> {
  %c = constant <i64: 3> : tile<128xi64>
  // CHECK: error: an integer tile converted to float is lowered only for i32 positions
  // expected-error @+1 {{an integer tile converted to float is lowered only for i32 positions (iota and the math on it)}}
  %f = itof %c signed : tile<128xi64> -> tile<128xf32>
  return
}

// -----

tileir.entry @itof_unsigned() optimization_hints=<default = {}> {
  %i = iota : tile<128xi32>
  // CHECK: error: integer tiles in registers converted to float are lowered signed only
  // expected-error @+1 {{integer tiles in registers converted to float are lowered signed only}}
  %f = itof %i unsigned : tile<128xi32> -> tile<128xf32>
  return
}

// -----

// A permute is lowered as a swap of two dimensions (the MMA reads the other
// way) or a move of unit dimensions only.
tileir.entry @reorder3() optimization_hints=<default = {}> {
  %m = constant <f32: 1.0> : tile<2x4x8xf32>
  // CHECK: error: a permute that reorders more than two dimensions of extent above 1 is not lowered
  // expected-error @+1 {{a permute that reorders more than two dimensions of extent above 1 is not lowered}}
  %p = permute %m [2, 0, 1] : tile<2x4x8xf32> -> tile<8x2x4xf32>
  return
}

// -----

// TMA moves tensors of rank 1 to 5.
tileir.entry @rank6(%p: tile<ptr<f32>>, %d0: tile<i32>, %d1: tile<i32>, %d2: tile<i32>, %d3: tile<i32>, %d4: tile<i32>, %d5: tile<i32>, %s0: tile<i32>, %s1: tile<i32>, %s2: tile<i32>, %s3: tile<i32>, %s4: tile<i32>, %s5: tile<i32>) optimization_hints=<default = {}> {
  %v = make_tensor_view %p, shape = [%d0, %d1, %d2, %d3, %d4, %d5], strides = [%s0, %s1, %s2, %s3, %s4, 1] : tile<i32> -> tensor_view<?x?x?x?x?x?xf32, strides=[?,?,?,?,?,1]>
  // CHECK: error: a tile of rank 6 is not lowered: tilepipe moves tiles by TMA of rank 1 to 5
  // expected-error @+1 {{a tile of rank 6 is not lowered: tilepipe moves tiles by TMA of rank 1 to 5}}
  %pv = make_partition_view %v : partition_view<tile=(1x1x1x1x8x16), tensor_view<?x?x?x?x?x?xf32, strides=[?,?,?,?,?,1]>>
  return
}

// -----

// An `if` is lowered by running both branches, a select taking one's
// values (the stores of the branch not taken write nothing): a branch that
// loads (or multiplies) is refused.
tileir.entry @branch_loads(%p: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %s0: tile<i32>, %s1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %v = make_tensor_view %p, shape = [%m, %n], strides = [%s0, %s1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pv = make_partition_view %v : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>
  %zero = constant <i32: 0> : tile<i32>
  %c = cmpi equal %bx, %zero, signed : tile<i32> -> tile<i1>
  %z = constant <f32: 0.0> : tile<128x128xf32>
  // CHECK: error: an `if` is lowered only when its branches just compute or store (both run, a select takes one's values, and the other's stores write nothing); this one does 'tileas.tma_load'
  // expected-error @+1 {{an `if` is lowered only when its branches just compute or store}}
  %r = if %c -> (tile<128x128xf32>) {
    %x, %tok = load_view_tko weak %pv[%bx, %bx] token = %t : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> tile<128x128xf32>, token
    yield %x : tile<128x128xf32>
  } else {
    yield %z : tile<128x128xf32>
  }
  return
}

// -----

// Integer data converted to float is taken signed (int8 weights); cuTile's
// uint8 would need the unsigned conversion.
tileir.entry @unsigned_bytes(%p: tile<ptr<i8>>, %m: tile<i32>, %n: tile<i32>, %s0: tile<i32>, %s1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %v = make_tensor_view %p, shape = [%m, %n], strides = [%s0, %s1] : tile<i32> -> tensor_view<?x?xi8, strides=[?,?]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pv = make_partition_view %v : partition_view<tile=(128x64), tensor_view<?x?xi8, strides=[?,?]>>
  %x, %tok = load_view_tko weak %pv[%bx, %bx] token = %t : partition_view<tile=(128x64), tensor_view<?x?xi8, strides=[?,?]>>, tile<i32> -> tile<128x64xi8>, token
  // CHECK: error: an unsigned integer tile converted to float is not lowered (signed int8, int16 and int32 are)
  // expected-error @+1 {{an unsigned integer tile converted to float is not lowered}}
  %f = itof %x unsigned : tile<128x64xi8> -> tile<128x64xf32>
  return
}

// -----

// A scan runs along the rows of a 2-D tile (forward or reverse), not down
// its columns.
tileir.entry @column_scan(%p: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %s0: tile<i32>, %s1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %v = make_tensor_view %p, shape = [%m, %n], strides = [%s0, %s1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pv = make_partition_view %v : partition_view<tile=(128x64), tensor_view<?x?xf32, strides=[?,?]>>
  %x, %tok = load_view_tko weak %pv[%bx, %bx] token = %t : partition_view<tile=(128x64), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> tile<128x64xf32>, token
  // CHECK: error: only a scan of f32 along the rows of a 2-D tile (dim = 1) is lowered
  // expected-error @+1 {{only a scan of f32 along the rows of a 2-D tile (dim = 1) is lowered}}
  %c = scan %x dim=0 identities=[0.000000e+00 : f32] reverse : tile<128x64xf32> -> tile<128x64xf32> (%a: tile<f32>, %b: tile<f32>) {
    %s = addf %a, %b : tile<f32>
    yield %s : tile<f32>
  }
  return
}

// -----

// Integer tiles widen signed (int8 data unpacked in i32) and narrow; an
// unsigned widening of a tile is not lowered, nor one past 32 bits.
tileir.entry @exti_unsigned_tile() optimization_hints=<default = {}> {
  %c = constant <i8: 3> : tile<128xi8>
  // CHECK: error: an integer tile widened unsigned is not lowered
  // expected-error @+1 {{an integer tile widened unsigned is not lowered (signed widening and narrowing are)}}
  %e = exti %c unsigned : tile<128xi8> -> tile<128xi32>
  return
}

// -----

tileir.entry @exti_i64_tile() optimization_hints=<default = {}> {
  %c = constant <i32: 3> : tile<128xi32>
  // CHECK: error: an integer tile widened to 'i64' is not lowered
  // expected-error @+1 {{an integer tile widened to 'i64' is not lowered: register tiles hold i32, i16, i8 and i1}}
  %e = exti %c signed : tile<128xi32> -> tile<128xi64>
  return
}
