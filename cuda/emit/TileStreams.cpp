//===- TileStreams.cpp - register tiles evaluated in column pieces --------===//

#include "cuda/emit/TileStreams.h"
#include "cuda/analysis/CudaTypes.h"
#include "cuda/analysis/ElementwiseOps.h"
#include "cuda/emit/RuntimeCalls.h"
#include "ir/Positions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

int64_t cuda::pieceWidth(int regs) { return regs >= 128 ? 32 : 16; }

namespace {

/// The runtime's elementwise function for `op` (ElementwiseOps.h), or ""
/// when `op` is not one.
std::string elementwiseCallee(Operation *op) {
  std::optional<ElementwiseCall> call = elementwiseCall(op);
  return call ? call->callee.str() : std::string();
}

bool isReduction(Operation *op) {
  return isa<tileas::ReduceMaxOp, tileas::ReduceSumOp>(op);
}

/// Whether the producer of `pipe` fills its slots more than once: an
/// acquire in a loop, or several.
bool refilled(Value pipe) {
  unsigned acquires = 0;
  for (Operation *user : pipe.getUsers())
    if (isa<tileas::PipeProducerAcquireOp>(user) &&
        (++acquires > 1 || user->getParentOfType<scf::ForOp>()))
      return true;
  return false;
}

/// Whether the vector `load` reads from a pipe slot its producer refills is
/// used (itself or through math on it) at or after the slot's release in
/// stage code: a key mask read in one stage, applied to the scores a stage
/// later. Re-read there piece by piece, the slot could already hold a later
/// iteration's. (A slot filled once keeps its bytes: peeled code re-reads a
/// norm's weights after their release.)
bool readAfterRelease(tileas::SmemLoadOp load) {
  auto wait = load.getSource().getDefiningOp<tileas::PipeConsumerWaitOp>();
  if (!wait || !refilled(wait.getPipe()))
    return false;
  Operation *release = nullptr;
  for (Operation *op = wait->getNextNode(); op && !release;
       op = op->getNextNode())
    if (auto r = dyn_cast<tileas::PipeConsumerReleaseOp>(op);
        r && r->getOperand(0) == wait.getPipe() &&
        r->getOperand(1) == wait.getIter())
      release = r;
  if (!release)
    return false;
  SmallVector<Value> work = {load.getResult()};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      Operation *at = release->getBlock()->findAncestorOpInBlock(*user);
      if (!at || !at->isBeforeInBlock(release))
        return true;
      if (user->getNumResults() == 1 && elementwiseCall(user))
        work.push_back(user->getResult(0));
    }
  }
  return false;
}

/// Whether the per-column vector `load` makes is read whole where it is
/// loaded rather than a piece at a time where it is used: a vector the
/// agent's threads just wrote (after a barrier: TileOps.cpp, emitTileLoad),
/// or one used after its slot's release.
bool readWhole(tileas::SmemLoadOp load) {
  return load.getSource().getDefiningOp<tileas::SmemStoreOp>() ||
         readAfterRelease(load);
}

/// Nodes that evaluate something per piece (not a broadcast or a slice).
llvm::SmallPtrSet<PieceNode *, 16> computedNodes(PieceNode *node) {
  llvm::SmallPtrSet<PieceNode *, 16> out;
  SmallVector<PieceNode *> work = {node};
  while (!work.empty()) {
    PieceNode *n = work.pop_back_val();
    if (n->kind == PieceNode::Kind::Row || n->kind == PieceNode::Kind::Whole ||
        n->kind == PieceNode::Kind::ColSmem || !out.insert(n).second)
      continue;
    llvm::append_range(work, n->operands);
  }
  return out;
}

bool share(PieceNode *a, PieceNode *b) {
  auto in = computedNodes(a);
  return llvm::any_of(computedNodes(b),
                      [&](PieceNode *n) { return in.contains(n); });
}

} // namespace

void TileStreams::beginAgent(Operation *agentScope, Value agentTid,
                             int agentThreads, int regs) {
  active = true;
  scope = agentScope;
  tid = agentTid;
  threads = agentThreads;
  pieceWidth_ = pieceWidth(regs);
  regs_ = regs;
  streamed.clear();
  pending.clear();
  inSection = false;
  sectionValues.clear();
}

PieceNode *TileStreams::make(PieceNode node) {
  arena.push_back(std::make_unique<PieceNode>(std::move(node)));
  return arena.back().get();
}

/// Each thread holds one row: a tile of the agent's rows, or a 64-row tile
/// in a 128-thread agent, whose row 16 w + t % 16 threads t and t + 16 of
/// warp w both hold (tp::row64; docs/cuda.md, "64-row tiles in pieces").
bool TileStreams::rowPerThread(int64_t rows) const {
  return rows == threads || (threads == 128 && rows == 64);
}

