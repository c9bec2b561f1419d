//===- Passes.td - tilepipe materializer passes ------------*- tablegen -*-===//

#ifndef TILEPIPE_MATERIALIZE_PASSES
#define TILEPIPE_MATERIALIZE_PASSES

include "mlir/Pass/PassBase.td"

def TileASMaterializeSchedule : Pass<"tileas-materialize-schedule"> {
  let summary = "Materialize a published schedule into pipes and mutexes";
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::ub::UBDialect"];
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
    Option<"targetFile", "target", "std::string", "\"\"",
           "JSON target description (default: the built-in sm_100a)">,
    Option<"mode", "mode", "std::string", "\"warp-specialized\"",
           "warp-specialized (agents connected by pipes), unspecialized "
           "(peeled prologue, steady state and epilogue in one agent) or plan "
           "(plan and check only, the loop stays as it is)">,
    Option<"protocolSeeds", "protocol-seeds", "unsigned", "20",
           "Interleavings the protocol check runs per trip count">,
  ];
}

def TileASCheckProtocol : Pass<"tileas-check-protocol"> {
  let summary = "Execute materialized pipe and mutex code abstractly";
  let description = [{
    Reads the agents, pipes and mutexes that --tileas-materialize-schedule
    emitted in each function and runs the protocol they implement through
    the abstract checker (docs/protocol-check.md) for several trip counts and
    seeded interleavings with random unit latencies. Any deadlock, read
    before commit, overwrite before release, out-of-order iteration,
    unbalanced handshake or mutual-exclusion breach is an error at the
    function.
  }];
  let options = [
    Option<"seeds", "seeds", "unsigned", "20",
           "Interleavings per trip count">,
    ListOption<"tripCounts", "trip-counts", "uint64_t",
               "Trip counts to run (default: 0, 1, 2, 3, depth, depth + 1, "
               "2 depth + 3 and 20)">,
    Option<"print", "print", "bool", "false",
           "Print a line per checked function on stdout">,
  ];
}

#endif // TILEPIPE_MATERIALIZE_PASSES
