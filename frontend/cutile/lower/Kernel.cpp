//===- Kernel.cpp - the entry, its kernel and argument interface ----------===//
//
// cuTile's calling convention passes an array as its pointer, shape and
// strides; tilepipe's kernels take TMA descriptors. The lowered function
// has one `!tileas.tma_desc` argument per (array, box) its views load or
// store through, one integer argument per array shape or stride the kernel
// reads as a value (a trip count), and one per scalar parameter it uses.
// `tileas.cutile.params` and `tileas.cutile.source` say how a launcher
// builds each from cuTile's arguments (docs/cuda-tile-lowering.md).
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cutile;

EntryLowering::EntryLowering(tileir::EntryOp entry, bool registerMma,
                             bool fuseLoops)
    : entry(entry), b(entry.getContext()), registerMma(registerMma),
      fuseLoops(fuseLoops) {}

Value tilepipe::cutile::stripAssume(Value v) {
  while (auto assume = v.getDefiningOp<tileir::AssumeOp>())
    v = assume.getValue();
  return v;
}

/// The name of entry argument `i`: the parameter name the bytecode's debug
/// info gives it (a name location), else none.
static std::string argumentName(tileir::EntryOp entry, unsigned i) {
  Location l = entry.getArguments()[i].getLoc();
  if (auto name = dyn_cast<NameLoc>(l))
    return name.getName().str();
  return "";
}

/// The tensor view an array's pointer argument makes, if exactly one.
static tileir::MakeTensorViewOp viewOfPointer(BlockArgument ptr) {
  tileir::MakeTensorViewOp view;
  SmallVector<Value> work = {ptr};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (auto assume = dyn_cast<tileir::AssumeOp>(user))
        work.push_back(assume.getResult());
      else if (auto made = dyn_cast<tileir::MakeTensorViewOp>(user)) {
        if (view && view != made)
          return {};
        view = made;
      }
    }
  }
  return view;
}

/// The rank of an array the kernel never reads (an output a variant of the
/// kernel leaves unwritten): cuTile passes its pointer, then its shape and
/// strides, as for any array, so the run of integer scalars after the
/// pointer is 2 x rank and then the integer scalar parameters up to the
/// next array or float parameter. Two or three tell the rank (1); a longer
/// run does not.
FailureOr<int64_t> EntryLowering::unreadArrayRank(unsigned ptr) {
  auto arguments = entry.getArguments();
  unsigned ints = 0;
  for (unsigned k = ptr + 1; k < arguments.size(); ++k, ++ints) {
    auto tile = dyn_cast<tileir::TileType>(arguments[k].getType());
    if (!tile || tile.getRank() != 0 ||
        !tile.getElementType().isSignlessInteger())
      break;
  }
  if (ints == 2 || ints == 3)
    return 1;
  return emitError(arguments[ptr].getLoc())
             << "array argument " << ptr << " is never read, and the " << ints
             << " integer arguments after it do not tell its rank (its shape "
                "and strides, then any integer parameters); a kernel that "
                "reads the array, or does not take it, is lowered",
         failure();
}

LogicalResult EntryLowering::collectParams() {
  auto arguments = entry.getArguments();
  for (unsigned i = 0; i < arguments.size();) {
    auto tile = dyn_cast<tileir::TileType>(arguments[i].getType());
    if (!tile || tile.getRank() != 0)
      return emitError(arguments[i].getLoc())
             << "kernel argument " << i << " is not a scalar tile; cuTile's "
             << "calling convention passes arrays as (pointer, shape, "
                "strides) and scalars as rank-0 tiles";
    KernelParam p;
    p.firstArg = i;
    p.name = argumentName(entry, i);
    if (p.name.empty())
      p.name = "param" + std::to_string(params.size());
    auto ptr = dyn_cast<tileir::PtrType>(tile.getElementType());
    if (!ptr) {
      p.elementType = tile.getElementType();
      params.push_back(p);
      ++i;
      continue;
    }
    // An array is read through one tensor view, or only by gathers and
    // scatters of boxes (Gathers.cpp), or not at all.
    tileir::MakeTensorViewOp view = viewOfPointer(arguments[i]);
    FailureOr<int64_t> rank = view ? view.getResult().getType().getRank()
                              : arguments[i].use_empty()
                                  ? unreadArrayRank(i)
                                  : gatheredArrayRank(arguments[i]);
    if (failed(rank))
      return failure();
    p.isArray = true;
    p.rank = *rank;
    p.elementType = ptr.getPointee();
    if (i + 2 * p.rank >= int64_t(arguments.size()))
      return emitError(arguments[i].getLoc())
             << "array argument " << i << " of rank " << p.rank
             << " lacks its shape and strides (cuTile passes them after the "
                "pointer)";
    for (int64_t k = 1; k <= 2 * p.rank; ++k) {
      auto part = dyn_cast<tileir::TileType>(arguments[i + k].getType());
      if (!part || part.getRank() != 0 ||
          !part.getElementType().isSignlessInteger())
        return emitError(arguments[i + k].getLoc())
               << "kernel argument " << i + k << " is not an integer scalar "
               << "tile; cuTile passes an array's shape and strides after "
                  "its pointer";
      p.indexType = part.getElementType();
    }
    unsigned param = params.size();
    arrayParts[i] = {param, ArrayPart::Pointer, 0};
    for (int64_t d = 0; d < p.rank; ++d) {
      arrayParts[i + 1 + d] = {param, ArrayPart::Shape, d};
      arrayParts[i + 1 + p.rank + d] = {param, ArrayPart::Stride, d};
    }
    params.push_back(p);
    i += 1 + 2 * p.rank;
  }
  return success();
}

