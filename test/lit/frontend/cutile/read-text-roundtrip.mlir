// The tileir dialect's textual form, as tileirdisasm prints CUDA Tile IR:
// hand-written GEMM, softmax and attention bodies, and the other ops and
// modifiers cuTile writes, print and parse back unchanged, also in the
// generic form (which spells the types `!tileir.tile<...>`).
// RUN: tilepipe-opt %s | tilepipe-opt | FileCheck %s
// RUN: tilepipe-opt %s -mlir-print-op-generic | tilepipe-opt | FileCheck %s

// CHECK-LABEL: tileir.entry @gemm(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<bf16>>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>)
// CHECK-SAME: optimization_hints=<sm_100 = {num_worker_warps_per_cta = 4, occupancy = 1}>
tileir.entry @gemm(%a: tile<ptr<bf16>>, %m: tile<i32>, %k: tile<i32>,
                   %b: tile<ptr<bf16>>, %n: tile<i32>, %c: tile<ptr<f32>>)
    optimization_hints=<sm_100 = {occupancy = 1, num_worker_warps_per_cta = 4}> {
  // CHECK: make_token : token
  %t = make_token : token
  // CHECK: assume bounded<0, ?>, %arg1 : tile<i32>
  %m0 = assume bounded<0, ?>, %m : tile<i32>
  // CHECK: assume div_by<16>, %arg2 : tile<i32>
  %k0 = assume div_by<16>, %k : tile<i32>
  // CHECK: assume div_by<16, every 4 along 0>, %arg4 : tile<i32>
  %n0 = assume div_by<16, every 4 along 0>, %n : tile<i32>
  %one = constant <i32: 1> : tile<i32>
  // CHECK: make_tensor_view %arg0, shape = [%{{.*}}, %{{.*}}], strides = [%{{.*}}, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %av = make_tensor_view %a, shape = [%m0, %k0], strides = [%k0, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %bv = make_tensor_view %b, shape = [%k0, %n0], strides = [%n0, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  // CHECK: make_tensor_view %arg5, shape = [256, 256], strides = [256, 1] : tensor_view<256x256xf32, strides=[256,1]>
  %cv = make_tensor_view %c, shape = [256, 256], strides = [256, 1] : tensor_view<256x256xf32, strides=[256,1]>
  // CHECK: %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  // CHECK: make_partition_view %{{.*}} : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>
  %ap = make_partition_view %av : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>
  %bp = make_partition_view %bv : partition_view<tile=(64x256), tensor_view<?x?xbf16, strides=[?,1]>>
  %cp = make_partition_view %cv : partition_view<tile=(128x256), tensor_view<256x256xf32, strides=[256,1]>>
  // CHECK: %[[NK:.*]]:2 = get_index_space_shape %{{.*}} : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>> -> tile<i32>
  %nk:2 = get_index_space_shape %ap : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>> -> tile<i32>
  %zero = constant <i32: 0> : tile<i32>
  // CHECK: constant <f32: 0.000000e+00> : tile<128x256xf32>
  %acc0 = constant <f32: 0.0> : tile<128x256xf32>
  // CHECK: for %loopIdx in (%{{.*}} to %[[NK]]#1, step %{{.*}}) : tile<i32> iter_values(%iterArg0 = %{{.*}}) -> (tile<128x256xf32>) {
  %acc = for %i in (%zero to %nk#1, step %one) : tile<i32> iter_values(%x = %acc0) -> (tile<128x256xf32>) {
    // CHECK: load_view_tko weak %{{.*}}[%blockId_x, %loopIdx] token = %{{.*}} optimization_hints = <default = {allow_tma = false, latency = 3}> : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
    %at, %atok = load_view_tko weak %ap[%bx, %i] token = %t optimization_hints = <default = {latency = 3, allow_tma = false}> : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
    // CHECK: load_view_tko relaxed device %{{.*}}[%loopIdx, %blockId_y]
    %bt, %btok = load_view_tko relaxed device %bp[%i, %by] : partition_view<tile=(64x256), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<64x256xbf16>, token
    // CHECK: mmaf %{{.*}}, %{{.*}}, %iterArg0 : tile<128x64xbf16>, tile<64x256xbf16>, tile<128x256xf32>
    %y = mmaf %at, %bt, %x : tile<128x64xbf16>, tile<64x256xbf16>, tile<128x256xf32>
    // CHECK: continue %{{.*}} : tile<128x256xf32>
    continue %y : tile<128x256xf32>
  }
  // CHECK: store_view_tko weak %{{.*}}, %{{.*}}[%blockId_x, %blockId_y] token = %{{.*}} : tile<128x256xf32>, partition_view<tile=(128x256), tensor_view<256x256xf32, strides=[256,1]>>, tile<i32> -> token
  %st = store_view_tko weak %acc, %cp[%bx, %by] token = %t : tile<128x256xf32>, partition_view<tile=(128x256), tensor_view<256x256xf32, strides=[256,1]>>, tile<i32> -> token
  // CHECK: return
  return
}