/// A tile streams when each thread holds one row (tcgen05.ld lanes are
/// rows), wider than one piece and made of whole pieces.
bool TileStreams::streamable(Type type) const {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() != 2 || !rowPerThread(tensor.getShape()[0]))
    return false;
  int64_t cols = tensor.getShape()[1];
  Type elem = tensor.getElementType();
  std::string name = cudaElementName(elem);
  return cols > pieceWidth_ && cols % pieceWidth_ == 0 && !name.empty() &&
         !elem.isUnsignedInteger(8) && elem.getIntOrFloatBitWidth() <= 32 &&
         (pieceWidth_ * elem.getIntOrFloatBitWidth()) % 32 == 0;
}

/// One value for every element of a piece: `callee`<targs>(args), a
/// tp::Frag<elem, 1>.
Value TileStreams::rowCall(Location loc, StringRef elem, StringRef callee,
                           ValueRange args, ArrayRef<std::string> targs) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Attribute> attrs;
  for (const std::string &t : targs)
    attrs.push_back(emitc::OpaqueAttr::get(ctx, t));
  return b
      .create<emitc::CallOpaqueOp>(
          loc,
          emitc::OpaqueType::get(ctx,
                                 llvm::formatv("tp::Frag<{0}, 1>", elem).str()),
          callee, args, ArrayAttr(),
          attrs.empty() ? ArrayAttr() : b.getArrayAttr(attrs))
      .getResult(0);
}

/// `x` as one value for every element of a piece: tp::splat<T, 1>(x).
Value TileStreams::oneValue(Location loc, StringRef elem, Value x) {
  return rowCall(loc, elem, "tp::splat", x, {elem.str(), "1"});
}

/// A scalar broadcast (tensor.splat) or a splat constant of f32, i32 or i1:
/// one value for every row and column, tp::splat<T, 1>(x). Null for
/// anything else.
PieceNode *TileStreams::splatNode(Location loc, Value v) {
  auto tensor = cast<RankedTensorType>(v.getType());
  PieceNode node;
  node.elem = cudaElementName(tensor.getElementType());
  node.kind = PieceNode::Kind::Row;
  MLIRContext *ctx = b.getContext();
  auto splat = [&](Value x) { return oneValue(loc, node.elem, x); };
  if (auto broadcast = v.getDefiningOp<tensor::SplatOp>()) {
    node.value = splat(host.lookup(loc, broadcast.getInput()));
    return make(std::move(node));
  }
  DenseElementsAttr dense;
  if (auto cst = v.getDefiningOp<arith::ConstantOp>())
    dense = dyn_cast<DenseElementsAttr>(cst.getValue());
  if (!dense || !dense.isSplat())
    return nullptr;
  Type elem = tensor.getElementType();
  std::string text;
  if (elem.isF32()) {
    APInt bits = dense.getSplatValue<APFloat>().bitcastToAPInt();
    text = llvm::formatv("tp::bits_f32(0x{0:x-}u)", bits.getZExtValue()).str();
  } else if (elem.isInteger(1)) {
    text = dense.getSplatValue<APInt>().isZero() ? "false" : "true";
  } else if (elem.isSignlessInteger(32)) {
    text = std::to_string(dense.getSplatValue<APInt>().getSExtValue());
  } else {
    return nullptr;
  }
  node.value = splat(b.create<emitc::LiteralOp>(
      loc, emitc::OpaqueType::get(ctx, node.elem), text));
  return make(std::move(node));
}

/// `v`'s positions or mask (isPositionOp) in each piece, made from the ops
/// that compute it every time a pass reads it: a piece of column indices
/// is c .. c + W - 1 (tp::iota_cols), a row index the thread's row. What
/// only reads scalars (a splat, math on splats) is one value for the row.
PieceNode *TileStreams::positionNode(Location loc, Value v, int64_t cols) {
  Operation *def = v.getDefiningOp();
  auto tensor = cast<RankedTensorType>(v.getType());
  PieceNode node;
  node.elem = cudaElementName(tensor.getElementType());
  node.cols = cols;
  auto rowValue = [&](Value x) {
    PieceNode row;
    row.kind = PieceNode::Kind::Row;
    row.elem = node.elem;
    row.value = x;
    return make(std::move(row));
  };
  if (auto iota = dyn_cast<tileas::IotaOp>(def)) {
    // A vector's positions are column indices when it is a per-column
    // vector (columnNode), as a rank-2 tile's along dimension 1 are.
    if (iota.getDimension() == 1 || tensor.getRank() == 1) {
      node.kind = PieceNode::Kind::Iota;
      return make(std::move(node));
    }
    // The row index: the thread's row, W times in each piece.
    Value row = tid;
    if (rowsTwice(tensor.getShape()[0]))
      row = b.create<emitc::CallOpaqueOp>(loc, b.getI32Type(), "tp::row64",
                                          ValueRange{tid})
                .getResult(0);
    node.kind = PieceNode::Kind::Call;
    node.callee = "tp::bcast_rows";
    node.widthArg = true;
    node.operands = {rowValue(oneValue(loc, node.elem, row))};
    return make(std::move(node));
  }
  if (isSplatTile(def)) {
    if (PieceNode *splat = splatNode(loc, v))
      return splat;
    return wholeNode(loc, v, cols);
  }
  std::optional<ElementwiseCall> call = elementwiseCall(def);
  if (!call) // Made whole (and refused there, with the op's name).
    return wholeNode(loc, v, cols);
  node.kind = PieceNode::Kind::Call;
  node.callee = call->callee.str();
  node.templateArgs = call->templateArgs(node.elem);
  for (Value operand : def->getOperands())
    node.operands.push_back(positionNode(loc, operand, cols));
  // Math on values of the row alone is one value for the row, made now.
  if (llvm::all_of(node.operands, [](PieceNode *o) {
        return o->kind == PieceNode::Kind::Row;
      })) {
    SmallVector<Value> values;
    for (PieceNode *o : node.operands)
      values.push_back(o->value);
    return rowValue(
        rowCall(loc, node.elem, node.callee, values, node.templateArgs));
  }
  return make(std::move(node));
}

