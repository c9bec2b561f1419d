// tileirdisasm's text of test/cutile/fixtures/matmul-13.4.tileirbc in the tileir dialect's
// syntax (`tileir.entry`; static strides are not listed among the view's
// operands). The input of the lowering's tests where the bytecode reader is
// not used, and what cutile_specs.py lowers when tilepipe-translate has no
// bytecode import.
tileir.entry @matmul(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<bf16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %assume_0 = assume div_by<8>, %arg3 : tile<i32>
  %assume_1 = assume div_by<16>, %arg5 : tile<ptr<bf16>>
  %assume_2 = assume div_by<8>, %arg8 : tile<i32>
  %assume_3 = assume div_by<16>, %arg10 : tile<ptr<bf16>>
  %assume_4 = assume div_by<8>, %arg13 : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %cst_1_i32_6 = constant <i32: 1> : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_assume = assume bounded<0, ?>, %assume_0 : tile<i32>
  %assume_assume_assume = assume div_by<8>, %assume_assume : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_7, %assume_8], strides = [%assume_assume_assume] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_9 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_assume_11 = assume bounded<0, ?>, %assume_2 : tile<i32>
  %assume_assume_assume_12 = assume div_by<8>, %assume_assume_11 : tile<i32>
  %tview_13 = make_tensor_view %assume_1, shape = [%assume_9, %assume_10], strides = [%assume_assume_assume_12] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_14 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_15 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_assume_16 = assume bounded<0, ?>, %assume_4 : tile<i32>
  %assume_assume_assume_17 = assume div_by<8>, %assume_assume_16 : tile<i32>
  %tview_18 = make_tensor_view %assume_3, shape = [%assume_14, %assume_15], strides = [%assume_assume_assume_17] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_19, %blockId_y_20, %blockId_z_21 = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>> -> tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x256xf32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_22 = constant <i32: 1> : tile<i32>
  %pview_23 = make_partition_view %tview : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %pview_24 = make_partition_view %tview_13 : partition_view<tile=(64x256), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %for = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32_22) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<128x256xf32>) {
    %tile, %result_token = load_view_tko weak %pview_23[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
    %tile_26, %result_token_27 = load_view_tko weak %pview_24[%loopIdx, %blockId_y_20] token = %0 : partition_view<tile=(64x256), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<64x256xbf16>, token
    %4 = mmaf %tile, %tile_26, %iterArg0 : tile<128x64xbf16>, tile<64x256xbf16>, tile<128x256xf32>
    continue %4 : tile<128x256xf32>
  }
  %2 = ftof %for  : tile<128x256xf32> -> tile<128x256xbf16>
  %pview_25 = make_partition_view %tview_18 : partition_view<tile=(128x256), tensor_view<?x?xbf16, strides=[?,1]>>
  %3 = store_view_tko weak %2, %pview_25[%blockId_x, %blockId_y_20] token = %0 : tile<128x256xbf16>, partition_view<tile=(128x256), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token
  return
}
