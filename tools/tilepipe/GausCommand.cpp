//===- GausCommand.cpp - `tilepipe gaus` ----------------------------------===//
//
//   tilepipe gaus FILE --formulation=A|B|C [--methods=gaus,list,fds] ...
//
// Runs GauS and the baselines on one instance (docs/gaus.md) and prints
// one JSON object: the instance, then per method the exact objective of
// its schedule, whether it is legal, and the seconds taken. Every method
// is judged by the same evaluate(), never by the relaxation.
//
// Exit status: 0 when the instance was read and every method ran (a method
// that finds no legal schedule says so in its entry), 1 when the file is
// bad or the instance admits no schedule, 2 for a bad command line.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/Baselines.h"
#include "scheduler/gaus/Objective.h"
#include "scheduler/gaus/Optimizer.h"
#include "scheduler/gaus/Readers.h"
#include "tools/tilepipe/Subcommands.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <optional>
#include <string>

using namespace tilepipe;
using namespace tilepipe::tool;
using llvm::StringRef;

namespace {

void printGausUsage(llvm::raw_ostream &os) {
  os << "usage: tilepipe gaus FILE --formulation=A|B|C [options]\n\n"
        "FILE: an EPFL .dag, a GS-Schedule .txt or .gml, a tilepipe problem\n"
        ".json, or a HatScheT .graphml (with --resources).\n\n"
        "  --formulation=F      A: peak step weight + alpha * crossings;\n"
        "                       B: peak live bytes; C: modulo (peak live "
        "bytes\n"
        "                       folded mod II, resource and recurrence "
        "limits)\n"
        "  --methods=LIST       comma-separated subset of gaus,list,fds "
        "(default: all)\n"
        "  --depth=N            steps available (default: the longest path; "
        "C:\n"
        "                       the longest path at II plus II)\n"
        "  --ii=N               C: the II (default: the smallest the "
        "resources and\n"
        "                       recurrences allow)\n"
        "  --alpha=X            A: weight of the crossings (default 1)\n"
        "  --resources=FILE     the HatScheT resource model of a .graphml\n"
        "  --recurrences=X      C on a DAG: back edges per 100 nodes "
        "(default 1)\n"
        "  --augment-seed=N     C on a DAG: their seed (default 1)\n"
        "  --target-res-mii=N   C on a DAG: the ResMII the capacity aims at "
        "(default 64)\n"
        "  --outer=N            GauS outer (multiplier) iterations (default "
        "30)\n"
        "  --patience=N         stop after N outer iterations without a "
        "better\n"
        "                       legal schedule (default 12; 0: never)\n"
        "  --inner=N            Adam steps per outer iteration (default 40)\n"
        "  --rho=X, --rho-max=X the augmented Lagrangian's penalty: start "
        "and cap\n"
        "                       (default 10 and 1e6)\n"
        "  --sigma-decay=X      per outer iteration, sigma's cap shrinks by "
        "X\n"
        "                       (default 0.8; 1: no decay)\n"
        "  --samples=N          schedules drawn from the distributions per "
        "outer\n"
        "                       iteration (default 4)\n"
        "  --tau=X              LSE temperature relative to the mean usage "
        "(default\n"
        "                       0.05)\n"
        "  --lr=X               Adam step size of the means, in steps "
        "(default 0.2)\n"
        "  --lr-frame-scale=X   the means' step grows to lr * X * sqrt(frame "
        "width)\n"
        "                       where that is larger (default 0.5; 0: "
        "off)\n"
        "  --init=KIND          GauS means from frames ((ASAP+ALAP)/2, the\n"
        "                       default) or list (the list schedule)\n"
        "  --printed-deps       the paper's printed violation terms "
        "(latency 0)\n"
        "  --no-sigma-floor     no floor on sigma (ablation)\n"
        "  --no-reseed          never restart from the best legal schedule\n"
        "  --time-limit-ms=N    wall-clock cap per method (default 600000; "
        "0: none);\n"
        "                       a method stopped by it says \"exhausted\"\n"
        "  --threads=N          threads for the relaxation (default: all "
        "cores)\n"
        "  --emit-schedule      add each method's start steps\n\n"
        "Prints one JSON object. Exit 0 when every method ran, 1 for a bad\n"
        "file or an instance with no schedule, 2 for usage errors.\n";
}

int usageError(const llvm::Twine &message) {
  llvm::errs() << "tilepipe gaus: " << message << "\n";
  printGausUsage(llvm::errs());
  return ExitUsage;
}

struct Options {
  std::string input;
  gaus::ReadOptions read;
  gaus::GausOptions gaus;
  bool haveFormulation = false;
  bool initFromList = false;
  bool emitSchedule = false;
  uint64_t timeLimitMs = 600000;
  unsigned threads = 0;
  llvm::SmallVector<std::string, 3> methods = {"gaus", "list", "fds"};
};

template <typename T> bool parseNumber(StringRef text, T &out) {
  if constexpr (std::is_floating_point_v<T>) {
    double x;
    if (text.getAsDouble(x) || !(x >= 0) || x > 1e12)
      return false;
    out = T(x);
    return true;
  } else {
    return !text.getAsInteger(10, out);
  }
}

/// The options without a value; false when `arg` is none of them.
bool readFlag(StringRef arg, Options &options) {
  if (arg == "--printed-deps")
    options.gaus.terms.printedDeps = true;
  else if (arg == "--no-sigma-floor")
    options.gaus.sigmaFloor = false;
  else if (arg == "--no-reseed")
    options.gaus.reseedEvery = 0;
  else if (arg == "--emit-schedule")
    options.emitSchedule = true;
  else
    return false;
  return true;
}

/// The numeric options: whether `value` is good for option `name`, or none
/// when `name` is not a numeric option.
std::optional<bool> readNumberOption(StringRef name, StringRef value,
                                     Options &options) {
  if (name == "--depth") {
    return parseNumber(value, options.read.depth) && options.read.depth > 0 &&
           options.read.depth <= (int64_t(1) << 24);
  }
  if (name == "--ii") {
    return parseNumber(value, options.read.ii) && options.read.ii > 0 &&
           options.read.ii <= (1u << 24);
  }
  if (name == "--alpha") {
    return parseNumber(value, options.read.alpha);
  }
  if (name == "--recurrences") {
    return parseNumber(value, options.read.recurrencesPer100) &&
           options.read.recurrencesPer100 <= 100;
  }
  if (name == "--augment-seed") {
    return parseNumber(value, options.read.augmentSeed);
  }
  if (name == "--target-res-mii") {
    return parseNumber(value, options.read.targetResMII) &&
           options.read.targetResMII > 0 &&
           options.read.targetResMII <= (1u << 20);
  }
  if (name == "--outer") {
    return parseNumber(value, options.gaus.outerIterations) &&
           options.gaus.outerIterations <= 100000;
  }
  if (name == "--patience") {
    return parseNumber(value, options.gaus.patience);
  }
  if (name == "--inner") {
    return parseNumber(value, options.gaus.innerSteps) &&
           options.gaus.innerSteps > 0 && options.gaus.innerSteps <= 100000;
  }
  if (name == "--rho") {
    return parseNumber(value, options.gaus.rho0) && options.gaus.rho0 > 0;
  }
  if (name == "--rho-max") {
    return parseNumber(value, options.gaus.rhoMax) && options.gaus.rhoMax > 0;
  }
  if (name == "--sigma-decay") {
    return parseNumber(value, options.gaus.sigmaDecay) &&
           options.gaus.sigmaDecay > 0 && options.gaus.sigmaDecay <= 1;
  }
  if (name == "--samples") {
    return parseNumber(value, options.gaus.samples) &&
           options.gaus.samples <= 10000;
  }
  if (name == "--tau") {
    return parseNumber(value, options.gaus.terms.tauRel) &&
           options.gaus.terms.tauRel > 0;
  }
  if (name == "--lr") {
    return parseNumber(value, options.gaus.lrMu) && options.gaus.lrMu > 0;
  }
  if (name == "--lr-frame-scale") {
    return parseNumber(value, options.gaus.lrFrameScale);
  }
  if (name == "--time-limit-ms") {
    return parseNumber(value, options.timeLimitMs);
  }
  if (name == "--threads") {
    return parseNumber(value, options.threads) && options.threads <= 1024;
  }
  return std::nullopt;
}

/// The options that name things (formulation, methods, init, resources):
/// an exit status for a bad value; `matched` says whether `name` is one.
std::optional<int> readNamedOption(StringRef name, StringRef value,
                                   Options &options, bool &matched) {
  matched = true;
  if (name == "--formulation") {
    options.haveFormulation = true;
    if (value == "A")
      options.read.formulation = gaus::Formulation::A;
    else if (value == "B")
      options.read.formulation = gaus::Formulation::B;
    else if (value == "C")
      options.read.formulation = gaus::Formulation::C;
    else
      return usageError("unknown formulation '" + value +
                        "' (expected A, B or C)");
  } else if (name == "--methods") {
    options.methods.clear();
    llvm::SmallVector<StringRef> names;
    value.split(names, ',');
    for (StringRef m : names) {
      if (m != "gaus" && m != "list" && m != "fds")
        return usageError("unknown method '" + m +
                          "' (expected gaus, list or fds)");
      if (!llvm::is_contained(options.methods, m.str()))
        options.methods.push_back(m.str());
    }
  } else if (name == "--init") {
    if (value != "frames" && value != "list")
      return usageError("unknown init '" + value +
                        "' (expected frames or list)");
    options.initFromList = value == "list";
  } else if (name == "--resources") {
    options.read.resources = value.str();
  } else {
    matched = false;
  }
  return std::nullopt;
}

std::optional<int> parseOptions(int argc, char **argv, Options &options) {
  std::optional<std::string> input;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      printGausUsage(llvm::outs());
      return ExitOk;
    }
    if (readFlag(arg, options))
      continue;
    if (!arg.starts_with("--")) {
      if (input)
        return usageError("more than one input file ('" + *input + "', '" +
                          arg + "')");
      input = arg.str();
      continue;
    }
    auto [name, value] = arg.split('=');
    if (!arg.contains('=')) {
      if (i + 1 == argc)
        return usageError(name + " needs a value");
      value = argv[++i];
    }
    bool matched = false;
    if (std::optional<int> exit =
            readNamedOption(name, value, options, matched))
      return exit;
    if (matched)
      continue;
    std::optional<bool> ok = readNumberOption(name, value, options);
    if (!ok)
      return usageError("unknown option '" + name + "'");
    if (!*ok)
      return usageError("bad value '" + value + "' for " + name);
  }
  if (!input)
    return usageError("no input file");
  if (!options.haveFormulation)
    return usageError("--formulation=A|B|C is required");
  if (options.methods.empty())
    return usageError("--methods names no method");
  options.input = *input;
  options.gaus.timeLimitMs = options.timeLimitMs;
  return std::nullopt;
}

