// tileirdisasm's text of test/cutile/fixtures/attention-13.4.tileirbc in the tileir dialect's
// syntax (`tileir.entry`; static strides are not listed among the view's
// operands). The input of the lowering's tests where the bytecode reader is
// not used, and what cutile_specs.py lowers when tilepipe-translate has no
// bytecode import.
tileir.entry @attention(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<ptr<bf16>>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<ptr<bf16>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>, %arg21: tile<ptr<bf16>>, %arg22: tile<i32>, %arg23: tile<i32>, %arg24: tile<i32>, %arg25: tile<i32>, %arg26: tile<i32>, %arg27: tile<i32>, %arg28: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %assume_0 = assume div_by<8>, %arg4 : tile<i32>
  %assume_1 = assume div_by<8>, %arg5 : tile<i32>
  %assume_2 = assume div_by<16>, %arg7 : tile<ptr<bf16>>
  %assume_3 = assume div_by<128>, %arg9 : tile<i32>
  %assume_4 = assume div_by<8>, %arg11 : tile<i32>
  %assume_5 = assume div_by<8>, %arg12 : tile<i32>
  %assume_6 = assume div_by<16>, %arg14 : tile<ptr<bf16>>
  %assume_7 = assume div_by<128>, %arg16 : tile<i32>
  %assume_8 = assume div_by<8>, %arg18 : tile<i32>
  %assume_9 = assume div_by<8>, %arg19 : tile<i32>
  %assume_10 = assume div_by<16>, %arg21 : tile<ptr<bf16>>
  %assume_11 = assume div_by<8>, %arg25 : tile<i32>
  %assume_12 = assume div_by<8>, %arg26 : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_13 = constant <i32: 1> : tile<i32>
  %cst_1_i32_14 = constant <i32: 1> : tile<i32>
  %cst_1_i32_15 = constant <i32: 1> : tile<i32>
  %assume_16 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_17 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_18 = assume bounded<0, ?>, %arg3 : tile<i32>
  %assume_assume = assume bounded<0, ?>, %assume_0 : tile<i32>
  %assume_assume_assume = assume div_by<8>, %assume_assume : tile<i32>
  %assume_assume_19 = assume bounded<0, ?>, %assume_1 : tile<i32>
  %assume_assume_assume_20 = assume div_by<8>, %assume_assume_19 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_16, %assume_17, %assume_18], strides = [%assume_assume_assume, %assume_assume_assume_20] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %assume_21 = assume bounded<0, ?>, %arg8 : tile<i32>
  %assume_assume_22 = assume bounded<0, ?>, %assume_3 : tile<i32>
  %assume_assume_assume_23 = assume div_by<128>, %assume_assume_22 : tile<i32>
  %assume_24 = assume bounded<0, ?>, %arg10 : tile<i32>
  %assume_assume_25 = assume bounded<0, ?>, %assume_4 : tile<i32>
  %assume_assume_assume_26 = assume div_by<8>, %assume_assume_25 : tile<i32>
  %assume_assume_27 = assume bounded<0, ?>, %assume_5 : tile<i32>
  %assume_assume_assume_28 = assume div_by<8>, %assume_assume_27 : tile<i32>
  %tview_29 = make_tensor_view %assume_2, shape = [%assume_21, %assume_assume_assume_23, %assume_24], strides = [%assume_assume_assume_26, %assume_assume_assume_28] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %assume_30 = assume bounded<0, ?>, %arg15 : tile<i32>
  %assume_assume_31 = assume bounded<0, ?>, %assume_7 : tile<i32>
  %assume_assume_assume_32 = assume div_by<128>, %assume_assume_31 : tile<i32>
  %assume_33 = assume bounded<0, ?>, %arg17 : tile<i32>
  %assume_assume_34 = assume bounded<0, ?>, %assume_8 : tile<i32>
  %assume_assume_assume_35 = assume div_by<8>, %assume_assume_34 : tile<i32>
  %assume_assume_36 = assume bounded<0, ?>, %assume_9 : tile<i32>
  %assume_assume_assume_37 = assume div_by<8>, %assume_assume_36 : tile<i32>
  %tview_38 = make_tensor_view %assume_6, shape = [%assume_30, %assume_assume_assume_32, %assume_33], strides = [%assume_assume_assume_35, %assume_assume_assume_37] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %assume_39 = assume bounded<0, ?>, %arg22 : tile<i32>
  %assume_40 = assume bounded<0, ?>, %arg23 : tile<i32>
  %assume_41 = assume bounded<0, ?>, %arg24 : tile<i32>
  %assume_assume_42 = assume bounded<0, ?>, %assume_11 : tile<i32>
  %assume_assume_assume_43 = assume div_by<8>, %assume_assume_42 : tile<i32>
  %assume_assume_44 = assume bounded<0, ?>, %assume_12 : tile<i32>
  %assume_assume_assume_45 = assume div_by<8>, %assume_assume_44 : tile<i32>
  %tview_46 = make_tensor_view %assume_10, shape = [%assume_39, %assume_40, %assume_41], strides = [%assume_assume_assume_43, %assume_assume_assume_45] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_47, %blockId_y_48, %blockId_z_49 = get_tile_block_id : tile<i32>
  %cst_f32 = constant <f32: 1.44269502> : tile<f32>
  %1 = mulf %arg28, %cst_f32  : tile<f32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_y_48, %blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x128x64xbf16>, token
  %reshape = reshape %tile : tile<1x128x64xbf16> -> tile<128x64xbf16>
  %cst_f32_50 = constant <f32: 0xFF800000> : tile<128x1xf32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x1xf32>
  %cst_0_f32_51 = constant <f32: 0.000000e+00> : tile<128x64xf32>
  %pview_52 = make_partition_view %tview_29 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %2:3 = get_index_space_shape %pview_52 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>> -> tile<i32>
  %cst_0_i32_53 = constant <i32: 0> : tile<i32>
  %cst_1_i32_54 = constant <i32: 1> : tile<i32>
  %cst_0_i32_55 = constant <i32: 0> : tile<i32>
  %pview_56 = make_partition_view %tview_29 : partition_view<tile=(1x64x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>
  %cst_0_f32_57 = constant <f32: 0.000000e+00> : tile<128x128xf32>
  %reshape_58 = reshape %1 : tile<f32> -> tile<1x1xf32>
  %bcast = broadcast %reshape_58 : tile<1x1xf32> -> tile<128x128xf32>
  %cst_0_i32_59 = constant <i32: 0> : tile<i32>
  %pview_60 = make_partition_view %tview_38 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %for:3 = for %loopIdx in (%cst_0_i32_53 to %2#1, step %cst_1_i32_54) : tile<i32> iter_values(%iterArg0 = %cst_0_f32, %iterArg1 = %cst_f32_50, %iterArg2 = %cst_0_f32_51) -> (tile<128x1xf32>, tile<128x1xf32>, tile<128x64xf32>) {
    %tile_65, %result_token_66 = load_view_tko weak %pview_56[%blockId_y_48, %cst_0_i32_55, %loopIdx] token = %0 : partition_view<tile=(1x64x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> tile<1x64x128xbf16>, token
    %reshape_67 = reshape %tile_65 : tile<1x64x128xbf16> -> tile<64x128xbf16>
    %6 = mmaf %reshape, %reshape_67, %cst_0_f32_57 : tile<128x64xbf16>, tile<64x128xbf16>, tile<128x128xf32>
    %7 = mulf %6, %bcast  : tile<128x128xf32>
    %reduce = reduce %7 dim=1 identities=[0xFF800000 : f32] : tile<128x128xf32> -> tile<128xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %17 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %17 : tile<f32>
    }
    %reshape_68 = reshape %reduce : tile<128xf32> -> tile<128x1xf32>
    %8 = maxf %iterArg1, %reshape_68 : tile<128x1xf32>
    %bcast_69 = broadcast %8 : tile<128x1xf32> -> tile<128x128xf32>
    %9 = subf %7, %bcast_69  : tile<128x128xf32>
    %10 = exp2 %9 : tile<128x128xf32>
    %11 = subf %iterArg1, %8  : tile<128x1xf32>
    %12 = exp2 %11 : tile<128x1xf32>
    %reduce_70 = reduce %10 dim=1 identities=[0.000000e+00 : f32] : tile<128x128xf32> -> tile<128xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %17 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
      yield %17 : tile<f32>
    }
    %reshape_71 = reshape %reduce_70 : tile<128xf32> -> tile<128x1xf32>
    %13 = fma %iterArg0, %12, %reshape_71  : tile<128x1xf32>
    %tile_72, %result_token_73 = load_view_tko weak %pview_60[%blockId_y_48, %loopIdx, %cst_0_i32_59] token = %0 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x128x64xbf16>, token
    %reshape_74 = reshape %tile_72 : tile<1x128x64xbf16> -> tile<128x64xbf16>
    %14 = ftof %10  : tile<128x128xf32> -> tile<128x128xbf16>
    %bcast_75 = broadcast %12 : tile<128x1xf32> -> tile<128x64xf32>
    %15 = mulf %iterArg2, %bcast_75  : tile<128x64xf32>
    %16 = mmaf %14, %reshape_74, %15 : tile<128x128xbf16>, tile<128x64xbf16>, tile<128x64xf32>
    continue %13, %8, %16 : tile<128x1xf32>, tile<128x1xf32>, tile<128x64xf32>
  }
  %bcast_61 = broadcast %for#0 : tile<128x1xf32> -> tile<128x64xf32>
  %3 = divf %for#2, %bcast_61  : tile<128x64xf32>
  %4 = ftof %3  : tile<128x64xf32> -> tile<128x64xbf16>
  %cst_0_i32_62 = constant <i32: 0> : tile<i32>
  %reshape_63 = reshape %4 : tile<128x64xbf16> -> tile<1x128x64xbf16>
  %pview_64 = make_partition_view %tview_46 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %5 = store_view_tko weak %reshape_63, %pview_64[%blockId_y_48, %blockId_x, %cst_0_i32_62] token = %0 : tile<1x128x64xbf16>, partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> token
  return
}
