//===- Protocol.cpp - abstract checker for pipe and mutex protocols -------===//
//
// A discrete-event interpreter: one instruction of one runnable agent per
// tick, the agent picked by a seeded mt19937_64, and every arrive (Commit,
// Release, Unlock) landing after a seeded delay. Barriers are modelled by their
// phase parity, like mbarrier try_wait.parity, so stage/phase aliasing bugs
// behave as they would on hardware; data checks run on the slot contents.
//
//===----------------------------------------------------------------------===//

#include "materialize/protocol/Protocol.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <random>

using namespace tilepipe::protocol;

llvm::StringRef tilepipe::protocol::kindName(Violation::Kind kind) {
  switch (kind) {
  case Violation::Deadlock:
    return "deadlock";
  case Violation::ReadBeforeCommit:
    return "read-before-commit";
  case Violation::OverwriteBeforeRelease:
    return "overwrite-before-release";
  case Violation::OutOfOrder:
    return "out-of-order";
  case Violation::Unbalanced:
    return "unbalanced";
  case Violation::MutualExclusion:
    return "mutual-exclusion";
  case Violation::Malformed:
    return "malformed";
  }
  return "unknown";
}

namespace {

constexpr int64_t kNone = -1;

bool isPipeStep(Step s) { return s != Step::Lock && s != Step::Unlock; }

llvm::StringRef stepName(Step s) {
  switch (s) {
  case Step::Acquire:
    return "Acquire";
  case Step::Commit:
    return "Commit";
  case Step::Wait:
    return "Wait";
  case Step::Release:
    return "Release";
  case Step::Lock:
    return "Lock";
  case Step::Unlock:
    return "Unlock";
  case Step::Write:
    return "Write";
  case Step::Read:
    return "Read";
  }
  return "?";
}

/// What the barriers and the buffer of one slot hold. Phases count completed
/// mbarrier phases; only their parity is ever compared, as in hardware.
struct SlotState {
  int64_t content = kNone;      ///< Iteration whose value was last written.
  int64_t committed = kNone;    ///< Iteration whose commit is visible.
  int64_t commitIssued = kNone; ///< Iteration last committed (maybe in flight).
  bool free = true;             ///< Every consumer released the content.
  uint64_t fullPhases = 0;
  uint64_t emptyPhases = 0;
  uint64_t arrivals = 0; ///< Consumer indices arrived in this empty phase.
};

struct MutexState {
  int64_t token =
      0;           ///< Group allowed to lock; kNone while a pass is in flight.
  int holder = -1; ///< Agent inside the critical section.
};

enum class Segment : uint8_t { Prologue, Body, Epilogue, Done };

struct AgentState {
  Segment seg = Segment::Prologue;
  uint64_t k = 0;
  size_t pc = 0;
  /// Per pipe: iterations acquired but not committed, waited but not
  /// released. They give the happens-before edges Write and Read need.
  std::vector<llvm::SmallVector<int64_t, 4>> heldAcquire, heldWait;
  /// Per pipe / mutex counts in the current segment, for balance checks.
  std::vector<unsigned> acquires, commits, locks, unlocks;
};

struct Event {
  enum Kind : uint8_t { Full, Empty, Token } kind;
  uint64_t due;
  unsigned object;
  unsigned slot;
  int64_t iter;
  unsigned consumer;
  unsigned agent;
};

bool removeOne(llvm::SmallVectorImpl<int64_t> &v, int64_t x) {
  auto it = llvm::find(v, x);
  if (it == v.end())
    return false;
  v.erase(it);
  return true;
}

std::string joinIters(llvm::ArrayRef<int64_t> v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(v, os);
  return s;
}

class Simulator {
public:
  Simulator(const Program &program, const CheckOptions &options)
      : prog(program), opts(options), n(options.tripCount), rng(options.seed) {}

