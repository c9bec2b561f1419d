//===- Passes.td - retargeting rewrites --------------------*- tablegen -*-===//

#ifndef TILEPIPE_RETARGET_PASSES
#define TILEPIPE_RETARGET_PASSES

include "mlir/Pass/PassBase.td"

def TileASUmmaToWgmma : Pass<"tileas-umma-to-wgmma", "::mlir::ModuleOp"> {
  let summary = "Rewrite Blackwell's TMEM MMAs as Hopper's register-"
                "accumulator wgmma";
  let description = [{
    A loop written once for both targets: tileas written with `tileas.umma`
    and tensor-memory tiles (the bundled GEMM-family examples, attention)
    becomes tileas for sm_90a. Every `!tileas.tmem<S x T>` value becomes the
    register tile `tensor<S x T>`; `tileas.umma` becomes `tileas.wgmma` on
    the same operands and flags; `alloc_tmem` becomes a zero tile (an
    accumulator's first MMA reads zeros on both targets); `tmem_load` and
    `tmem_store` disappear, their values passing through; loops and
    functions carry the new types. What Hopper cannot express is refused at
    its line: tensor-memory copies and block-scaled MMA (Hopper has neither),
    and stores `into` another tile's columns (docs/retarget.md).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tileas::TileASDialect"];
}

#endif // TILEPIPE_RETARGET_PASSES
