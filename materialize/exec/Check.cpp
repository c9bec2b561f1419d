//===- Check.cpp - the checker's API: trip counts, seeds, references ------===//

#include "materialize/exec/Check.h"

#include "materialize/exec/Interpreter.h"

#include "attrs/AttrNames.h"
#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <set>

#include <chrono>
#include <iterator>

using namespace mlir;
using namespace tilepipe::exec;

std::string tilepipe::exec::explain(const Finding &finding) {
  std::string s;
  llvm::raw_string_ostream os(s);
  explain(finding, os);
  return os.str();
}

void tilepipe::exec::explain(const Finding &finding, llvm::raw_ostream &os) {
  os << finding.kind << ": " << finding.message << " (trip count "
     << finding.tripCount << ", seed " << finding.seed << ")";
}

Census tilepipe::exec::census(FunctionOpInterface func) {
  Census c;
  func->walk([&](Operation *op) {
    if (isa<tileas::AgentOp>(op))
      ++c.agents;
    else if (isa<tileas::PipeCreateOp>(op))
      ++c.pipes;
    else if (isa<tileas::MutexCreateOp>(op))
      ++c.mutexes;
  });
  return c;
}

void tilepipe::exec::emitFinding(const Finding &finding,
                                 FunctionOpInterface func) {
  InFlightDiagnostic diag = emitError(finding.loc)
                            << "protocol check failed: " << explain(finding);
  diag.attachNote(func.getLoc())
      << "while executing @" << func.getName() << " (thread '" << finding.thread
      << "', trip count " << finding.tripCount << ", seed " << finding.seed
      << ")";
}

std::vector<uint64_t>
tilepipe::exec::defaultTripCounts(FunctionOpInterface func, bool withLongRun) {
  uint64_t maxDepth = 0, stages = 0;
  func->walk([&](Operation *op) {
    if (auto pipe = dyn_cast<tileas::PipeCreateOp>(op))
      maxDepth = std::max<uint64_t>(maxDepth, pipe.getDepth());
    if (auto s = op->getAttrOfType<IntegerAttr>(tilepipe::attrs::kStages))
      stages = std::max<uint64_t>(stages, s.getInt());
  });
  maxDepth = std::max<uint64_t>(maxDepth, 1);
  uint64_t s = stages ? stages : maxDepth;
  std::set<uint64_t> counts = {0, 1, 2, s - 1, s, s + 1, 2 * maxDepth + 3};
  if (withLongRun)
    counts.insert(20);
  return std::vector<uint64_t>(counts.begin(), counts.end());
}

/// Folds `v` from constants and the argument values bound so far.
static std::optional<int64_t> evalStatic(Value v,
                                         const std::vector<int64_t> &args) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner()->isEntryBlock() &&
        isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      return args[arg.getArgNumber()];
    return std::nullopt;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto c = dyn_cast<arith::ConstantOp>(def))
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return i.getInt();
  // An integer read from memory (a sequence's length): the value bound to
  // its array, as the interpreter reads it.
  if (auto load = dyn_cast<tileas::GlobalLoadOp>(def))
    return evalStatic(load.getSrc(), args);
  // A trip count computed from a shape: cuTile's ceildiv(n, tile) on i32,
  // index_cast, clamped at zero (maxsi).
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(def))
    return evalStatic(def->getOperand(0), args);
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::CeilDivSIOp,
          arith::DivSIOp, arith::MaxSIOp, arith::MinSIOp>(def)) {
    auto a = evalStatic(def->getOperand(0), args);
    auto b = evalStatic(def->getOperand(1), args);
    if (!a || !b)
      return std::nullopt;
    // Two's complement, as the interpreter and the hardware compute.
    uint64_t ua = uint64_t(*a), ub = uint64_t(*b);
    if (isa<arith::AddIOp>(def))
      return int64_t(ua + ub);
    if (isa<arith::SubIOp>(def))
      return int64_t(ua - ub);
    if (isa<arith::MulIOp>(def))
      return int64_t(ua * ub);
    if (isa<arith::MaxSIOp>(def))
      return std::max(*a, *b);
    if (isa<arith::MinSIOp>(def))
      return std::min(*a, *b);
    if (*b <= 0)
      return std::nullopt;
    if (isa<arith::DivSIOp>(def))
      return *a >= 0 ? *a / *b : std::optional<int64_t>();
    return *a >= 0 ? (*a + *b - 1) / *b : std::optional<int64_t>();
  }
  return std::nullopt;
}

