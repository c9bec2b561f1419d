//===- Views.cpp - views become TMA descriptors, loads, stores ------------===//
//
// A partition view cuts an array into tiles; tilepipe moves such a tile with
// one TMA whose box is the tile (in the tensor's dimension order). So each
// (array, box) is one `!tileas.tma_desc` argument, a load of tile index
// (i, j) is a `tileas.tma_load` at element coordinates (i * tm, j * tn), and
// a store is the tile written to SMEM by the threads and a `tileas.tma_store`.
// Out-of-bounds elements: tilepipe's tensor maps fill them with zero, which
// is cuTile's `padding_value = zero` and a valid choice for an undetermined
// padding; a tile loaded with another padding (neg_inf, pos_inf, nan,
// neg_zero) is read by threads with it (smem_load valid(..) padding = V).
// Stores clip at the edges, as cuTile's do.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cutile;

/// The box a tile of `p` is in tensor order: tile dimension i walks tensor
/// dimension dimMap[i].
static SmallVector<int64_t> boxOf(ArrayRef<int64_t> tile,
                                  ArrayRef<int64_t> dimMap) {
  SmallVector<int64_t> box(tile.size());
  for (auto [i, d] : llvm::enumerate(dimMap))
    box[d] = tile[i];
  return box;
}

LogicalResult EntryLowering::planPartition(tileir::MakePartitionViewOp op) {
  tileir::PartitionViewType type = op.getResult().getType();
  auto param = tensorViews.find(op.getTensorView());
  if (param == tensorViews.end())
    return op.emitError("a partition of a tensor view the lowering did not "
                        "make from a kernel array");
  Partition p;
  p.param = param->second;
  p.tile.assign(type.getTileShape().begin(), type.getTileShape().end());
  if (type.getDimMap().empty())
    for (int64_t i = 0; i < int64_t(p.tile.size()); ++i)
      p.dimMap.push_back(i);
  else
    p.dimMap.assign(type.getDimMap().begin(), type.getDimMap().end());
  SmallVector<int64_t> box = boxOf(p.tile, p.dimMap);
  bool one = llvm::all_of(box, [](int64_t n) { return n == 1; });
  // One element (a row's statistic): a thread stores it.
  if (box.size() <= 5 &&
      box.back() * params[p.param].elementType.getIntOrFloatBitWidth() % 128 &&
      one) {
    p.element = true;
    return planPointerPartition(op, std::move(p));
  }
  // Integers (an embedding's ids): the threads read them at positions.
  if (params[p.param].elementType.isSignlessInteger(32) && !one) {
    p.threads = true;
    return planPointerPartition(op, std::move(p));
  }
  if (failed(checkBox(op, box, params[p.param].elementType)))
    return failure();
  // Numbered once every view is planned (numberArguments).
  descArgs.emplace(std::make_pair(p.param, box), 0);
  p.box = box;
  partitions[op.getResult()] = p;
  return success();
}

std::string tilepipe::cutile::tmaBoxProblem(ArrayRef<int64_t> box, Type elem) {
  std::string why;
  llvm::raw_string_ostream os(why);
  int64_t bits = elem.getIntOrFloatBitWidth();
  if (box.size() > 5) {
    os << "a tile of rank " << box.size()
       << " is not lowered: tilepipe moves tiles by TMA of rank 1 to 5";
    return why;
  }
  // The innermost dimension may be wider: the translation moves such a
  // tile as several boxes side by side (a BlockedTile).
  for (auto [d, n] : llvm::enumerate(box))
    if (n > 256 && d + 1 < box.size()) {
      os << "a tile of " << n << " elements along tensor dimension " << d
         << " is not lowered: a TMA box holds at most 256 per dimension "
            "(only the innermost is split into several boxes)";
      return why;
    }
  if (box.back() * bits % 128 != 0)
    os << "a tile whose innermost dimension spans " << box.back() * bits / 8
       << " bytes is not lowered: a TMA box's inner dimension is a multiple "
          "of 16 bytes (a tile of one element is, stored by a thread)";
  return why;
}

LogicalResult EntryLowering::checkBox(Operation *op, ArrayRef<int64_t> box,
                                      Type elem) {
  std::string why = tmaBoxProblem(box, elem);
  if (!why.empty())
    return op->emitError(why);
  return success();
}

void EntryLowering::needPointerArgs(unsigned param, ArrayRef<int64_t> strides) {
  pointerArgs.emplace(param, 0);
  for (auto [d, stride] : llvm::enumerate(strides)) {
    needShapeArg(param, ArrayPart::Shape, int64_t(d));
    if (ShapedType::isDynamic(stride))
      needShapeArg(param, ArrayPart::Stride, int64_t(d));
  }
}

