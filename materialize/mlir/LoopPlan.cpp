//===- LoopPlan.cpp - schedule in, pipe plan out --------------------------===//

#include "materialize/mlir/LoopPlan.h"
#include "ir/WgmmaWarpgroups.h"
#include "materialize/mlir/KernelRotation.h"

#include "attrs/AttrNames.h"
#include "ir/TileASDialect.h"
#include "scheduler/mlir/TmemAliases.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/SetVector.h"

#include <map>
#include <set>
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::materialize;

static Unit unitOfClass(llvm::StringRef cls) {
  if (cls == "tma_load")
    return Unit::TMA;
  if (cls == "tma_store")
    return Unit::TMAStore;
  if (cls == "cp_async")
    return Unit::CpAsync;
  if (cls.starts_with("umma") || cls == "tmem_copy")
    return Unit::UMMA;
  return Unit::SIMT;
}

// The schedule from the published analysis when pass 1 ran in this
// pipeline, else from the attributes it printed.
static std::optional<sched::Schedule>
readSchedule(scf::ForOp loop, const LoopProblem &lp,
             const PublishedSchedules *published, sched::GeneratorKind &kind,
             std::string &why) {
  if (published) {
    auto it = published->loops.find(loop.getOperation());
    if (it != published->loops.end() && it->second.ops == lp.ops) {
      kind = it->second.analysis.generator;
      return it->second.analysis.toSchedule();
    }
  }
  auto ii = loop->getAttrOfType<IntegerAttr>(attrs::kII);
  if (!ii) {
    why = "it has no published schedule and no '" + attrs::kII.str() +
          "' attribute";
    return std::nullopt;
  }
  if (ii.getInt() <= 0) {
    why = "its '" + attrs::kII.str() + "' is not positive";
    return std::nullopt;
  }
  sched::Schedule schedule;
  schedule.ii = unsigned(ii.getInt());
  for (Operation *op : lp.ops) {
    auto cycle = op->getAttrOfType<IntegerAttr>(attrs::kCycle);
    if (!cycle) {
      std::string name;
      llvm::raw_string_ostream os(name);
      os << op->getName();
      why = "'" + name + "' has no '" + attrs::kCycle.str() + "' attribute";
      return std::nullopt;
    }
    schedule.start.push_back(cycle.getInt());
  }
  auto generator = loop->getAttrOfType<StringAttr>(attrs::kGenerator);
  kind = generator && generator.getValue() == "serial"
             ? sched::GeneratorKind::Serial
             : sched::GeneratorKind::CostBased;
  return schedule;
}

// The plan value that is `x`, if it is one.
static std::optional<unsigned> valueIndex(const LoopPlan &plan, mlir::Value x) {
  for (auto [i, v] : llvm::enumerate(plan.values))
    if (v == x)
      return unsigned(i);
  return std::nullopt;
}

// The storage options the loop's data flow offers the plan search
// (materialize/plan/PlanSearch.h).
static void collectCandidates(scf::ForOp loop, LoopPlan &plan) {
  PlanInput &in = plan.input;
  PlanCandidates &c = plan.candidates;
  // P over S (scheduler/mlir/TmemAliases.h), when both are pipe values.
  for (const TmemAliasCandidate &alias : findTmemAliases(loop)) {
    std::optional<unsigned> p = valueIndex(plan, alias.store->getResult(0));
    std::optional<unsigned> base = valueIndex(plan, alias.base);
    if (p && base && !in.values[*base].carried && !in.values[*base].aliasOf &&
        !in.values[*base].inPlaceOf && !in.values[*p].inPlaceOf)
      c.aliases.push_back({*p, *base});
  }

  // Rings: TMA tiles of one size that only the tensor core reads, once per
  // iteration each, in program order. Their shapes may differ (K 128x64
  // and V^T 64x128): each member sees the ring's slots as its own tile, and
  // a member read by fewer consumer groups arrives for the difference.
  std::map<int64_t, std::vector<unsigned>> rings;
  for (auto [i, v] : llvm::enumerate(in.values)) {
    if (in.units[v.producer] != Unit::TMA || v.cls != BufferClass::SMEM ||
        !v.ring.empty() || v.consumers.empty())
      continue;
    bool umma = llvm::all_of(v.consumers, [&](auto &use) {
      return use.second == 0 && in.units[use.first] == Unit::UMMA;
    });
    if (umma)
      rings[v.bytes].push_back(unsigned(i));
  }
  for (auto &[key, members] : rings)
    if (members.size() >= 2)
      c.rings.push_back(members);

  // Staging tiles made before the loop and written only after it.
  for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode()) {
    auto alloc = dyn_cast<tileas::AllocSmemOp>(op);
    if (!alloc || alloc->use_empty())
      continue;
    bool after = llvm::all_of(alloc->getUses(), [&](OpOperand &use) {
      auto store = dyn_cast<tileas::SmemStoreOp>(use.getOwner());
      Operation *at =
          store ? loop->getBlock()->findAncestorOpInBlock(*store) : nullptr;
      return store && store.getDst() == alloc.getResult() && at &&
             loop->isBeforeInBlock(at);
    });
    if (!after)
      continue;
    c.epilogueSmemBytes += cast<tileas::SmemType>(alloc.getType())
                               .getSizeInBytes();
    for (Operation *user : alloc->getUsers())
      plan.epilogueStores.push_back(user);
  }
}

