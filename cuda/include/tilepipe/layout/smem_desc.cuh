//===- layout/smem_desc.cuh - the 64-bit SMEM matrix descriptor -*- CUDA -*-===//
//
// tcgen05.mma's a/b descriptors and tcgen05.cp's source descriptor (PTX
// ISA, tcgen05 "shared memory descriptor"; facts section 1): start address
// [0, 14), leading byte offset [16, 30), stride byte offset [32, 46), each
// in 16-byte units; the constant 0b001 at [46, 49) (version 1, sm_100);
// base offset [49, 52) = 0, because every tile starts on its swizzle
// pattern's repeat (layout/tile.cuh); LBO mode [52] = 0 (relative); the
// swizzle at [61, 64).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_LAYOUT_SMEM_DESC_CUH
#define TILEPIPE_LAYOUT_SMEM_DESC_CUH

#include "tilepipe/layout/swizzle.cuh"

namespace tp::layout {

TP_CONSTEXPR uint64_t smem_desc(uint32_t start, uint32_t lbo, uint32_t sbo,
                                Swizzle s) {
  return uint64_t((start & 0x3FFFFu) >> 4) |
         uint64_t((lbo & 0x3FFFFu) >> 4) << 16 |
         uint64_t((sbo & 0x3FFFFu) >> 4) << 32 | uint64_t(1) << 46 |
         desc_code(s) << 61;
}

} // namespace tp::layout

#endif // TILEPIPE_LAYOUT_SMEM_DESC_CUH
