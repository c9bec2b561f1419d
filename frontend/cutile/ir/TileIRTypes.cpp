//===- TileIRTypes.cpp - Types and attributes of tileir -------------------===//
//
// The syntax tileirdisasm prints for types (`tile<128x64xbf16>`,
// `tensor_view<?x?xbf16, strides=[?,?]>`, `partition_view<tile=(128x64),
// tensor_view<...>>`) and for the assume predicates and hints, and the
// checks that keep a type meaningful.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/ir/TileIRDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace tilepipe::tileir;

#define GET_TYPEDEF_CLASSES
#include "frontend/cutile/ir/TileIRTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "frontend/cutile/ir/TileIRAttrs.cpp.inc"

#include "frontend/cutile/ir/TileIREnums.cpp.inc"

void TileIRDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "frontend/cutile/ir/TileIRTypes.cpp.inc"
      >();
}

void TileIRDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "frontend/cutile/ir/TileIRAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Types as operands print them: without the dialect prefix.
//===----------------------------------------------------------------------===//

ParseResult tilepipe::tileir::parseTileIRType(AsmParser &parser, Type &type) {
  // Only our own mnemonics are taken here: `bf16` is a keyword token too,
  // and must reach the builtin type parser unconsumed.
  StringRef mnemonic;
  if (failed(parser.parseOptionalKeyword(
          &mnemonic, {TileType::getMnemonic(), PtrType::getMnemonic(),
                      TokenType::getMnemonic(), TensorViewType::getMnemonic(),
                      PartitionViewType::getMnemonic()})))
    return parser.parseType(type);
  if (mnemonic == TokenType::getMnemonic())
    type = TokenType::get(parser.getContext());
  else if (mnemonic == TileType::getMnemonic())
    type = TileType::parse(parser);
  else if (mnemonic == PtrType::getMnemonic())
    type = PtrType::parse(parser);
  else if (mnemonic == TensorViewType::getMnemonic())
    type = TensorViewType::parse(parser);
  else
    type = PartitionViewType::parse(parser);
  return success(bool(type));
}

void tilepipe::tileir::printTileIRType(AsmPrinter &printer, Type type) {
  if (succeeded(generatedTypePrinter(type, printer)))
    return;
  printer.printType(type);
}

/// A dimension list `128x64x` or `?x?x` (dynamic as kDynamic) followed by
/// an element type: a builtin type or `ptr<T>`.
static ParseResult parseShapeAndElement(AsmParser &parser,
                                        SmallVectorImpl<int64_t> &shape,
                                        Type &elementType, bool allowDynamic) {
  if (parser.parseDimensionList(shape, allowDynamic, /*withTrailingX=*/true))
    return failure();
  return parseTileIRType(parser, elementType);
}

static void printShapeAndElement(AsmPrinter &printer, ArrayRef<int64_t> shape,
                                 Type elementType) {
  for (int64_t dim : shape) {
    if (ShapedType::isDynamic(dim))
      printer << '?';
    else
      printer << dim;
    printer << 'x';
  }
  printTileIRType(printer, elementType);
}

/// `[?,1]`: integers or `?`.
static ParseResult parseDynamicList(AsmParser &parser,
                                    SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        if (succeeded(parser.parseOptionalQuestion())) {
          values.push_back(ShapedType::kDynamic);
          return success();
        }
        return parser.parseInteger(values.emplace_back());
      });
}

static void printDynamicList(AsmPrinter &printer, ArrayRef<int64_t> values,
                             StringRef separator) {
  printer << '[';
  llvm::interleave(
      values,
      [&](int64_t v) {
        if (ShapedType::isDynamic(v))
          printer << '?';
        else
          printer << v;
      },
      [&] { printer << separator; });
  printer << ']';
}

static bool isTileElementType(Type type) {
  return isa<PtrType, IntegerType, FloatType>(type);
}

//===----------------------------------------------------------------------===//
// TileType
//===----------------------------------------------------------------------===//

Type TileType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parseShapeAndElement(parser, shape, elementType,
                           /*allowDynamic=*/false) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    shape, elementType);
}