void tilepipe::applyPlanChoices(LoopPlan &plan) {
  for (auto [i, a] : llvm::enumerate(plan.candidates.aliases))
    if (plan.choice.aliases[i])
      cast<tileas::TmemStoreOp>(
          plan.loop.ops[plan.input.values[a.value].producer])
          .getDstMutable()
          .assign(plan.values[a.base]);
  if (!plan.choice.overlay || !plan.buffers.overlaid)
    return;
  for (Operation *op : plan.epilogueStores) {
    auto store = cast<tileas::SmemStoreOp>(op);
    Operation *alloc = store.getDst().getDefiningOp();
    store.getDstMutable().clear();
    if (alloc && alloc->use_empty())
      alloc->erase();
  }
  plan.epilogueStores.clear();
}

// The schedule read and checked against the loop: an II that fits the
// loop's serial length and at most kMaxStages stages.
static LogicalResult readCheckedSchedule(scf::ForOp loop,
                                         const PublishedSchedules *published,
                                         LoopPlan &plan, std::string &why) {
  LoopProblem &lp = plan.loop;
  sched::GeneratorKind kind = sched::GeneratorKind::CostBased;
  std::optional<sched::Schedule> schedule =
      readSchedule(loop, lp, published, kind, why);
  if (!schedule)
    return failure();
  // A published II above the serial length gains nothing (the serial
  // schedule fits there) and its RRT alone has II rows: 2^31 - 1 ran out of
  // memory. Stages past kMaxStages would unroll that many prologue and
  // epilogue copies.
  constexpr int64_t kMinIICap = 1 << 16;
  const int64_t iiCap = std::max<int64_t>(kMinIICap, lp.problem.serialLength());
  if (int64_t(schedule->ii) > iiCap) {
    why = "its II " + std::to_string(schedule->ii) +
          " is above the loop's serial length " +
          std::to_string(lp.problem.serialLength()) + " (and above " +
          std::to_string(kMinIICap) + "), where a serial schedule fits";
    return failure();
  }
  sched::DiagnosticList violations;
  if (!lp.problem.verify(*schedule, violations)) {
    why =
        "its schedule fails verification: " + violations.all().front().message;
    return failure();
  }
  beginKernelAtAccumulatorRead(lp, *schedule);
  plan.schedule =
      sched::ScheduleAnalysis::fromSchedule(lp.problem, *schedule, kind);
  constexpr unsigned kMaxStages = 256;
  if (plan.schedule.numStages > kMaxStages) {
    why = "its schedule has " + std::to_string(plan.schedule.numStages) +
          " stages; stage code is emitted for at most " +
          std::to_string(kMaxStages);
    return failure();
  }
  return success();
}

namespace {

/// Which ops run in one agent: another unit, or another warp group of SIMT
/// threads (`tileas.warp_group`), is another agent.
struct AgentSplit {
  const LoopProblem &lp;
  const std::vector<Unit> &units;

