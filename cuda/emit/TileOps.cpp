//===- TileOps.cpp - tileas's tile ops as runtime calls -------------------===//
//
// TMA loads and stores, cp.async, tcgen05.cp and UMMA are issued by the
// agent's elected thread with the callee and template arguments that
// RuntimeCalls.h derives from the tiles' layouts; tcgen05.ld/st and SMEM
// loads and stores are every thread's, its rows of the tile; tileas's tile
// math is the runtime's elementwise ops and row reductions.
//
//===----------------------------------------------------------------------===//

#include "cuda/analysis/ElementwiseOps.h"
#include "cuda/emit/KernelEmitter.h"
#include "cuda/emit/TilePieces.h"
#include "ir/WgmmaStaging.h"
#include "ir/WgmmaWarpgroups.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

static std::string str(int64_t v) { return std::to_string(v); }

/// Storage the layout placed: the value is its address.
LogicalResult KernelEmitter::emitStorage(Operation *op) {
  if (auto alloc = dyn_cast<tileas::AllocSmemOp>(op))
    map[alloc.getResult()] =
        smemAddress(layout.smemBuffers.lookup(alloc.getResult()));
  if (auto alloc = dyn_cast<tileas::AllocTmemOp>(op))
    map[alloc.getResult()] =
        tmemAddress(layout.tmemBuffers.lookup(alloc.getResult()));
  return success();
}

/// A TMA load into a pipe slot completes on the slot's full barrier; one
/// without a slot is an epilogue's own tile.
LogicalResult KernelEmitter::emit(tileas::TmaLoadOp load) {
  if (!load.getDst())
    return emitEpilogueLoad(load);
  Location loc = load.getLoc();
  auto acquire = tileas::stripViews(load.getDst())
                     .getDefiningOp<tileas::PipeProducerAcquireOp>();
  const PipeLayout &p = pipeOf(acquire.getPipe());
  Value slot = lookup(loc, load.getDst()), k = lookup(loc, acquire.getIter());
  if (!broken)
    k = pipeIter(p, k, false);
  if (broken ||
      failed(emitTmaLoad(load, slot, barriers(p.full), p.depth, k, p.id)))
    return failure();
  map[load.getResult()] = slot;
  return success();
}

/// A view is the slot's address, laid out for its own readers.
LogicalResult KernelEmitter::emit(tileas::SmemViewOp view) {
  map[view.getResult()] = lookup(view.getLoc(), view->getOperand(0));
  return success();
}

LogicalResult KernelEmitter::emit(tileas::TmaStoreOp store) {
  Location loc = store.getLoc();
  Value buf = lookup(loc, store->getOperand(0)),
        desc = lookup(loc, store.getDesc());
  SmallVector<Value> coords;
  for (Value c : store.getCoords())
    coords.push_back(lookup(loc, c));
  if (broken)
    return failure();
  FailureOr<RuntimeCall> tma = tmaCall(store, layout);
  if (failed(tma))
    return failure();
  // The agent's threads wrote the tile through the generic proxy.
  callVoid("tp::fence_proxy_async", {});
  agentSync();
  inLeader([&] {
    SmallVector<Value> args = {desc, buf};
    llvm::append_range(args, coords);
    callVoid(tma->callee, args, tma->templateArgs);
  });
  return success();
}

LogicalResult KernelEmitter::emit(tileas::CpAsyncOp copy) {
  Location loc = copy.getLoc();
  auto src = cast<MemRefType>(copy.getSrc().getType());
  auto tile = cast<ShapedType>(copy.getType());
  if (!copy.getDst() || copy.getCoords().size() != 2 || src.getRank() != 2 ||
      tile.getRank() != 2)
    return emitError(loc, "only 2-D cp.async copies into a pipe slot are "
                          "translated to CUDA");
  Value dst = lookup(loc, copy.getDst()), from = lookup(loc, copy.getSrc());
  Value r0 = lookup(loc, copy.getCoords()[0]),
        c0 = lookup(loc, copy.getCoords()[1]);
  if (broken)
    return failure();
  callVoid("tp::cp_async_tile",
           {dst, from, r0, c0, tid, intLit(agentThreads())},
           {str(tile.getShape()[0]), str(tile.getShape()[1]),
            registerElementName(tile.getElementType()),
            str(src.getShape()[1])});
  map[copy.getResult()] = dst;
  return success();
}

LogicalResult KernelEmitter::emit(tileas::TmemCopyOp copy) {
  Location loc = copy.getLoc();
  Value src = lookup(loc, copy->getOperand(0));
  if (broken)
    return failure();
  Value dst = copy.getDst()
                  ? lookup(loc, copy.getDst())
                  : tmemAddress(layout.tmemBuffers.lookup(copy.getResult()));
  FailureOr<RuntimeCall> cp = tmemCopyCall(copy, layout);
  if (failed(cp))
    return failure();
  if (auto sc = layout.scaleCopies.find(copy); sc != layout.scaleCopies.end()) {
    // Copy n goes to buffer n % 2 once the MMA that read copy n - 2 from
    // it has completed (its commit arrives on barrier n % 2). Only the
    // elected thread copies, so only it waits: the commit can complete
    // the phase before a lagging warp of the agent reaches its wait,
    // which then waits for the next phase, which needs that warp to go
    // on (the CPU emulator deadlocked peeled block-scaled GEMM so).
    Value n = scaleCount(copy);
    inLeader([&] {
      callVoid("tp::mbar_wait", {barriers(sc->second.barriers), intLit(2), n,
                                 literal(u32(), "1")});
      callVoid("tp::tcgen05_after", {});
    });
    dst = call(u32(), "tp::tmem_slot",
               {tmemAddress(sc->second.column), intLit(sc->second.cols),
                intLit(2), n});
  }
  inLeader([&] { callVoid(cp->callee, {dst, src}, cp->templateArgs); });
  map[copy.getResult()] = dst;
  return success();
}

