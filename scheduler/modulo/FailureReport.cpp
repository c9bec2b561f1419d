//===- FailureReport.cpp --------------------------------------------------===//

#include "scheduler/modulo/FailureReport.h"

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::modulo;

static std::string cycles(uint64_t n) {
  return std::to_string(n) + (n == 1 ? " cycle" : " cycles");
}

static std::string describeUses(const Problem &problem, const Operation &op) {
  const rrt::ResourceLayout &layout = problem.getLayout();
  std::string text;
  for (const rrt::Use &u : op.uses) {
    bool bit = u.kind == rrt::Use::Kind::Bit;
    text += (text.empty() ? "" : ", ") +
            (bit ? "slot " + layout.bitNames[u.index]
                 : "pool " + layout.poolNames[u.index] + " x" +
                       std::to_string(u.amount)) +
            " for " + cycles(u.duration);
    if (u.offset)
      text += " from cycle " + std::to_string(u.offset);
  }
  return text.empty() ? "nothing" : text;
}

static std::string describeConflict(const Problem &problem,
                                    const rrt::Conflict &c) {
  const rrt::ResourceLayout &layout = problem.getLayout();
  switch (c.kind) {
  case rrt::Conflict::Kind::Bit:
    return "slot '" + layout.bitNames[c.resource] +
           "' is taken in modulo cycle " + std::to_string(c.row);
  case rrt::Conflict::Kind::Pool:
    return "pool '" + layout.poolNames[c.resource] +
           "' refused in modulo cycle " + std::to_string(c.row) + ": " +
           std::to_string(c.used) + " of " + std::to_string(c.capacity) +
           " units held, " + std::to_string(c.requested) + " requested";
  case rrt::Conflict::Kind::Self:
    return "its footprint collides with itself modulo II";
  }
  return "";
}

void modulo::reportFailure(const Problem &problem, const rrt::Bounds &bounds,
                           unsigned cap, AttemptFailure f,
                           FeasibilityOracle *oracle, DiagnosticList &diags) {
  // The exact check turns a heuristic failure into a proven one, or shows
  // that a schedule exists after all.
  std::string exactNote;
  if (!f.proven && oracle) {
    std::optional<bool> feasible = oracle->feasibleAt(problem, f.ii);
    if (feasible && !*feasible) {
      f.proven = true;
      exactNote = "the exact check proves that no schedule exists at II " +
                  std::to_string(f.ii);
    } else if (feasible) {
      exactNote = "the exact check finds a schedule at II " +
                  std::to_string(f.ii) + ": the heuristic missed it";
    } else {
      exactNote = "the exact check could not decide II " + std::to_string(f.ii);
    }
  }
  Diagnostic &d = diags.error(
      "cost-based generator found no schedule for II in [" +
          llvm::Twine(bounds.mii) + ", " + llvm::Twine(cap) + "] (" +
          (f.proven ? "proven: no schedule exists at II " + std::to_string(f.ii)
                    : std::string("heuristic: a schedule may exist")) +
          ")",
      f.op);
  d.attachNote("candidate II " + llvm::Twine(f.ii) + ": " + f.reason, f.op);
  if (!exactNote.empty())
    d.attachNote(exactNote, f.op);
  if (!f.op)
    return;
  const Operation &op = problem.getOp(*f.op);
  d.attachNote("'" + op.name + "' lasts " +
                   cycles(problem.getFootprints()[*f.op].length()) +
                   " and claims " + describeUses(problem, op),
               f.op);
  std::string where = "dependence window [" + std::to_string(f.windowLo) +
                      ", " + std::to_string(f.windowHi) + "]";
  if (f.stage)
    where += ", stage " + std::to_string(*f.stage);
  if (std::optional<int32_t> g = problem.getGroups().groupOf(*f.op))
    where += ", constraint group " + std::to_string(*g);
  d.attachNote(where, f.op);
  if (f.conflict)
    d.attachNote(describeConflict(problem, *f.conflict) +
                     "; that RRT row holds " + f.conflictRow,
                 f.op);
}
