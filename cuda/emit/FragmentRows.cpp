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
#include "cuda/analysis/ElementwiseOps.h"
#include "cuda/analysis/WgmmaAccumulators.h"
#include "cuda/emit/KernelEmitter.h"
#include "ir/Positions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <algorithm>
#include <iterator>

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

namespace {
std::string str(int64_t v) { return std::to_string(v); }
} // namespace

/// 2 Bands rows a thread; of a rank-2 tile, N / 4 columns of each.
FailureOr<int64_t> KernelEmitter::fragmentRowsSize(Location loc,
                                                   RankedTensorType type) {
  int64_t rows = fragRows ? fragRows : 64 * fragBands * (agentThreads() / 128);
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

SmallVector<std::string>
KernelEmitter::rowsAccessArgs(std::initializer_list<std::string> args) const {
  SmallVector<std::string> all(args);
  if (fragRows)
    all.push_back(str(fragRows));
  return all;
}

/// A gathered MMA operand masked by rows (varlen attention's K and V, rows
/// past a sequence zeroed: a TMA load, a read with rows split over lanes, a
/// select, a store for the wgmma) never meets the fragment: it goes from
/// SMEM to SMEM through registers of its own layout. Such an island (an
/// smem_load with lanes, elementwise math on what it makes and on
/// positions or splats, the smem_store with lanes of the result) is
/// translated a row a thread; one whose values another op reads is not, and
/// checkFragmentRows refuses its load.
void KernelEmitter::findThreadRowsIsland() {
  // An epilogue in the rows has a staged fallback, whose SIMT agents stream
  // such work in pieces: the island is the softmax agent's alone.
  if (func->hasAttr(kEpilogueInRowsAttr))
    return;
  llvm::DenseSet<Operation *> ops;
  llvm::DenseSet<Value> values;
  SmallVector<Value> work;
  auto add = [&](Value v) {
    if (values.insert(v).second)
      work.push_back(v);
  };
  // Seeds in every agent and before the agents (a query tile read once,
  // which each agent that reads it makes itself).
  auto splitRead = [](tileas::SmemLoadOp load) {
    return load.getLanes() && *load.getLanes() > 1 && !load.getPaddingAttr();
  };
  func.walk([&](tileas::SmemLoadOp load) {
    if (splitRead(load) && !load.getTransposed() &&
        !load.getSource().getDefiningOp<tileas::SmemStoreOp>() &&
        ops.insert(load).second)
      add(load.getResult());
  });
  auto inIsland = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return !isa<RankedTensorType>(v.getType()) || values.contains(v) ||
           (def && (isPositionOp(def) || isSplatTile(def)));
  };
  // Grown along elementwise math, stores back to SMEM (whose tiles the MMA
  // reads) and, in stage code, the loop that carries a value from the stage
  // that loads it to the one that stores it.
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        if (auto loop = dyn_cast<scf::ForOp>(yield->getParentOp())) {
          add(loop.getResult(use.getOperandNumber()));
          add(loop.getRegionIterArgs()[use.getOperandNumber()]);
        }
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(user)) {
        if (OpOperand *init = &use;
            init->getOperandNumber() >= loop.getNumControlOperands()) {
          unsigned i = init->getOperandNumber() - loop.getNumControlOperands();
          add(loop.getResult(i));
          add(loop.getRegionIterArgs()[i]);
        }
        continue;
      }
      if (ops.contains(user))
        continue;
      auto store = dyn_cast<tileas::SmemStoreOp>(user);
      bool math = user->getNumResults() == 1 &&
                  (elementwiseCall(user) || isa<arith::SelectOp>(user)) &&
                  llvm::all_of(user->getOperands(), inIsland);
      if (math) {
        ops.insert(user);
        add(user->getResult(0));
      } else if (store && store.getLanes() && *store.getLanes() > 1 &&
                 store.getSource() == v) {
        // Its tile goes to the MMA, or is read back by the island (a
        // transposed read: K^T of a gathered K).
        ops.insert(user);
        for (Operation *reader : store.getResult().getUsers())
          if (auto load = dyn_cast<tileas::SmemLoadOp>(reader);
              load && splitRead(load) && ops.insert(load).second)
            add(load.getResult());
      }
    }
  }
  // Every register value of the island is read by the island alone (its
  // stores' SMEM tiles go to the MMA) or carried by a loop.
  for (Value v : values)
    for (Operation *user : v.getUsers())
      if (!ops.contains(user) && !isa<scf::YieldOp, scf::ForOp>(user))
        return;
  threadRowsOps = std::move(ops);
  threadRowsValues = std::move(values);
}

