//===- EmitKernel.cpp - one materialized function as an EmitC kernel ------===//
//
// Walks the materialized function and builds the same structure in EmitC:
// an `if` per agent on its warps, `for` and `if` for scf, and a call into
// the runtime header for every tileas op. This file is the kernel's frame
// (its parameters, the barriers' set-up, the prologue, the agents in their
// warpgroups, the end) and the dispatch of each op to its emitter
// (KernelEmitter.h lists the files of each op family).
//
// Who runs what follows the stage-code contract (docs/stage-code.md): waits
// and fences by every thread of the agent; TMA, UMMA and tcgen05.commit by
// one elected thread; a SIMT commit or release is the agent's threads
// meeting at their named barrier and one thread arriving, so that every
// barrier expects one arrival per commit or release, as the protocol check
// (materialize/exec) counts them.
//
//===----------------------------------------------------------------------===//

#include "cuda/emit/EmitKernel.h"
#include "cuda/analysis/Broadcasts.h"
#include "cuda/analysis/ElementwiseOps.h"
#include "cuda/emit/HarnessMain.h"
#include "cuda/analysis/WgmmaAccumulators.h"
#include "cuda/emit/KernelEmitter.h"

#include "cuda/analysis/Prologue.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

KernelEmitter::KernelEmitter(func::FuncOp func, const KernelLayout &layout,
                             OpBuilder &b)
    : func(func), layout(layout), b(b), ctx(func.getContext()),
      streams(b, layout,
              {[this](Location loc, Value v) { return lookup(loc, v); },
               [this](Value v, Value cxx) { map[v] = cxx; },
               [this](Operation *store) { return storeAddress(store); },
               [this](Operation *store) { return mmaOperand(store); }}) {}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

Value KernelEmitter::call(Type result, StringRef callee, ValueRange operands,
                          ArrayRef<std::string> templateArgs) {
  SmallVector<Attribute> targs;
  for (const std::string &t : templateArgs)
    targs.push_back(emitc::OpaqueAttr::get(ctx, t));
  auto op = b.create<emitc::CallOpaqueOp>(
      func.getLoc(), result ? TypeRange(result) : TypeRange(), callee, operands,
      ArrayAttr(), targs.empty() ? ArrayAttr() : b.getArrayAttr(targs));
  return result ? op.getResult(0) : Value();
}

void KernelEmitter::increment(Location loc, Value v) {
  Value one = intLit(1);
  b.create<emitc::AssignOp>(loc, v, b.create<emitc::AddOp>(loc, i64(), v, one));
}

void KernelEmitter::enter(Region &region) {
  Block &block = region.front();
  if (block.empty() || !block.back().hasTrait<OpTrait::IsTerminator>()) {
    b.setInsertionPointToEnd(&block);
    b.create<emitc::YieldOp>(func.getLoc());
  }
  b.setInsertionPoint(&block.back());
}

void KernelEmitter::inLeader(function_ref<void()> body, Value who) {
  // One election per elected op: joining adjacent elected blocks (one
  // election around a TMA load and its barrier's arrival) shortened the GEMM's
  // TMA loop by 3 instructions but made fa4_fwd spill 8 B at its 128-register
  // budget (docs/cuda-tile.md, "Loop length against tileiras").
  Value elected =
      oneWarpAgent ? call(i1(), "tp::elect_one", {}) : (who ? who : leader);
  auto ifOp = b.create<emitc::IfOp>(func.getLoc(), elected,
                                    /*addThenBlock=*/true,
                                    /*addElseBlock=*/false);
  OpBuilder::InsertionGuard guard(b);
  enter(ifOp.getThenRegion());
  body();
}

