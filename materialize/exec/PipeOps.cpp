//===- PipeOps.cpp - pipes, fences, mutexes and tile ops ------------------===//
//
// The rules of docs/protocol-check.md live here: who may write or read a
// slot when, which fences must separate which accesses, how commits and
// releases arrive on the barriers, and how the async units complete.
//
//===----------------------------------------------------------------------===//

#include "materialize/exec/Interpreter.h"

#include "ir/TileASDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilepipe::exec;

static std::string locString(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << op->getName().getStringRef() << " at " << op->getLoc();
  return os.str();
}

uint64_t Interpreter::uninitialized(Type type) {
  // Only the type: an alloc in the original and the pipe slot that replaces
  // it in the emitted code start from the same (garbage) term.
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return result.terms.leaf("uninitialized", hashString(os.str()));
}

std::string Interpreter::slotName(int pipe, int64_t iter) const {
  const Pipe &p = pipes[pipe];
  return p.name + " slot " + std::to_string(iter % int64_t(p.depth)) +
         " (pipe iteration " + std::to_string(iter) + ")";
}

Interpreter::Hold *Interpreter::findHold(unsigned t, int pipe, int64_t iter,
                                         bool wait) {
  for (Hold &h : threads[t].holds)
    if (h.pipe == pipe && h.iter == iter && h.wait == wait)
      return &h;
  return nullptr;
}

Interpreter::Step Interpreter::stepTileAS(unsigned t, Operation *op,
                                          bool &handled) {
  handled = true;
  if (isa<tileas::AllocSmemOp, tileas::AllocTmemOp>(op)) {
    // The initial content depends only on the type, so the original and the
    // emitted code start from the same term.
    Buffer b;
    b.content = uninitialized(op->getResult(0).getType());
    b.name = "buffer of " + locString(op);
    buffers.push_back(b);
    bind(t, op->getResult(0), Val::handle(buffers.size() - 1));
    return Step::Advance;
  }
  // How many tiles the kernel walks: one run is one tile, whichever.
  if (isa<tileas::TileCountOp>(op))
    return Step::Advance;
  // A view is the same buffer seen with another shape (a ring slot).
  if (auto view = dyn_cast<tileas::SmemViewOp>(op)) {
    bind(t, view.getResult(), get(t, view.getSource()));
    return Step::Advance;
  }
  if (isa<tileas::PipeCreateOp>(op))
    return pipeCreate(t, op);
  if (isa<tileas::PipeProducerAcquireOp>(op))
    return acquireOrWait(t, op, false);
  if (isa<tileas::PipeConsumerWaitOp>(op))
    return acquireOrWait(t, op, true);
  if (isa<tileas::PipeProducerCommitOp>(op))
    return commit(t, op);
  if (isa<tileas::PipeConsumerReleaseOp>(op))
    return release(t, op);
  if (isa<tileas::FenceOp>(op))
    return fence(t, op);
  if (auto create = dyn_cast<tileas::MutexCreateOp>(op)) {
    Mutex m;
    m.op = op;
    m.groups = std::max<unsigned>(1, create.getGroups());
    m.name = "mutex " + std::to_string(mutexes.size());
    mutexes.push_back(m);
    bind(t, create.getResult(),
         Val::object(Val::Kind::Mutex, int64_t(mutexes.size() - 1)));
    return Step::Advance;
  }
  if (isa<tileas::MutexLockOp>(op))
    return mutexOp(t, op, true);
  if (isa<tileas::MutexUnlockOp>(op))
    return mutexOp(t, op, false);
  if (isa<tileas::SchedulableOpInterface>(op))
    return computeOp(t, op);
  // The threads' element accesses of global memory (one element, a
  // gather, a scatter): what they read or write is a term of their
  // inputs, counted as the loop's work is.
  if (isa<tileas::GlobalLoadOp, tileas::GlobalStoreOp, tileas::GlobalGatherOp,
          tileas::GlobalScatterOp>(op)) {
    std::vector<unsigned> reads;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      reads.push_back(i);
    std::optional<std::vector<uint64_t>> args = readNow(t, op, reads);
    if (!args)
      return Step::Failed;
    if (auto load = dyn_cast<tileas::GlobalLoadOp>(op);
        load && load.getType().isIntOrIndex())
      if (auto src = dyn_cast<BlockArgument>(load.getSrc())) {
        // An integer read from memory: the value bound to its array, so
        // that a trip count or a tile coordinate read from memory is one
        // the checker chooses (Check.cpp, bindIndexArgs).
        unsigned n = src.getArgNumber();
        bind(t, load.getResult(),
             Val::integer(n < config.indexArgs.size() ? config.indexArgs[n]
                                                      : int64_t(1000 + n)));
        return Step::Advance;
      }
    uint64_t term = computeTerm(t, op, *args);
    for (OpResult r : op->getResults())
      bind(t, r, Val::tile(term));
    return Step::Advance;
  }
  handled = false;
  return Step::Advance;
}

