//===- GausTestUtil.h - instances the GauS tests build ---------*- C++ -*-===//
//
// The random stream and the instance builders the frame and legaliser tests
// share: splitmix64 (support/SplitMix64.h), so the same random instances come
// out with every standard library.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TEST_UNIT_SCHEDULER_GAUS_GAUSTESTUTIL_H
#define TILEPIPE_TEST_UNIT_SCHEDULER_GAUS_GAUSTESTUTIL_H

#include "scheduler/gaus/Graph.h"
#include "support/SplitMix64.h"

#include <cstdint>
#include <string>

namespace tilepipe::gaus::test {

struct Rng {
  SplitMix64 mix;
  explicit Rng(uint64_t seed) : mix(seed) {}
  uint64_t next() { return mix.next(); }
  int64_t below(int64_t n) { return int64_t(next() % uint64_t(n)); }
};

inline Instance makeInstance(Formulation f, unsigned n, int64_t depth,
                             unsigned ii = 0) {
  Instance inst;
  inst.formulation = f;
  inst.nodes.resize(n);
  for (unsigned i = 0; i < n; ++i)
    inst.nodes[i].name = "n" + std::to_string(i);
  inst.depth = depth;
  inst.ii = ii;
  return inst;
}

inline void addEdge(Instance &inst, unsigned src, unsigned dst,
                    int64_t latency, unsigned distance = 0) {
  Edge e;
  e.src = src;
  e.dst = dst;
  e.latency = latency;
  e.distance = distance;
  inst.edges.push_back(e);
}

} // namespace tilepipe::gaus::test

#endif // TILEPIPE_TEST_UNIT_SCHEDULER_GAUS_GAUSTESTUTIL_H
