//===- TileASOps.cpp - tileas op verifiers --------------------------------===//
//
// Verifiers for the rules the ODS constraints cannot express: shapes that
// must agree across operands, and the unit, payload and hardware-limit rules
// of the materializer's pipes, mutexes and agents. Messages print tiles as
// `128x64xbf16` so they read the same whether the tile is smem, tmem, a box
// or a tensor.
//
//===----------------------------------------------------------------------===//

#include "ir/TileASDialect.h"

#include "tilepipe/layout/mma_shapes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;
using namespace mlir::tileas;

static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  return text;
}

static std::string formatTile(ShapedType type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (int64_t size : type.getShape())
    os << size << 'x';
  os << type.getElementType();
  return text;
}

static bool isSameTile(ShapedType lhs, ShapedType rhs) {
  return lhs.getShape() == rhs.getShape() &&
         lhs.getElementType() == rhs.getElementType();
}

/// Whether `tile` is the box of `desc`, or the box with unit dimensions
/// other than the innermost dropped (a batch of one: the (1, M, K) box of a
/// batched matmul's rank-3 tensor lands as the MxK tile an MMA reads; the
/// (1, H, 1, D) box of one token's heads as an HxD tile).
static bool isBoxTile(ShapedType tile, TmaDescType desc) {
  if (isSameTile(tile, desc))
    return true;
  ArrayRef<int64_t> box = desc.getShape();
  if (tile.getElementType() != desc.getElementType() ||
      tile.getRank() >= desc.getRank())
    return false;
  // The tile keeps the box's dimensions in order; the others are 1.
  ArrayRef<int64_t> shape = tile.getShape();
  size_t t = 0;
  for (auto [d, n] : llvm::enumerate(box)) {
    size_t leftInBox = box.size() - d, leftInTile = shape.size() - t;
    if (t < shape.size() && n == shape[t] &&
        (n != 1 || leftInBox == leftInTile))
      ++t;
    else if (n != 1)
      return false;
  }
  return t == shape.size();
}

static LogicalResult verifyCoordinateCount(Operation *op, ValueRange coords,
                                           int64_t rank, StringRef what) {
  if (static_cast<int64_t>(coords.size()) == rank)
    return success();
  return op->emitOpError("expects one coordinate per ")
         << what << " dimension (" << rank << "), got " << coords.size();
}

//===----------------------------------------------------------------------===//
// Copies.
//===----------------------------------------------------------------------===//

LogicalResult TmaLoadOp::verify() {
  TmaDescType desc = getDesc().getType();
  if (failed(verifyCoordinateCount(*this, getCoords(), desc.getRank(),
                                   "descriptor")))
    return failure();
  if (!isBoxTile(getResult().getType(), desc))
    return emitOpError("expects the result tile ")
           << formatTile(getResult().getType())
           << " to match the descriptor box " << formatTile(desc);
  return success();
}

LogicalResult TmaStoreOp::verify() {
  TmaDescType desc = getDesc().getType();
  if (failed(verifyCoordinateCount(*this, getCoords(), desc.getRank(),
                                   "descriptor")))
    return failure();
  if (!isBoxTile(getBuffer().getType(), desc))
    return emitOpError("expects the stored tile ")
           << formatTile(getBuffer().getType())
           << " to match the descriptor box " << formatTile(desc);
  return success();
}

LogicalResult CpAsyncOp::verify() {
  auto src = cast<MemRefType>(getSrc().getType());
  SmemType tile = getResult().getType();
  if (failed(
          verifyCoordinateCount(*this, getCoords(), src.getRank(), "source")))
    return failure();
  if (tile.getRank() != src.getRank())
    return emitOpError("expects the tile rank (")
           << tile.getRank() << ") to match the source rank (" << src.getRank()
           << ")";
  if (tile.getElementType() != src.getElementType())
    return emitOpError("expects the tile element type ")
           << tile.getElementType() << " to match the source element type "
           << src.getElementType();
  for (auto [i, tileSize, srcSize] :
       llvm::enumerate(tile.getShape(), src.getShape()))
    if (!ShapedType::isDynamic(srcSize) && tileSize > srcSize)
      return emitOpError("expects tile dimension ")
             << i << " (" << tileSize << ") to fit in the source dimension ("
             << srcSize << ")";
  return success();
}

/// A UE8M0 scale factor (an unsigned biased exponent byte, 2^(e - 127)). MLIR
/// 19 has no such float type, so the IR writes it `ui8`.
static bool isUE8M0(Type t) {
#if LLVM_VERSION_MAJOR >= 20
  if (isa<Float8E8M0FNUType>(t))
    return true;
#endif
  return t.isUnsignedInteger(8);
}

/// The four register/SMEM/TMEM moves copy a tile unchanged.
static LogicalResult verifyTileMove(Operation *op) {
  auto source = cast<ShapedType>(op->getOperand(0).getType());
  auto result = cast<ShapedType>(op->getResult(0).getType());
  if (isSameTile(source, result))
    return success();
  return op->emitOpError("expects the result tile ")
         << formatTile(result) << " to match the source tile "
         << formatTile(source);
}

LogicalResult TmemLoadOp::verify() { return verifyTileMove(*this); }
// `$source (into $dst (as type($dst))?)? attr-dict : type($source) ->
// type($result)`; the destination's type is printed only where it differs.
static ParseResult parseTileStore(OpAsmParser &parser, OperationState &state) {
  OpAsmParser::UnresolvedOperand source, dst;
  bool hasDst = false;
  Type dstType, sourceType, resultType;
  if (parser.parseOperand(source))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("into"))) {
    hasDst = true;
    if (parser.parseOperand(dst))
      return failure();
    if (succeeded(parser.parseOptionalKeyword("as")) &&
        parser.parseType(dstType))
      return failure();
  }
  if (parser.parseOptionalAttrDict(state.attributes) || parser.parseColon() ||
      parser.parseType(sourceType) || parser.parseArrow() ||
      parser.parseType(resultType))
    return failure();
  if (parser.resolveOperand(source, sourceType, state.operands))
    return failure();
  if (hasDst && parser.resolveOperand(dst, dstType ? dstType : resultType,
                                      state.operands))
    return failure();
  state.addTypes(resultType);
  return success();
}

