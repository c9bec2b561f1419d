//===- StageCode.cpp - rows of pipelined stage code -----------------------===//
//
// See StageCode.h and docs/stage-code.md. The emitter first checks that the
// loop can be split as asked without touching the IR, then writes, per
// agent: the trip count, and either the pipelined rows (prologue, steady
// loop, epilogue: which stages run in a prologue or epilogue row is known
// statically once N >= S-1) or, for shorter trip counts, one iteration per
// row. Values used k rows after they are made rotate through k registers
// threaded through the steady loop; values of another unit are read from
// the pipe slot their consumer waited on.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/StageCode.h"

#include "materialize/mlir/PipeOps.h"

#include "ir/TileASDialect.h"
#include "materialize/plan/Agents.h"
#include "materialize/plan/Flavour.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tilepipe;
using materialize::AgentKey;
using materialize::BufferClass;
using materialize::MutexPlan;
using materialize::PipePlan;
using materialize::Unit;
using sched::OpId;

namespace {

/// The ops of one agent that read one pipe's slot in one stage on one unit:
/// one wait before the first, one release after the last. Each group is
/// one entry of the pipe's `consumers`.
struct ConsumerGroup {
  unsigned pipe = 0, agent = 0, stage = 0;
  Unit unit = Unit::SIMT;
  std::vector<OpId> ops;
};

struct Agent {
  AgentKey key;
  std::vector<OpId> ops;      ///< In (stage, order).
  std::vector<OpId> rowOrder; ///< By modulo cycle, older iteration first.
  unsigned minStage = ~0u, maxStage = 0;
  std::vector<unsigned> carried; ///< Loop-carried values it produces.
  /// Values it makes that are read rows later, with the most rows.
  llvm::MapVector<Value, unsigned> lagged;
};

enum class RowKind { Prologue, Steady, Epilogue, Sequential };

/// What a row reads from the rows before it.
struct RowState {
  SmallVector<Value> last; ///< Per Agent::carried: its latest value.
  /// Per Agent::lagged value: regs[v][j] was made j + 1 rows ago.
  llvm::DenseMap<Value, SmallVector<Value>> regs;
};

class Emitter {
public:
  Emitter(LoopPlan &plan, StageCodeMode mode)
      : plan(plan), loop(plan.loop.loop), body(loop.getBody()),
        schedule(plan.schedule), ops(plan.loop.ops), mode(mode) {}

  LogicalResult analyze(std::string &why);
  void emit();

private:
  unsigned stageOf(OpId id) const { return schedule.slots[id].stage; }
  OpId idOf(Operation *op) const { return plan.loop.ids.lookup(op); }
  bool inBody(Value v) {
    Region *r = v.getParentRegion();
    return r && (r == &loop.getRegion() || loop.getRegion().isAncestor(r));
  }
  /// The scheduled, non-free op defining `v` in the body, if any.
  std::optional<OpId> bodyDef(Value v) const {
    Operation *def = v.getDefiningOp();
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

  void emitAgent(OpBuilder &b, unsigned a, SmallVectorImpl<Value> &finals);
  void emitRow(OpBuilder &b, unsigned a, Value row, RowKind kind,
               unsigned staticRow, RowState &state);
  Value resolve(OpBuilder &b, unsigned a, Value x, OpId user, unsigned ls,
                RowKind kind, RowState &state,
                llvm::DenseMap<Value, Value> &thisRow,
                llvm::DenseMap<std::pair<Value, unsigned>, Value> &remat,
                llvm::DenseMap<unsigned, Value> &waited,
                llvm::DenseMap<unsigned, Value> &ivOf);
  Value poison(OpBuilder &b, Type type) {
    return b.create<ub::PoisonOp>(loop.getLoc(), type);
  }
  PipeOps handshakes(OpBuilder &b) { return PipeOps(b, loop.getLoc()); }
  /// A pipe from one unit to one SIMT consumer, outside the schedule.
  Value createOneWayPipe(OpBuilder &b, tileas::PipeType type, unsigned depth,
                         tileas::PipeProducerKind producer, int64_t bytes) {
    StringRef simt =
        tileas::stringifyPipeConsumerKind(tileas::PipeConsumerKind::Simt);
    return b.create<tileas::PipeCreateOp>(
        loop.getLoc(), type, /*shares=*/Value(), /*aliases=*/Value(),
        /*joins=*/Value(), depth, tileas::stringifyPipeProducerKind(producer),
        b.getArrayAttr({b.getStringAttr(simt)}), b.getI64IntegerAttr(bytes),
        /*stage=*/IntegerAttr(), /*order=*/IntegerAttr());
  }
  void fence(OpBuilder &b, tileas::FenceKind kind) {
    handshakes(b).fence(kind);
  }
  Value cst(OpBuilder &b, int64_t v) {
    return b.create<arith::ConstantIndexOp>(loop.getLoc(), v);
  }
  ScheduleTag tagOf(OpBuilder &b, OpId id) {
    return ScheduleTag::of(b, stageOf(id), schedule.slots[id].order);
  }
  Operation *cloneInto(OpBuilder &b, Operation *op, IRMapping &map, Value slot);
  SmallVector<Value> flatten(unsigned a, const RowState &state);
  RowState unflatten(unsigned a, ValueRange values);

  LoopPlan &plan;
  scf::ForOp loop;
  Block *body;
  const sched::ScheduleAnalysis &schedule;
  const std::vector<Operation *> &ops;
  StageCodeMode mode;

  std::vector<bool> isFree;
  std::vector<int> agentOf; ///< -1 for free ops.
  std::vector<Agent> agents;
  llvm::DenseMap<Value, unsigned> pipeOf;
  std::vector<ConsumerGroup> groups;
  /// Per group, how many consumer entries it stands for: more than one for
  /// a ring member read by fewer groups than the ring's other tiles.
  std::vector<unsigned> groupWeight;
  /// Per op, the consumer groups it belongs to.
  std::vector<std::vector<unsigned>> groupsOfOp;
  /// The code after the loop reads results in the function body itself
  /// (they are returned, or read by an op with regions): it stays there,
  /// after the agents, and every result it reads is handed to it.
  bool hostIsMain = false;
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
  llvm::DenseMap<std::pair<unsigned, Value>, unsigned> copyStage;
  /// (agent, iter_arg) pairs so carried as copies.
  llvm::SetVector<std::pair<unsigned, unsigned>> copies;
  /// The local stage at which agent `a` has `v`: where it makes it, or
  /// where it loads its copy.
  unsigned makerLocalStage(unsigned a, Value v) const {
    if (auto it = copyStage.find({a, v}); it != copyStage.end())
      return it->second - agents[a].minStage;
    return localStage(a, *bodyDef(v));
  }
  /// How a loop result kept in a register of one agent reaches the code
  /// after the loop running elsewhere. `Tail`: it is a register tile
  /// carried to that agent, whose pipe iteration N (read by no iteration)
  /// holds it. `Extra`: through a register pipe from its agent to that one,
  /// as pipe iteration N + offset. `Own`: through a one-slot SMEM pipe.
  struct Transport {
    enum Kind { Tail, Extra, Own } kind = Own;
    unsigned pipe = 0, offset = 0;
  };
  llvm::MapVector<unsigned, Transport> transports;
  llvm::DenseMap<unsigned, Value> transportPipe; ///< Own ones.
  /// Plans the transports of the results to `host` (nullopt: the function
  /// body); returns the SMEM bytes of the one-slot pipes they need, or -1
  /// (with `why`) when a result cannot be handed on.
  int64_t planTransports(
      const llvm::DenseMap<unsigned, std::optional<unsigned>> &hosts,
      llvm::MapVector<unsigned, Transport> &out, std::string &why);
  /// Per register result read after the loop: the agent running the code
  /// that reads it (nullopt: the function body).
  llvm::DenseMap<unsigned, std::optional<unsigned>> resultHost;
  /// Warp-specialized: the code after the loop in parts, each run by one
  /// agent (nullopt: the epilogue agent).
  struct Part {
    SmallVector<Operation *> ops;
    std::optional<unsigned> host;
  };
  std::vector<Part> parts;
  /// Accumulators a UMMA leaves in TMEM when the loop ends: each is handed
  /// on through a one-slot pipe whose slot is the accumulator itself, so
  /// whoever reads it (or the MMA agent, draining) waits for the MMAs.
  std::vector<unsigned> resultPiped; ///< Carried indices.
  llvm::DenseMap<unsigned, Value> resultPipe, initOverride;
  /// Erases the loop and the buffers the pipe slots replaced.
  void eraseLoop() {
    llvm::SetVector<Operation *> allocs;
    loop->walk([&](Operation *op) {
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp();
            def && isa<tileas::AllocTmemOp, tileas::AllocSmemOp>(def))
          allocs.insert(def);
    });
    loop->erase();
    for (Operation *alloc : allocs)
      if (alloc->use_empty())
        alloc->erase();
  }
  Value initOf(unsigned k) {
    if (Value v = initOverride.lookup(k))
      return v;
    return loop.getInitArgs()[k];
  }
  llvm::SetVector<Operation *> epilogue;
  std::vector<Value> pipes, mutexes;
  /// Per consumer group: it hands its slot on to an aliasing pipe (the
  /// group stores over the tile it read) instead of releasing it.
  std::vector<bool> handsOn;
  /// Per consumer group: the op after which it releases its slot when that
  /// is not its last op (see holdSlots()).
  llvm::DenseMap<unsigned, OpId> holdUntil;
  void holdSlots();
  /// The code after the loop that the epilogue reads, or that reads what
  /// the epilogue reads, but nothing of the loop (CUTLASS's source tile C in
  /// D = alpha * acc + beta * C).
  void pullInOperands(llvm::DenseSet<Operation *> &inMain);
  /// Loop results that are carried pipes: iter_arg index -> pipe.
  llvm::MapVector<unsigned, unsigned> carriedPipe;

