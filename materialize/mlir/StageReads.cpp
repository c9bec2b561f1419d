//===- StageReads.cpp - what each op of the stage code reads --------------===//
//
// After the agent partition: every value an op reads comes from its own
// agent (a register, rotated when read rows later), from a pipe slot (one
// wait per consumer group), or is recomputed (free ops). This step decides
// which, and how each consumer group gives its slot back. It builds no IR.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/StageCodeEmitter.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::stagecode;
using materialize::BufferClass;
using materialize::PipePlan;

LogicalResult StageCodeEmitter::checkBody(std::string &why) {
  isFree = findFreeOps(plan.loop);
  // Nothing to hand between agents (an empty loop, or one of free index
  // arithmetic): no agent would run it.
  if (llvm::all_of(isFree, [](bool free) { return free; })) {
    why = "the loop has no schedulable op";
    return failure();
  }
  for (Operation *op : ops)
    if (op->getNumRegions()) {
      why = "an op with regions ('" + op->getName().getStringRef().str() +
            "') is in the loop body";
      return failure();
    }
  return success();
}

void StageCodeEmitter::partition() {
  materialize::PartitionInput input{plan.input.units, plan.warpGroups, isFree,
                                    mode == StageCodeMode::Unspecialized,
                                    plan.minWarps};
  materialize::AgentPartition split =
      materialize::partitionAgents(input, schedule);
  agentOf = std::move(split.agentOf);
  for (materialize::AgentPart &part : split.agents) {
    agents.emplace_back();
    static_cast<materialize::AgentPart &>(agents.back()) = std::move(part);
  }
}

/// Register tiles read by another warp group go through SMEM pipes when
/// the agents are split; in peeled code one agent keeps them in registers.
LogicalResult StageCodeEmitter::planRegisterPipes(std::string &why) {
  Operation *yield = body->getTerminator();
  regPipe.assign(plan.buffers.pipes.size(), false);
  regCarried.assign(plan.buffers.pipes.size(), false);
  for (auto [p, pipe] : llvm::enumerate(plan.buffers.pipes)) {
    Value v = plan.values[pipe.value];
    if (!isa<RankedTensorType>(v.getType())) {
      pipeOf[v] = unsigned(p);
      continue;
    }
    regPipe[p] = true;
    if (mode == StageCodeMode::Unspecialized)
      continue;
    pipeOf[v] = unsigned(p);
    const auto &uses = plan.input.values[pipe.value].consumers;
    bool next = llvm::any_of(uses, [](auto &c) { return c.second != 0; });
    bool same = llvm::any_of(uses, [](auto &c) { return c.second == 0; });
    if (next && same) {
      why = "a " + typeName(v.getType()) + " value made by the " +
            agentName(agentOf[pipe.producer]) +
            " is read in its own iteration by one agent and in the next "
            "by another";
      return failure();
    }
    if (!next) {
      for (auto [c, distance] : uses) {
        auto key = std::make_pair(unsigned(agentOf[c]), v);
        auto [it, fresh] = copyStage.try_emplace(key, stageOf(c));
        if (!fresh)
          it->second = std::min(it->second, stageOf(c));
      }
      continue;
    }
    SmallVector<unsigned> at;
    for (OpOperand &use : v.getUses())
      if (use.getOwner() == yield)
        at.push_back(use.getOperandNumber());
    if (at.size() != 1) {
      why = "a " + typeName(v.getType()) +
            " value carried to another agent is yielded more than once";
      return failure();
    }
    regCarried[p] = true;
    regCarriedArg[unsigned(p)] = at.front();
  }
  return success();
}

LogicalResult StageCodeEmitter::checkPipeProducers(std::string &why) {
  for (auto [p, pipe] : llvm::enumerate(plan.buffers.pipes)) {
    Operation *prod = ops[pipe.producer];
    if (regPipe[p])
      continue;
    if (prod->getNumResults() != 1) {
      why = "a pipe producer has several results";
      return failure();
    }
    if (!isa<tileas::TmaLoadOp, tileas::CpAsyncOp, tileas::TmemStoreOp,
             tileas::SmemStoreOp, tileas::TmemCopyOp, tileas::UmmaOp>(prod)) {
      why = "'" + prod->getName().getStringRef().str() +
            "' cannot write a pipe slot";
      return failure();
    }
    if (auto umma = dyn_cast<tileas::UmmaOp>(prod);
        umma && umma.getAccumulate() && !pipe.carried) {
      why = "an accumulating MMA's result is handed to another unit inside "
            "the loop";
      return failure();
    }
  }
  return success();
}