//===----------------------------------------------------------------------===//
// Pipes.
//===----------------------------------------------------------------------===//

Interpreter::Step Interpreter::pipeCreate(unsigned t, Operation *op) {
  auto create = cast<tileas::PipeCreateOp>(op);
  Pipe p;
  p.op = op;
  p.depth = std::max<unsigned>(1, create.getDepth());
  std::string type;
  llvm::raw_string_ostream os(type);
  os << create.getResult().getType();
  p.name = "pipe " + std::to_string(pipes.size()) + " " + os.str();
  p.producedByTensorCore =
      create.getProducerKind() == tileas::PipeProducerKind::Umma;
  for (auto [i, a] : llvm::enumerate(create.getConsumers())) {
    p.consumers.push_back(cast<StringAttr>(a).getValue().str());
    tileas::PipeConsumerKind kind = create.getConsumerKind(unsigned(i));
    p.asyncReader |= kind == tileas::PipeConsumerKind::Umma ||
                     kind == tileas::PipeConsumerKind::TmaStore ||
                     kind == tileas::PipeConsumerKind::Wgmma;
  }
  auto payload =
      cast<tileas::PipeType>(create.getResult().getType()).getPayload();
  int64_t tileBytes = 0;
  if (auto shaped = dyn_cast<ShapedType>(payload))
    tileBytes = tileas::getTileSizeInBytes(shaped);
  p.bytes = create.getBytes() ? int64_t(*create.getBytes()) : tileBytes;
  if (!takeSlots(t, op, p, payload))
    return Step::Failed;
  p.full.resize(p.depth);
  p.empty.resize(p.depth);
  for (unsigned s = 0; s < p.depth; ++s) {
    p.full[s].init(1);
    p.empty[s].init(std::max<int>(1, int(p.consumers.size())));
  }
  pipes.push_back(std::move(p));
  bind(t, create.getResult(),
       Val::object(Val::Kind::Pipe, int64_t(pipes.size() - 1)));
  return Step::Advance;
}

// A pipe's slots: the buffers of the pipe it `shares`, the slots of the one
// it `aliases` (an alias of an alias still hands on the root's), or buffers
// of its own, guarded by the barriers of the pipe it `joins` if any. Either
// way the depths must agree.
bool Interpreter::takeSlots(unsigned t, Operation *op, Pipe &p, Type payload) {
  auto create = cast<tileas::PipeCreateOp>(op);
  if (Value shared = create.getShares()) {
    const Pipe &q = pipes[get(t, shared).i];
    if (q.depth != p.depth) {
      fail(t, op, "malformed",
           "shares the buffers of " + q.name + " whose depth differs");
      return false;
    }
    p.buffers = q.buffers;
    return true;
  }
  if (Value aliased = create.getAliases()) {
    p.aliases = int(get(t, aliased).i);
    const Pipe &q = pipes[p.aliases];
    if (q.depth != p.depth) {
      fail(t, op, "malformed",
           "aliases the slots of " + q.name + " whose depth differs");
      return false;
    }
    p.buffers = q.buffers;
    return true;
  }
  if (Value joined = create.getJoins()) {
    p.joins = int(get(t, joined).i);
    const Pipe &q = pipes[p.joins];
    if (q.depth != p.depth || q.joins >= 0 || q.aliases >= 0) {
      fail(t, op, "malformed",
           "joins " + q.name +
               ", whose depth differs or which joins or aliases another");
      return false;
    }
  }
  for (unsigned s = 0; s < p.depth; ++s) {
    Buffer b;
    b.isSlot = true;
    b.content = uninitialized(payload);
    b.name = p.name + " slot " + std::to_string(s);
    buffers.push_back(b);
    p.buffers.push_back(buffers.size() - 1);
  }
  return true;
}