LogicalResult
EntryLowering::planPointerPartition(tileir::MakePartitionViewOp op,
                                    Partition p) {
  tileir::TensorViewType view = op.getResult().getType().getTensorView();
  p.strides.assign(view.getStrides().begin(), view.getStrides().end());
  needPointerArgs(p.param, p.strides);
  partitions[op.getResult()] = std::move(p);
  return success();
}

/// Tiles per dimension: ceildiv(shape, tile), in cuTile's index type.
LogicalResult
EntryLowering::lowerIndexSpaceShape(tileir::GetIndexSpaceShapeOp op) {
  auto part = partitions.find(op.getSrc());
  if (part == partitions.end())
    return op.emitError("the index space of a view that is not a partition "
                        "of a kernel array is not lowered");
  const Partition &p = part->second;
  for (auto [i, r] : llvm::enumerate(op->getResults())) {
    if (r.use_empty())
      continue;
    Value shape =
        func.getArgument(shapeArg(p.param, ArrayPart::Shape, p.dimMap[i]));
    Value tile = b.create<arith::ConstantOp>(
        loc(op), b.getIntegerAttr(shape.getType(), p.tile[i]));
    // Shapes are >= 0 (cuTile assumes it), where signed ceildiv is exact.
    map(r, b.create<arith::CeilDivSIOp>(loc(op), shape, tile));
  }
  return success();
}

LogicalResult EntryLowering::lowerTensorShape(tileir::GetTensorShapeOp op) {
  Value src = op.getSrc();
  if (auto part = src.getDefiningOp<tileir::MakePartitionViewOp>())
    src = part.getTensorView();
  auto param = tensorViews.find(src);
  if (param == tensorViews.end())
    return op.emitError("the shape of a view that is not a kernel array's "
                        "is not lowered");
  for (auto [d, r] : llvm::enumerate(op->getResults()))
    if (!r.use_empty())
      map(r, func.getArgument(
                 shapeArg(param->second, ArrayPart::Shape, int64_t(d))));
  return success();
}

FailureOr<SmallVector<Value>> EntryLowering::boxCoordinates(Operation *op,
                                                            const Partition &p,
                                                            ValueRange index) {
  SmallVector<Value> coords(p.tile.size());
  for (auto [i, v] : llvm::enumerate(index)) {
    FailureOr<Value> idx = lookup(op, v);
    if (failed(idx))
      return failure();
    // In index: the element coordinate of a tile index near the i32 limit
    // does not overflow.
    Value asIndex =
        b.create<arith::IndexCastOp>(loc(op), b.getIndexType(), *idx);
    coords[p.dimMap[i]] =
        b.create<arith::MulIOp>(loc(op), asIndex, indexConstant(p.tile[i]));
  }
  return coords;
}

/// The SMEM tile a box lands as: the box without its unit dimensions
/// other than the innermost (a batch of one: the (1, M, K) box of a batched
/// matmul's rank-3 tensor is the MxK tile an MMA reads; one token's heads:
/// the (1, H, 1, D) box of a (B, H, S, D) tensor is an HxD tile). TMA
/// writes a box innermost dimension first, so a unit dimension takes no
/// room and the tile's bytes are the box's. A box one element wide is not a
/// tile tileas's TMA moves.
FailureOr<tileas::SmemType>
tilepipe::cutile::smemTileOf(Operation *op, tileas::TmaDescType desc) {
  ArrayRef<int64_t> box = desc.getShape();
  if (box.size() > 1 && box.back() == 1 &&
      llvm::any_of(box, [](int64_t n) { return n != 1; }))
    return op->emitError("a tile one element wide along the array's "
                         "innermost dimension (")
               << desc << ") is not lowered",
           failure();
  SmallVector<int64_t> tile;
  for (int64_t n : box.drop_back())
    if (n != 1)
      tile.push_back(n);
  tile.push_back(box.back());
  return tileas::SmemType::get(tile, desc.getElementType());
}

bool tilepipe::cutile::needsPadding(tileir::PartitionViewType type) {
  StringRef pad = type.getPaddingValue();
  return !pad.empty() && pad != "zero";
}

