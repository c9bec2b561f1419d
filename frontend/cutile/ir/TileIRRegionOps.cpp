//===- TileIRRegionOps.cpp - entry, for, loop, if, reduce, scan -----------===//
//
// The syntax of the ops with regions, which ODS cannot declare: block
// arguments written inline with their types (`for %i in (...)`,
// `iter_values(%acc = %init)`, a reduce body's `(%lhs: tile<f32>, ...)`),
// and the checks that a region's arguments and results fit the op.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/ir/TileIRDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tilepipe::tileir;

/// Ops inside an entry or module print without `tileir.`, as tileirdisasm
/// prints them.
StringRef EntryOp::getDefaultDialect() { return "tileir"; }
StringRef BytecodeModuleOp::getDefaultDialect() { return "tileir"; }
StringRef ForOp::getDefaultDialect() { return "tileir"; }
StringRef LoopOp::getDefaultDialect() { return "tileir"; }
StringRef IfOp::getDefaultDialect() { return "tileir"; }
StringRef ReduceOp::getDefaultDialect() { return "tileir"; }
StringRef ScanOp::getDefaultDialect() { return "tileir"; }

/// tileirdisasm's names for a combiner's arguments: `prefix_lhs`, then
/// `prefix_rhs` (numbered when there are several operands).
static void nameCombinerArguments(Region &region, StringRef prefix,
                                  OpAsmSetValueNameFn setName) {
  if (region.empty())
    return;
  size_t n = region.getNumArguments() / 2;
  for (auto [i, arg] : llvm::enumerate(region.getArguments())) {
    std::string name = (prefix + (i < n ? "_lhs" : "_rhs")).str();
    if (n > 1)
      name += std::to_string(i % n);
    setName(arg, name);
  }
}

void ReduceOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setName) {
  nameCombinerArguments(region, "reduce", setName);
}

void ScanOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setName) {
  nameCombinerArguments(region, "scan", setName);
}

/// tileirdisasm's names for a loop's block arguments.
void ForOp::getAsmBlockArgumentNames(Region &region,
                                     OpAsmSetValueNameFn setName) {
  if (region.empty())
    return;
  setName(getInductionVar(), "loopIdx");
  for (auto [i, arg] : llvm::enumerate(getRegionIterArgs()))
    setName(arg, ("iterArg" + llvm::Twine(i)).str());
}

/// tileirdisasm leaves out a terminator that carries no values (`continue`
/// of a loop without results, `yield` of an `if` without results): the
/// parser adds it back and the printer leaves it out too.
template <typename TerminatorOp>
static void addImplicitTerminator(OpAsmParser &parser, Region &region,
                                  Location loc) {
  for (Block &block : region) {
    if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
      continue;
    // The region has no parent op yet: the builder takes the context.
    OpBuilder builder(parser.getContext());
    builder.setInsertionPointToEnd(&block);
    builder.create<TerminatorOp>(loc, ValueRange());
  }
}

static bool hasImplicitTerminator(Region &region) {
  return llvm::all_of(region, [](Block &block) {
    return !block.empty() && block.back().getNumOperands() == 0 &&
           isa<ContinueOp, YieldOp>(block.back());
  });
}

static void printBody(OpAsmPrinter &printer, Region &region,
                      bool elideEmptyTerminator) {
  printer.printRegion(region, /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/!elideEmptyTerminator ||
                          !hasImplicitTerminator(region));
}

/// `(%a: tile<i32>, %b: tile<f32>)`, types in tileirdisasm's spelling.
static ParseResult
parseTypedArguments(OpAsmParser &parser,
                    SmallVectorImpl<OpAsmParser::Argument> &args) {
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
        OpAsmParser::Argument &arg = args.emplace_back();
        return failure(parser.parseArgument(arg) || parser.parseColon() ||
                       parseTileIRType(parser, arg.type));
      });
}

static void printTypedArguments(OpAsmPrinter &printer, ValueRange args) {
  printer << '(';
  llvm::interleaveComma(args, printer, [&](Value arg) {
    printer.printOperand(arg);
    printer << ": ";
    printTileIRType(printer, arg.getType());
  });
  printer << ')';
}

static void printTypeList(OpAsmPrinter &printer, TypeRange types) {
  llvm::interleaveComma(types, printer,
                        [&](Type t) { printTileIRType(printer, t); });
}

