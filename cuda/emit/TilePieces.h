//===- TilePieces.h - one pass over a register tile's column pieces -*- C++ -*-===//
//
// A streamed register tile (TileStreams.h) is never held whole: it is an
// expression over tiles in TMEM or SMEM, per-row vectors and fragments held
// in registers, and each consumer evaluates it W columns at a time. This
// file builds the EmitC of one such pass:
//
//   [#pragma unroll 1]                       (or a full unroll, below)
//   for (int64_t c = 0; c < C; c += W) {
//     Frag<float, W> s = tp::tmem_load_cols<W, float>(S, c, tid);
//     Frag<float, W> p = tp::exp2(tp::sub(s, m));          // m: per row
//     tp::fold_sum<1>(l, p, c);                            // a row sum
//     tp::tmem_store_cols<W, __nv_bfloat16>(P, c, tp::cvt<...>(p), tid);
//   }
//
// Each node is evaluated once per piece, whatever number of sinks read it.
// A pass that reads or writes a fragment held in registers is unrolled
// fully, so that its piece indices are constants (a variable index would put
// the fragment in local memory); any other pass is a loop of C / W trips,
// whose registers are one piece's.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_EMIT_TILEPIECES_H
#define TILEPIPE_CUDA_EMIT_TILEPIECES_H

#include "cuda/analysis/TileHomes.h"

#include "mlir/IR/Builders.h"

#include <string>
#include <vector>

namespace tilepipe::cuda {

/// What columns [c, c + W) of a streamed tile are made from.
struct PieceNode {
  enum class Kind {
    Tmem,  ///< tcgen05.ld of the piece (value: the tile's TMEM address)
    Smem,  ///< ld.shared of the piece (value: the row-major tile's address)
    Whole, ///< a slice of a fragment held whole (value: the fragment)
    Row,   ///< a per-row vector or a scalar, broadcast (value: Frag<T, R>)
    /// ld.shared of the piece of a per-column vector, the same in every
    /// thread (value: the vector's SMEM address; tileas.broadcast
    /// dimensions = [0], Broadcasts.h)
    ColSmem,
    Call, ///< an elementwise tp:: function of other nodes
    /// The piece's column indices (tileas.iota dimension = 1; value unused)
    Iota,
  };
  Kind kind = Kind::Call;
  std::string elem;   ///< The CUDA element type of the node's values.
  int64_t cols = 0;   ///< The row's width (every node but Row).
  mlir::Value value;  ///< EmitC: see Kind.
  mlir::Value tile;   ///< Tmem, Smem, ColSmem: the IR tile read.
  TileHome home;      ///< Tmem, Smem, ColSmem: where it lies (TileHomes.h).
  std::string callee; ///< Call.
  std::vector<std::string> templateArgs;
  /// Call: the pass's piece width comes first in the template arguments
  /// (tp::bcast_rows<W>): a pass may run narrower pieces than the agent's.
  bool widthArg = false;
  std::vector<PieceNode *> operands;
  /// Smem: a padded read (smem_load valid(..) padding = V): the source
  /// tile's columns, its valid extents (EmitC values) and tp::padded's
  /// padding argument; empty padValue: none.
  int64_t padSourceCols = 0;
  mlir::Value padRows, padCols;
  std::string padValue;
  /// Smem: the tile's BlockedTile type when it is wider than a box
  /// (TileLayouts::blockedType); "" when row-major.
  std::string blockedTile;
};

/// tp::padded's padding argument: the value as an f32 by its bits (every
/// padding cuTile names, +-inf, NaN and -0, is one exactly).
std::string paddingLiteral(mlir::FloatAttr value);

/// What a pass does with a node's pieces.
struct PieceSink {
  enum class Kind {
    Max,       ///< per-row maximum into a new Frag<T, rows>
    Sum,       ///< per-row sum into a new Frag<T, rows>
    TmemStore, ///< tcgen05.st of each piece at `dst`
    SmemStore, ///< st.shared of each piece into the tile at `dst`
    Whole,     ///< into a new fragment held whole
  };
  Kind kind;
  PieceNode *node;
  mlir::Value dst{};    ///< TmemStore, SmemStore.
  int64_t rows = 1;     ///< Max, Sum.
  mlir::Value result{}; ///< Max, Sum, Whole: set by emitPass.
  /// TmemStore: its tp::TmemLayout template argument (empty: Data).
  std::string tmemLayout{};
  /// SmemStore into a UMMA operand: the tile's MmaTile type and the row the
  /// thread writes (tp::smem_store_mma_cols); empty: the row-major tile.
  std::string mmaTile{};
  mlir::Value row{};
  /// SmemStore into a tile wider than a box: its BlockedTile type.
  std::string blockedTile{};
};

/// The source leaves (Tmem, Smem, ColSmem) under `node`.
std::vector<PieceNode *> sourcesOf(PieceNode *node);
/// Whether `node` reads a fragment held whole.
bool readsWhole(PieceNode *node);

/// Emits one pass over columns [0, cols) in pieces of `width` at `b`'s
/// insertion point, for every sink (all of the same row width); `tid` is
/// the thread's index in its agent.
/// The most bits per column that a pass over `sinks` holds at once in
/// registers, in the order it computes its pieces: each piece of W columns
/// holds W times as many. Wide expressions (nine MUFU functions of one tile
/// whose results meet at the end) hold many pieces at once.
int64_t liveBitsPerColumn(llvm::ArrayRef<PieceSink> sinks);

void emitPass(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tid,
              int64_t cols, int64_t width,
              llvm::MutableArrayRef<PieceSink> sinks);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_EMIT_TILEPIECES_H