  std::optional<int64_t> groupOf(sched::OpId id) const {
    if (auto g = lp.ops[id]->getAttrOfType<IntegerAttr>("tileas.warp_group"))
      return g.getInt();
    return std::nullopt;
  }
  /// As the partition keys agents (materialize::agentOf): an op outside
  /// every warp group (a constant tile, a splat) runs in group 0's agent,
  /// so a tile it hands to group 0 needs no pipe (one planned there had no
  /// consumer and failed the IR verifier).
  bool otherAgent(sched::OpId x, sched::OpId y) const {
    return units[x] != units[y] ||
           (units[x] == Unit::SIMT &&
            groupOf(x).value_or(0) != groupOf(y).value_or(0));
  }
};

} // namespace

// The ops of the loop body that read `result`, with the iteration distance
// of each read: a value yielded to the next iteration is read there through
// its iteration argument.
static void addConsumers(scf::ForOp loop, const LoopProblem &lp,
                         mlir::Value result, materialize::Value &v) {
  auto addUse = [&](Operation *user, unsigned distance) {
    while (user && user->getBlock() != loop.getBody())
      user = user->getParentOp();
    auto it = user ? lp.ids.find(user) : lp.ids.end();
    if (it != lp.ids.end())
      v.consumers.push_back({it->second, distance});
  };
  for (OpOperand &use : result.getUses()) {
    if (auto yield = dyn_cast<scf::YieldOp>(use.getOwner())) {
      if (yield->getParentOp() != loop.getOperation())
        continue;
      BlockArgument carried = loop.getRegionIterArgs()[use.getOperandNumber()];
      for (OpOperand &next : carried.getUses())
        addUse(next.getOwner(), 1);
      continue;
    }
    addUse(use.getOwner(), 0);
  }
}

// A register tile's readers in its own agent keep the register: only the
// other agents' reads make its lifetime. An agent reading it in its own
// iteration keeps that copy for its reads in the next one
// (docs/stage-code.md).
static void keepOtherAgentsReads(const AgentSplit &agents,
                                 materialize::Value &v) {
  llvm::erase_if(v.consumers, [&](auto &c) {
    return !agents.otherAgent(c.first, v.producer);
  });
  auto now = v.consumers;
  llvm::erase_if(v.consumers, [&](auto &c) {
    return c.second == 1 && llvm::any_of(now, [&](auto &d) {
             return d.second == 0 && !agents.otherAgent(d.first, c.first);
           });
  });
}

// Result `result` of op `id` as a plan value: its storage class, size,
// type key and consumers. None for results that are not tiles.
static std::optional<materialize::Value>
tileValue(scf::ForOp loop, const LoopProblem &lp, const AgentSplit &agents,
          sched::OpId id, mlir::Value result) {
  auto smem = dyn_cast<tileas::SmemType>(result.getType());
  auto tmem = dyn_cast<tileas::TmemType>(result.getType());
  auto reg = dyn_cast<RankedTensorType>(result.getType());
  if (!smem && !tmem && !(reg && reg.hasStaticShape()))
    return std::nullopt;
  materialize::Value v;
  v.producer = id;
  v.cls = tmem ? BufferClass::TMEM : BufferClass::SMEM;
  v.bytes = smem   ? smem.getSizeInBytes()
            : tmem ? tmem.getSizeInBytes()
                   : tileas::getTileSizeInBytes(reg);
  v.tmemColumns = tmem ? tileas::getTmemColumns(tmem) : 0;
  std::string key;
  llvm::raw_string_ostream os(key);
  os << result.getType();
  v.typeKey = key;
  addConsumers(loop, lp, result, v);
  if (reg)
    keepOtherAgentsReads(agents, v);
  return v;
}

// Every tile handed from one agent to another becomes a pipe value. A
// register tile read by another SIMT agent (another tileas.warp_group: FA4's
// alpha, made by softmax and read by correction) goes through shared
// memory: an SMEM pipe sized like the tile, whose producer stores it after
// making it and whose consumers load it (docs/stage-code.md).
static void collectPipeValues(scf::ForOp loop, LoopPlan &plan) {
  LoopProblem &lp = plan.loop;
  PlanInput &in = plan.input;
  AgentSplit agents{lp, in.units};
  for (auto [id, op] : llvm::enumerate(lp.ops)) {
    for (mlir::Value result : op->getResults()) {
      std::optional<materialize::Value> v =
          tileValue(loop, lp, agents, sched::OpId(id), result);
      if (!v || !llvm::any_of(v->consumers, [&](auto &c) {
            return agents.otherAgent(c.first, v->producer);
          }))
        continue;
      in.values.push_back(std::move(*v));
      plan.values.push_back(result);
    }
  }
}