static ParseResult parseTypeList(OpAsmParser &parser,
                                 SmallVectorImpl<Type> &types) {
  return parser.parseCommaSeparatedList([&]() -> ParseResult {
    return parseTileIRType(parser, types.emplace_back());
  });
}

/// `-> (t1, t2)` after a region op's operands; absent with no results.
static ParseResult parseOptionalResultTypes(OpAsmParser &parser,
                                            SmallVectorImpl<Type> &types) {
  if (failed(parser.parseOptionalArrow()))
    return success();
  return failure(parser.parseLParen() || parseTypeList(parser, types) ||
                 parser.parseRParen());
}

static void printOptionalResultTypes(OpAsmPrinter &printer, TypeRange types) {
  if (types.empty())
    return;
  printer << " -> (";
  printTypeList(printer, types);
  printer << ')';
}

//===----------------------------------------------------------------------===//
// EntryOp
//===----------------------------------------------------------------------===//

ParseResult EntryOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  SmallVector<OpAsmParser::Argument> args;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(),
                             result.attributes) ||
      parseTypedArguments(parser, args))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("optimization_hints"))) {
    OptimizationHintsAttr hints;
    if (parser.parseEqual() ||
        parser.parseCustomAttributeWithFallback(hints, Type()))
      return failure();
    result.addAttribute(getOptimizationHintsAttrName(result.name), hints);
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  SmallVector<Type> inputs =
      llvm::map_to_vector(args, [](auto &arg) { return arg.type; });
  result.addAttribute(
      getFunctionTypeAttrName(result.name),
      TypeAttr::get(FunctionType::get(parser.getContext(), inputs, {})));
  return parser.parseRegion(*result.addRegion(), args);
}

void EntryOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printSymbolName(getSymName());
  printTypedArguments(printer, getArguments());
  if (auto hints = getOptimizationHintsAttr()) {
    printer << " optimization_hints=";
    hints.print(printer);
  }
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getSymNameAttrName(), getFunctionTypeAttrName(),
                            getOptimizationHintsAttrName()});
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
}

LogicalResult EntryOp::verify() {
  FunctionType type = getFunctionType();
  if (!type.getResults().empty())
    return emitOpError("an entry returns nothing");
  if (getBody().empty() ||
      !llvm::equal(type.getInputs(), getBody().getArgumentTypes()))
    return emitOpError("body arguments must match the function type");
  return success();
}

//===----------------------------------------------------------------------===//
// Loop-carried values: `iter_values(%a = %x, %b = %y) -> (t1, t2)`.
//===----------------------------------------------------------------------===//

static ParseResult
parseIterValues(OpAsmParser &parser, OperationState &result,
                SmallVectorImpl<OpAsmParser::Argument> &regionArgs) {
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  if (succeeded(parser.parseOptionalKeyword("iter_values"))) {
    size_t first = regionArgs.size();
    auto parseOne = [&]() -> ParseResult {
      return failure(parser.parseArgument(regionArgs.emplace_back()) ||
                     parser.parseEqual() ||
                     parser.parseOperand(inits.emplace_back()));
    };
    if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, parseOne))
      return failure();
    SmallVector<Type> types;
    SMLoc loc = parser.getCurrentLocation();
    if (parseOptionalResultTypes(parser, types))
      return failure();
    if (types.size() != inits.size())
      return parser.emitError(loc, "expected ")
             << inits.size() << " result types";
    for (auto [arg, type] :
         llvm::zip(MutableArrayRef(regionArgs).drop_front(first), types))
      arg.type = type;
    result.addTypes(types);
    return parser.resolveOperands(inits, types, loc, result.operands);
  }
  return success();
}

static void printIterValues(OpAsmPrinter &printer, ValueRange regionArgs,
                            ValueRange inits, TypeRange resultTypes) {
  if (inits.empty())
    return;
  printer << " iter_values(";
  llvm::interleaveComma(llvm::zip(regionArgs, inits), printer, [&](auto pair) {
    printer << std::get<0>(pair) << " = " << std::get<1>(pair);
  });
  printer << ')';
  printOptionalResultTypes(printer, resultTypes);
}

/// Region arguments carry the loop values and match the results.
static LogicalResult verifyLoopCarried(Operation *op, Region &region,
                                       unsigned leading, ValueRange inits) {
  if (region.empty())
    return op->emitOpError("needs a body");
  Block &body = region.front();
  if (body.getNumArguments() != leading + inits.size())
    return op->emitOpError("body takes ")
           << leading + inits.size() << " arguments";
  for (auto [arg, init, result] : llvm::zip(
           body.getArguments().drop_front(leading), inits, op->getResults()))
    if (arg.getType() != init.getType() || result.getType() != init.getType())
      return op->emitOpError("loop-carried types must match");
  return success();
}

