//===- ExactCheck.h - exact II feasibility by SMT and SAT ------*- C++ -*-===//
//
// An exact model of Problem::verify() at one II, decided by Z3 or CaDiCaL
// (ExactOptions::solver; SatCheck.h has the SAT encoding): per op a
// modulo row r in [0, II) (one-hot row booleans) and a stage k >= 0 with
// start = II * k + r; precedence as linear constraints, every RRT row of
// every bit and binding pool as a pseudo-boolean sum over the ops' folded
// footprints, max_depth as k <= D, same-depth groups as equal k, force-serial
// as non-overlapping intervals inside [0, II]. "Infeasible" is a proof that
// no schedule at that II passes verify(); "Feasible" comes with a witness
// that verify() accepted. docs/exact-check.md has the formulation and the
// proof that the stage horizon loses nothing.
//
// No exception crosses this API: ExactCheck.cpp alone is built with
// -fexceptions and catches every exception (reported as Unknown).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_EXACT_EXACTCHECK_H
#define TILEPIPE_SCHEDULER_EXACT_EXACTCHECK_H

#include "scheduler/Problem.h"

#include <optional>
#include <string>

namespace tilepipe::sched::exact {

enum class Verdict { Feasible, Infeasible, Unknown };

/// Which solver decides the model: Z3 (SMT, ExactCheck.cpp), CaDiCaL (SAT,
/// SatCheck.cpp), or both in turn, Z3 first (docs/exact-check.md has the
/// measurements: Z3 wins on the HLS instances, SAT on small random ones).
enum class Solver { Z3, Sat, Portfolio };

/// How Z3 sees the resources: a boolean per op and modulo row (its size
/// grows with the II), pairwise covers of the ops' runs of held rows (grows
/// with the ops), or whichever model is smaller (Auto).
enum class ResourceEncoding { Auto, Rows, Intervals };

struct ExactOptions {
  /// Work budget per II (0: none), deterministic: Z3's resource count
  /// (`rlimit`, kZ3RlimitPerUnit per unit) and CaDiCaL's polls of its
  /// terminator (kSatPollsPerUnit), one unit being about a millisecond of
  /// either on the development machine. Every share the check gives a
  /// solver, a relaxation or the generator's probe is a share of it, so the
  /// verdict is the same on any machine under any load.
  uint64_t work = 2000;
  /// Wall-clock safety net per II in milliseconds (0: none, the default):
  /// when it fires first the verdict is Unknown and the reason says
  /// "timeout", so a result that depended on the machine's speed says so.
  unsigned timeoutMs = 0;
  /// Larger problems (counted after the projection) are not attempted: the
  /// verdict is Unknown.
  unsigned maxOps = 64;
  Solver solver = Solver::Portfolio;
  ResourceEncoding resources = ResourceEncoding::Auto;
  /// Decide the projection onto the ops that claim a refusing resource
  /// (Projection.h) instead of the whole problem, where it applies. Exact
  /// either way; off only to compare.
  bool project = true;
};

struct ExactResult {
  Verdict verdict = Verdict::Unknown;
  /// Set exactly when the verdict is Feasible; verify() accepted it.
  std::optional<Schedule> witness;
  /// Why the verdict is Unknown (timeout, too many ops, malformed problem,
  /// solver error); for Infeasible, a short note on what proved it.
  std::string reason;
  /// Work units spent (ExactOptions::work).
  uint64_t spent = 0;
};

/// Work units the exact check has spent in this thread, across every
/// solver call: the deterministic clock of the shares it hands out.
inline uint64_t &exactWorkSpent() {
  static thread_local uint64_t spent = 0;
  return spent;
}

/// Z3 resource units (its `rlimit`) per unit of ExactOptions::work.
constexpr uint64_t kZ3RlimitPerUnit = 2000;

/// The reason of an Unknown verdict that a limit stopped: the work budget
/// ("work limit of N units ...") or the wall-clock safety net ("timeout
/// after N ms ...").
std::string limitReason(bool timedOut, const ExactOptions &opts,
                        unsigned ii, const std::string &detail);

/// Decides whether any schedule of `problem` exists at II `ii`, i.e. whether
/// some Schedule{ii, starts} passes problem.verify(). The problem must be
/// finalized (footprints are read as verify() reads them).
ExactResult checkII(const Problem &problem, unsigned ii,
                    const ExactOptions &opts = {});

/// Certifies that no II in [lowerBound, ii) is feasible: returns true when
/// every one is proven infeasible (the II found is optimal), false when some
/// smaller II is feasible, nullopt when unknown. A lowerBound of 0 is read as
/// 1; an empty range is vacuously true. opts.timeoutMs applies to each II.
std::optional<bool> proveOptimal(const Problem &problem, unsigned ii,
                                 unsigned lowerBound,
                                 const ExactOptions &opts = {});

const char *toString(Verdict verdict);

} // namespace tilepipe::sched::exact

#endif // TILEPIPE_SCHEDULER_EXACT_EXACTCHECK_H