bool Interpreter::slotReady(unsigned t, Operation *op, bool wait) {
  Val pv = get(t, op->getOperand(0));
  Val kv = get(t, op->getOperand(1));
  if (pv.kind != Val::Kind::Pipe || !kv.isInt() || kv.i < 0)
    return true; // runs, and reports the bad operand
  const Pipe &p = pipes[pv.i];
  int64_t k = kv.i;
  unsigned slot = unsigned(k % p.depth);
  unsigned parity = unsigned((k / p.depth) & 1);
  // A joined pipe's acquire and wait ride on the holds of the pipe it
  // joins: they never wait, and acquireOrWait reports a missing hold.
  if (p.joins >= 0)
    return true;
  if (wait) {
    for (const Hold &h : threads[t].holds)
      if (h.wait && h.pipe == int(pv.i) && h.iter % p.depth == slot)
        return true; // runs, and reports the double wait
    return p.full[slot].passes(parity);
  }
  // An alias acquire takes over a slot the thread already holds: it never
  // waits, and acquireOrWait reports a missing hold.
  if (p.aliases >= 0)
    return true;
  return p.empty[slot].passes(parity ^ 1);
}

bool Interpreter::pipeAndIter(unsigned t, Operation *op, int &p, int64_t &k) {
  Val pv = get(t, op->getOperand(0));
  Val kv = get(t, op->getOperand(1));
  if (pv.kind != Val::Kind::Pipe || !kv.isInt()) {
    fail(t, op, kv.kind == Val::Kind::Poison ? "poison-read" : "malformed",
         "the pipe iteration is not a defined integer");
    return false;
  }
  if (kv.i < 0) {
    fail(t, op, "malformed", "negative pipe iteration " + std::to_string(kv.i));
    return false;
  }
  p = int(pv.i);
  k = kv.i;
  return true;
}

Interpreter::Step Interpreter::acquireOrWait(unsigned t, Operation *op,
                                             bool wait) {
  int p;
  int64_t k;
  if (!pipeAndIter(t, op, p, k))
    return Step::Failed;
  const Pipe &pipe = pipes[p];
  for (const Hold &h : threads[t].holds) {
    if (h.pipe != p || h.iter % pipe.depth != k % int64_t(pipe.depth) ||
        h.wait != wait)
      continue;
    if (wait)
      fail(t, op, "double-wait",
           "waits for " + slotName(p, k) + " while it still holds iteration " +
               std::to_string(h.iter) +
               " of that slot from an earlier consumer_wait (slot read twice "
               "before release)");
    else
      fail(t, op, "unbalanced",
           "acquires " + slotName(p, k) + " while it still holds iteration " +
               std::to_string(h.iter) + " of that slot uncommitted");
    return Step::Failed;
  }
  if (!slotReady(t, op, wait))
    return Step::Blocked;
  if (!wait && pipe.aliases >= 0 && !handOn(t, op, p, k))
    return Step::Failed;
  if (pipe.joins >= 0 && !findHold(t, pipe.joins, k, wait)) {
    fail(t, op, "unbalanced",
         std::string(wait ? "waits for " : "acquires ") + slotName(p, k) +
             " of a joined pipe without holding the " +
             (wait ? "consumer_wait" : "producer_acquire") + " of " +
             pipes[pipe.joins].name + " iteration " + std::to_string(k) +
             " (whose barriers guard this slot)");
    return Step::Failed;
  }
  Hold h;
  h.pipe = p;
  h.iter = k;
  h.wait = wait;
  h.needsAfter = wait && pipe.producedByTensorCore;
  h.op = op;
  threads[t].holds.push_back(h);
  bind(t, op->getResult(0), Val::handle(pipe.buffers[k % pipe.depth], p, k));
  return Step::Advance;
}

int Interpreter::rootPipe(int p) const {
  while (pipes[p].aliases >= 0)
    p = pipes[p].aliases;
  return p;
}

