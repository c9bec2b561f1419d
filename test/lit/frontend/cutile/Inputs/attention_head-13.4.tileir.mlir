// tileirdisasm's text of test/cutile/lower/fixtures/attention_head-13.4.tileirbc in the tileir dialect's
// syntax (`tileir.entry`; static strides are not listed among the view's
// operands). The input of the lowering's tests where the bytecode reader is
// not used, and what cutile_specs.py lowers when tilepipe-translate has no
// bytecode import.
tileir.entry @attention_head(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<bf16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<ptr<bf16>>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %assume_0 = assume div_by<8>, %arg3 : tile<i32>
  %assume_1 = assume div_by<16>, %arg5 : tile<ptr<bf16>>
  %assume_2 = assume div_by<8>, %arg8 : tile<i32>
  %assume_3 = assume div_by<16>, %arg10 : tile<ptr<bf16>>
  %assume_4 = assume div_by<8>, %arg13 : tile<i32>
  %assume_5 = assume div_by<16>, %arg15 : tile<ptr<bf16>>
  %assume_6 = assume div_by<8>, %arg18 : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_7 = constant <i32: 1> : tile<i32>
  %cst_1_i32_8 = constant <i32: 1> : tile<i32>
  %cst_1_i32_9 = constant <i32: 1> : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_11 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_assume = assume bounded<0, ?>, %assume_0 : tile<i32>
  %assume_assume_assume = assume div_by<8>, %assume_assume : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_10, %assume_11], strides = [%assume_assume_assume] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_12 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_13 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_assume_14 = assume bounded<0, ?>, %assume_2 : tile<i32>
  %assume_assume_assume_15 = assume div_by<8>, %assume_assume_14 : tile<i32>
  %tview_16 = make_tensor_view %assume_1, shape = [%assume_12, %assume_13], strides = [%assume_assume_assume_15] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_17 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_18 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_assume_19 = assume bounded<0, ?>, %assume_4 : tile<i32>
  %assume_assume_assume_20 = assume div_by<8>, %assume_assume_19 : tile<i32>
  %tview_21 = make_tensor_view %assume_3, shape = [%assume_17, %assume_18], strides = [%assume_assume_assume_20] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_22 = assume bounded<0, ?>, %arg16 : tile<i32>
  %assume_23 = assume bounded<0, ?>, %arg17 : tile<i32>
  %assume_assume_24 = assume bounded<0, ?>, %assume_6 : tile<i32>
  %assume_assume_assume_25 = assume div_by<8>, %assume_assume_24 : tile<i32>
  %tview_26 = make_tensor_view %assume_5, shape = [%assume_22, %assume_23], strides = [%assume_assume_assume_25] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_f32 = constant <f32: 1.44269502> : tile<f32>
  %1 = mulf %arg20, %cst_f32  : tile<f32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
  %cst_f32_27 = constant <f32: 0xFF800000> : tile<128x1xf32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x1xf32>
  %cst_0_f32_28 = constant <f32: 0.000000e+00> : tile<128x64xf32>
  %pview_29 = make_partition_view %tview_16 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>
  %2:2 = get_index_space_shape %pview_29 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>> -> tile<i32>
  %cst_0_i32_30 = constant <i32: 0> : tile<i32>
  %cst_1_i32_31 = constant <i32: 1> : tile<i32>
  %cst_0_i32_32 = constant <i32: 0> : tile<i32>
  %pview_33 = make_partition_view %tview_16 : partition_view<tile=(64x128), tensor_view<?x?xbf16, strides=[?,1]>, dim_map=[1, 0]>
  %cst_0_f32_34 = constant <f32: 0.000000e+00> : tile<128x128xf32>
  %reshape = reshape %1 : tile<f32> -> tile<1x1xf32>
  %bcast = broadcast %reshape : tile<1x1xf32> -> tile<128x128xf32>
  %cst_0_i32_35 = constant <i32: 0> : tile<i32>
  %pview_36 = make_partition_view %tview_21 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>
  %for:3 = for %loopIdx in (%cst_0_i32_30 to %2#0, step %cst_1_i32_31) : tile<i32> iter_values(%iterArg0 = %cst_0_f32_28, %iterArg1 = %cst_0_f32, %iterArg2 = %cst_f32_27) -> (tile<128x64xf32>, tile<128x1xf32>, tile<128x1xf32>) {
    %tile_40, %result_token_41 = load_view_tko weak %pview_33[%cst_0_i32_32, %loopIdx] token = %0 : partition_view<tile=(64x128), tensor_view<?x?xbf16, strides=[?,1]>, dim_map=[1, 0]>, tile<i32> -> tile<64x128xbf16>, token
    %6 = mmaf %tile, %tile_40, %cst_0_f32_34 : tile<128x64xbf16>, tile<64x128xbf16>, tile<128x128xf32>
    %7 = mulf %6, %bcast  : tile<128x128xf32>
    %reduce = reduce %7 dim=1 identities=[0xFF800000 : f32] : tile<128x128xf32> -> tile<128xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %17 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %17 : tile<f32>
    }
    %reshape_42 = reshape %reduce : tile<128xf32> -> tile<128x1xf32>
    %8 = maxf %iterArg2, %reshape_42 : tile<128x1xf32>
    %bcast_43 = broadcast %8 : tile<128x1xf32> -> tile<128x128xf32>
    %9 = subf %7, %bcast_43  : tile<128x128xf32>
    %10 = exp2 %9 : tile<128x128xf32>
    %11 = subf %iterArg2, %8  : tile<128x1xf32>
    %12 = exp2 %11 : tile<128x1xf32>
    %reduce_44 = reduce %10 dim=1 identities=[0.000000e+00 : f32] : tile<128x128xf32> -> tile<128xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %17 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
      yield %17 : tile<f32>
    }
    %reshape_45 = reshape %reduce_44 : tile<128xf32> -> tile<128x1xf32>
    %13 = fma %iterArg1, %12, %reshape_45  : tile<128x1xf32>
    %tile_46, %result_token_47 = load_view_tko weak %pview_36[%loopIdx, %cst_0_i32_35] token = %0 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
    %14 = ftof %10  : tile<128x128xf32> -> tile<128x128xbf16>
    %bcast_48 = broadcast %12 : tile<128x1xf32> -> tile<128x64xf32>
    %15 = mulf %iterArg0, %bcast_48  : tile<128x64xf32>
    %16 = mmaf %14, %tile_46, %15 : tile<128x128xbf16>, tile<128x64xbf16>, tile<128x64xf32>
    continue %16, %13, %8 : tile<128x64xf32>, tile<128x1xf32>, tile<128x1xf32>
  }
  %cst_0_i32_37 = constant <i32: 0> : tile<i32>
  %bcast_38 = broadcast %for#1 : tile<128x1xf32> -> tile<128x64xf32>
  %3 = divf %for#0, %bcast_38  : tile<128x64xf32>
  %4 = ftof %3  : tile<128x64xf32> -> tile<128x64xbf16>
  %pview_39 = make_partition_view %tview_26 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>
  %5 = store_view_tko weak %4, %pview_39[%blockId_x, %cst_0_i32_37] token = %0 : tile<128x64xbf16>, partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token
  return
}
