//===- TileOps.cpp - reads, writes and async units of tile ops ------------===//
//
// A tile op reads the current content of every handle operand (except its
// `into` destination, and a UMMA's accumulator without `accumulate`) and
// computes a term. Producers write the term into their destination. TMA
// loads and cp.async land later; UMMA and tcgen05.cp read and write at
// completion, which may come in any order except where PTX pipelines a
// pair of one thread's ops (an MMA behind a tcgen05.cp, or behind an MMA
// into the same accumulator); TMA stores read until their bulk group
// finishes; tcgen05.ld reads until tcgen05_wait_ld.
//
//===----------------------------------------------------------------------===//

#include "materialize/exec/Interpreter.h"

#include "ir/Positions.h"
#include "ir/TileASDialect.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilepipe::exec;

static std::string describe(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << op->getName().getStringRef() << " at " << op->getLoc();
  return os.str();
}

std::optional<uint64_t> Interpreter::readOperand(unsigned t, Operation *op,
                                                 const Val &v, ReadAt when) {
  switch (v.kind) {
  case Val::Kind::Poison:
    fail(t, op, "poison-read",
         "reads an undefined value (ub.poison): a stage ran for an "
         "iteration whose input was never produced");
    return std::nullopt;
  case Val::Kind::Int:
    return result.terms.intLeaf(v.i);
  case Val::Kind::Term:
    return v.term;
  case Val::Kind::Handle:
    break;
  default:
    return result.terms.leaf("object", uint64_t(v.i));
  }
  Buffer &b = buffers[v.buffer];
  std::string what = v.isSlot() ? slotName(v.pipe, v.iter) : b.name;
  Hold *held = nullptr;
  if (v.isSlot() && when != ReadAt::TcCompletion &&
      !checkSlotHeld(t, op, v, what, held))
    return std::nullopt;
  // The issuing thread's own pending tensor-core writes: at issue, they
  // must be ones PTX orders this op behind (they land before it reads); at
  // completion, ones issued after it (an earlier unordered one was caught
  // at issue, and a later one is checked where it lands).
  bool ownQueue =
      b.pendingTcThread == int(t) &&
      (when == ReadAt::TcCompletion ||
       (when == ReadAt::TcIssue && orderedBehindOwnWrites(t, op, v.buffer)));
  if (b.pendingWrites && !ownQueue) {
    fail(t, op, "read-before-commit",
         "reads " + what + " before the async write of " +
             describe(b.pendingWriter) + " landed");
    return std::nullopt;
  }
  if (held && (b.writtenPipe != v.pipe || b.writtenIter != v.iter)) {
    std::string holds =
        b.writtenPipe < 0
            ? std::string("data no producer wrote")
            : "data of pipe iteration " + std::to_string(b.writtenIter) +
                  (b.writtenPipe != v.pipe ? " of " + pipes[b.writtenPipe].name
                                           : std::string());
    fail(t, op, "stale-read",
         "reads " + what + " but the slot holds " + holds +
             " (stale data: the wait passed on another phase)");
    return std::nullopt;
  }
  return b.content;
}

// A slot is read by a thread that holds it, by a consumer_wait in force
// (`held`) or its producer_acquire, and a slot a UMMA produced only behind
// fence "tcgen05_after".
bool Interpreter::checkSlotHeld(unsigned t, Operation *op, const Val &v,
                                const std::string &what, Hold *&held) {
  held = findHold(t, v.pipe, v.iter, true);
  if (!held && !findHold(t, v.pipe, v.iter, false) &&
      threads[t].released.count({v.pipe, v.iter})) {
    fail(t, op, "release-before-read",
         "reads " + what + " after its consumer_release: the producer may "
         "already be overwriting it");
    return false;
  }
  if (!held && !findHold(t, v.pipe, v.iter, false)) {
    fail(t, op, "read-before-commit",
         "reads " + what +
             " without holding it: no consumer_wait of that iteration is "
             "in force (missing, or already released)");
    return false;
  }
  if (held && held->needsAfter && isa<tileas::UmmaOp, tileas::TmemLoadOp>(op)) {
    fail(t, op, "missing-fence",
         "reads " + what +
             ", which a UMMA produced, without fence \"tcgen05_after\" "
             "between its consumer_wait and this read");
    return false;
  }
  return true;
}