  /// An agent as the remarks name it: its role, and its warp group.
  std::string agentName(unsigned a) const {
    std::string role = roleOf(a).str();
    if (agents[a].key.role == "simt" && grouped())
      return role + " agent (warp group " +
             std::to_string(agents[a].key.group) + ")";
    return role + " agent";
  }
  bool grouped() const {
    return llvm::any_of(plan.warpGroups, [](const std::optional<unsigned> &g) {
      return bool(g);
    });
  }
  /// The role an agent's `tileas.agent` gets: `softmax` for SIMT agents
  /// when warp groups are marked, unless a warp group names its own.
  StringRef roleOf(unsigned a) const {
    StringRef role = agents[a].key.role;
    if (role == "simt" && grouped())
      role = "softmax";
    if (auto named =
            ops[agents[a].ops.front()]->getAttrOfType<StringAttr>("tileas.role"))
      role = named.getValue();
    return role;
  }
  /// The type of a pipe's slots: a register tile's pipe holds it in SMEM.
  Type slotType(unsigned p) {
    Type type = plan.values[plan.buffers.pipes[p].value].getType();
    if (auto reg = dyn_cast<RankedTensorType>(type))
      return tileas::SmemType::get(reg.getShape(), reg.getElementType());
    return type;
  }
  /// A register tile stored into, or loaded from, the slot that hands it
  /// to another agent. Marked `tileas.transport`: the executing check
  /// passes the tile through unchanged and does not count these as the
  /// loop's own work (docs/protocol-check.md).
  Value storeToSlot(OpBuilder &b, Value v, Value slot) {
    auto store = b.create<tileas::SmemStoreOp>(loop.getLoc(), slot.getType(),
                                               v, slot);
    store->setAttr("tileas.transport", b.getUnitAttr());
    return store.getResult();
  }
  Value loadFromSlot(OpBuilder &b, Value slot, Type type) {
    auto load = b.create<tileas::SmemLoadOp>(loop.getLoc(), type, slot);
    load->setAttr("tileas.transport", b.getUnitAttr());
    return load.getResult();
  }

  /// The pipe value a pipe's ops name: a ring member uses its ring's.
  Value pipeValue(unsigned p) {
    const PipePlan &pipe = plan.buffers.pipes[p];
    return pipes[pipe.ringOf ? *pipe.ringOf : p];
  }
  /// The type of the slots a pipe's ops hand out: a ring member's are its
  /// ring's, viewed as its own tile where the shapes differ.
  Type ringSlotType(unsigned p) {
    const PipePlan &pipe = plan.buffers.pipes[p];
    return slotType(pipe.ringOf ? *pipe.ringOf : p);
  }
  Value viewAs(OpBuilder &b, Value slot, Type type) {
    if (slot.getType() == type)
      return slot;
    return b.create<tileas::SmemViewOp>(loop.getLoc(), type, slot);
  }
  /// The pipe iteration of loop iteration `iter`: ring members take turns,
  /// and a carried accumulator made in iteration i is pipe iteration i + 1
  /// (pipe iteration 0 is the loop's initial buffer).
  Value pipeIter(OpBuilder &b, unsigned p, Value iter, bool producing) {
    const PipePlan &pipe = plan.buffers.pipes[p];
    unsigned size =
        pipe.ringOf ? plan.buffers.pipes[*pipe.ringOf].ringSize : pipe.ringSize;
    Location loc = loop.getLoc();
    Value k = iter;
    if (size > 1)
      k = b.create<arith::AddIOp>(
          loc, b.create<arith::MulIOp>(loc, iter, cst(b, size)),
          cst(b, pipe.ringMember));
    if (producing && (pipe.carried || regCarried[p]))
      k = b.create<arith::AddIOp>(loc, k, cst(b, 1));
    return k;
  }
  /// A pipe's first consumer group. For a carried pipe its agent alone may
  /// wait on the pipe's last iteration (it waited on every earlier one), and
  /// releases it the way its unit can.
  const ConsumerGroup &firstGroup(unsigned p) {
    return *llvm::find_if(groups,
                          [&](const ConsumerGroup &g) { return g.pipe == p; });
  }
  unsigned carriedReader(unsigned p) { return firstGroup(p).agent; }
  /// A loop bound as index. scf.for compares its bounds signed, so an i32
  /// or i64 bound is sign-extended (index_cast): the trip count of an i32
  /// loop is then computed in 64 bits, where ub - lb cannot overflow.
  Value boundAsIndex(OpBuilder &b, Value v) {
    if (v.getType().isIndex())
      return v;
    return b.create<arith::IndexCastOp>(loop.getLoc(), b.getIndexType(), v);
  }
  /// N = max(0, ceil((ub - lb) / step)), as index whatever the loop's type.
  Value tripCount(OpBuilder &b) {
    Location loc = loop.getLoc();
    Value span =
        b.create<arith::SubIOp>(loc, boundAsIndex(b, loop.getUpperBound()),
                                boundAsIndex(b, loop.getLowerBound()));
    return b.create<arith::MaxSIOp>(
        loc,
        b.create<arith::CeilDivSIOp>(loc, span,
                                     boundAsIndex(b, loop.getStep())),
        cst(b, 0));
  }
  /// The induction variable of iteration `i` (an index), lb + i * step, in
  /// the loop's own type: for an i32 or i64 loop `i` is truncated or
  /// extended to it first, so the value wraps exactly as the original
  /// loop's induction variable would.
  Value inductionValue(OpBuilder &b, Value i) {
    Location loc = loop.getLoc();
    Type type = loop.getInductionVar().getType();
    if (!type.isIndex())
      i = b.create<arith::IndexCastOp>(loc, type, i);
    return b.create<arith::AddIOp>(
        loc, loop.getLowerBound(),
        b.create<arith::MulIOp>(loc, i, loop.getStep()));
  }
};

} // namespace

static bool isScalar(Type t) { return t.isIntOrIndex(); }

