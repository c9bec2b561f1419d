//===- emulator/async.h - the asynchronous units ----------------*- C++ -*-===//
//
// TMA copies, cp.async, tcgen05.mma/cp and tcgen05.commit do not take
// effect when issued: each becomes an operation in flight, and the
// scheduler completes it later, at a time the seed chooses, and only after
// the operations PTX orders it after. The data moves at completion (the
// data path in tma.h and mma.h reads shared memory then), so a kernel that
// reuses a buffer before the operation reading it has completed computes
// wrong numbers here, as it may on the GPU.
//
// An operation is eager (completes right after its issue; the issuing
// thread yields to let it), lazy (completes only when no thread can run),
// or due after a random number of scheduling steps. Whatever the choice,
// an operation completes once no thread can run, so waiting for it never
// deadlocks.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_ASYNC_H
#define TILEPIPE_EMULATOR_ASYNC_H

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "tilepipe/emulator/cta.h"
#include "tilepipe/emulator/mbarrier_model.h"
#include "tilepipe/emulator/mma_unit.h"
#include "tilepipe/emulator/outline.h"
#include "tilepipe/emulator/tma_unit.h"
#include "tilepipe/emulator/wgmma.h"

namespace tp::cpu::rt {

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE AsyncOp &Cta::issue(OpKind kind, const char *name) {
  auto op = std::make_unique<AsyncOp>();
  op->kind = kind;
  op->name = name;
  op->seq = nextSeq++;
  op->issuer = cur;
  op->loc = cur->loc;
  uint32_t r = rng.below(100);
  if (r < tune.eagerPct)
    op->due = now;
  else if (r < tune.eagerPct + tune.lazyPct)
    op->lazy = true;
  else
    op->due = now + 1 + rng.below(tune.maxDelay);
  inflight.push_back(std::move(op));
  return *inflight.back();
}

TP_EMU_OUTLINE void Cta::dependOn(AsyncOp &op, AsyncOp &first) {
  ++op.waitingOn;
  first.dependents.push_back(&op);
}

/// Ends the issue of `op`, once its dependences are recorded.
TP_EMU_OUTLINE void Cta::issued(AsyncOp &op) {
  if (op.lazy)
    return;
  if (op.waitingOn == 0)
    nextDue = std::min(nextDue, op.due);
  if (op.due == now)
    suspend(); // let the scheduler complete it right away
}

TP_EMU_OUTLINE bool Cta::bulkSatisfied(const Thread &t,
                                       uint32_t pending) const {
  for (size_t i = 0; i + pending < t.groups.size(); ++i)
    if (t.groups[i].pending)
      return false;
  return true;
}

TP_EMU_OUTLINE void Cta::perform(AsyncOp &op) {
  switch (op.kind) {
  case OpKind::TmaLoad: {
    uint32_t bytes =
        dp::tma_load_tile(op.map, op.rank, op.coords, smem, op.smem);
    MBarrier &b = mbarrier(op.name, op.bar);
    --b.asyncRefs;
    mbarrierCompleteTx(b, bytes, op.name);
    return;
  }
  case OpKind::TmaStore: {
    dp::tma_store_tile(op.map, op.rank, op.coords, smem, op.smem);
    Thread &t = *op.issuer;
    if (op.group == t.openGroup) {
      --t.openPending;
    } else {
      for (Thread::BulkGroup &g : t.groups)
        if (g.id == op.group)
          --g.pending;
    }
    while (!t.groups.empty() && t.groups.front().pending == 0)
      t.groups.pop_front();
    if (t.state == RunState::Blocked && t.wait.kind == WaitKind::BulkGroup &&
        bulkSatisfied(t, t.wait.a))
      wake(t);
    return;
  }
  case OpKind::CpAsync:
    std::memcpy(smem.at(op.smem, 16), op.global, 16);
    return;
  case OpKind::CpAsyncArrive:
  case OpKind::Commit: {
    MBarrier &b = mbarrier(op.name, op.bar);
    --b.asyncRefs;
    mbarrierArrive(b, op.name);
    return;
  }
  case OpKind::Mma:
    dp::mma(*tmem, smem, op.mmaKind, op.d, op.aInTmem, op.a, op.b, op.idesc,
            op.enableInputD, op.sfa, op.sfb);
    return;
  case OpKind::TcCp:
    dp::cp(*tmem, smem, op.shape, op.d, op.a);
    return;
  case OpKind::Wgmma:
    dp::wgmma(smem, *op.wg);
    wgmmaRetire(op);
    return;
  }
}

TP_EMU_OUTLINE void Cta::complete(AsyncOp *op) {
  try {
    perform(*op);
  } catch (const Fault &f) {
    failAsync(*op, f.what());
    return;
  } catch (const std::exception &e) {
    failAsync(*op, std::string("exception: ") + e.what());
    return;
  }
  for (AsyncOp *d : op->dependents)
    if (--d->waitingOn == 0 && !d->lazy)
      nextDue = std::min(nextDue, d->due);
  auto drop = [op](std::vector<AsyncOp *> &v) {
    auto it = std::find(v.begin(), v.end(), op);
    if (it != v.end())
      v.erase(it);
  };
  drop(op->issuer->tcgen05);
  drop(op->issuer->cpAsync);
  for (auto it = inflight.begin(); it != inflight.end(); ++it)
    if (it->get() == op) {
      inflight.erase(it);
      break;
    }
}

/// Completes one operation that is due, if any; the choice among several
/// is the seed's.
TP_EMU_OUTLINE bool Cta::completeDue() {
  if (inflight.empty() || now < nextDue)
    return false;
  std::vector<AsyncOp *> due;
  uint64_t next = UINT64_MAX;
  for (const auto &p : inflight) {
    AsyncOp *o = p.get();
    if (o->lazy || o->waitingOn)
      continue;
    if (o->due <= now)
      due.push_back(o);
    else
      next = std::min(next, o->due);
  }
  if (due.empty()) {
    nextDue = next;
    return false;
  }
  complete(due[rng.below(uint32_t(due.size()))]);
  return true;
}

/// With no thread runnable: completes any operation PTX allows to
/// complete now.
TP_EMU_OUTLINE bool Cta::completeAny() {
  std::vector<AsyncOp *> free;
  for (const auto &p : inflight)
    if (p->waitingOn == 0)
      free.push_back(p.get());
  if (free.empty())
    return false;
  complete(free[rng.below(uint32_t(free.size()))]);
  return true;
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu::rt

namespace tp::cpu {

TP_EMU_OUTLINE void tma_load(uint32_t dst, const CUtensorMap *map, int rank,
                             const int32_t *coords, uint32_t bar);
TP_EMU_OUTLINE void tma_store(const CUtensorMap *map, int rank,
                              const int32_t *coords, uint32_t src);
TP_EMU_OUTLINE void bulk_commit_group();

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE void tma_load(uint32_t dst, const CUtensorMap *map, int rank,
                             const int32_t *coords, uint32_t bar) {
  rt::Cta &c = rt::current();
  c.atom(false);
  const char *op = "cp.async.bulk.tensor (TMA load)";
  if (rank < 1 || rank > 5)
    c.fault(std::string(op) + ": rank " + std::to_string(rank) +
            " is not 1..5");
  c.checkShared(op, dst, 1, 16);
  rt::MBarrier &b = c.mbarrier(op, bar);
  rt::AsyncOp &o = c.issue(rt::OpKind::TmaLoad, op);
  o.map = *map;
  o.rank = rank;
  std::copy(coords, coords + rank, o.coords);
  o.smem = dst;
  o.bar = bar;
  ++b.asyncRefs;
  c.issued(o);
}

TP_EMU_OUTLINE void tma_store(const CUtensorMap *map, int rank,
                              const int32_t *coords, uint32_t src) {
  rt::Cta &c = rt::current();
  c.atom(false);
  const char *op = "cp.async.bulk.tensor (TMA store)";
  if (rank < 1 || rank > 5)
    c.fault(std::string(op) + ": rank " + std::to_string(rank) +
            " is not 1..5");
  c.checkShared(op, src, 1, 16);
  rt::Thread &t = c.self();
  rt::AsyncOp &o = c.issue(rt::OpKind::TmaStore, op);
  o.map = *map;
  o.rank = rank;
  std::copy(coords, coords + rank, o.coords);
  o.smem = src;
  o.group = t.openGroup;
  ++t.openPending;
  c.issued(o);
}

TP_EMU_OUTLINE void bulk_commit_group() {
  rt::Cta &c = rt::current();
  c.atom(false);
  rt::Thread &t = c.self();
  t.groups.push_back(rt::Thread::BulkGroup{t.openGroup, t.openPending});
  ++t.openGroup;
  t.openPending = 0;
  while (!t.groups.empty() && t.groups.front().pending == 0)
    t.groups.pop_front();
}
#endif // !TILEPIPE_EMULATOR_EXTERN

namespace rt {
TP_EMU_OUTLINE void bulkWait(const char *op, int pending);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE void bulkWait(const char *op, int pending) {
  Cta &c = current();
  c.atom(false);
  if (pending < 0)
    c.fault(std::string(op) + ": negative group count");
  Thread &t = c.self();
  // One switch either way, as in mbarrier_try_wait_parity.
  if (!c.bulkSatisfied(t, uint32_t(pending)))
    c.markBlocked(t, Wait{WaitKind::BulkGroup, op, uint32_t(pending), 0});
  c.suspend();
}
#endif // !TILEPIPE_EMULATOR_EXTERN
} // namespace rt

TP_EMU_OUTLINE void bulk_wait_group_read(int pending);
TP_EMU_OUTLINE void bulk_wait_group(int pending);
TP_EMU_OUTLINE void cp_async_16(uint32_t dst, const void *src);
TP_EMU_OUTLINE void cp_async_mbarrier_arrive(uint32_t bar);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
// Both forms wait for the whole store: the emulated store reads shared
// memory and writes global memory in one step.
TP_EMU_OUTLINE void bulk_wait_group_read(int pending) {
  rt::bulkWait("cp.async.bulk.wait_group.read", pending);
}
TP_EMU_OUTLINE void bulk_wait_group(int pending) {
  rt::bulkWait("cp.async.bulk.wait_group", pending);
}

TP_EMU_OUTLINE void cp_async_16(uint32_t dst, const void *src) {
  rt::Cta &c = rt::current();
  c.atom(false);
  const char *op = "cp.async.cg.shared.global (16 bytes)";
  c.checkShared(op, dst, 16, 16);
  if (reinterpret_cast<uintptr_t>(src) % 16)
    c.fault(std::string(op) + ": the global source is not 16-byte aligned");
  rt::AsyncOp &o = c.issue(rt::OpKind::CpAsync, op);
  o.smem = dst;
  o.global = src;
  c.self().cpAsync.push_back(&o);
  c.issued(o);
}

TP_EMU_OUTLINE void cp_async_mbarrier_arrive(uint32_t bar) {
  rt::Cta &c = rt::current();
  c.atom(false);
  const char *op = "cp.async.mbarrier.arrive";
  rt::MBarrier &b = c.mbarrier(op, bar);
  // Without .noinc the pending count rises now, so the net effect on the
  // phase is only that it waits for this thread's copies.
  if (b.pending + 1 > rt::kMBarrierMax)
    c.fault(std::string(op) + ": the pending count of mbarrier " +
            rt::mbarrierState(c, b) + " would exceed 2^20 - 1");
  ++b.pending;
  rt::AsyncOp &o = c.issue(rt::OpKind::CpAsyncArrive, op);
  o.bar = bar;
  ++b.asyncRefs;
  for (rt::AsyncOp *p : c.self().cpAsync)
    rt::Cta::dependOn(o, *p);
  c.issued(o);
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu

#endif // TILEPIPE_EMULATOR_ASYNC_H
