//===- EmitKernel.cpp - one materialized function as an EmitC kernel ------===//
//
// Walks the materialized function and builds the same structure in EmitC:
// an `if` per agent on its warps, `for` and `if` for scf, and a call into
// the runtime header for every tileas op. Values become C++ values: indices
// int64_t, SMEM and TMEM tiles their 32-bit addresses, register tiles
// tp::Frag<T, N> (the rows this thread holds). Loop-carried values become
// variables assigned at the yield.
//
// Who runs what follows the stage-code contract (docs/stage-code.md): waits
// and fences by every thread of the agent; TMA, UMMA and tcgen05.commit by
// one elected thread; a SIMT commit or release is the agent's threads
// meeting at their named barrier and one thread arriving, so that every
// barrier expects one arrival per commit or release, as the protocol check
// (materialize/exec) counts them.
//
//===----------------------------------------------------------------------===//

#include "cuda/EmitKernel.h"
#include "cuda/Broadcasts.h"
#include "cuda/CudaTypes.h"
#include "cuda/ElementwiseOps.h"
#include "cuda/RuntimeCalls.h"
#include "cuda/TileHomes.h"
#include "cuda/TileStreams.h"

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

namespace {

/// Register tiles and SIMT math: the CUDA element types, less the raw bytes
/// (ui8) that only scale-factor tiles in SMEM carry.
std::string elementName(Type t) {
  return t.isUnsignedInteger(8) ? "" : cudaElementName(t);
}

class KernelEmitter {
public:
  KernelEmitter(func::FuncOp func, const KernelLayout &layout, OpBuilder &b)
      : func(func), layout(layout), b(b), ctx(func.getContext()),
        streams(b, layout,
                {[this](Location loc, Value v) { return lookup(loc, v); },
                 [this](Value v, Value cxx) { map[v] = cxx; },
                 [this](Operation *store) { return storeAddress(store); },
                 [this](Operation *store) { return mmaOperand(store); }}) {
  }

  LogicalResult emit();
  std::string smemStruct() const;
  std::string harnessMain(ArrayRef<BlockArgument> params) const;

private:
  func::FuncOp func;
  const KernelLayout &layout;
  OpBuilder &b;
  MLIRContext *ctx;
  DenseMap<Value, Value> map;
  unsigned agent = 0; ///< The agent whose code is being emitted.
  Value leader, tid;  ///< Its elected thread, its thread index.
  Value row64;        ///< The row of a 64-row tile the thread holds.
  bool oneWarpAgent = false; ///< The current agent is one warp.
  bool broken = false;
  /// The current agent's copies of register tiles made outside the agents.
  DenseMap<Value, Value> agentValues;
  /// Register tiles evaluated in column pieces (TileStreams.h).
  TileStreams streams;
  emitc::FuncOp kernel;               ///< The kernel being built.
  SmallVector<BlockArgument> passed; ///< Its parameters, in order.
  /// The current agent's lock count per mbarrier mutex.
  DenseMap<Operation *, Value> mutexLocks;
  /// The current agent's written-slot masks of accumulators that start
  /// without a value, by TMEM column (RuntimeCalls.h, UnsetAccumulator).
  DenseMap<int64_t, Value> accMasks;
  /// The current agent's count of each double-buffered scale-factor copy.
  DenseMap<Operation *, Value> scaleCounts;
  unsigned accMaskAgent = ~0u;
  /// Persistent kernels (`tileas.persistent`): each agent runs the tiles
  /// blockIdx.x, + gridDim.x, ... of the grid the launch was asked for
  /// (tp_tiles_*), and continues its pipes' iterations from tile to tile.
  bool persistent = false;
  Value tiles[3];  ///< The asked-for grid, kernel parameters.
  Value tileId[3]; ///< The current tile's block index.
  emitc::ForOp tileLoop;
  Operation *tileStart = nullptr; ///< The last op of the tile's preamble.
  /// Per pipe of the current agent: the iteration its tile starts at
  /// (before the tile loop) and how many iterations this tile has used.
  DenseMap<unsigned, std::pair<Value, Value>> pipeTile;
  LogicalResult emitTiles(Block *body);
  Value pipeIter(const PipeLayout &p, Value raw, bool count);

  // Types.
  Type i64() { return b.getI64Type(); }
  Type u32() { return b.getIntegerType(32, /*isSigned=*/false); }
  Type i1() { return b.getI1Type(); }
  Type opaque(StringRef text) { return emitc::OpaqueType::get(ctx, text); }
  FailureOr<int64_t> fragSize(Location loc, RankedTensorType type);
  bool rowsTwice(RankedTensorType type);
  LogicalResult checkTmemRows(Location loc, RankedTensorType type,
                              StringRef tmemLayout);
  Value threadRow(RankedTensorType type);
  FailureOr<Type> convert(Location loc, Type type);
  /// As above, for the value `v`: a per-column vector (Broadcasts.h) is
  /// held whole by every thread.
  FailureOr<int64_t> fragSize(Location loc, Value v);
  FailureOr<Type> convert(Location loc, Value v);
  /// The thread index a per-thread load of `v` reads at: 0 for a per-column
  /// vector (every thread reads all of it), else the thread's.
  Value rowsOf(Value v) {
    return columns.contains(v)
               ? intLit(0)
               : threadRow(cast<RankedTensorType>(v.getType()));
  }
  /// The per-column vectors of the function (Broadcasts.h).
  llvm::DenseSet<Value> columns;
  LogicalResult emitBroadcast(tileas::BroadcastOp op);

  // Builders.
  Value literal(Type type, const Twine &text) {
    return b.create<emitc::LiteralOp>(func.getLoc(), type, text.str());
  }
  Value call(Type result, StringRef callee, ValueRange operands,
             ArrayRef<std::string> templateArgs = {}) {
    SmallVector<Attribute> targs;
    for (const std::string &t : templateArgs)
      targs.push_back(emitc::OpaqueAttr::get(ctx, t));
    auto op = b.create<emitc::CallOpaqueOp>(
        func.getLoc(), result ? TypeRange(result) : TypeRange(), callee,
        operands, ArrayAttr(),
        targs.empty() ? ArrayAttr() : b.getArrayAttr(targs));
    return result ? op.getResult(0) : Value();
  }
  /// Sets the insertion point before `region`'s terminator, adding one.
  void enter(Region &region) {
    Block &block = region.front();
    if (block.empty() || !block.back().hasTrait<OpTrait::IsTerminator>()) {
      b.setInsertionPointToEnd(&block);
      b.create<emitc::YieldOp>(func.getLoc());
    }
    b.setInsertionPoint(&block.back());
  }
  void callVoid(StringRef callee, ValueRange operands,
                ArrayRef<std::string> templateArgs = {}) {
    call(Type(), callee, operands, templateArgs);
  }
  Value intLit(int64_t v) { return literal(i64(), Twine(v)); }
  Value boolLit(bool v) { return literal(i1(), v ? "true" : "false"); }
  /// Runs `body` in the elected thread only.
  ///
  /// A one-warp agent (the TMA and MMA issuers) elects its lane again right
  /// at each site, with `elect.sync` alone: ptxas then issues the guarded
  /// tcgen05 and TMA instructions under the ELECT predicate, where behind
  /// the agent's flag it wraps each in a loop over the warp's active lanes
  /// (docs/peers.md, "Loop length"). Agents of several warps keep the flag.
  void inLeader(function_ref<void()> body) {
    Value elected = oneWarpAgent ? call(i1(), "tp::elect_one", {}) : leader;
    auto ifOp = b.create<emitc::IfOp>(func.getLoc(), elected,
                                      /*addThenBlock=*/true,
                                      /*addElseBlock=*/false);
    OpBuilder::InsertionGuard guard(b);
    enter(ifOp.getThenRegion());
    body();
  }
  void agentSync() {
    const AgentLayout &a = layout.agents[agent];
    if (a.syncBarrier < 0)
      callVoid("__syncwarp", {});
    else
      callVoid("tp::agent_sync", {intLit(a.syncBarrier), intLit(a.threads())});
  }

  Value lookup(Location loc, Value v);
  Value makeAgentValue(Location loc, Value v);
  Value emitSplat(Location loc, tensor::SplatOp splat);
  Value makeColumnVector(Location loc, Value v);
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  LogicalResult emitAgent(unsigned index, Block *body);
  LogicalResult emitFor(scf::ForOp op);
  LogicalResult emitIf(scf::IfOp op);
  LogicalResult emitArith(Operation *op);
  Value emitIntArith(Operation *op, ArrayRef<Value> operands, Type type);
  LogicalResult emitExtendedArith(Operation *op, ArrayRef<Value> operands);
  Value emitCmpI(arith::CmpIOp cmp, ArrayRef<Value> operands, Type type);
  LogicalResult emitPipeOp(Operation *op);
  LogicalResult emitTileOp(Operation *op);
  LogicalResult emitGridIndex(Operation *op);
  LogicalResult emitEpilogueLoad(tileas::TmaLoadOp load);
  LogicalResult emitTmaLoad(tileas::TmaLoadOp load, Value dst, Value bars,
                            int64_t depth, Value k, int64_t id);
  LogicalResult emitPrologue();
  LogicalResult finish(LogicalResult agents);
  void pinWide(Operation *op, ValueRange operands);
  Value storeAddress(Operation *store);
  std::optional<std::pair<std::string, Value>> mmaOperand(Operation *store);
  const TileLayout *mmaTileOf(Value v);
  LogicalResult emitMmaOperandStore(Operation *op, const TileLayout &tile,
                                    Value frag, Value dst, int64_t n);

  const PipeLayout &pipeOf(Value pipe) {
    return layout.pipes[layout.pipeIds.lookup(pipe.getDefiningOp())];
  }
  /// Pipes are made by pipe.create in the function (not passed in).
  bool knownPipe(Value pipe) {
    return pipe.getDefiningOp<tileas::PipeCreateOp>() &&
           layout.pipeIds.count(pipe.getDefiningOp());
  }
  Value barriers(StringRef name) {
    return literal(opaque("uint64_t *"), "S." + name);
  }
  Value slotAddress(const PipeLayout &p, Value k);
  Value accMask(const UnsetAccumulator &u);
  Value agentVariable(Type type, StringRef init);
  Value scaleCount(Operation *copy);
  Value accBase(const UnsetAccumulator &u) {
    return literal(u32(), "(tp_tmem + " + Twine(u.column) + ")");
  }
};

/// A 64-row tile in a 128-thread agent is held as an M = 64 accumulator
/// lies in TMEM: threads t and t + 16 of a warp both hold row
/// tp::row64(t) (docs/cuda.md, "64-row tiles").
bool KernelEmitter::rowsTwice(RankedTensorType type) {
  return type.getRank() && type.getShape()[0] == 64 &&
         layout.agents[agent].threads() == 128;
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
  int threads = layout.agents[agent].threads();
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
                          << " threads (rows per thread must be whole)",
           failure();
  int64_t n = rows / threads;
  for (int64_t d : type.getShape().drop_front())
    n *= d;
  return n;
}

FailureOr<int64_t> KernelEmitter::fragSize(Location loc, Value v) {
  auto tensor = cast<RankedTensorType>(v.getType());
  if (columns.contains(v))
    return tensor.getNumElements();
  return fragSize(loc, tensor);
}

FailureOr<Type> KernelEmitter::convert(Location loc, Value v) {
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor || !columns.contains(v))
    return convert(loc, v.getType());
  std::string elem = elementName(tensor.getElementType());
  if (elem.empty())
    return emitError(loc) << "no CUDA type for " << tensor, failure();
  return opaque(
      llvm::formatv("tp::Frag<{0}, {1}>", elem, tensor.getNumElements()).str());
}

