//===- Passes.td - tilepipe materializer passes ------------*- tablegen -*-===//

#ifndef TILEPIPE_MATERIALIZE_PASSES
#define TILEPIPE_MATERIALIZE_PASSES

include "mlir/Pass/PassBase.td"

def TileASMaterializeSchedule : Pass<"tileas-materialize-schedule"> {
  let summary = "Materialize a published schedule into pipes and mutexes";
  // tileas too: a loop of arith and math ops alone (docs/adopting.md) gets
  // pipes, agents and SMEM slots, whose types need the dialect loaded.
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::ub::UBDialect",
                           "::mlir::tileas::TileASDialect"];
  let description = [{
    Pass 2 of the pipeliner. For every scheduled innermost `scf.for` it reads
    the ScheduleAnalysis that --tileas-generate-schedule published, or the
    tileas.schedule.* attributes it printed, and never searches an II or
    probes the RRT. It plans the pipes (lifetimes in modulo terms, depths
    within the SMEM and TMEM budgets, flavours from the units at each end,
    shared buffers) and the mutexes. A loop without a valid schedule is left
    unchanged, with a remark that says why.
  }];
  let options = [
    Option<"printPlan", "print-plan", "bool", "false",
           "Print the pipes and mutexes of each loop on stdout">,
    Option<"printAgentsOption", "print-agents", "bool", "false",
           "Print each loop's warp-specialized agents on stdout: role, "
           "warps, stages and ops in row order">,
    Option<"targetFile", "target", "std::string", "\"\"",
           "a built-in target by name (sm_100a, sm_90a) or a JSON target "
           "file (default: the built-in sm_100a)">,
    Option<"mode", "mode", "std::string", "\"warp-specialized\"",
           "warp-specialized (agents connected by pipes), unspecialized "
           "(peeled prologue, steady state and epilogue in one agent) or plan "
           "(plan and check only, the loop stays as it is)">,
    Option<"protocolSeeds", "protocol-seeds", "unsigned", "20",
           "Interleavings the protocol check runs per trip count">,
    Option<"protocolTimeoutMs", "protocol-timeout-ms", "uint64_t", "10000",
           "Wall-clock budget of each function's protocol check in "
           "milliseconds (0: none); when it runs out the check stops, clean "
           "so far, with a warning naming the runs made">,
    Option<"report", "report", "std::string", "\"\"",
           "Write each loop's agents and pipes as an SVG picture to this "
           "file (the n-th loop of several to FILE-n.svg)">,
    Option<"persistent", "persistent", "bool", "false",
           "Plan for a persistent kernel (each CTA runs tile after tile): "
           "the accumulator handed to the epilogue is double-buffered and "
           "the epilogue's staging keeps its own SMEM; the function is "
           "marked tileas.persistent for the translation">,
    Option<"consumers", "consumers", "std::string", "\"auto\"",
           "Hopper consumers of a persistent kernel: pingpong (two copies "
           "of a one-warpgroup consumer take turns, each on its own output "
           "tiles), cooperative (one copy) or auto (ping-pong where the "
           "accumulator fits one warpgroup)">,
    Option<"joinPipesOption", "join-pipes", "bool", "true",
           "Give TMA pipes whose tiles are loaded and consumed together one "
           "pair of barriers per stage (`pipe.create joins`)">,
  ];
}

def TileASCheckProtocol : Pass<"tileas-check-protocol"> {
  let summary = "Execute materialized stage code and check its protocol";
  let description = [{
    Executes every function that holds pipes or agents (docs/stage-code.md)
    with the executing checker (materialize/exec, docs/protocol-check.md):
    each agent is a thread, pipes are mbarrier state machines with slot
    buffers, async units complete after random delays, tiles are symbolic
    terms. It runs several trip counts and seeded interleavings; any
    deadlock, read before commit, stale read, overwrite before release,
    release before read, double wait, missing fence, mutual-exclusion
    breach, unbalanced handshake or unexecutable op is an error at the op
    that broke the rule, with a note at the function.
  }];
  let options = [
    Option<"seeds", "seeds", "unsigned", "20",
           "Interleavings per trip count">,
    Option<"timeoutMs", "timeout-ms", "uint64_t", "10000",
           "Wall-clock budget of each function's check in milliseconds (0: "
           "none); when it runs out the check stops, clean so far, with a "
           "warning naming the runs made">,
    ListOption<"tripCounts", "trip-counts", "uint64_t",
               "Trip counts to run (default: 0, 1, 2, S-1, S, S+1, "
               "2 maxDepth + 3 and 20; S = stages or maxDepth)">,
    Option<"print", "print", "bool", "false",
           "Print a line per checked function on stdout">,
  ];
}

#endif // TILEPIPE_MATERIALIZE_PASSES