bool Interpreter::handOn(unsigned t, Operation *op, int p, int64_t k) {
  int root = rootPipe(p);
  Thread &th = threads[t];
  // The slot is handed on from the thread's wait on the root, or on another
  // alias of it (a chain of hand-ons), of the same iteration.
  auto it = llvm::find_if(th.holds, [&](const Hold &h) {
    return h.wait && h.iter == k && h.pipe != p && rootPipe(h.pipe) == root;
  });
  if (it == th.holds.end()) {
    fail(t, op, "unbalanced",
         "acquires " + slotName(p, k) +
             " of an aliasing pipe without holding the slot it hands on (a "
             "consumer_wait of " +
             pipes[root].name + " iteration " + std::to_string(k) + ")");
    return false;
  }
  // No arrival: the slot is not released but stays in use until the
  // alias's consumers release it onto the root's empty barrier.
  th.holds.erase(it);
  return true;
}

void Interpreter::signal(unsigned t, Operation *op, int p, unsigned slot,
                         bool full, StringRef via) {
  Thread &th = threads[t];
  uint64_t start = now;
  int64_t bytes = 0;
  switch (*tileas::symbolizeSignalKind(via)) {
  case tileas::SignalKind::ExpectTx:
    bytes = pipes[p].bytes;
    break;
  case tileas::SignalKind::Tcgen05Commit:
    start = std::max(start, th.tcDone);
    break;
  case tileas::SignalKind::CpAsyncArrive:
    start = std::max(start, th.cpDone);
    break;
  case tileas::SignalKind::BulkWait:
    start = std::max(start, th.storeDone);
    break;
  case tileas::SignalKind::Arrive:
  case tileas::SignalKind::WgmmaWait:
    break;
  }
  schedule(start + delay(), op, false, [this, t, op, p, slot, full, bytes]() {
    MBarrier &bar = full ? pipes[p].full[slot] : pipes[p].empty[slot];
    if (!bar.arrive(bytes))
      fail(t, op, "unbalanced",
           "arrives on the " + std::string(full ? "full" : "empty") +
               " barrier of " + pipes[p].name + " slot " +
               std::to_string(slot) + " more often than it expects");
  });
}

Interpreter::Step Interpreter::commit(unsigned t, Operation *op) {
  auto c = cast<tileas::PipeProducerCommitOp>(op);
  int p;
  int64_t k;
  if (!pipeAndIter(t, op, p, k))
    return Step::Failed;
  Pipe &pipe = pipes[p];
  Hold *h = findHold(t, p, k, false);
  if (!h) {
    fail(t, op, "unbalanced",
         "commits " + slotName(p, k) + " without holding its producer_acquire");
    return Step::Failed;
  }
  unsigned slot = unsigned(k % pipe.depth);
  unsigned buffer = pipe.buffers[slot];
  Val value = get(t, c.getValue());
  if (!value.isHandle() || value.buffer != buffer) {
    fail(t, op, "malformed",
         "commits a value that is not the acquired " + slotName(p, k));
    return Step::Failed;
  }
  Thread &th = threads[t];
  for (const Unfenced &u : th.smemWrites)
    if (u.buffer == buffer && pipe.asyncReader) {
      fail(t, op, "missing-fence",
           "commits " + slotName(p, k) + " written by " + locString(u.op) +
               " without fence \"proxy_async\" before the commit, although "
               "an async unit (UMMA or TMA) reads it");
      return Step::Failed;
    }
  for (const Unfenced &u : th.tmemWrites)
    if (u.buffer == buffer) {
      fail(t, op, "missing-fence",
           "commits " + slotName(p, k) + " written by " + locString(u.op) +
               " without fence \"" +
               (u.stage == 0 ? "tcgen05_wait_st" : "tcgen05_before") +
               "\" before the commit");
      return Step::Failed;
    }
  // A joined pipe's bytes must be expected on the barrier before the
  // commit of the pipe it joins arrives: after it, the phase may complete
  // on the other tile's bytes alone.
  if (pipe.joins >= 0 && !findHold(t, pipe.joins, k, false)) {
    fail(t, op, "unbalanced",
         "commits " + slotName(p, k) + " of a joined pipe after the commit of " +
             pipes[pipe.joins].name + " iteration " + std::to_string(k) +
             " (its bytes must be expected before that commit arrives)");
    return Step::Failed;
  }
  th.holds.erase(th.holds.begin() + (h - th.holds.data()));
  // The commit publishes the slot as iteration k's value, also when the
  // producer wrote nothing (zero trips of an accumulation).
  buffers[buffer].writtenPipe = p;
  buffers[buffer].writtenIter = k;
  if (!pipe.releases.try_emplace(k, 0).second) {
    fail(t, op, "unbalanced", "commits " + slotName(p, k) + " a second time");
    return Step::Failed;
  }
  if (pipe.joins >= 0)
    pipes[pipe.joins].full[slot].expectTx(pipe.bytes);
  else
    signal(t, op, p, slot, true, c.getVia());
  return Step::Advance;
}

