//===- RuntimeTest.cpp - the CPU emulator's execution model -----*- C++ -*-===//
//
// Small kernels, written as lambdas over the atoms, run by tp::cpu::launch:
// thread identity and shared memory, warp collectives, named barriers,
// mbarrier phases and tx-counts, the asynchronous units and their orderings,
// TMEM allocation, and the reports. Each ordering bug is shown to be caught
// (wrong numbers, a fault or a deadlock) for some seed, and each correct
// kernel to pass for every seed tried.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/emulator/prelude.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tilepipe/emulator/driver.h"

// As the translator emits it: dynamic shared memory declared at block scope
// of a kernel in the global namespace (where the declaration names the
// emulator's buffer).
static void dynamicSmemKernel(int &poisoned) {
  extern __shared__ __align__(1024) unsigned char tp_smem_raw[];
  constexpr uint32_t kBase = tp::cpu::rt::kSmemWindow;
  EXPECT_EQ(tp::cpu::generic_to_shared(tp_smem_raw), kBase);
  EXPECT_EQ(uintptr_t(tp_smem_raw) % 1024, 0u);
  EXPECT_EQ(tp::cpu::shared_to_generic(kBase + 100), tp_smem_raw + 100);
  float *f = reinterpret_cast<float *>(tp_smem_raw) + threadIdx.x;
  if (std::isnan(*f))
    ++poisoned;
  __syncthreads();
  *f = 1.0f; // the next CTA must not see it
}

namespace {

using tp::cpu::LaunchOptions;
using tp::cpu::LaunchResult;
using tp::cpu::MmaKind;
using tp::cpu::Policy;
using tp::cpu::SrcLoc;

/// Shared address of dynamic shared memory byte 0.
constexpr uint32_t kSmem = tp::cpu::rt::kSmemWindow;

LaunchResult run(dim3 grid, dim3 block, size_t smem, uint64_t seed,
                 std::function<void()> body,
                 Policy policy = Policy::Adversarial,
                 uint64_t maxSteps = 2'000'000) {
  LaunchOptions o;
  o.seed = seed;
  o.policy = policy;
  o.maxSteps = maxSteps;
  return tp::cpu::launch(grid, block, smem, o, std::move(body));
}

template <class T> T &at(uint32_t addr) {
  return *static_cast<T *>(tp::cpu::shared_to_generic(addr));
}

unsigned warp() { return threadIdx.x / 32; }
unsigned lane() { return threadIdx.x % 32; }

void waitParity(uint32_t bar, uint32_t parity, SrcLoc loc = TP_CPU_HERE) {
  tp::cpu::set_loc(loc);
  while (!tp::cpu::mbarrier_try_wait_parity(bar, parity)) {
  }
}

void expectContains(const std::string &text, const std::string &part) {
  EXPECT_NE(text.find(part), std::string::npos)
      << "expected \"" << part << "\" in:\n"
      << text;
}

std::string line(int n) { return __FILE__ ":" + std::to_string(n); }

//===----------------------------------------------------------------------===//
// Threads, CTAs, shared memory
//===----------------------------------------------------------------------===//

TEST(CpuEmuRuntime, EveryThreadOfEveryCtaRunsWithItsIndices) {
  std::vector<int> seen(3 * 2 * 96, 0);
  LaunchResult r = run(dim3(3, 2), dim3(32, 3), 1024, 7, [&] {
    EXPECT_EQ(blockDim.x, 32u);
    EXPECT_EQ(blockDim.y, 3u);
    EXPECT_EQ(gridDim.x, 3u);
    unsigned cta = blockIdx.y * 3 + blockIdx.x;
    unsigned t = threadIdx.y * 32 + threadIdx.x;
    tp::cpu::syncthreads(); // a switch point between the reads
    EXPECT_EQ(threadIdx.y * 32 + threadIdx.x, t);
    ++seen[cta * 96 + t];
  });
  ASSERT_TRUE(r.ok) << r.report;
  for (int s : seen)
    EXPECT_EQ(s, 1);
}

TEST(CpuEmuRuntime, SharedMemoryIsPoisonedPerCtaAndWindowedAt0x400) {
  int poisoned = 0;
  LaunchResult r =
      run(dim3(2), dim3(32), 4096, 1, [&] { dynamicSmemKernel(poisoned); });
  ASSERT_TRUE(r.ok) << r.report;
  EXPECT_EQ(poisoned, 64);
}

TEST(CpuEmuRuntime, AddressesOutsideTheWindowFault) {
  LaunchResult r = run(dim3(1), dim3(32), 256, 1, [&] {
    if (lane() == 3)
      tp::cpu::mbarrier_init(kSmem + 256, 1);
  });
  ASSERT_FALSE(r.ok);
  expectContains(r.report, "outside the CTA's shared memory");
  expectContains(r.report, "warp 0 lane 3");
}

TEST(CpuEmuRuntime, SameSeedSameRunOtherSeedOtherInterleaving) {
  auto order = [](uint64_t seed) {
    std::vector<unsigned> o;
    LaunchResult r = run(dim3(1), dim3(128), 256, seed, [&] {
      for (int i = 0; i < 3; ++i) {
        tp::cpu::fence_proxy_async(); // a switch point
        o.push_back(threadIdx.x);
      }
    });
    EXPECT_TRUE(r.ok) << r.report;
    return o;
  };
  EXPECT_EQ(order(5), order(5));
  EXPECT_NE(order(5), order(6));
}

//===----------------------------------------------------------------------===//
// Warp collectives
//===----------------------------------------------------------------------===//

TEST(CpuEmuRuntime, ElectPicksOneLaneTheSameForEveryLaneAndCall) {
  std::set<unsigned> leaders;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    unsigned elected[2][2] = {{99, 99}, {99, 99}}; // [warp][call]
    int count[2][2] = {};
    LaunchResult r = run(dim3(1), dim3(64), 256, seed, [&] {
      for (int call = 0; call < 2; ++call)
        if (tp::cpu::elect_sync(0xFFFFFFFFu)) {
          ++count[warp()][call];
          elected[warp()][call] = lane();
        }
    });
    ASSERT_TRUE(r.ok) << r.report;
    for (int w = 0; w < 2; ++w) {
      EXPECT_EQ(count[w][0], 1);
      EXPECT_EQ(count[w][1], 1);
      EXPECT_EQ(elected[w][0], elected[w][1]) << "same mask, same leader";
    }
    leaders.insert(elected[0][0]);
  }
  EXPECT_GT(leaders.size(), 1u) << "the leader must depend on the seed";
}

TEST(CpuEmuRuntime, ElectWithinAPartialMask) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    unsigned leader = 99;
    LaunchResult r = run(dim3(1), dim3(32), 256, seed, [&] {
      if (lane() >= 8 && lane() < 12 && tp::cpu::elect_sync(0xF00u))
        leader = lane();
    });
    ASSERT_TRUE(r.ok) << r.report;
    EXPECT_GE(leader, 8u);
    EXPECT_LT(leader, 12u);
  }
}

