//===- Engine.h - one placement attempt at one II --------------*- C++ -*-===//
//
// Seats every op at a fixed II. Ops come off a priority queue one at a time;
// a constraint group whose members are all ready is seated as one unit. For
// each unit the admission gates run in fixed order (G1 pending set, G2
// max_depth, G3 RRT, G4 group depth) and the arms are tried as a short-
// circuit OR chain, first success wins:
//
//   PERMUTE  topological permutations of the unit, each op at its earliest
//            legal seat (a single op: its earliest legal seat)
//   FUSE     the op takes the seat of one seated op of the same slot group,
//            which moves to another legal seat of its own: one step seats
//            both
//   RETRY    Rau's forced seat (one past the op's previous seat), accepted
//            only when it evicts at most one op
//   COST     every seat of the window ranked by the lexicographic SeatCost;
//            the best is forced, evicting what stands in the way
//
// and when all refuse, a desperate retry frees the group members that pin
// the op's depth and tries again. Evicted ops return to the queue; a step
// budget keeps the attempt finite.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_MODULO_ENGINE_H
#define TILEPIPE_SCHEDULER_MODULO_ENGINE_H

#include "scheduler/ModuloScheduler.h"
#include "scheduler/modulo/PathLengths.h"
#include "scheduler/modulo/Placement.h"

#include "rrt/RRT.h"
#include "support/SplitMix64.h"

#include "llvm/ADT/SmallVector.h"

#include <queue>
#include <string>
#include <tuple>
#include <vector>

namespace tilepipe::sched::modulo {

/// How one attempt orders its ops.
/// Seeded: by the seeder's preferred start, earliest first.
enum class Priority { Height, Slack, Packing, ProgramOrder, Seeded };

/// One rung of the strategy ladder: the op order, and whether forced seats
/// follow Rau's rule alone (the retry arm takes any number of evictions and
/// the cost arm stands aside) instead of the cost ranking.
struct Strategy {
  Priority priority = Priority::Height;
  bool rauOnly = false;
  /// First fit only: an op with no free seat in its window ends the attempt
  /// (no arm runs, nothing is evicted), so an attempt is linear in the ops.
  bool firstFitOnly = false;
  /// An op that holds only pools for a few rows (a pipelined multi-cycle
  /// unit) takes a free seat whose row is a multiple of its length: ops of
  /// one pool then tile the table in aligned blocks and leave no hole too
  /// short for the ops still to come.
  bool alignPools = false;
  /// An op that holds a saturated bit (demand of at least 90% of the II)
  /// takes the first free seat of its window flush behind a seated holder
  /// of that bit, however far past its earliest start: the holders then
  /// form one arc of the table and leave no hole too short for the ops
  /// still to come. Tile ops hold such a bit for hundreds of rows (a TMA
  /// load on the TMA unit), so a seat dropped mid-stretch strands the rest.
  bool packSaturated = false;
  /// Before the attempt, the ops that hold the most demanded bit (the
  /// binding one, at least half the II) are laid around the table one after
  /// another, each where it first fits behind the previous (the best fit
  /// among the next few in priority order), and each op then takes its row
  /// of that ring in the first stage its dependences allow. Rows and stages
  /// are independent in a modulo schedule: the ring packs the bottleneck
  /// without gaps whatever the dependences, and the stages absorb them.
  bool ringPack = false;
};

/// Why an attempt failed: what the failure diagnostic reports.
struct AttemptFailure {
  unsigned ii = 0;
  std::optional<OpId> op;
  int64_t windowLo = 0, windowHi = 0;
  std::optional<rrt::Conflict> conflict;
  std::string conflictRow;      ///< What the refusing RRT row holds.
  std::optional<int64_t> stage; ///< The stage the op was aiming for.
  std::string reason;
  bool proven = false; ///< No schedule exists at this II.
  /// The loop's placement work budget (ModuloOptions::workLimit) ran out
  /// during this attempt: the II is undecided, not failed.
  bool outOfWork = false;
};

/// Counts of arm successes and gate refusals, for measuring each arm's
/// share and for tests that check a gate or arm really fired.
struct ArmStats {
  uint64_t permute = 0, fuse = 0, retry = 0, cost = 0, desperate = 0;
  uint64_t dead = 0; ///< G2 dead marks (the recovery).
  uint64_t evictions = 0;
  uint64_t pendingHeld = 0; ///< G1: a pending op held over for its leader.
  uint64_t depthCapped = 0; ///< G2: max_depth cut the op's window short.
  uint64_t rrtRefused = 0;  ///< G3: no seat of the window fit the RRT.
  uint64_t groupPinned = 0; ///< G4: the group's depth cut the window.
  uint64_t aligned = 0;     ///< Seats taken at an aligned row (alignPools).
};

/// The permute arm's sampled orders (support/SplitMix64.h).
using tilepipe::SplitMix64;

/// Fisher-Yates from the back, index next() % (i + 1): the modulo bias is
/// negligible for a sample of orders, and the formula is fixed.
void shuffleOrder(llvm::MutableArrayRef<OpId> order, SplitMix64 &rng);

class Engine {
public:
  /// `preferred`: the seeder's start per op (Priority::Seeded only).
  Engine(const Problem &problem, unsigned ii, const ModuloOptions &options,
         Strategy strategy, const PathLengths &paths,
         const std::vector<int64_t> *preferred = nullptr);

