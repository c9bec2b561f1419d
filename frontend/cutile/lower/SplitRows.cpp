//===- SplitRows.cpp - register tiles of fewer than 128 rows ---------------===//
//
// The translation gives a SIMT agent's 128 threads one row of a register
// tile each. cuTile kernels tile rows more finely (a norm's 32 x 256, a
// softmax's 16 x 1024): such a tile's R rows are split over L = 128 / R
// consecutive lanes, so an R x C tile becomes the 128 x (C / L) tile of the
// same bytes in the same order (docs/dialect.md, "Rows split over lanes"):
//
// - its smem_load and smem_store take `lanes = L`;
// - its row reductions reduce each lane's piece and then put the row back
//   together across the lanes (tileas.reduce_lanes), so a per-row vector
//   (R values) becomes 128 values, each lane holding its row's;
// - a per-column vector broadcast over it (gamma[n]) is read per lane from
//   shared memory (smem_load of the vector with `lanes = L`), with the
//   elementwise math that made it redone on the pieces;
// - elementwise math, loops and splats just change type.
//
// A class of tiles that a UMMA or TMEM touches is left as it is (64-row
// accumulators have their own layout in the translation).
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"
#include "frontend/cutile/lower/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cutile;

namespace tilepipe::cutile {
#define GEN_PASS_DEF_TILEASSPLITROWS
#include "frontend/cutile/lower/Passes.h.inc"
} // namespace tilepipe::cutile

namespace {

constexpr int64_t kThreads = 128;

RankedTensorType tensorOf(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

bool isElementwise(Operation *op) {
  // A scan along rows keeps its tile's shape and layout as elementwise math
  // does; its lanes are set where the tile is split (rewrite()).
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<tileas::AddOp, tileas::SubOp, tileas::MulOp, tileas::MaxOp,
             tileas::Exp2Op, tileas::FmaOp, tileas::CvtOp, tileas::ScanOp>(op);
}

/// A constant i32 tile of `type`'s shape, every element `v`.
Value splatI32(OpBuilder &b, Location loc, RankedTensorType type, int64_t v) {
  return b.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(type.clone(b.getI32Type()),
                                  b.getI32IntegerAttr(int32_t(v))));
}

/// Whether each thread is the first of the L lanes that hold a value of
/// the per-row vector `vec` (128 values, thread t the row t / L's).
Value firstLane(OpBuilder &b, Location loc, RankedTensorType vec, int64_t l) {
  auto ints = vec.clone(b.getI32Type());
  Value lane = b.create<arith::RemSIOp>(
      loc, b.create<tileas::IotaOp>(loc, ints, 0), splatI32(b, loc, ints, l));
  return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, lane,
                                 splatI32(b, loc, ints, 0));
}

bool isReduce(Operation *op) {
  return isa<tileas::ReduceSumOp, tileas::ReduceMaxOp>(op);
}

/// Whether `def` makes the per-row vector `v` in a form SplitRows retypes:
/// math, loops, reductions, positions, 1-D loads (a row's statistic read
/// back: each of its L threads reads it) and gathers at positions made in
/// the kernel (their indices are retyped with them, not passed in).
bool makesRowVector(Operation *def, Value v) {
  if (auto gather = dyn_cast<tileas::GlobalGatherOp>(def))
    return llvm::none_of(gather.getIndices(), [](Value i) {
      auto arg = dyn_cast<BlockArgument>(i);
      return arg && isa<func::FuncOp>(arg.getOwner()->getParentOp());
    });
  if (auto load = dyn_cast<tileas::SmemLoadOp>(def))
    return tensorOf(v).getRank() == 1 && !load.getTransposed();
  return isElementwise(def) || isReduce(def) ||
         isa<scf::ForOp, scf::IfOp, tensor::SplatOp, arith::ConstantOp,
             tileas::ReduceLanesOp, tileas::IotaOp>(def);
}

