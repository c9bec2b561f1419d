//===- GeneratorSelection.cpp ---------------------------------------------===//

#include "scheduler/GeneratorSelection.h"

using namespace tilepipe::sched;

GeneratorSelection
tilepipe::sched::selectGenerator(const Problem &problem,
                                 const SelectionOptions &options) {
  switch (options.request) {
  case GeneratorRequest::Serial:
    return {GeneratorKind::Serial, "requested by the generator option"};
  case GeneratorRequest::CostBased:
    return {GeneratorKind::CostBased, "requested by the generator option"};
  case GeneratorRequest::Auto:
    break;
  }
  if (problem.isForceSerial())
    return {GeneratorKind::Serial, "force_serial_execution on the loop"};
  if (problem.getNumOps() < options.serialThreshold)
    return {GeneratorKind::Serial, std::to_string(problem.getNumOps()) +
                                       " ops, below serial_threshold " +
                                       std::to_string(options.serialThreshold)};
  if (!problem.hasAsyncOp() && !problem.hasTMAOp() && !problem.hasMMAOp())
    return {GeneratorKind::Serial, "no TMA, MMA or async op in the loop"};
  return {GeneratorKind::CostBased, "the loop has TMA, MMA or async ops"};
}
