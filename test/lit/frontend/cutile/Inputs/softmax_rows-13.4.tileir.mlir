// tileirdisasm's text of test/cutile/lower/fixtures/softmax_rows-13.4.tileirbc in the tileir dialect's
// syntax (`tileir.entry`; static strides are not listed among the view's
// operands). The input of the lowering's tests where the bytecode reader is
// not used, and what cutile_specs.py lowers when tilepipe-translate has no
// bytecode import.
tileir.entry @softmax_rows(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<4>, %arg3 : tile<i32>
  %assume_1 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %assume_2 = assume div_by<4>, %arg8 : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_assume = assume bounded<0, ?>, %assume_0 : tile<i32>
  %assume_assume_assume = assume div_by<4>, %assume_assume : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_assume_assume] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_6 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_assume_8 = assume bounded<0, ?>, %assume_2 : tile<i32>
  %assume_assume_assume_9 = assume div_by<4>, %assume_assume_8 : tile<i32>
  %tview_10 = make_tensor_view %assume_1, shape = [%assume_6, %assume_7], strides = [%assume_assume_assume_9] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<128x128xf32>, token
  %reduce = reduce %tile dim=1 identities=[0xFF800000 : f32] : tile<128x128xf32> -> tile<128xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %5 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
    yield %5 : tile<f32>
  }
  %reshape = reshape %reduce : tile<128xf32> -> tile<128x1xf32>
  %bcast = broadcast %reshape : tile<128x1xf32> -> tile<128x128xf32>
  %1 = subf %tile, %bcast  : tile<128x128xf32>
  %2 = exp %1  : tile<128x128xf32>
  %reduce_11 = reduce %2 dim=1 identities=[0.000000e+00 : f32] : tile<128x128xf32> -> tile<128xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %5 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %5 : tile<f32>
  }
  %reshape_12 = reshape %reduce_11 : tile<128xf32> -> tile<128x1xf32>
  %cst_0_i32_13 = constant <i32: 0> : tile<i32>
  %bcast_14 = broadcast %reshape_12 : tile<128x1xf32> -> tile<128x128xf32>
  %3 = divf %2, %bcast_14  : tile<128x128xf32>
  %pview_15 = make_partition_view %tview_10 : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
  %4 = store_view_tko weak %3, %pview_15[%blockId_x, %cst_0_i32_13] token = %0 : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
