//===- LoopProblem.h - an scf.for loop as a scheduling problem -*- C++ -*-===//
//
// The MLIR adapter: body ops become dense ids, SSA uses become distance-0
// dependences, values carried through iter_args become distance-1 (or more)
// dependences, and each op's class and work (SchedulableOpInterface) become
// its latency and footprint through the target model.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_MLIR_LOOPPROBLEM_H
#define TILEPIPE_SCHEDULER_MLIR_LOOPPROBLEM_H

#include "scheduler/ScheduleAnalysis.h"
#include "target/Target.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace tilepipe {

/// One scheduled loop: its ops in program order (OpId = index) and the
/// problem built from them.
struct LoopProblem {
  mlir::scf::ForOp loop;
  std::vector<mlir::Operation *> ops;
  llvm::DenseMap<mlir::Operation *, sched::OpId> ids;
  sched::Problem problem;
  /// The register-order pairs of the loop (withRegisterOrder):
  /// (store, tmem_load), not in `problem`.
  std::vector<std::pair<sched::OpId, sched::OpId>> registerOrder;
};

/// Builds the problem of `loop`; emits errors at the offending ops (bad
/// constraint attributes, contradictory group leaders) and fails. It also
/// finds, per SIMT agent (tileas.warp_group), the last store a rank-2
/// tmem_load's register tile flows into (through elementwise ops of the same
/// agent): `registerOrder`.
mlir::FailureOr<LoopProblem>
buildLoopProblem(mlir::scf::ForOp loop, const target::TargetModel &target);

/// `lp.problem` with an edge from each register-order store to its load one
/// iteration later (distance 1, latency 0): the agent stores this
/// iteration's tile before it loads the next one, so two such tiles are
/// never live in its registers together (docs/generators.md, "Register
/// order"). A preference, not a dependence: the pass keeps it only where it
/// costs no II, and the materializer, which verifies the published
/// schedule, checks against `lp.problem`.
sched::Problem withRegisterOrder(const LoopProblem &lp);

/// SMEM kept back for barriers and scalars before buffers are counted.
constexpr int64_t kSmemCarveout = 1024;

/// SMEM bytes live across the whole loop, outside any pipe: tiles made
/// before the loop and read in it (a Q tile), and buffers allocated before
/// it for the code after it (an epilogue's staging tile).
int64_t loopInvariantSmemBytes(mlir::scf::ForOp loop);

/// Emits core diagnostics as MLIR diagnostics at the ops they name.
void emitDiagnostics(const LoopProblem &lp, const sched::DiagnosticList &diags);

/// The innermost scf.for loops under `root`, in program order: the loops
/// both passes work on.
llvm::SmallVector<mlir::scf::ForOp> innermostLoops(mlir::Operation *root);

/// The target a pass option names: the built-in sm_100a when `file` is
/// empty, else the JSON file (kept alive in `owned`). Errors are emitted.
mlir::LogicalResult
loadTargetOption(mlir::MLIRContext *context, llvm::StringRef file,
                 const target::TargetModel *&target,
                 std::shared_ptr<target::TargetModel> &owned);

/// The schedules pass 1 published, keyed by loop; pass 2 reads them.
class PublishedSchedules {
public:
  explicit PublishedSchedules(mlir::Operation *) {}
  struct Entry {
    std::vector<mlir::Operation *> ops;
    sched::ScheduleAnalysis analysis;
  };
  llvm::DenseMap<mlir::Operation *, Entry> loops;
};

/// The ops SIMT threads run on register tiles: TMEM and SMEM loads and
/// stores of them, elementwise ops, conversions and row reductions.
bool isSimtTileOp(mlir::Operation *op);
/// Of those, the elementwise ops and conversions (a tile in, a tile of its
/// shape out).
bool isElementwiseTileOp(mlir::Operation *op);

/// Per op of `lp`, whether the stage code recomputes it where it is read
/// instead of handing it over (free ops): scalar arithmetic on the
/// induction variable and loop invariants; a broadcast of an invariant (a
/// norm's gamma read before the loop: no data of its own, and carried
/// across a stage it would be a whole tile in registers); positions, masks
/// and biases made of them (ir/Positions.h: a few instructions per
/// element, against a tile handed over). Such an op belongs to no agent,
/// and its lifetime takes no ring.
std::vector<bool> findFreeOps(const LoopProblem &lp);

/// The start-to-start latency of a dependence from `producer` to
/// `consumer` when both are SIMT tile ops of one warp group working through
/// a rank-2 tile in 32-column fragments (docs/generators.md); otherwise
/// `producerLatency`.
int64_t streamedLatency(mlir::Operation *producer, mlir::Operation *consumer,
                        int64_t producerLatency, int64_t consumerLatency);

} // namespace tilepipe

#endif // TILEPIPE_SCHEDULER_MLIR_LOOPPROBLEM_H
