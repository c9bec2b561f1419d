//===- RuntimeCalls.cpp - the runtime call of a TMA, UMMA or tcgen05.cp ---===//

#include "cuda/emit/RuntimeCalls.h"

#include "cuda/analysis/CudaTypes.h"
#include "tilepipe/layout/mma_shapes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

FailureOr<RuntimeCall> cuda::tmaCall(Operation *op,
                                     const KernelLayout &layout) {
  bool load = isa<tileas::TmaLoadOp>(op);
  Value tile = load ? cast<tileas::TmaLoadOp>(op).getResult()
                    : cast<tileas::TmaStoreOp>(op).getBuffer();
  size_t rank = load ? cast<tileas::TmaLoadOp>(op).getCoords().size()
                     : cast<tileas::TmaStoreOp>(op).getCoords().size();
  const TileLayout *l = layout.tiles.of(tile);
  if (!l)
    return op->emitError("internal error: the tile has no SMEM layout"),
           failure();
  if (rank < 1 || rank > 5)
    return op->emitError() << "TMA of rank " << rank
                           << " is not translated to CUDA (ranks 1 to 5 are)",
           failure();
  return RuntimeCall{load ? "tp::tma_load" : "tp::tma_store", {l->cppType}};
}

int64_t cuda::tmaBytesInto(Value slot, const KernelLayout &layout) {
  int64_t bytes = 0;
  for (Operation *user : slot.getUsers())
    if (auto load = dyn_cast<tileas::TmaLoadOp>(user);
        load && load.getDst() == slot)
      if (const TileLayout *l = layout.tiles.of(load.getResult()))
        bytes += l->bytes;
  return bytes;
}

FailureOr<std::string> cuda::mmaOperandView(Operation *mma, Value v,
                                            bool mnMajor,
                                            const KernelLayout &layout) {
  const TileLayout *l = layout.tiles.of(v);
  if (!l || l->kind != TileLayout::Kind::Mma)
    return mma->emitError("internal error: an MMA operand without an MMA "
                          "tile layout"),
           failure();
  return std::string(mnMajor ? "tp::MNMajor<" : "tp::KMajor<") + l->cppType +
         ">";
}

std::string cuda::unsignedView(StringRef view) {
  std::string s = view.str();
  constexpr StringRef kSigned = "<int8_t,";
  size_t at = s.find(kSigned);
  if (at != std::string::npos)
    s.replace(at, kSigned.size(), "<uint8_t,");
  return s;
}

FailureOr<RuntimeCall> cuda::ummaCall(tileas::UmmaOp op,
                                      const KernelLayout &layout) {
  auto view = [&](Value v, bool mnMajor) -> FailureOr<std::string> {
    FailureOr<std::string> s = mmaOperandView(op, v, mnMajor, layout);
    bool isUnsigned = v == op.getA() ? op.getAUnsigned() : op.getBUnsigned();
    if (succeeded(s) && isUnsigned)
      return unsignedView(*s);
    return s;
  };
  std::string acc = cudaElementName(op.getAcc().getType().getElementType());
  FailureOr<std::string> b = view(op.getB(), op.getBMnMajor());
  if (failed(b))
    return failure();
  if (auto aTmem = dyn_cast<tileas::TmemType>(op.getA().getType())) {
    if (op.getScaleA())
      return op.emitError("a block-scaled UMMA with A in TMEM is not "
                          "translated to CUDA"),
             failure();
    std::string ta = cudaElementName(aTmem.getElementType());
    if (op.getAUnsigned())
      ta = "uint8_t";
    if (ta.empty() || acc.empty())
      return op.emitError("UMMA operand element types without a CUDA "
                          "equivalent are not translated"),
             failure();
    return RuntimeCall{"tp::umma_ts",
                       {acc, ta, std::to_string(aTmem.getDimSize(0)),
                        std::to_string(aTmem.getDimSize(1)), *b}};
  }
  FailureOr<std::string> a = view(op.getA(), op.getAMnMajor());
  if (failed(a))
    return failure();
  if (op.getScaleA()) {
    // The ISA takes any K of whole 32-element blocks; the runtime copies
    // the factors in atoms of four (layout/mma_shapes.h).
    if (!tp::mma_shape::scale_k_ok(int(op.getMmaK())))
      return op.emitError("a block-scaled UMMA with K = ")
                 << op.getMmaK()
                 << " is not translated to CUDA; rule: " << TP_MMA_RULE_SCALE_K,
             failure();
    return RuntimeCall{"tp::umma_ss_block_scaled", {*a, *b}};
  }
  if (acc.empty())
    return op.emitError("a UMMA accumulator type without a CUDA equivalent "
                        "is not translated"),
           failure();
  return RuntimeCall{"tp::umma_ss", {acc, *a, *b}};
}

