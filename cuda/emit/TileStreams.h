//===- TileStreams.h - register tiles evaluated in column pieces -*- C++ -*-===//
//
// A thread of a SIMT agent holds one row of a 128-row register tile: 128
// registers for a 128-column f32 tile, more than half of a 512-thread
// kernel's budget. So a tile that is an elementwise function of tiles in
// TMEM or SMEM (and of per-row vectors and fragments held in registers) is
// not made whole where the IR makes it. It is streamed: recorded as an
// expression (TilePieces.h), and each consumer evaluates it W columns at a
// time, reading the memory again (docs/cuda.md, "Register tiles in
// pieces"):
//  - a row reduction waits until its result is read, and then folds the
//    pieces, with every other pending reduction of the same tiles;
//  - a store writes the pieces as they are made, and computes the pending
//    reductions of the same expression in the same pass (FA4's exp2, row
//    sum and P store: one pass, each exp2 once);
//  - any other reader gets the tile made whole.
// A tile is evaluated earlier when the memory it reads may change first
// (TileHomes.h: a release, a commit, a store, an MMA), when a mutex unlock
// ends the critical section that computed it (the schedule put it there),
// or before a region reads it. What must be made whole then is pushed
// forward through its pure readers that can run already (their other
// operands exist), when that holds fewer registers: dequant's
// acc + S * scale becomes the new acc in one pass, S never held.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_EMIT_TILESTREAMS_H
#define TILEPIPE_CUDA_EMIT_TILESTREAMS_H

#include "cuda/analysis/KernelLayout.h"
#include "cuda/emit/TilePieces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <functional>
#include <memory>
#include <optional>

namespace tilepipe::cuda {

/// The piece width for an agent with `regs` registers per thread: 32
/// columns (one tcgen05.ld.32x32b.x32 of f32, the widest), so that a pass
/// holding a few pieces at once fits the smallest SIMT budget (128 in a
/// 512-thread kernel); 16 below that.
int64_t pieceWidth(int regs);

class TileStreams {
public:
  /// What the kernel emitter provides: the C++ value of an IR value that is
  /// not streamed, and a way to give one a C++ value.
  struct Host {
    std::function<mlir::Value(mlir::Location, mlir::Value)> lookup;
    std::function<void(mlir::Value, mlir::Value)> bind;
    /// The address a tmem_store or smem_store writes.
    std::function<mlir::Value(mlir::Operation *)> storeAddress;
    /// A smem_store into a UMMA operand (an MmaTile, TileLayouts.h): the
    /// tile's C++ type and the row the thread writes; nullopt for any other
    /// store.
    std::function<std::optional<std::pair<std::string, mlir::Value>>(
        mlir::Operation *)>
        mmaOperand;
  };

  TileStreams(mlir::OpBuilder &b, const KernelLayout &layout, Host host)
      : b(b), layout(layout), host(std::move(host)) {}

  /// Starts an agent: `scope` is its tileas.agent (or the function), `tid`
  /// its thread index, `threads` its size, `regs` its register budget.
  void beginAgent(mlir::Operation *scope, mlir::Value tid, int threads,
                  int regs);
  /// The function's per-column vectors (Broadcasts.h): streamed from SMEM
  /// or sliced from the whole vector, never read as a value per row.
  void setColumnVectors(const llvm::DenseSet<mlir::Value> *vectors) {
    columns = vectors;
  }
  /// No agent: nothing is streamed.
  void endAgent() { active = false; }
  /// The rest of the agent runs in its first `agentThreads` threads.
  void narrow(int agentThreads) { threads = agentThreads; }
  int64_t width() const { return pieceWidth_; }

  /// Before `op` is emitted: evaluates what `op` would leave unevaluable
  /// (see the file comment).
  void before(mlir::Operation *op);
  /// Emits `op` by streaming when it can: true when it did.
  bool take(mlir::Operation *op);
  /// The C++ value of a streamed tile or a pending reduction, evaluated
  /// now; null for any other value.
  mlir::Value evaluate(mlir::Location loc, mlir::Value v);

