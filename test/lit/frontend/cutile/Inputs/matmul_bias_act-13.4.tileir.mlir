// tileirdisasm's text of test/cutile/fixtures/matmul_bias_act-13.4.tileirbc in the tileir dialect's
// syntax (`tileir.entry`; static strides are not listed among the view's
// operands). The input of the lowering's tests where the bytecode reader is
// not used, and what cutile_specs.py lowers when tilepipe-translate has no
// bytecode import.
tileir.entry @matmul_bias_act(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f32>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<ptr<bf16>>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %assume_0 = assume div_by<8>, %arg3 : tile<i32>
  %assume_1 = assume div_by<16>, %arg5 : tile<ptr<bf16>>
  %assume_2 = assume div_by<8>, %arg8 : tile<i32>
  %assume_3 = assume div_by<16>, %arg10 : tile<ptr<f32>>
  %assume_4 = assume div_by<16>, %arg13 : tile<ptr<bf16>>
  %assume_5 = assume div_by<8>, %arg16 : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_6 = constant <i32: 1> : tile<i32>
  %cst_1_i32_7 = constant <i32: 1> : tile<i32>
  %cst_1_i32_8 = constant <i32: 1> : tile<i32>
  %assume_9 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_assume = assume bounded<0, ?>, %assume_0 : tile<i32>
  %assume_assume_assume = assume div_by<8>, %assume_assume : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_9, %assume_10], strides = [%assume_assume_assume] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_11 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_assume_13 = assume bounded<0, ?>, %assume_2 : tile<i32>
  %assume_assume_assume_14 = assume div_by<8>, %assume_assume_13 : tile<i32>
  %tview_15 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_assume_assume_14] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_16 = assume bounded<0, ?>, %arg11 : tile<i32>
  %tview_17 = make_tensor_view %assume_3, shape = [%assume_16], strides = [] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_18 = assume bounded<0, ?>, %arg14 : tile<i32>
  %assume_19 = assume bounded<0, ?>, %arg15 : tile<i32>
  %assume_assume_20 = assume bounded<0, ?>, %assume_5 : tile<i32>
  %assume_assume_assume_21 = assume div_by<8>, %assume_assume_20 : tile<i32>
  %tview_22 = make_tensor_view %assume_4, shape = [%assume_18, %assume_19], strides = [%assume_assume_assume_21] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %cst_f32 = constant <f32: 1.250000e-01> : tile<f32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_23, %blockId_y_24, %blockId_z_25 = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>> -> tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x128xf32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_26 = constant <i32: 1> : tile<i32>
  %pview_27 = make_partition_view %tview : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %pview_28 = make_partition_view %tview_15 : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %for = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32_26) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<128x128xf32>) {
    %tile_33, %result_token_34 = load_view_tko weak %pview_27[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
    %tile_35, %result_token_36 = load_view_tko weak %pview_28[%loopIdx, %blockId_y_24] token = %0 : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<64x128xbf16>, token
    %7 = mmaf %tile_33, %tile_35, %iterArg0 : tile<128x64xbf16>, tile<64x128xbf16>, tile<128x128xf32>
    continue %7 : tile<128x128xf32>
  }
  %pview_29 = make_partition_view %tview_17 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview_29[%blockId_y_24] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %reshape = reshape %tile : tile<128xf32> -> tile<1x128xf32>
  %bcast = broadcast %reshape : tile<1x128xf32> -> tile<128x128xf32>
  %2 = addf %for, %bcast  : tile<128x128xf32>
  %reshape_30 = reshape %cst_f32 : tile<f32> -> tile<1x1xf32>
  %bcast_31 = broadcast %reshape_30 : tile<1x1xf32> -> tile<128x128xf32>
  %3 = mulf %2, %bcast_31  : tile<128x128xf32>
  %4 = maxf %2, %3 : tile<128x128xf32>
  %5 = ftof %4  : tile<128x128xf32> -> tile<128x128xbf16>
  %pview_32 = make_partition_view %tview_22 : partition_view<tile=(128x128), tensor_view<?x?xbf16, strides=[?,1]>>
  %6 = store_view_tko weak %5, %pview_32[%blockId_x, %blockId_y_24] token = %0 : tile<128x128xbf16>, partition_view<tile=(128x128), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token
  return
}