LogicalResult KernelEmitter::emit(tileas::UmmaOp mma) {
  Location loc = mma.getLoc();
  Value a = lookup(loc, mma->getOperand(0)),
        bv = lookup(loc, mma->getOperand(1)),
        acc = lookup(loc, mma->getOperand(2));
  SmallVector<Value> scales;
  if (mma.getScaleA()) // Block-scaled: the factors tmem_copy put in TMEM.
    scales = {lookup(loc, mma.getScaleA()), lookup(loc, mma.getScaleB())};
  if (broken)
    return failure();
  FailureOr<RuntimeCall> umma = ummaCall(mma, layout);
  if (failed(umma))
    return failure();
  std::optional<UnsetAccumulator> unset =
      unsetAccumulator(mma.getAcc(), layout);
  inLeader([&] {
    // enable-input-d: as the IR says, except that an accumulator without
    // an initial value is overwritten by its first MMA (RuntimeCalls.h).
    Value enable = boolLit(mma.getAccumulate());
    if (unset)
      enable = call(i1(), "tp::acc_enable",
                    {accMask(*unset), acc, accBase(*unset),
                     intLit(unset->slotCols), enable});
    SmallVector<Value> args = {acc, a, bv};
    llvm::append_range(args, scales);
    args.push_back(enable);
    callVoid(umma->callee, args, umma->templateArgs);
    // Frees the double-buffered scale factors once this MMA completes.
    for (Value sf : {mma.getScaleA(), mma.getScaleB()})
      if (Operation *copy = sf ? sf.getDefiningOp() : nullptr;
          copy && layout.scaleCopies.count(copy))
        callVoid("tp::umma_arrive",
                 {barriers(layout.scaleCopies.lookup(copy).barriers), intLit(2),
                  scaleCount(copy)});
  });
  for (Value sf : {mma.getScaleA(), mma.getScaleB()})
    if (Operation *copy = sf ? sf.getDefiningOp() : nullptr;
        copy && layout.scaleCopies.count(copy))
      increment(loc, scaleCount(copy));
  map[mma.getResult()] = acc;
  return success();
}

/// Hopper's MMA: the agent's warpgroup issues one K-block into the
/// accumulator fragment it holds (runtime/wgmma.cuh), in place; the
/// fragment variable is the result (WgmmaAccumulators.h made the
/// accumulator's only reader this MMA).
LogicalResult KernelEmitter::emit(tileas::WgmmaOp mma) {
  Location loc = mma.getLoc();
  Value a = lookup(loc, mma.getA()), bv = lookup(loc, mma.getB()),
        acc = lookup(loc, mma.getAcc());
  if (broken)
    return failure();
  auto view = [&](Value v, bool mnMajor) {
    return mmaOperandView(mma, v, mnMajor, layout);
  };
  // A in registers (P V) is a tile in the fragment's rows.
  bool regA = isa<RankedTensorType>(mma.getA().getType());
  FailureOr<std::string> av = regA ? FailureOr<std::string>(std::string())
                                   : view(mma.getA(), mma.getAMnMajor()),
                         bt = view(mma.getB(), mma.getBMnMajor());
  if (failed(av) || failed(bt))
    return failure();
  stageOperands(mma, {std::pair(&a, &*av), std::pair(&bv, &*bt)});
  if (mma.getAUnsigned())
    *av = unsignedView(*av);
  if (mma.getBUnsigned())
    *bt = unsignedView(*bt);
  // Each consumer warpgroup its bands: all of them for one warpgroup, the
  // 64 rows of its own for one warpgroup per 64 rows.
  int64_t groups = tileas::consumerWarpgroups(mma);
  if (layout.agents[agent].threads() != 128 * groups)
    return mma.emitError("a wgmma is issued by ")
           << groups << " consumer warpgroup(s) here; its agent has "
           << layout.agents[agent].threads() << " threads",
           failure();
  bool ignoredAcc =
      !mma.getAccumulate() && mma.getAcc().getDefiningOp<arith::ConstantOp>();
  // In place, unless the accumulator is read elsewhere too (zeros, or a
  // value the stage code also hands on): then on a copy of its own.
  if (!mma.getAcc().hasOneUse() ||
      mma.getAcc().getDefiningOp<arith::ConstantOp>()) {
    FailureOr<Type> type = convert(loc, mma.getAcc());
    if (failed(type))
      return failure();
    Value own = b.create<emitc::VariableOp>(loc, *type,
                                            emitc::OpaqueAttr::get(ctx, ""));
    // Attention's S starts from zeros each iteration: scale-d = 0 ignores
    // them, and a zero tile kept for the copy would hold its registers all
    // through the loop.
    if (!(fragBands && ignoredAcc))
      b.create<emitc::AssignOp>(loc, own, acc);
    acc = own;
  }
  int64_t bands = tileas::issuedRows(mma) / 64 / groups;
  issueInTurn();
  if (regA) {
    callVoid("tp::wgmma_rs", {acc, a, bv, boolLit(mma.getAccumulate())},
             {*bt, str(bands)});
  } else {
    // Warpgroup w's bands start at band w Bands of the operand A. w from
    // the warp index, which ptxas knows is warp-uniform (tp::warp_idx):
    // from the thread index, A's descriptors were computed in per-thread
    // registers and moved to uniform ones before each wgmma (R2UR), 13
    // instructions of the GEMM's 73-instruction MMA loop (docs/peers.md).
    Value firstBand = intLit(0);
    if (groups > 1)
      firstBand = warpgroupInAgent();
    if (groups > 1 && bands > 1)
      firstBand =
          b.create<emitc::MulOp>(loc, b.getI32Type(), firstBand, intLit(bands));
    callVoid("tp::wgmma_ss",
             {acc, a, bv, boolLit(mma.getAccumulate()), firstBand},
             {*av, *bt, str(bands)});
  }
  wgmmaInFlight = true;
  map[mma.getResult()] = acc;
  return success();
}

