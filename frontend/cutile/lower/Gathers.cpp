//===- Gathers.cpp - gathers and scatters over a box become TMA -----------===//
//
// `ct.gather(a, idx)` and `ct.scatter(a, idx, t)` reach tile IR as pointer
// tiles: the array's base broadcast, `offset` by a tile of element offsets
// (sum over dimensions of index x stride, in i64), then `load_ptr_tko` /
// `store_ptr_tko` masked by the bounds (`index < shape`, unsigned, in each
// dimension). When each dimension's index is a scalar plus `ct.arange`
// along one tile dimension (cuTile's VectorAddition samples, Triton's
// `offs = pid * BLOCK + tl.arange(0, BLOCK)`), the elements are a box of the
// array at the scalars: exactly the TMA box a view's load moves, clipped at
// the edges as the mask clips. Such an access is lowered as one, and the
// address arithmetic (i64 tiles, pointer tiles, the mask) lowers to nothing.
// What TMA cannot move (a start off the 16-byte grid, a transposed or narrow
// box, a scatter masked beyond the bounds, indices computed from positions
// otherwise) the threads read or write element by element
// (tileas.global_gather / global_scatter). Indices loaded from memory are
// refused at the access.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"
#include "ir/Positions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <numeric>

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cutile;

namespace {

/// One array dimension's index at tile element e: `constant + sum(scalars)
/// - sum(subtracted) + e[dim]` (no position term when dim < 0).
struct Axis {
  int64_t constant = 0;
  SmallVector<Value> scalars, subtracted; // rank-0 tileir values
  int64_t dim = -1;