void StageCodeEmitter::joinGroup(unsigned p, OpId u) {
  unsigned a = agentOf[u];
  Unit unit = plan.input.units[u];
  auto g = llvm::find_if(groups, [&](const ConsumerGroup &c) {
    return c.pipe == p && c.agent == a && c.stage == stageOf(u) &&
           c.unit == unit;
  });
  if (g == groups.end()) {
    groups.push_back({p, a, stageOf(u), unit, {}});
    g = std::prev(groups.end());
  }
  if (llvm::find(g->ops, u) == g->ops.end()) {
    g->ops.push_back(u);
    groupsOfOp[u].push_back(unsigned(g - groups.begin()));
  }
}

void StageCodeEmitter::noteLag(unsigned a, Value v, unsigned lag) {
  unsigned &max = agents[a].lagged[v];
  max = std::max(max, lag);
}

/// A loop-carried value read by `u`: from a pipe (a carried accumulator or
/// register tile), from the copy the agent loaded last iteration, or from
/// the agent's own registers.
LogicalResult StageCodeEmitter::readCarried(OpId u, BlockArgument arg,
                                            std::string &why) {
  unsigned a = agentOf[u];
  unsigned k = arg.getArgNumber() - 1;
  Value carried = yielded(k);
  std::optional<OpId> w = bodyDef(carried);
  if (!w || isFree[*w]) {
    why = "a loop-carried value is not made by a scheduled op of the loop";
    return failure();
  }
  auto it = pipeOf.find(carried);
  // Another agent reads a register tile of the last iteration from its
  // pipe; the agent making it keeps it in a register.
  if (it != pipeOf.end() && regPipe[it->second] && agentOf[*w] == int(a))
    it = pipeOf.end();
  if (it != pipeOf.end() && regCarried[it->second]) {
    joinGroup(it->second, u);
    return success();
  }
  // The tile it loaded in the last iteration.
  if (it != pipeOf.end() && regPipe[it->second]) {
    auto cs = copyStage.find({a, carried});
    if (cs == copyStage.end()) {
      why = "a " + typeName(carried.getType()) +
            " value carried to the next iteration crosses from the " +
            agentName(agentOf[*w]) + " to the " + agentName(a);
      return failure();
    }
    int64_t lag = int64_t(stageOf(u)) + 1 - int64_t(cs->second);
    if (lag < 0) {
      why = "the " + agentName(a) + " reads a " + typeName(carried.getType()) +
            " value of the last iteration before it loads that of its own";
      return failure();
    }
    copies.insert({a, k});
    noteLag(a, carried, unsigned(lag));
    return success();
  }
  if (it != pipeOf.end()) {
    if (!plan.buffers.pipes[it->second].carried) {
      why = "a value handed through a pipe is also carried to the next "
            "iteration";
      return failure();
    }
    joinGroup(it->second, u);
    return success();
  }
  if (agentOf[*w] != int(a)) {
    why = "a " + typeName(carried.getType()) +
          " value carried to the next iteration crosses from the " +
          agentName(agentOf[*w]) + " to the " + agentName(a);
    return failure();
  }
  int64_t lag = int64_t(stageOf(u)) + 1 - int64_t(stageOf(*w));
  if (lag < 0) {
    why = "a loop-carried value is read before it is made";
    return failure();
  }
  noteLag(a, carried, unsigned(lag));
  return success();
}

/// A value of this iteration read by `u`: a free op's operands are read in
/// its place; others come from a pipe or from `u`'s own agent.
LogicalResult StageCodeEmitter::readValue(OpId u, Value x,
                                          SmallVectorImpl<Value> &worklist,
                                          std::string &why) {
  unsigned a = agentOf[u];
  std::optional<OpId> d = bodyDef(x);
  if (!d)
    return success();
  if (isFree[*d]) {
    worklist.append(ops[*d]->operand_begin(), ops[*d]->operand_end());
    return success();
  }
  if (auto it = pipeOf.find(x);
      it != pipeOf.end() && !(regPipe[it->second] && agentOf[*d] == int(a))) {
    joinGroup(it->second, u);
    return success();
  }
  if (agentOf[*d] != int(a)) {
    why = "a " + typeName(x.getType()) + " value crosses from the " +
          agentName(agentOf[*d]) + " to the " + agentName(a) +
          " outside a pipe";
    return failure();
  }
  if (stageOf(u) < stageOf(*d)) {
    why = "a value is read in an earlier stage than the one making it";
    return failure();
  }
  if (unsigned lag = stageOf(u) - stageOf(*d))
    noteLag(a, x, lag);
  return success();
}

