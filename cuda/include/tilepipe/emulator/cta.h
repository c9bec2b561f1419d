//===- emulator/cta.h - one emulated CTA and its scheduler ------*- C++ -*-===//
//
// A CTA is run by a cooperative scheduler on one OS thread: every CUDA
// thread is a fiber that runs until an atom gives up the processor, either
// because the thread must wait (a barrier, a warp rendezvous) or because
// the seed says so. In between, the scheduler completes the asynchronous
// operations that are due. Everything that makes a run differ from another
// comes from the CTA's seeded generator, so a seed replays a run exactly.
//
// The scheduler picks a warp (at random, or the same again) and gives it a
// turn: each of its runnable lanes, in a seeded order, runs to its next
// switch point. Together with seeded choices that are alike for the lanes
// of a warp (Cta::decide), lanes running the same code stay together, as
// SIMT hardware keeps them in practice: a lane left two phases behind its
// warp would turn every "all lanes wait, one lane acts" loop into a false
// alarm. Warps interleave freely. Blocked threads sit on the wait list of
// what they wait for and are not looked at again until it wakes them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_CTA_H
#define TILEPIPE_EMULATOR_CTA_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tilepipe/emulator/builtins.h"
#include "tilepipe/emulator/fault.h"
#include "tilepipe/emulator/fiber.h"
#include "tilepipe/emulator/objects.h"
#include "tilepipe/emulator/outline.h"
#include "tilepipe/emulator/policy.h"
#include "tilepipe/emulator/rng.h"
#include "tilepipe/emulator/shared_memory.h"
#include "tilepipe/emulator/smem_buffer.h"
#include "tilepipe/emulator/thread.h"
#include "tilepipe/emulator/tensor_memory.h"

namespace tp::cpu::rt {

/// Thrown into the suspended threads of a run that stops (fault, deadlock)
/// so that their stacks unwind; deliberately not a std::exception.
struct ForcedUnwind {};

enum class Outcome { Running, Finished, Fault, Deadlock, StepLimit };

/// Shared address of dynamic shared memory byte 0: 1024-aligned, so the
/// swizzle patterns (which use absolute address bits) line up with the
/// buffer, and non-zero, so that code assuming a zero base fails.
inline constexpr uint32_t kSmemWindow = 0x400;

struct CtaSetup {
  uint3 ctaIdx{0, 0, 0};
  dim3 grid, block;
  uint32_t smemBytes = 0;
  uint64_t launchSeed = 1;
  uint64_t seed = 1; // this CTA's
  Policy policy = Policy::Adversarial;
  uint64_t maxSteps = 0;
  const std::function<void()> *body = nullptr;
  std::vector<std::unique_ptr<FiberStack>> *stacks = nullptr;
};

class Cta {
public:
  explicit Cta(const CtaSetup &s);
  Cta(const Cta &) = delete;
  Cta &operator=(const Cta &) = delete;

  /// Runs every thread to its end, or until a fault, a deadlock or the
  /// step limit; then `outcome` and `report` tell which.
  void run();

  //===--------------------------------------------------------------------===//
  // For the atoms (the running thread calls these)
  //===--------------------------------------------------------------------===//

  Thread &self() { return *cur; }
  /// The start of every atom: a switch point if `sync`, else one with the
  /// seeded probability.
  void atom(bool sync) {
    Thread &t = self();
    ++t.atoms;
    if (sync || decide(t, 1, tune.yieldPct))
      suspend();
  }
  /// A seeded choice (true with `percent`) about the running thread's
  /// current atom that is the same for every lane of its warp at the same
  /// point of the same code: lanes executing one code path choose alike
  /// and stay together, as they do on the GPU, while warps differ.
  bool decide(const Thread &t, uint64_t salt, uint32_t percent) const {
    uint64_t h =
        mix64(setup.seed ^ mix64(uint64_t(t.warp) << 48 ^ t.atoms << 8 ^ salt));
    return percent && h % 100 < percent;
  }
  /// Gives up the processor: the running thread stays runnable if Ready,
  /// and sleeps until woken if markBlocked.
  void suspend();
  void markBlocked(Thread &t, Wait w);
  void wake(Thread &t);

  [[noreturn]] void fault(const std::string &msg) { tp::cpu::fault(msg); }

  /// Shared-window checks every atom with a shared address operand does.
  void checkShared(const char *op, uint32_t addr, uint32_t bytes,
                   uint32_t align);

