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
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

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
        if (def && def->getBlock() == body && stageOf(def) != stageOf(op)) {
          why = "a value carried to the next iteration is used in another "
                "stage";
          return failure();
        }
        continue;
      }
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != body || stageOf(def) == stageOf(op))
        continue;
      if (!pipeOf.count(operand)) {
        why = "a value crosses stages outside a pipe";
        return failure();
      }
    }
  for (OpOperand &y : body->getTerminator()->getOpOperands())
    if (!y.get().getDefiningOp() ||
        y.get().getDefiningOp()->getBlock() != body) {
      why = "a loop-carried value is not produced in the loop";
      return failure();
    }

  MLIRContext *ctx = loop.getContext();
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto cst = [&](OpBuilder &ob, int64_t v) -> Value {
    return ob.create<arith::ConstantIndexOp>(loc, v);
  };

  std::vector<Value> pipes;
  for (const PipePlan &pipe : plan.buffers.pipes) {
    Type payload = plan.values[pipe.value].getType();
    pipes.push_back(
        createOp(
            b, loc, "tileas.pipe.create", {},
            {tileas::PipeType::get(ctx, payload)},
            {b.getNamedAttr("depth", b.getI32IntegerAttr(pipe.depth)),
             b.getNamedAttr(
                 "producer",
                 b.getStringAttr(
                     pipe.producerUnit == materialize::Unit::TMA    ? "tma"
                     : pipe.producerUnit == materialize::Unit::UMMA ? "umma"
                     : pipe.producerUnit == materialize::Unit::CpAsync
                         ? "cpasync"
                         : "simt")),
             b.getNamedAttr(
                 "consumer",
                 b.getStringAttr(
                     pipe.consumerUnit == materialize::Unit::UMMA ? "umma"
                     : pipe.consumerUnit == materialize::Unit::TMAStore
                         ? "tma_store"
                         : "simt"))})
            ->getResult(0));
  }

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

  // Emits row `row` given the current carried values; returns the new ones.
  auto emitRow = [&](OpBuilder &rb, Value row, Value extraGuard,
                     SmallVector<Value> current) {
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
        tb.create<scf::YieldOp>(loc, yields);
      }
      {
        OpBuilder eb = ifOp.getElseBodyBuilder();
        SmallVector<Value> yields;
        for (unsigned k : mine)
          yields.push_back(current[k]);
        eb.create<scf::YieldOp>(loc, yields);
      }
      for (auto [i, k] : llvm::enumerate(mine))
        current[k] = ifOp.getResult(i);
    }
    return current;
  };

  SmallVector<Value> current(loop.getInitArgs().begin(),
                             loop.getInitArgs().end());
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
  for (auto [result, value] : llvm::zip(loop->getResults(), current))
    result.replaceAllUsesWith(value);
  loop->erase();
  return success();
}
