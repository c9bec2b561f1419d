//===- Unspecialize.cpp - peeled stage code in one agent ------------------===//
//
// docs/tileiras-facts.md 11.3, unspecialized mode. Row r of the pipelined
// loop runs, for each stage s, the ops of stage s for iteration r - s. The
// rows 0 .. S-2 form the prologue, S-1 .. N-1 the steady-state loop, and
// N .. N+S-2 the epilogue. Every stage of every row is guarded by
// 0 <= r - s < N (and the epilogue rows by r >= S-1, so nothing runs twice
// when N < S-1), which keeps the code right for any trip count, dynamic ones
// included. Values handed between stages travel through the pipes; values
// carried to the next iteration are threaded through the guards.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/Unspecialize.h"

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/MapVector.h"

#include <map>

using namespace mlir;
using namespace tilepipe;
using materialize::PipePlan;

LogicalResult tilepipe::emitUnspecialized(LoopPlan &plan, std::string &why) {
  scf::ForOp loop = plan.loop.loop;
  const std::vector<Operation *> &ops = plan.loop.ops;
  const sched::ScheduleAnalysis &schedule = plan.schedule;
  const unsigned stages = std::max(1u, schedule.numStages);
  Block *body = loop.getBody();
  auto stageOf = [&](Operation *op) {
    return schedule.slots[plan.loop.ids.lookup(op)].stage;
  };

  llvm::DenseMap<Value, unsigned> pipeOf;
  for (auto [p, pipe] : llvm::enumerate(plan.buffers.pipes))
    pipeOf[plan.values[pipe.value]] = unsigned(p);
  // Register values that cross stages, with the number of stages spanned.
  llvm::MapVector<Value, unsigned> rotating;

  // What the peeled form carries: a value used in a later stage of its own
  // iteration must go through a pipe, and a value carried to the next
  // iteration must be used in the stage that produces it.
  for (Operation *op : ops)
    for (Value operand : op->getOperands()) {
      if (auto arg = dyn_cast<BlockArgument>(operand)) {
        if (arg.getOwner() != body || arg.getArgNumber() == 0)
          continue;
        Operation *def = body->getTerminator()
                             ->getOperand(arg.getArgNumber() - 1)
                             .getDefiningOp();
        // Produced in stage p for iteration i-1, read in stage c for
        // iteration i: p's row is c's row when c == p - 1 (the stages of a
        // row run from the highest down, so it is ready) and the row before
        // when c == p. A later reader would see iteration i's value.
        if (def && def->getBlock() == body && stageOf(op) != stageOf(def) &&
            stageOf(op) + 1 != stageOf(def)) {
          why = "a value carried to the next iteration is read more than one "
                "row after it is produced";
          return failure();
        }
        continue;
      }
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != body || stageOf(def) == stageOf(op) ||
          pipeOf.count(operand))
        continue;
      if (stageOf(def) > stageOf(op)) {
        why = "a value is used in an earlier stage than the one producing it";
        return failure();
      }
      // A value kept in registers while later stages of its iteration run:
      // it rotates through one register per stage it spans.
      unsigned span = stageOf(op) - stageOf(def);
      auto [it, inserted] = rotating.try_emplace(operand, span);
      if (!inserted)
        it->second = std::max(it->second, span);
    }
  for (OpOperand &y : body->getTerminator()->getOpOperands())
    if (!y.get().getDefiningOp() ||
        y.get().getDefiningOp()->getBlock() != body) {
      why = "a loop-carried value is not produced in the loop";
      return failure();
    }

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto cst = [&](OpBuilder &ob, int64_t v) -> Value {
    return ob.create<arith::ConstantIndexOp>(loc, v);
  };

  std::vector<Value> pipes = createPipes(b, plan);

  // N = ceil((ub - lb) / step).
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();
  Value span = b.create<arith::SubIOp>(loc, ub, lb);
  Value n = b.create<arith::CeilDivUIOp>(loc, span, step);

  // Stage s's ops in their published order; the stages of one row run from
  // the oldest iteration (highest stage) down.
  std::map<unsigned, std::vector<Operation *>, std::greater<unsigned>> byStage;
  for (sched::OpId id : schedule.orderedOps)
    byStage[schedule.slots[id].stage].push_back(ops[id]);
  // Loop-carried values, by the stage that produces them.
  unsigned numCarried = loop.getNumRegionIterArgs();
  std::vector<unsigned> carriedStage(numCarried);
  for (unsigned k = 0; k < numCarried; ++k)
    carriedStage[k] =
        stageOf(body->getTerminator()->getOperand(k).getDefiningOp());

  // The state threaded from row to row: the loop-carried values, then for
  // each rotating value its registers, newest first (register j holds the
  // value produced j + 1 rows ago).
  std::vector<std::pair<Value, unsigned>> regs; // (value, first state slot)
  unsigned numState = numCarried;
  for (auto &[v, span] : rotating) {
    regs.push_back({v, numState});
    numState += span;
  }
  auto regSlot = [&](Value v) -> unsigned {
    for (auto &[value, slot] : regs)
      if (value == v)
        return slot;
    return ~0u;
  };

  // Emits row `row` given the current state; returns the new one.
  auto emitRow = [&](OpBuilder &rb, Value row, Value extraGuard,
                     SmallVector<Value> current) {
    SmallVector<Value> atStart = current;
    llvm::DenseMap<Value, Value> produced; // Rotating values made this row.
    for (auto &[stage, stageOps] : byStage) {
      Value iter = rb.create<arith::SubIOp>(loc, row, cst(rb, stage));
      Value lo = rb.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, iter,
                                          cst(rb, 0));
      Value hi =
          rb.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, iter, n);
      Value guard = rb.create<arith::AndIOp>(loc, lo, hi);
      if (extraGuard)
        guard = rb.create<arith::AndIOp>(loc, guard, extraGuard);
      SmallVector<unsigned> mine;
      SmallVector<Type> types;
      for (unsigned k = 0; k < numCarried; ++k)
        if (carriedStage[k] == stage) {
          mine.push_back(k);
          types.push_back(current[k].getType());
        }
      SmallVector<Value> mineRotating;
      for (auto &[v, span] : rotating)
        if (stageOf(v.getDefiningOp()) == stage) {
          mineRotating.push_back(v);
          types.push_back(v.getType());
        }
      auto ifOp = rb.create<scf::IfOp>(loc, types, guard, /*withElse=*/true);
      // A result-less scf.if comes with its yields; this code writes its own.
      for (Block *block : {ifOp.thenBlock(), ifOp.elseBlock()})
        if (!block->empty())
          block->getTerminator()->erase();
      {
        OpBuilder tb = ifOp.getThenBodyBuilder();
        IRMapping map;
        Value iv = tb.create<arith::AddIOp>(
            loc, lb, tb.create<arith::MulIOp>(loc, iter, step));
        map.map(loop.getInductionVar(), iv);
        for (unsigned k = 0; k < numCarried; ++k)
          map.map(loop.getRegionIterArgs()[k], current[k]);
        // A rotating value from an earlier stage: the register holding the
        // value its producer made (this stage - that stage) rows ago.
        for (Operation *op : stageOps)
          for (Value operand : op->getOperands())
            if (rotating.count(operand) && !map.contains(operand) &&
                stageOf(operand.getDefiningOp()) != stage)
              map.map(operand, atStart[regSlot(operand) + stage -
                                       stageOf(operand.getDefiningOp()) - 1]);
        // Waits first: this stage reads what earlier stages committed.
        std::vector<std::pair<unsigned, Operation *>> releases;
        for (Operation *op : stageOps)
          for (Value operand : op->getOperands()) {
            auto it = pipeOf.find(operand);
            Operation *def = operand.getDefiningOp();
            if (it == pipeOf.end() || map.contains(operand) ||
                (def && stageOf(def) == stage))
              continue;
            Value buffer =
                createOp(tb, loc, "tileas.pipe.consumer_wait",
                         {pipes[it->second], iter}, {operand.getType()})
                    ->getResult(0);
            map.map(operand, buffer);
            releases.push_back({it->second, op});
          }
        for (Operation *op : stageOps) {
          std::optional<unsigned> produced;
          for (Value r : op->getResults())
            if (auto it = pipeOf.find(r); it != pipeOf.end())
              produced = it->second;
          if (produced)
            createOp(
                tb, loc, "tileas.pipe.producer_acquire",
                {pipes[*produced], iter},
                {plan.values[plan.buffers.pipes[*produced].value].getType()});
          tb.clone(*op, map);
          if (produced)
            createOp(tb, loc, "tileas.pipe.producer_commit",
                     {pipes[*produced], iter}, {});
        }
        for (auto &[p, op] : releases)
          createOp(tb, loc, "tileas.pipe.consumer_release", {pipes[p], iter},
                   {});
        SmallVector<Value> yields;
        for (unsigned k : mine)
          yields.push_back(map.lookup(body->getTerminator()->getOperand(k)));
        for (Value v : mineRotating)
          yields.push_back(map.lookup(v));
        tb.create<scf::YieldOp>(loc, yields);
      }
      {
        // Skipped stage: carried values pass through; a rotating value of
        // an iteration that does not exist is never read, so any value of
        // its type does.
        OpBuilder eb = ifOp.getElseBodyBuilder();
        SmallVector<Value> yields;
        for (unsigned k : mine)
          yields.push_back(current[k]);
        for (Value v : mineRotating)
          yields.push_back(atStart[regSlot(v)]);
        eb.create<scf::YieldOp>(loc, yields);
      }
      for (auto [i, k] : llvm::enumerate(mine))
        current[k] = ifOp.getResult(i);
      for (auto [i, v] : llvm::enumerate(mineRotating))
        produced[v] = ifOp.getResult(mine.size() + i);
    }
    // Shift each rotating value's registers by one row.
    for (auto &[v, slot] : regs) {
      unsigned span = rotating.lookup(v);
      for (unsigned j = span - 1; j > 0; --j)
        current[slot + j] = atStart[slot + j - 1];
      current[slot] = produced.lookup(v);
    }
    return current;
  };

  SmallVector<Value> current(loop.getInitArgs().begin(),
                             loop.getInitArgs().end());
  for (auto &[v, span] : rotating)
    for (unsigned j = 0; j < span; ++j)
      current.push_back(b.create<ub::PoisonOp>(loc, v.getType()));
  // Prologue: rows 0 .. S-2.
  for (unsigned r = 0; r + 1 < stages; ++r)
    current = emitRow(b, cst(b, r), Value(), current);
  // Steady state: rows S-1 .. N-1.
  auto steady =
      b.create<scf::ForOp>(loc, cst(b, stages - 1), n, cst(b, 1), current);
  {
    OpBuilder sb = OpBuilder::atBlockBegin(steady.getBody());
    SmallVector<Value> inner(steady.getRegionIterArgs().begin(),
                             steady.getRegionIterArgs().end());
    inner = emitRow(sb, steady.getInductionVar(), Value(), inner);
    sb.create<scf::YieldOp>(loc, inner);
    // Keep the schedule visible on the steady-state loop.
    for (NamedAttribute attr : loop->getDiscardableAttrs())
      steady->setAttr(attr.getName(), attr.getValue());
  }
  current.assign(steady.getResults().begin(), steady.getResults().end());
  // Epilogue: rows N .. N+S-2, skipped where the prologue already ran them.
  for (unsigned e = 0; e + 1 < stages; ++e) {
    Value row = b.create<arith::AddIOp>(loc, n, cst(b, e));
    Value fresh = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, row,
                                          cst(b, stages - 1));
    current = emitRow(b, row, fresh, current);
  }
  for (auto [result, value] :
       llvm::zip(loop->getResults(), ArrayRef(current).take_front(numCarried)))
    result.replaceAllUsesWith(value);
  loop->erase();
  return success();
}
