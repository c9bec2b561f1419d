//===- emulator/objects.h - barriers, mbarriers, async, TMEM ----*- C++ -*-===//
//
// Plain state, manipulated by the atoms in barrier.h, mbarrier.h, async.h
// and tcgen05.h: named barriers, mbarriers (kept beside shared memory, keyed
// by address, since the emulator needs their waiters and history), the
// asynchronous operations in flight, and the TMEM allocator.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_OBJECTS_H
#define TILEPIPE_EMULATOR_OBJECTS_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tilepipe/emulator/atoms.h"
#include "tilepipe/emulator/cuda_types.h"
#include "tilepipe/emulator/srcloc.h"
#include "tilepipe/emulator/thread.h"

namespace tp::cpu::rt {

/// bar.sync/bar.arrive barrier `id`: one instance from the first warp's
/// arrival to completion, when count/32 warps have arrived.
struct NamedBarrier {
  uint32_t count = 0; // threads of this instance; 0 = idle
  uint32_t warps = 0; // bit w: warp w arrived
  uint32_t arrivedWarps = 0;
  std::vector<Thread *> waiters; // lanes in bar.sync
};

/// An mbarrier object (PTX: phase, pending and expected arrival counts,
/// tx-count).
struct MBarrier {
  uint32_t addr = 0;
  bool valid = false;
  uint32_t expected = 0;
  int64_t pending = 0;
  int64_t tx = 0;
  uint64_t phase = 0;     // phases completed; the current phase's parity is
                          // phase & 1
  uint32_t asyncRefs = 0; // in-flight ops that will arrive or complete_tx
  SrcLoc initLoc;
  std::vector<Thread *> waiters;
  // Per thread, the last phase it saw completed (-1: the virtual phase
  // before the first, which a parity-1 wait finds complete).
  std::vector<int64_t> seen;
};

enum class OpKind : uint8_t {
  TmaLoad,
  TmaStore,
  CpAsync,
  CpAsyncArrive,
  Mma,
  TcCp,
  Commit,
  Wgmma
};

/// One warp's wgmma.mma_async in flight: its shape and operands, where each
/// lane's accumulator registers are, and the values of its A registers.
struct WgmmaIssue {
  WgmmaShape shape;
  bool regA = false, scaleD = false;
  uint64_t adesc = 0, bdesc = 0;
  uint32_t warpInGroup = 0;
  float *d[32] = {};
  uint32_t a[32][4] = {};
};

struct AsyncOp {
  OpKind kind;
  const char *name;
  uint64_t seq = 0;
  Thread *issuer = nullptr;
  SrcLoc loc;
  // Completion: never before every op it depends on (the orderings PTX
  // promises), not before `due` unless the CTA is idle, and only when the
  // CTA is idle if `lazy`.
  uint32_t waitingOn = 0;
  std::vector<AsyncOp *> dependents;
  uint64_t due = 0;
  bool lazy = false;

  // Operands, per kind.
  CUtensorMap map; // TMA: copied at issue, as the unit reads it then
  int rank = 0;
  int32_t coords[5] = {0, 0, 0, 0, 0};
  uint32_t smem = 0;            // TMA, cp.async: the shared address
  uint32_t bar = 0;             // TMA load, arrive, commit: the mbarrier
  uint64_t group = 0;           // TMA store: its bulk async-group
  const void *global = nullptr; // cp.async source
  MmaKind mmaKind = MmaKind::F16;
  uint32_t d = 0; // mma: accumulator; cp: destination
  bool aInTmem = false;
  uint64_t a = 0, b = 0; // mma: A (descriptor or TMEM address), B; cp: desc
  uint32_t idesc = 0;
  bool enableInputD = false;
  uint32_t sfa = 0, sfb = 0;
  CpShape shape = CpShape::S128x256b;
  std::shared_ptr<WgmmaIssue> wg; // wgmma
  uint32_t warp = 0;              // wgmma: the issuing warp
};

/// tcgen05.alloc state of the CTA: 16 units of 32 columns.
struct TmemAllocator {
  struct Block {
    uint32_t column, columns;
    SrcLoc loc;
  };
  std::vector<Block> blocks;
  uint32_t used = 0; // bit u: columns [32u, 32u + 32) allocated
  bool relinquished = false;
  uint32_t lastColumns = 0; // PTX: allocation sizes must not increase
  struct Request {
    uint32_t dst, columns;
    std::vector<Thread *> lanes;
  };
  std::vector<Request> blocked; // allocations waiting for columns
};

/// A kernel-registered name of a shared-memory range, for reports.
struct SharedName {
  uint32_t addr, bytes, elemBytes;
  std::string name;
};

/// One setmaxnreg of a warpgroup, as the first of its warps executed it.
struct MaxNReg {
  bool increase;
  uint32_t regs;
  uint32_t warp;
  SrcLoc loc;
};

} // namespace tp::cpu::rt

#endif // TILEPIPE_EMULATOR_OBJECTS_H
