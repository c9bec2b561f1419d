//===- layout/smem_desc.cuh - SMEM matrix descriptor -----------*- CUDA -*-===//
//
// tcgen05.mma's a/b descriptors and tcgen05.cp's source descriptor (PTX
// ISA, tcgen05 "shared memory descriptor"; facts section 1), as a struct of
// its fields, each with its bit range, and pack() to place them. The
// emulator decodes the same bits (emulator/descriptors.h); the unit test
// CpuEmuDescriptors checks pack() against the shift formula over many field
// values.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_LAYOUT_SMEM_DESC_CUH
#define TILEPIPE_LAYOUT_SMEM_DESC_CUH

#include "tilepipe/layout/swizzle.cuh"

namespace tp::layout {

/// `value` in bits [lo, lo + width) of a descriptor: what a bitfield of that
/// range holds, with the bits above its width dropped.
TP_CONSTEXPR uint64_t desc_field(uint64_t value, int lo, int width) {
  return (value & ((uint64_t(1) << width) - 1)) << lo;
}

/// The fields hold the encoded values (addresses and offsets in 16-byte
/// units); bits not named here are zero.
struct SmemDescriptor {
  uint32_t startAddress = 0;      ///< [0, 14): start address >> 4
  uint32_t leadingByteOffset = 0; ///< [16, 30): LBO >> 4
  uint32_t strideByteOffset = 0;  ///< [32, 46): SBO >> 4
  uint32_t version = 1;           ///< [46, 49): the constant 0b001 (sm_100)
  /// [49, 52): 0, because every tile starts on its swizzle pattern's repeat
  /// (layout/tile.cuh).
  uint32_t baseOffset = 0;
  uint32_t lboMode = 0;    ///< [52, 53): 0, LBO relative
  uint32_t layoutType = 0; ///< [61, 64): the swizzle (desc_code)

  TP_CONSTEXPR uint64_t pack() const {
    return desc_field(startAddress, 0, 14) |
           desc_field(leadingByteOffset, 16, 14) |
           desc_field(strideByteOffset, 32, 14) | desc_field(version, 46, 3) |
           desc_field(baseOffset, 49, 3) | desc_field(lboMode, 52, 1) |
           desc_field(layoutType, 61, 3);
  }
};

/// A byte address or offset as the descriptor holds it: bits [4, 18).
TP_CONSTEXPR uint32_t desc_units(uint32_t bytes) {
  return (bytes & 0x3FFFFu) >> 4;
}

/// The descriptor of the operand at shared address `start`, with leading
/// and stride byte offsets `lbo` and `sbo`, swizzled by `s`.
TP_CONSTEXPR uint64_t smem_desc(uint32_t start, uint32_t lbo, uint32_t sbo,
                                Swizzle s) {
  SmemDescriptor d;
  d.startAddress = desc_units(start);
  d.leadingByteOffset = desc_units(lbo);
  d.strideByteOffset = desc_units(sbo);
  d.layoutType = static_cast<uint32_t>(desc_code(s));
  return d.pack();
}

} // namespace tp::layout

#endif // TILEPIPE_LAYOUT_SMEM_DESC_CUH