//===----------------------------------------------------------------------===//
// ForOp: for %i in (%lb to %ub, step %s) : tile<i32> iter_values(...) {...}
//===----------------------------------------------------------------------===//

ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> regionArgs(1);
  OpAsmParser::UnresolvedOperand lb, ub, step;
  Type indexType;
  if (parser.parseArgument(regionArgs[0]) || parser.parseKeyword("in") ||
      parser.parseLParen() || parser.parseOperand(lb) ||
      parser.parseKeyword("to") || parser.parseOperand(ub) ||
      parser.parseComma() || parser.parseKeyword("step") ||
      parser.parseOperand(step) || parser.parseRParen() ||
      parser.parseColon() || parseTileIRType(parser, indexType))
    return failure();
  regionArgs[0].type = indexType;
  if (parser.resolveOperands({lb, ub, step}, indexType, result.operands))
    return failure();
  if (parseIterValues(parser, result, regionArgs) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, regionArgs))
    return failure();
  if (result.types.empty())
    addImplicitTerminator<ContinueOp>(parser, *body, result.location);
  return success();
}

void ForOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getInductionVar() << " in (" << getLowerBound() << " to "
          << getUpperBound() << ", step " << getStep() << ") : ";
  printTileIRType(printer, getLowerBound().getType());
  printIterValues(printer, getRegionIterArgs(), getInitValues(),
                  getResultTypes());
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  printer << ' ';
  printBody(printer, getRegion(), getNumResults() == 0);
}

LogicalResult ForOp::verify() {
  Type index = getLowerBound().getType();
  auto tile = dyn_cast<TileType>(index);
  if (!tile || tile.getRank() != 0 || !tile.getElementType().isInteger() ||
      getUpperBound().getType() != index || getStep().getType() != index)
    return emitOpError("bounds and step must be one scalar integer tile type");
  if (failed(verifyLoopCarried(*this, getRegion(), 1, getInitValues())))
    return failure();
  if (getInductionVar().getType() != index)
    return emitOpError("the induction variable has the bounds' type");
  return success();
}

//===----------------------------------------------------------------------===//
// LoopOp: loop iter_values(%a = %x) -> (t) { ... break %y : t }
//===----------------------------------------------------------------------===//

ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> regionArgs;
  if (parseIterValues(parser, result, regionArgs) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parser.parseRegion(*result.addRegion(), regionArgs);
}

