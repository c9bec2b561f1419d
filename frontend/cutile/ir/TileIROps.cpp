//===- TileIROps.cpp - The ops of tileir ----------------------------------===//
//
// The custom pieces of the ops' syntax (types without the dialect prefix,
// one index type for a list of indices, constants as `<f32: 0.0>`, assume
// predicates) and the verifiers: cheap structural checks that reject what
// no cuTile kernel can contain, so that the lowering can rely on them.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/ir/TileIRDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tilepipe::tileir;

//===----------------------------------------------------------------------===//
// Custom directives.
//===----------------------------------------------------------------------===//

static ParseResult parseIRType(OpAsmParser &parser, Type &type) {
  return parseTileIRType(parser, type);
}

static void printIRType(OpAsmPrinter &printer, Operation *, Type type) {
  printTileIRType(printer, type);
}

static ParseResult parseIRTypeList(OpAsmParser &parser,
                                   SmallVectorImpl<Type> &types) {
  do {
    if (parseTileIRType(parser, types.emplace_back()))
      return failure();
  } while (succeeded(parser.parseOptionalComma()));
  return success();
}

static void printIRTypeList(OpAsmPrinter &printer, Operation *,
                            TypeRange types) {
  llvm::interleaveComma(types, printer,
                        [&](Type t) { printTileIRType(printer, t); });
}

/// Indices and shape results share one type; tileirdisasm prints it once.
/// `count` is how many values the type stands for.
static ParseResult parseRepeatedType(OpAsmParser &parser, size_t count,
                                     SmallVectorImpl<Type> &types) {
  if (count == 0)
    return success();
  Type type;
  if (parseTileIRType(parser, type))
    return failure();
  types.assign(count, type);
  return success();
}

static void printRepeatedType(OpAsmPrinter &printer, TypeRange types) {
  if (types.empty())
    return;
  if (!llvm::all_equal(types)) {
    // Not expressible in this syntax; the verifier rejects it too.
    printer << "<<mixed index types>>";
    return;
  }
  printTileIRType(printer, types.front());
}

template <typename OperandsT>
static ParseResult parseSameTypes(OpAsmParser &parser, OperandsT &&operands,
                                  SmallVectorImpl<Type> &types) {
  return parseRepeatedType(parser, llvm::size(operands), types);
}

static void printSameTypes(OpAsmPrinter &printer, Operation *, ValueRange,
                           TypeRange types) {
  printRepeatedType(printer, types);
}

/// x, y and z of a grid query share one type, printed once.
static ParseResult parseTripleType(OpAsmParser &parser, Type &x, Type &y,
                                   Type &z) {
  if (parseTileIRType(parser, x))
    return failure();
  y = z = x;
  return success();
}

static void printTripleType(OpAsmPrinter &printer, Operation *, Type x, Type,
                            Type) {
  printTileIRType(printer, x);
}

/// The per-dimension results of a shape query: one per dimension of `view`.
static ParseResult parseRankTypes(OpAsmParser &parser, Type view,
                                  SmallVectorImpl<Type> &types) {
  size_t rank = 0;
  if (auto partition = dyn_cast<PartitionViewType>(view))
    rank = partition.getTileShape().size();
  else if (auto tensor = dyn_cast<TensorViewType>(view))
    rank = tensor.getRank();
  return parseRepeatedType(parser, rank, types);
}

static void printRankTypes(OpAsmPrinter &printer, Operation *, Type,
                           TypeRange types) {
  printRepeatedType(printer, types);
}

/// Assume predicates by mnemonic: `bounded<0, ?>`, `div_by<16>`,
/// `same_elements<[1, 4]>`.
static ParseResult parseAssumePredicate(OpAsmParser &parser,
                                        Attribute &predicate) {
  StringRef kind;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&kind))
    return failure();
  if (kind == BoundedAttr::getMnemonic())
    predicate = BoundedAttr::parse(parser, Type());
  else if (kind == DivByAttr::getMnemonic())
    predicate = DivByAttr::parse(parser, Type());
  else if (kind == SameElementsAttr::getMnemonic())
    predicate = SameElementsAttr::parse(parser, Type());
  else
    return parser.emitError(loc, "unknown assume predicate '") << kind << "'";
  return success(bool(predicate));
}

