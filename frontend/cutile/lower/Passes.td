//===- Passes.td - the cuTile lowering pass ----------------*- tablegen -*-===//

#ifndef TILEPIPE_FRONTEND_CUTILE_LOWER_PASSES
#define TILEPIPE_FRONTEND_CUTILE_LOWER_PASSES

include "mlir/Pass/PassBase.td"

def TileIRToTileAS : Pass<"tileir-to-tileas", "::mlir::ModuleOp"> {
  let summary = "Lower cuTile's tile IR (tileir) to tileas tile IR";
  let description = [{
    Every `tileir.entry` becomes a `func.func` of tileas tile IR that the
    scheduler, the materializer and the CUDA translation take: tensor and
    partition views become TMA descriptor arguments, the `for` whose body
    loads views and multiplies becomes the `scf.for` the scheduler
    pipelines, `mmaf` a `tileas.umma` with its accumulator in tensor
    memory, element-wise work and row reductions SIMT ops on register
    tiles, and the stores after the loop the epilogue. The function carries
    `tileas.cutile.params` and each argument `tileas.cutile.source`, which
    tell a launcher how to build the arguments from cuTile's (pointer,
    shape, strides) calling convention (docs/cuda-tile-lowering.md). What
    cannot be lowered is an error at the op; optimization hints tilepipe
    does not use are reported in a remark.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::tileas::TileASDialect"];
}

#endif // TILEPIPE_FRONTEND_CUTILE_LOWER_PASSES
