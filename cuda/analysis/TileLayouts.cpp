//===- TileLayouts.cpp - how each SMEM tile lies in shared memory ---------===//

#include "cuda/analysis/TileLayouts.h"

#include "cuda/analysis/CudaTypes.h"
#include "cuda/analysis/WgmmaAccumulators.h"

#include "ir/TileASDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

std::string TileLayout::tmaSwizzle() const {
  if (kind == Kind::Dense || span == 16)
    return "CU_TENSOR_MAP_SWIZZLE_NONE";
  return "CU_TENSOR_MAP_SWIZZLE_" + std::to_string(span) + "B";
}

namespace {

/// What touches the buffers of one class of SMEM values.
struct Uses {
  Operation *mma = nullptr;   ///< A UMMA reads it as A or B.
  Operation *scale = nullptr; ///< tcgen05.cp reads it (scale factors).
  Operation *simt = nullptr;  ///< Threads read it or copy into it.
  /// Threads write it (smem_store): in the UMMA's layout when a UMMA reads
  /// it (docs/cuda.md, "P through SMEM").
  Operation *store = nullptr;
  Operation *tma = nullptr;   ///< TMA fills or drains it.
  /// Threads touch it other than by the rows' loads and stores of a tile
  /// (a fragment agent's, two adjacent columns an access): those alone may
  /// find it swizzled.
  bool notRows = false;
  ShapedType type;
};

/// Union-find over values: the values of one class name one buffer.
class LayoutClasses {
public:
  Value find(Value v) {
    auto it = parent.find(v);
    if (it == parent.end()) {
      parent[v] = v;
      return v;
    }
    if (it->second == v)
      return v;
    Value root = find(it->second);
    parent[v] = root;
    return root;
  }
  void join(Value a, Value b) {
    Value ra = find(a), rb = find(b);
    if (ra != rb)
      parent[ra] = rb;
  }

private:
  llvm::DenseMap<Value, Value> parent;
};

bool isSmem(Value v) { return v && isa<tileas::SmemType>(v.getType()); }

/// Whether `op` runs in an agent (or a function) whose register tiles lie
/// in the wgmma fragment's rows (WgmmaAccumulators.h).
bool inFragmentRows(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (p->hasAttr(kFragmentBandsAttr))
      return true;
  return false;
}

/// A thread access the rows make of a whole tile (not a per-row vector,
/// not another agent's row-per-thread access).
bool rowsAccess(Operation *op, Value tile) {
  auto t = dyn_cast<ShapedType>(tile.getType());
  return t && t.getRank() == 2 && inFragmentRows(op);
}

/// A tile that threads write or read only in the fragment's rows and that
/// TMA drains or fills: an epilogue's staging (or its C). Row-major, the
/// rows' accesses of one column by 8 rows fall in one bank group (a row of
/// 256 bf16 is 512 bytes): 8-way conflicts, measured by Nsight Compute on an
/// H200 (docs/retarget.md). Swizzled 128B, 8 rows' 16-byte chunks are 8
/// different ones.
bool swizzledForRows(const Uses &u) {
  if (u.mma || u.scale || u.notRows || !u.tma || !(u.simt || u.store))
    return false;
  int64_t es = u.type.getElementTypeBitWidth() / 8;
  return isa<FloatType>(u.type.getElementType()) && u.type.getRank() == 2 &&
         es >= 2 && u.type.getDimSize(0) % 8 == 0 &&
         u.type.getDimSize(0) <= 256 && (u.type.getDimSize(1) * es) % 128 == 0;
}

/// The widest swizzle span (bytes) that divides a row of `rowBytes`.
int widestSpan(int64_t rowBytes) {
  for (int span : {128, 64, 32})
    if (rowBytes % span == 0)
      return span;
  return 16;
}

FailureOr<TileLayout> mmaLayout(Operation *at, ShapedType type) {
  Type elemType = type.getElementType();
  std::string elem = cudaElementName(elemType);
  int64_t es = type.getElementTypeBitWidth() / 8;
  // i32 and ui8 (scale factors' raw bytes) are no UMMA operand here.
  if (type.getRank() != 2 || elem.empty() || es < 1 ||
      elemType.isInteger(32) || elemType.isUnsignedInteger(8))
    return at->emitError() << "a UMMA operand tile of type " << type
                           << " has no SMEM layout in the translation",
           failure();
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  int64_t rowBytes = cols * es;
  if (rows % 8 != 0 || rows > 256 || rowBytes % 16 != 0)
    return at->emitError()
               << "a UMMA operand tile needs rows in multiples of 8 (at most "
                  "256) and rows of whole 16-byte chunks, got "
               << type,
           failure();
  TileLayout l;
  l.kind = TileLayout::Kind::Mma;
  l.type = type;
  l.span = widestSpan(rowBytes);
  l.cppType = llvm::formatv("tp::MmaTile<{0}, {1}, {2}, tp::Swizzle::{3}>",
                            elem, rows, cols,
                            l.span == 16 ? "None" : "B" + std::to_string(l.span))
                  .str();
  l.bytes = rows * rowBytes;
  l.boxes = rowBytes / l.span;
  // Every column block starts on the swizzle pattern's repeat (8 rows).
  l.align = l.span == 16 ? 128 : 8 * l.span;
  return l;
}

FailureOr<TileLayout> denseLayout(Operation *at, ShapedType type, bool tma) {
  std::string elem = cudaElementName(type.getElementType());
  if (elem.empty())
    return at->emitError() << "no CUDA type for the SMEM tile " << type,
           failure();
  TileLayout l;
  l.type = type;
  l.cppType = "tp::DenseTile<" + elem;
  for (int64_t d : type.getShape())
    l.cppType += ", " + std::to_string(d);
  l.cppType += ">";
  l.bytes = tileas::getTileSizeInBytes(type);
  // TMA writes and reads SMEM at 128-byte aligned addresses.
  l.align = tma ? 128 : 16;
  ArrayRef<int64_t> shape = type.getShape();
  if (tma && (type.getRank() > 5 ||
              llvm::any_of(shape.drop_back(),
                           [](int64_t d) { return d > 256; })))
    return at->emitError() << "a row-major tile moved by TMA is one box in "
                              "all but its last dimension: rank at most 5 "
                              "and dimensions at most 256, got "
                           << type,
           failure();
  if (tma && shape.back() > 256) {
    // Wider than a box: blocks of the widest width of at most 256 that
    // divides the row and spans whole 16-byte units.
    int64_t es = type.getElementTypeBitWidth() / 8;
    int64_t w = 256;
    while (w > 0 && (shape.back() % w || (w * es) % 16))
      --w;
    if (w == 0)
      return at->emitError() << "a row-major tile moved by TMA whose last "
                                "dimension is wider than a box (256) must "
                                "split into boxes of whole 16-byte units, got "
                             << type,
             failure();
    l.blockCols = w;
    l.boxes = shape.back() / w;
    l.cppType = "tp::BlockedTile<" + elem + ", " + std::to_string(w);
    for (int64_t d : shape)
      l.cppType += ", " + std::to_string(d);
    l.cppType += ">";
  }
  return l;
}

/// The steps of TileLayouts::analyze, in order: buffers (classes of SMEM
/// values), what touches each, a layout per buffer, every value's layout,
/// and one layout per tensor map.
class TileLayoutsBuilder {
public:
  explicit TileLayoutsBuilder(func::FuncOp func) : func(func) {}