TEST(CpuEmuRuntime, ShuffleReadsTheSourceLane) {
  std::vector<int> got(64);
  LaunchResult r = run(dim3(1), dim3(64), 256, 3, [&] {
    int v = int(threadIdx.x) * 10;
    int rotated = __shfl_sync(0xFFFFFFFFu, v, int(lane() + 1) % 32);
    int x = __shfl_xor_sync(0xFFFFFFFFu, v, 1);
    double d = __shfl_sync(0xFFFFFFFFu, double(v) + 0.5, 5);
    got[threadIdx.x] = rotated;
    EXPECT_EQ(x, int(threadIdx.x ^ 1) * 10);
    EXPECT_EQ(d, double(warp() * 32 + 5) * 10 + 0.5);
  });
  ASSERT_TRUE(r.ok) << r.report;
  for (unsigned t = 0; t < 64; ++t)
    EXPECT_EQ(got[t], int((t / 32) * 32 + (t % 32 + 1) % 32) * 10);
}

TEST(CpuEmuRuntime, ShuffleFromALaneOutsideTheMaskFaults) {
  LaunchResult r = run(dim3(1), dim3(32), 256, 1, [&] {
    if (lane() < 16)
      tp::cpu::shfl_idx_sync(0xFFFFu, 1, 20);
  });
  ASSERT_FALSE(r.ok);
  expectContains(r.report, "reads lane 20, which is not in membermask");
}

TEST(CpuEmuRuntime, DivergedWarpCollectivesFault) {
  LaunchResult r = run(dim3(1), dim3(32), 256, 2, [&] {
    if (lane() < 16)
      tp::cpu::syncwarp(0xFFFFFFFFu);
    else
      tp::cpu::elect_sync(0xFFFFFFFFu);
  });
  ASSERT_FALSE(r.ok);
  expectContains(r.report, "the warp diverged");
}

TEST(CpuEmuRuntime, APartialLastWarpTakesPartWithTheLanesItHas) {
  int leaders = 0, sum = 0;
  LaunchResult r = run(dim3(1), dim3(48), 256, 5, [&] {
    __syncthreads();
    if (tp::cpu::elect_sync(0xFFFFFFFFu))
      ++leaders;
    int v = __shfl_sync(0xFFFFFFFFu, int(lane()), 15);
    if (warp() == 1)
      sum += v;
    tp::cpu::bar_sync(1, 64); // two warps, one of them partial
  });
  ASSERT_TRUE(r.ok) << r.report;
  EXPECT_EQ(leaders, 2);
  EXPECT_EQ(sum, 16 * 15);
}

TEST(CpuEmuRuntime, AMaskNamingAnExitedLaneFaults) {
  LaunchResult r = run(dim3(1), dim3(32), 256, 1, [&] {
    if (lane() == 7)
      return;
    for (int i = 0; i < 3; ++i)
      tp::cpu::fence_proxy_async(); // let lane 7 exit first
    tp::cpu::syncwarp(0xFFFFFFFFu);
  });
  ASSERT_FALSE(r.ok);
  expectContains(r.report, "0x00000080 that have exited");
}

//===----------------------------------------------------------------------===//
// Named barriers
//===----------------------------------------------------------------------===//

TEST(CpuEmuRuntime, ProducerArriveConsumerSyncOnNamedBarriers) {
  // Warps 0-1 produce into a one-value mailbox, warps 2-3 consume; roles
  // reverse on barrier 2 (PTX's own producer/consumer example).
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    std::vector<int> sums(128, 0);
    LaunchResult r = run(dim3(1), dim3(128), 256, seed, [&] {
      int &box = at<int>(kSmem);
      bool producer = warp() < 2;
      if (!producer)
        tp::cpu::bar_arrive(2, 128); // the mailbox starts empty
      for (int i = 1; i <= 10; ++i) {
        if (producer) {
          tp::cpu::bar_sync(2, 128); // wait until consumed
          if (threadIdx.x == 0)
            box = i;
          tp::cpu::bar_arrive(1, 128); // announce
        } else {
          tp::cpu::bar_sync(1, 128);
          sums[threadIdx.x] += box;
          tp::cpu::bar_arrive(2, 128);
        }
      }
      if (producer)
        tp::cpu::bar_sync(2, 128); // the consumers' last arrive
    });
    ASSERT_TRUE(r.ok) << r.report;
    for (unsigned t = 64; t < 128; ++t)
      ASSERT_EQ(sums[t], 55) << "seed " << seed << " thread " << t;
  }
}

TEST(CpuEmuRuntime, NamedBarrierFaults) {
  auto fault = [](std::function<void()> body) {
    LaunchResult r = run(dim3(1), dim3(128), 256, 1, std::move(body));
    EXPECT_FALSE(r.ok);
    return r.report;
  };
  expectContains(fault([] { tp::cpu::bar_sync(16, 128); }),
                 "barrier ids are 0..15");
  expectContains(fault([] { tp::cpu::bar_sync(1, 48); }),
                 "positive multiple of the warp size");
  expectContains(fault([] { tp::cpu::bar_sync(1, 256); }),
                 "can never complete");
  expectContains(fault([] { tp::cpu::bar_sync(1, warp() < 2 ? 128 : 96); }),
                 "all participants of a barrier must pass the same count");
  expectContains(fault([] {
                   if (warp() == 0) {
                     tp::cpu::bar_arrive(3, 64);
                     tp::cpu::bar_arrive(3, 64);
                   }
                 }),
                 "arrives a second time before the barrier completed");
}

TEST(CpuEmuRuntime, SyncthreadsWithAMissingWarpDeadlocksWithAReport) {
  int syncLine = 0;
  LaunchResult r = run(dim3(1), dim3(96), 256, 4, [&] {
    if (warp() == 2)
      return;
    syncLine = __LINE__ + 1;
    __syncthreads();
  });
  ASSERT_FALSE(r.ok);
  expectContains(r.report, "deadlock");
  expectContains(r.report, "bar.sync 0, 96: 2 of 3 warps arrived (warps 0,1)");
  expectContains(r.report, line(syncLine));
  expectContains(r.report, "warps 0-1, lanes 0-31: bar.sync");
  expectContains(r.report, "warp 2, lanes 0-31: exited");
}

TEST(CpuEmuRuntime, ExitedLanesDoNotHoldUpAlignedBarriers) {
  LaunchResult r = run(dim3(1), dim3(64), 256, 9, [&] {
    if (lane() >= 16)
      return;
    __syncthreads();
  });
  EXPECT_TRUE(r.ok) << r.report;
}

//===----------------------------------------------------------------------===//
// mbarrier
//===----------------------------------------------------------------------===//

tp::cpu::rt::MBarrier &state(uint32_t bar) {
  return tp::cpu::rt::current().mbars.at(bar);
}