void KernelEmitter::agentSync() {
  const AgentLayout &a = layout.agents[agent];
  // The other warpgroup may wait for the turn before it can meet here.
  if (issueTurns() && issueTurn.held)
    passIssueTurn();
  // A one-warp agent, or code narrowed to the first warp (a narrow tile's
  // epilogue), whose other warps may wait on the agent's barrier meanwhile
  // (persistent) with another count; narrowed to fewer lanes, only those
  // meet.
  if (narrowed && narrowed < 32)
    callVoid(
        "__syncwarp",
        {literal(u32(), llvm::Twine((uint64_t(1) << narrowed) - 1) + "u")});
  else if (a.syncBarrier < 0 || narrowed == 32)
    callVoid("__syncwarp", {});
  else if (!copyText.empty())
    // Each copy's id an immediate (a branch on the copy), so that ptxas
    // counts the two ids and not every barrier a register could name.
    callVoid("tp::copy_sync",
             {literal(i64(), copyText), intLit(agentThreads())},
             {std::to_string(a.syncBarrier)});
  else
    callVoid("tp::agent_sync", {intLit(a.syncBarrier), intLit(agentThreads())});
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitBlock(Block &block) {
  if (fragBands)
    planRowsPieces(block);
  for (Operation &op : block) {
    if (isa<tileas::AgentYieldOp, scf::YieldOp, func::ReturnOp>(op) ||
        layout.prologue.ops.contains(&op) || streams.isDone(&op) ||
        rowsDeferred.contains(&op))
      continue;
    // A loop whose rings lie over an earlier loop's starts when every
    // thread is done with the earlier one (KernelLayout::loopPhaseStarts).
    if (layout.loopPhaseStarts.contains(&op))
      callVoid("__syncthreads", {});
    if (&op == turnLoop)
      takeTurn(0);
    // Streamed tiles that `op` would leave unevaluable are evaluated first;
    // `op` itself may stream (TileStreams.h).
    streams.before(&op);
    // Positions not streamed are made where they are read (makePosition).
    if (broken ||
        (!streams.take(&op) && !isPositionOp(&op) && failed(emitOp(&op))) ||
        broken)
      return failure();
    streams.markDone(&op);
    // A loop passed the main turn once its MMAs were issued (emit(scf::
    // ForOp)); a branch around a peeled loop passes it here. The
    // epilogue's turn comes in tile order too.
    if (&op == turnLoop) {
      if (!turnPassed)
        passMainTurn();
      if (wgmmaInFlight)
        flushWgmmaReleases();
      takeTurn(1);
    }
  }
  return success();
}

LogicalResult KernelEmitter::emitOp(Operation *op) {
  // A tile read from SMEM with rows split over lanes and written back (a
  // gathered MMA operand masked by rows) keeps a row a thread beside the
  // fragment's rows (FragmentRows.cpp, findThreadRowsIsland).
  if (fragBands && threadRowsOps.contains(op)) {
    ThreadRowsScope scope(*this, true);
    return emitOpOfLayout(op);
  }
  if (fragBands && failed(checkFragmentRows(op)))
    return failure();
  return emitOpOfLayout(op);
}

LogicalResult KernelEmitter::emitOpOfLayout(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      // Control flow, and values made where they are read (ControlOps.cpp).
      .Case<scf::ForOp, scf::IfOp, tensor::SplatOp, ub::PoisonOp>(
          [&](auto op) { return emit(op); })
      .Case<gpu::BlockIdOp, gpu::GridDimOp>(
          [&](Operation *op) { return emitGridIndex(op); })
      // Read once, when the tiles are walked (emitTiles).
      .Case([&](tileas::TileCountOp) { return success(); })
      // Storage the layout placed: its address (TileOps.cpp).
      .Case<tileas::PipeCreateOp, tileas::MutexCreateOp, tileas::AllocSmemOp,
            tileas::AllocTmemOp>([&](Operation *op) { return emitStorage(op); })
      // Pipes, fences and mutexes (PipeOps.cpp).
      .Case<tileas::PipeProducerAcquireOp, tileas::PipeConsumerWaitOp,
            tileas::PipeProducerCommitOp, tileas::PipeConsumerReleaseOp,
            tileas::FenceOp>([&](auto op) { return emit(op); })
      .Case<tileas::MutexLockOp, tileas::MutexUnlockOp>(
          [&](Operation *op) { return emitMutexOp(op); })
      // Tile ops (TileOps.cpp).
      .Case<tileas::TmaLoadOp, tileas::SmemViewOp, tileas::TmaStoreOp,
            tileas::CpAsyncOp, tileas::TmemCopyOp, tileas::UmmaOp,
            tileas::WgmmaOp, tileas::BroadcastOp, tileas::ReduceLanesOp,
            tileas::ScanOp, tileas::ReduceAllOp, tileas::IotaOp,
            tileas::GlobalLoadOp, tileas::GlobalStoreOp, tileas::GlobalGatherOp,
            tileas::GlobalScatterOp>([&](auto op) { return emit(op); })
      .Case<tileas::TmemLoadOp, tileas::SmemLoadOp>(
          [&](Operation *op) { return emitTileLoad(op); })
      .Case<tileas::TmemStoreOp, tileas::SmemStoreOp>(
          [&](Operation *op) { return emitTileStore(op); })
      .Case<tileas::AddOp, tileas::SubOp, tileas::MulOp, tileas::MaxOp,
            tileas::Exp2Op, tileas::FmaOp, tileas::CvtOp, tileas::ReduceMaxOp,
            tileas::ReduceSumOp>(
          [&](Operation *op) { return emitTileMath(op); })
      // arith and math (ArithOps.cpp).
      .Case([&](arith::ConstantOp op) { return emit(op); })
      .Case<arith::AddUIExtendedOp, arith::MulSIExtendedOp,
            arith::MulUIExtendedOp>(
          [&](Operation *op) { return emitExtendedArith(op); })
      // The fragment's order changing (FragmentRows.cpp).
      .Case([&](UnrealizedConversionCastOp op) { return emit(op); })
      .Default([&](Operation *op) {
        if (isa_and_present<arith::ArithDialect, math::MathDialect>(
                op->getDialect()))
          return emitArithmetic(op);
        return notTranslated(op);
      });
}

LogicalResult KernelEmitter::notTranslated(Operation *op) {
  if (isa_and_present<tileas::TileASDialect>(op->getDialect()))
    return emitError(op->getLoc())
           << "'" << op->getName() << "' is not translated to CUDA yet";
  return emitError(op->getLoc())
         << "'" << op->getName() << "' is not translated to CUDA";
}

//===----------------------------------------------------------------------===//
// The kernel's frame
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitKernel() {
  Location loc = func.getLoc();
  SmallVector<Type> params;
  if (failed(kernelParameters(params)))
    return failure();
  FailureOr<llvm::DenseSet<Value>> perColumn = collectColumnVectors(func);
  if (failed(perColumn))
    return failure();
  columns = std::move(*perColumn);
  wgmmaFrags = wgmmaFragments(func);
  streams.setColumnVectors(&columns);
  // A persistent kernel is also told the grid it stands for: it runs those
  // tiles on the CTAs it is launched with. One that counts its own tiles
  // (tileas.tile_count) computes them.
  persistent = func->hasAttr("tileas.persistent");
  if (layout.tileCount && !persistent)
    return emitError(func.getLoc(),
                     "a kernel that walks its own tiles (tileas.tile_count) "
                     "is translated only as materialized persistent");
  if (persistent && !layout.tileCount)
    params.append(3, i64());
  b.create<emitc::VerbatimOp>(loc, smemStruct());
  kernel =
      b.create<emitc::FuncOp>(loc, layout.name, b.getFunctionType(params, {}));
  kernel.setSpecifiersAttr(b.getStrArrayAttr(
      {"__global__",
       llvm::formatv("__launch_bounds__({0}, 1)", layout.threads()).str()}));
  Block *entry = kernel.addEntryBlock();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(entry);
  for (auto [arg, param] : llvm::zip(passed, entry->getArguments()))
    map[arg] = param;
  if (persistent && !layout.tileCount)
    for (unsigned d = 0; d < 3; ++d)
      tiles[d] = entry->getArgument(passed.size() + d);
  b.create<emitc::VerbatimOp>(loc, barrierSetup());
  if (persistent) {
    if (!layout.prologue.loads.empty())
      return emitError(func.getLoc(),
                       "a persistent kernel loads no tiles before its "
                       "agents (each tile would need its own)");
  } else if (failed(emitPrologue())) {
    return failure();
  }
  FailureOr<SmallVector<int>> groupRegs = warpgroupRegisters();
  if (failed(groupRegs))
    return failure();
  bool specialized = layout.agents.front().op != nullptr;
  if (!specialized)
    return finish(emitAgent(0, &func.getBody().front()));
  if (failed(emitOutsideAgents()))
    return failure();
  return finish(emitWarpgroups(*groupRegs));
}

/// The kernel's parameters: descriptors by value (__grid_constant__),
/// scalars as they are. An SMEM tile cannot be passed to a kernel: it says
/// where its data comes from with a TMA load in the prologue instead.
LogicalResult KernelEmitter::kernelParameters(SmallVectorImpl<Type> &params) {
  if (func.getNumResults())
    return emitError(func.getLoc(),
                     "a kernel returns nothing: store the results "
                     "through a TMA descriptor instead");
  for (BlockArgument arg : func.getArguments()) {
    Type t = arg.getType();
    if (auto smem = dyn_cast<tileas::SmemType>(t))
      return emitError(arg.getLoc())
             << "an SMEM tile passed to a kernel has no data: pass its "
                "tensor map, "
             << tileas::TmaDescType::get(smem.getShape(), smem.getElementType())
             << ", and load the tile before the loop with `tileas.tma_load "
                "%desc[%row, %col]`, its coordinates computed from "
                "gpu.block_id (docs/cuda.md)";
    if (isa<tileas::TmaDescType>(t))
      params.push_back(opaque("const __grid_constant__ tp::TmaDesc"));
    else if (t.isIndex())
      params.push_back(i64());
    else if (isa<IntegerType, FloatType>(t))
      params.push_back(t);
    else if (auto memref = dyn_cast<MemRefType>(t);
             memref && memref.hasStaticShape() &&
             !registerElementName(memref.getElementType()).empty())
      // A global source of cp.async: a row-major pointer.
      params.push_back(opaque(
          "const " + registerElementName(memref.getElementType()) + " *"));
    else if (auto memref = dyn_cast<MemRefType>(t);
             memref && llvm::all_of(memref.getShape(), ShapedType::isDynamic) &&
             memref.getRank() >= 1 &&
             !registerElementName(memref.getElementType()).empty())
      // An array global_store writes an element of: its base pointer.
      params.push_back(
          opaque(registerElementName(memref.getElementType()) + " *"));
    else if (auto tensor = dyn_cast<RankedTensorType>(t);
             tensor && !registerElementName(tensor.getElementType()).empty())
      // A register tile passed in lives in global memory, row-major; each
      // agent that uses it loads its threads' rows (lookup).
      params.push_back(opaque(
          "const " + registerElementName(tensor.getElementType()) + " *"));
    else
      return emitError(arg.getLoc()) << "a kernel parameter of type " << t
                                     << " is not translated to CUDA";
    passed.push_back(arg);
  }
  return success();
}

std::string KernelEmitter::smemStruct() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Shared memory of " << layout.name << ": tiles, barriers, the TMEM "
     << "base.\nstruct tp_smem_" << layout.name << " {\n";
  for (const SmemMember &m : layout.smem) {
    if (m.align == 8)
      os << "  alignas(8) uint64_t " << m.name << "[" << m.bytes / 8 << "];\n";
    else if (m.name == "tmem_base")
      os << "  uint32_t tmem_base;\n";
    else
      os << "  alignas(" << m.align << ") uint8_t " << m.name << "[" << m.bytes
         << "]; // " << m.comment << "\n";
  }
  os << "};";
  return os.str();
}

