//===- Placement.h - seating ops at one candidate II -----------*- C++ -*-===//
//
// The state of one placement attempt at a fixed II: the RRT, every op's
// footprint folded at II, the seat (start cycle) of each op, and per modulo
// row the ops that hold something there, so a conflict is found by looking
// at one row's occupants instead of every seated op. The Problem is never
// mutated; an attempt that fails is thrown away whole.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_MODULO_PLACEMENT_H
#define TILEPIPE_SCHEDULER_MODULO_PLACEMENT_H

#include "scheduler/Problem.h"

#include "rrt/RRT.h"
#include "support/Adjacency.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallBitVector.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tilepipe::sched::modulo {

constexpr int64_t kUnseated = INT64_MIN;

/// Footprints of at most this many folded rows are probed row by row.
constexpr unsigned kShortRows = 32;

/// The last cycle a max_depth cap of `maxDepth` allows at `ii`:
/// (maxDepth + 1) * II - 1, computed in 64 bits (the unsigned maxDepth + 1
/// wraps to 0 at UINT_MAX) and saturated at INT64_MAX, which reads as "no
/// cap" (the product of two 32-bit values can pass INT64_MAX).
inline int64_t depthCapEnd(unsigned maxDepth, unsigned ii) {
  const uint64_t stages = uint64_t(maxDepth) + 1;
  if (ii && stages > uint64_t(INT64_MAX) / ii)
    return INT64_MAX;
  return int64_t(stages * ii) - 1;
}

/// The lexicographic cost of forcing an op into one seat (design.md
/// decision 4: never a weighted sum). Smaller is better, compared field by
/// field: first the seated ops that must leave (the hard gate's price), then
/// the resource pressure left in the rows it takes, then how far the seat
/// lies past the earliest start (structural distance).
struct SeatCost {
  unsigned evicted = 0;
  unsigned pressure = 0;
  int64_t delay = 0;
  bool operator<(const SeatCost &o) const {
    if (evicted != o.evicted)
      return evicted < o.evicted;
    if (pressure != o.pressure)
      return pressure < o.pressure;
    return delay < o.delay;
  }
};

class Placement {
public:
  Placement(const Problem &problem, unsigned ii);

  /// Folds every footprint at II; false (with the op) when one collides with
  /// itself, which proves the II infeasible.
  bool fold(OpId &selfColliding);

  const Problem &getProblem() const { return problem; }
  unsigned getII() const { return ii; }
  unsigned getNumOps() const { return n; }
  const rrt::RRT &getTable() const { return table; }
  const rrt::FoldedFootprint &folded(OpId op) const { return folds[op]; }

  bool isSeated(OpId op) const { return seat[op] != kUnseated; }
  int64_t seatOf(OpId op) const { return seat[op]; }
  int64_t previousSeat(OpId op) const { return lastSeat[op]; }
  const std::vector<int64_t> &seats() const { return seat; }
  unsigned numSeated() const { return seated; }

  /// t(dst) + distance * II - t(src) must be at least this.
  int64_t weight(const Dependence &d) const {
    return d.latency - int64_t(d.distance) * ii;
  }
  llvm::ArrayRef<unsigned> predEdges(OpId op) const { return preds[op]; }
  llvm::ArrayRef<unsigned> succEdges(OpId op) const { return succs[op]; }

  /// Earliest start the seated predecessors allow (at least 0).
  int64_t earliestStart(OpId op) const;
  /// Latest start the seated successors allow (INT64_MAX if none).
  int64_t latestStart(OpId op) const;
  /// The depth all seated members of the op's group share, if any (G4).
  std::optional<int64_t> groupDepth(OpId op) const;

  /// The closed-row sets (bits, then binding pools) the op's first folded
  /// row needs open.
  void firstRowNeeds(OpId op, llvm::SmallVectorImpl<unsigned> &needs) const;
  /// The first seat of [t, hi] whose row is open in every set of `needs`
  /// (firstRowNeeds; hi + 1 when none): the seats it passes over cannot
  /// fit, and in a nearly full table there are most of the II.
  int64_t nextOpenSeat(llvm::ArrayRef<unsigned> needs, int64_t t,
                       int64_t hi) const;

