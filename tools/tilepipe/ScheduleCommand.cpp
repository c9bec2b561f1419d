//===- ScheduleCommand.cpp - `tilepipe schedule` --------------------------===//
//
//   tilepipe schedule PROBLEM.json [options]
//   tilepipe schedule GRAPH.graphml --resources RM.xml [options]
//
// Reads a generic scheduling problem (the JSON format or a HatScheT
// instance, docs/problem-format.md), runs the shared Driver on it and prints
// one JSON object: the bounds, the II found and whether it verified.
//
// The default generator is cost-based, not `auto`, so the command always
// measures the cost-based generator; `--generator=auto` applies the selection
// rule (`--selection=bound`, the default, or seed 002's `threshold`, which
// would always pick the serial schedule here: a generic problem carries no
// TMA, MMA or async flags).
//
// Exit status: 0 with a verified schedule, 1 when a file cannot be read or
// no schedule was found (diagnostics on stderr as "file: error: message"),
// 2 for a bad command line.
//
//===----------------------------------------------------------------------===//

#include "report/ScheduleSVG.h"
#include "scheduler/Driver.h"
#include "scheduler/exact/ExactOracle.h"
#include "scheduler/gaus/Seeding.h"
#include "scheduler/io/HatScheT.h"
#include "scheduler/io/ProblemJSON.h"
#include "scheduler/stages/BufferCost.h"
#include "tools/tilepipe/Subcommands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <optional>
#include <string>

using namespace tilepipe;
using namespace tilepipe::tool;
using llvm::StringRef;

namespace tilepipe::tool {
int runScheduleCommand(int argc, char **argv);
} // namespace tilepipe::tool