/// Whether `user` reads a per-row vector in a form SplitRows retypes (a
/// broadcast along rows aside): math, loops, stores (the first of its L
/// threads writes it), reductions to one value, and gathers, whose indices
/// and mask are in their result's class (a row's label read at the row's
/// position: each of its L threads reads the same element).
bool readsRowVector(Operation *user) {
  return isElementwise(user) ||
         isa<scf::ForOp, scf::YieldOp, scf::IfOp, tileas::SmemStoreOp,
             tileas::GlobalScatterOp, tileas::GlobalGatherOp,
             tileas::ReduceAllOp>(user);
}

struct ValueLess {
  bool operator()(Value a, Value b) const {
    return a.getAsOpaquePointer() < b.getAsOpaquePointer();
  }
};

class RowSplitter {
public:
  explicit RowSplitter(func::FuncOp func) : func(func) {}
  LogicalResult run();

private:
  void join(Value a, Value b) {
    if (tensorOf(a) && tensorOf(b))
      classes.unionSets(a, b);
  }
  void joinClasses();
  LogicalResult chooseTiles();
  LogicalResult chooseRowVectors();
  void chooseShortVectors();
  LogicalResult rewrite();
  FailureOr<Value> splitColumn(Location loc, Value v, int64_t lanes,
                               RankedTensorType type);
  bool tileMemberAllowed(Operation *op, Value v);
  void eraseDeadColumn(Value v);
  void splitIota(tileas::IotaOp iota, int64_t lanes);
  ArrayRef<Value> members(Value leader);

  func::FuncOp func;
  llvm::EquivalenceClasses<Value, ValueLess> classes;
  SmallVector<Value> values; ///< Every register tensor, in program order.
  /// Split classes (leaders) and their lanes; row-vector classes and the
  /// lanes of the tile they belong to.
  llvm::DenseMap<Value, int64_t> tileLanes, rowLanes;
  llvm::DenseMap<std::pair<Value, int64_t>, Value> splitColumns;
  llvm::DenseMap<Value, SmallVector<Value>> byLeader;
};

} // namespace

/// Values that must share one layout: the operands and results of
/// elementwise math, and what a loop or an if carries.
void RowSplitter::joinClasses() {
  auto note = [&](Value v) {
    if (tensorOf(v)) {
      classes.insert(v);
      values.push_back(v);
    }
  };
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (BlockArgument arg : b.getArguments())
          if (op != func.getOperation())
            note(arg);
    for (Value v : op->getResults())
      note(v);
  });
  func.walk([&](Operation *op) {
    if (isElementwise(op)) {
      Value first;
      SmallVector<Value> all(op->getOperands());
      llvm::append_range(all, op->getResults());
      for (Value v : all)
        if (auto t = tensorOf(v)) {
          if (first && tensorOf(first).getShape() == t.getShape())
            join(first, v);
          else if (!first)
            first = v;
        }
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      for (auto [init, arg, result, yielded] :
           llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                     loop.getResults(), loop.getYieldedValues())) {
        join(init, arg);
        join(init, result);
        join(init, yielded);
      }
    } else if (auto gather = dyn_cast<tileas::GlobalGatherOp>(op)) {
      // The threads' element accesses: indices and mask lie as the data.
      for (Value v : gather.getIndices())
        join(gather.getResult(), v);
      if (gather.getMask())
        join(gather.getResult(), gather.getMask());
    } else if (auto scatter = dyn_cast<tileas::GlobalScatterOp>(op)) {
      for (Value v : scatter.getIndices())
        join(scatter.getValue(), v);
      if (scatter.getMask())
        join(scatter.getValue(), scatter.getMask());
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (auto [i, result] : llvm::enumerate(branch.getResults()))
        for (Region *r : {&branch.getThenRegion(), &branch.getElseRegion()})
          if (!r->empty())
            join(result, r->front().getTerminator()->getOperand(i));
    }
  });
}

/// The values of `leader`'s class, in program order (grouped once).
ArrayRef<Value> RowSplitter::members(Value leader) {
  if (byLeader.empty())
    for (Value v : values)
      byLeader[classes.getLeaderValue(v)].push_back(v);
  return byLeader[leader];
}

