//===- ControlOps.cpp - scf, grid indices and values made at each use -----===//
//
// scf.for and scf.if become emitc.for and emitc.if, their results variables
// assigned at the yield; gpu.block_id and gpu.grid_dim the CUDA built-ins
// (a persistent kernel's tile index and asked-for grid); tensor.splat a
// tp::splat at the agent's fragment size.
//
//===----------------------------------------------------------------------===//

#include "cuda/analysis/LoopCounters.h"
#include "cuda/analysis/TileHomes.h"

#include "cuda/emit/KernelEmitter.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

LogicalResult KernelEmitter::emit(scf::ForOp op) {
  Location loc = op.getLoc();
  Value lb = lookup(loc, op.getLowerBound()),
        ub = lookup(loc, op.getUpperBound()), step = lookup(loc, op.getStep());
  if (broken)
    return failure();
  // A Hopper accumulator is copied into the loop's variable only once the
  // MMAs that write it have retired.
  if (copiesFragment(op.getInitArgs()))
    flushWgmmaReleases();
  // Loop-carried values live in variables declared before the loop.
  SmallVector<Value> vars;
  for (auto [init, result] : llvm::zip(op.getInitArgs(), op.getResults())) {
    FailureOr<Type> type = convert(loc, result);
    if (failed(type))
      return failure();
    Value var = b.create<emitc::VariableOp>(loc, *type,
                                            emitc::OpaqueAttr::get(ctx, ""));
    Value initial = lookup(loc, init);
    if (broken)
      return failure();
    b.create<emitc::AssignOp>(loc, var, initial);
    vars.push_back(var);
  }
  IssueTurn turnAtEntry = issueTurn;
  // A scheduled loop whose trip count fits 32 bits counts in int32_t; the
  // body reads the counter widened to the int64_t of `index`
  // (analysis/LoopCounters.h).
  bool narrow = hasNarrowCounter(op);
  if (narrow) {
    Type i32 = b.getI32Type();
    lb = literal(i32, "0");
    std::optional<int64_t> end = getConstantIntValue(op.getUpperBound());
    ub = end ? literal(i32, Twine(*end))
             : b.create<emitc::CastOp>(loc, i32, ub).getResult();
    step = literal(i32, "1");
  }
  auto forOp = b.create<emitc::ForOp>(loc, lb, ub, step);
  {
    OpBuilder::InsertionGuard guard(b);
    enter(forOp.getRegion());
    Value counter = forOp.getInductionVar();
    if (narrow)
      counter = b.create<emitc::CastOp>(loc, i64(), counter);
    map[op.getInductionVar()] = counter;
    for (auto [arg, var] : llvm::zip(op.getRegionIterArgs(), vars))
      map[arg] = var;
    ++loopDepth;
    auto leave = llvm::make_scope_exit([&] { --loopDepth; });
    if (failed(emitBlock(*op.getBody())))
      return failure();
    auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
    // A fragment moved to another iter_arg's variable is copied once its
    // MMAs have retired (one accumulated in place stays where it is). Where
    // the warpgroups take issue turns none stays in flight across the
    // back-edge: ptxas would serialize every wgmma of the kernel (C7514)
    // when the next iteration's code reads an accumulator.
    bool flush = wgmmaInFlight && issueTurns();
    for (auto [i, v] : llvm::enumerate(yield.getOperands()))
      flush |= copiesMmaResult(v) && wgmmaInFlight && map.lookup(v) != vars[i];
    if (flush)
      flushWgmmaReleases();
    // A yielded iter_arg is read before any variable is overwritten.
    SmallVector<Value> values;
    for (auto [i, v] : llvm::enumerate(yield.getOperands())) {
      Value mapped = lookup(loc, v);
      if (broken)
        return failure();
      if (llvm::is_contained(op.getRegionIterArgs(), v)) {
        Value tmp = b.create<emitc::VariableOp>(
            loc, vars[i].getType(), emitc::OpaqueAttr::get(ctx, ""));
        b.create<emitc::AssignOp>(loc, tmp, mapped);
        mapped = tmp;
      }
      values.push_back(mapped);
    }
    // A slot that is one address in every iteration keeps its initial
    // value: assigned again, it is a phi that ptxas keeps in a register of
    // its own across the loop, where the initial value is derived from the
    // TMEM base (peeled FA4 at head dim 64 spilled the base at 255
    // registers).
    for (auto [i, var, v] : llvm::enumerate(vars, values))
      if (var != v && !isLoopInvariantSlot(op, i))
        b.create<emitc::AssignOp>(loc, var, v);
    restoreIssueTurn(turnAtEntry);
    streams.endBlock(op.getBody());
  }
  issueTurn = turnAtEntry;
  for (auto [result, var] : llvm::zip(op.getResults(), vars))
    map[result] = var;
  // A ping-pong copy passes the main loop's turn once its MMAs are issued
  // (CUTLASS's ping-pong too): the other copy's MMAs queue behind them
  // while this one drains.
  if (op == turnLoop)
    passMainTurn();
  // The last iterations' slots, released once their wgmma retire: nothing
  // after the loop issues the next wgmma that would free them.
  if (!wgmmaPending.empty())
    flushWgmmaReleases();
  return success();
}

