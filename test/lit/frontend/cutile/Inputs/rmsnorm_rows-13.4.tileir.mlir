// tileirdisasm's text of test/cutile/lower/fixtures/rmsnorm_rows-13.4.tileirbc in the tileir dialect's
// syntax (`tileir.entry`; static strides are not listed among the view's
// operands). The input of the lowering's tests where the bytecode reader is
// not used, and what cutile_specs.py lowers when tilepipe-translate has no
// bytecode import.
tileir.entry @rmsnorm_rows(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<bf16>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %assume_0 = assume div_by<8>, %arg3 : tile<i32>
  %assume_1 = assume div_by<16>, %arg5 : tile<ptr<bf16>>
  %assume_2 = assume div_by<16>, %arg8 : tile<ptr<bf16>>
  %assume_3 = assume div_by<8>, %arg11 : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_4 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_assume = assume bounded<0, ?>, %assume_0 : tile<i32>
  %assume_assume_assume = assume div_by<8>, %assume_assume : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7], strides = [%assume_assume_assume] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_8 = assume bounded<0, ?>, %arg6 : tile<i32>
  %tview_9 = make_tensor_view %assume_1, shape = [%assume_8], strides = [] : tile<i32> -> tensor_view<?xbf16, strides=[1]>
  %assume_10 = assume bounded<0, ?>, %arg9 : tile<i32>
  %assume_11 = assume bounded<0, ?>, %arg10 : tile<i32>
  %assume_assume_12 = assume bounded<0, ?>, %assume_3 : tile<i32>
  %assume_assume_assume_13 = assume div_by<8>, %assume_assume_12 : tile<i32>
  %tview_14 = make_tensor_view %assume_2, shape = [%assume_10, %assume_11], strides = [%assume_assume_assume_13] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x128xbf16>, token
  %1 = ftof %tile  : tile<128x128xbf16> -> tile<128x128xf32>
  %2 = mulf %1, %1  : tile<128x128xf32>
  %reduce = reduce %2 dim=1 identities=[0.000000e+00 : f32] : tile<128x128xf32> -> tile<128xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %10 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %10 : tile<f32>
  }
  %reshape = reshape %reduce : tile<128xf32> -> tile<128x1xf32>
  %cst_f32 = constant <f32: 7.812500e-03> : tile<f32>
  %reshape_15 = reshape %cst_f32 : tile<f32> -> tile<1x1xf32>
  %bcast = broadcast %reshape_15 : tile<1x1xf32> -> tile<128x1xf32>
  %reshape_16 = reshape %arg13 : tile<f32> -> tile<1x1xf32>
  %bcast_17 = broadcast %reshape_16 : tile<1x1xf32> -> tile<128x1xf32>
  %3 = fma %reshape, %bcast, %bcast_17  : tile<128x1xf32>
  %4 = rsqrt %3 : tile<128x1xf32>
  %cst_0_i32_18 = constant <i32: 0> : tile<i32>
  %pview_19 = make_partition_view %tview_9 : partition_view<tile=(128), padding_value = zero, tensor_view<?xbf16, strides=[1]>>
  %tile_20, %result_token_21 = load_view_tko weak %pview_19[%cst_0_i32_18] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xbf16, strides=[1]>>, tile<i32> -> tile<128xbf16>, token
  %5 = ftof %tile_20  : tile<128xbf16> -> tile<128xf32>
  %cst_0_i32_22 = constant <i32: 0> : tile<i32>
  %bcast_23 = broadcast %4 : tile<128x1xf32> -> tile<128x128xf32>
  %6 = mulf %1, %bcast_23  : tile<128x128xf32>
  %reshape_24 = reshape %5 : tile<128xf32> -> tile<1x128xf32>
  %bcast_25 = broadcast %reshape_24 : tile<1x128xf32> -> tile<128x128xf32>
  %7 = mulf %6, %bcast_25  : tile<128x128xf32>
  %8 = ftof %7  : tile<128x128xf32> -> tile<128x128xbf16>
  %pview_26 = make_partition_view %tview_14 : partition_view<tile=(128x128), tensor_view<?x?xbf16, strides=[?,1]>>
  %9 = store_view_tko weak %8, %pview_26[%blockId_x, %cst_0_i32_22] token = %0 : tile<128x128xbf16>, partition_view<tile=(128x128), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token
  return
}