/// Staged operands (ir/WgmmaStaging.h), each copied K-major into the next of
/// its ring's two staging tiles (KernelLayout::Staged); `operands` are A's and
/// B's address and view, which then name the staged tiles. wait_group 1
/// first: every group but the last one issued has retired, and the last is
/// not the one that read the tile about to be overwritten (that was two
/// copies ago, or another wgmma came after it). The agent meets after the
/// copies, so that the wgmma reads every thread's part.
void KernelEmitter::stageOperands(
    tileas::WgmmaOp mma,
    std::array<std::pair<Value *, std::string *>, 2> operands) {
  Location loc = mma.getLoc();
  startAgentCounters();
  SmallVector<Value> counts;
  for (unsigned index : {0u, 1u}) {
    auto it = layout.staged.find({mma, index});
    if (it == layout.staged.end())
      continue;
    const KernelLayout::Staged &staged = it->second;
    if (counts.empty())
      wgmmaWait(1);
    Value &count = stagedCounts[staged.buffer];
    if (!count)
      count = agentVariable(i64(), "0");
    counts.push_back(count);
    Value dst = call(u32(), "tp::smem_slot",
                     {literal(opaque("void *"), "S." + staged.buffer),
                      intLit(staged.bytes), intLit(2), count});
    auto [address, view] = operands[index];
    SmallVector<std::string> types = {
        layout.tiles.of(mma->getOperand(index))->cppType, staged.cppType};
    // B under an 8-bit A from the rows: its K in the A's order
    // (layout::wgmma::key_of_a8).
    auto regA = dyn_cast<RankedTensorType>(mma.getA().getType());
    if (index == 1 && regA && regA.getElementTypeBitWidth() == 8)
      types.push_back("true");
    callVoid("tp::wgmma_transpose",
             {dst, *address, tid, intLit(agentThreads())}, types);
    *address = dst;
    *view = "tp::KMajor<" + staged.cppType + ">";
  }
  if (counts.empty())
    return;
  agentSync();
  for (Value count : counts)
    increment(loc, count);
}

/// The accumulator into its row-major f32 tile, once every wgmma writing it
/// has retired; the agent syncs before any thread reads another's rows.
LogicalResult KernelEmitter::emitWgmmaAccStore(Operation *store,
                                               int64_t regs) {
  Location loc = store->getLoc();
  Value frag = lookup(loc, store->getOperand(0));
  Value dst = storeAddress(store);
  if (broken)
    return failure();
  auto t = cast<RankedTensorType>(store->getOperand(0).getType());
  int64_t n = t.getShape()[1];
  int groups = agentThreads() / 128;
  flushWgmmaReleases();
  // A narrow tile keeps its rows of the 64 its wgmma computed.
  int64_t bands = 2 * regs / n;
  SmallVector<std::string> args = {str(bands), str(n)};
  if (t.getShape()[0] < 64 * bands * groups)
    args.push_back(str(t.getShape()[0]));
  callVoid("tp::wgmma_acc_store", {dst, frag, tid}, args);
  agentSync();
  map[store->getResult(0)] = dst;
  // Two consumer warpgroups of a 128-row tile, or one of a narrow tile: the
  // epilogue reads it a row a thread, so the first warpgroup (the first
  // M threads) runs the rest of the agent (the others have handed their
  // rows on and exit). A 256-row tile keeps both; one warpgroup reads a
  // 128-row tile a row a thread and a 64-row one a row a thread pair
  // (rowsTwice).
  int64_t rows = t.getShape()[0];
  if (groups == 1 ? !tileas::isNarrowM(rows) : rows >= agentThreads())
    return success();
  // A 32-row tile's first warp rejoins the others at the tile's end
  // (emitTiles); two warpgroups' narrowing is not undone there yet, and
  // fewer lanes than a warp would meet the agent's barrier (aligned: the
  // whole warp at once) while the rest of their warp still syncs apart.
  if (persistent && rows != 32)
    return store->emitError("an accumulator of ")
           << rows << " rows over " << agentThreads()
           << " consumer threads in a persistent kernel is not translated to "
              "CUDA yet (its epilogue runs in the first "
           << rows << " threads while the others would start the next tile)";
  auto ifOp = b.create<emitc::IfOp>(
      loc,
      rows == 128 ? call(i1(), "tp::first_warpgroup", {tid})
                  : call(i1(), "tp::first_threads", {tid, intLit(rows)}),
      /*addThenBlock=*/true, /*addElseBlock=*/false);
  enter(ifOp.getThenRegion());
  narrowed = int(rows);
  narrowIf = ifOp;
  // Fewer rows than a warp's lanes: the warp's elected lane may be none of
  // them, so the agent's first thread issues the epilogue's copies.
  if (rows < 32) {
    leaderBeforeNarrow = leader;
    leader = call(i1(), "tp::first_threads", {tid, intLit(1)});
  }
  streams.narrow(int(rows));
  return success();
}