/// The padding value of `type` as a float of `elem`: what threads read past
/// the tensor's edge where TMA wrote zero.
static FailureOr<FloatAttr> paddingValue(Operation *op,
                                         tileir::PartitionViewType type,
                                         Type elem) {
  auto fty = dyn_cast<FloatType>(elem);
  StringRef pad = type.getPaddingValue();
  if (!fty)
    return op->emitError("a load of ")
               << elem << " with padding_value = " << pad
               << " is not lowered: only float tiles are padded with "
                  "other than zero",
           failure();
  const llvm::fltSemantics &sem = fty.getFloatSemantics();
  APFloat v = pad == "neg_zero" ? APFloat::getZero(sem, /*Negative=*/true)
              : pad == "nan"    ? APFloat::getNaN(sem)
              : pad == "pos_inf" ? APFloat::getInf(sem, /*Negative=*/false)
                                 : APFloat::getInf(sem, /*Negative=*/true);
  return FloatAttr::get(fty, v);
}

LogicalResult EntryLowering::lowerLoad(tileir::LoadViewTkoOp op) {
  reportHints(op, op.getOptimizationHintsAttr());
  auto part = partitions.find(op.getView());
  if (part == partitions.end())
    return op.emitError("a load from a view that is not a partition of a "
                        "kernel array is not lowered");
  const Partition &p = part->second;
  if (p.element)
    return lowerElementLoad(op, p);
  if (p.threads)
    return lowerThreadsLoad(op, p);
  FailureOr<SmallVector<Value>> coords = boxCoordinates(op, p, op.getIndex());
  if (failed(coords))
    return failure();
  auto desc = cast<tileas::TmaDescType>(func.getArgument(p.descArg).getType());
  FailureOr<tileas::SmemType> smem = smemTileOf(op, desc);
  if (failed(smem))
    return failure();
  // The extents are computed before the load: its SMEM tile is read right
  // after it (registers()).
  std::optional<Padded> pad;
  if (needsPadding(op.getView().getType())) {
    FailureOr<Padded> made = paddingOf(op, p, *coords, *smem);
    if (failed(made))
      return failure();
    pad = std::move(*made);
  }
  Value tile = b.create<tileas::TmaLoadOp>(
      loc(op), *smem, func.getArgument(p.descArg), *coords, Value(),
      IntegerAttr(), IntegerAttr());
  if (p.transposed())
    transposedSmem.insert(tile);
  if (pad)
    paddedSmem[tile] = std::move(*pad);
  map(op.getTile(), tile);
  return success();
}

/// An i32 tile (an embedding's ids): each thread reads the elements it
/// holds at their positions, zero past the tensor's edge, as TMA pads;
/// itself positions (ir/Positions.h).
LogicalResult EntryLowering::lowerThreadsLoad(tileir::LoadViewTkoOp op,
                                              const Partition &p) {
  auto tile = cast<tileir::TileType>(op.getTile().getType());
  // Integers pad with zero only (the error).
  if (needsPadding(op.getView().getType()))
    return (void)paddingValue(op, op.getView().getType(),
                              tile.getElementType()),
           failure();
  auto regs = dyn_cast<RankedTensorType>(registerType(tile));
  if (!regs)
    return op.emitError("an integer tile of one element is not lowered"),
           failure();
  FailureOr<ThreadAccess> t = partitionAccess(op, p, op.getIndex(), regs);
  if (failed(t))
    return failure();
  map(op.getTile(), b.create<tileas::GlobalGatherOp>(
                        loc(op), regs, t->ptr, t->indices, t->strides,
                        t->bounds, Value(), b.getI32IntegerAttr(0)));
  return success();
}

/// An i32 tile stored (positions, or math on indices read from memory):
/// each thread writes the elements it holds.
LogicalResult EntryLowering::lowerThreadsStore(tileir::StoreViewTkoOp op,
                                               const Partition &p) {
  FailureOr<Value> regs = registers(op, op.getTile());
  if (failed(regs))
    return failure();
  auto tile = dyn_cast<RankedTensorType>(regs->getType());
  if (!tile)
    return op.emitError("an integer tile of one element is not lowered"),
           failure();
  FailureOr<ThreadAccess> t = partitionAccess(op, p, op.getIndex(), tile);
  if (failed(t))
    return failure();
  b.create<tileas::GlobalScatterOp>(loc(op), *regs, t->ptr, t->indices,
                                    t->strides, t->bounds, Value(),
                                    StringAttr());
  return success();
}