LogicalResult Emitter::analyze(std::string &why) {
  const unsigned n = ops.size();
  Value iv = loop.getInductionVar();
  Operation *yield = body->getTerminator();
  auto describe = [&](unsigned a) { return agentName(a); };
  auto typeName = [](Type t) {
    std::string type;
    llvm::raw_string_ostream os(type);
    os << t;
    return type;
  };

  // Free ops: scalar arithmetic on the induction variable and loop
  // invariants. Every instance that needs one recomputes it for its own
  // iteration, so it belongs to no agent.
  // So is a broadcast of a loop invariant (a norm's gamma, read before the
  // loop): it makes no data of its own, and carried across a stage it would
  // be a whole tile in registers.
  isFree.assign(n, false);
  for (auto [id, op] : llvm::enumerate(ops)) {
    if (op->getNumRegions() || !isMemoryEffectFree(op) ||
        !(llvm::all_of(op->getResultTypes(), isScalar) ||
          isa<tileas::BroadcastOp>(op)))
      continue;
    isFree[id] = llvm::all_of(op->getOperands(), [&](Value v) {
      if (v == iv || !inBody(v))
        return true;
      std::optional<OpId> d = bodyDef(v);
      return d && isFree[*d];
    });
  }
  // Nothing to hand between agents (an empty loop, or one of free index
  // arithmetic): no agent would run it.
  if (llvm::all_of(isFree, [](bool free) { return free; })) {
    why = "the loop has no schedulable op";
    return failure();
  }
  for (auto [id, op] : llvm::enumerate(ops))
    if (op->getNumRegions()) {
      why = "an op with regions ('" + op->getName().getStringRef().str() +
            "') is in the loop body";
      return failure();
    }

  // Agents, in (stage, order) of each one's first op.
  agentOf.assign(n, -1);
  for (OpId id : schedule.orderedOps) {
    if (isFree[id])
      continue;
    AgentKey key =
        mode == StageCodeMode::Unspecialized
            ? AgentKey{"all", 0}
            : materialize::agentOf(plan.input.units[id], plan.warpGroups[id]);
    auto it =
        llvm::find_if(agents, [&](const Agent &x) { return x.key == key; });
    if (it == agents.end()) {
      agents.emplace_back();
      agents.back().key = key;
      it = std::prev(agents.end());
    }
    agentOf[id] = int(it - agents.begin());
    it->ops.push_back(id);
    it->minStage = std::min(it->minStage, stageOf(id));
    it->maxStage = std::max(it->maxStage, stageOf(id));
  }
  const unsigned ii = std::max(1u, schedule.ii);
  for (Agent &agent : agents) {
    agent.rowOrder = agent.ops;
    llvm::stable_sort(agent.rowOrder, [&](OpId x, OpId y) {
      auto key = [&](OpId id) {
        int64_t cycle = schedule.slots[id].cycle;
        return std::make_tuple(((cycle % ii) + ii) % ii, -int64_t(stageOf(id)),
                               schedule.slots[id].order);
      };
      return key(x) < key(y);
    });
  }

  // Register tiles read by another warp group go through SMEM pipes when
  // the agents are split; in peeled code one agent keeps them in registers.
  regPipe.assign(plan.buffers.pipes.size(), false);
  regCarried.assign(plan.buffers.pipes.size(), false);
  for (auto [p, pipe] : llvm::enumerate(plan.buffers.pipes)) {
    Value v = plan.values[pipe.value];
    if (!isa<RankedTensorType>(v.getType())) {
      pipeOf[v] = unsigned(p);
      continue;
    }
    regPipe[p] = true;
    if (mode == StageCodeMode::Unspecialized)
      continue;
    pipeOf[v] = unsigned(p);
    const auto &uses = plan.input.values[pipe.value].consumers;
    bool next = llvm::any_of(uses, [](auto &c) { return c.second != 0; });
    bool same = llvm::any_of(uses, [](auto &c) { return c.second == 0; });
    if (next && same) {
      why = "a " + typeName(v.getType()) + " value made by the " +
            describe(agentOf[pipe.producer]) +
            " is read in its own iteration by one agent and in the next "
            "by another";
      return failure();
    }
    if (!next) {
      for (auto [c, distance] : uses) {
        auto key = std::make_pair(unsigned(agentOf[c]), v);
        auto [it, fresh] = copyStage.try_emplace(key, stageOf(c));
        if (!fresh)
          it->second = std::min(it->second, stageOf(c));
      }
      continue;
    }
    SmallVector<unsigned> at;
    for (OpOperand &use : v.getUses())
      if (use.getOwner() == yield)
        at.push_back(use.getOperandNumber());
    if (at.size() != 1) {
      why = "a " + typeName(v.getType()) +
            " value carried to another agent is yielded more than once";
      return failure();
    }
    regCarried[p] = true;
    regCarriedArg[unsigned(p)] = at.front();
  }
  for (auto [p, pipe] : llvm::enumerate(plan.buffers.pipes)) {
    Operation *prod = ops[pipe.producer];
    if (regPipe[p])
      continue;
    if (prod->getNumResults() != 1) {
      why = "a pipe producer has several results";
      return failure();
    }
    if (!isa<tileas::TmaLoadOp, tileas::CpAsyncOp, tileas::TmemStoreOp,
             tileas::SmemStoreOp, tileas::TmemCopyOp, tileas::UmmaOp>(prod)) {
      why = "'" + prod->getName().getStringRef().str() +
            "' cannot write a pipe slot";
      return failure();
    }
    if (auto umma = dyn_cast<tileas::UmmaOp>(prod);
        umma && umma.getAccumulate() && !pipe.carried) {
      why = "an accumulating MMA's result is handed to another unit inside "
            "the loop";
      return failure();
    }
  }

  // Every value an op reads: from its own agent (a register, rotated when
  // read rows later), from a pipe slot, or recomputed (free ops).
  groupsOfOp.assign(n, {});
  auto joinGroup = [&](unsigned p, OpId u) {
    unsigned a = agentOf[u];
    Unit unit = plan.input.units[u];
    auto g = llvm::find_if(groups, [&](const ConsumerGroup &c) {
      return c.pipe == p && c.agent == a && c.stage == stageOf(u) &&
             c.unit == unit;
    });
    if (g == groups.end()) {
      groups.push_back({p, a, stageOf(u), unit, {}});
      g = std::prev(groups.end());
    }
    if (llvm::find(g->ops, u) == g->ops.end()) {
      g->ops.push_back(u);
      groupsOfOp[u].push_back(unsigned(g - groups.begin()));
    }
  };
  for (OpId u : schedule.orderedOps) {
    if (isFree[u])
      continue;
    unsigned a = agentOf[u];
    SmallVector<Value> worklist(ops[u]->getOperands());
    llvm::DenseSet<Value> visited;
    while (!worklist.empty()) {
      Value x = worklist.pop_back_val();
      if (!visited.insert(x).second || x == iv || !inBody(x))
        continue;
      if (auto arg = dyn_cast<BlockArgument>(x)) {
        unsigned k = arg.getArgNumber() - 1;
        Value carried = yield->getOperand(k);
        std::optional<OpId> w = bodyDef(carried);
        if (!w || isFree[*w]) {
          why = "a loop-carried value is not made by a scheduled op of the "
                "loop";
          return failure();
        }
        auto it = pipeOf.find(carried);
        // Another agent reads a register tile of the last iteration from
        // its pipe; the agent making it keeps it in a register.
        if (it != pipeOf.end() && regPipe[it->second] &&
            agentOf[*w] == int(a))
          it = pipeOf.end();
        if (it != pipeOf.end() && regCarried[it->second]) {
          joinGroup(it->second, u);
          continue;
        }
        // The tile it loaded in the last iteration.
        if (it != pipeOf.end() && regPipe[it->second]) {
          auto cs = copyStage.find({a, carried});
          if (cs == copyStage.end()) {
            why = "a " + typeName(carried.getType()) +
                  " value carried to the next iteration crosses from the " +
                  describe(agentOf[*w]) + " to the " + describe(a);
            return failure();
          }
          int64_t lag = int64_t(stageOf(u)) + 1 - int64_t(cs->second);
          if (lag < 0) {
            why = "the " + describe(a) + " reads a " +
                  typeName(carried.getType()) +
                  " value of the last iteration before it loads that of "
                  "its own";
            return failure();
          }
          copies.insert({a, k});
          unsigned &max = agents[a].lagged[carried];
          max = std::max<unsigned>(max, unsigned(lag));
          continue;
        }
        if (it != pipeOf.end()) {
          if (!plan.buffers.pipes[it->second].carried) {
            why = "a value handed through a pipe is also carried to the "
                  "next iteration";
            return failure();
          }
          joinGroup(it->second, u);
          continue;
        }
        if (agentOf[*w] != int(a)) {
          why = "a " + typeName(carried.getType()) +
                " value carried to the next iteration crosses from the " +
                describe(agentOf[*w]) + " to the " + describe(a);
          return failure();
        }
        int64_t lag = int64_t(stageOf(u)) + 1 - int64_t(stageOf(*w));
        if (lag < 0) {
          why = "a loop-carried value is read before it is made";
          return failure();
        }
        unsigned &max = agents[a].lagged[carried];
        max = std::max<unsigned>(max, unsigned(lag));
        continue;
      }
      std::optional<OpId> d = bodyDef(x);
      if (!d)
        continue;
      if (isFree[*d]) {
        worklist.append(ops[*d]->operand_begin(), ops[*d]->operand_end());
        continue;
      }
      if (auto it = pipeOf.find(x);
          it != pipeOf.end() && !(regPipe[it->second] && agentOf[*d] == int(a))) {
        joinGroup(it->second, u);
        continue;
      }
      if (agentOf[*d] != int(a)) {
        why = "a " + typeName(x.getType()) + " value crosses from the " +
              describe(agentOf[*d]) + " to the " + describe(a) +
              " outside a pipe";
        return failure();
      }
      if (stageOf(u) < stageOf(*d)) {
        why = "a value is read in an earlier stage than the one making it";
        return failure();
      }
      unsigned lag = stageOf(u) - stageOf(*d);
      if (lag) {
        unsigned &max = agents[a].lagged[x];
        max = std::max(max, lag);
      }
    }
  }
  // Lag-0 carried reads need no register.
  for (Agent &agent : agents)
    agent.lagged.remove_if([](auto &entry) { return entry.second == 0; });

  // Groups that store over the tile they read hand the slot on.
  handsOn.assign(groups.size(), false);
  for (const PipePlan &pipe : plan.buffers.pipes)
    if (pipe.aliasOf)
      for (auto [g, group] : llvm::enumerate(groups))
        if (group.pipe == *pipe.aliasOf &&
            llvm::is_contained(group.ops, pipe.producer))
          handsOn[g] = true;
  holdSlots();
  // The tiles of a ring share one empty barrier per slot, so each must be
  // released as often: the last group of a member read by fewer consumer
  // groups than another arrives for the difference with its own release.
  groupWeight.assign(groups.size(), 1);
  const auto &pipePlans = plan.buffers.pipes;
  std::vector<unsigned> readCount(pipePlans.size(), 0),
      mostOfRing(pipePlans.size(), 0);
  std::vector<int> lastGroup(pipePlans.size(), -1);
  for (auto [g, group] : llvm::enumerate(groups)) {
    ++readCount[group.pipe];
    lastGroup[group.pipe] = int(g);
  }
  auto headOf = [&](unsigned p) { return pipePlans[p].ringOf.value_or(p); };
  for (unsigned p = 0; p < pipePlans.size(); ++p)
    mostOfRing[headOf(p)] = std::max(mostOfRing[headOf(p)], readCount[p]);
  for (unsigned p = 0; p < pipePlans.size(); ++p) {
    unsigned most = mostOfRing[headOf(p)];
    if (pipePlans[headOf(p)].ringSize < 2 || readCount[p] == most)
      continue;
    int last = lastGroup[p];
    if (last < 0 || handsOn[last] || regPipe[p]) {
      why = "the tiles of one ring are read by different numbers of "
            "consumer groups, and one of them cannot release for the others";
      return failure();
    }
    groupWeight[last] += most - readCount[p];
  }

  // Loop-carried values belong to the agent making them; an accumulator
  // handed on through a carried pipe lives in the pipe instead.
  for (unsigned k = 0, e = loop.getNumRegionIterArgs(); k < e; ++k) {
    std::optional<OpId> w = bodyDef(yield->getOperand(k));
    if (!w || isFree[*w]) {
      why = "a loop-carried value is not made by a scheduled op of the loop";
      return failure();
    }
    if (auto it = pipeOf.find(yield->getOperand(k));
        it != pipeOf.end() && plan.buffers.pipes[it->second].carried) {
      carriedPipe[k] = it->second;
      continue;
    }
    agents[agentOf[*w]].carried.push_back(k);
  }
  for (auto [a, k] : copies)
    agents[a].carried.push_back(k);

  // The code after the loop that reads its results, in block order. An op
  // that returns what it read, or reads it inside its regions, stays in the
  // function body ("escapes"), and so does everything reading it after.
  llvm::DenseSet<Operation *> inMain;
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
    bool reads = false, readsMain = false;
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        Operation *def = v.getDefiningOp();
        reads |= def == loop.getOperation() || epilogue.contains(def);
        readsMain |= inMain.contains(def);
      }
    });
    if (!reads && !readsMain)
      continue;
    bool escapes = readsMain || op->hasTrait<OpTrait::IsTerminator>() ||
                   op->getNumRegions() > 0;
    for (Value r : op->getResults())
      for (Operation *user : r.getUsers())
        escapes |= user->hasTrait<OpTrait::IsTerminator>();
    if (escapes)
      inMain.insert(op);
    else
      epilogue.insert(op);
  }
  pullInOperands(inMain);
  // Warp-specialized, code that stays in the body runs after the agents:
  // all of the code after the loop does, and the results it reads are
  // handed to it (the loop's results leave the function).
  if (mode == StageCodeMode::WarpSpecialized && !inMain.empty()) {
    hostIsMain = true;
    epilogue.clear();
  }
  // Accumulators left in TMEM by a UMMA: handed on through a result pipe.
  for (unsigned k = 0, e = loop.getNumRegionIterArgs(); k < e; ++k) {
    OpId w = *bodyDef(yield->getOperand(k));
    if (carriedPipe.count(k))
      continue;
    if (plan.input.units[w] == Unit::UMMA &&
        isa<tileas::TmemType>(yield->getOperand(k).getType()) &&
        loop.getInitArgs()[k].getDefiningOp<tileas::AllocTmemOp>())
      resultPiped.push_back(k);
  }
  // Warp-specialized, the code after the loop runs in the function body
  // (above), or split into parts that share no data, result or buffer, each
  // in one agent: the one that read every iteration of a carried
  // accumulator it reads, else one making a register result it reads (the
  // one whose others' results need the least shared memory to come to it),
  // else the epilogue agent. Results in a register of another agent are
  // handed to it through SMEM pipes; accumulators through their pipes.
  if (mode == StageCodeMode::WarpSpecialized) {
    auto isRegister = [&](unsigned k) {
      return !llvm::is_contained(resultPiped, k) && !carriedPipe.count(k);
    };
    if (hostIsMain) {
      for (OpResult r : loop->getResults())
        if (!r.use_empty() && isRegister(r.getResultNumber()))
          resultHost[r.getResultNumber()] = std::nullopt;
    } else {
      // Parts: union of ops linked by a value (a result of the loop or of
      // an op of the code after it) or by a buffer made before the loop.
      std::vector<Operation *> list(epilogue.begin(), epilogue.end());
      std::vector<unsigned> parent(list.size());
      for (unsigned i = 0; i < list.size(); ++i)
        parent[i] = i;
      std::function<unsigned(unsigned)> find = [&](unsigned i) {
        return parent[i] == i ? i : parent[i] = find(parent[i]);
      };
      llvm::DenseMap<Value, unsigned> firstUser;
      for (auto [i, op] : llvm::enumerate(list))
        op->walk([&, i = i](Operation *inner) {
          for (Value v : inner->getOperands()) {
            bool link = v.getDefiningOp() == loop.getOperation() ||
                        epilogue.contains(v.getDefiningOp()) ||
                        isa<tileas::SmemType, tileas::TmemType, MemRefType>(
                            v.getType());
            if (!link)
              continue;
            auto [it, fresh] = firstUser.try_emplace(v, unsigned(i));
            if (!fresh)
              parent[find(unsigned(i))] = find(it->second);
          }
          for (Value r : inner->getResults())
            if (auto [it, fresh] = firstUser.try_emplace(r, unsigned(i));
                !fresh)
              parent[find(unsigned(i))] = find(it->second);
        });
      llvm::MapVector<unsigned, SmallVector<Operation *>> byRoot;
      for (auto [i, op] : llvm::enumerate(list))
        byRoot[find(unsigned(i))].push_back(op);
      for (auto &[root, ops] : byRoot) {
        SmallVector<unsigned> results;
        for (Operation *op : ops)
          op->walk([&](Operation *inner) {
            for (Value v : inner->getOperands())
              if (auto r = dyn_cast<OpResult>(v);
                  r && r.getOwner() == loop.getOperation() &&
                  !llvm::is_contained(results, r.getResultNumber()))
                results.push_back(r.getResultNumber());
          });
        std::optional<unsigned> host;
        for (unsigned k : results) {
          auto it = carriedPipe.find(k);
          if (it == carriedPipe.end())
            continue;
          unsigned owner = carriedReader(it->second);
          if (host && *host != owner) {
            why = "the code after the loop reads accumulators read in the "
                  "loop by two agents, the " +
                  describe(*host) + " and the " + describe(owner);
            return failure();
          }
          host = owner;
        }
        if (!host) {
          int64_t best = -1;
          for (unsigned k : results) {
            if (!isRegister(k))
              continue;
            unsigned owner = agentOf[*bodyDef(yield->getOperand(k))];
            llvm::DenseMap<unsigned, std::optional<unsigned>> trialHosts;
            for (unsigned j : results)
              if (isRegister(j))
                trialHosts[j] = owner;
            llvm::MapVector<unsigned, Transport> trial;
            std::string ignored;
            int64_t bytes = planTransports(trialHosts, trial, ignored);
            if (!host || (bytes >= 0 && (best < 0 || bytes < best))) {
              best = bytes;
              host = owner;
            }
          }
        }
        for (unsigned k : results)
          if (isRegister(k))
            resultHost[k] = host;
        parts.push_back({std::move(ops), host});
      }
      // Parts reading only accumulators of result pipes go to an agent
      // running another part, rather than to warps of their own.
      std::optional<unsigned> busy;
      for (const Part &part : parts)
        if (part.host && agents[*part.host].key.role == "simt" && !busy)
          busy = part.host;
      for (Part &part : parts)
        if (!part.host)
          part.host = busy;
    }
    int64_t bytes = planTransports(resultHost, transports, why);
    if (bytes < 0)
      return failure();
    int64_t budget = plan.input.caps.smemBytes - plan.input.smemCarveout;
    if (bytes && plan.buffers.smemBytes + bytes > budget) {
      why = "handing the loop's register results to the code after it takes " +
            std::to_string(bytes) + " B of shared memory beside the pipes' " +
            std::to_string(plan.buffers.smemBytes) + " B, " +
            std::to_string(budget) + " B are available";
      return failure();
    }
  }
  return success();
}

