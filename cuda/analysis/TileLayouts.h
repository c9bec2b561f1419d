//===- TileLayouts.h - how each SMEM tile lies in shared memory -*- C++ -*-===//
//
// Every SMEM tile of a kernel gets one layout of the runtime's
// tilepipe/layout/tile.cuh, decided from who touches the buffer it lives in
// (a pipe's slots, an alloc_smem, a prologue load, a staged epilogue tile):
//  - a buffer a UMMA reads as A or B is an MmaTile, swizzled with the widest
//    mode whose span divides a row (128B whenever the contiguous extent is a
//    multiple of 128 bytes, as CUTLASS's SM100 GEMMs do), loaded as one TMA
//    box per column block;
//  - a buffer that only TMA and the wgmma fragment's rows touch (an
//    epilogue's staging tile, a C tile it reads) is swizzled the same way
//    when its rows are whole 128-byte spans: row-major, the rows' stores
//    conflict 8 ways in SMEM's banks;
//  - any other buffer (threads read or write it, it is stored with TMA, or
//    it holds block-scale factor atoms for tcgen05.cp) is a DenseTile: the
//    box stored row-major, one TMA box, no swizzle; one wider than a box
//    (256) in its last dimension a BlockedTile, one box per column block.
// The translator emits the layout's C++ type in the kernel's TMA and UMMA
// calls and in the launcher's tensor-map encoding, so the three agree by
// construction. docs/cuda.md, "Operand layouts", gives the reasons.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_ANALYSIS_TILELAYOUTS_H
#define TILEPIPE_CUDA_ANALYSIS_TILELAYOUTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace tilepipe::cuda {

struct TileLayout {
  enum class Kind { Dense, Mma };
  Kind kind = Kind::Dense;
  mlir::ShapedType type;
  /// Mma: the swizzle span in bytes (16: none, core-matrix columns).
  int span = 16;
  /// An MMA reads it (else an Mma layout is a tile only the fragment's rows
  /// and TMA touch, swizzled for SMEM's banks).
  bool mmaOperand = false;
  /// The C++ type, e.g. tp::MmaTile<__nv_bfloat16, 128, 64,
  /// tp::Swizzle::B128> or tp::DenseTile<uint8_t, 1, 32, 16>.
  std::string cppType;
  int64_t bytes = 0; ///< What the boxes move in all (the expect-tx count).
  int64_t boxes = 1;
  /// Dense tiles wider than a TMA box (BlockedTile): the block width; 0
  /// for a tile stored row-major.
  int64_t blockCols = 0;
  int64_t align = 16; ///< Where the buffer (and each slot) must start.
  /// The CUtensorMapSwizzle enumerator the tensor map needs.
  std::string tmaSwizzle() const;
};

class TileLayouts {
public:
  /// Decides every SMEM tile's layout, or emits an error at an op that
  /// needs two layouts at once (e.g. a tile both UMMA and threads read).
  static mlir::FailureOr<TileLayouts> analyze(mlir::func::FuncOp func);

  /// The layout of an SMEM tile value or of a pipe's SMEM slots; null when
  /// `v` is neither (or nothing ever touches the buffer).
  const TileLayout *of(mlir::Value v) const;
  /// The layout of the tiles a tensor-map argument moves; null when no TMA
  /// uses it.
  const TileLayout *ofDesc(mlir::Value desc) const;
  /// The BlockedTile type of a tile of rank 2 or more wider than a TMA box,
  /// which threads address block by block (tp::smem_load_tile); "" for any
  /// other (a row-major tile, or a vector, whose blocks lie in order).
  std::string blockedType(mlir::Value v) const;

  /// The layout an MMA reads a `type` tile in (tp::MmaTile, the widest
  /// swizzle that divides a row), or an error at `at`: for a tile the
  /// translation makes itself (a transposed tf32 B's staging).
  static mlir::FailureOr<TileLayout> mmaTile(mlir::Operation *at,
                                             mlir::ShapedType type);

private:
  llvm::DenseMap<mlir::Value, unsigned> byValue, byDesc;
  std::vector<TileLayout> layouts;
};

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_ANALYSIS_TILELAYOUTS_H