  bool operator==(const Axis &o) const {
    return constant == o.constant && scalars == o.scalars &&
           subtracted == o.subtracted && dim == o.dim;
  }
};

/// One term of an offset: an index times a stride, which is a constant or
/// an entry argument (a stride the array passes).
struct Term {
  Axis axis;
  /// An index that is no scalar plus ct.arange (`2 * offs`, `n - 1 - offs`):
  /// the integer tile widened to it, which the threads' path reads as
  /// positions. Null for an Axis.
  Value general;
  std::optional<int64_t> strideConstant;
  BlockArgument strideArg;
};

bool allUnit(tileir::TileType t) {
  return llvm::all_of(t.getShape(), [](int64_t n) { return n == 1; });
}

/// The rank-0 value a tile of one value is made of (through reshapes,
/// broadcasts, assumptions and widenings), or null.
Value splatSource(Value v) {
  while (true) {
    v = stripAssume(v);
    Operation *def = v.getDefiningOp();
    auto tile = dyn_cast<tileir::TileType>(v.getType());
    if (!tile)
      return {};
    if (tile.getRank() == 0 && !isa_and_nonnull<tileir::ExtIOp>(def))
      return v;
    if (auto r = dyn_cast_or_null<tileir::ReshapeOp>(def);
        r && allUnit(cast<tileir::TileType>(r.getSource().getType())))
      v = r.getSource();
    else if (auto bc = dyn_cast_or_null<tileir::BroadcastOp>(def);
             bc && allUnit(bc.getSource().getType()))
      v = bc.getSource();
    else if (auto ext = dyn_cast_or_null<tileir::ExtIOp>(def))
      v = ext.getSource();
    else
      return {};
  }
}

/// The integer a constant splat holds.
std::optional<int64_t> splatConstant(Value v) {
  v = stripAssume(v);
  if (auto ext = v.getDefiningOp<tileir::ExtIOp>())
    return splatConstant(ext.getSource());
  auto cst = v.getDefiningOp<tileir::ConstantOp>();
  auto dense = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : nullptr;
  if (!dense || !dense.isSplat() || !dense.getElementType().isInteger())
    return std::nullopt;
  return dense.getSplatValue<APInt>().getSExtValue();
}

/// The dimension of `to` that non-unit dimension `dim` of `from` becomes
/// when only unit dimensions change (a reshape).
std::optional<int64_t> reshapedDim(ArrayRef<int64_t> from, ArrayRef<int64_t> to,
                                   int64_t dim) {
  int64_t k =
      llvm::count_if(from.take_front(dim), [](int64_t n) { return n != 1; });
  for (auto [i, n] : llvm::enumerate(to))
    if (n != 1 && k-- == 0)
      return n == from[dim] ? std::optional<int64_t>(i) : std::nullopt;
  return std::nullopt;
}

std::optional<Axis> axisOf(Value v) {
  v = stripAssume(v);
  if (std::optional<int64_t> c = splatConstant(v)) {
    Axis a;
    a.constant = *c;
    return a;
  }
  if (Value s = splatSource(v)) {
    Axis a;
    a.scalars.push_back(s);
    return a;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (isa<tileir::IotaOp>(def)) {
    Axis a;
    a.dim = 0;
    return a;
  }
  if (auto ext = dyn_cast<tileir::ExtIOp>(def))
    return axisOf(ext.getSource());
  if (auto r = dyn_cast<tileir::ReshapeOp>(def)) {
    std::optional<Axis> a = axisOf(r.getSource());
    if (!a || a->dim < 0)
      return a;
    auto from = cast<tileir::TileType>(r.getSource().getType()).getShape();
    if (from[a->dim] == 1) {
      a->dim = -1; // an iota of one element is 0
      return a;
    }
    std::optional<int64_t> d =
        reshapedDim(from, r.getResult().getType().getShape(), a->dim);
    if (!d)
      return std::nullopt;
    a->dim = *d;
    return a;
  }
  if (auto bc = dyn_cast<tileir::BroadcastOp>(def)) {
    std::optional<Axis> a = axisOf(bc.getSource());
    if (a && a->dim >= 0 && bc.getSource().getType().getShape()[a->dim] == 1)
      a->dim = -1;
    return a;
  }
  if (auto add = dyn_cast<tileir::AddIOp>(def)) {
    std::optional<Axis> l = axisOf(add.getLhs()), r = axisOf(add.getRhs());
    if (!l || !r || (l->dim >= 0 && r->dim >= 0))
      return std::nullopt;
    l->constant += r->constant;
    l->scalars.append(r->scalars);
    l->subtracted.append(r->subtracted);
    l->dim = std::max(l->dim, r->dim);
    return l;
  }
  // A shifted box (a stencil's `offs - 1`): positions less a scalar.
  if (auto sub = dyn_cast<tileir::SubIOp>(def)) {
    std::optional<Axis> l = axisOf(sub.getLhs()), r = axisOf(sub.getRhs());
    if (!l || !r || r->dim >= 0)
      return std::nullopt;
    l->constant -= r->constant;
    l->scalars.append(r->subtracted);
    l->subtracted.append(r->scalars);
    return l;
  }
  // A multiply by one (cuTile scales an index by a unit stride).
  if (auto mul = dyn_cast<tileir::MulIOp>(def)) {
    if (splatConstant(mul.getRhs()) == 1)
      return axisOf(mul.getLhs());
    if (splatConstant(mul.getLhs()) == 1)
      return axisOf(mul.getRhs());
  }
  return std::nullopt;
}

/// A stride operand: a constant, or (through assumptions and widening) an
/// entry argument.
bool strideOf(Value v, Term &t) {
  if (std::optional<int64_t> c = splatConstant(v)) {
    t.strideConstant = c;
    return true;
  }
  Value s = splatSource(v);
  if (auto arg = dyn_cast_or_null<BlockArgument>(s ? stripAssume(s) : s)) {
    t.strideArg = arg;
    return true;
  }
  return false;
}

/// The integer tile an index tile widens (`exti`), through reshapes and
/// broadcasts: what an index that is no Axis is computed as. Null when the
/// index is not such a widening.
Value generalIndex(Value v) {
  v = stripAssume(v);
  while (isa_and_nonnull<tileir::ReshapeOp, tileir::BroadcastOp>(
      v.getDefiningOp()))
    v = stripAssume(v.getDefiningOp()->getOperand(0));
  auto ext = v.getDefiningOp<tileir::ExtIOp>();
  if (!ext)
    return {};
  auto tile = cast<tileir::TileType>(ext.getSource().getType());
  return tile.getRank() && tile.getElementType().isSignlessInteger(32)
             ? ext.getSource()
             : Value();
}

/// The terms of an offset tile: `addi` of `index x stride` products, a bare
/// index counting as one times a unit stride.
bool termsOf(Value v, SmallVectorImpl<Term> &terms) {
  Operation *def = stripAssume(v).getDefiningOp();
  if (auto add = dyn_cast_or_null<tileir::AddIOp>(def))
    return termsOf(add.getLhs(), terms) && termsOf(add.getRhs(), terms);
  Term t;
  // cuTile writes index x stride; the other order is taken when it is the
  // only reading (a stride splat times positions).
  if (auto mul = dyn_cast_or_null<tileir::MulIOp>(def)) {
    for (auto [index, stride] : {std::pair(mul.getLhs(), mul.getRhs()),
                                 std::pair(mul.getRhs(), mul.getLhs())}) {
      Term candidate;
      std::optional<Axis> a = axisOf(index);
      Value general = a ? Value() : generalIndex(index);
      if ((a || general) && strideOf(stride, candidate)) {
        if (a)
          candidate.axis = std::move(*a);
        candidate.general = general;
        terms.push_back(std::move(candidate));
        return true;
      }
    }
  }
  std::optional<Axis> a = axisOf(v);
  Value general = a ? Value() : generalIndex(v);
  if (!a && !general)
    return false;
  if (a)
    t.axis = std::move(*a);
  t.general = general;
  t.strideConstant = 1;
  terms.push_back(std::move(t));
  return true;
}

/// The base pointer argument and offset of a pointer tile
/// `offset(broadcast(reshape(ptr)), offsets)`.
std::pair<BlockArgument, Value> baseAndOffset(Value ptrs) {
  auto off = stripAssume(ptrs).getDefiningOp<tileir::OffsetOp>();
  if (!off)
    return {};
  auto base = dyn_cast_or_null<BlockArgument>(splatSource(off.getPtr()));
  return {base, off.getOffset()};
}

} // namespace

FailureOr<int64_t> tilepipe::cutile::gatheredArrayRank(BlockArgument ptr) {
  std::optional<int64_t> rank;
  // The offsets that address this array: one term per dimension.
  SmallVector<Value> work = {ptr};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<tileir::AssumeOp, tileir::ReshapeOp, tileir::BroadcastOp>(user)) {
        work.push_back(user->getResult(0));
        continue;
      }
      auto off = dyn_cast<tileir::OffsetOp>(user);
      if (!off || off.getPtr() != v)
        return user->emitError("a pointer argument read other than through "
                               "a tensor view or a gather's offsets is not "
                               "lowered"),
               failure();
      SmallVector<Term> terms;
      if (!termsOf(off.getOffset(), terms))
        return off.emitError(
                   "a gather or scatter whose element offsets are not a sum "
                   "of i32 indices, each widened and times the array's "
                   "stride, is not lowered (an index computed in i64 is "
                   "not)"),
               failure();
      if (rank && *rank != int64_t(terms.size()))
        return off.emitError("offsets into one array with ")
                   << terms.size() << " and " << *rank
                   << " index terms: the array's rank is not told",
               failure();
      rank = terms.size();
    }
  }
  if (!rank)
    return emitError(ptr.getLoc())
               << "array argument " << ptr.getArgNumber()
               << " is read through no tensor view and no gather or scatter",
           failure();
  return *rank;
}