/// Barriers initialised by one thread, TMEM allocated by warp 0, and
/// everyone meets before any agent starts.
std::string KernelEmitter::barrierSetup() const {
  std::string pro;
  llvm::raw_string_ostream os(pro);
  os << "extern __shared__ __align__(1024) unsigned char tp_smem_raw[];\n"
     << "tp_smem_" << layout.name << " &S = *reinterpret_cast<tp_smem_"
     << layout.name << " *>(tp_smem_raw);\n"
     << "const int tp_warp = tp::warp_idx();\n"
     << "if (threadIdx.x == 0) {\n";
  for (const PipeLayout &p : layout.pipes) {
    if (p.full == "full" + std::to_string(p.id))
      os << "  for (int i = 0; i < " << p.depth << "; ++i) tp::mbar_init(&S."
         << p.full << "[i], " << p.fullCount << ");\n";
    if (p.empty == "empty" + std::to_string(p.id))
      os << "  for (int i = 0; i < " << p.depth << "; ++i) tp::mbar_init(&S."
         << p.empty << "[i], " << p.emptyCount << ");\n";
  }
  if (!layout.turns.empty())
    os << "  for (int i = 0; i < 4; ++i) tp::mbar_init(&S." << layout.turns
       << "[i], 1);\n"
       << "  for (uint64_t &base : S." << layout.turnBase << ") base = 0;\n";
  for (Operation *create : layout.mutexOrder)
    if (std::string name = layout.mutexBarriers.lookup(create); !name.empty())
      os << "  for (int i = 0; i < "
         << cast<tileas::MutexCreateOp>(create).getGroups()
         << "; ++i) tp::mbar_init(&S." << name << "[i], 1);\n";
  if (!layout.prologueBarrier.empty())
    os << "  tp::mbar_init(&S." << layout.prologueBarrier << "[0], "
       << layout.prologue.loads.size() << ");\n";
  for (auto &[load, bar] : layout.epilogueLoads)
    os << "  tp::mbar_init(&S." << bar << "[0], 1);\n";
  for (Operation *copy : layout.scaleCopyOrder)
    os << "  for (int i = 0; i < 2; ++i) tp::mbar_init(&S."
       << layout.scaleCopies.lookup(copy).barriers << "[i], 1);\n";
  // The CPU emulator names the barrier arrays in its deadlock and fault
  // reports ("full0[2]" rather than a shared address).
  os << "#if defined(TILEPIPE_CPU)\n";
  auto name = [&](StringRef field) {
    os << "  tp::cpu::name_shared(tp::smem_addr(S." << field << "), sizeof S."
       << field << ", \"" << field << "\");\n";
  };
  for (const PipeLayout &p : layout.pipes) {
    if (p.full == "full" + std::to_string(p.id))
      name(p.full);
    if (p.empty == "empty" + std::to_string(p.id))
      name(p.empty);
  }
  for (Operation *create : layout.mutexOrder)
    if (std::string field = layout.mutexBarriers.lookup(create); !field.empty())
      name(field);
  if (!layout.prologueBarrier.empty())
    name(layout.prologueBarrier);
  for (Operation *copy : layout.scaleCopyOrder)
    name(layout.scaleCopies.lookup(copy).barriers);
  for (auto &[load, bar] : layout.epilogueLoads)
    name(bar);
  os << "#endif\n";
  os << "  tp::fence_mbarrier_init();\n}\n";
  if (layout.tmemAllocated)
    os << "if (tp_warp == 0) tp::tmem_alloc(&S.tmem_base, "
       << layout.tmemAllocated << ");\n";
  os << "tp::tcgen05_before();\n__syncthreads();\ntp::tcgen05_after();\n"
     << "const uint32_t tp_tmem = S.tmem_base;\n(void)tp_tmem;";
  return os.str();
}

