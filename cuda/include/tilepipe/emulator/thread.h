//===- emulator/thread.h - one emulated thread and warp ---------*- C++ -*-===//
//
// What the scheduler knows of each thread: whether it can run, what it is
// blocked on (for the deadlock report), where it is in the kernel, and the
// per-thread state of the instructions that keep some (bulk async-groups,
// the tcgen05 and cp.async operations it issued that are still in flight).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_THREAD_H
#define TILEPIPE_EMULATOR_THREAD_H

#include <cstdint>
#include <deque>
#include <vector>

#include "tilepipe/emulator/builtins.h"
#include "tilepipe/emulator/fiber.h"
#include "tilepipe/emulator/srcloc.h"

namespace tp::cpu::rt {

struct AsyncOp;

enum class RunState : uint8_t { Fresh, Ready, Blocked, Done };

/// The warp-collective instructions. Lanes of one warp rendezvous at them;
/// the last lane to arrive performs the instruction for the whole warp.
enum class Coll : uint8_t {
  Elect,
  Shfl,
  SyncWarp,
  BarSync,
  BarArrive,
  TcLd,
  TcSt,
  TcWaitLd,
  TcWaitSt,
  TcAlloc,
  TcDealloc,
  TcRelinquish,
  SetMaxNReg,
  Wgmma
};

enum class WaitKind : uint8_t {
  None,
  Warp,         // a warp collective: a = mask
  NamedBarrier, // a = id, b = thread count
  MBarrier,     // a = address, b = parity
  BulkGroup,    // a = groups allowed pending
  TmemAlloc,    // a = columns
  WgmmaGroup    // a = groups allowed pending
};

struct Wait {
  WaitKind kind = WaitKind::None;
  const char *op = "";
  uint32_t a = 0, b = 0;
};

struct Thread {
  uint32_t tid = 0, warp = 0, lane = 0;
  uint3 idx{0, 0, 0};
  RunState state = RunState::Fresh;
  bool started = false;
  uint64_t atoms = 0; // atoms executed so far
  Wait wait;
  SrcLoc loc;
  Fiber fiber;
  FiberStack *stack = nullptr;

  // Operands and result of the warp collective this lane takes part in.
  uint64_t in0 = 0, in1 = 0, out = 0;
  void *ptr = nullptr;

  // In flight, in issue order: tcgen05.mma/cp (what a commit waits for and
  // what orders a later mma), and cp.async (what cp.async.mbarrier.arrive
  // waits for).
  std::vector<AsyncOp *> tcgen05;
  std::vector<AsyncOp *> cpAsync;

  // Bulk async-groups: the open group and the committed ones, oldest first,
  // with their TMA stores still in flight.
  struct BulkGroup {
    uint64_t id;
    uint32_t pending;
  };
  uint64_t openGroup = 1;
  uint32_t openPending = 0;
  std::deque<BulkGroup> groups;

  // wgmma (emulator/wgmma.h): the operations not yet committed, the
  // committed groups with operations in flight (oldest first; a group
  // leaves when its last one completes), and whether a wgmma.fence came
  // since the last wgmma.wait_group.
  std::vector<AsyncOp *> wgOpen;
  std::deque<std::vector<AsyncOp *>> wgGroups;
  bool wgFenced = false;
};

/// One pending rendezvous of some lanes of a warp.
struct Collective {
  Coll kind;
  const char *op;
  uint32_t mask;    // lanes that must arrive
  uint32_t arrived; // lanes that have
  bool aligned;     // .aligned: the mask is every lane not exited
  SrcLoc loc;       // of the first lane
  uint64_t a, b;    // operands every lane must pass alike
  Thread *lanes[32];
};

struct Warp {
  uint32_t present = 0;  // lanes that exist in the CTA
  uint32_t live = 0;     // present and not exited
  uint32_t ready = 0;    // lanes that can run
  uint32_t readyPos = 0; // index in Cta::readyWarps while ready != 0
  std::vector<Collective> open;
  // setmaxnreg: how many the warp executed, and its register count now
  // (0 before the first).
  uint32_t maxnregCount = 0;
  uint32_t maxnreg = 0;
};

} // namespace tp::cpu::rt

#endif // TILEPIPE_EMULATOR_THREAD_H
