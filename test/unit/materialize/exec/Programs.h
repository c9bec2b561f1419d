//===- Programs.h - hand-written stage code for the exec tests -*- C++ -*-===//
//
// A GEMM mainloop in three forms: the original loop, warp-specialized stage
// code (load agent -> two TMA->UMMA pipes -> MMA agent accumulating into a
// UMMA->SIMT pipe slot -> epilogue agent) and peeled single-thread code.
// The bug tests mutate these texts with `replace`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TEST_UNIT_EXEC_PROGRAMS_H
#define TILEPIPE_TEST_UNIT_EXEC_PROGRAMS_H

#include <gtest/gtest.h>
#include <string>

namespace tilepipe::exec::test {

constexpr const char *kTypes = R"(
!da = !tileas.tma_desc<128x64xbf16>
!db = !tileas.tma_desc<256x64xbf16>
!sa = !tileas.smem<128x64xbf16>
!sb = !tileas.smem<256x64xbf16>
!acc = !tileas.tmem<128x256xf32>
!pa = !tileas.pipe<!tileas.smem<128x64xbf16>>
!pb = !tileas.pipe<!tileas.smem<256x64xbf16>>
!pc = !tileas.pipe<!tileas.tmem<128x256xf32>>
)";

/// The sequential loop the schedule was made from.
constexpr const char *kOriginal = R"(
func.func @f(%descA: !da, %descB: !db, %m: index, %n: index, %K: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %acc0 = tileas.alloc_tmem : !acc
  %acc = scf.for %k = %c0 to %K step %c64 iter_args(%accIn = %acc0) -> (!acc) {
    %a = tileas.tma_load %descA[%m, %k] : !da -> !sa
    %b = tileas.tma_load %descB[%n, %k] : !db -> !sb
    %d = tileas.umma %a, %b, %accIn {accumulate} : !sa, !sb, !acc -> !acc
    scf.yield %d : !acc
  }
  %r = tileas.tmem_load %acc : !acc -> tensor<128x256xf32>
  %o = tileas.cvt %r : tensor<128x256xf32> -> tensor<128x256xbf16>
  return
}
)";

/// Warp-specialized: load, mma and epilogue agents.
constexpr const char *kSpecialized = R"(
func.func @f(%descA: !da, %descB: !db, %m: index, %n: index, %K: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pa = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 16384 : i64} : !pa
  %pb = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 32768 : i64} : !pb
  %pc = tileas.pipe.create {depth = 1 : i32, producer = "umma", consumers = ["simt"]} : !pc
  tileas.agent {role = "load", warps = 1 : i32} {
    scf.for %k = %c0 to %K step %c64 {
      %off = arith.subi %k, %c0 : index
      %it = arith.divui %off, %c64 : index
      %sa = tileas.pipe.producer_acquire %pa, %it : !pa -> !sa
      %a = tileas.tma_load %descA[%m, %k] into %sa : !da -> !sa
      tileas.pipe.producer_commit %pa, %it, %a {via = "expect_tx"} : !pa
      %sb = tileas.pipe.producer_acquire %pb, %it : !pb -> !sb
      %b = tileas.tma_load %descB[%n, %k] into %sb : !db -> !sb
      tileas.pipe.producer_commit %pb, %it, %b {via = "expect_tx"} : !pb
    }
    tileas.agent_yield
  }
  tileas.agent {role = "mma", warps = 1 : i32} {
    %acc = tileas.pipe.producer_acquire %pc, %c0 : !pc -> !acc
    scf.for %k = %c0 to %K step %c64 {
      %off = arith.subi %k, %c0 : index
      %it = arith.divui %off, %c64 : index
      %wa = tileas.pipe.consumer_wait %pa, %it : !pa -> !sa
      %wb = tileas.pipe.consumer_wait %pb, %it : !pb -> !sb
      %d = tileas.umma %wa, %wb, %acc {accumulate} : !sa, !sb, !acc -> !acc
      tileas.pipe.consumer_release %pb, %it {via = "tcgen05_commit"} : !pb
      tileas.pipe.consumer_release %pa, %it {via = "tcgen05_commit"} : !pa
    }
    tileas.pipe.producer_commit %pc, %c0, %acc {via = "tcgen05_commit"} : !pc
    tileas.agent_yield
  }
  tileas.agent {role = "epilogue", warps = 4 : i32} {
    %w = tileas.pipe.consumer_wait %pc, %c0 : !pc -> !acc
    tileas.fence "tcgen05_after"
    %r = tileas.tmem_load %w : !acc -> tensor<128x256xf32>
    tileas.fence "tcgen05_wait_ld"
    tileas.pipe.consumer_release %pc, %c0 {via = "arrive"} : !pc
    %o = tileas.cvt %r : tensor<128x256xf32> -> tensor<128x256xbf16>
    tileas.agent_yield
  }
  return
}
)";