/// The setmaxnreg count of each warpgroup (0: none). setmaxnreg is
/// warpgroup-wide (.sync.aligned): every warp of a group, idle ones too,
/// runs the same instruction before the roles split.
FailureOr<SmallVector<int>> KernelEmitter::warpgroupRegisters() const {
  int groups = layout.warps / 4;
  SmallVector<int> groupRegs(groups, 0);
  // Every warpgroup an agent spans: one left at the launch count would
  // share the agent's code, and ptxas allocates shared code within the
  // smallest count (the second consumer warpgroup of Hopper attention ran
  // at 168 while the first asked for 224; everything past 168 spilled).
  for (const AgentLayout &a : layout.agents) {
    if (!a.maxRegs)
      continue;
    for (int g = a.firstGroup(), e = std::min(groups, a.endGroup()); g < e;
         ++g) {
      if (groupRegs[g] && groupRegs[g] != a.maxRegs)
        return emitError(a.op->getLoc())
               << "agents sharing warpgroup " << g
               << " ask for different register counts";
      groupRegs[g] = a.maxRegs;
    }
  }
  return groupRegs;
}

/// The ops of a warp-specialized function outside its agents, once for
/// all of them.
LogicalResult KernelEmitter::emitOutsideAgents() {
  for (Operation &op : func.getBody().front()) {
    // Positions are made where they are read.
    if (isa<func::ReturnOp, tileas::AgentOp, tileas::TileCountOp>(op) ||
        layout.prologue.ops.contains(&op) || isPositionOp(&op))
      continue;
    // A per-column vector read from SMEM (gamma, loaded before the loop) and
    // math on it: each agent that reads it makes it itself, streamed where
    // it can be (TileStreams::columnNode), else at its start (lookup).
    if (op.getNumResults() == 1 && columns.contains(op.getResult(0)) &&
        (isa<tileas::SmemLoadOp>(op) || elementwiseCall(&op)))
      continue;
    // Any other register tile read from SMEM before the loop (a per-row
    // vector: attention backward's logsumexp) and math on it: each agent
    // that reads it makes it too, in its own threads' layout.
    if (madeByAgents(&op))
      continue;
    if (!isa<arith::ConstantOp, tensor::SplatOp, tileas::PipeCreateOp,
             tileas::MutexCreateOp, tileas::AllocSmemOp, tileas::AllocTmemOp>(
            op))
      return emitError(op.getLoc(),
                       "only constants, scalar broadcasts, storage, index "
                       "arithmetic and TMA loads of whole tiles may sit "
                       "outside the agents of "
                       "a warp-specialized function (the prologue runs "
                       "them once, before the roles split)");
    if (failed(emitOp(&op)))
      return failure();
  }
  return success();
}