static void printAssumePredicate(OpAsmPrinter &printer, Operation *,
                                 Attribute predicate) {
  if (auto bounded = dyn_cast<BoundedAttr>(predicate)) {
    printer << BoundedAttr::getMnemonic();
    bounded.print(printer);
  } else if (auto divBy = dyn_cast<DivByAttr>(predicate)) {
    printer << DivByAttr::getMnemonic();
    divBy.print(printer);
  } else if (auto same = dyn_cast<SameElementsAttr>(predicate)) {
    printer << SameElementsAttr::getMnemonic();
    same.print(printer);
  } else {
    printer.printAttribute(predicate);
  }
}

//===----------------------------------------------------------------------===//
// Constants: `<f32: 0.000000e+00> : tile<128x1xf32>`, `<i32: [1, 2]>`.
//===----------------------------------------------------------------------===//

static ParseResult parseConstantValue(OpAsmParser &parser, Attribute &value,
                                      Type &resultType) {
  Type elementType;
  SmallVector<Attribute> elements;
  auto parseElement = [&]() -> ParseResult {
    Attribute element;
    if (parser.parseAttribute(element, elementType))
      return failure();
    elements.push_back(element);
    return success();
  };
  if (parser.parseLess() || parser.parseType(elementType) ||
      parser.parseColon())
    return failure();
  if (succeeded(parser.parseOptionalLSquare())) {
    if (parser.parseCommaSeparatedList(parseElement) || parser.parseRSquare())
      return failure();
  } else if (parseElement()) {
    return failure();
  }
  SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseGreater() || parser.parseColon() ||
      parseTileIRType(parser, resultType))
    return failure();
  auto tile = dyn_cast<TileType>(resultType);
  if (!tile || tile.getElementType() != elementType)
    return parser.emitError(typeLoc, "constant type must be a tile of ")
           << elementType;
  auto tensorType = RankedTensorType::get(tile.getShape(), elementType);
  if (elements.size() != 1 && int64_t(elements.size()) != tile.getNumElements())
    return parser.emitError(typeLoc, "constant has ")
           << elements.size() << " values for " << tile.getNumElements()
           << " elements";
  if (elements.size() == 1)
    elements.assign(tile.getNumElements(), elements.front());
  value = DenseElementsAttr::get(tensorType, elements);
  return success();
}

static void printConstantElement(OpAsmPrinter &printer, Attribute element) {
  if (auto integer = dyn_cast<IntegerAttr>(element)) {
    if (integer.getType().isInteger(1))
      printer << (integer.getValue().isZero() ? "false" : "true");
    else
      printer << integer.getValue().getSExtValue();
    return;
  }
  printer.printAttributeWithoutType(element);
}

static void printConstantValue(OpAsmPrinter &printer, Operation *,
                               Attribute value, Type resultType) {
  auto dense = cast<DenseElementsAttr>(value);
  printer << '<' << dense.getElementType() << ": ";
  if (dense.isSplat()) {
    printConstantElement(printer, dense.getSplatValue<Attribute>());
  } else {
    printer << '[';
    llvm::interleaveComma(
        dense.getValues<Attribute>(), printer,
        [&](Attribute a) { printConstantElement(printer, a); });
    printer << ']';
  }
  printer << "> : ";
  printTileIRType(printer, resultType);
}

//===----------------------------------------------------------------------===//
// Generated op definitions.
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "frontend/cutile/ir/TileIROps.cpp.inc"

//===----------------------------------------------------------------------===//
// make_tensor_view %p, shape = [%m, 64], strides = [%s, 1]
//     : tile<i32> -> tensor_view<?x64xbf16, strides=[?,1]>
//===----------------------------------------------------------------------===//

/// `[%a, 64, %b]`: operands for dynamic entries, integers for static ones
/// (checked against the result type by the verifier's operand count).
static ParseResult
parseMixedList(OpAsmParser &parser, StringRef keyword,
               SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
               SmallVectorImpl<int64_t> &statics) {
  if (parser.parseKeyword(keyword) || parser.parseEqual())
    return failure();
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
        OpAsmParser::UnresolvedOperand operand;
        OptionalParseResult isOperand = parser.parseOptionalOperand(operand);
        if (isOperand.has_value()) {
          operands.push_back(operand);
          return *isOperand;
        }
        return parser.parseInteger(statics.emplace_back());
      });
}

