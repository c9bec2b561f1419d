// test/cutile/lower/fixtures/layernorm_rows-13.4.tileirbc as the tileir dialect prints it
// (tilepipe-translate --import-tileir-bytecode): the input of the lowering's
// tests that do not read bytecode, and what cutile_specs.py lowers where
// tilepipe-translate has no bytecode import.
module {
  tileir.entry @layernorm_rows(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<f32>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<ptr<f32>>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>) optimization_hints=<default = {}> {
    %0 = make_token : token
    %1 = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %2 = assume div_by<4>, %arg3 : tile<i32>
    %3 = assume div_by<16>, %arg5 : tile<ptr<f32>>
    %4 = assume div_by<16>, %arg8 : tile<ptr<f32>>
    %5 = assume div_by<16>, %arg11 : tile<ptr<f32>>
    %6 = assume div_by<4>, %arg14 : tile<i32>
    %7 = constant <i32: 1> : tile<i32>
    %8 = constant <i32: 1> : tile<i32>
    %9 = constant <i32: 1> : tile<i32>
    %10 = constant <i32: 1> : tile<i32>
    %11 = assume bounded<0, ?>, %arg1 : tile<i32>
    %12 = assume bounded<0, ?>, %arg2 : tile<i32>
    %13 = assume bounded<0, ?>, %2 : tile<i32>
    %14 = assume div_by<4>, %13 : tile<i32>
    %15 = make_tensor_view %1, shape = [%11, %12], strides = [%14] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %16 = assume bounded<0, ?>, %arg6 : tile<i32>
    %17 = make_tensor_view %3, shape = [%16], strides = [] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %18 = assume bounded<0, ?>, %arg9 : tile<i32>
    %19 = make_tensor_view %4, shape = [%18], strides = [] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %20 = assume bounded<0, ?>, %arg12 : tile<i32>
    %21 = assume bounded<0, ?>, %arg13 : tile<i32>
    %22 = assume bounded<0, ?>, %6 : tile<i32>
    %23 = assume div_by<4>, %22 : tile<i32>
    %24 = make_tensor_view %5, shape = [%20, %21], strides = [%23] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %25 = constant <i32: 0> : tile<i32>
    %26 = make_partition_view %15 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %tile, %result_token = load_view_tko weak %26[%blockId_x, %25] token = %0 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<128x128xf32>, token
    %27 = reduce %tile dim=1 identities=[0.000000e+00 : f32] : tile<128x128xf32> -> tile<128xf32> (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %60 = addf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %60 : tile<f32>
    }
    %28 = reshape %27 : tile<128xf32> -> tile<128x1xf32>
    %29 = constant <f32: 7.812500e-03> : tile<f32>
    %30 = reshape %29 : tile<f32> -> tile<1x1xf32>
    %31 = broadcast %30 : tile<1x1xf32> -> tile<128x1xf32>
    %32 = mulf %28, %31 : tile<128x1xf32>
    %33 = broadcast %32 : tile<128x1xf32> -> tile<128x128xf32>
    %34 = subf %tile, %33 : tile<128x128xf32>
    %35 = mulf %34, %34 : tile<128x128xf32>
    %36 = reduce %35 dim=1 identities=[0.000000e+00 : f32] : tile<128x128xf32> -> tile<128xf32> (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %60 = addf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %60 : tile<f32>
    }
    %37 = reshape %36 : tile<128xf32> -> tile<128x1xf32>
    %38 = constant <f32: 7.812500e-03> : tile<f32>
    %39 = reshape %38 : tile<f32> -> tile<1x1xf32>
    %40 = broadcast %39 : tile<1x1xf32> -> tile<128x1xf32>
    %41 = constant <f32: 9.99999974E-6> : tile<f32>
    %42 = reshape %41 : tile<f32> -> tile<1x1xf32>
    %43 = broadcast %42 : tile<1x1xf32> -> tile<128x1xf32>
    %44 = fma %37, %40, %43 : tile<128x1xf32>
    %45 = rsqrt %44 : tile<128x1xf32>
    %46 = constant <i32: 0> : tile<i32>
    %47 = make_partition_view %17 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %tile_0, %result_token_1 = load_view_tko weak %47[%46] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
    %48 = constant <i32: 0> : tile<i32>
    %49 = make_partition_view %19 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %tile_2, %result_token_3 = load_view_tko weak %49[%48] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
    %50 = broadcast %45 : tile<128x1xf32> -> tile<128x128xf32>
    %51 = mulf %34, %50 : tile<128x128xf32>
    %52 = reshape %tile_0 : tile<128xf32> -> tile<1x128xf32>
    %53 = broadcast %52 : tile<1x128xf32> -> tile<128x128xf32>
    %54 = reshape %tile_2 : tile<128xf32> -> tile<1x128xf32>
    %55 = broadcast %54 : tile<1x128xf32> -> tile<128x128xf32>
    %56 = fma %51, %53, %55 : tile<128x128xf32>
    %57 = constant <i32: 0> : tile<i32>
    %58 = make_partition_view %24 : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
    %59 = store_view_tko weak %56, %58[%blockId_x, %57] token = %0 : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
