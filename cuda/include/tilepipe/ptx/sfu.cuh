//===- ptx/sfu.cuh - the SFU approximations the runtime uses ---*- CUDA -*-===//

#ifndef TILEPIPE_PTX_SFU_CUH
#define TILEPIPE_PTX_SFU_CUH

#include "tilepipe/config.cuh"

#if TP_EMULATOR
#include <cmath>
#endif

namespace tp::ptx {

/// ex2.approx.ftz.f32. The CPU mode has no model of the SFU's error (at
/// most 2 ulp per the PTX ISA): it computes exp2 exactly rounded, with the
/// input and the result flushed to zero when subnormal, as .ftz does.
TP_DEVICE float ex2_approx_ftz(float x) {
#if TP_EMULATOR
  if (std::fpclassify(x) == FP_SUBNORMAL)
    x = std::copysign(0.0f, x);
  float y = std::exp2(x);
  return std::fpclassify(y) == FP_SUBNORMAL ? 0.0f : y;
#else
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#endif
}

} // namespace tp::ptx

#endif // TILEPIPE_PTX_SFU_CUH
