//===- SM90a.cpp - the built-in Hopper sm_90a description -----------------===//
//
// Unlike sm_100a, whose numbers are code with comments (SM100a.cpp), the
// Hopper model is its shipped JSON file, compiled in as text: one source for
// `target=sm_90a` and for users who copy the file to change a number.
// docs/target.md, "The Hopper target", gives each number's source.
//
//===----------------------------------------------------------------------===//

#include "target/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace tilepipe::target;

namespace {
constexpr const char *kSM90aJSON =
#include "target/SM90aJSON.inc"
    ;
} // namespace

const TargetModel &TargetModel::sm90a() {
  static const TargetModel model = [] {
    llvm::Expected<TargetModel> m =
        TargetModel::fromJSON(kSM90aJSON, "target/sm_90a.json");
    // A bad built-in is a bug in the shipped file, not a user error.
    if (!m)
      llvm::report_fatal_error(llvm::Twine("built-in sm_90a model: ") +
                               llvm::toString(m.takeError()));
    return std::move(*m);
  }();
  return model;
}

llvm::ArrayRef<llvm::StringLiteral> TargetModel::builtinNames() {
  static constexpr llvm::StringLiteral names[] = {"sm_100a", "sm_90a"};
  return names;
}

const TargetModel *TargetModel::builtin(llvm::StringRef name) {
  if (name == "sm_100a")
    return &sm100a();
  if (name == "sm_90a")
    return &sm90a();
  return nullptr;
}

std::string TargetModel::builtinNameList() {
  return llvm::join(builtinNames(), ", ");
}
