// test/cutile/lower/fixtures/softmax_rows-13.4.tileirbc as the tileir dialect prints it
// (tilepipe-translate --import-tileir-bytecode): the input of the lowering's
// tests that do not read bytecode, and what cutile_specs.py lowers where
// tilepipe-translate has no bytecode import.
module {
  tileir.entry @softmax_rows(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}> {
    %0 = make_token : token
    %1 = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %2 = assume div_by<4>, %arg3 : tile<i32>
    %3 = assume div_by<16>, %arg5 : tile<ptr<f32>>
    %4 = assume div_by<4>, %arg8 : tile<i32>
    %5 = constant <i32: 1> : tile<i32>
    %6 = constant <i32: 1> : tile<i32>
    %7 = assume bounded<0, ?>, %arg1 : tile<i32>
    %8 = assume bounded<0, ?>, %arg2 : tile<i32>
    %9 = assume bounded<0, ?>, %2 : tile<i32>
    %10 = assume div_by<4>, %9 : tile<i32>
    %11 = make_tensor_view %1, shape = [%7, %8], strides = [%10] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %12 = assume bounded<0, ?>, %arg6 : tile<i32>
    %13 = assume bounded<0, ?>, %arg7 : tile<i32>
    %14 = assume bounded<0, ?>, %4 : tile<i32>
    %15 = assume div_by<4>, %14 : tile<i32>
    %16 = make_tensor_view %3, shape = [%12, %13], strides = [%15] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %17 = constant <i32: 0> : tile<i32>
    %18 = make_partition_view %11 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %tile, %result_token = load_view_tko weak %18[%blockId_x, %17] token = %0 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<128x128xf32>, token
    %19 = reduce %tile dim=1 identities=[0xFF800000 : f32] : tile<128x128xf32> -> tile<128xf32> (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %31 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %31 : tile<f32>
    }
    %20 = reshape %19 : tile<128xf32> -> tile<128x1xf32>
    %21 = broadcast %20 : tile<128x1xf32> -> tile<128x128xf32>
    %22 = subf %tile, %21 : tile<128x128xf32>
    %23 = exp %22 : tile<128x128xf32>
    %24 = reduce %23 dim=1 identities=[0.000000e+00 : f32] : tile<128x128xf32> -> tile<128xf32> (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %31 = addf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %31 : tile<f32>
    }
    %25 = reshape %24 : tile<128xf32> -> tile<128x1xf32>
    %26 = constant <i32: 0> : tile<i32>
    %27 = broadcast %25 : tile<128x1xf32> -> tile<128x128xf32>
    %28 = divf %23, %27 : tile<128x128xf32>
    %29 = make_partition_view %16 : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
    %30 = store_view_tko weak %28, %29[%blockId_x, %26] token = %0 : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