FailureOr<Type> KernelEmitter::convert(Location loc, Type type) {
  if (type.isIndex())
    return i64();
  if (isa<IntegerType, FloatType>(type))
    return type;
  if (isa<tileas::SmemType, tileas::TmemType>(type))
    return u32();
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    std::string elem = elementName(tensor.getElementType());
    FailureOr<int64_t> n = fragSize(loc, tensor);
    if (elem.empty() || failed(n))
      return elem.empty()
                 ? (emitError(loc) << "no CUDA type for " << type, failure())
                 : failure();
    return opaque(llvm::formatv("tp::Frag<{0}, {1}>", elem, *n).str());
  }
  return emitError(loc) << "no CUDA value for " << type, failure();
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
  // Register tiles from outside the agents (tiles passed in, splat
  // constants) take the fragment size of the agent that uses them, so each
  // agent makes its own once, at its start, where every use sees it.
  if (Value m = agentValues.lookup(v))
    return m;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(leader.getDefiningOp());
  Value made = makeAgentValue(loc, v);
  if (made)
    agentValues[v] = made;
  return made;
}

Value KernelEmitter::makeAgentValue(Location loc, Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v);
      arg && arg.getOwner()->getParentOp() == func.getOperation() &&
      isa<RankedTensorType>(v.getType())) {
    auto tensor = cast<RankedTensorType>(v.getType());
    FailureOr<Type> frag = convert(loc, v);
    FailureOr<int64_t> n = fragSize(loc, v);
    if (failed(frag) || failed(n)) {
      broken = true;
      return {};
    }
    int64_t cols = tensor.getRank() >= 2 ? tensor.getShape().back() : 1;
    return call(*frag, "tp::global_load_rows", {map.lookup(v), rowsOf(v)},
                {std::to_string(cols), elementName(tensor.getElementType()),
                 std::to_string(*n)});
  }
  if (Value made = makeColumnVector(loc, v))
    return made;
  // A scalar broadcast before the agents (a scale passed in): each agent
  // broadcasts it itself.
  if (auto splat = v.getDefiningOp<tensor::SplatOp>())
    return emitSplat(loc, splat);
  if (auto cst = v.getDefiningOp<arith::ConstantOp>())
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue()))
      if (dense.isSplat()) {
        auto tensor = cast<RankedTensorType>(dense.getType());
        FailureOr<Type> frag = convert(loc, v);
        FailureOr<int64_t> n = fragSize(loc, v);
        if (failed(frag) || failed(n)) {
          broken = true;
          return {};
        }
        std::string elem = elementName(tensor.getElementType());
        std::string value;
        if (auto f = dyn_cast<FloatAttr>(dense.getSplatValue<Attribute>())) {
          APInt bits = f.getValue().bitcastToAPInt();
          value = llvm::formatv("tp::bits_f32(0x{0:x-}u)", bits.getZExtValue())
                      .str();
          if (!tensor.getElementType().isF32()) {
            emitError(loc) << "only f32 splat constants are translated";
            broken = true;
            return {};
          }
        } else {
          value = std::to_string(dense.getSplatValue<APInt>().getSExtValue());
        }
        return call(*frag, "tp::splat", {literal(opaque(elem), value)},
                    {elem, std::to_string(*n)});
      }
  // A register the stage code seeds for a rotation and never reads
  // (ub.poison, docs/stage-code.md): any value will do, so zero.
  if (Operation *def = v.getDefiningOp();
      def && def->getName().getStringRef() == "ub.poison") {
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
    std::string elem = elementName(tensor.getElementType());
    return call(*type, "tp::splat", {literal(opaque(elem), elem + "{}")},
                {elem, std::to_string(*n)});
  }
  emitError(loc) << "value used before the translation defined it";
  broken = true;
  return {};
}

Value KernelEmitter::slotAddress(const PipeLayout &p, Value k) {
  if (p.tmem)
    return call(u32(), "tp::tmem_slot",
                {literal(u32(), "(tp_tmem + " + Twine(p.tmemColumn) + ")"),
                 intLit(p.slotCols), intLit(p.depth), k});
  return call(u32(), "tp::smem_slot",
              {literal(opaque("void *"), "S." + p.buffer), intLit(p.slotBytes),
               intLit(p.depth), k});
}

/// The agent's mask of the accumulator slots an MMA has written, declared
/// at the agent's start so that every loop and branch of the agent sees it.
Value KernelEmitter::accMask(const UnsetAccumulator &u) {
  if (accMaskAgent != agent) {
    accMasks.clear();
    scaleCounts.clear();
    accMaskAgent = agent;
  }
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
  if (accMaskAgent != agent) {
    accMasks.clear();
    scaleCounts.clear();
    accMaskAgent = agent;
  }
  Value &count = scaleCounts[copy];
  if (!count)
    count = agentVariable(i64(), "0");
  return count;
}

LogicalResult KernelEmitter::emitBlock(Block &block) {
  for (Operation &op : block) {
    if (isa<tileas::AgentYieldOp, scf::YieldOp, func::ReturnOp>(op) ||
        layout.prologue.ops.contains(&op) || streams.isDone(&op))
      continue;
    // Streamed tiles that `op` would leave unevaluable are evaluated first;
    // `op` itself may stream (TileStreams.h).
    streams.before(&op);
    if (broken || (!streams.take(&op) && failed(emitOp(&op))) || broken)
      return failure();
    streams.markDone(&op);
  }
  return success();
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
      elementName(cast<RankedTensorType>(v.getType()).getElementType());
  if (auto load = dyn_cast<tileas::SmemLoadOp>(def))
    return call(*type, "tp::smem_load",
                {lookup(loc, load.getSource()), intLit(0)},
                {"1", elem, std::to_string(*n)});
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
  std::string elem = elementName(tensor.getElementType());
  return call(*frag, "tp::splat", {scalar}, {elem, std::to_string(*n)});
}

LogicalResult KernelEmitter::emitOp(Operation *op) {
  if (auto splat = dyn_cast<tensor::SplatOp>(op)) {
    // Before the agents: made by each agent that reads it (lookup).
    if (op->getParentOp() == func.getOperation())
      return success();
    Value made = emitSplat(op->getLoc(), splat);
    if (!made)
      return failure();
    map[splat.getResult()] = made;
    return success();
  }
  if (op->getDialect() && (op->getDialect()->getNamespace() == "arith" ||
                           op->getDialect()->getNamespace() == "math"))
    return emitArith(op);
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return emitFor(forOp);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return emitIf(ifOp);
  if (isa<gpu::BlockIdOp, gpu::GridDimOp>(op))
    return emitGridIndex(op);
  if (isa<tileas::PipeCreateOp, tileas::MutexCreateOp, tileas::AllocSmemOp,
          tileas::AllocTmemOp>(op)) {
    // Storage the layout placed: the value is its address.
    if (auto alloc = dyn_cast<tileas::AllocSmemOp>(op))
      map[alloc.getResult()] =
          call(u32(), "tp::smem_addr",
               {literal(opaque("void *"),
                        "S." + layout.smemBuffers.lookup(alloc.getResult()))});
    if (auto alloc = dyn_cast<tileas::AllocTmemOp>(op))
      map[alloc.getResult()] = literal(
          u32(), "(tp_tmem + " +
                     Twine(layout.tmemBuffers.lookup(alloc.getResult())) + ")");
    return success();
  }
  if (isa<tileas::PipeProducerAcquireOp, tileas::PipeProducerCommitOp,
          tileas::PipeConsumerWaitOp, tileas::PipeConsumerReleaseOp,
          tileas::FenceOp, tileas::MutexLockOp, tileas::MutexUnlockOp>(op))
    return emitPipeOp(op);
  if (op->getDialect() && op->getDialect()->getNamespace() == "tileas")
    return emitTileOp(op);
  if (op->getName().getStringRef() == "ub.poison")
    return success(); // Made at each use (lookup).
  return emitError(op->getLoc())
         << "'" << op->getName() << "' is not translated to CUDA";
}

LogicalResult KernelEmitter::emitArith(Operation *op) {
  Location loc = op->getLoc();
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    if (isa<DenseElementsAttr>(cst.getValue()))
      return success(); // Made at each use (lookup).
    if (auto i = dyn_cast<IntegerAttr>(cst.getValue())) {
      if (cst.getType().isInteger(1))
        map[cst] = boolLit(i.getValue().getBoolValue());
      else
        map[cst] = literal(*convert(loc, cst.getType()),
                           Twine(i.getValue().getSExtValue()));
      return success();
    }
    if (auto f = dyn_cast<FloatAttr>(cst.getValue());
        f && cst.getType().isF32()) {
      map[cst] = call(
          b.getF32Type(), "tp::bits_f32",
          {literal(u32(),
                   llvm::formatv("0x{0:x-}u",
                                 f.getValue().bitcastToAPInt().getZExtValue())
                       .str())});
      return success();
    }
    return emitError(op->getLoc(), "constant not translated to CUDA");
  }
  SmallVector<Value> operands;
  for (Value v : op->getOperands())
    operands.push_back(lookup(loc, v));
  if (broken)
    return failure();
  if (isa<arith::AddUIExtendedOp, arith::MulSIExtendedOp,
          arith::MulUIExtendedOp>(op))
    return emitExtendedArith(op, operands);
  if (op->getNumResults() != 1)
    return emitError(op->getLoc(), "not translated to CUDA");
  FailureOr<Type> type = convert(loc, op->getResult(0));
  if (failed(type))
    return failure();
  // Float arithmetic other dialects schedule (ir/ExternalModels.cpp): on
  // register tiles the runtime's elementwise ops (ElementwiseOps.h), on
  // scalars C++.
  std::optional<ElementwiseCall> tile = elementwiseCall(op);
  // A select of scalars is the integer path's C++ conditional.
  if (tile && !isa<RankedTensorType>(op->getResult(0).getType()) &&
      isa<arith::SelectOp>(op))
    tile.reset();
  if (tile) {
    if (auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType())) {
      pinWide(op, operands);
      map[op->getResult(0)] =
          call(*type, tile->callee, operands,
               tile->templateArgs(elementName(tensor.getElementType())));
      return success();
    }
    Value r =
        llvm::TypeSwitch<Operation *, Value>(op)
            .Case([&](arith::AddFOp) {
              return b.create<emitc::AddOp>(loc, *type, operands[0],
                                            operands[1]);
            })
            .Case([&](arith::SubFOp) {
              return b.create<emitc::SubOp>(loc, *type, operands[0],
                                            operands[1]);
            })
            .Case([&](arith::MulFOp) {
              return b.create<emitc::MulOp>(loc, *type, operands[0],
                                            operands[1]);
            })
            .Case([&](arith::DivFOp) {
              return b.create<emitc::DivOp>(loc, *type, operands[0],
                                            operands[1]);
            })
            .Case([&](arith::NegFOp) {
              return b.create<emitc::UnaryMinusOp>(loc, *type, operands[0]);
            })
            .Default([&](Operation *o) -> Value {
              StringRef fn = scalarFunction(o);
              if (fn.empty() || !op->getResult(0).getType().isF32())
                return {};
              return call(*type, fn, operands);
            });
    if (!r)
      return emitError(op->getLoc())
             << "'" << op->getName()
             << "' on scalars is not translated to CUDA (only on register "
                "tiles, or on f32)";
    map[op->getResult(0)] = r;
    return success();
  }
  Value r = emitIntArith(op, operands, *type);
  if (!r)
    return emitError(op->getLoc())
           << "'" << op->getName() << "' is not translated to CUDA";
  map[op->getResult(0)] = r;
  return success();
}