  std::optional<Violation> run();

private:
  const Program &prog;
  const CheckOptions &opts;
  const int64_t n;
  std::mt19937_64 rng;
  uint64_t tick = 0;
  std::vector<std::vector<SlotState>> slots;
  std::vector<MutexState> mutexes;
  std::vector<AgentState> agents;
  std::vector<Event> events; ///< Kept in issue order: processing is stable.

  std::optional<Violation> validate() const;
  const std::vector<Instr> &code(unsigned a) const;
  int64_t base(unsigned a) const;
  int64_t index(unsigned a, const Instr &in) const {
    return base(a) + in.indexOffset;
  }
  const Instr &current(unsigned a) const { return code(a)[agents[a].pc]; }
  std::optional<Violation> normalize(unsigned a);
  std::optional<Violation> endSegment(unsigned a);
  bool ready(unsigned a) const;
  std::optional<Violation> execute(unsigned a);
  std::optional<Violation> deliver(const Event &e);
  std::string where(unsigned a) const;
  std::string blockedOn(unsigned a) const;
  Violation make(Violation::Kind kind, unsigned a,
                 const std::string &what) const;
  unsigned delay() {
    return static_cast<unsigned>(rng() % (uint64_t(opts.maxLatency) + 1));
  }
};

const std::vector<Instr> &Simulator::code(unsigned a) const {
  const Agent &agent = prog.agents[a];
  switch (agents[a].seg) {
  case Segment::Prologue:
    return agent.prologue;
  case Segment::Body:
    return agent.body;
  default:
    return agent.epilogue;
  }
}

int64_t Simulator::base(unsigned a) const {
  switch (agents[a].seg) {
  case Segment::Prologue:
    return 0;
  case Segment::Body:
    return static_cast<int64_t>(agents[a].k);
  default:
    return n;
  }
}

std::string Simulator::where(unsigned a) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  const AgentState &st = agents[a];
  os << "agent '" << prog.agents[a].name << "'";
  if (st.seg != Segment::Done && st.pc < code(a).size())
    os << " at '" << current(a).label << "'";
  switch (st.seg) {
  case Segment::Prologue:
    os << " (prologue)";
    break;
  case Segment::Body:
    os << " (iteration " << st.k << ")";
    break;
  case Segment::Epilogue:
    os << " (epilogue)";
    break;
  case Segment::Done:
    os << " (finished)";
    break;
  }
  return s;
}

Violation Simulator::make(Violation::Kind kind, unsigned a,
                          const std::string &what) const {
  Violation v;
  v.kind = kind;
  v.agent = prog.agents[a].name;
  v.iteration = agents[a].seg == Segment::Body
                    ? static_cast<int64_t>(agents[a].k)
                    : kNone;
  v.seed = opts.seed;
  v.message = kindName(kind).str() + ": " + where(a) + ": " + what;
  return v;
}

std::optional<Violation> Simulator::validate() const {
  auto bad = [](const std::string &msg) {
    Violation v;
    v.kind = Violation::Malformed;
    v.message = "malformed: " + msg;
    return v;
  };
  for (const Pipe &p : prog.pipes) {
    if (p.depth == 0)
      return bad("pipe '" + p.name + "' has depth 0");
    // The arrival set is a 64-bit mask; real pipes have a handful.
    if (p.consumers == 0 || p.consumers > 64)
      return bad("pipe '" + p.name + "' needs 1..64 consumers");
  }
  for (const Mutex &m : prog.mutexes)
    if (m.groups == 0)
      return bad("mutex '" + m.name + "' has no groups");
  for (const Agent &agent : prog.agents) {
    for (const std::vector<Instr> *part :
         {&agent.prologue, &agent.body, &agent.epilogue}) {
      for (const Instr &in : *part) {
        std::string at = "agent '" + agent.name + "' at '" + in.label + "': ";
        if (isPipeStep(in.step)) {
          if (in.object >= prog.pipes.size())
            return bad(at + "pipe index " + std::to_string(in.object) +
                       " out of range");
          if (in.step == Step::Release &&
              in.group >= prog.pipes[in.object].consumers)
            return bad(at + "consumer index " + std::to_string(in.group) +
                       " of pipe '" + prog.pipes[in.object].name +
                       "' out of range");
        } else {
          if (in.object >= prog.mutexes.size())
            return bad(at + "mutex index " + std::to_string(in.object) +
                       " out of range");
          if (agent.groupIndex >= prog.mutexes[in.object].groups)
            return bad(at + "group " + std::to_string(agent.groupIndex) +
                       " not in the ring of mutex '" +
                       prog.mutexes[in.object].name + "'");
        }
      }
    }
  }
  return std::nullopt;
}