TEST(CpuEmuRuntime, MBarrierPhasesAndParity) {
  LaunchResult r = run(dim3(1), dim3(32), 256, 1, [&] {
    if (lane() != 0)
      return;
    uint32_t bar = kSmem;
    tp::cpu::mbarrier_init(bar, 2);
    EXPECT_EQ(state(bar).phase, 0u);
    EXPECT_EQ(state(bar).pending, 2);
    waitParity(bar, 1); // the phase before the first counts as complete
    tp::cpu::mbarrier_arrive(bar);
    EXPECT_EQ(state(bar).pending, 1);
    tp::cpu::mbarrier_arrive(bar);
    EXPECT_EQ(state(bar).phase, 1u);
    EXPECT_EQ(state(bar).pending, 2);
    waitParity(bar, 0);
    tp::cpu::mbarrier_expect_tx(bar, 100);
    tp::cpu::mbarrier_arrive(bar);
    tp::cpu::mbarrier_arrive(bar);
    EXPECT_EQ(state(bar).phase, 1u) << "the tx-count holds the phase";
    EXPECT_EQ(state(bar).pending, 0);
    EXPECT_EQ(state(bar).tx, 100);
  });
  ASSERT_TRUE(r.ok) << r.report;
}

TEST(CpuEmuRuntime, TryWaitBlocksUntilThePhaseCompletes) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    int flag = 0, seenFlag = -1;
    LaunchResult r = run(dim3(1), dim3(64), 256, seed, [&] {
      uint32_t bar = kSmem;
      if (threadIdx.x == 0)
        tp::cpu::mbarrier_init(bar, 1);
      __syncthreads();
      if (threadIdx.x == 0) {
        waitParity(bar, 0);
        seenFlag = flag;
      } else if (threadIdx.x == 32) {
        for (int i = 0; i < 5; ++i)
          tp::cpu::fence_proxy_async(); // let the waiter run first
        flag = 1;
        tp::cpu::mbarrier_arrive(bar);
      }
    });
    ASSERT_TRUE(r.ok) << r.report;
    EXPECT_EQ(seenFlag, 1) << "seed " << seed;
  }
}

//===----------------------------------------------------------------------===//
// TMA helpers: a float matrix in host memory and its tensor map
//===----------------------------------------------------------------------===//

struct Matrix {
  std::vector<float> data;
  CUtensorMap map;