/// The C++ name of a scalar type, as EmitC prints it (template arguments of
/// the integer runtime's calls).
static std::string scalarName(Type t) {
  if (t.isIndex())
    return "int64_t";
  if (t.isInteger(1))
    return "bool";
  if (auto i = dyn_cast<IntegerType>(t))
    return "int" + std::to_string(i.getWidth()) + "_t";
  return cudaElementName(t);
}

/// arith's integer ops on scalars. Those whose C++ operator means the same
/// (divsi, remsi, the bitwise ops, signed compares) are operators; the rest
/// call runtime/int_arith.cuh with the operand type spelled out, since a
/// constant operand prints as a bare literal. addi, subi and muli are calls
/// too: arith wraps around where C++'s signed operators are undefined.
Value KernelEmitter::emitIntArith(Operation *op, ArrayRef<Value> operands,
                                  Type type) {
  Location loc = op->getLoc();
  std::string in = op->getNumOperands()
                       ? scalarName(op->getOperand(0).getType())
                       : std::string();
  std::string out = scalarName(op->getResult(0).getType());
  bool i1 = op->getNumOperands() && op->getOperand(0).getType().isInteger(1);
  auto binary = [&](StringRef fn) { return call(type, fn, operands, {in}); };
  auto cast = [&](StringRef fn) { return call(type, fn, operands, {out, in}); };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](arith::AddIOp) { return binary("tp::addi"); })
      .Case([&](arith::SubIOp) { return binary("tp::subi"); })
      .Case([&](arith::MulIOp) { return binary("tp::muli"); })
      .Case([&](arith::DivSIOp) {
        return b.create<emitc::DivOp>(loc, type, operands[0], operands[1]);
      })
      .Case([&](arith::RemSIOp) {
        return b.create<emitc::RemOp>(loc, type, operands[0], operands[1]);
      })
      .Case([&](arith::CeilDivSIOp) {
        return call(type, "tp::ceildiv", operands);
      })
      // On i1, whose true is -1 signed, the typed form.
      .Case([&](arith::MaxSIOp) {
        return i1 ? binary("tp::maxsi") : call(type, "tp::max_i", operands);
      })
      .Case([&](arith::MinSIOp) {
        return i1 ? binary("tp::minsi") : call(type, "tp::min_i", operands);
      })
      .Case([&](arith::DivUIOp) { return binary("tp::divui"); })
      .Case([&](arith::RemUIOp) { return binary("tp::remui"); })
      .Case([&](arith::CeilDivUIOp) { return binary("tp::ceildivui"); })
      .Case([&](arith::FloorDivSIOp) { return binary("tp::floordivsi"); })
      .Case([&](arith::MinUIOp) { return binary("tp::minui"); })
      .Case([&](arith::MaxUIOp) { return binary("tp::maxui"); })
      .Case([&](arith::ShLIOp) { return binary("tp::shli"); })
      .Case([&](arith::ShRSIOp) { return binary("tp::shrsi"); })
      .Case([&](arith::ShRUIOp) { return binary("tp::shrui"); })
      .Case([&](arith::AndIOp) {
        return b.create<emitc::BitwiseAndOp>(loc, type, operands[0],
                                             operands[1]);
      })
      .Case([&](arith::OrIOp) {
        return b.create<emitc::BitwiseOrOp>(loc, type, operands[0],
                                            operands[1]);
      })
      .Case([&](arith::XOrIOp) {
        return b.create<emitc::BitwiseXorOp>(loc, type, operands[0],
                                             operands[1]);
      })
      .Case([&](arith::IndexCastOp) {
        return b.create<emitc::CastOp>(loc, type, operands[0]);
      })
      .Case<arith::ExtSIOp, arith::TruncIOp>(
          [&](auto) { return cast("tp::casti"); })
      .Case<arith::ExtUIOp, arith::IndexCastUIOp>(
          [&](auto) { return cast("tp::castui"); })
      .Case([&](arith::SIToFPOp) { return cast("tp::sitofp"); })
      .Case([&](arith::UIToFPOp) { return cast("tp::uitofp"); })
      .Case([&](arith::FPToSIOp) { return cast("tp::fptosi"); })
      .Case([&](arith::FPToUIOp) { return cast("tp::fptoui"); })
      .Case([&](arith::SelectOp) {
        return b.create<emitc::ConditionalOp>(loc, type, operands[0],
                                              operands[1], operands[2]);
      })
      .Case([&](arith::CmpIOp cmp) { return emitCmpI(cmp, operands, type); })
      .Default([&](Operation *) { return Value(); });
}

/// arith's extended ops: each result is a call of its own (the first is
/// addi's or muli's), so no C++ pair or out-parameter is needed.
LogicalResult KernelEmitter::emitExtendedArith(Operation *op,
                                               ArrayRef<Value> operands) {
  Location loc = op->getLoc();
  SmallVector<Type> types;
  for (Value r : op->getResults()) {
    FailureOr<Type> type = convert(loc, r);
    if (failed(type))
      return failure();
    types.push_back(*type);
  }
  std::string in = scalarName(op->getOperand(0).getType());
  StringRef first = isa<arith::AddUIExtendedOp>(op) ? "tp::addi" : "tp::muli";
  StringRef second =
      llvm::TypeSwitch<Operation *, StringRef>(op)
          .Case([](arith::AddUIExtendedOp) { return "tp::addui_carry"; })
          .Case([](arith::MulSIExtendedOp) { return "tp::mulsi_high"; })
          .Default([](Operation *) { return "tp::mului_high"; });
  map[op->getResult(0)] = call(types[0], first, operands, {in});
  map[op->getResult(1)] = call(types[1], second, operands, {in});
  return success();
}

/// arith.cmpi: equality and the signed predicates on integers wider than
/// i1 are C++'s comparisons; the unsigned ones, and signed ones on i1
/// (whose true is -1), runtime calls.
Value KernelEmitter::emitCmpI(arith::CmpIOp cmp, ArrayRef<Value> operands,
                              Type type) {
  using P = arith::CmpIPredicate;
  P p = cmp.getPredicate();
  bool i1 = cmp.getLhs().getType().isInteger(1);
  bool isSigned = p == P::slt || p == P::sle || p == P::sgt || p == P::sge;
  if (p != P::eq && p != P::ne && (!isSigned || i1))
    return call(type, ("tp::cmpi_" + arith::stringifyCmpIPredicate(p)).str(),
                operands, {scalarName(cmp.getLhs().getType())});
  emitc::CmpPredicate pred = emitc::CmpPredicate::eq;
  switch (p) {
  case P::ne:
    pred = emitc::CmpPredicate::ne;
    break;
  case P::slt:
    pred = emitc::CmpPredicate::lt;
    break;
  case P::sle:
    pred = emitc::CmpPredicate::le;
    break;
  case P::sgt:
    pred = emitc::CmpPredicate::gt;
    break;
  case P::sge:
    pred = emitc::CmpPredicate::ge;
    break;
  default:
    break;
  }
  return b.create<emitc::CmpOp>(cmp.getLoc(), type, pred, operands[0],
                                operands[1]);
}

/// Whether iter_arg `i` of `loop` carries a TMEM slot that is one address
/// in every iteration: both ends are slots of one pipe of one slot (depth 0
/// or 1, as the kernel's layout counts it) on a root of one slot.
static bool carriesOneSlot(scf::ForOp loop, unsigned i) {
  Value init = loop.getInitArgs()[i];
  if (!isa<tileas::TmemType>(init.getType()))
    return false;
  TileHome from = homeOf(init),
           to = homeOf(loop.getBody()->getTerminator()->getOperand(i));
  auto root = dyn_cast_or_null<tileas::PipeCreateOp>(from.root);
  return from.pipe && from.root == to.root && from.pipe == to.pipe &&
         from.pipe.getDepth() <= 1 && (!root || root.getDepth() <= 1);
}

LogicalResult KernelEmitter::emitFor(scf::ForOp op) {
  Location loc = op.getLoc();
  Value lb = lookup(loc, op.getLowerBound()),
        ub = lookup(loc, op.getUpperBound()), step = lookup(loc, op.getStep());
  if (broken)
    return failure();
  // Loop-carried values live in variables declared before the loop.
  SmallVector<Value> vars;
  for (auto [init, result] : llvm::zip(op.getInitArgs(), op.getResults())) {
    FailureOr<Type> type = convert(loc, result);
    if (failed(type))
      return failure();
    Value var = b.create<emitc::VariableOp>(loc, *type,
                                            emitc::OpaqueAttr::get(ctx, ""));
    Value initial = lookup(loc, init);
    if (broken)
      return failure();
    b.create<emitc::AssignOp>(loc, var, initial);
    vars.push_back(var);
  }
  auto forOp = b.create<emitc::ForOp>(loc, lb, ub, step);
  {
    OpBuilder::InsertionGuard guard(b);
    enter(forOp.getRegion());
    map[op.getInductionVar()] = forOp.getInductionVar();
    for (auto [arg, var] : llvm::zip(op.getRegionIterArgs(), vars))
      map[arg] = var;
    if (failed(emitBlock(*op.getBody())))
      return failure();
    auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
    // A yielded iter_arg is read before any variable is overwritten.
    SmallVector<Value> values;
    for (auto [i, v] : llvm::enumerate(yield.getOperands())) {
      Value mapped = lookup(loc, v);
      if (broken)
        return failure();
      if (llvm::is_contained(op.getRegionIterArgs(), v)) {
        Value tmp = b.create<emitc::VariableOp>(
            loc, vars[i].getType(), emitc::OpaqueAttr::get(ctx, ""));
        b.create<emitc::AssignOp>(loc, tmp, mapped);
        mapped = tmp;
      }
      values.push_back(mapped);
    }
    // A slot that is one address in every iteration keeps its initial
    // value: assigned again, it is a phi that ptxas keeps in a register of
    // its own across the loop, where the initial value is derived from the
    // TMEM base (peeled FA4 at head dim 64 spilled the base at 255
    // registers).
    for (auto [i, var, v] : llvm::enumerate(vars, values))
      if (var != v && !carriesOneSlot(op, i))
        b.create<emitc::AssignOp>(loc, var, v);
    streams.endBlock(op.getBody());
  }
  for (auto [result, var] : llvm::zip(op.getResults(), vars))
    map[result] = var;
  return success();
}