Interpreter::Step Interpreter::release(unsigned t, Operation *op) {
  auto r = cast<tileas::PipeConsumerReleaseOp>(op);
  int p;
  int64_t k;
  if (!pipeAndIter(t, op, p, k))
    return Step::Failed;
  Pipe &pipe = pipes[p];
  Hold *h = findHold(t, p, k, true);
  if (!h) {
    fail(t, op, "unbalanced",
         "releases " + slotName(p, k) + " without holding its consumer_wait");
    return Step::Failed;
  }
  unsigned slot = unsigned(k % pipe.depth);
  unsigned buffer = pipe.buffers[slot];
  StringRef via = r.getVia();
  tileas::SignalKind kind = *tileas::symbolizeSignalKind(via);
  bool tcCommit = kind == tileas::SignalKind::Tcgen05Commit;
  Thread &th = threads[t];
  for (const AsyncRead &a : th.asyncReads) {
    if (a.buffer != buffer)
      continue;
    if (a.unit == 'l') {
      fail(t, op, "release-before-read",
           "releases " + slotName(p, k) + " while " + locString(a.op) +
               " may still be reading it: no fence \"tcgen05_wait_ld\" "
               "before the release");
      return Step::Failed;
    }
    // Only a tcgen05.commit waits for this thread's tensor-core reads: PTX
    // orders no later write (not even this thread's next MMA into another
    // accumulator) behind them.
    if ((a.unit == 'c' && !tcCommit) ||
        (a.unit == 's' && kind != tileas::SignalKind::BulkWait && !tcCommit) ||
        (a.unit == 'w' && kind != tileas::SignalKind::WgmmaWait)) {
      fail(t, op, "overwrite-before-release",
           "releases " + slotName(p, k) + " via \"" + via.str() + "\" while " +
               locString(a.op) +
               " issued by this thread still reads it: the producer may "
               "overwrite the slot under it");
      return Step::Failed;
    }
  }
  // The release of the pipe it joins arrives for both slots, so a joined
  // pipe's release must come first.
  if (pipe.joins >= 0 && !findHold(t, pipe.joins, k, true)) {
    fail(t, op, "unbalanced",
         "releases " + slotName(p, k) + " of a joined pipe after the release "
         "of " + pipes[pipe.joins].name + " iteration " + std::to_string(k) +
             " (which arrives for both slots)");
    return Step::Failed;
  }
  // The wait_group before the arrive retires this thread's wgmma reads of
  // the slot.
  if (kind == tileas::SignalKind::WgmmaWait)
    retireAsyncReads(t, [buffer](const AsyncRead &a) {
      return a.unit == 'w' && a.buffer == buffer;
    });
  th.holds.erase(th.holds.begin() + (h - th.holds.data()));
  th.released.insert({p, k});
  // A release of an alias frees the slot it was handed: it counts for every
  // pipe up the chain (whose `consumers` count the alias's consumers, since
  // their own consumer handed the slot on instead of releasing it) and
  // arrives on the root's empty barrier, the one the slot's producer waits
  // on.
  unsigned arrivals = r.getArrivals().value_or(1);
  for (int q = p; q >= 0; q = pipes[q].aliases) {
    Pipe &counted = pipes[q];
    auto it = counted.releases.find(k);
    if (it != counted.releases.end() &&
        (it->second += arrivals) >
            std::max<size_t>(1, counted.consumers.size())) {
      fail(t, op, "unbalanced",
           "releases " + slotName(q, k) + " more often than it has consumers");
      return Step::Failed;
    }
  }
  for (unsigned n = 0; n < arrivals && pipe.joins < 0; ++n)
    signal(t, op, rootPipe(p), slot, false, via);
  return Step::Advance;
}

