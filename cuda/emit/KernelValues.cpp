//===- KernelValues.cpp - the C++ values of a kernel's IR values ----------===//
//
// Values become C++ values: indices int64_t, SMEM and TMEM tiles their
// 32-bit addresses, register tiles tp::Frag<T, N> (the rows this thread
// holds). A register tile made outside the agents (a tile passed in, a
// splat, a per-column vector) is made again by each agent that reads it, at
// the agent's fragment size.
//
//===----------------------------------------------------------------------===//

#include "cuda/analysis/ElementwiseOps.h"
#include "cuda/emit/KernelEmitter.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

/// A 64-row tile in a 128-thread agent is held as an M = 64 accumulator
/// lies in TMEM: threads t and t + 16 of a warp both hold row
/// tp::row64(t) (docs/cuda.md, "64-row tiles").
bool KernelEmitter::rowsTwice(RankedTensorType type) {
  return type.getRank() && type.getShape()[0] == 64 &&
         agentThreads() == 128;
}

Value KernelEmitter::threadRow(RankedTensorType type) {
  return rowsTwice(type) ? row64 : tid;
}

/// 64 rows of TMEM are read and written only in an M = 64 accumulator's
/// layout: PTX does not place an M = 64 MMA's A operand, so data written
/// for one has no layout here.
LogicalResult KernelEmitter::checkTmemRows(Location loc, RankedTensorType type,
                                           StringRef tmemLayout) {
  if (!rowsTwice(type) || tmemLayout == "tp::TmemLayout::Acc64")
    return success();
  return emitError(loc) << "a 64-row TMEM tile that is not an MMA "
                           "accumulator (e.g. the A operand of an M = 64 "
                           "MMA) is not supported; 64-row TMEM tiles are "
                           "accumulators";
}

FailureOr<int64_t> KernelEmitter::fragSize(Location loc,
                                           RankedTensorType type) {
  if (fragBands)
    return fragmentRowsSize(loc, type);
  int threads = agentThreads();
  int64_t rows = type.getRank() ? type.getShape()[0] : 1;
  if (rowsTwice(type)) {
    int64_t n = 1;
    for (int64_t d : type.getShape().drop_front())
      n *= d;
    return n;
  }
  if (rows % threads)
    return emitError(loc) << "a register tile of " << rows
                          << " rows cannot be split over the agent's "
                          << threads
                          << " threads (rows per thread must be whole; "
                             "--tileas-split-rows splits each row over "
                             "lanes instead)",
           failure();
  int64_t n = rows / threads;
  for (int64_t d : type.getShape().drop_front())
    n *= d;
  return n;
}

FailureOr<int64_t> KernelEmitter::fragSize(Location loc, Value v) {
  ThreadRowsScope scope(*this, threadRowsValues.contains(v));
  if (auto it = wgmmaFrags.find(v); it != wgmmaFrags.end())
    return it->second;
  auto tensor = cast<RankedTensorType>(v.getType());
  if (columns.contains(v))
    return columnVectorSize(loc, tensor);
  return fragSize(loc, tensor);
}

bool KernelEmitter::sameInThread(Value v, unsigned depth) {
  // Deep chains are not worth following: the gather stays element-wise.
  constexpr unsigned kMaxDepth = 16;
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor)
    return true; // A scalar operand.
  Operation *def = v.getDefiningOp();
  if (!def || depth > kMaxDepth || fragBands || columns.contains(v) ||
      wgmmaFrags.count(v))
    return false;
  if (auto iota = dyn_cast<tileas::IotaOp>(def)) {
    // Positions along the rows: the thread's row, once per element when
    // the thread holds one row whole (or its lanes' piece of it).
    if (tensor.getRank() != 2 || iota.getDimension() != 0)
      return false;
    FailureOr<int64_t> n = fragSize(def->getLoc(), tensor);
    return succeeded(n) && *n <= tensor.getShape()[1];
  }
  if (isa<tensor::SplatOp>(def))
    return true;
  if (auto cst = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    return dense && dense.isSplat();
  }
  auto operandsSame = [&](ValueRange operands) {
    return llvm::all_of(operands,
                        [&](Value o) { return sameInThread(o, depth + 1); });
  };
  if (auto gather = dyn_cast<tileas::GlobalGatherOp>(def))
    return operandsSame(gather.getIndices()) &&
           (!gather.getMask() || sameInThread(gather.getMask(), depth + 1));
  if (isa<arith::ArithDialect>(def->getDialect()) &&
      def->getNumResults() == 1 && isMemoryEffectFree(def) &&
      !def->getNumRegions())
    return operandsSame(def->getOperands());
  return false;
}

