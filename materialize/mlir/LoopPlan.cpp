//===- LoopPlan.cpp - schedule in, pipe plan out --------------------------===//

#include "materialize/mlir/LoopPlan.h"

#include "attrs/AttrNames.h"
#include "ir/TileASDialect.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/SetVector.h"
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

FailureOr<LoopPlan> tilepipe::buildLoopPlan(scf::ForOp loop,
                                            const PublishedSchedules *published,
                                            const target::TargetModel &target,
                                            std::string &why) {
  FailureOr<LoopProblem> built = buildLoopProblem(loop, target);
  if (failed(built)) {
    why = "its ops do not form a valid scheduling problem";
    return failure();
  }
  LoopPlan plan{std::move(*built), {}, {}, {}, {}, {}, {}};
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
  plan.schedule =
      sched::ScheduleAnalysis::fromSchedule(lp.problem, *schedule, kind);
  constexpr unsigned kMaxStages = 256;
  if (plan.schedule.numStages > kMaxStages) {
    why = "its schedule has " + std::to_string(plan.schedule.numStages) +
          " stages; stage code is emitted for at most " +
          std::to_string(kMaxStages);
    return failure();
  }

  PlanInput &in = plan.input;
  in.problem = &lp.problem;
  in.schedule = &plan.schedule;
  in.caps = target.getCaps();
  for (const sched::Operation &op : lp.problem.getOps())
    in.units.push_back(unitOfClass(op.opClass));

  // Every tile handed from one unit to another becomes a pipe.
  for (auto [id, op] : llvm::enumerate(lp.ops)) {
    for (mlir::Value result : op->getResults()) {
      auto smem = dyn_cast<tileas::SmemType>(result.getType());
      auto tmem = dyn_cast<tileas::TmemType>(result.getType());
      if (!smem && !tmem)
        continue;
      materialize::Value v;
      v.producer = sched::OpId(id);
      v.cls = smem ? BufferClass::SMEM : BufferClass::TMEM;
      v.bytes = smem ? smem.getSizeInBytes() : tmem.getSizeInBytes();
      v.tmemColumns = tmem ? tileas::getTmemColumns(tmem) : 0;
      std::string key;
      llvm::raw_string_ostream os(key);
      os << result.getType();
      v.typeKey = key;
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
          BlockArgument carried =
              loop.getRegionIterArgs()[use.getOperandNumber()];
          for (OpOperand &next : carried.getUses())
            addUse(next.getOwner(), 1);
          continue;
        }
        addUse(use.getOwner(), 0);
      }
      // Another unit, or another warp group of SIMT threads (FA4's softmax
      // statistics read by the correction warp group), is another agent.
      auto groupOf = [&](sched::OpId id) -> std::optional<int64_t> {
        if (auto g =
                lp.ops[id]->getAttrOfType<IntegerAttr>("tileas.warp_group"))
          return g.getInt();
        return std::nullopt;
      };
      bool crossesUnits = llvm::any_of(v.consumers, [&](auto &c) {
        return in.units[c.first] != in.units[v.producer] ||
               (in.units[c.first] == Unit::SIMT &&
                groupOf(c.first) != groupOf(v.producer));
      });
      if (!crossesUnits)
        continue;
      in.values.push_back(std::move(v));
      plan.values.push_back(result);
    }
  }

  // How a pipe value gets its storage: stored over another pipe's tile,
  // an accumulator carried to the next iteration, that accumulator rescaled
  // in place, or one of a ring's tiles.
  auto valueIndex = [&](mlir::Value x) -> std::optional<unsigned> {
    for (auto [i, v] : llvm::enumerate(plan.values))
      if (v == x)
        return unsigned(i);
    return std::nullopt;
  };
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  llvm::DenseSet<unsigned> carriedInits;
  for (auto [i, v] : llvm::enumerate(in.values)) {
    Operation *producer = lp.ops[v.producer];
    if (isa<tileas::TmemStoreOp, tileas::SmemStoreOp>(producer))
      if (OpOperand *into = tileas::getIntoOperand(producer))
        v.aliasOf = valueIndex(into->get());
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
          if (std::optional<unsigned> a = valueIndex(umma.getResult());
              a && in.values[*a].carried)
            v.inPlaceOf = *a;

  // Accumulators carried across the loop hold their TMEM columns for its
  // whole run, outside any pipe (a carried pipe's slot is its accumulator).
  for (auto [k, init] : llvm::enumerate(loop.getInitArgs()))
    if (auto tmem = dyn_cast<tileas::TmemType>(init.getType()))
      if (!carriedInits.contains(unsigned(k)))
        in.fixedTmemColumns += tileas::getTmemColumns(tmem);
  in.fixedSmemBytes = loopInvariantSmemBytes(loop);
  in.smemCarveout = kSmemCarveout;

  sched::DiagnosticList diags;
  std::optional<BufferPlan> buffers = planBuffers(in, diags);
  if (!buffers) {
    for (const sched::Diagnostic &d : diags.all())
      emitError(loop.getLoc()) << d.message;
    why.clear(); // A real failure, already reported.
    return failure();
  }
  plan.buffers = std::move(*buffers);

  // Mutexes: singleton units used by several warp groups. The TMEM and
  // SMEM transports (tp_*) are not such units: each warp reaches only its
  // own 32 TMEM lanes through its sub-partition's datapath, so two warp
  // groups never take turns on them (FA4 has no TMEM mutex).
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
      planMutexes(plan.schedule, plan.warpGroups, singleton, in.caps);
  return plan;
}

void tilepipe::printLoopPlan(llvm::raw_ostream &os, const LoopPlan &plan) {
  const sched::Problem &problem = plan.loop.problem;
  const sched::ScheduleAnalysis &s = plan.schedule;
  os << "II " << s.ii << ", stages " << s.numStages << ", pipes "
     << plan.buffers.pipes.size() << ", mutexes " << plan.mutexes.size()
     << "\n";
  for (auto [index, pipe] : llvm::enumerate(plan.buffers.pipes)) {
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
  for (auto [index, m] : llvm::enumerate(plan.mutexes)) {
    const rrt::ResourceLayout &layout = problem.getLayout();
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
  os << "smem " << plan.buffers.smemBytes << " B (" << plan.input.fixedSmemBytes
     << " B of it tiles made before the loop) of "
     << plan.input.caps.smemBytes - plan.input.smemCarveout << ", tmem "
     << plan.buffers.tmemColumns << " columns of "
     << plan.input.caps.tmemColumns << "\n";
}

Operation *tilepipe::createOp(OpBuilder &b, Location loc, StringRef name,
                              ValueRange operands, TypeRange types,
                              ArrayRef<NamedAttribute> attrs) {
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addTypes(types);
  state.addAttributes(attrs);
  return b.create(state);
}
