//===- PlanPicture.cpp - a loop plan as a picture model -------------------===//

#include "tools/report/PlanPicture.h"
#include "materialize/plan/Agents.h"
#include "materialize/plan/Flavour.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::materialize;

report::PlanPicture tilepipe::planPicture(const LoopPlan &plan,
                                          llvm::StringRef title) {
  const sched::Problem &problem = plan.loop.problem;
  const sched::ScheduleAnalysis &s = plan.schedule;
  report::PlanPicture picture;
  picture.title = title.str();
  llvm::raw_string_ostream summary(picture.summary);
  summary << "II " << s.ii << ", stages " << s.numStages << ", smem "
          << plan.buffers.smemBytes << " B of "
          << plan.input.caps.smemBytes - plan.input.smemCarveout << ", tmem "
          << plan.buffers.tmemColumns << " of " << plan.input.caps.tmemColumns
          << " columns";

  // Agents in (stage, order) of their first op, as the stage code forms
  // them. Scalar, effect-free ops belong to no agent: every agent that
  // needs one recomputes it (docs/stage-code.md).
  std::vector<AgentKey> keys;
  std::vector<int> agentOfOp(problem.getNumOps(), -1);
  std::vector<std::string> freeOps;
  for (sched::OpId id : s.orderedOps) {
    Operation *op = id < plan.loop.ops.size() ? plan.loop.ops[id] : nullptr;
    if (op && !op->getNumRegions() && isMemoryEffectFree(op) &&
        llvm::all_of(op->getResultTypes(),
                     [](Type t) { return t.isIntOrIndex(); })) {
      freeOps.push_back(problem.getOp(id).name);
      continue;
    }
    AgentKey key = agentOf(plan.input.units[id], plan.warpGroups[id]);
    auto it = llvm::find(keys, key);
    if (it == keys.end()) {
      keys.push_back(key);
      picture.agents.push_back(
          {stringifyRole(key.role).str() +
               (key.group ? ".wg" + std::to_string(key.group) : std::string()),
           {}});
      it = std::prev(keys.end());
    }
    unsigned agent = unsigned(it - keys.begin());
    agentOfOp[id] = int(agent);
    picture.agents[agent].ops.push_back(problem.getOp(id).name + " (stage " +
                                        std::to_string(s.slots[id].stage) +
                                        ")");
  }
  if (!freeOps.empty())
    picture.mutexes.push_back("recomputed by each agent: " +
                              llvm::join(freeOps, ", "));

  for (auto [index, pipe] : llvm::enumerate(plan.buffers.pipes)) {
    report::PipeArrow arrow;
    int from = agentOfOp[pipe.producer];
    int to = pipe.consumers.empty() ? from : agentOfOp[pipe.consumers.front()];
    arrow.from = unsigned(std::max(0, from));
    arrow.to = unsigned(std::max(0, to));
    arrow.carried = pipe.carried;
    PipeFlavour f = pipeFlavour(pipe);
    llvm::raw_string_ostream label(arrow.label);
    label << "pipe " << index << ": " << stringifyBufferClass(pipe.cls) << " ";
    if (pipe.cls == BufferClass::TMEM)
      label << pipe.tmemColumns << " cols";
    else
      label << pipe.bytes << " B";
    label << " x" << pipe.depth << " (" << f.commit << "/" << f.release << ")";
    picture.pipes.push_back(std::move(arrow));
  }
  const rrt::ResourceLayout &layout = problem.getLayout();
  for (auto [index, m] : llvm::enumerate(plan.mutexes)) {
    std::string line =
        "mutex " + std::to_string(index) + ": slot " +
        (m.slot - 1 < layout.numBits() ? layout.bitNames[m.slot - 1]
                                       : std::to_string(m.slot)) +
        ", groups";
    for (unsigned g : m.groups)
      line += " " + std::to_string(g);
    line += m.namedBarrier
                ? ", named barrier " + std::to_string(*m.namedBarrier)
                : std::string(", mbarrier ring");
    picture.mutexes.push_back(line);
  }
  return picture;
}