static void printTileStore(OpAsmPrinter &p, Operation *op, Value dst) {
  p << ' ' << op->getOperand(0);
  if (dst) {
    p << " into " << dst;
    if (dst.getType() != op->getResult(0).getType())
      p << " as " << dst.getType();
  }
  p.printOptionalAttrDict(op->getAttrs());
  p << " : " << op->getOperand(0).getType() << " -> "
    << op->getResult(0).getType();
}

ParseResult TmemStoreOp::parse(OpAsmParser &parser, OperationState &state) {
  return parseTileStore(parser, state);
}
void TmemStoreOp::print(OpAsmPrinter &p) { printTileStore(p, *this, getDst()); }
ParseResult SmemStoreOp::parse(OpAsmParser &parser, OperationState &state) {
  return parseTileStore(parser, state);
}
void SmemStoreOp::print(OpAsmPrinter &p) { printTileStore(p, *this, getDst()); }

OpOperand *mlir::tileas::getIntoOperand(Operation *op) {
  MutableOperandRange into =
      TypeSwitch<Operation *, MutableOperandRange>(op)
          .Case<TmaLoadOp, CpAsyncOp, TmemStoreOp, SmemStoreOp, TmemCopyOp>(
              [](auto o) { return o.getDstMutable(); })
          .Default([](Operation *o) {
            return MutableOperandRange(o, o->getNumOperands(), 0);
          });
  return into.empty() ? nullptr : &into[0];
}

void mlir::tileas::setIntoOperand(Operation *op, Value buffer) {
  TypeSwitch<Operation *>(op)
      .Case<TmaLoadOp, CpAsyncOp, TmemStoreOp, SmemStoreOp, TmemCopyOp>(
          [&](auto o) { o.getDstMutable().assign(buffer); })
      .Default([](Operation *o) {
        llvm_unreachable("the op writes no buffer it is given");
      });
}

/// A store `into` a buffer: a pipe slot of the result's type, or (TMEM) the
/// columns of another tile that hold the result's (P written over S).
static LogicalResult verifyStoreInto(Operation *op, Value dst) {
  if (!dst || dst.getType() == op->getResult(0).getType())
    return success();
  auto into = dyn_cast<TmemType>(dst.getType());
  auto result = dyn_cast<TmemType>(op->getResult(0).getType());
  if (!into || !result)
    return op->emitOpError("expects the destination to be the result's "
                           "buffer, got ")
           << dst.getType();
  // The destination (S) keeps its own layout; the result is laid out as
  // its use needs it (P packed for an MMA's A operand).
  int64_t intoCols = getTmemColumns(dst),
          resultCols = getTmemColumns(op->getResult(0));
  if (into.getShape().front() != result.getShape().front() ||
      intoCols < resultCols)
    return op->emitOpError("expects the destination's ")
           << intoCols << " columns of " << into.getShape().front()
           << " lanes to hold the result's " << resultCols << " columns of "
           << result.getShape().front() << " lanes";
  return success();
}

LogicalResult TmemStoreOp::verify() {
  if (failed(verifyTileMove(*this)))
    return failure();
  return verifyStoreInto(*this, getDst());
}
/// A tmem_copy moves a tile unchanged, or UE8M0 block-scale factors in
/// their atom form: the SMEM tile A x 32J x 16 bytes (CUTLASS's 512-byte
/// atoms of 128 rows x 4 k-blocks: A row blocks, J groups of 4 k-blocks,
/// each line 16 bytes, so that TMA can load it) becomes the TMEM tile of
/// 128 x 4AJ factors the UMMA's scale operands take (docs/cuda.md).
LogicalResult TmemCopyOp::verify() {
  auto source = cast<ShapedType>(getSource().getType());
  TmemType result = getResult().getType();
  if (isUE8M0(source.getElementType()) &&
      source.getElementType() == result.getElementType() &&
      source.getRank() == 3) {
    ArrayRef<int64_t> s = source.getShape();
    if (s[1] % 32 != 0 || s[2] != 16)
      return emitOpError("expects scale factors in the atom form Ax(32J)x16, "
                         "got ")
             << formatShape(s);
    int64_t atoms = s[0], groups = s[1] / 32;
    if (result.getShape() != ArrayRef<int64_t>{128, 4 * atoms * groups})
      return emitOpError("expects the ")
             << formatShape(s) << " scale-factor atoms ("
             << atoms * 128 << " rows x " << 4 * groups
             << " k-blocks) to become a 128x" << 4 * atoms * groups
             << " TMEM tile, got " << formatShape(result.getShape());
    return success();
  }
  return verifyTileMove(*this);
}
/// `lanes = L` splits each row of the SMEM tile over L register rows: an
/// R x C tile with R * L = 128 is 128 x (C / L); a vector of C (loads
/// only) is 128 x (C / L), every L-th row alike; a vector of R (stores
/// only: a per-row statistic) is a vector of 128, L threads a row.
static LogicalResult verifyLanes(Operation *op, ShapedType smem,
                                 ShapedType regs, int64_t lanes,
                                 bool vectorAllowed) {
  auto fail = [&]() {
    return op->emitOpError("with lanes = ")
           << lanes << " expects the register tile to be 128 x (C / " << lanes
           << ") for an R x C tile with R * " << lanes
           << " = 128, a vector of 128 for one of R"
           << (vectorAllowed ? ", or a vector of C" : "") << ", got "
           << formatTile(smem) << " and " << formatTile(regs);
  };
  if (smem.getElementType() != regs.getElementType() ||
      regs.getShape()[0] != 128 || !llvm::isPowerOf2_64(lanes) || lanes > 128)
    return fail();
  // A per-row vector of a split tile: each of the R rows' values held by
  // its L threads.
  if (regs.getRank() == 1 && smem.getRank() == 1 &&
      smem.getShape()[0] * lanes == 128)
    return success();
  if (regs.getRank() != 2)
    return fail();
  int64_t k = regs.getShape()[1];
  if (smem.getRank() == 2 && smem.getShape()[0] * lanes == 128 &&
      smem.getShape()[1] == k * lanes)
    return success();
  if (vectorAllowed && smem.getRank() == 1 && smem.getShape()[0] == k * lanes)
    return success();
  return fail();
}

