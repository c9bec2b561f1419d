// test/cutile/lower/fixtures/attention_head-13.4.tileirbc as the tileir dialect prints it
// (tilepipe-translate --import-tileir-bytecode): the input of the lowering's
// tests that do not read bytecode, and what cutile_specs.py lowers where
// tilepipe-translate has no bytecode import.
module {
  tileir.entry @attention_head(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<bf16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<ptr<bf16>>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<f32>) optimization_hints=<default = {}> {
    %0 = make_token : token
    %1 = assume div_by<16>, %arg0 : tile<ptr<bf16>>
    %2 = assume div_by<8>, %arg3 : tile<i32>
    %3 = assume div_by<16>, %arg5 : tile<ptr<bf16>>
    %4 = assume div_by<8>, %arg8 : tile<i32>
    %5 = assume div_by<16>, %arg10 : tile<ptr<bf16>>
    %6 = assume div_by<8>, %arg13 : tile<i32>
    %7 = assume div_by<16>, %arg15 : tile<ptr<bf16>>
    %8 = assume div_by<8>, %arg18 : tile<i32>
    %9 = constant <i32: 1> : tile<i32>
    %10 = constant <i32: 1> : tile<i32>
    %11 = constant <i32: 1> : tile<i32>
    %12 = constant <i32: 1> : tile<i32>
    %13 = assume bounded<0, ?>, %arg1 : tile<i32>
    %14 = assume bounded<0, ?>, %arg2 : tile<i32>
    %15 = assume bounded<0, ?>, %2 : tile<i32>
    %16 = assume div_by<8>, %15 : tile<i32>
    %17 = make_tensor_view %1, shape = [%13, %14], strides = [%16] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %18 = assume bounded<0, ?>, %arg6 : tile<i32>
    %19 = assume bounded<0, ?>, %arg7 : tile<i32>
    %20 = assume bounded<0, ?>, %4 : tile<i32>
    %21 = assume div_by<8>, %20 : tile<i32>
    %22 = make_tensor_view %3, shape = [%18, %19], strides = [%21] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %23 = assume bounded<0, ?>, %arg11 : tile<i32>
    %24 = assume bounded<0, ?>, %arg12 : tile<i32>
    %25 = assume bounded<0, ?>, %6 : tile<i32>
    %26 = assume div_by<8>, %25 : tile<i32>
    %27 = make_tensor_view %5, shape = [%23, %24], strides = [%26] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %28 = assume bounded<0, ?>, %arg16 : tile<i32>
    %29 = assume bounded<0, ?>, %arg17 : tile<i32>
    %30 = assume bounded<0, ?>, %8 : tile<i32>
    %31 = assume div_by<8>, %30 : tile<i32>
    %32 = make_tensor_view %7, shape = [%28, %29], strides = [%31] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %33 = constant <f32: 1.44269502> : tile<f32>
    %34 = mulf %arg20, %33 : tile<f32>
    %35 = constant <i32: 0> : tile<i32>
    %36 = make_partition_view %17 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
    %tile, %result_token = load_view_tko weak %36[%blockId_x, %35] token = %0 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
    %37 = constant <f32: 0xFF800000> : tile<128x1xf32>
    %38 = constant <f32: 0.000000e+00> : tile<128x1xf32>
    %39 = constant <f32: 0.000000e+00> : tile<128x64xf32>
    %40 = make_partition_view %22 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>
    %41:2 = get_index_space_shape %40 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>> -> tile<i32>
    %42 = constant <i32: 0> : tile<i32>
    %43 = constant <i32: 1> : tile<i32>
    %44 = constant <i32: 0> : tile<i32>
    %45 = make_partition_view %22 : partition_view<tile=(64x128), tensor_view<?x?xbf16, strides=[?,1]>, dim_map=[1, 0]>
    %46 = constant <f32: 0.000000e+00> : tile<128x128xf32>
    %47 = reshape %34 : tile<f32> -> tile<1x1xf32>
    %48 = broadcast %47 : tile<1x1xf32> -> tile<128x128xf32>
    %49 = constant <i32: 0> : tile<i32>
    %50 = make_partition_view %27 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>
    %51:3 = for %loopIdx in (%42 to %41#0, step %43) : tile<i32> iter_values(%iterArg0 = %39, %iterArg1 = %38, %iterArg2 = %37) -> (tile<128x64xf32>, tile<128x1xf32>, tile<128x1xf32>) {
      %tile_0, %result_token_1 = load_view_tko weak %45[%44, %loopIdx] token = %0 : partition_view<tile=(64x128), tensor_view<?x?xbf16, strides=[?,1]>, dim_map=[1, 0]>, tile<i32> -> tile<64x128xbf16>, token
      %58 = mmaf %tile, %tile_0, %46 : tile<128x64xbf16>, tile<64x128xbf16>, tile<128x128xf32>
      %59 = mulf %58, %48 : tile<128x128xf32>
      %60 = reduce %59 dim=1 identities=[0xFF800000 : f32] : tile<128x128xf32> -> tile<128xf32> (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %75 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
        yield %75 : tile<f32>
      }
      %61 = reshape %60 : tile<128xf32> -> tile<128x1xf32>
      %62 = maxf %iterArg2, %61 : tile<128x1xf32>
      %63 = broadcast %62 : tile<128x1xf32> -> tile<128x128xf32>
      %64 = subf %59, %63 : tile<128x128xf32>
      %65 = exp2 %64 : tile<128x128xf32>
      %66 = subf %iterArg2, %62 : tile<128x1xf32>
      %67 = exp2 %66 : tile<128x1xf32>
      %68 = reduce %65 dim=1 identities=[0.000000e+00 : f32] : tile<128x128xf32> -> tile<128xf32> (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %75 = addf %reduce_lhs, %reduce_rhs : tile<f32>
        yield %75 : tile<f32>
      }
      %69 = reshape %68 : tile<128xf32> -> tile<128x1xf32>
      %70 = fma %iterArg1, %67, %69 : tile<128x1xf32>
      %tile_2, %result_token_3 = load_view_tko weak %50[%loopIdx, %49] token = %0 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
      %71 = ftof %65 : tile<128x128xf32> -> tile<128x128xbf16>
      %72 = broadcast %67 : tile<128x1xf32> -> tile<128x64xf32>
      %73 = mulf %iterArg0, %72 : tile<128x64xf32>
      %74 = mmaf %71, %tile_2, %73 : tile<128x128xbf16>, tile<128x64xbf16>, tile<128x64xf32>
      continue %74, %70, %62 : tile<128x64xf32>, tile<128x1xf32>, tile<128x1xf32>
    }
    %52 = constant <i32: 0> : tile<i32>
    %53 = broadcast %51#1 : tile<128x1xf32> -> tile<128x64xf32>
    %54 = divf %51#0, %53 : tile<128x64xf32>
    %55 = ftof %54 : tile<128x64xf32> -> tile<128x64xbf16>
    %56 = make_partition_view %32 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>
    %57 = store_view_tko weak %55, %56[%blockId_x, %52] token = %0 : tile<128x64xbf16>, partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
