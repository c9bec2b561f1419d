//===- Passes.td - tilepipe scheduler passes ---------------*- tablegen -*-===//

#ifndef TILEPIPE_SCHEDULER_PASSES
#define TILEPIPE_SCHEDULER_PASSES

include "mlir/Pass/PassBase.td"

def TileASGenerateSchedule : Pass<"tileas-generate-schedule"> {
  let summary = "Modulo-schedule the innermost scf.for loops of tileas ops";
  let description = [{
    Pass 1 of the pipeliner. For every innermost `scf.for` it builds the
    scheduling problem (ops, dependences, footprints from the target model,
    tileas.schedule.constraint.* attributes), checks it, computes the lower
    bounds on II, picks a generator, seats every op, verifies the result,
    publishes the ScheduleAnalysis and prints it as tileas.schedule.*
    attributes. It never rewrites the IR otherwise, except that a loop naming
    no warp groups gets `tileas.warp_group` marks on its independent SIMT
    chains (infer-warp-groups).
  }];
  let options = [
    Option<"printSchedule", "print-schedule", "bool", "false",
           "Print a human-readable schedule table per loop on stdout">,
    Option<"generator", "generator", "::tilepipe::sched::GeneratorRequest",
           "::tilepipe::sched::GeneratorRequest::Auto",
           "Which generator to run",
           [{::llvm::cl::values(
             clEnumValN(::tilepipe::sched::GeneratorRequest::Auto, "auto",
                        "select by the selection rule"),
             clEnumValN(::tilepipe::sched::GeneratorRequest::Serial, "serial",
                        "always the serial generator"),
             clEnumValN(::tilepipe::sched::GeneratorRequest::CostBased,
                        "cost-based", "always the cost-based generator"))}]>,
    Option<"selection", "selection", "::tilepipe::sched::SelectionRule",
           "::tilepipe::sched::SelectionRule::Bound",
           "The rule generator=auto applies",
           [{::llvm::cl::values(
             clEnumValN(::tilepipe::sched::SelectionRule::Bound, "bound",
                        "serial only for force_serial_execution or when the "
                        "serial length does not exceed MII"),
             clEnumValN(::tilepipe::sched::SelectionRule::Threshold,
                        "threshold",
                        "seed 002: serial below serial-threshold ops or "
                        "without TMA/MMA/async ops"))}]>,
    Option<"serialThreshold", "serial-threshold", "unsigned", "8",
           "selection=threshold: loops with fewer ops are scheduled serially">,
    Option<"targetFile", "target", "std::string", "\"\"",
           "a built-in target by name (sm_100a, sm_90a) or a JSON target "
           "file (default: the built-in sm_100a)">,
    Option<"inferWarpGroups", "infer-warp-groups", "bool", "true",
           "Mark independent chains of SIMT tile ops as warp groups of their "
           "own (tileas.warp_group) when the loop names none">,
    Option<"search", "search", "::tilepipe::sched::IISearch",
           "::tilepipe::sched::IISearch::Stride",
           "Candidate-II search",
           [{::llvm::cl::values(
             clEnumValN(::tilepipe::sched::IISearch::Stride, "stride",
                        "offsets 1, 2, 4, ... past the last failing II, then "
                        "bisection: attempts grow with log(II - MII)"),
             clEnumValN(::tilepipe::sched::IISearch::Linear, "linear",
                        "from MII upward: the smallest II the heuristic seats"),
             clEnumValN(::tilepipe::sched::IISearch::Gallop, "gallop",
                        "galloping then binary search (may miss a smaller II)"))}]>,
    Option<"stages", "stages", "::tilepipe::sched::StagePolicy",
           "::tilepipe::sched::StagePolicy::Late",
           "Stage assignment after the cost-based generator",
           [{::llvm::cl::values(
             clEnumValN(::tilepipe::sched::StagePolicy::Asap, "asap",
                        "keep the stages the generator seated (earliest)"),
             clEnumValN(::tilepipe::sched::StagePolicy::Late, "late",
                        "sink every op to the latest stage its consumers "
                        "allow (same II and modulo rows)"),
             clEnumValN(::tilepipe::sched::StagePolicy::MinCut, "min-cut",
                        "XLS's min-cut per stage boundary, weighted by the "
                        "bytes each value buffers (a heuristic)"),
             clEnumValN(::tilepipe::sched::StagePolicy::MinBuffer,
                        "min-buffer",
                        "the fewest buffered SMEM+TMEM bytes, then register "
                        "bytes, exactly (min-cost flow)"))}]>,
    Option<"iiCap", "ii-cap", "unsigned", "0",
           "Largest II tried (0: the serial length; a larger cap is lowered "
           "to the serial length, where the serial schedule is the fallback)">,
    Option<"maxAttempts", "max-attempts", "uint64_t", "0",
           "Per-loop budget of placement attempts (0: none); when it runs "
           "out, the best schedule so far is kept">,
    Option<"timeLimitMs", "time-limit-ms", "uint64_t", "10000",
           "Per-loop safety net of the II search in milliseconds of the "
           "compiling thread's CPU time, so that other programs' load does "
           "not move it (0: none); when it fires the output says so, and "
           "the result depends on the machine's speed">,
    Option<"workLimit", "work-limit", "uint64_t", "2000000",
           "Per-loop budget of placement work (deterministic units: a "
           "placement step plus one per 64 footprint rows it moves; 0: "
           "none); when it runs out, the best schedule so far is kept">,
    ListOption<"arms", "arms", "std::string",
               "Placement arms to run: permute, fuse, retry, cost (default all)">,
    Option<"proveOptimal", "prove-optimal", "bool", "false",
           "Certify with the exact check that no smaller II admits a schedule">,
    Option<"exactWork", "exact-work", "uint64_t", "2000",
           "Work budget of the exact check per II (deterministic units: "
           "Z3 resource counts and CaDiCaL polls, about 1 ms each; 0: none)">,
    Option<"exactTimeoutMs", "exact-timeout-ms", "unsigned", "0",
           "Wall-clock safety net of the exact check per II, in "
           "milliseconds (0: none)">,
    Option<"proveWork", "prove-work", "uint64_t", "20000",
           "Work budget of the whole prove-optimal pass per loop, in the "
           "exact check's units (0: none)">,
    Option<"proveTimeoutMs", "prove-timeout-ms", "uint64_t", "0",
           "Wall-clock safety net of the whole prove-optimal pass per loop, "
           "in milliseconds (0: none)">,
    Option<"report", "report", "std::string", "",
           "Write each loop's schedule as an SVG picture to this file (the "
           "n-th loop of several to FILE-n.svg)">,
    Option<"exactSolver", "exact-solver", "::tilepipe::sched::exact::Solver",
           "::tilepipe::sched::exact::Solver::Portfolio",
           "The exact check's solver",
           [{::llvm::cl::values(
             clEnumValN(::tilepipe::sched::exact::Solver::Z3, "z3",
                        "Z3 (SMT)"),
             clEnumValN(::tilepipe::sched::exact::Solver::Sat, "sat",
                        "CaDiCaL (SAT)"),
             clEnumValN(::tilepipe::sched::exact::Solver::Portfolio,
                        "portfolio", "Z3, then CaDiCaL on what it leaves open"))}]>,
    Option<"registerOrder", "register-order", "bool", "true",
           "Order each SIMT agent's register tiles: the store an iteration "
           "makes of a tmem_load's tile before the next iteration's load, "
           "kept only where it costs no II (docs/generators.md)">,
    Option<"ringDepth", "ring-depth", "bool", "true",
           "Search larger IIs while a value is read more stages after it is "
           "made than a pipe's 32 slots cover (docs/generators.md, Ring "
           "depth)">,
    Option<"registerBudget", "register-budget", "bool", "true",
           "On a target whose MMA accumulates in registers (wgmma), search "
           "larger IIs while the tiles held across stage boundaries pass "
           "the consumer threads' register budget (docs/generators.md)">,
    Option<"registerBudgetTries", "register-budget-tries", "unsigned", "8",
           "The register budget's scheduler runs at most, each from an II "
           "an eighth larger; it also stops after two that hold no fewer "
           "words than the best so far">,
    Option<"seed", "seed", "std::string", "\"none\"",
           "Seed the cost-based generator: none (default) or gaus (a GauS "
           "run per candidate II, tried only where the unseeded search ends "
           "above the bound; docs/gaus.md)">,
    Option<"seedBudgetMs", "seed-budget-ms", "uint64_t", "2000",
           "seed=gaus: wall-clock budget of all GauS runs of one loop in "
           "milliseconds (0: none); a warning says when it ran out">,
  ];
}

#endif // TILEPIPE_SCHEDULER_PASSES