void LoopOp::print(OpAsmPrinter &printer) {
  printIterValues(printer, getRegion().getArguments(), getInitValues(),
                  getResultTypes());
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  printer << ' ';
  printer.printRegion(getRegion(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
}

//===----------------------------------------------------------------------===//
// IfOp: if %c -> (t) { ... yield } else { ... yield }
//===----------------------------------------------------------------------===//

ParseResult IfOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand condition;
  SmallVector<Type> types;
  Type i1 = TileType::get(parser.getContext(), {},
                          IntegerType::get(parser.getContext(), 1));
  if (parser.parseOperand(condition) ||
      parser.resolveOperand(condition, i1, result.operands) ||
      parseOptionalResultTypes(parser, types) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addTypes(types);
  Region *thenRegion = result.addRegion();
  Region *elseRegion = result.addRegion();
  if (parser.parseRegion(*thenRegion))
    return failure();
  bool hasElse = succeeded(parser.parseOptionalKeyword("else"));
  if (hasElse && parser.parseRegion(*elseRegion))
    return failure();
  // `{ }` parses as a region of no block; a branch that does nothing (a
  // spin loop's `if`) is one empty block, as the bytecode has it.
  for (Region *r : {thenRegion, elseRegion})
    if (r->empty() && (r == thenRegion || hasElse))
      r->emplaceBlock();
  if (types.empty()) {
    addImplicitTerminator<YieldOp>(parser, *thenRegion, result.location);
    addImplicitTerminator<YieldOp>(parser, *elseRegion, result.location);
  }
  return success();
}

void IfOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getCondition();
  printOptionalResultTypes(printer, getResultTypes());
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  printer << ' ';
  bool elide = getNumResults() == 0;
  printBody(printer, getThenRegion(), elide);
  if (!getElseRegion().empty()) {
    printer << " else ";
    printBody(printer, getElseRegion(), elide);
  }
}

//===----------------------------------------------------------------------===//
// ReduceOp and ScanOp:
//   reduce %x dim=1 identities=[0.0 : f32] : tile<1x8xf32> -> tile<1xf32>
//   (%lhs: tile<f32>, %rhs: tile<f32>) { ... yield %r : tile<f32> }
//===----------------------------------------------------------------------===//

static ParseResult parseCombineOp(OpAsmParser &parser, OperationState &result,
                                  StringRef reverseName) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<OpAsmParser::Argument> bodyArgs;
  SmallVector<Type> operandTypes, resultTypes;
  int64_t dim = 0;
  ArrayAttr identities;
  Builder builder(parser.getContext());
  if (parser.parseOperandList(operands) || parser.parseKeyword("dim") ||
      parser.parseEqual() || parser.parseInteger(dim) ||
      parser.parseKeyword("identities") || parser.parseEqual() ||
      parser.parseAttribute(identities))
    return failure();
  result.addAttribute("dim", builder.getI32IntegerAttr(dim));
  result.addAttribute("identities", identities);
  if (succeeded(parser.parseOptionalKeyword("reverse")))
    result.addAttribute(reverseName, builder.getUnitAttr());
  SMLoc typesLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseColon() || parseTypeList(parser, operandTypes) ||
      parser.parseArrow() || parseTypeList(parser, resultTypes) ||
      parser.resolveOperands(operands, operandTypes, typesLoc,
                             result.operands) ||
      parseTypedArguments(parser, bodyArgs))
    return failure();
  result.addTypes(resultTypes);
  return parser.parseRegion(*result.addRegion(), bodyArgs);
}

template <typename CombineOp>
static void printCombineOp(OpAsmPrinter &printer, CombineOp op) {
  printer << ' ' << op.getOperands() << " dim=" << op.getDim()
          << " identities=";
  printer.printAttribute(op.getIdentities());
  if (op.getReverse())
    printer << " reverse";
  printer.printOptionalAttrDictWithKeyword(
      op->getAttrs(), {op.getDimAttrName(), op.getIdentitiesAttrName(),
                       op.getReverseAttrName()});
  printer << " : ";
  printTypeList(printer, op.getOperands().getTypes());
  printer << " -> ";
  printTypeList(printer, op.getResultTypes());
  printer << ' ';
  printTypedArguments(printer, op.getBody().getArguments());
  printer << ' ';
  printer.printRegion(op.getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
}

/// The body combines element pairs: scalar arguments (each operand's lhs
/// and rhs in turn, as tileirdisasm prints an argmax's `(%lhs0, %rhs0,
/// %lhs1, %rhs1)`), one result per operand, and one identity per operand.
template <typename CombineOp>
static LogicalResult verifyCombineOp(CombineOp op) {
  size_t n = op.getOperands().size();
  if (n == 0 || op.getResults().size() != n || op.getIdentities().size() != n)
    return op.emitOpError("needs one result and one identity per operand");
  for (Value operand : op.getOperands()) {
    auto tile = cast<TileType>(operand.getType());
    if (op.getDim() < 0 || op.getDim() >= tile.getRank())
      return op.emitOpError("dim ") << op.getDim() << " is out of range";
  }
  Block &body = op.getBody().front();
  if (body.getNumArguments() != 2 * n)
    return op.emitOpError("body takes ") << 2 * n << " scalar arguments";
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    auto element = cast<TileType>(op.getOperands()[i / 2].getType());
    if (arg.getType() !=
        TileType::get(op.getContext(), {}, element.getElementType()))
      return op.emitOpError("body argument ")
             << i << " must be a scalar of " << element.getElementType();
  }
  return success();
}

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseCombineOp(parser, result, getReverseAttrName(result.name));
}
void ReduceOp::print(OpAsmPrinter &printer) { printCombineOp(printer, *this); }
LogicalResult ReduceOp::verify() {
  if (getReverse())
    return emitOpError("reduce has no direction");
  return verifyCombineOp(*this);
}

ParseResult ScanOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseCombineOp(parser, result, getReverseAttrName(result.name));
}
void ScanOp::print(OpAsmPrinter &printer) { printCombineOp(printer, *this); }
LogicalResult ScanOp::verify() { return verifyCombineOp(*this); }
