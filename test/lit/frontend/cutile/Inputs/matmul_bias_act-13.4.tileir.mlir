// test/cutile/fixtures/matmul_bias_act-13.4.tileirbc as the tileir dialect prints it
// (tilepipe-translate --import-tileir-bytecode): the input of the lowering's
// tests that do not read bytecode, and what cutile_specs.py lowers where
// tilepipe-translate has no bytecode import.
module {
  tileir.entry @matmul_bias_act(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f32>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<ptr<bf16>>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>) optimization_hints=<default = {}> {
    %0 = make_token : token
    %1 = assume div_by<16>, %arg0 : tile<ptr<bf16>>
    %2 = assume div_by<8>, %arg3 : tile<i32>
    %3 = assume div_by<16>, %arg5 : tile<ptr<bf16>>
    %4 = assume div_by<8>, %arg8 : tile<i32>
    %5 = assume div_by<16>, %arg10 : tile<ptr<f32>>
    %6 = assume div_by<16>, %arg13 : tile<ptr<bf16>>
    %7 = assume div_by<8>, %arg16 : tile<i32>
    %8 = constant <i32: 1> : tile<i32>
    %9 = constant <i32: 1> : tile<i32>
    %10 = constant <i32: 1> : tile<i32>
    %11 = constant <i32: 1> : tile<i32>
    %12 = assume bounded<0, ?>, %arg1 : tile<i32>
    %13 = assume bounded<0, ?>, %arg2 : tile<i32>
    %14 = assume bounded<0, ?>, %2 : tile<i32>
    %15 = assume div_by<8>, %14 : tile<i32>
    %16 = make_tensor_view %1, shape = [%12, %13], strides = [%15] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %17 = assume bounded<0, ?>, %arg6 : tile<i32>
    %18 = assume bounded<0, ?>, %arg7 : tile<i32>
    %19 = assume bounded<0, ?>, %4 : tile<i32>
    %20 = assume div_by<8>, %19 : tile<i32>
    %21 = make_tensor_view %3, shape = [%17, %18], strides = [%20] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %22 = assume bounded<0, ?>, %arg11 : tile<i32>
    %23 = make_tensor_view %5, shape = [%22], strides = [] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %24 = assume bounded<0, ?>, %arg14 : tile<i32>
    %25 = assume bounded<0, ?>, %arg15 : tile<i32>
    %26 = assume bounded<0, ?>, %7 : tile<i32>
    %27 = assume div_by<8>, %26 : tile<i32>
    %28 = make_tensor_view %6, shape = [%24, %25], strides = [%27] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %29 = constant <i32: 8> : tile<i32>
    %30 = constant <f32: 1.250000e-01> : tile<f32>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %31 = make_partition_view %28 : partition_view<tile=(128x128), tensor_view<?x?xbf16, strides=[?,1]>>
    %32:2 = get_index_space_shape %31 : partition_view<tile=(128x128), tensor_view<?x?xbf16, strides=[?,1]>> -> tile<i32>
    %33 = make_partition_view %28 : partition_view<tile=(128x128), tensor_view<?x?xbf16, strides=[?,1]>>
    %34:2 = get_index_space_shape %33 : partition_view<tile=(128x128), tensor_view<?x?xbf16, strides=[?,1]>> -> tile<i32>
    %35 = muli %29, %34#1 : tile<i32>
    %36 = divi %blockId_x, %35 signed rounding<negative_inf> : tile<i32>
    %37 = muli %36, %29 : tile<i32>
    %38 = subi %32#0, %37 : tile<i32>
    %39 = mini %38, %29 signed : tile<i32>
    %40 = remi %blockId_x, %35 signed : tile<i32>
    %41 = constant <i32: 0> : tile<i32>
    %42 = cmpi less_than %40, %41, signed : tile<i32> -> tile<i1>
    %43 = cmpi less_than %35, %41, signed : tile<i32> -> tile<i1>
    %44 = xori %42, %43 : tile<i1>
    %45 = cmpi not_equal %40, %41, signed : tile<i32> -> tile<i1>
    %46 = andi %44, %45 : tile<i1>
    %47 = addi %40, %35 : tile<i32>
    %48 = select %46, %47, %40 : tile<i1>, tile<i32>
    %49 = remi %48, %39 signed : tile<i32>
    %50 = constant <i32: 0> : tile<i32>
    %51 = cmpi less_than %49, %50, signed : tile<i32> -> tile<i1>
    %52 = cmpi less_than %39, %50, signed : tile<i32> -> tile<i1>
    %53 = xori %51, %52 : tile<i1>
    %54 = cmpi not_equal %49, %50, signed : tile<i32> -> tile<i1>
    %55 = andi %53, %54 : tile<i1>
    %56 = addi %49, %39 : tile<i32>
    %57 = select %55, %56, %49 : tile<i1>, tile<i32>
    %58 = addi %37, %57 : tile<i32>
    %59 = remi %blockId_x, %35 signed : tile<i32>
    %60 = constant <i32: 0> : tile<i32>
    %61 = cmpi less_than %59, %60, signed : tile<i32> -> tile<i1>
    %62 = cmpi less_than %35, %60, signed : tile<i32> -> tile<i1>
    %63 = xori %61, %62 : tile<i1>
    %64 = cmpi not_equal %59, %60, signed : tile<i32> -> tile<i1>
    %65 = andi %63, %64 : tile<i1>
    %66 = addi %59, %35 : tile<i32>
    %67 = select %65, %66, %59 : tile<i1>, tile<i32>
    %68 = divi %67, %39 signed rounding<negative_inf> : tile<i32>
    %69 = make_partition_view %16 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>
    %70:2 = get_index_space_shape %69 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>> -> tile<i32>
    %71 = constant <f32: 0.000000e+00> : tile<128x128xf32>
    %72 = constant <i32: 0> : tile<i32>
    %73 = constant <i32: 1> : tile<i32>
    %74 = make_partition_view %16 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
    %75 = make_partition_view %21 : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
    %76 = for %loopIdx in (%72 to %70#1, step %73) : tile<i32> iter_values(%iterArg0 = %71) -> (tile<128x128xf32>) {
      %tile_0, %result_token_1 = load_view_tko weak %74[%58, %loopIdx] token = %0 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
      %tile_2, %result_token_3 = load_view_tko weak %75[%loopIdx, %68] token = %0 : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<64x128xbf16>, token
      %88 = mmaf %tile_0, %tile_2, %iterArg0 : tile<128x64xbf16>, tile<64x128xbf16>, tile<128x128xf32>
      continue %88 : tile<128x128xf32>
    }
    %77 = make_partition_view %23 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %77[%68] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
    %78 = reshape %tile : tile<128xf32> -> tile<1x128xf32>
    %79 = broadcast %78 : tile<1x128xf32> -> tile<128x128xf32>
    %80 = addf %76, %79 : tile<128x128xf32>
    %81 = reshape %30 : tile<f32> -> tile<1x1xf32>
    %82 = broadcast %81 : tile<1x1xf32> -> tile<128x128xf32>
    %83 = mulf %80, %82 : tile<128x128xf32>
    %84 = maxf %80, %83 : tile<128x128xf32>
    %85 = ftof %84 : tile<128x128xf32> -> tile<128x128xbf16>
    %86 = make_partition_view %28 : partition_view<tile=(128x128), tensor_view<?x?xbf16, strides=[?,1]>>
    %87 = store_view_tko weak %85, %86[%58, %68] token = %0 : tile<128x128xbf16>, partition_view<tile=(128x128), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
