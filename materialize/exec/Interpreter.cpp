//===- Interpreter.cpp - threads, scheduling, control flow, arith ---------===//

#include "materialize/exec/Interpreter.h"

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilepipe::exec;

Interpreter::Interpreter(FunctionOpInterface func, const RunConfig &config)
    : func(func), config(config), rng(mix64(config.seed) ^ config.tripCount) {
  Thread main;
  main.name = "main";
  Block &entry = func.getFunctionBody().front();
  main.frames.push_back({&entry, entry.begin(), func.getOperation()});
  threads.push_back(std::move(main));
  for (BlockArgument arg : entry.getArguments()) {
    unsigned n = arg.getArgNumber();
    if (arg.getType().isIntOrIndex()) {
      int64_t v = n < config.indexArgs.size() ? config.indexArgs[n]
                                              : int64_t(1000 + n);
      bind(0, arg, Val::integer(v));
      continue;
    }
    // Descriptors, memrefs and tiles passed in are buffers whose content is
    // the argument itself.
    Buffer b;
    b.content = result.terms.leaf("arg", n);
    b.name = "argument #" + std::to_string(n);
    buffers.push_back(b);
    bind(0, arg, Val::handle(buffers.size() - 1));
  }
}

void Interpreter::fail(unsigned t, Operation *op, StringRef kind,
                       const std::string &message) {
  if (result.finding)
    return;
  Location loc = op ? op->getLoc() : func.getLoc();
  std::string where = op ? "'" + op->getName().getStringRef().str() + "'" : "";
  std::string text = "thread '" + threads[t].name + "'";
  if (op)
    text += " at " + where;
  text += ": " + message;
  result.finding = Finding{loc,          kind.str(),         text,
                           threads[t].name, config.tripCount, config.seed};
}

void Interpreter::schedule(uint64_t at, Operation *op, bool writesData,
                           std::function<void()> fire) {
  if (config.sequential) {
    fire();
    return;
  }
  Event e;
  e.time = at;
  e.op = op;
  e.writesData = writesData;
  e.fire = std::move(fire);
  events.push(std::move(e));
}

const Val *Interpreter::lookup(unsigned t, Value v) const {
  for (int i = int(t); i >= 0; i = threads[i].parent) {
    auto it = threads[i].env.find(v);
    if (it != threads[i].env.end())
      return &it->second;
  }
  return nullptr;
}

Val Interpreter::get(unsigned t, Value v) {
  if (const Val *val = lookup(t, v))
    return *val;
  // Cannot happen in verified IR; keep going with an opaque value.
  return Val::tile(result.terms.leaf("undefined", 0));
}

int64_t Interpreter::getInt(unsigned t, Value v) {
  Val val = get(t, v);
  return val.isInt() ? val.i : 0;
}

uint64_t Interpreter::attrHash(Operation *op) {
  auto it = attrHashes.find(op);
  if (it != attrHashes.end())
    return it->second;
  // Schedule bookkeeping (stage, order, tileas.schedule.*) differs between
  // the original and the emitted op; only the op's own meaning counts.
  std::string text;
  llvm::raw_string_ostream os(text);
  for (NamedAttribute attr : op->getAttrs()) {
    StringRef name = attr.getName().getValue();
    if (name.starts_with("tileas.") || name == "stage" || name == "order" ||
        name == "operandSegmentSizes" || name == "operand_segment_sizes")
      continue;
    os << name << "=" << attr.getValue() << ";";
  }
  uint64_t h = hashString(os.str());
  attrHashes[op] = h;
  return h;
}

uint64_t Interpreter::opaqueTerm(unsigned t, Operation *op) {
  std::vector<uint64_t> args;
  for (Value operand : op->getOperands()) {
    Val v = get(t, operand);
    switch (v.kind) {
    case Val::Kind::Int:
      args.push_back(result.terms.intLeaf(v.i));
      break;
    case Val::Kind::Term:
      args.push_back(v.term);
      break;
    case Val::Kind::Handle:
      args.push_back(buffers[v.buffer].content);
      break;
    default:
      args.push_back(result.terms.leaf("object", uint64_t(v.i)));
    }
  }
  return result.terms.apply(op->getName().getStringRef(), attrHash(op), args);
}

//===----------------------------------------------------------------------===//
// Scheduling.
//===----------------------------------------------------------------------===//