LogicalResult KernelEmitter::emitIf(scf::IfOp op) {
  Location loc = op.getLoc();
  Value cond = lookup(loc, op.getCondition());
  if (broken)
    return failure();
  SmallVector<Value> vars;
  for (Value result : op.getResults()) {
    FailureOr<Type> type = convert(loc, result);
    if (failed(type))
      return failure();
    vars.push_back(b.create<emitc::VariableOp>(
        loc, *type, emitc::OpaqueAttr::get(ctx, "")));
  }
  bool hasElse = !op.getElseRegion().empty();
  auto ifOp = b.create<emitc::IfOp>(loc, cond, /*addThenBlock=*/true,
                                    /*addElseBlock=*/hasElse);
  auto branch = [&](Region &from, Region &to) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    enter(to);
    if (failed(emitBlock(from.front())))
      return failure();
    auto yield = cast<scf::YieldOp>(from.front().getTerminator());
    for (auto [var, v] : llvm::zip(vars, yield.getOperands())) {
      Value mapped = lookup(loc, v);
      if (broken)
        return failure();
      b.create<emitc::AssignOp>(loc, var, mapped);
    }
    streams.endBlock(&from.front());
    return success();
  };
  if (failed(branch(op.getThenRegion(), ifOp.getThenRegion())))
    return failure();
  if (hasElse && failed(branch(op.getElseRegion(), ifOp.getElseRegion())))
    return failure();
  for (auto [result, var] : llvm::zip(op.getResults(), vars))
    map[result] = var;
  return success();
}

LogicalResult KernelEmitter::emitPipeOp(Operation *op) {
  Location loc = op->getLoc();
  if (auto fence = dyn_cast<tileas::FenceOp>(op)) {
    StringRef kind = fence.getKind();
    std::string callee =
        kind == "proxy_async" ? "tp::fence_proxy_async" : ("tp::" + kind).str();
    callVoid(callee, {});
    return success();
  }
  if (isa<tileas::MutexLockOp, tileas::MutexUnlockOp>(op)) {
    Value mutex = op->getOperand(0);
    auto [first, threads] = layout.mutexes.lookup(mutex.getDefiningOp());
    auto create = cast<tileas::MutexCreateOp>(mutex.getDefiningOp());
    APInt g;
    if (!matchPattern(op->getOperand(1), m_ConstantInt(&g)))
      return emitError(op->getLoc(), "a mutex group must be a constant to be "
                                     "translated (it names a barrier id)");
    int64_t group = g.getSExtValue();
    if (first < 0) {
      // mbarrier ring: group g waits on its barrier, counting its locks for
      // the parity; group 0's first wait passes on the fresh barrier.
      std::string bars = "S." + layout.mutexBarriers.lookup(create);
      int64_t next = (group + 1) % create.getGroups();
      if (isa<tileas::MutexLockOp>(op)) {
        Value &count = mutexLocks[create];
        if (!count)
          return emitError(op->getLoc(),
                           "internal error: no lock counter for the mutex");
        callVoid("tp::mbar_wait",
                 {literal(opaque("uint64_t *"),
                          "(" + bars + " + " + Twine(group) + ")"),
                  intLit(1), count, literal(u32(), group == 0 ? "1" : "0")});
        Value one = intLit(1);
        b.create<emitc::AssignOp>(
            loc, count, b.create<emitc::AddOp>(loc, i64(), count, one));
      } else {
        agentSync();
        inLeader([&] {
          callVoid("tp::mbar_arrive",
                   {literal(opaque("uint64_t *"),
                            "(" + bars + " + " + Twine(next) + ")"),
                    intLit(1), intLit(0)});
        });
      }
      return success();
    }
    if (isa<tileas::MutexLockOp>(op))
      callVoid("tp::agent_sync", {intLit(first + group), intLit(threads)});
    else
      callVoid(
          "tp::named_arrive",
          {intLit(first + (group + 1) % create.getGroups()), intLit(threads)});
    return success();
  }
  if (!knownPipe(op->getOperand(0)))
    return emitError(loc, "the pipe must come from a tileas.pipe.create of "
                          "this function to be translated");
  const PipeLayout &p = pipeOf(op->getOperand(0));
  Value k = lookup(loc, op->getOperand(1));
  if (broken)
    return failure();
  k = pipeIter(p, k,
               isa<tileas::PipeProducerAcquireOp, tileas::PipeConsumerWaitOp>(
                   op));
  Value pipeId = intLit(p.id), isTmem = boolLit(p.tmem);
  // In an agent of several warps, a slot that only the elected thread
  // touches (TMA, UMMA, tcgen05.cp) is waited for by that thread alone. If
  // every thread waited, nothing would keep the others within a phase of
  // the elected thread, and a warp a phase behind waits on a parity that
  // has come round again: the CPU emulator deadlocked peeled code so.
  auto leaderOnly = [&](Value slot) {
    return layout.agents[agent].syncBarrier >= 0 &&
           llvm::all_of(slot.getUsers(), [](Operation *user) {
             return isa<tileas::TmaLoadOp, tileas::UmmaOp,
                        tileas::TmemCopyOp>(user);
           });
  };
  auto wait = [&](bool leader, const std::string &bars, StringRef parity) {
    auto call = [&] {
      callVoid("tp::mbar_wait",
               {barriers(bars), intLit(p.depth), k, literal(u32(), parity)});
    };
    if (leader)
      inLeader(call);
    else
      call();
  };
  // A joined pipe's acquire and wait ride on those of the pipe it joins,
  // which come first; its release on that pipe's, which comes last.
  bool joined = bool(tileas::PipeCreateOp(p.op).getJoins());
  if (auto acquire = dyn_cast<tileas::PipeProducerAcquireOp>(op)) {
    // An alias's acquire takes over the slot the thread holds: no wait.
    if (!tileas::PipeCreateOp(p.op).getAliases() && !joined)
      wait(leaderOnly(acquire.getResult()), p.empty, "1");
    map[acquire.getResult()] = slotAddress(p, k);
    return success();
  }
  if (auto consumerWait = dyn_cast<tileas::PipeConsumerWaitOp>(op)) {
    if (!joined)
      wait(leaderOnly(consumerWait.getResult()), p.full, "0");
    Value slot = slotAddress(p, k);
    map[consumerWait.getResult()] = slot;
    inLeader([&] { callVoid("tp::probe_check", {slot, isTmem, pipeId, k}); });
    return success();
  }
  if (auto commit = dyn_cast<tileas::PipeProducerCommitOp>(op)) {
    Value slot = lookup(loc, commit.getValue());
    if (broken)
      return failure();
    StringRef via = commit.getVia();
    if (via == "expect_tx") {
      // The sum of the boxes the slot's TMA loads move (TileLayouts.h).
      Value written = commit.getValue();
      if (auto load = written.getDefiningOp<tileas::TmaLoadOp>();
          load && load.getDst())
        written = load.getDst();
      int64_t bytes = tmaBytesInto(written, layout);
      inLeader([&] {
        // A joined pipe's bytes join the same phase without arriving:
        // the stage code orders them before the joined-to pipe's commit.
        callVoid(joined ? "tp::mbar_expect_tx" : "tp::mbar_arrive_expect_tx",
                 {barriers(p.full), intLit(p.depth), k,
                  literal(u32(), Twine(bytes ? bytes : p.txBytes) + "u")});
      });
    } else if (via == "tcgen05_commit") {
      // An accumulator handed on before any MMA wrote it (a trip count of
      // 0) is zeroed first, in the same thread's tcgen05 order.
      std::optional<UnsetAccumulator> unset =
          p.tmem ? unsetAccumulator(commit.getValue(), layout) : std::nullopt;
      inLeader([&] {
        if (unset && !layout.zeros.empty())
          callVoid("tp::acc_zero_unwritten",
                   {accMask(*unset), slot, accBase(*unset),
                    intLit(unset->slotCols),
                    call(u32(), "tp::smem_addr",
                         {literal(opaque("void *"), "S." + layout.zeros)})},
                   {std::to_string(unset->m), std::to_string(unset->n),
                    unset->elem});
        callVoid("tp::probe_stamp", {slot, isTmem, pipeId, k});
        callVoid("tp::umma_arrive", {barriers(p.full), intLit(p.depth), k});
      });
    } else if (via == "arrive") {
      agentSync();
      inLeader([&] {
        callVoid("tp::probe_stamp", {slot, isTmem, pipeId, k});
        callVoid("tp::mbar_arrive", {barriers(p.full), intLit(p.depth), k});
      });
    } else if (via == "cpasync_arrive") {
      // Each thread's async arrive holds the phase open until its copies
      // land (it adds one pending arrival and removes it on completion);
      // the one counted arrival follows once every thread has issued.
      callVoid("tp::cp_async_arrive", {barriers(p.full), intLit(p.depth), k});
      agentSync();
      inLeader([&] {
        callVoid("tp::probe_stamp", {slot, isTmem, pipeId, k});
        callVoid("tp::mbar_arrive", {barriers(p.full), intLit(p.depth), k});
      });
    } else {
      return emitError(op->getLoc())
             << "a commit via \"" << via << "\" is not translated to CUDA";
    }
    return success();
  }
  auto release = cast<tileas::PipeConsumerReleaseOp>(op);
  StringRef via = release.getVia();
  // Every release arrives once the consumer's reads have ended: a UMMA's
  // through tcgen05.commit (PTX orders no later write behind an MMA's
  // reads, not even this thread's next MMA into another accumulator), a
  // TMA store's after tp::tma_store waited for its reads, SIMT threads'
  // after their loads.
  if (via != "tcgen05_commit" && via != "bulk_wait" && via != "arrive")
    return emitError(loc) << "a release via \"" << via
                          << "\" is not translated to CUDA";
  Value slot = slotAddress(p, k);
  if (via == "arrive")
    agentSync();
  inLeader([&] {
    // The harness checks the slot still holds this iteration's payload,
    // unless another pipe's commit may already have overwritten it in place
    // (an accumulator rescaled and accumulated into one buffer).
    if (!p.sharedBuffer)
      callVoid("tp::probe_check", {slot, isTmem, pipeId, k});
    // A ring tile read by fewer consumer groups than the ring's others
    // arrives for the difference (each tcgen05.commit arrives once).
    for (int32_t n = 0, e = joined ? 0 : release.getArrivals().value_or(1);
         n < e; ++n) {
      if (via == "tcgen05_commit")
        callVoid("tp::umma_arrive", {barriers(p.empty), intLit(p.depth), k});
      else
        callVoid("tp::mbar_arrive", {barriers(p.empty), intLit(p.depth), k});
    }
  });
  return success();
}

/// The one place a TMA load is issued, for pipe slots and the prologue's
/// tiles alike: the elected thread copies the box into `dst` and completes
/// its bytes on barrier `k % depth` of `bars`.
LogicalResult KernelEmitter::emitTmaLoad(tileas::TmaLoadOp load, Value dst,
                                         Value bars, int64_t depth, Value k,
                                         int64_t id) {
  Location loc = load.getLoc();
  Value desc = lookup(loc, load.getDesc());
  SmallVector<Value> coords;
  for (Value c : load.getCoords())
    coords.push_back(lookup(loc, c));
  if (broken)
    return failure();
  FailureOr<RuntimeCall> tma = tmaCall(load, layout);
  if (failed(tma))
    return failure();
  inLeader([&] {
    // The layout's boxes, at the tile's coordinates (outermost first).
    SmallVector<Value> args = {dst, desc, bars, intLit(depth), k, intLit(id)};
    llvm::append_range(args, coords);
    callVoid(tma->callee, args, tma->templateArgs);
  });
  return success();
}