/// A tile held whole, each piece a slice of it.
PieceNode *TileStreams::wholeNode(Location loc, Value v, int64_t cols) {
  PieceNode node;
  node.kind = PieceNode::Kind::Whole;
  node.elem =
      cudaElementName(cast<RankedTensorType>(v.getType()).getElementType());
  node.cols = cols;
  node.value = host.lookup(loc, v);
  return make(std::move(node));
}

/// What an operand of a streamed op contributes to each piece.
PieceNode *TileStreams::operandNode(Location loc, Value v, int64_t cols) {
  if (PieceNode *node = nodeOf(v))
    return node;
  if (isPositionOp(v.getDefiningOp()) &&
      cast<RankedTensorType>(v.getType()).getRank() == 2)
    return positionNode(loc, v, cols);
  if (isColumn(v))
    return columnNode(loc, v);
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  Type elemType = tensor ? tensor.getElementType() : v.getType();
  PieceNode node;
  node.elem = cudaElementName(elemType);
  node.kind = PieceNode::Kind::Row;
  if (!tensor) { // A scalar (fma's b): one value for every row.
    node.value = oneValue(loc, node.elem, host.lookup(loc, v));
    return make(std::move(node));
  }
  if (tensor.getRank() == 2 && tensor.getShape()[1] == cols) {
    // A scalar broadcast or a splat constant is one value per row (the
    // scalar itself); any other tile of the same shape is held whole (a
    // loop-carried accumulator).
    if (PieceNode *splat = splatNode(loc, v))
      return splat;
    // A per-row vector spread along the rows before the loop (ALiBi's
    // per-head slopes): the vector, as a per-row operand is, not the tile.
    if (auto spread = v.getDefiningOp<tileas::BroadcastOp>();
        spread && spread.isRowBroadcast() && !isColumn(spread.getInput())) {
      node.value = host.lookup(loc, spread.getInput());
      return make(std::move(node));
    }
    node.kind = PieceNode::Kind::Whole;
    node.cols = cols;
  }
  // A per-row vector (rank 1) broadcasts as it is.
  node.value = host.lookup(loc, v);
  return make(std::move(node));
}

/// A per-column vector streams like a row of a tile: wider than one piece
/// and made of whole pieces.
bool TileStreams::columnStreamable(Value v) const {
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!isColumn(v) || !tensor || tensor.getRank() != 1)
    return false;
  int64_t cols = tensor.getShape()[0];
  Type elem = tensor.getElementType();
  return cols > pieceWidth_ && cols % pieceWidth_ == 0 &&
         !cudaElementName(elem).empty() && !elem.isUnsignedInteger(8) &&
         elem.getIntOrFloatBitWidth() <= 32 &&
         (pieceWidth_ * elem.getIntOrFloatBitWidth()) % 32 == 0;
}

/// The pieces of the per-column vector `v`: its own expression when it was
/// streamed, a read of shared memory when an smem_load makes it (also one
/// before the agents, of a tile the prologue loaded; not of a vector the
/// threads wrote), a splat, else slices of the vector every thread holds
/// whole.
PieceNode *TileStreams::columnNode(Location loc, Value v) {
  if (PieceNode *node = nodeOf(v))
    return node;
  if (PieceNode *splat = splatNode(loc, v))
    return splat;
  auto tensor = cast<RankedTensorType>(v.getType());
  PieceNode node;
  node.elem = cudaElementName(tensor.getElementType());
  node.cols = tensor.getShape()[0];
  // Positions (ALiBi's key distances): made in each piece, c .. c + W - 1
  // and math on them, never held whole.
  if (isPositionOp(v.getDefiningOp()) && columnStreamable(v))
    return positionNode(loc, v, node.cols);
  if (auto load = v.getDefiningOp<tileas::SmemLoadOp>();
      load && !load.getPaddingAttr() && columnStreamable(v) &&
      !readWhole(load)) {
    node.kind = PieceNode::Kind::ColSmem;
    node.tile = load.getSource();
    node.home = homeOf(node.tile);
    node.value = host.lookup(loc, node.tile);
    return make(std::move(node));
  }
  // Math on such vectors before the agents (gamma converted once, before
  // the loop): the agent computes it per piece.
  if (Operation *def = v.getDefiningOp();
      def && !scope->isAncestor(def) && columnStreamable(v))
    if (PieceNode *made = columnMath(loc, def))
      return made;
  node.kind = PieceNode::Kind::Whole;
  node.value = host.lookup(loc, v);
  return make(std::move(node));
}

