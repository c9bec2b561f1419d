//===- fuzz-target-json.cpp - libFuzzer target: JSON target files ---------===//
//
// Feeds the bytes to target::TargetModel::fromJSON. Any input may be
// rejected; none may crash. A target that loads must survive a round trip:
// its toJSON() loads again (abort otherwise).
//
//===----------------------------------------------------------------------===//

#include "target/Target.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tilepipe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<target::TargetModel> model =
      target::TargetModel::fromJSON(text, "fuzz.json");
  if (!model) {
    llvm::consumeError(model.takeError());
    return 0;
  }
  std::string dumped;
  {
    llvm::raw_string_ostream os(dumped);
    os << model->toJSON();
  }
  llvm::Expected<target::TargetModel> again =
      target::TargetModel::fromJSON(dumped, "fuzz-roundtrip.json");
  if (!again) {
    llvm::errs() << "fuzz-target-json: a loaded target's toJSON() does not "
                    "load again: "
                 << llvm::toString(again.takeError()) << "\n"
                 << dumped << "\n";
    abort();
  }
  return 0;
}