FailureOr<RuntimeCall> cuda::tmemCopyCall(tileas::TmemCopyOp op,
                                          const KernelLayout &layout) {
  auto source = cast<ShapedType>(op.getSource().getType());
  const TileLayout *l = layout.tiles.of(op.getSource());
  if (!l || source.getRank() != 3 ||
      !source.getElementType().isUnsignedInteger(8) ||
      source.getDimSize(1) % 32 != 0 || source.getDimSize(2) != 16)
    return op.emitError()
               << "tcgen05.cp is translated for block-scale factors in their "
                  "atom form (Ax(32J)x16 ui8, docs/cuda.md), not "
               << source,
           failure();
  return RuntimeCall{"tp::tmem_copy_scales",
                     {std::to_string(source.getDimSize(0)),
                      std::to_string(source.getDimSize(1) / 32)}};
}

std::optional<UnsetAccumulator>
cuda::unsetAccumulator(Value acc, const KernelLayout &layout) {
  // The buffer a value names: loop-carried values, branch results and UMMA
  // results name the buffer they started as.
  for (;;) {
    if (auto result = dyn_cast<OpResult>(acc)) {
      if (auto loop = dyn_cast<scf::ForOp>(result.getOwner())) {
        acc = loop.getInitArgs()[result.getResultNumber()];
        continue;
      }
      if (auto mma = dyn_cast<tileas::UmmaOp>(result.getOwner())) {
        acc = mma.getAcc();
        continue;
      }
      // Peeled code picks between a prologue-steady-epilogue path and a
      // short one; both carry the same buffer.
      if (auto branch = dyn_cast<scf::IfOp>(result.getOwner())) {
        acc = branch.thenYield().getOperand(result.getResultNumber());
        continue;
      }
    } else if (auto arg = dyn_cast<BlockArgument>(acc)) {
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
          loop && arg.getArgNumber() > 0) {
        acc = loop.getInitArgs()[arg.getArgNumber() - 1];
        continue;
      }
    }
    break;
  }
  UnsetAccumulator u;
  tileas::TmemType type;
  if (auto alloc = acc.getDefiningOp<tileas::AllocTmemOp>()) {
    auto it = layout.tmemBuffers.find(alloc.getResult());
    if (it == layout.tmemBuffers.end())
      return std::nullopt;
    type = alloc.getType();
    u.column = it->second;
    u.slotCols = tileas::getTmemColumns(type);
  } else if (auto acquire =
                 acc.getDefiningOp<tileas::PipeProducerAcquireOp>()) {
    auto it = layout.pipeIds.find(acquire.getPipe().getDefiningOp());
    if (it == layout.pipeIds.end() || !layout.pipes[it->second].tmem)
      return std::nullopt;
    const PipeLayout &p = layout.pipes[it->second];
    type = cast<tileas::TmemType>(acquire.getType());
    u.column = p.tmemColumn;
    u.slotCols = p.slotCols;
  } else {
    return std::nullopt;
  }
  u.m = type.getDimSize(0);
  u.n = type.getDimSize(1);
  u.elem = cudaElementName(type.getElementType());
  return u;
}

std::string cuda::tmemLayoutArg(Value tile) {
  auto type = dyn_cast<tileas::TmemType>(tile.getType());
  if (!type || !tileas::holdsAccumulator(tile))
    return "";
  if (type.getShape().front() == 64)
    return "tp::TmemLayout::Acc64";
  return type.getElementTypeBitWidth() < 32 ? "tp::TmemLayout::Acc" : "";
}

std::string cuda::tmemStoreLayoutArg(Operation *store) {
  Value result = store->getResult(0);
  if (OpOperand *into = tileas::getIntoOperand(store))
    if (into->get().getType() == result.getType() &&
        tileas::holdsAccumulator(into->get()))
      return tmemLayoutArg(into->get());
  return tmemLayoutArg(result);
}
