// test/cutile/fixtures/batched_matmul-13.4.tileirbc as the tileir dialect prints it
// (tilepipe-translate --import-tileir-bytecode): the input of the lowering's
// tests that do not read bytecode, and what cutile_specs.py lowers where
// tilepipe-translate has no bytecode import.
module {
  tileir.entry @batched_matmul(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<ptr<bf16>>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<ptr<bf16>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>) optimization_hints=<default = {}> {
    %0 = make_token : token
    %1 = assume div_by<16>, %arg0 : tile<ptr<bf16>>
    %2 = assume div_by<8>, %arg4 : tile<i32>
    %3 = assume div_by<8>, %arg5 : tile<i32>
    %4 = assume div_by<16>, %arg7 : tile<ptr<bf16>>
    %5 = assume div_by<8>, %arg11 : tile<i32>
    %6 = assume div_by<8>, %arg12 : tile<i32>
    %7 = assume div_by<16>, %arg14 : tile<ptr<bf16>>
    %8 = assume div_by<8>, %arg18 : tile<i32>
    %9 = assume div_by<8>, %arg19 : tile<i32>
    %10 = constant <i32: 1> : tile<i32>
    %11 = constant <i32: 1> : tile<i32>
    %12 = constant <i32: 1> : tile<i32>
    %13 = assume bounded<0, ?>, %arg1 : tile<i32>
    %14 = assume bounded<0, ?>, %arg2 : tile<i32>
    %15 = assume bounded<0, ?>, %arg3 : tile<i32>
    %16 = assume bounded<0, ?>, %2 : tile<i32>
    %17 = assume div_by<8>, %16 : tile<i32>
    %18 = assume bounded<0, ?>, %3 : tile<i32>
    %19 = assume div_by<8>, %18 : tile<i32>
    %20 = make_tensor_view %1, shape = [%13, %14, %15], strides = [%17, %19] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
    %21 = assume bounded<0, ?>, %arg8 : tile<i32>
    %22 = assume bounded<0, ?>, %arg9 : tile<i32>
    %23 = assume bounded<0, ?>, %arg10 : tile<i32>
    %24 = assume bounded<0, ?>, %5 : tile<i32>
    %25 = assume div_by<8>, %24 : tile<i32>
    %26 = assume bounded<0, ?>, %6 : tile<i32>
    %27 = assume div_by<8>, %26 : tile<i32>
    %28 = make_tensor_view %4, shape = [%21, %22, %23], strides = [%25, %27] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
    %29 = assume bounded<0, ?>, %arg15 : tile<i32>
    %30 = assume bounded<0, ?>, %arg16 : tile<i32>
    %31 = assume bounded<0, ?>, %arg17 : tile<i32>
    %32 = assume bounded<0, ?>, %8 : tile<i32>
    %33 = assume div_by<8>, %32 : tile<i32>
    %34 = assume bounded<0, ?>, %9 : tile<i32>
    %35 = assume div_by<8>, %34 : tile<i32>
    %36 = make_tensor_view %7, shape = [%29, %30, %31], strides = [%33, %35] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %blockId_x_0, %blockId_y_1, %blockId_z_2 = get_tile_block_id : tile<i32>
    %blockId_x_3, %blockId_y_4, %blockId_z_5 = get_tile_block_id : tile<i32>
    %37 = make_partition_view %20 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
    %38:3 = get_index_space_shape %37 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>> -> tile<i32>
    %39 = constant <f32: 0.000000e+00> : tile<128x128xf32>
    %40 = constant <i32: 0> : tile<i32>
    %41 = constant <i32: 1> : tile<i32>
    %42 = make_partition_view %20 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>
    %43 = make_partition_view %28 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>
    %44 = for %loopIdx in (%40 to %38#2, step %41) : tile<i32> iter_values(%iterArg0 = %39) -> (tile<128x128xf32>) {
      %tile, %result_token = load_view_tko weak %42[%blockId_z_5, %blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x128x64xbf16>, token
      %tile_6, %result_token_7 = load_view_tko weak %43[%blockId_z_5, %loopIdx, %blockId_y_1] token = %0 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x128xbf16>, token
      %49 = reshape %tile : tile<1x128x64xbf16> -> tile<128x64xbf16>
      %50 = reshape %tile_6 : tile<1x64x128xbf16> -> tile<64x128xbf16>
      %51 = mmaf %49, %50, %iterArg0 : tile<128x64xbf16>, tile<64x128xbf16>, tile<128x128xf32>
      continue %51 : tile<128x128xf32>
    }
    %45 = ftof %44 : tile<128x128xf32> -> tile<128x128xbf16>
    %46 = reshape %45 : tile<128x128xbf16> -> tile<1x128x128xbf16>
    %47 = make_partition_view %36 : partition_view<tile=(1x128x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
    %48 = store_view_tko weak %46, %47[%blockId_z_5, %blockId_x, %blockId_y_1] token = %0 : tile<1x128x128xbf16>, partition_view<tile=(1x128x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> token
    return
  }
}