/// tcgen05.ld or an SMEM load: each thread its rows (the whole vector for a
/// per-column one), in the TMEM tile's layout.
LogicalResult KernelEmitter::emitTileLoad(Operation *op) {
  if (auto load = dyn_cast<tileas::SmemLoadOp>(op); load && fragBands)
    return emitRowsLoad(load);
  Location loc = op->getLoc();
  Value src = lookup(loc, op->getOperand(0));
  if (broken)
    return failure();
  Value result = op->getResult(0);
  FailureOr<Type> type = convert(loc, result);
  if (failed(type))
    return failure();
  auto t = cast<RankedTensorType>(result.getType());
  int64_t n = *fragSize(loc, result);
  int64_t cols = t.getRank() >= 2 ? t.getShape()[1] : 1;
  std::vector<std::string> targs = {
      str(cols), registerElementName(t.getElementType()), str(n)};
  bool tmem = isa<tileas::TmemLoadOp>(op);
  std::string l = tmem ? tmemLayoutArg(op->getOperand(0)) : "";
  if (tmem && failed(checkTmemRows(loc, t, l)))
    return failure();
  if (!l.empty())
    targs.push_back(l);
  Value row = tmem ? tid : rowsOf(result);
  if (auto load = dyn_cast<tileas::SmemLoadOp>(op);
      load && load.getTransposed())
    return emitTransposedLoad(load, *type, row, n);
  // A vector read for rows split over L lanes: thread t reads piece t % L
  // of a per-column vector, and element t / L of a per-row one.
  if (auto load = dyn_cast<tileas::SmemLoadOp>(op);
      load && load.getLanes() && load.getSource().getType().getRank() == 1)
    row = call(tid.getType(),
               t.getRank() == 1 ? "tp::row_of_lane" : "tp::lane_in_row", {tid},
               {str(*load.getLanes())});
  std::string blocked =
      tmem ? "" : layout.tiles.blockedType(op->getOperand(0));
  // A vector the agent's threads wrote, each its own element, read back
  // whole (ColumnVectors.cpp: a column statistic spread along columns):
  // every element is written first, and read before a later write.
  bool threadsWrote =
      !tmem && op->getOperand(0).getDefiningOp<tileas::SmemStoreOp>() &&
      cast<ShapedType>(op->getOperand(0).getType()).getRank() == 1;
  if (threadsWrote)
    agentSync();
  // A swizzled tile of an agent in the fragment's rows read by its
  // row-a-thread island (findThreadRowsIsland), rows split over lanes.
  const TileLayout *swizzled =
      tmem ? nullptr : layout.tiles.of(op->getOperand(0));
  auto splitLoad = dyn_cast<tileas::SmemLoadOp>(op);
  if (swizzled && swizzled->kind != TileLayout::Kind::Mma)
    swizzled = nullptr;
  if (!blocked.empty())
    map[result] = call(*type, "tp::smem_load_tile", {src, intLit(0), row},
                       {blocked, str(n), str(n), targs[1]});
  else if (swizzled && splitLoad && splitLoad.getLanes() && t.getRank() == 2 &&
           cast<ShapedType>(splitLoad.getSource().getType()).getRank() == 2)
    map[result] =
        call(*type, "tp::smem_load_mma_lanes", {src, row},
             {swizzled->cppType, str(int64_t(splitLoad.getLanes().value_or(1))),
              targs[1], str(n)});
  else
    map[result] = call(*type, tmem ? "tp::tmem_load" : "tp::smem_load",
                       {src, row}, targs);
  if (threadsWrote)
    agentSync();
  if (auto load = dyn_cast<tileas::SmemLoadOp>(op); load && load.getPaddingAttr())
    map[result] = padded(load, map[result], row, n);
  return success();
}

/// The transpose of a row-major SMEM tile, each thread its elements of the
/// transposed tile as a plain load hands out rows (tp::smem_load_transposed).
/// The source is the DenseTile a TMA box fills; a blocked or swizzled one,
/// and 64-row tiles (two threads a row), are not read this way.
LogicalResult KernelEmitter::emitTransposedLoad(tileas::SmemLoadOp load,
                                                Type type, Value row,
                                                int64_t n) {
  Value src = lookup(load.getLoc(), load.getSource());
  auto source = cast<ShapedType>(load.getSource().getType());
  auto result = cast<RankedTensorType>(load.getResult().getType());
  if (broken)
    return failure();
  if (const TileLayout *l = layout.tiles.of(load.getSource());
      (l && l->kind == TileLayout::Kind::Mma) ||
      !layout.tiles.blockedType(load.getSource()).empty() || rowsTwice(result))
    return load.emitError("a transposed read of an SMEM tile is translated "
                          "only from a dense tile (one TMA box, not an MMA "
                          "operand) into whole rows or their lanes' pieces");
  // A tile the agent's own threads wrote (a register tile's transpose,
  // staged through SMEM): each thread reads every thread's row, so all
  // rows are written first, and read before the next write reuses them.
  bool threadsWrote = load.getSource().getDefiningOp<tileas::SmemStoreOp>();
  if (threadsWrote)
    agentSync();
  Value frag = call(type, "tp::smem_load_transposed", {src, row},
                    {str(source.getShape()[0]), str(source.getShape()[1]),
                     registerElementName(result.getElementType()), str(n)});
  map[load.getResult()] =
      load.getPaddingAttr() ? padded(load, frag, row, n) : frag;
  if (threadsWrote)
    agentSync();
  return success();
}

/// An SMEM tile read with a padding: each thread's elements past the
/// tensor's edge replaced (tp::padded), `row` the row the thread read in
/// the tile as the load addressed it, `n` elements each. Read transposed
/// (a column max's -inf), element (r, c) is (c, r) of the source, so the
/// valid extents swap and its rows have the source's row count.
Value KernelEmitter::padded(tileas::SmemLoadOp load, Value frag, Value row,
                            int64_t n) {
  Location loc = load.getLoc();
  auto source = cast<ShapedType>(load.getSource().getType());
  Value rows = source.getRank() == 2 ? lookup(loc, load.getValid().front())
                                     : intLit(1);
  Value cols = lookup(loc, load.getValid().back());
  int64_t width = source.getShape().back();
  if (load.getTransposed()) {
    std::swap(rows, cols);
    width = source.getShape().front();
  }
  return call(frag.getType(), "tp::padded",
              {frag, row, intLit(0), rows, cols,
               literal(b.getF32Type(), paddingLiteral(load.getPaddingAttr()))},
              {str(width), str(n)});
}

