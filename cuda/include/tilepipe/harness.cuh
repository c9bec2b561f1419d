//===- harness.cuh - tilepipe protocol harness -----------------*- CUDA -*-===//
//
// Picks the harness variant once, at include: the stand-ins under
// -DTILEPIPE_HARNESS (harness/stand_ins.cuh: stamps instead of payloads,
// bounded waits, a report), else none (harness/no_stand_ins.cuh: the same
// names, compiled away). The runtime (runtime/) tests harness::kStandIns
// and calls harness:: functions; it holds no harness #if of its own.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_HARNESS_CUH
#define TILEPIPE_HARNESS_CUH

#include "tilepipe/config.cuh"
#include "tilepipe/harness/harness_report.cuh"

#if TP_HARNESS
#include "tilepipe/harness/stand_ins.cuh"
#else
#include "tilepipe/harness/no_stand_ins.cuh"
#endif

#endif // TILEPIPE_HARNESS_CUH