/// Elementwise math `op` that makes a per-column vector, as a node over its
/// operands' pieces; null when `op` is not elementwise math.
PieceNode *TileStreams::columnMath(Location loc, Operation *op) {
  std::optional<ElementwiseCall> call = elementwiseCall(op);
  if (!call)
    return nullptr;
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  PieceNode made;
  made.kind = PieceNode::Kind::Call;
  made.elem = cudaElementName(type.getElementType());
  made.cols = type.getShape()[0];
  made.callee = call->callee.str();
  made.templateArgs = call->templateArgs(made.elem);
  for (Value v : op->getOperands())
    made.operands.push_back(operandNode(loc, v, made.cols));
  return make(std::move(made));
}

/// Records an op that makes a per-column vector as an expression of pieces
/// (an smem_load, elementwise math on such vectors and scalars): nothing is
/// emitted until a broadcast of it is.
bool TileStreams::takeColumn(Operation *op) {
  Value result = op->getResult(0);
  if (!columnStreamable(result))
    return false;
  Location loc = op->getLoc();
  PieceNode *node = nullptr;
  if (isa<tileas::SmemLoadOp>(op)) {
    if (readWhole(cast<tileas::SmemLoadOp>(op)))
      return false;
    node = columnNode(loc, result);
  } else {
    node = columnMath(loc, op);
  }
  if (!node)
    return false;
  streamed[result] = node;
  if (inSection)
    sectionValues.insert(result);
  return true;
}

bool TileStreams::live(Value v) const {
  return llvm::any_of(v.getUsers(),
                      [&](Operation *user) { return !done.contains(user); });
}

/// The TMEM column a tile starts at, when the layout fixes it: a slot of a
/// single-slot pipe, a buffer of its own, a slot carried by a loop.
std::optional<int64_t> TileStreams::startColumn(Value tile) const {
  if (auto ends = carriedEnds(tile)) {
    std::optional<int64_t> a = startColumn(ends->first);
    return a == startColumn(ends->second) ? a : std::nullopt;
  }
  Operation *def = tile.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (isa<tileas::PipeConsumerWaitOp, tileas::PipeProducerAcquireOp>(def)) {
    auto it = layout.pipeIds.find(def->getOperand(0).getDefiningOp());
    if (it == layout.pipeIds.end())
      return std::nullopt;
    const PipeLayout &p = layout.pipes[it->second];
    if (p.depth == 1)
      return p.tmemColumn;
    return std::nullopt;
  }
  if (auto it = layout.tmemBuffers.find(tile); it != layout.tmemBuffers.end())
    return it->second;
  return std::nullopt;
}

/// Whether `from` is a tile the prologue loaded (a per-column scale or bias
/// read before the K loop) into SMEM of its own that `dst` does not share:
/// a staged tile after the loops overlays drained pipe slots or the tile it
/// is made from in place (KernelLayout.cpp, overlayAfterLoops), never
/// another prologue tile, so no write to `dst` reaches it. Without this, an
/// epilogue reading such a vector was written whole: a 128 x 256 fp8 GEMM's
/// bf16 output held in 128 registers a thread on sm_100a (48 B spilled).
bool TileStreams::inOwnPrologueBuffer(const TileHome &from, Value dst) const {
  auto load = dyn_cast_or_null<tileas::TmaLoadOp>(from.root);
  if (!load || from.tmem || !layout.prologue.ops.contains(load))
    return false;
  auto own = layout.smemBuffers.find(load.getResult());
  auto staged = layout.smemBuffers.find(dst);
  return own != layout.smemBuffers.end() &&
         (staged == layout.smemBuffers.end() || staged->second != own->second);
}

