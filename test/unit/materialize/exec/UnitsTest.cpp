//===- UnitsTest.cpp - TMA store, cp.async and shared pipe buffers --------===//

#include "ExecTestUtil.h"
#include "Programs.h"

using namespace tilepipe::exec;
using namespace tilepipe::exec::test;

namespace {

class Units : public ExecFixture {
protected:
  std::optional<Finding> run(const std::string &text,
                             std::vector<uint64_t> counts = {0, 1, 2, 3, 9}) {
    auto func = parse(program(text));
    EXPECT_TRUE(func);
    if (!func)
      return std::nullopt;
    return checkFunction(func, options(counts));
  }
};

/// SIMT stores staged for a TMA store that releases with its bulk wait.
constexpr const char *kStore = R"(
func.func @f(%x: tensor<128x64xbf16>, %dc: !da, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pa = tileas.pipe.create {depth = 2 : i32, producer = "simt", consumers = ["tma_store"]} : !pa
  tileas.agent {role = "simt", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %s = tileas.pipe.producer_acquire %pa, %k : !pa -> !sa
      %v = tileas.smem_store %x into %s : tensor<128x64xbf16> -> !sa
      tileas.fence "proxy_async"
      tileas.pipe.producer_commit %pa, %k, %v {via = "arrive"} : !pa
    }
    tileas.agent_yield
  }
  tileas.agent {role = "epilogue", warps = 1 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %w = tileas.pipe.consumer_wait %pa, %k : !pa -> !sa
      tileas.tma_store %w, %dc[%c0, %k] : !sa, !da
      tileas.pipe.consumer_release %pa, %k {via = "bulk_wait"} : !pa
    }
    tileas.agent_yield
  }
  return
}
)";

TEST_F(Units, TmaStoreReleasedByBulkWait) {
  std::optional<Finding> f = run(kStore);
  EXPECT_FALSE(f) << explain(*f);
}

TEST_F(Units, TmaStoreReleasedByArrive) {
  std::string text = replace(kStore, "consumers = [\"tma_store\"]",
                             "consumers = [\"simt\"]");
  text = replace(text, "{via = \"bulk_wait\"}", "{via = \"arrive\"}");
  std::optional<Finding> f = run(text);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, "overwrite-before-release") << explain(*f);
  EXPECT_NE(f->message.find("tileas.tma_store"), std::string::npos)
      << explain(*f);
}

TEST_F(Units, TmaStoreWithoutProxyFence) {
  std::string text = replace(kStore, "      tileas.fence \"proxy_async\"\n", "");
  std::optional<Finding> f = run(text);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, "missing-fence") << explain(*f);
}

TEST_F(Units, CpAsyncProducer) {
  std::optional<Finding> f = run(R"(
func.func @f(%src: memref<?x?xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pa = tileas.pipe.create {depth = 3 : i32, producer = "cpasync", consumers = ["simt"]} : !pa
  tileas.agent {role = "load", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %s = tileas.pipe.producer_acquire %pa, %k : !pa -> !sa
      %a = tileas.cp_async %src[%k, %c0] into %s : memref<?x?xbf16> -> !sa
      tileas.pipe.producer_commit %pa, %k, %a {via = "cpasync_arrive"} : !pa
    }
    tileas.agent_yield
  }
  tileas.agent {role = "simt", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %w = tileas.pipe.consumer_wait %pa, %k : !pa -> !sa
      %r = tileas.smem_load %w : !sa -> tensor<128x64xbf16>
      tileas.pipe.consumer_release %pa, %k {via = "arrive"} : !pa
    }
    tileas.agent_yield
  }
  return
}
)");
  EXPECT_FALSE(f) << explain(*f);
}

TEST_F(Units, SharedBuffersStillHeld) {
  // %q reuses %p's buffers while iteration 0 of %p is still held.
  std::optional<Finding> f = run(R"(
func.func @f(%x: tensor<128x64xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %p = tileas.pipe.create {depth = 1 : i32, producer = "simt", consumers = ["simt"]} : !pa
  %q = tileas.pipe.create shares %p {depth = 1 : i32, producer = "simt", consumers = ["simt"]} : !pa
  %s = tileas.pipe.producer_acquire %p, %c0 : !pa -> !sa
  %v = tileas.smem_store %x into %s : tensor<128x64xbf16> -> !sa
  tileas.pipe.producer_commit %p, %c0, %v {via = "arrive"} : !pa
  %w = tileas.pipe.consumer_wait %p, %c0 : !pa -> !sa
  %t = tileas.pipe.producer_acquire %q, %c0 : !pa -> !sa
  %u = tileas.smem_store %x into %t : tensor<128x64xbf16> -> !sa
  tileas.pipe.producer_commit %q, %c0, %u {via = "arrive"} : !pa
  %r = tileas.smem_load %w : !sa -> tensor<128x64xbf16>
  tileas.pipe.consumer_release %p, %c0 {via = "arrive"} : !pa
  %w2 = tileas.pipe.consumer_wait %q, %c0 : !pa -> !sa
  tileas.pipe.consumer_release %q, %c0 {via = "arrive"} : !pa
  return
}
)",
                                 {0});
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, "overwrite-before-release") << explain(*f);
  EXPECT_NE(f->message.find("still holds pipe 0"), std::string::npos)
      << explain(*f);
}

} // namespace