/// A number `v` is known to be a multiple of (0: v is 0), from constants,
/// products, sums, div_by assumptions and loop counters; 1 when nothing is
/// known. Saturates well below overflow.
static uint64_t knownMultiple(Value v) {
  constexpr uint64_t kCap = uint64_t(1) << 40;
  Operation *def = v.getDefiningOp();
  if (!def) {
    // A loop's counter: lb + i * step.
    auto arg = dyn_cast<BlockArgument>(v);
    auto loop = arg ? dyn_cast<tileir::ForOp>(arg.getOwner()->getParentOp())
                    : tileir::ForOp();
    if (loop && arg.getArgNumber() == 0)
      return std::gcd(knownMultiple(loop.getLowerBound()),
                      knownMultiple(loop.getStep()));
    return 1;
  }
  if (std::optional<int64_t> c = splatConstant(v))
    return std::min<uint64_t>(std::abs(*c), kCap);
  if (auto assume = dyn_cast<tileir::AssumeOp>(def)) {
    uint64_t m = knownMultiple(assume.getValue());
    if (auto divBy = dyn_cast<tileir::DivByAttr>(assume.getPredicate());
        divBy && !divBy.getEvery() && m)
      m = std::min(std::lcm(m, uint64_t(divBy.getDivisor())), kCap);
    return m;
  }
  if (isa<tileir::ExtIOp, tileir::ReshapeOp, tileir::BroadcastOp>(def))
    return knownMultiple(def->getOperand(0));
  if (isa<tileir::MulIOp>(def))
    return std::min(knownMultiple(def->getOperand(0)) *
                        knownMultiple(def->getOperand(1)),
                    kCap);
  if (isa<tileir::AddIOp, tileir::SubIOp>(def))
    return std::gcd(knownMultiple(def->getOperand(0)),
                    knownMultiple(def->getOperand(1)));
  return 1;
}

/// The value a constant padding tile holds, or null.
static Attribute paddingConstant(Value v) {
  Value s = splatSource(v);
  Value c = s ? s : stripAssume(v);
  auto cst = c.getDefiningOp<tileir::ConstantOp>();
  auto dense = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : nullptr;
  return dense && dense.isSplat() ? dense.getSplatValue<Attribute>()
                                  : Attribute();
}

/// Whether a padding is zero: what TMA writes past the edges.
static bool isZero(Attribute pad) {
  if (auto f = dyn_cast_or_null<FloatAttr>(pad))
    return f.getValue().isPosZero();
  auto i = dyn_cast_or_null<IntegerAttr>(pad);
  return i && i.getValue().isZero();
}

namespace {
/// A conjunct `index < bound` of a mask, the bound an entry argument.
struct Check {
  std::optional<Axis> axis;
  Value general; // when the index is no Axis (Term::general)
  BlockArgument bound;
  Value conjunct;
};
} // namespace

/// The conjuncts of a mask: `index < argument` checks (`checks`: TMA's
/// clipping makes those whose argument is the array's shape) and the others
/// (`extra`).
static void conjunctsOf(Value mask, SmallVectorImpl<Check> &checks,
                        SmallVectorImpl<Value> &extra) {
  Operation *def = stripAssume(mask).getDefiningOp();
  if (auto both = dyn_cast_or_null<tileir::AndIOp>(def)) {
    conjunctsOf(both.getLhs(), checks, extra);
    conjunctsOf(both.getRhs(), checks, extra);
    return;
  }
  auto cmp = dyn_cast_or_null<tileir::CmpIOp>(def);
  std::optional<Axis> a;
  Value general;
  BlockArgument shape;
  if (cmp &&
      cmp.getComparisonPredicate() == tileir::ComparisonPredicate::less_than) {
    a = axisOf(cmp.getLhs());
    if (!a)
      general = generalIndex(cmp.getLhs());
    Value s = splatSource(cmp.getRhs());
    shape = dyn_cast_or_null<BlockArgument>(s ? stripAssume(s) : s);
  }
  if ((a || general) && shape)
    checks.push_back({std::move(a), general, shape, mask});
  else
    extra.push_back(mask);
}

