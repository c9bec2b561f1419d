//===- Hints.cpp - optimization hints reported as ignored -----------------===//
//
// cuTile's hints steer tileiras. tilepipe decides the same things from its
// own model: latencies from the target file, every view load by TMA, one
// CTA per cluster, SMEM sized for one CTA per SM, warps per role from the
// schedule. None of them has a tileas constraint of the same meaning, so
// each is named in a remark (with the reason) rather than dropped silently.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cutile;

/// Why tilepipe does not need the hint `name`.
static StringRef whyIgnored(StringRef name) {
  if (name == "latency")
    return "the scheduler takes latencies from its target model";
  if (name == "allow_tma")
    return "tilepipe loads and stores every view by TMA";
  if (name == "num_cta_in_cga")
    return "tilepipe's kernels run one CTA per cluster";
  if (name == "occupancy")
    return "the plan sizes SMEM and TMEM for one CTA per SM";
  if (name == "num_worker_warps_per_cta")
    return "the materializer chooses the warps of each role";
  return "tilepipe does not know it";
}

void EntryLowering::reportHints(Operation *op,
                                tileir::OptimizationHintsAttr hints) {
  if (!hints)
    return;
  for (NamedAttribute arch : hints.getHintsByArch()) {
    auto dict = dyn_cast<DictionaryAttr>(arch.getValue());
    if (!dict)
      continue;
    for (NamedAttribute hint : dict)
      op->emitRemark("optimization hint ")
          << hint.getName().getValue() << " = " << hint.getValue() << " (for "
          << arch.getName().getValue()
          << ") ignored: " << whyIgnored(hint.getName());
  }
}
