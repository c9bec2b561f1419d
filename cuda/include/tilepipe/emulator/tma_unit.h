//===- emulator/tma_unit.h - cp.async.bulk.tensor, tile mode ----*- C++ -*-===//
//
// The data movement of a TMA tile copy, done at once when the emulator
// completes the asynchronous op. As the PTX ISA defines tiled mode: the box
// lies densely in shared memory, dimension 0 fastest; box elements outside
// [0, globalDim) read as zero (or NaN, see below) and are not written on a
// store; the swizzle permutes 16-byte chunks by the bits of the ABSOLUTE
// shared address, so a box that starts inside a swizzle pattern continues
// it. A load whose innermost coordinate is not a whole number of 16-byte
// units faults, as it does on the hardware (checkLoadInnerCoordinate).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_TMA_UNIT_H
#define TILEPIPE_EMULATOR_TMA_UNIT_H

#include <cstdint>
#include <cstring>
#include <string>

#include "tilepipe/emulator/driver.h"
#include "tilepipe/emulator/fault.h"
#include "tilepipe/emulator/shared_memory.h"

namespace tp::cpu::dp {

/// The physical shared address of linear (unswizzled) address `a` under a
/// tensor-map swizzle mode: bits [4, 4+B) ^= bits [7, 7+B) with B = 1, 2, 3
/// for 32B/64B/128B, and 32-byte units ^= bits [7, 9) for 128B_ATOM_32B.
inline uint32_t tmaSwizzle(CUtensorMapSwizzle s, uint32_t a) {
  switch (s) {
  case CU_TENSOR_MAP_SWIZZLE_32B:
    return a ^ (((a >> 7) & 1) << 4);
  case CU_TENSOR_MAP_SWIZZLE_64B:
    return a ^ (((a >> 7) & 3) << 4);
  case CU_TENSOR_MAP_SWIZZLE_128B:
    return a ^ (((a >> 7) & 7) << 4);
  case CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B:
    return a ^ (((a >> 7) & 3) << 5);
  default:
    return a;
  }
}

namespace detail {

/// The box geometry shared by load and store, checked against what we
/// emulate.
struct TileGeometry {
  drv::TensorMapView v;
  uint32_t es;       // element bytes
  uint32_t count[5]; // elements per dimension that land in SMEM
  uint32_t rowBytes; // count[0] * es
  uint32_t rows;     // product of count[1..5)
  uint32_t bytes;    // rowBytes * rows
  int64_t origin[5]; // coordinates of the first element
};

inline TileGeometry tileGeometry(const char *op, const CUtensorMap &map,
                                 int rank, const int32_t *coords,
                                 uint32_t smemAddr) {
  std::string who = std::string("tma: ") + op + ": ";
  TileGeometry g;
  g.v = drv::decode(map);
  if (rank < 1 || rank > 5 || uint32_t(rank) != g.v.rank)
    fault(who + "the instruction is ." + std::to_string(rank) +
          "d but the tensor map has rank " + std::to_string(g.v.rank));
  if (g.v.interleave != CU_TENSOR_MAP_INTERLEAVE_NONE)
    fault(who + "unsupported: interleaved tensor maps are not emulated");
  if (g.v.elementBits % 8)
    fault(who + "unsupported: packed sub-byte data types are not emulated");
  if (g.v.swizzle == CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B ||
      g.v.swizzle == CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B)
    fault(who + "unsupported: swizzle mode " + std::to_string(g.v.swizzle) +
          " is not emulated");
  if (smemAddr % 128)
    fault(who + "the shared-memory address 0x" + [&] {
      char b[16];
      std::snprintf(b, sizeof b, "%x", smemAddr);
      return std::string(b);
    }() + " must be 128-byte aligned");
  g.es = g.v.elementBits / 8;
  g.rows = 1;
  for (int i = 0; i < 5; ++i) {
    // The traversal stride of dimension 0 is ignored (driver API).
    uint32_t stride = i == 0 ? 1 : g.v.elementStrides[i];
    g.count[i] = (g.v.boxDim[i] + stride - 1) / stride;
    g.origin[i] = i < rank ? coords[i] : 0;
    if (i > 0)
      g.rows *= g.count[i];
  }
  g.rowBytes = g.count[0] * g.es;
  uint32_t span = drv::swizzleSpan(g.v.swizzle);
  // The driver accepts an inner box narrower than the swizzle span, but
  // where such rows go is not documented; refuse rather than guess.
  if (span && g.rowBytes != span)
    fault(who + "unsupported: inner box of " + std::to_string(g.rowBytes) +
          " bytes is narrower than the " + std::to_string(span) +
          "-byte swizzle span (row placement undocumented)");
  g.bytes = g.rowBytes * g.rows;
  return g;
}

/// Calls f(rowIndex, rowInBounds, globalRowAddress of element 0 of the
/// box's dimension 0) for every row of the box, rows in SMEM order.
template <class F> inline void forEachRow(const TileGeometry &g, F f) {
  uint32_t idx[5] = {0, 0, 0, 0, 0};
  for (uint32_t r = 0; r < g.rows; ++r) {
    bool in = true;
    int64_t off = 0;
    for (int i = 1; i < 5; ++i) {
      int64_t c = g.origin[i] + int64_t(idx[i]) * g.v.elementStrides[i];
      if (c < 0 || uint64_t(c) >= g.v.globalDim[i])
        in = false;
      off += c * int64_t(g.v.globalStride[i]);
    }
    off += g.origin[0] * int64_t(g.es);
    f(r, in, g.v.globalAddress + uint64_t(off));
    for (int i = 1; i < 5; ++i) { // next row, dimension 1 fastest
      if (++idx[i] < g.count[i])
        break;
      idx[i] = 0;
    }
  }
}

/// The innermost box coordinate of a tiled load, in bytes (coordinate x
/// element size), must be a multiple of 16: negative coordinates included.
/// Not among the documented rules this emulator was written from; measured
/// on sm_90 (an H200, CUDA 13.0, docs/cpu-emulation.md "Fidelity on
/// hardware"): every load of test/fidelity/tma_fidelity.cu that broke it
/// stopped the kernel with "an illegal instruction was encountered" (c0 = 1,
/// over the right edge, at negative columns: 153 of 153), and every one
/// that kept it ran (306 of 306, -16 to -1040 bytes among them). Assumed to
/// hold on sm_100. Stores: checkStoreBox.
inline void checkLoadInnerCoordinate(const TileGeometry &g) {
  int64_t bytes = g.origin[0] * int64_t(g.es);
  if (bytes % 16 == 0)
    return;
  fault("tma: load: the innermost box coordinate " +
        std::to_string(g.origin[0]) + " x " + std::to_string(g.es) +
        "-byte elements = " + std::to_string(bytes) +
        " bytes is not a multiple of 16 bytes (the innermost coordinate "
        "times the element size must be; measured on sm_90 hardware (H200): "
        "such a load stops the kernel with \"an illegal instruction was "
        "encountered\"; assumed for sm_100)");
}

/// What an H200 does with tiled stores (CUDA 13.0, tma_fidelity.cu's store
/// configurations, 2026-12-04; docs/cpu-emulation.md "Fidelity on
/// hardware"), none of it in the documents this emulator was written from:
/// - a negative box coordinate in any dimension stops the kernel with "an
///   illegal instruction was encountered" (every such store: rows, aligned
///   columns, planes), where a load zero-fills;
/// - so does an innermost coordinate whose bytes are not a multiple of 16,
///   as for loads;
/// - a box over the tensor's right edge where the edge (innermost size x
///   element size) is not a multiple of 16 bytes writes the rest of the
///   edge's 16-byte chunk, past the tensor: the bytes after the last column
///   changed in each row (19 of 19 layouts). The emulator does not copy
///   that: it clips at the edge as the ISA says (the fidelity check counts
///   these stores as mismatches). tilepipe's own sm_90a kernels store such
///   edges into padded rows (the numeric checks' outputs), where it is
///   harmless; in a view of a wider matrix those bytes are another tensor's.
inline void checkStoreBox(const TileGeometry &g, int rank) {
  std::string who = "tma: store: ";
  std::string measured = " (measured on sm_90 hardware (H200): such a store "
                         "stops the kernel with \"an illegal instruction was "
                         "encountered\"; assumed for sm_100)";
  for (int i = 0; i < rank; ++i)
    if (g.origin[i] < 0)
      fault(who + "box coordinate " + std::to_string(i) + " is " +
            std::to_string(g.origin[i]) +
            ", negative; a store's coordinates must not be" + measured);
  int64_t bytes = g.origin[0] * int64_t(g.es);
  if (bytes % 16)
    fault(who + "the innermost box coordinate " + std::to_string(g.origin[0]) +
          " x " + std::to_string(g.es) +
          "-byte elements = " + std::to_string(bytes) +
          " bytes is not a multiple of 16 bytes" + measured);
}

} // namespace detail

/// cp.async.bulk.tensor.Nd.shared.global.tile: copies the box at `coords`
/// into shared memory at `dst`. Returns the byte count complete_tx must
/// see: the whole box, zero-filled elements included.
inline uint32_t tma_load_tile(const CUtensorMap &map, int rank,
                              const int32_t *coords, const Smem &smem,
                              uint32_t dst) {
  detail::TileGeometry g = detail::tileGeometry("load", map, rank, coords, dst);
  detail::checkLoadInnerCoordinate(g);
  smem.at(dst, g.bytes); // range check of the whole box
  // NAN_REQUEST_ZERO_FMA fills with an undocumented NaN; all-ones bytes are
  // a NaN in every floating-point type the driver allows it for.
  uint8_t fill = g.v.oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE ? 0 : 0xFF;
  int64_t dim0 = int64_t(g.v.globalDim[0]);
  uint32_t chunk = 16; // TMA moves and swizzles 16-byte chunks
  detail::forEachRow(g, [&](uint32_t r, bool in, uint64_t src) {
    uint32_t rowAddr = dst + r * g.rowBytes;
    for (uint32_t b = 0; b < g.rowBytes; b += chunk) {
      uint8_t *out = smem.at(tmaSwizzle(g.v.swizzle, rowAddr + b), chunk);
      int64_t e0 = g.origin[0] + b / g.es;
      int64_t n = chunk / g.es;
      const uint8_t *in0 = reinterpret_cast<const uint8_t *>(src) + b;
      if (in && e0 >= 0 && e0 + n <= dim0) {
        std::memcpy(out, in0, chunk);
        continue;
      }
      for (int64_t e = 0; e < n; ++e) {
        bool ok = in && e0 + e >= 0 && e0 + e < dim0;
        if (ok)
          std::memcpy(out + e * g.es, in0 + e * g.es, g.es);
        else
          std::memset(out + e * g.es, fill, g.es);
      }
    }
  });
  return g.bytes;
}

/// cp.async.bulk.tensor.Nd.global.shared::cta.tile: writes the box at
/// `coords` from shared memory at `src`; elements outside the tensor are
/// not written (boxes the hardware treats otherwise fault: checkStoreBox).
inline void tma_store_tile(const CUtensorMap &map, int rank,
                           const int32_t *coords, const Smem &smem,
                           uint32_t src) {
  detail::TileGeometry g =
      detail::tileGeometry("store", map, rank, coords, src);
  detail::checkStoreBox(g, rank);
  smem.at(src, g.bytes);
  int64_t dim0 = int64_t(g.v.globalDim[0]);
  uint32_t chunk = 16;
  detail::forEachRow(g, [&](uint32_t r, bool in, uint64_t dstRow) {
    if (!in)
      return;
    uint32_t rowAddr = src + r * g.rowBytes;
    for (uint32_t b = 0; b < g.rowBytes; b += chunk) {
      const uint8_t *from =
          smem.at(tmaSwizzle(g.v.swizzle, rowAddr + b), chunk);
      int64_t e0 = g.origin[0] + b / g.es;
      int64_t n = chunk / g.es;
      uint8_t *out0 = reinterpret_cast<uint8_t *>(dstRow) + b;
      for (int64_t e = 0; e < n; ++e)
        if (e0 + e >= 0 && e0 + e < dim0)
          std::memcpy(out0 + e * g.es, from + e * g.es, g.es);
    }
  });
}

} // namespace tp::cpu::dp

#endif // TILEPIPE_EMULATOR_TMA_UNIT_H
