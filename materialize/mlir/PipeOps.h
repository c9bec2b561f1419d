//===- PipeOps.h - the handshakes of stage code ----------------*- C++ -*-===//
//
// The pipe and mutex ops the stage code is made of, each built with the
// dialect's generated builder. A handshake serving a scheduled op carries
// that op's (stage, order) so that tests and later passes can trace it back
// to the schedule; the ones around the rows (publishing an initial buffer,
// handing on a result) carry none.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_MLIR_PIPEOPS_H
#define TILEPIPE_MATERIALIZE_MLIR_PIPEOPS_H

#include "ir/TileASDialect.h"

#include "mlir/IR/Builders.h"

namespace tilepipe {

/// The (stage, order) a handshake carries; null attributes for none.
struct ScheduleTag {
  mlir::IntegerAttr stage, order;
  static ScheduleTag of(mlir::OpBuilder &b, unsigned stage, unsigned order) {
    return {b.getI32IntegerAttr(stage), b.getI32IntegerAttr(order)};
  }
};

/// Builds a loop's handshakes at one location.
class PipeOps {
public:
  PipeOps(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}

  mlir::Value acquire(mlir::Value pipe, mlir::Value iter, mlir::Type slot,
                      ScheduleTag tag = {});
  void commit(mlir::Value pipe, mlir::Value iter, mlir::Value slot,
              mlir::tileas::SignalKind via, ScheduleTag tag = {});
  mlir::Value wait(mlir::Value pipe, mlir::Value iter, mlir::Type slot,
                   ScheduleTag tag = {});
  /// `arrivals` above 1: the release stands for that many consumer entries.
  void release(mlir::Value pipe, mlir::Value iter, mlir::tileas::SignalKind via,
               ScheduleTag tag = {}, unsigned arrivals = 1);
  void fence(mlir::tileas::FenceKind kind);
  void lock(mlir::Value mutex, mlir::Value group, ScheduleTag tag);
  void unlock(mlir::Value mutex, mlir::Value group, ScheduleTag tag);

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
};

} // namespace tilepipe

#endif // TILEPIPE_MATERIALIZE_MLIR_PIPEOPS_H
