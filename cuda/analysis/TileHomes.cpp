//===- TileHomes.cpp - where a TMEM or SMEM tile lives, and who changes it ===//

#include "cuda/analysis/TileHomes.h"

#include "cuda/analysis/ElementwiseOps.h"
#include "cuda/analysis/Prologue.h"

#include "attrs/AttrNames.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

namespace {

tileas::PipeCreateOp rootPipe(tileas::PipeCreateOp pipe) {
  while (pipe) {
    Value up = pipe.getShares() ? pipe.getShares() : pipe.getAliases();
    auto parent = up ? up.getDefiningOp<tileas::PipeCreateOp>() : nullptr;
    if (!parent)
      break;
    pipe = parent;
  }
  return pipe;
}

Operation *rootOf(Value tile, llvm::SmallPtrSetImpl<Value> &seen);

/// A value carried by a loop or returned by a branch lies where all the
/// values that reach it lie, or nowhere known.
Operation *agreeing(ArrayRef<Value> values,
                    llvm::SmallPtrSetImpl<Value> &seen) {
  Operation *root = nullptr;
  for (Value v : values) {
    Operation *r = rootOf(v, seen);
    if (!r || (root && r != root))
      return nullptr;
    root = r;
  }
  return root;
}

Operation *rootOf(Value tile, llvm::SmallPtrSetImpl<Value> &seen) {
  if (!seen.insert(tile).second)
    return nullptr;
  if (auto arg = dyn_cast<BlockArgument>(tile)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0)
      return nullptr;
    unsigned i = arg.getArgNumber() - 1;
    return agreeing({loop.getInitArgs()[i],
                     loop.getBody()->getTerminator()->getOperand(i)},
                    seen);
  }
  Operation *def = tile.getDefiningOp();
  if (auto loop = dyn_cast<scf::ForOp>(def)) {
    unsigned i = cast<OpResult>(tile).getResultNumber();
    return agreeing({loop.getInitArgs()[i],
                     loop.getBody()->getTerminator()->getOperand(i)},
                    seen);
  }
  if (auto branch = dyn_cast<scf::IfOp>(def)) {
    unsigned i = cast<OpResult>(tile).getResultNumber();
    SmallVector<Value> values;
    for (Region *r : {&branch.getThenRegion(), &branch.getElseRegion()})
      if (!r->empty())
        values.push_back(r->front().getTerminator()->getOperand(i));
    return agreeing(values, seen);
  }
  if (auto view = dyn_cast<tileas::SmemViewOp>(def))
    return rootOf(view.getSource(), seen);
  if (isa<tileas::PipeConsumerWaitOp, tileas::PipeProducerAcquireOp>(def))
    return rootPipe(def->getOperand(0).getDefiningOp<tileas::PipeCreateOp>());
  if (isa<tileas::AllocTmemOp, tileas::AllocSmemOp>(def))
    return def;
  if (auto load = dyn_cast<tileas::TmaLoadOp>(def)) {
    if (load.getDst())
      return rootOf(load.getDst(), seen);
    // After the loops, the layout may overlay pipe slots (an epilogue's
    // source tile); before them it is the prologue's own buffer.
    return makesTileAfterLoops(load) ? nullptr : def;
  }
  if (auto store = dyn_cast<tileas::TmemStoreOp>(def))
    return store.getDst() ? rootOf(store.getDst(), seen) : def;
  if (auto store = dyn_cast<tileas::SmemStoreOp>(def))
    // Without `into`, the layout may overlay pipe slots (a staged epilogue).
    return store.getDst() ? rootOf(store.getDst(), seen) : nullptr;
  if (auto copy = dyn_cast<tileas::TmemCopyOp>(def))
    return copy.getDst() ? rootOf(copy.getDst(), seen) : def;
  if (auto mma = dyn_cast<tileas::UmmaOp>(def))
    return rootOf(mma.getAcc(), seen);
  if (auto copy = dyn_cast<tileas::CpAsyncOp>(def))
    return copy.getDst() ? rootOf(copy.getDst(), seen) : def;
  return nullptr;
}