/// Whether `v` (through assumptions) is read by anything but a tensor view
/// or the address arithmetic of a box access.
static bool readOtherThanByView(Value v,
                                const DenseSet<Operation *> &addressOps) {
  for (Operation *user : v.getUsers()) {
    if (addressOps.contains(user))
      continue;
    if (auto assume = dyn_cast<tileir::AssumeOp>(user)) {
      if (readOtherThanByView(assume.getResult(), addressOps))
        return true;
    } else if (!isa<tileir::MakeTensorViewOp>(user)) {
      return true;
    }
  }
  return false;
}

void EntryLowering::needShapeArg(unsigned param, ArrayPart::Kind kind,
                                 int64_t dim) {
  shapeArgs.emplace(std::make_tuple(param, int(kind), dim), 0);
}

unsigned EntryLowering::shapeArg(unsigned param, ArrayPart::Kind kind,
                                 int64_t dim) {
  return shapeArgs.at(std::make_tuple(param, int(kind), dim));
}

void EntryLowering::numberArguments() {
  MLIRContext *ctx = entry.getContext();
  auto field = [&](StringRef name, int64_t v) {
    return b.getNamedAttr(name, b.getI64IntegerAttr(v));
  };
  for (auto &[key, arg] : descArgs) {
    auto [param, box] = key;
    std::string name = params[param].name;
    // An array read through several boxes: the box in each one's name.
    if (llvm::count_if(descArgs, [&, p = param](auto &kv) {
          return kv.first.first == p;
        }) > 1) {
      name += "_";
      for (auto [i, n] : llvm::enumerate(box))
        name += (i ? "x" : "") + std::to_string(n);
    }
    NamedAttribute source = field("array", param);
    args.push_back({tileas::TmaDescType::get(box, params[param].elementType),
                    DictionaryAttr::get(ctx, source), name});
    arg = args.size() - 1;
  }
  // An array the threads access an element at a time: its base pointer
  // (named apart from a descriptor of the same array).
  for (auto &[param, arg] : pointerArgs) {
    SmallVector<int64_t> shape(params[param].rank, ShapedType::kDynamic);
    bool alsoBoxes = llvm::any_of(
        descArgs, [&, p = param](auto &kv) { return kv.first.first == p; });
    args.push_back({MemRefType::get(shape, params[param].elementType),
                    DictionaryAttr::get(ctx, field("array", param)),
                    params[param].name + (alsoBoxes ? "_elements" : "")});
    arg = args.size() - 1;
  }
  for (auto &[op, access] : boxAccesses)
    if (access.element)
      access.element->ptrArg = pointerArgs.at(access.param);
  for (auto &[value, p] : partitions) {
    if (p.element || p.threads)
      p.ptrArg = pointerArgs.at(p.param);
    else
      p.descArg = descArgs.at(std::make_pair(p.param, p.box));
  }
  for (auto &[key, arg] : shapeArgs) {
    auto [param, kind, dim] = key;
    const char *what = kind == ArrayPart::Shape ? "shape" : "stride";
    NamedAttribute fields[] = {field("array", param), field(what, dim)};
    args.push_back({params[param].indexType, DictionaryAttr::get(ctx, fields),
                    params[param].name + "_" + what + std::to_string(dim)});
    arg = args.size() - 1;
  }
  for (auto &[param, arg] : scalarArgs) {
    NamedAttribute source = field("scalar", param);
    args.push_back({params[param].elementType, DictionaryAttr::get(ctx, source),
                    params[param].name});
    arg = args.size() - 1;
  }
}