  LogicalResult run() {
    joinBuffers();
    joinViews();
    collectUses();
    if (failed(layOutBuffers()))
      return failure();
    recordValues();
    return checkTensorMaps();
  }

  /// What TileLayouts holds: the layouts, by SMEM value and by tensor map.
  std::vector<TileLayout> layouts;
  llvm::DenseMap<Value, unsigned> byValue, byDesc;

private:
  void joinBuffers();
  void joinViews();
  Uses *usesOf(Value v);
  void collectUses();
  LogicalResult layOutBuffers();
  void recordValues();
  LogicalResult checkTensorMaps();

  func::FuncOp func;
  LayoutClasses classes;
  llvm::DenseMap<Value, Uses> uses;
  std::vector<Value> roots; ///< In program order, so diagnostics are stable.
  std::vector<std::pair<Operation *, Value>> tmaOps; ///< (op, its SMEM tile)
  llvm::DenseMap<Value, unsigned> byRoot;
};

} // namespace

/// Values of one buffer: an op's result and the slot it writes `into`, a
/// pipe's slots and the pipe, a pipe and the pipe whose slots it shares or
/// aliases, and everything a loop or an if carries.
void TileLayoutsBuilder::joinBuffers() {
  func.walk([&](Operation *op) {
    if (OpOperand *into = tileas::getIntoOperand(op))
      if (isSmem(into->get()))
        classes.join(op->getResult(0), into->get());
    if (isa<tileas::PipeProducerAcquireOp, tileas::PipeConsumerWaitOp>(op) &&
        isSmem(op->getResult(0)))
      classes.join(op->getResult(0), op->getOperand(0));
    if (auto create = dyn_cast<tileas::PipeCreateOp>(op))
      if (Value other =
              create.getShares() ? create.getShares() : create.getAliases())
        classes.join(create.getResult(), other);
    if (auto loop = dyn_cast<scf::ForOp>(op))
      for (auto [init, arg, result, yielded] :
           llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                     loop.getResults(), loop.getYieldedValues()))
        if (isSmem(init)) {
          classes.join(init, arg);
          classes.join(init, result);
          classes.join(init, yielded);
        }
    if (auto branch = dyn_cast<scf::IfOp>(op))
      for (auto [i, result] : llvm::enumerate(branch.getResults()))
        if (isSmem(result))
          for (Region *r : {&branch.getThenRegion(), &branch.getElseRegion()})
            if (!r->empty())
              classes.join(result, r->front().getTerminator()->getOperand(i));
  });
}