// How a pipe value gets its storage: stored over another pipe's tile, an
// accumulator carried to the next iteration, that accumulator rescaled in
// place, or one of a ring's tiles. Returns the loop's init args that carried
// accumulators take over.
static llvm::DenseSet<unsigned> markValueStorage(scf::ForOp loop,
                                                 LoopPlan &plan) {
  PlanInput &in = plan.input;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  llvm::DenseSet<unsigned> carriedInits;
  for (auto [i, v] : llvm::enumerate(in.values)) {
    Operation *producer = plan.loop.ops[v.producer];
    if (isa<tileas::TmemStoreOp, tileas::SmemStoreOp>(producer))
      if (OpOperand *into = tileas::getIntoOperand(producer))
        v.aliasOf = valueIndex(plan, into->get());
    if (auto ring = producer->getAttrOfType<StringAttr>("tileas.ring"))
      v.ring = ring.getValue().str();
    auto umma = dyn_cast<tileas::UmmaOp>(producer);
    bool nextOnly =
        llvm::all_of(v.consumers, [](auto &c) { return c.second == 1; });
    if (!umma || !umma.getAccumulate() || !nextOnly)
      continue;
    for (OpOperand &use : plan.values[i].getUses())
      if (use.getOwner() == yield &&
          loop.getInitArgs()[use.getOperandNumber()]
              .getDefiningOp<tileas::AllocTmemOp>()) {
        v.carried = true;
        carriedInits.insert(use.getOperandNumber());
      }
  }
  for (auto [i, v] : llvm::enumerate(in.values))
    for (OpOperand &use : plan.values[i].getUses())
      if (auto umma = dyn_cast<tileas::UmmaOp>(use.getOwner()))
        if (umma.getAccumulate() && use.get() == umma.getAcc())
          if (std::optional<unsigned> a = valueIndex(plan, umma.getResult());
              a && in.values[*a].carried)
            v.inPlaceOf = *a;
  return carriedInits;
}

// Storage held for the loop's whole run outside any pipe: accumulators
// carried across the loop hold their TMEM columns (a carried pipe's slot is
// its accumulator), tiles made before the loop their SMEM.
static void countFixedStorage(scf::ForOp loop, PlanInput &in,
                              const llvm::DenseSet<unsigned> &carriedInits) {
  for (auto [k, init] : llvm::enumerate(loop.getInitArgs()))
    if (auto tmem = dyn_cast<tileas::TmemType>(init.getType()))
      if (!carriedInits.contains(unsigned(k)))
        in.fixedTmemColumns += tileas::getTmemColumns(tmem);
  in.fixedSmemBytes = loopInvariantSmemBytes(loop);
  in.smemCarveout = kSmemCarveout;
}

// Tiles the threads stage in SMEM inside the loop for their own agent (a
// register tile read back transposed, a wgmma operand they write): no pipe,
// one buffer each for the loop's run, which the translation gives them
// (cuda/analysis/KernelLayout.cpp) and the scheduler orders the next write
// after (scheduler/mlir/LoopProblem.cpp, orderStagedReads).
static void countLoopStaging(scf::ForOp loop, LoopPlan &plan) {
  PlanInput &in = plan.input;
  llvm::DenseSet<mlir::Value> piped(plan.values.begin(), plan.values.end());
  loop.getBody()->walk([&](tileas::SmemStoreOp store) {
    if (!store.getDst() && !piped.contains(store.getResult()))
      in.loopStagingSmemBytes +=
          cast<tileas::SmemType>(store.getType()).getSizeInBytes();
  });
  in.fixedSmemBytes += in.loopStagingSmemBytes;
}

static bool hasUmma(scf::ForOp loop) {
  return bool(loop.getBody()
                  ->walk([](tileas::UmmaOp) { return WalkResult::interrupt(); })
                  .wasInterrupted());
}