bool Interpreter::checkWriteAllowed(unsigned t, Operation *op,
                                    const Val &dst) {
  if (!dst.isSlot() || findHold(t, dst.pipe, dst.iter, false))
    return true;
  fail(t, op, "overwrite-before-release",
       "writes " + slotName(dst.pipe, dst.iter) +
           " without holding its producer_acquire (a producer writes a slot "
           "only between its acquire and its commit)");
  return false;
}

bool Interpreter::orderedBehindOwnWrites(unsigned t, Operation *op,
                                         unsigned buffer) {
  // PTX's pipelined pairs (tcgen05 memory consistency model): tcgen05.cp ->
  // tcgen05.mma, and tcgen05.mma -> tcgen05.mma with the same accumulator
  // and shape. Nothing is ordered behind an MMA on another accumulator.
  auto umma = dyn_cast<tileas::UmmaOp>(op);
  if (!umma)
    return false;
  const Buffer &b = buffers[buffer];
  if (!b.pendingTcMmaWrites)
    return true;
  const Val *acc = lookup(t, umma.getAcc());
  return acc && acc->isHandle() && acc->buffer == buffer;
}

bool Interpreter::writeBuffer(unsigned t, Operation *op, const Val &dst,
                              uint64_t term, uint64_t tcId) {
  Buffer &b = buffers[dst.buffer];
  std::string what = dst.isSlot() ? slotName(dst.pipe, dst.iter) : b.name;
  // This thread's tensor-core ops issued after this one may still read:
  // their issue check allowed it only where PTX orders them behind this
  // write. One issued before it and still reading is a hazard.
  unsigned queuedBehind = 0;
  if (tcId)
    for (const AsyncRead &a : threads[t].asyncReads)
      queuedBehind += a.unit == 'c' && a.buffer == dst.buffer && a.id > tcId;
  if (b.pendingReads > queuedBehind) {
    fail(t, op, "overwrite-before-release",
         "overwrites " + what + " while " + describe(b.pendingReader) +
             " still reads it");
    return false;
  }
  // The writer's own wait on the slot, when the write is its own tensor-core
  // op: an accumulator updated in place (O += P V over the rescaled O it
  // waited on). That thread's tcgen05.commit release arrives only once all
  // its earlier tensor-core ops, this one included, have completed.
  bool ownQueueWrite = isa<tileas::UmmaOp, tileas::TmemCopyOp>(op);
  if (b.isSlot) {
    for (unsigned u = 0; u < threads.size(); ++u)
      for (const Hold &h : threads[u].holds) {
        const Pipe &q = pipes[h.pipe];
        if (!h.wait || q.buffers[h.iter % q.depth] != dst.buffer ||
            (ownQueueWrite && u == t))
          continue;
        fail(t, op, "overwrite-before-release",
             "overwrites " + what + " while thread '" + threads[u].name +
                 "' still holds " + slotName(h.pipe, h.iter) +
                 " (its consumer_release has not run)");
        return false;
      }
  }
  b.content = term;
  ++b.version;
  b.writtenPipe = dst.isSlot() ? dst.pipe : -1;
  b.writtenIter = dst.iter;
  return true;
}

// The destination, handle-typed, and the operands read: all but the
// destination, and a UMMA's accumulator only when it accumulates.
std::optional<Interpreter::TileAccess> Interpreter::tileAccess(unsigned t,
                                                               Operation *op) {
  TileAccess access;
  if (OpOperand *into = tileas::getIntoOperand(op))
    access.dst = into->get();
  auto umma = dyn_cast<tileas::UmmaOp>(op);
  bool readAcc = true;
  if (umma) {
    readAcc = umma.getAccumulate();
    if (get(t, umma.getAcc()).isHandle())
      access.dst = umma.getAcc();
  }
  Value dst = access.dst;
  for (OpOperand &operand : op->getOpOperands()) {
    bool isAcc = umma && operand.getOperandNumber() == 2;
    if (isAcc ? !readAcc : operand.get() == dst && dst)
      continue;
    access.reads.push_back(operand.getOperandNumber());
  }
  access.dstVal = dst ? get(t, dst) : Val();
  if (dst && !access.dstVal.isHandle()) {
    fail(t, op, "malformed", "writes into a value that is not a buffer");
    return std::nullopt;
  }
  return access;
}