LogicalResult SmemLoadOp::verify() {
  ShapedType source = getSource().getType();
  if (getValid().empty() != !getPaddingAttr())
    return emitOpError("expects valid extents and a padding value together");
  if (!getValid().empty() && int64_t(getValid().size()) != source.getRank())
    return emitOpError("expects one valid extent per source dimension (")
           << source.getRank() << "), got " << getValid().size();
  if (getPaddingAttr() &&
      getPaddingAttr().getType() != source.getElementType())
    return emitOpError("expects a padding value of the element type ")
           << source.getElementType() << ", got "
           << getPaddingAttr().getType();
  ShapedType read = source;
  if (getTransposed()) {
    if (source.getRank() != 2)
      return emitOpError("transposed expects a 2-D source, got ")
             << formatTile(source);
    read = source.clone({source.getShape()[1], source.getShape()[0]});
  }
  if (std::optional<int64_t> lanes = getLanes())
    return verifyLanes(*this, read, getResult().getType(), *lanes,
                       /*vectorAllowed=*/!getTransposed());
  if (!isSameTile(read, getResult().getType()))
    return emitOpError("expects the result tile ")
           << formatTile(getResult().getType()) << " to match the "
           << (getTransposed() ? "transposed " : "") << "source tile "
           << formatTile(read);
  return success();
}
LogicalResult SmemStoreOp::verify() {
  if (std::optional<int64_t> lanes = getLanes()) {
    if (failed(verifyLanes(*this, getResult().getType(),
                           getSource().getType(), *lanes,
                           /*vectorAllowed=*/false)))
      return failure();
  } else if (failed(verifyTileMove(*this))) {
    return failure();
  }
  return verifyStoreInto(*this, getDst());
}

LogicalResult GlobalLoadOp::verify() {
  if (getType() != getSrc().getType().getElementType())
    return emitOpError("expects a result of the array's element type ")
           << getSrc().getType().getElementType() << ", got " << getType();
  return success();
}

/// An atomic's `combine` and `fenced` (global_store, global_scatter): add
/// and xchg on f32 or i32, the others on i32; `fenced` only with one.
static LogicalResult verifyCombine(Operation *op,
                                   std::optional<StringRef> combine,
                                   bool fenced, Type elem) {
  if (combine) {
    bool i32 = elem.isSignlessInteger(32), f32 = elem.isF32();
    bool ok = *combine == "add" || *combine == "xchg" ? i32 || f32
              : llvm::is_contained({"max", "min", "and", "or", "xor"}, *combine)
                  ? i32
                  : false;
    if (!ok)
      return op->emitOpError("expects combine = add or xchg on f32 or i32, "
                             "or max, min, and, or, xor on i32; got ")
             << *combine << " on " << elem;
  } else if (fenced) {
    return op->emitOpError("expects `fenced` only with `combine`");
  }
  return success();
}

LogicalResult GlobalStoreOp::verify() {
  if (getValue().getType() != getDst().getType().getElementType())
    return emitOpError("expects a value of the array's element type ")
           << getDst().getType().getElementType() << ", got "
           << getValue().getType();
  return verifyCombine(*this, getCombine(), getFenced(), getValue().getType());
}

/// What global_gather and global_scatter share: one index tile per
/// dimension of the array, each (and the mask) of the data tile's shape,
/// and a stride and a bound per dimension.
static LogicalResult verifyElementAccess(Operation *op, MemRefType array,
                                         RankedTensorType data,
                                         ValueRange indices, ValueRange strides,
                                         ValueRange bounds, Value mask) {
  int64_t rank = array.getRank();
  if (int64_t(indices.size()) != rank || int64_t(strides.size()) != rank ||
      int64_t(bounds.size()) != rank)
    return op->emitOpError("expects one index tile, stride and bound per "
                           "dimension of the array (")
           << rank << "), got " << indices.size() << ", " << strides.size()
           << " and " << bounds.size();
  if (data.getElementType() != array.getElementType())
    return op->emitOpError("expects a tile of the array's element type ")
           << array.getElementType() << ", got " << data.getElementType();
  for (Value v : indices)
    if (cast<ShapedType>(v.getType()).getShape() != data.getShape())
      return op->emitOpError("expects index tiles of the data tile's shape");
  if (mask && cast<ShapedType>(mask.getType()).getShape() != data.getShape())
    return op->emitOpError("expects a mask of the data tile's shape");
  return success();
}

LogicalResult GlobalGatherOp::verify() {
  auto elem = getType().getElementType();
  if (getPadding().getType() != elem)
    return emitOpError("expects a padding of the element type ") << elem;
  return verifyElementAccess(*this, getSrc().getType(), getType(), getIndices(),
                             getStrides(), getBounds(), getMask());
}

LogicalResult GlobalScatterOp::verify() {
  if (failed(verifyCombine(*this, getCombine(), getFenced(),
                           getValue().getType().getElementType())))
    return failure();
  return verifyElementAccess(*this, getDst().getType(), getValue().getType(),
                             getIndices(), getStrides(), getBounds(),
                             getMask());
}

//===----------------------------------------------------------------------===//
// UMMA.
//===----------------------------------------------------------------------===//

/// The FP8/FP6/FP4 element types of the tensor core's kind::f8f6f4 family:
/// E4M3 and E5M2. MLIR 19 has no FP6, FP4 or UE8M0 type; MLIR 20 adds
/// f6E2M3FN, f6E3M2FN, f4E2M1FN and f8E8M0FNU, accepted when built with it.
static bool isBlockScalableFloat(Type t) {
  if (isa<Float8E4M3FNType, Float8E5M2Type>(t))
    return true;
#if LLVM_VERSION_MAJOR >= 20
  if (isa<Float6E2M3FNType, Float6E3M2FNType, Float4E2M1FNType>(t))
    return true;
#endif
  return false;
}


