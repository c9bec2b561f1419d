//===- ExamplesTest.cpp - references of the example loops -----------------===//
//
// The original loops of examples/ execute sequentially (the reference the
// materializer compares its stage code against), quickly.
//
//===----------------------------------------------------------------------===//

#include "ExecTestUtil.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <chrono>

using namespace tilepipe::exec;
using namespace tilepipe::exec::test;

namespace {

class Examples : public ExecFixture {
protected:
  mlir::FunctionOpInterface load(llvm::StringRef name) {
    // test/unit/materialize/exec/ExamplesTest.cpp -> the repository root.
    llvm::SmallString<256> path(__FILE__);
    for (int i = 0; i < 5; ++i)
      llvm::sys::path::remove_filename(path);
    llvm::sys::path::append(path, "examples", name);
    auto buffer = llvm::MemoryBuffer::getFile(path);
    EXPECT_TRUE(bool(buffer)) << path.str().str();
    if (!buffer)
      return {};
    return parse((*buffer)->getBuffer());
  }
};

TEST_F(Examples, ReferencesOfTheOriginalLoops) {
  struct Case {
    const char *file;
    unsigned perIteration, outside; ///< Ops run per iteration, and once.
  } cases[] = {
      // 2 loads + 1 MMA; tmem_load, cvt, smem_store, tma_store after.
      {"gemm_mainloop.mlir", 3, 4},
      // 2 loads, 2 MMAs, tmem_load, 10 SIMT ops, tmem_store; Q's load
      // before; tmem_load, cvt, smem_store, tma_store of O after.
      {"attention_fwd.mlir", 16, 5},
  };
  for (const Case &c : cases) {
    auto func = load(c.file);
    ASSERT_TRUE(func) << c.file;
    std::vector<uint64_t> counts = {0, 1, 2, 3, 4, 5, 11, 20};
    auto start = std::chrono::steady_clock::now();
    References refs = recordReferences(func, counts);
    double seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    for (uint64_t n : counts) {
      const Reference &ref = refs.byTripCount[n];
      ASSERT_FALSE(ref.failure) << c.file << ": " << explain(*ref.failure);
      unsigned total = 0;
      for (const auto &[key, count] : ref.instances)
        total += count;
      EXPECT_EQ(total, c.perIteration * n + c.outside)
          << c.file << " trip count " << n;
    }
    std::printf("[ timing ] references of %s for %zu trip counts: %.4f s\n",
                c.file, counts.size(), seconds);
  }
}

} // namespace