LogicalResult EntryLowering::planArguments() {
  WalkResult walk = entry.walk([&](Operation *op) {
    if (auto view = dyn_cast<tileir::MakeTensorViewOp>(op)) {
      auto ptr = dyn_cast<BlockArgument>(stripAssume(view.getBase()));
      if (!ptr || !arrayParts.count(ptr.getArgNumber()))
        return op->emitError("a tensor view whose base is not an array "
                             "argument of the kernel is not lowered"),
               WalkResult::interrupt();
      tensorViews[view.getResult()] = arrayParts[ptr.getArgNumber()].param;
    } else if (auto part = dyn_cast<tileir::MakePartitionViewOp>(op)) {
      if (failed(planPartition(part)))
        return WalkResult::interrupt();
    } else if (auto load = dyn_cast<tileir::LoadPtrTkoOp>(op)) {
      if (failed(planBoxAccess(load, load.getSource(), load.getMask(),
                               load.getPaddingValue(),
                               load.getMemoryOrderingSemantics())))
        return WalkResult::interrupt();
    } else if (auto store = dyn_cast<tileir::StorePtrTkoOp>(op)) {
      if (failed(planBoxAccess(store, store.getDestination(), store.getMask(),
                               Value(), store.getMemoryOrderingSemantics())))
        return WalkResult::interrupt();
    } else if (auto atomic = dyn_cast<tileir::AtomicRMWTkoOp>(op)) {
      // Its ordering is the translation's fences (lowerAtomic).
      if (failed(planBoxAccess(atomic, atomic.getPointers(), atomic.getMask(),
                               Value(), tileir::MemoryOrdering::weak)))
        return WalkResult::interrupt();
    } else if (isa<tileir::AtomicCASTkoOp>(op)) {
      return op->emitError("a compare-and-swap (ct.atomic_cas: a lock's "
                           "acquisition, as LayerNorm backward's) is not "
                           "lowered: the threads' atomics only add, take "
                           "the maximum or minimum, exchange or combine "
                           "bits"),
             WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // Shapes and strides the kernel reads as values, then the scalars.
  entry.walk([&](Operation *op) {
    // A padded load reads every extent of its tensor (Views.cpp).
    if (auto load = dyn_cast<tileir::LoadViewTkoOp>(op);
        load && needsPadding(load.getView().getType()))
      if (auto part =
              load.getView().getDefiningOp<tileir::MakePartitionViewOp>()) {
        unsigned param = tensorViews.lookup(part.getTensorView());
        for (int64_t d = 0, e = load.getView().getType().getTileShape().size();
             d < e; ++d)
          needShapeArg(param, ArrayPart::Shape, d);
      }
    Value src;
    if (auto q = dyn_cast<tileir::GetIndexSpaceShapeOp>(op))
      src = q.getSrc();
    else if (auto q = dyn_cast<tileir::GetTensorShapeOp>(op))
      src = q.getSrc();
    if (!src)
      return;
    if (auto part = src.getDefiningOp<tileir::MakePartitionViewOp>())
      src = part.getTensorView();
    unsigned param = tensorViews.lookup(src);
    for (auto [d, r] : llvm::enumerate(op->getResults()))
      if (!r.use_empty())
        needShapeArg(param, ArrayPart::Shape, int64_t(d));
  });
  for (BlockArgument arg : entry.getArguments()) {
    unsigned i = arg.getArgNumber();
    auto part = arrayParts.find(i);
    if (part != arrayParts.end()) {
      if (part->second.kind != ArrayPart::Pointer &&
          readOtherThanByView(arg, addressOps))
        needShapeArg(part->second.param, part->second.kind, part->second.dim);
      continue;
    }
    if (arg.use_empty())
      continue;
    unsigned param =
        llvm::find_if(params,
                      [&](const KernelParam &p) { return p.firstArg == i; }) -
        params.begin();
    scalarArgs[param] = 0;
  }
  numberArguments();
  return success();
}

/// `tileas.cutile.params`: one dictionary per kernel parameter.
static ArrayAttr paramsAttr(Builder &b, ArrayRef<KernelParam> params) {
  SmallVector<Attribute> list;
  for (const KernelParam &p : params) {
    SmallVector<NamedAttribute> fields = {
        b.getNamedAttr("kind", b.getStringAttr(p.isArray ? "array" : "scalar")),
        b.getNamedAttr("dtype", TypeAttr::get(p.elementType))};
    if (p.isArray) {
      fields.push_back(b.getNamedAttr("rank", b.getI64IntegerAttr(p.rank)));
      fields.push_back(b.getNamedAttr("index", TypeAttr::get(p.indexType)));
    }
    fields.push_back(b.getNamedAttr("name", b.getStringAttr(p.name)));
    list.push_back(b.getDictionaryAttr(fields));
  }
  return b.getArrayAttr(list);
}

void EntryLowering::createFunction() {
  SmallVector<Type> types;
  for (const LoweredArg &a : args)
    types.push_back(a.type);
  // Beside the tileir module (or entry) at the top of the builtin module.
  Operation *anchor = entry;
  while (anchor->getParentOp() && !isa<ModuleOp>(anchor->getParentOp()))
    anchor = anchor->getParentOp();
  b.setInsertionPoint(anchor);
  func = b.create<func::FuncOp>(entry.getLoc(), entry.getSymName(),
                                b.getFunctionType(types, {}));
  func->setAttr("tileas.cutile.params", paramsAttr(b, params));
  for (auto [i, a] : llvm::enumerate(args)) {
    func.setArgAttr(i, "tileas.name", b.getStringAttr(a.name));
    func.setArgAttr(i, "tileas.cutile.source", a.source);
  }
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    auto part = arrayParts.find(i);
    if (part != arrayParts.end()) {
      if (part->second.kind == ArrayPart::Pointer)
        continue;
      auto key = std::make_tuple(part->second.param, int(part->second.kind),
                                 part->second.dim);
      if (shapeArgs.count(key))
        map(arg, func.getArgument(shapeArgs[key]));
      continue;
    }
    for (auto [param, argNo] : scalarArgs)
      if (params[param].firstArg == i)
        map(arg, func.getArgument(argNo));
  }
}

LogicalResult EntryLowering::lowerBody() {
  hoistGuardedLoops(entry);
  Block &body = entry.getBody().front();
  bool hasLoop = false;
  entry.walk([&](tileir::ForOp) { hasLoop = true; });
  if (failed(hasLoop ? lowerAroundLoops(body) : lowerInOneTripLoop(body)))
    return failure();
  b.setInsertionPointToEnd(&func.getBody().front());
  b.create<func::ReturnOp>(entry.getLoc());
  if (fuseLoops)
    fuseSplitLoops(func);
  sinkScalarMathIntoLoops();
  sinkRegisterWorkPastLoops();
  return success();
}

/// The tile block index is the CTA's: gpu.block_id, as i32 (cuTile's type).
LogicalResult EntryLowering::lowerBlockId(tileir::GetTileBlockIdOp op) {
  gpu::Dimension dims[] = {gpu::Dimension::x, gpu::Dimension::y,
                           gpu::Dimension::z};
  for (auto [r, d] : llvm::zip(op->getResults(), dims)) {
    if (r.use_empty())
      continue;
    Type t = registerType(cast<tileir::TileType>(r.getType()));
    Value id = b.create<gpu::BlockIdOp>(loc(op), d);
    map(r, b.create<arith::IndexCastOp>(loc(op), t, id));
  }
  return success();
}

LogicalResult EntryLowering::lowerNumBlocks(tileir::GetNumTileBlocksOp op) {
  gpu::Dimension dims[] = {gpu::Dimension::x, gpu::Dimension::y,
                           gpu::Dimension::z};
  for (auto [r, d] : llvm::zip(op->getResults(), dims)) {
    if (r.use_empty())
      continue;
    Type t = registerType(cast<tileir::TileType>(r.getType()));
    Value n = b.create<gpu::GridDimOp>(loc(op), d);
    map(r, b.create<arith::IndexCastOp>(loc(op), t, n));
  }
  return success();
}

FailureOr<func::FuncOp> EntryLowering::run() {
  if (failed(collectParams()) || failed(planArguments()))
    return failure();
  createFunction();
  reportHints(entry, entry.getOptimizationHintsAttr());
  if (failed(lowerBody())) {
    func.erase();
    return failure();
  }
  return func;
}