/// Block scaling (tcgen05.mma kind::mxf8f6f4 / kind::mxf4): one UE8M0 factor
/// per 32 elements of K per row of A and of B, in tensor memory. scale_a is
/// M x K/32; scale_b is N x K/32, and rows above the 128 TMEM lanes fold into
/// further column blocks (N = 256 gives 128 x 2K/32).
static LogicalResult verifyBlockScale(UmmaOp op, int64_t m, int64_t n,
                                      int64_t k) {
  constexpr int64_t kScaleBlock = 32, kLanes = 128;
  Value sfa = op.getScaleA(), sfb = op.getScaleB();
  if (!sfa && !sfb)
    return success();
  if (!sfa || !sfb)
    return op.emitOpError("expects both scale_a and scale_b or neither, got "
                          "only ")
           << (sfa ? "scale_a" : "scale_b");
  Type elem = cast<ShapedType>(op.getA().getType()).getElementType();
  if (!isBlockScalableFloat(elem))
    return op.emitOpError("expects FP8 (f8E4M3FN, f8E5M2) or FP4 A and B "
                          "with scale factors, got ")
           << elem;
  Type accElem = op.getAcc().getType().getElementType();
  if (!accElem.isF32())
    return op.emitOpError("expects an f32 accumulator with scale factors, "
                          "got ")
           << accElem;
  if (k % kScaleBlock != 0)
    return op.emitOpError("expects K (")
           << k << ") to be a multiple of the scale block (" << kScaleBlock
           << ")";
  auto check = [&](StringRef name, Value sf, StringRef dim,
                   int64_t rows) -> LogicalResult {
    TmemType type = cast<TmemType>(sf.getType());
    if (!isUE8M0(type.getElementType()))
      return op.emitOpError("expects ")
             << name << " to hold UE8M0 factors (ui8), got "
             << type.getElementType();
    int64_t lanes = std::min(rows, kLanes);
    int64_t cols = (rows + kLanes - 1) / kLanes * (k / kScaleBlock);
    if (type.getShape() != ArrayRef<int64_t>{lanes, cols})
      return op.emitOpError("expects ")
             << name << " to be " << lanes << 'x' << cols << " (" << dim
             << " = " << rows << " rows of K/" << kScaleBlock << " = "
             << k / kScaleBlock << " factors"
             << (rows > kLanes ? ", rows above 128 in further column blocks"
                               : "")
             << "), got " << formatShape(type.getShape());
    return success();
  };
  if (failed(check("scale_a", sfa, "M", m)))
    return failure();
  return check("scale_b", sfb, "N", n);
}

namespace {
/// The tcgen05.mma kind that A and B of one element type issue.
struct MmaKindOf {
  tp::MmaKind kind;
  bool i8; // kind::i8, which the runtime's MmaKind does not name
  StringRef name;
};
} // namespace

static std::optional<MmaKindOf> mmaKindOf(Type elem, bool scaled) {
  using tp::MmaKind;
  if (elem.isF16() || elem.isBF16())
    return MmaKindOf{MmaKind::F16, false, "kind::f16"};
  if (elem.isF32())
    return MmaKindOf{MmaKind::TF32, false, "kind::tf32"};
  if (isBlockScalableFloat(elem))
    return scaled ? MmaKindOf{MmaKind::MXF8F6F4, false, "kind::mxf8f6f4"}
                  : MmaKindOf{MmaKind::F8F6F4, false, "kind::f8f6f4"};
  if (elem.isInteger(8))
    return MmaKindOf{MmaKind::F8F6F4, true, "kind::i8"};
  return std::nullopt;
}

/// The ISA's shape and accumulator rules of tcgen05.mma (cta_group::1,
/// dense), from layout/mma_shapes.h, which the runtime's static_asserts
/// share: each message names the rule it applies.
static LogicalResult verifyMmaShape(UmmaOp op, Type elem, Type accElem,
                                    int64_t m, int64_t n, int64_t k) {
  namespace rule = tp::mma_shape;
  std::optional<MmaKindOf> kind = mmaKindOf(elem, bool(op.getScaleA()));
  if (!kind)
    return op.emitOpError("expects A and B of a tcgen05.mma type (f16, bf16, "
                          "f32 read as tf32, f8E4M3FN, f8E5M2 or i8), got ")
           << elem;
  auto broken = [&](StringRef what, int64_t got, const char *text) {
    return op.emitOpError("expects a ")
           << kind->name << " MMA of a legal " << what << ", got " << what
           << " = " << got << " (" << m << 'x' << n << 'x' << k
           << " MxNxK); rule: " << text;
  };
  if (!rule::m_ok(kind->kind, int(m)))
    return broken("M", m, TP_MMA_RULE_M);
  if (!(kind->i8 ? rule::i8_n_ok(int(n)) : rule::n_ok(int(n))))
    return broken("N", n, TP_MMA_RULE_N);
  // K per instruction follows the kind: FP6/FP4 operands of kind::f8f6f4
  // sit in 8-bit containers.
  int bits = kind->kind == tp::MmaKind::F16    ? 16
             : kind->kind == tp::MmaKind::TF32 ? 32
                                               : 8;
  if (!rule::k_ok(int(k), bits))
    return broken("K", k, TP_MMA_RULE_K);
  // An MN-major operand's rows run along M or N, and the canonical layouts
  // build them from core matrices 16 bytes wide (8-bit M or N: a multiple
  // of 16).
  for (auto [major, what, extent] : {std::tuple(op.getAMnMajor(), "M", m),
                                     std::tuple(op.getBMnMajor(), "N", n)})
    if (major && (extent * bits / 8) % 16 != 0)
      return op.emitOpError("expects an MN-major operand's ")
             << what << " (" << extent << " x " << bits
             << " bits) to span whole 16-byte core-matrix rows; rule: "
                "MN-major canonical layouts are made of 8 x 16-byte core "
                "matrices";
  bool accOk = kind->i8 ? accElem.isInteger(32)
                        : accElem.isF32() ||
                              (accElem.isF16() &&
                               rule::f16_acc_ok(kind->kind, elem.isBF16()));
  if (!accOk)
    return op.emitOpError("expects a ")
           << kind->name << " MMA on " << elem
           << " operands to accumulate in a legal type, got " << accElem
           << "; rule: " << TP_MMA_RULE_ACC;
  return success();
}

LogicalResult mlir::tileas::verifyUnsignedOperands(Operation *mma, Type a,
                                                   Type b, bool aUnsigned,
                                                   bool bUnsigned) {
  for (auto [on, what, elem] :
       {std::tuple(aUnsigned, "A", a), std::tuple(bUnsigned, "B", b)})
    if (on && !elem.isSignlessInteger(8))
      return mma->emitOpError("expects `")
             << (*what == 'A' ? "a" : "b")
             << "_unsigned` only on an 8-bit integer operand, got " << what
             << " of " << elem;
  return success();
}