FailureOr<EntryLowering::ThreadAccess>
EntryLowering::partitionAccess(Operation *op, const Partition &p,
                               ValueRange index, RankedTensorType regs) {
  FailureOr<SmallVector<Value>> coords = boxCoordinates(op, p, index);
  if (failed(coords))
    return failure();
  Location l = loc(op);
  auto i32Tile = regs.clone(b.getI32Type());
  int64_t rank = int64_t(p.dimMap.size());
  ThreadAccess t;
  t.ptr = func.getArgument(p.ptrArg);
  t.indices.resize(rank);
  t.strides.resize(rank);
  t.bounds.resize(rank);
  for (auto [i, d] : llvm::enumerate(p.dimMap)) {
    Value start = b.create<arith::IndexCastOp>(l, b.getI32Type(), (*coords)[d]);
    t.indices[d] =
        indexTile(op, start, i32Tile, p.tile, p.tile[i] != 1 ? int64_t(i) : -1);
    t.strides[d] = strideValue(op, p.param, p.strides, d);
    t.bounds[d] = boundValue(op, p.param, d);
  }
  return t;
}

/// A tile TMA fills with zeros past the tensor's edge whose program asked
/// for another padding: threads read it padded (smem_load valid(..)
/// padding = V), the extent in each dimension the tensor's shape less the
/// tile's origin.
FailureOr<EntryLowering::Padded>
EntryLowering::paddingOf(tileir::LoadViewTkoOp op, const Partition &p,
                         ArrayRef<Value> coords, tileas::SmemType smem) {
  if (p.transposed())
    return op.emitError("a load through a transposed view (dim_map [1, 0]) "
                        "with padding_value = ")
           << op.getView().getType().getPaddingValue()
           << " is not lowered: an MMA reads the tile as TMA filled it, with "
              "zeros",
           failure();
  FailureOr<FloatAttr> value =
      paddingValue(op, op.getView().getType(), smem.getElementType());
  if (failed(value))
    return failure();
  Padded pad;
  pad.value = *value;
  pad.valid = extentsPast(op, p.param, coords, smem.getRank());
  return pad;
}

SmallVector<Value> EntryLowering::extentsPast(Operation *op, unsigned param,
                                              ArrayRef<Value> coords,
                                              int64_t rank) {
  // The SMEM tile is the box without its leading unit dimensions: its
  // dimensions are the tensor's last ones.
  SmallVector<Value> valid;
  for (int64_t d = int64_t(coords.size()) - rank; d < int64_t(coords.size());
       ++d) {
    Value shape = func.getArgument(shapeArg(param, ArrayPart::Shape, d));
    Value extent =
        b.create<arith::IndexCastOp>(loc(op), b.getIndexType(), shape);
    valid.push_back(b.create<arith::SubIOp>(loc(op), extent, coords[d]));
  }
  return valid;
}

LogicalResult EntryLowering::lowerStore(tileir::StoreViewTkoOp op) {
  reportHints(op, op.getOptimizationHintsAttr());
  auto part = partitions.find(op.getView());
  if (part == partitions.end())
    return op.emitError("a store to a view that is not a partition of a "
                        "kernel array is not lowered");
  const Partition &p = part->second;
  if (p.element)
    return lowerElementStore(op, p);
  if (p.threads)
    return lowerThreadsStore(op, p);
  auto desc = cast<tileas::TmaDescType>(func.getArgument(p.descArg).getType());
  FailureOr<tileas::SmemType> smem = smemTileOf(op, desc);
  if (failed(smem))
    return failure();
  // Through a transposed view (ct.store(..., order=(1, 0)): a column-major
  // C) the box lies in the array's order: the tile is transposed in
  // registers (through SMEM, as ct.transpose is) and stored as the box.
  FailureOr<Value> regs =
      registers(op, op.getTile(), /*transpose=*/p.transposed());
  if (failed(regs))
    return failure();
  FailureOr<SmallVector<Value>> coords = boxCoordinates(op, p, op.getIndex());
  if (failed(coords))
    return failure();
  Value staged = b.create<tileas::SmemStoreOp>(loc(op), *smem, *regs, Value());
  b.create<tileas::TmaStoreOp>(loc(op), staged, func.getArgument(p.descArg),
                               *coords);
  return success();
}

/// The element's offset is the sum of its coordinates times the strides;
/// it is stored when every coordinate lies inside the tensor, as TMA clips
/// a box at its edges.
LogicalResult EntryLowering::lowerElementStore(tileir::StoreViewTkoOp op,
                                               const Partition &p) {
  FailureOr<SmallVector<Value>> coords = boxCoordinates(op, p, op.getIndex());
  if (failed(coords))
    return failure();
  return storeElement(op, op.getTile(), p, *coords);
}