/// A per-column vector: whole in every thread, or in the fragment's rows the
/// thread's quarter (its columns 8 j + 2 (lane % 4) + {0, 1}).
FailureOr<int64_t> KernelEmitter::columnVectorSize(Location loc,
                                                   RankedTensorType tensor) {
  int64_t n = tensor.getNumElements();
  if (!fragBands)
    return n;
  if (n % 8)
    return emitError(loc) << "a per-column vector of " << n
                          << " values in the wgmma fragment's rows: a "
                             "multiple of 8 is required (a lane quad holds 8 "
                             "columns)",
           failure();
  return n / 4;
}

FailureOr<Type> KernelEmitter::convert(Location loc, Value v) {
  ThreadRowsScope scope(*this, threadRowsValues.contains(v));
  if (auto it = wgmmaFrags.find(v); it != wgmmaFrags.end()) {
    // f32, or s32 under 8-bit integer operands.
    bool s32 = getElementTypeOrSelf(v.getType()).isInteger(32);
    return opaque(llvm::formatv("tp::Frag<{0}, {1}>", s32 ? "int32_t" : "float",
                                it->second)
                      .str());
  }
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor || !columns.contains(v))
    return convert(loc, v.getType());
  std::string elem = registerElementName(tensor.getElementType());
  if (elem.empty())
    return emitError(loc) << "no CUDA type for " << tensor, failure();
  FailureOr<int64_t> n = columnVectorSize(loc, tensor);
  if (failed(n))
    return failure();
  return opaque(llvm::formatv("tp::Frag<{0}, {1}>", elem, *n).str());
}

FailureOr<Type> KernelEmitter::convert(Location loc, Type type) {
  if (type.isIndex())
    return i64();
  if (isa<IntegerType, FloatType>(type))
    return type;
  if (isa<tileas::SmemType, tileas::TmemType>(type))
    return u32();
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    std::string elem = registerElementName(tensor.getElementType());
    FailureOr<int64_t> n = fragSize(loc, tensor);
    if (elem.empty() || failed(n))
      return elem.empty()
                 ? (emitError(loc) << "no CUDA type for " << type, failure())
                 : failure();
    return opaque(llvm::formatv("tp::Frag<{0}, {1}>", elem, *n).str());
  }
  return emitError(loc) << "no CUDA value for " << type, failure();
}

/// A position or mask made where it is read, each time (isPositionOp): the
/// ops making it are emitted here, and nothing keeps the result for a
/// later reader.
Value KernelEmitter::makePosition(Location loc, Value v) {
  Operation *def = v.getDefiningOp();
  if (auto cst = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    if (dense && dense.isSplat())
      return makeSplatConstant(loc, v, dense);
    emitError(loc) << "a constant tile of positions that is not a splat is "
                      "not translated to CUDA";
    broken = true;
    return {};
  }
  if (auto splat = dyn_cast<tensor::SplatOp>(def))
    return emitSplat(loc, splat);
  return emitUnkept(v);
}

/// Translates the op defining `v` here and hands its result back without
/// keeping it for later readers (positions, each agent's own values).
Value KernelEmitter::emitUnkept(Value v) {
  if (failed(emitOp(v.getDefiningOp()))) {
    broken = true;
    return {};
  }
  Value made = map.lookup(v);
  map.erase(v);
  return made;
}

Value KernelEmitter::lookup(Location loc, Value v) {
  // A tile passed in maps to its pointer; its uses read the rows.
  bool tileParam =
      isa<BlockArgument>(v) &&
      cast<BlockArgument>(v).getOwner()->getParentOp() == func.getOperation() &&
      isa<RankedTensorType>(v.getType());
  if (!tileParam)
    if (Value m = map.lookup(v))
      return m;
  // A streamed tile or a pending row reduction: evaluated here.
  if (Value m = streams.evaluate(loc, v))
    return m;
  if (isPositionOp(v.getDefiningOp()))
    return makePosition(loc, v);
  // Register tiles from outside the agents (tiles passed in, splat
  // constants) take the fragment size of the agent that uses them, so each
  // agent makes its own once, at its start, where every use sees it.
  if (Value m = agentValues.lookup(v))
    return m;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(agentStartFor(loc, v));
  Value made = makeAgentValue(loc, v);
  if (made)
    agentValues[v] = made;
  return made;
}

