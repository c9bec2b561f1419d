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

#include <string>

namespace tilepipe {

/// The loop whose MMA accumulator `loop`'s MMAs go on summing into (its
/// initial value is that loop's result), or that goes on summing into
/// `loop`'s result; null when there is none.
mlir::scf::ForOp accumulatorPeer(mlir::scf::ForOp loop);

/// Whether the accumulator `loop` shares with another loop is a TMEM one
/// (a UMMA's) rather than registers (a wgmma's).
bool sharesTmemAccumulator(mlir::scf::ForOp loop);

/// "the loop at line N", for diagnostics that name another loop.
std::string describeLoop(mlir::scf::ForOp loop);

} // namespace tilepipe

#endif // TILEPIPE_MATERIALIZE_MLIR_CHAINEDACCUMULATORS_H
