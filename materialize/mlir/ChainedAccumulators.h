//===- ChainedAccumulators.h - MMA accumulators two loops share -*- C++ -*-===//
//
// Two K loops that sum into one accumulator, one after the other (a dual
// GEMM: D = X Wx^T + H Wh^T; a K range split in two). Stage code hands an
// accumulator from one loop to the next only where both loops run on the
// same threads in program order (docs/materialize.md, "Accumulators two
// loops share").
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_MLIR_CHAINEDACCUMULATORS_H
#define TILEPIPE_MATERIALIZE_MLIR_CHAINEDACCUMULATORS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace tilepipe {

/// The other loop of a shared accumulator, and whether the accumulator is
/// a TMEM one (a UMMA's) rather than registers (a wgmma's).
struct AccumulatorPeer {
  mlir::scf::ForOp loop;
  bool tmem;
  /// The MMA that sums into a loop's result as it is, outside that loop
  /// (null when the accumulator passes as a loop's initial value).
  mlir::Operation *captured = nullptr;
};

/// The loop whose MMA accumulator `loop`'s MMAs go on summing into (its
/// initial value is that loop's result), or that goes on summing into
/// `loop`'s result; none when there is none.
std::optional<AccumulatorPeer> accumulatorPeer(mlir::scf::ForOp loop);

} // namespace tilepipe

#endif // TILEPIPE_MATERIALIZE_MLIR_CHAINEDACCUMULATORS_H
