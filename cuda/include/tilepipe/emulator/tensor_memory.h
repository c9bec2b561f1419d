//===- emulator/tensor_memory.h - TMEM, tcgen05.ld/st/cp --------*- C++ -*-===//
//
// One CTA's Tensor Memory: 128 lanes x 512 columns of 32-bit cells,
// addressed as lane << 16 | column. Cells not written since their columns
// were allocated are "poisoned": they hold the NaN pattern 0x7FC00000 and
// are tracked, so that reading them (an accumulator never initialized, say)
// yields NaN in every format instead of a plausible number.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_TENSOR_MEMORY_H
#define TILEPIPE_EMULATOR_TENSOR_MEMORY_H

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "tilepipe/emulator/atoms.h"
#include "tilepipe/emulator/descriptors.h"
#include "tilepipe/emulator/fault.h"
#include "tilepipe/emulator/outline.h"
#include "tilepipe/emulator/shared_memory.h"

namespace tp::cpu::dp {

inline constexpr uint32_t kTmemLanes = 128;
inline constexpr uint32_t kTmemCols = 512;
inline constexpr uint32_t kPoison = 0x7FC00000u;

inline uint32_t tmemLane(uint32_t taddr) { return taddr >> 16; }
inline uint32_t tmemCol(uint32_t taddr) { return taddr & 0xFFFF; }

struct Tmem {
  uint32_t cell[kTmemLanes][kTmemCols];
  bool written[kTmemLanes][kTmemCols];
  bool allocated[kTmemCols];

  Tmem() { reset(); }

  /// Nothing allocated, every cell poisoned.
  void reset() {
    for (auto &row : cell)
      for (uint32_t &c : row)
        c = kPoison;
    std::memset(written, 0, sizeof written);
    std::memset(allocated, 0, sizeof allocated);
  }

  /// tcgen05.alloc's data side: the lowest free aligned run of `cols`
  /// columns (a power of 2 in [32, 512]), poisoned. Returns the TMEM
  /// address (lane 0); faults if `cols` is invalid or nothing is free.
  uint32_t allocate(uint32_t cols) {
    if (cols < 32 || cols > kTmemCols || (cols & (cols - 1)))
      fault("tmem: alloc of " + std::to_string(cols) +
            " columns: must be a power of 2 in [32, 512]");
    for (uint32_t base = 0; base + cols <= kTmemCols; base += cols) {
      bool free = true;
      for (uint32_t c = base; c < base + cols && free; ++c)
        free = !allocated[c];
      if (!free)
        continue;
      for (uint32_t c = base; c < base + cols; ++c) {
        allocated[c] = true;
        for (uint32_t l = 0; l < kTmemLanes; ++l) {
          cell[l][c] = kPoison;
          written[l][c] = false;
        }
      }
      return base;
    }
    fault("tmem: alloc of " + std::to_string(cols) +
          " columns: no free range (the emulator does not block)");
  }

  /// tcgen05.dealloc's data side: the run must be exactly allocated.
  void deallocate(uint32_t taddr, uint32_t cols) {
    uint32_t base = tmemCol(taddr);
    if (tmemLane(taddr) || cols < 32 || cols > kTmemCols ||
        (cols & (cols - 1)) || base + cols > kTmemCols)
      fault("tmem: dealloc of " + std::to_string(cols) + " columns at 0x" +
            hex32(taddr) + " is malformed");
    for (uint32_t c = base; c < base + cols; ++c) {
      if (!allocated[c])
        fault("tmem: dealloc of column " + std::to_string(c) +
              ", which is not allocated");
      allocated[c] = false;
    }
  }

  /// Faults unless columns [col, col + n) are allocated.
  void checkColumns(uint32_t col, uint32_t n, const std::string &who) const {
    if (col + n > kTmemCols)
      fault(who + "columns " + std::to_string(col) + ".." +
            std::to_string(col + n - 1) + " exceed the 512 columns of TMEM");
    for (uint32_t c = col; c < col + n; ++c)
      if (!allocated[c])
        fault(who + "column " + std::to_string(c) + " is not allocated");
  }

  void write(uint32_t lane, uint32_t col, uint32_t v) {
    cell[lane][col] = v;
    written[lane][col] = true;
  }

  static std::string hex32(uint32_t v) {
    char b[12];
    std::snprintf(b, sizeof b, "%08x", v);
    return b;
  }
};

/// The tcgen05.ld/st forms the kernels use (PTX ISA, "Matrix fragments for
/// shape .32x32b" and ".16x32bx2", and the .pack::16b / .unpack::16b
/// qualifiers; facts 4):
///  - 32x32b.xN: thread t reaches lane lane(taddr) + t, register j column
///    col(taddr) + j.
///  - 32x32b.xN.pack::16b (ld) / .unpack::16b (st): N registers over 2N
///    columns: register j holds the low 16 bits of column 2j in its low
///    half and of column 2j + 1 in its high half (.num counts registers, as
///    ptxas checks). It reads a 16-bit MMA accumulator, which holds one
///    element per column.
///  - 16x32bx2.xN: 16 lanes; thread t reaches lane lane(taddr) + t % 16,
///    register j column col(taddr) + j, plus immHalfSplitoff for t >= 16.
///    It reads an M = 64 accumulator, whose rows fill lanes 0-15 of each
///    32-lane quadrant.
enum class TmemForm : uint32_t {
  S32x32b = 0,
  S32x32bPack16 = 1,
  S16x32bx2 = 2
};

struct TmemAccess {
  TmemForm form = TmemForm::S32x32b;
  uint32_t num = 1;       ///< .num: registers per thread.
  uint32_t halfSplit = 0; ///< immHalfSplitoff (16x32bx2).