  /// rows x cols floats, element (r, c) = r * cols + c + 1; boxes of
  /// boxRows x boxCols.
  Matrix(uint32_t rows, uint32_t cols, uint32_t boxRows, uint32_t boxCols)
      : data(size_t(rows) * cols) {
    for (size_t i = 0; i < data.size(); ++i)
      data[i] = float(i + 1);
    cuuint64_t dims[2] = {cols, rows};
    cuuint64_t strides[1] = {cols * sizeof(float)};
    cuuint32_t box[2] = {boxCols, boxRows};
    cuuint32_t es[2] = {1, 1};
    CUresult e = tp::cpu::drv::cuTensorMapEncodeTiled(
        &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, data.data(), dims, strides,
        box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
        CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    EXPECT_EQ(e, CUDA_SUCCESS) << tp::cpu::drv::lastEncodeError();
  }
};

void tmaLoad2d(uint32_t dst, const CUtensorMap &map, int32_t c0, int32_t c1,
               uint32_t bar) {
  int32_t coords[2] = {c0, c1};
  tp::cpu::tma_load(dst, &map, 2, coords, bar);
}

TEST(CpuEmuRuntime, TxCountMayGoNegativeWhenTheCopyLandsFirst) {
  Matrix m(8, 8, 8, 8); // one 256-byte box
  LaunchResult r = run(
      dim3(1), dim3(32), 1024, 1,
      [&] {
        if (lane() != 0)
          return;
        uint32_t bar = kSmem + 512;
        tp::cpu::mbarrier_init(bar, 1);
        // Eager: the copy completes before this thread runs again.
        tmaLoad2d(kSmem, m.map, 0, 0, bar);
        EXPECT_EQ(state(bar).tx, -256);
        EXPECT_EQ(state(bar).phase, 0u);
        tp::cpu::mbarrier_arrive_expect_tx(bar, 256);
        EXPECT_EQ(state(bar).phase, 1u);
        EXPECT_EQ(at<float>(kSmem + 4 * 9), 10.0f);
      },
      Policy::Eager);
  ASSERT_TRUE(r.ok) << r.report;
}

TEST(CpuEmuRuntime, ExpectTxBeforeTheCopyHoldsThePhase) {
  Matrix m(8, 8, 8, 8);
  LaunchResult r = run(
      dim3(1), dim3(32), 1024, 1,
      [&] {
        if (lane() != 0)
          return;
        uint32_t bar = kSmem + 512;
        tp::cpu::mbarrier_init(bar, 1);
        tp::cpu::mbarrier_arrive_expect_tx(bar, 256);
        // Lazy: the copy completes only once every thread waits.
        tmaLoad2d(kSmem, m.map, 0, 0, bar);
        EXPECT_EQ(state(bar).pending, 0);
        EXPECT_EQ(state(bar).tx, 256);
        waitParity(bar, 0);
        EXPECT_EQ(state(bar).tx, 0);
        EXPECT_EQ(at<float>(kSmem + 4 * 63), 64.0f);
      },
      Policy::Lazy);
  ASSERT_TRUE(r.ok) << r.report;
}

TEST(CpuEmuRuntime, MBarrierFaults) {
  auto fault = [](std::function<void()> body) {
    LaunchResult r = run(dim3(1), dim3(32), 256, 1, [&] {
      if (lane() == 0)
        body();
    });
    EXPECT_FALSE(r.ok);
    return r.report;
  };
  uint32_t bar = kSmem + 8;
  expectContains(fault([&] { waitParity(bar, 0); }),
                 "no mbarrier was initialised at 0x408");
  expectContains(fault([&] { tp::cpu::mbarrier_arrive(bar); }),
                 "no mbarrier was initialised");
  expectContains(fault([&] {
                   tp::cpu::mbarrier_init(bar, 1);
                   tp::cpu::mbarrier_init(bar, 1);
                 }),
                 "already a valid mbarrier object");
  expectContains(fault([&] { tp::cpu::mbarrier_init(bar, 0); }),
                 "outside [1, 2^20 - 1]");
  expectContains(fault([&] {
                   tp::cpu::mbarrier_init(bar, 1);
                   tp::cpu::mbarrier_arrive_expect_tx(bar, 64);
                   tp::cpu::mbarrier_arrive(bar); // pending is already 0
                 }),
                 "over-arrival");
  expectContains(fault([&] {
                   tp::cpu::mbarrier_init(bar, 1);
                   at<uint64_t>(bar) = 0; // a generic store over it
                   tp::cpu::mbarrier_arrive(bar);
                 }),
                 "was overwritten since its mbarrier.init");
  expectContains(fault([&] {
                   tp::cpu::mbarrier_init(bar, 1);
                   tp::cpu::mbarrier_expect_tx(bar, 1u << 20);
                 }),
                 "above 2^20 - 1");
}

TEST(CpuEmuRuntime, AParityWaitTwoPhasesStaleFaults) {
  LaunchResult r = run(dim3(1), dim3(64), 256, 1, [&] {
    uint32_t bar = kSmem;
    if (threadIdx.x == 0)
      tp::cpu::mbarrier_init(bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
      waitParity(bar, 1); // sees the virtual phase -1
      tp::cpu::bar_sync(1, 64);
      tp::cpu::bar_sync(1, 64);
      waitParity(bar, 0); // phase 0: but phases 0 and 1 are complete
    } else if (threadIdx.x == 32) {
      tp::cpu::bar_sync(1, 64);
      tp::cpu::mbarrier_arrive(bar); // phase 0
      tp::cpu::mbarrier_arrive(bar); // phase 1
      tp::cpu::bar_sync(1, 64);
    }
  });
  ASSERT_FALSE(r.ok);
  expectContains(r.report, "this one is stale");
  expectContains(r.report, "warp 0 lane 0");
}

// A ping-pong copy skips the phases the other copy waits for: told the phase
// it waits for (phase 2, after phases 0 and 1 it never waited on), its wait
// is not stale; told phase 0 there, it is.
LaunchResult skipPhases(int64_t toldPhase) {
  return run(dim3(1), dim3(64), 256, 1, [&] {
    uint32_t bar = kSmem;
    if (threadIdx.x == 0)
      tp::cpu::mbarrier_init(bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
      tp::cpu::bar_sync(1, 64);
      tp::cpu::mbarrier_wait_for_phase(bar, toldPhase);
      waitParity(bar, uint32_t(toldPhase & 1));
    } else if (threadIdx.x == 32) {
      tp::cpu::mbarrier_arrive(bar); // phase 0
      tp::cpu::mbarrier_arrive(bar); // phase 1
      tp::cpu::bar_sync(1, 64);
      tp::cpu::mbarrier_arrive(bar); // phase 2
    }
  });
}

TEST(CpuEmuRuntime, AParityWaitToldItsPhaseSkipsOthers) {
  EXPECT_TRUE(skipPhases(2).ok) << skipPhases(2).report;
  LaunchResult stale = skipPhases(0);
  ASSERT_FALSE(stale.ok);
  expectContains(stale.report, "this one is stale");
}

//===----------------------------------------------------------------------===//
// A two-stage TMA ring: producer warp 0, consumer warp 1
//===----------------------------------------------------------------------===//

enum class RingBug { None, NoConsumerWait, WrongProducerParity };

struct RingResult {
  LaunchResult launch;
  int mismatches = 0;
  int waitLine = 0;
};

/// Warp 0 loads 8x8 float tiles k = 0..K-1 (rows 8k..8k+7 of the matrix)
/// into two slots; warp 1 checks every element of each slot.
RingResult ringRun(uint64_t seed, RingBug bug, Policy policy) {
  constexpr int K = 12, kStages = 2;
  constexpr uint32_t kSlotBytes = 256;
  static Matrix m(8 * K, 8, 8, 8);
  RingResult res;
  constexpr uint32_t full = kSmem + kStages * kSlotBytes;
  constexpr uint32_t empty = full + 8 * kStages;
  res.launch = run(
      dim3(1), dim3(64), 1024, seed,
      [&] {
        if (threadIdx.x == 0) {
          for (int s = 0; s < kStages; ++s) {
            tp::cpu::mbarrier_init(full + 8 * s, 1);
            tp::cpu::mbarrier_init(empty + 8 * s, 1);
          }
          tp::cpu::name_shared(full, 8 * kStages, "full");
          tp::cpu::name_shared(empty, 8 * kStages, "empty");
          tp::cpu::fence_mbarrier_init();
        }
        __syncthreads();
        if (warp() == 0) {
          bool leader = tp::cpu::elect_sync(0xFFFFFFFFu);
          for (int k = 0; k < K; ++k) {
            uint32_t s = k % kStages, round = k / kStages;
            uint32_t parity = (round & 1) ^ 1;
            if (bug == RingBug::WrongProducerParity)
              parity = round & 1;
            res.waitLine = __LINE__ + 1;
            waitParity(empty + 8 * s, parity);
            if (leader) {
              tp::cpu::mbarrier_arrive_expect_tx(full + 8 * s, kSlotBytes);
              tmaLoad2d(kSmem + s * kSlotBytes, m.map, 0, 8 * k, full + 8 * s);
            }
          }
        } else {
          for (int k = 0; k < K; ++k) {
            uint32_t s = k % kStages, round = k / kStages;
            if (bug != RingBug::NoConsumerWait)
              waitParity(full + 8 * s, round & 1);
            for (uint32_t e = lane(); e < 64; e += 32) {
              float want = float(64 * k + e + 1);
              if (at<float>(kSmem + s * kSlotBytes + 4 * e) != want)
                ++res.mismatches;
            }
            __syncwarp();
            if (lane() == 0)
              tp::cpu::mbarrier_arrive(empty + 8 * s);
          }
        }
      },
      policy);
  return res;
}

TEST(CpuEmuRuntime, CorrectRingPassesForEverySeed) {
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    RingResult r = ringRun(seed, RingBug::None, Policy::Adversarial);
    ASSERT_TRUE(r.launch.ok) << "seed " << seed << "\n" << r.launch.report;
    ASSERT_EQ(r.mismatches, 0) << "seed " << seed;
  }
  for (Policy p : {Policy::Eager, Policy::Lazy, Policy::Random}) {
    RingResult r = ringRun(3, RingBug::None, p);
    ASSERT_TRUE(r.launch.ok) << r.launch.report;
    ASSERT_EQ(r.mismatches, 0);
  }
}

TEST(CpuEmuRuntime, RingWithoutTheConsumerWaitReadsWrongDataForSomeSeed) {
  int wrong = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    RingResult r = ringRun(seed, RingBug::NoConsumerWait, Policy::Adversarial);
    wrong += r.mismatches > 0;
  }
  EXPECT_GT(wrong, 0);
}

TEST(CpuEmuRuntime, RingWithTheWrongParityDeadlocksAtTheWait) {
  RingResult r = ringRun(1, RingBug::WrongProducerParity, Policy::Adversarial);
  ASSERT_FALSE(r.launch.ok);
  const std::string &t = r.launch.report;
  expectContains(t, "deadlock in CTA (0,0,0)");
  expectContains(t, "every thread is blocked");
  expectContains(t, "warp 0, lanes 0-31: mbarrier.try_wait.parity 0 on 0x610 "
                    "(empty[0]): phase 0 (parity 0), pending 1 of 1, "
                    "tx-count 0: waits for phase 0 to complete at " +
                        line(r.waitLine));
  expectContains(t, "warp 1, lanes 0-31: mbarrier.try_wait.parity 0 on 0x600 "
                    "(full[0])");
  expectContains(t, "TP_CPU_SEED=1");
}