LogicalResult KernelEmitter::emitTileOp(Operation *op) {
  Location loc = op->getLoc();
  auto operand = [&](unsigned i) { return lookup(loc, op->getOperand(i)); };
  auto shaped = [](Value v) { return cast<ShapedType>(v.getType()); };
  auto elem = [&](Value v) { return elementName(shaped(v).getElementType()); };
  auto str = [](int64_t v) { return std::to_string(v); };

  if (auto load = dyn_cast<tileas::TmaLoadOp>(op); load && !load.getDst())
    return emitEpilogueLoad(load);
  if (auto load = dyn_cast<tileas::TmaLoadOp>(op)) {
    auto acquire = tileas::stripViews(load.getDst())
                       .getDefiningOp<tileas::PipeProducerAcquireOp>();
    const PipeLayout &p = pipeOf(acquire.getPipe());
    Value slot = lookup(loc, load.getDst()), k = lookup(loc, acquire.getIter());
    if (!broken)
      k = pipeIter(p, k, false);
    if (broken ||
        failed(emitTmaLoad(load, slot, barriers(p.full), p.depth, k, p.id)))
      return failure();
    map[load.getResult()] = slot;
    return success();
  }
  // A view is the slot's address, laid out for its own readers.
  if (auto view = dyn_cast<tileas::SmemViewOp>(op)) {
    map[view.getResult()] = operand(0);
    return success();
  }
  if (auto store = dyn_cast<tileas::TmaStoreOp>(op)) {
    Value buf = operand(0), desc = lookup(loc, store.getDesc());
    SmallVector<Value> coords;
    for (Value c : store.getCoords())
      coords.push_back(lookup(loc, c));
    if (broken)
      return failure();
    FailureOr<RuntimeCall> tma = tmaCall(store, layout);
    if (failed(tma))
      return failure();
    // The agent's threads wrote the tile through the generic proxy.
    callVoid("tp::fence_proxy_async", {});
    agentSync();
    inLeader([&] {
      SmallVector<Value> args = {desc, buf};
      llvm::append_range(args, coords);
      callVoid(tma->callee, args, tma->templateArgs);
    });
    return success();
  }
  if (auto copy = dyn_cast<tileas::CpAsyncOp>(op)) {
    auto src = cast<MemRefType>(copy.getSrc().getType());
    auto tile = cast<ShapedType>(copy.getType());
    if (!copy.getDst() || copy.getCoords().size() != 2 || src.getRank() != 2 ||
        tile.getRank() != 2)
      return emitError(loc, "only 2-D cp.async copies into a pipe slot are "
                            "translated to CUDA");
    Value dst = lookup(loc, copy.getDst()), from = lookup(loc, copy.getSrc());
    Value r0 = lookup(loc, copy.getCoords()[0]),
          c0 = lookup(loc, copy.getCoords()[1]);
    if (broken)
      return failure();
    callVoid("tp::cp_async_tile",
             {dst, from, r0, c0, tid, intLit(layout.agents[agent].threads())},
             {str(tile.getShape()[0]), str(tile.getShape()[1]),
              elem(copy.getResult()), str(src.getShape()[1])});
    map[copy.getResult()] = dst;
    return success();
  }
  if (auto copy = dyn_cast<tileas::TmemCopyOp>(op)) {
    Value src = operand(0);
    if (broken)
      return failure();
    Value dst =
        copy.getDst()
            ? lookup(loc, copy.getDst())
            : literal(u32(),
                      "(tp_tmem + " +
                          Twine(layout.tmemBuffers.lookup(copy.getResult())) +
                          ")");
    FailureOr<RuntimeCall> cp = tmemCopyCall(copy, layout);
    if (failed(cp))
      return failure();
    if (auto sc = layout.scaleCopies.find(copy); sc != layout.scaleCopies.end()) {
      // Copy n goes to buffer n % 2 once the MMA that read copy n - 2 from
      // it has completed (its commit arrives on barrier n % 2). Only the
      // elected thread copies, so only it waits: the commit can complete
      // the phase before a lagging warp of the agent reaches its wait,
      // which then waits for the next phase, which needs that warp to go
      // on (the CPU emulator deadlocked peeled block-scaled GEMM so).
      Value n = scaleCount(copy);
      inLeader([&] {
        callVoid("tp::mbar_wait", {barriers(sc->second.barriers), intLit(2),
                                   n, literal(u32(), "1")});
        callVoid("tp::tcgen05_after", {});
      });
      dst = call(u32(), "tp::tmem_slot",
                 {literal(u32(), "(tp_tmem + " + Twine(sc->second.column) + ")"),
                  intLit(sc->second.cols), intLit(2), n});
    }
    inLeader([&] { callVoid(cp->callee, {dst, src}, cp->templateArgs); });
    map[copy.getResult()] = dst;
    return success();
  }
  if (auto mma = dyn_cast<tileas::UmmaOp>(op)) {
    Value a = operand(0), bv = operand(1), acc = operand(2);
    SmallVector<Value> scales;
    if (mma.getScaleA()) // Block-scaled: the factors tmem_copy put in TMEM.
      scales = {lookup(loc, mma.getScaleA()), lookup(loc, mma.getScaleB())};
    if (broken)
      return failure();
    FailureOr<RuntimeCall> umma = ummaCall(mma, layout);
    if (failed(umma))
      return failure();
    std::optional<UnsetAccumulator> unset =
        unsetAccumulator(mma.getAcc(), layout);
    inLeader([&] {
      // enable-input-d: as the IR says, except that an accumulator without
      // an initial value is overwritten by its first MMA (RuntimeCalls.h).
      Value enable = boolLit(mma.getAccumulate());
      if (unset)
        enable = call(i1(), "tp::acc_enable",
                      {accMask(*unset), acc, accBase(*unset),
                       intLit(unset->slotCols), enable});
      SmallVector<Value> args = {acc, a, bv};
      llvm::append_range(args, scales);
      args.push_back(enable);
      callVoid(umma->callee, args, umma->templateArgs);
      // Frees the double-buffered scale factors once this MMA completes.
      for (Value sf : {mma.getScaleA(), mma.getScaleB()})
        if (Operation *copy = sf ? sf.getDefiningOp() : nullptr;
            copy && layout.scaleCopies.count(copy))
          callVoid("tp::umma_arrive",
                   {barriers(layout.scaleCopies.lookup(copy).barriers),
                    intLit(2), scaleCount(copy)});
    });
    for (Value sf : {mma.getScaleA(), mma.getScaleB()})
      if (Operation *copy = sf ? sf.getDefiningOp() : nullptr;
          copy && layout.scaleCopies.count(copy)) {
        Value n = scaleCount(copy);
        b.create<emitc::AssignOp>(
            loc, n, b.create<emitc::AddOp>(loc, i64(), n, intLit(1)));
      }
    map[mma.getResult()] = acc;
    return success();
  }
  if (isa<tileas::TmemLoadOp, tileas::SmemLoadOp>(op)) {
    Value src = operand(0);
    if (broken)
      return failure();
    Value result = op->getResult(0);
    FailureOr<Type> type = convert(loc, result);
    if (failed(type))
      return failure();
    auto t = cast<RankedTensorType>(result.getType());
    int64_t n = *fragSize(loc, result);
    int64_t cols = t.getRank() >= 2 ? t.getShape()[1] : 1;
    std::vector<std::string> targs = {str(cols),
                                      elementName(t.getElementType()), str(n)};
    bool tmem = isa<tileas::TmemLoadOp>(op);
    std::string l = tmem ? tmemLayoutArg(op->getOperand(0)) : "";
    if (tmem && failed(checkTmemRows(loc, t, l)))
      return failure();
    if (!l.empty())
      targs.push_back(l);
    map[result] = call(*type, tmem ? "tp::tmem_load" : "tp::smem_load",
                       {src, tmem ? tid : rowsOf(result)}, targs);
    return success();
  }
  if (isa<tileas::TmemStoreOp, tileas::SmemStoreOp>(op)) {
    Value frag = operand(0);
    if (broken)
      return failure();
    Value dst = storeAddress(op);
    if (broken)
      return failure();
    Value stored = op->getOperand(0);
    auto t = cast<RankedTensorType>(stored.getType());
    FailureOr<int64_t> n = fragSize(loc, stored);
    if (failed(n))
      return failure();
    int64_t cols = t.getRank() >= 2 ? t.getShape()[1] : 1;
    std::vector<std::string> targs = {str(cols),
                                      elementName(t.getElementType()), str(*n)};
    bool tmem = isa<tileas::TmemStoreOp>(op);
    if (!tmem)
      if (const TileLayout *tile = mmaTileOf(op->getResult(0)))
        return emitMmaOperandStore(op, *tile, frag, dst, *n);
    std::string l = tmem ? tmemStoreLayoutArg(op) : "";
    if (tmem && failed(checkTmemRows(loc, t, l)))
      return failure();
    if (!l.empty())
      targs.push_back(l);
    // A per-column vector: every thread writes all of it (the same bytes).
    callVoid(tmem ? "tp::tmem_store" : "tp::smem_store",
             {dst, frag, tmem ? tid : rowsOf(stored)}, targs);
    map[op->getResult(0)] = dst;
    return success();
  }
  if (auto broadcast = dyn_cast<tileas::BroadcastOp>(op))
    return emitBroadcast(broadcast);
  if (isa<tileas::AddOp, tileas::SubOp, tileas::MulOp, tileas::MaxOp,
          tileas::Exp2Op, tileas::FmaOp, tileas::CvtOp, tileas::ReduceMaxOp,
          tileas::ReduceSumOp>(op)) {
    SmallVector<Value> operands;
    for (Value v : op->getOperands()) {
      Value m = lookup(loc, v);
      if (broken)
        return failure();
      if (!isa<RankedTensorType>(v.getType())) // A scalar operand of fma.
        m = call(opaque("tp::Frag<float, 1>"), "tp::splat", {m},
                 {"float", "1"});
      operands.push_back(m);
    }
    FailureOr<Type> type = convert(loc, op->getResult(0));
    if (failed(type))
      return failure();
    pinWide(op, operands);
    std::string name = op->getName().stripDialect().str();
    std::vector<std::string> targs;
    if (isa<tileas::CvtOp>(op))
      targs = {elementName(
          cast<ShapedType>(op->getResult(0).getType()).getElementType())};
    if (isa<tileas::ReduceMaxOp, tileas::ReduceSumOp>(op))
      // Rows, and the pieces a streamed row folds in: one order for both.
      targs = {str(*fragSize(
                   loc, cast<RankedTensorType>(op->getResult(0).getType()))),
               str(streams.width())};
    map[op->getResult(0)] = call(*type, "tp::" + name, operands, targs);
    return success();
  }
  return emitError(op->getLoc())
         << "'" << op->getName() << "' is not translated to CUDA yet";
}

/// A broadcast a reader needs whole (TileStreams streams the others): each
/// thread's rows of the result, made from the vector as the thread holds it,
/// whole for a per-column vector, its rows' values for a per-row one.
LogicalResult KernelEmitter::emitBroadcast(tileas::BroadcastOp op) {
  Location loc = op.getLoc();
  bool alongColumns = op.isColumnBroadcast();
  if (!alongColumns && !op.isRowBroadcast())
    return op.emitError("only broadcasts of a vector over a rank-2 tile, "
                        "dimensions = [0] or [1], are translated to CUDA");
  Value vector = lookup(loc, op.getInput());
  if (broken)
    return failure();
  FailureOr<Type> type = convert(loc, op.getResult());
  FailureOr<int64_t> n = fragSize(loc, op.getResult());
  if (failed(type) || failed(n))
    return failure();
  // bcast_cols<R>: R rows of the whole vector; bcast_rows<C>: each of the
  // thread's row values C times.
  auto shape = op.getResult().getType().getShape();
  map[op.getResult()] = alongColumns ? call(*type, "tp::bcast_cols", {vector},
                                            {std::to_string(*n / shape[1])})
                                     : call(*type, "tp::bcast_rows", {vector},
                                            {std::to_string(shape[1])});
  return success();
}