ParseResult MakeTensorViewOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  OpAsmParser::UnresolvedOperand base;
  SmallVector<OpAsmParser::UnresolvedOperand> shape, strides;
  SmallVector<int64_t> staticShape, staticStrides;
  Type first, indexType, resultType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperand(base) || parser.parseComma() ||
      parseMixedList(parser, "shape", shape, staticShape) ||
      parser.parseComma() ||
      parseMixedList(parser, "strides", strides, staticStrides) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parseTileIRType(parser, first))
    return failure();
  if (succeeded(parser.parseOptionalArrow())) {
    indexType = first;
    if (parseTileIRType(parser, resultType))
      return failure();
  } else {
    resultType = first;
  }
  auto view = dyn_cast<TensorViewType>(resultType);
  if (!view)
    return parser.emitError(loc, "expected a tensor_view result");
  if (!indexType && (!shape.empty() || !strides.empty()))
    return parser.emitError(loc, "expected the index type before '->'");
  Type baseType =
      TileType::get(parser.getContext(), {},
                    PtrType::get(parser.getContext(), view.getElementType()));
  result.addTypes(view);
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(
                          {1, int32_t(shape.size()), int32_t(strides.size())}));
  return failure(parser.resolveOperand(base, baseType, result.operands) ||
                 parser.resolveOperands(shape, indexType, result.operands) ||
                 parser.resolveOperands(strides, indexType, result.operands));
}

/// Prints `dims`, taking an operand for each dynamic entry.
static void printMixedList(OpAsmPrinter &printer, StringRef keyword,
                           ArrayRef<int64_t> dims, OperandRange operands) {
  printer << keyword << " = [";
  auto next = operands.begin();
  llvm::interleaveComma(dims, printer, [&](int64_t d) {
    if (ShapedType::isDynamic(d) && next != operands.end())
      printer << *next++;
    else
      printer << d;
  });
  printer << ']';
}

void MakeTensorViewOp::print(OpAsmPrinter &printer) {
  TensorViewType view = getResult().getType();
  printer << ' ' << getBase() << ", ";
  printMixedList(printer, "shape", view.getShape(), getDynamicShape());
  printer << ", ";
  printMixedList(printer, "strides", view.getStrides(), getDynamicStrides());
  printer.printOptionalAttrDict((*this)->getAttrs(),
                                {getOperandSegmentSizesAttrName()});
  printer << " : ";
  SmallVector<Type> indexTypes(getDynamicShape().getTypes());
  llvm::append_range(indexTypes, getDynamicStrides().getTypes());
  if (!indexTypes.empty()) {
    printRepeatedType(printer, indexTypes);
    printer << " -> ";
  }
  printTileIRType(printer, view);
}

//===----------------------------------------------------------------------===//
// Verifiers.
//===----------------------------------------------------------------------===//

static TileType scalarTile(Type type) {
  auto tile = dyn_cast<TileType>(type);
  return tile && tile.getRank() == 0 ? tile : TileType();
}

LogicalResult ConstantOp::verify() {
  auto dense = dyn_cast<DenseElementsAttr>(getValue());
  if (!dense)
    return emitOpError("value must be dense elements");
  auto tile = getResult().getType();
  if (dense.getType().getShape() != tile.getShape() ||
      dense.getElementType() != tile.getElementType())
    return emitOpError("value type ")
           << dense.getType() << " does not match the result " << tile;
  return success();
}

LogicalResult AssumeOp::verify() {
  if (!isa<BoundedAttr, DivByAttr, SameElementsAttr>(getPredicate()))
    return emitOpError("predicate must be bounded, div_by or same_elements");
  return success();
}

