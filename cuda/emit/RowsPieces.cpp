//===- RowsPieces.cpp - an epilogue on the fragment's rows, in pieces -----===//
//
// In an agent whose tiles lie in the wgmma fragment's rows, the tile an
// epilogue stores is an elementwise function of the accumulator, per-row
// and per-column vectors and constants. Made op by op, each intermediate is
// a whole tile (128 registers a thread at 128 x 256 over two warpgroups)
// held beside the accumulator, and each per-column vector read from SMEM is
// 64 more (a C tile read for the epilogue, 64 in bf16): a quantized layer's
// silu(sa sb acc + bias) spilled 176 B at 240 registers. So the chain of
// ops that only the store reads is evaluated at the store, W column slots
// of every row slot at a time:
//
//   #pragma unroll
//   for (int64_t c = 0; c < C / 4; c += W) {
//     Frag<float, S * W> x = tp::rows_cols<S, W>(acc, c);
//     Frag<float, W> sb = tp::wgmma_cols_load_piece<C, W, float>(vsb, c, tid);
//     ... the chain's calls on pieces ...
//     tp::wgmma_rows_store_cols<At, Bands, C, W>(dst, c, y, tid);
//   }
//
// The accumulator's registers die piece by piece and a per-column vector
// is read where a piece uses it (docs/cuda.md, "The epilogue in pieces").
// The loop is unrolled: a piece's indices into a fragment held whole must
// be constants.
//
//===----------------------------------------------------------------------===//

#include "cuda/analysis/CudaTypes.h"
#include "cuda/analysis/ElementwiseOps.h"
#include "cuda/emit/KernelEmitter.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

namespace {
std::string str(int64_t v) { return std::to_string(v); }

/// Column slots a piece takes: 8 (32 columns, as the Blackwell pieces) or
/// the most of 4 and 2 that divides a row slot's `slots`.
int64_t pieceSlots(int64_t slots) {
  for (int64_t w : {8, 4, 2})
    if (slots % w == 0)
      return w;
  return slots;
}
} // namespace

/// An op the pass can evaluate per piece: elementwise math making a tile of
/// the stored shape, a broadcast of a vector over it, or the SMEM read of a
/// per-column vector or of a tile of that shape (a C tile), read a piece at
/// a time where the pass uses it.
bool KernelEmitter::rowsPieceMember(Operation *op, ArrayRef<int64_t> shape) {
  if (op->getNumResults() != 1)
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type)
    return false;
  if (auto load = dyn_cast<tileas::SmemLoadOp>(op)) {
    if (load.getLanes() || load.getPaddingAttr() || load.getTransposed())
      return false;
    if (type.getRank() == 1)
      return columns.contains(load.getResult()) &&
             type.getShape()[0] == shape[1];
    return type.getShape() == shape; // a C tile TMA brought in
  }
  if (type.getShape() != shape)
    return false;
  if (auto broadcast = dyn_cast<tileas::BroadcastOp>(op))
    return broadcast.isColumnBroadcast() || broadcast.isRowBroadcast();
  // A per-column vector is read through its broadcast only.
  return elementwiseCall(op).has_value() &&
         llvm::none_of(op->getOperands(), [&](Value v) {
           return wgmmaFrags.count(v) || columns.contains(v);
         });
}

