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
        "  --time-limit-ms=N    per-loop wall-clock safety net of the II "
        "search\n"
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

/// Parses the command line; returns an exit status when it is done already
/// (help, or a usage error).
std::optional<int> parseOptions(int argc, char **argv, Options &options) {
  std::optional<std::string> input;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    // "--name=value" or "--name value".
    auto value = [&](StringRef name,
                     std::optional<StringRef> &out) -> std::optional<int> {
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
    };
    std::optional<StringRef> v;
    if (arg == "--help" || arg == "-h") {
      printScheduleUsage(llvm::outs());
      return ExitOk;
    }
    if (arg == "--stage-ms") {
      options.stageTiming = true;
      continue;
    }
    if (arg == "--no-timings") {
      options.timings = false;
      continue;
    }
    if (arg == "--emit-schedule") {
      options.emitSchedule = true;
      continue;
    }
    if (std::optional<int> exit = value("--report", v))
      return exit;
    if (v) {
      if (v->empty())
        return usageError("--report needs a file name");
      options.report = v->str();
      continue;
    }
    if (arg == "--prove-optimal") {
      options.proveOptimal = true;
      continue;
    }
    if (std::optional<int> exit = value("--resources", v))
      return exit;
    if (v) {
      options.resources = v->str();
      continue;
    }
    if (std::optional<int> exit = value("--generator", v))
      return exit;
    if (v) {
      sched::GeneratorRequest &request = options.driver.selection.request;
      if (*v == "cost-based")
        request = sched::GeneratorRequest::CostBased;
      else if (*v == "serial")
        request = sched::GeneratorRequest::Serial;
      else if (*v == "auto")
        request = sched::GeneratorRequest::Auto;
      else
        return usageError("unknown generator '" + *v +
                          "' (expected cost-based, serial or auto)");
      continue;
    }
    if (std::optional<int> exit = value("--selection", v))
      return exit;
    if (v) {
      sched::SelectionRule &rule = options.driver.selection.rule;
      if (*v == "bound")
        rule = sched::SelectionRule::Bound;
      else if (*v == "threshold")
        rule = sched::SelectionRule::Threshold;
      else
        return usageError("unknown selection rule '" + *v +
                          "' (expected bound or threshold)");
      continue;
    }
    if (std::optional<int> exit = value("--search", v))
      return exit;
    if (v) {
      if (*v == "linear")
        options.driver.modulo.search = sched::IISearch::Linear;
      else if (*v == "gallop")
        options.driver.modulo.search = sched::IISearch::Gallop;
      else if (*v == "stride")
        options.driver.modulo.search = sched::IISearch::Stride;
      else
        return usageError("unknown search '" + *v +
                          "' (expected stride, linear or gallop)");
      continue;
    }
    if (std::optional<int> exit = value("--stages", v))
      return exit;
    if (v) {
      if (*v == "late")
        options.driver.stages = sched::StagePolicy::Late;
      else if (*v == "asap")
        options.driver.stages = sched::StagePolicy::Asap;
      else if (*v == "min-cut")
        options.driver.stages = sched::StagePolicy::MinCut;
      else if (*v == "min-buffer")
        options.driver.stages = sched::StagePolicy::MinBuffer;
      else
        return usageError("unknown stages '" + *v +
                          "' (expected late, asap, min-cut or min-buffer)");
      continue;
    }
    if (std::optional<int> exit = value("--ii-cap", v))
      return exit;
    if (v) {
      unsigned cap = 0;
      if (v->getAsInteger(10, cap))
        return usageError("--ii-cap needs a non-negative integer, got '" + *v +
                          "'");
      options.driver.modulo.iiCap = cap;
      continue;
    }
    // Non-negative integer options that fill a uint64_t.
    bool matched = false;
    for (auto [name, field] :
         {std::pair<StringRef, uint64_t *>{"--max-attempts",
                                           &options.driver.modulo.maxAttempts},
          {"--time-limit-ms", &options.driver.modulo.timeLimitMs},
          {"--work-limit", &options.driver.modulo.workLimit},
          {"--exact-work", &options.exact.work},
          {"--prove-work", &options.driver.proveWork},
          {"--prove-timeout-ms", &options.driver.proveTimeLimitMs}}) {
      if (std::optional<int> exit = value(name, v))
        return exit;
      if (!v)
        continue;
      if (v->getAsInteger(10, *field))
        return usageError(name + " needs a non-negative integer, got '" + *v +
                          "'");
      matched = true;
      break;
    }
    if (matched)
      continue;
    if (std::optional<int> exit = value("--exact-timeout-ms", v))
      return exit;
    if (v) {
      if (v->getAsInteger(10, options.exact.timeoutMs))
        return usageError("--exact-timeout-ms needs a non-negative integer, "
                          "got '" +
                          *v + "'");
      continue;
    }
    if (std::optional<int> exit = value("--seed-budget-ms", v))
      return exit;
    if (v) {
      if (v->getAsInteger(10, options.seedBudgetMs))
        return usageError(
            "--seed-budget-ms needs a non-negative integer, got '" + *v + "'");
      continue;
    }
    if (std::optional<int> exit = value("--seed", v))
      return exit;
    if (v) {
      if (*v != "none" && *v != "gaus")
        return usageError("--seed needs none or gaus, got '" + *v + "'");
      options.seed = v->str();
      continue;
    }
    if (std::optional<int> exit = value("--exact-solver", v))
      return exit;
    if (v) {
      if (*v == "z3")
        options.exact.solver = sched::exact::Solver::Z3;
      else if (*v == "sat")
        options.exact.solver = sched::exact::Solver::Sat;
      else if (*v == "portfolio")
        options.exact.solver = sched::exact::Solver::Portfolio;
      else
        return usageError("--exact-solver needs z3, sat or portfolio, got '" +
                          *v + "'");
      continue;
    }
    if (std::optional<int> exit = value("--exact-max-ops", v))
      return exit;
    if (v) {
      if (v->getAsInteger(10, options.exact.maxOps))
        return usageError(
            "--exact-max-ops needs a non-negative integer, got '" + *v + "'");
      continue;
    }
    if (std::optional<int> exit = value("--arms", v))
      return exit;
    if (v) {
      std::optional<unsigned> mask = parseArms(*v);
      if (!mask)
        return usageError("--arms needs a comma-separated list of permute, "
                          "fuse, retry and cost, got '" +
                          *v + "'");
      options.driver.modulo.arms = *mask;
      continue;
    }
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

} // namespace