/// Math on a register tile held whole starts where the IR puts it: its
/// operands wider than a piece are pinned there (tp::pin says why).
void KernelEmitter::pinWide(Operation *op, ValueRange operands) {
  for (auto [ir, cxx] : llvm::zip(op->getOperands(), operands))
    if (auto t = dyn_cast<RankedTensorType>(ir.getType());
        t && t.getRank() == 2 && t.getShape()[1] > streams.width())
      callVoid("tp::pin", {cxx});
}

/// The UMMA layout of the SMEM tile `v`, when a UMMA reads it; else null.
const TileLayout *KernelEmitter::mmaTileOf(Value v) {
  const TileLayout *l = layout.tiles.of(v);
  return l && l->kind == TileLayout::Kind::Mma ? l : nullptr;
}

/// Threads write a UMMA operand (attention's P at 64 rows): each thread its
/// whole row, chunk by chunk at the swizzled offsets the UMMA's descriptor
/// reads (docs/cuda.md, "P through SMEM"). The materializer's proxy fence
/// before the slot's commit makes the writes visible to the MMA.
LogicalResult KernelEmitter::emitMmaOperandStore(Operation *op,
                                                 const TileLayout &tile,
                                                 Value frag, Value dst,
                                                 int64_t n) {
  Value stored = op->getOperand(0);
  auto t = cast<RankedTensorType>(stored.getType());
  if (columns.contains(stored) || t.getRank() != 2 || n != t.getShape()[1])
    return emitError(op->getLoc())
           << "a UMMA operand in SMEM is written by threads one whole row "
              "each; this "
           << t << " is not held a row per thread";
  callVoid("tp::smem_store_mma", {dst, frag, rowsOf(stored)},
           {tile.cppType, elementName(t.getElementType()), std::to_string(n)});
  map[op->getResult(0)] = dst;
  return success();
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
    return call(u32(), "tp::smem_addr",
                {literal(opaque("void *"),
                         "S." + layout.smemBuffers.lookup(op->getResult(0)))});
  return literal(u32(), "(tp_tmem + " +
                            Twine(layout.tmemBuffers.lookup(op->getResult(0))) +
                            ")");
}

/// gpu.block_id and gpu.grid_dim: the CUDA built-ins, widened to int64_t as
/// every index value is.
LogicalResult KernelEmitter::emitGridIndex(Operation *op) {
  if (persistent) {
    auto id = dyn_cast<gpu::BlockIdOp>(op);
    unsigned d = unsigned(id ? id.getDimension()
                             : cast<gpu::GridDimOp>(op).getDimension());
    if (id && !tileId[d])
      return emitError(op->getLoc(), "a persistent kernel reads the block "
                                     "index only inside its agents' tiles");
    map[op->getResult(0)] = id ? tileId[d] : tiles[d];
    return success();
  }
  std::string builtin;
  if (auto id = dyn_cast<gpu::BlockIdOp>(op))
    builtin = ("blockIdx." + gpu::stringifyDimension(id.getDimension())).str();
  else
    builtin = ("gridDim." +
               gpu::stringifyDimension(cast<gpu::GridDimOp>(op).getDimension()))
                  .str();
  map[op->getResult(0)] =
      b.create<emitc::CastOp>(op->getLoc(), i64(), literal(u32(), builtin));
  return success();
}

/// A tile loaded after the loop (an epilogue's source tile C): the agent's
/// threads are done with the bytes it lands on (the tile before's reads, in
/// a persistent kernel), the elected thread loads it, and every thread waits
/// for it on its own barrier, whose phase is the tile's count.
LogicalResult KernelEmitter::emitEpilogueLoad(tileas::TmaLoadOp load) {
  Location loc = load.getLoc();
  Value tile =
      call(u32(), "tp::smem_addr",
           {literal(opaque("void *"),
                    "S." + layout.smemBuffers.lookup(load.getResult()))});
  auto it = layout.epilogueLoads.find(load);
  Value bars = barriers(it->second);
  int64_t id = int64_t(layout.pipes.size() + layout.prologue.loads.size() +
                       (it - layout.epilogueLoads.begin()));
  // One tile, phase 0; a persistent kernel counts its tiles.
  Value count;
  if (persistent) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(tileLoop);
    count = b.create<emitc::VariableOp>(loc, i64(), b.getI64IntegerAttr(0));
  }
  Value k = count ? count : intLit(0);
  int64_t bytes = tileas::getTileSizeInBytes(cast<ShapedType>(load.getType()));
  agentSync();
  inLeader([&] {
    callVoid("tp::mbar_arrive_expect_tx",
             {bars, intLit(1), k, literal(u32(), Twine(bytes) + "u")});
  });
  if (failed(emitTmaLoad(load, tile, bars, 1, k, id)))
    return failure();
  callVoid("tp::mbar_wait", {bars, intLit(1), k, literal(u32(), "0")});
  if (count)
    b.create<emitc::AssignOp>(
        loc, count, b.create<emitc::AddOp>(loc, i64(), count, intLit(1)));
  map[load.getResult()] = tile;
  return success();
}

/// The prologue runs at kernel scope, once the barriers are initialised and
/// before the roles split: index arithmetic every agent reads is computed
/// once for all of them, and the tiles the loop reads whole are loaded by
/// one elected thread. Every thread waits for those tiles here, so that no
/// agent has to know where they came from.
LogicalResult KernelEmitter::emitPrologue() {
  const KernelPrologue &prologue = layout.prologue;
  if (!prologue.loads.empty())
    leader = call(i1(), "tp::elect_leader", {intLit(0)});
  oneWarpAgent = false;
  // Harness stamps of prologue tiles take the ids after the pipes'.
  int64_t id = int64_t(layout.pipes.size());
  for (Operation *op : prologue.ops) {
    auto load = dyn_cast<tileas::TmaLoadOp>(op);
    if (!load) {
      if (failed(emitOp(op)) || broken)
        return failure();
      continue;
    }
    Value tile =
        call(u32(), "tp::smem_addr",
             {literal(opaque("void *"),
                      "S." + layout.smemBuffers.lookup(load.getResult()))});
    Value bars = barriers(layout.prologueBarrier);
    int64_t bytes =
        tileas::getTileSizeInBytes(cast<ShapedType>(load.getType()));
    inLeader([&] {
      callVoid(
          "tp::mbar_arrive_expect_tx",
          {bars, intLit(1), intLit(0), literal(u32(), Twine(bytes) + "u")});
    });
    if (failed(emitTmaLoad(load, tile, bars, 1, intLit(0), id++)))
      return failure();
    map[load.getResult()] = tile;
  }
  if (!prologue.loads.empty())
    callVoid("tp::mbar_wait", {barriers(layout.prologueBarrier), intLit(1),
                               intLit(0), literal(u32(), "0")});
  return success();
}

/// The agent's body once per tile: the tile's block index from the tile
/// number, the prologue's index arithmetic for it, the body with every pipe
/// iteration moved past the iterations earlier tiles used, and the written
/// masks of accumulators cleared (each tile's first MMA starts afresh).
LogicalResult KernelEmitter::emitTiles(Block *body) {
  Location loc = func.getLoc();
  pipeTile.clear();
  Value first = b.create<emitc::CastOp>(loc, i64(), literal(u32(), "blockIdx.x"));
  Value step = b.create<emitc::CastOp>(loc, i64(), literal(u32(), "gridDim.x"));
  Value xy = b.create<emitc::MulOp>(loc, i64(), tiles[0], tiles[1]);
  Value count = b.create<emitc::MulOp>(loc, i64(), xy, tiles[2]);
  tileLoop = b.create<emitc::ForOp>(loc, first, count, step);
  OpBuilder::InsertionGuard guard(b);
  enter(tileLoop.getRegion());
  Value t = tileLoop.getInductionVar();
  tileId[0] = b.create<emitc::RemOp>(loc, i64(), t, tiles[0]);
  Value rest = b.create<emitc::DivOp>(loc, i64(), t, tiles[0]);
  tileId[1] = b.create<emitc::RemOp>(loc, i64(), rest, tiles[1]);
  tileId[2] = b.create<emitc::DivOp>(loc, i64(), t, xy);
  tileStart = tileId[2].getDefiningOp();
  Value savedLeader = leader;
  bool savedOneWarp = oneWarpAgent;
  if (failed(emitPrologue()))
    return failure();
  leader = savedLeader;
  oneWarpAgent = savedOneWarp;
  if (failed(emitBlock(*body)))
    return failure();
  for (auto &[id, vars] : pipeTile)
    b.create<emitc::AssignOp>(
        loc, vars.first,
        b.create<emitc::AddOp>(loc, i64(), vars.first, vars.second));
  if (accMaskAgent == agent) {
    OpBuilder::InsertionGuard start(b);
    b.setInsertionPointAfter(tileStart);
    for (auto &[column, mask] : accMasks)
      b.create<emitc::AssignOp>(loc, mask, literal(u32(), "0u"));
  }
  for (Value &v : tileId)
    v = Value();
  return success();
}

/// Pipe iteration `raw` of the current tile, as the pipe counts it across
/// tiles. `count` notes that the tile used it (acquires and waits: every
/// iteration a tile uses is acquired by its producer and waited for by its
/// consumers, so both sides count the same). Each side takes a pipe's
/// iterations in order, so the last one noted is the tile's count.
Value KernelEmitter::pipeIter(const PipeLayout &p, Value raw, bool count) {
  if (!persistent)
    return raw;
  Location loc = func.getLoc();
  // A joined pipe counts with the pipe it joins (the same iterations): one
  // base, so the compiler sees one slot index and phase for both.
  unsigned key = p.id;
  if (Value joined = tileas::PipeCreateOp(p.op).getJoins())
    key = layout.pipeIds.lookup(joined.getDefiningOp());
  auto [it, fresh] = pipeTile.try_emplace(key);
  if (fresh) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(tileLoop);
    it->second.first =
        b.create<emitc::VariableOp>(loc, i64(), b.getI64IntegerAttr(0));
    b.setInsertionPointAfter(tileStart);
    it->second.second =
        b.create<emitc::VariableOp>(loc, i64(), b.getI64IntegerAttr(0));
    tileStart = it->second.second.getDefiningOp();
  }
  auto [base, used] = it->second;
  // The pipe it joins counts the same iterations.
  if (count && key == p.id)
    b.create<emitc::AssignOp>(
        loc, used, b.create<emitc::AddOp>(loc, i64(), raw, intLit(1)));
  return b.create<emitc::AddOp>(loc, i64(), raw, base);
}