bool Interpreter::isBlocked(unsigned t) {
  Thread &th = threads[t];
  Operation *op = &*th.frames.back().next;
  // Code after the agents runs once all of them finished.
  if (th.liveChildren && !isa<tileas::AgentOp>(op))
    return true;
  if (isa<tileas::PipeProducerAcquireOp>(op))
    return !slotReady(t, op, false);
  if (isa<tileas::PipeConsumerWaitOp>(op))
    return !slotReady(t, op, true);
  if (isa<tileas::MutexLockOp>(op))
    return !lockReady(t, op);
  return false;
}

void Interpreter::describeBlocked(unsigned t, std::string &out) {
  Thread &th = threads[t];
  Operation *op = &*th.frames.back().next;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "thread '" << th.name << "' ";
  if (th.liveChildren && !isa<tileas::AgentOp>(op)) {
    os << "waits for its " << th.liveChildren << " agent(s) to finish";
  } else if (isa<tileas::PipeProducerAcquireOp, tileas::PipeConsumerWaitOp>(
                 op)) {
    bool wait = isa<tileas::PipeConsumerWaitOp>(op);
    Val pv = get(t, op->getOperand(0));
    int64_t k = getInt(t, op->getOperand(1));
    const Pipe &p = pipes[pv.i];
    unsigned slot = unsigned(k % p.depth);
    const MBarrier &bar = wait ? p.full[slot] : p.empty[slot];
    os << "blocks in " << op->getName().getStringRef() << " of "
       << slotName(int(pv.i), k) << " (" << (wait ? "full" : "empty")
       << " barrier: " << bar.completed << " phase(s) completed, "
       << bar.pending << " of " << bar.expected << " arrival(s) pending, tx "
       << bar.tx << ")";
  } else if (isa<tileas::MutexLockOp>(op)) {
    const Mutex &m = mutexes[get(t, op->getOperand(0)).i];
    os << "blocks in tileas.mutex.lock of " << m.name << " for group "
       << getInt(t, op->getOperand(1)) << " (token with group " << m.token
       << (m.inTransit ? ", in transit" : "") << ")";
  } else {
    os << "blocks at " << op->getName().getStringRef();
  }
  if (!out.empty())
    out += "; ";
  out += os.str();
}

RunResult Interpreter::run() {
  uint64_t steps = 0;
  std::vector<unsigned> runnable;
  while (!result.finding) {
    while (!events.empty() && events.nextTime() <= now && !result.finding)
      events.pop().fire();
    if (result.finding)
      break;
    if (threads[0].done)
      break;
    if (++steps > config.maxSteps) {
      fail(0, nullptr, "step-budget",
           "step budget of " + std::to_string(config.maxSteps) +
               " exhausted (a loop that does not end?)");
      break;
    }
    runnable.clear();
    for (unsigned t = 0; t < threads.size(); ++t)
      if (!threads[t].done && !isBlocked(t))
        runnable.push_back(t);
    if (result.finding)
      break;
    if (runnable.empty()) {
      if (!events.empty()) {
        now = events.nextTime();
        continue;
      }
      std::string what;
      int first = -1;
      for (unsigned t = 0; t < threads.size(); ++t) {
        if (threads[t].done)
          continue;
        describeBlocked(t, what);
        // Report at a blocked agent op rather than at main's join.
        if (first < 0 || (first == 0 && !threads[t].liveChildren))
          first = int(t);
      }
      fail(unsigned(first), &*threads[first].frames.back().next, "deadlock",
           "no thread can run and nothing is in flight: " + what);
      break;
    }
    unsigned t = runnable[rng.below(runnable.size())];
    step(t);
    ++now;
  }
  if (!result.finding) {
    if (Operation *op = events.pendingDataWriter())
      fail(0, op, "unbalanced",
           "the function ended while this async write was still in flight: "
           "nobody waited for its result");
  }
  while (!result.finding && !events.empty())
    events.pop().fire();
  if (!result.finding)
    endChecks();
  for (const Thread &th : threads)
    result.threadNames.push_back(th.name);
  return std::move(result);
}

//===----------------------------------------------------------------------===//
// Control flow.
//===----------------------------------------------------------------------===//

void Interpreter::finishThread(unsigned t) {
  Thread &th = threads[t];
  th.done = true;
  Operation *end = &*th.frames.back().next;
  if (!th.holds.empty()) {
    const Hold &h = th.holds.front();
    fail(t, h.op, "unbalanced",
         "ends holding " + slotName(h.pipe, h.iter) + ": this " +
             (h.wait ? "consumer_wait is never released"
                     : "producer_acquire is never committed"));
  }
  if (!th.mutexes.empty())
    fail(t, end, "unbalanced",
         "ends holding " + mutexes[th.mutexes.front()].name +
             ": a lock without its unlock");
  if (th.parent >= 0)
    --threads[th.parent].liveChildren;
}

