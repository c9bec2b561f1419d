//===- RowExpansion.cpp - an agent's rows of stage code -------------------===//
//
// An agent spanning S stages runs S-1 prologue rows, a steady-state loop and
// S-1 epilogue rows (which stages run in a prologue or epilogue row is known
// statically once N >= S-1), or, for shorter trip counts (below the most
// stages of any agent of the loop, less one), one iteration per row. In row r
// each of its ops of local stage s works on iteration r - s, in the order of
// the partition's rowOrder. Values used k rows after they are made rotate
// through k registers threaded through the steady loop; values of another unit
// are read from the pipe slot their consumer waited on (docs/stage-code.md).
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/StageCodeEmitter.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::stagecode;
using materialize::BufferClass;
using materialize::PipePlan;

void StageCodeEmitter::emitAgent(OpBuilder &b, unsigned a,
                                 SmallVectorImpl<Value> &finals) {
  Location loc = loop.getLoc();
  Agent &agent = agents[a];
  unsigned stages = agent.maxStage - agent.minStage + 1;
  Value n = tripCount(b);
  RowState init = initialRowState(b, a);
  if (stages == 1) {
    RowState state = init;
    rowLoop(b, a, cst(b, 0), n, RowKind::Steady, state);
    finals.assign(state.last.begin(), state.last.end());
    return;
  }
  SmallVector<Type> carriedTypes;
  for (unsigned k : agent.carried)
    carriedTypes.push_back(loop.getInitArgs()[k].getType());
  // Every agent takes the same path: one that runs an iteration a row waits
  // for iteration k's values before it makes iteration k + 1's, which a
  // pipelined agent may need first (its rows read iteration k + 1 before
  // they finish k). So the loop is pipelined once every agent's pipeline
  // fills: N >= S - 1 for the most stages S of any agent.
  unsigned fill = stages;
  for (const Agent &other : agents)
    if (other.minStage <= other.maxStage)
      fill = std::max(fill, other.maxStage - other.minStage + 1);
  Value pipelined = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, n,
                                            cst(b, fill - 1));
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
    rowLoop(tb, a, cst(tb, stages - 1), n, RowKind::Steady, state);
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
    rowLoop(eb, a, cst(eb, 0), n, RowKind::Sequential, state);
    agent.lagged = std::move(lagged);
    eb.create<scf::YieldOp>(loc, state.last);
  }
  finals.assign(ifOp.getResults().begin(), ifOp.getResults().end());
}

/// Before the first row: carried values are the loop's initial ones, and
/// a register of a value never made yet holds its initial value, if it is
/// carried, or poison.
RowState StageCodeEmitter::initialRowState(OpBuilder &b, unsigned a) {
  Agent &agent = agents[a];
  RowState init;
  for (unsigned k : agent.carried)
    init.last.push_back(initOf(k));
  for (auto &[v, lag] : agent.lagged) {
    Value seed;
    for (unsigned k : agent.carried)
      if (yielded(k) == v)
        seed = initOf(k);
    if (!seed)
      seed = poison(b, v.getType());
    init.regs[v] = SmallVector<Value>(lag, seed);
  }
  return init;
}

/// Rows `from` .. n - 1 as an scf.for threading the row state; the steady
/// loop keeps the original loop's discardable attributes.
void StageCodeEmitter::rowLoop(OpBuilder &b, unsigned a, Value from, Value n,
                               RowKind kind, RowState &state) {
  Location loc = loop.getLoc();
  SmallVector<Value> flat = flatten(a, state);
  auto forOp = b.create<scf::ForOp>(loc, from, n, cst(b, 1), flat);
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
}

namespace {
/// The ops of one mutex's span in a row: lock before the first, unlock
/// after the last.
struct Span {
  unsigned mutex, group;
  OpId first, last;
};
} // namespace