LogicalResult KernelEmitter::checkFragmentRows(Operation *op) {
  auto refuse = [&](StringRef what) {
    return op->emitError("'")
           << op->getName() << "' " << what
           << " is not translated in an agent whose register tiles lie in "
              "the wgmma fragment's rows (docs/cuda.md, \"The fragment's "
              "rows\")";
  };
  if (isa<tileas::TmemLoadOp, tileas::TmemStoreOp>(op))
    return refuse("(TMEM)");
  if (isa<tileas::ReduceLanesOp, tileas::ReduceAllOp>(op))
    return refuse("(rows split over lanes)");
  if (isa<tileas::ScanOp>(op))
    return refuse("(a scan along rows)");
  // A padded 2-D tile is read whole and padded by position
  // (tp::wgmma_rows_padded); a padded vector is not.
  if (auto load = dyn_cast<tileas::SmemLoadOp>(op);
      load &&
      (load.getLanes() || load.getTransposed() ||
       (load.getPaddingAttr() && load.getResult().getType().getRank() != 2)))
    return refuse("(a tile read with rows split over lanes, a padded vector "
                  "or transposed)");
  // A per-column vector is held as the thread's columns: read, made as
  // positions, math on it, carried by a loop (from the stage that makes it
  // to the one that reads it) and its broadcast over the rows are
  // translated; anything that needs it whole is not.
  if (isa<tileas::BroadcastOp, tileas::SmemLoadOp, tileas::IotaOp, scf::ForOp,
          scf::YieldOp>(op) ||
      elementwiseCall(op))
    return success();
  for (Value v : op->getOperands())
    if (columns.contains(v))
      return refuse("of a per-column vector");
  return success();
}

Value KernelEmitter::columnsLoad(tileas::SmemLoadOp load, Type type,
                                 int64_t n) {
  auto t = cast<RankedTensorType>(load.getResult().getType());
  Value src = lookup(load.getLoc(), load.getSource());
  if (broken)
    return {};
  return call(type, "tp::wgmma_cols_load_vector", {src, tid},
              {str(t.getNumElements()), registerElementName(t.getElementType()),
               str(n)});
}

namespace {
/// The wgmmas strictly between `from` and `to` (ops of one block, `from`
/// first; null: the block's start or end), each one commit group; -1 when
/// a region between them may issue some.
int64_t wgmmasBetween(Block *block, Operation *from, Operation *to) {
  int64_t n = 0;
  auto it = from ? std::next(from->getIterator()) : block->begin();
  auto end = to ? to->getIterator() : block->end();
  for (; it != end; ++it) {
    if (isa<tileas::WgmmaOp>(*it))
      ++n;
    else if (it->getNumRegions() && it->walk([](tileas::WgmmaOp) {
                                        return WalkResult::interrupt();
                                      }).wasInterrupted())
      return -1;
  }
  return n;
}
} // namespace

/// Groups retire in order, so waiting until at most this many are pending
/// retires the one that wrote `v`. `v` is a wgmma's result in the block of
/// `at`, or an iter_arg of the loop whose body `at` is in that a wgmma of
/// the body yields, with an initial value made by a wgmma before the loop
/// (or not by a wgmma at all): then the fewer of the first iteration's and
/// the steady state's counts.
int64_t KernelEmitter::groupsAfter(Value v, Operation *at) {
  Block *block = at->getBlock();
  if (auto mma = v.getDefiningOp<tileas::WgmmaOp>())
    return mma->getBlock() == block ? wgmmasBetween(block, mma, at) : -1;
  auto arg = dyn_cast<BlockArgument>(v);
  auto loop =
      arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()) : scf::ForOp();
  if (!loop || arg.getOwner() != block || arg.getArgNumber() == 0)
    return -1;
  unsigned i = arg.getArgNumber() - 1;
  auto yielded = loop.getBody()->getTerminator()->getOperand(i);
  auto last = yielded.getDefiningOp<tileas::WgmmaOp>();
  if (!last || last->getBlock() != block)
    return -1;
  int64_t head = wgmmasBetween(block, nullptr, at);
  int64_t tail = wgmmasBetween(block, last, nullptr);
  if (head < 0 || tail < 0)
    return -1;
  int64_t steady = head + tail;
  Value init = loop.getInitArgs()[i];
  auto first = init.getDefiningOp<tileas::WgmmaOp>();
  if (!first)
    return init.getDefiningOp<arith::ConstantOp>() ? steady : -1;
  if (first->getBlock() != loop->getBlock())
    return -1;
  int64_t before = wgmmasBetween(loop->getBlock(), first, loop);
  return before < 0 ? -1 : std::min(steady, before + head);
}

