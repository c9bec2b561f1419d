//===- Interpreter.h - one seeded execution of a function -------*- C++ -*-===//
//
// Walks structured IR (scf.for, scf.if, tileas.agent) with an explicit frame
// stack per thread, so a scheduler can run one op of any thread at a time.
// The code outside agents is thread "main"; each agent region is a thread
// started when main reaches it; main continues past the agents once all of
// them finished. Blocking ops (acquire, wait, lock) leave the thread where
// it is until their condition holds.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_EXEC_INTERPRETER_H
#define TILEPIPE_MATERIALIZE_EXEC_INTERPRETER_H

#include "materialize/exec/Check.h"
#include "materialize/exec/Machine.h"
#include "materialize/exec/Random.h"
#include "materialize/exec/Values.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <set>

namespace tilepipe::exec {

struct RunConfig {
  uint64_t tripCount = 0;
  uint64_t seed = 1;
  unsigned maxLatency = 8;
  uint64_t maxSteps = 10'000'000;
  /// The original loop: async units complete at issue, and no protocol
  /// rule can fire since there are no pipes.
  bool sequential = false;
  /// Values of the index arguments, by argument number.
  std::vector<int64_t> indexArgs;
  /// The one CTA a run executes (gpu.block_id) and the grid (gpu.grid_dim),
  /// x, y, z: not block 0, so that tile origins computed from the block
  /// index are not all zero.
  int64_t blockId[3] = {1, 2, 3};
  int64_t gridDim[3] = {2, 3, 4};
};

/// One executed schedulable op: what it computed.
struct Instance {
  std::string name;
  uint64_t term;
  mlir::Operation *op;
  unsigned thread;
};

struct RunResult {
  std::optional<Finding> finding;
  std::vector<Instance> instances;
  TermTable terms;
  std::vector<std::string> threadNames;
};

class Interpreter {
public:
  Interpreter(mlir::FunctionOpInterface func, const RunConfig &config);
  RunResult run();

private:
  struct Frame {
    mlir::Block *block;
    mlir::Block::iterator next;
    /// scf.for, scf.if, tileas.agent or the function.
    mlir::Operation *owner;
    int64_t iv = 0, ub = 0, step = 1;
  };
  /// A slot a thread acquired (producer) or waited for (consumer).
  struct Hold {
    int pipe;
    int64_t iter;
    bool wait;
    /// The slot came from a UMMA: reads need tcgen05_after first.
    bool needsAfter = false;
    mlir::Operation *op = nullptr;
  };
  struct Unfenced {
    unsigned buffer;
    mlir::Operation *op;
    /// TMEM: 0 needs tcgen05_wait_st, 1 needs tcgen05_before. SMEM: 0.
    int stage = 0;
  };
  struct AsyncRead {
    unsigned buffer;
    mlir::Operation *op;
    uint64_t id;
    /// 'c' tensor core, 's' TMA store, 'l' tcgen05.ld before wait_ld, 'w'
    /// a Hopper wgmma until the wait_group of its release.
    char unit;
  };
  struct Thread {
    std::string name;
    int parent = -1;
    std::vector<Frame> frames;
    llvm::DenseMap<mlir::Value, Val> env;
    unsigned liveChildren = 0;
    bool done = false;
    std::vector<Hold> holds;
    std::vector<Unfenced> smemWrites, tmemWrites;
    std::vector<AsyncRead> asyncReads;
    /// Times by which everything this thread issued to a unit has
    /// completed (a tcgen05.commit, cp.async arrive or bulk wait waits for
    /// that much).
    uint64_t tcDone = 0, cpDone = 0, storeDone = 0;
    /// The tensor-core ops PTX orders a later MMA of this thread behind
    /// (docs/protocol-check.md): the latest completion of its tcgen05.cp
    /// copies, and of its MMAs per accumulator buffer.
    uint64_t tcCopyDone = 0;
    llvm::DenseMap<unsigned, uint64_t> tcAccDone;
    std::vector<unsigned> mutexes;
    /// Pipe iterations this thread released, to name a late read.
    std::set<std::pair<int, int64_t>> released;
  };
  enum class Step { Advance, Blocked, Moved, Failed };