/// The value an op writes in TMEM or SMEM, or null when it writes none.
Value written(Operation *op) {
  if (auto s = dyn_cast<tileas::TmemStoreOp>(op))
    return s.getResult();
  if (auto s = dyn_cast<tileas::SmemStoreOp>(op))
    return s.getResult();
  if (auto mma = dyn_cast<tileas::UmmaOp>(op))
    return mma.getResult();
  if (auto copy = dyn_cast<tileas::TmemCopyOp>(op))
    return copy.getResult();
  if (auto load = dyn_cast<tileas::TmaLoadOp>(op))
    return load.getResult();
  if (auto copy = dyn_cast<tileas::CpAsyncOp>(op))
    return copy.getResult();
  return {};
}

/// The agent keeps slots of `pipe` past its own release until it commits
/// a pipe that aliases or shares `pipe` (mayChange's comment says why).
bool keptPastRelease(tileas::PipeCreateOp pipe, Operation *agent) {
  for (Operation *user : pipe.getResult().getUsers()) {
    auto other = dyn_cast<tileas::PipeCreateOp>(user);
    if (!other)
      continue;
    bool alias = other.getAliases() == pipe.getResult();
    bool shares = other.getShares() == pipe.getResult() &&
                  sharesWaitsFirst(pipe, other);
    if (!alias && !shares)
      continue;
    for (Operation *u : other.getResult().getUsers())
      if (isa<tileas::PipeProducerCommitOp>(u) && agent->isAncestor(u))
        return true;
  }
  return false;
}

/// The slot `op` writes or commits when it is one the agent acquired as
/// producer of `home`'s own pipe, while it still holds the slot `home` was
/// read from as a consumer: another slot. Acquiring the held slot would wait
/// for the agent's own release, which comes later (a deadlock), so a slot of
/// that pipe acquired now is not the one read. Peeled code has one agent
/// produce into the scores' pipe (the next S's MMA) while it reads the last
/// S: without this, the MMA ends the streamed pass over S. Not where the
/// agent keeps slots past its release (keptPastRelease): the held slot may
/// already be released.
bool writesAnotherSlot(Operation *op, const TileHome &home, Operation *agent) {
  tileas::PipeCreateOp pipe = home.pipe;
  if (!pipe || keptPastRelease(pipe, agent))
    return false;
  if (auto commit = dyn_cast<tileas::PipeProducerCommitOp>(op))
    return commit.getPipe() == pipe.getResult();
  Value dst = TypeSwitch<Operation *, Value>(op)
                  .Case([](tileas::UmmaOp o) { return o.getAcc(); })
                  .Case([](tileas::TmemStoreOp o) { return o.getDst(); })
                  .Case([](tileas::SmemStoreOp o) { return o.getDst(); })
                  .Case([](tileas::TmemCopyOp o) { return o.getDst(); })
                  .Case([](tileas::TmaLoadOp o) { return o.getDst(); })
                  .Case([](tileas::CpAsyncOp o) { return o.getDst(); })
                  .Default([](Operation *) { return Value(); });
  auto acquire =
      dst ? dst.getDefiningOp<tileas::PipeProducerAcquireOp>() : nullptr;
  return acquire && acquire.getPipe() == pipe.getResult();
}

bool changesOne(Operation *op, const TileHome &home, Operation *agent) {
  if (writesAnotherSlot(op, home, agent))
    return false;
  if (auto release = dyn_cast<tileas::PipeConsumerReleaseOp>(op)) {
    auto pipe = release.getPipe().getDefiningOp<tileas::PipeCreateOp>();
    if (!home.root || !pipe)
      return true;
    if (rootPipe(pipe) != home.root)
      return false;
    return !(pipe == home.pipe && keptPastRelease(pipe, agent));
  }
  if (auto commit = dyn_cast<tileas::PipeProducerCommitOp>(op)) {
    auto pipe = commit.getPipe().getDefiningOp<tileas::PipeCreateOp>();
    return !home.root || !pipe || rootPipe(pipe) == home.root;
  }
  Value dst = written(op);
  if (!dst || isa<tileas::TmemType>(dst.getType()) != home.tmem)
    return false;
  TileHome other = homeOf(dst);
  if (home.afterLoops && other.afterLoops &&
      home.afterLoops != other.afterLoops)
    return false;
  return !home.root || !other.root || other.root == home.root;
}

} // namespace

