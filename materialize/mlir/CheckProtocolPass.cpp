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

private:
  LogicalResult checkSeedLimit();
  exec::CheckOptions optionsFor(FunctionOpInterface func);
  LogicalResult checkStageCode(FunctionOpInterface func);
  void printVerdict(FunctionOpInterface func, const exec::Census &census,
                    const exec::CheckOptions &options);
};

} // namespace

/// Checks every function with stage code; the IR is only read.
void CheckProtocolPass::runOnOperation() {
  if (failed(checkSeedLimit()))
    return signalPassFailure();
  getOperation()->walk([&](FunctionOpInterface func) {
    if (failed(checkStageCode(func)))
      signalPassFailure();
  });
  markAllAnalysesPreserved();
}

// More seeds than the checker's limit would run for hours: refused.
LogicalResult CheckProtocolPass::checkSeedLimit() {
  if (seeds <= exec::kMaxSeeds)
    return success();
  emitError(getOperation()->getLoc())
      << "seeds=" << unsigned(seeds) << " is over the limit of "
      << exec::kMaxSeeds << " interleavings per trip count";
  return failure();
}

// The pass options, with the trip counts the function's pipes call for
// when none are given.
exec::CheckOptions CheckProtocolPass::optionsFor(FunctionOpInterface func) {
  exec::CheckOptions options;
  options.seeds = seeds;
  options.tripCounts.assign(tripCounts.begin(), tripCounts.end());
  if (options.tripCounts.empty())
    options.tripCounts = exec::defaultTripCounts(func);
  options.timeLimitMs = timeoutMs;
  return options;
}

// Runs a function that holds pipes or agents; a finding is an error at the
// op that broke the rule. Functions without stage code pass unrun.
LogicalResult CheckProtocolPass::checkStageCode(FunctionOpInterface func) {
  exec::Census census = exec::census(func);
  if (!census.pipes && !census.agents)
    return success();
  exec::CheckOptions options = optionsFor(func);
  exec::CheckProgress progress;
  if (std::optional<exec::Finding> finding =
          exec::checkFunction(func, options, nullptr, &progress)) {
    exec::emitFinding(*finding, func);
    return failure();
  }
  if (progress.outOfTime)
    exec::warnOutOfTime(progress, func.getLoc(), "timeout-ms", timeoutMs);
  if (print)
    printVerdict(func, census, options);
  return success();
}

void CheckProtocolPass::printVerdict(FunctionOpInterface func,
                                     const exec::Census &census,
                                     const exec::CheckOptions &options) {
  llvm::outs() << "protocol check of @" << func.getName() << ": ok (executed "
               << census.agents << " agents, " << census.pipes << " pipes, "
               << census.mutexes << " mutexes; trip counts";
  for (uint64_t n : options.tripCounts)
    llvm::outs() << " " << n;
  llvm::outs() << "; " << seeds << " interleavings each)\n";
}