/// Acquire/Commit and Lock/Unlock must pair within a segment: a producer
/// fills the slot it acquired in the same stage instance, and a mutex has zero
/// slack across iterations. Waits may be held across iterations (a consumer
/// can keep a slot, like FA4's Q), so they are only checked at the end.
std::optional<Violation> Simulator::endSegment(unsigned a) {
  AgentState &st = agents[a];
  for (unsigned p = 0; p < prog.pipes.size(); ++p)
    if (st.acquires[p] != st.commits[p])
      return make(Violation::Unbalanced, a,
                  std::to_string(st.acquires[p]) + " Acquire(s) but " +
                      std::to_string(st.commits[p]) + " Commit(s) of pipe '" +
                      prog.pipes[p].name + "' in this segment (held: " +
                      joinIters(st.heldAcquire[p]) + ")");
  for (unsigned m = 0; m < prog.mutexes.size(); ++m)
    if (st.locks[m] != st.unlocks[m])
      return make(Violation::Unbalanced, a,
                  std::to_string(st.locks[m]) + " Lock(s) but " +
                      std::to_string(st.unlocks[m]) + " Unlock(s) of mutex '" +
                      prog.mutexes[m].name + "' in this segment");
  std::fill(st.acquires.begin(), st.acquires.end(), 0u);
  std::fill(st.commits.begin(), st.commits.end(), 0u);
  std::fill(st.locks.begin(), st.locks.end(), 0u);
  std::fill(st.unlocks.begin(), st.unlocks.end(), 0u);
  return std::nullopt;
}

/// Moves the agent to its next executable instruction: skips guarded-out pipe
/// instructions and crosses segment boundaries, checking balance at each.
std::optional<Violation> Simulator::normalize(unsigned a) {
  AgentState &st = agents[a];
  while (st.seg != Segment::Done) {
    const std::vector<Instr> &c = code(a);
    if (st.pc < c.size()) {
      const Instr &in = c[st.pc];
      if (!isPipeStep(in.step))
        return std::nullopt;
      int64_t i = index(a, in);
      if (i >= 0 && i < n)
        return std::nullopt;
      ++st.pc;
      continue;
    }
    if (auto v = endSegment(a))
      return v;
    st.pc = 0;
    if (st.seg == Segment::Prologue) {
      st.seg = n > 0 ? Segment::Body : Segment::Epilogue;
    } else if (st.seg == Segment::Body) {
      if (++st.k == static_cast<uint64_t>(n))
        st.seg = Segment::Epilogue;
    } else {
      st.seg = Segment::Done;
      for (unsigned p = 0; p < prog.pipes.size(); ++p)
        if (!st.heldWait[p].empty())
          return make(Violation::Unbalanced, a,
                      "finished with iteration(s) " +
                          joinIters(st.heldWait[p]) + " of pipe '" +
                          prog.pipes[p].name + "' waited but never released");
    }
  }
  return std::nullopt;
}