LogicalResult EntryLowering::planBoxAccess(Operation *op, Value ptrs,
                                           Value mask, Value padding,
                                           tileir::MemoryOrdering ordering) {
  if (ordering != tileir::MemoryOrdering::weak)
    return op->emitError("a gather or scatter with ")
           << tileir::stringifyMemoryOrdering(ordering)
           << " ordering is not lowered: only weak accesses are";
  auto [base, offset] = baseAndOffset(ptrs);
  auto part = base ? arrayParts.find(base.getArgNumber()) : arrayParts.end();
  if (part == arrayParts.end() || part->second.kind != ArrayPart::Pointer)
    return op->emitError("a gather or scatter through pointers that are not "
                         "a kernel array's base plus offsets is not lowered");
  unsigned param = part->second.param;
  int64_t rank = params[param].rank;
  SmallVector<Term> terms;
  if (!termsOf(offset, terms) || int64_t(terms.size()) != rank)
    return op->emitError("a gather or scatter whose element offsets are not "
                         "one i32 index per dimension of the array, each "
                         "widened and times its stride, is not lowered");
  BoxAccess access;
  access.param = param;
  SmallVector<std::optional<Axis>> axes(rank);
  SmallVector<Value> generals(rank);
  access.strides.assign(rank, 1);
  for (Term &t : terms) {
    int64_t d = -1;
    if (t.strideArg) {
      auto s = arrayParts.find(t.strideArg.getArgNumber());
      if (s != arrayParts.end() && s->second.param == param &&
          s->second.kind == ArrayPart::Stride)
        d = s->second.dim;
    } else if (t.strideConstant == 1) {
      d = rank - 1; // cuTile's unit stride: the contiguous last dimension
    }
    if (d < 0 || axes[d] || generals[d])
      return op->emitError("a gather or scatter whose offsets do not take "
                           "each dimension of the array once, times its "
                           "stride, is not lowered");
    if (t.general)
      generals[d] = t.general;
    else
      axes[d] = std::move(t.axis);
    if (t.strideArg)
      access.strides[d] = ShapedType::kDynamic;
  }
  if (mask) {
    SmallVector<Check> checks;
    conjunctsOf(mask, checks, access.masks);
    for (const Check &c : checks) {
      auto s = arrayParts.find(c.bound.getArgNumber());
      bool bounds = s != arrayParts.end() && s->second.param == param &&
                    s->second.kind == ArrayPart::Shape;
      if (bounds && c.axis)
        bounds = axes[s->second.dim] && *axes[s->second.dim] == *c.axis;
      else if (bounds)
        bounds = generals[s->second.dim] == c.general;
      if (!bounds)
        access.masks.push_back(c.conjunct);
    }
    // A TMA store writes its whole box, clipped at the bounds only.
    if (!access.masks.empty() && isa<tileir::StorePtrTkoOp>(op))
      access.threads = true;
  }
  // Another constant than zero (softmax's -inf) is what the threads read
  // past the bounds instead of TMA's zeros, as a view's padding_value.
  Attribute pad = padding ? paddingConstant(padding) : Attribute();
  if (padding && !isZero(pad)) {
    // An i32 gather (an index read from memory, -1 past the end) is the
    // threads', which pad with any constant.
    bool index = params[param].elementType.isSignlessInteger(32) &&
                 isa_and_nonnull<IntegerAttr>(pad);
    access.padding = index ? TypedAttr(cast<IntegerAttr>(pad))
                           : TypedAttr(dyn_cast_or_null<FloatAttr>(pad));
    if (!access.padding)
      return op->emitError("a gather padded with other than a float "
                           "constant or zero is not lowered: threads read a "
                           "float constant past the bounds where TMA wrote "
                           "zeros (an i32 gather, any integer)");
  }
  auto tile = cast<tileir::TileType>(ptrs.getType());
  int64_t last = -1;
  SmallVector<int64_t> box;
  // An index that is no scalar plus ct.arange: the threads read it.
  bool anyGeneral = llvm::any_of(generals, [](Value v) { return bool(v); });
  if (anyGeneral)
    access.threads = true;
  for (auto [d, a] : llvm::enumerate(axes)) {
    if (!a) {
      box.push_back(1);
      BoxAccess::Start general;
      general.general = generals[d];
      access.start.push_back(std::move(general));
      continue;
    }
    // The array's dimensions in another order than the tile's: a
    // transposed box, which threads read element by element.
    if (a->dim >= 0 && a->dim < last)
      access.threads = true;
    last = std::max(last, a->dim);
    box.push_back(a->dim >= 0 ? tile.getShape()[a->dim] : 1);
    BoxAccess::Start start;
    start.constant = a->constant;
    start.scalars = a->scalars;
    start.subtracted = a->subtracted;
    start.tileDim = a->dim;
    access.start.push_back(std::move(start));
  }
  // TMA takes an innermost coordinate whose bytes are a multiple of 16
  // (measured on the H200: another stops the kernel); the box's start
  // must be known to be one.
  Type elem = params[param].elementType;
  const BoxAccess::Start &inner = access.start.back();
  uint64_t multiple = uint64_t(std::abs(inner.constant));
  for (Value v : llvm::concat<const Value>(inner.scalars, inner.subtracted))
    multiple = std::gcd(multiple, knownMultiple(v));
  int64_t align = 128 / elem.getIntOrFloatBitWidth();
  if (box.back() != 1 && multiple != 0 && multiple % align != 0)
    access.threads = true;
  if (!tmaBoxProblem(box, elem).empty())
    access.threads = true;
  // Integers (MoE's routing, gathered by positions) are read by the
  // threads: an i32 read at positions is positions itself
  // (ir/Positions.h), and registers carry no other integer tiles.
  if (elem.isSignlessInteger(32) && isa<tileir::LoadPtrTkoOp>(op))
    access.threads = true;
  int64_t covered = llvm::count_if(box, [](int64_t n) { return n != 1; });
  if (!anyGeneral && covered != llvm::count_if(tile.getShape(), [](int64_t n) {
                       return n != 1;
                     }))
    return op->emitError("a gather or scatter that repeats elements along a "
                         "tile dimension no index runs along is not lowered");
  access.box = box;
  bool oneElement = !anyGeneral &&
                    llvm::all_of(box, [](int64_t n) { return n == 1; }) &&
                    elem.getIntOrFloatBitWidth() < 128;
  // An atomic (ct.atomic_add, ...): each thread combines the elements it
  // holds; one element (a sum over the whole grid) one thread combines.
  if (isa<tileir::AtomicRMWTkoOp>(op))
    access.threads = true;
  if (access.threads && !oneElement) {
    // Each thread its elements: the array's base, shapes and strides.
    needPointerArgs(param, access.strides);
    boxAccesses[op] = std::move(access);
    markAddressOps(op, {ptrs, mask, padding});
    return success();
  }
  access.threads = false;
  // A padded read's extents: the SMEM tile's dimensions, the box's after
  // its leading unit ones.
  if (access.padding)
    for (int64_t d =
             llvm::find_if(box, [](int64_t n) { return n != 1; }) - box.begin();
         d < rank; ++d)
      needShapeArg(param, ArrayPart::Shape, d);
  if (isa<tileir::StorePtrTkoOp, tileir::LoadPtrTkoOp, tileir::AtomicRMWTkoOp>(
          op) &&
      oneElement) {
    // One element (a block's result): a thread stores it, as a view's. One
    // read (a sequence's length, a page of a paged KV cache: `ct.gather(a,
    // i)` at a scalar): every thread reads it, a scalar in registers.
    Partition p;
    p.param = param;
    p.element = true;
    p.strides = access.strides;
    needPointerArgs(param, p.strides);
    access.element = std::move(p);
  } else {
    if (failed(checkBox(op, box, elem)))
      return failure();
    descArgs.emplace(std::make_pair(param, box), 0);
  }
  // What the lowered code still reads: the mask's other conjuncts, and
  // the padding they select.
  boxAccesses[op] = std::move(access);
  markAddressOps(op, {ptrs, mask, padding});
  return success();
}