/// Views of one buffer as one type are one class: a ring member's TMA
/// writes its slot through one view and its MMA reads it through another.
void TileLayoutsBuilder::joinViews() {
  llvm::DenseMap<std::pair<Value, Type>, Value> viewsOf;
  func.walk([&](tileas::SmemViewOp view) {
    Value buffer = classes.find(tileas::stripViews(view.getSource()));
    auto [it, first] =
        viewsOf.try_emplace({buffer, view.getType()}, view.getResult());
    if (!first)
      classes.join(view.getResult(), it->second);
  });
}

/// The uses of v's buffer, registered the first time any of its values is
/// seen; null when v is not an SMEM tile.
Uses *TileLayoutsBuilder::usesOf(Value v) {
  if (!isSmem(v))
    return nullptr;
  Value root = classes.find(v);
  if (!uses.count(root))
    roots.push_back(root);
  Uses &u = uses[root];
  if (!u.type)
    u.type = cast<ShapedType>(v.getType());
  return &u;
}

void TileLayoutsBuilder::collectUses() {
  auto mark = [&](Value v, Operation *Uses::*what, Operation *op) {
    if (Uses *u = usesOf(v); u && !(u->*what))
      u->*what = op;
  };
  func.walk([&](Operation *op) {
    if (auto mma = dyn_cast<tileas::UmmaOp>(op)) {
      mark(mma.getA(), &Uses::mma, op);
      mark(mma.getB(), &Uses::mma, op);
    } else if (auto mma = dyn_cast<tileas::WgmmaOp>(op)) {
      // Hopper's operands: the same swizzled tiles (an sm_90 descriptor is
      // an sm_100 one without its version bits).
      mark(mma.getA(), &Uses::mma, op);
      mark(mma.getB(), &Uses::mma, op);
    } else if (auto copy = dyn_cast<tileas::TmemCopyOp>(op)) {
      mark(copy.getSource(), &Uses::scale, op);
    } else if (auto load = dyn_cast<tileas::SmemLoadOp>(op)) {
      mark(load.getSource(), &Uses::simt, op);
      if (Uses *u = usesOf(load.getSource()))
        u->notRows |= !rowsAccess(op, load.getSource());
    } else if (isa<tileas::SmemStoreOp>(op)) {
      mark(op->getResult(0), &Uses::store, op);
      if (Uses *u = usesOf(op->getResult(0)))
        u->notRows |= !rowsAccess(op, op->getResult(0));
    } else if (isa<tileas::CpAsyncOp>(op)) {
      mark(op->getResult(0), &Uses::simt, op);
      if (Uses *u = usesOf(op->getResult(0)))
        u->notRows = true;
    } else if (auto load = dyn_cast<tileas::TmaLoadOp>(op)) {
      mark(load.getResult(), &Uses::tma, op);
      tmaOps.push_back({op, load.getResult()});
    } else if (auto store = dyn_cast<tileas::TmaStoreOp>(op)) {
      mark(store.getBuffer(), &Uses::tma, op);
      tmaOps.push_back({op, store.getBuffer()});
    }
    // A buffer nothing above touches still gets a (dense) layout.
    for (Value v : op->getResults())
      usesOf(v);
  });
  for (BlockArgument arg : func.getArguments())
    usesOf(arg);
}

