//===- TilePieces.cpp - one pass over a register tile's column pieces ------===//

#include "cuda/emit/TilePieces.h"
#include "cuda/emit/RuntimeCalls.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

namespace {

void collect(PieceNode *node, llvm::SmallPtrSetImpl<PieceNode *> &seen,
             std::vector<PieceNode *> &out) {
  if (!seen.insert(node).second)
    return;
  out.push_back(node);
  for (PieceNode *operand : node->operands)
    collect(operand, seen, out);
}

std::vector<PieceNode *> nodesUnder(PieceNode *node) {
  llvm::SmallPtrSet<PieceNode *, 16> seen;
  std::vector<PieceNode *> out;
  collect(node, seen, out);
  return out;
}

class PassEmitter {
public:
  PassEmitter(OpBuilder &b, Location loc, Value tid, int64_t cols,
              int64_t width)
      : b(b), loc(loc), ctx(b.getContext()), tid(tid), cols(cols),
        width(width) {}

  void emit(MutableArrayRef<PieceSink> sinks);

private:
  OpBuilder &b;
  Location loc;
  MLIRContext *ctx;
  Value tid, c;
  int64_t cols, width;
  DenseMap<PieceNode *, Value> pieces; ///< This trip's value of each node.

  Type frag(StringRef elem, int64_t n) {
    return emitc::OpaqueType::get(
        ctx, llvm::formatv("tp::Frag<{0}, {1}>", elem, n).str());
  }
  Value literal(Type type, const Twine &text) {
    return b.create<emitc::LiteralOp>(loc, type, text.str());
  }
  Value i64(int64_t v) { return literal(b.getI64Type(), Twine(v)); }
  Value call(Type result, StringRef callee, ValueRange operands,
             ArrayRef<std::string> templateArgs) {
    SmallVector<Attribute> targs;
    for (const std::string &t : templateArgs)
      targs.push_back(emitc::OpaqueAttr::get(ctx, t));
    auto op = b.create<emitc::CallOpaqueOp>(
        loc, result ? TypeRange(result) : TypeRange(), callee, operands,
        ArrayAttr(), targs.empty() ? ArrayAttr() : b.getArrayAttr(targs));
    return result ? op.getResult(0) : Value();
  }
  Value piece(PieceNode *node);
};

/// A tcgen05.ld's template arguments, with the tile's tp::TmemLayout
/// unless it is the default.
static std::vector<std::string> withLayout(std::vector<std::string> targs,
                                           Value tile) {
  if (std::string l = tmemLayoutArg(tile); !l.empty())
    targs.push_back(l);
  return targs;
}

Value PassEmitter::piece(PieceNode *node) {
  if (Value v = pieces.lookup(node))
    return v;
  std::string w = std::to_string(width);
  Value v;
  switch (node->kind) {
  case PieceNode::Kind::Tmem:
    v = call(frag(node->elem, width), "tp::tmem_load_cols",
             {node->value, c, tid}, withLayout({w, node->elem}, node->tile));
    break;
  case PieceNode::Kind::Smem:
    if (!node->blockedTile.empty())
      v = call(frag(node->elem, width), "tp::smem_load_tile",
               {node->value, c, tid},
               {node->blockedTile, std::to_string(node->cols), w, node->elem});
    else
      v = call(frag(node->elem, width), "tp::smem_load_cols",
               {node->value, c, tid},
               {std::to_string(node->cols), w, node->elem});
    if (!node->padValue.empty())
      v = call(frag(node->elem, width), "tp::padded",
               {v, tid, c, node->padRows, node->padCols,
                literal(b.getF32Type(), node->padValue)},
               {std::to_string(node->padSourceCols),
                std::to_string(node->cols)});
    break;
  case PieceNode::Kind::ColSmem:
    v = call(frag(node->elem, width), "tp::smem_vec_cols", {node->value, c},
             {w, node->elem});
    break;
  case PieceNode::Kind::Whole:
    v = call(frag(node->elem, width), "tp::cols", {node->value, c}, {w});
    break;
  case PieceNode::Kind::Row:
    v = node->value; // Broadcast by the elementwise functions.
    break;
  case PieceNode::Kind::Iota:
    v = call(frag(node->elem, width), "tp::iota_cols", {c}, {w});
    break;
  case PieceNode::Kind::Call: {
    SmallVector<Value> operands;
    for (PieceNode *operand : node->operands)
      operands.push_back(piece(operand));
    std::vector<std::string> targs = node->templateArgs;
    if (node->widthArg)
      targs.insert(targs.begin(), w);
    v = call(frag(node->elem, width), node->callee, operands, targs);
    break;
  }
  }
  pieces[node] = v;
  return v;
}

void PassEmitter::emit(MutableArrayRef<PieceSink> sinks) {
  bool unroll = false;
  for (PieceSink &sink : sinks) {
    unroll |= sink.kind == PieceSink::Kind::Whole || readsWhole(sink.node);
    // Results are declared before the loop; each trip writes its piece.
    switch (sink.kind) {
    case PieceSink::Kind::Max:
    case PieceSink::Kind::Sum:
      sink.result = b.create<emitc::VariableOp>(
          loc, frag(sink.node->elem, sink.rows),
          emitc::OpaqueAttr::get(ctx, ""));
      break;
    case PieceSink::Kind::Whole:
      sink.result = b.create<emitc::VariableOp>(
          loc, frag(sink.node->elem, cols), emitc::OpaqueAttr::get(ctx, ""));
      break;
    default:
      break;
    }
  }
  // The comment takes the semicolon the C++ emitter puts after an op in a
  // nested block: a statement between the pragma and its loop would void it.
  b.create<emitc::VerbatimOp>(
      loc, unroll ? "#pragma unroll // registers: constant piece columns"
                  : "#pragma unroll 1 // one piece per trip");
  auto loop = b.create<emitc::ForOp>(loc, i64(0), i64(cols), i64(width));
  OpBuilder::InsertionGuard guard(b);
  Block &body = loop.getRegion().front();
  if (body.empty() || !body.back().hasTrait<OpTrait::IsTerminator>()) {
    b.setInsertionPointToEnd(&body);
    b.create<emitc::YieldOp>(loc);
  }
  b.setInsertionPoint(&body.back());
  c = loop.getInductionVar();
  std::string w = std::to_string(width);
  for (PieceSink &sink : sinks) {
    Value v = piece(sink.node);
    switch (sink.kind) {
    case PieceSink::Kind::Max:
    case PieceSink::Kind::Sum:
      call(Type(),
           sink.kind == PieceSink::Kind::Max ? "tp::fold_max" : "tp::fold_sum",
           {sink.result, v, c}, {std::to_string(sink.rows)});
      break;
    case PieceSink::Kind::TmemStore:
      call(Type(), "tp::tmem_store_cols", {sink.dst, c, v, tid},
           sink.tmemLayout.empty()
               ? std::vector<std::string>{w, sink.node->elem}
               : std::vector<std::string>{w, sink.node->elem, sink.tmemLayout});
      break;
    case PieceSink::Kind::SmemStore:
      if (!sink.mmaTile.empty())
        call(Type(), "tp::smem_store_mma_cols", {sink.dst, c, v, sink.row},
             {sink.mmaTile, w, sink.node->elem});
      else if (!sink.blockedTile.empty())
        call(Type(), "tp::smem_store_tile", {sink.dst, c, v, tid},
             {sink.blockedTile, std::to_string(cols), w, sink.node->elem});
      else
        call(Type(), "tp::smem_store_cols", {sink.dst, c, v, tid},
             {std::to_string(cols), w, sink.node->elem});
      break;
    case PieceSink::Kind::Whole:
      call(Type(), "tp::put_cols", {sink.result, c, v}, {});
      break;
    }
  }
}

} // namespace