//===----------------------------------------------------------------------===//
// tcgen05: a bf16 MMA, M = 128, N = 8, K = 16, K-major, no swizzle
//===----------------------------------------------------------------------===//

// A is 128 x 16 and all ones; B is 8 x 16 with B[n][0] = v and zeros
// elsewhere, so that D[m][n] = v (or += v). Both tiles are K-major core
// matrices of 8 rows x 16 bytes: 8-row groups 256 bytes apart (SBO), the
// two 8-element K halves 128 bytes apart (LBO).
constexpr uint32_t kATile = kSmem;                 // 4096 bytes
constexpr uint32_t kBTiles = kSmem + 4096;         // 256 bytes each
constexpr uint32_t kBars = kSmem + 4096 + 4 * 256; // barriers from here
constexpr uint32_t kTmemSlot = kBars + 256;        // tcgen05.alloc result
constexpr uint32_t kMmaSmem = 8192;
constexpr uint32_t kIdesc = (1u << 4) | (1u << 7) | (1u << 10) |
                            ((8u >> 3) << 17) | ((128u >> 4) << 24);

uint64_t kmajorDesc(uint32_t addr) {
  return uint64_t(addr >> 4) | uint64_t(128 >> 4) << 16 |
         uint64_t(256 >> 4) << 32 | uint64_t(1) << 46;
}

void storeBf16(uint32_t addr, float v) {
  __nv_bfloat16 h = __float2bfloat16_rn(v);
  std::memcpy(tp::cpu::shared_to_generic(addr), &h, 2);
}

/// Writes A (ones) with the whole CTA; then thread 0 initialises `bars`
/// barriers, warp `allocWarp` allocates 32 TMEM columns; all synchronise.
uint32_t mmaSetup(int bars, unsigned allocWarp = 0) {
  for (uint32_t i = threadIdx.x; i < 128 * 16; i += blockDim.x)
    storeBf16(kATile + 2 * i, 1.0f);
  if (threadIdx.x == 0) {
    for (int b = 0; b < bars; ++b)
      tp::cpu::mbarrier_init(kBars + 8 * b, 1);
    if (bars)
      tp::cpu::name_shared(kBars, 8 * bars, "bars");
  }
  if (warp() == allocWarp)
    tp::cpu::tcgen05_alloc(kTmemSlot, 32);
  tp::cpu::fence_proxy_async();
  tp::cpu::tcgen05_fence_before_thread_sync();
  __syncthreads();
  tp::cpu::tcgen05_fence_after_thread_sync();
  return at<uint32_t>(kTmemSlot);
}

void mmaTeardown(uint32_t tmem, unsigned allocWarp = 0) {
  tp::cpu::tcgen05_fence_before_thread_sync();
  __syncthreads();
  if (warp() == allocWarp)
    tp::cpu::tcgen05_dealloc(tmem, 32);
}

/// B slot `s` := B[n][0] = v.
void writeB(int s, float v) {
  uint32_t base = kBTiles + 256 * s;
  for (uint32_t i = 0; i < 8 * 16; ++i) {
    uint32_t n = i / 16, k = i % 16;
    // K-major core matrices: row n, element k at (k / 8) * LBO + n * 16.
    storeBf16(base + (k / 8) * 128 + n * 16 + (k % 8) * 2, k == 0 ? v : 0.f);
  }
}

void mma(uint32_t d, int s, bool accumulate) {
  tp::cpu::tcgen05_mma(MmaKind::F16, d, kmajorDesc(kATile),
                       kmajorDesc(kBTiles + 256 * s), kIdesc, accumulate);
}

/// This warp's 32 lanes of D columns [col, col + n), as floats, read by one
/// tcgen05.ld (a snapshot: no operation completes in between).
std::vector<float> loadD(uint32_t tmem, uint32_t col, int n = 8) {
  uint32_t regs[16];
  uint32_t taddr = tmem + ((32 * (warp() % 4)) << 16) + col;
  tp::cpu::tcgen05_ld_32x32b(taddr, n, regs);
  tp::cpu::tcgen05_wait_ld();
  std::vector<float> v(static_cast<size_t>(n));
  std::memcpy(v.data(), regs, sizeof(float) * size_t(n));
  return v;
}

enum class MmaBug { None, ReleaseBeforeMmaCompletes };

/// K iterations of a 2-slot ring: warp 0 writes B slots (generic stores,
/// proxy fence, one arrive per lane), warp 1 issues an accumulating mma per
/// slot and releases the slot, warps 2-5 check D = 1 + 2 + ... + K.
int mmaRingRun(uint64_t seed, MmaBug bug, LaunchResult &launch) {
  constexpr int K = 10;
  int wrong = 0;
  // bars: full[2] (32 arrivals each: re-initialised below), empty[2], done.
  constexpr uint32_t full = kBars, empty = kBars + 16, done = kBars + 32;
  launch = run(dim3(1), dim3(192), kMmaSmem, seed, [&] {
    if (threadIdx.x == 0) {
      tp::cpu::mbarrier_init(full, 32);
      tp::cpu::mbarrier_init(full + 8, 32);
    }
    uint32_t tmem = mmaSetup(0, 1);
    if (threadIdx.x == 0) {
      for (uint32_t b = empty; b <= done; b += 8)
        tp::cpu::mbarrier_init(b, 1);
      tp::cpu::name_shared(full, 16, "full");
      tp::cpu::name_shared(empty, 16, "empty");
    }
    __syncthreads();
    if (warp() == 0) {
      for (int k = 0; k < K; ++k) {
        int s = k % 2;
        waitParity(empty + 8 * s, ((k / 2) & 1) ^ 1);
        if (lane() == 0)
          writeB(s, float(k + 1));
        __syncwarp();
        tp::cpu::fence_proxy_async();
        tp::cpu::mbarrier_arrive(full + 8 * s);
      }
    } else if (warp() == 1) {
      bool leader = tp::cpu::elect_sync(0xFFFFFFFFu);
      for (int k = 0; k < K; ++k) {
        int s = k % 2;
        waitParity(full + 8 * s, (k / 2) & 1);
        tp::cpu::tcgen05_fence_after_thread_sync();
        if (leader) {
          mma(tmem, s, k > 0);
          if (bug == MmaBug::ReleaseBeforeMmaCompletes)
            tp::cpu::mbarrier_arrive(empty + 8 * s);
          else
            tp::cpu::tcgen05_commit(empty + 8 * s);
        }
      }
      if (leader)
        tp::cpu::tcgen05_commit(done);
    } else {
      waitParity(done, 0);
      tp::cpu::tcgen05_fence_after_thread_sync();
      for (float v : loadD(tmem, 0))
        wrong += v != float(K * (K + 1) / 2);
    }
    mmaTeardown(tmem, 1);
  });
  return wrong;
}

