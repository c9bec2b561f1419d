//===- PipeOps.cpp --------------------------------------------------------===//

#include "materialize/mlir/PipeOps.h"

using namespace mlir;
using namespace tilepipe;

Value PipeOps::acquire(Value pipe, Value iter, Type slot, ScheduleTag tag) {
  return b.create<tileas::PipeProducerAcquireOp>(loc, slot, pipe, iter,
                                                 tag.stage, tag.order);
}

void PipeOps::commit(Value pipe, Value iter, Value slot, tileas::SignalKind via,
                     ScheduleTag tag) {
  b.create<tileas::PipeProducerCommitOp>(loc, pipe, iter, slot,
                                         tileas::stringifySignalKind(via),
                                         tag.stage, tag.order);
}

Value PipeOps::wait(Value pipe, Value iter, Type slot, ScheduleTag tag) {
  return b.create<tileas::PipeConsumerWaitOp>(loc, slot, pipe, iter, tag.stage,
                                              tag.order);
}

void PipeOps::release(Value pipe, Value iter, tileas::SignalKind via,
                      ScheduleTag tag, unsigned arrivals) {
  IntegerAttr count =
      arrivals > 1 ? b.getI32IntegerAttr(arrivals) : IntegerAttr();
  b.create<tileas::PipeConsumerReleaseOp>(loc, pipe, iter,
                                          tileas::stringifySignalKind(via),
                                          count, tag.stage, tag.order);
}

void PipeOps::fence(tileas::FenceKind kind) {
  b.create<tileas::FenceOp>(loc, tileas::stringifyFenceKind(kind),
                            /*stage=*/IntegerAttr(), /*order=*/IntegerAttr());
}

void PipeOps::lock(Value mutex, Value group, ScheduleTag tag) {
  b.create<tileas::MutexLockOp>(loc, mutex, group, tag.stage, tag.order);
}

void PipeOps::unlock(Value mutex, Value group, ScheduleTag tag) {
  b.create<tileas::MutexUnlockOp>(loc, mutex, group, tag.stage, tag.order);
}
