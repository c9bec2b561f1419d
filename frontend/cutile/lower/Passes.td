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
  let options = [
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "Lower for a tensor core that accumulates in registers (sm_90a): "
           "each function is rewritten as --tileas-umma-to-wgmma does before "
           "it is verified, so a 256-row MMA tile (two consumer warpgroups, "
           "no tcgen05 form) lowers too">,
    Option<"fuseLoops", "fuse-split-loops", "bool", /*default=*/"true",
           "Make one loop of two in a row over one range: cuTile's split at a "
           "branch on the loop index, or a second loop starting at the first's "
           "bound (docs/cuda-tile-lowering.md, Loops cuTile split)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::tileas::TileASDialect"];
}

def TileASSplitRows : Pass<"tileas-split-rows", "::mlir::func::FuncOp"> {
  let summary = "Split the rows of register tiles of fewer than 128 rows "
                "over lanes";
  let description = [{
    The translation gives each of a SIMT agent's 128 threads one row. An
    R x C register tile with R < 128 (R dividing 128) that only SIMT work
    touches becomes the 128 x (C / L) tile of the same bytes, L = 128 / R
    lanes to a row: its smem_load and smem_store take `lanes = L`, its row
    reductions are followed by `tileas.reduce_lanes`, its per-row vectors
    hold 128 values, and a per-column vector spread over it is read per
    lane (docs/dialect.md, "Rows split over lanes"). `--tileir-to-tileas`
    ends with this step; tileas written by hand may run it.
  }];
  let dependentDialects = ["::mlir::tileas::TileASDialect"];
}

#endif // TILEPIPE_FRONTEND_CUTILE_LOWER_PASSES
