//===- LoopResults.cpp - where the code after the loop runs ---------------===//
//
// The code after the loop that reads its results runs in the function body
// or, warp-specialized, split into parts each run by one agent; the loop's
// results reach it through their pipes or, from another agent's registers,
// through SMEM slots (transports). This step decides which; it builds no IR
// (ResultHandOff.cpp does).
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/StageCodeEmitter.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::stagecode;

/// The code after the loop that reads its results, in block order. An op
/// that returns what it read, or reads it inside its regions, stays in the
/// function body ("escapes"), and so does everything reading it after.
void StageCodeEmitter::splitCodeAfterLoop() {
  llvm::DenseSet<Operation *> inMain;
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
    bool reads = false, readsMain = false;
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        Operation *def = v.getDefiningOp();
        reads |= def == loop.getOperation() || epilogue.contains(def);
        readsMain |= inMain.contains(def);
      }
    });
    if (!reads && !readsMain)
      continue;
    bool escapes = readsMain || op->hasTrait<OpTrait::IsTerminator>() ||
                   op->getNumRegions() > 0;
    for (Value r : op->getResults())
      for (Operation *user : r.getUsers())
        escapes |= user->hasTrait<OpTrait::IsTerminator>();
    if (escapes)
      inMain.insert(op);
    else
      epilogue.insert(op);
  }
  pullInOperands(inMain);
  // Warp-specialized, code that stays in the body runs after the agents:
  // all of the code after the loop does, and the results it reads are
  // handed to it (the loop's results leave the function).
  if (mode == StageCodeMode::WarpSpecialized && !inMain.empty()) {
    hostIsMain = true;
    epilogue.clear();
  }
}

/// The code after the loop that the epilogue reads, or that reads what the
/// epilogue reads, but nothing of the loop (CUTLASS's source tile C in
/// D = alpha * acc + beta * C). Left in the body, such an op would follow
/// the agents that read it. The code after the loop linked to the epilogue
/// by values (what it reads, and what else reads that) joins it in block
/// order, so the epilogue agent makes it where the user wrote it: after the
/// loop, so that a tile it loads may reuse the drained mainloop slots.
/// Where some of it cannot run in an agent, all the code after the loop
/// stays in the body, as for any escaping op.
void StageCodeEmitter::pullInOperands(llvm::DenseSet<Operation *> &inMain) {
  if (epilogue.empty())
    return;
  auto afterLoop = [&](Operation *op) {
    return op && op->getBlock() == loop->getBlock() &&
           loop->isBeforeInBlock(op);
  };
  llvm::SetVector<Operation *> linked;
  SmallVector<Operation *> work(epilogue.begin(), epilogue.end());
  auto visit = [&](Operation *op) {
    if (afterLoop(op) && !epilogue.contains(op) && linked.insert(op))
      work.push_back(op);
  };
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        visit(v.getDefiningOp());
    });
    if (epilogue.contains(op))
      continue;
    for (Operation *user : op->getUsers())
      visit(loop->getBlock()->findAncestorOpInBlock(*user));
  }
  if (linked.empty())
    return;
  if (llvm::any_of(linked, [&](Operation *op) {
        return inMain.contains(op) || op->getNumRegions() > 0 ||
               op->hasTrait<OpTrait::IsTerminator>();
      })) {
    for (Operation *op : epilogue)
      inMain.insert(op);
    for (Operation *op : linked)
      inMain.insert(op);
    return;
  }
  llvm::SetVector<Operation *> inOrder;
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode())
    if (epilogue.contains(op) || linked.contains(op))
      inOrder.insert(op);
  epilogue = std::move(inOrder);
}

/// Warp-specialized, the code after the loop runs in the function body
/// (splitCodeAfterLoop), or split into parts that share no data, result or
/// buffer, each in one agent (hostPart). Results in a register of another
/// agent are handed to it through SMEM pipes; accumulators through their
/// pipes.
LogicalResult StageCodeEmitter::placeCodeAfterLoop(std::string &why) {
  if (hostIsMain) {
    for (OpResult r : loop->getResults())
      if (!r.use_empty() && isRegisterResult(r.getResultNumber()))
        resultHost[r.getResultNumber()] = std::nullopt;
  } else {
    parts = partsOfEpilogue();
    for (Part &part : parts)
      if (failed(hostPart(part, why)))
        return failure();
    // Parts reading only accumulators of result pipes go to an agent
    // running another part, rather than to warps of their own.
    std::optional<unsigned> busy;
    for (const Part &part : parts)
      if (part.host && rowOf(*part.host).runsEpilogue && !busy)
        busy = part.host;
    for (Part &part : parts)
      if (!part.host)
        part.host = busy;
  }
  int64_t bytes = planTransports(resultHost, transports, why);
  if (bytes < 0)
    return failure();
  int64_t budget = plan.input.caps.smemBytes - plan.input.smemCarveout;
  if (bytes && plan.buffers.smemBytes + bytes > budget) {
    why = "handing the loop's register results to the code after it takes " +
          std::to_string(bytes) + " B of shared memory beside the pipes' " +
          std::to_string(plan.buffers.smemBytes) + " B, " +
          std::to_string(budget) + " B are available";
    return failure();
  }
  return success();
}

