//===- LoopProblem.cpp - scf.for -> sched::Problem ------------------------===//

#include "scheduler/mlir/LoopProblem.h"
#include "scheduler/mlir/TmemAliases.h"

#include "attrs/ConstraintAttrs.h"
#include "ir/Positions.h"
#include "ir/TileASDialect.h"
#include "ir/WgmmaStaging.h"
#include "scheduler/TargetProblem.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>

using namespace mlir;
using namespace tilepipe;

// "%3 = tileas.umma": the SSA name as printed, so the table reads like the IR.
static std::string opLabel(Operation *op, AsmState &state) {
  std::string label;
  llvm::raw_string_ostream os(label);
  if (op->getNumResults()) {
    op->getResult(0).printAsOperand(os, state);
    os << " = ";
  }
  os << op->getName().getStringRef();
  return label;
}

// The value yielded for iter_arg `arg` and how many iterations it travels:
// an iter_arg yielded unchanged carries its value one iteration further.
static std::pair<Value, unsigned> carriedSource(scf::ForOp loop,
                                                BlockArgument arg) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  unsigned distance = 1;
  Value v = yield.getOperand(arg.getArgNumber() - 1);
  while (auto next = dyn_cast<BlockArgument>(v)) {
    if (next.getOwner() != loop.getBody() || next.getArgNumber() == 0 ||
        distance > loop.getNumRegionIterArgs())
      return {Value(), 0};
    v = yield.getOperand(next.getArgNumber() - 1);
    ++distance;
  }
  return {v, distance};
}

int64_t tilepipe::loopInvariantSmemBytes(scf::ForOp loop) {
  llvm::SetVector<Value> invariant;
  loop.getBody()->walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (isa<tileas::SmemType>(v.getType()) &&
          !loop->isAncestor(v.getParentRegion()->getParentOp()))
        invariant.insert(v);
  });
  // A register value the loop reads that was loaded from SMEM before it (a
  // norm's gamma, read and converted once): the translation reads the tile
  // again in the loop, a piece at a time (docs/cuda.md, "Broadcasts"), so
  // the tile stays for the loop's length.
  llvm::SmallVector<Value> work;
  llvm::DenseSet<Value> seen;
  loop.getBody()->walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (isa<RankedTensorType>(v.getType()) &&
          !loop->isAncestor(v.getParentRegion()->getParentOp()))
        work.push_back(v);
  });
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!seen.insert(v).second || !def || def->getNumRegions() ||
        def->getBlock() != loop->getBlock())
      continue;
    if (auto load = dyn_cast<tileas::SmemLoadOp>(def))
      invariant.insert(load.getSource());
    else if (isPure(def))
      llvm::append_range(work, def->getOperands());
  }
  // A tile loaded before the loop has SMEM of its own for the kernel's
  // length (docs/cuda.md, "Tiles loaded before the loop"), whoever reads
  // it: also when only the code after the loop does (a GEMM's bias).
  for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode())
    if (auto load = dyn_cast<tileas::TmaLoadOp>(op); load && !load.getDst())
      invariant.insert(load.getResult());
  for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode())
    if (auto alloc = dyn_cast<tileas::AllocSmemOp>(op))
      if (llvm::any_of(alloc->getUsers(), [&](Operation *user) {
            Operation *at = loop->getBlock()->findAncestorOpInBlock(*user);
            return at && loop->isBeforeInBlock(at);
          }))
        invariant.insert(alloc.getResult());
  int64_t bytes = 0;
  for (Value v : invariant)
    bytes += cast<tileas::SmemType>(v.getType()).getSizeInBytes();
  // A wgmma's staged operand is transposed into two staging tiles of its
  // size for the loop's length (ir/WgmmaStaging.h).
  loop.getBody()->walk([&](tileas::WgmmaOp mma) {
    bytes += 2 * tileas::stagedOperandBytes(mma);
  });
  return bytes;
}

using EdgeMap =
    std::map<std::tuple<sched::OpId, sched::OpId, unsigned>, int64_t>;

