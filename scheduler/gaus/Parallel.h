//===- Parallel.h - a small blocking thread pool for the relaxation -*- C++
//-*-=//
//
// GauS's passes are loops over nodes in which each index writes only its
// own entries, so any split gives the same result. A pool whose idle
// workers block (instead of OpenMP's spinning barrier, which on a loaded
// two-core machine made a step several times slower than one thread) runs
// them. The caller takes chunks too.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_PARALLEL_H
#define TILEPIPE_SCHEDULER_GAUS_PARALLEL_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>

namespace tilepipe::gaus {

/// Threads used (0: the hardware's count). Results do not depend on it.
void setThreads(unsigned threads);
unsigned getThreads();

/// fn(begin, end) over [0, n) in chunks of `grain`; inline when
/// `parallel` is false, one thread is set, or there is a single chunk.
void parallelFor(size_t n, size_t grain, bool parallel,
                 llvm::function_ref<void(size_t, size_t)> fn);

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_PARALLEL_H