/// The agents, each in its warps' branch; with setmaxnreg, inside their
/// warpgroups' branch after it.
LogicalResult KernelEmitter::emitWarpgroups(ArrayRef<int> groupRegs) {
  Location loc = func.getLoc();
  int groups = layout.warps / 4;
  auto setmaxnreg = [&](int g) {
    callVoid(groupRegs[g] >= layout.launchRegs ? "tp::setmaxnreg_inc"
                                               : "tp::setmaxnreg_dec",
             {}, {std::to_string(groupRegs[g])});
  };
  auto inWarps = [&](const Twine &cond, bool orElse = false) {
    auto ifOp = b.create<emitc::IfOp>(loc, literal(i1(), "(" + cond + ")"),
                                      /*addThenBlock=*/true,
                                      /*addElseBlock=*/orElse);
    enter(ifOp.getThenRegion());
    return ifOp;
  };
  // A wgmma's fragment needs more registers than a decreased warpgroup
  // keeps: were the consumers' branch reachable after the producers'
  // setmaxnreg.dec, ptxas would ignore every setmaxnreg (C7507, measured
  // on sm_90a). So a Hopper kernel's warpgroup branches are exclusive:
  // each next one in the else of the one before.
  bool exclusive = layout.wgmma;
  Region *next = nullptr;
  auto emitAgents = [&](int g0, int g1) -> LogicalResult {
    for (auto [i, a] : llvm::enumerate(layout.agents))
      if (a.firstGroup() >= g0 && a.firstGroup() < g1 &&
          failed(emitAgent(unsigned(i),
                           &cast<tileas::AgentOp>(a.op).getBody().front())))
        return failure();
    return success();
  };
  if (llvm::all_of(groupRegs, [](int r) { return r == 0; }))
    return emitAgents(0, std::max(groups, 1));
  // The agents run inside their warpgroups' branch, after its setmaxnreg:
  // ptxas then sees that code after a setmaxnreg.dec is the small agents'
  // only, and allocates each branch within its own count. With the
  // setmaxnreg in branches of their own, every agent lay on a path through
  // the decrease, and the consumers spilled. Warpgroups an agent spans share
  // one branch.
  for (int g0 = 0; g0 < groups;) {
    int g1 = g0 + 1;
    for (bool grown = true; grown;) {
      grown = false;
      for (const AgentLayout &a : layout.agents)
        if (a.firstGroup() >= g0 && a.firstGroup() < g1 && a.endGroup() > g1) {
          g1 = a.endGroup();
          grown = true;
        }
    }
    OpBuilder::InsertionGuard guard(b);
    if (next)
      enter(*next);
    emitc::IfOp branch = inWarps(
        g1 == g0 + 1
            ? llvm::formatv("tp_warp / 4 == {0}", g0).str()
            : llvm::formatv("tp_warp / 4 >= {0} && tp_warp / 4 < {1}", g0, g1)
                  .str(),
        exclusive && g1 < groups);
    if (exclusive && g1 < groups)
      next = &branch.getElseRegion();
    // Warpgroups of one count run one setmaxnreg together: each warpgroup
    // executes it (it is .sync.aligned per warpgroup), and the code after
    // it is one path for ptxas to allocate within that count.
    bool oneCount =
        llvm::all_equal(ArrayRef<int>(groupRegs).slice(g0, g1 - g0));
    for (int g = g0; g < g1; ++g) {
      if (!groupRegs[g])
        continue;
      OpBuilder::InsertionGuard inner(b);
      if (g1 - g0 > 1 && !oneCount)
        inWarps(llvm::formatv("tp_warp / 4 == {0}", g).str());
      setmaxnreg(g);
      if (oneCount)
        break;
    }
    if (failed(emitAgents(g0, g1)))
      return failure();
    g0 = g1;
  }
  return success();
}

