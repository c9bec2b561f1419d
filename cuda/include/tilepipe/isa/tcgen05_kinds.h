//===- isa/tcgen05_kinds.h - tcgen05 qualifiers as types --------*- C++ -*-===//
//
// The .kind of tcgen05.mma and the shape of tcgen05.cp: part of the opcode,
// so atoms take them as template arguments; the descriptor encoders
// (layout/), the emulator's atoms (emulator/atoms.h) and the compiler's
// shape table (layout/mma_shapes.h) name them too.
//
// isa/ is the bottom of the header house: plain C++ that includes nothing
// of ours, so that both the device atoms and the emulator can include it
// while the emulator includes no device header.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_ISA_TCGEN05_KINDS_H
#define TILEPIPE_ISA_TCGEN05_KINDS_H

namespace tp {

/// tcgen05.mma .kind: f16 (f16/bf16 operands), tf32, f8f6f4 (e4m3, e5m2,
/// e2m3, e3m2, e2m1), mxf8f6f4.block_scale (the same with UE8M0 scales) and
/// i8 (s8/u8 operands, s32 accumulator).
enum class MmaKind { F16, TF32, F8F6F4, MXF8F6F4, I8 };

/// tcgen05.cp shapes (PTX ISA, tcgen05.cp).
enum class CpShape {
  S128x256b,
  S128x128b,
  S32x128b_warpx4,
  S64x128b_warpx2_02_13,
  S64x128b_warpx2_01_23,
  S4x256b
};

} // namespace tp

#endif // TILEPIPE_ISA_TCGEN05_KINDS_H