  // Defined with their atoms.
  MBarrier &mbarrier(const char *op, uint32_t addr);
  void mbarrierArrive(MBarrier &b, const char *op);
  void mbarrierCompleteTx(MBarrier &b, uint32_t bytes, const char *op);
  void mbarrierCheckPhase(MBarrier &b);
  void rendezvous(Coll kind, const char *op, uint32_t mask, bool aligned,
                  uint64_t a, uint64_t b, bool uniform);
  bool finishCollective(Warp &w, const Collective &c);
  void checkTmemStoreOverlap(const Collective &c);
  bool namedBarrierArrive(const Collective &c);
  bool tmemAlloc(Thread *const *lanes, uint32_t mask, uint32_t dst,
                 uint32_t columns);
  void tmemDealloc(uint32_t taddr, uint32_t columns);
  void tmemRetryBlocked();
  void setmaxnregWarp(uint32_t warp, bool increase, uint32_t regs);
  void wgmmaIssue(Warp &w, const Collective &c);
  void wgmmaRetire(AsyncOp &op);
  bool wgmmaSatisfied(const Thread &t, uint32_t pending) const;
  AsyncOp &issue(OpKind kind, const char *name);
  void issued(AsyncOp &op);
  static void dependOn(AsyncOp &op, AsyncOp &first);
  bool bulkSatisfied(const Thread &t, uint32_t pending) const;

  // Reports (report.h).
  std::string nameOf(uint32_t addr) const;
  std::string describeThreads() const;
  std::string header(const char *what) const;
  std::string where(const Thread &t) const { return where(t, t.loc); }
  std::string where(const Thread &t, SrcLoc loc) const;

  //===--------------------------------------------------------------------===//
  // State
  //===--------------------------------------------------------------------===//

  CtaSetup setup;
  Rng rng;
  Tuning tune;
  uint32_t nThreads = 0, nWarps = 0;
  std::vector<Thread> threads;
  std::vector<Warp> warps;
  std::vector<uint32_t> readyWarps; // warps with a runnable lane
  Thread *cur = nullptr;
  uint32_t running = 0; // threads not Done
  Fiber scheduler;
  uint64_t now = 0;   // scheduling steps so far
  uint64_t clock = 0; // clock64
  bool aborting = false;
  Outcome outcome = Outcome::Running;
  std::string report;

  dp::Smem smem;
  std::unique_ptr<dp::Tmem> tmem;
  NamedBarrier bars[16];
  std::unordered_map<uint32_t, MBarrier> mbars;
  std::vector<std::unique_ptr<AsyncOp>> inflight; // issue order
  uint64_t nextSeq = 0;
  uint64_t nextDue = UINT64_MAX; // no eligible non-lazy op is due earlier
  TmemAllocator talloc;
  std::vector<SharedName> names;
  // The setmaxnreg instructions of each warpgroup, in execution order.
  std::vector<std::vector<MaxNReg>> maxnregSeq;
  uint8_t electOrder[32];

private:
  // The warp having its turn: the lanes still to run, in the order
  // lane = (turnStart + turnStep * i) % 32.
  uint32_t turnWarp = 0, turnLanes = 0, turnStart = 0, turnStep = 1;
  uint32_t turnIndex = 32;
  bool hadTurn = false;