/// Parts: union of ops linked by a value (a result of the loop or of an op
/// of the code after it) or by a buffer made before the loop.
std::vector<Part> StageCodeEmitter::partsOfEpilogue() {
  std::vector<Operation *> list(epilogue.begin(), epilogue.end());
  std::vector<unsigned> parent(list.size());
  for (unsigned i = 0; i < list.size(); ++i)
    parent[i] = i;
  std::function<unsigned(unsigned)> find = [&](unsigned i) {
    return parent[i] == i ? i : parent[i] = find(parent[i]);
  };
  llvm::DenseMap<Value, unsigned> firstUser;
  auto link = [&](Value v, unsigned i) {
    if (auto [it, fresh] = firstUser.try_emplace(v, i); !fresh)
      parent[find(i)] = find(it->second);
  };
  for (auto [i, op] : llvm::enumerate(list))
    op->walk([&, i = unsigned(i)](Operation *inner) {
      for (Value v : inner->getOperands())
        if (v.getDefiningOp() == loop.getOperation() ||
            epilogue.contains(v.getDefiningOp()) ||
            isa<tileas::SmemType, tileas::TmemType, MemRefType>(v.getType()))
          link(v, i);
      for (Value r : inner->getResults())
        link(r, i);
    });
  llvm::MapVector<unsigned, SmallVector<Operation *>> byRoot;
  for (auto [i, op] : llvm::enumerate(list))
    byRoot[find(unsigned(i))].push_back(op);
  std::vector<Part> out;
  for (auto &[root, partOps] : byRoot)
    out.push_back({std::move(partOps), std::nullopt});
  return out;
}

/// The agent running a part: the one that read every iteration of a
/// carried accumulator it reads, else one making a register result it reads
/// (the one whose others' results need the least shared memory to come to
/// it), else none yet (the epilogue agent).
LogicalResult StageCodeEmitter::hostPart(Part &part, std::string &why) {
  SmallVector<unsigned> results;
  for (Operation *op : part.ops)
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (auto r = dyn_cast<OpResult>(v);
            r && r.getOwner() == loop.getOperation() &&
            !llvm::is_contained(results, r.getResultNumber()))
          results.push_back(r.getResultNumber());
    });
  std::optional<unsigned> &host = part.host;
  for (unsigned k : results) {
    auto it = carriedPipe.find(k);
    if (it == carriedPipe.end())
      continue;
    unsigned owner = carriedReader(it->second);
    if (host && *host != owner) {
      why = "the code after the loop reads accumulators read in the loop by "
            "two agents, the " +
            agentName(*host) + " and the " + agentName(owner);
      return failure();
    }
    host = owner;
  }
  if (!host) {
    int64_t best = -1;
    for (unsigned k : results) {
      if (!isRegisterResult(k))
        continue;
      unsigned owner = makerOf(k);
      llvm::DenseMap<unsigned, std::optional<unsigned>> trialHosts;
      for (unsigned j : results)
        if (isRegisterResult(j))
          trialHosts[j] = owner;
      llvm::MapVector<unsigned, Transport> trial;
      std::string ignored;
      int64_t bytes = planTransports(trialHosts, trial, ignored);
      if (!host || (bytes >= 0 && (best < 0 || bytes < best))) {
        best = bytes;
        host = owner;
      }
    }
  }
  for (unsigned k : results)
    if (isRegisterResult(k))
      resultHost[k] = host;
  return success();
}

/// Plans the transports of the results to their hosts (nullopt: the
/// function body); returns the SMEM bytes of the one-slot pipes they need,
/// or -1 (with `why`) when a result cannot be handed on.
int64_t StageCodeEmitter::planTransports(
    const llvm::DenseMap<unsigned, std::optional<unsigned>> &hosts,
    llvm::MapVector<unsigned, Transport> &out, std::string &why) {
  out.clear();
  int64_t bytes = 0;
  llvm::DenseMap<unsigned, unsigned> extra; // Per pipe, iterations added.
  std::optional<unsigned> host;
  // A register pipe whose one consumer group runs in the host.
  auto toHost = [&](unsigned p) {
    unsigned count = 0;
    bool inHost = true;
    for (const ConsumerGroup &g : groups)
      if (g.pipe == p) {
        ++count;
        inHost &= !host || g.agent == *host;
      }
    return count == 1 && inHost;
  };
  for (OpResult result : loop->getResults()) {
    unsigned k = result.getResultNumber();
    auto at = hosts.find(k);
    if (at == hosts.end())
      continue;
    host = at->second;
    Value made = yielded(k);
    unsigned owner = makerOf(k);
    if (host && llvm::is_contained(agents[*host].carried, k))
      continue;
    auto reg = dyn_cast<RankedTensorType>(result.getType());
    if (!reg || !reg.hasStaticShape()) {
      why = "a " + typeName(result.getType()) + " loop result made by the " +
            agentName(owner) + " is read after the loop in the " +
            (host ? agentName(*host) : std::string("function body"));
      return -1;
    }
    Transport t;
    if (auto it = pipeOf.find(made);
        it != pipeOf.end() && regCarried[it->second] && toHost(it->second)) {
      t.kind = Transport::Tail;
      t.pipe = it->second;
    } else {
      Type slot = smemOf(reg);
      for (auto [p, pipe] : llvm::enumerate(plan.buffers.pipes)) {
        if (!regPipe[p] || regCarried[p] ||
            !pipeOf.count(plan.values[pipe.value]) ||
            agentOf[pipe.producer] != int(owner) || slotType(p) != slot ||
            !toHost(unsigned(p)))
          continue;
        // The function body waits only once every agent is done: the
        // producer must not wait on it for a slot.
        unsigned &n = extra[unsigned(p)];
        if (!host && n >= pipe.depth)
          continue;
        t.kind = Transport::Extra;
        t.pipe = unsigned(p);
        t.offset = n++;
        break;
      }
      if (t.kind == Transport::Own)
        bytes += tileas::getTileSizeInBytes(reg);
    }
    out[k] = t;
  }
  return bytes;
}
