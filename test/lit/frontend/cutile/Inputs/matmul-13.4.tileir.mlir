// test/cutile/fixtures/matmul-13.4.tileirbc as the tileir dialect prints it
// (tilepipe-translate --import-tileir-bytecode): the input of the lowering's
// tests that do not read bytecode, and what cutile_specs.py lowers where
// tilepipe-translate has no bytecode import.
module {
  tileir.entry @matmul(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<bf16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
    %0 = make_token : token
    %1 = assume div_by<16>, %arg0 : tile<ptr<bf16>>
    %2 = assume div_by<8>, %arg3 : tile<i32>
    %3 = assume div_by<16>, %arg5 : tile<ptr<bf16>>
    %4 = assume div_by<8>, %arg8 : tile<i32>
    %5 = assume div_by<16>, %arg10 : tile<ptr<bf16>>
    %6 = assume div_by<8>, %arg13 : tile<i32>
    %7 = constant <i32: 1> : tile<i32>
    %8 = constant <i32: 1> : tile<i32>
    %9 = constant <i32: 1> : tile<i32>
    %10 = assume bounded<0, ?>, %arg1 : tile<i32>
    %11 = assume bounded<0, ?>, %arg2 : tile<i32>
    %12 = assume bounded<0, ?>, %2 : tile<i32>
    %13 = assume div_by<8>, %12 : tile<i32>
    %14 = make_tensor_view %1, shape = [%10, %11], strides = [%13] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %15 = assume bounded<0, ?>, %arg6 : tile<i32>
    %16 = assume bounded<0, ?>, %arg7 : tile<i32>
    %17 = assume bounded<0, ?>, %4 : tile<i32>
    %18 = assume div_by<8>, %17 : tile<i32>
    %19 = make_tensor_view %3, shape = [%15, %16], strides = [%18] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %20 = assume bounded<0, ?>, %arg11 : tile<i32>
    %21 = assume bounded<0, ?>, %arg12 : tile<i32>
    %22 = assume bounded<0, ?>, %6 : tile<i32>
    %23 = assume div_by<8>, %22 : tile<i32>
    %24 = make_tensor_view %5, shape = [%20, %21], strides = [%23] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %blockId_x_0, %blockId_y_1, %blockId_z_2 = get_tile_block_id : tile<i32>
    %25 = make_partition_view %14 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>
    %26:2 = get_index_space_shape %25 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>> -> tile<i32>
    %27 = constant <f32: 0.000000e+00> : tile<128x256xf32>
    %28 = constant <i32: 0> : tile<i32>
    %29 = constant <i32: 1> : tile<i32>
    %30 = make_partition_view %14 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
    %31 = make_partition_view %19 : partition_view<tile=(64x256), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
    %32 = for %loopIdx in (%28 to %26#1, step %29) : tile<i32> iter_values(%iterArg0 = %27) -> (tile<128x256xf32>) {
      %tile, %result_token = load_view_tko weak %30[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
      %tile_3, %result_token_4 = load_view_tko weak %31[%loopIdx, %blockId_y_1] token = %0 : partition_view<tile=(64x256), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<64x256xbf16>, token
      %36 = mmaf %tile, %tile_3, %iterArg0 : tile<128x64xbf16>, tile<64x256xbf16>, tile<128x256xf32>
      continue %36 : tile<128x256xf32>
    }
    %33 = ftof %32 : tile<128x256xf32> -> tile<128x256xbf16>
    %34 = make_partition_view %24 : partition_view<tile=(128x256), tensor_view<?x?xbf16, strides=[?,1]>>
    %35 = store_view_tko weak %33, %34[%blockId_x, %blockId_y_1] token = %0 : tile<128x256xbf16>, partition_view<tile=(128x256), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