//===----------------------------------------------------------------------===//
// Fences and mutexes.
//===----------------------------------------------------------------------===//

Interpreter::Step Interpreter::fence(unsigned t, Operation *op) {
  Thread &th = threads[t];
  switch (*tileas::symbolizeFenceKind(cast<tileas::FenceOp>(op).getKind())) {
  case tileas::FenceKind::ProxyAsync:
    th.smemWrites.clear();
    break;
  case tileas::FenceKind::Tcgen05WaitSt:
    for (Unfenced &u : th.tmemWrites)
      u.stage = 1;
    break;
  case tileas::FenceKind::Tcgen05Before:
    llvm::erase_if(th.tmemWrites, [](const Unfenced &u) { return u.stage; });
    break;
  case tileas::FenceKind::Tcgen05After:
    for (Hold &h : th.holds)
      h.needsAfter = false;
    break;
  case tileas::FenceKind::Tcgen05WaitLd:
    retireAsyncReads(t, [](const AsyncRead &a) { return a.unit == 'l'; });
    break;
  }
  return Step::Advance;
}

bool Interpreter::lockReady(unsigned t, Operation *op) {
  Val mv = get(t, op->getOperand(0));
  Val gv = get(t, op->getOperand(1));
  if (mv.kind != Val::Kind::Mutex || !gv.isInt())
    return true;
  const Mutex &m = mutexes[mv.i];
  if (gv.i < 0 || gv.i >= int64_t(m.groups))
    return true;
  return !m.inTransit && m.token == unsigned(gv.i);
}

Interpreter::Step Interpreter::mutexOp(unsigned t, Operation *op, bool lock) {
  Val mv = get(t, op->getOperand(0));
  Val gv = get(t, op->getOperand(1));
  if (mv.kind != Val::Kind::Mutex || !gv.isInt()) {
    fail(t, op, "malformed", "the mutex group is not a defined integer");
    return Step::Failed;
  }
  unsigned mi = unsigned(mv.i);
  Mutex &m = mutexes[mi];
  if (gv.i < 0 || gv.i >= int64_t(m.groups)) {
    fail(t, op, "malformed",
         "group " + std::to_string(gv.i) + " of " + m.name + " with " +
             std::to_string(m.groups) + " group(s)");
    return Step::Failed;
  }
  unsigned g = unsigned(gv.i);
  Thread &th = threads[t];
  bool holding = llvm::is_contained(m.holders, t);
  if (lock) {
    if (holding) {
      fail(t, op, "unbalanced", "locks " + m.name + " again while holding it");
      return Step::Failed;
    }
    if (!lockReady(t, op))
      return Step::Blocked;
    if (!m.holders.empty()) {
      fail(t, op, "mutual-exclusion",
           "locks " + m.name + " for group " + std::to_string(g) +
               " while thread '" + threads[m.holders.front()].name +
               "' holds it: two holders at once");
      return Step::Failed;
    }
    m.holders.push_back(t);
    m.heldGroup = g;
    th.mutexes.push_back(mi);
    return Step::Advance;
  }
  if (!holding) {
    fail(t, op, "mutual-exclusion",
         "unlocks " + m.name + " for group " + std::to_string(g) +
             " without holding its token (no lock before it)");
    return Step::Failed;
  }
  if (m.heldGroup != g) {
    fail(t, op, "mutual-exclusion",
         "unlocks " + m.name + " for group " + std::to_string(g) +
             " but locked it for group " + std::to_string(m.heldGroup));
    return Step::Failed;
  }
  llvm::erase(m.holders, t);
  llvm::erase(th.mutexes, mi);
  m.inTransit = true;
  schedule(now + delay(), op, false, [this, mi, g]() {
    Mutex &mm = mutexes[mi];
    mm.token = (g + 1) % mm.groups;
    mm.inTransit = false;
  });
  return Step::Advance;
}