/// Integer arguments: trip-count arguments (the upper bound of an scf.for,
/// or `ub` in a `(ub - lb) / step` computation, where an i32 or i64 ub may
/// be index_cast first, or the one argument a loop's trip count folds from)
/// get the value that gives N iterations, the others a made-up value from
/// `filler`: by default 1000 + their number, so distinct arguments never
/// look equal.
/// The integer an index_cast reads, or `v` itself.
static Value castSource(Value v) {
  if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
    return cast.getIn();
  return v;
}

/// An integer argument, or an array an integer is read from (a trip count
/// read from memory is one the checker chooses through it).
static bool bindable(BlockArgument arg) {
  if (arg.getType().isIntOrIndex())
    return true;
  return llvm::any_of(arg.getUsers(), [&](Operation *user) {
    auto load = dyn_cast<tileas::GlobalLoadOp>(user);
    return load && load.getSrc() == arg && load.getType().isIntOrIndex();
  });
}

/// The made-up values of the arguments no trip count binds. Ascending
/// values first; a kernel may divide one extent by another (heads of Q over
/// heads of K in grouped-query attention) and divide again by the quotient,
/// which is 0 for an earlier argument over a later one, or for a constant
/// over an argument (8 query heads over K's extent), so the reference run
/// retries with descending values, then with every one 1.
enum class Filler { Ascending, Descending, Ones };

static int64_t madeUp(Filler filler, unsigned i) {
  switch (filler) {
  case Filler::Ascending:
    return 1000 + i;
  case Filler::Descending:
    return 2000 - int64_t(i);
  case Filler::Ones:
    return 1;
  }
  return 1000 + i;
}

