//===- KernelEmitter.h - the state of one kernel's emission ----*- C++ -*-===//
//
// The emitter of one materialized function: what the ops of the function
// have become in EmitC (`map`), the agent being emitted and its threads, and
// the helpers every op's emitter shares. Each op family has its emitters in
// a file of its own, as overloads `emit(XOp)` that EmitKernel.cpp's
// dispatch picks by op type:
//   TileOps.cpp     TMA, UMMA, tcgen05.cp, loads and stores, tile math
//   PipeOps.cpp     pipe acquire/wait/commit/release, fences, mutexes
//   ArithOps.cpp    arith and math, on scalars and on register tiles
//   ControlOps.cpp  scf.for, scf.if, gpu grid indices, splats, ub.poison
// The kernel's frame (parameters, barrier set-up, agents, warpgroups) is
// EmitKernel.cpp's; the values (register tiles, their fragment sizes and
// their agent copies) KernelValues.cpp's.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_EMIT_KERNELEMITTER_H
#define TILEPIPE_CUDA_EMIT_KERNELEMITTER_H

#include "cuda/analysis/CudaTypes.h"
#include "cuda/analysis/KernelLayout.h"
#include "cuda/emit/RuntimeCalls.h"
#include "cuda/emit/TileStreams.h"

#include "ir/Positions.h"
#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

#include <array>

namespace tilepipe::cuda {

class KernelEmitter {
public:
  KernelEmitter(mlir::func::FuncOp func, const KernelLayout &layout,
                mlir::OpBuilder &b);

  /// The whole kernel: its shared-memory struct, the __global__ function
  /// and what follows it (its sizes, the harness main).
  mlir::LogicalResult emitKernel();

  //===--- The kernel's frame (EmitKernel.cpp) ----------------------------===//

  mlir::LogicalResult
  kernelParameters(mlir::SmallVectorImpl<mlir::Type> &params);
  std::string smemStruct() const;
  std::string barrierSetup() const;
  mlir::LogicalResult emitPrologue();
  mlir::FailureOr<llvm::SmallVector<int>> warpgroupRegisters() const;
  mlir::LogicalResult emitOutsideAgents();
  mlir::LogicalResult emitWarpgroups(llvm::ArrayRef<int> groupRegs);
  mlir::LogicalResult emitAgent(unsigned index, mlir::Block *body);
  mlir::LogicalResult emitTiles(mlir::Block *body);
  /// Ping-pong copies (AgentLayout::replicas): the op they take turns on,
  /// waiting for and passing a turn (ring 0: the main loop; 1: the
  /// epilogue), and the main loop's pass with the pipes' next iterations.
  mlir::LogicalResult findTurnLoop(mlir::Block *body);
  mlir::Value turnRing(int ring);
  void takeTurn(int ring);
  void passTurn(int ring);
  void passMainTurn();
  mlir::LogicalResult emitTileCount();
  mlir::Value pipeIter(const PipeLayout &p, mlir::Value raw, bool count);
  mlir::LogicalResult finish(mlir::LogicalResult agents);
  mlir::LogicalResult emitBlock(mlir::Block &block);
  /// Picks the emitter of `op` by its type; the default names the op.
  mlir::LogicalResult emitOp(mlir::Operation *op);
  mlir::LogicalResult notTranslated(mlir::Operation *op);

  //===--- Control flow and values made at each use (ControlOps.cpp) ------===//

  mlir::LogicalResult emit(mlir::scf::ForOp op);
  mlir::LogicalResult emit(mlir::scf::IfOp op);
  mlir::LogicalResult emit(mlir::tensor::SplatOp op);
  mlir::LogicalResult emit(mlir::ub::PoisonOp op);
  mlir::LogicalResult emitGridIndex(mlir::Operation *op);

  //===--- arith and math (ArithOps.cpp) ----------------------------------===//