  /// The operand the warp's lanes pass alike through a rendezvous.
  uint64_t encode() const {
    return uint64_t(num) | uint64_t(form) << 16 | uint64_t(halfSplit) << 32;
  }
  static TmemAccess decode(uint64_t b) {
    return {TmemForm(uint32_t(b >> 16) & 0xFF), uint32_t(b & 0xFFFF),
            uint32_t(b >> 32)};
  }
  /// Columns each thread reaches.
  uint32_t columns() const {
    return form == TmemForm::S32x32bPack16 ? 2 * num : num;
  }
  const char *shape() const {
    return form == TmemForm::S16x32bx2 ? ".16x32bx2" : ".32x32b";
  }
};

namespace detail {

TP_EMU_OUTLINE void checkLdSt(const Tmem &t, const char *op, int warpInCta,
                              int lane, uint32_t taddr, const TmemAccess &x);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
/// The lane and column checks common to tcgen05.ld/st: warp w of the CTA
/// reaches only lanes 32*(w%4) .. +31, and the warp's common taddr names
/// the first of them (the first or the 17th for the 16-lane shape).
TP_EMU_OUTLINE void checkLdSt(const Tmem &t, const char *op, int warpInCta,
                              int lane, uint32_t taddr, const TmemAccess &x) {
  int n = int(x.num);
  std::string who = std::string("tmem: tcgen05.") + op + x.shape() + ".x" +
                    std::to_string(n) +
                    (x.form == TmemForm::S32x32bPack16
                         ? (op[0] == 'l' ? ".pack::16b" : ".unpack::16b")
                         : "") +
                    " [0x" + Tmem::hex32(taddr) + "] by warp " +
                    std::to_string(warpInCta) + ": ";
  if (n < 1 || n > 128 || (n & (n - 1)))
    fault(who + ".num must be a power of 2 in 1..128");
  if (lane < 0 || lane > 31 || warpInCta < 0)
    fault(who + "bad thread");
  uint32_t base = 32u * uint32_t(warpInCta % 4);
  bool sixteen = x.form == TmemForm::S16x32bx2;
  if (tmemLane(taddr) != base && !(sixteen && tmemLane(taddr) == base + 16))
    fault(who + "lane " + std::to_string(tmemLane(taddr)) + " is not " +
          (sixteen ? "lane 0 or 16 of the warp's quadrant, lanes "
                   : "the first lane of the warp's quadrant, lanes ") +
          std::to_string(base) + ".." + std::to_string(base + 31) +
          " (warp w may access only lanes 32*(w%4)..+31)");
  t.checkColumns(tmemCol(taddr), x.columns(), who);
  if (sixteen)
    t.checkColumns(tmemCol(taddr) + x.halfSplit, uint32_t(n), who);
}
#endif // !TILEPIPE_EMULATOR_EXTERN

/// Where thread `lane` of the warp reaches with access `x` at `taddr`: its
/// TMEM lane and its first column.
inline std::pair<uint32_t, uint32_t> threadCell(uint32_t taddr, int lane,
                                                const TmemAccess &x) {
  if (x.form != TmemForm::S16x32bx2)
    return {tmemLane(taddr) + uint32_t(lane), tmemCol(taddr)};
  return {tmemLane(taddr) + uint32_t(lane % 16),
          tmemCol(taddr) + (lane >= 16 ? x.halfSplit : 0u)};
}

} // namespace detail

TP_EMU_OUTLINE void ld(const Tmem &t, int warpInCta, int lane, uint32_t taddr,
                       const TmemAccess &x, uint32_t *regs);
TP_EMU_OUTLINE void st(Tmem &t, int warpInCta, int lane, uint32_t taddr,
                       const TmemAccess &x, const uint32_t *regs);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
/// tcgen05.ld.sync.aligned.<form>.b32, one thread's part.
TP_EMU_OUTLINE void ld(const Tmem &t, int warpInCta, int lane, uint32_t taddr,
                       const TmemAccess &x, uint32_t *regs) {
  detail::checkLdSt(t, "ld", warpInCta, lane, taddr, x);
  auto [l, c0] = detail::threadCell(taddr, lane, x);
  const uint32_t *row = t.cell[l] + c0;
  if (x.form != TmemForm::S32x32bPack16) {
    std::memcpy(regs, row, sizeof(uint32_t) * x.num);
    return;
  }
  for (uint32_t j = 0; j < x.num; ++j)
    regs[j] = (row[2 * j] & 0xFFFFu) | (row[2 * j + 1] & 0xFFFFu) << 16;
}

/// tcgen05.st.sync.aligned.<form>.b32, one thread's part. .unpack::16b
/// writes each half into the low 16 bits of its column (the high bits are
/// left zero).
TP_EMU_OUTLINE void st(Tmem &t, int warpInCta, int lane, uint32_t taddr,
                       const TmemAccess &x, const uint32_t *regs) {
  detail::checkLdSt(t, "st", warpInCta, lane, taddr, x);
  auto [l, c0] = detail::threadCell(taddr, lane, x);
  for (uint32_t j = 0; j < x.num; ++j) {
    if (x.form != TmemForm::S32x32bPack16) {
      t.write(l, c0 + j, regs[j]);
      continue;
    }
    t.write(l, c0 + 2 * j, regs[j] & 0xFFFFu);
    t.write(l, c0 + 2 * j + 1, regs[j] >> 16);
  }
}
#endif // !TILEPIPE_EMULATOR_EXTERN

/// tcgen05.ld.sync.aligned.32x32b.xN.b32, one thread's part: thread `lane`
/// of the warp reads TMEM lane lane(taddr) + lane, register j from column
/// col(taddr) + j.
inline void ld_32x32b(const Tmem &t, int warpInCta, int lane, uint32_t taddr,
                      int n, uint32_t *regs) {
  ld(t, warpInCta, lane, taddr, {TmemForm::S32x32b, uint32_t(n), 0}, regs);
}

/// tcgen05.st.sync.aligned.32x32b.xN.b32, one thread's part.
inline void st_32x32b(Tmem &t, int warpInCta, int lane, uint32_t taddr, int n,
                      const uint32_t *regs) {
  st(t, warpInCta, lane, taddr, {TmemForm::S32x32b, uint32_t(n), 0}, regs);
}

TP_EMU_OUTLINE void cp(Tmem &t, const Smem &smem, CpShape shape, uint32_t taddr,
                       uint64_t sdesc);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
/// tcgen05.cp.cta_group::1.<shape> [taddr], sdesc. The source is a K-major
/// matrix of core matrices whose rows become TMEM lanes; each row's bytes
/// fill consecutive columns, byte b in column col(taddr) + b/4, bits
/// 8*(b%4) (facts 5: PTX text and CUTLASS UTCCP).
///   128x256b: row r (32 B) -> lane r          128x128b: row r (16 B) -> lane r
///   32x128b.warpx4: row r -> lanes r, r+32, r+64, r+96
///   64x128b.warpx2::02_13: row r -> lanes r, r+64
///   64x128b.warpx2::01_23: row s -> lanes (s%32)+64*(s/32), and +32
/// 4x256b is refused: where its rows land is unresolved.
TP_EMU_OUTLINE void cp(Tmem &t, const Smem &smem, CpShape shape, uint32_t taddr,
                       uint64_t sdesc) {
  std::string who = "tmem: tcgen05.cp [0x" + Tmem::hex32(taddr) + "]: ";
  uint32_t rows, rowBytes, copies, copyStride;
  switch (shape) {
  case CpShape::S128x256b:
    rows = 128, rowBytes = 32, copies = 1, copyStride = 0;
    break;
  case CpShape::S128x128b:
    rows = 128, rowBytes = 16, copies = 1, copyStride = 0;
    break;
  case CpShape::S32x128b_warpx4:
    rows = 32, rowBytes = 16, copies = 4, copyStride = 32;
    break;
  case CpShape::S64x128b_warpx2_02_13:
  case CpShape::S64x128b_warpx2_01_23:
    rows = 64, rowBytes = 16, copies = 2, copyStride = 0;
    break;
  default:
    fault(who + "unsupported: shape .4x256b (its lane mapping is "
                "unresolved)");
  }
  if (tmemLane(taddr) != 0)
    fault(who + "the lane field must be 0 (the shapes span all 128 lanes)");
  uint32_t col0 = tmemCol(taddr);
  t.checkColumns(col0, rowBytes / 4, who);
  SmemDescriptor d = decodeSmemDesc(sdesc, "tcgen05.cp s-desc");
  for (uint32_t r = 0; r < rows; ++r) {
    uint32_t words[8] = {};
    for (uint32_t b = 0; b < rowBytes; b += 16) {
      uint8_t chunk[16];
      std::memcpy(chunk, smem.at(operandAddress(d, Major::K, 1, r, b), 16), 16);
      std::memcpy(reinterpret_cast<uint8_t *>(words) + b, chunk, 16);
    }
    for (uint32_t c = 0; c < copies; ++c) {
      uint32_t lane;
      if (shape == CpShape::S64x128b_warpx2_02_13)
        lane = r + 64 * c;
      else if (shape == CpShape::S64x128b_warpx2_01_23)
        lane = (r % 32) + 64 * (r / 32) + 32 * c;
      else
        lane = r + copyStride * c;
      for (uint32_t w = 0; w < rowBytes / 4; ++w)
        t.write(lane, col0 + w, words[w]);
    }
  }
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu::dp

#endif // TILEPIPE_EMULATOR_TENSOR_MEMORY_H
