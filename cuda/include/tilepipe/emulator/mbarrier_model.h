//===- emulator/mbarrier_model.h - mbarrier objects -------------*- C++ -*-===//
//
// The PTX mbarrier: a phase, a pending arrival count that restarts at the
// expected count, and a tx-count that expect_tx raises and complete_tx
// lowers (it may go negative: a copy may land before its expect_tx). The
// phase completes when both reach zero. try_wait.parity(P) is true iff the
// phase with parity P has completed, i.e. the current phase's parity is not
// P; it only tells the current phase from the one before. test_wait.parity
// answers the same without ever blocking or failing spuriously.
//
// The state lives beside shared memory, keyed by address; the barrier's
// eight bytes hold a marker, so that a generic store over a live barrier is
// caught at its next use. Faults: a use of an address never initialised,
// mbarrier.init over a valid barrier (PTX: undefined without
// mbarrier.inval), over-arrival, a count or tx-count out of range, and a
// parity wait for a phase the barrier has left two or more phases behind.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_MBARRIER_MODEL_H
#define TILEPIPE_EMULATOR_MBARRIER_MODEL_H

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "tilepipe/emulator/cta.h"
#include "tilepipe/emulator/outline.h"

namespace tp::cpu::rt {

inline constexpr unsigned char kMBarrierMarker[8] = {'t', 'p', 'm', 'b',
                                                     'a', 'r', 0,   0};
inline constexpr int64_t kMBarrierMax = (int64_t(1) << 20) - 1;

TP_EMU_OUTLINE std::string mbarrierState(const Cta &c, const MBarrier &b);
TP_EMU_OUTLINE void expectTx(Cta &c, MBarrier &b, uint32_t bytes,
                             const char *op);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE std::string mbarrierState(const Cta &c, const MBarrier &b) {
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "0x%x%s: phase %llu (parity %llu), pending %lld of %u, "
                "tx-count %lld",
                b.addr, c.nameOf(b.addr).c_str(), (unsigned long long)b.phase,
                (unsigned long long)(b.phase & 1), (long long)b.pending,
                b.expected, (long long)b.tx);
  return buf;
}

TP_EMU_OUTLINE MBarrier &Cta::mbarrier(const char *op, uint32_t addr) {
  checkShared(op, addr, 8, 8);
  auto it = mbars.find(addr);
  char msg[300];
  if (it == mbars.end() || !it->second.valid) {
    std::snprintf(msg, sizeof msg, "%s: no mbarrier was initialised at 0x%x%s",
                  op, addr, nameOf(addr).c_str());
    fault(msg);
  }
  if (std::memcmp(smem.at(addr, 8), kMBarrierMarker, 8) != 0) {
    std::snprintf(msg, sizeof msg,
                  "%s: the mbarrier object at 0x%x%s was overwritten since "
                  "its mbarrier.init (a generic store into barrier memory?)",
                  op, addr, nameOf(addr).c_str());
    fault(msg);
  }
  return it->second;
}

TP_EMU_OUTLINE void Cta::mbarrierCheckPhase(MBarrier &b) {
  if (b.pending != 0 || b.tx != 0)
    return;
  ++b.phase;
  b.pending = b.expected;
  for (Thread *t : b.waiters)
    wake(*t);
  b.waiters.clear();
}

TP_EMU_OUTLINE void Cta::mbarrierArrive(MBarrier &b, const char *op) {
  if (b.pending <= 0)
    fault(std::string(op) + ": over-arrival on mbarrier " +
          mbarrierState(*this, b) +
          ": the current phase expects no more arrivals");
  --b.pending;
  mbarrierCheckPhase(b);
}

TP_EMU_OUTLINE void Cta::mbarrierCompleteTx(MBarrier &b, uint32_t bytes,
                                            const char *op) {
  b.tx -= bytes;
  if (b.tx < -kMBarrierMax)
    fault(std::string(op) + ": complete_tx of " + std::to_string(bytes) +
          " bytes takes the tx-count of mbarrier " + mbarrierState(*this, b) +
          " below -(2^20 - 1)");
  mbarrierCheckPhase(b);
}

