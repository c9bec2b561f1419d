//===- StageCodeEmitter.h - what the stage-code steps share ---*- C++ -*-===//
//
// Stage code is made in three steps after the agent partition
// (materialize/plan/AgentPartition.h, which touches no IR):
//
//   StageReads.cpp     which pipe slot, register or recomputation each op
//                      reads; the consumer groups and how they release
//   LoopResults.cpp    where the code after the loop runs and how the
//                      loop's results reach it
//   PipeCreation.cpp   the pipes and mutexes (MmaResults.cpp: the result
//                      pipes of a unit that leaves its accumulator in TMEM)
//   RowExpansion.cpp   an agent's rows: prologue, steady loop, epilogue
//   AgentBodies.cpp    the agents around their rows, and the hand-off of
//                      the loop's results (ResultHandOff.cpp)
//   StageCode.cpp      the driver: the steps in order
//
// Each step reads what the ones before it decided; only the last three
// build IR. Internal to the stage-code files.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_MLIR_STAGECODEEMITTER_H
#define TILEPIPE_MATERIALIZE_MLIR_STAGECODEEMITTER_H

#include "materialize/mlir/PipeOps.h"
#include "materialize/mlir/StageCode.h"
#include "materialize/plan/AgentPartition.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace tilepipe::stagecode {

using materialize::Unit;
using sched::OpId;

/// The ops of one agent that read one pipe's slot in one stage on one unit:
/// one wait before the first, one release after the last. Each group is
/// one entry of the pipe's `consumers`.
struct ConsumerGroup {
  unsigned pipe = 0, agent = 0, stage = 0;
  Unit unit = Unit::SIMT;
  std::vector<OpId> ops;
};

/// An agent of the partition, with what its rows carry.
struct Agent : materialize::AgentPart {
  std::vector<unsigned> carried; ///< Loop-carried values it produces.
  /// Values it makes that are read rows later, with the most rows.
  llvm::MapVector<mlir::Value, unsigned> lagged;
};

enum class RowKind { Prologue, Steady, Epilogue, Sequential };

/// What a row reads from the rows before it.
struct RowState {
  llvm::SmallVector<mlir::Value> last; ///< Per Agent::carried: its latest.
  /// Per Agent::lagged value: regs[v][j] was made j + 1 rows ago.
  llvm::DenseMap<mlir::Value, llvm::SmallVector<mlir::Value>> regs;
};

/// What one row has made so far.
struct RowValues {
  llvm::DenseMap<mlir::Value, mlir::Value> made;
  /// Free ops recomputed for a local stage.
  llvm::DenseMap<std::pair<mlir::Value, unsigned>, mlir::Value> remat;
  llvm::DenseMap<unsigned, mlir::Value> waited; ///< Per consumer group.
  /// Per local stage: the iteration, and its induction variable.
  llvm::DenseMap<unsigned, mlir::Value> iter, iv;
};

/// How a loop result kept in a register of one agent reaches the code
/// after the loop running elsewhere. `Tail`: it is a register tile carried
/// to that agent, whose pipe iteration N (read by no iteration) holds it.
/// `Extra`: through a register pipe from its agent to that one, as pipe
/// iteration N + offset. `Own`: through a one-slot SMEM pipe.
struct Transport {
  enum Kind { Tail, Extra, Own } kind = Own;
  unsigned pipe = 0, offset = 0;
};

/// Warp-specialized: a part of the code after the loop, run by one agent
/// (nullopt: the epilogue agent).
struct Part {
  llvm::SmallVector<mlir::Operation *> ops;
  std::optional<unsigned> host;
};

/// The results the code after the loop reads, and the slots it holds.
struct ReadResults {
  mlir::IRMapping after;
  llvm::SmallVector<unsigned> held, heldCarried;
};