/// Finds, for each rank-2 store of the block, the ops only it reads (see
/// the file comment); they are emitted at the store, not where they are.
void KernelEmitter::planRowsPieces(Block &block) {
  for (Operation &op : block) {
    auto store = dyn_cast<tileas::SmemStoreOp>(op);
    if (!store || rowsChains.count(store))
      continue;
    Value stored = store->getOperand(0);
    auto t = dyn_cast<RankedTensorType>(stored.getType());
    if (!t || t.getRank() != 2 || t.getShape()[1] % 8 ||
        wgmmaFrags.count(stored) || mmaTileOf(store->getResult(0)))
      continue;
    int64_t slots = t.getShape()[1] / 4;
    if (pieceSlots(slots) == slots)
      continue;
    llvm::SetVector<Operation *> chain;
    SmallVector<Value> work = {stored};
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (!def || def->getBlock() != &block || rowsDeferred.contains(def) ||
          chain.contains(def) || !rowsPieceMember(def, t.getShape()))
        continue;
      chain.insert(def);
      llvm::append_range(work, def->getOperands());
    }
    // Only what nothing else reads: a value read elsewhere too is made
    // whole where it is, and the chain starts from it.
    auto readElsewhere = [&](Operation *member) {
      return llvm::any_of(member->getUsers(), [&](Operation *user) {
        return user != store.getOperation() && !chain.contains(user);
      });
    };
    // A tile or a per-column vector is read at the store only when nothing
    // between its read and the store may write shared memory, and a tile
    // only when the store cannot write over it: the layout gives each tile
    // staged after the loops bytes of its own (KernelLayout.cpp,
    // overlayAfterLoops), a store into a buffer the IR names may not.
    auto movable = [&](Operation *member) {
      if (!isa<tileas::SmemLoadOp>(member))
        return true;
      if (store->getNumOperands() > 1 &&
          cast<RankedTensorType>(member->getResult(0).getType()).getRank() > 1)
        return false;
      for (Operation *o = member->getNextNode(); o != store.getOperation();
           o = o->getNextNode())
        if (!chain.contains(o) && !isMemoryEffectFree(o) &&
            !isa<tileas::SmemLoadOp>(o))
          return false;
      return true;
    };
    for (bool changed = true; changed;) {
      SmallVector<Operation *> dropped;
      for (Operation *member : chain)
        if (readElsewhere(member) || !movable(member))
          dropped.push_back(member);
      for (Operation *member : dropped)
        chain.remove(member);
      changed = !dropped.empty();
    }
    if (chain.empty())
      continue;
    SmallVector<Operation *> ordered(chain.begin(), chain.end());
    llvm::sort(ordered, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    rowsDeferred.insert(ordered.begin(), ordered.end());
    rowsChains[store] = std::move(ordered);
  }
}

