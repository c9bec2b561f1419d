//===- Protocol.h - abstract checker for pipe and mutex protocols -*- C++
//-*-===//
//
// The materializer turns a schedule into agents (warp groups) that talk through
// pipes (multi-buffered channels guarded by full[]/empty[] mbarriers) and
// mutexes (token rings). A wrong stage index, a missing wait or a misplaced
// release is silent on the GPU until it corrupts data or hangs, so this module
// executes the emitted protocol abstractly, with seeded random interleavings
// and visibility delays, and reports the first violation.
// docs/protocol-check.md states the semantics precisely.
//
// This is a core-layer component: LLVM Support/ADT only, no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_PROTOCOL_PROTOCOL_H
#define TILEPIPE_MATERIALIZE_PROTOCOL_PROTOCOL_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilepipe::protocol {

enum class Step : uint8_t {
  Acquire, ///< Producer: wait until the slot is empty (empty[] barrier).
  Commit,  ///< Producer: arrive on full[]; visible after a random delay.
  Wait,    ///< Consumer: wait until the slot holds a committed value.
  Release, ///< Consumer: arrive on empty[]; visible after a random delay.
  Lock,    ///< Mutex: wait for the ring token of the agent's group.
  Unlock,  ///< Mutex: pass the token to the next group (delayed).
  Write,   ///< Producer: store into the pipe slot.
  Read,    ///< Consumer: load from the pipe slot.
};

struct Instr {
  Step step = Step::Write;
  unsigned object = 0; ///< Pipe index, or mutex index for Lock/Unlock.
  /// Consumer index for Release on a multi-consumer pipe (each of the pipe's
  /// `consumers` must release every value once). Unused by other steps: the
  /// mutex group comes from Agent::groupIndex.
  unsigned group = 0;
  std::string label; ///< Names the instruction in reports.
  /// The pipe iteration this instruction addresses is base + indexOffset,
  /// where base is k in the body, 0 in the prologue and N in the epilogue.
  /// Indices outside [0, N) skip the instruction, which models the guards of
  /// software-pipelined code (e.g. "release k-1 if k >= 1"). A wrong stage
  /// index in generated code is modelled by a wrong offset.
  int64_t indexOffset = 0;
};

struct Agent {
  std::string name;
  std::vector<Instr> body; ///< One iteration, run for k = 0..N-1.
  unsigned groupIndex = 0; ///< Position in every mutex ring it locks.
  /// Run once before / after the iterations: peeled (unspecialized) code.
  std::vector<Instr> prologue, epilogue;
};

struct Pipe {
  std::string name;
  unsigned depth = 2;
  unsigned consumers = 1; ///< Releases per value before the slot is empty.
};

struct Mutex {
  std::string name;
  unsigned groups = 2;
};

struct Program {
  std::vector<Pipe> pipes;
  std::vector<Mutex> mutexes;
  std::vector<Agent> agents;
};

struct CheckOptions {
  uint64_t tripCount = 8;
  uint64_t seed = 1;
  unsigned maxLatency =
      4; ///< Commit/Release/Unlock visible 0..this ticks later.
};

struct Violation {
  enum Kind {
    Deadlock,
    ReadBeforeCommit,
    OverwriteBeforeRelease,
    OutOfOrder,
    Unbalanced,
    MutualExclusion,
    /// The program itself is ill-formed (index out of range, depth 0, ...).
    Malformed,
  } kind = Deadlock;
  /// Names the agent, the instruction label, the iteration and the pipe slot
  /// (or mutex), so the report is actionable without a trace.
  std::string message;
  std::string agent;      ///< Empty for Malformed programs.
  int64_t iteration = -1; ///< Body iteration; -1 in prologue/epilogue.
  uint64_t seed = 0;      ///< The seed that found it (for replay).
};

llvm::StringRef kindName(Violation::Kind kind);

/// Runs the program once for options.tripCount iterations under the
/// interleaving chosen by options.seed. nullopt means no violation in this run.
std::optional<Violation> check(const Program &program,
                               const CheckOptions &options);

/// Runs seeds options.seed .. options.seed + runs - 1 and returns the first
/// violation (with its seed), so several interleavings are explored.
std::optional<Violation> checkMany(const Program &program,
                                   const CheckOptions &options, unsigned runs);

} // namespace tilepipe::protocol

#endif // TILEPIPE_MATERIALIZE_PROTOCOL_PROTOCOL_H
