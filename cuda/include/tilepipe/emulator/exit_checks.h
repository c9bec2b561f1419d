//===- emulator/exit_checks.h - what must hold when a CTA ends --*- C++ -*-===//
//
// After the last thread exits: the operations still in flight complete (as
// the hardware would finish them), every TMEM allocation must have been
// released (PTX requires tcgen05.dealloc before the kernel exits), and every
// warp of a warpgroup must have executed the same setmaxnreg instructions.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_EXIT_CHECKS_H
#define TILEPIPE_EMULATOR_EXIT_CHECKS_H

#include <string>

#include "tilepipe/emulator/async.h"
#include "tilepipe/emulator/cta.h"
#include "tilepipe/emulator/report.h"
#include "tilepipe/emulator/tcgen05.h"

namespace tp::cpu::rt {

inline void Cta::finalChecks() {
  while (outcome == Outcome::Running && completeAny())
    ++now;
  if (outcome != Outcome::Running)
    return;
  if (!talloc.blocks.empty()) {
    const TmemAllocator::Block &b = talloc.blocks.front();
    stop(Outcome::Fault,
         header("fault") + "\n  at kernel exit: tensor memory " +
             tmemBlocks(talloc) + " is still allocated (the first by " +
             "tcgen05.alloc at " + locText(b.loc) +
             "); PTX requires tcgen05.dealloc of every allocation before "
             "the kernel exits\n" +
             describeThreads());
    return;
  }
  for (uint32_t g = 0; g < maxnregSeq.size(); ++g) {
    if (maxnregSeq[g].empty())
      continue;
    uint32_t want = uint32_t(maxnregSeq[g].size());
    for (uint32_t w = 4 * g; w < 4 * g + 4 && w < nWarps; ++w)
      if (warps[w].maxnregCount != want) {
        const MaxNReg &m =
            maxnregSeq[g][warps[w].maxnregCount < want ? warps[w].maxnregCount
                                                       : 0];
        stop(Outcome::Fault,
             header("fault") + "\n  at kernel exit: warp " + std::to_string(w) +
                 " executed " + std::to_string(warps[w].maxnregCount) +
                 " setmaxnreg instructions, but its warpgroup " +
                 std::to_string(g) + " executed " + std::to_string(want) +
                 " (e.g. setmaxnreg." + (m.increase ? "inc " : "dec ") +
                 std::to_string(m.regs) + " by warp " + std::to_string(m.warp) +
                 " at " + locText(m.loc) +
                 "); every warp of a warpgroup must execute the same "
                 "setmaxnreg (PTX)\n" +
                 describeThreads());
        return;
      }
  }
}

} // namespace tp::cpu::rt

#endif // TILEPIPE_EMULATOR_EXIT_CHECKS_H
