// test/cutile/fixtures/attention-13.4.tileirbc as the tileir dialect prints it
// (tilepipe-translate --import-tileir-bytecode): the input of the lowering's
// tests that do not read bytecode, and what cutile_specs.py lowers where
// tilepipe-translate has no bytecode import.
module {
  tileir.entry @attention(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<ptr<bf16>>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<ptr<bf16>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>, %arg21: tile<ptr<bf16>>, %arg22: tile<i32>, %arg23: tile<i32>, %arg24: tile<i32>, %arg25: tile<i32>, %arg26: tile<i32>, %arg27: tile<i32>, %arg28: tile<f32>) optimization_hints=<default = {}> {
    %0 = make_token : token
    %1 = assume div_by<16>, %arg0 : tile<ptr<bf16>>
    %2 = assume div_by<8>, %arg4 : tile<i32>
    %3 = assume div_by<8>, %arg5 : tile<i32>
    %4 = assume div_by<16>, %arg7 : tile<ptr<bf16>>
    %5 = assume div_by<128>, %arg9 : tile<i32>
    %6 = assume div_by<8>, %arg11 : tile<i32>
    %7 = assume div_by<8>, %arg12 : tile<i32>
    %8 = assume div_by<16>, %arg14 : tile<ptr<bf16>>
    %9 = assume div_by<128>, %arg16 : tile<i32>
    %10 = assume div_by<8>, %arg18 : tile<i32>
    %11 = assume div_by<8>, %arg19 : tile<i32>
    %12 = assume div_by<16>, %arg21 : tile<ptr<bf16>>
    %13 = assume div_by<8>, %arg25 : tile<i32>
    %14 = assume div_by<8>, %arg26 : tile<i32>
    %15 = constant <i32: 1> : tile<i32>
    %16 = constant <i32: 1> : tile<i32>
    %17 = constant <i32: 1> : tile<i32>
    %18 = constant <i32: 1> : tile<i32>
    %19 = assume bounded<0, ?>, %arg1 : tile<i32>
    %20 = assume bounded<0, ?>, %arg2 : tile<i32>
    %21 = assume bounded<0, ?>, %arg3 : tile<i32>
    %22 = assume bounded<0, ?>, %2 : tile<i32>
    %23 = assume div_by<8>, %22 : tile<i32>
    %24 = assume bounded<0, ?>, %3 : tile<i32>
    %25 = assume div_by<8>, %24 : tile<i32>
    %26 = make_tensor_view %1, shape = [%19, %20, %21], strides = [%23, %25] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
    %27 = assume bounded<0, ?>, %arg8 : tile<i32>
    %28 = assume bounded<0, ?>, %5 : tile<i32>
    %29 = assume div_by<128>, %28 : tile<i32>
    %30 = assume bounded<0, ?>, %arg10 : tile<i32>
    %31 = assume bounded<0, ?>, %6 : tile<i32>
    %32 = assume div_by<8>, %31 : tile<i32>
    %33 = assume bounded<0, ?>, %7 : tile<i32>
    %34 = assume div_by<8>, %33 : tile<i32>
    %35 = make_tensor_view %4, shape = [%27, %29, %30], strides = [%32, %34] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
    %36 = assume bounded<0, ?>, %arg15 : tile<i32>
    %37 = assume bounded<0, ?>, %9 : tile<i32>
    %38 = assume div_by<128>, %37 : tile<i32>
    %39 = assume bounded<0, ?>, %arg17 : tile<i32>
    %40 = assume bounded<0, ?>, %10 : tile<i32>
    %41 = assume div_by<8>, %40 : tile<i32>
    %42 = assume bounded<0, ?>, %11 : tile<i32>
    %43 = assume div_by<8>, %42 : tile<i32>
    %44 = make_tensor_view %8, shape = [%36, %38, %39], strides = [%41, %43] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
    %45 = assume bounded<0, ?>, %arg22 : tile<i32>
    %46 = assume bounded<0, ?>, %arg23 : tile<i32>
    %47 = assume bounded<0, ?>, %arg24 : tile<i32>
    %48 = assume bounded<0, ?>, %13 : tile<i32>
    %49 = assume div_by<8>, %48 : tile<i32>
    %50 = assume bounded<0, ?>, %14 : tile<i32>
    %51 = assume div_by<8>, %50 : tile<i32>
    %52 = make_tensor_view %12, shape = [%45, %46, %47], strides = [%49, %51] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %blockId_x_0, %blockId_y_1, %blockId_z_2 = get_tile_block_id : tile<i32>
    %53 = constant <f32: 1.44269502> : tile<f32>
    %54 = mulf %arg28, %53 : tile<f32>
    %55 = constant <i32: 0> : tile<i32>
    %56 = make_partition_view %26 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>
    %tile, %result_token = load_view_tko weak %56[%blockId_y_1, %blockId_x, %55] token = %0 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x128x64xbf16>, token
    %57 = reshape %tile : tile<1x128x64xbf16> -> tile<128x64xbf16>
    %58 = constant <f32: 0xFF800000> : tile<128x1xf32>
    %59 = constant <f32: 0.000000e+00> : tile<128x1xf32>
    %60 = constant <f32: 0.000000e+00> : tile<128x64xf32>
    %61 = make_partition_view %35 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
    %62:3 = get_index_space_shape %61 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>> -> tile<i32>
    %63 = constant <i32: 0> : tile<i32>
    %64 = constant <i32: 1> : tile<i32>
    %65 = constant <i32: 0> : tile<i32>
    %66 = make_partition_view %35 : partition_view<tile=(1x64x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>
    %67 = constant <f32: 0.000000e+00> : tile<128x128xf32>
    %68 = reshape %54 : tile<f32> -> tile<1x1xf32>
    %69 = broadcast %68 : tile<1x1xf32> -> tile<128x128xf32>
    %70 = constant <i32: 0> : tile<i32>
    %71 = make_partition_view %44 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
    %72:3 = for %loopIdx in (%63 to %62#1, step %64) : tile<i32> iter_values(%iterArg0 = %59, %iterArg1 = %58, %iterArg2 = %60) -> (tile<128x1xf32>, tile<128x1xf32>, tile<128x64xf32>) {
      %tile_3, %result_token_4 = load_view_tko weak %66[%blockId_y_1, %65, %loopIdx] token = %0 : partition_view<tile=(1x64x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> tile<1x64x128xbf16>, token
      %80 = reshape %tile_3 : tile<1x64x128xbf16> -> tile<64x128xbf16>
      %81 = mmaf %57, %80, %67 : tile<128x64xbf16>, tile<64x128xbf16>, tile<128x128xf32>
      %82 = mulf %81, %69 : tile<128x128xf32>
      %83 = reduce %82 dim=1 identities=[0xFF800000 : f32] : tile<128x128xf32> -> tile<128xf32> (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %99 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
        yield %99 : tile<f32>
      }
      %84 = reshape %83 : tile<128xf32> -> tile<128x1xf32>
      %85 = maxf %iterArg1, %84 : tile<128x1xf32>
      %86 = broadcast %85 : tile<128x1xf32> -> tile<128x128xf32>
      %87 = subf %82, %86 : tile<128x128xf32>
      %88 = exp2 %87 : tile<128x128xf32>
      %89 = subf %iterArg1, %85 : tile<128x1xf32>
      %90 = exp2 %89 : tile<128x1xf32>
      %91 = reduce %88 dim=1 identities=[0.000000e+00 : f32] : tile<128x128xf32> -> tile<128xf32> (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %99 = addf %reduce_lhs, %reduce_rhs : tile<f32>
        yield %99 : tile<f32>
      }
      %92 = reshape %91 : tile<128xf32> -> tile<128x1xf32>
      %93 = fma %iterArg0, %90, %92 : tile<128x1xf32>
      %tile_5, %result_token_6 = load_view_tko weak %71[%blockId_y_1, %loopIdx, %70] token = %0 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x128x64xbf16>, token
      %94 = reshape %tile_5 : tile<1x128x64xbf16> -> tile<128x64xbf16>
      %95 = ftof %88 : tile<128x128xf32> -> tile<128x128xbf16>
      %96 = broadcast %90 : tile<128x1xf32> -> tile<128x64xf32>
      %97 = mulf %iterArg2, %96 : tile<128x64xf32>
      %98 = mmaf %95, %94, %97 : tile<128x128xbf16>, tile<128x64xbf16>, tile<128x64xf32>
      continue %93, %85, %98 : tile<128x1xf32>, tile<128x1xf32>, tile<128x64xf32>
    }
    %73 = broadcast %72#0 : tile<128x1xf32> -> tile<128x64xf32>
    %74 = divf %72#2, %73 : tile<128x64xf32>
    %75 = ftof %74 : tile<128x64xf32> -> tile<128x64xbf16>
    %76 = constant <i32: 0> : tile<i32>
    %77 = reshape %75 : tile<128x64xbf16> -> tile<1x128x64xbf16>
    %78 = make_partition_view %52 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
    %79 = store_view_tko weak %77, %78[%blockId_y_1, %blockId_x, %76] token = %0 : tile<1x128x64xbf16>, partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> token
    return
  }
}