/// Where the agent makes `v` once: at its start, unless `v` broadcasts a
/// scalar the agent itself computes later in that block (peeled code runs
/// the function's scalar arithmetic in its one agent), then after it.
Operation *KernelEmitter::agentStartFor(Location loc, Value v) {
  Operation *start = leader.getDefiningOp();
  auto splat = v.getDefiningOp<tensor::SplatOp>();
  if (!splat || isa<ShapedType>(splat.getInput().getType()))
    return start;
  Value scalar = lookup(loc, splat.getInput());
  Operation *def = scalar ? scalar.getDefiningOp() : nullptr;
  if (def && def->getBlock() == start->getBlock() &&
      start->isBeforeInBlock(def))
    return def;
  return start;
}

/// A register tile from outside the agents, made by the current agent at its
/// start: a tile passed in (each thread loads its rows), a per-column vector,
/// a scalar broadcast, a splat constant, or a poison seed.
Value KernelEmitter::makeAgentValue(Location loc, Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v);
      arg && arg.getOwner()->getParentOp() == func.getOperation() &&
      isa<RankedTensorType>(v.getType()))
    return loadTileParameter(loc, v);
  if (Value made = makeColumnVector(loc, v))
    return made;
  // A scalar broadcast before the agents (a scale passed in): each agent
  // broadcasts it itself.
  if (auto splat = v.getDefiningOp<tensor::SplatOp>())
    return emitSplat(loc, splat);
  if (auto cst = v.getDefiningOp<arith::ConstantOp>())
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue()))
      if (dense.isSplat())
        return makeSplatConstant(loc, v, dense);
  if (v.getDefiningOp<ub::PoisonOp>())
    return makePoison(loc, v);
  // Translated here, in the agent; the result is the agent's own.
  if (madeByAgents(v.getDefiningOp()))
    return emitUnkept(v);
  emitError(loc) << "value used before the translation defined it";
  broken = true;
  return {};
}

/// Register work outside the agents of a warp-specialized function that
/// each agent reading it does itself: a tile read from SMEM, a broadcast,
/// elementwise math, on values that are themselves made so, storage or
/// constants. Its layout is the reading agent's (a row a thread, or the
/// wgmma fragment's rows), so the prologue cannot make it once for all.
bool KernelEmitter::madeByAgents(Operation *op) {
  if (!op || op->getParentOp() != func.getOperation() || op->getNumRegions() ||
      op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()) ||
      !layout.agents.front().op)
    return false;
  if (auto load = dyn_cast<tileas::SmemLoadOp>(op))
    return !load.getTransposed();
  return isa<tileas::BroadcastOp>(op) || elementwiseCall(op).has_value();
}

/// A register tile passed in: its pointer, from which each thread loads
/// its rows.
Value KernelEmitter::loadTileParameter(Location loc, Value v) {
  auto tensor = cast<RankedTensorType>(v.getType());
  FailureOr<Type> frag = convert(loc, v);
  FailureOr<int64_t> n = fragSize(loc, v);
  if (failed(frag) || failed(n)) {
    broken = true;
    return {};
  }
  int64_t cols = tensor.getRank() >= 2 ? tensor.getShape().back() : 1;
  // A per-column vector in the fragment's rows: each thread its columns.
  if (fragBands && columns.contains(v))
    return call(*frag, "tp::wgmma_cols_global_load", {map.lookup(v), tid},
                {std::to_string(tensor.getNumElements()),
                 registerElementName(tensor.getElementType()),
                 std::to_string(*n)});
  // In the fragment's rows each thread loads the rows and columns it holds.
  if (fragBands)
    return call(*frag, "tp::wgmma_rows_global_load", {map.lookup(v), tid},
                rowsAccessArgs({std::to_string(fragBands), std::to_string(cols),
                                registerElementName(tensor.getElementType()),
                                std::to_string(*n)}));
  return call(*frag, "tp::global_load_rows", {map.lookup(v), rowsOf(v)},
              {std::to_string(cols),
               registerElementName(tensor.getElementType()),
               std::to_string(*n)});
}