bool Simulator::ready(unsigned a) const {
  if (agents[a].seg == Segment::Done)
    return false;
  const Instr &in = current(a);
  if (in.step == Step::Lock)
    return mutexes[in.object].token ==
           static_cast<int64_t>(prog.agents[a].groupIndex);
  if (in.step != Step::Acquire && in.step != Step::Wait)
    return true;
  unsigned depth = prog.pipes[in.object].depth;
  int64_t i = index(a, in);
  const SlotState &s = slots[in.object][i % depth];
  // try_wait.parity(P) succeeds once the phase with parity P completed, i.e.
  // when the barrier's current phase bit differs from P. The producer starts
  // on the opposite parity ("buffers are initially empty").
  uint64_t parity = (i / depth) & 1;
  if (in.step == Step::Acquire)
    return (s.emptyPhases & 1) != (parity ^ 1);
  return (s.fullPhases & 1) != parity;
}

std::string Simulator::blockedOn(unsigned a) const {
  const Instr &in = current(a);
  std::string s;
  llvm::raw_string_ostream os(s);
  os << where(a) << " blocked in " << stepName(in.step);
  if (in.step == Step::Lock) {
    const MutexState &m = mutexes[in.object];
    os << " of mutex '" << prog.mutexes[in.object].name << "' for group "
       << prog.agents[a].groupIndex << " (token ";
    if (m.token == kNone)
      os << "in flight";
    else
      os << "with group " << m.token;
    os << ")";
    return s;
  }
  const Pipe &p = prog.pipes[in.object];
  int64_t i = index(a, in);
  const SlotState &sl = slots[in.object][i % p.depth];
  os << " of pipe '" << p.name << "' slot " << i % p.depth << " for iteration "
     << i << " (slot holds ";
  if (sl.content == kNone)
    os << "nothing";
  else
    os << "iteration " << sl.content;
  if (in.step == Step::Acquire)
    os << ", " << llvm::popcount(sl.arrivals) << " of " << p.consumers
       << " release(s) of the current phase arrived, " << sl.emptyPhases
       << " empty phase(s) completed)";
  else
    os << ", " << sl.fullPhases << " commit phase(s) completed)";
  return s;
}

std::optional<Violation> Simulator::deliver(const Event &e) {
  switch (e.kind) {
  case Event::Full: {
    SlotState &s = slots[e.object][e.slot];
    ++s.fullPhases;
    s.committed = e.iter;
    return std::nullopt;
  }
  case Event::Empty: {
    const Pipe &p = prog.pipes[e.object];
    SlotState &s = slots[e.object][e.slot];
    uint64_t bit = uint64_t(1) << e.consumer;
    // Two arrivals from one consumer index would complete the phase early and
    // let the producer overwrite what another consumer still reads.
    if (s.arrivals & bit)
      return make(
          Violation::Unbalanced, e.agent,
          "consumer index " + std::to_string(e.consumer) + " releases pipe '" +
              p.name + "' slot " + std::to_string(e.slot) +
              " twice in one phase (iteration " + std::to_string(e.iter) + ")");
    s.arrivals |= bit;
    if (static_cast<unsigned>(llvm::popcount(s.arrivals)) == p.consumers) {
      s.arrivals = 0;
      ++s.emptyPhases;
      s.free = true;
    }
    return std::nullopt;
  }
  case Event::Token:
    mutexes[e.object].token = e.iter;
    return std::nullopt;
  }
  return std::nullopt;
}