/// The store of a planned chain: one unrolled pass over its column pieces.
LogicalResult KernelEmitter::emitRowsPieces(tileas::SmemStoreOp store) {
  ArrayRef<Operation *> chain = rowsChains.find(store)->second;
  llvm::DenseSet<Operation *> members(chain.begin(), chain.end());
  Location loc = store.getLoc();
  Value stored = store->getOperand(0);
  auto t = cast<RankedTensorType>(stored.getType());
  int64_t cols = t.getShape()[1], slots = cols / 4, w = pieceSlots(slots);
  int64_t s = fragmentRowSlots();
  auto piece = [&](Type elem, int64_t n) {
    return opaque(
        llvm::formatv("tp::Frag<{0}, {1}>", registerElementName(elem), n)
            .str());
  };
  // What the chain reads from outside it is looked up before the pass:
  // made where the IR made it (or, from outside the agents, at its start).
  llvm::DenseMap<Value, Value> leaves;
  llvm::DenseMap<Value, int64_t> leafSize;
  for (Operation *op : chain) {
    if (isa<tileas::SmemLoadOp>(op)) {
      leaves[op->getOperand(0)] = lookup(loc, op->getOperand(0));
      continue;
    }
    for (Value v : op->getOperands()) {
      if (v.getDefiningOp() && members.contains(v.getDefiningOp()))
        continue;
      leaves[v] = lookup(loc, v);
      if (isa<RankedTensorType>(v.getType())) {
        FailureOr<int64_t> n = fragSize(loc, v);
        if (failed(n))
          return failure();
        leafSize[v] = *n;
      }
    }
  }
  Value dst = storeAddress(store);
  if (broken)
    return failure();

  // The comment takes the semicolon the C++ emitter puts after an op in a
  // nested block: a statement between the pragma and its loop would void it.
  b.create<emitc::VerbatimOp>(loc,
                              "#pragma unroll // registers: constant pieces");
  auto loop = b.create<emitc::ForOp>(loc, intLit(0), intLit(slots), intLit(w));
  OpBuilder::InsertionGuard guard(b);
  enter(loop.getRegion());
  Value c = loop.getInductionVar();
  llvm::DenseMap<Value, Value> pieces;
  // A per-column vector's W slots, S times over (bcast_cols); one value
  // (a splat) as many times.
  auto columnPiece = [&](Value vector, Type elem) -> Value {
    Value slice;
    int64_t n = w;
    if (auto load = vector.getDefiningOp<tileas::SmemLoadOp>();
        load && members.contains(load)) {
      slice = call(piece(elem, w), "tp::wgmma_cols_load_piece",
                   {leaves.lookup(load.getSource()), c, tid},
                   {str(cols), str(w), registerElementName(elem)});
    } else if (leafSize.lookup(vector) == 1) {
      slice = leaves.lookup(vector);
      n = 1;
    } else {
      slice = call(piece(elem, w), "tp::cols", {leaves.lookup(vector), c},
                   {str(w)});
    }
    return call(piece(elem, s * w), "tp::bcast_cols", {slice},
                {str(s * w / n)});
  };
  std::function<Value(Value)> pieceOf = [&](Value v) -> Value {
    if (Value p = pieces.lookup(v))
      return p;
    Operation *def = v.getDefiningOp();
    Type elem = getElementTypeOrSelf(v.getType());
    Value p;
    if (auto load = dyn_cast_or_null<tileas::SmemLoadOp>(def);
        load && members.contains(def)) {
      auto tile = cast<RankedTensorType>(v.getType());
      p = call(
          piece(elem, s * w), "tp::wgmma_rows_load_cols",
          {leaves.lookup(load.getSource()), c, tid},
          rowsAccessArgs({rowsOffsets(load.getSource(), tile), str(fragBands),
                          str(cols), str(w), registerElementName(elem)}));
    } else if (!def || !members.contains(def)) {
      // A tile is sliced; a per-row vector (tileas math broadcasts it over
      // the rows) or a scalar goes in as the whole tile's call takes it.
      Value whole = leaves.lookup(v);
      auto tile = dyn_cast<RankedTensorType>(v.getType());
      if (!tile)
        p = scalarOperand(whole);
      else if (tile.getRank() == 2)
        p = call(piece(elem, s * w), "tp::rows_cols", {whole, c},
                 {str(s), str(w)});
      else
        p = whole;
    } else if (auto broadcast = dyn_cast<tileas::BroadcastOp>(def)) {
      Value in = broadcast.getInput();
      if (broadcast.isColumnBroadcast()) {
        p = columnPiece(in, elem);
      } else {
        int64_t n = leafSize.lookup(in);
        p = call(piece(elem, s * w), "tp::bcast_rows", {leaves.lookup(in)},
                 {str(s * w / std::max<int64_t>(n, 1))});
      }
    } else {
      std::optional<ElementwiseCall> callee = elementwiseCall(def);
      SmallVector<Value> operands;
      for (Value operand : def->getOperands())
        operands.push_back(pieceOf(operand));
      p = call(piece(elem, s * w), callee->callee, operands,
               callee->templateArgs(registerElementName(elem)));
    }
    pieces[v] = p;
    return p;
  };
  Value y = pieceOf(stored);
  SmallVector<std::string> args = {rowsOffsets(store->getResult(0), t),
                                   str(fragBands), str(cols), str(w)};
  // A narrow tile's Rows follows the element type and size the runtime
  // otherwise deduces.
  if (fragRows)
    args =
        rowsAccessArgs({args[0], args[1], args[2], args[3],
                        registerElementName(t.getElementType()), str(s * w)});
  callVoid("tp::wgmma_rows_store_cols", {dst, c, y, tid}, args);
  map[store->getResult(0)] = dst;
  return success(!broken);
}