LogicalResult UmmaOp::verify() {
  auto a = cast<ShapedType>(getA().getType());
  SmemType b = getB().getType();
  TmemType acc = getAcc().getType();
  if (failed(verifyUnsignedOperands(*this, a.getElementType(),
                                    b.getElementType(), getAUnsigned(),
                                    getBUnsigned())))
    return failure();
  if (a.getRank() != 2)
    return emitOpError("expects A to be a rank-2 MxK tile, got ")
           << formatTile(a);
  if (b.getRank() != 2)
    return emitOpError("expects B to be a rank-2 NxK tile, got ")
           << formatTile(b);
  if (getAMnMajor() && !isa<SmemType>(a))
    return emitOpError("expects an MN-major A in shared memory (a TMEM A is "
                       "read M x K)");
  int64_t m = getMmaM(), k = getMmaK(), n = getMmaN();
  if (b.getDimSize(getBMnMajor() ? 0 : 1) != k)
    return emitOpError("expects A to be ")
           << (getAMnMajor() ? "KxM" : "MxK") << " and B "
           << (getBMnMajor() ? "KxN" : "NxK") << " with the same K, got A "
           << formatShape(a.getShape()) << ", B " << formatShape(b.getShape());
  for (auto [major, what, type] :
       {std::tuple(getAMnMajor(), "A", a), std::tuple(getBMnMajor(), "B",
                                                      cast<ShapedType>(b))})
    if (major && type.getElementTypeBitWidth() > 16)
      return emitOpError("expects an MN-major ")
             << what << " of an 8- or 16-bit type, got "
             << type.getElementType();
  if (a.getElementType() != b.getElementType())
    return emitOpError("expects A and B to have the same element type, got ")
           << a.getElementType() << " and " << b.getElementType();
  if (acc.getShape() != ArrayRef<int64_t>{m, n})
    return emitOpError("expects the accumulator to be MxN = ")
           << m << 'x' << n << ", got " << formatShape(acc.getShape());

  Type accElem = acc.getElementType();
  if (!accElem.isF32() && !accElem.isF16() && !accElem.isInteger(32))
    return emitOpError("expects the accumulator element type to be f32, f16 "
                       "or i32, got ")
           << accElem;
  // Integer MMA accumulates in i32 and float MMA in f32 or f16.
  if (isa<IntegerType>(accElem) != isa<IntegerType>(a.getElementType()))
    return emitOpError("expects an i32 accumulator for integer A and B and an "
                       "f32 or f16 accumulator for float A and B, got ")
           << a.getElementType() << " operands and an " << accElem
           << " accumulator";
  if (getResult().getType() != acc)
    return emitOpError("expects the result type to equal the accumulator "
                       "type ")
           << acc << ", got " << getResult().getType();
  if (failed(verifyBlockScale(*this, m, n, k)))
    return failure();
  return verifyMmaShape(*this, a.getElementType(), accElem, m, n, k);
}

//===----------------------------------------------------------------------===//
// SIMT math.
//===----------------------------------------------------------------------===//

/// Accepts `operand` if it is a full tile like `tile`, a rank-1 row broadcast
/// (one value per row, matching dimension 0) or a scalar of the element type.
static LogicalResult verifyBroadcastOperand(Operation *op, StringRef which,
                                            Type tileType, Type operand) {
  auto tile = cast<RankedTensorType>(tileType);
  Type elem = tile.getElementType();
  if (operand == elem)
    return success();
  auto tensor = dyn_cast<RankedTensorType>(operand);
  if (tensor && tensor.getElementType() == elem) {
    if (tensor.getShape() == tile.getShape())
      return success();
    if (tile.getRank() >= 1 && tensor.getRank() == 1 &&
        tensor.getDimSize(0) == tile.getDimSize(0))
      return success();
  }
  InFlightDiagnostic diag = op->emitOpError("expects the ")
                            << which << " operand to be " << tile;
  if (tile.getRank() >= 1)
    diag << ", a row broadcast "
         << RankedTensorType::get({tile.getDimSize(0)}, elem);
  diag << " or a scalar " << elem << ", got " << operand;
  // A vector along the last dimension is a per-column one (bias[n]): say
  // how to write it.
  if (tensor && tile.getRank() == 2 && tensor.getRank() == 1 &&
      tensor.getDimSize(0) == tile.getDimSize(1))
    diag << " (a vector per column is spread over the rows first: "
            "tileas.broadcast %v dimensions = [0] : "
         << tensor << " -> "
         << RankedTensorType::get(tile.getShape(), tensor.getElementType())
         << ")";
  return diag;
}

static LogicalResult verifyBinary(Operation *op) {
  return verifyBroadcastOperand(op, "second", op->getOperand(0).getType(),
                                op->getOperand(1).getType());
}

LogicalResult AddOp::verify() { return verifyBinary(*this); }
LogicalResult SubOp::verify() { return verifyBinary(*this); }
LogicalResult MulOp::verify() { return verifyBinary(*this); }
LogicalResult MaxOp::verify() { return verifyBinary(*this); }

LogicalResult FmaOp::verify() {
  Type tile = getA().getType();
  if (failed(verifyBroadcastOperand(*this, "second", tile, getB().getType())))
    return failure();
  return verifyBroadcastOperand(*this, "third", tile, getC().getType());
}

/// linalg.broadcast's rule: the result is the input with the listed
/// dimensions inserted, in order, and the same element type.
LogicalResult BroadcastOp::verify() {
  RankedTensorType input = getInput().getType(), result = getResult().getType();
  ArrayRef<int64_t> dims = getDimensions();
  if (input.getRank() + int64_t(dims.size()) != result.getRank())
    return emitOpError("expects the result rank (")
           << result.getRank() << ") to be the input rank (" << input.getRank()
           << ") plus the number of broadcast dimensions (" << dims.size()
           << ")";
  for (auto [i, d] : llvm::enumerate(dims))
    if (d < 0 || d >= result.getRank() || (i > 0 && d <= dims[i - 1]))
      return emitOpError("expects the broadcast dimensions to be increasing "
                         "result dimensions in [0, ")
             << result.getRank() << "), got [" << dims << "]";
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < result.getRank(); ++d)
    if (!llvm::is_contained(dims, d))
      kept.push_back(result.getDimSize(d));
  auto expected = RankedTensorType::get(kept, result.getElementType());
  if (input.getElementType() != result.getElementType())
    return emitOpError("expects the input element type ")
           << input.getElementType() << " to equal the result's "
           << result.getElementType()
           << " (a broadcast copies values; convert with tileas.cvt first)";
  if (input.getShape() != ArrayRef<int64_t>(kept))
    return emitOpError("expects the input to be the result ")
           << result << " without its broadcast dimensions [" << dims << "], "
           << expected << ", got " << input;
  return success();
}