// The function's loops share its SMEM. Loops in turn lie over each other's
// rings in peeled code (cuda/analysis/KernelLayout.cpp,
// overlaySequentialLoops), but not the rings a tcgen05 MMA reads, which no
// thread sees drained: beside a loop with such an MMA, a loop leaves the
// others at least one slot per tile they load or stage, so that widening
// one cannot take what the others cannot do without. A loop of one trip
// beside others (the code after the loop that has an MMA) has nothing to
// overlap and is not widened.
static void reserveOtherLoops(scf::ForOp loop, PlanInput &in) {
  auto func = loop->getParentOfType<FunctionOpInterface>();
  bool others = false;
  func->walk([&](scf::ForOp other) {
    if (other == loop || other->getParentOfType<tileas::AgentOp>() ||
        other->isAncestor(loop) || loop->isAncestor(other))
      return;
    others = true;
    if (!hasUmma(loop) && !hasUmma(other))
      return;
    other.getBody()->walk([&](Operation *op) {
      if (!isa<tileas::TmaLoadOp, tileas::SmemStoreOp, tileas::CpAsyncOp>(op))
        return;
      if (auto smem = dyn_cast<tileas::SmemType>(op->getResult(0).getType()))
        in.otherLoopsSmemBytes += smem.getSizeInBytes();
    });
  });
  in.fixedSmemBytes += in.otherLoopsSmemBytes;
  std::optional<int64_t> trips = constantTripCount(
      loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
  if (others && trips && *trips <= 1)
    in.maxMainloopDepth = 1;
}

// Persistent tiles: the next tile's loads refill the drained slots while
// this tile's epilogue stages its output, so the staging keeps its own
// buffer: the tiles the epilogue stages (smem_store) or loads (tma_load of
// C) count as fixed SMEM and are no overlay candidates.
static void keepStagingApart(scf::ForOp loop, LoopPlan &plan) {
  PlanInput &in = plan.input;
  plan.candidates.epilogueSmemBytes = 0;
  plan.epilogueStores.clear();
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode())
    op->walk([&](Operation *inner) {
      auto store = dyn_cast<tileas::SmemStoreOp>(inner);
      auto load = dyn_cast<tileas::TmaLoadOp>(inner);
      if ((store && !store.getDst()) || (load && !load.getDst()))
        in.stagingSmemBytes +=
            cast<tileas::SmemType>(inner->getResult(0).getType())
                .getSizeInBytes();
    });
  // A Hopper accumulator needs no staging of its own: the translation's
  // first choice runs the epilogue on the fragment's rows (docs/cuda.md,
  // "The epilogue on the fragment"), a narrow tile's too. Its fallback, the
  // f32 accumulator staged through SMEM, is laid out beside this plan and
  // refused where the CTA's SMEM does not hold it
  // (cuda/analysis/KernelLayout.cpp).
  in.fixedSmemBytes += in.stagingSmemBytes;
}

// Mutexes: singleton units used by several warp groups. The TMEM and SMEM
// transports (tp_*) are not such units: each warp reaches only its own 32
// TMEM lanes through its sub-partition's datapath, so two warp groups never
// take turns on them (FA4 has no TMEM mutex).
static void planLoopMutexes(LoopPlan &plan, const target::TargetModel &target) {
  const LoopProblem &lp = plan.loop;
  std::vector<std::vector<unsigned>> singleton;
  for (auto [id, op] : llvm::enumerate(lp.ops)) {
    auto group = op->getAttrOfType<IntegerAttr>("tileas.warp_group");
    plan.warpGroups.push_back(group ? std::optional<unsigned>(group.getInt())
                                    : std::nullopt);
    std::vector<unsigned> slots;
    for (unsigned slotId : lp.problem.getOp(id).slotIds)
      if (const target::SlotInfo *slot = target.getSlot(slotId))
        if (!slot->pool && !llvm::StringRef(slot->name).starts_with("tp_"))
          slots.push_back(slotId);
    singleton.push_back(std::move(slots));
  }
  plan.mutexes =
      planMutexes(plan.schedule, plan.warpGroups, singleton, plan.input.caps);
}