static std::vector<int64_t> bindIndexArgs(FunctionOpInterface func,
                                          uint64_t tripCount,
                                          Filler filler = Filler::Ascending) {
  Block &entry = func.getFunctionBody().front();
  std::vector<int64_t> args(entry.getNumArguments());
  for (unsigned i = 0; i < args.size(); ++i)
    args[i] = madeUp(filler, i);
  std::vector<bool> bound(args.size(), false);
  auto bindArg = [&](Value ub, Value lb, Value step) {
    auto arg = dyn_cast<BlockArgument>(ub);
    if (!arg || arg.getOwner() != &entry || !arg.getType().isIntOrIndex() ||
        bound[arg.getArgNumber()])
      return;
    int64_t l = evalStatic(lb, args).value_or(0);
    int64_t s = evalStatic(step, args).value_or(1);
    args[arg.getArgNumber()] = int64_t(uint64_t(l) + tripCount * uint64_t(s));
    bound[arg.getArgNumber()] = true;
  };
  func->walk([&](scf::ForOp loop) {
    bindArg(loop.getUpperBound(), loop.getLowerBound(), loop.getStep());
  });
  // Peeled code computes N = ceildiv(ub - lb, step) instead of looping to ub.
  // The bounds of an i32 or i64 loop are index_cast to index first.
  auto bindSpan = [&](BlockArgument arg, Value ub) {
    for (Operation *user : ub.getUsers()) {
      auto sub = dyn_cast<arith::SubIOp>(user);
      if (!sub || sub.getLhs() != ub)
        continue;
      for (Operation *div : sub->getUsers())
        if (isa<arith::CeilDivUIOp, arith::CeilDivSIOp, arith::DivUIOp,
                arith::DivSIOp>(div) &&
            div->getOperand(0) == sub.getResult())
          bindArg(arg, castSource(sub.getRhs()),
                  castSource(div->getOperand(1)));
    }
  };
  for (BlockArgument arg : entry.getArguments()) {
    bindSpan(arg, arg);
    for (Operation *user : arg.getUsers())
      if (auto cast = dyn_cast<arith::IndexCastOp>(user))
        bindSpan(arg, cast.getResult());
  }
  // Any other loop whose trip count folds from one unbound argument (a
  // cuTile kernel's ceildiv of an array's extent): the least value that
  // gives N iterations. The folds are monotone in the argument. Only loops
  // from 0: stage code's steady-state loops start at S - 1.
  func->walk([&](scf::ForOp loop) {
    if (evalStatic(loop.getLowerBound(), args) != 0)
      return;
    std::optional<unsigned> only;
    bool several = false;
    for (BlockArgument arg : entry.getArguments()) {
      if (bound[arg.getArgNumber()] || !bindable(arg))
        continue;
      std::vector<int64_t> probe = args;
      probe[arg.getArgNumber()] = 7777;
      if (evalStatic(loop.getUpperBound(), probe) !=
          evalStatic(loop.getUpperBound(), args)) {
        several |= only.has_value();
        only = arg.getArgNumber();
      }
    }
    if (!only || several)
      return;
    auto trips = [&](int64_t x) -> std::optional<int64_t> {
      std::vector<int64_t> probe = args;
      probe[*only] = x;
      auto ub = evalStatic(loop.getUpperBound(), probe);
      auto lb = evalStatic(loop.getLowerBound(), probe);
      auto step = evalStatic(loop.getStep(), probe);
      if (!ub || !lb || !step || *step <= 0)
        return std::nullopt;
      return *ub <= *lb ? 0 : (*ub - *lb + *step - 1) / *step;
    };
    int64_t lo = 0, hi = int64_t(1) << 30;
    std::optional<int64_t> top = trips(hi);
    if (!top || *top < int64_t(tripCount))
      return;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      std::optional<int64_t> t = trips(mid);
      if (!t)
        return;
      if (*t >= int64_t(tripCount))
        hi = mid;
      else
        lo = mid + 1;
    }
    if (trips(lo) == int64_t(tripCount)) {
      args[*only] = lo;
      bound[*only] = true;
    }
  });
  return args;
}

References
tilepipe::exec::recordReferences(FunctionOpInterface func,
                                 llvm::ArrayRef<uint64_t> tripCounts) {
  References refs;
  for (uint64_t n : tripCounts) {
    Reference &ref = refs.byTripCount[n];
    // The arguments are made up, so a reference run that fails on one
    // choice (a division by a quotient of extents that is 0) is not the
    // kernel's fault: the first choice it runs on is the reference.
    for (Filler filler :
         {Filler::Ascending, Filler::Descending, Filler::Ones}) {
      ref.indexArgs = bindIndexArgs(func, n, filler);
      RunConfig config;
      config.tripCount = n;
      config.seed = 0;
      config.sequential = true;
      config.indexArgs = ref.indexArgs;
      RunResult run = Interpreter(func, config).run();
      if (run.finding) {
        if (!ref.failure)
          ref.failure = run.finding;
        continue;
      }
      ref.failure.reset();
      for (const Instance &i : run.instances)
        ++ref.instances[{i.name, i.term}];
      break;
    }
  }
  return refs;
}