// A tile op is interpreted by the unit that carries it out, not by its
// name: the tensor core and the copy engines read and write later, SIMT
// threads at once, the bulk store reads until its group completes. Each
// writes a term of its name, attributes and inputs.
Interpreter::Step Interpreter::computeOp(unsigned t, Operation *op) {
  std::optional<TileAccess> access = tileAccess(t, op);
  if (!access)
    return Step::Failed;
  if (access->dst && isa<tileas::UmmaOp, tileas::TmemCopyOp>(op))
    return issueTensorCore(t, op, *access);
  std::optional<std::vector<uint64_t>> args = readNow(t, op, access->reads);
  if (!args)
    return Step::Failed;
  uint64_t term = computeTerm(t, op, *args);
  if (access->dst && isa<tileas::TmaLoadOp, tileas::CpAsyncOp>(op))
    return issueCopyIn(t, op, access->dstVal, term);
  if (access->dst)
    return storeNow(t, op, access->dstVal, term);
  if (isa<tileas::TmaStoreOp>(op)) {
    issueTmaStore(t, op);
    return Step::Advance;
  }
  if (auto load = dyn_cast<tileas::TmemLoadOp>(op))
    trackTmemLoad(t, op, load.getSource());
  if (isa<tileas::WgmmaOp>(op))
    trackWgmmaReads(t, op, access->reads);
  for (OpResult r : op->getResults())
    bind(t, r, Val::tile(term));
  return Step::Advance;
}

// A tensor-core op (UMMA, tcgen05.cp) is checked at issue, and reads and
// writes at completion.
Interpreter::Step Interpreter::issueTensorCore(unsigned t, Operation *op,
                                               const TileAccess &access) {
  uint64_t id = nextAsyncId++;
  std::optional<std::vector<ReadSnapshot>> snaps =
      snapshotTensorCoreReads(t, op, id, access.reads);
  if (!snaps)
    return Step::Failed;
  const Val &dstVal = access.dstVal;
  if (!checkWriteAllowed(t, op, dstVal))
    return Step::Failed;
  Buffer &out = buffers[dstVal.buffer];
  ++out.pendingWrites;
  out.pendingWriter = op;
  if (out.pendingTcThread != int(t))
    out.pendingTcWrites = out.pendingTcMmaWrites = 0;
  out.pendingTcThread = int(t);
  ++out.pendingTcWrites;
  out.pendingTcMmaWrites += isa<tileas::UmmaOp>(op);
  uint64_t at = tensorCoreCompletion(t, op, dstVal);
  bind(t, op->getResult(0), dstVal);
  schedule(at, op, true,
           [this, t, op, id, snaps = std::move(*snaps), dstVal]() {
             completeTensorCore(t, op, id, snaps, dstVal);
           });
  return result.finding ? Step::Failed : Step::Advance;
}

// Checks each read at issue and records the version each read buffer must
// have at completion: the current one plus this thread's pending
// tensor-core writes of it, which PTX orders before this op (the issue
// check allowed no others).
std::optional<std::vector<Interpreter::ReadSnapshot>>
Interpreter::snapshotTensorCoreReads(unsigned t, Operation *op, uint64_t id,
                                     const std::vector<unsigned> &reads) {
  std::vector<ReadSnapshot> snaps;
  for (unsigned i : reads) {
    Val v = get(t, op->getOperand(i));
    if (!readOperand(t, op, v, ReadAt::TcIssue))
      return std::nullopt;
    ReadSnapshot s{v, 0};
    if (v.isHandle()) {
      Buffer &b = buffers[v.buffer];
      s.version =
          b.version + (b.pendingTcThread == int(t) ? b.pendingTcWrites : 0);
      startAsyncRead(t, op, v.buffer, id, 'c');
    }
    snaps.push_back(s);
  }
  return snaps;
}