/// The tile counts in the body of `func` (where the verifier wants them).
static SmallVector<TileCountOp, 1> tileCounts(Operation *func) {
  SmallVector<TileCountOp, 1> counts;
  if (func && func->getNumRegions() == 1 && !func->getRegion(0).empty())
    llvm::append_range(counts,
                       func->getRegion(0).front().getOps<TileCountOp>());
  return counts;
}

TileCountOp TileCountOp::of(Operation *func) {
  SmallVector<TileCountOp, 1> counts = tileCounts(func);
  return counts.empty() ? TileCountOp() : counts.front();
}

LogicalResult TileCountOp::verify() {
  auto func = dyn_cast<FunctionOpInterface>((*this)->getParentOp());
  if (!func)
    return emitOpError("expects to stand in a function's body, outside its "
                       "loops");
  size_t count = tileCounts(func).size();
  if (count > 1)
    return emitOpError("expects one tile count in a function, got ") << count;
  return success();
}

LogicalResult IotaOp::verify() {
  RankedTensorType type = getResult().getType();
  if (!type.getElementType().isSignlessInteger(32))
    return emitOpError("expects i32 positions, got ") << type.getElementType();
  if (type.getRank() < 1 || type.getRank() > 2)
    return emitOpError("expects a rank-1 or rank-2 tile, got ") << type;
  if (int64_t(getDimension()) >= type.getRank())
    return emitOpError("expects a dimension of the tile (0 to ")
           << type.getRank() - 1 << "), got " << getDimension();
  if (!type.hasStaticShape() || type.getNumElements() > (int64_t(1) << 31))
    return emitOpError("expects a static shape whose positions fit i32, got ")
           << type;
  return success();
}

LogicalResult CvtOp::verify() {
  RankedTensorType input = getInput().getType(), result = getResult().getType();
  if (input.getShape() != result.getShape())
    return emitOpError("expects the result shape ")
           << formatShape(result.getShape()) << " to match the input shape "
           << formatShape(input.getShape());
  return success();
}

/// Row reductions drop the last dimension and keep the element type.
static LogicalResult verifyReduce(Operation *op) {
  auto input = cast<RankedTensorType>(op->getOperand(0).getType());
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (input.getRank() == 0)
    return op->emitOpError("expects an input of rank at least 1");
  auto expected = RankedTensorType::get(input.getShape().drop_back(),
                                        input.getElementType());
  if (!isSameTile(result, expected))
    return op->emitOpError("expects the result to be the input reduced over "
                           "its last dimension, ")
           << expected << ", got " << result;
  return success();
}

LogicalResult ReduceMaxOp::verify() { return verifyReduce(*this); }
LogicalResult ReduceSumOp::verify() { return verifyReduce(*this); }

LogicalResult ReduceLanesOp::verify() {
  if (getKind() != "sum" && getKind() != "max")
    return emitOpError("expects kind \"sum\" or \"max\", got \"")
           << getKind() << "\"";
  RankedTensorType input = getInput().getType();
  if (input != getResult().getType() || input.getRank() != 1)
    return emitOpError("expects a vector and a result of its type, got ")
           << input << " -> " << getResult().getType();
  int64_t lanes = getLanes();
  if (!llvm::isPowerOf2_64(lanes) || lanes > 128 ||
      input.getShape()[0] % lanes)
    return emitOpError("expects lanes a power of two of at most 128 that "
                       "divides the length ")
           << input.getShape()[0] << ", got " << lanes;
  return success();
}

LogicalResult ScanOp::verify() {
  if (getKind() != "sum" && getKind() != "prod" && getKind() != "max")
    return emitOpError("expects kind \"sum\", \"prod\" or \"max\", got \"")
           << getKind() << "\"";
  if (getInput().getType().getRank() != 2)
    return emitOpError("expects a 2-D tile, scanned along its rows, got ")
           << getInput().getType();
  if (std::optional<uint64_t> lanes = getLanes();
      lanes && (!llvm::isPowerOf2_64(*lanes) || *lanes > 32))
    return emitOpError("expects lanes a power of two of at most 32 (a row's "
                       "lanes within one warp), got ")
           << *lanes;
  return success();
}