/// The kernel's end: every thread meets, warp 0 frees the TMEM; then what
/// follows the kernel (its sizes, the harness main).
LogicalResult KernelEmitter::finish(LogicalResult agents) {
  if (failed(agents))
    return failure();
  Location loc = func.getLoc();
  // The TMEM base and the warp index are read again rather than kept: a
  // value live across the agents' branches holds a register in each of
  // them, the setmaxnreg-decreased ones included (ptxas spilled for one).
  std::string epi = "tp::tcgen05_before();\n__syncthreads();";
  if (layout.tmemAllocated)
    epi += "\nif (tp::warp_idx() == 0) tp::tmem_dealloc(S.tmem_base, " +
           std::to_string(layout.tmemAllocated) + ");";
  b.create<emitc::VerbatimOp>(loc, epi);
  b.create<emitc::ReturnOp>(loc, Value());
  b.setInsertionPointAfter(kernel);
  b.create<emitc::VerbatimOp>(
      loc, llvm::formatv("constexpr int tp_threads_{0} = {1};\n"
                         "constexpr size_t tp_smem_bytes_{0} = "
                         "sizeof(tp_smem_{0});",
                         layout.name, layout.threads())
               .str());
  b.create<emitc::VerbatimOp>(loc, harnessMain(func, layout, passed));
  return success();
}

/// The prologue runs at kernel scope, once the barriers are initialised and
/// before the roles split: index arithmetic every agent reads is computed
/// once for all of them, and the tiles the loop reads whole are loaded by
/// one elected thread. Every thread waits for those tiles here, so that no
/// agent has to know where they came from.
LogicalResult KernelEmitter::emitPrologue() {
  const KernelPrologue &prologue = layout.prologue;
  if (!prologue.loads.empty())
    leader = call(i1(), "tp::elect_leader", {intLit(0)});
  oneWarpAgent = false;
  // Harness stamps of prologue tiles take the ids after the pipes'.
  int64_t id = int64_t(layout.pipes.size());
  for (Operation *op : prologue.ops) {
    auto load = dyn_cast<tileas::TmaLoadOp>(op);
    if (!load) {
      if (failed(emitOp(op)) || broken)
        return failure();
      continue;
    }
    Value tile =
        call(u32(), "tp::smem_addr",
             {literal(opaque("void *"),
                      "S." + layout.smemBuffers.lookup(load.getResult()))});
    Value bars = barriers(layout.prologueBarrier);
    int64_t bytes =
        tileas::getTileSizeInBytes(cast<ShapedType>(load.getType()));
    inLeader([&] {
      callVoid(
          "tp::mbar_arrive_expect_tx",
          {bars, intLit(1), intLit(0), literal(u32(), Twine(bytes) + "u")});
    });
    if (failed(emitTmaLoad(load, tile, bars, 1, intLit(0), id++)))
      return failure();
    map[load.getResult()] = tile;
  }
  if (!prologue.loads.empty())
    callVoid("tp::mbar_wait", {barriers(layout.prologueBarrier), intLit(1),
                               intLit(0), literal(u32(), "0")});
  return success();
}

/// The agent's body once per tile: the tile's block index from the tile
/// number, the prologue's index arithmetic for it, the body with every pipe
/// iteration moved past the iterations earlier tiles used, and the written
/// masks of accumulators cleared (each tile's first MMA starts afresh).
LogicalResult KernelEmitter::emitTiles(Block *body) {
  Location loc = func.getLoc();
  pipeTile.clear();
  if (layout.tileCount && failed(emitTileCount()))
    return failure();
  Value first =
      b.create<emitc::CastOp>(loc, i64(), literal(u32(), "blockIdx.x"));
  Value step = b.create<emitc::CastOp>(loc, i64(), literal(u32(), "gridDim.x"));
  // Ping-pong copy c runs the CTA's tiles c, c + 2, ... (docs/cuda.md).
  if (!copyText.empty()) {
    if (failed(findTurnLoop(body)))
      return failure();
    first = b.create<emitc::AddOp>(
        loc, i64(), first,
        b.create<emitc::MulOp>(loc, i64(), literal(i64(), copyText), step));
    step = b.create<emitc::MulOp>(loc, i64(), intLit(2), step);
    turnCount = b.create<emitc::VariableOp>(loc, i64(), b.getI64IntegerAttr(0));
  }
  Value xy = b.create<emitc::MulOp>(loc, i64(), tiles[0], tiles[1]);
  Value count = b.create<emitc::MulOp>(loc, i64(), xy, tiles[2]);
  tileLoop = b.create<emitc::ForOp>(loc, first, count, step);
  OpBuilder::InsertionGuard guard(b);
  enter(tileLoop.getRegion());
  Value t = tileLoop.getInductionVar();
  tileId[0] = b.create<emitc::RemOp>(loc, i64(), t, tiles[0]);
  Value rest = b.create<emitc::DivOp>(loc, i64(), t, tiles[0]);
  tileId[1] = b.create<emitc::RemOp>(loc, i64(), rest, tiles[1]);
  tileId[2] = b.create<emitc::DivOp>(loc, i64(), t, xy);
  tileStart = tileId[2].getDefiningOp();
  Value savedLeader = leader;
  bool savedOneWarp = oneWarpAgent;
  if (failed(emitPrologue()))
    return failure();
  leader = savedLeader;
  oneWarpAgent = savedOneWarp;
  if (failed(emitBlock(*body)))
    return failure();
  // A narrowed epilogue (a narrow tile's, run by the first warp) ends with
  // the tile: every thread meets before the next tile's wgmmas, which take
  // the whole warpgroup, and before its epilogue reuses the staging.
  if (narrowIf) {
    b.setInsertionPointAfter(narrowIf);
    narrowIf = nullptr;
    narrowed = 0;
    if (leaderBeforeNarrow)
      leader = std::exchange(leaderBeforeNarrow, Value());
    streams.narrow(layout.agents[agent].threads());
    agentSync();
  }
  if (!copyText.empty()) {
    // The epilogue's turn ends when every thread of the copy is done with
    // the staging tile (the elected thread's TMA store has read it).
    agentSync();
    passTurn(1);
    increment(loc, turnCount);
  }
  // A copy reads its tile's first iterations when it takes its turn.
  if (copyText.empty())
    for (auto &[id, vars] : pipeTile)
      b.create<emitc::AssignOp>(
          loc, vars.first,
          b.create<emitc::AddOp>(loc, i64(), vars.first, vars.second));
  if (accMaskAgent == agent) {
    OpBuilder::InsertionGuard start(b);
    b.setInsertionPointAfter(tileStart);
    for (auto &[column, mask] : accMasks)
      b.create<emitc::AssignOp>(loc, mask, literal(u32(), "0u"));
  }
  for (Value &v : tileId)
    v = Value();
  return success();
}

