//===- ScheduleAnalysis.h - the published schedule -------------*- C++ -*-===//
//
// The output contract both generators fill (seed 002): the op map (ops are
// dense ids; the MLIR adapter keeps Operation* -> id), the ordered ops, each
// op's (stage, order), the dependence edges, the optional slot / depth /
// resource cells, and the success flag. Consumers key on (stage, order)
// only: it is a total order inside the scheduled block.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_SCHEDULEANALYSIS_H
#define TILEPIPE_SCHEDULER_SCHEDULEANALYSIS_H

#include "scheduler/Problem.h"
#include "target/Target.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace tilepipe::sched {

enum class GeneratorKind { Serial, CostBased };
llvm::StringRef stringifyGenerator(GeneratorKind kind);

/// One op's seat.
struct ScheduleSlot {
  unsigned stage = 0;
  unsigned order = 0;
  int64_t cycle = 0; ///< Start cycle within one iteration's schedule.
  /// Filled by the cost-based path only (zero/empty for serial).
  std::optional<unsigned> depth;       ///< start / II.
  std::optional<unsigned> moduloCycle; ///< start % II: the RRT row.
};

struct ScheduleAnalysis {
  bool success = false;
  GeneratorKind generator = GeneratorKind::Serial;
  std::string selectionReason;
  unsigned ii = 0;
  unsigned numStages = 0;
  rrt::Bounds bounds;
  std::vector<ScheduleSlot> slots; ///< Indexed by OpId.
  std::vector<OpId> orderedOps;    ///< Sorted by (stage, order).
  std::vector<Dependence> edges;
  /// Whether the II is the smallest that admits any schedule: true when it
  /// equals MII (an exact lower bound) or every smaller II was proven
  /// infeasible; false when a smaller II was shown feasible; empty when not
  /// checked or undecided.
  std::optional<bool> optimal;
  /// Set when optimal is false: an II below this one that admits a schedule.
  std::optional<unsigned> smallerFeasibleII;

  /// Fills slots/orderedOps/numStages from a solution. `orderHint` breaks
  /// ties between equal start cycles (program order when empty).
  static ScheduleAnalysis fromSchedule(const Problem &problem,
                                       const Schedule &schedule,
                                       GeneratorKind generator,
                                       llvm::ArrayRef<OpId> walkOrder = {});
  Schedule toSchedule() const;

  /// The human-readable table: op, class, cycle, stage, order, slots,
  /// preceded by the generator and its reason, the bounds, the unit that
  /// binds the II and, when `flopsPerIteration` and a target are given, the
  /// throughput the II implies on the whole chip.
  void print(llvm::raw_ostream &os, const Problem &problem,
             const target::TargetModel *target = nullptr,
             std::optional<int64_t> flopsPerIteration = std::nullopt) const;
};

/// One resource's demand per iteration: the cycles a singleton is held, or
/// ceil(unit-cycles / capacity) of a pool; a lower bound on II by itself.
struct UnitDemand {
  std::string resource; ///< The RRT resource (target slot or pool name).
  std::string unit;     ///< As a user reads it: "tensor core", "MUFU".
  std::vector<std::string> opClasses; ///< Classes holding it, first use order.
  uint64_t cycles = 0;
};

/// Every binding resource with a non-zero demand, busiest first (ties in
/// layout order: bits, then pools). rankUnits(p).front() is the unit whose
/// occupancy is closest to (and never above) any feasible II.
std::vector<UnitDemand> rankUnits(const Problem &problem);

/// "tensor core (tc_and_mma: umma, umma_ts)".
std::string describeUnit(const UnitDemand &demand);

/// FLOP/s of `smCount` SMs each finishing `flopsPerIteration` every `ii`
/// cycles at `clockMHz`, in TFLOP/s.
double impliedTFLOPs(int64_t flopsPerIteration, unsigned ii, unsigned clockMHz,
                     unsigned smCount);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_SCHEDULEANALYSIS_H