/// The streamed tile `store` writes, when it may be written over what it
/// reads, in one pass: each piece is written no further than the columns
/// read so far (the same first column, elements no wider than those read),
/// and nothing else reads the tile afterwards. Null otherwise.
PieceNode *TileStreams::storesInPlace(Operation *store) const {
  if (!isa<tileas::TmemStoreOp, tileas::SmemStoreOp>(store))
    return nullptr;
  // An MMA operand whose rows are split over lanes (each thread writes its
  // part of a row: tp::smem_store_mma_lanes), or that a wgmma of the agent
  // reads (its wait before and proxy fence after), is written whole
  // (TileOps.cpp).
  if (auto smem = dyn_cast<tileas::SmemStoreOp>(store)) {
    std::optional<uint64_t> lanes = smem.getLanes();
    if (lanes && *lanes > 1 && host.mmaOperand(store))
      return nullptr;
    if (readByWgmma(store->getResult(0)))
      return nullptr;
  }
  Value stored = store->getOperand(0);
  PieceNode *node = nodeOf(stored);
  if (!node || llvm::any_of(stored.getUsers(), [&](Operation *user) {
        return user != store && !done.contains(user);
      }))
    return nullptr;
  Value dst = store->getResult(0);
  TileHome to = homeOf(dst);
  // A 64-row tile is written only where its rows have a place per thread:
  // an M = 64 accumulator in TMEM, a UMMA operand in SMEM (tp::row64).
  int64_t rows = cast<ShapedType>(stored.getType()).getShape()[0];
  if (rowsTwice(rows) &&
      (isa<tileas::TmemStoreOp>(store)
           ? tmemStoreLayoutArg(store) != "tp::TmemLayout::Acc64"
           : !host.mmaOperand(store)))
    return nullptr;
  auto elemBits = [](Value v) {
    return cast<ShapedType>(v.getType()).getElementTypeBitWidth();
  };
  for (PieceNode *src : sourcesOf(node)) {
    if (src->home.tmem != to.tmem)
      continue;
    if (src->home.root && to.root && src->home.root != to.root)
      continue;
    if (inOwnPrologueBuffer(src->home, dst))
      continue;
    if (src->home.afterLoops && to.afterLoops &&
        src->home.afterLoops != to.afterLoops)
      continue;
    if (!to.tmem)
      return nullptr;
    Value written = store->getNumOperands() > 1 ? store->getOperand(1) : dst;
    std::optional<int64_t> a = startColumn(src->tile), b = startColumn(written);
    if (!a || a != b || elemBits(stored) > elemBits(src->tile))
      return nullptr;
  }
  return node;
}

bool TileStreams::changedBy(Operation *op, PieceNode *node) const {
  return llvm::any_of(sourcesOf(node), [&](PieceNode *src) {
    return mayChange(op, src->home, scope);
  });
}

void TileStreams::before(Operation *op) {
  if (!active)
    return;
  SmallVector<Value> values;
  SmallVector<size_t> reductions;
  if (isa<tileas::MutexLockOp>(op)) {
    inSection = true;
    sectionValues.clear();
    return;
  }
  if (isa<tileas::MutexUnlockOp>(op)) {
    // The schedule put these inside the critical section: evaluate them
    // there.
    for (auto [v, node] : streamed)
      if (sectionValues.contains(v) && live(v))
        values.push_back(v);
    for (auto [i, p] : llvm::enumerate(pending))
      if (sectionValues.contains(p.result) && live(p.result))
        reductions.push_back(i);
    inSection = false;
    sectionValues.clear();
    evaluateNow(op, values, reductions);
    return;
  }
  // A region reads what was streamed outside it: evaluate it here, not in
  // the region (which may run it many times, or not at all).
  auto readInside = [&](Value v) {
    return op->getNumRegions() &&
           llvm::any_of(v.getUsers(), [&](Operation *user) {
             return op->isProperAncestor(user);
           });
  };
  // A store of a streamed tile over the memory it reads (FA4's O rescaled
  // in place) runs as the tile's pass: what shares its pieces is not
  // evaluated before it, but pushed into it where it can be.
  PieceNode *inPlace = storesInPlace(op);
  // What `op` changes and nothing reads later is forgotten; what is read
  // later is evaluated now.
  SmallVector<Value> stale, intoStore;
  for (auto [v, node] : streamed) {
    bool changed = changedBy(op, node);
    // A per-column vector (and its broadcast, which the stage code may
    // leave before the loop) is read again inside the region, a piece at a
    // time, unless the region may change where it lies (`changed` counts
    // the ops nested in `op`): held whole across a loop it would cost N
    // registers for the loop's whole length.
    bool read = readInside(v) && !isColumn(v) && !isColumnBroadcast(v);
    if (inPlace && v == op->getOperand(0))
      continue;
    if ((changed || read) && live(v))
      (inPlace && !read && share(node, inPlace) ? intoStore : values)
          .push_back(v);
    else if (changed)
      stale.push_back(v);
  }
  for (Value v : stale)
    streamed.erase(v);
  llvm::erase_if(pending, [&](Pending &p) {
    return !live(p.result) && changedBy(op, p.node);
  });
  for (auto [i, p] : llvm::enumerate(pending))
    if (readInside(p.result) ||
        (changedBy(op, p.node) &&
         !(inPlace && share(p.node, inPlace))))
      reductions.push_back(i);
  llvm::append_range(values, intoStore);
  evaluateNow(op, values, reductions, inPlace);
}