/// The tiles of a kernel that walks its own, computed from its arguments
/// before the walk (the prologue's index arithmetic that leads to them):
/// tiles (count, 1, 1).
LogicalResult KernelEmitter::emitTileCount() {
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.inclusive = true;
  options.filter = [&](Operation *op) {
    return op->getBlock() == &func.getBody().front();
  };
  if (Operation *def = layout.tileCount.getDefiningOp())
    getBackwardSlice(def, &slice, options);
  for (Operation *op : slice) {
    if (isa<gpu::BlockIdOp, gpu::GridDimOp>(op) || !isIndexOp(op))
      return emitError(op->getLoc(),
                       "a tile count (tileas.tile_count) is index arithmetic "
                       "on the kernel's arguments, not on its block index, "
                       "grid or tiles");
    if (failed(emitOp(op)))
      return failure();
  }
  tiles[0] = map.lookup(layout.tileCount);
  tiles[1] = tiles[2] = intLit(1);
  return success();
}

/// Pipe iteration `raw` of the current tile, as the pipe counts it across
/// tiles. `count` notes that the tile used it (acquires and waits: every
/// iteration a tile uses is acquired by its producer and waited for by its
/// consumers, so both sides count the same). Each side takes a pipe's
/// iterations in order, so the last one noted is the tile's count.
Value KernelEmitter::pipeIter(const PipeLayout &p, Value raw, bool count) {
  if (!persistent)
    return raw;
  Location loc = func.getLoc();
  // A joined pipe counts with the pipe it joins (the same iterations): one
  // base, so the compiler sees one slot index and phase for both.
  unsigned key = p.id;
  if (Value joined = tileas::PipeCreateOp(p.op).getJoins())
    key = layout.pipeIds.lookup(joined.getDefiningOp());
  auto [it, fresh] = pipeTile.try_emplace(key);
  if (fresh) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(tileLoop);
    it->second.first =
        b.create<emitc::VariableOp>(loc, i64(), b.getI64IntegerAttr(0));
    b.setInsertionPointAfter(tileStart);
    it->second.second =
        b.create<emitc::VariableOp>(loc, i64(), b.getI64IntegerAttr(0));
    tileStart = it->second.second.getDefiningOp();
    if (turnStart) {
      // A copy's tile starts where the other copy's last tile ended.
      b.setInsertionPointAfter(turnStart);
      Value bases = literal(opaque("uint64_t *"), "S." + layout.turnBase);
      turnStart = b.create<emitc::AssignOp>(
          loc, it->second.first,
          call(i64(), "tp::turn_base", {bases, intLit(key)}));
    }
  }
  auto [base, used] = it->second;
  // The pipe it joins counts the same iterations.
  if (count && key == p.id)
    b.create<emitc::AssignOp>(
        loc, used, b.create<emitc::AddOp>(loc, i64(), raw, intLit(1)));
  return b.create<emitc::AddOp>(loc, i64(), raw, base);
}