const char *formulationName(gaus::Formulation f) {
  switch (f) {
  case gaus::Formulation::A:
    return "A";
  case gaus::Formulation::B:
    return "B";
  case gaus::Formulation::C:
    return "C";
  }
  return "?";
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// One method's result: legal or not, the objective and what it is made
/// of, the time, what `extra` adds, and the schedule when asked.
void writeMethodResult(llvm::json::OStream &json, const Options &options,
                       const gaus::Instance &instance,
                       const std::optional<gaus::Steps> &steps, double seconds,
                       llvm::function_ref<void()> extra) {
  json.objectBegin();
  gaus::Evaluation eval;
  if (steps)
    eval = gaus::evaluate(instance, *steps);
  json.attribute("legal", steps && eval.legal);
  if (steps && eval.legal) {
    json.attribute("objective", eval.objective);
    json.attribute("peak", eval.peak);
    if (instance.formulation == gaus::Formulation::A)
      json.attribute("comm", eval.comm);
  } else {
    json.attribute("objective", nullptr);
    if (steps)
      json.attribute("violation", eval.violation);
  }
  json.attribute("seconds", seconds);
  extra();
  if (options.emitSchedule && steps) {
    json.attributeBegin("schedule");
    json.arrayBegin();
    for (int64_t s : *steps)
      json.value(s);
    json.arrayEnd();
    json.attributeEnd();
  }
  json.objectEnd();
}

/// GauS refused for a relaxation of `entries` step probabilities: each is
/// a few doubles in several arrays, so past the limit the run would
/// allocate gigabytes. Refused with the reason, not attempted.
void writeSkipped(llvm::json::OStream &json, const Options &options,
                  uint64_t entries) {
  std::string reason = "the relaxation needs " + std::to_string(entries) +
                       " step probabilities (the frames' total width), "
                       "above the limit of " +
                       std::to_string(gaus::kMaxRelaxationEntries) +
                       "; lower --depth or use a formulation with "
                       "tighter frames";
  llvm::errs() << "tilepipe gaus: warning: " << options.input
               << ": gaus skipped: " << reason << "\n";
  json.objectBegin();
  json.attribute("legal", false);
  json.attribute("objective", nullptr);
  json.attribute("skipped", reason);
  json.objectEnd();
}

} // namespace

