//===- emulator/driver.h - cuTensorMapEncodeTiled on the host ---*- C++ -*-===//
//
// The driver call that builds a TMA tensor map, checking the parameters
// against every rule the driver API documents for it (cuda.h of CUDA 13,
// group CUDA_TENSOR_MEMORY), and the inverse, decode(), that the emulated
// TMA uses. The 128 opaque bytes hold our own encoding: a magic word, the
// parameters, and a checksum, so that a map never encoded (all zeros, say)
// or overwritten is detected instead of silently read.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_DRIVER_H
#define TILEPIPE_EMULATOR_DRIVER_H

#include <cstdint>
#include <string>

#include "tilepipe/emulator/cuda_types.h"
#include "tilepipe/emulator/fault.h"
#include "tilepipe/emulator/outline.h"

namespace tp::cpu::drv {

/// The parameters of an encoded tiled tensor map. Dimensions past `rank`
/// are 1 (sizes, boxes, element strides) and 0 (byte strides).
struct TensorMapView {
  CUtensorMapDataType dataType;
  uint32_t rank;
  uint64_t globalAddress;
  uint64_t globalDim[5];
  /// Byte stride of every dimension; [0] is the element size (0 for the
  /// packed sub-byte types), [1..rank) are the globalStrides passed in.
  uint64_t globalStride[5];
  uint32_t boxDim[5];
  uint32_t elementStrides[5];
  CUtensorMapInterleave interleave;
  CUtensorMapSwizzle swizzle;
  CUtensorMapL2promotion l2Promotion;
  CUtensorMapFloatOOBfill oobFill;
  /// Bits per element (4 and 6 for the packed types).
  uint32_t elementBits;
};

/// Bits per element of a data type, 0 if the value is not a data type.
inline uint32_t elementBits(CUtensorMapDataType t) {
  switch (t) {
  case CU_TENSOR_MAP_DATA_TYPE_UINT8:
    return 8;
  case CU_TENSOR_MAP_DATA_TYPE_UINT16:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
  case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
    return 16;
  case CU_TENSOR_MAP_DATA_TYPE_UINT32:
  case CU_TENSOR_MAP_DATA_TYPE_INT32:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
  case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
  case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ:
    return 32;
  case CU_TENSOR_MAP_DATA_TYPE_UINT64:
  case CU_TENSOR_MAP_DATA_TYPE_INT64:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT64:
    return 64;
  case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B:
  case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B:
    return 4;
  case CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B:
    return 6;
  }
  return 0;
}

/// The swizzle span in bytes (0 for none).
inline uint32_t swizzleSpan(CUtensorMapSwizzle s) {
  switch (s) {
  case CU_TENSOR_MAP_SWIZZLE_NONE:
    return 0;
  case CU_TENSOR_MAP_SWIZZLE_32B:
    return 32;
  case CU_TENSOR_MAP_SWIZZLE_64B:
    return 64;
  default:
    return 128;
  }
}

namespace detail {

inline std::string &lastError() {
  static thread_local std::string e;
  return e;
}
inline CUresult reject(const std::string &why) {
  lastError() = "cuTensorMapEncodeTiled: " + why;
  return CUDA_ERROR_INVALID_VALUE;
}

// "TPTMAP01": marks an opaque block written by cuTensorMapEncodeTiled.
inline constexpr uint64_t kMagic = 0x3130'5041'4D54'5054ull;

inline uint64_t checksum(const CUtensorMap &m) {
  uint64_t h = 0xcbf29ce484222325ull; // FNV-1a over words 0..14
  for (int i = 0; i < 15; ++i) {
    h ^= m.opaque[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

inline bool isFloat(CUtensorMapDataType t) {
  switch (t) {
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT64:
  case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
  case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
  case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ:
    return true;
  default:
    return false;
  }
}

} // namespace detail

/// Why the last cuTensorMapEncodeTiled of this thread returned
/// CUDA_ERROR_INVALID_VALUE ("" after a success).
inline const char *lastEncodeError() { return detail::lastError().c_str(); }

namespace detail {

using std::to_string;

/// The 16-bit packed types whose rows are 16-byte aligned (4 or 6 bits used).
inline bool packed16(CUtensorMapDataType t) {
  return t == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B ||
         t == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B;
}

// The driver's checks in its order, one concern each; each returns why the
// call is rejected, or "" when it passes.

/// The enumerations and the rank.
inline std::string checkKinds(CUtensorMapDataType dataType, cuuint32_t rank,
                              CUtensorMapInterleave interleave,
                              CUtensorMapSwizzle swizzle,
                              CUtensorMapL2promotion l2Promotion,
                              CUtensorMapFloatOOBfill oobFill) {
  uint32_t bits = elementBits(dataType);
  if (!bits)
    return "tensorDataType " + to_string(int(dataType)) +
           " is not a CUtensorMapDataType";
  if (unsigned(interleave) > CU_TENSOR_MAP_INTERLEAVE_32B)
    return "interleave " + to_string(int(interleave)) + " is invalid";
  if (unsigned(swizzle) > CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B)
    return "swizzle " + to_string(int(swizzle)) + " is invalid";
  if (unsigned(l2Promotion) > CU_TENSOR_MAP_L2_PROMOTION_L2_256B)
    return "l2Promotion " + to_string(int(l2Promotion)) + " is invalid";
  if (unsigned(oobFill) > CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
    return "oobFill " + to_string(int(oobFill)) + " is invalid";
  if (rank == 0 || rank > 5)
    return "tensorRank " + to_string(rank) + " must be in 1..5";
  if (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE && rank < 3)
    return "an interleaved layout needs tensorRank >= 3";
  return "";
}

/// The global tensor: its address, dimensions and strides.
inline std::string checkGlobal(CUtensorMapDataType dataType, cuuint32_t rank,
                               const void *globalAddress,
                               const cuuint64_t *globalDim,
                               const cuuint64_t *globalStrides,
                               const cuuint32_t *boxDim,
                               const cuuint32_t *elementStrides,
                               CUtensorMapInterleave interleave) {
  bool packed = packed16(dataType);
  if (!globalAddress)
    return "globalAddress is null";
  uintptr_t addr = reinterpret_cast<uintptr_t>(globalAddress);
  if (addr % 16)
    return "globalAddress must be 16-byte aligned";
  if (interleave == CU_TENSOR_MAP_INTERLEAVE_32B && addr % 32)
    return "globalAddress must be 32-byte aligned with INTERLEAVE_32B";
  if (packed && addr % 32)
    return "globalAddress must be 32-byte aligned for the 16U4/16U6 "
           "ALIGN16B types";
  if (!globalDim || !boxDim || !elementStrides || (rank > 1 && !globalStrides))
    return "a dimension array is null";
  for (uint32_t i = 0; i < rank; ++i)
    if (globalDim[i] == 0 || globalDim[i] > (uint64_t(1) << 32))
      return "globalDim[" + to_string(i) + "] = " + to_string(globalDim[i]) +
             " must be in 1..2^32";
  if (packed && globalDim[0] % 128)
    return "globalDim[0] must be a multiple of 128 for the ALIGN16B "
           "packed types";
  if (dataType == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B && globalDim[0] % 2)
    return "globalDim[0] must be even for 16U4_ALIGN8B";
  for (uint32_t i = 0; i + 1 < rank; ++i) {
    uint64_t s = globalStrides[i];
    if (s % 16 || s >= (uint64_t(1) << 40))
      return "globalStrides[" + to_string(i) + "] = " + to_string(s) +
             " must be a multiple of 16 and < 2^40";
    if ((interleave == CU_TENSOR_MAP_INTERLEAVE_32B || packed) && s % 32)
      return "globalStrides[" + to_string(i) +
             "] must be a multiple of 32 with INTERLEAVE_32B or the "
             "ALIGN16B packed types";
  }
  return "";
}

/// The box and its traversal strides, against the type and the swizzle.
inline std::string checkBox(CUtensorMapDataType dataType, cuuint32_t rank,
                            const cuuint32_t *boxDim,
                            const cuuint32_t *elementStrides,
                            CUtensorMapInterleave interleave,
                            CUtensorMapSwizzle swizzle) {
  uint32_t bits = elementBits(dataType);
  for (uint32_t i = 0; i < rank; ++i)
    if (boxDim[i] == 0 || boxDim[i] > 256)
      return "boxDim[" + to_string(i) + "] = " + to_string(boxDim[i]) +
             " must be in 1..256";
  uint64_t innerBits = uint64_t(boxDim[0]) * bits;
  if (interleave == CU_TENSOR_MAP_INTERLEAVE_NONE && innerBits % 128)
    return "boxDim[0] * elementSize = " + to_string(innerBits / 8) +
           (innerBits % 8 ? ".5" : "") +
           " bytes must be a multiple of 16 bytes";
  if (packed16(dataType) && boxDim[0] != 128)
    return "boxDim[0] must be 128 for the ALIGN16B packed types";
  for (uint32_t i = 0; i < rank; ++i)
    if (elementStrides[i] == 0 || elementStrides[i] > 8)
      return "elementStrides[" + to_string(i) +
             "] = " + to_string(elementStrides[i]) + " must be in 1..8";
  uint32_t span = swizzleSpan(swizzle);
  if (interleave == CU_TENSOR_MAP_INTERLEAVE_NONE && span &&
      innerBits > uint64_t(span) * 8)
    return "the inner box dimension, boxDim[0] * elementSize = " +
           to_string(innerBits / 8) + " bytes, exceeds the " + to_string(span) +
           "-byte swizzle span";
  return "";
}

/// The combinations of type, interleave, swizzle and fill the driver refuses.
inline std::string checkCombination(CUtensorMapDataType dataType,
                                    CUtensorMapInterleave interleave,
                                    CUtensorMapSwizzle swizzle,
                                    CUtensorMapFloatOOBfill oobFill) {
  if (interleave == CU_TENSOR_MAP_INTERLEAVE_32B &&
      swizzle != CU_TENSOR_MAP_SWIZZLE_32B)
    return "INTERLEAVE_32B requires SWIZZLE_32B";
  if (dataType == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B &&
      interleave != CU_TENSOR_MAP_INTERLEAVE_NONE)
    return "16U6_ALIGN16B requires INTERLEAVE_NONE";
  if (dataType == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B &&
      swizzle != CU_TENSOR_MAP_SWIZZLE_NONE &&
      swizzle != CU_TENSOR_MAP_SWIZZLE_128B &&
      swizzle != CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B &&
      swizzle != CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B)
    return "16U6_ALIGN16B supports only the NONE, 128B, 128B_ATOM_32B "
           "and 128B_ATOM_64B swizzles";
  if (dataType == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B &&
      swizzle != CU_TENSOR_MAP_SWIZZLE_NONE &&
      swizzle != CU_TENSOR_MAP_SWIZZLE_128B &&
      swizzle != CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B)
    return "16U4_ALIGN16B supports only the NONE, 128B and "
           "128B_ATOM_32B swizzles";
  if (oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA &&
      !isFloat(dataType))
    return "FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA needs a floating-point "
           "data type";
  return "";
}

/// Our encoding of a checked map: [0] magic, [1] address, [2] enums and
/// rank, [3..7] dims, [8..11] strides, [12] boxes (9 bits each), [13]
/// element strides (4 bits each), [15] checksum of [0..14].
inline CUtensorMap
encode(CUtensorMapDataType dataType, cuuint32_t rank, uintptr_t addr,
       const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
       const cuuint32_t *boxDim, const cuuint32_t *elementStrides,
       CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
       CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
  CUtensorMap m{};
  m.opaque[0] = kMagic;
  m.opaque[1] = uint64_t(addr);
  m.opaque[2] = uint64_t(dataType) | uint64_t(rank) << 8 |
                uint64_t(interleave) << 16 | uint64_t(swizzle) << 24 |
                uint64_t(l2Promotion) << 32 | uint64_t(oobFill) << 40;
  for (uint32_t i = 0; i < 5; ++i) {
    m.opaque[3 + i] = i < rank ? globalDim[i] : 1;
    if (i + 1 < 5)
      m.opaque[8 + i] = i + 1 < rank ? globalStrides[i] : 0;
    uint64_t box = i < rank ? boxDim[i] : 1;
    uint64_t es = i < rank ? elementStrides[i] : 1;
    m.opaque[12] |= box << (9 * i);
    m.opaque[13] |= es << (4 * i);
  }
  m.opaque[15] = checksum(m);
  return m;
}

} // namespace detail

TP_EMU_OUTLINE CUresult cuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType dataType, cuuint32_t rank,
    void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill)
#if !defined(TILEPIPE_EMULATOR_EXTERN)
{
  detail::lastError().clear();
  if (!tensorMap)
    return detail::reject("tensorMap is null");
  if (reinterpret_cast<uintptr_t>(tensorMap) % 64)
    return detail::reject("tensorMap address must be aligned to 64 bytes");
  // In order, and stopping at the first: a later check reads the arrays an
  // earlier one vouched for.
  std::string why = detail::checkKinds(dataType, rank, interleave, swizzle,
                                       l2Promotion, oobFill);
  if (why.empty())
    why =
        detail::checkGlobal(dataType, rank, globalAddress, globalDim,
                            globalStrides, boxDim, elementStrides, interleave);
  if (why.empty())
    why = detail::checkBox(dataType, rank, boxDim, elementStrides, interleave,
                           swizzle);
  if (why.empty())
    why = detail::checkCombination(dataType, interleave, swizzle, oobFill);
  if (!why.empty())
    return detail::reject(why);
  *tensorMap =
      detail::encode(dataType, rank, reinterpret_cast<uintptr_t>(globalAddress),
                     globalDim, globalStrides, boxDim, elementStrides,
                     interleave, swizzle, l2Promotion, oobFill);
  return CUDA_SUCCESS;
}
#else
;
#endif

/// Reads a map back; false if it was never encoded by
/// cuTensorMapEncodeTiled (or was altered since).
inline bool tryDecode(const CUtensorMap &m, TensorMapView *v) {
  if (m.opaque[0] != detail::kMagic || m.opaque[15] != detail::checksum(m))
    return false;
  uint64_t w = m.opaque[2];
  v->dataType = CUtensorMapDataType(w & 0xFF);
  v->rank = uint32_t(w >> 8 & 0xFF);
  v->interleave = CUtensorMapInterleave(w >> 16 & 0xFF);
  v->swizzle = CUtensorMapSwizzle(w >> 24 & 0xFF);
  v->l2Promotion = CUtensorMapL2promotion(w >> 32 & 0xFF);
  v->oobFill = CUtensorMapFloatOOBfill(w >> 40 & 0xFF);
  v->globalAddress = m.opaque[1];
  v->elementBits = elementBits(v->dataType);
  for (int i = 0; i < 5; ++i) {
    v->globalDim[i] = m.opaque[3 + i];
    v->globalStride[i] = i == 0 ? (v->elementBits % 8 ? 0 : v->elementBits / 8)
                                : m.opaque[8 + i - 1];
    v->boxDim[i] = uint32_t(m.opaque[12] >> (9 * i) & 0x1FF);
    v->elementStrides[i] = uint32_t(m.opaque[13] >> (4 * i) & 0xF);
  }
  return true;
}

/// As tryDecode, but a map that was never encoded is a fault.
inline TensorMapView decode(const CUtensorMap &m) {
  TensorMapView v;
  if (!tryDecode(m, &v))
    fault("tma: the tensor map was not built by cuTensorMapEncodeTiled (or "
          "was modified since): its opaque bytes do not decode");
  return v;
}

} // namespace tp::cpu::drv

#endif // TILEPIPE_EMULATOR_DRIVER_H
