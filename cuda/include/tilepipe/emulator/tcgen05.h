//===- emulator/tcgen05.h - tcgen05 issue, order, TMEM ----------*- C++ -*-===//
//
// tcgen05.mma and tcgen05.cp are asynchronous (async.h). Of their possible
// completion orders the emulator allows exactly what PTX leaves open: an
// mma completes after the earlier mma of the same thread on the same
// accumulator and shape, and after the earlier tcgen05.cp of the same
// thread; a commit arrives after every earlier mma and cp of its thread.
// Nothing else is ordered: mma on other accumulators, cp after mma, and
// tcgen05.ld/st against mma in flight.
//
// tcgen05.ld/st run at once when the warp's lanes have all arrived: an ld
// reads TMEM as the completed operations left it, so reading an
// accumulator whose mma has not completed returns the old contents, which
// is the hazard on the GPU too. Because they complete at once,
// tcgen05.wait::ld/st have nothing to check and only rendezvous the warp.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_TCGEN05_H
#define TILEPIPE_EMULATOR_TCGEN05_H

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "tilepipe/emulator/async.h"
#include "tilepipe/emulator/cta.h"
#include "tilepipe/emulator/outline.h"
#include "tilepipe/emulator/tensor_memory.h"
#include "tilepipe/emulator/warp.h"