int64_t Emitter::planTransports(
    const llvm::DenseMap<unsigned, std::optional<unsigned>> &hosts,
    llvm::MapVector<unsigned, Transport> &out, std::string &why) {
  Operation *yield = body->getTerminator();
  out.clear();
  int64_t bytes = 0;
  llvm::DenseMap<unsigned, unsigned> extra; // Per pipe, iterations added.
  std::optional<unsigned> host;
  // A register pipe whose one consumer group runs in the host.
  auto toHost = [&](unsigned p) {
    unsigned count = 0;
    bool inHost = true;
    for (const ConsumerGroup &g : groups)
      if (g.pipe == p) {
        ++count;
        inHost &= !host || g.agent == *host;
      }
    return count == 1 && inHost;
  };
  for (OpResult result : loop->getResults()) {
    unsigned k = result.getResultNumber();
    auto at = hosts.find(k);
    if (at == hosts.end())
      continue;
    host = at->second;
    Value made = yield->getOperand(k);
    unsigned owner = agentOf[*bodyDef(made)];
    if (host && llvm::is_contained(agents[*host].carried, k))
      continue;
    auto reg = dyn_cast<RankedTensorType>(result.getType());
    if (!reg || !reg.hasStaticShape()) {
      std::string type;
      llvm::raw_string_ostream os(type);
      os << result.getType();
      why = "a " + type + " loop result made by the " + agentName(owner) +
            " is read after the loop in the " +
            (host ? agentName(*host) : std::string("function body"));
      return -1;
    }
    Transport t;
    if (auto it = pipeOf.find(made);
        it != pipeOf.end() && regCarried[it->second] && toHost(it->second)) {
      t.kind = Transport::Tail;
      t.pipe = it->second;
    } else {
      Type slot = tileas::SmemType::get(reg.getShape(), reg.getElementType());
      for (auto [p, pipe] : llvm::enumerate(plan.buffers.pipes)) {
        if (!regPipe[p] || regCarried[p] || !pipeOf.count(plan.values[pipe.value]) ||
            agentOf[pipe.producer] != int(owner) || slotType(p) != slot ||
            !toHost(unsigned(p)))
          continue;
        // The function body waits only once every agent is done: the
        // producer must not wait on it for a slot.
        unsigned &n = extra[unsigned(p)];
        if (!host && n >= pipe.depth)
          continue;
        t.kind = Transport::Extra;
        t.pipe = unsigned(p);
        t.offset = n++;
        break;
      }
      if (t.kind == Transport::Own)
        bytes += tileas::getTileSizeInBytes(reg);
    }
    out[k] = t;
  }
  return bytes;
}

/// A SIMT agent that loads a tile from a TMEM slot and goes on computing on
/// it elementwise keeps the slot until the last op reading the tile or a
/// tile made from it (attention's S: the row maximum, then exp2(S - m) a
/// stage later), so that the CUDA translation reads S from TMEM again in
/// column pieces where it is used instead of holding the whole row in
/// registers across the stage boundary (cuda/CarriedTiles.h, "TMEM slots
/// instead of tiles"). Only where the schedule's timeline allows it at the
/// planned depth: the last reader completes before the producer writes the
/// slot again, and starts before the agent waits on the slot again, so
/// neither the schedule nor the plan changes.
void Emitter::pullInOperands(llvm::DenseSet<Operation *> &inMain) {
  // Left in the body, such an op would follow the agents that read it. The
  // code after the loop linked to the epilogue by values (what it reads, and
  // what else reads that) joins it in block order, so the epilogue agent
  // makes it where the user wrote it: after the loop, so that a tile it
  // loads may reuse the drained mainloop slots. Where some of it cannot run
  // in an agent, all the code after the loop stays in the body, as for any
  // escaping op.
  if (epilogue.empty())
    return;
  auto afterLoop = [&](Operation *op) {
    return op && op->getBlock() == loop->getBlock() &&
           loop->isBeforeInBlock(op);
  };
  llvm::SetVector<Operation *> linked;
  SmallVector<Operation *> work(epilogue.begin(), epilogue.end());
  auto visit = [&](Operation *op) {
    if (afterLoop(op) && !epilogue.contains(op) && linked.insert(op))
      work.push_back(op);
  };
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        visit(v.getDefiningOp());
    });
    if (epilogue.contains(op))
      continue;
    for (Operation *user : op->getUsers())
      visit(loop->getBlock()->findAncestorOpInBlock(*user));
  }
  if (linked.empty())
    return;
  if (llvm::any_of(linked, [&](Operation *op) {
        return inMain.contains(op) || op->getNumRegions() > 0 ||
               op->hasTrait<OpTrait::IsTerminator>();
      })) {
    for (Operation *op : epilogue)
      inMain.insert(op);
    for (Operation *op : linked)
      inMain.insert(op);
    return;
  }
  llvm::SetVector<Operation *> inOrder;
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode())
    if (epilogue.contains(op) || linked.contains(op))
      inOrder.insert(op);
  epilogue = std::move(inOrder);
}