bool TileStreams::take(Operation *op) {
  if (!active || op->getNumResults() != 1)
    return false;
  Location loc = op->getLoc();
  Value result = op->getResult(0);
  auto record = [&](PieceNode *node) {
    streamed[result] = node;
    if (inSection)
      sectionValues.insert(result);
    return true;
  };
  // Positions are made where a piece reads them (positionNode).
  if (isPositionOp(op))
    return false;
  if (isColumn(result))
    return takeColumn(op);
  if (auto broadcast = dyn_cast<tileas::BroadcastOp>(op)) {
    if (!streamable(result.getType()) ||
        !(broadcast.isColumnBroadcast() || broadcast.isRowBroadcast()))
      return false;
    int64_t cols = broadcast.getResult().getType().getShape()[1];
    Value input = broadcast.getInput();
    PieceNode *node = broadcast.isColumnBroadcast()
                          ? columnNode(loc, input)
                          : operandNode(loc, input, cols);
    if (node->kind != PieceNode::Kind::Row)
      return record(node);
    // One value per row: each piece is it, W times (bcast_rows<W>), so the
    // broadcast is a node of the row's width like any other.
    PieceNode spread;
    spread.kind = PieceNode::Kind::Call;
    spread.elem = node->elem;
    spread.cols = cols;
    spread.callee = "tp::bcast_rows";
    spread.widthArg = true;
    spread.operands = {node};
    return record(make(std::move(spread)));
  }
  if (isa<tileas::TmemLoadOp, tileas::SmemLoadOp>(op)) {
    if (!streamable(result.getType()))
      return false;
    // A vector read for rows split over lanes: each thread reads its own
    // piece, whole (tp::lane_in_row).
    if (auto load = dyn_cast<tileas::SmemLoadOp>(op);
        load && load.getLanes() && load.getSource().getType().getRank() == 1)
      return false;
    // A transposed read is made whole (tp::smem_load_transposed): its
    // pieces would be columns of the source.
    if (auto load = dyn_cast<tileas::SmemLoadOp>(op);
        load && load.getTransposed())
      return false;
    auto tensor = cast<RankedTensorType>(result.getType());
    // 64 rows are read in pieces only from an M = 64 accumulator
    // (.16x32bx2); a row-major SMEM tile is read whole (tp::row64 rows).
    if (rowsTwice(tensor.getShape()[0]) &&
        (isa<tileas::SmemLoadOp>(op) ||
         tmemLayoutArg(op->getOperand(0)) != "tp::TmemLayout::Acc64"))
      return false;
    PieceNode node;
    node.kind = isa<tileas::TmemLoadOp>(op) ? PieceNode::Kind::Tmem
                                            : PieceNode::Kind::Smem;
    node.elem = cudaElementName(tensor.getElementType());
    node.cols = tensor.getShape()[1];
    node.tile = op->getOperand(0);
    node.home = homeOf(node.tile);
    node.value = host.lookup(loc, node.tile);
    node.blockedTile = layout.tiles.blockedType(node.tile);
    if (auto load = dyn_cast<tileas::SmemLoadOp>(op); load && load.getPaddingAttr()) {
      auto source = cast<ShapedType>(load.getSource().getType());
      node.padSourceCols = source.getShape().back();
      node.padRows = source.getRank() == 2
                         ? host.lookup(loc, load.getValid().front())
                         : b.create<emitc::LiteralOp>(loc, b.getI64Type(), "1")
                               .getResult();
      node.padCols = host.lookup(loc, load.getValid().back());
      node.padValue = paddingLiteral(load.getPaddingAttr());
    }
    return record(make(std::move(node)));
  }
  if (isReduction(op)) {
    PieceNode *node = nodeOf(op->getOperand(0));
    if (!node)
      return false;
    auto r = cast<RankedTensorType>(result.getType());
    int64_t rows = r.getRank() ? r.getShape()[0] / threads : 1;
    pending.push_back(
        {result, node, isa<tileas::ReduceMaxOp>(op), std::max<int64_t>(1, rows)});
    if (inSection)
      sectionValues.insert(result);
    return true;
  }
  if (isa<tileas::TmemStoreOp, tileas::SmemStoreOp>(op)) {
    PieceNode *node = storesInPlace(op);
    if (!node)
      return false;
    // The pending reductions of the same expression come along: each piece
    // is computed once for all of them.
    SmallVector<size_t> along;
    for (auto [i, p] : llvm::enumerate(pending))
      if (share(p.node, node) && p.node->cols == node->cols)
        along.push_back(i);
    PieceSink store{isa<tileas::TmemStoreOp>(op) ? PieceSink::Kind::TmemStore
                                                 : PieceSink::Kind::SmemStore,
                    node};
    store.dst = host.storeAddress(op);
    if (isa<tileas::TmemStoreOp>(op))
      store.tmemLayout = tmemStoreLayoutArg(op);
    else if (auto mma = host.mmaOperand(op))
      std::tie(store.mmaTile, store.row) = *mma;
    else
      store.blockedTile = layout.tiles.blockedType(op->getResult(0));
    runPass(loc, {}, along, {store});
    host.bind(result, store.dst);
    // What it wrote over is gone; everything live was evaluated before.
    SmallVector<Value> stale;
    for (auto [v, n] : streamed)
      if (changedBy(op, n))
        stale.push_back(v);
    for (Value v : stale)
      streamed.erase(v);
    llvm::erase_if(pending,
                   [&](Pending &p) { return changedBy(op, p.node); });
    return true;
  }
  std::string callee = elementwiseCallee(op);
  if (callee.empty() || !streamable(result.getType()))
    return false;
  // Math on tiles held in registers streams only when nothing needs its
  // result whole: it goes on to stores and reductions (the tile is written
  // out piece by piece as it is made, FA4's and attention's last P). Made
  // whole where the IR says otherwise: deferring it would keep its
  // operands live across what comes between (attention's next S).
  if (llvm::none_of(op->getOperands(), [&](Value v) { return nodeOf(v); }) &&
      !(llvm::any_of(op->getOperands(),
                     [&](Value v) { return streamable(v.getType()); }) &&
        endsInSinks(result)))
    return false;
  auto tensor = cast<RankedTensorType>(result.getType());
  PieceNode node;
  node.kind = PieceNode::Kind::Call;
  node.elem = cudaElementName(tensor.getElementType());
  node.cols = tensor.getShape()[1];
  node.callee = callee;
  node.templateArgs = elementwiseCall(op)->templateArgs(node.elem);
  for (Value v : op->getOperands())
    node.operands.push_back(operandNode(loc, v, node.cols));
  return record(make(std::move(node)));
}