FailureOr<LoopPlan> tilepipe::buildLoopPlan(scf::ForOp loop,
                                            const PublishedSchedules *published,
                                            const target::TargetModel &target,
                                            std::string &why, bool persistent) {
  FailureOr<LoopProblem> built = buildLoopProblem(loop, target);
  if (failed(built)) {
    why = "its ops do not form a valid scheduling problem";
    return failure();
  }
  LoopPlan plan{std::move(*built), {}, {}, {}, {}, {}, {}, {}, {}, {}, {}};
  if (failed(readCheckedSchedule(loop, published, plan, why)))
    return failure();

  PlanInput &in = plan.input;
  in.problem = &plan.loop.problem;
  in.schedule = &plan.schedule;
  in.caps = target.getCaps();
  for (const sched::Operation &op : plan.loop.problem.getOps())
    in.units.push_back(unitOfClass(op.opClass));
  // Hopper's MMA is issued by whole warpgroups, each holding its 64-row
  // bands of the accumulator in registers (PTX wgmma). One warpgroup holds
  // the whole M x N tile when that is at most 128 f32 registers a thread
  // (M N / 128: a 128 x 128 tile), leaving the rest of the register file
  // to the epilogue; a larger tile gets a warpgroup per 64 rows (two for
  // 128 x 256, CUTLASS's cooperative consumers), N / 2 registers each, and
  // so does every tile of attention, whose agent holds S, P and O at once
  // (ir/WgmmaWarpgroups.h).
  for (Operation *op : plan.loop.ops) {
    auto mma = dyn_cast<tileas::WgmmaOp>(op);
    plan.minWarps.push_back(mma ? int32_t(4 * tileas::consumerWarpgroups(mma))
                                : 0);
  }
  collectPipeValues(loop, plan);
  llvm::DenseSet<unsigned> carriedInits = markValueStorage(loop, plan);
  countFixedStorage(loop, in, carriedInits);
  countLoopStaging(loop, plan);
  reserveOtherLoops(loop, in);
  collectCandidates(loop, plan);
  in.persistent = persistent;
  if (persistent)
    keepStagingApart(loop, plan);

  sched::DiagnosticList diags;
  std::optional<BufferPlan> buffers =
      searchBuffers(in, plan.candidates, plan.choice, diags);
  if (!buffers) {
    for (const sched::Diagnostic &d : diags.all())
      emitError(loop.getLoc()) << d.message;
    why.clear(); // A real failure, already reported.
    return failure();
  }
  plan.buffers = std::move(*buffers);
  planLoopMutexes(plan, target);
  return plan;
}

// The plan as text (print-plan): a paragraph per pipe, a line per mutex,
// what the search took, and the budgets.
static void printPipe(llvm::raw_ostream &os, const LoopPlan &plan,
                      unsigned index, const PipePlan &pipe) {
  const sched::Problem &problem = plan.loop.problem;
  const sched::ScheduleAnalysis &s = plan.schedule;
  PipeFlavour f = pipeFlavour(pipe);
  os << "pipe " << index << ": '" << problem.getOp(pipe.producer).name
     << "' (stage " << s.slots[pipe.producer].stage << ") -> ";
  for (auto [i, c] : llvm::enumerate(pipe.consumers))
    os << (i ? ", '" : "'") << problem.getOp(c).name << "' (stage "
       << s.slots[c].stage << ")";
  os << "\n  " << stringifyUnit(pipe.producerUnit) << " -> "
     << stringifyUnit(pipe.consumerUnit) << ", "
     << stringifyBufferClass(pipe.cls) << " ";
  if (pipe.cls == BufferClass::TMEM)
    os << pipe.tmemColumns << " columns";
  else
    os << pipe.bytes << " B";
  os << ", depth " << pipe.depth << " (lifetime " << pipe.minDepth
     << (pipe.minDepth == 1 ? " stage)" : " stages)");
  if (pipe.sharesWith)
    os << ", shares the buffers of pipe " << *pipe.sharesWith;
  if (pipe.aliasOf)
    os << ", written over the slots of pipe " << *pipe.aliasOf;
  if (pipe.ringOf)
    os << ", member " << pipe.ringMember << " of the ring of pipe "
       << *pipe.ringOf;
  else if (pipe.ringSize > 1)
    os << ", ring of " << pipe.ringSize << " tiles per iteration";
  if (pipe.carried)
    os << ", carried to the next iteration";
  os << "\n  commit " << f.commit << ", release " << f.release;
  if (!f.producerFence.empty())
    os << ", producer fence " << f.producerFence;
  if (!f.consumerFence.empty())
    os << ", consumer fence " << f.consumerFence;
  os << ", " << f.barriers << " mbarriers\n";
}