void Emitter::holdSlots() {
  const unsigned ii = std::max(1u, schedule.ii);
  auto cycle = [&](OpId id) { return schedule.slots[id].cycle; };
  auto latency = [&](OpId id) {
    return plan.loop.problem.getOp(id).latency.value_or(0);
  };
  for (auto [g, group] : llvm::enumerate(groups)) {
    const PipePlan &pipe = plan.buffers.pipes[group.pipe];
    if (group.unit != Unit::SIMT || pipe.cls != BufferClass::TMEM ||
        handsOn[g] || regPipe[group.pipe] || pipe.carried || pipe.ringOf ||
        pipe.sharesWith || group.ops.empty())
      continue;
    // Only in an agent that also rescales an accumulator in place (loads O
    // from TMEM and stores it back in its own rows): there O's tile comes on
    // top of S and P in every row, and S is best read from TMEM again. An
    // agent without one keeps S in registers: re-reading it costs spills
    // there (attention_fwd 0 -> 48 B, FA4 at head dim 64 0 -> 24 B; the
    // rescaling attention loops 132 -> 0 and 36 -> 0 B; docs/cuda.md).
    bool rescales = llvm::any_of(groups, [&](const ConsumerGroup &o) {
      const PipePlan &q = plan.buffers.pipes[o.pipe];
      return o.agent == group.agent && o.unit == Unit::SIMT &&
             q.cls == BufferClass::TMEM && (q.carried || q.sharesWith);
    });
    if (!rescales)
      continue;
    // Another group of the agent waits on the same slot: it must find it
    // released by this one first.
    if (llvm::count_if(groups, [&](const ConsumerGroup &o) {
          return o.pipe == group.pipe && o.agent == group.agent;
        }) != 1)
      continue;
    // The tiles made from what the group loaded, elementwise, in the same
    // agent and iteration, and the ops of the agent reading one of them.
    SmallVector<Value> worklist;
    llvm::DenseSet<Value> seen;
    std::optional<ArrayRef<int64_t>> shape;
    for (OpId id : group.ops)
      if (auto load = dyn_cast<tileas::TmemLoadOp>(ops[id])) {
        shape = cast<RankedTensorType>(load.getType()).getShape();
        worklist.push_back(load.getResult());
      }
    if (!shape || worklist.size() != group.ops.size())
      continue;
    OpId first = group.ops.front(), last = group.ops.front();
    for (OpId id : group.ops) {
      if (cycle(id) < cycle(first))
        first = id;
      if (cycle(id) > cycle(last))
        last = id;
    }
    SmallVector<OpId> readers;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      for (Operation *user : v.getUsers()) {
        if (user->getBlock() != body || !plan.loop.ids.count(user))
          continue;
        OpId u = idOf(user);
        if (isFree[u] || agentOf[u] != int(group.agent))
          continue;
        readers.push_back(u);
        for (Value r : user->getResults())
          if (auto t = dyn_cast<RankedTensorType>(r.getType());
              t && t.getShape() == *shape)
            worklist.push_back(r);
      }
    }
    // Hold as far as the timeline allows: to the latest reader that
    // completes before the slot is written again.
    int64_t reuse = int64_t(pipe.depth) * ii;
    std::optional<OpId> until;
    for (OpId u : readers)
      if (cycle(u) > cycle(last) &&
          cycle(u) + latency(u) <= cycle(pipe.producer) + reuse &&
          cycle(u) < cycle(first) + reuse &&
          (!until || cycle(u) > cycle(*until)))
        until = u;
    if (until)
      holdUntil[unsigned(g)] = *until;
  }
}

Operation *Emitter::cloneInto(OpBuilder &b, Operation *op, IRMapping &map,
                              Value slot) {
  Operation *made = b.clone(*op, map);
  // A UMMA producer writes the slot as its accumulator.
  if (auto umma = dyn_cast<tileas::UmmaOp>(made)) {
    umma.getAccMutable().assign(slot);
    return made;
  }
  // A store over another tile writes the slot handed on instead.
  if (OpOperand *into = tileas::getIntoOperand(made)) {
    into->set(slot);
    made->getResult(0).setType(slot.getType());
    return made;
  }
  // The others take it as their optional `into` operand.
  tileas::setIntoOperand(made, slot);
  made->getResult(0).setType(slot.getType());
  return made;
}

SmallVector<Value> Emitter::flatten(unsigned a, const RowState &state) {
  SmallVector<Value> out(state.last);
  for (auto &[v, lag] : agents[a].lagged)
    llvm::append_range(out, state.regs.lookup(v));
  return out;
}

RowState Emitter::unflatten(unsigned a, ValueRange values) {
  RowState state;
  unsigned pos = 0;
  for (unsigned i = 0; i < agents[a].carried.size(); ++i)
    state.last.push_back(values[pos++]);
  for (auto &[v, lag] : agents[a].lagged) {
    SmallVector<Value> regs(values.begin() + pos, values.begin() + pos + lag);
    pos += lag;
    state.regs[v] = regs;
  }
  return state;
}

Value Emitter::resolve(OpBuilder &b, unsigned a, Value x, OpId user,
                       unsigned ls, RowKind kind, RowState &state,
                       llvm::DenseMap<Value, Value> &thisRow,
                       llvm::DenseMap<std::pair<Value, unsigned>, Value> &remat,
                       llvm::DenseMap<unsigned, Value> &waited,
                       llvm::DenseMap<unsigned, Value> &ivOf) {
  if (x == loop.getInductionVar())
    return ivOf.lookup(ls);
  if (!inBody(x))
    return x;
  Operation *yield = body->getTerminator();
  bool sequential = kind == RowKind::Sequential;
  auto carriedIndex = [&](Value v) -> std::optional<unsigned> {
    for (auto [pos, k] : llvm::enumerate(agents[a].carried))
      if (yield->getOperand(k) == v)
        return unsigned(pos);
    return std::nullopt;
  };
  // A value this agent made `lag` rows ago (0: earlier in this row).
  auto fromRows = [&](Value v, unsigned lag) -> Value {
    if (lag)
      return state.regs.lookup(v)[lag - 1];
    if (Value made = thisRow.lookup(v))
      return made;
    // Its maker did not run in this prologue row: the iteration before
    // the first, whose carried value is the loop's initial one.
    if (std::optional<unsigned> pos = carriedIndex(v))
      return initOf(agents[a].carried[*pos]);
    return poison(b, v.getType());
  };
  if (auto arg = dyn_cast<BlockArgument>(x)) {
    unsigned k = arg.getArgNumber() - 1;
    Value carried = yield->getOperand(k);
    // A carried accumulator is read from the slot its consumer waited on.
    if (auto it = carriedPipe.find(k); it != carriedPipe.end())
      for (unsigned g : groupsOfOp[user])
        if (groups[g].pipe == it->second)
          return waited.lookup(g);
    // So is a register tile another agent made in the last iteration.
    if (auto it = pipeOf.find(carried);
        it != pipeOf.end() && regCarried[it->second])
      for (unsigned g : groupsOfOp[user])
        if (groups[g].pipe == it->second)
          return waited.lookup(g);
    if (sequential)
      return state.last[*carriedIndex(carried)];
    return fromRows(carried, ls + 1 - makerLocalStage(a, carried));
  }
  OpId d = *bodyDef(x);
  if (isFree[d]) {
    auto key = std::make_pair(x, ls);
    if (Value done = remat.lookup(key))
      return done;
    Operation *def = ops[d];
    IRMapping map;
    for (Value operand : def->getOperands())
      map.map(operand, resolve(b, a, operand, user, ls, kind, state, thisRow,
                               remat, waited, ivOf));
    Operation *clone = b.clone(*def, map);
    for (auto [r, c] : llvm::zip(def->getResults(), clone->getResults()))
      remat[{r, ls}] = c;
    return remat.lookup(key);
  }
  if (auto it = pipeOf.find(x); it != pipeOf.end()) {
    for (unsigned g : groupsOfOp[user])
      if (groups[g].pipe == it->second)
        return waited.lookup(g);
  }
  return fromRows(x, sequential ? 0 : localStage(a, user) - localStage(a, d));
}

// The dialect's kinds for the unit at each end of a pipe; the commit and
// release flavours then come from the dialect's own rule, the one its
// verifier checks.
static tileas::PipeProducerKind producerKind(Unit unit) {
  switch (unit) {
  case Unit::TMA:
    return tileas::PipeProducerKind::Tma;
  case Unit::UMMA:
    return tileas::PipeProducerKind::Umma;
  case Unit::CpAsync:
    return tileas::PipeProducerKind::CpAsync;
  default:
    return tileas::PipeProducerKind::Simt;
  }
}

static tileas::PipeConsumerKind consumerKind(Unit unit) {
  switch (unit) {
  case Unit::UMMA:
    return tileas::PipeConsumerKind::Umma;
  case Unit::TMAStore:
    return tileas::PipeConsumerKind::TmaStore;
  default:
    return tileas::PipeConsumerKind::Simt;
  }
}

static tileas::SignalKind commitVia(Unit unit) {
  return tileas::getCommitKind(producerKind(unit));
}