/// A splat arith.constant of a register tile: tp::splat of its value (a
/// float by its f32 bits, integers as they are).
Value KernelEmitter::makeSplatConstant(Location loc, Value v,
                                       DenseElementsAttr dense) {
  auto tensor = cast<RankedTensorType>(dense.getType());
  FailureOr<Type> frag = convert(loc, v);
  FailureOr<int64_t> n = fragSize(loc, v);
  if (failed(frag) || failed(n)) {
    broken = true;
    return {};
  }
  std::string elem = registerElementName(tensor.getElementType());
  std::string value;
  if (auto f = dyn_cast<FloatAttr>(dense.getSplatValue<Attribute>())) {
    // A narrower float (a bf16 zero masking an MMA operand) by its f32
    // value, which holds it exactly, converted to the element type.
    APFloat wide = f.getValue();
    bool lost = false;
    wide.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
    if (lost) {
      emitError(loc) << "a splat constant of " << tensor.getElementType()
                     << " that f32 does not hold exactly is not translated";
      broken = true;
      return {};
    }
    APInt bits = wide.bitcastToAPInt();
    value = llvm::formatv("tp::bits_f32(0x{0:x-}u)", bits.getZExtValue()).str();
    if (!tensor.getElementType().isF32())
      value = "tp::detail::convert<" + elem + ">(" + value + ")";
  } else {
    value = std::to_string(dense.getSplatValue<APInt>().getSExtValue());
  }
  return call(*frag, "tp::splat", {literal(opaque(elem), value)},
              {elem, std::to_string(*n)});
}

/// A register the stage code seeds for a rotation and never reads
/// (ub.poison, docs/stage-code.md): any value will do, so zero.
Value KernelEmitter::makePoison(Location loc, Value v) {
  FailureOr<Type> type = convert(loc, v);
  if (failed(type)) {
    broken = true;
    return {};
  }
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor)
    return literal(*type, "{}");
  FailureOr<int64_t> n = fragSize(loc, v);
  if (failed(n)) {
    broken = true;
    return {};
  }
  std::string elem = registerElementName(tensor.getElementType());
  return call(*type, "tp::splat", {literal(opaque(elem), elem + "{}")},
              {elem, std::to_string(*n)});
}

Value KernelEmitter::slotAddress(const PipeLayout &p, Value k) {
  if (p.tmem)
    return call(
        u32(), "tp::tmem_slot",
        {tmemAddress(p.tmemColumn), intLit(p.slotCols), intLit(p.depth), k});
  return call(u32(), "tp::smem_slot",
              {literal(opaque("void *"), "S." + p.buffer), intLit(p.slotBytes),
               intLit(p.depth), k});
}

/// The counters below are the current agent's: a new agent starts afresh.
void KernelEmitter::startAgentCounters() {
  if (accMaskAgent == agent)
    return;
  accMasks.clear();
  scaleCounts.clear();
  stagedCounts.clear();
  accMaskAgent = agent;
}

/// The agent's mask of the accumulator slots an MMA has written, declared
/// at the agent's start so that every loop and branch of the agent sees it.
Value KernelEmitter::accMask(const UnsetAccumulator &u) {
  startAgentCounters();
  Value &mask = accMasks[u.column];
  if (!mask)
    mask = agentVariable(u32(), "0u");
  return mask;
}

/// A variable of the current agent, declared at its start.
Value KernelEmitter::agentVariable(Type type, StringRef init) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(leader.getDefiningOp());
  return b.create<emitc::VariableOp>(func.getLoc(), type,
                                     emitc::OpaqueAttr::get(ctx, init));
}

/// How many times the current agent has run a double-buffered scale-factor
/// copy: its buffer and barrier are count % 2, the barrier phase count / 2.
Value KernelEmitter::scaleCount(Operation *copy) {
  startAgentCounters();
  Value &count = scaleCounts[copy];
  if (!count)
    count = agentVariable(i64(), "0");
  return count;
}