LogicalResult ReduceAllOp::verify() {
  if (getKind() != "sum" && getKind() != "max")
    return emitOpError("expects kind \"sum\" or \"max\", got \"")
           << getKind() << "\"";
  RankedTensorType input = getInput().getType();
  if (input.getRank() != 1 || input.getElementType() != getResult().getType())
    return emitOpError("expects a vector and a result of its element type, "
                       "got ")
           << input << " -> " << getResult().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Pipes, mutexes and agents.
//===----------------------------------------------------------------------===//

/// Hardware mbarrier phase tracking works for any depth, but the schedule
/// never needs more than 32 slots and a larger ring would not fit on chip.
static constexpr int32_t kMaxPipeDepth = 32;
/// Named barriers per CTA (bar.sync ids 0..15).
static constexpr int32_t kNumNamedBarriers = 16;

LogicalResult PipeCreateOp::verify() {
  int32_t depth = getDepth();
  if (depth < 1 || depth > kMaxPipeDepth)
    return emitOpError("expects depth in [1, ")
           << kMaxPipeDepth << "], got " << depth;
  if (std::optional<int64_t> bytes = getBytes(); bytes && *bytes < 0)
    return emitOpError("expects bytes >= 0, got ") << *bytes;

  // Each unit can only write or read its own memory: TMA and cp.async land
  // in shared memory, UMMA accumulates in tensor memory, and a TMA store
  // reads shared memory.
  Type payload = getResult().getType().getPayload();
  bool isSmem = isa<SmemType>(payload);
  switch (getProducerKind()) {
  case PipeProducerKind::Tma:
  case PipeProducerKind::CpAsync:
    if (!isSmem)
      return emitOpError("expects an smem payload for a '")
             << getProducer() << "' producer, got " << payload;
    break;
  case PipeProducerKind::Umma:
    if (isSmem)
      return emitOpError("expects a tmem payload for a 'umma' producer, got ")
             << payload;
    break;
  case PipeProducerKind::Simt:
    break;
  }
  ArrayAttr consumers = getConsumers();
  if (consumers.empty())
    return emitOpError("expects at least one consumer kind");
  for (unsigned i = 0, e = consumers.size(); i < e; ++i)
    if (getConsumerKind(i) == PipeConsumerKind::TmaStore && !isSmem)
      return emitOpError("expects an smem payload for a 'tma_store' "
                         "consumer, got ")
             << payload;
  if (Value shares = getShares()) {
    auto other = shares.getDefiningOp<PipeCreateOp>();
    if (other && int32_t(other.getDepth()) != depth)
      return emitOpError("shares the buffers of a pipe of depth ")
             << other.getDepth() << ", but has depth " << depth;
  }
  if (Value aliases = getAliases()) {
    if (getShares())
      return emitOpError("expects either 'shares' or 'aliases', not both");
    auto other = aliases.getDefiningOp<PipeCreateOp>();
    if (other && int32_t(other.getDepth()) != depth)
      return emitOpError("aliases the slots of a pipe of depth ")
             << other.getDepth() << ", but has depth " << depth;
    Type base = cast<PipeType>(aliases.getType()).getPayload();
    auto baseTmem = dyn_cast<TmemType>(base);
    auto tmem = dyn_cast<TmemType>(payload);
    bool fits = base == payload ||
                (baseTmem && tmem &&
                 baseTmem.getShape().front() == tmem.getShape().front() &&
                 getPipeSlotColumns(other, baseTmem) >=
                     getPipeSlotColumns(*this, tmem));
    if (!fits)
      return emitOpError("aliases the slots of a pipe of ")
             << base << ", which cannot hold its " << payload;
  }
  if (Value joins = getJoins()) {
    if (getShares() || getAliases())
      return emitOpError("expects 'joins' without 'shares' or 'aliases'");
    if (getProducerKind() != PipeProducerKind::Tma)
      return emitOpError("joins another pipe, which only a 'tma' producer "
                         "can (its commit adds bytes, it does not arrive)");
    if (auto other = joins.getDefiningOp<PipeCreateOp>()) {
      if (other.getJoins() || other.getShares() || other.getAliases())
        return emitOpError("joins a pipe that itself joins, shares or "
                           "aliases another");
      if (other.getProducerKind() != PipeProducerKind::Tma ||
          int32_t(other.getDepth()) != depth ||
          other.getConsumers() != consumers)
        return emitOpError("joins a pipe of another producer, depth or "
                           "consumers (")
               << other.getProducer() << ", depth " << other.getDepth()
               << ", " << other.getConsumers() << ")";
    }
  }
  return success();
}

/// The commit flavour each producer unit completes its full barrier with.
int64_t mlir::tileas::getTmemColumns(TmemType type) {
  // Block-scale factors are stored as tcgen05.cp.32x128b.warpx4 leaves them:
  // 32 rows of 4 factors per column, replicated to the four lane quarters,
  // so a 128 x C tile of factors takes C columns, not C / 4.
  if (isUE8M0(type.getElementType()))
    return type.getShape().back();
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  return (type.getShape().back() * bits + 31) / 32;
}

int64_t mlir::tileas::getPipeSlotColumns(PipeCreateOp pipe, TmemType slot) {
  return pipe && pipe.getProducerKind() == PipeProducerKind::Umma
             ? getAccumulatorColumns(slot)
             : getTmemColumns(slot);
}

int64_t mlir::tileas::getAccumulatorColumns(TmemType type) {
  return type.getShape().back();
}

static bool isAccumulatorUse(OpOperand &use) {
  auto umma = dyn_cast<UmmaOp>(use.getOwner());
  return umma && use.get() == umma.getAcc();
}

bool mlir::tileas::holdsAccumulator(Value tile) {
  // Bounded: a loop-carried tile is followed to its initial value.
  for (int depth = 0; depth < 8 && tile; ++depth) {
    auto type = dyn_cast<TmemType>(tile.getType());
    Type elem = type ? type.getElementType() : Type();
    if (!elem || !(elem.isF32() || elem.isF16() || elem.isInteger(32)))
      return false; // Not an MMA's D type (scale factors, bf16 data).
    if (llvm::any_of(tile.getUses(), isAccumulatorUse))
      return true;
    Operation *def = tile.getDefiningOp();
    if (isa_and_nonnull<UmmaOp, AllocTmemOp>(def))
      return true;
    if (isa_and_nonnull<PipeProducerAcquireOp, PipeConsumerWaitOp>(def)) {
      auto create = def->getOperand(0).getDefiningOp<PipeCreateOp>();
      // A pipe that shares an MMA's slots (O handed back to the MMA after
      // its rescale) holds what the MMA laid out there.
      while (create && create.getProducerKind() != PipeProducerKind::Umma &&
             create.getShares())
        create = create.getShares().getDefiningOp<PipeCreateOp>();
      return create && create.getProducerKind() == PipeProducerKind::Umma;
    }
    // A loop's result holds what its iteration argument holds.
    if (auto result = dyn_cast<OpResult>(tile);
        result && isa<scf::ForOp>(def)) {
      tile = cast<scf::ForOp>(def).getInitArgs()[result.getResultNumber()];
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(tile);
    auto loop = arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())
                    : scf::ForOp();
    if (!loop || arg.getArgNumber() == 0)
      return false;
    tile = loop.getInitArgs()[arg.getArgNumber() - 1];
  }
  return false;
}

int64_t mlir::tileas::getTmemColumns(Value tile) {
  auto type = cast<TmemType>(tile.getType());
  return holdsAccumulator(tile) ? getAccumulatorColumns(type)
                                : getTmemColumns(type);
}

FileLineColLoc mlir::tileas::findFileLoc(Location loc) {
  FileLineColLoc found;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      found = file;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

void mlir::tileas::stampSourceLocations(Operation *root) {
  root->walk([&](Operation *op) {
    if (op == root || op->hasAttr(kSourceLocAttrName))
      return;
    if (FileLineColLoc file = findFileLoc(op->getLoc()))
      op->setAttr(kSourceLocAttrName, file);
  });
}

void mlir::tileas::restoreSourceLocations(Operation *root,
                                          StringRef stageFile) {
  root->walk([&](Operation *op) {
    auto stale = [&](Location own) {
      FileLineColLoc file = findFileLoc(own);
      return !file || file.getFilename() == stageFile;
    };
    auto stamp = op->getAttrOfType<LocationAttr>(kSourceLocAttrName);
    if (!stamp)
      return;
    if (stale(op->getLoc()))
      op->setLoc(stamp);
    // Kernel parameters carry no stamps of their own (they would repeat the
    // file in every signature): one the translation refuses is reported at
    // its function's line.
    if (auto func = dyn_cast<FunctionOpInterface>(op))
      for (BlockArgument arg : func.getArguments())
        if (stale(arg.getLoc()))
          arg.setLoc(stamp);
  });
}

SignalKind mlir::tileas::getCommitKind(PipeProducerKind kind) {
  switch (kind) {
  case PipeProducerKind::Tma:
    return SignalKind::ExpectTx;
  case PipeProducerKind::Umma:
    return SignalKind::Tcgen05Commit;
  case PipeProducerKind::CpAsync:
    return SignalKind::CpAsyncArrive;
  case PipeProducerKind::Simt:
    break;
  }
  return SignalKind::Arrive;
}

/// The release each consumer unit can perform on the empty barrier.
SignalKind mlir::tileas::getReleaseKind(PipeConsumerKind kind) {
  switch (kind) {
  case PipeConsumerKind::Umma:
    return SignalKind::Tcgen05Commit;
  case PipeConsumerKind::TmaStore:
    return SignalKind::BulkWait;
  // Hopper's wgmma reads its SMEM operands until a wgmma.wait_group retires
  // its group: the arrive comes after that wait (docs/stage-code.md).
  case PipeConsumerKind::Wgmma:
    return SignalKind::WgmmaWait;
  case PipeConsumerKind::Simt:
    break;
  }
  return SignalKind::Arrive;
}

LogicalResult PipeProducerCommitOp::verify() {
  SignalKind via = *symbolizeSignalKind(getVia());
  auto create = getPipe().getDefiningOp<PipeCreateOp>();
  if (!create)
    return success(); // A pipe passed in: its kinds are not known here.
  SignalKind expected = getCommitKind(create.getProducerKind());
  if (via != expected)
    return emitOpError("commits a '")
           << create.getProducer() << "' pipe via '" << getVia()
           << "', but that producer completes the full barrier via '"
           << stringifySignalKind(expected) << "'";
  return success();
}

LogicalResult PipeConsumerReleaseOp::verify() {
  SignalKind via = *symbolizeSignalKind(getVia());
  auto create = getPipe().getDefiningOp<PipeCreateOp>();
  if (std::optional<int32_t> n = getArrivals();
      n && (*n < 1 || (create && size_t(*n) > create.getConsumers().size())))
    return emitOpError("expects arrivals between 1 and the pipe's ")
           << (create ? create.getConsumers().size() : 0)
           << " consumer entries, got " << *n;
  if (!create)
    return success();
  for (unsigned i = 0, e = create.getConsumers().size(); i < e; ++i)
    if (getReleaseKind(create.getConsumerKind(i)) == via)
      return success();
  return emitOpError("releases via '")
         << getVia() << "', which none of the pipe's consumers "
         << create.getConsumers() << " performs";
}

Value mlir::tileas::stripViews(Value v) {
  while (auto view = v.getDefiningOp<SmemViewOp>())
    v = view.getSource();
  return v;
}

LogicalResult SmemViewOp::verify() {
  auto from = cast<ShapedType>(getSource().getType());
  auto to = cast<ShapedType>(getResult().getType());
  if (getTileSizeInBytes(from) != getTileSizeInBytes(to))
    return emitOpError("views a tile of ")
           << getTileSizeInBytes(from) << " bytes as one of "
           << getTileSizeInBytes(to) << " bytes; a view keeps the size";
  return success();
}

OpFoldResult SmemViewOp::fold(FoldAdaptor) {
  if (getSource().getType() == getResult().getType())
    return getSource();
  // A view of a view reads the first view's buffer.
  if (auto inner = getSource().getDefiningOp<SmemViewOp>();
      inner && inner.getSource().getType() == getResult().getType())
    return inner.getSource();
  return {};
}

LogicalResult MutexCreateOp::verify() {
  int32_t groups = getGroups();
  if (groups < 2)
    return emitOpError("expects groups >= 2, got ") << groups;
  std::optional<int32_t> barrierId = getBarrierId();
  if (getImplKind() == MutexImplKind::MBarrier) {
    if (barrierId)
      return emitOpError("expects no barrier_id for an 'mbarrier' mutex");
    return success();
  }
  if (!barrierId)
    return emitOpError("expects a barrier_id for a 'namedbar' mutex");
  if (*barrierId < 0 || *barrierId >= kNumNamedBarriers)
    return emitOpError("expects barrier_id in [0, ")
           << kNumNamedBarriers << "), got " << *barrierId;
  // Each group waits on its own named barrier, so the ring takes `groups`
  // consecutive ids starting at barrier_id.
  int64_t last = int64_t(*barrierId) + groups - 1;
  if (last >= kNumNamedBarriers)
    return emitOpError("expects named barriers ")
           << *barrierId << ".." << last << " (one per group) to be below "
           << kNumNamedBarriers;
  return success();
}

LogicalResult AgentOp::verify() {
  if (getWarps() < 1)
    return emitOpError("expects warps >= 1, got ") << getWarps();
  // setmaxnreg takes a per-thread count in [24, 256] that is a multiple of 8.
  if (std::optional<int32_t> regs = getRegs();
      regs && (*regs < 24 || *regs > 256 || *regs % 8 != 0))
    return emitOpError("expects regs to be a multiple of 8 in [24, 256] "
                       "(setmaxnreg), got ")
           << *regs;
  // Ping-pong copies are whole warpgroups (each issues its own wgmmas).
  if (std::optional<int32_t> replicas = getReplicas();
      replicas && (*replicas < 1 || *replicas > 2 ||
                   (*replicas > 1 && getWarps() % 4 != 0)))
    return emitOpError("expects replicas 1 or 2, and warps a multiple of 4 "
                       "when 2 (each copy is whole warpgroups), got replicas ")
           << *replicas << " of " << getWarps() << " warps";
  // Agents partition warps once; an agent inside an agent has no warps of
  // its own to run on.
  if ((*this)->getParentOfType<AgentOp>())
    return emitOpError("must not be nested in another 'tileas.agent'");
  Block &body = getBody().front();
  if (body.empty() || !isa<AgentYieldOp>(body.back()))
    return emitOpError("expects the body to end with 'tileas.agent_yield'");
  return success();
}

ParseResult AgentOp::parse(OpAsmParser &parser, OperationState &result) {
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  Region *body = result.addRegion();
  return parser.parseRegion(*body, /*arguments=*/{});
}

void AgentOp::print(OpAsmPrinter &printer) {
  printer.printOptionalAttrDict((*this)->getAttrs());
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

#include "ir/TileASEnums.cpp.inc"

#define GET_OP_CLASSES
#include "ir/TileASOps.cpp.inc"
