//===- fuzz-problem-json.cpp - libFuzzer target: JSON problem reader ------===//
//
// Feeds the bytes to io::readProblemJSON. Any input may be rejected; none
// may crash, leak past ASan or hit undefined behaviour. A problem that reads
// is check()ed too, since every reader promises a finalized problem.
//
//===----------------------------------------------------------------------===//

#include "scheduler/io/ProblemJSON.h"

#include <cstddef>
#include <cstdint>

using namespace tilepipe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<io::ProblemFile> file = io::readProblemJSON(text, "fuzz.json");
  if (!file) {
    llvm::consumeError(file.takeError());
    return 0;
  }
  sched::DiagnosticList diags;
  (void)file->problem.check(diags);
  return 0;
}
