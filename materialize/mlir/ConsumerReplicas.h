//===- ConsumerReplicas.h - ping-pong or cooperative consumers --*- C++ -*-===//
//
// On Hopper the consumer warpgroups issue the wgmmas and run the epilogue
// themselves. When one warpgroup holds a tile's whole accumulator, a
// persistent kernel can run two copies of that consumer (CUTLASS's
// ping-pong): each takes every other output tile, and while one runs its
// epilogue the other keeps the tensor core busy. This step decides, per
// persistent function, whether its consumer agent gets `replicas = 2`
// (docs/cuda.md, "Ping-pong consumers").
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_MLIR_CONSUMERREPLICAS_H
#define TILEPIPE_MATERIALIZE_MLIR_CONSUMERREPLICAS_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace tilepipe {

enum class ConsumerForm { Auto, Cooperative, PingPong };

/// "auto", "cooperative" or "pingpong"; nullopt for anything else.
std::optional<ConsumerForm> parseConsumerForm(llvm::StringRef text);

/// Marks the consumer agent of persistent `func` `replicas = 2` when
/// `form` asks for ping-pong, or is Auto and ping-pong fits (the
/// accumulator in one warpgroup leaves the register pool room for a second
/// copy). Returns why not when PingPong was asked for and cannot be, else
/// "".
std::string chooseConsumerReplicas(mlir::Operation *func, ConsumerForm form);

} // namespace tilepipe

#endif // TILEPIPE_MATERIALIZE_MLIR_CONSUMERREPLICAS_H