void TileType::print(AsmPrinter &printer) const {
  printer << '<';
  printShapeAndElement(printer, getShape(), getElementType());
  printer << '>';
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  if (!isTileElementType(elementType))
    return emitError() << "tile elements must be integers, floats or ptr, not "
                       << elementType;
  if (llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return emitError() << "tile dimensions must be positive";
  return success();
}

int64_t TileType::getNumElements() const {
  // Saturates: bytecode may declare dimensions whose product overflows
  // int64_t (found by fuzz-tileir-bytecode); such a tile is never lowered.
  int64_t n = 1;
  for (int64_t d : getShape())
    if (llvm::MulOverflow(n, d, n))
      return std::numeric_limits<int64_t>::max();
  return n;
}

//===----------------------------------------------------------------------===//
// TensorViewType
//===----------------------------------------------------------------------===//

Type TensorViewType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape, strides;
  Type elementType;
  if (parser.parseLess() ||
      parseShapeAndElement(parser, shape, elementType, /*allowDynamic=*/true))
    return {};
  if (succeeded(parser.parseOptionalComma()))
    if (parser.parseKeyword("strides") || parser.parseEqual() ||
        parseDynamicList(parser, strides))
      return {};
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    elementType, shape, strides);
}

void TensorViewType::print(AsmPrinter &printer) const {
  printer << '<';
  printShapeAndElement(printer, getShape(), getElementType());
  if (!getShape().empty()) {
    printer << ", strides=";
    printDynamicList(printer, getStrides(), ",");
  }
  printer << '>';
}

LogicalResult
TensorViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                       Type elementType, ArrayRef<int64_t> shape,
                       ArrayRef<int64_t> strides) {
  if (!llvm::isa<IntegerType, FloatType>(elementType))
    return emitError() << "tensor_view elements must be integers or floats";
  if (shape.size() != strides.size())
    return emitError() << "tensor_view has " << shape.size()
                       << " dimensions but " << strides.size() << " strides";
  return success();
}

//===----------------------------------------------------------------------===//
// PartitionViewType
//===----------------------------------------------------------------------===//

bool tilepipe::tileir::isPaddingValueName(StringRef name) {
  return llvm::is_contained(
      ArrayRef<StringRef>{"zero", "neg_zero", "nan", "pos_inf", "neg_inf"},
      name);
}

Type PartitionViewType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> tileShape, dimMap;
  Type view;
  std::string padding;
  if (parser.parseLess() || parser.parseKeyword("tile") ||
      parser.parseEqual() || parser.parseLParen() ||
      parser.parseDimensionList(tileShape, /*allowDynamic=*/false,
                                /*withTrailingX=*/false) ||
      parser.parseRParen() || parser.parseComma())
    return {};
  if (succeeded(parser.parseOptionalKeyword("padding_value")))
    if (parser.parseEqual() || parser.parseKeywordOrString(&padding) ||
        parser.parseComma())
      return {};
  if (parseTileIRType(parser, view))
    return {};
  if (succeeded(parser.parseOptionalComma()))
    if (parser.parseKeyword("dim_map") || parser.parseEqual() ||
        parseDynamicList(parser, dimMap))
      return {};
  if (parser.parseGreater())
    return {};
  auto tensorView = llvm::dyn_cast<TensorViewType>(view);
  if (!tensorView)
    return parser.emitError(loc, "partition_view needs a tensor_view"), Type();
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    tileShape, tensorView, dimMap, padding);
}

void PartitionViewType::print(AsmPrinter &printer) const {
  printer << "<tile=(";
  llvm::interleave(getTileShape(), printer, "x");
  printer << "), ";
  if (!getPaddingValue().empty())
    printer << "padding_value = " << getPaddingValue() << ", ";
  printTileIRType(printer, getTensorView());
  if (!getDimMap().empty()) {
    printer << ", dim_map=";
    printDynamicList(printer, getDimMap(), ", ");
  }
  printer << '>';
}

LogicalResult
PartitionViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<int64_t> tileShape,
                          TensorViewType tensorView, ArrayRef<int64_t> dimMap,
                          StringRef paddingValue) {
  int64_t rank = tensorView.getRank();
  if (int64_t(tileShape.size()) != rank)
    return emitError() << "partition_view tile rank " << tileShape.size()
                       << " differs from the tensor_view's " << rank;
  if (llvm::any_of(tileShape, [](int64_t d) { return d <= 0; }))
    return emitError() << "partition_view tile dimensions must be positive";
  if (!dimMap.empty()) {
    SmallVector<bool> seen(rank, false);
    if (int64_t(dimMap.size()) != rank)
      return emitError() << "dim_map must name every dimension once";
    for (int64_t d : dimMap) {
      if (d < 0 || d >= rank || seen[d])
        return emitError() << "dim_map must be a permutation of 0.."
                           << rank - 1;
      seen[d] = true;
    }
  }
  if (!paddingValue.empty() && !isPaddingValueName(paddingValue))
    return emitError() << "unknown padding_value '" << paddingValue << "'";
  return success();
}