namespace tp::cpu::rt {

/// The instruction descriptor's M and N fields (bits [17, 29)): with the
/// D address, what PTX calls the same accumulator and shape.
inline constexpr uint32_t kMmaShapeBits = 0x1FFE0000u;

TP_EMU_OUTLINE void issueMma(const char *name, MmaKind kind, uint32_t d,
                             bool aInTmem, uint64_t a, uint64_t b,
                             uint32_t idesc, bool enableInputD, uint32_t sfa,
                             uint32_t sfb);
TP_EMU_OUTLINE std::string tmemBlocks(const TmemAllocator &a);
TP_EMU_OUTLINE bool tmemPlace(Cta &c, uint32_t dst, uint32_t columns,
                              SrcLoc loc);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE void issueMma(const char *name, MmaKind kind, uint32_t d,
                             bool aInTmem, uint64_t a, uint64_t b,
                             uint32_t idesc, bool enableInputD, uint32_t sfa,
                             uint32_t sfb) {
  Cta &c = current();
  c.atom(false);
  Thread &t = c.self();
  AsyncOp &o = c.issue(OpKind::Mma, name);
  o.mmaKind = kind;
  o.d = d;
  o.aInTmem = aInTmem;
  o.a = a;
  o.b = b;
  o.idesc = idesc;
  o.enableInputD = enableInputD;
  o.sfa = sfa;
  o.sfb = sfb;
  for (AsyncOp *p : t.tcgen05)
    if (p->kind == OpKind::TcCp ||
        (p->d == d && (p->idesc & kMmaShapeBits) == (idesc & kMmaShapeBits)))
      Cta::dependOn(o, *p);
  t.tcgen05.push_back(&o);
  c.issued(o);
}

TP_EMU_OUTLINE std::string tmemBlocks(const TmemAllocator &a) {
  std::string s;
  for (const TmemAllocator::Block &b : a.blocks)
    s += (s.empty() ? "" : ", ") + std::string("[") + std::to_string(b.column) +
         ", " + std::to_string(b.column + b.columns) + ")";
  return s.empty() ? "none" : s;
}

/// Places an allocation at a seeded choice among the free, size-aligned
/// column ranges, so that code assuming column 0 fails on some seed.
TP_EMU_OUTLINE bool tmemPlace(Cta &c, uint32_t dst, uint32_t columns,
                              SrcLoc loc) {
  uint32_t units = columns / 32, ones = (1u << units) - 1;
  uint32_t fits[16], n = 0;
  for (uint32_t u = 0; u + units <= 16; u += units)
    if (!(c.talloc.used & ones << u))
      fits[n++] = u;
  if (n == 0)
    return false;
  uint32_t u = fits[c.rng.below(n)];
  c.talloc.used |= ones << u;
  c.talloc.blocks.push_back(TmemAllocator::Block{u * 32, columns, loc});
  // dp::Tmem::allocate always takes the lowest free run; mark the seeded
  // one in its allocation state the same way (allocated, cells poisoned).
  dp::Tmem &t = *c.tmem;
  for (uint32_t col = u * 32; col < u * 32 + columns; ++col) {
    t.allocated[col] = true;
    for (uint32_t l = 0; l < dp::kTmemLanes; ++l) {
      t.cell[l][col] = dp::kPoison;
      t.written[l][col] = false;
    }
  }
  uint32_t taddr = u * 32; // lane 0, first column
  std::memcpy(c.smem.at(dst, 4), &taddr, 4);
  return true;
}

TP_EMU_OUTLINE bool Cta::tmemAlloc(Thread *const *lanes, uint32_t mask,
                                   uint32_t dst, uint32_t columns) {
  char msg[240];
  if (talloc.relinquished)
    fault("tcgen05.alloc: the CTA executed tcgen05.relinquish_alloc_permit "
          "before, after which it must not allocate (PTX)");
  if (talloc.lastColumns && columns > talloc.lastColumns) {
    std::snprintf(msg, sizeof msg,
                  "tcgen05.alloc %u columns: the CTA's previous allocation "
                  "was %u columns, and PTX requires that allocation sizes "
                  "do not increase",
                  columns, talloc.lastColumns);
    fault(msg);
  }
  talloc.lastColumns = columns;
  SrcLoc loc;
  for (uint32_t l = 0; l < 32; ++l)
    if (mask >> l & 1) {
      loc = lanes[l]->loc;
      break;
    }
  if (tmemPlace(*this, dst, columns, loc))
    return true;
  // PTX: the allocation blocks until enough columns are free.
  TmemAllocator::Request r{dst, columns, {}};
  for (uint32_t l = 0; l < 32; ++l)
    if (mask >> l & 1) {
      lanes[l]->wait = Wait{WaitKind::TmemAlloc, "tcgen05.alloc", columns, 0};
      r.lanes.push_back(lanes[l]);
    }
  talloc.blocked.push_back(std::move(r));
  return false;
}

TP_EMU_OUTLINE void Cta::tmemRetryBlocked() {
  for (size_t i = 0; i < talloc.blocked.size();) {
    TmemAllocator::Request &r = talloc.blocked[i];
    if (!tmemPlace(*this, r.dst, r.columns, r.lanes[0]->loc)) {
      ++i;
      continue;
    }
    for (Thread *u : r.lanes)
      wake(*u);
    talloc.blocked.erase(talloc.blocked.begin() + long(i));
  }
}

TP_EMU_OUTLINE void Cta::tmemDealloc(uint32_t taddr, uint32_t columns) {
  char msg[320];
  uint32_t column = taddr & 0xFFFF;
  auto it = std::find_if(talloc.blocks.begin(), talloc.blocks.end(),
                         [&](const TmemAllocator::Block &b) {
                           return b.column == column && b.columns == columns;
                         });
  if ((taddr >> 16) != 0 || it == talloc.blocks.end()) {
    std::snprintf(msg, sizeof msg,
                  "tcgen05.dealloc 0x%x, %u: not an allocation of this CTA "
                  "(allocated: %s); taddr and nCols must be those of a "
                  "tcgen05.alloc",
                  taddr, columns, tmemBlocks(talloc).c_str());
    fault(msg);
  }
  for (const auto &p : inflight) {
    if (p->kind != OpKind::Mma && p->kind != OpKind::TcCp)
      continue;
    uint32_t col = p->d & 0xFFFF;
    if (col >= column && col < column + columns) {
      std::snprintf(msg, sizeof msg,
                    "tcgen05.dealloc of columns [%u, %u): a %s issued at "
                    "%s:%d that writes column %u has not completed (wait for "
                    "its tcgen05.commit first)",
                    column, column + columns, p->name,
                    p->loc.file ? p->loc.file : "?", p->loc.line, col);
      fault(msg);
    }
  }
  talloc.used &= ~(((1u << (columns / 32)) - 1) << (column / 32));
  talloc.blocks.erase(it);
  tmem->deallocate(taddr, columns);
  tmemRetryBlocked();
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu::rt

namespace tp::cpu {

TP_EMU_OUTLINE void tcgen05_alloc(uint32_t dstShared, uint32_t cols);
TP_EMU_OUTLINE void tcgen05_relinquish_alloc_permit();
TP_EMU_OUTLINE void tcgen05_dealloc(uint32_t taddr, uint32_t cols);
TP_EMU_OUTLINE void tcgen05_mma(MmaKind kind, uint32_t d, uint64_t adesc,
                                uint64_t bdesc, uint32_t idesc,
                                bool enableInputD);
TP_EMU_OUTLINE void tcgen05_mma_ts(MmaKind kind, uint32_t d, uint32_t aTmem,
                                   uint64_t bdesc, uint32_t idesc,
                                   bool enableInputD);
TP_EMU_OUTLINE void tcgen05_mma_block_scale(MmaKind kind, uint32_t d,
                                            uint64_t adesc, uint64_t bdesc,
                                            uint32_t idesc, uint32_t sfaTmem,
                                            uint32_t sfbTmem,
                                            bool enableInputD);
TP_EMU_OUTLINE void tcgen05_commit(uint32_t bar);
TP_EMU_OUTLINE void tcgen05_cp(CpShape shape, uint32_t taddr, uint64_t sdesc);
TP_EMU_OUTLINE void tcgen05_ld(uint32_t taddr, const dp::TmemAccess &x,
                               uint32_t *regs);
TP_EMU_OUTLINE void tcgen05_st(uint32_t taddr, const dp::TmemAccess &x,
                               const uint32_t *regs);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE void tcgen05_alloc(uint32_t dstShared, uint32_t cols) {
  rt::Cta &c = rt::current();
  c.atom(true);
  const char *op = "tcgen05.alloc";
  c.checkShared(op, dstShared, 4, 4);
  if (cols < 32 || cols > 512 || (cols & (cols - 1)))
    c.fault(std::string(op) + ": nCols " + std::to_string(cols) +
            " is not a power of 2 in [32, 512]");
  c.rendezvous(rt::Coll::TcAlloc, op, 0, true, dstShared, cols, true);
}

TP_EMU_OUTLINE void tcgen05_relinquish_alloc_permit() {
  rt::Cta &c = rt::current();
  c.atom(true);
  c.rendezvous(rt::Coll::TcRelinquish, "tcgen05.relinquish_alloc_permit", 0,
               true, 0, 0, true);
}

TP_EMU_OUTLINE void tcgen05_dealloc(uint32_t taddr, uint32_t cols) {
  rt::Cta &c = rt::current();
  c.atom(true);
  c.rendezvous(rt::Coll::TcDealloc, "tcgen05.dealloc", 0, true, taddr, cols,
               true);
}

TP_EMU_OUTLINE void tcgen05_mma(MmaKind kind, uint32_t d, uint64_t adesc,
                                uint64_t bdesc, uint32_t idesc,
                                bool enableInputD) {
  rt::issueMma("tcgen05.mma", kind, d, false, adesc, bdesc, idesc, enableInputD,
               0, 0);
}

TP_EMU_OUTLINE void tcgen05_mma_ts(MmaKind kind, uint32_t d, uint32_t aTmem,
                                   uint64_t bdesc, uint32_t idesc,
                                   bool enableInputD) {
  rt::issueMma("tcgen05.mma (A in TMEM)", kind, d, true, aTmem, bdesc, idesc,
               enableInputD, 0, 0);
}

TP_EMU_OUTLINE void tcgen05_mma_block_scale(MmaKind kind, uint32_t d,
                                            uint64_t adesc, uint64_t bdesc,
                                            uint32_t idesc, uint32_t sfaTmem,
                                            uint32_t sfbTmem,
                                            bool enableInputD) {
  rt::issueMma("tcgen05.mma.block_scale", kind, d, false, adesc, bdesc, idesc,
               enableInputD, sfaTmem, sfbTmem);
}

TP_EMU_OUTLINE void tcgen05_commit(uint32_t bar) {
  rt::Cta &c = rt::current();
  c.atom(false);
  const char *op = "tcgen05.commit";
  rt::MBarrier &b = c.mbarrier(op, bar);
  rt::AsyncOp &o = c.issue(rt::OpKind::Commit, op);
  o.bar = bar;
  ++b.asyncRefs;
  for (rt::AsyncOp *p : c.self().tcgen05)
    rt::Cta::dependOn(o, *p);
  c.issued(o);
}

TP_EMU_OUTLINE void tcgen05_cp(CpShape shape, uint32_t taddr, uint64_t sdesc) {
  rt::Cta &c = rt::current();
  c.atom(false);
  rt::AsyncOp &o = c.issue(rt::OpKind::TcCp, "tcgen05.cp");
  o.shape = shape;
  o.d = taddr;
  o.a = sdesc;
  c.self().tcgen05.push_back(&o);
  c.issued(o);
}

/// tcgen05.ld/st in any form of dp::TmemForm: the warp's lanes pass the
/// address and the form alike, and each lane its registers.
TP_EMU_OUTLINE void tcgen05_ld(uint32_t taddr, const dp::TmemAccess &x,
                               uint32_t *regs) {
  rt::Cta &c = rt::current();
  c.atom(true);
  c.self().ptr = regs;
  c.rendezvous(rt::Coll::TcLd, "tcgen05.ld.sync.aligned", 0, true, taddr,
               x.encode(), true);
}

TP_EMU_OUTLINE void tcgen05_st(uint32_t taddr, const dp::TmemAccess &x,
                               const uint32_t *regs) {
  rt::Cta &c = rt::current();
  c.atom(true);
  c.self().ptr = const_cast<uint32_t *>(regs);
  c.rendezvous(rt::Coll::TcSt, "tcgen05.st.sync.aligned", 0, true, taddr,
               x.encode(), true);
}
#endif // !TILEPIPE_EMULATOR_EXTERN

inline void tcgen05_ld_32x32b(uint32_t taddr, int n, uint32_t *regs) {
  tcgen05_ld(taddr, {dp::TmemForm::S32x32b, uint32_t(n), 0}, regs);
}

inline void tcgen05_st_32x32b(uint32_t taddr, int n, const uint32_t *regs) {
  tcgen05_st(taddr, {dp::TmemForm::S32x32b, uint32_t(n), 0}, regs);
}

inline void tcgen05_ld_32x32b_pack16(uint32_t taddr, int n, uint32_t *regs) {
  tcgen05_ld(taddr, {dp::TmemForm::S32x32bPack16, uint32_t(n), 0}, regs);
}

inline void tcgen05_st_32x32b_unpack16(uint32_t taddr, int n,
                                       const uint32_t *regs) {
  tcgen05_st(taddr, {dp::TmemForm::S32x32bPack16, uint32_t(n), 0}, regs);
}

inline void tcgen05_ld_16x32bx2(uint32_t taddr, int n, uint32_t halfSplit,
                                uint32_t *regs) {
  tcgen05_ld(taddr, {dp::TmemForm::S16x32bx2, uint32_t(n), halfSplit}, regs);
}

inline void tcgen05_st_16x32bx2(uint32_t taddr, int n, uint32_t halfSplit,
                                const uint32_t *regs) {
  tcgen05_st(taddr, {dp::TmemForm::S16x32bx2, uint32_t(n), halfSplit}, regs);
}

TP_EMU_OUTLINE void tcgen05_wait_ld();
TP_EMU_OUTLINE void tcgen05_wait_st();

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE void tcgen05_wait_ld() {
  rt::Cta &c = rt::current();
  c.atom(true);
  c.rendezvous(rt::Coll::TcWaitLd, "tcgen05.wait::ld.sync.aligned", 0, true, 0,
               0, true);
}

TP_EMU_OUTLINE void tcgen05_wait_st() {
  rt::Cta &c = rt::current();
  c.atom(true);
  c.rendezvous(rt::Coll::TcWaitSt, "tcgen05.wait::st.sync.aligned", 0, true, 0,
               0, true);
}
#endif // !TILEPIPE_EMULATOR_EXTERN

// The fences order nothing the emulator could reorder (one memory, one
// thread running at a time); they are switch points.
inline void tcgen05_fence_before_thread_sync() { rt::current().atom(true); }
inline void tcgen05_fence_after_thread_sync() { rt::current().atom(true); }

} // namespace tp::cpu

#endif // TILEPIPE_EMULATOR_TCGEN05_H