LogicalResult KernelEmitter::emit(scf::IfOp op) {
  Location loc = op.getLoc();
  Value cond = lookup(loc, op.getCondition());
  if (broken)
    return failure();
  SmallVector<Value> vars;
  for (Value result : op.getResults()) {
    FailureOr<Type> type = convert(loc, result);
    if (failed(type))
      return failure();
    vars.push_back(b.create<emitc::VariableOp>(
        loc, *type, emitc::OpaqueAttr::get(ctx, "")));
  }
  bool hasElse = !op.getElseRegion().empty();
  auto ifOp = b.create<emitc::IfOp>(loc, cond, /*addThenBlock=*/true,
                                    /*addElseBlock=*/hasElse);
  // Whether a wgmma may be in flight: as before the branch in each, either
  // branch's afterwards.
  bool inFlightBefore = wgmmaInFlight, inFlightAfter = false;
  IssueTurn turnBefore = issueTurn;
  auto branch = [&](Region &from, Region &to) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    enter(to);
    wgmmaInFlight = inFlightBefore;
    issueTurn = turnBefore;
    if (failed(emitBlock(from.front())))
      return failure();
    auto yield = cast<scf::YieldOp>(from.front().getTerminator());
    if (copiesFragment(yield.getOperands()))
      flushWgmmaReleases();
    inFlightAfter |= wgmmaInFlight;
    for (auto [var, v] : llvm::zip(vars, yield.getOperands())) {
      Value mapped = lookup(loc, v);
      if (broken)
        return failure();
      b.create<emitc::AssignOp>(loc, var, mapped);
    }
    restoreIssueTurn(turnBefore);
    streams.endBlock(&from.front());
    return success();
  };
  if (failed(branch(op.getThenRegion(), ifOp.getThenRegion())))
    return failure();
  if (hasElse && failed(branch(op.getElseRegion(), ifOp.getElseRegion())))
    return failure();
  wgmmaInFlight = hasElse ? inFlightAfter : inFlightAfter || inFlightBefore;
  issueTurn = turnBefore;
  for (auto [result, var] : llvm::zip(op.getResults(), vars))
    map[result] = var;
  return success();
}

/// gpu.block_id and gpu.grid_dim: the CUDA built-ins, widened to int64_t as
/// every index value is.
LogicalResult KernelEmitter::emitGridIndex(Operation *op) {
  if (persistent) {
    auto id = dyn_cast<gpu::BlockIdOp>(op);
    unsigned d = unsigned(id ? id.getDimension()
                             : cast<gpu::GridDimOp>(op).getDimension());
    if (id && !tileId[d])
      return emitError(op->getLoc(), "a persistent kernel reads the block "
                                     "index only inside its agents' tiles");
    map[op->getResult(0)] = id ? tileId[d] : tiles[d];
    return success();
  }
  std::string builtin;
  if (auto id = dyn_cast<gpu::BlockIdOp>(op))
    builtin = ("blockIdx." + gpu::stringifyDimension(id.getDimension())).str();
  else
    builtin = ("gridDim." +
               gpu::stringifyDimension(cast<gpu::GridDimOp>(op).getDimension()))
                  .str();
  map[op->getResult(0)] =
      b.create<emitc::CastOp>(op->getLoc(), i64(), literal(u32(), builtin));
  return success();
}

/// Whether scalar `v` is computed from a tile (a tile reduced to one
/// value, then scalar math), or by a loop or a branch (a row sum carried
/// across a loop: peeled code assigns it in the loop's drain): a value only
/// the body's work makes.
static bool fromTile(Value v) {
  SmallVector<Value> work = {v};
  llvm::DenseSet<Operation *> seen;
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    if (def->getNumRegions())
      return true;
    for (Value operand : def->getOperands()) {
      if (isa<ShapedType>(operand.getType()))
        return true;
      work.push_back(operand);
    }
  }
  return false;
}

/// tensor.splat in an agent; one before the agents is made by each agent
/// that reads it at its start (lookup). In peeled code (no agents) a splat
/// of a value computed from a tile cannot be made at the start: it is made
/// where it stands.
LogicalResult KernelEmitter::emit(tensor::SplatOp splat) {
  if (splat->getParentOp() == func.getOperation() &&
      !(layout.agents.size() == 1 && !layout.agents.front().op &&
        fromTile(splat.getInput())))
    return success();
  Value made = emitSplat(splat.getLoc(), splat);
  if (!made)
    return failure();
  map[splat.getResult()] = made;
  return success();
}

/// ub.poison is made at each use (lookup).
LogicalResult KernelEmitter::emit(ub::PoisonOp) { return success(); }
