//===- emulator/thread_atoms.h - atoms of one thread alone ------*- C++ -*-===//
//
// Source locations and shared-memory names for reports, the shared window
// (cvta), the proxy fence, clock64 and trap.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_THREAD_ATOMS_H
#define TILEPIPE_EMULATOR_THREAD_ATOMS_H

#include <cstdint>
#include <cstdio>
#include <string>

#include "tilepipe/emulator/cta.h"
#include "tilepipe/emulator/outline.h"
#include "tilepipe/emulator/srcloc.h"

namespace tp::cpu {

/// The kernel location of the next atoms of the running thread (the tp::
/// runtime calls it with its caller's TP_CPU_HERE). Ignored outside a
/// launch, so host code may share the runtime.
inline void set_loc(SrcLoc loc) {
  if (rt::tCurrent && rt::tCurrent->cur)
    rt::tCurrent->cur->loc = loc;
}

TP_EMU_OUTLINE void name_shared(uint32_t addr, uint32_t bytes, const char *name,
                                uint32_t elemBytes = 8);
TP_EMU_OUTLINE uint32_t generic_to_shared(const void *p);
TP_EMU_OUTLINE void *shared_to_generic(uint32_t a);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
/// Names [addr, addr + bytes) of the running CTA's shared memory in
/// reports: "name[i]" for the i-th element of elemBytes (8 suits an
/// mbarrier array), else "name" or "name+offset". Any thread may register
/// it; repeats are ignored.
TP_EMU_OUTLINE void name_shared(uint32_t addr, uint32_t bytes, const char *name,
                                uint32_t elemBytes) {
  rt::Cta &c = rt::current();
  for (const rt::SharedName &n : c.names)
    if (n.addr == addr && n.bytes == bytes)
      return;
  c.names.push_back(
      rt::SharedName{addr, bytes, elemBytes ? elemBytes : 1, name});
}

TP_EMU_OUTLINE uint32_t generic_to_shared(const void *p) {
  rt::Cta &c = rt::current();
  auto *b = static_cast<const uint8_t *>(p);
  if (b < c.smem.data || b > c.smem.data + c.smem.size) {
    char msg[160];
    std::snprintf(msg, sizeof msg,
                  "cvta.to.shared: %p is not in the CTA's dynamic shared "
                  "memory (static __shared__ variables are not emulated)",
                  p);
    c.fault(msg);
  }
  return c.smem.window + uint32_t(b - c.smem.data);
}

TP_EMU_OUTLINE void *shared_to_generic(uint32_t a) {
  rt::Cta &c = rt::current();
  if (a < c.smem.window || a > c.smem.window + c.smem.size) {
    char msg[120];
    std::snprintf(msg, sizeof msg,
                  "cvta.shared: 0x%x is outside the CTA's shared memory "
                  "[0x%x, 0x%x)",
                  a, c.smem.window, c.smem.window + c.smem.size);
    c.fault(msg);
  }
  return c.smem.data + (a - c.smem.window);
}
#endif // !TILEPIPE_EMULATOR_EXTERN

/// One memory, one thread at a time: nothing to order; a switch point.
inline void fence_proxy_async() { rt::current().atom(true); }

/// Rises with every call and every scheduling step.
inline long long clock64() {
  rt::Cta &c = rt::current();
  c.clock = (c.clock > c.now * 64 ? c.clock : c.now * 64) + 1;
  return static_cast<long long>(c.clock);
}

[[noreturn]] inline void trap() {
  rt::current().fault("trap: the kernel executed trap (__trap())");
}

} // namespace tp::cpu

#endif // TILEPIPE_EMULATOR_THREAD_ATOMS_H
