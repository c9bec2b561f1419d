//===- KernelLayout.cpp - where a kernel's agents and buffers live --------===//

#include "cuda/analysis/KernelLayout.h"
#include "ir/WgmmaStaging.h"
#include "ir/WgmmaWarpgroups.h"

#include "attrs/AttrNames.h"
#include "cuda/analysis/Identifiers.h"
#include "cuda/analysis/IssueTurns.h"
#include "cuda/analysis/TileHomes.h"
#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <set>

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

namespace {

/// Registers a producer warpgroup keeps when it issues tcgen05 MMAs
/// (descriptors and slot addresses; at 56 nothing spills).
constexpr int kProducerRegs = 56;
/// Registers a producer warpgroup keeps when it only issues TMA (Hopper,
/// whose MMA runs in the consumers): 24, PTX's least, as FlashAttention-3's
/// loader keeps; the producers of every sm_90a kernel of the tests spill
/// nothing at it, and the consumers get 240.
constexpr int kTmaProducerRegs = 24;

int64_t tmemColumns(ShapedType type) {
  // The IR's count, which knows that block-scale factors take 4x the columns
  // of their bytes (they are replicated to the four lane quarters).
  if (auto tmem = dyn_cast<tileas::TmemType>(type))
    return std::max<int64_t>(1, tileas::getTmemColumns(tmem));
  int64_t cols = type.getRank() >= 2 ? type.getShape().back() : 1;
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  return std::max<int64_t>(1, cols * bits / 32);
}

int64_t bufferAlign(int64_t bytes) { return bytes % 1024 == 0 ? 1024 : 16; }

void placeWarps(KernelLayout &layout) {
  // Agents of fewer than four warps share warpgroups; the others start on a
  // warpgroup boundary, so that warp w reaches TMEM lanes 32 * (w % 4).
  int next = 0;
  for (AgentLayout &a : layout.agents)
    if (a.warps < 4) {
      if (next / 4 != (next + a.warps - 1) / 4)
        next = (next + 3) / 4 * 4;
      a.firstWarp = next;
      next += a.warps;
    }
  next = (next + 3) / 4 * 4;
  for (AgentLayout &a : layout.agents)
    if (a.warps >= 4) {
      a.firstWarp = next;
      next += (a.span() + 3) / 4 * 4;
    }
  layout.warps = std::max(4, next);
}

/// Registers a consumer agent needs besides the tiles it carries: the
/// 32-column piece of a tile in flight (tcgen05.ld/st 32x32b.x32).
constexpr int kAgentOverhead = 32;
/// What a consumer agent that carries no tile across its loops' back edges
/// keeps when another needs more than the uniform share (FA4's correction
/// warp group: it rescales O in TMEM piece by piece). At head dim 64,
/// softmax 0 (S, 128 words) then gets 216; 208 and 224 also measured 0 B
/// spilled, 200 16 B (docs/cuda.md, "Registers").
constexpr int kAgentFloor = 88;

/// The 32-bit words per thread of the rank-2 register tiles `a` carries
/// across a loop's back edge (after shrinkCarriedTiles), the most of any of
/// its loops.
int64_t carriedWords(const AgentLayout &a) {
  int64_t most = 0;
  if (!a.op)
    return 0;
  a.op->walk([&](scf::ForOp loop) {
    int64_t words = 0;
    for (Value arg : loop.getRegionIterArgs())
      if (auto tile = dyn_cast<RankedTensorType>(arg.getType());
          tile && tile.getRank() == 2 && tile.hasStaticShape() &&
          tile.getElementType().isIntOrFloat())
        words += (tile.getNumElements() *
                      tile.getElementType().getIntOrFloatBitWidth() / 32 +
                  a.threads() - 1) /
                 a.threads();
    most = std::max(most, words);
  });
  return most;
}

/// Splits `total` registers per thread (each of one warpgroup) over the
/// consumer warpgroups by need (carried words + kAgentOverhead) when some
/// need is above `uniform`: those that carry no tile keep kAgentFloor,
/// those whose need fits keep `uniform`, and the needy keep `uniform` plus
/// what was freed, shared in proportion to what each lacks, in multiples of
/// 8 up to 256. Empty (the uniform split) when no agent needs more, or when
/// nothing can be freed.
std::vector<int> splitByNeed(const std::vector<int64_t> &carried, int total,
                             int uniform) {
  size_t n = carried.size();
  std::vector<int64_t> need(n, 0);
  std::vector<int> regs(n, uniform);
  int64_t needSum = 0;
  int fixed = 0; // Registers of the warpgroups that are not needy.
  for (size_t i = 0; i < n; ++i) {
    if (!carried[i])
      regs[i] = std::min(uniform, kAgentFloor);
    else if (carried[i] + kAgentOverhead > uniform)
      need[i] = carried[i] + kAgentOverhead;
    if (need[i])
      needSum += need[i];
    else
      fixed += regs[i];
  }
  int needy = int(llvm::count_if(need, [](int64_t v) { return v != 0; }));
  int extra = total - fixed - needy * uniform;
  if (!needSum || extra < 8)
    return {};
  // Each needy warpgroup keeps the uniform share and gets the registers
  // freed in proportion to what it lacks.
  int64_t lackSum = needSum - int64_t(needy) * uniform;
  int given = fixed;
  for (size_t i = 0; i < n; ++i)
    if (need[i]) {
      regs[i] = std::min(
          uniform + int(extra * (need[i] - uniform) / lackSum) / 8 * 8, 256);
      given += regs[i];
    }
  // What rounding or the cap left, 8 at a time: to the neediest first,
  // then back to the others.
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return need[a] > need[b]; });
  int left = total - given;
  for (bool progress = true; left >= 8 && progress;) {
    progress = false;
    for (size_t i : order)
      if (left >= 8 && regs[i] + 8 <= 256) {
        regs[i] += 8;
        left -= 8;
        progress = true;
      }
  }
  return regs;
}