// The tiles of a ring (FA4's K and V) take turns in the slots of one SMEM
// pipe: with D slots and M tiles per iteration, the producer of ring
// position n = i * M + m acquires the slot that position n - D's last reader
// frees when it completes. D is what the SMEM left beside the loop's other
// tiles holds, so a schedule that keeps these edges fits its ring in SMEM
// with its timeline intact (the plan sizes the ring by the same rule).
static void addRingCapacity(scf::ForOp loop, const LoopProblem &lp,
                            const target::TargetModel &target, EdgeMap &edges) {
  std::map<std::string, std::vector<sched::OpId>> rings;
  int64_t otherBytes = kSmemCarveout + loopInvariantSmemBytes(loop);
  for (auto [id, op] : llvm::enumerate(lp.ops)) {
    auto ring = op->getAttrOfType<StringAttr>("tileas.ring");
    if (ring && op->getNumResults() == 1 &&
        isa<tileas::SmemType>(op->getResult(0).getType())) {
      rings[ring.getValue().str()].push_back(sched::OpId(id));
      continue;
    }
    bool stored = isa<tileas::TmemStoreOp, tileas::SmemStoreOp>(op) &&
                  tileas::getIntoOperand(op);
    for (Value result : op->getResults())
      if (auto smem = dyn_cast<tileas::SmemType>(result.getType()))
        if (!stored)
          otherBytes += smem.getSizeInBytes();
  }
  for (auto &[name, members] : rings) {
    int64_t slotBytes = 0;
    for (sched::OpId m : members)
      slotBytes = std::max(
          slotBytes, cast<tileas::SmemType>(lp.ops[m]->getResult(0).getType())
                         .getSizeInBytes());
    const int64_t numMembers = int64_t(members.size());
    int64_t depth = slotBytes
                        ? (target.getCaps().smemBytes - otherBytes) / slotBytes
                        : numMembers;
    // Each tile of one iteration has a slot of its own (a smaller ring does
    // not fit, and the plan says so); a ring deeper than 64 iterations'
    // worth never binds.
    depth = std::max(depth, numMembers);
    if (depth > 64 * numMembers)
      continue;
    for (int64_t m = 0; m < numMembers; ++m) {
      int64_t back = (depth - m + numMembers - 1) / numMembers;
      int64_t freed = m - depth + back * numMembers;
      for (Operation *reader :
           lp.ops[members[freed]]->getResult(0).getUsers()) {
        while (reader && reader->getBlock() != loop.getBody())
          reader = reader->getParentOp();
        auto r = reader ? lp.ids.find(reader) : lp.ids.end();
        if (r == lp.ids.end())
          continue;
        int64_t &slot = edges[{r->second, members[m], unsigned(back)}];
        slot = std::max(slot, lp.problem.getOp(r->second).latency.value_or(0));
      }
    }
  }
}

// The threads of one warp group work through a tile in fragments of 32
// columns (a tcgen05.ld/st 32x32b.x32 moves one; FA4's softmax loads S,
// exponentiates and stores P fragment by fragment), so a SIMT consumer of a
// SIMT tile of the same warp group starts once the first fragment is ready
// and ends one of its own fragments after the producer ends:
//   start_c >= start_p + max(lat_p / F, lat_p - lat_c + lat_c / F)
// with F fragments. Reductions stream their input but their result (one
// value per row) exists only at the end: a rank-1 result is one fragment.
static constexpr int64_t kStreamColumns = 32;

