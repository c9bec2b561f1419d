//===- ReaderSupport.h - shared by the instance readers ---------*- C++ -*-===//
//
// Internal to TilePipeGaus. The text formats (TextReaders.cpp) read into
// one raw graph that one builder turns into an instance of the asked
// formulation (InstanceBuilder.cpp); the problems (ProblemReaders.cpp)
// choose their II and depth by the same search, and all of them report
// errors the same way.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_READERSUPPORT_H
#define TILEPIPE_SCHEDULER_GAUS_READERSUPPORT_H

#include "scheduler/gaus/Readers.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace tilepipe::gaus::detail {

/// The graph as a DAG file gives it, before a formulation is chosen.
struct RawEdge {
  unsigned src, dst;
  double weight;
  unsigned line;
};
struct RawGraph {
  std::vector<std::string> names;
  std::vector<double> weight;
  /// C: whether the node holds the shared resource (.dag: not the inputs
  /// and the constant, which are wires, not operations).
  std::vector<char> usesUnit;
  std::vector<RawEdge> edges;
  /// .dag: unit weights and bytes; otherwise bytes follow the weights.
  bool unitBytes = false;
  /// .dag: the header's level count, checked against the longest path.
  std::optional<uint64_t> levels;
  unsigned headerLine = 0;
};

/// Collects the first error as "path[:line]: message".
class Errors {
public:
  Errors(llvm::StringRef path, std::string &out) : path(path), out(out) {}
  bool at(unsigned line, const llvm::Twine &message) {
    out = path.str();
    if (line)
      out += ":" + std::to_string(line);
    out += ": " + message.str();
    return false;
  }
  bool whole(const llvm::Twine &message) { return at(0, message); }
  /// A message that already names the file (the io readers' errors).
  bool verbatim(std::string message) {
    out = std::move(message);
    return false;
  }

private:
  llvm::StringRef path;
  std::string &out;
};

inline int64_t maxStart(const std::vector<int64_t> &starts) {
  return starts.empty() ? 0 : *std::max_element(starts.begin(), starts.end());
}

//===- InstanceBuilder.cpp ------------------------------------------===//

/// Sets instance.ii (given or searched) and the depth (given, or the
/// longest path at that II plus one II of slack).
bool chooseIIAndDepth(Instance &instance, unsigned lowest,
                      const ReadOptions &options, unsigned slackStages,
                      Errors &errors);

/// The instance of `options.formulation` on `raw` (its duplicate edges
/// merged, checked for cycles, the formulation's defaults applied).
bool buildFromRaw(RawGraph &raw, const ReadOptions &options, Instance &instance,
                  Errors &errors);

//===- ProblemReaders.cpp -------------------------------------------===//

/// .json and .graphml: a sched::Problem, checked, then formulation C.
bool readProblem(llvm::StringRef path, bool graphml, const ReadOptions &options,
                 Instance &instance, Errors &errors);

} // namespace tilepipe::gaus::detail

#endif // TILEPIPE_SCHEDULER_GAUS_READERSUPPORT_H
