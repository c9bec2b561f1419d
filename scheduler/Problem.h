//===- Problem.h - the modulo scheduling problem ---------------*- C++ -*-===//
//
// In the spirit of CIRCT's scheduling problems: the ops (dense ids, each with
// a latency, a footprint and its constraints), the dependences (latency and
// iteration distance), and the resources. check() validates the input before
// any algorithm runs; verify() validates a solution. Algorithms are free
// functions over a Problem (SerialGenerator.h, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_PROBLEM_H
#define TILEPIPE_SCHEDULER_PROBLEM_H

#include "rrt/Bounds.h"
#include "rrt/Resources.h"
#include "scheduler/Constraints.h"
#include "scheduler/Diagnostics.h"

#include <string>
#include <vector>

namespace tilepipe::sched {

/// Where an op's result lives: what holding it across stage boundaries
/// costs (scheduler/stages/). SMEM and TMEM results become pipe slots.
enum class ValueMemory : uint8_t { Register, Smem, Tmem };

/// One op of the loop body.
struct Operation {
  std::string name;    ///< For diagnostics and tables ("%3 tileas.umma").
  std::string opClass; ///< Target op class ("umma"); informational.
  /// Cycles until a consumer may start; nullopt when the target gave none.
  std::optional<int64_t> latency;
  std::vector<rrt::Use> uses;    ///< The RRT footprint, relative to the start.
  std::vector<unsigned> slotIds; ///< Target slot ids held (for tables).
  OpConstraints constraints;
  bool isAsync = false;
  bool isTMA = false;
  bool isMMA = false;
  /// The result's size in bytes (TMEM: 4 B x lanes x columns) and memory.
  /// 1 B in registers where the input gives none (a unit-size value).
  int64_t resultBytes = 1;
  ValueMemory resultMemory = ValueMemory::Register;
};

/// t(dst) + distance * II >= t(src) + latency.
struct Dependence {
  OpId src = 0;
  OpId dst = 0;
  int64_t latency = 0;
  unsigned distance = 0;
};

/// A solution: an II and a start cycle per op. Stage and order are derived.
struct Schedule {
  unsigned ii = 0;
  std::vector<int64_t> start;
};

class Problem {
public:
  /// The longest serial schedule (the sum of every op's step) the scheduler
  /// takes on: check() refuses a longer loop with a diagnostic, so no II
  /// tried, and no table sized by one, passes it. 2^22 cycles is about 2 ms
  /// of a Blackwell SM; FA4's loop takes 13,670.
  static constexpr int64_t kMaxSerialLength = int64_t(1) << 22;

  explicit Problem(rrt::ResourceLayout layout = {});

  /// Room for this many ops and dependences (a reader that knows them).
  void reserve(size_t numOps, size_t numDeps) {
    ops.reserve(numOps);
    deps.reserve(numDeps);
  }
  OpId addOp(Operation op);
  void addDependence(Dependence dep);
  /// Builds the per-op footprints; call after the last addOp.
  void finalize();

  unsigned getNumOps() const { return ops.size(); }
  const Operation &getOp(OpId id) const { return ops[id]; }
  Operation &getOp(OpId id) { return ops[id]; }
  llvm::ArrayRef<Operation> getOps() const { return ops; }
  llvm::ArrayRef<Dependence> getDependences() const { return deps; }
  const rrt::ResourceLayout &getLayout() const { return layout; }
  llvm::ArrayRef<rrt::Footprint> getFootprints() const { return footprints; }
  const ConstraintGroups &getGroups() const { return groups; }
  ConstraintGroups &getGroups() { return groups; }

  /// Set when the loop as a whole must run serially.
  bool isForceSerial() const { return forceSerial; }
  void setForceSerial(bool value) { forceSerial = value; }

  bool hasAsyncOp() const;
  bool hasTMAOp() const;
  bool hasMMAOp() const;

  /// Validates the input: every op has a latency, dependences name real ops
  /// with non-negative latency, no cycle lies within one iteration (distance
  /// 0), and every footprint fits its resources in a single cycle.
  bool check(DiagnosticList &diags) const;

  /// Validates a solution: starts are non-negative, precedence holds modulo
  /// II, the folded footprints fit every RRT row and pool, max_depth and
  /// same-depth groups hold, and a force-serial loop does not overlap.
  bool verify(const Schedule &schedule, DiagnosticList &diags) const;

  /// Kahn walk over the distance-0 dependences, ready ops in program order:
  /// the within-iteration order the serial generator seats. Returns the ops
  /// left over, which lie on or behind a distance-0 cycle (empty: none).
  std::vector<OpId> programOrderWalk(std::vector<OpId> &walk) const;
  /// "'a', 'b', 'c'": up to eight op names, for diagnostics.
  std::string describeOps(llvm::ArrayRef<OpId> ids) const;

  /// The graph view the bounds read.
  std::vector<rrt::DepEdge> getDepEdges() const;
  std::vector<std::optional<unsigned>> getMaxDepths() const;
  rrt::Bounds computeBounds() const;

  /// Length of the non-overlapped schedule: every op runs alone for
  /// max(latency, footprint length, largest outgoing dependence latency, 1)
  /// cycles. The serial generator's II and
  /// the default cap of the II search (design.md decision 3).
  int64_t serialLength() const;
  int64_t stepLength(OpId op) const;

private:
  rrt::ResourceLayout layout;
  std::vector<Operation> ops;
  std::vector<Dependence> deps;
  std::vector<rrt::Footprint> footprints;
  std::vector<int64_t> maxOutLatency; ///< Per op, over its dependences.
  ConstraintGroups groups;
  bool forceSerial = false;
};

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_PROBLEM_H
