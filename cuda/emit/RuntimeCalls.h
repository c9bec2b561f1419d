//===- RuntimeCalls.h - the runtime call of a TMA, UMMA or tcgen05.cp -*- C++ -*-===//
//
// What the kernel emitter needs to spell the calls that depend on tile
// layouts (cuda/analysis/TileLayouts.h): the callee and its template
// arguments for a tma_load, tma_store, umma and tmem_copy, and which UMMA
// accumulators start without a value (docs/cuda.md, "Accumulators").
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_EMIT_RUNTIMECALLS_H
#define TILEPIPE_CUDA_EMIT_RUNTIMECALLS_H

#include "cuda/analysis/KernelLayout.h"

#include <optional>
#include <string>
#include <vector>

namespace tilepipe::cuda {

struct RuntimeCall {
  std::string callee;
  std::vector<std::string> templateArgs;
};

/// tp::tma_load<Layout> / tp::tma_store<Layout> for a tileas.tma_load or
/// tma_store; an error at the op when its tile has no layout or a rank the
/// runtime does not take (1 to 3).
mlir::FailureOr<RuntimeCall> tmaCall(mlir::Operation *op,
                                     const KernelLayout &layout);

/// The bytes a slot's TMA loads bring in, the sum of their boxes: what the
/// full barrier's expect-tx must count. `slot` is what the loads write
/// `into`. Zero when no TMA load writes it.
int64_t tmaBytesInto(mlir::Value slot, const KernelLayout &layout);

/// The view an MMA (UMMA or wgmma) reads its SMEM operand `v` through:
/// tp::KMajor<Tile> or tp::MNMajor<Tile>; an internal error at `mma` when
/// the operand has no MMA tile layout.
mlir::FailureOr<std::string> mmaOperandView(mlir::Operation *mma,
                                            mlir::Value v, bool mnMajor,
                                            const KernelLayout &layout);

/// An 8-bit integer operand's view read as u8: the SMEM tile is the same
/// bytes (TMA and the staging copy move int8_t), the MMA's element type
/// uint8_t, which the runtime issues as .u8 / kind::i8 unsigned.
std::string unsignedView(llvm::StringRef view);

/// tp::umma_ss<TC, AView, BView>, tp::umma_ts<TC, TA, M, K, BView> or
/// tp::umma_ss_block_scaled<AView, BView>.
mlir::FailureOr<RuntimeCall> ummaCall(mlir::tileas::UmmaOp op,
                                      const KernelLayout &layout);

/// tp::tmem_copy_scales<A, J> for block-scale factors in their atom form.
mlir::FailureOr<RuntimeCall> tmemCopyCall(mlir::tileas::TmemCopyOp op,
                                          const KernelLayout &layout);

/// The tp::TmemLayout template argument of a tcgen05.ld/st of `tile`
/// (docs/cuda.md, "TMEM layouts"): Acc64 for a 64-row accumulator, Acc for
/// a 16-bit one of 128 rows, and empty for the default, Data (also what a
/// 32-bit accumulator of 128 rows is).
std::string tmemLayoutArg(mlir::Value tile);
/// The layout a tmem_store writes: its destination's when it writes an
/// accumulator in place (O rescaled), else its result's (P for an MMA).
std::string tmemStoreLayoutArg(mlir::Operation *store);

/// A TMEM buffer that UMMA accumulates into without an initial value: the
/// accumulator traces back (through loop-carried values) to an alloc_tmem
/// or to a slot its MMA agent acquires as the producer.
struct UnsetAccumulator {
  int64_t column = 0;   ///< The buffer's first TMEM column.
  int64_t slotCols = 0; ///< Columns per slot (the mask has a bit per slot).
  int64_t m = 0, n = 0; ///< A slot's shape, for the zeroing MMA.
  std::string elem;     ///< The accumulator's element type.
};

/// The buffer of `acc` (a umma's accumulator operand) when it starts
/// without a value; nullopt when the IR gave it one.
std::optional<UnsetAccumulator> unsetAccumulator(mlir::Value acc,
                                                 const KernelLayout &layout);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_EMIT_RUNTIMECALLS_H
