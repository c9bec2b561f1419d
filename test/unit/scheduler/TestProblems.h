//===- TestProblems.h - small problems for scheduler tests -----*- C++ -*-===//

#ifndef TILEPIPE_TEST_UNIT_SCHEDULER_TESTPROBLEMS_H
#define TILEPIPE_TEST_UNIT_SCHEDULER_TESTPROBLEMS_H

#include "scheduler/Problem.h"

#include <random>

namespace tilepipe::testing {

/// Two singleton bits ("alu", "mem") and one pool ("issue", cap 2).
inline rrt::ResourceLayout smallLayout() {
  rrt::ResourceLayout layout;
  layout.addBit("alu");
  layout.addBit("mem");
  layout.addPool("issue", 2);
  return layout;
}

inline sched::Operation makeOp(std::string name, int64_t latency,
                               std::vector<rrt::Use> uses = {}) {
  sched::Operation op;
  op.name = std::move(name);
  op.opClass = "test";
  op.latency = latency;
  op.uses = std::move(uses);
  return op;
}

/// A random problem: a DAG of distance-0 edges in id order plus loop-carried
/// back edges, random footprints over smallLayout().
inline sched::Problem randomProblem(std::mt19937 &rng, unsigned numOps) {
  sched::Problem p(smallLayout());
  std::uniform_int_distribution<int> lat(0, 6), dur(1, 4), coin(0, 3);
  for (unsigned i = 0; i < numOps; ++i) {
    std::vector<rrt::Use> uses;
    switch (coin(rng)) {
    case 0:
      uses.push_back(rrt::Use::bit(0, dur(rng)));
      break;
    case 1:
      uses.push_back(rrt::Use::bit(1, dur(rng)));
      break;
    case 2:
      uses.push_back(rrt::Use::pool(0, dur(rng), 1 + coin(rng) % 2));
      break;
    default:
      break;
    }
    p.addOp(makeOp("op" + std::to_string(i), lat(rng), uses));
  }
  for (unsigned dst = 1; dst < numOps; ++dst)
    for (unsigned src = 0; src < dst; ++src)
      if (coin(rng) == 0)
        p.addDependence({src, dst, lat(rng), 0});
  for (unsigned src = 1; src < numOps; ++src)
    if (coin(rng) == 0) {
      unsigned dst = std::uniform_int_distribution<unsigned>(0, src)(rng);
      p.addDependence({src, dst, lat(rng), 1u + unsigned(coin(rng) % 2)});
    }
  p.finalize();
  return p;
}

} // namespace tilepipe::testing

#endif