TP_EMU_OUTLINE void expectTx(Cta &c, MBarrier &b, uint32_t bytes,
                             const char *op) {
  b.tx += bytes;
  if (b.tx > kMBarrierMax)
    c.fault(std::string(op) + ": expect_tx of " + std::to_string(bytes) +
            " bytes takes the tx-count of mbarrier " + mbarrierState(c, b) +
            " above 2^20 - 1");
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu::rt

namespace tp::cpu {

TP_EMU_OUTLINE void mbarrier_init(uint32_t a, uint32_t count);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE void mbarrier_init(uint32_t a, uint32_t count) {
  rt::Cta &c = rt::current();
  c.atom(false);
  const char *op = "mbarrier.init";
  c.checkShared(op, a, 8, 8);
  if (count < 1 || count > rt::kMBarrierMax)
    c.fault("mbarrier.init: count " + std::to_string(count) +
            " is outside [1, 2^20 - 1]");
  rt::MBarrier &b = c.mbars[a];
  if (b.valid) {
    char where[160];
    std::snprintf(where, sizeof where, "%s:%d",
                  b.initLoc.file ? b.initLoc.file : "?", b.initLoc.line);
    c.fault(std::string(op) + ": " + rt::mbarrierState(c, b) +
            " is already a valid mbarrier object (initialised at " + where +
            ", " + std::to_string(b.waiters.size()) + " threads waiting, " +
            std::to_string(b.asyncRefs) +
            " async ops in flight on it); PTX leaves mbarrier.init on a "
            "valid object undefined (mbarrier.inval first)");
  }
  b = rt::MBarrier{};
  b.addr = a;
  b.valid = true;
  b.expected = count;
  b.pending = count;
  b.initLoc = c.self().loc;
  std::memcpy(c.smem.at(a, 8), rt::kMBarrierMarker, 8);
}
#endif // !TILEPIPE_EMULATOR_EXTERN

inline void fence_mbarrier_init() { rt::current().atom(true); }

TP_EMU_OUTLINE void mbarrier_arrive(uint32_t a);
TP_EMU_OUTLINE void mbarrier_arrive_expect_tx(uint32_t a, uint32_t txBytes);
TP_EMU_OUTLINE void mbarrier_expect_tx(uint32_t a, uint32_t txBytes);
TP_EMU_OUTLINE bool mbarrier_try_wait_parity(uint32_t a, uint32_t parity);
TP_EMU_OUTLINE bool mbarrier_test_wait_parity(uint32_t a, uint32_t parity);
TP_EMU_OUTLINE void mbarrier_wait_for_phase(uint32_t a, int64_t phase);

namespace rt {
TP_EMU_OUTLINE bool parityPhaseCompleted(Cta &c, MBarrier &b, uint32_t parity,
                                         const char *op);
} // namespace rt

#if !defined(TILEPIPE_EMULATOR_EXTERN)
namespace rt {
/// What a parity wait or test answers now: whether the phase that `parity`
/// names has completed, i.e. the current phase's parity is not `parity`; if
/// so, that phase becomes the last the calling thread saw complete. Faults
/// when the answer would be about a later phase than the one the thread
/// must mean (see below).
TP_EMU_OUTLINE bool parityPhaseCompleted(Cta &c, MBarrier &b, uint32_t parity,
                                         const char *op) {
  Thread &t = c.self();
  if (b.seen.empty())
    b.seen.assign(c.nThreads, -1);
  // The thread's next phase is the one after the last it saw complete; if
  // the wait names that phase's parity, and the barrier has since completed
  // it and another, the answer would be about a later phase.
  int64_t next = b.seen[t.tid] + 1;
  if (uint32_t(next & 1) == parity && next + 1 < int64_t(b.phase)) {
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  ": this thread last saw phase %lld complete and waits with "
                  "parity %u for phase %lld, but the barrier already ",
                  (long long)(next - 1), parity, (long long)next);
    c.fault(std::string(op) + " on " + mbarrierState(c, b) + msg +
            "completed the phases up to " + std::to_string(b.phase - 1) +
            "; a parity wait only tells the current phase from the one "
            "before, so this one is stale");
  }
  if ((b.phase & 1) == parity)
    return false;
  b.seen[t.tid] = int64_t(b.phase) - 1;
  return true;
}
} // namespace rt

TP_EMU_OUTLINE void mbarrier_arrive(uint32_t a) {
  rt::Cta &c = rt::current();
  c.atom(false);
  rt::MBarrier &b = c.mbarrier("mbarrier.arrive", a);
  c.mbarrierArrive(b, "mbarrier.arrive");
}

TP_EMU_OUTLINE void mbarrier_arrive_expect_tx(uint32_t a, uint32_t txBytes) {
  rt::Cta &c = rt::current();
  c.atom(false);
  const char *op = "mbarrier.arrive.expect_tx";
  rt::MBarrier &b = c.mbarrier(op, a);
  rt::expectTx(c, b, txBytes, op);
  c.mbarrierArrive(b, op);
}

TP_EMU_OUTLINE void mbarrier_expect_tx(uint32_t a, uint32_t txBytes) {
  rt::Cta &c = rt::current();
  c.atom(false);
  const char *op = "mbarrier.expect_tx";
  rt::MBarrier &b = c.mbarrier(op, a);
  rt::expectTx(c, b, txBytes, op);
  c.mbarrierCheckPhase(b);
}

TP_EMU_OUTLINE bool mbarrier_try_wait_parity(uint32_t a, uint32_t parity) {
  rt::Cta &c = rt::current();
  // A switch point, but only one whether the wait blocks or not: lanes of
  // a warp that wait together then stay together although some of them
  // find the phase complete and others block until it is.
  c.atom(false);
  const char *op = "mbarrier.try_wait.parity";
  rt::MBarrier &b = c.mbarrier(op, a);
  rt::Thread &t = c.self();
  parity &= 1;
  if (rt::parityPhaseCompleted(c, b, parity, op)) {
    c.suspend();
    return true;
  }
  // PTX lets a try_wait give up before the phase completes (a time limit)
  // and answer false; callers must loop.
  if (c.decide(t, 2, c.tune.spuriousPct)) {
    c.suspend();
    return false;
  }
  int64_t waitedFor = int64_t(b.phase);
  c.markBlocked(t, rt::Wait{rt::WaitKind::MBarrier, op, a, parity});
  b.waiters.push_back(&t);
  c.suspend();
  // Woken by that phase completing; later ones may have completed too
  // before this thread runs again, but this is the one it saw.
  b.seen[t.tid] = waitedFor;
  return true;
}

// The same answer as try_wait's, but never a wait: the thread goes on at
// once, whatever the phase, and a false answer is never spurious.
TP_EMU_OUTLINE bool mbarrier_test_wait_parity(uint32_t a, uint32_t parity) {
  rt::Cta &c = rt::current();
  c.atom(false);
  const char *op = "mbarrier.test_wait.parity";
  rt::MBarrier &b = c.mbarrier(op, a);
  bool done = rt::parityPhaseCompleted(c, b, parity & 1, op);
  // A switch point, as in try_wait: a thread polling with test_wait lets
  // the others (and the asynchronous units) run.
  c.suspend();
  return done;
}

TP_EMU_OUTLINE void mbarrier_wait_for_phase(uint32_t a, int64_t phase) {
  rt::Cta &c = rt::current();
  rt::MBarrier &b = c.mbarrier("mbarrier.try_wait.parity", a);
  if (b.seen.empty())
    b.seen.assign(c.nThreads, -1);
  // Never earlier than a phase the thread saw complete: waiting again for
  // an old phase is the stale wait the check exists for.
  int64_t &seen = b.seen[c.self().tid];
  seen = std::max(seen, phase - 1);
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu

#endif // TILEPIPE_EMULATOR_MBARRIER_MODEL_H