void splitRegisters(KernelLayout &layout) {
  int threads = layout.threads();
  layout.launchRegs = std::min(256, kRegisterFile / threads / 8 * 8);
  // The CTA holds launchRegs x threads registers from launch on, and
  // setmaxnreg moves registers within that pool only: a split that asks for
  // more (counted against the whole register file, 512 a thread of each
  // warpgroup where 384 threads hold 504) blocks setmaxnreg.inc forever.
  int pool = layout.launchRegs * threads / 128;
  int producerRegs = layout.wgmma ? kTmaProducerRegs : kProducerRegs;
  unsigned groups = unsigned(layout.warps / 4);
  std::vector<bool> producer(groups, true);
  for (const AgentLayout &a : layout.agents)
    if (a.warps >= 4)
      for (int w = a.firstWarp; w < a.firstWarp + a.span(); ++w)
        producer[unsigned(w / 4)] = false;
  unsigned numProducer = unsigned(llvm::count(producer, true));
  unsigned numConsumer = groups - numProducer;
  // An explicit budget (the agent's `regs`) wins; otherwise producer
  // warpgroups give registers to the others when that raises their budget.
  int consumerRegs = 0;
  if (numProducer && numConsumer) {
    consumerRegs =
        (pool - int(numProducer) * producerRegs) / int(numConsumer) / 8 * 8;
    consumerRegs = std::min(consumerRegs, 256);
    // No gain (a 256-thread kernel already gives every thread the most a
    // thread can use): no split, and the producers keep their registers
    // (an MMA warp at 56 spills its descriptors and slot addresses).
    if (consumerRegs <= layout.launchRegs || producerRegs >= layout.launchRegs)
      consumerRegs = 0;
  }
  // By need: a consumer that carries a large register tile across its
  // loop's back edge (FA4's S in softmax 0) takes registers from one that
  // carries none (correction), when the uniform share would not hold it.
  std::vector<int> groupRegs(groups, consumerRegs);
  if (consumerRegs) {
    std::vector<int64_t> carried(groups, 0);
    for (const AgentLayout &a : layout.agents)
      if (a.warps >= 4)
        for (int g = a.firstGroup(); g < a.endGroup(); ++g)
          carried[unsigned(g)] =
              std::max(carried[unsigned(g)], carriedWords(a));
    std::vector<int64_t> consumerCarried;
    for (unsigned g = 0; g < groups; ++g)
      if (!producer[g])
        consumerCarried.push_back(carried[g]);
    std::vector<int> byNeed = splitByNeed(
        consumerCarried, pool - int(numProducer) * producerRegs, consumerRegs);
    if (!byNeed.empty())
      for (unsigned g = 0, c = 0; g < groups; ++g)
        if (!producer[g])
          groupRegs[g] = byNeed[c++];
    // An agent runs at one count in every warpgroup it spans (each of them
    // runs its setmaxnreg): the least the split gave any of them, so that
    // the counts never add up to more than the pool.
    for (const AgentLayout &a : layout.agents) {
      unsigned g0 = unsigned(a.firstGroup());
      unsigned g1 = std::min(groups, unsigned(a.endGroup()));
      if (a.warps < 4 || g1 <= g0 + 1)
        continue;
      int least =
          *std::min_element(groupRegs.begin() + g0, groupRegs.begin() + g1);
      std::fill(groupRegs.begin() + g0, groupRegs.begin() + g1, least);
    }
  }
  for (AgentLayout &a : layout.agents) {
    a.producerGroup = producer[unsigned(a.firstGroup())];
    if (a.op)
      if (auto regs = a.op->getAttrOfType<IntegerAttr>("regs")) {
        a.maxRegs = int(regs.getInt());
        continue;
      }
    if (consumerRegs)
      a.maxRegs =
          a.producerGroup ? producerRegs : groupRegs[unsigned(a.firstGroup())];
  }
}

/// An SMEM ring and the span of the function's top-level ops that use it.
struct RingSpan {
  std::string member;
  int64_t bytes = 0, align = 16;
  unsigned first = ~0u, last = 0;
};

/// The decisions of layoutKernel in the order they depend on each other,
/// with what they share while the layout is made: the SMEM members not yet
/// ordered, the tiles placed after the loops and the next free TMEM column.
class LayoutBuilder {
public:
  explicit LayoutBuilder(func::FuncOp func) : func(func) {}

  FailureOr<KernelLayout> run() {
    layout.name = kernelIdentifier(func.getSymName());
    if (failed(layoutAgents()) || failed(assignNamedBarriers()) ||
        failed(analyzeTiles()) || failed(placeBuffers()) ||
        failed(planIssueTurns(func, layout, usedBarriers)))
      return failure();
    placeScratch();
    if (failed(placeTurns()))
      return failure();
    markSharedBuffers();
    overlaySequentialLoops();
    overlayAfterLoops();
    if (failed(collectSmem()) || failed(allocateTmem()))
      return failure();
    return std::move(layout);
  }

private:
  LogicalResult layoutAgents();
  LogicalResult assignNamedBarriers();
  LogicalResult layoutMutex(tileas::MutexCreateOp create);
  int threadsOfGroup(Operation *mutex, int64_t group);
  LogicalResult analyzeTiles();
  int64_t tileAlign(Value v, int64_t bytes);
  void addSmem(Value v, ShapedType type, StringRef what);
  LogicalResult placeBuffers();
  LogicalResult placeBuffer(Operation *op);
  LogicalResult placeStaged(tileas::WgmmaOp mma);
  void placeLoopStaging(tileas::SmemStoreOp store);
  LogicalResult placeTmemCopy(tileas::TmemCopyOp copy);
  LogicalResult placePipe(tileas::PipeCreateOp create);
  LogicalResult placeSmemRing(tileas::PipeCreateOp create, PipeLayout &p,
                              const PipeLayout *joined);
  void noteDrained(tileas::PipeCreateOp create, const std::string &member);
  LogicalResult placeTurns();
  LogicalResult placeLoad(tileas::TmaLoadOp load);
  void markSharedBuffers();
  void placeScratch();
  bool readsEndInOrder(const PipeLayout &p) const;
  void overlaySequentialLoops();
  void placeLoopRings(const std::vector<std::vector<RingSpan>> &loops,
                      Block &body);
  void overlayAfterLoops();
  LogicalResult collectSmem();
  LogicalResult allocateTmem();

  func::FuncOp func;
  KernelLayout layout;
  /// Named barrier ids taken; 0 is __syncthreads'.
  std::set<int> usedBarriers = {0};
  /// SMEM members: tiles, then barriers, then the mbarrier mutexes'.
  std::vector<SmemMember> buffers, barriers, mutexMembers, scratchMembers;
  /// The staging ring of each buffer a staged operand is read from.
  llvm::DenseMap<const TileLayout *, KernelLayout::Staged> stagedBySource;
  /// Tiles made after the loops: staging tiles (smem_store) and source
  /// tiles (tma_load, an epilogue's C), in program order.
  std::vector<Operation *> afterLoops;
  /// Pipes whose slots the code after the loops may reuse: nullptr when any
  /// agent may (the tensor core's commits drained them), else the one agent
  /// (or the function, unspecialized) that read them.
  std::map<std::string, Operation *> drainedPipes;
  int64_t tmemNext = 0;
  /// The buffer of each store a pipelined loop stages, by agent (or the
  /// function) and schedule order.
  std::map<std::pair<Operation *, int64_t>, std::string> loopStaging;
};