/// Whether `op`, which defines or reads the tile `v`, keeps its meaning when
/// the tile's rows are split over lanes.
bool RowSplitter::tileMemberAllowed(Operation *op, Value v) {
  if (isElementwise(op) || isReduce(op) ||
      isa<scf::ForOp, scf::YieldOp, scf::IfOp, tensor::SplatOp,
          arith::ConstantOp, tileas::SmemStoreOp, tileas::GlobalGatherOp,
          tileas::GlobalScatterOp>(op))
    return true;
  // Positions: made again at the split shape (rewrite()).
  if (auto iota = dyn_cast<tileas::IotaOp>(op))
    return iota.getType().getRank() == 2;
  if (auto load = dyn_cast<tileas::SmemLoadOp>(op))
    return tensorOf(v) && load.getSource().getType().getRank() == 2;
  if (auto b = dyn_cast<tileas::BroadcastOp>(op))
    return b.getResult() == v &&
           (b.isColumnBroadcast() || b.isRowBroadcast());
  return false;
}

/// The classes of rank-2 tiles of R < 128 rows (R dividing 128) that only
/// SIMT work touches.
LogicalResult RowSplitter::chooseTiles() {
  llvm::DenseSet<Value> examined;
  for (Value v : values) {
    Value leader = classes.getLeaderValue(v);
    RankedTensorType t = tensorOf(v);
    if (t.getRank() != 2 || !examined.insert(leader).second)
      continue;
    int64_t rows = t.getShape()[0], cols = t.getShape()[1];
    if (rows >= kThreads || kThreads % rows)
      continue;
    bool simt = llvm::all_of(members(leader), [&](Value m) {
      if (Operation *def = m.getDefiningOp())
        if (!tileMemberAllowed(def, m))
          return false;
      return llvm::all_of(m.getUsers(), [&](Operation *user) {
        return tileMemberAllowed(user, m);
      });
    });
    if (!simt)
      continue;
    int64_t lanes = kThreads / rows;
    if (cols % lanes)
      return emitError(v.getLoc())
             << "a register tile of " << rows << " x " << cols
             << " has its rows split over " << lanes
             << " threads each (the translation gives a row a thread of 128); "
                "its columns must divide by "
             << lanes;
    tileLanes[leader] = lanes;
  }
  return success();
}

/// The per-row vectors of split tiles: a reduction's result, the input of a
/// broadcast along rows, and the classes they are in.
LogicalResult RowSplitter::chooseRowVectors() {
  for (Value v : values) {
    auto it = tileLanes.find(classes.getLeaderValue(v));
    if (it == tileLanes.end())
      continue;
    SmallVector<Value> rows;
    for (Operation *user : v.getUsers()) {
      if (!isReduce(user))
        continue;
      rows.push_back(user->getResult(0));
    }
    if (auto b = v.getDefiningOp<tileas::BroadcastOp>();
        b && b.isRowBroadcast())
      rows.push_back(b.getInput());
    for (Value row : rows) {
      Value leader = classes.getLeaderValue(row);
      auto [at, inserted] = rowLanes.try_emplace(leader, it->second);
      if (!inserted && at->second != it->second)
        return emitError(row.getLoc())
               << "this per-row vector belongs to tiles whose rows are split "
                  "over "
               << at->second << " and " << it->second << " lanes";
    }
  }
  // A per-row vector is made and read only as makesRowVector and
  // readsRowVector allow, and spread by broadcasts along rows.
  for (auto [leader, lanes] : rowLanes)
    for (Value m : members(leader)) {
      if (Operation *def = m.getDefiningOp(); def && !makesRowVector(def, m))
        return def->emitError()
               << "makes a per-row vector of a tile whose rows are split "
                  "over "
               << lanes
               << " lanes, which only elementwise math, loops, reductions, "
                  "positions, gathers at positions made here and 1-D loads "
                  "do here";
      for (Operation *user : m.getUsers()) {
        auto b = dyn_cast<tileas::BroadcastOp>(user);
        if (b && b.isColumnBroadcast())
          return user->emitError()
                 << "spreads a per-row vector along columns; rows of the "
                    "tile it comes from are split over "
                 << lanes << " lanes";
        if (!b && !readsRowVector(user))
          return user->emitError()
                 << "reads a per-row vector of a tile whose rows are split "
                    "over "
                 << lanes
                 << " lanes, which only elementwise math, loops, "
                    "broadcasts along rows, stores and reductions to "
                    "one value do here";
      }
    }
  return success();
}