/// The address arithmetic only box accesses read lowers to nothing: the
/// ops in their operands' slices whose every reader is such an op or the
/// access itself. The scalars the box starts at stay (they give the
/// coordinates).
void EntryLowering::markAddressOps(Operation *access, ValueRange operands) {
  const BoxAccess &a = boxAccesses[access];
  DenseSet<Value> keep(a.masks.begin(), a.masks.end());
  for (const auto &s : a.start) {
    keep.insert(s.scalars.begin(), s.scalars.end());
    keep.insert(s.subtracted.begin(), s.subtracted.end());
    if (s.general)
      keep.insert(s.general);
  }
  if (!a.masks.empty())
    if (auto load = dyn_cast<tileir::LoadPtrTkoOp>(access))
      keep.insert(load.getPaddingValue());
  SmallVector<Operation *> slice;
  SmallVector<Value> work(operands.begin(), operands.end());
  DenseSet<Operation *> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v ? v.getDefiningOp() : nullptr;
    if (!def || keep.contains(v) || !seen.insert(def).second ||
        def->getNumRegions() || def->getNumResults() != 1 ||
        isa<tileir::GetTileBlockIdOp>(def))
      continue;
    slice.push_back(def);
    work.append(def->operand_begin(), def->operand_end());
  }
  // Readers first: an op is address arithmetic once all its readers are.
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *op : slice) {
      if (addressOps.contains(op))
        continue;
      bool onlyAddresses =
          llvm::all_of(op->getResult(0).getUses(), [&](OpOperand &use) {
            Operation *u = use.getOwner();
            if (addressOps.contains(u))
              return true;
            // A store's or an atomic's data is no address.
            auto store = dyn_cast<tileir::StorePtrTkoOp>(u);
            auto atomic = dyn_cast<tileir::AtomicRMWTkoOp>(u);
            return boxAccesses.count(u) &&
                   !(store && &use == &store.getValueMutable()) &&
                   !(atomic && &use == &atomic.getArgMutable());
          });
      if (onlyAddresses && !op->getResult(0).use_empty()) {
        addressOps.insert(op);
        changed = true;
      }
    }
  }
}

/// `v`, an integer or index scalar, as `type`.
static Value castInteger(OpBuilder &b, Location l, Value v, Type type) {
  if (v.getType() == type)
    return v;
  if (v.getType().isIndex() || type.isIndex())
    return b.create<arith::IndexCastOp>(l, type, v);
  if (v.getType().getIntOrFloatBitWidth() > type.getIntOrFloatBitWidth())
    return b.create<arith::TruncIOp>(l, type, v);
  return b.create<arith::ExtSIOp>(l, type, v);
}

