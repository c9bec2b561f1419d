//===- Bounds.h - lower bounds on the initiation interval ------*- C++ -*-===//
//
// MII = max(resource, recurrence, fine-density, dependency); docs/bounds.md
// defines each. All four are exact lower bounds: no schedule exists below any
// of them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RRT_BOUNDS_H
#define TILEPIPE_RRT_BOUNDS_H

#include "rrt/Resources.h"

#include <optional>
#include <string>

namespace tilepipe::rrt {

/// A dependence: t(dst) + distance * II >= t(src) + latency.
struct DepEdge {
  unsigned src = 0;
  unsigned dst = 0;
  int64_t latency = 0;
  unsigned distance = 0;
};

/// The graph the bounds read; it borrows everything.
struct BoundsInput {
  const ResourceLayout *layout = nullptr;
  llvm::ArrayRef<Footprint> footprints; ///< One per op.
  llvm::ArrayRef<DepEdge> deps;
  /// Per op, the largest allowed depth (start / II); empty or nullopt means
  /// unbounded.
  llvm::ArrayRef<std::optional<unsigned>> maxDepth;
  /// Per op, its same-depth constraint group (the group's root), or -1;
  /// empty: no groups. Members share one depth (start / II), so a path of
  /// latency L between two members needs II >= L + 1.
  llvm::ArrayRef<int32_t> sameDepthGroup;
};

struct Bounds {
  /// Singleton bits: sum of held cycles, or the pair bound when it is
  /// larger (computePairMII; resFromPair says so).
  unsigned resMII = 1;
  unsigned fineMII = 1; ///< Pools: aggregate and per-op folding.
  unsigned recMII = 1;  ///< Smallest II without a positive cycle.
  unsigned depMII = 1;  ///< Dependence depth against max_depth and groups.
  /// depMII comes from a same-depth group (a path between two members),
  /// not from a max_depth.
  bool depFromGroup = false;
  /// resMII comes from computePairMII: two bits that one class of ops holds
  /// from one cycle (resBottleneck names both, "A+B").
  bool resFromPair = false;
  unsigned mii = 1;
  /// A zero-distance cycle of positive latency: no II works.
  bool recurrenceInfeasible = false;
  /// An op collides with itself at every II (a bit held twice in one cycle,
  /// or a single-cycle pool request over capacity): resMII or fineMII is
  /// UINT_MAX, and so is mii.
  bool resourceInfeasible = false;
  std::string resBottleneck;  ///< Name of the resource that sets resMII.
  std::string fineBottleneck; ///< Name of the pool that sets fineMII.
  /// Ops on the cycle that forces recMII (or on the zero-distance positive
  /// cycle when recurrenceInfeasible).
  llvm::SmallVector<unsigned, 8> criticalCycle;
};

/// Both return UINT_MAX when some op collides with itself at every II.
unsigned computeResMII(const BoundsInput &in,
                       std::string *bottleneck = nullptr);
unsigned computeFineMII(const BoundsInput &in,
                        std::string *bottleneck = nullptr);
/// Returns nullopt when a zero-distance positive cycle makes every II
/// infeasible; `cycle` then receives that cycle. Otherwise, when the result
/// is above 1, `cycle` receives a cycle that is positive at result - 1 (ops in
/// cycle order, starting at the smallest id).
/// The pair bound (docs/bounds.md, "Pair bound"): for bits A and B where
/// every op holding both holds them from the same cycle and B at least as
/// long as A (a TMA load: the TMA unit and the L2 -> SM path), an op holding
/// only A cannot start while such an op holds A, and can overlap only the
/// tail of the one whose B it starts under. So the B-time of those ops, the
/// A-only time less what the tails can hide, and the B-only time share one
/// circle of II rows. Returns 1 when no pair of bits qualifies.
unsigned computePairMII(const BoundsInput &in,
                        std::string *bottleneck = nullptr);
std::optional<unsigned>
computeRecMII(const BoundsInput &in,
              llvm::SmallVectorImpl<unsigned> *cycle = nullptr);
unsigned computeDepMII(const BoundsInput &in);
Bounds computeBounds(const BoundsInput &in);

/// Longest-path test: true when the graph with weights latency - ii*distance
/// has a cycle of positive weight. `cycle` receives one such cycle's ops.
bool hasPositiveCycle(unsigned numOps, llvm::ArrayRef<DepEdge> deps, int64_t ii,
                      llvm::SmallVectorImpl<unsigned> *cycle = nullptr);

/// Longest zero-distance path from any source to each op (ASAP start, all
/// starts >= 0), or nullopt when the zero-distance subgraph has a cycle of
/// positive latency (then no schedule exists). Zero-distance cycles of total
/// latency <= 0 are legal and handled.
std::optional<std::vector<int64_t>> computeASAP(unsigned numOps,
                                                llvm::ArrayRef<DepEdge> deps);

} // namespace tilepipe::rrt

#endif // TILEPIPE_RRT_BOUNDS_H