/// tcgen05.st or an SMEM store of the thread's rows; a UMMA operand in SMEM
/// is written in its swizzled layout.
LogicalResult KernelEmitter::emitTileStore(Operation *op) {
  if (auto it = wgmmaFrags.find(op->getOperand(0));
      it != wgmmaFrags.end() && isa<tileas::SmemStoreOp>(op))
    return emitWgmmaAccStore(op, it->second);
  if (fragBands && rowsChains.count(op))
    return emitRowsPieces(cast<tileas::SmemStoreOp>(op));
  if (fragBands)
    return emitRowsStore(cast<tileas::SmemStoreOp>(op));
  Location loc = op->getLoc();
  Value frag = lookup(loc, op->getOperand(0));
  if (broken)
    return failure();
  Value dst = storeAddress(op);
  if (broken)
    return failure();
  Value stored = op->getOperand(0);
  auto t = cast<RankedTensorType>(stored.getType());
  FailureOr<int64_t> n = fragSize(loc, stored);
  if (failed(n))
    return failure();
  int64_t cols = t.getRank() >= 2 ? t.getShape()[1] : 1;
  std::vector<std::string> targs = {
      str(cols), registerElementName(t.getElementType()), str(*n)};
  bool tmem = isa<tileas::TmemStoreOp>(op);
  // A per-row vector of a tile whose rows are split over L lanes: the first
  // of a row's L threads writes it.
  if (auto store = dyn_cast<tileas::SmemStoreOp>(op);
      store && t.getRank() == 1 && store.getLanes() && *store.getLanes() > 1) {
    callVoid("tp::smem_store_row_lanes", {dst, frag, rowsOf(stored)},
             {str(*store.getLanes()), targs[1]});
    map[op->getResult(0)] = dst;
    return success();
  }
  if (!tmem)
    if (const TileLayout *tile = mmaTileOf(op->getResult(0)))
      return emitMmaOperandStore(op, *tile, frag, dst, *n);
  std::string l = tmem ? tmemStoreLayoutArg(op) : "";
  if (tmem && failed(checkTmemRows(loc, t, l)))
    return failure();
  if (!l.empty())
    targs.push_back(l);
  // A per-column vector: every thread writes all of it (the same bytes).
  std::string blocked = tmem ? "" : layout.tiles.blockedType(op->getResult(0));
  if (!blocked.empty())
    callVoid("tp::smem_store_tile", {dst, intLit(0), frag, rowsOf(stored)},
             {blocked, str(*n), str(*n), targs[1]});
  else
    callVoid(tmem ? "tp::tmem_store" : "tp::smem_store",
             {dst, frag, tmem ? tid : rowsOf(stored)}, targs);
  map[op->getResult(0)] = dst;
  return success();
}

/// tileas's elementwise math and row reductions on register tiles held
/// whole: the elementwise table's call (analysis/ElementwiseOps.h, as for
/// arith and math), or tp::reduce_max/reduce_sum over the thread's rows.
LogicalResult KernelEmitter::emitTileMath(Operation *op) {
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  for (Value v : op->getOperands()) {
    Value m = lookup(loc, v);
    if (broken)
      return failure();
    if (!isa<RankedTensorType>(v.getType()))
      m = scalarOperand(m);
    operands.push_back(m);
  }
  FailureOr<Type> type = convert(loc, op->getResult(0));
  if (failed(type))
    return failure();
  pinWide(op, operands);
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (std::optional<ElementwiseCall> math = elementwiseCall(op)) {
    map[op->getResult(0)] =
        call(*type, math->callee, operands,
             math->templateArgs(registerElementName(result.getElementType())));
    return success();
  }
  // Rows, and the pieces a streamed row folds in: one order for both.
  bool max = isa<tileas::ReduceMaxOp>(op);
  Value rows = call(*type, max ? "tp::reduce_max" : "tp::reduce_sum", operands,
                    {str(*fragSize(loc, result)), str(streams.width())});
  // In the wgmma fragment's rows a lane quad holds each row.
  if (fragBands)
    rows = call(*type, max ? "tp::reduce_lanes_max" : "tp::reduce_lanes_sum",
                {rows}, {"4"});
  map[op->getResult(0)] = rows;
  return success();
}

/// A broadcast a reader needs whole (TileStreams streams the others): each
/// thread's rows of the result, made from the vector as the thread holds it,
/// whole for a per-column vector, its rows' values for a per-row one.
LogicalResult KernelEmitter::emit(tileas::BroadcastOp op) {
  Location loc = op.getLoc();
  bool alongColumns = op.isColumnBroadcast();
  if (!alongColumns && !op.isRowBroadcast())
    return op.emitError("only broadcasts of a vector over a rank-2 tile, "
                        "dimensions = [0] or [1], are translated to CUDA");
  Value vector = lookup(loc, op.getInput());
  if (broken)
    return failure();
  FailureOr<Type> type = convert(loc, op.getResult());
  FailureOr<int64_t> n = fragSize(loc, op.getResult());
  if (failed(type) || failed(n))
    return failure();
  // bcast_cols<R>: R rows of the whole vector; bcast_rows<C>: each of the
  // thread's row values C times.
  auto shape = op.getResult().getType().getShape();
  // A thread holds a quarter of each row in the fragment's rows, and the
  // same quarter of a per-column vector: bcast_cols repeats it per row slot.
  int64_t rowCols = fragBands ? shape[1] / 4 : shape[1];
  map[op.getResult()] = alongColumns ? call(*type, "tp::bcast_cols", {vector},
                                            {std::to_string(*n / rowCols)})
                                     : call(*type, "tp::bcast_rows", {vector},
                                            {std::to_string(rowCols)});
  return success();
}

