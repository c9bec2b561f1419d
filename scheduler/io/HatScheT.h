//===- HatScheT.h - HatScheT graphML instances -----------------*- C++ -*-===//
//
// Reads a HatScheT modulo-scheduling instance: a graphML dependence graph
// (nodes name the resource they use, edges carry a delay and an iteration
// distance) and its resource model XML (`<Resource name latency
// blockingTime limit>`). The lowering, per docs/problem-format.md:
//
//   - a node's latency is the latency of its resource;
//   - an edge src -> dst becomes t(dst) + distance * II >= t(src) +
//     latency(resource of src) + delay(edge);
//   - a resource with limit 1 becomes a singleton RRT bit, limit L > 1 a pool
//     of capacity L, limit -1 is unlimited (no footprint);
//   - a node holds one unit of its resource for blockingTime cycles from its
//     start (blockingTime 0: no footprint).
//
// Errors are "file:line: message" (XML syntax errors add the column).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_IO_HATSCHET_H
#define TILEPIPE_SCHEDULER_IO_HATSCHET_H

#include "scheduler/io/ProblemFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tilepipe::io {

/// Parses an instance from its two texts; the names prefix the messages and
/// the graph's stem ("graph1.200MHz") names the problem.
llvm::Expected<ProblemFile> readHatScheT(llvm::StringRef graphText,
                                         llvm::StringRef graphName,
                                         llvm::StringRef resourceText,
                                         llvm::StringRef resourceName);

/// Reads and parses the two files.
llvm::Expected<ProblemFile> readHatScheTFiles(llvm::StringRef graphPath,
                                              llvm::StringRef resourcePath);

} // namespace tilepipe::io

#endif // TILEPIPE_SCHEDULER_IO_HATSCHET_H