  /// After `block` and its terminator were emitted: what it streamed is
  /// out of scope.
  void endBlock(mlir::Block *block);

  /// Ops already emitted, out of order included (pushed forward).
  bool isDone(mlir::Operation *op) const { return done.contains(op); }
  void markDone(mlir::Operation *op) { done.insert(op); }

private:
  struct Pending {
    mlir::Value result;
    PieceNode *node;
    bool max;
    int64_t rows;
  };

  mlir::OpBuilder &b;
  const KernelLayout &layout;
  Host host;
  bool active = false;
  mlir::Operation *scope = nullptr;
  mlir::Value tid;
  int threads = 128;
  int64_t pieceWidth_ = 32;
  int regs_ = 255;
  std::vector<std::unique_ptr<PieceNode>> arena;
  llvm::MapVector<mlir::Value, PieceNode *> streamed;
  std::vector<Pending> pending;
  llvm::DenseSet<mlir::Operation *> done;
  /// Inside a mutex's critical section: the values streamed since the lock.
  bool inSection = false;
  const llvm::DenseSet<mlir::Value> *columns = nullptr;
  llvm::DenseSet<mlir::Value> sectionValues;

  PieceNode *make(PieceNode node);
  mlir::Value rowCall(mlir::Location loc, llvm::StringRef elem,
                      llvm::StringRef callee, mlir::ValueRange args,
                      llvm::ArrayRef<std::string> targs);
  mlir::Value oneValue(mlir::Location loc, llvm::StringRef elem, mlir::Value x);
  bool rowPerThread(int64_t rows) const;
  bool rowsTwice(int64_t rows) const { return rows != threads; }
  bool streamable(mlir::Type type) const;
  PieceNode *operandNode(mlir::Location loc, mlir::Value v, int64_t cols);
  PieceNode *positionNode(mlir::Location loc, mlir::Value v, int64_t cols);
  PieceNode *wholeNode(mlir::Location loc, mlir::Value v, int64_t cols);
  bool isColumn(mlir::Value v) const { return columns && columns->contains(v); }
  bool columnStreamable(mlir::Value v) const;
  static bool isColumnBroadcast(mlir::Value v) {
    auto b = v.getDefiningOp<mlir::tileas::BroadcastOp>();
    return b && b.isColumnBroadcast();
  }
  PieceNode *columnNode(mlir::Location loc, mlir::Value v);
  PieceNode *splatNode(mlir::Location loc, mlir::Value v);
  bool takeColumn(mlir::Operation *op);
  PieceNode *columnMath(mlir::Location loc, mlir::Operation *op);
  bool live(mlir::Value v) const;
  bool endsInSinks(mlir::Value v) const;
  bool changedBy(mlir::Operation *op, PieceNode *node) const;
  std::optional<int64_t> startColumn(mlir::Value tile) const;
  PieceNode *storesInPlace(mlir::Operation *store) const;
  bool inOwnPrologueBuffer(const TileHome &from, mlir::Value dst) const;
  bool canRunNow(mlir::Operation *user, mlir::Operation *at,
                 const llvm::DenseSet<mlir::Value> &coming) const;
  void evaluateNow(mlir::Operation *at, llvm::ArrayRef<mlir::Value> values,
                   llvm::ArrayRef<size_t> reductions,
                   PieceNode *inPlace = nullptr);
  void runPass(mlir::Location loc, llvm::ArrayRef<mlir::Value> whole,
               llvm::ArrayRef<size_t> reductions,
               llvm::ArrayRef<PieceSink> stores);
  int64_t passWidth(int64_t cols, llvm::ArrayRef<PieceSink> sinks) const;
  PieceNode *nodeOf(mlir::Value v) const { return streamed.lookup(v); }
};

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_EMIT_TILESTREAMS_H
