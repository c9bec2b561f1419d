//===- fuzz-hatschet.cpp - libFuzzer target: HatScheT instances -----------===//
//
// An instance is two files; the input is the graphML text, a separator line
// and the resource model XML:
//
//   <graphml ...> ... </graphml>
//   %%resources%%
//   <ResourceModel> ... </ResourceModel>
//
// Without the separator the whole input is the graph and the resource model
// is empty. The bytes go to io::readHatScheT; any input may be rejected,
// none may crash. A problem that reads is check()ed too.
//
//===----------------------------------------------------------------------===//

#include "scheduler/io/HatScheT.h"

#include <cstddef>
#include <cstdint>

using namespace tilepipe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  auto [graph, resources] = text.split("\n%%resources%%\n");
  llvm::Expected<io::ProblemFile> file = io::readHatScheT(
      graph, "fuzz.graphml", resources, "fuzz_RM.xml");
  if (!file) {
    llvm::consumeError(file.takeError());
    return 0;
  }
  sched::DiagnosticList diags;
  (void)file->problem.check(diags);
  return 0;
}
