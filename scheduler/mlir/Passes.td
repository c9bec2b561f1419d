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
    attributes. It never rewrites the IR otherwise.
  }];
  let options = [
    Option<"printSchedule", "print-schedule", "bool", "false",
           "Print a human-readable schedule table per loop on stdout">,
    Option<"generator", "generator", "::tilepipe::sched::GeneratorRequest",
           "::tilepipe::sched::GeneratorRequest::Auto",
           "Which generator to run",
           [{::llvm::cl::values(
             clEnumValN(::tilepipe::sched::GeneratorRequest::Auto, "auto",
                        "select per seed 002's rules"),
             clEnumValN(::tilepipe::sched::GeneratorRequest::Serial, "serial",
                        "always the serial generator"),
             clEnumValN(::tilepipe::sched::GeneratorRequest::CostBased,
                        "cost-based", "always the cost-based generator"))}]>,
    Option<"serialThreshold", "serial-threshold", "unsigned", "8",
           "Loops with fewer ops are scheduled serially">,
    Option<"targetFile", "target", "std::string", "\"\"",
           "JSON target description (default: the built-in sm_100a)">,
  ];
}

#endif // TILEPIPE_SCHEDULER_PASSES
