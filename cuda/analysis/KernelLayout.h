//===- KernelLayout.h - where a kernel's agents and buffers live -*- C++
//-*-===//
//
// Before any CUDA is written, the translation decides the kernel's shape from
// the materialized function alone: which warps run which agent (multi-warp
// agents on warpgroup boundaries, because a warp reaches only the TMEM lanes
// 32 * (warp % 4) and up), the setmaxnreg split, the named-barrier ids, the
// shared-memory carve-out (every pipe's slots and barriers, every
// alloc_smem) and the TMEM columns. docs/cuda.md states the rules.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_ANALYSIS_KERNELLAYOUT_H
#define TILEPIPE_CUDA_ANALYSIS_KERNELLAYOUT_H

#include "cuda/analysis/Prologue.h"
#include "cuda/analysis/TileLayouts.h"
#include "ir/TileASDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <set>
#include <string>
#include <vector>

namespace tilepipe::cuda {

/// Hardware limits the layout is checked against (sm_100a).
constexpr int kMaxThreads = 1024;
constexpr int kNamedBarriers = 16;
constexpr int64_t kSmemPerBlock = 232448; ///< Opt-in dynamic SMEM per CTA.
constexpr int kTmemColumns = 512;
constexpr int kRegisterFile = 65536;

struct AgentLayout {
  mlir::Operation *op = nullptr; ///< The tileas.agent, or null: the body.
  std::string role;
  int firstWarp = 0, warps = 4;
  int syncBarrier = -1; ///< Named barrier for the agent's own syncs.
  /// SMEM for combining values across its warps (a row split over more
  /// lanes than a warp has, a whole vector reduced): one word per warp and
  /// element; "" when nothing does.
  std::string scratch;
  int maxRegs = 0;      ///< setmaxnreg target; 0: none.
  bool producerGroup = false;
  /// Ping-pong copies of the agent (`replicas`): copy r runs on warps
  /// [firstWarp + r warps, + warps) and syncs on named barrier
  /// syncBarrier + r.
  int replicas = 1;
  /// Of an agent whose two consumer warpgroups take wgmma issue turns
  /// (IssueTurns.h): the first of the two named barriers they take turns
  /// on, and the first of the two each syncs alone on; -1 otherwise.
  int issueTurnBarrier = -1, groupBarrier = -1;
  bool issueTurns() const { return issueTurnBarrier >= 0; }
  /// The threads of one copy: what the agent's code counts.
  int threads() const { return warps * 32; }
  /// The warps of all copies.
  int span() const { return warps * replicas; }
  /// The warpgroups it spans: [firstGroup(), endGroup()).
  int firstGroup() const { return firstWarp / 4; }
  int endGroup() const { return (firstWarp + span() + 3) / 4; }
};

struct PipeLayout {
  mlir::tileas::PipeCreateOp op;
  unsigned id = 0;
  bool tmem = false;
  int depth = 1;
  int64_t slotBytes = 0;    ///< SMEM slot size (the stride between slots).
  bool slotsPadded = false; ///< slotBytes rounded up past the payload.
  int64_t slotCols = 0;  ///< TMEM slot columns.
  int64_t txBytes = 0;   ///< What a TMA producer expects per slot.
  std::string buffer;    ///< SMEM member or TMEM column symbol.
  int64_t tmemColumn = 0;
  std::string full, empty; ///< Barrier arrays (empty: the root's).
  unsigned fullCount = 1, emptyCount = 1;
  /// Another pipe's slots are this one's (shares or aliases): a later
  /// commit of the other may re-stamp a slot before this pipe's release.
  bool sharedBuffer = false;
};

struct SmemMember {
  std::string name, comment;
  int64_t bytes = 0, align = 16;
};

struct KernelLayout {
  std::string name;
  std::vector<AgentLayout> agents;
  int warps = 4;
  std::vector<PipeLayout> pipes;
  llvm::DenseMap<mlir::Operation *, unsigned> pipeIds;
  /// alloc_smem results and the prologue's TMA loads: their member.
  llvm::DenseMap<mlir::Value, std::string> smemBuffers;
  /// What runs before the roles split (cuda/analysis/Prologue.h).
  KernelPrologue prologue;
  /// The mbarrier the prologue's TMA loads complete on (one arrival each);
  /// empty when it loads nothing.
  std::string prologueBarrier;
  /// TMA loads after the loops (an epilogue's source tile C), in program
  /// order, and the mbarrier each completes on (one arrival, one phase per
  /// tile the kernel runs).
  llvm::MapVector<mlir::Operation *, std::string> epilogueLoads;
  /// How each SMEM tile lies in shared memory (TMA boxes, UMMA view).
  TileLayouts tiles;
  /// The SMEM member of 256 zero bytes an MMA zeroes an accumulator with
  /// (runtime/mma.cuh, acc_zero_unwritten); empty when no UMMA accumulates.
  std::string zeros;
  /// Block-scale factors copied to TMEM in a loop (tmem_copy without
  /// `into`): two buffers used in turn, so that a copy never overwrites
  /// factors an MMA still reads (tcgen05.mma -> tcgen05.cp is unordered),
  /// and a barrier pair their MMAs' commit frees them on.
  struct ScaleCopy {
    int64_t column = 0, cols = 0; ///< The first buffer; columns of each.
    std::string barriers;         ///< SMEM uint64_t[2], count 1.
  };
  llvm::DenseMap<mlir::Operation *, ScaleCopy> scaleCopies;
  std::vector<mlir::Operation *> scaleCopyOrder; ///< For the prologue.
  /// A wgmma's tf32 or 8-bit operand given MN-major (A as K x M, B as K x N):
  /// wgmma reads 32- and 8-bit operands K-major only, so its warpgroups copy
  /// each slot transposed into a ring of two K-major tiles (runtime/wgmma.cuh,
  /// wgmma_transpose; docs/cuda.md, "Operands given MN-major"). Every
  /// wgmma that reads one buffer (peeled copies of one) takes turns in one
  /// ring, counted by the ring's name.
  struct Staged {
    std::string buffer;  ///< SMEM member: the two tiles.
    std::string cppType; ///< One tile, tp::MmaTile<T, M or N, K, S>.
    int64_t bytes = 0;   ///< One tile.
  };
  /// By wgmma and operand (0: A, 1: B).
  llvm::DenseMap<std::pair<mlir::Operation *, unsigned>, Staged> staged;
  /// alloc_tmem results: their first column.
  llvm::DenseMap<mlir::Value, int64_t> tmemBuffers;
  /// Top-level ops of an unspecialized body that start a loop whose SMEM
  /// rings lie over an earlier loop's (the `loops` member): every thread
  /// meets (__syncthreads) before them, so that no slot is refilled while a
  /// thread still reads what the earlier loop left in it.
  llvm::SmallPtrSet<mlir::Operation *, 2> loopPhaseStarts;
  std::vector<SmemMember> smem; ///< In struct order.
  int64_t bufferBytes = 0;      ///< SMEM of tiles (what the plan counts).
  int64_t tmemUsed = 0, tmemAllocated = 0;
  /// `tileas.persistent`: each CTA runs tiles of the asked-for grid in turn.
  bool persistent = false;
  /// Of a persistent kernel that walks its own tiles (`tileas.tile_count`):
  /// how many. It then takes no grid parameters and is launched on the CTAs.
  mlir::Value tileCount;
  /// Named barrier ids of each mutex (first id) and the threads that meet;
  /// {-1, 0} for an mbarrier mutex.
  llvm::DenseMap<mlir::Operation *, std::pair<int, int>> mutexes;
  /// An mbarrier mutex's SMEM barrier array (one per group).
  llvm::DenseMap<mlir::Operation *, std::string> mutexBarriers;
  /// The mutex.create ops in program order (emission iterates this, not the
  /// maps, so that the output is the same run to run).
  std::vector<mlir::Operation *> mutexOrder;
  int namedBarriers = 1; ///< Ids in use, barrier 0 (__syncthreads) included.
  /// Of a kernel with a ping-pong agent: the SMEM mbarriers its copies take
  /// turns on (uint64_t[4]: the main loop's two, then the epilogue's two),
  /// and where a copy leaves each pipe's next iteration for the other
  /// (int64_t, one per pipe); empty otherwise.
  std::string turns, turnBase;
  int launchRegs = 0;
  /// The kernel issues wgmmas (Hopper): its MMAs run in the consumers, so
  /// a producer warpgroup only issues TMA.
  bool wgmma = false;

  int threads() const { return warps * 32; }
};

/// Lays out `func`'s kernel, or emits an error at the offending op.
mlir::FailureOr<KernelLayout> layoutKernel(mlir::func::FuncOp func);

/// `layout.namedBarriers` from the ids in `used` (0 among them), or an error
/// at `func` when they pass the CTA's 16.
mlir::LogicalResult countNamedBarriers(mlir::func::FuncOp func,
                                       KernelLayout &layout,
                                       const std::set<int> &used);

/// The agent (by index into layout.agents) that runs `op`.
unsigned agentOf(const KernelLayout &layout, mlir::Operation *op);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_ANALYSIS_KERNELLAYOUT_H