// Completion at a random time, but behind what PTX orders it after: an MMA
// behind this thread's tcgen05.cp copies and its MMAs into the same
// accumulator. A tcgen05.cp is ordered behind nothing.
uint64_t Interpreter::tensorCoreCompletion(unsigned t, Operation *op,
                                           const Val &dst) {
  Thread &th = threads[t];
  uint64_t at = now + 1 + delay();
  if (isa<tileas::UmmaOp>(op)) {
    at = std::max(at, th.tcCopyDone + 1);
    uint64_t &accDone = th.tcAccDone[dst.buffer];
    at = std::max(at, accDone + 1);
    accDone = at;
  } else {
    th.tcCopyDone = std::max(th.tcCopyDone, at);
  }
  th.tcDone = std::max(th.tcDone, at);
  return at;
}

void Interpreter::completeTensorCore(unsigned t, Operation *op, uint64_t id,
                                     const std::vector<ReadSnapshot> &snaps,
                                     const Val &dst) {
  std::vector<uint64_t> args;
  for (const ReadSnapshot &s : snaps) {
    if (s.v.isHandle()) {
      const Buffer &b = buffers[s.v.buffer];
      if (b.version != s.version) {
        fail(t, op, "overwrite-before-release",
             "reads " + b.name +
                 " at completion, but it was overwritten after this op "
                 "was issued (released or reused too early)");
        return;
      }
    }
    std::optional<uint64_t> term =
        readOperand(t, op, s.v, ReadAt::TcCompletion);
    if (!term)
      return;
    args.push_back(*term);
  }
  retireAsyncReads(t, id);
  Buffer &out = buffers[dst.buffer];
  --out.pendingWrites;
  if (out.pendingTcThread == int(t) && out.pendingTcWrites) {
    --out.pendingTcWrites;
    if (isa<tileas::UmmaOp>(op) && out.pendingTcMmaWrites)
      --out.pendingTcMmaWrites;
  }
  StringRef name = op->getName().getStringRef();
  uint64_t term = result.terms.apply(name, attrHash(op), args);
  if (!writeBuffer(t, op, dst, term, id))
    return;
  result.instances.push_back({name.str(), term, op, t});
}

void Interpreter::startAsyncRead(unsigned t, Operation *op, unsigned buffer,
                                 uint64_t id, char unit) {
  Buffer &b = buffers[buffer];
  ++b.pendingReads;
  b.pendingReader = op;
  threads[t].asyncReads.push_back({buffer, op, id, unit});
}

void Interpreter::retireAsyncReads(
    unsigned t, llvm::function_ref<bool(const AsyncRead &)> which) {
  Thread &owner = threads[t];
  for (const AsyncRead &a : owner.asyncReads)
    if (which(a))
      --buffers[a.buffer].pendingReads;
  llvm::erase_if(owner.asyncReads, which);
}

void Interpreter::retireAsyncReads(unsigned t, uint64_t id) {
  retireAsyncReads(t, [id](const AsyncRead &a) { return a.id == id; });
}

// The operands' content now, each read checked.
std::optional<std::vector<uint64_t>>
Interpreter::readNow(unsigned t, Operation *op,
                     const std::vector<unsigned> &reads) {
  std::vector<uint64_t> args;
  for (unsigned i : reads) {
    std::optional<uint64_t> term =
        readOperand(t, op, get(t, op->getOperand(i)), ReadAt::Sync);
    if (!term)
      return std::nullopt;
    args.push_back(*term);
  }
  return args;
}

// A register tile the materializer hands to another agent through a slot
// (`tileas.transport`: stored after it is made, loaded after the wait)
// arrives unchanged, and is none of the loop's own work.
uint64_t Interpreter::computeTerm(unsigned t, Operation *op,
                                  const std::vector<uint64_t> &args) {
  if (op->hasAttr("tileas.transport") && args.size() == 1 &&
      isa<tileas::SmemStoreOp, tileas::SmemLoadOp>(op))
    return args.front();
  StringRef name = op->getName().getStringRef();
  uint64_t term = result.terms.apply(name, attrHash(op), args);
  // Positions and broadcasts are made again in each stage that reads them
  // (materialize's free ops): how often is not the loop's work, and a
  // wrong one still reaches its readers' terms.
  if (!isPositionOp(op) && !isa<tileas::BroadcastOp>(op))
    result.instances.push_back({name.str(), term, op, t});
  return term;
}