/// Vectors of R < 64 values (R dividing 128) that no tile of R rows holds
/// (a split-KV merge's R log-sum-exps, gathered and reduced whole): each
/// value is held by L = 128 / R consecutive threads, as a split tile's
/// per-row vector is. A class is taken only when everything that makes or
/// reads it does that here; another (a per-column vector broadcast over a
/// tile, which every thread holds whole) is left as it is.
void RowSplitter::chooseShortVectors() {
  llvm::DenseSet<Value> examined;
  for (Value v : values) {
    Value leader = classes.getLeaderValue(v);
    RankedTensorType t = tensorOf(v);
    if (t.getRank() != 1 || !examined.insert(leader).second ||
        rowLanes.count(leader))
      continue;
    int64_t n = t.getShape()[0];
    if (n >= 64 || kThreads % n)
      continue;
    // No tile's reduction makes it and no broadcast reads it: it would
    // belong to the tile, or along columns every thread holds it whole.
    bool alone = llvm::all_of(members(leader), [&](Value m) {
      Operation *def = m.getDefiningOp();
      return (!def || (makesRowVector(def, m) && !isReduce(def) &&
                       !isa<tileas::ReduceLanesOp>(def))) &&
             llvm::all_of(m.getUsers(), readsRowVector);
    });
    if (alone)
      rowLanes[leader] = kThreads / n;
  }
}

/// The per-column vector `v` read for a tile split over `lanes`: each lane
/// its piece, from shared memory, with the elementwise math that made `v`
/// redone on the pieces.
FailureOr<Value> RowSplitter::splitColumn(Location loc, Value v, int64_t lanes,
                                          RankedTensorType type) {
  if (Value done = splitColumns.lookup({v, lanes}))
    return done;
  Operation *def = v.getDefiningOp();
  auto fail = [&]() -> FailureOr<Value> {
    return emitError(def ? def->getLoc() : loc)
           << "a per-column vector spread over a tile whose rows are split "
              "over "
           << lanes
           << " lanes is read from shared memory (a 1-D load) or computed "
              "elementwise from such vectors, not made by "
           << (def ? def->getName().getStringRef() : StringRef("an argument"));
  };
  if (!def)
    return fail();
  OpBuilder b(def);
  b.setInsertionPointAfter(def);
  auto shaped = RankedTensorType::get(type.getShape(),
                                      tensorOf(v).getElementType());
  Value made;
  if (auto load = dyn_cast<tileas::SmemLoadOp>(def)) {
    made = b.create<tileas::SmemLoadOp>(
        load.getLoc(), shaped, load.getSource(), load.getValid(),
        b.getI64IntegerAttr(lanes), load.getPaddingAttr(),
        load.getTransposedAttr());
  } else if (auto splat = dyn_cast<tensor::SplatOp>(def)) {
    made = b.create<tensor::SplatOp>(splat.getLoc(), shaped, splat.getInput());
  } else if (auto cst = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    if (!dense || !dense.isSplat())
      return fail();
    made = b.create<arith::ConstantOp>(
        cst.getLoc(), DenseElementsAttr::get(
                          shaped, dense.getSplatValue<Attribute>()));
  } else if (isElementwise(def) && def->getNumResults() == 1) {
    IRMapping mapping;
    for (Value operand : def->getOperands()) {
      if (!tensorOf(operand))
        continue;
      FailureOr<Value> piece = splitColumn(loc, operand, lanes, type);
      if (failed(piece))
        return failure();
      mapping.map(operand, *piece);
    }
    Operation *clone = b.clone(*def, mapping);
    clone->getResult(0).setType(shaped);
    made = clone->getResult(0);
  } else {
    return fail();
  }
  splitColumns[{v, lanes}] = made;
  return made;
}