static void printMutex(llvm::raw_ostream &os, const LoopPlan &plan,
                       unsigned index, const MutexPlan &m) {
  const rrt::ResourceLayout &layout = plan.loop.problem.getLayout();
  os << "mutex " << index << ": slot "
     << (m.slot - 1 < layout.numBits() ? layout.bitNames[m.slot - 1]
                                       : std::to_string(m.slot))
     << ", groups";
  for (unsigned g : m.groups)
    os << " " << g;
  if (m.namedBarrier)
    os << ", named barrier " << *m.namedBarrier << "\n";
  else
    os << ", mbarrier ring\n";
}

// What the plan search took, when the plan as written did not fit.
static void printSearch(llvm::raw_ostream &os, const LoopPlan &plan) {
  const sched::Problem &problem = plan.loop.problem;
  const PlanChoice &c = plan.choice;
  os << "search: as written the plan needs " << c.asWritten.smemBytes
     << " B of smem and " << c.asWritten.tmemColumns
     << " tmem columns; took, of " << c.tried << " plans tried:";
  bool any = false;
  for (auto [i, a] : llvm::enumerate(plan.candidates.aliases))
    if (c.aliases[i]) {
      os << (any ? ";" : "") << " '"
         << problem.getOp(plan.input.values[a.value].producer).name
         << "' over the columns of '"
         << problem.getOp(plan.input.values[a.base].producer).name << "'";
      any = true;
    }
  for (auto [i, ring] : llvm::enumerate(plan.candidates.rings))
    if (c.rings[i]) {
      os << (any ? ";" : "") << " one ring for";
      for (auto [k, v] : llvm::enumerate(ring))
        os << (k ? ", '" : " '")
           << problem.getOp(plan.input.values[v].producer).name << "'";
      any = true;
    }
  if (c.timelineDepths) {
    os << (any ? ";" : "") << " depths by the timeline";
    any = true;
  }
  if (c.overlay && plan.buffers.overlaid) {
    os << (any ? ";" : "") << " the epilogue's "
       << plan.candidates.epilogueSmemBytes
       << " B of staging tiles over the drained slots";
    any = true;
  }
  if (!any)
    os << " nothing";
  os << "\n";
}

static void printBudgets(llvm::raw_ostream &os, const LoopPlan &plan) {
  int64_t overlaid =
      plan.buffers.overlaid ? plan.input.overlaySmemBytes : int64_t(0);
  os << "smem " << plan.buffers.smemBytes << " B ("
     << plan.input.fixedSmemBytes - overlaid - plan.input.stagingSmemBytes -
            plan.input.loopStagingSmemBytes - plan.input.otherLoopsSmemBytes
     << " B of it tiles made before the loop";
  if (plan.input.otherLoopsSmemBytes)
    os << "; " << plan.input.otherLoopsSmemBytes
       << " B left to the function's other loops";
  if (plan.input.loopStagingSmemBytes)
    os << "; " << plan.input.loopStagingSmemBytes
       << " B the threads stage in the loop";
  if (plan.input.stagingSmemBytes)
    os << "; " << plan.input.stagingSmemBytes
       << " B the epilogue's staging, in its own buffers (persistent)";
  if (overlaid)
    os << "; " << overlaid << " B of epilogue tiles over the drained slots";
  os << ") of " << plan.input.caps.smemBytes - plan.input.smemCarveout
     << ", tmem " << plan.buffers.tmemColumns << " columns of "
     << plan.input.caps.tmemColumns << "\n";
}

void tilepipe::printLoopPlan(llvm::raw_ostream &os, const LoopPlan &plan) {
  const sched::ScheduleAnalysis &s = plan.schedule;
  os << "II " << s.ii << ", stages " << s.numStages << ", pipes "
     << plan.buffers.pipes.size() << ", mutexes " << plan.mutexes.size()
     << "\n";
  for (auto [index, pipe] : llvm::enumerate(plan.buffers.pipes))
    printPipe(os, plan, unsigned(index), pipe);
  for (auto [index, m] : llvm::enumerate(plan.mutexes))
    printMutex(os, plan, unsigned(index), m);
  if (plan.choice.searched)
    printSearch(os, plan);
  printBudgets(os, plan);
}
