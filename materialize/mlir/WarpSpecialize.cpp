//===- WarpSpecialize.cpp - emit agents connected by pipes ----------------===//
//
// Rewrites a planned loop into warp-specialized code: the pipes and mutexes
// are created before it, and each agent (load, mma, one SIMT agent per warp
// group) gets its own copy of the loop holding only its ops, connected to
// the others only through pipe handshakes. Pure ops another agent needs
// (index arithmetic) are recomputed there. The code after the loop that
// reads its results runs in the agent that produces them.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/WarpSpecialize.h"

#include "ir/TileASDialect.h"
#include "materialize/plan/AgentProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tilepipe;
using materialize::AgentKey;
using materialize::BufferClass;
using materialize::MutexPlan;
using materialize::PipePlan;
using materialize::Unit;

LogicalResult tilepipe::emitWarpSpecialized(LoopPlan &plan, std::string &why) {
  scf::ForOp loop = plan.loop.loop;
  MLIRContext *ctx = loop.getContext();
  const std::vector<Operation *> &ops = plan.loop.ops;
  const sched::ScheduleAnalysis &schedule = plan.schedule;
  const unsigned n = ops.size();

  // Agents laid out as the protocol program that was checked lays them.
  materialize::AgentLayout layout =
      materialize::layoutAgents(schedule, plan.input.units, plan.warpGroups);
  const std::vector<AgentKey> &keys = layout.keys;
  const std::vector<unsigned> &agentOf = layout.agentOfOp;
  llvm::DenseMap<Value, unsigned> pipeOf;
  for (auto [p, pipe] : llvm::enumerate(plan.buffers.pipes))
    pipeOf[plan.values[pipe.value]] = unsigned(p);

  // What cannot be split: a value crossing agents outside a pipe when it is
  // not free to recompute, a pipe read one iteration late, and loop results
  // owned by two agents or returned from the function.
  Block *body = loop.getBody();
  for (auto [id, op] : llvm::enumerate(ops)) {
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      unsigned distance = 0;
      if (auto arg = dyn_cast<BlockArgument>(operand)) {
        if (arg.getOwner() != body || arg.getArgNumber() == 0)
          continue;
        def = body->getTerminator()
                  ->getOperand(arg.getArgNumber() - 1)
                  .getDefiningOp();
        distance = 1;
      }
      auto it = def ? plan.loop.ids.find(def) : plan.loop.ids.end();
      if (it == plan.loop.ids.end() || agentOf[it->second] == agentOf[id])
        continue;
      bool viaPipe = distance == 0 && pipeOf.count(operand);
      if (distance && llvm::any_of(def->getResults(),
                                   [&](Value v) { return pipeOf.count(v); })) {
        why = "a pipe consumer reads the previous iteration's value";
        return failure();
      }
      if (!viaPipe && !isMemoryEffectFree(def)) {
        why = "a value crosses from the " + keys[agentOf[it->second]].role +
              " agent to the " + keys[agentOf[id]].role +
              " agent outside a pipe";
        return failure();
      }
    }
  }
  std::optional<unsigned> epilogueOwner;
  for (OpResult result : loop->getResults()) {
    if (result.use_empty())
      continue;
    Operation *def = body->getTerminator()
                         ->getOperand(result.getResultNumber())
                         .getDefiningOp();
    auto it = def ? plan.loop.ids.find(def) : plan.loop.ids.end();
    if (it == plan.loop.ids.end()) {
      why = "a loop result is not produced inside the loop";
      return failure();
    }
    if (epilogueOwner && *epilogueOwner != agentOf[it->second]) {
      why = "loop results come from two agents";
      return failure();
    }
    epilogueOwner = agentOf[it->second];
  }
  // The code after the loop that reads its results, in block order.
  llvm::SetVector<Operation *> epilogue;
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
    bool reads = llvm::any_of(op->getOperands(), [&](Value v) {
      return v.getDefiningOp() == loop.getOperation() ||
             epilogue.contains(v.getDefiningOp());
    });
    if (!reads)
      continue;
    if (op->hasTrait<OpTrait::IsTerminator>() || op->getNumResults()) {
      bool escapes = op->hasTrait<OpTrait::IsTerminator>();
      for (Value r : op->getResults())
        for (Operation *user : r.getUsers())
          escapes |= user->hasTrait<OpTrait::IsTerminator>();
      if (escapes) {
        why = "the loop's results leave the function";
        return failure();
      }
    }
    epilogue.insert(op);
  }

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto scheduleAttrs = [&](sched::OpId id) {
    return SmallVector<NamedAttribute>{
        b.getNamedAttr("stage", b.getI32IntegerAttr(schedule.slots[id].stage)),
        b.getNamedAttr("order", b.getI32IntegerAttr(schedule.slots[id].order))};
  };

  // Pipes and mutexes first.
  std::vector<Value> pipes = createPipes(b, plan);
  std::vector<Value> mutexes;
  for (const MutexPlan &m : plan.mutexes) {
    SmallVector<NamedAttribute> attrs = {
        b.getNamedAttr("groups", b.getI32IntegerAttr(m.groups.size())),
        b.getNamedAttr(
            "impl", b.getStringAttr(m.namedBarrier ? "namedbar" : "mbarrier"))};
    if (m.namedBarrier)
      attrs.push_back(
          b.getNamedAttr("barrier_id", b.getI32IntegerAttr(*m.namedBarrier)));
    mutexes.push_back(createOp(b, loc, "tileas.mutex.create", {},
                               {tileas::MutexType::get(ctx)}, attrs)
                          ->getResult(0));
  }

  for (auto [a, key] : llvm::enumerate(keys)) {
    StringRef role =
        key.role == "simt" &&
                llvm::any_of(ops,
                             [&](Operation *op) {
                               return op->hasAttr("tileas.warp_group");
                             })
            ? "softmax"
            : StringRef(key.role);
    OperationState state(loc, "tileas.agent");
    state.addAttribute("role", b.getStringAttr(role));
    state.addAttribute(
        "warps", b.getI32IntegerAttr(role == "load" || role == "mma" ? 1 : 4));
    Region *region = state.addRegion();
    Block *agentBlock = new Block();
    region->push_back(agentBlock);
    b.create(state);

    OpBuilder ab = OpBuilder::atBlockEnd(agentBlock);
    IRMapping map;
    auto clone = cast<scf::ForOp>(ab.clone(*loop.getOperation(), map));
    Block *cbody = clone.getBody();

    // The iteration number: pipes index slots by it, not by the induction
    // variable's value.
    OpBuilder lb = OpBuilder::atBlockBegin(cbody);
    Value iv = clone.getInductionVar();
    Value iter = lb.create<arith::DivUIOp>(
        loc, lb.create<arith::SubIOp>(loc, iv, clone.getLowerBound()),
        clone.getStep());

    std::vector<Operation *> cloned(n);
    for (auto [id, op] : llvm::enumerate(ops))
      cloned[id] = map.lookup(op);
    auto inAgent = [&](sched::OpId id) { return agentOf[id] == a; };

    // Producer side: acquire before, commit after.
    for (auto [p, pipe] : llvm::enumerate(plan.buffers.pipes)) {
      if (!inAgent(pipe.producer))
        continue;
      Operation *prod = cloned[pipe.producer];
      OpBuilder pb(prod);
      Type payload = plan.values[pipe.value].getType();
      Value pipeValue = pipes[p];
      createOp(pb, loc, "tileas.pipe.producer_acquire", {pipeValue, iter},
               {payload}, scheduleAttrs(pipe.producer));
      pb.setInsertionPointAfter(prod);
      createOp(pb, loc, "tileas.pipe.producer_commit", {pipeValue, iter}, {},
               scheduleAttrs(pipe.producer));
    }
    // Consumer side: wait before the first use in this agent, release after
    // the last, and read the waited buffer.
    for (auto [p, pipe] : llvm::enumerate(plan.buffers.pipes)) {
      if (inAgent(pipe.producer))
        continue;
      std::optional<sched::OpId> first, last;
      for (sched::OpId c : pipe.consumers) {
        if (!inAgent(c))
          continue;
        if (!first || schedule.slots[c].order < schedule.slots[*first].order)
          first = c;
        if (!last || schedule.slots[c].order > schedule.slots[*last].order)
          last = c;
      }
      if (!first)
        continue;
      Value original = map.lookup(plan.values[pipe.value]);
      OpBuilder cb(cloned[*first]);
      Value buffer =
          createOp(cb, loc, "tileas.pipe.consumer_wait", {pipes[p], iter},
                   {original.getType()}, scheduleAttrs(*first))
              ->getResult(0);
      original.replaceUsesWithIf(buffer, [&](OpOperand &use) {
        Operation *user = use.getOwner();
        while (user && user->getBlock() != cbody)
          user = user->getParentOp();
        for (sched::OpId c : pipe.consumers)
          if (inAgent(c) && cloned[c] == user)
            return true;
        return false;
      });
      cb.setInsertionPointAfter(cloned[*last]);
      createOp(cb, loc, "tileas.pipe.consumer_release", {pipes[p], iter}, {},
               scheduleAttrs(*last));
    }
    // Mutexes around this agent's span on the shared unit.
    for (auto [mi, m] : llvm::enumerate(plan.mutexes)) {
      std::optional<unsigned> group =
          llvm::find(m.groups, key.group) != m.groups.end()
              ? std::optional<unsigned>(unsigned(
                    llvm::find(m.groups, key.group) - m.groups.begin()))
              : std::nullopt;
      SmallVector<sched::OpId> mine;
      for (sched::OpId o : m.ops)
        if (inAgent(o))
          mine.push_back(o);
      if (mine.empty() || !group)
        continue;
      OpBuilder mb(cloned[mine.front()]);
      Value g = mb.create<arith::ConstantIndexOp>(loc, *group);
      createOp(mb, loc, "tileas.mutex.lock", {mutexes[mi], g}, {},
               scheduleAttrs(mine.front()));
      mb.setInsertionPointAfter(cloned[mine.back()]);
      createOp(mb, loc, "tileas.mutex.unlock", {mutexes[mi], g}, {},
               scheduleAttrs(mine.back()));
    }
    // Values carried for another agent pass through unchanged here.
    Operation *yield = cbody->getTerminator();
    for (OpOperand &operand : yield->getOpOperands()) {
      Operation *def = operand.get().getDefiningOp();
      for (auto [id, op] : llvm::enumerate(ops))
        if (cloned[id] == def && !inAgent(id))
          operand.set(clone.getRegionIterArgs()[operand.getOperandNumber()]);
    }
    // Drop the other agents' ops (pure ones this agent still reads stay).
    for (bool changed = true; changed;) {
      changed = false;
      for (auto [id, op] : llvm::enumerate(ops)) {
        Operation *c = cloned[id];
        if (!c || inAgent(id) || !c->use_empty())
          continue;
        c->erase();
        cloned[id] = nullptr;
        changed = true;
      }
    }
    for (auto [id, op] : llvm::enumerate(ops))
      if (cloned[id] && !inAgent(id) && !isMemoryEffectFree(cloned[id])) {
        why = "an op of another agent is still needed in the " + key.role +
              " agent";
        return failure();
      }
    // The code after the loop runs where the loop's results are produced.
    if (epilogueOwner && *epilogueOwner == a) {
      IRMapping after;
      for (auto [r, cr] : llvm::zip(loop->getResults(), clone->getResults()))
        after.map(r, cr);
      for (Operation *op : epilogue)
        ab.clone(*op, after);
    }
    createOp(ab, loc, "tileas.agent_yield", {}, {}, {});
  }

  for (Operation *op : llvm::reverse(epilogue))
    op->erase();
  loop->erase();
  return success();
}