/// How a consumer group of `unit` releases its slot: the unit's kind. A
/// UMMA consumer's is a tcgen05.commit even when the slot's next writer is
/// an MMA of the same thread (materialize/plan/Flavour.h).
static tileas::SignalKind releaseVia(Unit unit) {
  return tileas::getReleaseKind(consumerKind(unit));
}

void Emitter::emitRow(OpBuilder &b, unsigned a, Value row, RowKind kind,
                      unsigned staticRow, RowState &state) {
  Location loc = loop.getLoc();
  Agent &agent = agents[a];
  bool sequential = kind == RowKind::Sequential;
  auto localOf = [&](OpId id) { return sequential ? 0u : localStage(a, id); };
  auto active = [&](OpId id) {
    unsigned ls = localOf(id);
    switch (kind) {
    case RowKind::Prologue:
      return ls <= staticRow;
    case RowKind::Epilogue:
      return ls > staticRow;
    default:
      return true;
    }
  };
  const std::vector<OpId> &order = sequential ? agent.ops : agent.rowOrder;
  SmallVector<OpId> running;
  for (OpId id : order)
    if (active(id))
      running.push_back(id);

  // First and last op of each consumer group and mutex span in this row.
  llvm::DenseMap<unsigned, OpId> groupFirst, groupLast;
  for (OpId id : running)
    for (unsigned g : groupsOfOp[id]) {
      groupFirst.try_emplace(g, id);
      groupLast[g] = id;
    }
  struct Span {
    unsigned mutex, group;
    OpId first, last;
  };
  SmallVector<Span> spans;
  for (auto [mi, m] : llvm::enumerate(plan.mutexes)) {
    auto pos = llvm::find(m.groups, agent.key.group);
    if (pos == m.groups.end() || agent.key.role != "simt")
      continue;
    std::optional<OpId> first, last;
    for (OpId id : running)
      if (llvm::is_contained(m.ops, id)) {
        if (!first)
          first = id;
        last = id;
      }
    if (first)
      spans.push_back(
          {unsigned(mi), unsigned(pos - m.groups.begin()), *first, *last});
  }

  llvm::DenseMap<Value, Value> thisRow;
  llvm::DenseMap<std::pair<Value, unsigned>, Value> remat;
  llvm::DenseMap<unsigned, Value> waited, iterOf, ivOf;
  auto iterFor = [&](unsigned ls) {
    if (Value v = iterOf.lookup(ls))
      return v;
    Value i =
        ls ? b.create<arith::SubIOp>(loc, row, cst(b, ls)).getResult() : row;
    iterOf[ls] = i;
    ivOf[ls] = inductionValue(b, i);
    return i;
  };

  PipeOps hs(b, loc);
  for (OpId u : running) {
    Operation *op = ops[u];
    unsigned ls = localOf(u);
    Value iter = iterFor(ls);
    ScheduleTag tag = tagOf(b, u);
    for (const Span &s : spans)
      if (s.first == u)
        hs.lock(mutexes[s.mutex], cst(b, s.group), tag);
    // Wait for every slot this op is the first in its group to read.
    for (unsigned g : groupsOfOp[u]) {
      if (groupFirst.lookup(g) != u)
        continue;
      const ConsumerGroup &group = groups[g];
      const PipePlan &pipe = plan.buffers.pipes[group.pipe];
      Value k = pipeIter(b, group.pipe, iter, false);
      waited[g] =
          hs.wait(pipeValue(group.pipe), k, ringSlotType(group.pipe), tag);
      waited[g] = viewAs(b, waited[g], slotType(group.pipe));
      if (group.unit == Unit::UMMA || pipe.cls == BufferClass::TMEM)
        fence(b, tileas::FenceKind::Tcgen05After);
      // A register tile: loaded at once, and the slot released.
      if (regPipe[group.pipe]) {
        Value v = plan.values[pipe.value];
        waited[g] = loadFromSlot(b, waited[g], v.getType());
        if (auto cs = copyStage.find({a, v});
            cs != copyStage.end() && cs->second == group.stage)
          thisRow[v] = waited[g];
        hs.release(pipeValue(group.pipe), k, tileas::SignalKind::Arrive, tag);
      }
    }
    IRMapping map;
    for (Value operand : op->getOperands())
      if (!map.contains(operand))
        map.map(operand, resolve(b, a, operand, u, ls, kind, state, thisRow,
                                 remat, waited, ivOf));
    Operation *made;
    if (isProducer(u) && regPipe[pipeOf.lookup(op->getResult(0))]) {
      // A register tile another agent reads: made as usual, then stored.
      unsigned p = pipeOf.lookup(op->getResult(0));
      made = b.clone(*op, map);
      Value k = pipeIter(b, p, iter, true);
      Value slot = hs.acquire(pipeValue(p), k, slotType(p), tag);
      Value stored = storeToSlot(b, made->getResult(0), slot);
      hs.commit(pipeValue(p), k, stored, tileas::SignalKind::Arrive, tag);
    } else if (isProducer(u)) {
      unsigned p = pipeOf.lookup(op->getResult(0));
      const PipePlan &pipe = plan.buffers.pipes[p];
      // Storing over a TMEM tile this agent read: its tcgen05.ld must have
      // landed first.
      if (pipe.aliasOf &&
          plan.buffers.pipes[*pipe.aliasOf].cls == BufferClass::TMEM)
        fence(b, tileas::FenceKind::Tcgen05WaitLd);
      Value k = pipeIter(b, p, iter, true);
      Value acquired = hs.acquire(pipeValue(p), k, ringSlotType(p), tag);
      Value slot = viewAs(b, acquired, op->getResult(0).getType());
      made = cloneInto(b, op, map, slot);
      Unit unit = plan.input.units[u];
      if (unit == Unit::SIMT) {
        bool asyncReader = llvm::any_of(groups, [&](const ConsumerGroup &g) {
          return g.pipe == p && g.unit != Unit::SIMT;
        });
        if (pipe.cls == BufferClass::TMEM) {
          fence(b, tileas::FenceKind::Tcgen05WaitSt);
          fence(b, tileas::FenceKind::Tcgen05Before);
        } else if (asyncReader) {
          fence(b, tileas::FenceKind::ProxyAsync);
        }
      }
      hs.commit(pipeValue(p), k, viewAs(b, made->getResult(0), ringSlotType(p)),
                commitVia(unit), tag);
    } else {
      made = b.clone(*op, map);
    }
    for (auto [r, m] : llvm::zip(op->getResults(), made->getResults()))
      thisRow[r] = m;
    SmallVector<unsigned> releasing;
    for (unsigned g : groupsOfOp[u])
      if (groupLast.lookup(g) == u && !holdUntil.count(g))
        releasing.push_back(g);
    for (auto [g, at] : holdUntil)
      if (at == u)
        releasing.push_back(g);
    llvm::sort(releasing);
    for (unsigned g : releasing) {
      if (handsOn[g] || regPipe[groups[g].pipe])
        continue;
      const ConsumerGroup &group = groups[g];
      const PipePlan &pipe = plan.buffers.pipes[group.pipe];
      if (group.unit == Unit::SIMT && pipe.cls == BufferClass::TMEM) {
        fence(b, tileas::FenceKind::Tcgen05WaitLd);
        fence(b, tileas::FenceKind::Tcgen05Before);
      }
      hs.release(pipeValue(group.pipe), pipeIter(b, group.pipe, iter, false),
                 releaseVia(group.unit), tag, groupWeight[g]);
    }
    for (const Span &s : spans)
      if (s.last == u)
        hs.unlock(mutexes[s.mutex], cst(b, s.group), tag);
  }

  // Rotate: what this row made becomes one row older.
  Operation *yield = body->getTerminator();
  for (auto &[v, lag] : agent.lagged) {
    SmallVector<Value> &regs = state.regs[v];
    Value made = thisRow.lookup(v);
    if (!made) {
      // Its maker did not run: before the first iteration a carried value
      // is the initial one; anything else is never read.
      made = poison(b, v.getType());
      if (kind == RowKind::Prologue)
        for (unsigned k : agent.carried)
          if (yield->getOperand(k) == v)
            made = initOf(k);
    }
    for (unsigned j = lag - 1; j > 0; --j)
      regs[j] = regs[j - 1];
    regs[0] = made;
  }
  for (auto [pos, k] : llvm::enumerate(agent.carried))
    if (Value made = thisRow.lookup(yield->getOperand(k)))
      state.last[pos] = made;
}