LogicalResult RowSplitter::rewrite() {
  auto split = [](RankedTensorType t, int64_t lanes) {
    if (t.getRank() == 1)
      return RankedTensorType::get({kThreads}, t.getElementType());
    return RankedTensorType::get({kThreads, t.getShape()[1] / lanes},
                                 t.getElementType());
  };
  SmallVector<Operation *> reductions, columnBroadcasts;
  SmallVector<std::pair<tileas::IotaOp, int64_t>> iotas;
  SmallVector<std::pair<tileas::ReduceAllOp, int64_t>> rowSums;
  SmallVector<std::pair<tileas::GlobalScatterOp, int64_t>> rowCombines;
  for (Value v : values) {
    Value leader = classes.getLeaderValue(v);
    int64_t lanes = tileLanes.lookup(leader);
    bool row = !lanes && rowLanes.count(leader);
    if (!lanes && !row)
      continue;
    RankedTensorType newType = split(tensorOf(v), lanes ? lanes : 1);
    Operation *def = v.getDefiningOp();
    if (auto cst = dyn_cast_or_null<arith::ConstantOp>(def)) {
      auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
      if (!dense || !dense.isSplat())
        return cst.emitError("a constant tile whose rows are split over "
                             "lanes must be a splat");
      cst.setValueAttr(
          DenseElementsAttr::get(newType, dense.getSplatValue<Attribute>()));
    }
    v.setType(newType);
    if (!lanes) {
      int64_t rowOf = rowLanes.lookup(leader);
      for (Operation *user : v.getUsers()) {
        if (auto store = dyn_cast<tileas::SmemStoreOp>(user))
          store.setLanes(rowOf);
        if (auto all = dyn_cast<tileas::ReduceAllOp>(user);
            all && all.getKind() == "sum")
          rowSums.push_back({all, rowOf});
        if (auto scatter = dyn_cast<tileas::GlobalScatterOp>(user);
            scatter && scatter.getCombine() && scatter.getValue() == v)
          rowCombines.push_back({scatter, rowOf});
      }
      if (auto load = dyn_cast_or_null<tileas::SmemLoadOp>(def))
        load.setLanes(rowOf);
      if (auto iota = dyn_cast_or_null<tileas::IotaOp>(def))
        iotas.push_back({iota, rowOf});
      continue;
    }
    if (auto load = dyn_cast_or_null<tileas::SmemLoadOp>(def))
      load.setLanes(lanes);
    if (auto scan = dyn_cast_or_null<tileas::ScanOp>(def)) {
      if (lanes > 32)
        return scan.emitError("a scan along rows split over ")
               << lanes << " lanes is not lowered (at most 32: a row's lanes "
               << "within one warp)";
      scan.setLanes(uint64_t(lanes));
    }
    if (auto iota = dyn_cast_or_null<tileas::IotaOp>(def))
      iotas.push_back({iota, lanes});
    if (auto b = dyn_cast_or_null<tileas::BroadcastOp>(def);
        b && b.isColumnBroadcast())
      columnBroadcasts.push_back(b);
    for (Operation *user : v.getUsers()) {
      if (auto store = dyn_cast<tileas::SmemStoreOp>(user))
        store.setLanes(lanes);
      if (isReduce(user))
        reductions.push_back(user);
    }
  }
  for (Operation *op : reductions) {
    int64_t l = tileLanes.lookup(classes.getLeaderValue(op->getOperand(0)));
    OpBuilder b(op);
    b.setInsertionPointAfter(op);
    Value result = op->getResult(0);
    auto whole = b.create<tileas::ReduceLanesOp>(
        op->getLoc(), result.getType(), result,
        b.getStringAttr(isa<tileas::ReduceMaxOp>(op) ? "max" : "sum"),
        b.getI64IntegerAttr(l));
    result.replaceAllUsesExcept(whole.getResult(), whole);
  }
  for (auto [iota, l] : iotas)
    splitIota(iota, l);
  // A sum over a per-row vector (a 64-key block's softmax total): each of
  // a row's L threads holds its value, so only the first counts.
  for (auto [all, l] : rowSums) {
    OpBuilder b(all);
    Location loc = all.getLoc();
    auto vec = cast<RankedTensorType>(all.getInput().getType());
    Value first = firstLane(b, loc, vec, l);
    Value zero = b.create<arith::ConstantOp>(
        loc,
        DenseElementsAttr::get(vec, b.getFloatAttr(vec.getElementType(), 0.0)));
    Value once = b.create<arith::SelectOp>(loc, first, all.getInput(), zero);
    all.getInputMutable().assign(once);
  }
  // An atomic of a per-row vector (a row's sum added into memory): the
  // first of the row's L threads adds it, as a plain store's copies would
  // all write the same value.
  for (auto [scatter, l] : rowCombines) {
    OpBuilder b(scatter);
    Location loc = scatter.getLoc();
    Value first = firstLane(b, loc, scatter.getValue().getType(), l);
    if (Value mask = scatter.getMask())
      first = b.create<arith::AndIOp>(loc, mask, first);
    scatter.getMaskMutable().assign(first);
  }
  for (Operation *op : columnBroadcasts) {
    auto b = cast<tileas::BroadcastOp>(op);
    int64_t lanes = tileLanes.lookup(classes.getLeaderValue(b.getResult()));
    FailureOr<Value> piece = splitColumn(b.getLoc(), b.getInput(), lanes,
                                         b.getResult().getType());
    if (failed(piece))
      return failure();
    b.getResult().replaceAllUsesWith(*piece);
    Value input = b.getInput();
    b.erase();
    eraseDeadColumn(input);
  }
  return success();
}

