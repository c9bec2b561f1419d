//===- ExecTestUtil.h - parsing IR for the exec tests ----------*- C++ -*-===//

#ifndef TILEPIPE_TEST_UNIT_EXEC_EXECTESTUTIL_H
#define TILEPIPE_TEST_UNIT_EXEC_EXECTESTUTIL_H

#include "materialize/exec/Check.h"

#include "ir/ExternalModels.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

namespace tilepipe::exec::test {

/// Owns a context and the modules parsed in it.
class ExecFixture : public ::testing::Test {
protected:
  // The examples are read as the tools read them: the shared registration.
  ExecFixture() {
    mlir::DialectRegistry registry;
    registerTileIRDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `text` and returns its first function (null on a parse error).
  mlir::FunctionOpInterface parse(llvm::StringRef text) {
    modules.push_back(mlir::parseSourceString<mlir::ModuleOp>(text, &context));
    auto &module = modules.back();
    EXPECT_TRUE(module) << text.str();
    if (!module)
      return {};
    mlir::FunctionOpInterface func;
    module->walk([&](mlir::FunctionOpInterface f) {
      if (!func)
        func = f;
    });
    return func;
  }

  static CheckOptions options(std::vector<uint64_t> tripCounts,
                              unsigned seeds = 20) {
    CheckOptions o;
    o.tripCounts = std::move(tripCounts);
    o.seeds = seeds;
    return o;
  }

  mlir::MLIRContext context;
  std::vector<mlir::OwningOpRef<mlir::ModuleOp>> modules;
};

} // namespace tilepipe::exec::test

#endif // TILEPIPE_TEST_UNIT_EXEC_EXECTESTUTIL_H
