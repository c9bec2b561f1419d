//===- emulator/warp.h - warp rendezvous, collectives -----------*- C++ -*-===//
//
// A warp-synchronous instruction (.sync) waits for every lane of its member
// mask; an .aligned one for every lane of the warp that has not exited. The
// emulated lanes run one at a time, so each arriving lane blocks until the
// last one arrives; that lane performs the instruction for the whole warp
// (elects, shuffles, moves TMEM data, arrives at a named barrier) and wakes
// the others, unless the instruction makes them wait further.
//
// Lanes of one warp may wait at different collectives with disjoint masks
// (independent thread scheduling); a lane that arrives at a collective whose
// mask includes a lane already waiting somewhere else can never complete,
// and is reported as a fault at once.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_WARP_H
#define TILEPIPE_EMULATOR_WARP_H

#include <cstdio>
#include <cstring>

#include "tilepipe/emulator/cta.h"
#include "tilepipe/emulator/tensor_memory.h"

namespace tp::cpu::rt {

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE void Cta::rendezvous(Coll kind, const char *op, uint32_t mask,
                                    bool aligned, uint64_t a, uint64_t b,
                                    bool uniform) {
  Thread &t = self();
  Warp &w = warps[t.warp];
  uint32_t bit = 1u << t.lane;
  char msg[320];
  if (aligned) {
    mask = w.live;
  } else {
    if (!(mask & bit)) {
      std::snprintf(msg, sizeof msg,
                    "%s: lane %u executes it but is not in membermask 0x%08x",
                    op, t.lane, mask);
      fault(msg);
    }
    // The last warp of a CTA may have fewer than 32 threads: the lanes
    // past the end never take part, as on the GPU, whatever the mask says.
    mask &= w.present;
    if (mask & ~w.live) {
      std::snprintf(msg, sizeof msg,
                    "%s: membermask 0x%08x names lanes 0x%08x that have "
                    "exited",
                    op, mask, mask & ~w.live);
      fault(msg);
    }
  }
  Collective *c = nullptr;
  for (Collective &o : w.open)
    if (o.kind == kind && o.mask == mask && !(o.arrived & bit)) {
      c = &o;
      break;
    }
  if (!c) {
    for (const Collective &o : w.open)
      if (o.arrived & mask) {
        std::snprintf(msg, sizeof msg,
                      "%s (mask 0x%08x): lanes 0x%08x of its mask already "
                      "wait at %s (mask 0x%08x) from %s:%d; the warp diverged "
                      "at a warp-synchronous instruction",
                      op, mask, o.arrived & mask, o.op, o.mask,
                      o.loc.file ? o.loc.file : "?", o.loc.line);
        fault(msg);
      }
    w.open.push_back(Collective{kind, op, mask, 0, aligned, t.loc, a, b, {}});
    c = &w.open.back();
  } else if (uniform && (c->a != a || c->b != b)) {
    std::snprintf(msg, sizeof msg,
                  "%s: the lanes of warp %u disagree on its operands (lane %u "
                  "passes 0x%llx, 0x%llx; an earlier lane 0x%llx, 0x%llx)",
                  op, t.warp, t.lane, (unsigned long long)a,
                  (unsigned long long)b, (unsigned long long)c->a,
                  (unsigned long long)c->b);
    fault(msg);
  }
  c->arrived |= bit;
  c->lanes[t.lane] = &t;
  markBlocked(t, Wait{WaitKind::Warp, op, mask, 0});
  if (c->arrived == c->mask) {
    Collective done = *c;
    w.open.erase(w.open.begin() + (c - w.open.data()));
    if (finishCollective(w, done))
      for (uint32_t l = 0; l < 32; ++l)
        if (done.mask >> l & 1)
          wake(*done.lanes[l]);
  }
  if (t.state == RunState::Blocked)
    suspend();
}

/// Performs a completed collective; false if its lanes wait on (a named
/// barrier, a TMEM allocation) instead of being released.
/// A .16x32bx2 store whose halves overlap (immHalfSplitoff below .num)
/// writes some cells from two threads; PTX does not say which wins, so the
/// two must agree (a 64-row register tile held twice, once per half-warp).
TP_EMU_OUTLINE void Cta::checkTmemStoreOverlap(const Collective &c) {
  dp::TmemAccess x = dp::TmemAccess::decode(c.b);
  if (x.form != dp::TmemForm::S16x32bx2 || x.halfSplit >= x.num)
    return;
  for (uint32_t l = 0; l < 16; ++l) {
    if (!(c.mask >> l & 1) || !(c.mask >> (l + 16) & 1))
      continue;
    auto *lo = static_cast<const uint32_t *>(c.lanes[l]->ptr);
    auto *hi = static_cast<const uint32_t *>(c.lanes[l + 16]->ptr);
    for (uint32_t j = x.halfSplit; j < x.num; ++j)
      if (lo[j] != hi[j - x.halfSplit]) {
        char msg[320];
        std::snprintf(
            msg, sizeof msg,
            "%s.16x32bx2.x%u [0x%08x]: threads %u and %u write TMEM lane "
            "%u, column %u with different values (0x%08x, "
            "0x%08x); which one lands is undefined",
            c.op, x.num, uint32_t(c.a), l, l + 16,
            dp::tmemLane(uint32_t(c.a)) + l, dp::tmemCol(uint32_t(c.a)) + j,
            lo[j], hi[j - x.halfSplit]);
        fault(msg);
      }
  }
}

TP_EMU_OUTLINE bool Cta::finishCollective(Warp &w, const Collective &c) {
  int warp = int(&w - warps.data());
  switch (c.kind) {
  case Coll::Elect: {
    uint32_t leader = 0;
    for (uint8_t l : electOrder)
      if (c.mask >> l & 1) {
        leader = l;
        break;
      }
    for (uint32_t l = 0; l < 32; ++l)
      if (c.mask >> l & 1)
        c.lanes[l]->out = l == leader;
    return true;
  }
  case Coll::Shfl:
    for (uint32_t l = 0; l < 32; ++l) {
      if (!(c.mask >> l & 1))
        continue;
      uint32_t src = uint32_t(c.lanes[l]->in1) & 31;
      if (!(c.mask >> src & 1)) {
        char msg[160];
        std::snprintf(msg, sizeof msg,
                      "%s: lane %u reads lane %u, which is not in membermask "
                      "0x%08x",
                      c.op, l, src, c.mask);
        fault(msg);
      }
      c.lanes[l]->out = c.lanes[src]->in0;
    }
    return true;
  case Coll::SyncWarp:
  case Coll::TcWaitLd:
  case Coll::TcWaitSt:
    return true;
  case Coll::BarSync:
  case Coll::BarArrive:
    return namedBarrierArrive(c);
  case Coll::TcLd:
    for (uint32_t l = 0; l < 32; ++l)
      if (c.mask >> l & 1)
        dp::ld(*tmem, warp, int(l), uint32_t(c.a), dp::TmemAccess::decode(c.b),
               static_cast<uint32_t *>(c.lanes[l]->ptr));
    return true;
  case Coll::TcSt:
    checkTmemStoreOverlap(c);
    for (uint32_t l = 0; l < 32; ++l)
      if (c.mask >> l & 1)
        dp::st(*tmem, warp, int(l), uint32_t(c.a), dp::TmemAccess::decode(c.b),
               static_cast<const uint32_t *>(c.lanes[l]->ptr));
    return true;
  case Coll::TcAlloc:
    return tmemAlloc(c.lanes, c.mask, uint32_t(c.a), uint32_t(c.b));
  case Coll::TcDealloc:
    tmemDealloc(uint32_t(c.a), uint32_t(c.b));
    return true;
  case Coll::TcRelinquish:
    talloc.relinquished = true;
    return true;
  case Coll::SetMaxNReg:
    setmaxnregWarp(uint32_t(warp), c.a != 0, uint32_t(c.b));
    return true;
  case Coll::Wgmma:
    wgmmaIssue(w, c);
    return true;
  }
  return true;
}

TP_EMU_OUTLINE void Cta::setmaxnregWarp(uint32_t warp, bool increase,
                                        uint32_t regs) {
  Warp &w = warps[warp];
  const char *op = increase ? "setmaxnreg.inc" : "setmaxnreg.dec";
  char msg[320];
  if (w.maxnreg && (increase ? regs < w.maxnreg : regs > w.maxnreg)) {
    std::snprintf(msg, sizeof msg,
                  "%s.sync.aligned.u32 %u: warp %u already holds %u "
                  "registers per thread, so .%s must not %s it (PTX)",
                  op, regs, warp, w.maxnreg, increase ? "inc" : "dec",
                  increase ? "lower" : "raise");
    fault(msg);
  }
  w.maxnreg = regs;
  std::vector<MaxNReg> &seq = maxnregSeq[warp / 4];
  uint32_t n = w.maxnregCount++;
  if (n == seq.size()) {
    seq.push_back(MaxNReg{increase, regs, warp, cur ? cur->loc : SrcLoc{}});
    return;
  }
  const MaxNReg &first = seq[n];
  if (first.increase != increase || first.regs != regs) {
    std::snprintf(msg, sizeof msg,
                  "%s %u: warp %u executes it as its setmaxnreg #%u, but warp "
                  "%u of its warpgroup executed setmaxnreg.%s %u there (at "
                  "%s:%d); every warp of a warpgroup must execute the same "
                  "setmaxnreg (PTX)",
                  op, regs, warp, n + 1, first.warp,
                  first.increase ? "inc" : "dec", first.regs,
                  first.loc.file ? first.loc.file : "?", first.loc.line);
    fault(msg);
  }
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu::rt

namespace tp::cpu {

TP_EMU_OUTLINE bool elect_sync(uint32_t mask);
TP_EMU_OUTLINE uint32_t shfl_idx_sync(uint32_t mask, uint32_t v, int srcLane);
TP_EMU_OUTLINE void syncwarp(uint32_t mask);
TP_EMU_OUTLINE void setmaxnreg(bool increase, uint32_t regs);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE bool elect_sync(uint32_t mask) {
  rt::Cta &c = rt::current();
  c.atom(true);
  c.rendezvous(rt::Coll::Elect, "elect.sync", mask, false, 0, 0, false);
  return c.self().out != 0;
}

TP_EMU_OUTLINE uint32_t shfl_idx_sync(uint32_t mask, uint32_t v, int srcLane) {
  rt::Cta &c = rt::current();
  c.atom(true);
  rt::Thread &t = c.self();
  t.in0 = v;
  t.in1 = uint32_t(srcLane);
  c.rendezvous(rt::Coll::Shfl, "shfl.sync.idx", mask, false, 0, 0, false);
  return uint32_t(t.out);
}

TP_EMU_OUTLINE void syncwarp(uint32_t mask) {
  rt::Cta &c = rt::current();
  c.atom(true);
  c.rendezvous(rt::Coll::SyncWarp, "bar.warp.sync", mask, false, 0, 0, false);
}

TP_EMU_OUTLINE void setmaxnreg(bool increase, uint32_t regs) {
  rt::Cta &c = rt::current();
  c.atom(true);
  if (regs < 24 || regs > 256 || regs % 8) {
    char msg[120];
    std::snprintf(msg, sizeof msg,
                  "setmaxnreg: register count %u is not a multiple of 8 in "
                  "[24, 256]",
                  regs);
    c.fault(msg);
  }
  c.rendezvous(rt::Coll::SetMaxNReg,
               increase ? "setmaxnreg.inc.sync.aligned"
                        : "setmaxnreg.dec.sync.aligned",
               0, true, increase, regs, true);
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu

// The wgmma collective and operation (defined there, used here).
#include "tilepipe/emulator/outline.h"
#include "tilepipe/emulator/wgmma.h"

#endif // TILEPIPE_EMULATOR_WARP_H