// The dialect's kinds for the unit at each end of a pipe; the commit and
// release flavours then come from the dialect's own rule, the one its
// verifier checks.
mlir::tileas::PipeProducerKind producerKind(Unit unit);
mlir::tileas::PipeConsumerKind consumerKind(Unit unit);
mlir::tileas::SignalKind commitVia(Unit unit);
/// How a consumer group of `unit` releases its slot: the unit's kind. A
/// UMMA consumer's is a tcgen05.commit even when the slot's next writer is
/// an MMA of the same thread (materialize/plan/Flavour.h).
mlir::tileas::SignalKind releaseVia(Unit unit);

class StageCodeEmitter {
public:
  StageCodeEmitter(LoopPlan &plan, StageCodeMode mode)
      : plan(plan), loop(plan.loop.loop), body(loop.getBody()),
        schedule(plan.schedule), ops(plan.loop.ops), mode(mode) {}

  // Steps, in the order the driver (StageCode.cpp) runs them.
  mlir::LogicalResult analyze(std::string &why);
  void emit();

  // StageReads.cpp: what each op reads.
  mlir::LogicalResult checkBody(std::string &why);
  void partition();
  mlir::LogicalResult planRegisterPipes(std::string &why);
  mlir::LogicalResult checkPipeProducers(std::string &why);
  mlir::LogicalResult collectReads(std::string &why);
  mlir::LogicalResult readCarried(OpId u, mlir::BlockArgument arg,
                                  std::string &why);
  mlir::LogicalResult readValue(OpId u, mlir::Value x,
                                llvm::SmallVectorImpl<mlir::Value> &worklist,
                                std::string &why);
  void joinGroup(unsigned p, OpId u);
  void noteLag(unsigned a, mlir::Value v, unsigned lag);
  mlir::LogicalResult planReleases(std::string &why);
  mlir::LogicalResult weighRingReleases(std::string &why);
  void holdSlots();
  std::optional<OpId> holdUntilFor(unsigned g);
  mlir::LogicalResult assignCarried(std::string &why);

  // LoopResults.cpp: the code after the loop.
  void splitCodeAfterLoop();
  void pullInOperands(llvm::DenseSet<mlir::Operation *> &inMain);
  mlir::LogicalResult placeCodeAfterLoop(std::string &why);
  std::vector<Part> partsOfEpilogue();
  mlir::LogicalResult hostPart(Part &part, std::string &why);
  int64_t
  planTransports(const llvm::DenseMap<unsigned, std::optional<unsigned>> &hosts,
                 llvm::MapVector<unsigned, Transport> &out, std::string &why);
  bool isRegisterResult(unsigned k) const {
    return !llvm::is_contained(resultPiped, k) && !carriedPipe.count(k);
  }

  // PipeCreation.cpp.
  void createPipes(mlir::OpBuilder &b);
  void createMutexes(mlir::OpBuilder &b);
  void createTransportPipes(mlir::OpBuilder &b);
  mlir::Value createOneWayPipe(mlir::OpBuilder &b, mlir::tileas::PipeType type,
                               unsigned depth,
                               mlir::tileas::PipeProducerKind producer,
                               int64_t bytes);
  mlir::tileas::PipeConsumerKind
  consumerKindOf(const ConsumerGroup &group) const;
  llvm::SmallVector<mlir::Attribute> consumersOf(mlir::OpBuilder &b,
                                                 unsigned p);

  // MmaResults.cpp: accumulators left in TMEM.
  mlir::LogicalResult findResultPipes(std::string &why);
  void createResultPipes(mlir::OpBuilder &b);
  void acquireResultSlots(mlir::OpBuilder &b, unsigned a);
  void commitResults(mlir::OpBuilder &b, unsigned a,
                     llvm::ArrayRef<mlir::Value> finals);
  mlir::Value waitResult(mlir::OpBuilder &b, unsigned k);
  void releaseResult(mlir::OpBuilder &b, unsigned k);