namespace {

void printScheduleUsage(llvm::raw_ostream &os) {
  os << "usage: tilepipe schedule PROBLEM.json [options]\n"
        "       tilepipe schedule GRAPH.graphml --resources RM.xml "
        "[options]\n\n"
        "  --resources FILE     the HatScheT resource model of a .graphml "
        "instance\n"
        "  --generator=KIND     cost-based (default), serial or auto\n"
        "  --selection=RULE     the rule auto applies: bound (default) or "
        "threshold\n"
        "  --search=KIND        candidate-II search: stride (default), linear "
        "or\n"
        "                       gallop\n"
        "  --ii-cap=N           largest II tried (default 0: the serial "
        "length;\n"
        "                       a larger cap is lowered to it, where the "
        "serial\n"
        "                       schedule is the fallback)\n"
        "  --max-attempts=N     per-loop budget of placement attempts "
        "(default 0:\n"
        "                       none); when it runs out the best schedule so "
        "far\n"
        "                       is printed with a warning\n"
        "  --work-limit=N       per-loop placement work budget of the II "
        "search\n"
        "                       (deterministic; default 2000000, 0: none)\n"
        "  --time-limit-ms=N    per-loop safety net of the II search in CPU "
        "time\n"
        "                       (default 10000, 0: none; a warning says when "
        "it fires)\n"
        "  --stages=POLICY      late (default): sink ops to the latest stage "
        "their\n"
        "                       consumers allow; asap: as seated; min-cut: "
        "XLS's\n"
        "                       min-cuts; min-buffer: fewest buffered bytes "
        "(exact)\n"
        "  --arms=LIST          placement arms, a comma-separated subset of\n"
        "                       permute,fuse,retry,cost (default: all)\n"
        "  --emit-schedule      add each op's start cycle as \"schedule\"\n"
        "  --stage-ms           add the stage policy's time as \"stage_ms\"\n"
        "  --no-timings         leave ms, stage_ms and seed_ms out of the JSON "
        "(two runs\n"
        "                       then compare equal byte for byte)\n"
        "  --report=FILE        write the schedule as an SVG picture (modulo "
        "table,\n"
        "                       one iteration, steady state)\n"
        "  --prove-optimal      certify with the exact check that no smaller "
        "II\n"
        "                       admits a schedule (\"optimal\": true, false "
        "or null)\n"
        "  --exact-work=N       exact-check work budget per II "
        "(deterministic, ~1 ms\n"
        "                       a unit; default 2000, 0: none)\n"
        "  --exact-timeout-ms=N exact-check wall-clock safety net per II "
        "(default 0: none)\n"
        "  --prove-work=N       work budget of the whole --prove-optimal "
        "pass (default\n"
        "                       20000, 0: none)\n"
        "  --prove-timeout-ms=N wall-clock safety net of the --prove-optimal "
        "pass\n"
        "                       (default 0: none)\n"
        "  --exact-max-ops=N    larger problems (counted after the exact "
        "check's\n"
        "                       projection) are not checked exactly "
        "(default 400)\n"
        "  --seed=KIND          none or gaus: a GauS run per candidate II "
        "seeds the\n"
        "                       generator where the unseeded search ends "
        "above\n"
        "                       the bound (adds unseeded_ii, seed_lowered, "
        "seed_ms\n"
        "                       and max_live to the output)\n"
        "  --seed-budget-ms=N   wall-clock budget of all GauS seeds (default "
        "2000;\n"
        "                       0: none; seed_exhausted says it ran out)\n"
        "  --exact-solver=S     z3, sat (CaDiCaL) or portfolio (z3, then sat;"
        " the default)\n\n"
        "Prints one JSON object: name, ops, edges, ii, mii, res_mii, "
        "rec_mii,\n"
        "stages, verified, generator, ms, optimal (with --prove-optimal also\n"
        "undecided, the IIs it could not decide as [first, last] ranges, and\n"
        "undecided_why, the limits that stopped it), binding, binding_cycles,\n"
        "reason. Exit 0 with a verified\n"
        "schedule, 1 when a file is bad or scheduling fails, 2 for usage "
        "errors.\n";
}

int usageError(const llvm::Twine &message) {
  llvm::errs() << "tilepipe schedule: " << message << "\n";
  printScheduleUsage(llvm::errs());
  return ExitUsage;
}

struct Options {
  std::string input;
  std::optional<std::string> resources;
  sched::DriverOptions driver;
  bool emitSchedule = false;
  bool stageTiming = false; ///< --stage-ms: add "stage_ms" after "ms".
  /// --no-timings: no "ms", "stage_ms" or "seed_ms", so that two runs
  /// compare equal as files.
  bool timings = true;
  std::optional<std::string> report; ///< --report=FILE.svg

  bool proveOptimal = false;
  sched::exact::ExactOptions exact{2000, 400};
  std::optional<std::string> seed; ///< --seed=none|gaus
  uint64_t seedBudgetMs = 2000;
};

std::optional<unsigned> parseArms(StringRef list) {
  if (list.empty())
    return std::nullopt;
  llvm::SmallVector<StringRef> names;
  list.split(names, ',');
  unsigned mask = 0;
  for (StringRef name : names) {
    if (name == "permute")
      mask |= sched::ArmPermute;
    else if (name == "fuse")
      mask |= sched::ArmFuse;
    else if (name == "retry")
      mask |= sched::ArmRetry;
    else if (name == "cost")
      mask |= sched::ArmCostBased;
    else
      return std::nullopt;
  }
  return mask;
}

/// The command line, one argument at a time. `value` reads an option's
/// value, written "--name=value" or "--name value".
class ArgReader {
public:
  ArgReader(int argc, char **argv) : argc(argc), argv(argv) {}

  bool next() {
    if (++i >= argc)
      return false;
    arg = argv[i];
    return true;
  }
  StringRef current() const { return arg; }

