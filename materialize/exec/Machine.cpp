//===- Machine.cpp - mbarrier semantics and the event queue ---------------===//

#include "materialize/exec/Machine.h"

#include <algorithm>

using namespace tilepipe::exec;

bool MBarrier::arrive(int64_t bytes) {
  if (pending <= 0)
    return false;
  --pending;
  tx += bytes;
  maybeComplete();
  return true;
}

void MBarrier::completeTx(int64_t bytes) {
  // tx may go negative for a while: a copy can land before the arrive that
  // announces its bytes; the phase waits for the arrive (pending > 0).
  tx -= bytes;
  maybeComplete();
}

void MBarrier::maybeComplete() {
  if (pending != 0 || tx != 0)
    return;
  phase ^= 1;
  pending = expected;
  ++completed;
}

static bool later(const Event &a, const Event &b) {
  if (a.time != b.time)
    return a.time > b.time;
  return a.seq > b.seq;
}

void EventQueue::push(Event e) {
  e.seq = seq++;
  heap.push_back(std::move(e));
  std::push_heap(heap.begin(), heap.end(), later);
}

Event EventQueue::pop() {
  std::pop_heap(heap.begin(), heap.end(), later);
  Event e = std::move(heap.back());
  heap.pop_back();
  return e;
}

mlir::Operation *EventQueue::pendingDataWriter() const {
  const Event *first = nullptr;
  for (const Event &e : heap)
    if (e.writesData && (!first || !later(e, *first)))
      first = &e;
  return first ? first->op : nullptr;
}