/// Every reader of `v`, transitively through elementwise ops, is a store of
/// it or a row reduction in `v`'s block.
bool TileStreams::endsInSinks(Value v) const {
  Block *block = v.getDefiningOp()->getBlock();
  return !v.use_empty() && llvm::all_of(v.getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (user->getBlock() != block || done.contains(user))
      return false;
    if (isa<tileas::TmemStoreOp, tileas::SmemStoreOp>(user))
      return use.getOperandNumber() == 0;
    if (isReduction(user))
      return true;
    return !elementwiseCallee(user).empty() && user->getNumResults() == 1 &&
           streamable(user->getResult(0).getType()) &&
           endsInSinks(user->getResult(0));
  });
}

Value TileStreams::evaluate(Location loc, Value v) {
  if (!active)
    return {};
  if (PieceNode *node = nodeOf(v)) {
    SmallVector<size_t> along;
    for (auto [i, p] : llvm::enumerate(pending))
      if (share(p.node, node) && p.node->cols == node->cols)
        along.push_back(i);
    Value keep = v;
    runPass(loc, {keep}, along, {});
    return host.lookup(loc, v);
  }
  for (auto [i, p] : llvm::enumerate(pending))
    if (p.result == v) {
      SmallVector<size_t> along = {i};
      for (auto [j, q] : llvm::enumerate(pending))
        if (j != i && share(q.node, p.node) && q.node->cols == p.node->cols)
          along.push_back(j);
      runPass(loc, {}, along, {});
      return host.lookup(loc, v);
    }
  return {};
}

/// Whether `user`, an op of `at`'s block after `at`, can be emitted at
/// `at` instead: a pure op on tiles whose operands all exist at `at`, with
/// no mutex op in between (the schedule's critical sections stay).
bool TileStreams::canRunNow(Operation *user, Operation *at,
                            const llvm::DenseSet<Value> &coming) const {
  if (done.contains(user) || user->getBlock() != at->getBlock() ||
      !at->isBeforeInBlock(user) || user->getNumResults() != 1)
    return false;
  bool reduction = isReduction(user);
  if (!reduction && (elementwiseCallee(user).empty() ||
                     !streamable(user->getResult(0).getType())))
    return false;
  for (Operation *o = at->getNextNode(); o != user; o = o->getNextNode())
    if (isa<tileas::MutexLockOp, tileas::MutexUnlockOp>(o))
      return false;
  return llvm::all_of(user->getOperands(), [&](Value v) {
    if (coming.contains(v) || nodeOf(v))
      return true;
    Operation *def = v.getDefiningOp();
    return !def || done.contains(def) || def->getBlock() != at->getBlock();
  });
}