int tilepipe::tool::runScheduleCommand(int argc, char **argv) {
  Options options;
  options.driver.selection.request = sched::GeneratorRequest::CostBased;
  if (std::optional<int> exit = parseOptions(argc, argv, options))
    return *exit;

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
  const sched::Problem &problem = file->problem;

  // The bounds are reported even when scheduling fails, but only for a
  // problem that passed check(): the bound computations assume one.
  std::optional<rrt::Bounds> bounds; // Filled by runScheduler.
  sched::DiagnosticList diags;
  std::optional<sched::ScheduleAnalysis> analysis;
  sched::DriverStats stats;
  gaus::GausSeeder seeder;
  seeder.budgetMs = options.seedBudgetMs;
  double ms = 0;
  {
    auto start = std::chrono::steady_clock::now();
    // The oracle speaks when the heuristic fails (proven or not) and, with
    // --prove-optimal, about every II in [MII, II): the driver adopts a
    // schedule it finds below the heuristic's II. "ms" leaves the proof out.
    sched::exact::ExactOracle oracle(options.exact);
    options.driver.modulo.oracle = &oracle;
    options.driver.proveOptimal = options.proveOptimal;
    if (options.seed == "gaus")
      options.driver.modulo.seeder = &seeder;
    analysis =
        sched::runScheduler(problem, options.driver, diags, &bounds, &stats);
    options.driver.modulo.oracle = nullptr;
    auto end = std::chrono::steady_clock::now();
    // A proof the user asked for is not scheduling; the exact check's pass
    // that rescues a result far above the bound is.
    ms = std::chrono::duration<double, std::milli>(end - start).count() -
         (stats.rescued ? 0.0 : stats.proveMs);
  }

  // II == MII is optimal by the bound; otherwise --prove-optimal has the
  // driver ask the exact check about every II in [MII, II).
  std::optional<bool> optimal;
  if (analysis)
    optimal = analysis->optimal;

  for (const sched::Diagnostic &diag : diags.all())
    printDiagnostic(options.input, problem, diag, diag.severity);

  auto finite = [](unsigned v) -> std::optional<int64_t> {
    if (v == UINT_MAX)
      return std::nullopt;
    return int64_t(v);
  };
  std::optional<int64_t> mii, resMII, recMII;
  if (bounds) {
    mii = finite(bounds->mii);
    if (!bounds->resourceInfeasible)
      resMII = finite(std::max(bounds->resMII, bounds->fineMII));
    if (!bounds->recurrenceInfeasible)
      recMII = finite(bounds->recMII);
  }
  sched::GeneratorSelection selection =
      analysis ? sched::GeneratorSelection{analysis->generator,
                                           analysis->selectionReason}
               : sched::selectGenerator(problem, options.driver.selection,
                                        bounds ? &*bounds : nullptr);
  sched::GeneratorKind generator = selection.kind;
  // The unit that binds the II (docs/generators.md): the busiest resource,
  // or the recurrence when it asks for more.
  std::vector<sched::UnitDemand> units = sched::rankUnits(problem);
  std::optional<std::string> binding;
  std::optional<int64_t> bindingCycles;
  if (bounds && !bounds->recurrenceInfeasible &&
      (units.empty() || bounds->recMII > units.front().cycles)) {
    if (bounds->recMII > 1 || units.empty()) {
      binding = "recurrence";
      bindingCycles = bounds->recMII;
    }
  } else if (!units.empty()) {
    binding = units.front().resource;
    bindingCycles = int64_t(units.front().cycles);
  }

  if (options.report && analysis)
    if (llvm::Error err = report::writeScheduleSVGFile(*options.report, problem,
                                                       *analysis, file->name)) {
      llvm::errs() << *options.report
                   << ": error: " << llvm::toString(std::move(err)) << "\n";
      return ExitFailure;
    }

  llvm::json::OStream json(llvm::outs());
  json.object([&] {
    json.attribute("name", file->name);
    json.attribute("ops", int64_t(problem.getNumOps()));
    json.attribute("edges", int64_t(problem.getDependences().size()));
    optionalNumber(json, "ii",
                   analysis ? std::optional<int64_t>(analysis->ii)
                            : std::nullopt);
    optionalNumber(json, "mii", mii);
    optionalNumber(json, "res_mii", resMII);
    optionalNumber(json, "rec_mii", recMII);
    optionalNumber(json, "stages",
                   analysis ? std::optional<int64_t>(analysis->numStages)
                            : std::nullopt);
    json.attribute("verified", analysis.has_value());
    if (analysis) {
      // What the stages buffer (scheduler/stages/BufferCost.h).
      sched::BufferedBytes bytes =
          sched::bufferedBytes(problem, analysis->toSchedule());
      json.attributeObject("buffered_bytes", [&] {
        json.attribute("smem", bytes.smem);
        json.attribute("tmem", bytes.tmem);
        json.attribute("registers", bytes.registers);
      });
    } else {
      json.attribute("buffered_bytes", nullptr);
    }
    json.attribute("generator", sched::stringifyGenerator(generator));
    if (options.timings) {
      json.attributeBegin("ms");
      json.rawValue(llvm::formatv("{0:F3}", ms).str());
      json.attributeEnd();
    }
    if (options.stageTiming && options.timings) {
      json.attributeBegin("stage_ms");
      json.rawValue(llvm::formatv("{0:F3}", stats.stageMs).str());
      json.attributeEnd();
    }
    // What --prove-optimal could not decide, and which limit stopped it.
    if (options.proveOptimal) {
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
    if (optimal)
      json.attribute("optimal", *optimal);
    else
      json.attribute("optimal", nullptr);
    if (binding)
      json.attribute("binding", *binding);
    else
      json.attribute("binding", nullptr);
    optionalNumber(json, "binding_cycles", bindingCycles);
    json.attribute("reason", selection.reason);
    if (options.seed) {
      json.attribute("seed", *options.seed);
      optionalNumber(json, "unseeded_ii",
                     stats.search.unseededII
                         ? std::optional<int64_t>(*stats.search.unseededII)
                         : std::nullopt);
      json.attribute("seed_lowered", stats.search.seedLowered);
      json.attribute("seed_preferred", stats.search.seedPreferred);
      json.attribute("seed_exhausted", seeder.exhausted);
      if (options.timings) {
        json.attributeBegin("seed_ms");
        json.rawValue(llvm::formatv("{0:F3}", seeder.seconds * 1000).str());
        json.attributeEnd();
      }
      // Formulation C's objective of the result: the peak of live values
      // over the modulo slots, every iteration in flight counted.
      std::optional<int64_t> maxLive;
      if (analysis) {
        std::vector<int64_t> starts;
        for (const sched::ScheduleSlot &slot : analysis->slots)
          starts.push_back(slot.cycle);
        if (std::optional<double> peak =
                gaus::liveValuePeak(problem, analysis->ii, starts))
          maxLive = int64_t(*peak + 0.5);
      }
      optionalNumber(json, "max_live", maxLive);
    }
    if (options.emitSchedule && analysis)
      json.attributeObject("schedule", [&] {
        for (sched::OpId id = 0, e = problem.getNumOps(); id < e; ++id)
          json.attribute(problem.getOp(id).name, analysis->slots[id].cycle);
      });
  });
  llvm::outs() << "\n";
  return analysis ? ExitOk : ExitFailure;
}