  mlir::LogicalResult emit(mlir::arith::ConstantOp op);
  mlir::LogicalResult emitExtendedArith(mlir::Operation *op);
  mlir::LogicalResult emitArithmetic(mlir::Operation *op);
  mlir::Value emitScalarFloat(mlir::Operation *op,
                              llvm::ArrayRef<mlir::Value> operands,
                              mlir::Type type);
  mlir::Value emitIntArith(mlir::Operation *op,
                           llvm::ArrayRef<mlir::Value> operands,
                           mlir::Type type);
  mlir::Value emitCmpI(mlir::arith::CmpIOp cmp,
                       llvm::ArrayRef<mlir::Value> operands, mlir::Type type);

  //===--- Pipes, fences and mutexes (PipeOps.cpp) ------------------------===//

  mlir::LogicalResult emit(mlir::tileas::FenceOp op);
  mlir::LogicalResult emitMutexOp(mlir::Operation *op);
  mlir::LogicalResult emit(mlir::tileas::PipeProducerAcquireOp op);
  mlir::LogicalResult emit(mlir::tileas::PipeConsumerWaitOp op);
  mlir::LogicalResult emit(mlir::tileas::PipeProducerCommitOp op);
  mlir::LogicalResult emit(mlir::tileas::PipeConsumerReleaseOp op);
  /// A pipe op's pipe and its iteration as the pipe counts it.
  struct PipeStep {
    const PipeLayout *pipe;
    mlir::Value k;
  };
  mlir::FailureOr<PipeStep> pipeStep(mlir::Operation *op);
  bool leaderOnly(mlir::Value slot);
  void waitSlot(bool leader, const PipeStep &s, const std::string &bars,
                llvm::StringRef parity);
  void commitExpectTx(mlir::tileas::PipeProducerCommitOp commit,
                      const PipeStep &s);
  void commitTcgen05(mlir::tileas::PipeProducerCommitOp commit,
                     const PipeStep &s, mlir::Value slot);
  void releaseAfterWgmma(mlir::tileas::PipeConsumerReleaseOp release,
                         const PipeStep &s);
  void arriveEmpty(const PipeLayout &p, mlir::Value slot, mlir::Value k,
                   int32_t arrivals,
                   llvm::StringRef arrive = "tp::mbar_arrive");
  /// wgmma.wait_group 0, then the releases still waiting for it.
  void flushWgmmaReleases();
  /// Whether assigning `values` copies a Hopper accumulator a wgmma may
  /// still be writing.
  bool copiesFragment(mlir::ValueRange values) const {
    return wgmmaInFlight && llvm::any_of(values, [&](mlir::Value v) {
             return copiesMmaResult(v);
           });
  }

  //===--- Two warpgroups' wgmma issue turns (IssueTurns.cpp) --------===//

  /// Whether the current agent's warpgroups take issue turns
  /// (analysis/IssueTurns.h).
  bool issueTurns() const {
    return layout.agents[agent].issueTurns() && !narrowed;
  }
  /// The turn as the code is emitted: whether this warpgroup holds it, and
  /// the commit groups it issued since it took it.
  struct IssueTurn {
    bool held = false;
    int64_t groups = 0;
  };
  void openIssueTurns();
  void closeIssueTurns();
  /// Before a wgmma issue: the turn taken if not held; one more group.
  void issueInTurn();
  void passIssueTurn();
  /// `callee<first turn barrier>(warpgroup)`.
  void turnCall(llvm::StringRef callee);
  /// wgmma.wait_group n; the turn passed first when the wait would hold it
  /// through this turn's own MMAs.
  void wgmmaWait(int64_t n);
  /// The threads that read a slot meet before its release: the warpgroup
  /// alone where the warpgroups take turns, else the agent.
  void releaseSync();
  /// The turn brought back to `to` at the end of a branch or loop body, so
  /// that every path meets in one state.
  void restoreIssueTurn(const IssueTurn &to);
  /// Whether copying fragment `v` may read registers a wgmma still writes:
  /// where the warpgroups take issue turns, not for one the code computed
  /// (O rescaled), which no MMA writes.
  bool copiesMmaResult(mlir::Value v) const {
    if (!wgmmaFrags.count(v))
      return false;
    mlir::Operation *def = v.getDefiningOp();
    return !(issueTurns() && def && !mlir::isa<mlir::tileas::WgmmaOp>(def));
  }
  /// The agent's warpgroup of the calling thread, from the warp index
  /// (warp-uniform, tp::warp_idx), as C++ text's value.
  mlir::Value warpgroupInAgent();