void Emitter::emitAgent(OpBuilder &b, unsigned a,
                        SmallVectorImpl<Value> &finals) {
  Location loc = loop.getLoc();
  Agent &agent = agents[a];
  unsigned stages = agent.maxStage - agent.minStage + 1;
  // N = max(0, ceil((ub - lb) / step)).
  Value n = tripCount(b);

  RowState init;
  SmallVector<Type> carriedTypes;
  for (unsigned k : agent.carried) {
    init.last.push_back(initOf(k));
    carriedTypes.push_back(loop.getInitArgs()[k].getType());
  }
  Operation *yield = body->getTerminator();
  for (auto &[v, lag] : agent.lagged) {
    Value seed;
    for (unsigned k : agent.carried)
      if (yield->getOperand(k) == v)
        seed = initOf(k);
    if (!seed)
      seed = poison(b, v.getType());
    init.regs[v] = SmallVector<Value>(lag, seed);
  }

  auto rowLoop = [&](OpBuilder &ob, Value from, RowKind kind, RowState &state) {
    SmallVector<Value> flat = flatten(a, state);
    auto forOp = ob.create<scf::ForOp>(loc, from, n, cst(ob, 1), flat);
    OpBuilder lb = OpBuilder::atBlockBegin(forOp.getBody());
    if (!forOp.getBody()->empty())
      lb.setInsertionPoint(forOp.getBody()->getTerminator());
    RowState inner = unflatten(a, forOp.getRegionIterArgs());
    emitRow(lb, a, forOp.getInductionVar(), kind, 0, inner);
    SmallVector<Value> next = flatten(a, inner);
    if (!forOp.getBody()->empty() && isa<scf::YieldOp>(forOp.getBody()->back()))
      forOp.getBody()->back().erase();
    OpBuilder::atBlockEnd(forOp.getBody()).create<scf::YieldOp>(loc, next);
    if (kind == RowKind::Steady)
      for (NamedAttribute attr : loop->getDiscardableAttrs())
        forOp->setAttr(attr.getName(), attr.getValue());
    state = unflatten(a, forOp.getResults());
  };

  if (stages == 1) {
    RowState state = init;
    rowLoop(b, cst(b, 0), RowKind::Steady, state);
    finals.assign(state.last.begin(), state.last.end());
    return;
  }
  Value pipelined = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, n,
                                            cst(b, stages - 1));
  auto ifOp = b.create<scf::IfOp>(loc, carriedTypes, pipelined,
                                  /*withElseRegion=*/true);
  for (Block *block : {ifOp.thenBlock(), ifOp.elseBlock()})
    if (!block->empty())
      block->getTerminator()->erase();
  {
    OpBuilder tb = OpBuilder::atBlockEnd(ifOp.thenBlock());
    RowState state = init;
    for (unsigned r = 0; r + 1 < stages; ++r)
      emitRow(tb, a, cst(tb, r), RowKind::Prologue, r, state);
    rowLoop(tb, cst(tb, stages - 1), RowKind::Steady, state);
    for (unsigned e = 0; e + 1 < stages; ++e)
      emitRow(tb, a, tb.create<arith::AddIOp>(loc, n, cst(tb, e)),
              RowKind::Epilogue, e, state);
    tb.create<scf::YieldOp>(loc, state.last);
  }
  {
    // Too few iterations to fill the pipeline: one iteration per row.
    OpBuilder eb = OpBuilder::atBlockEnd(ifOp.elseBlock());
    RowState state;
    state.last = init.last;
    // One iteration a row reads nothing rows later: no registers rotate.
    auto lagged = std::move(agent.lagged);
    agent.lagged.clear();
    rowLoop(eb, cst(eb, 0), RowKind::Sequential, state);
    agent.lagged = std::move(lagged);
    eb.create<scf::YieldOp>(loc, state.last);
  }
  finals.assign(ifOp.getResults().begin(), ifOp.getResults().end());
}