/// Peeled (unspecialized): one thread; iteration i+1 is loaded while
/// iteration i is multiplied.
constexpr const char *kPeeled = R"(
func.func @f(%descA: !da, %descB: !db, %m: index, %n: index, %K: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %span = arith.subi %K, %c0 : index
  %N = arith.ceildivui %span, %c64 : index
  %pa = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 16384 : i64} : !pa
  %pb = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 32768 : i64} : !pb
  %pc = tileas.pipe.create {depth = 1 : i32, producer = "umma", consumers = ["simt"]} : !pc
  %acc = tileas.pipe.producer_acquire %pc, %c0 : !pc -> !acc
  %any = arith.cmpi ult, %c0, %N : index
  scf.if %any {
    %sa = tileas.pipe.producer_acquire %pa, %c0 : !pa -> !sa
    %a = tileas.tma_load %descA[%m, %c0] into %sa : !da -> !sa
    tileas.pipe.producer_commit %pa, %c0, %a {via = "expect_tx"} : !pa
    %sb = tileas.pipe.producer_acquire %pb, %c0 : !pb -> !sb
    %b = tileas.tma_load %descB[%n, %c0] into %sb : !db -> !sb
    tileas.pipe.producer_commit %pb, %c0, %b {via = "expect_tx"} : !pb
  }
  scf.for %i = %c0 to %N step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %more = arith.cmpi ult, %i1, %N : index
    scf.if %more {
      %k1 = arith.muli %i1, %c64 : index
      %sa = tileas.pipe.producer_acquire %pa, %i1 : !pa -> !sa
      %a = tileas.tma_load %descA[%m, %k1] into %sa : !da -> !sa
      tileas.pipe.producer_commit %pa, %i1, %a {via = "expect_tx"} : !pa
      %sb = tileas.pipe.producer_acquire %pb, %i1 : !pb -> !sb
      %b = tileas.tma_load %descB[%n, %k1] into %sb : !db -> !sb
      tileas.pipe.producer_commit %pb, %i1, %b {via = "expect_tx"} : !pb
    }
    %wa = tileas.pipe.consumer_wait %pa, %i : !pa -> !sa
    %wb = tileas.pipe.consumer_wait %pb, %i : !pb -> !sb
    %d = tileas.umma %wa, %wb, %acc {accumulate} : !sa, !sb, !acc -> !acc
    tileas.pipe.consumer_release %pb, %i {via = "tcgen05_commit"} : !pb
    tileas.pipe.consumer_release %pa, %i {via = "tcgen05_commit"} : !pa
  }
  tileas.pipe.producer_commit %pc, %c0, %acc {via = "tcgen05_commit"} : !pc
  %w = tileas.pipe.consumer_wait %pc, %c0 : !pc -> !acc
  tileas.fence "tcgen05_after"
  %r = tileas.tmem_load %w : !acc -> tensor<128x256xf32>
  tileas.fence "tcgen05_wait_ld"
  tileas.pipe.consumer_release %pc, %c0 {via = "arrive"} : !pc
  %o = tileas.cvt %r : tensor<128x256xf32> -> tensor<128x256xbf16>
  return
}
)";

/// `text` with its one occurrence of `from` replaced by `to`.
inline std::string replace(std::string text, const std::string &from,
                           const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "no '" << from << "' in the program";
  if (at != std::string::npos) {
    EXPECT_EQ(text.find(from, at + 1), std::string::npos)
        << "'" << from << "' occurs more than once";
    text.replace(at, from.size(), to);
  }
  return text;
}

inline std::string program(const std::string &body) { return kTypes + body; }

} // namespace tilepipe::exec::test

#endif // TILEPIPE_TEST_UNIT_EXEC_PROGRAMS_H
