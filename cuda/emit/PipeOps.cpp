//===- PipeOps.cpp - pipes, fences and mutexes as mbarrier calls ----------===//
//
// Who runs what follows the stage-code contract (docs/stage-code.md): waits
// and fences by every thread of the agent; TMA, UMMA and tcgen05.commit by
// one elected thread; a SIMT commit or release is the agent's threads
// meeting at their named barrier and one thread arriving, so that every
// barrier expects one arrival per commit or release, as the protocol check
// (materialize/exec) counts them. The commit and release kinds are the
// dialect's SignalKind, the fences its FenceKind.
//
//===----------------------------------------------------------------------===//

#include "cuda/emit/KernelEmitter.h"

#include "mlir/IR/Matchers.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <optional>

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

/// The runtime's call of each fence kind.
static StringRef fenceCallee(tileas::FenceKind kind) {
  switch (kind) {
  case tileas::FenceKind::ProxyAsync:
    return "tp::fence_proxy_async";
  case tileas::FenceKind::Tcgen05Before:
    return "tp::tcgen05_before";
  case tileas::FenceKind::Tcgen05After:
    return "tp::tcgen05_after";
  case tileas::FenceKind::Tcgen05WaitSt:
    return "tp::tcgen05_wait_st";
  case tileas::FenceKind::Tcgen05WaitLd:
    return "tp::tcgen05_wait_ld";
  }
  llvm_unreachable("a fence kind the dialect does not have");
}

LogicalResult KernelEmitter::emit(tileas::FenceOp fence) {
  callVoid(fenceCallee(*tileas::symbolizeFenceKind(fence.getKind())), {});
  return success();
}