LogicalResult KernelEmitter::emitAgent(unsigned index, Block *body) {
  agent = index;
  const AgentLayout &a = layout.agents[index];
  Location loc = a.op ? a.op->getLoc() : func.getLoc();
  auto ifOp = b.create<emitc::IfOp>(
      loc,
      literal(i1(), llvm::formatv("(tp_warp >= {0} && tp_warp < {1})",
                                  a.firstWarp, a.firstWarp + a.warps)
                        .str()),
      /*addThenBlock=*/true, /*addElseBlock=*/false);
  OpBuilder::InsertionGuard guard(b);
  enter(ifOp.getThenRegion());
  std::string tidText =
      llvm::formatv("(int(threadIdx.x) - {0})", a.firstWarp * 32).str();
  tid = literal(b.getI32Type(), tidText);
  row64 = literal(b.getI32Type(), "tp::row64" + tidText);
  leader = call(i1(), "tp::elect_leader", {intLit(a.firstWarp)});
  oneWarpAgent = a.syncBarrier < 0 && a.warps == 1;
  agentValues.clear();
  // Each mbarrier mutex counts this agent's locks (the wait parity).
  mutexLocks.clear();
  for (Operation *create : layout.mutexOrder)
    if (layout.mutexBarriers.count(create))
      mutexLocks[create] =
          b.create<emitc::VariableOp>(loc, i64(), b.getI64IntegerAttr(0));
  // The last group of a named-barrier mutex lets group 0 go first.
  for (Operation *create : layout.mutexOrder) {
    std::pair<int, int> ids = layout.mutexes.lookup(create);
    if (ids.first < 0)
      continue;
    auto mutex = cast<tileas::MutexCreateOp>(create);
    int64_t last = mutex.getGroups() - 1;
    for (Operation *user : mutex.getResult().getUsers()) {
      APInt g;
      if (isa<tileas::MutexLockOp>(user) && agentOf(layout, user) == index &&
          matchPattern(user->getOperand(1), m_ConstantInt(&g)) &&
          g.getSExtValue() == last) {
        callVoid("tp::named_arrive", {intLit(ids.first), intLit(ids.second)});
        break;
      }
    }
  }
  streams.beginAgent(a.op ? a.op : func.getOperation(), tid, a.threads(),
                     a.maxRegs ? a.maxRegs : layout.launchRegs);
  LogicalResult result = persistent ? emitTiles(body) : emitBlock(*body);
  streams.endAgent();
  return result;
}

std::string KernelEmitter::smemStruct() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Shared memory of " << layout.name << ": tiles, barriers, the TMEM "
     << "base.\nstruct tp_smem_" << layout.name << " {\n";
  for (const SmemMember &m : layout.smem) {
    if (m.align == 8)
      os << "  alignas(8) uint64_t " << m.name << "[" << m.bytes / 8 << "];\n";
    else if (m.name == "tmem_base")
      os << "  uint32_t tmem_base;\n";
    else
      os << "  alignas(" << m.align << ") uint8_t " << m.name << "[" << m.bytes
         << "]; // " << m.comment << "\n";
  }
  os << "};";
  return os.str();
}

LogicalResult KernelEmitter::emit() {
  Location loc = func.getLoc();
  if (func.getNumResults())
    return emitError(func.getLoc(),
                     "a kernel returns nothing: store the results "
                     "through a TMA descriptor instead");
  // Parameters: descriptors by value (__grid_constant__), scalars as they
  // are. An SMEM tile cannot be passed to a kernel: it says where its data
  // comes from with a TMA load in the prologue instead.
  SmallVector<Type> params;
  for (BlockArgument arg : func.getArguments()) {
    Type t = arg.getType();
    if (auto smem = dyn_cast<tileas::SmemType>(t))
      return emitError(arg.getLoc())
             << "an SMEM tile passed to a kernel has no data: pass its "
                "tensor map, "
             << tileas::TmaDescType::get(smem.getShape(), smem.getElementType())
             << ", and load the tile before the loop with `tileas.tma_load "
                "%desc[%row, %col]`, its coordinates computed from "
                "gpu.block_id (docs/cuda.md)";
    if (isa<tileas::TmaDescType>(t))
      params.push_back(opaque("const __grid_constant__ tp::TmaDesc"));
    else if (t.isIndex())
      params.push_back(i64());
    else if (isa<IntegerType, FloatType>(t))
      params.push_back(t);
    else if (auto memref = dyn_cast<MemRefType>(t);
             memref && memref.hasStaticShape() &&
             !elementName(memref.getElementType()).empty())
      // A global source of cp.async: a row-major pointer.
      params.push_back(
          opaque("const " + elementName(memref.getElementType()) + " *"));
    else if (auto tensor = dyn_cast<RankedTensorType>(t);
             tensor && !elementName(tensor.getElementType()).empty())
      // A register tile passed in lives in global memory, row-major; each
      // agent that uses it loads its threads' rows (lookup).
      params.push_back(
          opaque("const " + elementName(tensor.getElementType()) + " *"));
    else
      return emitError(arg.getLoc()) << "a kernel parameter of type " << t
                                     << " is not translated to CUDA";
    passed.push_back(arg);
  }
  FailureOr<llvm::DenseSet<Value>> perColumn = collectColumnVectors(func);
  if (failed(perColumn))
    return failure();
  columns = std::move(*perColumn);
  streams.setColumnVectors(&columns);
  // A persistent kernel is also told the grid it stands for: it runs those
  // tiles on the CTAs it is launched with.
  persistent = func->hasAttr("tileas.persistent");
  if (persistent)
    params.append(3, i64());
  b.create<emitc::VerbatimOp>(loc, smemStruct());
  kernel =
      b.create<emitc::FuncOp>(loc, layout.name, b.getFunctionType(params, {}));
  kernel.setSpecifiersAttr(b.getStrArrayAttr(
      {"__global__",
       llvm::formatv("__launch_bounds__({0}, 1)", layout.threads()).str()}));
  Block *entry = kernel.addEntryBlock();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(entry);
  for (auto [arg, param] : llvm::zip(passed, entry->getArguments()))
    map[arg] = param;
  if (persistent)
    for (unsigned d = 0; d < 3; ++d)
      tiles[d] = entry->getArgument(passed.size() + d);

  // Prologue: barriers initialised by one thread, TMEM allocated by warp 0,
  // and everyone meets before any agent starts.
  std::string pro;
  llvm::raw_string_ostream os(pro);
  os << "extern __shared__ __align__(1024) unsigned char tp_smem_raw[];\n"
     << "tp_smem_" << layout.name << " &S = *reinterpret_cast<tp_smem_"
     << layout.name << " *>(tp_smem_raw);\n"
     << "const int tp_warp = tp::warp_idx();\n"
     << "if (threadIdx.x == 0) {\n";
  for (const PipeLayout &p : layout.pipes) {
    if (p.full == "full" + std::to_string(p.id))
      os << "  for (int i = 0; i < " << p.depth << "; ++i) tp::mbar_init(&S."
         << p.full << "[i], " << p.fullCount << ");\n";
    if (p.empty == "empty" + std::to_string(p.id))
      os << "  for (int i = 0; i < " << p.depth << "; ++i) tp::mbar_init(&S."
         << p.empty << "[i], " << p.emptyCount << ");\n";
  }
  for (Operation *create : layout.mutexOrder)
    if (std::string name = layout.mutexBarriers.lookup(create); !name.empty())
      os << "  for (int i = 0; i < "
         << cast<tileas::MutexCreateOp>(create).getGroups()
         << "; ++i) tp::mbar_init(&S." << name << "[i], 1);\n";
  if (!layout.prologueBarrier.empty())
    os << "  tp::mbar_init(&S." << layout.prologueBarrier << "[0], "
       << layout.prologue.loads.size() << ");\n";
  for (auto &[load, bar] : layout.epilogueLoads)
    os << "  tp::mbar_init(&S." << bar << "[0], 1);\n";
  for (Operation *copy : layout.scaleCopyOrder)
    os << "  for (int i = 0; i < 2; ++i) tp::mbar_init(&S."
       << layout.scaleCopies.lookup(copy).barriers << "[i], 1);\n";
  // The CPU emulator names the barrier arrays in its deadlock and fault
  // reports ("full0[2]" rather than a shared address).
  os << "#if defined(TILEPIPE_CPU)\n";
  auto name = [&](StringRef field) {
    os << "  tp::cpu::name_shared(tp::smem_addr(S." << field << "), sizeof S."
       << field << ", \"" << field << "\");\n";
  };
  for (const PipeLayout &p : layout.pipes) {
    if (p.full == "full" + std::to_string(p.id))
      name(p.full);
    if (p.empty == "empty" + std::to_string(p.id))
      name(p.empty);
  }
  for (Operation *create : layout.mutexOrder)
    if (std::string field = layout.mutexBarriers.lookup(create); !field.empty())
      name(field);
  if (!layout.prologueBarrier.empty())
    name(layout.prologueBarrier);
  for (Operation *copy : layout.scaleCopyOrder)
    name(layout.scaleCopies.lookup(copy).barriers);
  for (auto &[load, bar] : layout.epilogueLoads)
    name(bar);
  os << "#endif\n";
  os << "  tp::fence_mbarrier_init();\n}\n";
  if (layout.tmemAllocated)
    os << "if (tp_warp == 0) tp::tmem_alloc(&S.tmem_base, "
       << layout.tmemAllocated << ");\n";
  os << "tp::tcgen05_before();\n__syncthreads();\ntp::tcgen05_after();\n"
     << "const uint32_t tp_tmem = S.tmem_base;\n(void)tp_tmem;";
  b.create<emitc::VerbatimOp>(loc, os.str());
  if (persistent) {
    if (!layout.prologue.loads.empty())
      return emitError(func.getLoc(),
                       "a persistent kernel loads no tiles before its "
                       "agents (each tile would need its own)");
  } else if (failed(emitPrologue())) {
    return failure();
  }

  // setmaxnreg is warpgroup-wide (.sync.aligned): every warp of a group,
  // idle ones too, runs the same instruction before the roles split.
  int groups = layout.warps / 4;
  SmallVector<int> groupRegs(groups, 0);
  for (const AgentLayout &a : layout.agents) {
    int g = a.firstWarp / 4;
    if (!a.maxRegs || g >= groups)
      continue;
    if (groupRegs[g] && groupRegs[g] != a.maxRegs)
      return emitError(a.op->getLoc())
             << "agents sharing warpgroup " << g
             << " ask for different register counts";
    groupRegs[g] = a.maxRegs;
  }
  auto setmaxnreg = [&](int g) {
    callVoid(groupRegs[g] >= layout.launchRegs ? "tp::setmaxnreg_inc"
                                               : "tp::setmaxnreg_dec",
             {}, {std::to_string(groupRegs[g])});
  };
  auto inWarps = [&](const Twine &cond) {
    auto ifOp = b.create<emitc::IfOp>(loc, literal(i1(), "(" + cond + ")"),
                                      /*addThenBlock=*/true,
                                      /*addElseBlock=*/false);
    enter(ifOp.getThenRegion());
  };

  bool specialized = layout.agents.front().op != nullptr;
  if (!specialized)
    return finish(emitAgent(0, &func.getBody().front()));
  for (Operation &op : func.getBody().front()) {
    if (isa<func::ReturnOp, tileas::AgentOp>(op) ||
        layout.prologue.ops.contains(&op))
      continue;
    // A per-column vector read from SMEM (gamma, loaded before the loop) and
    // math on it: each agent that reads it makes it itself, streamed where
    // it can be (TileStreams::columnNode), else at its start (lookup).
    if (op.getNumResults() == 1 && columns.contains(op.getResult(0)) &&
        (isa<tileas::SmemLoadOp>(op) || elementwiseCall(&op)))
      continue;
    if (!isa<arith::ConstantOp, tensor::SplatOp, tileas::PipeCreateOp,
             tileas::MutexCreateOp, tileas::AllocSmemOp, tileas::AllocTmemOp>(
            op))
      return emitError(op.getLoc(),
                       "only constants, scalar broadcasts, storage, index "
                       "arithmetic and TMA loads of whole tiles may sit "
                       "outside the agents of "
                       "a warp-specialized function (the prologue runs "
                       "them once, before the roles split)");
    if (failed(emitOp(&op)))
      return failure();
  }
  auto emitAgents = [&](int g0, int g1) -> LogicalResult {
    for (auto [i, a] : llvm::enumerate(layout.agents))
      if (a.firstWarp / 4 >= g0 && a.firstWarp / 4 < g1 &&
          failed(emitAgent(unsigned(i),
                           &cast<tileas::AgentOp>(a.op).getBody().front())))
        return failure();
    return success();
  };
  if (llvm::all_of(groupRegs, [](int r) { return r == 0; }))
    return finish(emitAgents(0, std::max(groups, 1)));
  // The agents run inside their warpgroups' branch, after its setmaxnreg:
  // ptxas then sees that code after a setmaxnreg.dec is the small agents'
  // only, and allocates each branch within its own count. With the
  // setmaxnreg in branches of their own, every agent lay on a path through
  // the decrease, and the consumers spilled. Warpgroups an agent spans share
  // one branch.
  for (int g0 = 0; g0 < groups;) {
    int g1 = g0 + 1;
    for (bool grown = true; grown;) {
      grown = false;
      for (const AgentLayout &a : layout.agents)
        if (a.firstWarp / 4 >= g0 && a.firstWarp / 4 < g1 &&
            (a.firstWarp + a.warps + 3) / 4 > g1) {
          g1 = (a.firstWarp + a.warps + 3) / 4;
          grown = true;
        }
    }
    OpBuilder::InsertionGuard guard(b);
    inWarps(g1 == g0 + 1 ? llvm::formatv("tp_warp / 4 == {0}", g0).str()
                         : llvm::formatv("tp_warp / 4 >= {0} && tp_warp / 4 < {1}",
                                         g0, g1)
                               .str());
    for (int g = g0; g < g1; ++g) {
      if (!groupRegs[g])
        continue;
      OpBuilder::InsertionGuard inner(b);
      if (g1 - g0 > 1)
        inWarps(llvm::formatv("tp_warp / 4 == {0}", g).str());
      setmaxnreg(g);
    }
    if (failed(emitAgents(g0, g1)))
      return failure();
    g0 = g1;
  }
  return finish(success());
}