/// Every thread reads the element, zero outside the tensor
/// (tp::global_load_one).
LogicalResult KernelEmitter::emit(tileas::GlobalLoadOp op) {
  Location loc = op.getLoc();
  FailureOr<Type> type = convert(loc, op.getType());
  Value src = lookup(loc, op.getSrc()), offset = lookup(loc, op.getOffset()),
        inside = lookup(loc, op.getInside());
  if (broken || failed(type))
    return failure();
  map[op.getResult()] =
      call(*type, "tp::global_load_one", {src, offset, inside});
  return success();
}

/// The runtime's name of an atomic's `combine` (tp::Combine).
static std::string combineKind(StringRef combine) {
  return "tp::Combine::" + llvm::StringSwitch<std::string>(combine)
                               .Case("add", "Add")
                               .Case("max", "Max")
                               .Case("min", "Min")
                               .Case("xchg", "Xchg")
                               .Case("and", "And")
                               .Case("or", "Or")
                               .Default("Xor");
}

/// One thread of the agent writes the element, when it lies inside the
/// tensor (tp::global_store_one), or combines it atomically.
LogicalResult KernelEmitter::emit(tileas::GlobalStoreOp op) {
  Location loc = op.getLoc();
  Value dst = lookup(loc, op.getDst()), offset = lookup(loc, op.getOffset()),
        value = lookup(loc, op.getValue()),
        inside = lookup(loc, op.getInside());
  if (broken)
    return failure();
  std::optional<StringRef> combine = op.getCombine();
  if (!combine) {
    callVoid("tp::global_store_one", {dst, offset, value, inside, tid});
    return success();
  }
  if (op.getFenced())
    callVoid("__threadfence", {});
  callVoid("tp::global_combine_one", {dst, offset, value, inside, tid},
           {combineKind(*combine)});
  if (op.getFenced())
    callVoid("__threadfence", {});
  return success();
}

/// The index, stride and bound operands of an element access, one
/// tp::ElementIndex per dimension.
SmallVector<Value> KernelEmitter::elementIndices(Location loc,
                                                 ValueRange indices,
                                                 ValueRange strides,
                                                 ValueRange bounds, int64_t n) {
  SmallVector<Value> dims;
  for (auto [i, s, e] : llvm::zip(indices, strides, bounds)) {
    Value index = lookup(loc, i), stride = lookup(loc, s),
          bound = lookup(loc, e);
    // An index the translation refused (an error already given): no call
    // with a missing operand.
    if (broken)
      return {};
    dims.push_back(call(opaque("tp::ElementIndex<" + std::to_string(n) + ">"),
                        "tp::element_index", {index, stride, bound}));
  }
  return dims;
}

/// Each thread reads the elements it holds (tp::global_gather): what TMA
/// cannot move.
LogicalResult KernelEmitter::emit(tileas::GlobalGatherOp op) {
  Location loc = op.getLoc();
  FailureOr<Type> type = convert(loc, op.getResult());
  FailureOr<int64_t> n = fragSize(loc, op.getResult());
  if (failed(type) || failed(n))
    return failure();
  Value src = lookup(loc, op.getSrc());
  Value mask = op.getMask() ? lookup(loc, op.getMask()) : boolLit(true);
  // An index read from memory pads with an integer.
  Value padding =
      isa<IntegerAttr>(op.getPadding())
          ? literal(b.getI32Type(),
                    Twine(cast<IntegerAttr>(op.getPadding()).getInt()))
          : literal(b.getF32Type(),
                    paddingLiteral(cast<FloatAttr>(op.getPadding())));
  SmallVector<Value> operands = {src, padding, mask};
  operands.append(elementIndices(loc, op.getIndices(), op.getStrides(),
                                 op.getBounds(), *n));
  if (broken)
    return failure();
  // Indices the same for every element a thread holds (a row's label read
  // at the row's position, spread over its columns): one read, not N.
  bool once = *n > 1 && sameInThread(op.getResult());
  map[op.getResult()] = call(
      *type, once ? "tp::global_gather_once" : "tp::global_gather", operands,
      {registerElementName(op.getType().getElementType()),
       cudaElementName(op.getSrc().getType().getElementType()),
       std::to_string(*n)});
  return success();
}

/// Each thread writes the elements it holds (tp::global_scatter).
LogicalResult KernelEmitter::emit(tileas::GlobalScatterOp op) {
  Location loc = op.getLoc();
  FailureOr<int64_t> n = fragSize(loc, op.getValue());
  if (failed(n))
    return failure();
  Value dst = lookup(loc, op.getDst()), value = lookup(loc, op.getValue());
  Value mask = op.getMask() ? lookup(loc, op.getMask()) : boolLit(true);
  SmallVector<Value> operands = {dst, value, mask};
  operands.append(elementIndices(loc, op.getIndices(), op.getStrides(),
                                 op.getBounds(), *n));
  if (broken)
    return failure();
  std::optional<StringRef> combine = op.getCombine();
  if (!combine) {
    callVoid("tp::global_scatter", operands);
    return success();
  }
  // An atomic counts each element once: every element must have one
  // holder (not a per-column vector every thread holds, a vector as long as
  // the agent's threads, a tile in the wgmma fragment's rows, not its
  // per-row vectors, which a lane quad holds alike); of a 64-row tile's
  // row, which two threads hold, the first adds it
  // (tp::global_combine_row64).
  RankedTensorType type = op.getValue().getType();
  int threads = agentThreads();
  bool twice = !fragBands && rowsTwice(type) && type.getRank() == 2;
  if (columns.contains(op.getValue()) ||
      (type.getRank() == 1 && (fragBands || type.getShape()[0] % threads)))
    return op.emitError("an atomic combine of a tile some of whose elements "
                        "several threads hold is not translated (a vector "
                        "shorter than the agent's ")
           << threads << " threads, a 64-row tile's per-row vector, a "
           << "per-row vector in the wgmma fragment's rows)";
  if (op.getFenced())
    callVoid("__threadfence", {});
  if (twice)
    operands.insert(operands.begin() + 3, tid);
  callVoid(twice ? "tp::global_combine_row64" : "tp::global_combine", operands,
           {combineKind(*combine)});
  if (op.getFenced())
    callVoid("__threadfence", {});
  return success();
}

