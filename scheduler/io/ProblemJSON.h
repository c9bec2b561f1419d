//===- ProblemJSON.h - scheduling problems as JSON files -------*- C++ -*-===//
//
// Reads the hand-writable problem format of docs/problem-format.md into a
// sched::Problem: named resources with a limit (1: a singleton RRT bit,
// above 1: a counted pool, -1 or absent: unlimited, no footprint), ops with
// a latency and a footprint (one resource held for `blocking` cycles, and/or
// explicit `uses`), optional max_depth and constraint groups, and edges by op
// name. The reader is strict: unknown keys, duplicate keys, wrong types and
// out-of-range values are errors "file: path: message", where path is the
// JSON path of the offending value (`ops[3].resource`).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_IO_PROBLEMJSON_H
#define TILEPIPE_SCHEDULER_IO_PROBLEMJSON_H

#include "scheduler/io/ProblemFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tilepipe::io {

/// Deepest array/object nesting accepted (a problem needs 4).
constexpr unsigned kMaxJSONDepth = 64;

/// Parses `text`. `fileName` prefixes every message and, without a "name"
/// key, gives the problem its name (the file's stem). `inPlace` false
/// parses every op and edge with json::parse instead of reading the flat
/// ones in place: the same problem or message, more slowly (tests compare
/// the two).
llvm::Expected<ProblemFile> readProblemJSON(llvm::StringRef text,
                                            llvm::StringRef fileName,
                                            bool inPlace = true);

/// Reads and parses the file at `path`.
llvm::Expected<ProblemFile> readProblemJSONFile(llvm::StringRef path);

} // namespace tilepipe::io

#endif // TILEPIPE_SCHEDULER_IO_PROBLEMJSON_H