  // Scheduling and control flow (Interpreter.cpp).
  bool isBlocked(unsigned t);
  void describeBlocked(unsigned t, std::string &out);
  Step step(unsigned t);
  Step stepControl(unsigned t, mlir::Operation *op, bool &handled);
  Step enterLoop(unsigned t, mlir::Operation *op);
  Step enterBranch(unsigned t, mlir::Operation *op);
  Step yieldFrame(unsigned t, mlir::Operation *op);
  Step spawnAgent(unsigned t, mlir::Operation *op);
  Step stepArith(unsigned t, mlir::Operation *op, bool &handled);
  /// Binds integer constants, block ids, grid sizes and poison; false for
  /// any other op.
  bool bindIntegerSource(unsigned t, mlir::Operation *op);
  void finishThread(unsigned t);
  const Val *lookup(unsigned t, mlir::Value v) const;
  Val get(unsigned t, mlir::Value v);
  int64_t getInt(unsigned t, mlir::Value v);
  void bind(unsigned t, mlir::Value v, Val val) { threads[t].env[v] = val; }
  void fail(unsigned t, mlir::Operation *op, llvm::StringRef kind,
            const std::string &message);
  uint64_t delay() { return config.sequential ? 0 : rng.below(config.maxLatency + 1); }
  void schedule(uint64_t at, mlir::Operation *op, bool writesData,
                std::function<void()> fire);
  uint64_t opaqueTerm(unsigned t, mlir::Operation *op);
  uint64_t attrHash(mlir::Operation *op);