/// A mutex lock or unlock: on an mbarrier ring, a wait on the group's
/// barrier (its parity the agent's lock count) or the next group's arrival;
/// on named barriers, a sync or an arrive on the group's id.
LogicalResult KernelEmitter::emitMutexOp(Operation *op) {
  Location loc = op->getLoc();
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
      increment(loc, count);
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

/// The wait, acquire, commit and release of a pipe slot share their start:
/// the pipe, which the function must make, and the iteration, which a
/// persistent kernel counts on from tile to tile.
FailureOr<KernelEmitter::PipeStep> KernelEmitter::pipeStep(Operation *op) {
  Location loc = op->getLoc();
  if (!knownPipe(op->getOperand(0))) {
    emitError(loc, "the pipe must come from a tileas.pipe.create of "
                   "this function to be translated");
    return failure();
  }
  const PipeLayout &p = pipeOf(op->getOperand(0));
  Value k = lookup(loc, op->getOperand(1));
  if (broken)
    return failure();
  k = pipeIter(
      p, k, isa<tileas::PipeProducerAcquireOp, tileas::PipeConsumerWaitOp>(op));
  return PipeStep{&p, k};
}

/// In an agent of several warps, a slot that only the elected thread
/// touches (TMA, UMMA, tcgen05.cp) is waited for by that thread alone. If
/// every thread waited, nothing would keep the others within a phase of the
/// elected thread, and a warp a phase behind waits on a parity that has
/// come round again: the CPU emulator deadlocked peeled code so.
bool KernelEmitter::leaderOnly(Value slot) {
  return layout.agents[agent].syncBarrier >= 0 &&
         llvm::all_of(slot.getUsers(), [](Operation *user) {
           return isa<tileas::TmaLoadOp, tileas::UmmaOp, tileas::TmemCopyOp>(
               user);
         });
}

void KernelEmitter::waitSlot(bool leader, const PipeStep &s,
                             const std::string &bars, StringRef parity) {
  auto wait = [&] {
    callVoid("tp::mbar_wait", {barriers(bars), intLit(s.pipe->depth), s.k,
                               literal(u32(), parity)});
  };
  if (leader)
    inLeader(wait);
  else
    wait();
}

/// A joined pipe's acquire and wait ride on those of the pipe it joins,
/// which come first; its release on that pipe's, which comes last.
static bool isJoined(const PipeLayout &p) {
  return bool(tileas::PipeCreateOp(p.op).getJoins());
}

LogicalResult KernelEmitter::emit(tileas::PipeProducerAcquireOp acquire) {
  FailureOr<PipeStep> s = pipeStep(acquire);
  if (failed(s))
    return failure();
  const PipeLayout &p = *s->pipe;
  // An alias's acquire takes over the slot the thread holds: no wait.
  if (!tileas::PipeCreateOp(p.op).getAliases() && !isJoined(p))
    waitSlot(leaderOnly(acquire.getResult()), *s, p.empty, "1");
  map[acquire.getResult()] = slotAddress(p, s->k);
  return success();
}

LogicalResult KernelEmitter::emit(tileas::PipeConsumerWaitOp consumerWait) {
  FailureOr<PipeStep> s = pipeStep(consumerWait);
  if (failed(s))
    return failure();
  const PipeLayout &p = *s->pipe;
  Value pipeId = intLit(p.id), isTmem = boolLit(p.tmem);
  if (!isJoined(p))
    waitSlot(leaderOnly(consumerWait.getResult()), *s, p.full, "0");
  Value slot = slotAddress(p, s->k);
  map[consumerWait.getResult()] = slot;
  inLeader([&] { callVoid("tp::probe_check", {slot, isTmem, pipeId, s->k}); });
  return success();
}

LogicalResult KernelEmitter::emit(tileas::PipeProducerCommitOp commit) {
  FailureOr<PipeStep> s = pipeStep(commit);
  if (failed(s))
    return failure();
  Value slot = lookup(commit.getLoc(), commit.getValue());
  if (broken)
    return failure();
  const PipeLayout &p = *s->pipe;
  Value k = s->k, pipeId = intLit(p.id), isTmem = boolLit(p.tmem);
  auto stampAndArrive = [&] {
    callVoid("tp::probe_stamp", {slot, isTmem, pipeId, k});
    callVoid("tp::mbar_arrive", {barriers(p.full), intLit(p.depth), k});
  };
  switch (*tileas::symbolizeSignalKind(commit.getVia())) {
  case tileas::SignalKind::ExpectTx:
    commitExpectTx(commit, *s);
    return success();
  case tileas::SignalKind::Tcgen05Commit:
    commitTcgen05(commit, *s, slot);
    return success();
  case tileas::SignalKind::Arrive:
    agentSync();
    inLeader(stampAndArrive);
    return success();
  case tileas::SignalKind::CpAsyncArrive:
    // Each thread's async arrive holds the phase open until its copies
    // land (it adds one pending arrival and removes it on completion); the
    // one counted arrival follows once every thread has issued.
    callVoid("tp::cp_async_arrive", {barriers(p.full), intLit(p.depth), k});
    agentSync();
    inLeader(stampAndArrive);
    return success();
  case tileas::SignalKind::BulkWait:
  case tileas::SignalKind::WgmmaWait:
    break;
  }
  return emitError(commit.getLoc()) << "a commit via \"" << commit.getVia()
                                    << "\" is not translated to CUDA";
}

/// The sum of the boxes the slot's TMA loads move (TileLayouts.h), expected
/// on the full barrier.
void KernelEmitter::commitExpectTx(tileas::PipeProducerCommitOp commit,
                                   const PipeStep &s) {
  const PipeLayout &p = *s.pipe;
  Value written = commit.getValue();
  if (auto load = written.getDefiningOp<tileas::TmaLoadOp>();
      load && load.getDst())
    written = load.getDst();
  int64_t bytes = tmaBytesInto(written, layout);
  inLeader([&] {
    // A joined pipe's bytes join the same phase without arriving: the
    // stage code orders them before the joined-to pipe's commit.
    callVoid(isJoined(p) ? "tp::mbar_expect_tx" : "tp::mbar_arrive_expect_tx",
             {barriers(p.full), intLit(p.depth), s.k,
              literal(u32(), Twine(bytes ? bytes : p.txBytes) + "u")});
  });
}

/// An accumulator handed on through tcgen05.commit. One handed on before
/// any MMA wrote it (a trip count of 0) is zeroed first, in the same
/// thread's tcgen05 order.
void KernelEmitter::commitTcgen05(tileas::PipeProducerCommitOp commit,
                                  const PipeStep &s, Value slot) {
  const PipeLayout &p = *s.pipe;
  Value k = s.k, pipeId = intLit(p.id), isTmem = boolLit(p.tmem);
  std::optional<UnsetAccumulator> unset =
      p.tmem ? unsetAccumulator(commit.getValue(), layout) : std::nullopt;
  inLeader([&] {
    if (unset && !layout.zeros.empty())
      callVoid(
          "tp::acc_zero_unwritten",
          {accMask(*unset), slot, accBase(*unset), intLit(unset->slotCols),
           smemAddress(layout.zeros)},
          {std::to_string(unset->m), std::to_string(unset->n), unset->elem});
    callVoid("tp::probe_stamp", {slot, isTmem, pipeId, k});
    callVoid("tp::umma_arrive", {barriers(p.full), intLit(p.depth), k});
  });
}

/// Every release arrives once the consumer's reads have ended: a UMMA's
/// through tcgen05.commit (PTX orders no later write behind an MMA's reads,
/// not even this thread's next MMA into another accumulator), a TMA store's
/// after tp::tma_store waited for its reads, SIMT threads' after their
/// loads.
LogicalResult KernelEmitter::emit(tileas::PipeConsumerReleaseOp release) {
  FailureOr<PipeStep> s = pipeStep(release);
  if (failed(s))
    return failure();
  const PipeLayout &p = *s->pipe;
  Value k = s->k;
  using tileas::SignalKind;
  SignalKind via = *tileas::symbolizeSignalKind(release.getVia());
  if (via == SignalKind::WgmmaWait) {
    releaseAfterWgmma(release, *s);
    return success();
  }
  if (via != SignalKind::Tcgen05Commit && via != SignalKind::BulkWait &&
      via != SignalKind::Arrive)
    return emitError(release.getLoc()) << "a release via \"" << release.getVia()
                                       << "\" is not translated to CUDA";
  Value slot = slotAddress(p, k);
  if (via == SignalKind::Arrive)
    releaseSync();
  // A ring tile read by fewer consumer groups than the ring's others
  // arrives for the difference (each tcgen05.commit arrives once).
  arriveEmpty(p, slot, k, isJoined(p) ? 0 : release.getArrivals().value_or(1),
              via == SignalKind::Tcgen05Commit ? "tp::umma_arrive"
                                               : "tp::mbar_arrive");
  return success();
}

/// The elected thread's arrivals on the empty barrier of slot `slot`
/// (iteration `k`) of `p`, by `arrive`. The harness first checks the slot
/// still holds this iteration's payload, unless another pipe's commit may
/// already have overwritten it in place (an accumulator rescaled and
/// accumulated into one buffer).
void KernelEmitter::arriveEmpty(const PipeLayout &p, Value slot, Value k,
                                int32_t arrivals, StringRef arrive) {
  // Where the warpgroups take issue turns each arrives for itself
  // (the barrier counts both).
  inLeader(
      [&] {
        if (!p.sharedBuffer)
          callVoid("tp::probe_check", {slot, boolLit(p.tmem), intLit(p.id), k});
        for (int32_t n = 0; n < arrivals; ++n)
          callVoid(arrive, {barriers(p.empty), intLit(p.depth), k});
      },
      issueTurns() ? groupLeader : Value());
}

namespace {
/// How many iterations ahead of the release `release` the same block
/// acquires its pipe's slots (peeled code, where one agent both loads and
/// multiplies): 0 when it acquires none, nullopt when the distance is not
/// a constant.
std::optional<int64_t> acquiresAhead(tileas::PipeConsumerReleaseOp release) {
  std::optional<int64_t> ahead = 0;
  // In a loop body every acquire comes again after the release; elsewhere
  // only the ones after it do.
  bool loop = isa<scf::ForOp>(release->getParentOp());
  for (auto acquire :
       release->getBlock()->getOps<tileas::PipeProducerAcquireOp>()) {
    if (acquire.getPipe() != release.getPipe() ||
        (!loop && acquire->isBeforeInBlock(release)))
      continue;
    Value a = acquire.getIter(), r = release.getIter();
    std::optional<int64_t> d;
    if (a == r)
      d = 0;
    else if (auto sub = r.getDefiningOp<arith::SubIOp>();
             sub && sub.getLhs() == a)
      d = getConstantIntValue(sub.getRhs());
    if (!d)
      return std::nullopt;
    ahead = std::max(*ahead, *d);
  }
  return ahead;
}
} // namespace

/// A slot a wgmma read is free once a wgmma.wait_group retires that
/// wgmma's group. With slots to spare the release keeps one group in
/// flight (CUTLASS's mainloop): wait_group 1 retires the previous
/// iteration's MMA, whose slot is released now, and this one's waits for
/// the next release or the flush after the loop. That needs d + 2 slots
/// where the releasing block acquires the pipe d iterations ahead (peeled
/// code; d = 0 where another agent produces): with fewer, the next acquire
/// would wait for the slot still held in flight, a deadlock. Then it waits
/// with wait_group 0 and releases at once (a one-slot pipe, too). Every thread
/// waits for its own groups, so the agent syncs before the elected thread
/// arrives.
void KernelEmitter::releaseAfterWgmma(tileas::PipeConsumerReleaseOp release,
                                      const PipeStep &s) {
  const PipeLayout &p = *s.pipe;
  // A joined pipe's slot is freed by the release of the pipe it joins,
  // which follows in the same thread and arrives for both after its own
  // wait_group: nothing to wait for or arrive here.
  if (isJoined(p))
    return;
  int32_t arrivals = release.getArrivals().value_or(1);
  std::optional<int64_t> ahead = acquiresAhead(release);
  if (!ahead || p.depth < *ahead + 2) {
    wgmmaWait(0);
    releaseSync();
    arriveEmpty(p, slotAddress(p, s.k), s.k, arrivals);
    return;
  }
  PendingRelease &pending = wgmmaPending[unsigned(p.id)];
  if (!pending.k)
    pending.k = agentVariable(i64(), "-1");
  pending.pipe = &p;
  pending.arrivals = arrivals;
  wgmmaWait(1);
  releaseSync();
  auto ifOp = b.create<emitc::IfOp>(
      release.getLoc(), call(i1(), "tp::wgmma_pending", {pending.k}),
      /*addThenBlock=*/true, /*addElseBlock=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    enter(ifOp.getThenRegion());
    arriveEmpty(p, slotAddress(p, pending.k), pending.k, arrivals);
  }
  b.create<emitc::AssignOp>(release.getLoc(), pending.k, s.k);
}

void KernelEmitter::flushWgmmaReleases() {
  wgmmaWait(0);
  wgmmaInFlight = false;
  if (wgmmaPending.empty())
    return;
  // Outside the loops the whole agent meets: the code after them may
  // reuse the slots' SMEM (the epilogue's staging), which warpgroups
  // releasing on their own (issue turns) would otherwise not order.
  if (loopDepth > 0)
    releaseSync();
  else
    agentSync();
  for (auto &[id, pending] : wgmmaPending) {
    auto ifOp = b.create<emitc::IfOp>(
        func.getLoc(), call(i1(), "tp::wgmma_pending", {pending.k}),
        /*addThenBlock=*/true, /*addElseBlock=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      enter(ifOp.getThenRegion());
      arriveEmpty(*pending.pipe, slotAddress(*pending.pipe, pending.k),
                  pending.k, pending.arrivals);
    }
    b.create<emitc::AssignOp>(func.getLoc(), pending.k, intLit(-1));
  }
}