/// Positions of an R x C tile whose rows are split over L lanes, on the
/// 128 x C / L tile of the same elements: element (t, j) is row t / L and
/// column (t % L) C / L + j of the original. A per-row vector of positions
/// (`ct.arange(TM)[:, None]`) is the rows': thread t holds row t / L.
void RowSplitter::splitIota(tileas::IotaOp iota, int64_t lanes) {
  OpBuilder b(iota);
  Location loc = iota.getLoc();
  RankedTensorType type = iota.getType();
  auto splat = [&](int64_t v) { return splatI32(b, loc, type, v); };
  Value rows = b.create<tileas::IotaOp>(loc, type, 0);
  Value made;
  if (iota.getDimension() == 0) {
    made = b.create<arith::DivSIOp>(loc, rows, splat(lanes));
  } else {
    Value lane = b.create<arith::RemSIOp>(loc, rows, splat(lanes));
    Value first = b.create<arith::MulIOp>(loc, lane, splat(type.getShape()[1]));
    made = b.create<arith::AddIOp>(loc, first,
                                   b.create<tileas::IotaOp>(loc, type, 1));
  }
  iota.getResult().replaceAllUsesWith(made);
  iota.erase();
}

/// The whole vector's math and load, once nothing reads them.
void RowSplitter::eraseDeadColumn(Value v) {
  llvm::SetVector<Operation *> work;
  if (Operation *def = v.getDefiningOp())
    work.insert(def);
  llvm::DenseSet<Operation *> erased;
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *d : work) {
      if (erased.contains(d) || !d->use_empty() ||
          (!isa<tileas::SmemLoadOp, tensor::SplatOp, arith::ConstantOp>(d) &&
           !isElementwise(d)))
        continue;
      for (Value operand : d->getOperands())
        if (Operation *def = operand.getDefiningOp(); def && tensorOf(operand))
          work.insert(def);
      erased.insert(d);
      d->erase();
      changed = true;
      break;
    }
  }
}

LogicalResult RowSplitter::run() {
  joinClasses();
  if (failed(chooseTiles()) || failed(chooseRowVectors()))
    return failure();
  chooseShortVectors();
  if (tileLanes.empty() && rowLanes.empty())
    return success();
  return rewrite();
}

LogicalResult tilepipe::cutile::splitRows(func::FuncOp func) {
  return RowSplitter(func).run();
}

namespace {
struct TileASSplitRowsPass
    : public tilepipe::cutile::impl::TileASSplitRowsBase<TileASSplitRowsPass> {
  void runOnOperation() override {
    if (failed(splitRows(getOperation())))
      signalPassFailure();
  }
};
} // namespace