std::vector<PieceNode *> cuda::sourcesOf(PieceNode *node) {
  std::vector<PieceNode *> out;
  for (PieceNode *n : nodesUnder(node))
    if (n->kind == PieceNode::Kind::Tmem || n->kind == PieceNode::Kind::Smem ||
        n->kind == PieceNode::Kind::ColSmem)
      out.push_back(n);
  return out;
}

bool cuda::readsWhole(PieceNode *node) {
  return llvm::any_of(nodesUnder(node), [](PieceNode *n) {
    return n->kind == PieceNode::Kind::Whole;
  });
}

namespace {

/// Bits per column of one piece of a node's values.
int64_t elementBits(const PieceNode *node) {
  StringRef e = node->elem;
  if (e == "__nv_bfloat16" || e == "__half" || e == "int16_t" ||
      e == "uint16_t")
    return 16;
  if (e.contains("fp8") || e == "int8_t" || e == "uint8_t")
    return 8;
  return 32; // float, 32-bit integers; a bool takes a register too.
}

/// The pass's emission order (PassEmitter::piece: operands first, each
/// node once, the sinks in order) as (node, its operands) steps; a sink is a
/// step that defines nothing.
void emissionOrder(
    PieceNode *node, llvm::SmallPtrSetImpl<PieceNode *> &seen,
    std::vector<std::pair<PieceNode *, std::vector<PieceNode *>>> &steps) {
  if (!seen.insert(node).second)
    return;
  for (PieceNode *operand : node->operands)
    emissionOrder(operand, seen, steps);
  steps.push_back({node, node->operands});
}

} // namespace

int64_t cuda::liveBitsPerColumn(ArrayRef<PieceSink> sinks) {
  std::vector<std::pair<PieceNode *, std::vector<PieceNode *>>> steps;
  llvm::SmallPtrSet<PieceNode *, 16> seen;
  for (const PieceSink &sink : sinks) {
    emissionOrder(sink.node, seen, steps);
    steps.push_back({nullptr, {sink.node}});
  }
  DenseMap<PieceNode *, size_t> lastUse;
  for (auto [i, step] : llvm::enumerate(steps))
    for (PieceNode *used : step.second)
      lastUse[used] = i;
  // A broadcast (Row) is one value per row, not a piece: it is not counted.
  int64_t live = 0, most = 0;
  SmallVector<PieceNode *> held;
  for (auto [i, step] : llvm::enumerate(steps)) {
    if (PieceNode *node = step.first;
        node && node->kind != PieceNode::Kind::Row && lastUse.count(node)) {
      held.push_back(node);
      live += elementBits(node);
    }
    most = std::max(most, live);
    llvm::erase_if(held, [&](PieceNode *n) {
      if (lastUse.lookup(n) != i)
        return false;
      live -= elementBits(n);
      return true;
    });
  }
  return most;
}

void cuda::emitPass(OpBuilder &b, Location loc, Value tid, int64_t cols,
                    int64_t width, MutableArrayRef<PieceSink> sinks) {
  PassEmitter(b, loc, tid, cols, width).emit(sinks);
}

std::string cuda::paddingLiteral(FloatAttr value) {
  APFloat f = value.getValue();
  bool lost = false;
  f.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
  return llvm::formatv("tp::bits_f32(0x{0:x-}u)",
                       f.bitcastToAPInt().getZExtValue())
      .str();
}