TEST(CpuEmuRuntime, MmaRingReleasingByCommitIsCorrectForEverySeed) {
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    LaunchResult r;
    int wrong = mmaRingRun(seed, MmaBug::None, r);
    ASSERT_TRUE(r.ok) << "seed " << seed << "\n" << r.report;
    ASSERT_EQ(wrong, 0) << "seed " << seed;
  }
}

TEST(CpuEmuRuntime, ReleasingASlotBeforeItsMmaCompletesGivesWrongNumbers) {
  int caught = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    LaunchResult r;
    int wrong = mmaRingRun(seed, MmaBug::ReleaseBeforeMmaCompletes, r);
    caught += wrong > 0 || !r.ok;
  }
  EXPECT_GT(caught, 0);
}

TEST(CpuEmuRuntime, CommitArrivesOnlyAfterEveryEarlierMmaOfItsThread) {
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    int wrong = 0;
    LaunchResult r = run(dim3(1), dim3(32), kMmaSmem, seed, [&] {
      uint32_t tmem = mmaSetup(1);
      if (lane() == 0)
        for (int s = 0; s < 4; ++s)
          writeB(s, float(s + 1));
      tp::cpu::fence_proxy_async();
      __syncwarp();
      if (lane() == 0) {
        for (int s = 0; s < 4; ++s)
          mma(tmem + 8 * uint32_t(s % 2), s, s >= 2); // two accumulators
        tp::cpu::tcgen05_commit(kBars);
      }
      waitParity(kBars, 0);
      tp::cpu::tcgen05_fence_after_thread_sync();
      for (float v : loadD(tmem, 0))
        wrong += v != 1.0f + 3.0f;
      for (float v : loadD(tmem, 8))
        wrong += v != 2.0f + 4.0f;
      mmaTeardown(tmem);
    });
    ASSERT_TRUE(r.ok) << "seed " << seed << "\n" << r.report;
    ASSERT_EQ(wrong, 0) << "seed " << seed;
  }
}

TEST(CpuEmuRuntime, MmasOnOneAccumulatorCompleteInOrderOnTwoInAnyOrder) {
  int outOfOrder = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    bool sawSecondOnly = false;
    float last = 0;
    LaunchResult r = run(dim3(1), dim3(32), kMmaSmem, seed, [&] {
      uint32_t tmem = mmaSetup(1);
      if (lane() == 0)
        for (int s = 0; s < 3; ++s)
          writeB(s, float(s + 1));
      tp::cpu::fence_proxy_async();
      __syncwarp();
      if (lane() == 0) {
        mma(tmem + 0, 0, false); // D0 := 1
        mma(tmem + 8, 1, false); // D1 := 2, another accumulator
        mma(tmem + 0, 2, false); // D0 := 3, after D0 := 1
        tp::cpu::tcgen05_commit(kBars);
      }
      // Racy reads: a D not yet written is NaN.
      for (int poll = 0; poll < 20; ++poll) {
        std::vector<float> d = loadD(tmem, 0, 16);
        bool d0 = !std::isnan(d[0]), d1 = !std::isnan(d[8]);
        if (d1 && !d0 && lane() == 0)
          sawSecondOnly = true;
      }
      waitParity(kBars, 0);
      tp::cpu::tcgen05_fence_after_thread_sync();
      float d0 = loadD(tmem, 0)[0];
      if (lane() == 0)
        last = d0;
      mmaTeardown(tmem);
    });
    ASSERT_TRUE(r.ok) << "seed " << seed << "\n" << r.report;
    ASSERT_EQ(last, 3.0f) << "seed " << seed;
    outOfOrder += sawSecondOnly;
  }
  EXPECT_GT(outOfOrder, 0);
}

TEST(CpuEmuRuntime, TmemAllocationRules) {
  std::set<uint32_t> bases;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    LaunchResult r = run(dim3(1), dim3(64), 1024, seed, [&] {
      if (warp() == 1) {
        tp::cpu::tcgen05_alloc(kSmem, 128);
        tp::cpu::tcgen05_relinquish_alloc_permit();
      }
      __syncthreads();
      uint32_t base = at<uint32_t>(kSmem);
      EXPECT_EQ(base % 128, 0u);
      bases.insert(base);
      __syncthreads();
      if (warp() == 1)
        tp::cpu::tcgen05_dealloc(base, 128);
    });
    ASSERT_TRUE(r.ok) << r.report;
  }
  EXPECT_GT(bases.size(), 1u) << "the base column must depend on the seed";

  auto fault = [](std::function<void()> body) {
    LaunchResult r = run(dim3(1), dim3(32), 1024, 1, std::move(body));
    EXPECT_FALSE(r.ok);
    return r.report;
  };
  expectContains(fault([] { tp::cpu::tcgen05_alloc(kSmem, 96); }),
                 "not a power of 2 in [32, 512]");
  expectContains(fault([] { tp::cpu::tcgen05_alloc(kSmem, 64); }),
                 "at kernel exit: tensor memory");
  expectContains(fault([] {
                   tp::cpu::tcgen05_alloc(kSmem, 64);
                   tp::cpu::tcgen05_dealloc(at<uint32_t>(kSmem), 32);
                 }),
                 "not an allocation of this CTA");
  expectContains(fault([] {
                   tp::cpu::tcgen05_alloc(kSmem, 32);
                   tp::cpu::tcgen05_relinquish_alloc_permit();
                   tp::cpu::tcgen05_alloc(kSmem + 4, 32);
                 }),
                 "relinquish_alloc_permit before");
  expectContains(fault([] {
                   tp::cpu::tcgen05_alloc(kSmem, 32);
                   tp::cpu::tcgen05_alloc(kSmem + 4, 64);
                 }),
                 "allocation sizes do not increase");
}

/// A .16x32bx2 store at half offset 0 writes each cell from two threads (t
/// and t + 16): equal values (a 64-row tile held twice) land; different ones
/// fault, since PTX does not say which lands.
TEST(CpuEmuRuntime, Tmem16x32bx2StoreHalvesMustAgree) {
  auto store = [](bool agree) {
    return run(dim3(1), dim3(32), 1024, 1, [agree] {
      tp::cpu::tcgen05_alloc(kSmem, 32);
      tp::cpu::tcgen05_relinquish_alloc_permit();
      uint32_t base = at<uint32_t>(kSmem);
      uint32_t lane = threadIdx.x % 32;
      uint32_t regs[2] = {100 + lane % 16, agree ? 7u : lane};
      tp::cpu::tcgen05_st_16x32bx2(base, 2, 0, regs);
      tp::cpu::tcgen05_wait_st();
      uint32_t back[2];
      tp::cpu::tcgen05_ld_16x32bx2(base, 2, 0, back);
      tp::cpu::tcgen05_wait_ld();
      EXPECT_EQ(back[0], 100 + lane % 16);
      tp::cpu::tcgen05_dealloc(base, 32);
    });
  };
  LaunchResult ok = store(true);
  EXPECT_TRUE(ok.ok) << ok.report;
  LaunchResult bad = store(false);
  EXPECT_FALSE(bad.ok);
  expectContains(bad.report, "tcgen05.st.sync.aligned.16x32bx2.x2");
  expectContains(bad.report, "threads 0 and 16 write TMEM lane 0, column");
  expectContains(bad.report, "with different values");
}