// TMA loads and cp.async land later; the TMA completes its bytes on the
// full barrier of the slot it was issued for.
Interpreter::Step Interpreter::issueCopyIn(unsigned t, Operation *op,
                                           const Val &dstVal, uint64_t term) {
  if (!checkWriteAllowed(t, op, dstVal))
    return Step::Failed;
  Buffer &out = buffers[dstVal.buffer];
  ++out.pendingWrites;
  out.pendingWriter = op;
  int64_t bytes = 0;
  if (auto shaped = dyn_cast<ShapedType>(op->getResult(0).getType()))
    bytes = tileas::getTileSizeInBytes(shaped);
  uint64_t at = now + 1 + delay();
  bool tma = isa<tileas::TmaLoadOp>(op);
  if (!tma)
    threads[t].cpDone = std::max(threads[t].cpDone, at);
  bind(t, op->getResult(0), dstVal);
  schedule(at, op, true, [this, t, op, dstVal, term, bytes, tma]() {
    --buffers[dstVal.buffer].pendingWrites;
    if (!writeBuffer(t, op, dstVal, term))
      return;
    if (tma && dstVal.isSlot()) {
      Pipe &p = pipes[dstVal.pipe];
      Pipe &guard = p.joins >= 0 ? pipes[p.joins] : p;
      guard.full[dstVal.iter % p.depth].completeTx(bytes);
    }
  });
  return result.finding ? Step::Failed : Step::Advance;
}

// SIMT stores write at once; an async unit reading them needs a fence, so
// the write is remembered until one.
Interpreter::Step Interpreter::storeNow(unsigned t, Operation *op,
                                        const Val &dstVal, uint64_t term) {
  if (!checkWriteAllowed(t, op, dstVal) || !writeBuffer(t, op, dstVal, term))
    return Step::Failed;
  Thread &th = threads[t];
  if (dstVal.isSlot()) {
    if (isa<tileas::SmemStoreOp>(op))
      th.smemWrites.push_back({dstVal.buffer, op, 0});
    else if (isa<tileas::TmemStoreOp>(op))
      th.tmemWrites.push_back({dstVal.buffer, op, 0});
  }
  bind(t, op->getResult(0), dstVal);
  return Step::Advance;
}

// The bulk copy reads the buffer until its group completes.
void Interpreter::issueTmaStore(unsigned t, Operation *op) {
  Val src = get(t, op->getOperand(0));
  if (!src.isHandle())
    return;
  Thread &th = threads[t];
  uint64_t id = nextAsyncId++;
  startAsyncRead(t, op, src.buffer, id, 's');
  uint64_t at = std::max(th.storeDone, now) + 1 + delay();
  th.storeDone = at;
  schedule(at, op, false, [this, t, id]() { retireAsyncReads(t, id); });
}

// tcgen05.ld is in flight until tcgen05_wait_ld.
// A wgmma reads its SMEM operands asynchronously, until a wgmma.wait_group
// retires its group: only a release via "wgmma_wait" (which waits first)
// may hand such a slot back to its producer. The content read is the one
// at issue; an overwrite before the release is caught by the write.
void Interpreter::trackWgmmaReads(unsigned t, Operation *op,
                                  const std::vector<unsigned> &reads) {
  uint64_t id = nextAsyncId++;
  for (unsigned i : reads) {
    Val v = get(t, op->getOperand(i));
    if (v.isHandle())
      startAsyncRead(t, op, v.buffer, id, 'w');
  }
}

void Interpreter::trackTmemLoad(unsigned t, Operation *op, Value source) {
  Val src = get(t, source);
  if (!src.isSlot())
    return;
  startAsyncRead(t, op, src.buffer, nextAsyncId++, 'l');
}

void Interpreter::endChecks() {
  for (const Pipe &p : pipes) {
    unsigned consumers = std::max<size_t>(1, p.consumers.size());
    for (const auto &[k, released] : p.releases)
      if (released < consumers) {
        fail(0, p.op, "unbalanced",
             p.name + " pipe iteration " + std::to_string(k) +
                 " was committed but released by " + std::to_string(released) +
                 " of its " + std::to_string(consumers) + " consumer(s)");
        return;
      }
  }
}