namespace tilepipe::tool {

int runGausCommand(int argc, char **argv) {
  Options options;
  if (std::optional<int> exit = parseOptions(argc, argv, options))
    return *exit;
  if (options.threads)
    gaus::setThreads(options.threads);

  std::string error;
  std::optional<gaus::Instance> instance =
      gaus::readInstance(options.input, options.read, error);
  if (!instance) {
    llvm::errs() << "tilepipe gaus: error: " << error << "\n";
    return ExitFailure;
  }
  std::string reason;
  std::optional<gaus::Frames> frames = gaus::computeFrames(*instance, reason);
  if (!frames) {
    llvm::errs() << "tilepipe gaus: error: " << options.input
                 << ": no schedule exists: " << reason << "\n";
    return ExitFailure;
  }

  llvm::json::OStream json(llvm::outs());
  json.objectBegin();
  json.attribute("name", instance->name);
  json.attribute("formulation", formulationName(instance->formulation));
  json.attribute("nodes", int64_t(instance->nodes.size()));
  json.attribute("edges", int64_t(instance->edges.size()));
  json.attribute("depth", instance->depth);
  if (instance->formulation == gaus::Formulation::C)
    json.attribute("ii", int64_t(instance->ii));
  if (instance->formulation == gaus::Formulation::A)
    json.attribute("alpha", instance->alpha);
  json.attributeBegin("methods");
  json.objectBegin();
  auto emit = [&](const std::optional<gaus::Steps> &steps, double seconds,
                  llvm::function_ref<void()> extra) {
    writeMethodResult(json, options, *instance, steps, seconds, extra);
  };

  std::optional<gaus::Steps> listSteps;
  double listSeconds = 0;
  auto runList = [&] {
    if (listSteps)
      return;
    auto start = std::chrono::steady_clock::now();
    listSteps = gaus::listSchedule(*instance, *frames);
    listSeconds = secondsSince(start);
  };
  for (const std::string &method : options.methods) {
    json.attributeBegin(method);
    if (method == "list") {
      runList();
      emit(listSteps, listSeconds, [] {});
    } else if (method == "fds") {
      auto start = std::chrono::steady_clock::now();
      auto deadline =
          options.timeLimitMs
              ? start + std::chrono::milliseconds(options.timeLimitMs)
              : std::chrono::steady_clock::time_point::max();
      bool exhausted = false;
      std::optional<gaus::Steps> steps =
          gaus::forceDirectedSchedule(*instance, *frames, deadline, exhausted);
      emit(steps, secondsSince(start),
           [&] { json.attribute("exhausted", exhausted); });
    } else if (uint64_t entries = gaus::frameEntries(*frames);
               entries > gaus::kMaxRelaxationEntries) {
      writeSkipped(json, options, entries);
    } else {
      gaus::GausOptions gausOptions = options.gaus;
      double initSeconds = 0;
      if (options.initFromList) {
        runList();
        initSeconds = listSeconds;
        gausOptions.init = listSteps;
      }
      gaus::GausResult result = gaus::runGaus(*instance, *frames, gausOptions);
      emit(result.best, result.seconds + initSeconds, [&] {
        json.attribute("exhausted", result.exhausted);
        json.attribute("outer_iterations", int64_t(result.outerIterations));
        json.attribute("adam_steps", int64_t(result.adamSteps));
        json.attribute("best_at", int64_t(result.bestAt));
        json.attribute("relaxed_dep", result.lastTerms.dep);
        if (instance->formulation == gaus::Formulation::C)
          json.attribute("relaxed_mres", result.lastTerms.mres);
      });
    }
    json.attributeEnd();
  }
  json.objectEnd();
  json.attributeEnd();
  json.objectEnd();
  llvm::outs() << "\n";
  return ExitOk;
}

} // namespace tilepipe::tool