// scf.for: a frame per running loop, its bounds read once at entry; an
// empty loop yields its inits at once.
Interpreter::Step Interpreter::enterLoop(unsigned t, Operation *op) {
  auto loop = cast<scf::ForOp>(op);
  Val lb = get(t, loop.getLowerBound()), ub = get(t, loop.getUpperBound()),
      st = get(t, loop.getStep());
  if (!lb.isInt() || !ub.isInt() || !st.isInt()) {
    fail(t, op, "poison-read", "loop bounds are not defined integers");
    return Step::Failed;
  }
  if (st.i <= 0) {
    fail(t, op, "malformed", "loop step " + std::to_string(st.i) + " <= 0");
    return Step::Failed;
  }
  std::vector<Val> inits;
  for (Value v : loop.getInitArgs())
    inits.push_back(get(t, v));
  if (lb.i >= ub.i) {
    for (auto [r, v] : llvm::zip(loop.getResults(), inits))
      bind(t, r, v);
    return Step::Advance;
  }
  Block *body = loop.getBody();
  threads[t].frames.push_back({body, body->begin(), op, lb.i, ub.i, st.i});
  bind(t, loop.getInductionVar(), Val::integer(lb.i));
  for (auto [a, v] : llvm::zip(loop.getRegionIterArgs(), inits))
    bind(t, a, v);
  return Step::Moved;
}

Interpreter::Step Interpreter::enterBranch(unsigned t, Operation *op) {
  auto branch = cast<scf::IfOp>(op);
  Val c = get(t, branch.getCondition());
  if (!c.isInt()) {
    fail(t, op, "poison-read", "the condition is not a defined integer");
    return Step::Failed;
  }
  Region &region = c.i ? branch.getThenRegion() : branch.getElseRegion();
  if (region.empty())
    return Step::Advance;
  Block *block = &region.front();
  threads[t].frames.push_back({block, block->begin(), op});
  return Step::Moved;
}

// scf.yield: the next iteration of a running loop, or the frame's end with
// its results bound.
Interpreter::Step Interpreter::yieldFrame(unsigned t, Operation *op) {
  std::vector<Val> vals;
  for (Value v : op->getOperands())
    vals.push_back(get(t, v));
  Frame &f = threads[t].frames.back();
  if (auto loop = dyn_cast<scf::ForOp>(f.owner)) {
    f.iv += f.step;
    if (f.iv < f.ub) {
      bind(t, loop.getInductionVar(), Val::integer(f.iv));
      for (auto [a, v] : llvm::zip(loop.getRegionIterArgs(), vals))
        bind(t, a, v);
      f.next = f.block->begin();
      return Step::Moved;
    }
  }
  Operation *owner = f.owner;
  threads[t].frames.pop_back();
  for (auto [r, v] : llvm::zip(owner->getResults(), vals))
    bind(t, r, v);
  ++threads[t].frames.back().next;
  return Step::Moved;
}

// tileas.agent: a new thread, named by its role and number, that the
// spawning thread waits for before it runs past the agents.
Interpreter::Step Interpreter::spawnAgent(unsigned t, Operation *op) {
  auto agent = cast<tileas::AgentOp>(op);
  unsigned agents = 0;
  for (const Thread &th : threads)
    agents += th.parent >= 0;
  Thread child;
  child.name = agent.getRole().str() + std::to_string(agents);
  child.parent = int(t);
  Block *body = &agent.getBody().front();
  child.frames.push_back({body, body->begin(), op});
  threads.push_back(std::move(child));
  ++threads[t].liveChildren;
  return Step::Advance;
}

Interpreter::Step Interpreter::stepControl(unsigned t, Operation *op,
                                           bool &handled) {
  handled = true;
  return llvm::TypeSwitch<Operation *, Step>(op)
      .Case<scf::ForOp>([&](auto) { return enterLoop(t, op); })
      .Case<scf::IfOp>([&](auto) { return enterBranch(t, op); })
      .Case<scf::YieldOp>([&](auto) { return yieldFrame(t, op); })
      .Case<tileas::AgentOp>([&](auto) { return spawnAgent(t, op); })
      .Case<tileas::AgentYieldOp, func::ReturnOp>([&](auto) {
        finishThread(t);
        return Step::Moved;
      })
      .Default([&](Operation *) {
        handled = false;
        return Step::Advance;
      });
}

/// Sign-extends the low `width` bits.
static int64_t sext(int64_t v, unsigned width) {
  if (width >= 64)
    return v;
  uint64_t m = uint64_t(1) << (width - 1);
  uint64_t x = uint64_t(v) & ((uint64_t(1) << width) - 1);
  return int64_t((x ^ m) - m);
}