LogicalResult StageCodeEmitter::collectReads(std::string &why) {
  Value iv = loop.getInductionVar();
  groupsOfOp.assign(ops.size(), {});
  for (OpId u : schedule.orderedOps) {
    if (isFree[u])
      continue;
    SmallVector<Value> worklist(ops[u]->getOperands());
    llvm::DenseSet<Value> visited;
    while (!worklist.empty()) {
      Value x = worklist.pop_back_val();
      if (!visited.insert(x).second || x == iv || !inBody(x))
        continue;
      LogicalResult read = isa<BlockArgument>(x)
                               ? readCarried(u, cast<BlockArgument>(x), why)
                               : readValue(u, x, worklist, why);
      if (failed(read))
        return failure();
    }
  }
  // Lag-0 carried reads need no register.
  for (Agent &agent : agents)
    agent.lagged.remove_if([](auto &entry) { return entry.second == 0; });
  return success();
}

LogicalResult StageCodeEmitter::planReleases(std::string &why) {
  // Groups that store over the tile they read hand the slot on.
  handsOn.assign(groups.size(), false);
  for (const PipePlan &pipe : plan.buffers.pipes)
    if (pipe.aliasOf)
      for (auto [g, group] : llvm::enumerate(groups))
        if (group.pipe == *pipe.aliasOf &&
            llvm::is_contained(group.ops, pipe.producer))
          handsOn[g] = true;
  holdSlots();
  return weighRingReleases(why);
}

/// The tiles of a ring share one empty barrier per slot, so each must be
/// released as often: the last group of a member read by fewer consumer
/// groups than another arrives for the difference with its own release.
LogicalResult StageCodeEmitter::weighRingReleases(std::string &why) {
  groupWeight.assign(groups.size(), 1);
  const auto &pipePlans = plan.buffers.pipes;
  std::vector<unsigned> readCount(pipePlans.size(), 0),
      mostOfRing(pipePlans.size(), 0);
  std::vector<int> lastGroup(pipePlans.size(), -1);
  for (auto [g, group] : llvm::enumerate(groups)) {
    ++readCount[group.pipe];
    lastGroup[group.pipe] = int(g);
  }
  auto headOf = [&](unsigned p) { return pipePlans[p].ringOf.value_or(p); };
  for (unsigned p = 0; p < pipePlans.size(); ++p)
    mostOfRing[headOf(p)] = std::max(mostOfRing[headOf(p)], readCount[p]);
  for (unsigned p = 0; p < pipePlans.size(); ++p) {
    unsigned most = mostOfRing[headOf(p)];
    if (pipePlans[headOf(p)].ringSize < 2 || readCount[p] == most)
      continue;
    int last = lastGroup[p];
    if (last < 0 || handsOn[last] || regPipe[p]) {
      why = "the tiles of one ring are read by different numbers of "
            "consumer groups, and one of them cannot release for the others";
      return failure();
    }
    groupWeight[last] += most - readCount[p];
  }
  return success();
}

