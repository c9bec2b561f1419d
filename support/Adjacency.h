//===- Adjacency.h - per-node lists in one array ---------------*- C++ -*-===//
//
// The dependence graph's incoming and outgoing edges per op, in compressed
// rows: one offsets array and one items array. A vector per op costs a
// heap block and a few reallocations each, which in a million-op loop is
// most of the time spent building the lists.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SUPPORT_ADJACENCY_H
#define TILEPIPE_SUPPORT_ADJACENCY_H

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace tilepipe::support {

class Adjacency {
public:
  Adjacency() = default;
  /// Lists for nodes [0, n): `forEach(add)` calls add(node, item) for every
  /// entry, and is called twice (once to count, once to fill). Items keep
  /// the order they are added in.
  template <class ForEach> Adjacency(unsigned n, ForEach &&forEach) {
    offsets.assign(n + 1, 0);
    forEach([&](unsigned node, unsigned) { ++offsets[node + 1]; });
    for (unsigned i = 0; i < n; ++i)
      offsets[i + 1] += offsets[i];
    items.resize(offsets[n]);
    std::vector<unsigned> next(offsets.begin(), offsets.end() - 1);
    forEach([&](unsigned node, unsigned item) { items[next[node]++] = item; });
  }
  llvm::ArrayRef<unsigned> operator[](unsigned node) const {
    return llvm::ArrayRef<unsigned>(items.data() + offsets[node],
                                    offsets[node + 1] - offsets[node]);
  }
  unsigned size() const { return offsets.empty() ? 0 : offsets.size() - 1; }

private:
  std::vector<unsigned> offsets, items;
};

} // namespace tilepipe::support

#endif // TILEPIPE_SUPPORT_ADJACENCY_H