  /// G3: the RRT accepts the op at t. Reads one RRT row per pair of runs
  /// that meet (the op's and the table's), not every footprint row.
  bool fits(OpId op, int64_t t) const {
    return byRows(op) ? table.probe(folds[op], t) : fitsByRuns(op, t);
  }
  /// The seats of [lo, hi] where what the op would meet can change, sorted
  /// and unique, lo first: between two of them fits() and the colliders
  /// stay the same, and with `withPressure` the pressure moves by the same
  /// step each cycle (see the event scan in the .cpp). False, with `events`
  /// empty, when there could be about as many events as seats (or lo > hi):
  /// then scan seat by seat.
  bool seatEvents(OpId op, int64_t lo, int64_t hi, bool withPressure,
                  llvm::SmallVectorImpl<int64_t> &events) const;
  /// Seated ops the op would collide with at t (resources only), in the
  /// order force() evicts them: by the first footprint row that collides,
  /// then by the row's occupant order. Walks every footprint row.
  void collisions(OpId op, int64_t t, llvm::SmallVectorImpl<OpId> &out) const;
  /// The same ops in ascending id order, from the op's and the seated ops'
  /// runs of equal rows: work per seated op, not per footprint row.
  void colliders(OpId op, int64_t t, llvm::SmallVectorImpl<OpId> &out) const;
  /// Seated successors whose dependence a seat at t would break.
  void brokenSuccessors(OpId op, int64_t t,
                        llvm::SmallVectorImpl<OpId> &out) const;
  SeatCost cost(OpId op, int64_t t, int64_t estart) const;
  /// cost() computed row by row (collisions(), occupant counts): the
  /// reference the run-based cost() is tested against.
  SeatCost costByRows(OpId op, int64_t t, int64_t estart) const;

  /// The cheapest seat of [lo, hi] by cost() (the earliest of equals),
  /// passing over `skip` when the window holds another seat; nullopt when
  /// lo > hi. Scores only the seats where the cost can change, so the work
  /// follows the seated ops, not the II: see the event scan in the .cpp.
  std::optional<int64_t> cheapestSeat(OpId op, int64_t lo, int64_t hi,
                                      int64_t estart, int64_t skip) const;
  /// The same seat found by scoring every seat of the window in turn: the
  /// reference the event scan is tested against (O(II) cost() calls).
  /// Tests: take the run-based paths and the event list even where rows or
  /// seat-by-seat would be cheaper, so small problems exercise them.
  void setAlwaysByRuns(bool on) { alwaysByRuns = on; }
  std::optional<int64_t> cheapestSeatLinear(OpId op, int64_t lo, int64_t hi,
                                            int64_t estart, int64_t skip) const;

  /// "tma, tp_smem_wr; pool alu_fma_issue 3/4; held by 'a', 'b'": what one
  /// modulo row of the RRT holds, for diagnostics.
  std::string describeRow(unsigned row) const;

  /// Seats `op` at `t` for good: the seat becomes its previous seat, the
  /// one Rau's retry steps past and the cost arm avoids after an eviction.
  void place(OpId op, int64_t t);
  /// Seats `op` at `t` to try the seat out (an arm weighing its options):
  /// the previous seat stays the last committed one, so a trial that is
  /// taken back leaves no trace.
  void placeTrial(OpId op, int64_t t);
  /// The trial seat `op` holds is kept: it becomes its previous seat.
  void keep(OpId op) { lastSeat[op] = seat[op]; }
  void remove(OpId op);
  /// Rows and seated ops this placement has walked through (seating,
  /// removing, collision and fit searches): the deterministic measure of
  /// its work that ModuloOptions::workLimit counts (in units of 64).
  uint64_t getWork() const { return work; }

private:
  unsigned rowOf(int64_t t) const {
    int64_t r = t % int64_t(ii);
    return unsigned(r < 0 ? r + ii : r);
  }
  bool rowsCollide(OpId op, unsigned k, OpId other, unsigned otherRow,
                   unsigned row) const;
  bool fitsByRuns(OpId op, int64_t t) const;
  /// cheapestSeat scoring every seat of the window, with costByRows() where
  /// `rows` is set and cost() where not.
  std::optional<int64_t> cheapestSeatEach(OpId op, int64_t lo, int64_t hi,
                                          int64_t estart, int64_t skip,
                                          bool rows) const;
  /// Whether the op's footprint is short enough that reading its rows one
  /// by one costs less than walking every seated op's runs (loops of many
  /// one-cycle ops, the HatScheT kind); both give the same answers.
  bool byRows(OpId op) const {
    return !alwaysByRuns && folds[op].numRows <= std::max(kShortRows, seated);
  }
  /// Rows of the RRT where some seated op's run starts or ends, sorted:
  /// between two of them every row holds the same. Rebuilt on demand after
  /// a seat changes.
  llvm::ArrayRef<unsigned> tableBounds() const;
  /// The most units of `pool` any row of [row, row + len) (mod II) holds.
  unsigned maxPoolUsage(unsigned pool, unsigned row, unsigned len) const;
  /// Whether run `i` of `op` at t and run `m` of `other` collide.
  bool runsCollide(OpId op, int64_t t, unsigned i, OpId other,
                   unsigned m) const;

