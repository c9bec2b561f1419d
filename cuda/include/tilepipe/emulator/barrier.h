//===- emulator/barrier.h - named barriers (bar.sync, .arrive) --*- C++ -*-===//
//
// PTX counts arrivals at barriers 0..15 per warp: a warp's arrival waits for
// its lanes that have not exited (bar is .aligned), then adds the warp size
// to the barrier, which completes when the count it was given is reached.
// bar.sync waits for that completion, bar.arrive does not. Checked: the id
// range, the count (a positive multiple of 32 that the CTA can reach), the
// same count from every warp of one barrier instance, and no warp arriving
// twice before the barrier resets (which PTX calls out as a hazard of
// mixing arrive and sync).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_BARRIER_H
#define TILEPIPE_EMULATOR_BARRIER_H

#include <cstdio>

#include "tilepipe/emulator/cta.h"
#include "tilepipe/emulator/outline.h"
#include "tilepipe/emulator/warp.h"

namespace tp::cpu::rt {

TP_EMU_OUTLINE void namedBarrier(Coll kind, const char *op, uint32_t id,
                                 uint32_t threads);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE bool Cta::namedBarrierArrive(const Collective &c) {
  uint32_t id = uint32_t(c.a), count = uint32_t(c.b);
  uint32_t warp = 0;
  for (uint32_t l = 0; l < 32; ++l)
    if (c.mask >> l & 1) {
      warp = c.lanes[l]->warp;
      break;
    }
  NamedBarrier &nb = bars[id];
  char msg[320];
  if (nb.count == 0) {
    nb.count = count;
  } else if (nb.count != count) {
    std::snprintf(msg, sizeof msg,
                  "%s %u, %u: warp %u arrives with %u threads, but barrier %u "
                  "is in use with a count of %u (warps 0x%08x arrived); all "
                  "participants of a barrier must pass the same count",
                  c.op, id, count, warp, count, id, nb.count, nb.warps);
    fault(msg);
  }
  if (nb.warps >> warp & 1) {
    std::snprintf(msg, sizeof msg,
                  "%s %u, %u: warp %u arrives a second time before the "
                  "barrier completed (PTX: a warp must not execute more "
                  "barrier instructions on a barrier than intended before it "
                  "resets)",
                  c.op, id, count, warp);
    fault(msg);
  }
  nb.warps |= 1u << warp;
  ++nb.arrivedWarps;
  if (nb.arrivedWarps * 32 >= nb.count) {
    for (Thread *u : nb.waiters)
      wake(*u);
    nb = NamedBarrier{};
    return true;
  }
  if (c.kind == Coll::BarArrive)
    return true;
  for (uint32_t l = 0; l < 32; ++l)
    if (c.mask >> l & 1) {
      Thread *u = c.lanes[l];
      u->wait = Wait{WaitKind::NamedBarrier, c.op, id, count};
      nb.waiters.push_back(u);
    }
  return false;
}

/// bar.sync/bar.arrive as the running thread executes it.
TP_EMU_OUTLINE void namedBarrier(Coll kind, const char *op, uint32_t id,
                                 uint32_t threads) {
  Cta &c = current();
  c.atom(true);
  char msg[240];
  if (id >= 16) {
    std::snprintf(msg, sizeof msg, "%s %u: barrier ids are 0..15", op, id);
    c.fault(msg);
  }
  if (threads == 0 || threads % 32) {
    std::snprintf(msg, sizeof msg,
                  "%s %u, %u: the thread count must be a positive multiple "
                  "of the warp size",
                  op, id, threads);
    c.fault(msg);
  }
  if (threads > c.nWarps * 32) {
    std::snprintf(msg, sizeof msg,
                  "%s %u, %u: the CTA has only %u warps, so the barrier can "
                  "never complete",
                  op, id, threads, c.nWarps);
    c.fault(msg);
  }
  c.rendezvous(kind, op, 0, true, id, threads, true);
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu::rt

namespace tp::cpu {

TP_EMU_OUTLINE void syncthreads();
TP_EMU_OUTLINE void bar_sync(uint32_t id, uint32_t threads);
TP_EMU_OUTLINE void bar_arrive(uint32_t id, uint32_t threads);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE void syncthreads() {
  rt::Cta &c = rt::current();
  rt::namedBarrier(rt::Coll::BarSync, "bar.sync", 0, c.nWarps * 32);
}

TP_EMU_OUTLINE void bar_sync(uint32_t id, uint32_t threads) {
  rt::namedBarrier(rt::Coll::BarSync, "bar.sync", id, threads);
}

TP_EMU_OUTLINE void bar_arrive(uint32_t id, uint32_t threads) {
  rt::namedBarrier(rt::Coll::BarArrive, "bar.arrive", id, threads);
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu

#endif // TILEPIPE_EMULATOR_BARRIER_H
