// tileirdisasm's text of test/cutile/fixtures/batched_matmul-13.4.tileirbc in the tileir dialect's
// syntax (`tileir.entry`; static strides are not listed among the view's
// operands). The input of the lowering's tests where the bytecode reader is
// not used, and what cutile_specs.py lowers when tilepipe-translate has no
// bytecode import.
tileir.entry @batched_matmul(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<ptr<bf16>>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<ptr<bf16>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %assume_0 = assume div_by<8>, %arg4 : tile<i32>
  %assume_1 = assume div_by<8>, %arg5 : tile<i32>
  %assume_2 = assume div_by<16>, %arg7 : tile<ptr<bf16>>
  %assume_3 = assume div_by<8>, %arg11 : tile<i32>
  %assume_4 = assume div_by<8>, %arg12 : tile<i32>
  %assume_5 = assume div_by<16>, %arg14 : tile<ptr<bf16>>
  %assume_6 = assume div_by<8>, %arg18 : tile<i32>
  %assume_7 = assume div_by<8>, %arg19 : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_8 = constant <i32: 1> : tile<i32>
  %cst_1_i32_9 = constant <i32: 1> : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_11 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg3 : tile<i32>
  %assume_assume = assume bounded<0, ?>, %assume_0 : tile<i32>
  %assume_assume_assume = assume div_by<8>, %assume_assume : tile<i32>
  %assume_assume_13 = assume bounded<0, ?>, %assume_1 : tile<i32>
  %assume_assume_assume_14 = assume div_by<8>, %assume_assume_13 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_10, %assume_11, %assume_12], strides = [%assume_assume_assume, %assume_assume_assume_14] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %assume_15 = assume bounded<0, ?>, %arg8 : tile<i32>
  %assume_16 = assume bounded<0, ?>, %arg9 : tile<i32>
  %assume_17 = assume bounded<0, ?>, %arg10 : tile<i32>
  %assume_assume_18 = assume bounded<0, ?>, %assume_3 : tile<i32>
  %assume_assume_assume_19 = assume div_by<8>, %assume_assume_18 : tile<i32>
  %assume_assume_20 = assume bounded<0, ?>, %assume_4 : tile<i32>
  %assume_assume_assume_21 = assume div_by<8>, %assume_assume_20 : tile<i32>
  %tview_22 = make_tensor_view %assume_2, shape = [%assume_15, %assume_16, %assume_17], strides = [%assume_assume_assume_19, %assume_assume_assume_21] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %assume_23 = assume bounded<0, ?>, %arg15 : tile<i32>
  %assume_24 = assume bounded<0, ?>, %arg16 : tile<i32>
  %assume_25 = assume bounded<0, ?>, %arg17 : tile<i32>
  %assume_assume_26 = assume bounded<0, ?>, %assume_6 : tile<i32>
  %assume_assume_assume_27 = assume div_by<8>, %assume_assume_26 : tile<i32>
  %assume_assume_28 = assume bounded<0, ?>, %assume_7 : tile<i32>
  %assume_assume_assume_29 = assume div_by<8>, %assume_assume_28 : tile<i32>
  %tview_30 = make_tensor_view %assume_5, shape = [%assume_23, %assume_24, %assume_25], strides = [%assume_assume_assume_27, %assume_assume_assume_29] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_31, %blockId_y_32, %blockId_z_33 = get_tile_block_id : tile<i32>
  %blockId_x_34, %blockId_y_35, %blockId_z_36 = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %1:3 = get_index_space_shape %pview : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>> -> tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x128xf32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_37 = constant <i32: 1> : tile<i32>
  %pview_38 = make_partition_view %tview : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %pview_39 = make_partition_view %tview_22 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %for = for %loopIdx in (%cst_0_i32 to %1#2, step %cst_1_i32_37) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<128x128xf32>) {
    %tile, %result_token = load_view_tko weak %pview_38[%blockId_z_36, %blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x128x64xbf16>, token
    %tile_41, %result_token_42 = load_view_tko weak %pview_39[%blockId_z_36, %loopIdx, %blockId_y_32] token = %0 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x128xbf16>, token
    %reshape_43 = reshape %tile : tile<1x128x64xbf16> -> tile<128x64xbf16>
    %reshape_44 = reshape %tile_41 : tile<1x64x128xbf16> -> tile<64x128xbf16>
    %4 = mmaf %reshape_43, %reshape_44, %iterArg0 : tile<128x64xbf16>, tile<64x128xbf16>, tile<128x128xf32>
    continue %4 : tile<128x128xf32>
  }
  %2 = ftof %for  : tile<128x128xf32> -> tile<128x128xbf16>
  %reshape = reshape %2 : tile<128x128xbf16> -> tile<1x128x128xbf16>
  %pview_40 = make_partition_view %tview_30 : partition_view<tile=(1x128x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %3 = store_view_tko weak %reshape, %pview_40[%blockId_z_36, %blockId_x, %blockId_y_32] token = %0 : tile<1x128x128xbf16>, partition_view<tile=(1x128x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> token
  return
}