/// The arith and math ops on a register tile that the scheduler models
/// (ir/ExternalModels.cpp attaches the interface; no second list here): the same SIMT work as the
/// tileas op of that name, so it belongs to the same chains and streams the
/// same. A plainly written loop mixes them (math.exp2 between two tileas
/// ops); left out, its chain fell apart into warp groups joined by a pipe
/// that nobody consumed.
static bool isForeignElementwiseTileOp(Operation *op) {
  if (!op->getDialect() ||
      !isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return false;
  // The ops ExternalModels.cpp models, and comparisons and selects, which
  // keep the generic class.
  return isa<tileas::SchedulableOpInterface, arith::CmpFOp, arith::SelectOp>(
      op);
}

/// A scalar integer that every thread reads from an array the function
/// never writes (a page of a paged KV cache, read where its tile is
/// loaded): as pure as index arithmetic, so each agent reads it itself.
static bool isReadOnlyIndexLoad(Operation *op) {
  auto load = dyn_cast<tileas::GlobalLoadOp>(op);
  if (!load || !load.getType().isIntOrIndex())
    return false;
  Value src = load.getSrc();
  return llvm::all_of(src.getUsers(), [](Operation *user) {
    return isa<tileas::GlobalLoadOp, tileas::GlobalGatherOp>(user);
  });
}

std::vector<bool> tilepipe::findFreeOps(const LoopProblem &lp) {
  scf::ForOp loop = lp.loop;
  Value iv = loop.getInductionVar();
  // Scalar float math too (a length converted to float that positions
  // are offset by): recomputing it is a few instructions, carrying what is
  // made of it across stages would hold a vector a thread.
  auto isScalar = [](Type t) { return t.isIntOrIndexOrFloat(); };
  std::vector<bool> isFree(lp.ops.size(), false);
  for (auto [id, op] : llvm::enumerate(lp.ops)) {
    // An i32 tile read at positions from an array the function never
    // writes is positions (ir/Positions.h): made again where it is read,
    // as an iota is, not carried across stages (a cross-entropy's targets,
    // compared with column positions two stages before the select that
    // reads the mask, held two 64-element masks a thread).
    bool pure = isMemoryEffectFree(op) || isReadOnlyIndexLoad(op) ||
                (isa<tileas::GlobalGatherOp>(op) && isPositionOp(op));
    if (op->getNumRegions() || !pure ||
        !(llvm::all_of(op->getResultTypes(), isScalar) || isPositionOp(op) ||
          isa<tileas::BroadcastOp>(op)))
      continue;
    isFree[id] = llvm::all_of(op->getOperands(), [&](Value v) {
      Region *r = v.getParentRegion();
      bool inBody =
          r && (r == &loop.getRegion() || loop.getRegion().isAncestor(r));
      if (v == iv || !inBody)
        return true;
      Operation *def = v.getDefiningOp();
      return def && def->getBlock() == loop.getBody() &&
             isFree[lp.ids.lookup(def)];
    });
  }
  return isFree;
}

bool tilepipe::isSimtTileOp(Operation *op) {
  return isa<tileas::TmemLoadOp, tileas::TmemStoreOp, tileas::SmemStoreOp,
             tileas::SmemLoadOp, tileas::Exp2Op, tileas::AddOp, tileas::SubOp,
             tileas::MulOp, tileas::MaxOp, tileas::FmaOp, tileas::CvtOp,
             tileas::ReduceMaxOp, tileas::ReduceSumOp>(op) ||
         isForeignElementwiseTileOp(op);
}

int64_t tilepipe::streamedLatency(Operation *producer, Operation *consumer,
                                  int64_t producerLatency,
                                  int64_t consumerLatency) {
  if (!isSimtTileOp(producer) || !isSimtTileOp(consumer) ||
      producer->getNumResults() != 1 ||
      isa<tileas::TmemStoreOp, tileas::SmemStoreOp>(producer))
    return producerLatency;
  auto tile = dyn_cast<ShapedType>(producer->getResult(0).getType());
  if (!tile || !tile.hasStaticShape() || tile.getRank() != 2)
    return producerLatency;
  auto groupOf = [](Operation *op) -> std::optional<int64_t> {
    if (auto g = op->getAttrOfType<IntegerAttr>("tileas.warp_group"))
      return g.getInt();
    return std::nullopt;
  };
  if (groupOf(producer) != groupOf(consumer))
    return producerLatency;
  int64_t fragments = std::max<int64_t>(
      1, (tile.getShape()[1] + kStreamColumns - 1) / kStreamColumns);
  if (fragments == 1)
    return producerLatency;
  auto perFragment = [&](int64_t latency) {
    return (latency + fragments - 1) / fragments;
  };
  return std::max(perFragment(producerLatency),
                  producerLatency - consumerLatency +
                      perFragment(consumerLatency));
}

// Register order: a SIMT agent (the ops of one tileas.warp_group) that
// loads a rank-2 tile from TMEM into registers (FA4's S, 128 f32 words per
// thread at head dim 64) and stores what it makes of it (P, through
// sub/exp2/cvt) holds the tile in registers from the load to the last such
// store. When the next iteration's load is scheduled before this
// iteration's store (S(K+1) loaded at stage 0 while P(K) is stored at stage
// 2), both tiles are live across the agent's back edge and ptxas spills.
// The edge store -> load, distance 1, latency 0, orders them
// (withRegisterOrder).
bool tilepipe::isElementwiseTileOp(Operation *op) {
  return isa<tileas::Exp2Op, tileas::AddOp, tileas::SubOp, tileas::MulOp,
             tileas::MaxOp, tileas::FmaOp, tileas::CvtOp>(op) ||
         isForeignElementwiseTileOp(op);
}

static std::optional<int64_t> groupOf(Operation *op) {
  if (auto g = op->getAttrOfType<IntegerAttr>("tileas.warp_group"))
    return g.getInt();
  return std::nullopt;
}

// A tile the threads stage in SMEM for their own reads (a register tile
// read back transposed) has one buffer (cuda/analysis/KernelLayout.cpp,
// placeLoopStaging): the next iteration's store waits for this one's reads
// to complete. Reads by another warp group go through a pipe. A wgmma that
// reads the tile (a gathered operand the threads masked) is issued before
// the next store, which the translation has wait for it (wgmma_wait):
// before, varlen attention's next K was stored over the tile before this
// iteration's wgmma was issued.
static void orderStagedReads(const LoopProblem &lp, EdgeMap &edges) {
  for (auto [id, op] : llvm::enumerate(lp.ops)) {
    auto store = dyn_cast<tileas::SmemStoreOp>(op);
    if (!store || store.getDst())
      continue;
    for (Operation *reader : store->getUsers()) {
      auto r = lp.ids.find(reader);
      if (r == lp.ids.end() || groupOf(reader) != groupOf(op) ||
          !isa<tileas::SmemLoadOp, tileas::WgmmaOp>(reader))
        continue;
      int64_t &slot = edges[{r->second, sched::OpId(id), 1u}];
      slot = std::max<int64_t>(
          slot, isa<tileas::WgmmaOp>(reader)
                    ? 1
                    : lp.problem.getOp(r->second).latency.value_or(0));
    }
  }
}

static void findRegisterOrder(LoopProblem &lp, const EdgeMap &edges) {
  auto isRank2Tile = [](Value v) {
    auto tile = dyn_cast<RankedTensorType>(v.getType());
    return tile && tile.getRank() == 2;
  };
  for (auto [id, op] : llvm::enumerate(lp.ops)) {
    auto load = dyn_cast<tileas::TmemLoadOp>(op);
    std::optional<int64_t> group = groupOf(op);
    if (!load || !group || op->getNumResults() != 1 ||
        !isRank2Tile(op->getResult(0)))
      continue;
    std::optional<sched::OpId> last;
    llvm::SmallVector<Operation *> work{op};
    llvm::SmallPtrSet<Operation *, 8> seen{op};
    while (!work.empty()) {
      Operation *cur = work.pop_back_val();
      for (Operation *user : cur->getResult(0).getUsers()) {
        auto it = lp.ids.find(user);
        if (it == lp.ids.end() || groupOf(user) != group)
          continue;
        if (isa<tileas::TmemStoreOp, tileas::SmemStoreOp>(user)) {
          last = std::max(last.value_or(0), it->second);
          continue;
        }
        if (isElementwiseTileOp(user) && user->getNumResults() == 1 &&
            isRank2Tile(user->getResult(0)) && seen.insert(user).second)
          work.push_back(user);
      }
    }
    if (!last)
      continue;
    if (edges.count({*last, sched::OpId(id), 1u}))
      continue; // Ordered already (a store `into` the loaded tile).
    lp.registerOrder.push_back({*last, sched::OpId(id)});
  }
}

sched::Problem tilepipe::withRegisterOrder(const LoopProblem &lp) {
  sched::Problem ordered = lp.problem;
  for (auto [store, load] : lp.registerOrder)
    ordered.addDependence({store, load, /*latency=*/0, /*distance=*/1});
  ordered.finalize();
  return ordered;
}

FailureOr<LoopProblem>
tilepipe::buildLoopProblem(scf::ForOp loop, const target::TargetModel &target) {
  LoopProblem lp;
  lp.loop = loop;
  lp.problem = sched::Problem(sched::makeResourceLayout(target));
  for (Operation &op : loop.getBody()->without_terminator()) {
    lp.ids[&op] = lp.ops.size();
    lp.ops.push_back(&op);
  }

  std::vector<sched::OpConstraints> constraints;
  if (failed(
          attrs::seedConstraints(lp.ops, constraints, lp.problem.getGroups())))
    return failure();

  Operation *scope = loop->getParentOfType<FunctionOpInterface>();
  AsmState state(scope ? scope : loop.getOperation());
  bool forceSerial = attrs::hasForceSerial(loop);
  const target::OpClassInfo *generic = target.lookupOpClass("generic");
  for (auto [id, op] : llvm::enumerate(lp.ops)) {
    sched::Operation sop;
    sop.name = opLabel(op, state);
    sop.constraints = constraints[id];
    forceSerial |= sop.constraints.forceSerial;
    auto schedulable = dyn_cast<tileas::SchedulableOpInterface>(op);
    StringRef cls = schedulable ? schedulable.getOpClass() : "generic";
    const target::OpClassInfo *info =
        schedulable ? target.lookupOpClass(cls) : generic;
    if (info)
      sched::applyOpClass(
          target, *info, schedulable ? schedulable.getWork() : target::OpWork{},
          sop);
    else
      sop.opClass = cls.str(); // check() reports the missing latency.
    // The value a stage assignment buffers: the first result's tile.
    sop.resultBytes = 0;
    if (!op->getNumResults()) {
      // Nothing to buffer.
    } else if (isPositionOp(op)) {
      // Positions, masks and what is made of them (ir/Positions.h): the
      // stage code recomputes them where they are read (materialize's free
      // ops), so no stage holds them.
    } else if (auto shaped = dyn_cast<ShapedType>(op->getResult(0).getType());
               shaped && shaped.hasStaticShape()) {
      // Capped: the cost multiplies it by stage distances.
      sop.resultBytes =
          std::min<int64_t>(tileas::getTileSizeInBytes(shaped), 1ll << 40);
      if (isa<tileas::SmemType>(shaped)) {
        sop.resultMemory = sched::ValueMemory::Smem;
      } else if (isa<tileas::TmemType>(shaped)) {
        // TMEM is allocated in 32-bit columns of all 128 lanes.
        int64_t cols =
            shaped.getRank() >= 2
                ? std::min<int64_t>(shaped.getShape().back(), 1 << 20) *
                      shaped.getElementTypeBitWidth() / 32
                : 1;
        sop.resultBytes = 4 * 128 * std::max<int64_t>(1, cols);
        sop.resultMemory = sched::ValueMemory::Tmem;
      }
    } else if (op->getResult(0).getType().isIntOrIndexOrFloat()) {
      sop.resultBytes = 8;
    }
    lp.problem.addOp(std::move(sop));
  }
  lp.problem.setForceSerial(forceSerial);

  // Keep one edge per (src, dst, distance) with the largest latency, in a
  // deterministic order.
  EdgeMap edges;
  // An MMA accumulating into the accumulator of the MMA before it is
  // ordered behind it by PTX (same accumulator and shape) and starts once
  // that one's tensor-core work is done (the class's chain latency); none
  // for an op whose class has no such chain.
  auto queueInterval = [&](Operation *op) -> std::optional<int64_t> {
    auto schedulable = dyn_cast<tileas::SchedulableOpInterface>(op);
    const target::OpClassInfo *cls =
        schedulable ? target.lookupOpClass(schedulable.getOpClass()) : nullptr;
    if (!cls || !cls->chainLatency)
      return std::nullopt;
    return target.resolve(*cls, schedulable.getWork()).chainLatency;
  };
  auto addEdge = [&](Operation *def, sched::OpId user, unsigned distance,
                     bool accumulates) {
    auto it = lp.ids.find(def);
    if (it == lp.ids.end())
      return;
    int64_t latency = lp.problem.getOp(it->second).latency.value_or(0);
    // An accumulator handed from one MMA to the next waits only for the
    // issue interval.
    if (accumulates)
      if (std::optional<int64_t> interval = queueInterval(def))
        latency = *interval;
    latency = streamedLatency(def, lp.ops[user], latency,
                              lp.problem.getOp(user).latency.value_or(0));
    int64_t &slot = edges[{it->second, user, distance}];
    slot = std::max(slot, latency);
  };
  for (auto [id, op] : llvm::enumerate(lp.ops)) {
    auto schedulable = dyn_cast<tileas::SchedulableOpInterface>(op);
    auto visit = [&](Value v, bool accumulates) {
      if (Operation *def = v.getDefiningOp()) {
        // A value defined inside a nested region belongs to its top-level op.
        while (def && def->getBlock() != loop.getBody())
          def = def->getParentOp();
        if (def)
          addEdge(def, id, 0, accumulates);
        return;
      }
      auto arg = cast<BlockArgument>(v);
      if (arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
        return;
      auto [src, distance] = carriedSource(loop, arg);
      if (src && src.getDefiningOp())
        addEdge(src.getDefiningOp(), id, distance, accumulates);
    };
    for (OpOperand &operand : op->getOpOperands())
      visit(operand.get(), schedulable && schedulable.isAccumulatorOperand(
                                              operand.getOperandNumber()));
    // Values used inside nested regions of this op.
    llvm::SetVector<Value> above;
    for (Region &region : op->getRegions())
      getUsedValuesDefinedAbove(region, above);
    for (Value v : above)
      visit(v, false);
  }
  // A store `into` another loop tile's buffer (P written over S's TMEM
  // columns) overwrites it in place: the tile's other readers go first, and
  // the store's readers finish before the next iteration writes the tile
  // again.
  auto orderStoreOver = [&](sched::OpId id, Operation *op, Value into) {
    Operation *tileDef = into.getDefiningOp();
    auto def = tileDef ? lp.ids.find(tileDef) : lp.ids.end();
    if (def == lp.ids.end())
      return;
    // The reader's whole latency, also between two UMMAs (PV reading P,
    // the next S writing its columns): PTX orders an MMA behind an earlier
    // one only when both use the same accumulator (docs/dialect.md, "Pipe
    // protocol"), so the stage code releases P with a tcgen05.commit and
    // the MMA issuer waits for PV to complete before it writes S again.
    auto addOrder = [&](sched::OpId src, sched::OpId dst, unsigned distance) {
      int64_t &slot = edges[{src, dst, distance}];
      slot = std::max(slot, lp.problem.getOp(src).latency.value_or(0));
    };
    for (Operation *reader : into.getUsers())
      if (auto r = lp.ids.find(reader); r != lp.ids.end() && reader != op)
        addOrder(r->second, sched::OpId(id), 0);
    for (Operation *reader : op->getResult(0).getUsers())
      if (auto r = lp.ids.find(reader); r != lp.ids.end())
        addOrder(r->second, def->second, 1);
  };
  for (auto [id, op] : llvm::enumerate(lp.ops))
    if (isa<tileas::TmemStoreOp, tileas::SmemStoreOp>(op))
      if (OpOperand *into = tileas::getIntoOperand(op))
        orderStoreOver(sched::OpId(id), op, into->get());
  orderStagedReads(lp, edges);
  // Tiles written plainly that do not fit TMEM side by side: the stores
  // that may go over a tile their warp group has read (P over S) are
  // ordered as if written `into` it, first to last, until the rest fits, so
  // that the materializer finds the alias in the schedule.
  int64_t tmemColumns = tmemColumnsSideBySide(loop);
  for (const TmemAliasCandidate &alias : findTmemAliases(loop)) {
    if (tmemColumns <= target.getCaps().tmemColumns)
      break;
    orderStoreOver(lp.ids.lookup(alias.store), alias.store, alias.base);
    tmemColumns -= tileas::getTmemColumns(alias.store->getResult(0));
  }
  addRingCapacity(loop, lp, target, edges);
  findRegisterOrder(lp, edges);
  for (auto &[key, latency] : edges) {
    auto [src, dst, distance] = key;
    if (src == dst && distance == 0)
      continue; // An op inside its own nested region: not a dependence.
    lp.problem.addDependence({src, dst, latency, distance});
  }
  lp.problem.finalize();
  return lp;
}

static void emitOne(const LoopProblem &lp, const sched::Diagnostic &d) {
  Location loc = d.op ? lp.ops[*d.op]->getLoc()
                      : const_cast<scf::ForOp &>(lp.loop)->getLoc();
  auto attach = [&](InFlightDiagnostic &diag) {
    for (const sched::Diagnostic &note : d.notes) {
      Location noteLoc = note.op ? lp.ops[*note.op]->getLoc() : loc;
      diag.attachNote(noteLoc) << note.message;
    }
  };
  switch (d.severity) {
  case sched::Severity::Error: {
    InFlightDiagnostic diag = emitError(loc) << d.message;
    attach(diag);
    break;
  }
  case sched::Severity::Warning: {
    InFlightDiagnostic diag = emitWarning(loc) << d.message;
    attach(diag);
    break;
  }
  case sched::Severity::Remark:
  case sched::Severity::Note: {
    InFlightDiagnostic diag = emitRemark(loc) << d.message;
    attach(diag);
    break;
  }
  }
}

void tilepipe::emitDiagnostics(const LoopProblem &lp,
                               const sched::DiagnosticList &diags) {
  for (const sched::Diagnostic &d : diags.all())
    emitOne(lp, d);
}

SmallVector<scf::ForOp> tilepipe::innermostLoops(Operation *root) {
  SmallVector<scf::ForOp> loops;
  root->walk([&](scf::ForOp loop) {
    bool innermost = true;
    loop.getBody()->walk([&](scf::ForOp) { innermost = false; });
    if (innermost)
      loops.push_back(loop);
  });
  return loops;
}

LogicalResult
tilepipe::loadTargetOption(MLIRContext *context, StringRef file,
                           const target::TargetModel *&target,
                           std::shared_ptr<target::TargetModel> &owned) {
  if (file.empty()) {
    target = &target::TargetModel::sm100a();
    return success();
  }
  // A built-in's name wins over a file of that name in the working folder:
  // `target=sm_90a` must mean the same model wherever the tool runs.
  if (const target::TargetModel *builtin = target::TargetModel::builtin(file)) {
    target = builtin;
    return success();
  }
  if (!llvm::sys::fs::exists(file) && !file.contains('/') &&
      !file.ends_with(".json"))
    return emitError(UnknownLoc::get(context))
           << "unknown target '" << file << "': not a built-in target ("
           << target::TargetModel::builtinNameList()
           << ") and no such target file";
  llvm::Expected<target::TargetModel> loaded =
      target::TargetModel::fromFile(file);
  if (!loaded) {
    std::string msg = llvm::toString(loaded.takeError());
    return emitError(UnknownLoc::get(context))
           << "failed to load target description: " << msg;
  }
  owned = std::make_shared<target::TargetModel>(std::move(*loaded));
  target = owned.get();
  return success();
}