/// "rows": the accumulator read, once the wgmma that wrote it retired;
/// "regs": a tile of the SIMT code handed to the next wgmma as its
/// accumulator.
LogicalResult KernelEmitter::emit(UnrealizedConversionCastOp op) {
  auto to = op->getAttrOfType<StringAttr>(kFragmentAttr);
  if (!to || op.getNumOperands() != 1 || op.getNumResults() != 1)
    return notTranslated(op);
  Location loc = op.getLoc();
  bool rows = to.getValue() == "rows";
  if (rows && wgmmaInFlight) {
    // The wgmmas issued since keep running (FA3's next S beside this
    // softmax); unknown: all of them retire first.
    int64_t after = groupsAfter(op.getOperand(0), op);
    if (after < 0)
      flushWgmmaReleases();
    else
      wgmmaWait(std::min<int64_t>(after, 7));
  }
  Value in = lookup(loc, op.getOperand(0));
  if (broken)
    return failure();
  FailureOr<Type> type = convert(loc, op.getResult(0));
  if (failed(type))
    return failure();
  auto tile = cast<RankedTensorType>(op.getType(0));
  map[op.getResult(0)] = call(*type, rows ? "tp::wgmma_rows" : "tp::wgmma_regs",
                              {in}, {str(fragBands), str(tile.getShape()[1])});
  return success();
}

/// How the rows' loads and stores find (row, column) in the SMEM tile
/// `smem` of register type `t`: as the layout placed it, a swizzled tile
/// (TileLayouts.h), a blocked one or a row-major one.
std::string KernelEmitter::rowsOffsets(Value smem, RankedTensorType t) {
  if (const TileLayout *l = layout.tiles.of(smem);
      l && l->kind == TileLayout::Kind::Mma)
    return l->cppType; // swizzled: MmaTile::offset(row, column)
  if (std::string blocked = layout.tiles.blockedType(smem); !blocked.empty())
    return "tp::BlockedAt<" + blocked + ">";
  return "tp::RowMajorAt<" + registerElementName(t.getElementType()) + ", " +
         str(t.getShape()[1]) + ">";
}

/// Each thread loads its rows' columns from the SMEM tile as the layout
/// placed it (a blocked tile or a row-major one), or a per-row vector's
/// values: an epilogue on the fragment reading a tile TMA brought in.
LogicalResult KernelEmitter::emitRowsLoad(tileas::SmemLoadOp load) {
  Location loc = load.getLoc();
  Value src = lookup(loc, load.getSource());
  if (broken)
    return failure();
  Value result = load.getResult();
  FailureOr<Type> type = convert(loc, result);
  FailureOr<int64_t> n = fragSize(loc, result);
  if (failed(type) || failed(n))
    return failure();
  auto t = cast<RankedTensorType>(result.getType());
  std::string elem = registerElementName(t.getElementType());
  if (t.getRank() == 1 && columns.contains(result)) {
    map[result] = columnsLoad(load, *type, *n);
    return success(!broken);
  }
  if (t.getRank() == 1) {
    map[result] = call(*type, "tp::wgmma_rows_load_vector", {src, tid},
                       rowsAccessArgs({str(fragBands), elem, str(*n)}));
    return success();
  }
  Value frag =
      call(*type, "tp::wgmma_rows_load", {src, tid},
           rowsAccessArgs({rowsOffsets(load.getSource(), t), str(fragBands),
                           str(t.getShape()[1]), elem, str(*n)}));
  // A padding other than TMA's zero fill (an attention bias's -inf): each
  // element past the tensor's edge, by its row and column in the rows.
  if (load.getPaddingAttr())
    frag =
        call(*type, "tp::wgmma_rows_padded",
             {frag, intLit(0), tid, lookup(loc, load.getValid().front()),
              lookup(loc, load.getValid().back()),
              literal(b.getF32Type(), paddingLiteral(load.getPaddingAttr()))},
             {str(fragBands), str(t.getShape()[1]), str(t.getShape()[1] / 4)});
  map[result] = frag;
  return success(!broken);
}

/// Each thread stores its rows' columns, two adjacent ones a store, into the
/// SMEM tile as the layout placed it: a blocked tile or a row-major one. The
/// caller's TMA store syncs the agent first.
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
             rowsAccessArgs({str(fragBands), elem, str(*n)}));
    map[store->getResult(0)] = dst;
    return success();
  }
  // P written to SMEM for a wgmma of the same agent: each store would first
  // wait for the wgmma still reading the last one, and fence the generic
  // proxy's writes for the async one; neither is emitted yet, so refused.
  if (mmaTileOf(store->getResult(0)))
    return store.emitError(
        "a tile in the wgmma fragment's rows stored to SMEM as an MMA "
        "operand (P through SMEM) is not translated for sm_90a: hand the "
        "wgmma its A in registers instead (docs/cuda.md, \"The fragment's "
        "rows\")");
  callVoid("tp::wgmma_rows_store", {dst, frag, tid},
           rowsAccessArgs({rowsOffsets(store->getResult(0), t), str(fragBands),
                           str(t.getShape()[1]), elem, str(*n)}));
  map[store->getResult(0)] = dst;
  return success();
}