  // RowExpansion.cpp.
  void emitAgent(mlir::OpBuilder &b, unsigned a,
                 llvm::SmallVectorImpl<mlir::Value> &finals);
  RowState initialRowState(mlir::OpBuilder &b, unsigned a);
  void rowLoop(mlir::OpBuilder &b, unsigned a, mlir::Value from, mlir::Value n,
               RowKind kind, RowState &state);
  void emitRow(mlir::OpBuilder &b, unsigned a, mlir::Value row, RowKind kind,
               unsigned staticRow, RowState &state);
  void waitSlots(mlir::OpBuilder &b, unsigned a, OpId u, mlir::Value iter,
                 const llvm::DenseMap<unsigned, OpId> &groupFirst,
                 RowValues &values);
  mlir::Operation *produce(mlir::OpBuilder &b, OpId u, mlir::IRMapping &map,
                           mlir::Value iter);
  void releaseSlots(mlir::OpBuilder &b, OpId u,
                    const llvm::DenseMap<unsigned, OpId> &groupLast,
                    mlir::Value iter);
  void rotate(mlir::OpBuilder &b, unsigned a, RowKind kind,
              const RowValues &values, RowState &state);
  mlir::Value resolve(mlir::OpBuilder &b, unsigned a, mlir::Value x, OpId user,
                      unsigned ls, RowKind kind, RowState &state,
                      RowValues &values);
  mlir::Value fromRows(mlir::OpBuilder &b, unsigned a, mlir::Value v,
                       unsigned lag, RowState &state, RowValues &values);
  mlir::Operation *cloneInto(mlir::OpBuilder &b, mlir::Operation *op,
                             mlir::IRMapping &map, mlir::Value slot);
  llvm::SmallVector<mlir::Value> flatten(unsigned a, const RowState &state);
  RowState unflatten(unsigned a, mlir::ValueRange values);

  // AgentBodies.cpp.
  void emitAgents(mlir::OpBuilder &b);
  mlir::OpBuilder makeAgent(mlir::OpBuilder &b, llvm::StringRef role,
                            int32_t warps, std::optional<OpId> first);
  void runAgent(mlir::OpBuilder &b, unsigned a,
                llvm::SmallVectorImpl<mlir::Value> &finals);
  void publishInitialSlots(mlir::OpBuilder &b, unsigned a);
  void drainLastIteration(mlir::OpBuilder &b, unsigned a);

  // ResultHandOff.cpp.
  std::pair<mlir::Value, mlir::Value> transportAt(mlir::OpBuilder &b,
                                                  unsigned k);
  void sendResult(mlir::OpBuilder &b, unsigned k, mlir::Value v);
  mlir::Value receiveResult(mlir::OpBuilder &b, unsigned k);
  mlir::Value waitCarried(mlir::OpBuilder &b, unsigned k);
  void releaseCarried(mlir::OpBuilder &b, unsigned k);
  void readResults(mlir::OpBuilder &b, std::optional<unsigned> host,
                   llvm::ArrayRef<mlir::Value> finals, ReadResults &read,
                   llvm::function_ref<bool(unsigned)> wanted);
  void releaseHeld(mlir::OpBuilder &b, const ReadResults &read);
  void resultsInBody(mlir::OpBuilder &b, llvm::ArrayRef<mlir::Value> finals);
  void epilogueIn(mlir::OpBuilder &b, const Part &part,
                  llvm::ArrayRef<mlir::Value> finals);
  void eraseLoop();