/// The kernel's end: every thread meets, warp 0 frees the TMEM; then what
/// follows the kernel (its sizes, the harness main).
LogicalResult KernelEmitter::finish(LogicalResult agents) {
  if (failed(agents))
    return failure();
  Location loc = func.getLoc();
  // The TMEM base and the warp index are read again rather than kept: a
  // value live across the agents' branches holds a register in each of
  // them, the setmaxnreg-decreased ones included (ptxas spilled for one).
  std::string epi = "tp::tcgen05_before();\n__syncthreads();";
  if (layout.tmemAllocated)
    epi += "\nif (tp::warp_idx() == 0) tp::tmem_dealloc(S.tmem_base, " +
           std::to_string(layout.tmemAllocated) + ");";
  b.create<emitc::VerbatimOp>(loc, epi);
  b.create<emitc::ReturnOp>(loc, Value());
  b.setInsertionPointAfter(kernel);
  b.create<emitc::VerbatimOp>(
      loc, llvm::formatv("constexpr int tp_threads_{0} = {1};\n"
                         "constexpr size_t tp_smem_bytes_{0} = "
                         "sizeof(tp_smem_{0});",
                         layout.name, layout.threads())
               .str());
  b.create<emitc::VerbatimOp>(loc, harnessMain(passed));
  return success();
}

std::string KernelEmitter::harnessMain(ArrayRef<BlockArgument> params) const {
  // The trip count reaches the loops through one integer parameter:
  // upper = maxsi(ceildivsi(arg, scale), 0) or a plain arg, from 0 step 1;
  // an i32 or i64 arg is index_cast first (an i32 or i64 loop).
  int tripParam = -1;
  int64_t scale = 1;
  func::FuncOp f = func;
  f.walk([&](scf::ForOp loop) {
    if (tripParam >= 0)
      return;
    APInt lb, step;
    if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
        !matchPattern(loop.getStep(), m_ConstantInt(&step)) || !lb.isZero() ||
        !step.isOne())
      return;
    Value v = loop.getUpperBound();
    if (auto max = v.getDefiningOp<arith::MaxSIOp>())
      v = max.getLhs();
    int64_t s = 1;
    if (auto div = v.getDefiningOp<arith::CeilDivSIOp>()) {
      APInt c;
      if (!matchPattern(div.getRhs(), m_ConstantInt(&c)))
        return;
      s = c.getSExtValue();
      v = div.getLhs();
    }
    if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
      v = cast.getIn();
    for (auto [i, arg] : llvm::enumerate(params))
      if (arg == v) {
        tripParam = int(i);
        scale = s;
      }
  });
  int maxDepth = 1;
  for (const PipeLayout &p : layout.pipes)
    maxDepth = std::max(maxDepth, p.depth);

  int64_t zeroBytes = 16;
  for (BlockArgument arg : params)
    if (auto tensor = dyn_cast<RankedTensorType>(arg.getType()))
      zeroBytes = std::max(zeroBytes, tensor.getNumElements() *
                                          tensor.getElementTypeBitWidth() / 8);
  std::string args;
  for (auto [i, arg] : llvm::enumerate(params)) {
    if (i)
      args += ", ";
    if (isa<tileas::TmaDescType>(arg.getType()))
      args += "desc";
    else if (isa<MemRefType>(arg.getType()))
      args += "nullptr"; // The harness copies nothing from global memory.
    else if (isa<RankedTensorType>(arg.getType()))
      args += "(const " +
              elementName(cast<ShapedType>(arg.getType()).getElementType()) +
              " *)zeros";
    else if (int(i) == tripParam)
      args += "(int64_t)(t * " + std::to_string(scale) + ")";
    else
      args += "0";
  }
  // A persistent kernel runs three tiles on each CTA: the pipes' iterations
  // and the accumulator's slots carry on from tile to tile.
  if (layout.persistent)
    args += std::string(args.empty() ? "" : ", ") + "(int64_t)(3 * c), 1, 1";
  std::string text;
  llvm::raw_string_ostream os(text);
  const std::string &k = layout.name;
  os << "\n// The protocol harness (docs/cuda.md): compiled with "
        "-DTILEPIPE_HARNESS\n// -DTILEPIPE_HARNESS_MAIN, it runs the kernel "
        "for each trip count and CTA count\n// and prints one JSON line per "
        "run. Exit 0: every run clean; 1: a protocol\n// error, a timeout or "
        "a launch error; 77: no CUDA device.\n"
     << "#if defined(TILEPIPE_HARNESS_MAIN)\n"
     << "#include <tilepipe/harness_host.cuh>\n#include <cstdio>\n"
     << "#include <cstdlib>\n#include <cstring>\n#include <vector>\n"
     << "static std::vector<long long> tp_list(const char *s) {\n"
     << "  std::vector<long long> v;\n"
     << "  for (char *e; *s; s = *e ? e + 1 : e) v.push_back(std::strtoll(s, "
        "&e, 10));\n  return v;\n}\n"
     << "int main(int argc, char **argv) {\n";
  if (tripParam < 0) {
    os << "  std::printf(\"{\\\"kernel\\\": \\\"" << k
       << "\\\", \\\"skipped\\\": \\\"no parameter sets the trip "
          "count\\\"}\\n\");\n  return 77;\n}\n#endif";
    return os.str();
  }
  os << "  std::vector<long long> trips = {0, 1, 2, " << maxDepth << ", "
     << maxDepth + 1 << ", 1000};\n"
     << "  std::vector<long long> ctas = {1, 4, 132};\n"
     << "  if (argc > 1) trips = tp_list(argv[1]);\n"
     << "  if (argc > 2) ctas = tp_list(argv[2]);\n"
     << "  int devices = 0;\n"
     << "  cudaError_t err = cudaGetDeviceCount(&devices);\n"
     << "  if (err != cudaSuccess || devices == 0) {\n"
     << "    std::printf(\"{\\\"kernel\\\": \\\"" << k
     << "\\\", \\\"skipped\\\": \\\"no CUDA device (%s)\\\"}\\n\", "
        "cudaGetErrorString(err));\n    return 77;\n  }\n"
     << "  cudaFuncSetAttribute(" << k
     << ", cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sizeof(tp_smem_"
     << k << "));\n"
     << "  tp::TmaDesc desc;\n  std::memset(&desc, 0, sizeof(desc));\n"
     << "  void *zeros = nullptr; // Tiles passed in: zeros.\n"
     << "  cudaMalloc(&zeros, " << zeroBytes << ");\n"
     << "  cudaMemset(zeros, 0, " << zeroBytes << ");\n"
     << "  cudaEvent_t start, stop;\n  cudaEventCreate(&start);\n"
     << "  cudaEventCreate(&stop);\n  int bad = 0;\n"
     << "  for (long long t : trips)\n    for (long long c : ctas) {\n"
     << "      tp::host::reset();\n      cudaEventRecord(start);\n"
     << "      " << k << "<<<(unsigned)c, " << layout.threads()
     << ", sizeof(tp_smem_" << k << ")>>>(" << args << ");\n"
     << "      cudaEventRecord(stop);\n"
     << "      err = cudaGetLastError();\n"
     << "      if (err == cudaSuccess) err = cudaDeviceSynchronize();\n"
     << "      float ms = 0;\n      cudaEventElapsedTime(&ms, start, stop);\n"
     << "      tp::HarnessReport r;\n      tp::host::read(r);\n"
     << "      bool ok = err == cudaSuccess && tp::host::clean(r) && (t == 0 "
        "|| r.iterations > 0);\n"
     << "      bad |= !ok;\n"
     << "      std::printf(\"{\\\"kernel\\\": \\\"" << k
     << "\\\", \\\"trips\\\": %lld, \\\"ctas\\\": %lld, "
        "\\\"ok\\\": %s, \\\"launch\\\": \\\"%s\\\", "
        "\\\"errors\\\": %u, \\\"timeouts\\\": %u, "
        "\\\"checks\\\": %llu, \\\"first_error\\\": {\\\"cta\\\": "
        "%d, \\\"pipe\\\": %d, \\\"want\\\": %lld, \\\"got\\\": "
        "%lld}, \\\"ms\\\": %.3f, \\\"ns_per_iteration\\\": "
        "%.1f}\\n\", t, c, ok ? \"true\" : \"false\", "
        "cudaGetErrorString(err), r.errors, r.timeouts, r.iterations, "
        "r.firstCta, r.firstPipe, r.firstWant, r.firstGot, ms, t ? ms * 1e6 / "
        "t : 0.0);\n"
     << "      if (err != cudaSuccess) return 1; // The context is gone.\n"
     << "    }\n  return bad;\n}\n#endif";
  return os.str();
}

} // namespace

LogicalResult cuda::emitKernel(func::FuncOp func, const KernelLayout &layout,
                               OpBuilder &b) {
  return KernelEmitter(func, layout, b).emit();
}