// CHECK-LABEL: tileir.entry @softmax
tileir.entry @softmax(%x: tile<ptr<f32>>, %rows: tile<i32>, %y: tile<ptr<f32>>) optimization_hints=<default = {}> {
  %t = make_token : token
  %xv = make_tensor_view %x, shape = [%rows, 1024], strides = [1024, 1] : tile<i32> -> tensor_view<?x1024xf32, strides=[1024,1]>
  %yv = make_tensor_view %y, shape = [%rows, 1024], strides = [1024, 1] : tile<i32> -> tensor_view<?x1024xf32, strides=[1024,1]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %zero = constant <i32: 0> : tile<i32>
  // CHECK: partition_view<tile=(1x1024), padding_value = neg_inf, tensor_view<?x1024xf32, strides=[1024,1]>>
  %xp = make_partition_view %xv : partition_view<tile=(1x1024), padding_value = neg_inf, tensor_view<?x1024xf32, strides=[1024,1]>>
  %yp = make_partition_view %yv : partition_view<tile=(1x1024), tensor_view<?x1024xf32, strides=[1024,1]>>
  %row, %tok = load_view_tko weak %xp[%bx, %zero] token = %t : partition_view<tile=(1x1024), padding_value = neg_inf, tensor_view<?x1024xf32, strides=[1024,1]>>, tile<i32> -> tile<1x1024xf32>, token
  // CHECK: reduce %{{.*}} dim=1 identities=[0xFF800000 : f32] : tile<1x1024xf32> -> tile<1xf32> (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
  // CHECK-NEXT: maxf %reduce_lhs, %reduce_rhs : tile<f32>
  // CHECK-NEXT: yield %{{.*}} : tile<f32>
  %max = reduce %row dim=1 identities=[0xFF800000 : f32] : tile<1x1024xf32> -> tile<1xf32> (%l: tile<f32>, %r: tile<f32>) {
    %m = maxf %l, %r : tile<f32>
    yield %m : tile<f32>
  }
  // CHECK: reshape %{{.*}} : tile<1xf32> -> tile<1x1xf32>
  %max2 = reshape %max : tile<1xf32> -> tile<1x1xf32>
  // CHECK: broadcast %{{.*}} : tile<1x1xf32> -> tile<1x1024xf32>
  %maxb = broadcast %max2 : tile<1x1xf32> -> tile<1x1024xf32>
  // CHECK: subf %{{.*}}, %{{.*}} : tile<1x1024xf32>
  %d = subf %row, %maxb : tile<1x1024xf32>
  // CHECK: exp %{{.*}} : tile<1x1024xf32>
  %e = exp %d : tile<1x1024xf32>
  %sum = reduce %e dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1xf32> (%l: tile<f32>, %r: tile<f32>) {
    %s = addf %l, %r : tile<f32>
    yield %s : tile<f32>
  }
  %sum2 = reshape %sum : tile<1xf32> -> tile<1x1xf32>
  %sumb = broadcast %sum2 : tile<1x1xf32> -> tile<1x1024xf32>
  // CHECK: divf %{{.*}}, %{{.*}} rounding<approx> flush_to_zero : tile<1x1024xf32>
  %p = divf %e, %sumb rounding<approx> flush_to_zero : tile<1x1024xf32>
  %st = store_view_tko weak %p, %yp[%bx, %zero] token = %tok : tile<1x1024xf32>, partition_view<tile=(1x1024), tensor_view<?x1024xf32, strides=[1024,1]>>, tile<i32> -> token
  return
}

