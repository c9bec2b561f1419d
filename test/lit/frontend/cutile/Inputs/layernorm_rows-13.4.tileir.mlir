// tileirdisasm's text of test/cutile/lower/fixtures/layernorm_rows-13.4.tileirbc in the tileir dialect's
// syntax (`tileir.entry`; static strides are not listed among the view's
// operands). The input of the lowering's tests where the bytecode reader is
// not used, and what cutile_specs.py lowers when tilepipe-translate has no
// bytecode import.
tileir.entry @layernorm_rows(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<f32>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<ptr<f32>>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<4>, %arg3 : tile<i32>
  %assume_1 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %assume_2 = assume div_by<16>, %arg8 : tile<ptr<f32>>
  %assume_3 = assume div_by<16>, %arg11 : tile<ptr<f32>>
  %assume_4 = assume div_by<4>, %arg14 : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %cst_1_i32_6 = constant <i32: 1> : tile<i32>
  %cst_1_i32_7 = constant <i32: 1> : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_9 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_assume = assume bounded<0, ?>, %assume_0 : tile<i32>
  %assume_assume_assume = assume div_by<4>, %assume_assume : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_8, %assume_9], strides = [%assume_assume_assume] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_10 = assume bounded<0, ?>, %arg6 : tile<i32>
  %tview_11 = make_tensor_view %assume_1, shape = [%assume_10], strides = [] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_12 = assume bounded<0, ?>, %arg9 : tile<i32>
  %tview_13 = make_tensor_view %assume_2, shape = [%assume_12], strides = [] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_14 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_15 = assume bounded<0, ?>, %arg13 : tile<i32>
  %assume_assume_16 = assume bounded<0, ?>, %assume_4 : tile<i32>
  %assume_assume_assume_17 = assume div_by<4>, %assume_assume_16 : tile<i32>
  %tview_18 = make_tensor_view %assume_3, shape = [%assume_14, %assume_15], strides = [%assume_assume_assume_17] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<128x128xf32>, token
  %reduce = reduce %tile dim=1 identities=[0.000000e+00 : f32] : tile<128x128xf32> -> tile<128xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %9 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %9 : tile<f32>
  }
  %reshape = reshape %reduce : tile<128xf32> -> tile<128x1xf32>
  %cst_f32 = constant <f32: 7.812500e-03> : tile<f32>
  %reshape_19 = reshape %cst_f32 : tile<f32> -> tile<1x1xf32>
  %bcast = broadcast %reshape_19 : tile<1x1xf32> -> tile<128x1xf32>
  %1 = mulf %reshape, %bcast  : tile<128x1xf32>
  %bcast_20 = broadcast %1 : tile<128x1xf32> -> tile<128x128xf32>
  %2 = subf %tile, %bcast_20  : tile<128x128xf32>
  %3 = mulf %2, %2  : tile<128x128xf32>
  %reduce_21 = reduce %3 dim=1 identities=[0.000000e+00 : f32] : tile<128x128xf32> -> tile<128xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %9 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %9 : tile<f32>
  }
  %reshape_22 = reshape %reduce_21 : tile<128xf32> -> tile<128x1xf32>
  %cst_f32_23 = constant <f32: 7.812500e-03> : tile<f32>
  %reshape_24 = reshape %cst_f32_23 : tile<f32> -> tile<1x1xf32>
  %bcast_25 = broadcast %reshape_24 : tile<1x1xf32> -> tile<128x1xf32>
  %cst_f32_26 = constant <f32: 9.99999974E-6> : tile<f32>
  %reshape_27 = reshape %cst_f32_26 : tile<f32> -> tile<1x1xf32>
  %bcast_28 = broadcast %reshape_27 : tile<1x1xf32> -> tile<128x1xf32>
  %4 = fma %reshape_22, %bcast_25, %bcast_28  : tile<128x1xf32>
  %5 = rsqrt %4 : tile<128x1xf32>
  %cst_0_i32_29 = constant <i32: 0> : tile<i32>
  %pview_30 = make_partition_view %tview_11 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %tile_31, %result_token_32 = load_view_tko weak %pview_30[%cst_0_i32_29] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %cst_0_i32_33 = constant <i32: 0> : tile<i32>
  %pview_34 = make_partition_view %tview_13 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %tile_35, %result_token_36 = load_view_tko weak %pview_34[%cst_0_i32_33] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %bcast_37 = broadcast %5 : tile<128x1xf32> -> tile<128x128xf32>
  %6 = mulf %2, %bcast_37  : tile<128x128xf32>
  %reshape_38 = reshape %tile_31 : tile<128xf32> -> tile<1x128xf32>
  %bcast_39 = broadcast %reshape_38 : tile<1x128xf32> -> tile<128x128xf32>
  %reshape_40 = reshape %tile_35 : tile<128xf32> -> tile<1x128xf32>
  %bcast_41 = broadcast %reshape_40 : tile<1x128xf32> -> tile<128x128xf32>
  %7 = fma %6, %bcast_39, %bcast_41  : tile<128x128xf32>
  %cst_0_i32_42 = constant <i32: 0> : tile<i32>
  %pview_43 = make_partition_view %tview_18 : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
  %8 = store_view_tko weak %7, %pview_43[%blockId_x, %cst_0_i32_42] token = %0 : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
