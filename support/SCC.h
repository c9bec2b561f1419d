//===- SCC.h - strongly connected components --------------------*- C++ -*-===//
//
// Iterative Tarjan (no recursion: a million-op loop would overflow the
// stack). Used by the recurrence bound, which only needs cycles inside one
// component, and by the exact check, whose relaxation onto one component is
// the problem where every op lies on a recurrence with every other.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SUPPORT_SCC_H
#define TILEPIPE_SUPPORT_SCC_H

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

namespace tilepipe::support {

/// Fills `comp` with a component id per node of [0, n) and returns the
/// number of components. `successors(v)` gives v's successors as an
/// ArrayRef<unsigned>. Ids come out in reverse topological order of the
/// condensation; the result depends only on the successor order.
template <class Successors>
unsigned stronglyConnectedComponents(unsigned n, Successors &&successors,
                                     std::vector<unsigned> &comp) {
  constexpr unsigned kNone = UINT_MAX;
  comp.assign(n, kNone);
  std::vector<unsigned> index(n, kNone), low(n, 0), stack, callNode, callEdge;
  std::vector<uint8_t> onStack(n, 0);
  unsigned nextIndex = 0, numComps = 0;
  stack.reserve(n);
  for (unsigned root = 0; root < n; ++root) {
    if (index[root] != kNone)
      continue;
    auto enter = [&](unsigned v) {
      index[v] = low[v] = nextIndex++;
      stack.push_back(v);
      onStack[v] = 1;
      callNode.push_back(v);
      callEdge.push_back(0);
    };
    enter(root);
    while (!callNode.empty()) {
      const unsigned v = callNode.back();
      unsigned &e = callEdge.back();
      llvm::ArrayRef<unsigned> succ = successors(v);
      if (e != succ.size()) {
        const unsigned w = succ[e++];
        if (index[w] == kNone)
          enter(w);
        else if (onStack[w])
          low[v] = std::min(low[v], index[w]);
        continue;
      }
      callNode.pop_back();
      callEdge.pop_back();
      if (!callNode.empty())
        low[callNode.back()] = std::min(low[callNode.back()], low[v]);
      if (low[v] != index[v])
        continue;
      unsigned w;
      do {
        w = stack.back();
        stack.pop_back();
        onStack[w] = 0;
        comp[w] = numComps;
      } while (w != v);
      ++numComps;
    }
  }
  return numComps;
}

} // namespace tilepipe::support

#endif // TILEPIPE_SUPPORT_SCC_H
