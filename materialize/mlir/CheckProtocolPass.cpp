//===- CheckProtocolPass.cpp - --tileas-check-protocol --------------------===//
//
// Executes every function that holds pipes or agents with the executing
// checker (materialize/exec, docs/protocol-check.md) for several trip
// counts and seeded interleavings. Peeled code has pipes but no agents and
// runs as one thread. The original loop is not available here, so only the
// protocol and data rules run; the materializer adds the differential check
// against the loop it rewrote.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/Passes.h"

#include "materialize/exec/Check.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tilepipe {
#define GEN_PASS_DEF_TILEASCHECKPROTOCOL
#include "materialize/mlir/Passes.h.inc"
} // namespace tilepipe

using namespace mlir;
using namespace tilepipe;

namespace {

struct CheckProtocolPass
    : public tilepipe::impl::TileASCheckProtocolBase<CheckProtocolPass> {
  using TileASCheckProtocolBase::TileASCheckProtocolBase;
  void runOnOperation() override;
};

} // namespace

void CheckProtocolPass::runOnOperation() {
  if (seeds > exec::kMaxSeeds) {
    emitError(getOperation()->getLoc())
        << "seeds=" << unsigned(seeds) << " is over the limit of "
        << exec::kMaxSeeds << " interleavings per trip count";
    return signalPassFailure();
  }
  getOperation()->walk([&](FunctionOpInterface func) {
    exec::Census census = exec::census(func);
    if (!census.pipes && !census.agents)
      return;
    exec::CheckOptions options;
    options.seeds = seeds;
    options.tripCounts.assign(tripCounts.begin(), tripCounts.end());
    if (options.tripCounts.empty())
      options.tripCounts = exec::defaultTripCounts(func);
    options.timeLimitMs = timeoutMs;
    exec::CheckProgress progress;
    if (std::optional<exec::Finding> finding =
            exec::checkFunction(func, options, nullptr, &progress)) {
      exec::emitFinding(*finding, func);
      signalPassFailure();
      return;
    }
    if (progress.outOfTime)
      exec::warnOutOfTime(progress, func.getLoc(), "timeout-ms", timeoutMs);
    if (print) {
      llvm::outs() << "protocol check of @" << func.getName()
                   << ": ok (executed " << census.agents << " agents, "
                   << census.pipes << " pipes, " << census.mutexes
                   << " mutexes; trip counts";
      for (uint64_t n : options.tripCounts)
        llvm::outs() << " " << n;
      llvm::outs() << "; " << seeds << " interleavings each)\n";
    }
  });
  markAllAnalysesPreserved();
}