  /// Start cycles of every op, or nullopt with `failure` set.
  std::optional<std::vector<int64_t>> run(AttemptFailure &failure);
  const ArmStats &getStats() const { return stats; }
  /// Placement work this attempt has done (ModuloOptions::workLimit).
  uint64_t getWork() const { return work + placement.getWork() / 64; }

private:
  void computeHeights();
  void enqueue(OpId op);
  /// G2 and G4 narrow [estart, estart + II - 1]; with `count`, each gate
  /// that cuts the window is counted there.
  std::pair<int64_t, int64_t> window(OpId op, int64_t estart,
                                     ArmStats *count = nullptr) const;
  /// The seat G3 accepts in [lo, hi]; with keepSuccessors, only seats that
  /// break no seated successor.
  std::optional<int64_t> firstFit(OpId op, int64_t lo, int64_t hi,
                                  bool keepSuccessors = true) const;
  /// Strategy::packSaturated's seat for an op holding a saturated bit in
  /// its first row, or nullopt when it holds none or no seat fits.
  std::optional<int64_t> packedFit(OpId op, int64_t lo, int64_t hi) const;
  void computeSaturated();
  void computeRingTargets();
  /// Strategy::ringPack's seat: the op's ring row in the first stage of
  /// [lo, hi] where it fits; nullopt when it has none or it does not fit.
  std::optional<int64_t> ringFit(OpId op, int64_t lo, int64_t hi) const;

  // The steps of run().
  bool foldFootprints(AttemptFailure &failure);
  void prepareQueue();
  bool chargeStep(OpId op, uint64_t &budget, AttemptFailure &failure);
  bool step(OpId op, AttemptFailure &failure);
  bool holdForLeader(OpId op);
  bool seatFirstFit(OpId op, int64_t lo, int64_t hi);
  bool runArms(OpId op, int64_t lo, int64_t hi, int64_t estart);
  bool freeDepthCap(OpId op);
  bool retryWithoutGroup(OpId op);
  std::vector<int64_t> startsFromStageZero() const;

  bool armPermute(OpId op);
  // The steps of armPermute().
  llvm::SmallVector<OpId, 8> readyUnit(int32_t group) const;
  bool mustPrecede(OpId a, OpId b) const;
  std::vector<llvm::SmallVector<OpId, 8>>
  unitOrders(int32_t group, llvm::ArrayRef<OpId> members) const;
  bool trySeatingOrder(llvm::ArrayRef<OpId> order,
                       std::tuple<int64_t, int64_t, int64_t> &bestCost,
                       std::vector<int64_t> &bestSeats);
  bool armFuse(OpId op, int64_t lo, int64_t hi);
  bool armRetry(OpId op, int64_t lo, int64_t hi);
  bool armCost(OpId op, int64_t lo, int64_t hi, int64_t estart);
  /// Seats `op` at `t`, evicting whatever collides or breaks.
  void force(OpId op, int64_t t);
  void evict(OpId op);
  /// Fills `failure` for `op`: its window, the first conflict in it and the
  /// RRT row that refused.
  void fail(AttemptFailure &failure, OpId op, std::string reason);

  const Problem &problem;
  const unsigned ii;
  const ModuloOptions &options;
  const Strategy strategy;
  const PathLengths &paths;
  const std::vector<int64_t> *preferred;
  Placement placement;
  std::vector<int64_t> height; ///< This rung's priority keys.
  std::vector<unsigned> dead;  ///< G2 dead marks per op (the snapshot).
  /// Strategy::packSaturated: the bits whose demand fills at least 90% of
  /// the II, as one mask of RRT words.
  std::vector<uint64_t> saturated;
  /// Strategy::ringPack: each op's row in the ring (-1: none).
  std::vector<int64_t> ringRow;
  /// Strategy::ringPack: the ring seats of the ring ops not seated yet, so
  /// first fit keeps the other ops off the rows those will take (a
  /// smem_store on the SMEM write path that a TMA load's ring seat needs).
  mutable std::optional<rrt::RRT> ringReserved;
  mutable std::vector<OpId> reservedOps;
  /// Releases the reservations of the ring ops seated since the last call.
  void releaseSeatedRing() const;
  /// 0 when a seat at t keeps off every ring op's reserved rows (always
  /// for a ring op itself), else how far the next seat that may must lie;
  /// counts one work unit per probe.
  int64_t ringSkip(OpId op, int64_t t) const;
  /// firstFit's scan of the free seats, honouring the ring's reservations
  /// or not.
  std::optional<int64_t> scanFirstFit(OpId op, int64_t lo, int64_t hi,
                                      bool honourRing) const;
  std::priority_queue<std::pair<int64_t, int64_t>> queue; ///< (height, -id)
  mutable ArmStats stats; ///< Counted also by const seat searches.
  mutable uint64_t work = 0;
};

} // namespace tilepipe::sched::modulo

#endif // TILEPIPE_SCHEDULER_MODULO_ENGINE_H