// CHECK-LABEL: tileir.entry @attention
tileir.entry @attention(%q: tile<ptr<bf16>>, %k: tile<ptr<bf16>>, %v: tile<ptr<bf16>>, %o: tile<ptr<bf16>>, %n: tile<i32>, %scale: tile<f32>) {
  %t = make_token : token
  %qv = make_tensor_view %q, shape = [%n, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xbf16, strides=[64,1]>
  %kv = make_tensor_view %k, shape = [%n, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xbf16, strides=[64,1]>
  %vv = make_tensor_view %v, shape = [%n, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xbf16, strides=[64,1]>
  %ov = make_tensor_view %o, shape = [%n, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xbf16, strides=[64,1]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %zero = constant <i32: 0> : tile<i32>
  %one = constant <i32: 1> : tile<i32>
  %qp = make_partition_view %qv : partition_view<tile=(128x64), tensor_view<?x64xbf16, strides=[64,1]>>
  // CHECK: partition_view<tile=(64x64), tensor_view<?x64xbf16, strides=[64,1]>, dim_map=[1, 0]>
  %kp = make_partition_view %kv : partition_view<tile=(64x64), tensor_view<?x64xbf16, strides=[64,1]>, dim_map=[1, 0]>
  %vp = make_partition_view %vv : partition_view<tile=(64x64), tensor_view<?x64xbf16, strides=[64,1]>>
  %op = make_partition_view %ov : partition_view<tile=(128x64), tensor_view<?x64xbf16, strides=[64,1]>>
  %nk:2 = get_index_space_shape %vp : partition_view<tile=(64x64), tensor_view<?x64xbf16, strides=[64,1]>> -> tile<i32>
  %qt, %qtok = load_view_tko weak %qp[%bx, %zero] token = %t : partition_view<tile=(128x64), tensor_view<?x64xbf16, strides=[64,1]>>, tile<i32> -> tile<128x64xbf16>, token
  %ninf = constant <f32: 0xFF800000> : tile<128x1xf32>
  %l0 = constant <f32: 0.0> : tile<128x1xf32>
  %acc0 = constant <f32: 0.0> : tile<128x64xf32>
  %s1 = reshape %scale : tile<f32> -> tile<1x1xf32>
  %sb = broadcast %s1 : tile<1x1xf32> -> tile<128x64xf32>
  // CHECK: %{{.*}}:3 = for %loopIdx in ({{.*}}) : tile<i32> iter_values(%iterArg0 = %{{.*}}, %iterArg1 = %{{.*}}, %iterArg2 = %{{.*}}) -> (tile<128x64xf32>, tile<128x1xf32>, tile<128x1xf32>) {
  %r:3 = for %j in (%zero to %nk#0, step %one) : tile<i32> iter_values(%acc = %acc0, %l = %l0, %m = %ninf) -> (tile<128x64xf32>, tile<128x1xf32>, tile<128x1xf32>) {
    %kt, %ktok = load_view_tko weak %kp[%zero, %j] token = %t optimization_hints = <default = {latency = 2}> : partition_view<tile=(64x64), tensor_view<?x64xbf16, strides=[64,1]>, dim_map=[1, 0]>, tile<i32> -> tile<64x64xbf16>, token
    %s = mmaf %qt, %kt, %acc0 : tile<128x64xbf16>, tile<64x64xbf16>, tile<128x64xf32>
    %rowmax = reduce %s dim=1 identities=[0xFF800000 : f32] : tile<128x64xf32> -> tile<128xf32> (%a: tile<f32>, %b: tile<f32>) {
      %mx = maxf %a, %b propagate_nan : tile<f32>
      yield %mx : tile<f32>
    }
    %rm = reshape %rowmax : tile<128xf32> -> tile<128x1xf32>
    // CHECK: maxf %iterArg2, %{{.*}} : tile<128x1xf32>
    %mnew = maxf %m, %rm : tile<128x1xf32>
    %mb = broadcast %mnew : tile<128x1xf32> -> tile<128x64xf32>
    // CHECK: negf %{{.*}} : tile<128x64xf32>
    %neg = negf %mb : tile<128x64xf32>
    // CHECK: fma %{{.*}}, %{{.*}}, %{{.*}} : tile<128x64xf32>
    %z = fma %s, %sb, %neg : tile<128x64xf32>
    // CHECK: exp2 %{{.*}} flush_to_zero : tile<128x64xf32>
    %p = exp2 %z flush_to_zero : tile<128x64xf32>
    %ps = reduce %p dim=1 identities=[0.0 : f32] : tile<128x64xf32> -> tile<128xf32> (%a: tile<f32>, %b: tile<f32>) {
      %sm = addf %a, %b : tile<f32>
      yield %sm : tile<f32>
    }
    %ps1 = reshape %ps : tile<128xf32> -> tile<128x1xf32>
    %dm = subf %m, %mnew : tile<128x1xf32>
    %alpha = exp2 %dm : tile<128x1xf32>
    %lnew = fma %l, %alpha, %ps1 : tile<128x1xf32>
    %ab = broadcast %alpha : tile<128x1xf32> -> tile<128x64xf32>
    %accs = mulf %acc, %ab : tile<128x64xf32>
    %vt, %vtok = load_view_tko weak %vp[%j, %zero] token = %t : partition_view<tile=(64x64), tensor_view<?x64xbf16, strides=[64,1]>>, tile<i32> -> tile<64x64xbf16>, token
    // CHECK: ftof %{{.*}} : tile<128x64xf32> -> tile<128x64xbf16>
    %pb = ftof %p : tile<128x64xf32> -> tile<128x64xbf16>
    %accn = mmaf %pb, %vt, %accs : tile<128x64xbf16>, tile<64x64xbf16>, tile<128x64xf32>
    continue %accn, %lnew, %mnew : tile<128x64xf32>, tile<128x1xf32>, tile<128x1xf32>
  }
  %lb = broadcast %r#1 : tile<128x1xf32> -> tile<128x64xf32>
  %out = divf %r#0, %lb : tile<128x64xf32>
  // CHECK: ftof %{{.*}} rounding<zero> : tile<128x64xf32> -> tile<128x64xbf16>
  %ob = ftof %out rounding<zero> : tile<128x64xf32> -> tile<128x64xbf16>
  %st = store_view_tko weak %ob, %op[%bx, %zero] token = %t : tile<128x64xbf16>, partition_view<tile=(128x64), tensor_view<?x64xbf16, strides=[64,1]>>, tile<i32> -> token
  return
}

// The integer, pointer and control-flow ops cuTile writes for index
// arithmetic, masks and gathers.
// CHECK-LABEL: tileir.entry @misc
tileir.entry @misc(%x: tile<ptr<f32>>, %n: tile<i32>, %h: tile<i64>) {
  %t = make_token : token
  // CHECK: iota : tile<64xi32>
  %idx = iota : tile<64xi32>
  %c64 = constant <i32: 64> : tile<i32>
  // CHECK: constant <i32: [1, 2, 3, 4]> : tile<4xi32>
  %four = constant <i32: [1, 2, 3, 4]> : tile<4xi32>
  // CHECK: constant <i1: false> : tile<i1>
  %false = constant <i1: false> : tile<i1>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  // CHECK: get_num_tile_blocks : tile<i32>
  %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
  // CHECK: muli %blockId_x, %{{.*}} overflow<nsw> : tile<i32>
  %base = muli %bx, %c64 overflow<nsw> : tile<i32>
  // CHECK: addi %{{.*}}, %{{.*}} : tile<i32>
  %sum = addi %base, %gx : tile<i32>
  %sub = subi %sum, %c64 : tile<i32>
  // CHECK: divi %{{.*}}, %{{.*}} signed rounding<negative_inf> : tile<i32>
  %q = divi %sub, %c64 signed rounding<negative_inf> : tile<i32>
  // CHECK: remi %{{.*}}, %{{.*}} unsigned : tile<i32>
  %rem = remi %q, %c64 unsigned : tile<i32>
  %mx = maxi %rem, %q signed : tile<i32>
  %an = andi %mx, %c64 : tile<i32>
  %o = ori %an, %c64 : tile<i32>
  %sh = shri %o, %c64 unsigned : tile<i32>
  // CHECK: cmpi less_than %{{.*}}, %{{.*}}, signed : tile<i32> -> tile<i1>
  %lt = cmpi less_than %sh, %n, signed : tile<i32> -> tile<i1>
  // CHECK: xori %{{.*}}, %{{.*}} : tile<i1>
  %nlt = xori %lt, %false : tile<i1>
  // CHECK: select %{{.*}}, %{{.*}}, %{{.*}} : tile<i1>, tile<i32>
  %sel = select %nlt, %sh, %n : tile<i1>, tile<i32>
  // CHECK: exti %{{.*}} signed : tile<i32> -> tile<i64>
  %wide = exti %sel signed : tile<i32> -> tile<i64>
  // CHECK: trunci %{{.*}} : tile<i64> -> tile<i32>
  %narrow = trunci %wide : tile<i64> -> tile<i32>
  // CHECK: itof %{{.*}} signed : tile<i32> -> tile<f32>
  %f = itof %narrow signed : tile<i32> -> tile<f32>
  // CHECK: ftoi %{{.*}} signed rounding<nearest_int_to_zero> : tile<f32> -> tile<i32>
  %back = ftoi %f signed rounding<nearest_int_to_zero> : tile<f32> -> tile<i32>
  // CHECK: cmpf greater_than ordered %{{.*}}, %{{.*}} : tile<f32> -> tile<i1>
  %gt = cmpf greater_than ordered %f, %f : tile<f32> -> tile<i1>
  %r = reshape %back : tile<i32> -> tile<1xi32>
  %rb = broadcast %r : tile<1xi32> -> tile<64xi32>
  %off = addi %idx, %rb : tile<64xi32>
  %xs = reshape %x : tile<ptr<f32>> -> tile<1xptr<f32>>
  %xb = broadcast %xs : tile<1xptr<f32>> -> tile<64xptr<f32>>
  // CHECK: offset %{{.*}}, %{{.*}} : tile<64xptr<f32>>, tile<64xi32> -> tile<64xptr<f32>>
  %ptrs = offset %xb, %off : tile<64xptr<f32>>, tile<64xi32> -> tile<64xptr<f32>>
  %nb1 = reshape %n : tile<i32> -> tile<1xi32>
  %nb = broadcast %nb1 : tile<1xi32> -> tile<64xi32>
  %mask = cmpi less_than %off, %nb, signed : tile<64xi32> -> tile<64xi1>
  %pad = constant <f32: 0.0> : tile<64xf32>
  // CHECK: load_ptr_tko weak %{{.*}} mask = %{{.*}} : tile<64xi1> padding = %{{.*}} : tile<64xf32> token = %{{.*}} : tile<64xptr<f32>> -> tile<64xf32>, token
  %v, %vt = load_ptr_tko weak %ptrs mask = %mask : tile<64xi1> padding = %pad : tile<64xf32> token = %t : tile<64xptr<f32>> -> tile<64xf32>, token
  // CHECK: if %{{.*}} -> (tile<64xf32>) {
  // CHECK: } else {
  %w = if %gt -> (tile<64xf32>) {
    %sq = sqrt %v rounding<zero> : tile<64xf32>
    yield %sq : tile<64xf32>
  } else {
    %rs = rsqrt %v : tile<64xf32>
    yield %rs : tile<64xf32>
  }
  // CHECK: store_ptr_tko weak %{{.*}}, %{{.*}} mask = %{{.*}} : tile<64xi1> token = %{{.*}} : tile<64xf32>, tile<64xptr<f32>> -> token
  %st = store_ptr_tko weak %w, %ptrs mask = %mask : tile<64xi1> token = %vt : tile<64xf32>, tile<64xptr<f32>> -> token
  // CHECK: join_tokens %{{.*}}, %{{.*}} : token
  %j = join_tokens %vt, %st : token
  %m2 = reshape %w : tile<64xf32> -> tile<8x8xf32>
  // CHECK: permute %{{.*}} [1, 0] : tile<8x8xf32> -> tile<8x8xf32>
  %pm = permute %m2 [1, 0] : tile<8x8xf32> -> tile<8x8xf32>
  // CHECK: scan %{{.*}} dim=0 identities=[0.000000e+00 : f32] reverse : tile<8x8xf32> -> tile<8x8xf32> (%scan_lhs: tile<f32>, %scan_rhs: tile<f32>) {
  %cs = scan %pm dim=0 identities=[0.0 : f32] reverse : tile<8x8xf32> -> tile<8x8xf32> (%a: tile<f32>, %b: tile<f32>) {
    %s = addf %a, %b : tile<f32>
    yield %s : tile<f32>
  }
  // CHECK: loop iter_values(%{{.*}} = %{{.*}}) -> (tile<i32>) {
  // CHECK: break %{{.*}} : tile<i32>
  %fin = loop iter_values(%c = %n) -> (tile<i32>) {
    break %c : tile<i32>
  }
  // A spin lock's loop (cuTile's LayerNorm backward): an atomic
  // compare-and-swap, an `if` whose then-branch does nothing.
  // CHECK: atomic_cas_tko acquire device %{{.*}}, %{{.*}}, %{{.*}} token = %{{.*}} : tile<64xptr<f32>>, tile<64xf32>, tile<64xf32> -> tile<64xf32>, token
  // CHECK: if %{{.*}} {
  // CHECK-NEXT: } else {
  // CHECK: atomic_rmw_tko release device xchg %{{.*}}, %{{.*}} mask = %{{.*}} : tile<64xi1> : tile<64xptr<f32>>, tile<64xf32> -> tile<64xf32>, token
  %spin:1 = loop iter_values(%lk = %t) -> (token) {
    %old, %ot = atomic_cas_tko acquire device %ptrs, %v, %w token = %lk : tile<64xptr<f32>>, tile<64xf32>, tile<64xf32> -> tile<64xf32>, token
    if %gt {
    } else {
      break %ot : token
    }
    continue %ot : token
  }
  %xo, %xt = atomic_rmw_tko release device xchg %ptrs, %v mask = %mask : tile<64xi1> : tile<64xptr<f32>>, tile<64xf32> -> tile<64xf32>, token
  // CHECK: assert %{{.*}}, "in bounds" : tile<i1>
  assert %lt, "in bounds" : tile<i1>
  return
}