/// Runs the agent's current instruction; the pc moves past it only on
/// success, so a report names the offending instruction.
std::optional<Violation> Simulator::execute(unsigned a) {
  AgentState &st = agents[a];
  const Instr &in = current(a);
  if (!isPipeStep(in.step)) {
    MutexState &m = mutexes[in.object];
    const Mutex &mx = prog.mutexes[in.object];
    if (in.step == Step::Lock) {
      ++st.locks[in.object];
      if (m.holder == static_cast<int>(a))
        return make(Violation::Unbalanced, a,
                    "locks mutex '" + mx.name + "' it already holds");
      if (m.holder != -1)
        return make(Violation::MutualExclusion, a,
                    "enters mutex '" + mx.name + "' while agent '" +
                        prog.agents[m.holder].name + "' is inside");
      m.holder = static_cast<int>(a);
      return std::nullopt;
    }
    ++st.unlocks[in.object];
    if (m.holder != static_cast<int>(a)) {
      std::string inside =
          m.holder == -1
              ? std::string()
              : " while agent '" + prog.agents[m.holder].name + "' is inside";
      return make(Violation::MutualExclusion, a,
                  "unlocks mutex '" + mx.name +
                      "' without holding it: its critical section ran outside "
                      "the token ring" +
                      inside);
    }
    m.holder = -1;
    m.token = kNone;
    unsigned next = (prog.agents[a].groupIndex + 1) % mx.groups;
    events.push_back({Event::Token, tick + delay(), in.object, 0, next, 0, a});
    return std::nullopt;
  }

  const Pipe &p = prog.pipes[in.object];
  int64_t i = index(a, in);
  unsigned slot = static_cast<unsigned>(i % p.depth);
  SlotState &s = slots[in.object][slot];
  std::string at = "pipe '" + p.name + "' slot " + std::to_string(slot) +
                   " for iteration " + std::to_string(i);
  auto holds = [&]() -> std::string {
    if (s.content == kNone)
      return "nothing";
    std::string r = "iteration " + std::to_string(s.content);
    if (s.committed != s.content)
      r += " (uncommitted)";
    return r;
  };

  switch (in.step) {
  case Step::Acquire:
    ++st.acquires[in.object];
    st.heldAcquire[in.object].push_back(i);
    return std::nullopt;
  case Step::Commit:
    ++st.commits[in.object];
    if (!removeOne(st.heldAcquire[in.object], i))
      return make(Violation::Unbalanced, a,
                  "commits " + at + " without an Acquire of it");
    s.commitIssued = i;
    events.push_back({Event::Full, tick + delay(), in.object, slot, i, 0, a});
    return std::nullopt;
  case Step::Write: {
    bool acquired = llvm::is_contained(st.heldAcquire[in.object], i);
    bool clobbers = s.content != i && !s.free;
    if (!acquired || clobbers) {
      std::string why = !acquired ? "writes " + at + " without an Acquire of it"
                                  : "writes " + at;
      why += "; slot holds " + holds();
      if (clobbers)
        why += ", released by " + std::to_string(llvm::popcount(s.arrivals)) +
               " of " + std::to_string(p.consumers) + " consumer(s)";
      return make(Violation::OverwriteBeforeRelease, a, why);
    }
    if (s.content == i && s.commitIssued == i)
      return make(Violation::OverwriteBeforeRelease, a,
                  "writes " + at + " after committing it");
    if (s.content != i) {
      s.content = i;
      s.committed = kNone;
      s.free = false;
    }
    return std::nullopt;
  }
  case Step::Wait:
    st.heldWait[in.object].push_back(i);
    return std::nullopt;
  case Step::Read: {
    llvm::SmallVectorImpl<int64_t> &held = st.heldWait[in.object];
    if (!llvm::is_contained(held, i)) {
      if (held.empty())
        return make(Violation::ReadBeforeCommit, a,
                    "reads " + at +
                        " without a Wait that observed its "
                        "commit; slot holds " +
                        holds());
      return make(Violation::OutOfOrder, a,
                  "reads " + at + " but its Wait observed iteration(s) " +
                      joinIters(held) + "; slot holds " + holds());
    }
    if (s.content != i)
      return make(Violation::OutOfOrder, a,
                  "reads " + at + " but the slot holds " + holds());
    if (s.committed != i)
      return make(Violation::ReadBeforeCommit, a,
                  "reads " + at + " before its commit is visible");
    return std::nullopt;
  }
  case Step::Release:
    if (!removeOne(st.heldWait[in.object], i))
      return make(Violation::Unbalanced, a,
                  "releases " + at + " without a Wait holding it");
    events.push_back(
        {Event::Empty, tick + delay(), in.object, slot, i, in.group, a});
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

std::optional<Violation> Simulator::run() {
  if (auto v = validate())
    return v;
  slots.resize(prog.pipes.size());
  for (unsigned p = 0; p < prog.pipes.size(); ++p)
    slots[p].resize(prog.pipes[p].depth);
  mutexes.resize(prog.mutexes.size());
  agents.resize(prog.agents.size());
  uint64_t work = 0;
  for (AgentState &st : agents) {
    st.heldAcquire.resize(prog.pipes.size());
    st.heldWait.resize(prog.pipes.size());
    st.acquires.assign(prog.pipes.size(), 0);
    st.commits.assign(prog.pipes.size(), 0);
    st.locks.assign(prog.mutexes.size(), 0);
    st.unlocks.assign(prog.mutexes.size(), 0);
  }
  for (const Agent &agent : prog.agents)
    work += agent.prologue.size() + agent.epilogue.size() +
            uint64_t(n) * agent.body.size();
  // Every loop turn either executes an instruction or jumps to a pending
  // event, and each event comes from one instruction, so 2 * work turns
  // suffice; the bound is a guard against a modelling bug, reported as a
  // deadlock rather than a hang.
  uint64_t bound = work * (uint64_t(opts.maxLatency) + 2) + 64;

  for (unsigned a = 0; a < agents.size(); ++a)
    if (auto v = normalize(a))
      return v;

  llvm::SmallVector<unsigned, 8> runnable;
  for (uint64_t turn = 0;; ++turn) {
    // Deliver due arrivals in issue order (stable for a given seed).
    for (size_t e = 0; e < events.size();) {
      if (events[e].due <= tick) {
        Event ev = events[e];
        events.erase(events.begin() + e);
        if (auto v = deliver(ev))
          return v;
        continue;
      }
      ++e;
    }
    runnable.clear();
    bool allDone = true;
    for (unsigned a = 0; a < agents.size(); ++a) {
      if (agents[a].seg == Segment::Done)
        continue;
      allDone = false;
      if (ready(a))
        runnable.push_back(a);
    }
    if (allDone)
      return std::nullopt;
    if (turn > bound || (runnable.empty() && events.empty())) {
      std::string msg = turn > bound ? "no completion within " +
                                           std::to_string(bound) + " steps"
                                     : "no agent can make progress";
      unsigned first = ~0u;
      for (unsigned a = 0; a < agents.size(); ++a) {
        if (agents[a].seg == Segment::Done || ready(a))
          continue;
        if (first == ~0u)
          first = a;
        msg += "; " + blockedOn(a);
      }
      Violation v;
      v.kind = Violation::Deadlock;
      v.seed = opts.seed;
      if (first != ~0u) {
        v.agent = prog.agents[first].name;
        v.iteration = agents[first].seg == Segment::Body
                          ? static_cast<int64_t>(agents[first].k)
                          : kNone;
      }
      v.message = "deadlock: " + msg;
      return v;
    }
    if (runnable.empty()) {
      uint64_t next = UINT64_MAX;
      for (const Event &e : events)
        next = std::min(next, e.due);
      tick = next;
      continue;
    }
    unsigned a = runnable[rng() % runnable.size()];
    if (auto v = execute(a))
      return v;
    ++agents[a].pc;
    if (auto v = normalize(a))
      return v;
    ++tick;
  }
}

} // namespace

std::optional<Violation>
tilepipe::protocol::check(const Program &program, const CheckOptions &options) {
  return Simulator(program, options).run();
}

std::optional<Violation>
tilepipe::protocol::checkMany(const Program &program,
                              const CheckOptions &options, unsigned runs) {
  CheckOptions o = options;
  for (unsigned r = 0; r < runs; ++r) {
    o.seed = options.seed + r;
    if (auto v = check(program, o))
      return v;
  }
  return std::nullopt;
}
