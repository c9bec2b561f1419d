//===- harness/harness_report.cuh - what a harness run found ---*- CUDA -*-===//
//
// Declared in every mode so that host code (harness_host.cuh) is written
// once; the device variable tp_report exists only in harness mode
// (harness/stand_ins.cuh).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_HARNESS_HARNESS_REPORT_CUH
#define TILEPIPE_HARNESS_HARNESS_REPORT_CUH

namespace tp {

/// What a harness run found. Declared in both modes so that host code can be
/// written once; the device variable exists only in harness mode.
struct HarnessReport {
  unsigned errors;     ///< probe_check calls that found a foreign stamp
  unsigned timeouts;   ///< mbar_wait calls that ran out of budget
  int firstCta;        ///< first error: linear CTA index
  int firstPipe;       ///< first error: pipe id
  long long firstWant; ///< first error: the iteration the consumer expected
  long long firstGot;  ///< first error: the iteration found in the slot
  unsigned long long iterations; ///< probe_check calls in total
};

} // namespace tp

#endif // TILEPIPE_HARNESS_HARNESS_REPORT_CUH
