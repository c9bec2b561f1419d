//===- PipeCreation.cpp - the pipes and mutexes of stage code -------------===//
//
// Where the loop was, before any agent: one pipe per planned pipe that
// stage code uses (ring members use their ring's), one consumer entry per
// consumer group, each releasing the way its unit can; one mutex per
// planned mutex; and the one-slot pipes that hand the loop's register
// results to the code after it. MmaResults.cpp adds the result pipes.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/StageCodeEmitter.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::stagecode;
using materialize::BufferClass;
using materialize::MutexPlan;
using materialize::PipePlan;

tileas::PipeProducerKind stagecode::producerKind(Unit unit) {
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

tileas::PipeConsumerKind stagecode::consumerKind(Unit unit) {
  switch (unit) {
  case Unit::UMMA:
    return tileas::PipeConsumerKind::Umma;
  case Unit::TMAStore:
    return tileas::PipeConsumerKind::TmaStore;
  default:
    return tileas::PipeConsumerKind::Simt;
  }
}

tileas::SignalKind stagecode::commitVia(Unit unit) {
  return tileas::getCommitKind(producerKind(unit));
}

tileas::SignalKind stagecode::releaseVia(Unit unit) {
  return tileas::getReleaseKind(consumerKind(unit));
}

/// A group whose reader is a Hopper wgmma runs on SIMT warps, but its reads
/// last until a wgmma.wait_group retires them: a consumer kind of its own.
tileas::PipeConsumerKind
StageCodeEmitter::consumerKindOf(const ConsumerGroup &group) const {
  for (OpId u : group.ops)
    if (isa<tileas::WgmmaOp>(ops[u]))
      return tileas::PipeConsumerKind::Wgmma;
  return consumerKind(group.unit);
}

/// One consumer entry per group, as many as the group stands for. A pipe
/// whose slots are handed on counts the releases of the pipe taking them
/// over instead of its handing group's.
SmallVector<Attribute> StageCodeEmitter::consumersOf(OpBuilder &b, unsigned p) {
  SmallVector<Attribute> kinds;
  auto add = [&](unsigned q, bool skipHanding) {
    for (auto [g, group] : llvm::enumerate(groups))
      if (group.pipe == q && !(skipHanding && handsOn[g]))
        for (unsigned r = 0; r < groupWeight[g]; ++r)
          kinds.push_back(b.getStringAttr(
              tileas::stringifyPipeConsumerKind(consumerKindOf(group))));
  };
  add(p, true);
  for (auto [q, other] : llvm::enumerate(plan.buffers.pipes))
    if (other.aliasOf && *other.aliasOf == p)
      add(unsigned(q), false);
  return kinds;
}

/// Shared buffers name the pipe they share, so pipes naming another are
/// created after it; ring members use their ring's pipe.
void StageCodeEmitter::createPipes(OpBuilder &b) {
  const auto &plans = plan.buffers.pipes;
  pipes.assign(plans.size(), Value());
  auto createPipe = [&](unsigned p) {
    const PipePlan &pipe = plans[p];
    const sched::ScheduleSlot &slot = schedule.slots[pipe.producer];
    int64_t bytes = pipe.cls == BufferClass::TMEM
                        ? pipe.tmemColumns * 4 * 128 // 32-bit x 128 lanes.
                        : pipe.bytes;
    Value shares = pipe.sharesWith ? pipes[*pipe.sharesWith] : Value();
    Value aliases = pipe.aliasOf ? pipes[*pipe.aliasOf] : Value();
    ScheduleTag tag = ScheduleTag::of(b, slot.stage, slot.order);
    pipes[p] = b.create<tileas::PipeCreateOp>(
        loop.getLoc(), tileas::PipeType::get(b.getContext(), slotType(p)),
        shares, aliases, /*joins=*/Value(), pipe.depth,
        tileas::stringifyPipeProducerKind(producerKind(pipe.producerUnit)),
        b.getArrayAttr(consumersOf(b, p)), b.getI64IntegerAttr(bytes),
        tag.stage, tag.order);
  };
  for (bool dependent : {false, true})
    for (auto [p, pipe] : llvm::enumerate(plans)) {
      bool names = pipe.sharesWith || pipe.aliasOf;
      if (!pipe.ringOf && names == dependent &&
          pipeOf.count(plan.values[pipe.value]))
        createPipe(unsigned(p));
    }
}

/// One agent runs everything in peeled code: there is nothing to order.
void StageCodeEmitter::createMutexes(OpBuilder &b) {
  if (mode == StageCodeMode::Unspecialized)
    return;
  for (const MutexPlan &m : plan.mutexes) {
    auto impl = m.namedBarrier ? tileas::MutexImplKind::NamedBarrier
                               : tileas::MutexImplKind::MBarrier;
    IntegerAttr barrierId =
        m.namedBarrier ? b.getI32IntegerAttr(*m.namedBarrier) : IntegerAttr();
    mutexes.push_back(b.create<tileas::MutexCreateOp>(
        loop.getLoc(), tileas::MutexType::get(b.getContext()),
        unsigned(m.groups.size()), tileas::stringifyMutexImplKind(impl),
        barrierId, /*stage=*/IntegerAttr(), /*order=*/IntegerAttr()));
  }
}

/// Register results handed to the code after the loop: one SMEM slot.
void StageCodeEmitter::createTransportPipes(OpBuilder &b) {
  for (auto [k, t] : transports) {
    if (t.kind != Transport::Own)
      continue;
    Type type = loop->getResult(k).getType();
    transportPipe[k] =
        createOneWayPipe(b, tileas::PipeType::get(b.getContext(), smemOf(type)),
                         1, tileas::PipeProducerKind::Simt,
                         tileas::getTileSizeInBytes(cast<ShapedType>(type)));
  }
}

Value StageCodeEmitter::createOneWayPipe(OpBuilder &b, tileas::PipeType type,
                                         unsigned depth,
                                         tileas::PipeProducerKind producer,
                                         int64_t bytes) {
  StringRef simt =
      tileas::stringifyPipeConsumerKind(tileas::PipeConsumerKind::Simt);
  return b.create<tileas::PipeCreateOp>(
      loop.getLoc(), type, /*shares=*/Value(), /*aliases=*/Value(),
      /*joins=*/Value(), depth, tileas::stringifyPipeProducerKind(producer),
      b.getArrayAttr({b.getStringAttr(simt)}), b.getI64IntegerAttr(bytes),
      /*stage=*/IntegerAttr(), /*order=*/IntegerAttr());
}

Type StageCodeEmitter::smemOf(Type registerTile) {
  auto reg = cast<RankedTensorType>(registerTile);
  return tileas::SmemType::get(reg.getShape(), reg.getElementType());
}

Type StageCodeEmitter::slotType(unsigned p) {
  Type type = plan.values[plan.buffers.pipes[p].value].getType();
  if (isa<RankedTensorType>(type))
    return smemOf(type);
  return type;
}

Value StageCodeEmitter::storeToSlot(OpBuilder &b, Value v, Value slot) {
  auto store =
      b.create<tileas::SmemStoreOp>(loop.getLoc(), slot.getType(), v, slot);
  store->setAttr("tileas.transport", b.getUnitAttr());
  return store.getResult();
}

Value StageCodeEmitter::loadFromSlot(OpBuilder &b, Value slot, Type type) {
  auto load = b.create<tileas::SmemLoadOp>(loop.getLoc(), type, slot);
  load->setAttr("tileas.transport", b.getUnitAttr());
  return load.getResult();
}

Value StageCodeEmitter::pipeValue(unsigned p) {
  const PipePlan &pipe = plan.buffers.pipes[p];
  return pipes[pipe.ringOf ? *pipe.ringOf : p];
}

Type StageCodeEmitter::ringSlotType(unsigned p) {
  const PipePlan &pipe = plan.buffers.pipes[p];
  return slotType(pipe.ringOf ? *pipe.ringOf : p);
}

Value StageCodeEmitter::viewAs(OpBuilder &b, Value slot, Type type) {
  if (slot.getType() == type)
    return slot;
  return b.create<tileas::SmemViewOp>(loop.getLoc(), type, slot);
}

Value StageCodeEmitter::pipeIter(OpBuilder &b, unsigned p, Value iter,
                                 bool producing) {
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