void StageCodeEmitter::emitRow(OpBuilder &b, unsigned a, Value row,
                               RowKind kind, unsigned staticRow,
                               RowState &state) {
  Location loc = loop.getLoc();
  Agent &agent = agents[a];
  bool sequential = kind == RowKind::Sequential;
  auto localOf = [&](OpId id) { return sequential ? 0u : localStage(a, id); };
  auto active = [&](OpId id) {
    unsigned ls = localOf(id);
    if (kind == RowKind::Prologue)
      return ls <= staticRow;
    if (kind == RowKind::Epilogue)
      return ls > staticRow;
    return true;
  };
  SmallVector<OpId> running;
  for (OpId id : sequential ? agent.ops : agent.rowOrder)
    if (active(id))
      running.push_back(id);

  // First and last op of each consumer group and mutex span in this row.
  llvm::DenseMap<unsigned, OpId> groupFirst, groupLast;
  for (OpId id : running)
    for (unsigned g : groupsOfOp[id]) {
      groupFirst.try_emplace(g, id);
      groupLast[g] = id;
    }
  SmallVector<Span> spans;
  for (auto [mi, m] : llvm::enumerate(plan.mutexes)) {
    auto pos = llvm::find(m.groups, agent.key.group);
    if (pos == m.groups.end() || !rowOf(a).perWarpGroup)
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

  RowValues values;
  auto iterFor = [&](unsigned ls) {
    if (Value v = values.iter.lookup(ls))
      return v;
    Value i =
        ls ? b.create<arith::SubIOp>(loc, row, cst(b, ls)).getResult() : row;
    values.iter[ls] = i;
    values.iv[ls] = inductionValue(b, i);
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
    waitSlots(b, a, u, iter, groupFirst, values);
    IRMapping map;
    for (Value operand : op->getOperands())
      if (!map.contains(operand))
        map.map(operand, resolve(b, a, operand, u, ls, kind, state, values));
    Operation *made = produce(b, u, map, iter);
    for (auto [r, m] : llvm::zip(op->getResults(), made->getResults()))
      values.made[r] = m;
    releaseSlots(b, u, groupLast, iter);
    for (const Span &s : spans)
      if (s.last == u)
        hs.unlock(mutexes[s.mutex], cst(b, s.group), tag);
  }
  rotate(b, a, kind, values, state);
}

/// Waits for every slot `u` is the first op of its group to read.
void StageCodeEmitter::waitSlots(
    OpBuilder &b, unsigned a, OpId u, Value iter,
    const llvm::DenseMap<unsigned, OpId> &groupFirst, RowValues &values) {
  PipeOps hs = handshakes(b);
  ScheduleTag tag = tagOf(b, u);
  for (unsigned g : groupsOfOp[u]) {
    if (groupFirst.lookup(g) != u)
      continue;
    const ConsumerGroup &group = groups[g];
    const PipePlan &pipe = plan.buffers.pipes[group.pipe];
    Value k = pipeIter(b, group.pipe, iter, false);
    Value &waited = values.waited[g];
    waited = hs.wait(pipeValue(group.pipe), k, ringSlotType(group.pipe), tag);
    waited = viewAs(b, waited, slotType(group.pipe));
    if (group.unit == Unit::UMMA || pipe.cls == BufferClass::TMEM)
      fence(b, tileas::FenceKind::Tcgen05After);
    // A register tile: loaded at once, and the slot released.
    if (regPipe[group.pipe]) {
      Value v = plan.values[pipe.value];
      waited = loadFromSlot(b, waited, v.getType());
      if (auto cs = copyStage.find({a, v});
          cs != copyStage.end() && cs->second == group.stage)
        values.made[v] = waited;
      hs.release(pipeValue(group.pipe), k, tileas::SignalKind::Arrive, tag);
    }
  }
}

/// Makes op `u` for iteration `iter`: a producer into the pipe slot it
/// acquires (a register tile made as usual, then stored), others as they
/// are.
Operation *StageCodeEmitter::produce(OpBuilder &b, OpId u, IRMapping &map,
                                     Value iter) {
  Operation *op = ops[u];
  if (!isProducer(u))
    return b.clone(*op, map);
  PipeOps hs = handshakes(b);
  ScheduleTag tag = tagOf(b, u);
  unsigned p = pipeOf.lookup(op->getResult(0));
  if (regPipe[p]) {
    Operation *made = b.clone(*op, map);
    Value k = pipeIter(b, p, iter, true);
    Value slot = hs.acquire(pipeValue(p), k, slotType(p), tag);
    Value stored = storeToSlot(b, made->getResult(0), slot);
    hs.commit(pipeValue(p), k, stored, tileas::SignalKind::Arrive, tag);
    return made;
  }
  const PipePlan &pipe = plan.buffers.pipes[p];
  // Storing over a TMEM tile this agent read: its tcgen05.ld must have
  // landed first.
  if (pipe.aliasOf &&
      plan.buffers.pipes[*pipe.aliasOf].cls == BufferClass::TMEM)
    fence(b, tileas::FenceKind::Tcgen05WaitLd);
  Value k = pipeIter(b, p, iter, true);
  Value acquired = hs.acquire(pipeValue(p), k, ringSlotType(p), tag);
  Value slot = viewAs(b, acquired, op->getResult(0).getType());
  Operation *made = cloneInto(b, op, map, slot);
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
  return made;
}

/// Releases every slot whose group ends at `u` (or is held until it).
void StageCodeEmitter::releaseSlots(
    OpBuilder &b, OpId u, const llvm::DenseMap<unsigned, OpId> &groupLast,
    Value iter) {
  SmallVector<unsigned> releasing;
  for (unsigned g : groupsOfOp[u])
    if (groupLast.lookup(g) == u && !holdUntil.count(g))
      releasing.push_back(g);
  for (auto [g, at] : holdUntil)
    if (at == u)
      releasing.push_back(g);
  llvm::sort(releasing);
  ScheduleTag tag = tagOf(b, u);
  for (unsigned g : releasing) {
    if (handsOn[g] || regPipe[groups[g].pipe])
      continue;
    const ConsumerGroup &group = groups[g];
    const PipePlan &pipe = plan.buffers.pipes[group.pipe];
    if (group.unit == Unit::SIMT && pipe.cls == BufferClass::TMEM) {
      fence(b, tileas::FenceKind::Tcgen05WaitLd);
      fence(b, tileas::FenceKind::Tcgen05Before);
    }
    handshakes(b).release(pipeValue(group.pipe),
                          pipeIter(b, group.pipe, iter, false),
                          tileas::getReleaseKind(consumerKindOf(group)), tag,
                          groupWeight[g]);
  }
}

/// What this row made becomes one row older.
void StageCodeEmitter::rotate(OpBuilder &b, unsigned a, RowKind kind,
                              const RowValues &values, RowState &state) {
  Agent &agent = agents[a];
  for (auto &[v, lag] : agent.lagged) {
    SmallVector<Value> &regs = state.regs[v];
    Value made = values.made.lookup(v);
    if (!made) {
      // Its maker did not run: before the first iteration a carried value
      // is the initial one; anything else is never read.
      made = poison(b, v.getType());
      if (kind == RowKind::Prologue)
        for (unsigned k : agent.carried)
          if (yielded(k) == v)
            made = initOf(k);
    }
    for (unsigned j = lag - 1; j > 0; --j)
      regs[j] = regs[j - 1];
    regs[0] = made;
  }
  for (auto [pos, k] : llvm::enumerate(agent.carried))
    if (Value made = values.made.lookup(yielded(k)))
      state.last[pos] = made;
}

/// A value this agent made `lag` rows ago (0: earlier in this row).
Value StageCodeEmitter::fromRows(OpBuilder &b, unsigned a, Value v,
                                 unsigned lag, RowState &state,
                                 RowValues &values) {
  if (lag)
    return state.regs.lookup(v)[lag - 1];
  if (Value made = values.made.lookup(v))
    return made;
  // Its maker did not run in this prologue row: the iteration before the
  // first, whose carried value is the loop's initial one.
  for (unsigned k : agents[a].carried)
    if (yielded(k) == v)
      return initOf(k);
  return poison(b, v.getType());
}

/// The value operand `x` of `user` (local stage `ls`) has in this row.
Value StageCodeEmitter::resolve(OpBuilder &b, unsigned a, Value x, OpId user,
                                unsigned ls, RowKind kind, RowState &state,
                                RowValues &values) {
  if (x == loop.getInductionVar())
    return values.iv.lookup(ls);
  if (!inBody(x))
    return x;
  // The slot a consumer group of `user` waited on for pipe `p`, if any.
  auto waitedOn = [&](unsigned p) -> std::optional<Value> {
    for (unsigned g : groupsOfOp[user])
      if (groups[g].pipe == p)
        return values.waited.lookup(g);
    return std::nullopt;
  };
  bool sequential = kind == RowKind::Sequential;
  if (auto arg = dyn_cast<BlockArgument>(x)) {
    unsigned k = arg.getArgNumber() - 1;
    Value carried = yielded(k);
    // A carried accumulator is read from the slot its consumer waited on,
    // and so is a register tile another agent made in the last iteration.
    if (auto it = carriedPipe.find(k); it != carriedPipe.end())
      if (std::optional<Value> slot = waitedOn(it->second))
        return *slot;
    if (auto it = pipeOf.find(carried);
        it != pipeOf.end() && regCarried[it->second])
      if (std::optional<Value> slot = waitedOn(it->second))
        return *slot;
    if (sequential) {
      auto pos = llvm::find_if(
          agents[a].carried, [&](unsigned j) { return yielded(j) == carried; });
      return state.last[pos - agents[a].carried.begin()];
    }
    return fromRows(b, a, carried, ls + 1 - makerLocalStage(a, carried), state,
                    values);
  }
  OpId d = *bodyDef(x);
  if (isFree[d]) {
    auto key = std::make_pair(x, ls);
    if (Value done = values.remat.lookup(key))
      return done;
    Operation *def = ops[d];
    IRMapping map;
    for (Value operand : def->getOperands())
      map.map(operand, resolve(b, a, operand, user, ls, kind, state, values));
    Operation *clone = b.clone(*def, map);
    for (auto [r, c] : llvm::zip(def->getResults(), clone->getResults()))
      values.remat[{r, ls}] = c;
    return values.remat.lookup(key);
  }
  if (auto it = pipeOf.find(x); it != pipeOf.end())
    if (std::optional<Value> slot = waitedOn(it->second))
      return *slot;
  return fromRows(b, a, x,
                  sequential ? 0 : localStage(a, user) - localStage(a, d),
                  state, values);
}

/// A producer made to write `slot`.
Operation *StageCodeEmitter::cloneInto(OpBuilder &b, Operation *op,
                                       IRMapping &map, Value slot) {
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

SmallVector<Value> StageCodeEmitter::flatten(unsigned a,
                                             const RowState &state) {
  SmallVector<Value> out(state.last);
  for (auto &[v, lag] : agents[a].lagged)
    llvm::append_range(out, state.regs.lookup(v));
  return out;
}

RowState StageCodeEmitter::unflatten(unsigned a, ValueRange values) {
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

/// A loop bound as index. scf.for compares its bounds signed, so an i32 or
/// i64 bound is sign-extended (index_cast): the trip count of an i32 loop
/// is then computed in 64 bits, where ub - lb cannot overflow.
static Value boundAsIndex(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isIndex())
    return v;
  return b.create<arith::IndexCastOp>(loc, b.getIndexType(), v);
}

Value StageCodeEmitter::tripCount(OpBuilder &b) {
  Location loc = loop.getLoc();
  Value span =
      b.create<arith::SubIOp>(loc, boundAsIndex(b, loc, loop.getUpperBound()),
                              boundAsIndex(b, loc, loop.getLowerBound()));
  return b.create<arith::MaxSIOp>(
      loc,
      b.create<arith::CeilDivSIOp>(loc, span,
                                   boundAsIndex(b, loc, loop.getStep())),
      cst(b, 0));
}

/// For an i32 or i64 loop `i` is truncated or extended to the loop's type
/// first, so the value wraps exactly as the original loop's induction
/// variable would.
Value StageCodeEmitter::inductionValue(OpBuilder &b, Value i) {
  Location loc = loop.getLoc();
  Type type = loop.getInductionVar().getType();
  if (!type.isIndex())
    i = b.create<arith::IndexCastOp>(loc, type, i);
  return b.create<arith::AddIOp>(
      loc, loop.getLowerBound(),
      b.create<arith::MulIOp>(loc, i, loop.getStep()));
}