LogicalResult MakeTensorViewOp::verify() {
  TensorViewType view = getResult().getType();
  auto base = scalarTile(getBase().getType());
  auto ptr = base ? dyn_cast<PtrType>(base.getElementType()) : PtrType();
  if (!ptr || ptr.getPointee() != view.getElementType())
    return emitOpError("base must be a scalar ptr<")
           << view.getElementType() << ">";
  auto count = [](ArrayRef<int64_t> dims) {
    return size_t(llvm::count_if(dims, ShapedType::isDynamic));
  };
  if (getDynamicShape().size() != count(view.getShape()) ||
      getDynamicStrides().size() != count(view.getStrides()))
    return emitOpError("needs one operand per dynamic size and stride");
  for (Value v : getOperands().drop_front())
    if (!scalarTile(v.getType()))
      return emitOpError("sizes and strides must be scalar tiles");
  return success();
}

template <typename ShapeQuery>
static LogicalResult verifyShapeQuery(ShapeQuery op) {
  int64_t rank = 0;
  if (auto view = dyn_cast<PartitionViewType>(op.getSrc().getType()))
    rank = view.getTileShape().size();
  else
    rank = cast<TensorViewType>(op.getSrc().getType()).getRank();
  if (int64_t(op.getResults().size()) != rank)
    return op.emitOpError("expects ") << rank << " results, one per dimension";
  for (Type t : op.getResults().getTypes())
    if (!scalarTile(t))
      return op.emitOpError("results must be scalar tiles");
  return success();
}

LogicalResult GetIndexSpaceShapeOp::verify() { return verifyShapeQuery(*this); }
LogicalResult GetTensorShapeOp::verify() { return verifyShapeQuery(*this); }

/// Indices of one type, as the syntax prints them once (printRepeatedType).
static LogicalResult verifySameIndexTypes(Operation *op, ValueRange index) {
  if (!llvm::all_equal(index.getTypes()))
    return op->emitOpError("expects every index of one type");
  return success();
}

/// A view access: one scalar index per dimension, and a tile of the view's
/// tile shape and element type.
static LogicalResult verifyViewAccess(Operation *op, PartitionViewType view,
                                      ValueRange index, TileType tile) {
  if (index.size() != view.getTileShape().size())
    return op->emitOpError("expects ")
           << view.getTileShape().size() << " indices, one per dimension";
  for (Value i : index)
    if (!scalarTile(i.getType()))
      return op->emitOpError("indices must be scalar tiles");
  if (failed(verifySameIndexTypes(op, index)))
    return failure();
  if (tile.getShape() != view.getTileShape() ||
      tile.getElementType() != view.getTensorView().getElementType())
    return op->emitOpError("tile ")
           << tile << " does not match the partition view's tiles";
  return success();
}

LogicalResult LoadViewTkoOp::verify() {
  return verifyViewAccess(*this, getView().getType(), getIndex(),
                          getTile().getType());
}

LogicalResult StoreViewTkoOp::verify() {
  return verifyViewAccess(*this, getView().getType(), getIndex(),
                          getTile().getType());
}

LogicalResult ExtractOp::verify() {
  return verifySameIndexTypes(*this, getIndices());
}

LogicalResult ReshapeOp::verify() {
  TileType from = getSource().getType(), to = getResult().getType();
  if (from.getNumElements() != to.getNumElements() ||
      from.getElementType() != to.getElementType())
    return emitOpError("must keep the element type and count");
  return success();
}

LogicalResult BroadcastOp::verify() {
  TileType from = getSource().getType(), to = getResult().getType();
  if (from.getRank() != to.getRank() ||
      from.getElementType() != to.getElementType())
    return emitOpError("must keep the rank and element type");
  for (auto [f, t] : llvm::zip(from.getShape(), to.getShape()))
    if (f != t && f != 1)
      return emitOpError("can only repeat dimensions of size 1");
  return success();
}

LogicalResult MmaFOp::verify() {
  ArrayRef<int64_t> a = getLhs().getType().getShape(),
                    b = getRhs().getType().getShape(),
                    c = getAcc().getType().getShape();
  // 2-D, or 3-D with a leading batch dimension.
  if (a.size() != b.size() || a.size() != c.size() || a.size() < 2 ||
      a.size() > 3)
    return emitOpError("expects operands of one rank, 2 or 3");
  size_t r = a.size();
  if (a[r - 2] != c[r - 2] || b[r - 1] != c[r - 1] || a[r - 1] != b[r - 2] ||
      (r == 3 && (a[0] != c[0] || b[0] != c[0])))
    return emitOpError("shapes must be MxK, KxN and MxN");
  return success();
}