  // Small helpers every step uses:
  unsigned stageOf(OpId id) const { return schedule.slots[id].stage; }
  OpId idOf(mlir::Operation *op) const { return plan.loop.ids.lookup(op); }
  bool inBody(mlir::Value v) {
    mlir::Region *r = v.getParentRegion();
    return r && (r == &loop.getRegion() || loop.getRegion().isAncestor(r));
  }
  /// The scheduled, non-free op defining `v` in the body, if any.
  std::optional<OpId> bodyDef(mlir::Value v) const {
    mlir::Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body)
      return std::nullopt;
    return idOf(def);
  }
  unsigned localStage(unsigned a, OpId id) const {
    return stageOf(id) - agents[a].minStage;
  }
  bool isProducer(OpId id) const {
    return ops[id]->getNumResults() == 1 && pipeOf.count(ops[id]->getResult(0));
  }
  /// The local stage at which agent `a` has `v`: where it makes it, or
  /// where it loads its copy.
  unsigned makerLocalStage(unsigned a, mlir::Value v) const {
    if (auto it = copyStage.find({a, v}); it != copyStage.end())
      return it->second - agents[a].minStage;
    return localStage(a, *bodyDef(v));
  }
  mlir::Value initOf(unsigned k) {
    if (mlir::Value v = initOverride.lookup(k))
      return v;
    return loop.getInitArgs()[k];
  }
  mlir::Value yielded(unsigned k) {
    return body->getTerminator()->getOperand(k);
  }
  /// The agent making loop-carried value `k`.
  unsigned makerOf(unsigned k) { return agentOf[*bodyDef(yielded(k))]; }
  mlir::Value poison(mlir::OpBuilder &b, mlir::Type type) {
    return b.create<mlir::ub::PoisonOp>(loop.getLoc(), type);
  }
  PipeOps handshakes(mlir::OpBuilder &b) { return PipeOps(b, loop.getLoc()); }
  void fence(mlir::OpBuilder &b, mlir::tileas::FenceKind kind) {
    handshakes(b).fence(kind);
  }
  mlir::Value cst(mlir::OpBuilder &b, int64_t v) {
    return b.create<mlir::arith::ConstantIndexOp>(loop.getLoc(), v);
  }
  ScheduleTag tagOf(mlir::OpBuilder &b, OpId id) {
    return ScheduleTag::of(b, stageOf(id), schedule.slots[id].order);
  }
  std::string typeName(mlir::Type t) const;
  /// An agent as the remarks name it: its role, and its warp group.
  std::string agentName(unsigned a) const;
  bool grouped() const {
    return llvm::any_of(plan.warpGroups, [](const std::optional<unsigned> &g) {
      return bool(g);
    });
  }
  /// The role an agent's `tileas.agent` gets: `softmax` for warp-group
  /// agents when warp groups are marked, unless a warp group names its own.
  llvm::StringRef roleOf(unsigned a) const;
  const materialize::UnitRole &rowOf(unsigned a) const {
    return materialize::roleRow(agents[a].key.role);
  }
  /// The type of a pipe's slots: a register tile's pipe holds it in SMEM.
  mlir::Type slotType(unsigned p);
  mlir::Type smemOf(mlir::Type registerTile);
  /// A register tile stored into, or loaded from, the slot that hands it
  /// to another agent. Marked `tileas.transport`: the executing check
  /// passes the tile through unchanged and does not count these as the
  /// loop's own work (docs/protocol-check.md).
  mlir::Value storeToSlot(mlir::OpBuilder &b, mlir::Value v, mlir::Value slot);
  mlir::Value loadFromSlot(mlir::OpBuilder &b, mlir::Value slot,
                           mlir::Type type);
  /// The pipe value a pipe's ops name: a ring member uses its ring's.
  mlir::Value pipeValue(unsigned p);
  /// The type of the slots a pipe's ops hand out: a ring member's are its
  /// ring's, viewed as its own tile where the shapes differ.
  mlir::Type ringSlotType(unsigned p);
  mlir::Value viewAs(mlir::OpBuilder &b, mlir::Value slot, mlir::Type type);
  /// The pipe iteration of loop iteration `iter`: ring members take turns,
  /// and a carried accumulator made in iteration i is pipe iteration i + 1
  /// (pipe iteration 0 is the loop's initial buffer).
  mlir::Value pipeIter(mlir::OpBuilder &b, unsigned p, mlir::Value iter,
                       bool producing);
  /// A pipe's first consumer group. For a carried pipe its agent alone may
  /// wait on the pipe's last iteration (it waited on every earlier one), and
  /// releases it the way its unit can.
  const ConsumerGroup &firstGroup(unsigned p) {
    return *llvm::find_if(groups,
                          [&](const ConsumerGroup &g) { return g.pipe == p; });
  }
  unsigned carriedReader(unsigned p) { return firstGroup(p).agent; }
  /// N = max(0, ceil((ub - lb) / step)), as index whatever the loop's type.
  mlir::Value tripCount(mlir::OpBuilder &b);
  /// The induction variable of iteration `i` (an index), lb + i * step, in
  /// the loop's own type.
  mlir::Value inductionValue(mlir::OpBuilder &b, mlir::Value i);

  // The plan:
  LoopPlan &plan;
  mlir::scf::ForOp loop;
  mlir::Block *body;
  const sched::ScheduleAnalysis &schedule;
  const std::vector<mlir::Operation *> &ops;
  StageCodeMode mode;

  // Decided by the partition and StageReads.cpp:
  std::vector<bool> isFree;
  std::vector<int> agentOf; ///< -1 for free ops.
  std::vector<Agent> agents;
  llvm::DenseMap<mlir::Value, unsigned> pipeOf;
  std::vector<ConsumerGroup> groups;
  /// Per group, how many consumer entries it stands for: more than one for
  /// a ring member read by fewer groups than the ring's other tiles.
  std::vector<unsigned> groupWeight;
  /// Per op, the consumer groups it belongs to.
  std::vector<std::vector<unsigned>> groupsOfOp;
  /// Per pipe: a register tile handed to another SIMT agent through shared
  /// memory (its producer stores it after making it, each consumer loads it
  /// after its wait and releases at once); `regCarried`: read by the other
  /// agent in the next iteration, so pipe iteration i + 1 is iteration i's
  /// value and pipe iteration 0 the loop's initial one.
  std::vector<bool> regPipe, regCarried;
  /// Per regCarried pipe: the iter_arg it carries.
  llvm::DenseMap<unsigned, unsigned> regCarriedArg;
  /// (agent, value): the stage at which an agent reading another agent's
  /// register tile in its own iteration loads it; the copy is what its
  /// reads of the same tile in the next iteration get (FA4's correction
  /// reading m_new, and m_old = the last iteration's m_new).
  llvm::DenseMap<std::pair<unsigned, mlir::Value>, unsigned> copyStage;
  /// (agent, iter_arg) pairs so carried as copies.
  llvm::SetVector<std::pair<unsigned, unsigned>> copies;
  /// Per consumer group: it hands its slot on to an aliasing pipe (the
  /// group stores over the tile it read) instead of releasing it.
  std::vector<bool> handsOn;
  /// Per consumer group: the op after which it releases its slot when that
  /// is not its last op (see holdSlots()).
  llvm::DenseMap<unsigned, OpId> holdUntil;
  /// Loop results that are carried pipes: iter_arg index -> pipe.
  llvm::MapVector<unsigned, unsigned> carriedPipe;

  // Decided by LoopResults.cpp and MmaResults.cpp:
  llvm::SetVector<mlir::Operation *> epilogue;
  /// The code after the loop reads results in the function body itself
  /// (they are returned, or read by an op with regions): it stays there,
  /// after the agents, and every result it reads is handed to it.
  bool hostIsMain = false;
  llvm::MapVector<unsigned, Transport> transports;
  /// Per register result read after the loop: the agent running the code
  /// that reads it (nullopt: the function body).
  llvm::DenseMap<unsigned, std::optional<unsigned>> resultHost;
  std::vector<Part> parts;
  /// Accumulators a unit leaves in TMEM when the loop ends: each is handed
  /// on through a one-slot pipe whose slot is the accumulator itself, so
  /// whoever reads it (or the MMA agent, draining) waits for the MMAs.
  std::vector<unsigned> resultPiped; ///< Carried indices.

  // Built by the emitting steps:
  std::vector<mlir::Value> pipes, mutexes;
  llvm::DenseMap<unsigned, mlir::Value> resultPipe, initOverride;
  llvm::DenseMap<unsigned, mlir::Value> transportPipe; ///< Own ones.
};

} // namespace tilepipe::stagecode

#endif // TILEPIPE_MATERIALIZE_MLIR_STAGECODEEMITTER_H
