//===- ProblemFile.h - a problem read from a file --------------*- C++ -*-===//
//
// What the readers of scheduler/io hand back: the problem, finalized and
// with its constraint groups frozen, plus the name to report it under. Op
// names are unique within a ProblemFile (both readers check it), so a
// schedule can be printed keyed by name.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_IO_PROBLEMFILE_H
#define TILEPIPE_SCHEDULER_IO_PROBLEMFILE_H

#include "scheduler/Problem.h"

#include <string>

namespace tilepipe::io {

struct ProblemFile {
  std::string name;
  sched::Problem problem;
};

/// Largest cycle count, distance, limit or amount a problem file may give.
/// Far above any real latency, and low enough that the serial length (a
/// sum of per-op steps) and every II tried stay small enough to allocate a
/// reservation table for.
constexpr int64_t kMaxFileValue = int64_t(1) << 20;

} // namespace tilepipe::io

#endif // TILEPIPE_SCHEDULER_IO_PROBLEMFILE_H