/// A per-column vector made before the agents (an smem_load of a prologue
/// tile, math on it), made whole again by the agent that reads it: every
/// thread reads all of it. Null for any other value.
Value KernelEmitter::makeColumnVector(Location loc, Value v) {
  Operation *def = v.getDefiningOp();
  if (!columns.contains(v) || !def || def->getParentOp() != func.getOperation())
    return {};
  FailureOr<Type> type = convert(loc, v);
  FailureOr<int64_t> n = fragSize(loc, v);
  if (failed(type) || failed(n)) {
    broken = true;
    return {};
  }
  std::string elem =
      registerElementName(cast<RankedTensorType>(v.getType()).getElementType());
  if (auto load = dyn_cast<tileas::SmemLoadOp>(def)) {
    if (fragBands)
      return columnsLoad(load, *type, *n);
    Value whole = call(*type, "tp::smem_load",
                       {lookup(loc, load.getSource()), intLit(0)},
                       {"1", elem, std::to_string(*n)});
    return load.getPaddingAttr() ? padded(load, whole, intLit(0), *n) : whole;
  }
  std::optional<ElementwiseCall> math = elementwiseCall(def);
  if (!math)
    return {};
  SmallVector<Value> operands;
  for (Value operand : def->getOperands())
    operands.push_back(lookup(loc, operand));
  if (broken)
    return {};
  return call(*type, math->callee, operands, math->templateArgs(elem));
}

/// tensor.splat of a scalar: tp::splat at the agent's fragment size.
Value KernelEmitter::emitSplat(Location loc, tensor::SplatOp splat) {
  auto tensor = cast<RankedTensorType>(splat.getType());
  FailureOr<Type> frag = convert(loc, splat.getResult());
  FailureOr<int64_t> n = fragSize(loc, splat.getResult());
  Value scalar = lookup(loc, splat.getInput());
  if (failed(frag) || failed(n) || !scalar || broken) {
    broken = true;
    return {};
  }
  std::string elem = registerElementName(tensor.getElementType());
  return call(*frag, "tp::splat", {scalar}, {elem, std::to_string(*n)});
}

/// Math on a register tile held whole starts where the IR puts it: its
/// operands wider than a piece are pinned there (tp::pin says why).
void KernelEmitter::pinWide(Operation *op, ValueRange operands) {
  // Positions are not pinned: pinned, ptxas would hold them in registers
  // instead of folding their constants into the mask's compares.
  for (auto [ir, cxx] : llvm::zip(op->getOperands(), operands))
    if (auto t = dyn_cast<RankedTensorType>(ir.getType());
        t && t.getRank() == 2 && t.getShape()[1] > streams.width() &&
        !isPositionOp(ir.getDefiningOp()))
      callVoid("tp::pin", {cxx});
}

/// The UMMA layout of the SMEM tile `v`, when a UMMA reads it; else null.
const TileLayout *KernelEmitter::mmaTileOf(Value v) {
  const TileLayout *l = layout.tiles.of(v);
  return l && l->kind == TileLayout::Kind::Mma && l->mmaOperand ? l : nullptr;
}

/// A smem_store into a UMMA operand that TileStreams may write in pieces:
/// the MmaTile type and the row the thread writes (tp::row64 at 64 rows).
std::optional<std::pair<std::string, Value>>
KernelEmitter::mmaOperand(Operation *store) {
  auto smem = dyn_cast<tileas::SmemStoreOp>(store);
  const TileLayout *tile = smem ? mmaTileOf(smem->getResult(0)) : nullptr;
  if (!tile || columns.contains(smem->getOperand(0)))
    return std::nullopt;
  return std::make_pair(tile->cppType, rowsOf(smem->getOperand(0)));
}

/// Where a tmem_store or smem_store writes: its `into` slot, else the
/// buffer the layout gave it.
Value KernelEmitter::storeAddress(Operation *op) {
  if (op->getNumOperands() > 1)
    return lookup(op->getLoc(), op->getOperand(1));
  if (isa<tileas::SmemStoreOp>(op))
    return smemAddress(layout.smemBuffers.lookup(op->getResult(0)));
  return tmemAddress(layout.tmemBuffers.lookup(op->getResult(0)));
}