//===----------------------------------------------------------------------===//
// Assume predicates: div_by<32>, div_by<32, every 4 along 0>, bounded<0, ?>.
//===----------------------------------------------------------------------===//

Attribute DivByAttr::parse(AsmParser &parser, Type) {
  uint64_t divisor = 0;
  std::optional<int64_t> every, along;
  if (parser.parseLess() || parser.parseInteger(divisor))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("every")) &&
        parser.parseInteger(every.emplace()))
      return {};
    if (succeeded(parser.parseOptionalKeyword("along")) &&
        parser.parseInteger(along.emplace()))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return get(parser.getContext(), divisor, every, along);
}

void DivByAttr::print(AsmPrinter &printer) const {
  printer << '<' << getDivisor();
  if (getEvery() || getAlong())
    printer << ',';
  if (getEvery())
    printer << " every " << *getEvery();
  if (getAlong())
    printer << " along " << *getAlong();
  printer << '>';
}

static ParseResult parseOpenBound(AsmParser &parser,
                                  std::optional<int64_t> &bound) {
  if (succeeded(parser.parseOptionalQuestion()))
    return success();
  return parser.parseInteger(bound.emplace());
}

Attribute BoundedAttr::parse(AsmParser &parser, Type) {
  std::optional<int64_t> lb, ub;
  if (parser.parseLess() || parseOpenBound(parser, lb) || parser.parseComma() ||
      parseOpenBound(parser, ub) || parser.parseGreater())
    return {};
  return get(parser.getContext(), lb, ub);
}

void BoundedAttr::print(AsmPrinter &printer) const {
  auto bound = [&](std::optional<int64_t> b) {
    if (b)
      printer << *b;
    else
      printer << '?';
  };
  printer << '<';
  bound(getLb());
  printer << ", ";
  bound(getUb());
  printer << '>';
}

//===----------------------------------------------------------------------===//
// Optimization hints: <default = {latency = 2}, sm_100 = {...}>.
//===----------------------------------------------------------------------===//

Attribute OptimizationHintsAttr::parse(AsmParser &parser, Type) {
  SmallVector<NamedAttribute> byArch;
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    auto parseOne = [&]() -> ParseResult {
      std::string arch;
      DictionaryAttr hints;
      if (parser.parseKeywordOrString(&arch) || parser.parseEqual() ||
          parser.parseAttribute(hints))
        return failure();
      byArch.push_back(
          NamedAttribute(StringAttr::get(parser.getContext(), arch), hints));
      return success();
    };
    if (parser.parseCommaSeparatedList(parseOne) || parser.parseGreater())
      return {};
  }
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(),
                    DictionaryAttr::get(parser.getContext(), byArch));
}

void OptimizationHintsAttr::print(AsmPrinter &printer) const {
  printer << '<';
  // Integers print bare (`latency = 2`), as tileirdisasm writes them.
  auto printHint = [&](NamedAttribute hint) {
    printer.printKeywordOrString(hint.getName().getValue());
    printer << " = ";
    if (auto integer = llvm::dyn_cast<IntegerAttr>(hint.getValue());
        integer && integer.getType().isSignlessInteger(64))
      printer << integer.getValue().getSExtValue();
    else
      printer.printAttribute(hint.getValue());
  };
  llvm::interleaveComma(getHintsByArch(), printer, [&](NamedAttribute entry) {
    printer.printKeywordOrString(entry.getName().getValue());
    printer << " = {";
    llvm::interleaveComma(llvm::cast<DictionaryAttr>(entry.getValue()), printer,
                          printHint);
    printer << '}';
  });
  printer << '>';
}

LogicalResult
OptimizationHintsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              DictionaryAttr hintsByArch) {
  for (NamedAttribute entry : hintsByArch)
    if (!llvm::isa<DictionaryAttr>(entry.getValue()))
      return emitError() << "hints for '" << entry.getName().getValue()
                         << "' must be a dictionary";
  return success();
}