FailureOr<Value>
EntryLowering::startValue(Operation *op, const BoxAccess::Start &s, Type type) {
  Location l = loc(op);
  auto constant = [&](int64_t v) -> Value {
    return type.isIndex() ? indexConstant(v)
                          : b.create<arith::ConstantIntOp>(l, v, type);
  };
  Value c = s.constant || s.scalars.empty() ? constant(s.constant) : Value();
  for (Value scalar : s.scalars) {
    FailureOr<Value> v = lookup(op, scalar);
    if (failed(v))
      return failure();
    Value term = castInteger(b, l, *v, type);
    c = c ? b.create<arith::AddIOp>(l, c, term).getResult() : term;
  }
  for (Value scalar : s.subtracted) {
    FailureOr<Value> v = lookup(op, scalar);
    if (failed(v))
      return failure();
    c = b.create<arith::SubIOp>(l, c, castInteger(b, l, *v, type));
  }
  return c;
}

FailureOr<SmallVector<Value>>
EntryLowering::boxAccessCoordinates(Operation *op, const BoxAccess &a) {
  SmallVector<Value> coords;
  for (const auto &s : a.start) {
    FailureOr<Value> c = startValue(op, s, b.getIndexType());
    if (failed(c))
      return failure();
    coords.push_back(*c);
  }
  return coords;
}

Value EntryLowering::indexTile(Operation *op, Value start,
                               RankedTensorType i32Tile,
                               ArrayRef<int64_t> tileShape, int64_t tileDim) {
  Location l = loc(op);
  Value index = b.create<tensor::SplatOp>(l, start, i32Tile);
  if (tileDim < 0)
    return index;
  // Registers drop the tile's unit dimensions.
  int64_t along = llvm::count_if(tileShape.take_front(tileDim),
                                 [](int64_t n) { return n != 1; });
  Value iota = b.create<tileas::IotaOp>(l, i32Tile, along);
  return b.create<arith::AddIOp>(l, iota, index);
}

/// The array's stride argument, or cuTile's unit stride.
Value EntryLowering::strideValue(Operation *op, unsigned param,
                                 ArrayRef<int64_t> strides, int64_t d) {
  if (!ShapedType::isDynamic(strides[d]))
    return indexConstant(strides[d]);
  return b.create<arith::IndexCastOp>(
      loc(op), b.getIndexType(),
      func.getArgument(shapeArg(param, ArrayPart::Stride, d)));
}

/// Where the threads' accesses stop.
Value EntryLowering::boundValue(Operation *op, unsigned param, int64_t d) {
  return b.create<arith::IndexCastOp>(
      loc(op), b.getIndexType(),
      func.getArgument(shapeArg(param, ArrayPart::Shape, d)));
}

/// An index that is no Axis, as the i32 register tile of the data's shape:
/// the lowered integer tile (positions), spread over the dimensions the
/// offsets broadcast it to.
FailureOr<Value> EntryLowering::generalIndexTile(Operation *op, Value index,
                                                 tileir::TileType tile,
                                                 RankedTensorType to) {
  FailureOr<Value> lowered = lookup(op, index);
  if (failed(lowered))
    return failure();
  if (!isPositionOp(lowered->getDefiningOp()))
    return op->emitError("a gather's or scatter's index that is not computed "
                         "from positions (indices loaded from memory, as an "
                         "embedding's ids or MoE's routing) is not lowered: "
                         "the threads read positions"),
           failure();
  if (lowered->getType() == to)
    return lowered;
  auto from = cast<tileir::TileType>(index.getType());
  auto vector = dyn_cast<RankedTensorType>(lowered->getType());
  if (!vector || from.getRank() != tile.getRank())
    return op->emitError("a gather's or scatter's index is lowered by the "
                         "threads only as positions of the tile's rank"),
           failure();
  return spreadPositions(op, *lowered, to, addedDimensions(from, tile));
}

FailureOr<EntryLowering::ThreadAccess>
EntryLowering::threadAccess(Operation *op, const BoxAccess &a,
                            tileir::TileType tile) {
  auto regs = dyn_cast<RankedTensorType>(registerType(tile));
  if (!regs)
    return op->emitError("a gather or scatter of one element that TMA "
                         "cannot move is not lowered"),
           failure();
  Location l = loc(op);
  ThreadAccess t;
  t.ptr = func.getArgument(pointerArgs.at(a.param));
  auto i32Tile = RankedTensorType::get(regs.getShape(), b.getI32Type());
  for (auto [d, s] : llvm::enumerate(a.start)) {
    if (s.general) {
      FailureOr<Value> index = generalIndexTile(op, s.general, tile, i32Tile);
      if (failed(index))
        return failure();
      t.indices.push_back(*index);
      t.strides.push_back(strideValue(op, a.param, a.strides, d));
      t.bounds.push_back(boundValue(op, a.param, d));
      continue;
    }
    FailureOr<Value> c = startValue(op, s, b.getI32Type());
    if (failed(c))
      return failure();
    t.indices.push_back(indexTile(op, *c, i32Tile, tile.getShape(), s.tileDim));
    t.strides.push_back(strideValue(op, a.param, a.strides, d));
    t.bounds.push_back(boundValue(op, a.param, d));
  }
  for (Value m : a.masks) {
    FailureOr<Value> lowered = lookup(op, m);
    if (failed(lowered))
      return failure();
    if (lowered->getType() != i32Tile.clone(b.getI1Type()))
      return op->emitError("a gather's or scatter's mask is not of the "
                           "tile's shape in registers"),
             failure();
    t.mask = t.mask ? b.create<arith::AndIOp>(l, t.mask, *lowered).getResult()
                    : *lowered;
  }
  return t;
}