  static void threadMain();
  Thread *nextInTurn();
  void startTurn();
  void resume(Thread &t);
  void setReady(Thread &t);
  void unready(Thread &t);
  void exitThread(Thread &t);
  void failThread(Thread &t, const std::string &msg);
  void failAsync(const AsyncOp &op, const std::string &msg);
  void stop(Outcome o, const std::string &text);
  bool completeDue();
  bool completeAny();
  void complete(AsyncOp *op);
  void perform(AsyncOp &op);
  void unwindAll();
  void finalChecks();
};

/// The CTA the calling OS thread is emulating, if any.
inline thread_local Cta *tCurrent = nullptr;

/// The running CTA; atoms called outside launch() are a usage error.
inline Cta &current() {
  if (!tCurrent || !tCurrent->cur)
    throw std::logic_error("tp::cpu: an atom was called outside an emulated "
                           "kernel (use tp::cpu::launch)");
  return *tCurrent;
}

// The CTA scheduler is the emulator's largest code: under
// -DTILEPIPE_EMULATOR_EXTERN a kernel binary links it from the emulator
// library instead of compiling it again (outline.h).
#if !defined(TILEPIPE_EMULATOR_EXTERN)
//===----------------------------------------------------------------------===//
// Construction and thread bookkeeping
//===----------------------------------------------------------------------===//

TP_EMU_OUTLINE Cta::Cta(const CtaSetup &s) : setup(s), rng(s.seed) {
  tune = tuningFor(s.policy, rng);
  nThreads = s.block.x * s.block.y * s.block.z;
  nWarps = (nThreads + 31) / 32;
  threads.resize(nThreads);
  warps.resize(nWarps);
  maxnregSeq.resize((nWarps + 3) / 4);
  for (uint32_t i = 0; i < nThreads; ++i) {
    Thread &t = threads[i];
    t.tid = i;
    t.warp = i / 32;
    t.lane = i % 32;
    t.idx = uint3{i % s.block.x, i / s.block.x % s.block.y,
                  i / (s.block.x * s.block.y)};
    t.stack = (*s.stacks)[i].get();
    warps[t.warp].present |= 1u << t.lane;
  }
  for (Warp &w : warps)
    w.live = w.present;
  // elect.sync picks the same lane for the same mask every time (PTX):
  // the first lane of the mask in a seeded order of the 32 lanes.
  for (int i = 0; i < 32; ++i)
    electOrder[i] = uint8_t(i);
  for (int i = 31; i > 0; --i)
    std::swap(electOrder[i], electOrder[rng.below(uint32_t(i) + 1)]);
  // Fresh shared memory reads as all-ones bytes, a NaN in every float type.
  std::memset(tp_smem_raw, 0xFF, s.smemBytes);
  smem = dp::Smem{tp_smem_raw, kSmemWindow, s.smemBytes};
  tmem = std::make_unique<dp::Tmem>();
}

TP_EMU_OUTLINE void Cta::setReady(Thread &t) {
  t.state = RunState::Ready;
  Warp &w = warps[t.warp];
  if (!w.ready) {
    w.readyPos = uint32_t(readyWarps.size());
    readyWarps.push_back(t.warp);
  }
  w.ready |= 1u << t.lane;
}

TP_EMU_OUTLINE void Cta::unready(Thread &t) {
  Warp &w = warps[t.warp];
  w.ready &= ~(1u << t.lane);
  if (w.ready)
    return;
  uint32_t moved = readyWarps.back();
  readyWarps[w.readyPos] = moved;
  warps[moved].readyPos = w.readyPos;
  readyWarps.pop_back();
}

TP_EMU_OUTLINE void Cta::markBlocked(Thread &t, Wait w) {
  if (t.state == RunState::Ready)
    unready(t);
  t.state = RunState::Blocked;
  t.wait = w;
}

TP_EMU_OUTLINE void Cta::wake(Thread &t) {
  if (t.state != RunState::Blocked)
    return;
  t.wait = Wait{};
  setReady(t);
}

TP_EMU_OUTLINE void Cta::suspend() {
  Thread &t = *cur;
  Fiber::switchTo(t.fiber, scheduler);
  // A destructor running during the unwind may reach an atom: let it pass
  // rather than throw a second exception.
  if (aborting && std::uncaught_exceptions() == 0)
    throw ForcedUnwind{};
}

TP_EMU_OUTLINE void Cta::checkShared(const char *op, uint32_t addr, uint32_t bytes,
                             uint32_t align) {
  char msg[200];
  if (addr % align) {
    std::snprintf(msg, sizeof msg,
                  "%s: shared address 0x%x is not %u-byte aligned", op, addr,
                  align);
    fault(msg);
  }
  if (addr < smem.window ||
      uint64_t(addr) + bytes > uint64_t(smem.window) + smem.size) {
    std::snprintf(msg, sizeof msg,
                  "%s: [0x%x, 0x%llx) is outside the CTA's shared memory "
                  "[0x%x, 0x%x)",
                  op, addr, (unsigned long long)addr + bytes, smem.window,
                  smem.window + smem.size);
    fault(msg);
  }
}

//===----------------------------------------------------------------------===//
// Threads start, end, fail
//===----------------------------------------------------------------------===//

TP_EMU_OUTLINE void Cta::threadMain() {
  Cta &c = *tCurrent;
  Thread &t = *c.cur;
  Fiber::entered(c.scheduler);
  try {
    (*c.setup.body)();
    c.exitThread(t);
  } catch (const ForcedUnwind &) {
  } catch (const Fault &f) {
    c.failThread(t, f.what());
  } catch (const std::exception &e) {
    c.failThread(t, std::string("uncaught exception: ") + e.what());
  } catch (...) {
    c.failThread(t, "uncaught exception");
  }
  if (t.state == RunState::Ready)
    c.unready(t);
  t.state = RunState::Done;
  --c.running;
  Fiber::switchTo(t.fiber, c.scheduler, /*final=*/true);
  std::abort(); // a finished thread is never resumed
}

TP_EMU_OUTLINE void Cta::exitThread(Thread &t) {
  // The hardware would write their registers after the thread is gone.
  if (!t.wgOpen.empty() || !t.wgGroups.empty())
    fault("the thread exits with wgmma.mma_async operations in flight (" +
          std::to_string(t.wgGroups.size()) + " committed groups, " +
          std::to_string(t.wgOpen.size()) +
          " uncommitted): a missing wgmma.commit_group or wgmma.wait_group");
  Warp &w = warps[t.warp];
  uint32_t bit = 1u << t.lane;
  w.live &= ~bit;
  // An .aligned collective waits for the lanes that have not exited: this
  // lane leaving may complete one. A mask naming it explicitly never can.
  for (size_t i = 0; i < w.open.size();) {
    Collective &c = w.open[i];
    if (!(c.mask & bit)) {
      ++i;
      continue;
    }
    if (!c.aligned) {
      char msg[200];
      std::snprintf(msg, sizeof msg,
                    "%s: lane %u exited while lanes 0x%08x wait for it in "
                    "membermask 0x%08x",
                    c.op, t.lane, c.arrived, c.mask);
      fault(msg);
    }
    c.mask &= ~bit;
    if (c.mask && c.arrived == c.mask) {
      Collective done = c;
      w.open.erase(w.open.begin() + long(i));
      if (finishCollective(w, done))
        for (uint32_t l = 0; l < 32; ++l)
          if (done.mask >> l & 1)
            wake(*done.lanes[l]);
      continue;
    }
    ++i;
  }
}

TP_EMU_OUTLINE void Cta::stop(Outcome o, const std::string &text) {
  if (outcome != Outcome::Running)
    return;
  outcome = o;
  report = text;
}

TP_EMU_OUTLINE void Cta::failThread(Thread &t, const std::string &msg) {
  stop(Outcome::Fault, header("fault") + "\n  " + where(t) + ": " + msg + "\n" +
                           describeThreads());
}

TP_EMU_OUTLINE void Cta::failAsync(const AsyncOp &op, const std::string &msg) {
  stop(Outcome::Fault, header("fault") + "\n  in the completion of " + op.name +
                           " issued by " + where(*op.issuer, op.loc) + ": " +
                           msg + "\n" + describeThreads());
}

//===----------------------------------------------------------------------===//
// The scheduling loop
//===----------------------------------------------------------------------===//

TP_EMU_OUTLINE void Cta::startTurn() {
  bool again = hadTurn && warps[turnWarp].ready && rng.chance(tune.stickPct);
  if (!again)
    turnWarp = readyWarps[rng.below(uint32_t(readyWarps.size()))];
  hadTurn = true;
  turnLanes = warps[turnWarp].ready;
  turnStart = rng.below(32);
  turnStep = rng.chance(50) ? 1 : 31; // up or down from turnStart
  turnIndex = 0;
}

TP_EMU_OUTLINE Thread *Cta::nextInTurn() {
  while (turnIndex < 32) {
    uint32_t lane = (turnStart + turnStep * turnIndex++) % 32;
    if (!(turnLanes >> lane & 1))
      continue;
    Thread &t = threads[turnWarp * 32 + lane];
    if (t.state == RunState::Ready)
      return &t;
  }
  return nullptr;
}

TP_EMU_OUTLINE void Cta::resume(Thread &t) {
  cur = &t;
  t.started = true;
  threadIdx = t.idx;
  Fiber::switchTo(scheduler, t.fiber);
  cur = nullptr;
}

TP_EMU_OUTLINE void Cta::run() {
  Cta *outer = tCurrent;
  tCurrent = this;
  blockIdx = setup.ctaIdx;
  blockDim = setup.block;
  gridDim = setup.grid;
  for (Thread &t : threads) {
    t.fiber.start(*t.stack, &Cta::threadMain);
    setReady(t);
  }
  running = nThreads;
  while (outcome == Outcome::Running) {
    if (++now > setup.maxSteps) {
      stop(Outcome::StepLimit,
           header("step limit") + ": " + std::to_string(setup.maxSteps) +
               " scheduling steps without finishing (a livelock, or raise "
               "LaunchOptions::maxSteps)\n" +
               describeThreads());
      break;
    }
    if (completeDue())
      continue;
    if (Thread *next = nextInTurn()) {
      resume(*next);
      continue;
    }
    if (!readyWarps.empty()) {
      startTurn();
      continue;
    }
    if (completeAny())
      continue;
    if (running == 0)
      break;
    stop(Outcome::Deadlock,
         header("deadlock") +
             ": every thread is blocked and no asynchronous operation is "
             "in flight\n" +
             describeThreads());
  }
  if (outcome == Outcome::Running)
    finalChecks();
  if (outcome != Outcome::Running && outcome != Outcome::Finished)
    unwindAll();
  else
    outcome = Outcome::Finished;
  tCurrent = outer;
}

TP_EMU_OUTLINE void Cta::unwindAll() {
  aborting = true;
  for (Thread &t : threads) {
    if (t.state == RunState::Done)
      continue;
    if (!t.started) {
      t.state = RunState::Done;
      continue;
    }
    resume(t);
  }
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu::rt

#endif // TILEPIPE_EMULATOR_CTA_H