/// A tile of one element (MoE's expert of a block, a scale): every thread
/// reads it, a scalar.
LogicalResult EntryLowering::lowerElementLoad(tileir::LoadViewTkoOp op,
                                              const Partition &p) {
  if (needsPadding(op.getView().getType()))
    return op.emitError("a load of one element with padding_value = ")
           << op.getView().getType().getPaddingValue()
           << " is not lowered: the threads read zero outside the tensor";
  Type scalar = registerType(cast<tileir::TileType>(op.getTile().getType()));
  if (!scalar.isIntOrFloat())
    return op.emitError("a load of one element is lowered only as a scalar "
                        "in registers");
  FailureOr<SmallVector<Value>> coords = boxCoordinates(op, p, op.getIndex());
  if (failed(coords))
    return failure();
  auto [offset, inside] = elementOffset(op, p, *coords);
  map(op.getTile(), b.create<tileas::GlobalLoadOp>(loc(op), scalar,
                                                   func.getArgument(p.ptrArg),
                                                   offset, inside));
  return success();
}

LogicalResult EntryLowering::storeElement(Operation *op, Value tile,
                                          const Partition &p,
                                          ArrayRef<Value> coords) {
  FailureOr<Value> value = registers(op, tile);
  if (failed(value))
    return failure();
  if (!value->getType().isIntOrFloat())
    return op->emitError("a tile of one element stored by a thread is "
                         "lowered only as a scalar in registers");
  auto [offset, inside] = elementOffset(op, p, coords);
  b.create<tileas::GlobalStoreOp>(loc(op), *value, func.getArgument(p.ptrArg),
                                  offset, inside, /*combine=*/StringAttr(),
                                  /*fenced=*/false);
  return success();
}

std::pair<Value, Value> EntryLowering::elementOffset(Operation *op,
                                                     const Partition &p,
                                                     ArrayRef<Value> coords) {
  Location l = loc(op);
  Value zero = indexConstant(0), offset = zero;
  Value inside = b.create<arith::ConstantIntOp>(l, 1, 1);
  for (auto [d, c] : llvm::enumerate(coords)) {
    Value stride = ShapedType::isDynamic(p.strides[d])
                       ? b.create<arith::IndexCastOp>(
                             l, b.getIndexType(),
                             func.getArgument(shapeArg(
                                 p.param, ArrayPart::Stride, int64_t(d))))
                             .getResult()
                       : indexConstant(p.strides[d]);
    offset = b.create<arith::AddIOp>(
        l, offset, b.create<arith::MulIOp>(l, c, stride));
    Value extent = b.create<arith::IndexCastOp>(
        l, b.getIndexType(),
        func.getArgument(shapeArg(p.param, ArrayPart::Shape, int64_t(d))));
    Value below = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, c,
                                          extent);
    Value above =
        b.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, c, zero);
    inside = b.create<arith::AndIOp>(
        l, inside, b.create<arith::AndIOp>(l, below, above));
  }
  return {offset, inside};
}

/// How `perm` moves a tile's non-unit dimensions: 0 when it keeps their
/// order, 1 when it swaps the two there are, -1 otherwise.
static int nonUnitSwap(ArrayRef<int64_t> source, ArrayRef<int32_t> perm) {
  SmallVector<int32_t> order;
  for (int32_t d : perm)
    if (source[d] != 1)
      order.push_back(d);
  if (llvm::is_sorted(order))
    return 0;
  return order.size() == 2 ? 1 : -1;
}

LogicalResult EntryLowering::lowerPermute(tileir::PermuteOp op) {
  FailureOr<Value> lowered = lookup(op, op.getSource());
  if (failed(lowered))
    return failure();
  auto source = cast<tileir::TileType>(op.getSource().getType());
  int swap = nonUnitSwap(source.getShape(), op.getPermutation());
  if (swap < 0)
    return op.emitError("a permute that reorders more than two dimensions "
                        "of extent above 1 is not lowered");
  bool smem = isa<tileas::SmemType>(lowered->getType());
  // A register tile's transpose goes through SMEM; so does an accumulator's
  // in TMEM (a GEMM storing C^T), read first (registers, transposed).
  if (swap && !smem) {
    FailureOr<Value> t = registers(op, op.getSource(), /*transpose=*/true);
    if (failed(t))
      return failure();
    map(op.getResult(), *t);
    return success();
  }
  // Unit dimensions are not kept in registers or SMEM: a permute that only
  // moves them is the same value.
  if (smem && swap != permutedTiles.contains(op.getSource()))
    permutedTiles.insert(op.getResult());
  map(op.getResult(), *lowered);
  return success();
}
