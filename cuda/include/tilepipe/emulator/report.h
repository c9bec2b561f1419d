//===- emulator/report.h - what every thread is doing, in words -*- C++ -*-===//
//
// A fault, deadlock or step-limit report lists each warp's lanes grouped by
// state: what they are blocked on (the barrier kind, its shared address and
// registered name, the parity waited for and the barrier's phase, pending
// count and tx-count) and the kernel line they are at. Consecutive warps in
// the same state share a line.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_REPORT_H
#define TILEPIPE_EMULATOR_REPORT_H

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "tilepipe/emulator/cta.h"
#include "tilepipe/emulator/mbarrier_model.h"
#include "tilepipe/emulator/outline.h"
#include "tilepipe/emulator/tcgen05.h"

namespace tp::cpu::rt {

TP_EMU_OUTLINE std::string laneList(uint32_t mask);
TP_EMU_OUTLINE std::string locText(SrcLoc loc);
TP_EMU_OUTLINE std::string describeWait(const Cta &c, const Thread &t);
TP_EMU_OUTLINE std::string describeThread(const Cta &c, const Thread &t);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
/// "0-31", "0, 2-5".
TP_EMU_OUTLINE std::string laneList(uint32_t mask) {
  std::string s;
  for (int l = 0; l < 32;) {
    if (!(mask >> l & 1)) {
      ++l;
      continue;
    }
    int e = l;
    while (e + 1 < 32 && (mask >> (e + 1) & 1))
      ++e;
    s += (s.empty() ? "" : ", ") + std::to_string(l);
    if (e > l)
      s += "-" + std::to_string(e);
    l = e + 1;
  }
  return s;
}

TP_EMU_OUTLINE std::string locText(SrcLoc loc) {
  if (!loc.file)
    return "an unknown location (no set_loc yet)";
  return std::string(loc.file) + ":" + std::to_string(loc.line);
}

TP_EMU_OUTLINE std::string Cta::nameOf(uint32_t addr) const {
  for (const SharedName &n : names) {
    if (addr < n.addr || addr - n.addr >= n.bytes)
      continue;
    uint32_t off = addr - n.addr;
    if (n.bytes > n.elemBytes && off % n.elemBytes == 0)
      return " (" + n.name + "[" + std::to_string(off / n.elemBytes) + "])";
    if (off == 0)
      return " (" + n.name + ")";
    return " (" + n.name + "+" + std::to_string(off) + ")";
  }
  return "";
}

TP_EMU_OUTLINE std::string Cta::header(const char *what) const {
  char buf[240];
  std::snprintf(buf, sizeof buf,
                "tilepipe cpu emulator: %s in CTA (%u,%u,%u) at step %llu "
                "(TP_CPU_SEED=%llu TP_CPU_POLICY=%s)",
                what, setup.ctaIdx.x, setup.ctaIdx.y, setup.ctaIdx.z,
                (unsigned long long)now, (unsigned long long)setup.launchSeed,
                policyName(setup.policy));
  return buf;
}

TP_EMU_OUTLINE std::string Cta::where(const Thread &t, SrcLoc loc) const {
  char buf[96];
  std::snprintf(buf, sizeof buf, "warp %u lane %u (threadIdx %u,%u,%u) at ",
                t.warp, t.lane, t.idx.x, t.idx.y, t.idx.z);
  return buf + locText(loc);
}

TP_EMU_OUTLINE std::string describeWait(const Cta &c, const Thread &t) {
  const Wait &w = t.wait;
  char buf[320];
  switch (w.kind) {
  case WaitKind::None:
    return "blocked";
  case WaitKind::Warp:
    for (const Collective &o : c.warps[t.warp].open)
      if (o.arrived >> t.lane & 1) {
        std::snprintf(buf, sizeof buf,
                      "%s (membermask 0x%08x): waits for lanes %s of its warp",
                      o.op, o.mask, laneList(o.mask & ~o.arrived).c_str());
        return buf;
      }
    return std::string(w.op) + ": waits for its warp";
  case WaitKind::NamedBarrier: {
    const NamedBarrier &nb = c.bars[w.a];
    std::string arrived;
    for (uint32_t i = 0; i < 32; ++i)
      if (nb.warps >> i & 1)
        arrived += (arrived.empty() ? "" : ",") + std::to_string(i);
    std::snprintf(buf, sizeof buf,
                  "%s %u, %u: %u of %u warps arrived (warps %s)", w.op, w.a,
                  w.b, nb.arrivedWarps, w.b / 32,
                  arrived.empty() ? "none" : arrived.c_str());
    return buf;
  }
  case WaitKind::MBarrier: {
    auto it = c.mbars.find(w.a);
    if (it == c.mbars.end())
      return std::string(w.op) + " on an unknown barrier";
    const MBarrier &b = it->second;
    std::string s = std::string(w.op) + " " + std::to_string(w.b) + " on " +
                    mbarrierState(c, b) + ": waits for phase " +
                    std::to_string(b.phase) + " to complete";
    if (b.asyncRefs)
      s += " (" + std::to_string(b.asyncRefs) +
           " async ops in flight will still arrive or complete_tx)";
    return s;
  }
  case WaitKind::BulkGroup:
    std::snprintf(buf, sizeof buf,
                  "%s %u: waits for older bulk async-groups (%zu committed "
                  "groups not yet complete)",
                  w.op, w.a, t.groups.size());
    return buf;
  case WaitKind::WgmmaGroup:
    std::snprintf(buf, sizeof buf,
                  "%s %u: waits for older wgmma groups (%zu committed groups "
                  "not yet complete)",
                  w.op, w.a, t.wgGroups.size());
    return buf;
  case WaitKind::TmemAlloc:
    std::snprintf(buf, sizeof buf,
                  "%s %u columns: waits for free tensor memory (allocated: "
                  "%s)",
                  w.op, w.a, tmemBlocks(c.talloc).c_str());
    return buf;
  }
  return "blocked";
}

TP_EMU_OUTLINE std::string describeThread(const Cta &c, const Thread &t) {
  switch (t.state) {
  case RunState::Fresh:
    return "not started";
  case RunState::Done:
    return "exited";
  case RunState::Ready:
    return std::string(t.started ? "runnable" : "not started") + " at " +
           locText(t.loc);
  case RunState::Blocked:
    return describeWait(c, t) + " at " + locText(t.loc);
  }
  return "?";
}

TP_EMU_OUTLINE std::string Cta::describeThreads() const {
  using Groups = std::vector<std::pair<uint32_t, std::string>>;
  std::vector<Groups> perWarp(nWarps);
  for (const Thread &t : threads) {
    Groups &g = perWarp[t.warp];
    std::string d = describeThread(*this, t);
    auto it = std::find_if(g.begin(), g.end(),
                           [&](const auto &p) { return p.second == d; });
    if (it == g.end())
      g.emplace_back(1u << t.lane, d);
    else
      it->first |= 1u << t.lane;
  }
  std::string out = "thread states:";
  for (uint32_t w = 0; w < nWarps;) {
    uint32_t e = w;
    while (e + 1 < nWarps && perWarp[e + 1] == perWarp[w])
      ++e;
    std::string warpsText =
        e > w ? "warps " + std::to_string(w) + "-" + std::to_string(e)
              : "warp " + std::to_string(w);
    for (const auto &g : perWarp[w])
      out += "\n  " + warpsText +
             ((g.first & (g.first - 1)) ? ", lanes " : ", lane ") +
             laneList(g.first) + ": " + g.second;
    w = e + 1;
  }
  if (!inflight.empty())
    out += "\n  " + std::to_string(inflight.size()) +
           " asynchronous operations in flight";
  return out;
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu::rt

#endif // TILEPIPE_EMULATOR_REPORT_H