void Emitter::emit() {
  MLIRContext *ctx = loop.getContext();
  OpBuilder b(loop);
  Location loc = loop.getLoc();

  // Pipes: one consumer entry per group, each releasing the way its unit
  // can; shared buffers name the pipe they share. A pipe whose slots are
  // handed on counts the releases of the pipe taking them over instead of
  // its handing group's. Pipes naming another are created after it; ring
  // members use their ring's pipe.
  const auto &plans = plan.buffers.pipes;
  pipes.assign(plans.size(), Value());
  auto consumersOf = [&](unsigned p) {
    SmallVector<Attribute> kinds;
    auto add = [&](unsigned q, bool skipHanding) {
      for (auto [g, group] : llvm::enumerate(groups))
        if (group.pipe == q && !(skipHanding && handsOn[g]))
          for (unsigned r = 0; r < groupWeight[g]; ++r)
            kinds.push_back(b.getStringAttr(
                tileas::stringifyPipeConsumerKind(consumerKind(group.unit))));
    };
    add(p, true);
    for (auto [q, other] : llvm::enumerate(plans))
      if (other.aliasOf && *other.aliasOf == p)
        add(unsigned(q), false);
    return kinds;
  };
  auto createPipe = [&](unsigned p) {
    const PipePlan &pipe = plans[p];
    const sched::ScheduleSlot &slot = schedule.slots[pipe.producer];
    Type payload = slotType(p);
    int64_t bytes = pipe.cls == BufferClass::TMEM
                        ? pipe.tmemColumns * 4 * 128 // 32-bit x 128 lanes.
                        : pipe.bytes;
    Value shares = pipe.sharesWith ? pipes[*pipe.sharesWith] : Value();
    Value aliases = pipe.aliasOf ? pipes[*pipe.aliasOf] : Value();
    ScheduleTag tag = ScheduleTag::of(b, slot.stage, slot.order);
    pipes[p] = b.create<tileas::PipeCreateOp>(
        loc, tileas::PipeType::get(ctx, payload), shares, aliases,
        /*joins=*/Value(), pipe.depth,
        tileas::stringifyPipeProducerKind(producerKind(pipe.producerUnit)),
        b.getArrayAttr(consumersOf(p)), b.getI64IntegerAttr(bytes), tag.stage,
        tag.order);
  };
  for (bool dependent : {false, true})
    for (auto [p, pipe] : llvm::enumerate(plans)) {
      bool names = pipe.sharesWith || pipe.aliasOf;
      if (!pipe.ringOf && names == dependent && pipeOf.count(plan.values[pipe.value]))
        createPipe(unsigned(p));
    }
  // One agent runs everything in peeled code: there is nothing to order.
  for (const MutexPlan &m : plan.mutexes) {
    if (mode == StageCodeMode::Unspecialized)
      break;
    auto impl = m.namedBarrier ? tileas::MutexImplKind::NamedBarrier
                               : tileas::MutexImplKind::MBarrier;
    IntegerAttr barrierId =
        m.namedBarrier ? b.getI32IntegerAttr(*m.namedBarrier) : IntegerAttr();
    mutexes.push_back(b.create<tileas::MutexCreateOp>(
        loc, tileas::MutexType::get(ctx), unsigned(m.groups.size()),
        tileas::stringifyMutexImplKind(impl), barrierId, /*stage=*/IntegerAttr(),
        /*order=*/IntegerAttr()));
  }

  // Result pipes: one slot, the accumulator itself. A persistent kernel
  // takes a second slot when the columns allow: the next tile's MMAs fill
  // it while the epilogue drains this tile's.
  int64_t freeColumns =
      plan.input.caps.tmemColumns - plan.buffers.tmemColumns;
  // Block-scale factors copied to TMEM in the loop take two buffers each
  // in the translation (cuda/KernelLayout.h, scaleCopies).
  loop.getBody()->walk([&](tileas::TmemCopyOp copy) {
    freeColumns -= 2 * tileas::getTmemColumns(
                           cast<tileas::TmemType>(copy.getResult().getType()));
  });
  for (unsigned k : resultPiped) {
    Type type = loop.getInitArgs()[k].getType();
    int64_t columns = tileas::getTmemColumns(cast<tileas::TmemType>(type));
    int32_t depth = 1;
    if (plan.input.persistent && columns <= freeColumns) {
      depth = 2;
      freeColumns -= columns;
    }
    resultPipe[k] = createOneWayPipe(b, tileas::PipeType::get(ctx, type), depth,
                                     tileas::PipeProducerKind::Umma,
                                     columns * 4 * 128);
  }
  // Register results handed to the code after the loop: one SMEM slot.
  auto smemOf = [](Type t) -> Type {
    auto reg = cast<RankedTensorType>(t);
    return tileas::SmemType::get(reg.getShape(), reg.getElementType());
  };
  for (auto [k, t] : transports) {
    if (t.kind != Transport::Own)
      continue;
    Type type = loop->getResult(k).getType();
    transportPipe[k] = createOneWayPipe(
        b, tileas::PipeType::get(ctx, smemOf(type)), 1,
        tileas::PipeProducerKind::Simt,
        tileas::getTileSizeInBytes(cast<ShapedType>(type)));
  }
  auto waitResult = [&](OpBuilder &ob, unsigned k) {
    Value r = handshakes(ob).wait(resultPipe[k], cst(ob, 0),
                                  loop.getInitArgs()[k].getType());
    fence(ob, tileas::FenceKind::Tcgen05After);
    return r;
  };
  auto releaseResult = [&](OpBuilder &ob, unsigned k) {
    fence(ob, tileas::FenceKind::Tcgen05WaitLd);
    fence(ob, tileas::FenceKind::Tcgen05Before);
    handshakes(ob).release(resultPipe[k], cst(ob, 0),
                           tileas::SignalKind::Arrive);
  };
  // A register result another agent (or the function body) reads: the
  // agent making it stores it after its rows; the reader loads it and
  // releases the slot at once.
  // Its pipe and pipe iteration: N + offset of a register pipe (the tail
  // of a carried one is N), or 0 of its own.
  auto transportAt = [&](OpBuilder &ob, unsigned k) -> std::pair<Value, Value> {
    const Transport &t = transports.find(k)->second;
    if (t.kind == Transport::Own)
      return {transportPipe[k], cst(ob, 0)};
    Value n = tripCount(ob);
    if (t.offset)
      n = ob.create<arith::AddIOp>(loc, n, cst(ob, t.offset));
    return {pipes[t.pipe], n};
  };
  auto sendResult = [&](OpBuilder &ob, unsigned k, Value v) {
    if (transports.find(k)->second.kind == Transport::Tail)
      return; // Committed by the last iteration.
    auto [pipe, at] = transportAt(ob, k);
    PipeOps hs = handshakes(ob);
    Value slot = hs.acquire(pipe, at, smemOf(v.getType()));
    hs.commit(pipe, at, storeToSlot(ob, v, slot), tileas::SignalKind::Arrive);
  };
  auto receiveResult = [&](OpBuilder &ob, unsigned k) {
    Type type = loop->getResult(k).getType();
    auto [pipe, at] = transportAt(ob, k);
    PipeOps hs = handshakes(ob);
    Value v = loadFromSlot(ob, hs.wait(pipe, at, smemOf(type)), type);
    hs.release(pipe, at, tileas::SignalKind::Arrive);
    return v;
  };
  // The agent making a result-piped accumulator acquires the slot before
  // its rows and commits it after them; nobody reading it, it drains the
  // slot itself so no MMA is in flight when the kernel ends.
  // A carried accumulator's pipe iteration 0 is the loop's initial buffer:
  // its producer publishes it before the first iteration; after the last,
  // pipe iteration N holds the loop's result.
  auto waitCarried = [&](OpBuilder &ob, unsigned k) {
    unsigned p = carriedPipe.lookup(k);
    Value r = handshakes(ob).wait(pipes[p], tripCount(ob),
                                  loop.getInitArgs()[k].getType());
    fence(ob, tileas::FenceKind::Tcgen05After);
    return r;
  };
  auto releaseCarried = [&](OpBuilder &ob, unsigned k) {
    unsigned p = carriedPipe.lookup(k);
    fence(ob, tileas::FenceKind::Tcgen05WaitLd);
    fence(ob, tileas::FenceKind::Tcgen05Before);
    handshakes(ob).release(pipes[p], tripCount(ob),
                           releaseVia(firstGroup(p).unit));
  };
  auto runAgent = [&](OpBuilder &ob, unsigned a,
                      SmallVectorImpl<Value> &finals) {
    for (auto [k, p] : carriedPipe) {
      if (agentOf[plans[p].producer] != int(a))
        continue;
      PipeOps hs = handshakes(ob);
      Value slot =
          hs.acquire(pipes[p], cst(ob, 0), loop.getInitArgs()[k].getType());
      hs.commit(pipes[p], cst(ob, 0), slot, commitVia(plans[p].producerUnit));
    }
    // A register tile carried to another agent: pipe iteration 0 is the
    // loop's initial value.
    for (auto [p, k] : regCarriedArg) {
      if (agentOf[plans[p].producer] != int(a))
        continue;
      PipeOps hs = handshakes(ob);
      Value slot = hs.acquire(pipes[p], cst(ob, 0), slotType(p));
      Value stored = storeToSlot(ob, initOf(k), slot);
      hs.commit(pipes[p], cst(ob, 0), stored, tileas::SignalKind::Arrive);
    }
    for (unsigned k : agents[a].carried)
      if (resultPipe.count(k))
        initOverride[k] = handshakes(ob).acquire(
            resultPipe[k], cst(ob, 0), loop.getInitArgs()[k].getType());
    emitAgent(ob, a, finals);
    for (auto [pos, k] : llvm::enumerate(agents[a].carried)) {
      if (!resultPipe.count(k))
        continue;
      handshakes(ob).commit(resultPipe[k], cst(ob, 0), finals[pos],
                            tileas::SignalKind::Tcgen05Commit);
      if (loop->getResult(k).use_empty()) {
        waitResult(ob, k);
        releaseResult(ob, k);
      }
    }
    for (auto [pos, k] : llvm::enumerate(agents[a].carried))
      if (transports.count(k) &&
          agentOf[*bodyDef(body->getTerminator()->getOperand(k))] == int(a))
        sendResult(ob, k, finals[pos]);
    // Nobody reads a carried accumulator after the loop: its reader drains
    // it, so no MMA is in flight when the kernel ends.
    for (auto [k, p] : carriedPipe)
      if (carriedReader(p) == a && loop->getResult(k).use_empty()) {
        waitCarried(ob, k);
        releaseCarried(ob, k);
      }
    // The last iteration's register tile carried to another agent is read
    // by no iteration: each of its readers drains it.
    for (auto [p, k] : regCarriedArg)
      for (const ConsumerGroup &g : groups)
        if (g.pipe == p && g.agent == a &&
            !llvm::any_of(transports, [&, p = p](auto &t) {
              return t.second.kind == Transport::Tail && t.second.pipe == p;
            })) {
          Value n = tripCount(ob);
          PipeOps hs = handshakes(ob);
          hs.wait(pipes[p], n, slotType(p));
          hs.release(pipes[p], n, tileas::SignalKind::Arrive);
        }
  };
  // The results the code after the loop reads, where it runs (agent
  // `host`, or the function body): its own registers, the others handed
  // over. `release` ends the hold of the accumulators' slots.
  // `wanted`: the results that code reads (all, for the function body).
  auto readResults = [&](OpBuilder &ob, std::optional<unsigned> host,
                         ArrayRef<Value> finals, IRMapping &after,
                         SmallVectorImpl<unsigned> &held,
                         SmallVectorImpl<unsigned> &heldCarried,
                         llvm::function_ref<bool(unsigned)> wanted) {
    if (host)
      for (auto [pos, k] : llvm::enumerate(agents[*host].carried))
        after.map(loop->getResult(k), finals[pos]);
    for (auto [k, t] : transports)
      if (wanted(k))
        after.map(loop->getResult(k), receiveResult(ob, k));
    for (unsigned k : resultPiped)
      if (!loop->getResult(k).use_empty() && wanted(k)) {
        after.map(loop->getResult(k), waitResult(ob, k));
        held.push_back(k);
      }
    for (auto [k, p] : carriedPipe)
      if (!loop->getResult(k).use_empty() && wanted(k)) {
        after.map(loop->getResult(k), waitCarried(ob, k));
        heldCarried.push_back(k);
      }
  };
  auto release = [&](OpBuilder &ob, ArrayRef<unsigned> held,
                     ArrayRef<unsigned> heldCarried) {
    for (unsigned k : held)
      releaseResult(ob, k);
    for (unsigned k : heldCarried)
      releaseCarried(ob, k);
  };
  // The code after the loop stays in the function body: the results are
  // read where the loop was, and the slots held until the last op reading
  // them (before the terminator when that is the one).
  auto resultsInBody = [&](OpBuilder &ob, ArrayRef<Value> finals) {
    IRMapping after;
    SmallVector<unsigned> held, heldCarried;
    readResults(ob, hostIsMain ? std::nullopt : std::optional<unsigned>(0),
                finals, after, held, heldCarried, [](unsigned) { return true; });
    for (OpResult r : loop->getResults())
      if (Value v = after.lookupOrNull(r))
        r.replaceAllUsesWith(v);
    if (held.empty() && heldCarried.empty())
      return;
    llvm::DenseSet<Value> tainted;
    for (auto &[from, to] : after.getValueMap())
      tainted.insert(to);
    Operation *last = nullptr;
    for (Operation *op = &*ob.getInsertionPoint(); op; op = op->getNextNode()) {
      bool reads = false;
      op->walk([&](Operation *inner) {
        for (Value v : inner->getOperands())
          reads |= tainted.contains(v);
      });
      if (!reads)
        continue;
      last = op;
      for (Value r : op->getResults())
        tainted.insert(r);
    }
    OpBuilder rb(ob.getContext());
    if (!last)
      rb.setInsertionPoint(ob.getBlock(), ob.getInsertionPoint());
    else if (last->hasTrait<OpTrait::IsTerminator>())
      rb.setInsertionPoint(last);
    else
      rb.setInsertionPointAfter(last);
    release(rb, held, heldCarried);
  };

  if (mode == StageCodeMode::Unspecialized) {
    SmallVector<Value> finals;
    runAgent(b, 0, finals);
    resultsInBody(b, finals);
    eraseLoop();
    return;
  }

  auto makeAgent = [&](StringRef role, int32_t warps,
                       std::optional<OpId> first) {
    ScheduleTag tag = first ? tagOf(b, *first) : ScheduleTag();
    auto agent = b.create<tileas::AgentOp>(loc, role, warps, /*regs=*/IntegerAttr(),
                                           tag.stage, tag.order);
    return OpBuilder::atBlockEnd(&agent.getBody().emplaceBlock());
  };
  // A part of the code after the loop, in the agent (or epilogue agent)
  // running it.
  auto epilogueIn = [&](OpBuilder &ob, const Part &part,
                        ArrayRef<Value> finals) {
    llvm::DenseSet<unsigned> reads;
    for (Operation *op : part.ops)
      op->walk([&](Operation *inner) {
        for (Value v : inner->getOperands())
          if (auto r = dyn_cast<OpResult>(v);
              r && r.getOwner() == loop.getOperation())
            reads.insert(r.getResultNumber());
      });
    IRMapping after;
    SmallVector<unsigned> held, heldCarried;
    readResults(ob, part.host, finals, after, held, heldCarried,
                [&](unsigned k) { return reads.contains(k); });
    for (Operation *op : part.ops)
      ob.clone(*op, after);
    release(ob, held, heldCarried);
  };
  for (auto [a, agent] : llvm::enumerate(agents)) {
    StringRef role = roleOf(unsigned(a));
    OpBuilder ab = makeAgent(role, role == "load" || role == "mma" ? 1 : 4,
                             agent.ops.front());
    SmallVector<Value> finals;
    runAgent(ab, unsigned(a), finals);
    for (const Part &part : parts)
      if (part.host && *part.host == a)
        epilogueIn(ab, part, finals);
    ab.create<tileas::AgentYieldOp>(loc, /*stage=*/IntegerAttr(), /*order=*/IntegerAttr());
  }
  // Accumulators read after the loop: an epilogue agent (CUTLASS's
  // epilogue warps) waits for them, runs that code and releases them.
  if (llvm::any_of(parts, [](const Part &part) { return !part.host; })) {
    OpBuilder eb = makeAgent("epilogue", 4, std::nullopt);
    for (const Part &part : parts)
      if (!part.host)
        epilogueIn(eb, part, {});
    eb.create<tileas::AgentYieldOp>(loc, /*stage=*/IntegerAttr(), /*order=*/IntegerAttr());
  }
  // Or the function body reads them, after every agent.
  if (hostIsMain)
    resultsInBody(b, {});
  for (Operation *op : llvm::reverse(epilogue))
    op->erase();
  eraseLoop();
}

LogicalResult tilepipe::emitStageCode(LoopPlan &plan, StageCodeMode mode,
                                      std::string &why) {
  Emitter emitter(plan, mode);
  if (failed(emitter.analyze(why)))
    return failure();
  emitter.emit();
  return success();
}