/// Evaluates `values` (streamed, still read later) and the pending
/// `reductions` at `at`, before it runs. A value is first pushed forward
/// through its readers when all of them can run now and what they make
/// takes no more registers than it (see the file comment).
void TileStreams::evaluateNow(Operation *at, ArrayRef<Value> values,
                              ArrayRef<size_t> reductions,
                              PieceNode *inPlace) {
  if (values.empty() && reductions.empty())
    return;
  auto words = [&](Value v) -> int64_t {
    auto t = cast<RankedTensorType>(v.getType());
    // A thread holds one row of a 64-row tile too (tp::row64).
    int64_t rows = t.getRank() ? t.getShape()[0] : 1;
    int64_t held = rowPerThread(rows) ? 1 : std::max<int64_t>(1, rows / threads);
    return t.getNumElements() / rows * held * t.getElementTypeBitWidth() / 32;
  };
  llvm::DenseSet<Value> coming(values.begin(), values.end());
  SmallVector<Value> work(values.begin(), values.end()), whole;
  SmallVector<Value> newReductions;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    SmallVector<Operation *> users;
    for (Operation *user : v.getUsers())
      if (!done.contains(user) && !llvm::is_contained(users, user))
        users.push_back(user);
    int64_t after = 0;
    bool all = !users.empty();
    for (Operation *user : users) {
      all &= canRunNow(user, at, coming);
      if (all)
        after += words(user->getResult(0));
    }
    if (!all || after > words(v)) {
      whole.push_back(v);
      continue;
    }
    // Pushed into an in-place store, a value must not end up made whole
    // first: only reductions may come of it.
    if (inPlace && share(nodeOf(v), inPlace) &&
        llvm::any_of(users, [](Operation *u) { return !isReduction(u); })) {
      whole.push_back(v);
      continue;
    }
    llvm::sort(users, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    OpBuilder::InsertionGuard guard(b);
    for (Operation *user : users) {
      take(user);
      done.insert(user);
      Value r = user->getResult(0);
      if (isReduction(user)) {
        if (live(r))
          newReductions.push_back(r);
      } else if (live(r)) {
        coming.insert(r);
        work.push_back(r);
      }
    }
  }
  // Reductions of what an in-place store writes over wait for its pass.
  SmallVector<size_t> all(reductions.begin(), reductions.end());
  for (auto [i, p] : llvm::enumerate(pending))
    if (llvm::is_contained(newReductions, p.result) &&
        !(inPlace && share(p.node, inPlace)))
      all.push_back(i);
  runPass(at->getLoc(), whole, all, {});
}

/// The piece width of a pass: the agent's, halved (down to 8 columns) while
/// the pieces the pass holds at once would take more than half the agent's
/// registers. Wide expressions (elementwise-math's nine functions of one
/// tile, whose results meet at the end) hold a dozen pieces at once: at 32
/// columns that is past the register file, and ptxas spills.
int64_t TileStreams::passWidth(int64_t cols, ArrayRef<PieceSink> sinks) const {
  constexpr int64_t minWidth = 8;
  int64_t bits = liveBitsPerColumn(sinks), width = pieceWidth_;
  while (width > minWidth && cols % (width / 2) == 0 &&
         width * bits / 32 > regs_ / 2)
    width /= 2;
  return width;
}

/// One pass per row width: the values made whole, the reductions folded,
/// the stores written; then their C++ values are bound.
void TileStreams::runPass(Location loc, ArrayRef<Value> whole,
                          ArrayRef<size_t> reductions,
                          ArrayRef<PieceSink> stores) {
  struct Item {
    PieceSink sink;
    Value value; ///< The IR value the sink's result stands for.
  };
  llvm::MapVector<int64_t, SmallVector<Item>> byCols;
  for (Value v : whole) {
    PieceNode *node = nodeOf(v);
    byCols[node->cols].push_back({{PieceSink::Kind::Whole, node}, v});
  }
  for (size_t i : reductions) {
    const Pending &p = pending[i];
    PieceSink sink{p.max ? PieceSink::Kind::Max : PieceSink::Kind::Sum,
                   p.node};
    sink.rows = p.rows;
    byCols[p.node->cols].push_back({sink, p.result});
  }
  for (const PieceSink &s : stores)
    byCols[s.node->cols].push_back({s, Value()});
  for (auto &[cols, items] : byCols) {
    SmallVector<PieceSink> sinks;
    for (Item &item : items)
      sinks.push_back(item.sink);
    emitPass(b, loc, tid, cols, passWidth(cols, sinks), sinks);
    for (auto [item, sink] : llvm::zip(items, sinks))
      if (item.value)
        host.bind(item.value, sink.result);
  }
  for (Value v : whole)
    streamed.erase(v);
  SmallVector<size_t> sorted(reductions.begin(), reductions.end());
  llvm::sort(sorted);
  for (size_t i : llvm::reverse(sorted))
    pending.erase(pending.begin() + i);
}

void TileStreams::endBlock(Block *block) {
  if (!active)
    return;
  auto inside = [&](Value v) {
    return block->getParent()->isAncestor(v.getParentRegion());
  };
  SmallVector<Value> gone;
  for (auto [v, node] : streamed)
    if (inside(v))
      gone.push_back(v);
  for (Value v : gone)
    streamed.erase(v);
  llvm::erase_if(pending, [&](Pending &p) { return inside(p.result); });
  if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
    done.insert(&block->back());
}