/// A SIMT agent that loads a tile from a TMEM slot and goes on computing on
/// it elementwise keeps the slot until the last op reading the tile or a
/// tile made from it (attention's S: the row maximum, then exp2(S - m) a
/// stage later), so that the CUDA translation reads S from TMEM again in
/// column pieces where it is used instead of holding the whole row in
/// registers across the stage boundary (cuda/CarriedTiles.h, "TMEM slots
/// instead of tiles"). Only where the schedule's timeline allows it at the
/// planned depth: the last reader completes before the producer writes the
/// slot again, and starts before the agent waits on the slot again, so
/// neither the schedule nor the plan changes.
void StageCodeEmitter::holdSlots() {
  for (auto [g, group] : llvm::enumerate(groups)) {
    const PipePlan &pipe = plan.buffers.pipes[group.pipe];
    if (group.unit != Unit::SIMT || pipe.cls != BufferClass::TMEM ||
        handsOn[g] || regPipe[group.pipe] || pipe.carried || pipe.ringOf ||
        pipe.sharesWith || group.ops.empty())
      continue;
    // Only in an agent that also rescales an accumulator in place (loads O
    // from TMEM and stores it back in its own rows): there O's tile comes on
    // top of S and P in every row, and S is best read from TMEM again. An
    // agent without one keeps S in registers: re-reading it costs spills
    // there (attention_fwd 0 -> 48 B, FA4 at head dim 64 0 -> 24 B; the
    // rescaling attention loops 132 -> 0 and 36 -> 0 B; docs/cuda.md).
    bool rescales = llvm::any_of(groups, [&](const ConsumerGroup &o) {
      const PipePlan &q = plan.buffers.pipes[o.pipe];
      return o.agent == group.agent && o.unit == Unit::SIMT &&
             q.cls == BufferClass::TMEM && (q.carried || q.sharesWith);
    });
    if (!rescales)
      continue;
    // Another group of the agent waits on the same slot: it must find it
    // released by this one first.
    if (llvm::count_if(groups, [&](const ConsumerGroup &o) {
          return o.pipe == group.pipe && o.agent == group.agent;
        }) != 1)
      continue;
    if (std::optional<OpId> until = holdUntilFor(unsigned(g)))
      holdUntil[unsigned(g)] = *until;
  }
}

/// The tiles made from what group `g` loaded, elementwise, in the same
/// agent and iteration; of the ops reading one of them, the latest that
/// completes before the slot is written again.
std::optional<OpId> StageCodeEmitter::holdUntilFor(unsigned g) {
  const ConsumerGroup &group = groups[g];
  const PipePlan &pipe = plan.buffers.pipes[group.pipe];
  const unsigned ii = std::max(1u, schedule.ii);
  auto cycle = [&](OpId id) { return schedule.slots[id].cycle; };
  auto latency = [&](OpId id) {
    return plan.loop.problem.getOp(id).latency.value_or(0);
  };
  SmallVector<Value> worklist;
  llvm::DenseSet<Value> seen;
  std::optional<ArrayRef<int64_t>> shape;
  for (OpId id : group.ops)
    if (auto load = dyn_cast<tileas::TmemLoadOp>(ops[id])) {
      shape = cast<RankedTensorType>(load.getType()).getShape();
      worklist.push_back(load.getResult());
    }
  if (!shape || worklist.size() != group.ops.size())
    return std::nullopt;
  OpId first = group.ops.front(), last = group.ops.front();
  for (OpId id : group.ops) {
    if (cycle(id) < cycle(first))
      first = id;
    if (cycle(id) > cycle(last))
      last = id;
  }
  SmallVector<OpId> readers;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      if (user->getBlock() != body || !plan.loop.ids.count(user))
        continue;
      OpId u = idOf(user);
      if (isFree[u] || agentOf[u] != int(group.agent))
        continue;
      readers.push_back(u);
      for (Value r : user->getResults())
        if (auto t = dyn_cast<RankedTensorType>(r.getType());
            t && t.getShape() == *shape)
          worklist.push_back(r);
    }
  }
  // Hold as far as the timeline allows: to the latest reader that
  // completes before the slot is written again.
  int64_t reuse = int64_t(pipe.depth) * ii;
  std::optional<OpId> until;
  for (OpId u : readers)
    if (cycle(u) > cycle(last) &&
        cycle(u) + latency(u) <= cycle(pipe.producer) + reuse &&
        cycle(u) < cycle(first) + reuse && (!until || cycle(u) > cycle(*until)))
      until = u;
  return until;
}

/// Loop-carried values belong to the agent making them; an accumulator
/// handed on through a carried pipe lives in the pipe instead.
LogicalResult StageCodeEmitter::assignCarried(std::string &why) {
  for (unsigned k = 0, e = loop.getNumRegionIterArgs(); k < e; ++k) {
    std::optional<OpId> w = bodyDef(yielded(k));
    if (!w || isFree[*w]) {
      why = "a loop-carried value is not made by a scheduled op of the loop";
      return failure();
    }
    if (auto it = pipeOf.find(yielded(k));
        it != pipeOf.end() && plan.buffers.pipes[it->second].carried) {
      carriedPipe[k] = it->second;
      continue;
    }
    agents[agentOf[*w]].carried.push_back(k);
  }
  for (auto [a, k] : copies)
    agents[a].carried.push_back(k);
  return success();
}