/// Positions: each thread's from where the layout puts its elements
/// (runtime/positions.cuh), the fragment's rows or whole rows a thread
/// (tp::row64's row for a 64-row tile). TileStreams makes the pieces of a
/// streamed one.
LogicalResult KernelEmitter::emit(tileas::IotaOp op) {
  Location loc = op.getLoc();
  RankedTensorType t = op.getResult().getType();
  FailureOr<Type> type = convert(loc, op.getResult());
  FailureOr<int64_t> n = fragSize(loc, op.getResult());
  if (failed(type) || failed(n))
    return failure();
  // A per-column vector (positions a broadcast spreads along columns): each
  // thread the columns it holds, all of them or, in the fragment's rows,
  // its quarter.
  if (columns.contains(op.getResult())) {
    map[op.getResult()] =
        fragBands ? call(*type, "tp::wgmma_cols_iota", {tid},
                         {str(t.getShape()[0]), str(*n)})
                  : call(*type, "tp::iota_cols", {intLit(0)}, {str(*n)});
    return success();
  }
  // Otherwise a vector lies as a tile of one column: thread t its R
  // consecutive elements from t R (a 1 x C row of a row kernel, a per-row
  // vector). In the fragment's rows it has no such place.
  if (t.getRank() == 1 && fragBands)
    return op.emitError("a vector of positions in the wgmma fragment's rows "
                        "is translated only as a per-column vector (one a "
                        "tileas.broadcast spreads along columns); broadcast "
                        "it to the tile it masks first");
  std::string dim = str(op.getDimension());
  std::string cols = str(t.getRank() == 2 ? t.getShape()[1] : 1);
  if (fragBands)
    map[op.getResult()] = call(*type, "tp::wgmma_rows_iota", {tid},
                               {dim, str(fragBands), cols, str(*n)});
  else
    map[op.getResult()] =
        call(*type, "tp::iota_rows", {threadRow(t)}, {dim, cols, str(*n)});
  return success();
}

/// A scan along each row the thread holds (tp::scan_rows_sum / _max): its
/// W elements of it in order (from the end when reverse), then, for a row
/// split over L lanes, the lanes before (after) it combined in by shuffles.
LogicalResult KernelEmitter::emit(tileas::ScanOp op) {
  Location loc = op.getLoc();
  Value x = lookup(loc, op.getInput());
  if (broken)
    return failure();
  FailureOr<Type> type = convert(loc, op.getResult());
  if (failed(type))
    return failure();
  RankedTensorType t = op.getInput().getType();
  if (rowsTwice(t))
    return op.emitError("a scan along rows of a 64-row tile (two threads a "
                        "row) is not translated to CUDA");
  uint64_t lanes = op.getLanes().value_or(1);
  SmallVector<std::string> args = {str(t.getShape()[1]), str(int64_t(lanes))};
  if (op.getReverse())
    args.push_back("true");
  map[op.getResult()] =
      call(*type, ("tp::scan_rows_" + op.getKind()).str(), {x}, args);
  return success();
}

/// A row split over L lanes put back together: shuffles among the lanes
/// (tp::reduce_lanes_sum / _max), each thread's row values at once.
LogicalResult KernelEmitter::emit(tileas::ReduceLanesOp op) {
  Location loc = op.getLoc();
  Value partial = lookup(loc, op.getInput());
  if (broken)
    return failure();
  FailureOr<Type> type = convert(loc, op.getResult());
  if (failed(type))
    return failure();
  if (agentThreads() % 32)
    return op.emitError("rows split over lanes need whole warps; this agent "
                        "has ")
           << agentThreads() << " threads";
  std::string callee = ("tp::reduce_lanes_" + op.getKind()).str();
  if (op.getLanes() <= 32) {
    map[op.getResult()] =
        call(*type, callee, {partial}, {str(op.getLanes())});
    return success();
  }
  // More lanes than a warp: the warps' partials meet in SMEM.
  SmallVector<Value> across = acrossWarps();
  if (across.empty())
    return op.emitError("a row split over more lanes than a warp has needs "
                        "the agent's scratch and named barrier");
  SmallVector<Value> args = {partial};
  llvm::append_range(args, across);
  map[op.getResult()] = call(*type, callee, args, {str(op.getLanes())});
  return success();
}

/// A whole vector reduced to one value: each thread's elements, then every
/// thread of the agent's (tp::reduce_all_sum / _max).
LogicalResult KernelEmitter::emit(tileas::ReduceAllOp op) {
  Location loc = op.getLoc();
  Value v = lookup(loc, op.getInput());
  if (broken)
    return failure();
  FailureOr<Type> type = convert(loc, op.getResult().getType());
  if (failed(type))
    return failure();
  int threads = agentThreads();
  if (threads % 32)
    return op.emitError("a vector reduced across the agent needs whole "
                        "warps; this agent has ")
           << threads << " threads";
  // Each element must have one holder: 64 values over 128 threads are held
  // twice (the rows of a 64-row tile), so the second copy counts as the
  // identity (tp::row64_once).
  RankedTensorType input = op.getInput().getType();
  if (rowsTwice(input))
    v = call(v.getType(), "tp::row64_once", {v, tid},
             {op.getKind() == "sum" ? "false" : "true"});
  else if (input.getShape()[0] % threads)
    return op.emitError("a vector of ")
           << input.getShape()[0] << " reduced whole is not translated: its "
           << "values are spread over the agent's " << threads
           << " threads only when the length is a multiple of them, or 64 "
           << "of 128";
  SmallVector<Value> args = {v};
  if (threads > 32) {
    SmallVector<Value> across = acrossWarps();
    if (across.empty())
      return op.emitError("a vector reduced across several warps needs the "
                          "agent's scratch and named barrier");
    llvm::append_range(args, across);
  }
  std::string callee = ("tp::reduce_all_" + op.getKind()).str();
  map[op.getResult()] = call(*type, callee, args, {str(threads)});
  return success();
}

