//===- Cnf.h - clause building over CaDiCaL for the SAT models -*- C++ -*-===//
//
// What both SAT encodings (SatCheck.cpp: rows and stages; SatWindows.cpp:
// absolute start windows) share: a deadline that stops the solver, and a
// clause builder with constant literals and a weighted at-most counter.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_EXACT_CNF_H
#define TILEPIPE_SCHEDULER_EXACT_CNF_H

#include "llvm/ADT/ArrayRef.h"
#include "support/ThreadCpuClock.h"

#include <cadical.hpp>

#include "scheduler/exact/ExactCheck.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

namespace tilepipe::sched::exact {

/// CaDiCaL polls per unit of exact-check work (ExactOptions::work): about a
/// millisecond of its search on the development machine, but counted, so the
/// verdict does not depend on the machine or its load.
constexpr uint64_t kSatPollsPerUnit = 64;

/// Stops CaDiCaL (and the CNF's construction, which polls it too) when its
/// work budget is spent, or when the user's wall-clock safety net fires.
/// The polls come at fixed points of a deterministic search, so the first
/// limit gives the same answer on any machine.
class Deadline : public CaDiCaL::Terminator {
public:
  Deadline(uint64_t units, unsigned safetyMs)
      : polls(units * kSatPollsPerUnit),
        end(ThreadCpuClock::now() +
            std::chrono::milliseconds(safetyMs)),
        clock(safetyMs != 0) {}
  ~Deadline() override { exactWorkSpent() += spentUnits(); }
  Deadline(const Deadline &) = delete;
  Deadline &operator=(const Deadline &) = delete;
  bool terminate() override {
    ++used;
    if (polls && used > polls)
      return true;
    if (clock && (used & 63) == 0 && ThreadCpuClock::now() >= end)
      timedOut = true;
    return timedOut;
  }
  /// While the CNF is built: polls in proportion to the clauses added so
  /// far (kClausesPerPoll each), so the work budget bounds the construction
  /// too (an II of 11,000 rows once spent minutes in it).
  bool building(uint64_t clauses) {
    used = std::max(used, clauses / kClausesPerPoll);
    return terminate();
  }
  static constexpr uint64_t kClausesPerPoll = 16;
  /// Units spent so far (rounded up).
  uint64_t spentUnits() const {
    return (used + kSatPollsPerUnit - 1) / kSatPollsPerUnit;
  }
  /// Whether the wall-clock safety net, not the work budget, stopped it.
  bool timedOut = false;

private:
  uint64_t polls;
  uint64_t used = 0;
  ThreadCpuClock::time_point end;
  bool clock;
};

/// Clauses over literals where kTrue / -kTrue are the constants: a clause
/// with kTrue is dropped, -kTrue is dropped from a clause.
class Cnf {
public:
  static constexpr int kTrue = 1;
  Cnf() {
    // Quiet: CaDiCaL otherwise prints notices ("c ...") on stdout, which
    // carries the tool's JSON.
    solver.set("quiet", 1);
    solver.add(kTrue);
    solver.add(0);
  }
  int fresh() { return ++numVars; }
  void add(std::initializer_list<int> lits) {
    addClause(llvm::ArrayRef<int>(lits.begin(), lits.end()));
  }
  /// Sum of weight over the true literals at most `cap` (a sequential
  /// weighted counter: s[j][l] says the first j items reach l).
  void atMost(llvm::ArrayRef<std::pair<int, uint64_t>> items, uint64_t cap) {
    std::vector<int> prev(cap + 1, -kTrue), cur(cap + 1);
    for (auto [x, w] : items) {
      if (w == 0 || x == -kTrue)
        continue;
      if (w > cap) {
        add({-x});
        continue;
      }
      for (uint64_t l = 1; l <= cap; ++l)
        cur[l] = fresh();
      for (uint64_t l = 1; l <= cap; ++l) {
        add({-prev[l], cur[l]});
        if (l <= w)
          add({-x, cur[l]});
        else
          add({-x, -prev[l - w], cur[l]});
      }
      for (uint64_t l = cap - w + 1; l <= cap; ++l)
        add({-x, -prev[l]});
      std::swap(prev, cur);
    }
  }
  /// Sum of weight over the true literals at least `need`: at most the
  /// rest over the false ones. One clause when any one literal suffices.
  void atLeast(llvm::ArrayRef<std::pair<int, uint64_t>> items, uint64_t need) {
    if (need == 0)
      return;
    uint64_t total = 0;
    bool single = true;
    for (auto [x, w] : items) {
      total += w;
      single &= w >= need;
    }
    if (total < need) {
      contradiction = true;
      return;
    }
    if (single) {
      std::vector<int> clause;
      for (auto [x, w] : items)
        clause.push_back(x);
      addClause(clause);
      return;
    }
    std::vector<std::pair<int, uint64_t>> negated;
    for (auto [x, w] : items)
      negated.push_back({-x, w});
    atMost(negated, total - need);
  }
  /// A clause of any length, with the constants as in add().
  void addClause(llvm::ArrayRef<int> lits) {
    buffer.clear();
    for (int lit : lits) {
      if (lit == kTrue)
        return;
      if (lit != -kTrue)
        buffer.push_back(lit);
    }
    if (buffer.empty()) {
      // The empty clause: CaDiCaL would print a notice on stdout; the
      // model is simply unsatisfiable.
      contradiction = true;
      return;
    }
    for (int lit : buffer)
      solver.add(lit);
    solver.add(0);
    ++numClauses;
  }
  /// Solves (10 satisfiable, 20 unsatisfiable, 0 stopped).
  int solve(CaDiCaL::Terminator &stop) {
    if (contradiction)
      return 20;
    solver.connect_terminator(&stop);
    int status = solver.solve();
    solver.disconnect_terminator();
    return status;
  }
  CaDiCaL::Solver solver;
  bool contradiction = false;
  int numVars = 1;
  uint64_t numClauses = 0;

private:
  std::vector<int> buffer;
};

} // namespace tilepipe::sched::exact

#endif // TILEPIPE_SCHEDULER_EXACT_CNF_H