static uint64_t zext(int64_t v, unsigned width) {
  if (width >= 64)
    return uint64_t(v);
  return uint64_t(v) & ((uint64_t(1) << width) - 1);
}

static unsigned widthOf(Type type) {
  if (auto it = dyn_cast<IntegerType>(type))
    return it.getWidth();
  return 64;
}

namespace {

/// The operands of a pure integer arith op, signed and zero-extended from
/// the operand width.
struct IntOperands {
  int64_t a = 0, b = 0;
  uint64_t ua = 0, ub = 0;
  unsigned width = 64;
};

/// What folding an op gave: an integer, poison, a division by zero, or
/// nothing (an op the checker leaves opaque).
struct Folded {
  enum class Kind { Integer, Poison, DivByZero, Unknown } kind = Kind::Unknown;
  int64_t value = 0;
  static Folded integer(int64_t v) { return {Kind::Integer, v}; }
};

} // namespace

// Two's complement arithmetic, bitwise logic and casts: they wrap.
static std::optional<int64_t> foldWrapping(Operation *op,
                                           const IntOperands &x) {
  auto [a, b, ua, ub, w] = x;
  if (isa<arith::AddIOp>(op))
    return int64_t(uint64_t(a) + uint64_t(b));
  if (isa<arith::SubIOp>(op))
    return int64_t(uint64_t(a) - uint64_t(b));
  if (isa<arith::MulIOp>(op))
    return int64_t(uint64_t(a) * uint64_t(b));
  if (isa<arith::MinUIOp>(op))
    return ua < ub ? a : b;
  if (isa<arith::MaxUIOp>(op))
    return ua > ub ? a : b;
  if (isa<arith::MinSIOp>(op))
    return std::min(a, b);
  if (isa<arith::MaxSIOp>(op))
    return std::max(a, b);
  if (isa<arith::AndIOp>(op))
    return a & b;
  if (isa<arith::OrIOp>(op))
    return a | b;
  if (isa<arith::XOrIOp>(op))
    return a ^ b;
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op))
    return a;
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op))
    return int64_t(ua);
  return std::nullopt;
}

static Folded foldDivision(Operation *op, const IntOperands &x) {
  auto [a, b, ua, ub, w] = x;
  if (isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(op)) {
    if (!ub)
      return {Folded::Kind::DivByZero};
    if (isa<arith::DivUIOp>(op))
      return Folded::integer(int64_t(ua / ub));
    if (isa<arith::RemUIOp>(op))
      return Folded::integer(int64_t(ua % ub));
    return Folded::integer(int64_t(ua / ub + (ua % ub != 0)));
  }
  if (!isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
           arith::FloorDivSIOp>(op))
    return {};
  if (!b)
    return {Folded::Kind::DivByZero};
  // INT64_MIN / -1 overflows (and traps on x86): it wraps to INT64_MIN.
  int64_t q = b == -1 ? int64_t(0 - uint64_t(a)) : a / b;
  int64_t m = b == -1 ? 0 : a % b;
  if (isa<arith::DivSIOp>(op))
    return Folded::integer(q);
  if (isa<arith::RemSIOp>(op))
    return Folded::integer(m);
  if (isa<arith::CeilDivSIOp>(op))
    return Folded::integer(q + ((m != 0) && ((m > 0) == (b > 0))));
  return Folded::integer(q - ((m != 0) && ((m < 0) != (b < 0))));
}

// The amount reads unsigned; at the width or beyond arith says poison.
static Folded foldShift(Operation *op, const IntOperands &x) {
  auto [a, b, ua, ub, w] = x;
  if (!isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(op))
    return {};
  if (ub >= w)
    return {Folded::Kind::Poison};
  if (isa<arith::ShLIOp>(op))
    return Folded::integer(int64_t(ua << ub));
  if (isa<arith::ShRUIOp>(op))
    return Folded::integer(int64_t(ua >> ub));
  return Folded::integer(sext(a, w) >> ub); // arithmetic: the sign fills
}

static int64_t foldCompare(arith::CmpIPredicate predicate,
                           const IntOperands &x) {
  auto [a, b, ua, ub, w] = x;
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::eq:
    return a == b;
  case P::ne:
    return a != b;
  case P::slt:
    return a < b;
  case P::sle:
    return a <= b;
  case P::sgt:
    return a > b;
  case P::sge:
    return a >= b;
  case P::ult:
    return ua < ub;
  case P::ule:
    return ua <= ub;
  case P::ugt:
    return ua > ub;
  case P::uge:
    return ua >= ub;
  }
  return 0;
}