  //===--- Tile ops (TileOps.cpp) -----------------------------------------===//

  mlir::LogicalResult emitStorage(mlir::Operation *op);
  mlir::LogicalResult emit(mlir::tileas::TmaLoadOp op);
  mlir::LogicalResult emit(mlir::tileas::SmemViewOp op);
  mlir::LogicalResult emit(mlir::tileas::TmaStoreOp op);
  mlir::LogicalResult emit(mlir::tileas::CpAsyncOp op);
  mlir::LogicalResult emit(mlir::tileas::TmemCopyOp op);
  mlir::LogicalResult emit(mlir::tileas::UmmaOp op);
  mlir::LogicalResult emit(mlir::tileas::WgmmaOp op);
  mlir::LogicalResult emitWgmmaAccStore(mlir::Operation *store, int64_t regs);

  //===--- Agents whose tiles lie in the wgmma fragment's rows
  //      (FragmentRows.cpp) ----------------------------------------------===//

  /// A cast between the ISA's fragment and its rows (WgmmaAccumulators.h).
  mlir::LogicalResult emit(mlir::UnrealizedConversionCastOp op);
  /// Refuses what such an agent cannot do: ops that address a tile a row a
  /// thread (loads, TMEM, rows split over lanes, per-column vectors).
  mlir::LogicalResult checkFragmentRows(mlir::Operation *op);
  void findThreadRowsIsland();
  mlir::LogicalResult emitOpOfLayout(mlir::Operation *op);
  mlir::FailureOr<int64_t> fragmentRowsSize(mlir::Location loc,
                                            mlir::RankedTensorType type);
  mlir::LogicalResult emitRowsStore(mlir::tileas::SmemStoreOp store);
  mlir::LogicalResult emitRowsLoad(mlir::tileas::SmemLoadOp load);
  std::string rowsOffsets(mlir::Value smem, mlir::RankedTensorType t);
  /// wgmma commit groups issued after the one that wrote `v`, up to `at`,
  /// on every path there; -1 when not known (then wait for all).
  int64_t groupsAfter(mlir::Value v, mlir::Operation *at);
  /// The rows a thread holds, as the templates count them.
  int64_t fragmentRowSlots() const { return 2 * fragBands; }
  //===--- An epilogue on the fragment's rows evaluated in column pieces
  //      (RowsPieces.cpp) ------------------------------------------------===//

  /// Plans, for each store of a rows tile in `block`, the ops that only it
  /// reads: they are emitted at the store, a piece at a time.
  void planRowsPieces(mlir::Block &block);
  bool rowsPieceMember(mlir::Operation *op, llvm::ArrayRef<int64_t> shape);
  mlir::LogicalResult emitRowsPieces(mlir::tileas::SmemStoreOp store);

