//===- CudaRelaxation.h - the CUDA relaxation's host emulation -*- C++ -*-===//
//
// makeCudaRelaxation (Relaxation.h) runs GauS's relaxation as CUDA kernels.
// Every kernel is a loop over items (a node, a window entry, an edge, a
// step) calling one __host__ __device__ function per item; the emulation
// below runs the same item functions and the same launch plan as plain host
// loops, so that tests on machines without a device still check the device
// code's formulas and indexing against the CPU relaxation. Only builds that
// compile the CUDA relaxation have it (TILEPIPE_HAVE_GAUS_CUDA).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_CUDA_CUDARELAXATION_H
#define TILEPIPE_SCHEDULER_GAUS_CUDA_CUDARELAXATION_H

#include "scheduler/gaus/Relaxation.h"

namespace tilepipe::gaus {

/// The CUDA relaxation's code run on the host, one item at a time; null
/// with `why` when the instance is not one it accepts. Slow: for tests.
std::unique_ptr<Relaxation>
makeCudaRelaxationOnHost(const Instance &instance, const Frames &frames,
                         TermOptions options, std::string *why = nullptr);

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_CUDA_CUDARELAXATION_H
