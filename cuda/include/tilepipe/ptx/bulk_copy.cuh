//===- ptx/bulk_copy.cuh - cp.async.bulk.tensor, groups --------*- CUDA -*-===//
//
// Coordinates are in elements, innermost dimension first, as the
// instruction takes them; `map` is the generic address of the tensor map (a
// __grid_constant__ kernel parameter).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_PTX_BULK_COPY_CUH
#define TILEPIPE_PTX_BULK_COPY_CUH

#include "tilepipe/config.cuh"

namespace tp::ptx {

/// ...tensor.<Rank>d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
/// [dst], [map, {c}], [bar]: asynchronous; the box's bytes complete on bar.
template <int Rank>
TP_DEVICE void tma_load(uint32_t dst, const CUtensorMap *map,
                        const int32_t (&c)[Rank], uint32_t bar) {
  static_assert(Rank >= 1 && Rank <= 5, "TMA rank 1..5");
#if TP_EMULATOR
  cpu::tma_load(dst, map, Rank, c, bar);
#else
  uint64_t m = reinterpret_cast<uint64_t>(map);
  if constexpr (Rank == 1)
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile"
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];" ::"r"(
                     dst),
                 "l"(m), "r"(c[0]), "r"(bar)
                 : "memory");
  else if constexpr (Rank == 2)
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::
                     "r"(dst),
                 "l"(m), "r"(c[0]), "r"(c[1]), "r"(bar)
                 : "memory");
  else if constexpr (Rank == 3)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile"
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], "
                 "[%5];" ::"r"(dst),
                 "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar)
                 : "memory");
  else if constexpr (Rank == 4)
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile"
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], "
                 "[%6];" ::"r"(dst),
                 "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar)
                 : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile"
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, "
                 "%6}], [%7];" ::"r"(dst),
                 "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]),
                 "r"(c[4]), "r"(bar)
                 : "memory");
#endif
}

/// ...tensor.<Rank>d.global.shared::cta.tile.bulk_group [map, {c}], [src].
template <int Rank>
TP_DEVICE void tma_store(const CUtensorMap *map, const int32_t (&c)[Rank],
                         uint32_t src) {
  static_assert(Rank >= 1 && Rank <= 5, "TMA rank 1..5");
#if TP_EMULATOR
  cpu::tma_store(map, Rank, c, src);
#else
  uint64_t m = reinterpret_cast<uint64_t>(map);
  if constexpr (Rank == 1)
    asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group"
                 " [%0, {%2}], [%1];" ::"l"(m),
                 "r"(src), "r"(c[0])
                 : "memory");
  else if constexpr (Rank == 2)
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
                 " [%0, {%2, %3}], [%1];" ::"l"(m),
                 "r"(src), "r"(c[0]), "r"(c[1])
                 : "memory");
  else if constexpr (Rank == 3)
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group"
                 " [%0, {%2, %3, %4}], [%1];" ::"l"(m),
                 "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2])
                 : "memory");
  else if constexpr (Rank == 4)
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group"
                 " [%0, {%2, %3, %4, %5}], [%1];" ::"l"(m),
                 "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
                 : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group"
                 " [%0, {%2, %3, %4, %5, %6}], [%1];" ::"l"(m),
                 "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]),
                 "r"(c[4])
                 : "memory");
#endif
}

/// cp.async.bulk.commit_group.
TP_DEVICE void bulk_commit_group() {
#if TP_EMULATOR
  cpu::bulk_commit_group();
#else
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#endif
}

/// cp.async.bulk.wait_group.read N: the sources of all but the newest N
/// groups may be reused.
template <int N> TP_DEVICE void bulk_wait_group_read() {
#if TP_EMULATOR
  cpu::bulk_wait_group_read(N);
#else
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
#endif
}

/// cp.async.bulk.wait_group N: all but the newest N groups have completed.
template <int N> TP_DEVICE void bulk_wait_group() {
#if TP_EMULATOR
  cpu::bulk_wait_group(N);
#else
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
#endif
}

} // namespace tp::ptx

#endif // TILEPIPE_PTX_BULK_COPY_CUH