LogicalResult EntryLowering::lowerGather(tileir::LoadPtrTkoOp op) {
  reportHints(op, op.getOptimizationHintsAttr());
  const BoxAccess &a = boxAccesses.at(op);
  if (a.threads) {
    FailureOr<ThreadAccess> t = threadAccess(op, a, op.getResult().getType());
    if (failed(t))
      return failure();
    auto regs = cast<RankedTensorType>(
        registerType(cast<tileir::TileType>(op.getResult().getType())));
    Type elem = regs.getElementType();
    if (!isa<FloatType>(elem) && !elem.isSignlessInteger(32))
      return op.emitError("a gather of ")
                 << elem << " is not lowered: the threads read floats and i32",
             failure();
    TypedAttr pad = a.padding ? a.padding
                    : isa<FloatType>(elem)
                        ? TypedAttr(b.getFloatAttr(elem, 0.0))
                        : TypedAttr(b.getIntegerAttr(elem, 0));
    map(op.getResult(),
        b.create<tileas::GlobalGatherOp>(loc(op), regs, t->ptr, t->indices,
                                         t->strides, t->bounds, t->mask, pad));
    return success();
  }
  if (a.element)
    return gatherElement(op, a);
  FailureOr<SmallVector<Value>> coords = boxAccessCoordinates(op, a);
  if (failed(coords))
    return failure();
  Value desc = func.getArgument(descArgs.at(std::make_pair(a.param, a.box)));
  FailureOr<tileas::SmemType> smem =
      smemTileOf(op, cast<tileas::TmaDescType>(desc.getType()));
  if (failed(smem))
    return failure();
  // The extents past the box's start, per SMEM tile dimension (the box
  // without its leading unit dimensions), made before the load as a
  // view's padded load makes them.
  std::optional<Padded> padded;
  if (a.padding)
    padded = Padded{extentsPast(op, a.param, *coords, smem->getRank()),
                    cast<FloatAttr>(a.padding)};
  Value tile = b.create<tileas::TmaLoadOp>(
      loc(op), *smem, desc, *coords, Value(), IntegerAttr(), IntegerAttr());
  if (padded)
    paddedSmem[tile] = std::move(*padded);
  map(op.getResult(), tile);
  if (a.masks.empty())
    return success();
  // The elements the mask leaves out are the padding.
  FailureOr<Value> loaded = registers(op, op.getResult());
  if (failed(loaded))
    return failure();
  Value keep;
  for (Value m : a.masks) {
    FailureOr<Value> lowered = lookup(op, m);
    if (failed(lowered))
      return failure();
    keep = keep ? b.create<arith::AndIOp>(loc(op), keep, *lowered).getResult()
                : *lowered;
  }
  FailureOr<Value> pad = registers(op, op.getPaddingValue());
  if (failed(pad))
    return failure();
  Type maskType = b.getI1Type();
  if (auto t = dyn_cast<RankedTensorType>(loaded->getType()))
    maskType = t.clone(b.getI1Type());
  if (keep.getType() != maskType || pad->getType() != loaded->getType())
    return op.emitError("a gather's mask or padding is not of the gathered "
                        "tile's shape in registers"),
           failure();
  map(op.getResult(),
      b.create<arith::SelectOp>(loc(op), keep, *loaded, *pad).getResult());
  return success();
}

/// A gather of one element: every thread reads it where the bounds and the
/// mask's other conjuncts hold, the padding elsewhere.
LogicalResult EntryLowering::gatherElement(tileir::LoadPtrTkoOp op,
                                           const BoxAccess &a) {
  Type scalar = registerType(cast<tileir::TileType>(op.getResult().getType()));
  if (!scalar.isIntOrFloat())
    return op.emitError("a gather of one element is lowered only as a "
                        "scalar in registers");
  FailureOr<SmallVector<Value>> coords = boxAccessCoordinates(op, a);
  if (failed(coords))
    return failure();
  auto [offset, inside] = elementOffset(op, *a.element, *coords);
  for (Value m : a.masks) {
    FailureOr<Value> lowered = lookup(op, m);
    if (failed(lowered))
      return failure();
    if (lowered->getType() != inside.getType())
      return op.emitError("a gather of one element whose mask is not a "
                          "scalar is not lowered");
    inside = b.create<arith::AndIOp>(loc(op), inside, *lowered);
  }
  Value loaded = b.create<tileas::GlobalLoadOp>(
      loc(op), scalar, func.getArgument(a.element->ptrArg), offset, inside);
  if (a.padding && !isZero(a.padding)) {
    Value pad = b.create<arith::ConstantOp>(loc(op), a.padding);
    if (pad.getType() != scalar)
      return op.emitError("a gather of one element padded with a constant "
                          "of another type is not lowered");
    loaded = b.create<arith::SelectOp>(loc(op), inside, loaded, pad);
  }
  map(op.getResult(), loaded);
  return success();
}