  mlir::LogicalResult emit(mlir::tileas::BroadcastOp op);
  mlir::LogicalResult emit(mlir::tileas::IotaOp op);
  mlir::LogicalResult emit(mlir::tileas::GlobalLoadOp op);
  mlir::LogicalResult emit(mlir::tileas::GlobalStoreOp op);
  mlir::LogicalResult emit(mlir::tileas::GlobalGatherOp op);
  mlir::LogicalResult emit(mlir::tileas::GlobalScatterOp op);
  llvm::SmallVector<mlir::Value>
  elementIndices(mlir::Location loc, mlir::ValueRange indices,
                 mlir::ValueRange strides, mlir::ValueRange bounds, int64_t n);
  mlir::LogicalResult emit(mlir::tileas::ReduceLanesOp op);
  mlir::LogicalResult emit(mlir::tileas::ScanOp op);
  mlir::LogicalResult emit(mlir::tileas::ReduceAllOp op);
  llvm::SmallVector<mlir::Value> acrossWarps();
  mlir::LogicalResult emitTileLoad(mlir::Operation *op);
  mlir::Value padded(mlir::tileas::SmemLoadOp load, mlir::Value frag,
                     mlir::Value row, int64_t n);
  mlir::LogicalResult emitTileStore(mlir::Operation *op);
  mlir::LogicalResult emitTileMath(mlir::Operation *op);
  mlir::LogicalResult emitEpilogueLoad(mlir::tileas::TmaLoadOp load);
  mlir::LogicalResult emitTmaLoad(mlir::tileas::TmaLoadOp load, mlir::Value dst,
                                  mlir::Value bars, int64_t depth,
                                  mlir::Value k, int64_t id);
  mlir::LogicalResult emitMmaOperandStore(mlir::Operation *op,
                                          const TileLayout &tile,
                                          mlir::Value frag, mlir::Value dst,
                                          int64_t n);
  void freeScaleFactors(mlir::tileas::UmmaOp mma);

  //===--- Values (KernelValues.cpp) --------------------------------------===//

  /// The C++ value of `v` in the current agent, made there when it was
  /// made outside the agents; null (and `broken`) when there is none.
  mlir::Value lookup(mlir::Location loc, mlir::Value v);
  mlir::Operation *agentStartFor(mlir::Location loc, mlir::Value v);
  mlir::Value makeAgentValue(mlir::Location loc, mlir::Value v);
  bool madeByAgents(mlir::Operation *op);
  mlir::Value emitUnkept(mlir::Value v);
  mlir::Value loadTileParameter(mlir::Location loc, mlir::Value v);
  mlir::Value makeSplatConstant(mlir::Location loc, mlir::Value v,
                                mlir::DenseElementsAttr dense);
  mlir::Value makePoison(mlir::Location loc, mlir::Value v);
  mlir::Value makePosition(mlir::Location loc, mlir::Value v);
  mlir::Value emitSplat(mlir::Location loc, mlir::tensor::SplatOp splat);
  mlir::Value makeColumnVector(mlir::Location loc, mlir::Value v);
  mlir::FailureOr<int64_t> fragSize(mlir::Location loc,
                                    mlir::RankedTensorType type);
  bool rowsTwice(mlir::RankedTensorType type);
  mlir::LogicalResult checkTmemRows(mlir::Location loc,
                                    mlir::RankedTensorType type,
                                    llvm::StringRef tmemLayout);
  mlir::Value threadRow(mlir::RankedTensorType type);
  mlir::FailureOr<mlir::Type> convert(mlir::Location loc, mlir::Type type);
  /// As above, for the value `v`: a per-column vector (Broadcasts.h) is
  /// held whole by every thread.
  mlir::FailureOr<int64_t> fragSize(mlir::Location loc, mlir::Value v);
  mlir::FailureOr<int64_t> columnVectorSize(mlir::Location loc,
                                            mlir::RankedTensorType tensor);
  /// Whether every element a thread holds of `v` is the same: positions
  /// along the rows of a tile a thread holds one row of, splats, and
  /// integer math and gathers on such values (KernelValues.cpp).
  bool sameInThread(mlir::Value v, unsigned depth = 0);
  /// A per-column vector read from SMEM into the fragment's rows: each
  /// thread its columns (FragmentRows.cpp).
  mlir::Value columnsLoad(mlir::tileas::SmemLoadOp load, mlir::Type type,
                          int64_t n);
  /// smem_load transposed (TileOps.cpp).
  mlir::LogicalResult emitTransposedLoad(mlir::tileas::SmemLoadOp load,
                                         mlir::Type type, mlir::Value row,
                                         int64_t n);
  mlir::FailureOr<mlir::Type> convert(mlir::Location loc, mlir::Value v);
  /// The thread index a per-thread load of `v` reads at: 0 for a per-column
  /// vector (every thread reads all of it), else the thread's.
  mlir::Value rowsOf(mlir::Value v) {
    return columns.contains(v)
               ? intLit(0)
               : threadRow(mlir::cast<mlir::RankedTensorType>(v.getType()));
  }
  void pinWide(mlir::Operation *op, mlir::ValueRange operands);
  mlir::Value storeAddress(mlir::Operation *store);
  std::optional<std::pair<std::string, mlir::Value>>
  mmaOperand(mlir::Operation *store);
  const TileLayout *mmaTileOf(mlir::Value v);
  mlir::Value slotAddress(const PipeLayout &p, mlir::Value k);
  mlir::Value accMask(const UnsetAccumulator &u);
  mlir::Value agentVariable(mlir::Type type, llvm::StringRef init);
  mlir::Value scaleCount(mlir::Operation *copy);
  void stageOperands(
      mlir::tileas::WgmmaOp mma,
      std::array<std::pair<mlir::Value *, std::string *>, 2> operands);
  void startAgentCounters();