TEST(CpuEmuRuntime, DeallocWhileAnMmaWritesTheColumnsFaults) {
  LaunchResult r = run(
      dim3(1), dim3(32), kMmaSmem, 1,
      [&] {
        uint32_t tmem = mmaSetup(1);
        if (lane() == 0)
          writeB(0, 1.0f);
        tp::cpu::fence_proxy_async();
        __syncwarp();
        if (lane() == 0)
          mma(tmem, 0, false);
        tp::cpu::tcgen05_dealloc(tmem, 32); // no commit, no wait
      },
      Policy::Lazy);
  ASSERT_FALSE(r.ok);
  expectContains(r.report, "has not completed (wait for its tcgen05.commit");
}

//===----------------------------------------------------------------------===//
// cp.async, bulk stores, setmaxnreg
//===----------------------------------------------------------------------===//

int cpAsyncRun(uint64_t seed, bool wait) {
  static std::vector<float> src = [] {
    std::vector<float> v(128);
    for (int i = 0; i < 128; ++i)
      v[size_t(i)] = float(i) + 0.5f;
    return v;
  }();
  int wrong = 0;
  LaunchResult r = run(dim3(1), dim3(64), 1024, seed, [&] {
    uint32_t bar = kSmem + 512;
    if (threadIdx.x == 0)
      tp::cpu::mbarrier_init(bar, 32);
    __syncthreads();
    if (warp() == 0) {
      tp::cpu::cp_async_16(kSmem + 16 * lane(), &src[4 * lane()]);
      tp::cpu::cp_async_mbarrier_arrive(bar);
      tp::cpu::mbarrier_arrive(bar);
    } else {
      if (wait)
        waitParity(bar, 0);
      for (uint32_t i = lane(); i < 128; i += 32)
        wrong += at<float>(kSmem + 4 * i) != src[i];
      if (!wait)
        waitParity(bar, 0); // keep the launch well formed
    }
  });
  EXPECT_TRUE(r.ok) << r.report;
  return wrong;
}

TEST(CpuEmuRuntime, CpAsyncArriveWaitsForTheThreadsCopies) {
  int racy = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    ASSERT_EQ(cpAsyncRun(seed, true), 0) << "seed " << seed;
    racy += cpAsyncRun(seed, false) > 0;
  }
  EXPECT_GT(racy, 0);
}

TEST(CpuEmuRuntime, BulkStoreReadsSharedMemoryUntilWaitGroupRead) {
  int racy = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    for (bool wait : {true, false}) {
      Matrix out(8, 8, 8, 8);
      LaunchResult r = run(dim3(1), dim3(32), 1024, seed, [&] {
        if (lane() != 0)
          return;
        for (int i = 0; i < 64; ++i)
          at<float>(kSmem + 4 * i) = -float(i);
        tp::cpu::fence_proxy_async();
        int32_t coords[2] = {0, 0};
        tp::cpu::tma_store(&out.map, 2, coords, kSmem);
        tp::cpu::bulk_commit_group();
        if (wait)
          tp::cpu::bulk_wait_group_read(0);
        for (int i = 0; i < 64; ++i)
          at<float>(kSmem + 4 * i) = 7.0f; // reuse the staging buffer
        tp::cpu::bulk_wait_group(0);
      });
      ASSERT_TRUE(r.ok) << r.report;
      int wrong = 0;
      for (int i = 0; i < 64; ++i)
        wrong += out.data[size_t(i)] != -float(i);
      if (wait)
        ASSERT_EQ(wrong, 0) << "seed " << seed;
      else
        racy += wrong > 0;
    }
  }
  EXPECT_GT(racy, 0);
}

TEST(CpuEmuRuntime, SetmaxnregMustMatchAcrossTheWarpgroup) {
  LaunchResult ok = run(dim3(1), dim3(256), 256, 1, [&] {
    if (warp() < 4)
      tp::cpu::setmaxnreg(false, 56);
    else
      tp::cpu::setmaxnreg(true, 232);
  });
  EXPECT_TRUE(ok.ok) << ok.report;
  LaunchResult mixed = run(dim3(1), dim3(128), 256, 1, [&] {
    tp::cpu::setmaxnreg(warp() == 2, warp() == 2 ? 232 : 56);
  });
  ASSERT_FALSE(mixed.ok);
  expectContains(mixed.report, "must execute the same setmaxnreg");
  LaunchResult partial = run(dim3(1), dim3(128), 256, 1, [&] {
    if (warp() == 0)
      tp::cpu::setmaxnreg(false, 56);
  });
  ASSERT_FALSE(partial.ok);
  expectContains(partial.report, "at kernel exit: warp 1 executed 0");
  LaunchResult range =
      run(dim3(1), dim3(128), 256, 1, [&] { tp::cpu::setmaxnreg(true, 260); });
  ASSERT_FALSE(range.ok);
  expectContains(range.report, "multiple of 8 in [24, 256]");
}

//===----------------------------------------------------------------------===//
// Faults, limits, options
//===----------------------------------------------------------------------===//

TEST(CpuEmuRuntime, TrapAndAsyncFaultsNameTheThreadAndLine) {
  int trapLine = 0;
  LaunchResult r = run(dim3(2), dim3(64), 256, 1, [&] {
    if (blockIdx.x == 1 && threadIdx.x == 37) {
      trapLine = __LINE__ + 1;
      __trap();
    }
  });
  ASSERT_FALSE(r.ok);
  expectContains(r.report, "fault in CTA (1,0,0)");
  expectContains(r.report, "warp 1 lane 5 (threadIdx 37,0,0) at " +
                               line(trapLine) + ": trap");

  Matrix m(8, 8, 8, 8);
  int issueLine = 0;
  LaunchResult a = run(dim3(1), dim3(32), 1024, 1, [&] {
    if (lane() != 0)
      return;
    tp::cpu::mbarrier_init(kSmem + 512, 1);
    tp::cpu::set_loc(TP_CPU_HERE), issueLine = __LINE__;
    tmaLoad2d(kSmem + 16, m.map, 0, 0, kSmem + 512); // not 128-aligned
    waitParity(kSmem + 512, 0);
  });
  ASSERT_FALSE(a.ok);
  expectContains(a.report, "in the completion of cp.async.bulk.tensor (TMA "
                           "load) issued by warp 0 lane 0 (threadIdx 0,0,0) "
                           "at " +
                               line(issueLine));
  expectContains(a.report, "128-byte aligned");
}

