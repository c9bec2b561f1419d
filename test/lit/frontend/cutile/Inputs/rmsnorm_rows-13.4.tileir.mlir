// test/cutile/lower/fixtures/rmsnorm_rows-13.4.tileirbc as the tileir dialect prints it
// (tilepipe-translate --import-tileir-bytecode): the input of the lowering's
// tests that do not read bytecode, and what cutile_specs.py lowers where
// tilepipe-translate has no bytecode import.
module {
  tileir.entry @rmsnorm_rows(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<bf16>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<f32>) optimization_hints=<default = {}> {
    %0 = make_token : token
    %1 = assume div_by<16>, %arg0 : tile<ptr<bf16>>
    %2 = assume div_by<8>, %arg3 : tile<i32>
    %3 = assume div_by<16>, %arg5 : tile<ptr<bf16>>
    %4 = assume div_by<16>, %arg8 : tile<ptr<bf16>>
    %5 = assume div_by<8>, %arg11 : tile<i32>
    %6 = constant <i32: 1> : tile<i32>
    %7 = constant <i32: 1> : tile<i32>
    %8 = constant <i32: 1> : tile<i32>
    %9 = assume bounded<0, ?>, %arg1 : tile<i32>
    %10 = assume bounded<0, ?>, %arg2 : tile<i32>
    %11 = assume bounded<0, ?>, %2 : tile<i32>
    %12 = assume div_by<8>, %11 : tile<i32>
    %13 = make_tensor_view %1, shape = [%9, %10], strides = [%12] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %14 = assume bounded<0, ?>, %arg6 : tile<i32>
    %15 = make_tensor_view %3, shape = [%14], strides = [] : tile<i32> -> tensor_view<?xbf16, strides=[1]>
    %16 = assume bounded<0, ?>, %arg9 : tile<i32>
    %17 = assume bounded<0, ?>, %arg10 : tile<i32>
    %18 = assume bounded<0, ?>, %5 : tile<i32>
    %19 = assume div_by<8>, %18 : tile<i32>
    %20 = make_tensor_view %4, shape = [%16, %17], strides = [%19] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %21 = constant <i32: 0> : tile<i32>
    %22 = make_partition_view %13 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
    %tile, %result_token = load_view_tko weak %22[%blockId_x, %21] token = %0 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x128xbf16>, token
    %23 = ftof %tile : tile<128x128xbf16> -> tile<128x128xf32>
    %24 = mulf %23, %23 : tile<128x128xf32>
    %25 = reduce %24 dim=1 identities=[0.000000e+00 : f32] : tile<128x128xf32> -> tile<128xf32> (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %46 = addf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %46 : tile<f32>
    }
    %26 = reshape %25 : tile<128xf32> -> tile<128x1xf32>
    %27 = constant <f32: 7.812500e-03> : tile<f32>
    %28 = reshape %27 : tile<f32> -> tile<1x1xf32>
    %29 = broadcast %28 : tile<1x1xf32> -> tile<128x1xf32>
    %30 = reshape %arg13 : tile<f32> -> tile<1x1xf32>
    %31 = broadcast %30 : tile<1x1xf32> -> tile<128x1xf32>
    %32 = fma %26, %29, %31 : tile<128x1xf32>
    %33 = rsqrt %32 : tile<128x1xf32>
    %34 = constant <i32: 0> : tile<i32>
    %35 = make_partition_view %15 : partition_view<tile=(128), padding_value = zero, tensor_view<?xbf16, strides=[1]>>
    %tile_0, %result_token_1 = load_view_tko weak %35[%34] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xbf16, strides=[1]>>, tile<i32> -> tile<128xbf16>, token
    %36 = ftof %tile_0 : tile<128xbf16> -> tile<128xf32>
    %37 = constant <i32: 0> : tile<i32>
    %38 = broadcast %33 : tile<128x1xf32> -> tile<128x128xf32>
    %39 = mulf %23, %38 : tile<128x128xf32>
    %40 = reshape %36 : tile<128xf32> -> tile<1x128xf32>
    %41 = broadcast %40 : tile<1x128xf32> -> tile<128x128xf32>
    %42 = mulf %39, %41 : tile<128x128xf32>
    %43 = ftof %42 : tile<128x128xf32> -> tile<128x128xbf16>
    %44 = make_partition_view %20 : partition_view<tile=(128x128), tensor_view<?x?xbf16, strides=[?,1]>>
    %45 = store_view_tko weak %43, %44[%blockId_x, %37] token = %0 : tile<128x128xbf16>, partition_view<tile=(128x128), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
