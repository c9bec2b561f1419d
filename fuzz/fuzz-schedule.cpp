//===- fuzz-schedule.cpp - libFuzzer target: schedule + verify ------------===//
//
// Reads the bytes as a JSON problem (docs/problem-format.md); a problem that
// reads and passes check() goes through sched::runScheduler with small
// budgets (50 placement attempts, 200 ms, no exact oracle, no prove-optimal),
// and a returned schedule must pass verify() (abort otherwise: the driver
// promises it does).
//
//===----------------------------------------------------------------------===//

#include "scheduler/Driver.h"
#include "scheduler/io/ProblemJSON.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace tilepipe;

// The serial length the command line accepts is 2^22 cycles; the fuzzer
// keeps to far less so that one input stays within milliseconds.
constexpr int64_t kMaxFuzzSerialLength = int64_t(1) << 14;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<io::ProblemFile> file = io::readProblemJSON(text, "fuzz.json");
  if (!file) {
    llvm::consumeError(file.takeError());
    return 0;
  }
  const sched::Problem &problem = file->problem;
  {
    sched::DiagnosticList diags;
    if (!problem.check(diags))
      return 0;
  }
  if (problem.serialLength() > kMaxFuzzSerialLength)
    return 0;

  sched::DriverOptions options;
  options.modulo.maxAttempts = 50;
  options.modulo.timeLimitMs = 200;
  options.proveOptimal = false;
  sched::DiagnosticList diags;
  std::optional<sched::ScheduleAnalysis> analysis =
      sched::runScheduler(problem, options, diags);
  if (!analysis)
    return 0;
  sched::DiagnosticList verifyDiags;
  if (!problem.verify(analysis->toSchedule(), verifyDiags)) {
    llvm::errs() << "fuzz-schedule: runScheduler returned a schedule that "
                    "fails verify() (II "
                 << analysis->ii << ")\n";
    for (const sched::Diagnostic &diag : verifyDiags.all())
      llvm::errs() << "  " << diag.message << "\n";
    abort();
  }
  return 0;
}
