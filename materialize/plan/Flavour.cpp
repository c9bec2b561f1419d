//===- Flavour.cpp --------------------------------------------------------===//

#include "materialize/plan/Flavour.h"

using namespace tilepipe;
using namespace tilepipe::materialize;

PipeFlavour materialize::pipeFlavour(const PipePlan &pipe) {
  PipeFlavour f;
  switch (pipe.producerUnit) {
  case Unit::TMA:
    f.commit = "expect_tx";
    break;
  case Unit::UMMA:
    f.commit = "tcgen05.commit";
    break;
  case Unit::CpAsync:
    f.commit = "cp.async.mbarrier.arrive.noinc";
    break;
  case Unit::SIMT:
  case Unit::TMAStore:
    f.commit = "arrive";
    // Generic-proxy writes must be visible before the tensor core or the
    // copy engine reads them.
    if (pipe.cls == BufferClass::SMEM &&
        (pipe.consumerUnit == Unit::UMMA || pipe.consumerUnit == Unit::TMA ||
         pipe.consumerUnit == Unit::TMAStore))
      f.producerFence = "fence.proxy.async.shared::cta";
    else if (pipe.cls == BufferClass::TMEM)
      f.producerFence = "tcgen05.wait::st; tcgen05.fence::before_thread_sync";
    break;
  }
  switch (pipe.consumerUnit) {
  case Unit::UMMA:
    f.release = "tcgen05.commit";
    break;
  case Unit::TMAStore:
    f.release = "bulk_group.wait";
    break;
  case Unit::TMA:
  case Unit::CpAsync:
  case Unit::SIMT:
    f.release = "arrive";
    break;
  }
  // A SIMT consumer of tensor-core output orders its reads after the wait.
  if (pipe.producerUnit == Unit::UMMA && pipe.consumerUnit != Unit::UMMA)
    f.consumerFence = "tcgen05.fence::after_thread_sync";
  f.barriers = pipe.depth * (pipe.consumerUnit == Unit::TMAStore ? 1 : 2);
  return f;
}
