//===- Peel.cpp -----------------------------------------------------------===//

#include "materialize/plan/Peel.h"

#include "llvm/ADT/STLExtras.h"

#include <map>

using namespace tilepipe;
using namespace tilepipe::materialize;

std::vector<Instance>
materialize::peeledOrder(const sched::ScheduleAnalysis &schedule, int64_t n) {
  std::vector<Instance> order;
  const int64_t stages = std::max<int64_t>(1, schedule.numStages);
  // Inside one row the ops run in modulo-cycle order: an op of stage s at
  // start t runs at cycle t mod II of the row whatever its stage, so a
  // loop-carried consumer in an earlier stage may come after its producer
  // in a later one. At one modulo cycle the later stage (the older
  // iteration) goes first, as a zero-latency dependence needs; then order.
  std::vector<sched::OpId> rowOrder(schedule.orderedOps);
  const int64_t ii = std::max<int64_t>(1, schedule.ii);
  llvm::stable_sort(rowOrder, [&](sched::OpId a, sched::OpId b) {
    int64_t ra = schedule.slots[a].cycle % ii,
            rb = schedule.slots[b].cycle % ii;
    if (ra != rb)
      return ra < rb;
    return schedule.slots[a].stage > schedule.slots[b].stage;
  });
  auto emit = [&](int64_t k, Part part, unsigned piece) {
    // Row k of the pipelined loop: stage s works on iteration k - s.
    for (sched::OpId op : rowOrder) {
      int64_t i = k - int64_t(schedule.slots[op].stage);
      if (i >= 0 && i < n)
        order.push_back({op, i, part, piece});
    }
  };
  // Rows 0 .. S-2 fill the pipeline, rows S-1 .. N-1 are the steady state,
  // rows N .. N+S-2 drain it. With n < S the steady state is empty and the
  // guards drop the instances of iterations that do not exist.
  for (int64_t k = 0; k < stages - 1; ++k)
    emit(k, Part::Prologue, unsigned(k));
  for (int64_t k = stages - 1; k < n; ++k)
    emit(k, Part::Steady, unsigned(k - (stages - 1)));
  for (int64_t k = std::max(n, stages - 1); k < n + stages - 1; ++k)
    emit(k, Part::Epilogue, unsigned(k - std::max(n, stages - 1)));
  return order;
}

std::string
materialize::checkPeeledOrder(const sched::ScheduleAnalysis &schedule,
                              int64_t n, llvm::ArrayRef<Instance> order) {
  std::map<std::pair<sched::OpId, int64_t>, size_t> position;
  for (auto [pos, inst] : llvm::enumerate(order)) {
    if (inst.iteration < 0 || inst.iteration >= n)
      return "op " + std::to_string(inst.op) + " runs iteration " +
             std::to_string(inst.iteration) + " outside [0, " +
             std::to_string(n) + ")";
    if (!position.try_emplace({inst.op, inst.iteration}, pos).second)
      return "op " + std::to_string(inst.op) + " runs iteration " +
             std::to_string(inst.iteration) + " twice";
  }
  for (sched::OpId op = 0; op < schedule.slots.size(); ++op)
    for (int64_t i = 0; i < n; ++i)
      if (!position.count({op, i}))
        return "op " + std::to_string(op) + " never runs iteration " +
               std::to_string(i);
  for (const sched::Dependence &d : schedule.edges)
    for (int64_t i = d.distance; i < n; ++i) {
      size_t producer = position[{d.src, i - int64_t(d.distance)}];
      size_t consumer = position[{d.dst, i}];
      if (producer > consumer)
        return "op " + std::to_string(d.dst) + " of iteration " +
               std::to_string(i) + " runs before op " + std::to_string(d.src) +
               " of iteration " + std::to_string(i - int64_t(d.distance)) +
               " it depends on";
    }
  return "";
}