/// A layout per buffer: a UMMA operand's swizzled one (threads write it in
/// the UMMA's layout, smem_store_mma), the same for a tile only the
/// fragment's rows touch besides TMA, else a dense one.
LogicalResult TileLayoutsBuilder::layOutBuffers() {
  for (Value root : roots) {
    const Uses &u = uses[root];
    FailureOr<TileLayout> l;
    Operation *at = u.mma     ? u.mma
                    : u.scale ? u.scale
                    : u.simt  ? u.simt
                    : u.store ? u.store
                              : u.tma;
    if (!at)
      at = func;
    if (u.mma && (u.simt || u.scale))
      return (u.simt ? u.simt : u.scale)->emitError()
             << "this SMEM tile is also a UMMA operand, which the "
                "translation lays out swizzled (docs/cuda.md); threads "
                "and tcgen05.cp read it row-major";
    l = u.mma || swizzledForRows(u) ? mmaLayout(at, u.type)
                                    : denseLayout(at, u.type, u.tma);
    if (failed(l))
      return failure();
    l->mmaOperand = u.mma != nullptr;
    byRoot[root] = unsigned(layouts.size());
    layouts.push_back(*l);
  }
  return success();
}

/// Every SMEM value, and every pipe of SMEM slots, names its layout.
void TileLayoutsBuilder::recordValues() {
  auto record = [&](Value v) {
    auto pipe = dyn_cast<tileas::PipeType>(v.getType());
    if (!isSmem(v) && !(pipe && isa<tileas::SmemType>(pipe.getPayload())))
      return;
    auto it = byRoot.find(classes.find(v));
    if (it != byRoot.end())
      byValue[v] = it->second;
  };
  func.walk([&](Operation *op) {
    for (Value v : op->getResults())
      record(v);
  });
  func.walk([&](Block *block) {
    for (BlockArgument arg : block->getArguments())
      record(arg);
  });
}

/// A tensor map describes one box shape and swizzle: every TMA through it
/// must move tiles of one layout.
LogicalResult TileLayoutsBuilder::checkTensorMaps() {
  for (auto [op, tile] : tmaOps) {
    Value desc = isa<tileas::TmaLoadOp>(op)
                     ? cast<tileas::TmaLoadOp>(op).getDesc()
                     : cast<tileas::TmaStoreOp>(op).getDesc();
    unsigned l = byValue.lookup(tile);
    auto [it, inserted] = byDesc.try_emplace(desc, l);
    if (!inserted && layouts[it->second].cppType != layouts[l].cppType)
      return op->emitError()
             << "this TMA moves a tile laid out as " << layouts[l].cppType
             << ", but another TMA through the same tensor map moves "
             << layouts[it->second].cppType
             << "; a tensor map has one box and one swizzle";
  }
  return success();
}

FailureOr<TileLayouts> TileLayouts::analyze(func::FuncOp func) {
  TileLayoutsBuilder builder(func);
  if (failed(builder.run()))
    return failure();
  TileLayouts out;
  out.layouts = std::move(builder.layouts);
  out.byValue = std::move(builder.byValue);
  out.byDesc = std::move(builder.byDesc);
  return out;
}

FailureOr<TileLayout> TileLayouts::mmaTile(Operation *at, ShapedType type) {
  FailureOr<TileLayout> l = mmaLayout(at, type);
  if (succeeded(l))
    l->mmaOperand = true;
  return l;
}

const TileLayout *TileLayouts::of(Value v) const {
  auto it = byValue.find(v);
  return it == byValue.end() ? nullptr : &layouts[it->second];
}

const TileLayout *TileLayouts::ofDesc(Value desc) const {
  auto it = byDesc.find(desc);
  return it == byDesc.end() ? nullptr : &layouts[it->second];
}

std::string TileLayouts::blockedType(Value v) const {
  const TileLayout *l = of(v);
  if (!l || !l->blockCols || l->type.getRank() < 2)
    return "";
  return l->cppType;
}