TEST(CpuEmuRuntime, TmaLoadAtAnUnalignedInnerCoordinateFaultsNamingTheIssue) {
  // f32 column 1 is 4 bytes: not a whole number of 16-byte units, which
  // the H200 refuses with an illegal instruction (docs/cpu-emulation.md,
  // "Fidelity on hardware"). The report names the issuing thread and line
  // and the rule; column 4 (16 bytes) runs.
  Matrix m(8, 16, 8, 8);
  for (int32_t c0 : {1, 4}) {
    int issueLine = 0;
    LaunchResult r = run(dim3(1), dim3(32), 1024, 1, [&] {
      if (lane() != 0)
        return;
      tp::cpu::mbarrier_init(kSmem + 512, 1);
      tp::cpu::mbarrier_arrive_expect_tx(kSmem + 512, 256);
      tp::cpu::set_loc(TP_CPU_HERE), issueLine = __LINE__;
      tmaLoad2d(kSmem, m.map, c0, 0, kSmem + 512);
      waitParity(kSmem + 512, 0);
    });
    if (c0 == 4) {
      EXPECT_TRUE(r.ok) << r.report;
      continue;
    }
    ASSERT_FALSE(r.ok);
    expectContains(r.report, "in the completion of cp.async.bulk.tensor (TMA "
                             "load) issued by warp 0 lane 0 (threadIdx "
                             "0,0,0) at " +
                                 line(issueLine));
    expectContains(r.report, "innermost box coordinate 1 x 4-byte elements = "
                             "4 bytes is not a multiple of 16 bytes");
  }
}

TEST(CpuEmuRuntime, ALivelockEndsAtTheStepLimit) {
  LaunchResult r = run(
      dim3(1), dim3(32), 256, 1,
      [&] {
        for (;;)
          tp::cpu::fence_proxy_async();
      },
      Policy::Adversarial, 10000);
  ASSERT_FALSE(r.ok);
  expectContains(r.report, "step limit");
  expectContains(r.report, "runnable at");
}

TEST(CpuEmuRuntime, OptionsFromTheEnvironment) {
  setenv("TP_CPU_SEED", "0x2a", 1);
  setenv("TP_CPU_POLICY", "lazy", 1);
  setenv("TP_CPU_MAX_STEPS", "1234", 1);
  LaunchOptions o = tp::cpu::options_from_env();
  EXPECT_EQ(o.seed, 42u);
  EXPECT_EQ(o.policy, Policy::Lazy);
  EXPECT_EQ(o.maxSteps, 1234u);
  setenv("TP_CPU_POLICY", "2", 1);
  EXPECT_EQ(tp::cpu::options_from_env().policy, Policy::Lazy);
  setenv("TP_CPU_POLICY", "sloppy", 1);
  EXPECT_THROW(tp::cpu::options_from_env(), std::invalid_argument);
  unsetenv("TP_CPU_SEED");
  unsetenv("TP_CPU_POLICY");
  unsetenv("TP_CPU_MAX_STEPS");
  EXPECT_EQ(tp::cpu::options_from_env().seed, 1u);
}

TEST(CpuEmuRuntime, LaunchRefusesWhatCudaWouldRefuse) {
  auto body = [] {};
  EXPECT_FALSE(run(dim3(1), dim3(2048), 0, 1, body).ok);
  EXPECT_FALSE(run(dim3(0), dim3(32), 0, 1, body).ok);
  EXPECT_FALSE(run(dim3(1), dim3(32), 300 * 1024, 1, body).ok);
}

//===----------------------------------------------------------------------===//
// Emulator overhead: a GEMM-shaped CTA
//===----------------------------------------------------------------------===//

TEST(CpuEmuRuntime, GemmShapedCtaOf256ThreadsAnd64IterationsIsFast) {
  // Warp 0: TMA producer (two 8x8-element boxes per B slot), warp 1: MMA
  // issuer, warps 4-7: epilogue; 4 slots, 64 K iterations.
  constexpr int K = 64, kStages = 4;
  constexpr uint32_t full = kBars, empty = kBars + 32, done = kBars + 64;
  // B: 8 rows (N) x 16 bf16 (K) per iteration, as 2-byte elements in an
  // fp32-free tensor: rows 8k..8k+7 of a [8K][16] bf16 matrix.
  std::vector<__nv_bfloat16> b(size_t(8 * K) * 16);
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < 8; ++n)
      for (int j = 0; j < 16; ++j)
        b[size_t(8 * k + n) * 16 + size_t(j)] =
            __float2bfloat16_rn(j == 0 ? 1.0f : 0.0f);
  CUtensorMap map;
  cuuint64_t dims[2] = {16, 8 * K};
  cuuint64_t strides[1] = {16 * 2};
  cuuint32_t box[2] = {8, 8}, es[2] = {1, 1};
  ASSERT_EQ(tp::cpu::drv::cuTensorMapEncodeTiled(
                &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, b.data(), dims,
                strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            CUDA_SUCCESS)
      << tp::cpu::drv::lastEncodeError();
  int wrong = 0;
  auto start = std::chrono::steady_clock::now();
  LaunchResult r = run(dim3(1), dim3(256), kMmaSmem, 11, [&] {
    uint32_t tmem = mmaSetup(0, 1);
    if (threadIdx.x == 0) {
      for (uint32_t bar = full; bar <= done; bar += 8)
        tp::cpu::mbarrier_init(bar, 1);
    }
    __syncthreads();
    if (warp() == 0) {
      bool leader = tp::cpu::elect_sync(0xFFFFFFFFu);
      for (int k = 0; k < K; ++k) {
        int s = k % kStages;
        waitParity(empty + 8 * s, ((k / kStages) & 1) ^ 1);
        if (leader) {
          tp::cpu::mbarrier_arrive_expect_tx(full + 8 * s, 256);
          uint32_t slot = kBTiles + 256 * uint32_t(s);
          // The two K halves of the slot, 128 bytes (LBO) apart.
          tmaLoad2d(slot, map, 0, 8 * k, full + 8 * s);
          tmaLoad2d(slot + 128, map, 8, 8 * k, full + 8 * s);
        }
      }
    } else if (warp() == 1) {
      bool leader = tp::cpu::elect_sync(0xFFFFFFFFu);
      for (int k = 0; k < K; ++k) {
        int s = k % kStages;
        waitParity(full + 8 * s, (k / kStages) & 1);
        tp::cpu::tcgen05_fence_after_thread_sync();
        if (leader) {
          mma(tmem, s, k > 0);
          tp::cpu::tcgen05_commit(empty + 8 * s);
        }
      }
      if (leader)
        tp::cpu::tcgen05_commit(done);
    } else if (warp() >= 4) {
      waitParity(done, 0);
      tp::cpu::tcgen05_fence_after_thread_sync();
      for (float v : loadD(tmem, 0))
        wrong += v != float(K);
    }
    mmaTeardown(tmem, 1);
  });
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ASSERT_TRUE(r.ok) << r.report;
  EXPECT_EQ(wrong, 0);
  EXPECT_LT(seconds, 1.0);
  RecordProperty("seconds", std::to_string(seconds));
}

} // namespace
