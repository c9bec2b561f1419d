//===- ResultHandOff.cpp - the loop's results to the code after it --------===//
//
// Emits what LoopResults.cpp planned: the agent making a register result
// stores it into its transport slot after its rows; the code after the loop
// (in an agent or the function body) loads it and releases the slot at
// once, waits on the result and carried pipes of the accumulators it reads
// and holds those slots until it is done with them.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/StageCodeEmitter.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::stagecode;

/// A result's pipe and pipe iteration: N + offset of a register pipe (the
/// tail of a carried one is N), or 0 of its own.
std::pair<Value, Value> StageCodeEmitter::transportAt(OpBuilder &b,
                                                      unsigned k) {
  const Transport &t = transports.find(k)->second;
  if (t.kind == Transport::Own)
    return {transportPipe[k], cst(b, 0)};
  Value n = tripCount(b);
  if (t.offset)
    n = b.create<arith::AddIOp>(loop.getLoc(), n, cst(b, t.offset));
  return {pipes[t.pipe], n};
}

void StageCodeEmitter::sendResult(OpBuilder &b, unsigned k, Value v) {
  if (transports.find(k)->second.kind == Transport::Tail)
    return; // Committed by the last iteration.
  auto [pipe, at] = transportAt(b, k);
  PipeOps hs = handshakes(b);
  Value slot = hs.acquire(pipe, at, smemOf(v.getType()));
  hs.commit(pipe, at, storeToSlot(b, v, slot), tileas::SignalKind::Arrive);
}

Value StageCodeEmitter::receiveResult(OpBuilder &b, unsigned k) {
  Type type = loop->getResult(k).getType();
  auto [pipe, at] = transportAt(b, k);
  PipeOps hs = handshakes(b);
  Value v = loadFromSlot(b, hs.wait(pipe, at, smemOf(type)), type);
  hs.release(pipe, at, tileas::SignalKind::Arrive);
  return v;
}

Value StageCodeEmitter::waitCarried(OpBuilder &b, unsigned k) {
  unsigned p = carriedPipe.lookup(k);
  Value r = handshakes(b).wait(pipes[p], tripCount(b),
                               loop.getInitArgs()[k].getType());
  fence(b, tileas::FenceKind::Tcgen05After);
  return r;
}

void StageCodeEmitter::releaseCarried(OpBuilder &b, unsigned k) {
  unsigned p = carriedPipe.lookup(k);
  fence(b, tileas::FenceKind::Tcgen05WaitLd);
  fence(b, tileas::FenceKind::Tcgen05Before);
  handshakes(b).release(pipes[p], tripCount(b), releaseVia(firstGroup(p).unit));
}

/// The results the code after the loop reads, where it runs (agent `host`,
/// or the function body): its own registers, the others handed over.
/// `wanted`: the results that code reads (all, for the function body).
void StageCodeEmitter::readResults(OpBuilder &b, std::optional<unsigned> host,
                                   ArrayRef<Value> finals, ReadResults &read,
                                   llvm::function_ref<bool(unsigned)> wanted) {
  if (host)
    for (auto [pos, k] : llvm::enumerate(agents[*host].carried))
      read.after.map(loop->getResult(k), finals[pos]);
  for (auto [k, t] : transports)
    if (wanted(k))
      read.after.map(loop->getResult(k), receiveResult(b, k));
  for (unsigned k : resultPiped)
    if (!loop->getResult(k).use_empty() && wanted(k)) {
      read.after.map(loop->getResult(k), waitResult(b, k));
      read.held.push_back(k);
    }
  for (auto [k, p] : carriedPipe)
    if (!loop->getResult(k).use_empty() && wanted(k)) {
      read.after.map(loop->getResult(k), waitCarried(b, k));
      read.heldCarried.push_back(k);
    }
}

/// Ends the hold of the accumulators' slots.
void StageCodeEmitter::releaseHeld(OpBuilder &b, const ReadResults &read) {
  for (unsigned k : read.held)
    releaseResult(b, k);
  for (unsigned k : read.heldCarried)
    releaseCarried(b, k);
}

/// The code after the loop stays in the function body: the results are
/// read where the loop was, and the slots held until the last op reading
/// them (before the terminator when that is the one).
void StageCodeEmitter::resultsInBody(OpBuilder &b, ArrayRef<Value> finals) {
  ReadResults read;
  readResults(b, hostIsMain ? std::nullopt : std::optional<unsigned>(0), finals,
              read, [](unsigned) { return true; });
  for (OpResult r : loop->getResults())
    if (Value v = read.after.lookupOrNull(r))
      r.replaceAllUsesWith(v);
  if (read.held.empty() && read.heldCarried.empty())
    return;
  llvm::DenseSet<Value> tainted;
  for (auto &[from, to] : read.after.getValueMap())
    tainted.insert(to);
  Operation *last = nullptr;
  for (Operation *op = &*b.getInsertionPoint(); op; op = op->getNextNode()) {
    bool reads = false;
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        reads |= tainted.contains(v);
    });
    if (!reads)
      continue;
    last = op;
    for (Value r : op->getResults())
      tainted.insert(r);
  }
  OpBuilder rb(b.getContext());
  if (!last)
    rb.setInsertionPoint(b.getBlock(), b.getInsertionPoint());
  else if (last->hasTrait<OpTrait::IsTerminator>())
    rb.setInsertionPoint(last);
  else
    rb.setInsertionPointAfter(last);
  releaseHeld(rb, read);
}

/// A part of the code after the loop, in the agent (or epilogue agent)
/// running it.
void StageCodeEmitter::epilogueIn(OpBuilder &b, const Part &part,
                                  ArrayRef<Value> finals) {
  llvm::DenseSet<unsigned> reads;
  for (Operation *op : part.ops)
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (auto r = dyn_cast<OpResult>(v);
            r && r.getOwner() == loop.getOperation())
          reads.insert(r.getResultNumber());
    });
  ReadResults read;
  readResults(b, part.host, finals, read,
              [&](unsigned k) { return reads.contains(k); });
  for (Operation *op : part.ops)
    b.clone(*op, read.after);
  releaseHeld(b, read);
}

/// Erases the loop and the buffers the pipe slots replaced.
void StageCodeEmitter::eraseLoop() {
  llvm::SetVector<Operation *> allocs;
  loop->walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp();
          def && isa<tileas::AllocTmemOp, tileas::AllocSmemOp>(def))
        allocs.insert(def);
  });
  loop->erase();
  for (Operation *alloc : allocs)
    if (alloc->use_empty())
      alloc->erase();
}