  // Pipes, fences, mutexes and tile ops (PipeOps.cpp).
  Step stepTileAS(unsigned t, mlir::Operation *op, bool &handled);
  Step pipeCreate(unsigned t, mlir::Operation *op);
  bool takeSlots(unsigned t, mlir::Operation *op, Pipe &p, mlir::Type payload);
  Step acquireOrWait(unsigned t, mlir::Operation *op, bool wait);
  /// Reads a handshake's pipe (operand 0) and iteration (operand 1); a
  /// poison, undefined or negative iteration is a finding.
  bool pipeAndIter(unsigned t, mlir::Operation *op, int &p, int64_t &k);
  bool slotReady(unsigned t, mlir::Operation *op, bool wait);
  /// The acquire of iteration `k` of alias pipe `p`: takes over thread
  /// `t`'s wait hold on the root's slot of `k` (false, and a finding,
  /// without one).
  bool handOn(unsigned t, mlir::Operation *op, int p, int64_t k);
  /// The pipe that owns `p`'s slots: `p` unless it aliases another.
  int rootPipe(int p) const;
  Step commit(unsigned t, mlir::Operation *op);
  Step release(unsigned t, mlir::Operation *op);
  Step fence(unsigned t, mlir::Operation *op);
  Step mutexOp(unsigned t, mlir::Operation *op, bool lock);
  bool lockReady(unsigned t, mlir::Operation *op);
  Step computeOp(unsigned t, mlir::Operation *op);
  /// What a tile op writes, the `into` destination (never read) or a UMMA's
  /// handle accumulator, and which of its operands it reads.
  struct TileAccess {
    mlir::Value dst;
    Val dstVal;
    std::vector<unsigned> reads;
  };
  /// A buffer a tensor-core op reads at completion, with the version it
  /// must still have then.
  struct ReadSnapshot {
    Val v;
    uint64_t version = 0;
  };
  std::optional<TileAccess> tileAccess(unsigned t, mlir::Operation *op);
  Step issueTensorCore(unsigned t, mlir::Operation *op,
                       const TileAccess &access);
  std::optional<std::vector<ReadSnapshot>>
  snapshotTensorCoreReads(unsigned t, mlir::Operation *op, uint64_t id,
                          const std::vector<unsigned> &reads);
  uint64_t tensorCoreCompletion(unsigned t, mlir::Operation *op,
                                const Val &dst);
  void completeTensorCore(unsigned t, mlir::Operation *op, uint64_t id,
                          const std::vector<ReadSnapshot> &snaps,
                          const Val &dst);
  std::optional<std::vector<uint64_t>>
  readNow(unsigned t, mlir::Operation *op, const std::vector<unsigned> &reads);
  uint64_t computeTerm(unsigned t, mlir::Operation *op,
                       const std::vector<uint64_t> &args);
  Step issueCopyIn(unsigned t, mlir::Operation *op, const Val &dst,
                   uint64_t term);
  Step storeNow(unsigned t, mlir::Operation *op, const Val &dst, uint64_t term);
  void issueTmaStore(unsigned t, mlir::Operation *op);
  void trackWgmmaReads(unsigned t, mlir::Operation *op,
                       const std::vector<unsigned> &reads);
  void trackTmemLoad(unsigned t, mlir::Operation *op, mlir::Value source);
  /// Ends the async reads of op `id` of thread `t`.
  /// Thread t's op reads `buffer` asynchronously (unit as in AsyncRead)
  /// until retired.
  void startAsyncRead(unsigned t, mlir::Operation *op, unsigned buffer,
                      uint64_t id, char unit);
  void retireAsyncReads(unsigned t, uint64_t id);
  void retireAsyncReads(unsigned t,
                        llvm::function_ref<bool(const AsyncRead &)> which);
  /// Arrives on `bar` of pipe `p` once `after` has passed, the way `via`
  /// says; `tx` bytes for expect_tx.
  void signal(unsigned t, mlir::Operation *op, int p, unsigned slot,
              bool full, llvm::StringRef via);
  /// Checks a read of `v` by `op` in thread `t` and returns its content
  /// term; `atCompletion` for the second check of an async reader.
  enum class ReadAt { Sync, TcIssue, TcCompletion };
  std::optional<uint64_t> readOperand(unsigned t, mlir::Operation *op,
                                      const Val &v, ReadAt when);
  /// Checks and performs a write of `term` into handle `dst`; `tcId` is the
  /// async id of a tensor-core op landing its write (0 for any other).
  bool writeBuffer(unsigned t, mlir::Operation *op, const Val &dst,
                   uint64_t term, uint64_t tcId = 0);
  /// Whether PTX orders tensor-core op `op` of thread `t` behind that
  /// thread's pending tensor-core writes of buffer `buffer`.
  bool orderedBehindOwnWrites(unsigned t, mlir::Operation *op, unsigned buffer);
  bool checkWriteAllowed(unsigned t, mlir::Operation *op, const Val &dst);
  bool checkSlotHeld(unsigned t, mlir::Operation *op, const Val &v,
                     const std::string &what, Hold *&held);
  Hold *findHold(unsigned t, int pipe, int64_t iter, bool wait);
  std::string slotName(int pipe, int64_t iter) const;
  uint64_t uninitialized(mlir::Type type);
  void endChecks();

  mlir::FunctionOpInterface func;
  RunConfig config;
  Random rng;
  RunResult result;
  std::vector<Thread> threads;
  std::vector<Buffer> buffers;
  std::vector<Pipe> pipes;
  std::vector<Mutex> mutexes;
  EventQueue events;
  uint64_t now = 0;
  uint64_t nextAsyncId = 1; // 0: no async op (writeBuffer's tcId)
  llvm::DenseMap<mlir::Operation *, uint64_t> attrHashes;
};

} // namespace tilepipe::exec

#endif // TILEPIPE_MATERIALIZE_EXEC_INTERPRETER_H