  //===--- Builders -------------------------------------------------------===//

  mlir::Type i64() { return b.getI64Type(); }
  mlir::Type u32() { return b.getIntegerType(32, /*isSigned=*/false); }
  mlir::Type i1() { return b.getI1Type(); }
  mlir::Type opaque(llvm::StringRef text) {
    return mlir::emitc::OpaqueType::get(ctx, text);
  }
  mlir::Value literal(mlir::Type type, const llvm::Twine &text) {
    return b.create<mlir::emitc::LiteralOp>(func.getLoc(), type, text.str());
  }
  mlir::Value call(mlir::Type result, llvm::StringRef callee,
                   mlir::ValueRange operands,
                   llvm::ArrayRef<std::string> templateArgs = {});
  void callVoid(llvm::StringRef callee, mlir::ValueRange operands,
                llvm::ArrayRef<std::string> templateArgs = {}) {
    call(mlir::Type(), callee, operands, templateArgs);
  }
  mlir::Value intLit(int64_t v) { return literal(i64(), llvm::Twine(v)); }
  mlir::Value boolLit(bool v) { return literal(i1(), v ? "true" : "false"); }
  /// A scalar operand of tileas math (fma's, mul's `%s`) as the elementwise
  /// calls take it: one value for every element, tp::splat<float, 1>.
  mlir::Value scalarOperand(mlir::Value scalar) {
    return call(opaque("tp::Frag<float, 1>"), "tp::splat", {scalar},
                {"float", "1"});
  }
  /// `v += 1` for an int64_t variable.
  void increment(mlir::Location loc, mlir::Value v);
  /// Sets the insertion point before `region`'s terminator, adding one.
  void enter(mlir::Region &region);
  /// Runs `body` in the elected thread only.
  ///
  /// A one-warp agent (the TMA and MMA issuers) elects its lane again right
  /// at each site, with `elect.sync` alone: ptxas then issues the guarded
  /// tcgen05 and TMA instructions under the ELECT predicate, where behind
  /// the agent's flag it wraps each in a loop over the warp's active lanes
  /// (docs/peers.md, "Loop length"). Agents of several warps keep the flag.
  /// `who`: another elected thread than the agent's (a warpgroup's).
  void inLeader(llvm::function_ref<void()> body, mlir::Value who = {});
  void agentSync();
  /// The threads running the current agent's code here: its own, or the
  /// first warpgroup's after a Hopper epilogue narrowed it (`narrowed`).
  int agentThreads() const {
    return narrowed ? narrowed : layout.agents[agent].threads();
  }
  const PipeLayout &pipeOf(mlir::Value pipe) {
    return layout.pipes[layout.pipeIds.lookup(pipe.getDefiningOp())];
  }
  /// Pipes are made by pipe.create in the function (not passed in).
  bool knownPipe(mlir::Value pipe) {
    return pipe.getDefiningOp<mlir::tileas::PipeCreateOp>() &&
           layout.pipeIds.count(pipe.getDefiningOp());
  }
  mlir::Value barriers(llvm::StringRef name) {
    return literal(opaque("uint64_t *"), "S." + name);
  }
  /// The address of an SMEM member of the kernel's struct.
  mlir::Value smemAddress(llvm::StringRef member) {
    return call(u32(), "tp::smem_addr",
                {literal(opaque("void *"), "S." + member)});
  }
  /// A TMEM address `column` columns into the kernel's allocation.
  mlir::Value tmemAddress(int64_t column) {
    return literal(u32(), "(tp_tmem + " + llvm::Twine(column) + ")");
  }
  mlir::Value accBase(const UnsetAccumulator &u) {
    return tmemAddress(u.column);
  }

