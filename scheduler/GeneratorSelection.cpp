//===- GeneratorSelection.cpp ---------------------------------------------===//

#include "scheduler/GeneratorSelection.h"

using namespace tilepipe;
using namespace tilepipe::sched;

namespace {

GeneratorSelection byThreshold(const Problem &problem,
                               const SelectionOptions &options) {
  if (problem.getNumOps() < options.serialThreshold)
    return {GeneratorKind::Serial,
            "rule threshold: " + std::to_string(problem.getNumOps()) +
                " ops, below serial_threshold " +
                std::to_string(options.serialThreshold)};
  if (!problem.hasAsyncOp() && !problem.hasTMAOp() && !problem.hasMMAOp())
    return {GeneratorKind::Serial,
            "rule threshold: no TMA, MMA or async op in the loop"};
  return {GeneratorKind::CostBased,
          "rule threshold: the loop has TMA, MMA or async ops"};
}

GeneratorSelection byBound(const Problem &problem, const rrt::Bounds &bounds) {
  int64_t serial = problem.serialLength();
  std::string numbers = "serial length " + std::to_string(serial) +
                        (serial > int64_t(bounds.mii) ? " > " : " <= ") +
                        "MII " + std::to_string(bounds.mii);
  if (serial <= int64_t(bounds.mii))
    return {GeneratorKind::Serial,
            numbers + ": no overlapped schedule can be shorter"};
  return {GeneratorKind::CostBased,
          numbers + ": overlapping iterations can shorten the II"};
}

} // namespace

GeneratorSelection
tilepipe::sched::selectGenerator(const Problem &problem,
                                 const SelectionOptions &options,
                                 const rrt::Bounds *bounds) {
  if (options.request == GeneratorRequest::Serial)
    return {GeneratorKind::Serial, "requested by the generator option"};
  // A force-serial loop has one legal shape, the serial schedule: an
  // overlapped one would fail verification, whatever was asked for.
  if (problem.isForceSerial())
    return {GeneratorKind::Serial,
            options.request == GeneratorRequest::CostBased
                ? "force_serial_execution on the loop (it overrides the "
                  "generator option's cost-based)"
                : "force_serial_execution on the loop"};
  if (options.request == GeneratorRequest::CostBased)
    return {GeneratorKind::CostBased, "requested by the generator option"};
  if (options.rule == SelectionRule::Threshold)
    return byThreshold(problem, options);
  if (bounds)
    return byBound(problem, *bounds);
  return byBound(problem, problem.computeBounds());
}