LogicalResult EntryLowering::lowerScatter(tileir::StorePtrTkoOp op) {
  reportHints(op, op.getOptimizationHintsAttr());
  const BoxAccess &a = boxAccesses.at(op);
  if (a.threads) {
    FailureOr<Value> regs = registers(op, op.getValue());
    if (failed(regs))
      return failure();
    FailureOr<ThreadAccess> t = threadAccess(op, a, op.getValue().getType());
    if (failed(t))
      return failure();
    b.create<tileas::GlobalScatterOp>(loc(op), *regs, t->ptr, t->indices,
                                      t->strides, t->bounds, t->mask,
                                      StringAttr());
    return success();
  }
  if (a.element) {
    FailureOr<SmallVector<Value>> coords = boxAccessCoordinates(op, a);
    if (failed(coords))
      return failure();
    return storeElement(op, op.getValue(), *a.element, *coords);
  }
  Value desc = func.getArgument(descArgs.at(std::make_pair(a.param, a.box)));
  FailureOr<tileas::SmemType> smem =
      smemTileOf(op, cast<tileas::TmaDescType>(desc.getType()));
  if (failed(smem))
    return failure();
  FailureOr<Value> regs = registers(op, op.getValue());
  if (failed(regs))
    return failure();
  FailureOr<SmallVector<Value>> coords = boxAccessCoordinates(op, a);
  if (failed(coords))
    return failure();
  Value staged = b.create<tileas::SmemStoreOp>(loc(op), *smem, *regs, Value());
  b.create<tileas::TmaStoreOp>(loc(op), staged, desc, *coords);
  return success();
}

/// The combine tileas.global_scatter makes of an atomic's mode, or empty.
static StringRef combineOf(tileir::AtomicRMWMode mode, Type elem) {
  bool f32 = elem.isF32(), i32 = elem.isSignlessInteger(32);
  switch (mode) {
  case tileir::AtomicRMWMode::addf:
    return f32 ? "add" : "";
  case tileir::AtomicRMWMode::add:
    return i32 ? "add" : "";
  case tileir::AtomicRMWMode::xchg:
    return f32 || i32 ? "xchg" : "";
  case tileir::AtomicRMWMode::max:
    return i32 ? "max" : "";
  case tileir::AtomicRMWMode::min:
    return i32 ? "min" : "";
  case tileir::AtomicRMWMode::And:
    return i32 ? "and" : "";
  case tileir::AtomicRMWMode::Or:
    return i32 ? "or" : "";
  case tileir::AtomicRMWMode::Xor:
    return i32 ? "xor" : "";
  default: // umax, umin
    return "";
  }
}

LogicalResult EntryLowering::lowerAtomic(tileir::AtomicRMWTkoOp op) {
  if (!op.getResult().use_empty())
    return op.emitError("an atomic whose old values the kernel reads is not "
                        "lowered: the threads' atomics only update");
  if (op.getMemoryScope() == tileir::MemoryScope::sys)
    return op.emitError("an atomic of system scope is not lowered: the "
                        "threads' atomics are of the device");
  auto tile = cast<tileir::TileType>(op.getArg().getType());
  StringRef combine = combineOf(op.getMode(), tile.getElementType());
  if (combine.empty())
    return op.emitError("an atomic ")
               << tileir::stringifyAtomicRMWMode(op.getMode()) << " of "
               << tile.getElementType()
               << " is not lowered: the threads add f32 and i32, exchange f32 "
                  "and i32, and take the signed maximum or minimum and the bit "
                  "operations of i32",
           failure();
  const BoxAccess &a = boxAccesses.at(op);
  FailureOr<Value> regs = registers(op, op.getArg());
  if (failed(regs))
    return failure();
  tileir::MemoryOrdering order = op.getMemoryOrderingSemantics();
  bool fenced = order != tileir::MemoryOrdering::weak &&
                order != tileir::MemoryOrdering::relaxed;
  if (a.element) {
    // One element: one thread of the agent combines it (a value every
    // thread holds alike, as a one-element store's).
    if (!regs->getType().isIntOrFloat())
      return op.emitError("an atomic of one element is lowered only for a "
                          "scalar in registers"),
             failure();
    if (!a.masks.empty())
      return op.emitError("an atomic of one element under a mask other than "
                          "the array's bounds is not lowered"),
             failure();
    FailureOr<SmallVector<Value>> coords = boxAccessCoordinates(op, a);
    if (failed(coords))
      return failure();
    auto [offset, inside] = elementOffset(op, *a.element, *coords);
    b.create<tileas::GlobalStoreOp>(loc(op), *regs,
                                    func.getArgument(a.element->ptrArg), offset,
                                    inside, b.getStringAttr(combine), fenced);
    return success();
  }
  FailureOr<ThreadAccess> t = threadAccess(op, a, tile);
  if (failed(t))
    return failure();
  // A scalar update (`ct.atomic_add(h, bins, 1)`) is one per element.
  auto type = cast<RankedTensorType>(registerType(tile));
  Value value = *regs;
  if (value.getType() != type)
    value = b.create<tensor::SplatOp>(loc(op), value, type);
  // Acquire and release order the thread's other accesses around its
  // atomics: a fence of the GPU on either side is at least that.
  b.create<tileas::GlobalScatterOp>(loc(op), value, t->ptr, t->indices,
                                    t->strides, t->bounds, t->mask,
                                    b.getStringAttr(combine), fenced);
  return success();
}