  //===--- State ----------------------------------------------------------===//

  mlir::func::FuncOp func;
  const KernelLayout &layout;
  mlir::OpBuilder &b;
  mlir::MLIRContext *ctx;
  llvm::DenseMap<mlir::Value, mlir::Value> map;
  unsigned agent = 0;        ///< The agent whose code is being emitted.
  mlir::Value leader, tid;   ///< Its elected thread, its thread index.
  mlir::Value row64;         ///< The row of a 64-row tile the thread holds.
  bool oneWarpAgent = false; ///< The current agent is one warp.
  /// Where the warpgroups take issue turns: the warpgroup's index in the
  /// agent, its elected thread (which makes its slot releases), the turn.
  mlir::Value groupIndex, groupLeader;
  IssueTurn issueTurn;
  /// The scf.for bodies the code being emitted is nested in.
  int loopDepth = 0;
  bool broken = false;
  /// The current agent's copies of register tiles made outside the agents.
  llvm::DenseMap<mlir::Value, mlir::Value> agentValues;
  /// Register tiles evaluated in column pieces (TileStreams.h).
  TileStreams streams;
  mlir::emitc::FuncOp kernel;                    ///< The kernel being built.
  llvm::SmallVector<mlir::BlockArgument> passed; ///< Its parameters, in order.
  /// The current agent's lock count per mbarrier mutex.
  llvm::DenseMap<mlir::Operation *, mlir::Value> mutexLocks;
  /// The current agent's written-slot masks of accumulators that start
  /// without a value, by TMEM column (RuntimeCalls.h, UnsetAccumulator).
  llvm::DenseMap<int64_t, mlir::Value> accMasks;
  /// The current agent's count of each double-buffered scale-factor copy.
  llvm::DenseMap<mlir::Operation *, mlir::Value> scaleCounts;
  /// The current agent's count of each staging ring (KernelLayout::Staged),
  /// by its SMEM member.
  llvm::StringMap<mlir::Value> stagedCounts;
  unsigned accMaskAgent = ~0u;
  /// Persistent kernels (`tileas.persistent`): each agent runs the tiles
  /// blockIdx.x, + gridDim.x, ... of the grid the launch was asked for
  /// (tp_tiles_*), and continues its pipes' iterations from tile to tile.
  bool persistent = false;
  mlir::Value tiles[3];  ///< The asked-for grid, kernel parameters.
  mlir::Value tileId[3]; ///< The current tile's block index.
  mlir::emitc::ForOp tileLoop;
  mlir::Operation *tileStart = nullptr; ///< The last op of the tile's preamble.
  /// Per pipe of the current agent: the iteration its tile starts at
  /// (before the tile loop) and how many iterations this tile has used.
  llvm::DenseMap<unsigned, std::pair<mlir::Value, mlir::Value>> pipeTile;
  /// Of a ping-pong agent: its copy's index as C++ text ("" otherwise), the
  /// loop the copies take turns on, the copy's count of tiles run, and the
  /// last op of its main-loop turn's start (where pipe bases are read).
  std::string copyText;
  mlir::Operation *turnLoop = nullptr;
  mlir::Value turnCount;
  mlir::Operation *turnStart = nullptr;
  bool turnPassed = false; ///< The main loop's turn, this tile.
  /// The per-column vectors of the function (Broadcasts.h).
  llvm::DenseSet<mlir::Value> columns;
  /// Hopper accumulators, held in the wgmma fragment, with their registers
  /// a thread (WgmmaAccumulators.h).
  llvm::DenseMap<mlir::Value, int64_t> wgmmaFrags;
  /// The current agent's releases via wgmma_wait not yet made, per pipe id:
  /// the iteration (-1: none) whose slot the next wgmma.wait_group frees.
  struct PendingRelease {
    mlir::Value k;
    const PipeLayout *pipe = nullptr;
    int32_t arrivals = 1;
  };
  llvm::MapVector<unsigned, PendingRelease> wgmmaPending;
  /// Whether a wgmma was issued since the last wgmma.wait_group 0, in the
  /// order the code is emitted (a branch's either way).
  bool wgmmaInFlight = false;
  /// Nonzero after the accumulator of two consumer warpgroups went to
  /// SMEM: the rest of the agent runs in its first `narrowed` threads.
  int narrowed = 0;
  /// The branch the narrowed code runs in. In a persistent kernel it ends
  /// with the tile, where every thread meets before the next tile.
  mlir::Operation *narrowIf = nullptr;
  /// The agent's elected thread while code is narrowed to fewer lanes than
  /// a warp, whose elected lane may lie outside them: restored where the
  /// narrowing ends.
  mlir::Value leaderBeforeNarrow;
  /// Nonzero in an agent whose register tiles lie in the wgmma fragment's
  /// rows: the 64-row bands each warpgroup holds (tileas.fragment_bands).
  int64_t fragBands = 0;
  /// Nonzero where those tiles are narrow (tileas.fragment_rows): their
  /// rows, held as the fragment's 64.
  int64_t fragRows = 0;
  /// In such an agent, the ops that keep a row a thread instead: an SMEM
  /// tile read with rows split over lanes, elementwise math on it, and its
  /// store back (findThreadRowsIsland, once a function: the island is the
  /// function's, whichever agent holds it).
  llvm::DenseSet<mlir::Operation *> threadRowsOps;
  llvm::DenseSet<mlir::Value> threadRowsValues;
  bool threadRowsFound = false;
  /// The agent's fragment layout set aside (`on`) while an op or value of
  /// the island is translated or sized, restored after.
  struct ThreadRowsScope {
    KernelEmitter &e;
    int64_t bands, rows;
    ThreadRowsScope(KernelEmitter &e, bool on)
        : e(e), bands(e.fragBands), rows(e.fragRows) {
      if (on)
        e.fragBands = e.fragRows = 0;
    }
    ~ThreadRowsScope() {
      e.fragBands = bands;
      e.fragRows = rows;
    }
  };
  /// The template arguments of a rows-layout load or store, ending with the
  /// runtime's `Rows` for a narrow tile (its rows past the tile's kept out
  /// of memory).
  llvm::SmallVector<std::string>
  rowsAccessArgs(std::initializer_list<std::string> args) const;
  /// The planned chains of ops evaluated at their store, in block order,
  /// and every op of them (RowsPieces.cpp).
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Operation *>>
      rowsChains;
  llvm::DenseSet<mlir::Operation *> rowsDeferred;
};

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_EMIT_KERNELEMITTER_H