/// What combining across the agent's warps takes: its scratch words, the
/// thread's index in the agent, its named barrier and thread count; empty
/// when the agent has none.
SmallVector<Value> KernelEmitter::acrossWarps() {
  const AgentLayout &a = layout.agents[agent];
  if (a.scratch.empty() || a.syncBarrier < 0)
    return {};
  return {smemAddress(a.scratch), tid, intLit(a.syncBarrier),
          intLit(agentThreads())};
}

/// Threads write a UMMA operand (attention's P at 64 rows): each thread its
/// whole row, chunk by chunk at the swizzled offsets the UMMA's descriptor
/// reads (docs/cuda.md, "P through SMEM"). The materializer's proxy fence
/// before the slot's commit makes the writes visible to the MMA.
LogicalResult KernelEmitter::emitMmaOperandStore(Operation *op,
                                                 const TileLayout &tile,
                                                 Value frag, Value dst,
                                                 int64_t n) {
  Value stored = op->getOperand(0);
  auto t = cast<RankedTensorType>(stored.getType());
  if (columns.contains(stored) || t.getRank() != 2 || n != t.getShape()[1])
    return emitError(op->getLoc())
           << "a UMMA operand in SMEM is written by threads one whole row "
              "each; this "
           << t << " is not held a row per thread";
  // A wgmma operand the agent's threads write (a B tile they gathered): its
  // one buffer is free once every wgmma that read it is done, and a wgmma
  // reads it through the async proxy once every thread has written.
  bool wgmmaReads = readByWgmma(op->getResult(0));
  if (wgmmaReads) {
    wgmmaWait(0);
    agentSync();
  }
  // Rows split over lanes (SplitRows: a 64-row tile over 128 threads):
  // each thread its piece of the row.
  auto store = dyn_cast<tileas::SmemStoreOp>(op);
  std::optional<uint64_t> lanes = store ? store.getLanes() : std::nullopt;
  if (lanes && *lanes > 1)
    callVoid("tp::smem_store_mma_lanes", {dst, frag, rowsOf(stored)},
             {tile.cppType, str(*lanes),
              registerElementName(t.getElementType()), std::to_string(n)});
  else
    callVoid("tp::smem_store_mma", {dst, frag, rowsOf(stored)},
             {tile.cppType, registerElementName(t.getElementType()),
              std::to_string(n)});
  if (wgmmaReads) {
    callVoid("tp::fence_proxy_async", {});
    agentSync();
  }
  map[op->getResult(0)] = dst;
  return success();
}

/// The one place a TMA load is issued, for pipe slots and the prologue's
/// tiles alike: the elected thread copies the box into `dst` and completes
/// its bytes on barrier `k % depth` of `bars`.
LogicalResult KernelEmitter::emitTmaLoad(tileas::TmaLoadOp load, Value dst,
                                         Value bars, int64_t depth, Value k,
                                         int64_t id) {
  Location loc = load.getLoc();
  Value desc = lookup(loc, load.getDesc());
  SmallVector<Value> coords;
  for (Value c : load.getCoords())
    coords.push_back(lookup(loc, c));
  if (broken)
    return failure();
  FailureOr<RuntimeCall> tma = tmaCall(load, layout);
  if (failed(tma))
    return failure();
  inLeader([&] {
    // The layout's boxes, at the tile's coordinates (outermost first).
    SmallVector<Value> args = {dst, desc, bars, intLit(depth), k, intLit(id)};
    llvm::append_range(args, coords);
    callVoid(tma->callee, args, tma->templateArgs);
  });
  return success();
}

/// A tile loaded after the loop (an epilogue's source tile C): the agent's
/// threads are done with the bytes it lands on (the tile before's reads, in
/// a persistent kernel), the elected thread loads it, and every thread waits
/// for it on its own barrier, whose phase is the tile's count.
LogicalResult KernelEmitter::emitEpilogueLoad(tileas::TmaLoadOp load) {
  Location loc = load.getLoc();
  Value tile = smemAddress(layout.smemBuffers.lookup(load.getResult()));
  auto it = layout.epilogueLoads.find(load);
  Value bars = barriers(it->second);
  int64_t id = int64_t(layout.pipes.size() + layout.prologue.loads.size() +
                       (it - layout.epilogueLoads.begin()));
  // One tile, phase 0; a persistent kernel counts its tiles.
  Value count;
  if (persistent) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(tileLoop);
    count = b.create<emitc::VariableOp>(loc, i64(), b.getI64IntegerAttr(0));
  }
  Value k = count ? count : intLit(0);
  // Ping-pong copies load in turn (the epilogue's turn is taken before
  // this), into the one buffer on the one barrier: the CTA's j-th tile,
  // copy j % 2's (j / 2)-th, completes the barrier's phase j.
  if (!copyText.empty())
    k = b.create<emitc::AddOp>(
        loc, i64(), b.create<emitc::MulOp>(loc, i64(), intLit(2), count),
        literal(i64(), copyText));
  int64_t bytes = tileas::getTileSizeInBytes(cast<ShapedType>(load.getType()));
  agentSync();
  inLeader([&] {
    callVoid("tp::mbar_arrive_expect_tx",
             {bars, intLit(1), k, literal(u32(), Twine(bytes) + "u")});
  });
  if (failed(emitTmaLoad(load, tile, bars, 1, k, id)))
    return failure();
  callVoid("tp::mbar_wait", {bars, intLit(1), k, literal(u32(), "0")});
  if (count)
    increment(loc, count);
  map[load.getResult()] = tile;
  return success();
}