bool cuda::readByWgmma(Value tile) {
  llvm::SmallVector<Value> work{tile};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<tileas::WgmmaOp>(user))
        return true;
      if (auto loop = dyn_cast<scf::ForOp>(user)) {
        if (BlockArgument arg = loop.getTiedLoopRegionIterArg(&use))
          work.push_back(arg);
        continue;
      }
      if (!isa<scf::YieldOp>(user))
        continue;
      // Handed on by a yield: to the next iteration and the loop's result,
      // or to the branch's result.
      Operation *parent = user->getParentOp();
      unsigned i = use.getOperandNumber();
      if (auto loop = dyn_cast<scf::ForOp>(parent)) {
        work.push_back(loop.getRegionIterArgs()[i]);
        work.push_back(loop.getResult(i));
      } else if (auto branch = dyn_cast<scf::IfOp>(parent)) {
        work.push_back(branch.getResult(i));
      }
    }
  }
  return false;
}

bool cuda::stagesInLoop(Operation *op) {
  auto store = dyn_cast<tileas::SmemStoreOp>(op);
  return store && !store.getDst() &&
         (op->getParentOfType<scf::ForOp>() || op->hasAttr(attrs::kOrder));
}

bool cuda::makesTileAfterLoops(Operation *op) {
  if (auto store = dyn_cast<tileas::SmemStoreOp>(op))
    return !store.getDst() && !stagesInLoop(op);
  auto load = dyn_cast<tileas::TmaLoadOp>(op);
  return load && loadsAfterLoop(load);
}

TileHome cuda::homeOf(Value tile) {
  TileHome home;
  home.tmem = isa<tileas::TmemType>(tile.getType());
  llvm::SmallPtrSet<Value, 8> seen;
  home.root = rootOf(tile, seen);
  Value slot = tile;
  while (auto view = slot.getDefiningOp<tileas::SmemViewOp>())
    slot = view.getSource();
  if (Operation *def = slot.getDefiningOp(); def && makesTileAfterLoops(def))
    home.afterLoops = def;
  if (auto wait = slot.getDefiningOp<tileas::PipeConsumerWaitOp>()) {
    home.pipe = wait.getPipe().getDefiningOp<tileas::PipeCreateOp>();
  } else if (auto ends = carriedEnds(tile)) {
    // A slot carried by a loop (CarriedTiles.h): the pipe both ends wait on.
    // A slot of d iterations ago is yielded by the iter_arg of d - 1 ago:
    // follow the chain to the wait, every initial value a wait on the pipe.
    auto init = ends->first.getDefiningOp<tileas::PipeConsumerWaitOp>();
    Value yielded = ends->second;
    auto next = yielded.getDefiningOp<tileas::PipeConsumerWaitOp>();
    for (unsigned hop = 0; init && !next && hop < 16; ++hop) {
      auto more =
          isa<BlockArgument>(yielded) ? carriedEnds(yielded) : std::nullopt;
      auto before =
          more ? more->first.getDefiningOp<tileas::PipeConsumerWaitOp>()
               : nullptr;
      if (!before || before.getPipe() != init.getPipe())
        break;
      yielded = more->second;
      next = yielded.getDefiningOp<tileas::PipeConsumerWaitOp>();
    }
    if (init && next && init.getPipe() == next.getPipe())
      home.pipe = init.getPipe().getDefiningOp<tileas::PipeCreateOp>();
  }
  return home;
}