/// The first instance the reference does not account for, else the first
/// op name with instances missing.
static std::optional<Finding> compare(FunctionOpInterface func,
                                      const RunResult &run,
                                      const Reference &ref,
                                      const RunConfig &config) {
  auto remaining = ref.instances;
  for (const Instance &i : run.instances) {
    auto it = remaining.find({i.name, i.term});
    if (it != remaining.end() && it->second > 0) {
      --it->second;
      continue;
    }
    bool known = it != remaining.end();
    std::string text = "thread '" + run.threadNames[i.thread] + "' at '" +
                       i.name + "': computes " + run.terms.render(i.term) +
                       (known ? ", more often than the sequential loop does"
                              : ", which the sequential loop never computes "
                                "(reads data of another iteration?)");
    return Finding{
        i.op->getLoc(),   "wrong-value", text, run.threadNames[i.thread],
        config.tripCount, config.seed};
  }
  std::map<std::string, std::pair<unsigned, unsigned>> missing;
  for (const auto &[key, count] : ref.instances)
    missing[key.first].second += count;
  for (const auto &[key, count] : remaining)
    missing[key.first].first += count;
  for (const auto &[name, counts] : missing) {
    if (!counts.first)
      continue;
    std::string text = "an instance of '" + name + "' never executes (" +
                       std::to_string(counts.first) + " of the " +
                       std::to_string(counts.second) +
                       " the sequential loop runs are missing)";
    return Finding{func.getLoc(), "missing-instance", text,
                   "main",        config.tripCount,   config.seed};
  }
  return std::nullopt;
}

/// A fault of the made-up arguments rather than of the code: another choice
/// of them may run.
static bool dividesByZero(const Finding &f) {
  return f.kind == "malformed" &&
         llvm::StringRef(f.message).contains("division by zero");
}

std::optional<Finding>
tilepipe::exec::checkFunction(FunctionOpInterface func,
                              const CheckOptions &options,
                              const References *refs, CheckProgress *progress) {
  std::vector<uint64_t> counts = options.tripCounts;
  if (counts.empty() && refs)
    for (const auto &entry : refs->byTripCount)
      counts.push_back(entry.first);
  if (counts.empty())
    counts = defaultTripCounts(func);
  CheckProgress local;
  CheckProgress &done = progress ? *progress : local;
  done = CheckProgress();
  done.planned = uint64_t(counts.size()) * options.seeds;
  auto start = std::chrono::steady_clock::now();
  auto outOfTime = [&] {
    if (!options.timeLimitMs)
      return false;
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - start)
                  .count();
    return uint64_t(ms) >= options.timeLimitMs;
  };
  for (uint64_t n : counts) {
    const Reference *ref = nullptr;
    if (refs) {
      auto it = refs->byTripCount.find(n);
      if (it != refs->byTripCount.end())
        ref = &it->second;
    }
    if (ref && ref->failure) {
      Finding f = *ref->failure;
      f.kind = "reference-failed";
      f.message =
          "the original loop could not be executed: " + ref->failure->kind +
          ": " + ref->failure->message;
      return f;
    }
    RunConfig config;
    config.tripCount = n;
    config.maxLatency = options.maxLatency;
    config.maxSteps = options.maxSteps;
    config.indexArgs = ref ? ref->indexArgs : bindIndexArgs(func, n);
    // Without references the arguments are chosen here, as recordReferences
    // chooses them: the first interleaving runs again on the next choice
    // while it divides by zero.
    const Filler retries[] = {Filler::Descending, Filler::Ones};
    unsigned retried = 0;
    for (unsigned s = 0; s < options.seeds; ++s) {
      if (done.runs > 0 && outOfTime()) {
        done.outOfTime = true;
        return std::nullopt;
      }
      config.seed = options.firstSeed + s;
      ++done.runs;
      RunResult run = Interpreter(func, config).run();
      if (run.finding && !ref && s == 0 && retried < std::size(retries) &&
          dividesByZero(*run.finding)) {
        config.indexArgs = bindIndexArgs(func, n, retries[retried++]);
        --done.runs;
        --s; // Wraps to run seed 0 again.
        continue;
      }
      if (run.finding)
        return run.finding;
      if (ref)
        if (std::optional<Finding> f = compare(func, run, *ref, config))
          return f;
    }
  }
  return std::nullopt;
}

void tilepipe::exec::warnOutOfTime(const CheckProgress &progress,
                                   mlir::Location loc, llvm::StringRef option,
                                   uint64_t limitMs) {
  mlir::emitWarning(loc) << "protocol check stopped at its " << limitMs
                         << " ms limit after " << progress.runs << " of "
                         << progress.planned << " runs, every one clean ("
                         << option << " raises the limit; 0 removes it)";
}
