//===- emulator/shared_memory.h - a CTA's SMEM by address -------*- C++ -*-===//
//
// The asynchronous units (TMA, tcgen05.mma/cp) address shared memory by the
// 32-bit shared-window addresses the instructions carry. Smem maps such an
// address onto the host buffer that backs the CTA's shared memory and
// faults on any access outside it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_SHARED_MEMORY_H
#define TILEPIPE_EMULATOR_SHARED_MEMORY_H

#include <cstdint>
#include <cstdio>

#include "tilepipe/emulator/fault.h"

namespace tp::cpu::dp {

struct Smem {
  uint8_t *data;   // host bytes of shared address `window`
  uint32_t window; // shared address of data[0]
  uint32_t size;   // bytes

  /// The host bytes [addr, addr + bytes) of shared memory.
  uint8_t *at(uint32_t addr, uint32_t bytes) const {
    uint64_t lo = addr, hi = uint64_t(addr) + bytes;
    if (lo < window || hi > uint64_t(window) + size) {
      char msg[160];
      std::snprintf(msg, sizeof msg,
                    "smem: access [0x%llx, 0x%llx) is outside shared memory "
                    "[0x%x, 0x%llx)",
                    (unsigned long long)lo, (unsigned long long)hi, window,
                    (unsigned long long)window + size);
      fault(msg);
    }
    return data + (addr - window);
  }
};

} // namespace tp::cpu::dp

#endif // TILEPIPE_EMULATOR_SHARED_MEMORY_H
