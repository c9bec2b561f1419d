//===- StageConstraints.cpp - what stages may be, rows fixed --------------===//

#include "scheduler/stages/StageConstraints.h"

using namespace tilepipe;
using namespace tilepipe::sched;

static int64_t ceilDiv(int64_t a, int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

StageConstraints tilepipe::sched::stageConstraints(const Problem &problem,
                                                   const Schedule &schedule) {
  StageConstraints c;
  c.ii = schedule.ii;
  const int64_t ii = schedule.ii;
  unsigned n = problem.getNumOps();
  c.row.resize(n);
  c.maxStage.resize(n);
  for (OpId id = 0; id < n; ++id) {
    c.row[id] = schedule.start[id] % ii;
    if (std::optional<unsigned> d = problem.getOp(id).constraints.maxDepth)
      c.maxStage[id] = int64_t(*d);
  }
  for (const Dependence &d : problem.getDependences())
    if (d.src != d.dst) // A self-dependence holds whatever the stage.
      c.arcs.push_back({d.src, d.dst,
                        ceilDiv(c.row[d.src] + d.latency - c.row[d.dst], ii) -
                            int64_t(d.distance)});
  const ConstraintGroups &groups = problem.getGroups();
  for (int32_t root : groups.roots()) {
    llvm::ArrayRef<OpId> members = groups.members(root);
    for (OpId m : members.drop_front()) {
      c.arcs.push_back({members.front(), m, 0});
      c.arcs.push_back({m, members.front(), 0});
    }
  }
  return c;
}

std::vector<int64_t> StageConstraints::stagesOf(const Schedule &s) const {
  std::vector<int64_t> out(s.start.size());
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = s.start[i] / int64_t(ii);
  return out;
}

Schedule StageConstraints::scheduleOf(llvm::ArrayRef<int64_t> stages) const {
  Schedule s;
  s.ii = ii;
  s.start.resize(stages.size());
  for (size_t i = 0; i < stages.size(); ++i)
    s.start[i] = row[i] + int64_t(ii) * stages[i];
  return s;
}
