//===- consumer.cpp - a compiler's own tool using installed tilepipe ------===//
//
// 1. Builds a scheduling problem with the C++ API and schedules it.
// 2. Parses a loop of tileas ops and runs tilepipe's two passes on it from a
//    PassManager of its own.
// Exits 0 when both succeed.
//
//===----------------------------------------------------------------------===//

#include "ir/TileASDialect.h"
#include "materialize/mlir/Passes.h"
#include "scheduler/Driver.h"
#include "scheduler/mlir/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/raw_ostream.h"

using namespace tilepipe;

static int scheduleProblem() {
  rrt::ResourceLayout layout;
  unsigned alu = layout.addBit("alu");
  sched::Problem problem(std::move(layout));
  for (const char *name : {"load", "mul", "add"}) {
    sched::Operation op;
    op.name = name;
    op.latency = 2;
    op.uses.push_back(rrt::Use::bit(alu, 1));
    problem.addOp(std::move(op));
  }
  problem.addDependence({0, 1, 2, 0});
  problem.addDependence({1, 2, 2, 0});
  problem.addDependence({2, 2, 2, 1}); // The accumulation.
  problem.finalize();
  sched::DiagnosticList diags;
  std::optional<sched::ScheduleAnalysis> analysis =
      sched::runScheduler(problem, sched::DriverOptions{}, diags);
  if (!analysis) {
    llvm::errs() << "consumer: the problem did not schedule\n";
    return 1;
  }
  llvm::outs() << "problem: II " << analysis->ii << ", MII "
               << analysis->bounds.mii << "\n";
  return analysis->ii == 3 ? 0 : 1;
}

static const char *kLoop = R"(
func.func @gemm(%a: !tileas.tma_desc<128x64xbf16>, %b: !tileas.tma_desc<256x64xbf16>,
                %m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %i = %c0 to %k step %c64 iter_args(%x = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %s = tileas.tma_load %a[%m, %i] {multicast = 2, l2_reuse = 4} : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %t = tileas.tma_load %b[%n, %i] {multicast = 2, l2_reuse = 4} : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %s, %t, %x {accumulate} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
  return
}
)";

static int runPasses() {
  registerTilePipePasses();
  registerTilePipeMaterializePasses();
  mlir::DialectRegistry registry;
  registry.insert<mlir::tileas::TileASDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::scf::SCFDialect,
                  mlir::ub::UBDialect>();
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kLoop, &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context);
  if (mlir::failed(
          mlir::parsePassPipeline(
              "tileas-generate-schedule,tileas-materialize-schedule", pm)) ||
      mlir::failed(pm.run(*module)))
    return 1;
  // The materialized loop: warp-specialized agents connected by pipes.
  unsigned agents = 0, pipes = 0;
  module->walk([&](mlir::Operation *op) {
    llvm::StringRef name = op->getName().getStringRef();
    agents += name == "tileas.agent";
    pipes += name == "tileas.pipe.create";
  });
  llvm::outs() << "passes: " << agents << " agents, " << pipes << " pipes\n";
  return agents >= 2 && pipes >= 2 ? 0 : 1;
}

int main() {
  int status = scheduleProblem();
  status |= runPasses();
  llvm::outs() << (status ? "consumer: FAILED\n" : "consumer: ok\n");
  return status;
}