  /// Sets `out` when the argument is option `name`; an exit status when
  /// its value is missing.
  std::optional<int> value(StringRef name, std::optional<StringRef> &out) {
    out.reset();
    if (arg == name) {
      if (i + 1 == argc)
        return usageError(name + " needs a value");
      out = StringRef(argv[++i]);
      return std::nullopt;
    }
    StringRef rest = arg;
    if (rest.consume_front(name) && rest.consume_front("="))
      out = rest;
    return std::nullopt;
  }

private:
  int argc;
  char **argv;
  int i = 0;
  StringRef arg;
};

/// What an option reader made of the current argument: not its option,
/// taken, or an exit status (a usage error).
struct Taken {
  bool matched = false;
  std::optional<int> exit;
};
constexpr Taken kNotMine{false, std::nullopt};
constexpr Taken kTaken{true, std::nullopt};
Taken usage(const llvm::Twine &message) { return {true, usageError(message)}; }

/// Reads option `name`'s value with `apply` when the argument is that
/// option.
template <typename Apply>
Taken option(ArgReader &args, StringRef name, Apply apply) {
  std::optional<StringRef> v;
  if (std::optional<int> exit = args.value(name, v))
    return {true, exit};
  if (!v)
    return kNotMine;
  return apply(*v);
}

/// The options without a value.
Taken readFlag(StringRef arg, Options &options) {
  bool Options::*flag = arg == "--stage-ms"        ? &Options::stageTiming
                        : arg == "--emit-schedule" ? &Options::emitSchedule
                        : arg == "--prove-optimal" ? &Options::proveOptimal
                                                   : nullptr;
  if (flag) {
    options.*flag = true;
    return kTaken;
  }
  if (arg == "--no-timings") {
    options.timings = false;
    return kTaken;
  }
  return kNotMine;
}

/// --report and --resources.
Taken readFileOption(ArgReader &args, Options &options) {
  Taken t = option(args, "--report", [&](StringRef v) {
    if (v.empty())
      return usage("--report needs a file name");
    options.report = v.str();
    return kTaken;
  });
  if (t.matched)
    return t;
  return option(args, "--resources", [&](StringRef v) {
    options.resources = v.str();
    return kTaken;
  });
}

/// The scheduler driver's choices: generator, selection rule, II search
/// and stage policy.
Taken readDriverChoice(ArgReader &args, sched::DriverOptions &driver) {
  Taken t = option(args, "--generator", [&](StringRef v) {
    sched::GeneratorRequest &request = driver.selection.request;
    if (v == "cost-based")
      request = sched::GeneratorRequest::CostBased;
    else if (v == "serial")
      request = sched::GeneratorRequest::Serial;
    else if (v == "auto")
      request = sched::GeneratorRequest::Auto;
    else
      return usage("unknown generator '" + v +
                   "' (expected cost-based, serial or auto)");
    return kTaken;
  });
  if (t.matched)
    return t;
  t = option(args, "--selection", [&](StringRef v) {
    if (v == "bound")
      driver.selection.rule = sched::SelectionRule::Bound;
    else if (v == "threshold")
      driver.selection.rule = sched::SelectionRule::Threshold;
    else
      return usage("unknown selection rule '" + v +
                   "' (expected bound or threshold)");
    return kTaken;
  });
  if (t.matched)
    return t;
  t = option(args, "--search", [&](StringRef v) {
    if (v == "linear")
      driver.modulo.search = sched::IISearch::Linear;
    else if (v == "gallop")
      driver.modulo.search = sched::IISearch::Gallop;
    else if (v == "stride")
      driver.modulo.search = sched::IISearch::Stride;
    else
      return usage("unknown search '" + v +
                   "' (expected stride, linear or gallop)");
    return kTaken;
  });
  if (t.matched)
    return t;
  return option(args, "--stages", [&](StringRef v) {
    if (v == "late")
      driver.stages = sched::StagePolicy::Late;
    else if (v == "asap")
      driver.stages = sched::StagePolicy::Asap;
    else if (v == "min-cut")
      driver.stages = sched::StagePolicy::MinCut;
    else if (v == "min-buffer")
      driver.stages = sched::StagePolicy::MinBuffer;
    else
      return usage("unknown stages '" + v +
                   "' (expected late, asap, min-cut or min-buffer)");
    return kTaken;
  });
}

/// The non-negative integer options: limits, budgets and the II cap.
Taken readNumber(ArgReader &args, Options &options) {
  auto into = [](StringRef name, auto &field) {
    return [name, &field](StringRef v) {
      if (v.getAsInteger(10, field))
        return usage(name + " needs a non-negative integer, got '" + v + "'");
      return kTaken;
    };
  };
  unsigned cap = 0;
  Taken t = option(args, "--ii-cap", into("--ii-cap", cap));
  if (t.matched) {
    if (!t.exit)
      options.driver.modulo.iiCap = cap;
    return t;
  }
  sched::ModuloOptions &modulo = options.driver.modulo;
  for (auto [name, field] :
       {std::pair<StringRef, uint64_t *>{"--max-attempts", &modulo.maxAttempts},
        {"--time-limit-ms", &modulo.timeLimitMs},
        {"--work-limit", &modulo.workLimit},
        {"--exact-work", &options.exact.work},
        {"--prove-work", &options.driver.proveWork},
        {"--prove-timeout-ms", &options.driver.proveTimeLimitMs}}) {
    t = option(args, name, into(name, *field));
    if (t.matched)
      return t;
  }
  t = option(args, "--exact-timeout-ms",
             into("--exact-timeout-ms", options.exact.timeoutMs));
  if (t.matched)
    return t;
  t = option(args, "--seed-budget-ms",
             into("--seed-budget-ms", options.seedBudgetMs));
  if (t.matched)
    return t;
  return option(args, "--exact-max-ops",
                into("--exact-max-ops", options.exact.maxOps));
}

/// The seed, the exact check's solver and the placement arms.
Taken readSearchChoice(ArgReader &args, Options &options) {
  Taken t = option(args, "--seed", [&](StringRef v) {
    if (v != "none" && v != "gaus")
      return usage("--seed needs none or gaus, got '" + v + "'");
    options.seed = v.str();
    return kTaken;
  });
  if (t.matched)
    return t;
  t = option(args, "--exact-solver", [&](StringRef v) {
    if (v == "z3")
      options.exact.solver = sched::exact::Solver::Z3;
    else if (v == "sat")
      options.exact.solver = sched::exact::Solver::Sat;
    else if (v == "portfolio")
      options.exact.solver = sched::exact::Solver::Portfolio;
    else
      return usage("--exact-solver needs z3, sat or portfolio, got '" + v +
                   "'");
    return kTaken;
  });
  if (t.matched)
    return t;
  return option(args, "--arms", [&](StringRef v) {
    std::optional<unsigned> mask = parseArms(v);
    if (!mask)
      return usage("--arms needs a comma-separated list of permute, fuse, "
                   "retry and cost, got '" +
                   v + "'");
    options.driver.modulo.arms = *mask;
    return kTaken;
  });
}

/// The current argument as one of the options.
Taken readOption(ArgReader &args, Options &options) {
  Taken t = readFlag(args.current(), options);
  if (!t.matched)
    t = readFileOption(args, options);
  if (!t.matched)
    t = readDriverChoice(args, options.driver);
  if (!t.matched)
    t = readSearchChoice(args, options);
  if (!t.matched)
    t = readNumber(args, options);
  return t;
}

/// Parses the command line; returns an exit status when it is done already
/// (help, or a usage error).
std::optional<int> parseOptions(int argc, char **argv, Options &options) {
  std::optional<std::string> input;
  for (ArgReader args(argc, argv); args.next();) {
    StringRef arg = args.current();
    if (arg == "--help" || arg == "-h") {
      printScheduleUsage(llvm::outs());
      return ExitOk;
    }
    Taken t = readOption(args, options);
    if (t.exit)
      return t.exit;
    if (t.matched)
      continue;
    if (arg.starts_with("-") && arg != "-")
      return usageError("unknown option '" + arg + "'");
    if (input)
      return usageError("more than one input file ('" + *input + "' and '" +
                        arg + "')");
    input = arg.str();
  }
  if (!input)
    return usageError("no input file");
  options.input = *input;
  return std::nullopt;
}

/// Prints a reader's error as "file[:line[:col]]: error: message".
void printReadError(llvm::Error err) {
  llvm::handleAllErrors(
      std::move(err),
      [](const io::ReadError &e) {
        llvm::errs() << e.location() << ": error: " << e.getMessage() << "\n";
      },
      [](const llvm::ErrorInfoBase &e) {
        llvm::errs() << "tilepipe schedule: error: " << e.message() << "\n";
      });
}

StringRef severityName(sched::Severity severity) {
  switch (severity) {
  case sched::Severity::Error:
    return "error";
  case sched::Severity::Warning:
    return "warning";
  case sched::Severity::Remark:
    return "remark";
  case sched::Severity::Note:
    return "note";
  }
  llvm_unreachable("unknown severity");
}

/// "file: error: message", naming the op when the message does not already.
void printDiagnostic(StringRef file, const sched::Problem &problem,
                     const sched::Diagnostic &diag, sched::Severity severity) {
  llvm::errs() << file << ": " << severityName(severity) << ": ";
  if (diag.op && *diag.op < problem.getNumOps()) {
    const std::string &name = problem.getOp(*diag.op).name;
    if (!StringRef(diag.message).contains("'" + name + "'"))
      llvm::errs() << "op '" << name << "': ";
  }
  llvm::errs() << diag.message << "\n";
  for (const sched::Diagnostic &note : diag.notes)
    printDiagnostic(file, problem, note, sched::Severity::Note);
}

void optionalNumber(llvm::json::OStream &json, StringRef key,
                    std::optional<int64_t> value) {
  if (value)
    json.attribute(key, *value);
  else
    json.attribute(key, nullptr);
}

/// Checks the input's kind against --resources and reads it; an exit
/// status when that fails.
std::optional<int> readInput(const Options &options,
                             std::optional<io::ProblemFile> &out) {
  StringRef ext = llvm::sys::path::extension(options.input);
  bool isGraph = ext.equals_insensitive(".graphml");
  if (!isGraph && !ext.equals_insensitive(".json"))
    return usageError("cannot tell the format of '" + options.input +
                      "': expected a .json problem or a .graphml instance");
  if (isGraph && !options.resources)
    return usageError("a .graphml instance needs --resources RM.xml");
  if (!isGraph && options.resources)
    return usageError("--resources only applies to .graphml instances");

  llvm::Expected<io::ProblemFile> file =
      isGraph ? io::readHatScheTFiles(options.input, *options.resources)
              : io::readProblemJSONFile(options.input);
  if (!file) {
    printReadError(file.takeError());
    return ExitFailure;
  }
  out = std::move(*file);
  return std::nullopt;
}

/// What one run of the driver left behind.
struct ScheduleRun {
  std::optional<rrt::Bounds> bounds; ///< Filled by runScheduler.
  sched::DiagnosticList diags;
  std::optional<sched::ScheduleAnalysis> analysis;
  sched::DriverStats stats;
  gaus::GausSeeder seeder;
  double ms = 0; ///< Scheduling time, a proof the user asked for left out.
};

void schedule(Options &options, const sched::Problem &problem,
              ScheduleRun &run) {
  run.seeder.budgetMs = options.seedBudgetMs;
  auto start = std::chrono::steady_clock::now();
  // The oracle speaks when the heuristic fails (proven or not) and, with
  // --prove-optimal, about every II in [MII, II): the driver adopts a
  // schedule it finds below the heuristic's II. "ms" leaves the proof out.
  sched::exact::ExactOracle oracle(options.exact);
  options.driver.modulo.oracle = &oracle;
  options.driver.proveOptimal = options.proveOptimal;
  if (options.seed == "gaus")
    options.driver.modulo.seeder = &run.seeder;
  run.analysis = sched::runScheduler(problem, options.driver, run.diags,
                                     &run.bounds, &run.stats);
  options.driver.modulo.oracle = nullptr;
  auto end = std::chrono::steady_clock::now();
  // A proof the user asked for is not scheduling; the exact check's pass
  // that rescues a result far above the bound is.
  run.ms = std::chrono::duration<double, std::milli>(end - start).count() -
           (run.stats.rescued ? 0.0 : run.stats.proveMs);
}

/// The bounds, the generator and the binding unit, as printed.
struct Summary {
  std::optional<int64_t> mii, resMII, recMII;
  sched::GeneratorSelection selection;
  std::optional<std::string> binding;
  std::optional<int64_t> bindingCycles;
};

Summary summarize(const Options &options, const sched::Problem &problem,
                  const ScheduleRun &run) {
  Summary s;
  auto finite = [](unsigned v) -> std::optional<int64_t> {
    if (v == UINT_MAX)
      return std::nullopt;
    return int64_t(v);
  };
  const std::optional<rrt::Bounds> &bounds = run.bounds;
  if (bounds) {
    s.mii = finite(bounds->mii);
    if (!bounds->resourceInfeasible)
      s.resMII = finite(std::max(bounds->resMII, bounds->fineMII));
    if (!bounds->recurrenceInfeasible)
      s.recMII = finite(bounds->recMII);
  }
  s.selection = run.analysis
                    ? sched::GeneratorSelection{run.analysis->generator,
                                                run.analysis->selectionReason}
                    : sched::selectGenerator(problem, options.driver.selection,
                                             bounds ? &*bounds : nullptr);
  // The unit that binds the II (docs/generators.md): the busiest resource,
  // or the recurrence when it asks for more.
  std::vector<sched::UnitDemand> units = sched::rankUnits(problem);
  if (bounds && !bounds->recurrenceInfeasible &&
      (units.empty() || bounds->recMII > units.front().cycles)) {
    if (bounds->recMII > 1 || units.empty()) {
      s.binding = "recurrence";
      s.bindingCycles = bounds->recMII;
    }
  } else if (!units.empty()) {
    s.binding = units.front().resource;
    s.bindingCycles = int64_t(units.front().cycles);
  }
  return s;
}

void rawMs(llvm::json::OStream &json, StringRef key, double ms) {
  json.attributeBegin(key);
  json.rawValue(llvm::formatv("{0:F3}", ms).str());
  json.attributeEnd();
}

/// "undecided" and "undecided_why": what --prove-optimal could not decide,
/// and which limit stopped it.
void writeUndecided(llvm::json::OStream &json,
                    const sched::DriverStats &stats) {
  json.attributeArray("undecided", [&] {
    for (auto [first, last] : stats.undecided)
      json.array([&] {
        json.value(int64_t(first));
        json.value(int64_t(last));
      });
  });
  json.attributeArray("undecided_why", [&] {
    for (const std::string &why : stats.undecidedWhy)
      json.value(why);
  });
}

/// The --seed fields: what the seeder did, and formulation C's objective
/// of the result.
void writeSeedFields(llvm::json::OStream &json, const Options &options,
                     const sched::Problem &problem, const ScheduleRun &run) {
  const sched::IISearchStats &search = run.stats.search;
  json.attribute("seed", *options.seed);
  optionalNumber(json, "unseeded_ii",
                 search.unseededII ? std::optional<int64_t>(*search.unseededII)
                                   : std::nullopt);
  json.attribute("seed_lowered", search.seedLowered);
  json.attribute("seed_preferred", search.seedPreferred);
  json.attribute("seed_exhausted", run.seeder.exhausted);
  if (options.timings)
    rawMs(json, "seed_ms", run.seeder.seconds * 1000);
  // The peak of live values over the modulo slots, every iteration in
  // flight counted.
  std::optional<int64_t> maxLive;
  if (run.analysis) {
    std::vector<int64_t> starts;
    for (const sched::ScheduleSlot &slot : run.analysis->slots)
      starts.push_back(slot.cycle);
    if (std::optional<double> peak =
            gaus::liveValuePeak(problem, run.analysis->ii, starts))
      maxLive = int64_t(*peak + 0.5);
  }
  optionalNumber(json, "max_live", maxLive);
}

/// The size, the II and its bounds, the stages and what they buffer.
void writeShape(llvm::json::OStream &json, const io::ProblemFile &file,
                const ScheduleRun &run, const Summary &s) {
  const sched::Problem &problem = file.problem;
  const std::optional<sched::ScheduleAnalysis> &analysis = run.analysis;
  json.attribute("name", file.name);
  json.attribute("ops", int64_t(problem.getNumOps()));
  json.attribute("edges", int64_t(problem.getDependences().size()));
  optionalNumber(json, "ii",
                 analysis ? std::optional<int64_t>(analysis->ii)
                          : std::nullopt);
  optionalNumber(json, "mii", s.mii);
  optionalNumber(json, "res_mii", s.resMII);
  optionalNumber(json, "rec_mii", s.recMII);
  optionalNumber(json, "stages",
                 analysis ? std::optional<int64_t>(analysis->numStages)
                          : std::nullopt);
  json.attribute("verified", analysis.has_value());
  if (!analysis) {
    json.attribute("buffered_bytes", nullptr);
    return;
  }
  // What the stages buffer (scheduler/stages/BufferCost.h).
  sched::BufferedBytes bytes =
      sched::bufferedBytes(problem, analysis->toSchedule());
  json.attributeObject("buffered_bytes", [&] {
    json.attribute("smem", bytes.smem);
    json.attribute("tmem", bytes.tmem);
    json.attribute("registers", bytes.registers);
  });
}

/// The one JSON object the command prints.
void writeResult(llvm::json::OStream &json, const Options &options,
                 const io::ProblemFile &file, const ScheduleRun &run,
                 const Summary &s) {
  const sched::Problem &problem = file.problem;
  writeShape(json, file, run, s);
  json.attribute("generator", sched::stringifyGenerator(s.selection.kind));
  if (options.timings)
    rawMs(json, "ms", run.ms);
  if (options.stageTiming && options.timings)
    rawMs(json, "stage_ms", run.stats.stageMs);
  if (options.proveOptimal)
    writeUndecided(json, run.stats);
  // II == MII is optimal by the bound; otherwise --prove-optimal has the
  // driver ask the exact check about every II in [MII, II).
  std::optional<bool> optimal;
  if (run.analysis)
    optimal = run.analysis->optimal;
  if (optimal)
    json.attribute("optimal", *optimal);
  else
    json.attribute("optimal", nullptr);
  if (s.binding)
    json.attribute("binding", *s.binding);
  else
    json.attribute("binding", nullptr);
  optionalNumber(json, "binding_cycles", s.bindingCycles);
  json.attribute("reason", s.selection.reason);
  if (options.seed)
    writeSeedFields(json, options, problem, run);
  if (options.emitSchedule && run.analysis)
    json.attributeObject("schedule", [&] {
      for (sched::OpId id = 0, e = problem.getNumOps(); id < e; ++id)
        json.attribute(problem.getOp(id).name, run.analysis->slots[id].cycle);
    });
}

} // namespace

int tilepipe::tool::runScheduleCommand(int argc, char **argv) {
  Options options;
  options.driver.selection.request = sched::GeneratorRequest::CostBased;
  if (std::optional<int> exit = parseOptions(argc, argv, options))
    return *exit;
  std::optional<io::ProblemFile> file;
  if (std::optional<int> exit = readInput(options, file))
    return *exit;
  const sched::Problem &problem = file->problem;

  // The bounds are reported even when scheduling fails, but only for a
  // problem that passed check(): the bound computations assume one.
  ScheduleRun run;
  schedule(options, problem, run);
  for (const sched::Diagnostic &diag : run.diags.all())
    printDiagnostic(options.input, problem, diag, diag.severity);
  Summary summary = summarize(options, problem, run);

  if (options.report && run.analysis)
    if (llvm::Error err = report::writeScheduleSVGFile(
            *options.report, problem, *run.analysis, file->name)) {
      llvm::errs() << *options.report
                   << ": error: " << llvm::toString(std::move(err)) << "\n";
      return ExitFailure;
    }

  llvm::json::OStream json(llvm::outs());
  json.object([&] { writeResult(json, options, *file, run, summary); });
  llvm::outs() << "\n";
  return run.analysis ? ExitOk : ExitFailure;
}
