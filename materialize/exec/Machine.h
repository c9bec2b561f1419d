//===- Machine.h - buffers, mbarriers, pipes, mutexes, events ---*- C++ -*-===//
//
// The hardware state the interpreter drives: buffers holding one tile term
// each, mbarriers with the phase/pending/tx semantics of
// blackwell-facts.md 2.1, pipes as rings of (buffer, full, empty), token
// ring mutexes, and a queue of timed events for everything asynchronous.
// Nothing here knows about MLIR ops except as locations for messages.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_EXEC_MACHINE_H
#define TILEPIPE_MATERIALIZE_EXEC_MACHINE_H

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace tilepipe::exec {

/// One on-chip buffer (an alloc, an argument, a pipe slot).
struct Buffer {
  uint64_t content = 0;
  /// The pipe iteration whose producer wrote `content` (-1: none yet).
  int writtenPipe = -1;
  int64_t writtenIter = 0;
  /// Async writes issued but not landed, and the latest such writer.
  unsigned pendingWrites = 0;
  mlir::Operation *pendingWriter = nullptr;
  /// The thread whose tensor-core ops hold the latest pending writes, how
  /// many, and how many of those are MMAs (the rest tcgen05.cp): a later
  /// MMA of that thread may read the buffer where PTX orders it behind
  /// them (a tcgen05.cp, or an MMA into the same accumulator).
  int pendingTcThread = -1;
  unsigned pendingTcWrites = 0;
  unsigned pendingTcMmaWrites = 0;
  /// Bumped by every write, so an async reader can tell at completion
  /// whether someone else wrote the buffer since it was issued.
  uint64_t version = 0;
  /// Async reads (UMMA, tcgen05.cp, TMA store, un-waited tcgen05.ld) still
  /// in flight, and the latest such reader.
  unsigned pendingReads = 0;
  mlir::Operation *pendingReader = nullptr;
  /// Slot buffers are the ones pipes hand out; only those carry the
  /// hold/iteration rules.
  bool isSlot = false;
  std::string name;
};

/// An mbarrier (blackwell-facts.md 2.1).
struct MBarrier {
  unsigned phase = 0;
  int pending = 1;
  int expected = 1;
  int64_t tx = 0;
  /// Phases completed so far, for messages.
  uint64_t completed = 0;

  void init(int count) { pending = expected = count; }
  /// try_wait.parity(P): true once the phase with parity P completed.
  bool passes(unsigned parity) const { return phase != parity; }
  /// arrive (with `bytes` expected transaction bytes); false on an arrival
  /// the phase did not expect.
  bool arrive(int64_t bytes = 0);
  /// The copy engine delivered `bytes`.
  void completeTx(int64_t bytes);
  /// expect-tx without an arrival (mbarrier.expect_tx).
  void expectTx(int64_t bytes) { tx += bytes; }

private:
  void maybeComplete();
};

struct Pipe {
  mlir::Operation *op = nullptr;
  std::string name;
  unsigned depth = 1;
  int64_t bytes = 0;
  std::vector<std::string> consumers;
  /// The tensor core fills the slots: a read needs tcgen05_after first.
  bool producedByTensorCore = false;
  /// A consumer reads through the async proxy (UMMA or a TMA store): SIMT
  /// writes need fence "proxy_async" before the commit.
  bool asyncReader = false;
  std::vector<unsigned> buffers;
  std::vector<MBarrier> full, empty;
  /// `aliases`: the pipe whose slots this one hands on (-1: none). Its
  /// acquires take over a wait hold on a slot of the root of that chain and
  /// its releases arrive on the root's empty barriers, so its own `empty`
  /// stays unused.
  int aliases = -1;
  /// `joins`: the pipe whose barriers guard this one's slots too (-1:
  /// none). This pipe's own `full` and `empty` stay unused.
  int joins = -1;
  /// Committed iterations and how many releases each has seen.
  std::map<int64_t, unsigned> releases;
};

struct Mutex {
  mlir::Operation *op = nullptr;
  std::string name;
  unsigned groups = 2;
  /// The group the token is with (visible to lock) unless in transit.
  unsigned token = 0;
  bool inTransit = false;
  /// Threads inside the critical section (more than one is a violation).
  std::vector<unsigned> holders;
  unsigned heldGroup = 0;
};

/// Something that happens later: a copy landing, an MMA completing, an
/// arrival becoming visible.
struct Event {
  uint64_t time = 0;
  uint64_t seq = 0;
  /// Landing data nobody waited for is reported at the end.
  bool writesData = false;
  mlir::Operation *op = nullptr;
  std::function<void()> fire;
};

/// Events ordered by (time, issue sequence): deterministic, and events of
/// one in-order unit issued with non-decreasing times fire in issue order.
class EventQueue {
public:
  void push(Event e);
  bool empty() const { return heap.empty(); }
  uint64_t nextTime() const { return heap.front().time; }
  Event pop();
  /// Data-writing events still pending (the first one's op, or null).
  mlir::Operation *pendingDataWriter() const;

private:
  std::vector<Event> heap;
  uint64_t seq = 0;
};

} // namespace tilepipe::exec

#endif // TILEPIPE_MATERIALIZE_EXEC_MACHINE_H
