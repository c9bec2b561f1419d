//===- FragmentRows.cpp - agents whose tiles lie in the wgmma fragment ----===//
//
// An agent whose SIMT code reads a wgmma accumulator inside its loop (the
// softmax of attention's S, the rescale of its O) keeps every register tile
// where the fragment puts it: each thread 2 Bands rows, a quarter of each
// row's columns (runtime/wgmma.cuh, "the rows layout"). Elementwise math,
// row broadcasts and the thread's part of a row reduction are the
// translation's usual calls; what differs is here: the casts between the
// ISA's register order and the rows, the lane quad that finishes a row
// reduction, the store to SMEM, and what such an agent refuses.
//
//===----------------------------------------------------------------------===//

#include "cuda/analysis/CudaTypes.h"
#include "cuda/analysis/WgmmaAccumulators.h"
#include "cuda/emit/KernelEmitter.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

namespace {
std::string str(int64_t v) { return std::to_string(v); }
} // namespace

/// 2 Bands rows a thread; of a rank-2 tile, N / 4 columns of each.
FailureOr<int64_t> KernelEmitter::fragmentRowsSize(Location loc,
                                                   RankedTensorType type) {
  int64_t rows = 64 * fragBands * (agentThreads() / 128);
  if (type.getRank() < 1 || type.getRank() > 2 || type.getShape()[0] != rows)
    return emitError(loc) << "a register tile " << type
                          << " in an agent whose tiles lie in the wgmma "
                             "fragment's rows, which holds "
                          << rows
                          << "-row tiles and their per-row vectors only "
                             "(docs/cuda.md, \"The fragment's rows\")",
           failure();
  if (type.getRank() == 1)
    return fragmentRowSlots();
  int64_t cols = type.getShape()[1];
  if (cols % 8)
    return emitError(loc) << "a register tile of " << cols
                          << " columns in the wgmma fragment's rows: "
                             "a multiple of 8 columns is required (a lane "
                             "quad holds 8)",
           failure();
  return fragmentRowSlots() * (cols / 4);
}

LogicalResult KernelEmitter::checkFragmentRows(Operation *op) {
  auto refuse = [&](StringRef what) {
    return op->emitError("'")
           << op->getName() << "' " << what
           << " is not translated in an agent whose register tiles lie in "
              "the wgmma fragment's rows (docs/cuda.md, \"The fragment's "
              "rows\")";
  };
  if (isa<tileas::TmemLoadOp, tileas::TmemStoreOp, tileas::ReduceLanesOp,
          tileas::ReduceAllOp>(op))
    return refuse("");
  if (auto load = dyn_cast<tileas::SmemLoadOp>(op))
    return refuse("(a tile read a row a thread)");
  for (Value v : op->getOperands())
    if (columns.contains(v))
      return refuse("of a per-column vector");
  for (Value v : op->getOperands())
    if (auto arg = dyn_cast<BlockArgument>(v);
        arg && isa<RankedTensorType>(v.getType()) &&
        arg.getOwner()->getParentOp() == func.getOperation())
      return refuse("of a tile passed in");
  return success();
}

/// "rows": the accumulator read, once no wgmma writes it; "regs": a tile of
/// the SIMT code handed to the next wgmma as its accumulator.
LogicalResult KernelEmitter::emit(UnrealizedConversionCastOp op) {
  auto to = op->getAttrOfType<StringAttr>(kFragmentAttr);
  if (!to || op.getNumOperands() != 1 || op.getNumResults() != 1)
    return notTranslated(op);
  Location loc = op.getLoc();
  bool rows = to.getValue() == "rows";
  if (rows && wgmmaInFlight)
    flushWgmmaReleases();
  Value in = lookup(loc, op.getOperand(0));
  if (broken)
    return failure();
  FailureOr<Type> type = convert(loc, op.getResult(0));
  if (failed(type))
    return failure();
  auto tile = cast<RankedTensorType>(op.getType(0));
  map[op.getResult(0)] =
      call(*type, rows ? "tp::wgmma_rows" : "tp::wgmma_regs", {in},
           {str(fragBands), str(tile.getShape()[1])});
  return success();
}

/// Each thread stores its rows' columns, two adjacent ones a store, into the
/// SMEM tile as the layout placed it: a UMMA operand tile, a blocked tile
/// or a row-major one. The caller's TMA store syncs the agent first.
LogicalResult KernelEmitter::emitRowsStore(tileas::SmemStoreOp store) {
  Location loc = store.getLoc();
  Value stored = store->getOperand(0);
  Value frag = lookup(loc, stored);
  Value dst = storeAddress(store);
  if (broken)
    return failure();
  auto t = cast<RankedTensorType>(stored.getType());
  FailureOr<int64_t> n = fragSize(loc, stored);
  if (failed(n))
    return failure();
  std::string elem = registerElementName(t.getElementType());
  // A per-row vector (attention's LSE): row-major, blocked or not.
  if (t.getRank() == 1) {
    if (mmaTileOf(store->getResult(0)))
      return store.emitError("a per-row vector as an MMA operand is not "
                             "translated");
    callVoid("tp::wgmma_rows_store_vector", {dst, frag, tid},
             {str(fragBands), elem, str(*n)});
    map[store->getResult(0)] = dst;
    return success();
  }
  std::string at;
  if (const TileLayout *tile = mmaTileOf(store->getResult(0)))
    at = tile->cppType;
  else if (std::string blocked = layout.tiles.blockedType(store->getResult(0));
           !blocked.empty())
    at = "tp::BlockedAt<" + blocked + ">";
  else
    at = "tp::RowMajorAt<" + elem + ", " + str(t.getShape()[1]) + ">";
  callVoid("tp::wgmma_rows_store", {dst, frag, tid},
           {at, str(fragBands), str(t.getShape()[1]), elem, str(*n)});
  map[store->getResult(0)] = dst;
  return success();
}