/// Agents: the warp-specialized partition, or the whole body; their warps
/// and register budgets.
LogicalResult LayoutBuilder::layoutAgents() {
  for (Operation &op : func.getBody().front())
    if (auto agent = dyn_cast<tileas::AgentOp>(op)) {
      AgentLayout a;
      a.op = agent;
      a.role = agent.getRole().str();
      a.warps = int(agent.getWarps());
      if (a.warps < 1)
        return emitError(agent.getLoc(), "an agent needs at least one warp");
      a.replicas = int(agent.getReplicas().value_or(1));
      if (a.replicas > 1 && !func->hasAttr("tileas.persistent"))
        return emitError(agent.getLoc(),
                         "ping-pong copies (replicas) take turns on the "
                         "output tiles of a persistent kernel; this function "
                         "is not tileas.persistent");
      layout.agents.push_back(a);
    }
  if (layout.agents.empty()) {
    AgentLayout body;
    body.role = "body";
    // Unspecialized code issues its wgmmas itself: a warpgroup each.
    func.walk([&](tileas::WgmmaOp mma) {
      body.warps =
          std::max(body.warps, int(4 * tileas::consumerWarpgroups(mma)));
    });
    layout.agents.push_back(body);
  }
  placeWarps(layout);
  layout.wgmma =
      func.walk([](tileas::WgmmaOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (layout.threads() > kMaxThreads)
    return emitError(func.getLoc())
           << "the agents need " << layout.threads()
           << " threads, more than a CTA's " << kMaxThreads;
  splitRegisters(layout);
  for (const AgentLayout &a : layout.agents)
    if (a.maxRegs && (a.maxRegs < 24 || a.maxRegs > 256 || a.maxRegs % 8))
      return emitError(a.op->getLoc())
             << "setmaxnreg needs a register count in [24, 256] that "
                "is a multiple of 8, not "
             << a.maxRegs;
  return success();
}

/// The threads of the agent that locks `mutex` as `group`.
int LayoutBuilder::threadsOfGroup(Operation *mutex, int64_t group) {
  for (Operation *user : mutex->getResult(0).getUsers())
    if (auto lock = dyn_cast<tileas::MutexLockOp>(user)) {
      APInt g;
      if (matchPattern(lock.getGroup(), m_ConstantInt(&g)) &&
          g.getSExtValue() == group)
        return layout.agents[agentOf(layout, lock)].threads();
    }
  return 0;
}

/// Named barriers: the mutexes' own ids first, then one per multi-warp
/// agent for its internal syncs.
LogicalResult LayoutBuilder::assignNamedBarriers() {
  WalkResult mutexWalk = func.walk([&](tileas::MutexCreateOp create) {
    return failed(layoutMutex(create)) ? WalkResult::interrupt()
                                       : WalkResult::advance();
  });
  if (mutexWalk.wasInterrupted())
    return failure();
  for (AgentLayout &a : layout.agents)
    if (a.warps > 1) {
      // A ping-pong agent's copies sync on consecutive ids.
      int id = 1;
      auto taken = [&](int first) {
        for (int r = 0; r < a.replicas; ++r)
          if (usedBarriers.count(first + r))
            return true;
        return false;
      };
      while (taken(id))
        ++id;
      for (int r = 0; r < a.replicas; ++r)
        usedBarriers.insert(id + r);
      a.syncBarrier = id;
    }
  return countNamedBarriers(func, layout, usedBarriers);
}

/// An mbarrier mutex gets a barrier array in SMEM; a named-barrier one its
/// ids, one per group.
LogicalResult LayoutBuilder::layoutMutex(tileas::MutexCreateOp create) {
  int groups = int(create.getGroups());
  layout.mutexOrder.push_back(create);
  if (create.getImplKind() == tileas::MutexImplKind::MBarrier) {
    // One mbarrier per group, one arrival (the unlocking group's leader).
    std::string name = "mutex" + std::to_string(layout.mutexes.size());
    layout.mutexBarriers[create] = name;
    layout.mutexes[create] = {-1, 0};
    mutexMembers.push_back({name, "", 8 * groups, 8});
    return success();
  }
  int first = int(create.getBarrierId().value_or(1));
  int threads = threadsOfGroup(create, 0);
  for (int g = 1; g < groups; ++g)
    if (threadsOfGroup(create, g) != threads)
      return emitError(create.getLoc(),
                       "the groups of a named-barrier mutex must have "
                       "equal thread counts");
  for (int id = first; id < first + groups; ++id)
    if (!usedBarriers.insert(id).second)
      return emitError(create.getLoc())
             << "named barrier " << id << " is used twice";
  // The owner waits with its threads; its predecessor's unlock arrives.
  layout.mutexes[create] = {first, 2 * threads};
  return success();
}

/// How each SMEM tile lies in shared memory: its layout may need a stricter
/// alignment than its size gives (a swizzle pattern's repeat).
LogicalResult LayoutBuilder::analyzeTiles() {
  FailureOr<TileLayouts> tiles = TileLayouts::analyze(func);
  if (failed(tiles))
    return failure();
  layout.tiles = std::move(*tiles);
  return success();
}

int64_t LayoutBuilder::tileAlign(Value v, int64_t bytes) {
  int64_t align = bufferAlign(bytes);
  if (const TileLayout *l = layout.tiles.of(v))
    align = std::max(align, l->align);
  return align;
}

/// A tile member of its own for `v`.
void LayoutBuilder::addSmem(Value v, ShapedType type, StringRef what) {
  SmemMember m;
  m.name = "tile" + std::to_string(buffers.size());
  m.bytes = tileas::getTileSizeInBytes(type);
  m.align = tileAlign(v, m.bytes);
  m.comment = what.str();
  layout.smemBuffers[v] = m.name;
  buffers.push_back(m);
}

/// Scratch words for the agents that combine values across their warps:
/// a reduce_lanes over more lanes than a warp has, a reduce_all. Each warp
/// writes its partials (one 4-byte word per element of the vector a thread
/// holds) and every thread reads its row's.
void LayoutBuilder::placeScratch() {
  std::map<unsigned, int64_t> words;
  func.walk([&](Operation *op) {
    unsigned a = agentOf(layout, op);
    int threads = layout.agents[a].threads();
    if (threads <= 32)
      return;
    int64_t perThread = 0;
    if (auto lanes = dyn_cast<tileas::ReduceLanesOp>(op);
        lanes && lanes.getLanes() > 32)
      perThread = std::max<int64_t>(
          1, lanes.getInput().getType().getNumElements() / threads);
    else if (isa<tileas::ReduceAllOp>(op))
      perThread = 1;
    if (perThread)
      words[a] = std::max(words[a], perThread * (threads / 32));
  });
  for (auto [a, n] : words) {
    SmemMember m;
    m.name = "scratch" + std::to_string(a);
    m.bytes = n * 4;
    m.align = 16;
    m.comment = "partials combined across the agent's warps";
    layout.agents[a].scratch = m.name;
    scratchMembers.push_back(m);
  }
}

/// A ping-pong agent's turns: two mbarriers for the main loop and two for
/// the epilogue (one per copy, like an mbarrier mutex of two groups), and a
/// word per pipe where the copy that ran a tile leaves the next tile's first
/// iteration.
LogicalResult LayoutBuilder::placeTurns() {
  for (AgentLayout &a : layout.agents) {
    if (a.replicas == 1)
      continue;
    if (!layout.turns.empty())
      return emitError(a.op->getLoc(),
                       "only one agent of a kernel may run as ping-pong "
                       "copies");
    if (!a.scratch.empty())
      return emitError(a.op->getLoc(),
                       "a ping-pong agent combines no values across its "
                       "warps (a reduction over more than a warp's lanes): "
                       "both copies would share the scratch and its barrier");
    layout.turns = "turns";
    layout.turnBase = "turn_base";
    barriers.push_back({layout.turns, "", 32, 8});
    barriers.push_back({layout.turnBase, "",
                        8 * int64_t(std::max<size_t>(1, layout.pipes.size())),
                        8});
  }
  return success();
}

/// Buffers and barriers: the prologue's tiles, then every op that makes
/// storage, in program order.
LogicalResult LayoutBuilder::placeBuffers() {
  // Tiles the loop reads whole are loaded once, before the roles split,
  // and completed on a barrier of their own.
  layout.prologue = collectPrologue(func);
  for (tileas::TmaLoadOp load : layout.prologue.loads)
    addSmem(load.getResult(), cast<ShapedType>(load.getType()),
            "tileas.tma_load in the prologue");
  if (!layout.prologue.loads.empty()) {
    layout.prologueBarrier = "prologue";
    barriers.push_back({layout.prologueBarrier, "", 8, 8});
  }
  WalkResult walk = func.walk([&](Operation *op) {
    return failed(placeBuffer(op)) ? WalkResult::interrupt()
                                   : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult LayoutBuilder::placeBuffer(Operation *op) {
  if (auto alloc = dyn_cast<tileas::AllocSmemOp>(op)) {
    addSmem(alloc.getResult(), cast<ShapedType>(alloc.getType()),
            "tileas.alloc_smem");
  } else if (auto alloc = dyn_cast<tileas::AllocTmemOp>(op)) {
    layout.tmemBuffers[alloc.getResult()] = tmemNext;
    // An MMA accumulator: one element per column (docs/cuda.md, "TMEM
    // layouts").
    tmemNext += tileas::getTmemColumns(alloc.getResult());
  } else if (auto store = dyn_cast<tileas::SmemStoreOp>(op)) {
    if (!store.getDst()) {
      // An MMA operand the threads write outside a pipelined loop is read
      // while the loop's rings may still be: it overlays none of them.
      bool mmaReads = llvm::any_of(store->getUsers(), [](Operation *u) {
        return isa<tileas::WgmmaOp, tileas::UmmaOp>(u);
      });
      if (stagesInLoop(store))
        placeLoopStaging(store);
      else if (mmaReads)
        addSmem(store.getResult(), cast<ShapedType>(store.getType()),
                "tileas.smem_store");
      else
        afterLoops.push_back(store);
    }
  } else if (auto copy = dyn_cast<tileas::TmemCopyOp>(op)) {
    if (!copy.getDst())
      return placeTmemCopy(copy);
  } else if (auto store = dyn_cast<tileas::TmemStoreOp>(op)) {
    if (!store.getDst()) {
      layout.tmemBuffers[store.getResult()] = tmemNext;
      tmemNext +=
          std::max<int64_t>(1, tileas::getTmemColumns(store.getResult()));
    }
  } else if (auto mma = dyn_cast<tileas::WgmmaOp>(op)) {
    return placeStaged(mma);
  } else if (auto create = dyn_cast<tileas::PipeCreateOp>(op)) {
    return placePipe(create);
  } else if (auto load = dyn_cast<tileas::TmaLoadOp>(op);
             load && !layout.prologue.ops.contains(load)) {
    return placeLoad(load);
  }
  return success();
}

/// A tile the threads stage in SMEM in a pipelined loop has one buffer
/// (the plan counts it once: materialize/mlir/LoopPlan.cpp), shared by every
/// copy stage code made of its store in one agent: the steady-state loop's,
/// the prologue and drain rows', and the loop for short trip counts. One at
/// a time holds data: the scheduler orders each write after the reads of
/// the one before (scheduler/mlir/LoopProblem.cpp), and the rows run in
/// that order.
void LayoutBuilder::placeLoopStaging(tileas::SmemStoreOp store) {
  Operation *agent = store->getParentOfType<tileas::AgentOp>();
  auto order = store->getAttrOfType<IntegerAttr>(attrs::kOrder);
  if (!order) {
    addSmem(store.getResult(), cast<ShapedType>(store.getType()),
            "tileas.smem_store");
    return;
  }
  auto key =
      std::make_pair(agent ? agent : func.getOperation(), order.getInt());
  if (auto it = loopStaging.find(key); it != loopStaging.end()) {
    layout.smemBuffers[store.getResult()] = it->second;
    return;
  }
  addSmem(store.getResult(), cast<ShapedType>(store.getType()),
          "tileas.smem_store in a loop");
  loopStaging[key] = layout.smemBuffers[store.getResult()];
}

/// An operand given MN-major that wgmma reads K-major only (tf32, 8-bit;
/// ir/WgmmaStaging.h): two K-major tiles the wgmma's
/// warpgroups transpose its slots into, used in turn, so that the copy for
/// the next wgmma never overwrites the tile one still in flight reads. Tile
/// bytes: the plan counts them (loopInvariantSmemBytes).
LogicalResult LayoutBuilder::placeStaged(tileas::WgmmaOp mma) {
  for (unsigned index : {0u, 1u}) {
    if (!tileas::isStagedOperand(mma, index))
      continue;
    Value operand = mma->getOperand(index);
    auto type = cast<tileas::SmemType>(operand.getType());
    // Peeled stage code issues one loop's wgmma in several places: they
    // take turns in one ring, that of the buffer they read.
    const TileLayout *source = layout.tiles.of(operand);
    if (auto it = stagedBySource.find(source); it != stagedBySource.end()) {
      layout.staged[{mma, index}] = it->second;
      continue;
    }
    auto kMajor = RankedTensorType::get(
        {type.getDimSize(1), type.getDimSize(0)}, type.getElementType());
    FailureOr<TileLayout> l = TileLayouts::mmaTile(mma, kMajor);
    if (failed(l))
      return failure();
    SmemMember m;
    m.name = "staged" + std::to_string(stagedBySource.size());
    m.bytes = 2 * l->bytes;
    m.align = l->align;
    m.comment = std::string("tileas.wgmma's ") + (index ? "B" : "A") +
                " transposed to K-major, two in turn";
    KernelLayout::Staged staged{m.name, l->cppType, l->bytes};
    layout.staged[{mma, index}] = staged;
    stagedBySource[source] = staged;
    buffers.push_back(m);
  }
  return success();
}

/// TMEM columns for block-scale factors copied without `into`; in a loop,
/// two buffers used in turn and a barrier pair.
LogicalResult LayoutBuilder::placeTmemCopy(tileas::TmemCopyOp copy) {
  layout.tmemBuffers[copy.getResult()] = tmemNext;
  int64_t cols = tmemColumns(cast<ShapedType>(copy.getType()));
  if (copy->getParentOfType<scf::ForOp>()) {
    // Iteration k + 1 copies while iteration k's MMA may still read.
    // One MMA reads each copy, and its commit frees the buffer.
    if (!copy.getResult().hasOneUse() ||
        !isa<tileas::UmmaOp>(*copy.getResult().getUsers().begin()))
      return emitError(copy.getLoc(),
                       "scale factors copied to TMEM in a loop are "
                       "translated when exactly one UMMA reads them");
    KernelLayout::ScaleCopy &sc = layout.scaleCopies[copy];
    sc.column = tmemNext;
    sc.cols = cols;
    sc.barriers = "scales" + std::to_string(layout.scaleCopyOrder.size());
    layout.scaleCopyOrder.push_back(copy);
    barriers.push_back({sc.barriers, "", 16, 8});
    cols *= 2;
  }
  tmemNext += cols;
  return success();
}

/// A pipe's slots (in TMEM, in an SMEM ring, or another pipe's) and its
/// full and empty barriers.
LogicalResult LayoutBuilder::placePipe(tileas::PipeCreateOp create) {
  PipeLayout p;
  p.op = create;
  p.id = unsigned(layout.pipes.size());
  p.depth = int(std::max<uint32_t>(1, create.getDepth()));
  auto payload =
      cast<ShapedType>(cast<tileas::PipeType>(create.getType()).getPayload());
  p.tmem = isa<tileas::TmemType>(payload);
  p.slotBytes = tileas::getTileSizeInBytes(payload);
  p.slotCols = tmemColumns(payload);
  if (auto slot = dyn_cast<tileas::TmemType>(payload))
    p.slotCols = std::max<int64_t>(1, tileas::getPipeSlotColumns(create, slot));
  p.txBytes = create.getBytes() ? int64_t(*create.getBytes()) : p.slotBytes;
  std::string n = std::to_string(p.id);
  // A joined pipe's slots are guarded by the barriers of the pipe it
  // joins.
  const PipeLayout *joined = create.getJoins()
                                 ? &layout.pipes[layout.pipeIds.lookup(
                                       create.getJoins().getDefiningOp())]
                                 : nullptr;
  p.full = joined ? joined->full : "full" + n;
  if (!joined)
    barriers.push_back({p.full, "", 8 * p.depth, 8});
  if (Value other =
          create.getShares() ? create.getShares() : create.getAliases()) {
    const PipeLayout &q =
        layout.pipes[layout.pipeIds.lookup(other.getDefiningOp())];
    p.buffer = q.buffer;
    p.tmemColumn = q.tmemColumn;
    if (q.slotsPadded) {
      p.slotBytes = q.slotBytes;
      p.slotsPadded = true;
    }
    if (create.getShares()) {
      p.empty = "empty" + n;
      p.emptyCount = std::max<unsigned>(1, create.getConsumers().size());
      barriers.push_back({p.empty, "", 8 * p.depth, 8});
    } else {
      p.empty = q.empty; // Its releases arrive on the root's barrier.
    }
  } else if (p.tmem) {
    p.buffer = "tmem";
    p.tmemColumn = tmemNext;
    tmemNext += p.depth * p.slotCols;
    p.empty = "empty" + n;
    p.emptyCount = std::max<unsigned>(1, create.getConsumers().size());
    barriers.push_back({p.empty, "", 8 * p.depth, 8});
  } else if (failed(placeSmemRing(create, p, joined))) {
    return failure();
  }
  layout.pipeIds[create] = p.id;
  layout.pipes.push_back(p);
  return success();
}

/// A pipe's own ring of SMEM slots.
LogicalResult LayoutBuilder::placeSmemRing(tileas::PipeCreateOp create,
                                           PipeLayout &p,
                                           const PipeLayout *joined) {
  std::string n = std::to_string(p.id);
  SmemMember m;
  m.name = "pipe" + n;
  m.bytes = p.depth * p.slotBytes;
  m.align = tileAlign(create.getResult(), p.slotBytes);
  // A ring's slots also hold its other tiles, seen through views laid out
  // for them.
  for (Operation *slotOp : create->getUsers())
    if (slotOp->getNumResults() == 1)
      for (Operation *user : slotOp->getResult(0).getUsers())
        if (auto view = dyn_cast<tileas::SmemViewOp>(user))
          m.align = std::max(m.align, tileAlign(view.getResult(), p.slotBytes));
  // Slots smaller than their alignment (a norm's 8-row statistics, 32 B
  // for a 128-byte TMA box) are spaced at it; a TMA still moves txBytes.
  if (p.depth > 1 && p.slotBytes % m.align != 0) {
    p.slotBytes = llvm::alignTo(p.slotBytes, m.align);
    p.slotsPadded = true;
    m.bytes = p.depth * p.slotBytes;
  }
  noteDrained(create, m.name);
  m.comment = "pipe " + n + ": " + create.getProducer().str() + ", " +
              std::to_string(p.depth) + " x " + std::to_string(p.slotBytes) +
              " B";
  buffers.push_back(m);
  p.buffer = m.name;
  p.empty = joined ? joined->empty : "empty" + n;
  p.emptyCount = std::max<unsigned>(1, create.getConsumers().size());
  if (!joined)
    barriers.push_back({p.empty, "", 8 * p.depth, 8});
  return success();
}

/// Slots the tensor core alone reads from a copy engine are drained once
/// the accumulator's last commit fired: the epilogue may stage its tiles
/// over them. Or read by SIMT threads whose reads finish in program order:
/// the code after the loop may reuse them in the agent that read them (a
/// Hopper wgmma's too, once its wait_group 0 retired them).
void LayoutBuilder::noteDrained(tileas::PipeCreateOp create,
                                const std::string &member) {
  using Producer = tileas::PipeProducerKind;
  using Consumer = tileas::PipeConsumerKind;
  Producer producer = create.getProducerKind();
  bool copied = producer == Producer::Tma || producer == Producer::CpAsync;
  auto allConsumers = [&](Consumer kind) {
    for (unsigned i = 0, e = create.getConsumers().size(); i < e; ++i)
      if (create.getConsumerKind(i) != kind)
        return false;
    return true;
  };
  if (copied && allConsumers(Consumer::Umma)) {
    drainedPipes[member] = nullptr;
  } else if (copied &&
             (allConsumers(Consumer::Simt) || allConsumers(Consumer::Wgmma))) {
    // A wgmma reader's reads end at the wait_group 0 that follows its loop
    // (the translation's flush), in the same program order.
    std::set<Operation *> readers;
    for (Operation *user : create->getUsers())
      if (isa<tileas::PipeConsumerWaitOp>(user))
        readers.insert(user->getParentOfType<tileas::AgentOp>());
    if (readers.size() == 1)
      drainedPipes[member] =
          *readers.begin() ? *readers.begin() : func.getOperation();
  }
}

/// A TMA load outside the prologue: into a pipe slot, or the epilogue's
/// own tile after the loops.
LogicalResult LayoutBuilder::placeLoad(tileas::TmaLoadOp load) {
  if (loadsAfterLoop(load)) {
    // After the loops: the epilogue's own tile, on a barrier of its own.
    std::string bar = "epiload" + std::to_string(layout.epilogueLoads.size());
    layout.epilogueLoads.insert({load, bar});
    barriers.push_back({bar, "", 8, 8});
    afterLoops.push_back(load);
    return success();
  }
  if (!load.getDst() || !tileas::stripViews(load.getDst())
                             .getDefiningOp<tileas::PipeProducerAcquireOp>())
    return emitError(load.getLoc(),
                     "a TMA load outside a pipe slot is not "
                     "translated to CUDA here: it has no barrier to "
                     "complete (a tile the loop reads whole is loaded "
                     "at the function's top level before the loop, from "
                     "the function's arguments and index arithmetic; a "
                     "tile the epilogue reads, after the loop)");
  return success();
}

void LayoutBuilder::markSharedBuffers() {
  for (PipeLayout &p : layout.pipes)
    for (const PipeLayout &q : layout.pipes)
      if (q.id != p.id && q.buffer == p.buffer &&
          (!p.tmem || q.tmemColumn == p.tmemColumn))
        p.sharedBuffer = true;
}

/// Whether every access to `p`'s slots is over once the threads that run its
/// handshakes pass its last release: TMA or cp.async writes a consumer waited
/// for, SIMT reads and stores, TMA stores whose release waits for their
/// reads (bulk_group.wait). A tensor core's reads end later, at a commit.
bool LayoutBuilder::readsEndInOrder(const PipeLayout &p) const {
  using Consumer = tileas::PipeConsumerKind;
  tileas::PipeCreateOp create = p.op;
  if (p.tmem || create.getProducerKind() == tileas::PipeProducerKind::Umma)
    return false;
  for (unsigned i = 0, e = create.getConsumers().size(); i < e; ++i)
    if (create.getConsumerKind(i) == Consumer::Umma)
      return false;
  return true;
}

/// The ops that may read what `create`'s slots hold: its handshakes and,
/// through def-use edges (a yield on to its loop's or if's results), every op
/// whose value the emitter may evaluate from a tile read there: it re-reads a
/// kept slot, or a per-column vector, piece by piece where the value is used,
/// after the slot's release (layernorm_rows, peeled, read W and B over the
/// bytes the next ring's store had overwritten). A reduction ends the chain:
/// it is evaluated where it stands, into registers. So does an MMA: its
/// accumulator is never re-read from the operands' slots (a wgmma's reads
/// are over at the wait before the slot's release), so two K loops summing
/// into one accumulator are two loops, not one.
std::vector<Operation *> slotReaders(tileas::PipeCreateOp create) {
  std::vector<Operation *> readers;
  std::set<Operation *> seen;
  std::vector<Value> work = {create.getResult()};
  while (!work.empty()) {
    Value v = work.back();
    work.pop_back();
    for (Operation *user : v.getUsers()) {
      if (!seen.insert(user).second)
        continue;
      readers.push_back(user);
      if (isa<tileas::ReduceSumOp, tileas::ReduceMaxOp, tileas::WgmmaOp,
              tileas::UmmaOp>(user))
        continue;
      if (auto loop = dyn_cast<scf::ForOp>(user)) {
        // An initial value: on to its iteration argument and result.
        seen.erase(user);
        for (auto [init, arg, result] :
             llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                       loop.getResults()))
          if (init == v)
            work.insert(work.end(), {arg, result});
        continue;
      }
      if (!isa<scf::YieldOp>(user)) {
        llvm::append_range(work, user->getResults());
        continue;
      }
      // On to the result (and the next iteration's argument) it yields.
      seen.erase(user);
      Operation *parent = user->getParentOp();
      for (OpOperand &use : user->getOpOperands())
        if (use.get() == v) {
          work.push_back(parent->getResult(use.getOperandNumber()));
          if (auto loop = dyn_cast<scf::ForOp>(parent))
            work.push_back(loop.getRegionIterArgs()[use.getOperandNumber()]);
        }
    }
  }
  return readers;
}

/// Rings of loops that run one after the other share bytes: an
/// unspecialized body runs its top-level ops in program order on all of its
/// threads, so once every thread has passed the last op that uses a ring,
/// its slots hold nothing anyone reads. The rings whose spans of top-level
/// ops overlap form one loop; each loop lays its rings out from the start
/// of one member, `loops`, as large as the largest loop's, and every thread
/// meets before the first op of each later loop (loopPhaseStarts).
///
/// Not in warp-specialized code: the agents of every loop start together
/// in their warps' branches (nothing in the CUDA orders a later loop's
/// producer after an earlier loop's readers); nor in a persistent kernel,
/// where the next tile's first loop refills the bytes the last loop's TMA
/// stores may still read.
void LayoutBuilder::overlaySequentialLoops() {
  if (layout.agents.size() != 1 || layout.agents.front().op ||
      func->hasAttr("tileas.persistent"))
    return;
  Block &body = func.getBody().front();
  llvm::DenseMap<Operation *, unsigned> position;
  for (auto [i, op] : llvm::enumerate(body))
    position[&op] = unsigned(i);
  std::map<std::string, RingSpan> spans;
  std::set<std::string> excluded;
  for (const PipeLayout &p : layout.pipes) {
    if (p.tmem)
      continue;
    if (!readsEndInOrder(p))
      excluded.insert(p.buffer);
    RingSpan &span = spans[p.buffer];
    span.member = p.buffer;
    for (Operation *reader : slotReaders(p.op))
      if (Operation *top = body.findAncestorOpInBlock(*reader)) {
        span.first = std::min(span.first, position.lookup(top));
        span.last = std::max(span.last, position.lookup(top));
      }
  }
  std::vector<RingSpan> rings;
  for (const SmemMember &m : buffers)
    if (auto it = spans.find(m.name); it != spans.end() &&
                                      !excluded.count(m.name) &&
                                      it->second.first <= it->second.last) {
      it->second.bytes = m.bytes;
      it->second.align = m.align;
      rings.push_back(it->second);
    }
  std::stable_sort(
      rings.begin(), rings.end(),
      [](const RingSpan &a, const RingSpan &b) { return a.first < b.first; });
  // Loops: rings whose spans overlap, in program order.
  std::vector<std::vector<RingSpan>> loops;
  unsigned end = 0;
  for (const RingSpan &r : rings) {
    if (loops.empty() || r.first > end)
      loops.emplace_back();
    loops.back().push_back(r);
    end = loops.back().size() == 1 ? r.last : std::max(end, r.last);
  }
  if (loops.size() < 2)
    return;
  placeLoopRings(loops, body);
}

/// Places each loop's rings from the start of the `loops` member, largest
/// alignment first, and points their pipes there.
void LayoutBuilder::placeLoopRings(
    const std::vector<std::vector<RingSpan>> &loops, Block &body) {
  SmemMember region;
  region.name = "loops";
  region.comment =
      "the rings of " + std::to_string(loops.size()) + " loops in turn:";
  std::map<std::string, std::string> placed;
  for (auto [l, rings] : llvm::enumerate(loops)) {
    std::vector<RingSpan> order = rings;
    std::stable_sort(
        order.begin(), order.end(),
        [](const RingSpan &a, const RingSpan &b) { return a.align > b.align; });
    int64_t at = 0;
    region.comment += (l ? "; loop " : " loop ") + std::to_string(l) + ":";
    for (const RingSpan &r : order) {
      at = (at + r.align - 1) / r.align * r.align;
      placed[r.member] = at ? "loops + " + std::to_string(at) : "loops";
      region.comment += " " + r.member + " at " + std::to_string(at);
      region.align = std::max(region.align, r.align);
      at += r.bytes;
    }
    region.bytes = std::max(region.bytes, at);
    if (l)
      layout.loopPhaseStarts.insert(
          &*std::next(body.begin(), rings.front().first));
  }
  for (PipeLayout &p : layout.pipes)
    if (auto it = placed.find(p.buffer); it != placed.end())
      p.buffer = it->second;
  llvm::erase_if(
      buffers, [&](const SmemMember &m) { return placed.count(m.name) != 0; });
  // Tiles staged after the loops may overlay the region when the last
  // loop's rings all drain, in one agent: the earlier loops' rings were
  // done at the next loop's start (loopPhaseStarts).
  std::optional<Operation *> drainer;
  bool drained = true;
  for (const RingSpan &r : loops.back()) {
    auto it = drainedPipes.find(r.member);
    drained = drained && it != drainedPipes.end() &&
              (!drainer || *drainer == it->second);
    if (it != drainedPipes.end())
      drainer = it->second;
  }
  for (auto &[member, at] : placed)
    drainedPipes.erase(member);
  if (drained && drainer)
    drainedPipes[region.name] = *drainer;
  buffers.push_back(region);
}

/// Orders the tiles and places those staged after the loops.
///
/// Largest alignment first, so that the tiles pack without padding and
/// their total is what the plan counts. Tiles staged after the loops (an
/// epilogue's TMA stores) reuse the drained pipes' slots, as CUTLASS
/// epilogues reuse the mainloop's shared memory: the code after a loop runs
/// once the accumulator's commit has fired, which follows every MMA and so
/// every read of those slots. Each tile gets its own bytes of them: one
/// tile's TMA store may still read while the next is written.
void LayoutBuilder::overlayAfterLoops() {
  // 2: any agent may reuse the slots (the tensor core drained them), 1:
  // only the agent that read them, 0: none.
  auto isDrained = [&](const SmemMember &m) {
    auto it = drainedPipes.find(m.name);
    return it == drainedPipes.end() ? 0 : it->second ? 1 : 2;
  };
  auto packed = [&] {
    std::stable_sort(buffers.begin(), buffers.end(),
                     [&](const SmemMember &a, const SmemMember &b) {
                       // Drained pipes first among equals, those any agent
                       // may reuse first of all: the tiles staged after the
                       // loops overlay them from the start.
                       return a.align != b.align ? a.align > b.align
                                                 : isDrained(a) > isDrained(b);
                     });
  };
  packed();
  int64_t overlayNext = 0;
  // Not in a persistent kernel: there the next tile's loads refill those
  // slots while this tile's epilogue stages.
  layout.persistent = func->hasAttr("tileas.persistent");
  if (layout.persistent)
    drainedPipes.clear();
  if (auto count = tileas::TileCountOp::of(func))
    layout.tileCount = count.getTiles();
  for (Operation *store : afterLoops) {
    Value tile = store->getResult(0);
    auto type = cast<ShapedType>(tile.getType());
    // The output staging over the tile it is made from, element by element
    // (each thread writes what it has read): one buffer for both. Not in a
    // persistent kernel, where the next tile's load of that tile may come
    // while this tile's TMA store still reads the staging.
    if (auto smemStore = dyn_cast<tileas::SmemStoreOp>(store);
        smemStore && !layout.persistent)
      if (Value source = inPlaceSource(smemStore);
          source && layout.smemBuffers.count(source)) {
        const TileLayout *a = layout.tiles.of(source);
        const TileLayout *b = layout.tiles.of(tile);
        if ((!a && !b) || (a && b && a->cppType == b->cppType)) {
          layout.smemBuffers[tile] = layout.smemBuffers.lookup(source);
          continue;
        }
      }
    int64_t bytes = tileas::getTileSizeInBytes(type);
    int64_t align = tileAlign(tile, bytes);
    int64_t at = (overlayNext + align - 1) / align * align;
    Operation *agent = store->getParentOfType<tileas::AgentOp>();
    if (!agent)
      agent = func.getOperation();
    int64_t usable = 0;
    for (const SmemMember &m : buffers) {
      auto it = drainedPipes.find(m.name);
      if (it == drainedPipes.end() || (it->second && it->second != agent))
        break;
      usable += m.bytes;
    }
    if (at + bytes <= usable && align <= buffers.front().align) {
      layout.smemBuffers[tile] =
          at == 0 ? buffers.front().name
                  : buffers.front().name + " + " + std::to_string(at);
      overlayNext = at + bytes;
      continue;
    }
    addSmem(tile, type,
            isa<tileas::TmaLoadOp>(store)
                ? "tileas.tma_load after the loops"
                : "tileas.smem_store after the loops");
  }
  // The staged tiles that overlay nothing are placed by alignment too (a
  // persistent GEMM's 1024-aligned epilogue tile after a 128-aligned pipe of
  // scale factors took 512 B of padding).
  packed();
}

/// The SMEM struct's members in order, checked against a CTA's share.
LogicalResult LayoutBuilder::collectSmem() {
  for (const SmemMember &m : buffers)
    layout.bufferBytes += m.bytes;
  layout.smem = buffers;
  llvm::append_range(layout.smem, barriers);
  llvm::append_range(layout.smem, mutexMembers);
  // Synchronization state, not tiles: after the barriers, outside the
  // plan's tile bytes.
  llvm::append_range(layout.smem, scratchMembers);
  // A narrow wgmma reads 64 rows of A from each slot: past the last slot,
  // into whatever follows, which must still be the CTA's SMEM. Its 8-row
  // core-matrix groups lie one after another down each swizzle atom's
  // column (at most 128 bytes of a row), the last column ending the tile:
  // the rows past the tile reach (64 - M) rows of an atom further, and no
  // further than (64 - M) / M of the tile.
  int64_t overread = 0;
  func.walk([&](tileas::WgmmaOp mma) {
    auto a = dyn_cast<tileas::SmemType>(mma.getA().getType());
    if (!a || !tileas::isNarrowTile(mma))
      return;
    int64_t m = mma.getMmaM();
    overread = std::max(overread, std::min(a.getSizeInBytes() * (64 - m) / m,
                                           (64 - m) * int64_t(128)));
  });
  if (overread)
    layout.smem.push_back({"overread",
                           "the rows to 64 a narrow wgmma reads past its "
                           "A's last slot (not kept)",
                           overread, 16});
  bool accumulates = func.walk([](tileas::UmmaOp mma) {
                           return mma.getAccumulate() ? WalkResult::interrupt()
                                                      : WalkResult::advance();
                         })
                         .wasInterrupted();
  if (accumulates) {
    layout.zeros = "zeros";
    layout.smem.push_back(
        {layout.zeros, "zeros an accumulator that no MMA wrote", 256, 16});
  }
  layout.smem.push_back({"tmem_base", "TMEM address from tcgen05.alloc", 4, 4});
  int64_t total = 0;
  for (const SmemMember &m : layout.smem)
    total = (total + m.align - 1) / m.align * m.align + m.bytes;
  if (total > kSmemPerBlock) {
    InFlightDiagnostic diag = emitError(func.getLoc())
                              << "the kernel needs " << total
                              << " B of shared memory; a CTA has "
                              << kSmemPerBlock;
    Diagnostic &note = diag.attachNote();
    note << "its largest members:";
    std::vector<const SmemMember *> largest;
    for (const SmemMember &m : layout.smem)
      largest.push_back(&m);
    std::stable_sort(largest.begin(), largest.end(),
                     [](const SmemMember *a, const SmemMember *b) {
                       return a->bytes > b->bytes;
                     });
    for (size_t i = 0; i < std::min<size_t>(4, largest.size()); ++i)
      note << (i ? "," : "") << " " << largest[i]->name << " "
           << largest[i]->bytes << " B (" << largest[i]->comment << ")";
    return diag;
  }
  return success();
}

/// TMEM is allocated in powers of two from 32 columns.
LogicalResult LayoutBuilder::allocateTmem() {
  layout.tmemUsed = tmemNext;
  if (tmemNext > kTmemColumns)
    return emitError(func.getLoc())
           << "the kernel needs " << tmemNext << " TMEM columns; an SM has "
           << kTmemColumns;
  layout.tmemAllocated = 0;
  if (tmemNext > 0) {
    layout.tmemAllocated = 32;
    while (layout.tmemAllocated < tmemNext)
      layout.tmemAllocated *= 2;
  }
  return success();
}

} // namespace

unsigned cuda::agentOf(const KernelLayout &layout, Operation *op) {
  for (unsigned i = 0; i < layout.agents.size(); ++i)
    if (layout.agents[i].op && layout.agents[i].op->isAncestor(op))
      return i;
  return 0;
}

LogicalResult cuda::countNamedBarriers(func::FuncOp func, KernelLayout &layout,
                                       const std::set<int> &used) {
  layout.namedBarriers = *used.rbegin() + 1;
  if (layout.namedBarriers > kNamedBarriers)
    return emitError(func.getLoc())
           << "the kernel needs named barrier id " << layout.namedBarriers - 1
           << "; a CTA has " << kNamedBarriers;
  return success();
}

FailureOr<KernelLayout> cuda::layoutKernel(func::FuncOp func) {
  return LayoutBuilder(func).run();
}