std::optional<std::pair<Value, Value>> cuda::carriedEnds(Value v) {
  scf::ForOp loop;
  unsigned i = 0;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0)
      return std::nullopt;
    i = arg.getArgNumber() - 1;
  } else if ((loop = v.getDefiningOp<scf::ForOp>())) {
    i = cast<OpResult>(v).getResultNumber();
  } else {
    return std::nullopt;
  }
  return std::make_pair(Value(loop.getInitArgs()[i]),
                        loop.getBody()->getTerminator()->getOperand(i));
}

bool cuda::mayChange(Operation *op, const TileHome &home, Operation *agent) {
  bool changes = false;
  op->walk([&](Operation *inner) {
    if (changesOne(inner, home, agent)) {
      changes = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return changes;
}

bool cuda::sharesWaitsFirst(tileas::PipeCreateOp pipe,
                            tileas::PipeCreateOp sharing) {
  for (Operation *user : pipe.getResult().getUsers()) {
    auto acquire = dyn_cast<tileas::PipeProducerAcquireOp>(user);
    if (!acquire)
      continue;
    for (Operation *writer : acquire.getResult().getUsers()) {
      if (isa<tileas::PipeProducerCommitOp>(writer))
        continue; // Published without a write (an empty accumulator).
      if (!isa<tileas::UmmaOp>(writer))
        return false; // A writer this check does not follow.
      bool waited = false;
      for (Operation *before = writer->getPrevNode(); before && !waited;
           before = before->getPrevNode())
        if (auto wait = dyn_cast<tileas::PipeConsumerWaitOp>(before))
          waited = wait.getPipe() == sharing.getResult();
      if (!waited)
        return false;
    }
  }
  return true;
}

bool cuda::isLoopInvariantSlot(scf::ForOp loop, unsigned i) {
  Value init = loop.getInitArgs()[i];
  if (!isa<tileas::TmemType>(init.getType()))
    return false;
  TileHome from = homeOf(init),
           to = homeOf(loop.getBody()->getTerminator()->getOperand(i));
  auto root = dyn_cast_or_null<tileas::PipeCreateOp>(from.root);
  return from.pipe && from.root == to.root && from.pipe == to.pipe &&
         from.pipe.getDepth() <= 1 && (!root || root.getDepth() <= 1);
}

Value cuda::inPlaceSource(tileas::SmemStoreOp store) {
  if (store.getDst() || !store->hasOneUse() ||
      !isa<tileas::TmaStoreOp>(*store->user_begin()))
    return {};
  Type staged = store.getType();
  auto shape = cast<ShapedType>(store.getSource().getType()).getShape();
  // Backwards from the stored value through elementwise math on tiles of
  // its shape; a broadcast's input is another value, not walked.
  llvm::SmallPtrSet<Operation *, 16> chain;
  SmallVector<tileas::SmemLoadOp> loads;
  SmallVector<Value> work = {store.getSource()};
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !chain.insert(def).second)
      continue;
    if (auto load = dyn_cast<tileas::SmemLoadOp>(def)) {
      loads.push_back(load);
      continue;
    }
    if (!elementwiseCall(def))
      continue;
    for (Value operand : def->getOperands())
      if (auto t = dyn_cast<RankedTensorType>(operand.getType());
          t && t.getShape() == shape)
        work.push_back(operand);
  }
  Value found;
  for (tileas::SmemLoadOp load : loads) {
    Value tile = load.getSource();
    auto tma = tile.getDefiningOp<tileas::TmaLoadOp>();
    if (!tma || tile.getType() != staged || tile == found)
      continue;
    // Every read of the tile is a plain load whose value only this chain
    // takes.
    bool only = llvm::all_of(tile.getUsers(), [&](Operation *user) {
      auto read = dyn_cast<tileas::SmemLoadOp>(user);
      return read && chain.contains(read) && !read.getLanes() &&
             !read.getTransposed() &&
             llvm::all_of(read->getUsers(), [&](Operation *u) {
               return chain.contains(u) || u == store;
             });
    });
    if (!only || found)
      return {};
    found = tile;
  }
  return found;
}