static Folded foldInteger(Operation *op, const IntOperands &x) {
  if (std::optional<int64_t> r = foldWrapping(op, x))
    return Folded::integer(*r);
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return Folded::integer(foldCompare(cmp.getPredicate(), x));
  Folded f = foldDivision(op, x);
  return f.kind != Folded::Kind::Unknown ? f : foldShift(op, x);
}

// Integers, not opaque terms, for what a loop bound may depend on: integer
// constants, the block's id and the grid's size; and poison as poison.
bool Interpreter::bindIntegerSource(unsigned t, Operation *op) {
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    auto attr = dyn_cast<IntegerAttr>(cst.getValue());
    if (!attr)
      return false; // a tile constant: an opaque term
    bind(t, cst.getResult(),
         Val::integer(
             sext(attr.getValue().getSExtValue(), widthOf(cst.getType()))));
    return true;
  }
  if (isa<ub::PoisonOp>(op)) {
    bind(t, op->getResult(0), Val::poison());
    return true;
  }
  if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
    bind(t, id.getResult(),
         Val::integer(config.blockId[unsigned(id.getDimension())]));
    return true;
  }
  if (auto dim = dyn_cast<gpu::GridDimOp>(op)) {
    bind(t, dim.getResult(),
         Val::integer(config.gridDim[unsigned(dim.getDimension())]));
    return true;
  }
  return false;
}

Interpreter::Step Interpreter::stepArith(unsigned t, Operation *op,
                                         bool &handled) {
  handled = bindIntegerSource(t, op);
  if (handled || isa<arith::ConstantOp>(op))
    return Step::Advance;
  if (!isa_and_nonnull<arith::ArithDialect>(op->getDialect()) ||
      op->getNumResults() != 1 || !op->getResult(0).getType().isIntOrIndex())
    return Step::Advance;
  std::vector<Val> in;
  for (Value v : op->getOperands())
    in.push_back(get(t, v));
  if (auto sel = dyn_cast<arith::SelectOp>(op)) {
    handled = true;
    if (!in[0].isInt())
      bind(t, sel.getResult(), Val::poison());
    else
      bind(t, sel.getResult(), in[0].i ? in[1] : in[2]);
    return Step::Advance;
  }
  if (llvm::any_of(in,
                   [](const Val &v) { return v.kind == Val::Kind::Poison; })) {
    handled = true;
    bind(t, op->getResult(0), Val::poison());
    return Step::Advance;
  }
  if (!llvm::all_of(in, [](const Val &v) { return v.isInt(); }))
    return Step::Advance;
  unsigned w = widthOf(op->getResult(0).getType());
  IntOperands x;
  x.width = op->getNumOperands() ? widthOf(op->getOperand(0).getType()) : w;
  x.a = in.size() > 0 ? in[0].i : 0;
  x.b = in.size() > 1 ? in[1].i : 0;
  x.ua = zext(x.a, x.width);
  x.ub = zext(x.b, x.width);
  Folded r = foldInteger(op, x);
  switch (r.kind) {
  case Folded::Kind::Unknown:
    return Step::Advance;
  case Folded::Kind::DivByZero:
    handled = true;
    fail(t, op, "malformed", "division by zero");
    return Step::Failed;
  case Folded::Kind::Poison:
    handled = true;
    bind(t, op->getResult(0), Val::poison());
    return Step::Advance;
  case Folded::Kind::Integer:
    break;
  }
  handled = true;
  bind(t, op->getResult(0), Val::integer(sext(r.value, w)));
  return Step::Advance;
}

Interpreter::Step Interpreter::step(unsigned t) {
  Operation *op = &*threads[t].frames.back().next;
  bool handled = false;
  Step s = stepControl(t, op, handled);
  if (!handled)
    s = stepArith(t, op, handled);
  if (!handled && isa<tileas::TileASDialect>(op->getDialect()))
    s = stepTileAS(t, op, handled);
  if (!handled) {
    // Anything else that only computes values becomes an opaque term of
    // its operands; anything with effects or regions we cannot model.
    if (op->getNumRegions() == 0 && isMemoryEffectFree(op)) {
      uint64_t term = opaqueTerm(t, op);
      for (auto [i, r] : llvm::enumerate(op->getResults()))
        bind(t, r, Val::tile(i ? mix64(term + i) : term));
      s = Step::Advance;
    } else {
      fail(t, op, "unsupported",
           "cannot execute '" + op->getName().getStringRef().str() +
               "' (it has memory effects or regions the checker does not "
               "model)");
      s = Step::Failed;
    }
  }
  if (s == Step::Advance)
    ++threads[t].frames.back().next;
  return s;
}
