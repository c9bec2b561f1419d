//===- InterpreterTest.cpp - control flow, arith, unsupported ops ---------===//

#include "ExecTestUtil.h"

using namespace tilepipe::exec;
using namespace tilepipe::exec::test;

namespace {

class Interpreter : public ExecFixture {};

TEST_F(Interpreter, ArithAndControlFlowDecideWhatRuns) {
  // The exp2 runs exactly for the iterations whose index passes the
  // arithmetic below, which the reference counts.
  auto func = parse(R"(
func.func @f(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %q = arith.remui %k, %c2 : index
    %even = arith.cmpi eq, %q, %c0 : index
    %s = arith.select %even, %c3, %c1 : index
    %neg = arith.subi %c0, %k : index
    %fl = arith.floordivsi %neg, %c2 : index
    %cd = arith.ceildivsi %neg, %c2 : index
    %d = arith.subi %cd, %fl : index
    %i32 = arith.index_cast %d : index to i32
    %one = arith.constant 1 : i32
    %b = arith.cmpi eq, %i32, %one : i32
    %t = scf.if %b -> (index) {
      %e = tileas.exp2 %x : tensor<128xf32>
      scf.yield %s : index
    } else {
      scf.yield %c0 : index
    }
    %next = arith.addi %acc, %t : index
    scf.yield %next : index
  }
  return
}
)");
  ASSERT_TRUE(func);
  // ceildiv(-k, 2) - floordiv(-k, 2) is 1 exactly for odd k.
  References refs = recordReferences(func, {0, 1, 2, 7});
  auto count = [&](uint64_t n) {
    unsigned c = 0;
    for (const auto &[key, k] : refs.byTripCount[n].instances)
      c += k;
    return c;
  };
  EXPECT_EQ(count(0), 0u);
  EXPECT_EQ(count(1), 0u);
  EXPECT_EQ(count(2), 1u);
  EXPECT_EQ(count(7), 3u);
}

TEST_F(Interpreter, BlockIndexIsAnInteger) {
  // A run is block (1, 2, 3) of a (2, 3, 4) grid: a loop bound computed
  // from them is a defined integer (here 1 + 2 * 3 + 4 = 11 iterations).
  auto func = parse(R"(
func.func @f(%x: tensor<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %gy = gpu.grid_dim y
  %gz = gpu.grid_dim z
  %yz = arith.muli %by, %gy : index
  %n0 = arith.addi %bx, %yz : index
  %n = arith.addi %n0, %gz : index
  scf.for %k = %c0 to %n step %c1 {
    %e = tileas.exp2 %x : tensor<128xf32>
  }
  return
}
)");
  ASSERT_TRUE(func);
  References refs = recordReferences(func, {0});
  const Reference &ref = refs.byTripCount[0];
  ASSERT_FALSE(ref.failure) << explain(*ref.failure);
  unsigned total = 0;
  for (const auto &[key, k] : ref.instances)
    total += k;
  EXPECT_EQ(total, 11u);
}

TEST_F(Interpreter, MadeUpArgumentsAvoidDivisionByZero) {
  // Grouped-query attention's K/V head: head // (q_heads // kv_heads) with
  // both extents arguments (%hq before %hkv: ascending made-up values give
  // a quotient of 0), and with a constant over an argument (8 // %hkv is 0
  // for any large value). The loop runs on other values, not a failure.
  for (const char *ratio : {"%g = arith.floordivsi %hq, %hkv : index",
                            "%g = arith.floordivsi %c8, %hkv : index"}) {
    std::string text = std::string(R"(
func.func @f(%x: tensor<128xf32>, %hq: index, %hkv: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %head = gpu.block_id y
  )") + ratio + R"(
  %kv = arith.floordivsi %head, %g : index
  scf.for %k = %c0 to %n step %c1 {
    %e = tileas.exp2 %x : tensor<128xf32>
  }
  return
}
)";
    auto func = parse(text);
    ASSERT_TRUE(func);
    References refs = recordReferences(func, {3});
    const Reference &ref = refs.byTripCount[3];
    ASSERT_FALSE(ref.failure) << explain(*ref.failure);
    unsigned total = 0;
    for (const auto &[key, k] : ref.instances)
      total += k;
    EXPECT_EQ(total, 3u) << ratio;
    // Without references the check chooses the same way.
    EXPECT_FALSE(checkFunction(func, options({3}, 1))) << ratio;
  }
}

TEST_F(Interpreter, DivisionByZeroOnEveryChoiceIsAFinding) {
  // A divisor that is 0 whatever the arguments: the code's fault.
  auto func = parse(R"(
func.func @f(%x: tensor<128xf32>, %a: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.subi %a, %a : index
  %q = arith.floordivsi %a, %z : index
  scf.for %k = %c0 to %n step %c1 {
    %e = tileas.exp2 %x : tensor<128xf32>
  }
  return
}
)");
  ASSERT_TRUE(func);
  References refs = recordReferences(func, {2});
  ASSERT_TRUE(refs.byTripCount[2].failure);
  EXPECT_NE(refs.byTripCount[2].failure->message.find("division by zero"),
            std::string::npos);
  std::optional<Finding> f = checkFunction(func, options({2}, 1));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, "malformed");
}

TEST_F(Interpreter, UnsupportedOpIsAFinding) {
  auto func = parse(R"(
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = tileas.pipe.create {depth = 2 : i32, producer = "simt", consumers = ["simt"]} : !tileas.pipe<!tileas.smem<64x64xbf16>>
  scf.for %k = %c0 to %n step %c1 {
    scf.execute_region {
      scf.yield
    }
  }
  return
}
)");
  ASSERT_TRUE(func);
  std::optional<Finding> f = checkFunction(func, options({1}, 1));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, "unsupported");
  EXPECT_NE(f->message.find("cannot execute 'scf.execute_region'"),
            std::string::npos)
      << explain(*f);
  // Nothing runs at trip count 0, so nothing is reported.
  EXPECT_FALSE(checkFunction(func, options({0}, 1)));
}

TEST_F(Interpreter, UnknownPureOpsAreOpaque) {
  auto func = parse(R"(
func.func @f(%x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %y = arith.addf %x, %x : f32
    %z = arith.mulf %y, %y : f32
  }
  return
}
)");
  ASSERT_TRUE(func);
  EXPECT_FALSE(checkFunction(func, options({0, 3}, 2)));
}

TEST_F(Interpreter, PoisonReadByAComputeOp) {
  auto func = parse(R"(
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %u = ub.poison : tensor<128xf32>
  scf.for %k = %c0 to %n step %c1 {
    %e = tileas.exp2 %u : tensor<128xf32>
  }
  return
}
)");
  ASSERT_TRUE(func);
  std::optional<Finding> f = checkFunction(func, options({0, 2}, 1));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, "poison-read") << explain(*f);
  EXPECT_EQ(f->tripCount, 2u);
}

TEST_F(Interpreter, StepBudget) {
  auto func = parse(R"(
func.func @f(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %e = tileas.exp2 %x : tensor<128xf32>
  }
  return
}
)");
  ASSERT_TRUE(func);
  CheckOptions o = options({1000}, 1);
  o.maxSteps = 100;
  std::optional<Finding> f = checkFunction(func, o);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, "step-budget") << explain(*f);
}

} // namespace