LogicalResult KernelEmitter::emitAgent(unsigned index, Block *body) {
  agent = index;
  const AgentLayout &a = layout.agents[index];
  Location loc = a.op ? a.op->getLoc() : func.getLoc();
  auto ifOp = b.create<emitc::IfOp>(
      loc,
      literal(i1(), llvm::formatv("(tp_warp >= {0} && tp_warp < {1})",
                                  a.firstWarp, a.firstWarp + a.span())
                        .str()),
      /*addThenBlock=*/true, /*addElseBlock=*/false);
  OpBuilder::InsertionGuard guard(b);
  enter(ifOp.getThenRegion());
  // Each ping-pong copy runs the agent's code as if it were the agent: its
  // threads counted from its first warp.
  copyText =
      a.replicas > 1
          ? llvm::formatv("((tp_warp - {0}) / {1})", a.firstWarp, a.warps).str()
          : std::string();
  turnLoop = turnStart = nullptr;
  turnCount = Value();
  std::string tidText =
      a.replicas > 1
          ? llvm::formatv("((int(threadIdx.x) - {0}) % {1})", a.firstWarp * 32,
                          a.threads())
                .str()
          : llvm::formatv("(int(threadIdx.x) - {0})", a.firstWarp * 32).str();
  tid = literal(b.getI32Type(), tidText);
  row64 = literal(b.getI32Type(), "tp::row64" + tidText);
  leader =
      call(i1(), "tp::elect_leader",
           {a.replicas > 1
                ? literal(i64(), llvm::formatv("({0} + {1} * {2})", a.firstWarp,
                                               a.warps, copyText)
                                     .str())
                : intLit(a.firstWarp)});
  oneWarpAgent = a.syncBarrier < 0 && a.warps == 1;
  openIssueTurns();
  agentValues.clear();
  // Each mbarrier mutex counts this agent's locks (the wait parity).
  mutexLocks.clear();
  for (Operation *create : layout.mutexOrder)
    if (layout.mutexBarriers.count(create))
      mutexLocks[create] =
          b.create<emitc::VariableOp>(loc, i64(), b.getI64IntegerAttr(0));
  // The last group of a named-barrier mutex lets group 0 go first.
  for (Operation *create : layout.mutexOrder) {
    std::pair<int, int> ids = layout.mutexes.lookup(create);
    if (ids.first < 0)
      continue;
    auto mutex = cast<tileas::MutexCreateOp>(create);
    int64_t last = mutex.getGroups() - 1;
    for (Operation *user : mutex.getResult().getUsers()) {
      APInt g;
      if (isa<tileas::MutexLockOp>(user) && agentOf(layout, user) == index &&
          matchPattern(user->getOperand(1), m_ConstantInt(&g)) &&
          g.getSExtValue() == last) {
        callVoid("tp::named_arrive", {intLit(ids.first), intLit(ids.second)});
        break;
      }
    }
  }
  Operation *scope = a.op ? a.op : func.getOperation();
  auto bands = scope->getAttrOfType<IntegerAttr>(kFragmentBandsAttr);
  fragBands = bands ? bands.getInt() : 0;
  auto fragRowsAttr = scope->getAttrOfType<IntegerAttr>(kFragmentRowsAttr);
  fragRows = fragRowsAttr ? fragRowsAttr.getInt() : 0;
  if (fragBands && !threadRowsFound) {
    findThreadRowsIsland();
    threadRowsFound = true;
  }
  // Tiles in the fragment's rows are held whole: a column piece of them is
  // not a run of the thread's registers that TileStreams could name.
  if (!fragBands)
    streams.beginAgent(scope, tid, a.threads(),
                       a.maxRegs ? a.maxRegs : layout.launchRegs);
  wgmmaPending.clear();
  wgmmaInFlight = false;
  narrowed = 0;
  narrowIf = nullptr;
  leaderBeforeNarrow = Value();
  LogicalResult result = persistent ? emitTiles(body) : emitBlock(*body);
  // No wgmma may be in flight when the agent's threads exit.
  if (succeeded(result) && !wgmmaPending.empty())
    flushWgmmaReleases();
  if (succeeded(result))
    closeIssueTurns();
  streams.endAgent();
  copyText.clear();
  turnLoop = turnStart = nullptr;
  return result;
}

/// The op of the copies' first turn: the one op of the body that waits on
/// pipes (the loop, or the branch on the trip count around a peeled loop;
/// the materializer makes ping-pong agents of one).
LogicalResult KernelEmitter::findTurnLoop(Block *body) {
  for (Operation &op : *body)
    if (op.walk([](tileas::PipeConsumerWaitOp) {
            return WalkResult::interrupt();
          }).wasInterrupted()) {
      turnLoop = &op;
      return success();
    }
  const AgentLayout &a = layout.agents[agent];
  return emitError(a.op->getLoc(),
                   "ping-pong copies take turns on the agent's pipe waits; "
                   "this agent waits on none");
}

/// Ring 0 (the main loop) or 1 (the epilogue): its two mbarriers.
Value KernelEmitter::turnRing(int ring) {
  return literal(opaque("uint64_t *"),
                 "(S." + layout.turns + " + " + Twine(2 * ring) + ")");
}

void KernelEmitter::takeTurn(int ring) {
  callVoid("tp::turn_wait",
           {turnRing(ring), literal(i64(), copyText), turnCount});
  if (ring == 0) {
    turnStart = &*std::prev(b.getInsertionPoint());
    turnPassed = false;
  }
}

void KernelEmitter::passTurn(int ring) {
  inLeader([&] {
    callVoid("tp::turn_pass", {turnRing(ring), literal(i64(), copyText)});
  });
}

/// The main loop's turn, passed with where the next copy's tile starts in
/// each pipe (after this tile's iterations; every thread of the copy
/// computes the same, the elected one writes it). Not before every thread
/// of the copy took the turn and read where its tile starts (a loop of no
/// iterations has no sync of its own): the other copy's next turn
/// completes the phase they wait on and rewrites the bases.
void KernelEmitter::passMainTurn() {
  Location loc = func.getLoc();
  agentSync();
  Value bases = literal(opaque("uint64_t *"), "S." + layout.turnBase);
  inLeader([&] {
    for (auto &[key, vars] : pipeTile)
      callVoid("tp::turn_leave",
               {bases, intLit(key),
                b.create<emitc::AddOp>(loc, i64(), vars.first, vars.second)});
  });
  passTurn(0);
  turnStart = nullptr;
  turnPassed = true;
}

LogicalResult cuda::emitKernel(func::FuncOp func, const KernelLayout &layout,
                               OpBuilder &b) {
  return KernelEmitter(func, layout, b).emitKernel();
}