  const Problem &problem;
  const unsigned ii;
  const unsigned n;
  rrt::RRT table;
  std::vector<rrt::FoldedFootprint> folds;
  /// Per op, the folded rows where its content changes: 0, every k whose
  /// bits or claims differ from row k - 1's, and numRows. Between two of
  /// them the op holds the same thing in every row.
  std::vector<llvm::SmallVector<unsigned, 4>> runBounds;
  /// Per op, every bit it holds in some row and every binding pool it
  /// claims (after the bits): two ops with none in common never collide.
  std::vector<llvm::SmallBitVector> holds; ///< One word for up to 57.
  std::vector<int64_t> seat, lastSeat;
  support::Adjacency preds, succs; ///< Edge indices per op.
  /// Per modulo row, the seated ops holding something in it.
  std::vector<llvm::SmallVector<OpId, 4>> occupants;
  unsigned seated = 0;
  mutable std::vector<unsigned> bounds;
  mutable bool boundsStale = true;
  /// Per bit, then per binding pool: the rows where it is taken (the bit
  /// held, the pool at capacity), kept with the table. nextOpenSeat steps
  /// over a closed row a word at a time.
  std::vector<llvm::BitVector> closed;
  void updateClosed(OpId op, int64_t t);
  /// The run bounds of every seated op, counted with repeats: what the
  /// event list of a window can grow to, known without building it.
  size_t seatedBounds = 0;
  bool alwaysByRuns = false;
  mutable uint64_t work = 0;
};

/// The stretches of [lo, hi] over which whether an op fits cannot change
/// (between two of its seat events; every seat is a stretch of its own when
/// the placement gives no events): one probe per stretch stands for all of
/// its seats.
class FitStretches {
public:
  /// With `skipClosed`, seats whose row nextOpenSeat passes over are not
  /// stretches: for a search of seats that fit, not of ones that do not.
  FitStretches(const Placement &placement, OpId op, int64_t lo, int64_t hi,
               bool skipClosed = true)
      : placement(placement), skipClosed(skipClosed), at(lo), hi(hi) {
    byEvents = placement.seatEvents(op, lo, hi, /*withPressure=*/false, events);
    // Once per search, not per step.
    if (!byEvents && skipClosed)
      placement.firstRowNeeds(op, needs);
  }
  /// The next stretch [first, last]; false once past hi.
  bool next(int64_t &first, int64_t &last) {
    if (at > hi)
      return false;
    if (!byEvents && skipClosed) {
      at = placement.nextOpenSeat(needs, at, hi);
      if (at > hi)
        return false;
    }
    first = at;
    last = !byEvents ? first : index < events.size() ? events[index++] - 1 : hi;
    at = last + 1;
    return true;
  }

private:
  const Placement &placement;
  const bool skipClosed;
  llvm::SmallVector<unsigned, 4> needs;
  llvm::SmallVector<int64_t, 64> events;
  bool byEvents = false;
  size_t index = 1;
  int64_t at, hi;
};

} // namespace tilepipe::sched::modulo

#endif // TILEPIPE_SCHEDULER_MODULO_PLACEMENT_H
