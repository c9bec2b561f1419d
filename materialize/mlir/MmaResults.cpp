//===- MmaResults.cpp - accumulators a unit leaves in TMEM ----------------===//
//
// The part of stage code particular to a unit whose row in the role table
// says `resultInTmem` (UMMA): a carried accumulator it makes in a TMEM
// buffer allocated before the loop is still in flight when its agent's rows
// end. It is handed on through a one-slot result pipe whose slot is the
// accumulator itself: the agent acquires the slot before its rows and
// commits it after them; whoever reads the result waits for the MMAs on it,
// and with no reader the agent drains the slot itself, so that no MMA is in
// flight when the kernel ends. A unit that keeps its accumulator in
// registers (a warpgroup MMA) needs none of this.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/StageCodeEmitter.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::stagecode;

LogicalResult StageCodeEmitter::findResultPipes(std::string &why) {
  for (unsigned k = 0, e = loop.getNumRegionIterArgs(); k < e; ++k) {
    OpId w = *bodyDef(yielded(k));
    if (carriedPipe.count(k))
      continue;
    if (!materialize::unitRole(plan.input.units[w]).resultInTmem ||
        !isa<tileas::TmemType>(yielded(k).getType()))
      continue;
    // Without its result pipe nothing would wait for the MMAs on the
    // accumulator before its reader or the TMEM's release.
    Operation *init = loop.getInitArgs()[k].getDefiningOp();
    if (!isa_and_nonnull<tileas::AllocTmemOp>(init)) {
      why = "iteration value " + std::to_string(k) +
            " is a TMEM accumulator the loop's MMAs add to, started from " +
            (init ? "'" + init->getName().getStringRef().str() + "'"
                  : std::string("an argument")) +
            " instead of a tileas.alloc_tmem: its MMAs' completion is handed "
            "on only for an allocated accumulator; start it from "
            "alloc_tmem and add the initial tile after the loop";
      return failure();
    }
    resultPiped.push_back(k);
  }
  return success();
}

/// One slot, the accumulator itself. A persistent kernel takes a second
/// slot when the columns allow: the next tile's MMAs fill it while the
/// epilogue drains this tile's.
void StageCodeEmitter::createResultPipes(OpBuilder &b) {
  int64_t freeColumns = plan.input.caps.tmemColumns - plan.buffers.tmemColumns;
  // Block-scale factors copied to TMEM in the loop take two buffers each
  // in the translation (cuda/KernelLayout.h, scaleCopies).
  loop.getBody()->walk([&](tileas::TmemCopyOp copy) {
    freeColumns -= 2 * tileas::getTmemColumns(
                           cast<tileas::TmemType>(copy.getResult().getType()));
  });
  for (unsigned k : resultPiped) {
    Type type = loop.getInitArgs()[k].getType();
    int64_t columns = tileas::getTmemColumns(cast<tileas::TmemType>(type));
    unsigned depth = 1;
    if (plan.input.persistent && columns <= freeColumns) {
      depth = 2;
      freeColumns -= columns;
    }
    resultPipe[k] =
        createOneWayPipe(b, tileas::PipeType::get(b.getContext(), type), depth,
                         tileas::PipeProducerKind::Umma, columns * 4 * 128);
  }
}

/// Before its rows, the agent making a result-piped accumulator acquires
/// the slot: its rows accumulate into it.
void StageCodeEmitter::acquireResultSlots(OpBuilder &b, unsigned a) {
  for (unsigned k : agents[a].carried)
    if (resultPipe.count(k))
      initOverride[k] = handshakes(b).acquire(resultPipe[k], cst(b, 0),
                                              loop.getInitArgs()[k].getType());
}

/// After its rows it commits the slot; nobody reading it, it drains it.
void StageCodeEmitter::commitResults(OpBuilder &b, unsigned a,
                                     ArrayRef<Value> finals) {
  for (auto [pos, k] : llvm::enumerate(agents[a].carried)) {
    if (!resultPipe.count(k))
      continue;
    handshakes(b).commit(resultPipe[k], cst(b, 0), finals[pos],
                         tileas::SignalKind::Tcgen05Commit);
    if (loop->getResult(k).use_empty()) {
      waitResult(b, k);
      releaseResult(b, k);
    }
  }
}

Value StageCodeEmitter::waitResult(OpBuilder &b, unsigned k) {
  Value r = handshakes(b).wait(resultPipe[k], cst(b, 0),
                               loop.getInitArgs()[k].getType());
  fence(b, tileas::FenceKind::Tcgen05After);
  return r;
}

void StageCodeEmitter::releaseResult(OpBuilder &b, unsigned k) {
  fence(b, tileas::FenceKind::Tcgen05WaitLd);
  fence(b, tileas::FenceKind::Tcgen05Before);
  handshakes(b).release(resultPipe[k], cst(b, 0), tileas::SignalKind::Arrive);
}
