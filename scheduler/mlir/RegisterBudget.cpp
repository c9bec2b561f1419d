//===- RegisterBudget.cpp - register tiles held across stages -------------===//

#include "scheduler/mlir/RegisterBudget.h"

#include "ir/WgmmaWarpgroups.h"
#include "scheduler/stages/BufferCost.h"

#include <algorithm>

using namespace mlir;

int64_t tilepipe::registerMmaWarpgroups(scf::ForOp loop) {
  int64_t most = 0;
  loop.getBody()->walk([&](tileas::WgmmaOp mma) {
    most = std::max(most, tileas::consumerWarpgroups(mma));
  });
  return most;
}

int64_t tilepipe::consumerRegisters(int64_t warpgroups) {
  return warpgroups >= 2 ? 240 : 255;
}

int64_t tilepipe::heldWords(const sched::Problem &problem,
                            const sched::Schedule &schedule,
                            int64_t warpgroups) {
  int64_t threads = 128 * std::max<int64_t>(1, warpgroups);
  int64_t bytes = sched::bufferedBytes(problem, schedule).registers;
  return (bytes + 4 * threads - 1) / (4 * threads);
}
