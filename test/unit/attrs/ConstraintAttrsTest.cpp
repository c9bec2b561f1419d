//===- ConstraintAttrsTest.cpp - reading constraint attributes ------------===//

#include "attrs/ConstraintAttrs.h"
#include "attrs/AttrNames.h"
#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tilepipe;

namespace {

class ConstraintAttrsTest : public ::testing::Test {
protected:
  ConstraintAttrsTest() {
    context.loadDialect<tileas::TileASDialect, func::FuncDialect,
                        scf::SCFDialect, arith::ArithDialect>();
  }

  /// Parses `body` (ops on %x : tensor<128xf32>) and returns its ops.
  std::vector<Operation *> parse(llvm::StringRef body) {
    std::string text =
        "func.func @f(%x: tensor<128xf32>) {\n" + body.str() + "\nreturn\n}";
    module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    std::vector<Operation *> ops;
    if (!module)
      return ops;
    module->walk([&](Operation *op) {
      if (isa<tileas::TileASDialect>(op->getDialect()))
        ops.push_back(op);
    });
    return ops;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(ConstraintAttrsTest, ReadsEveryAttribute) {
  auto ops = parse(R"(
    %a = tileas.exp2 %x {tileas.schedule.constraint.gid = 3 : i32,
      tileas.schedule.constraint.leader_gid = 1 : i32,
      tileas.schedule.constraint.max_depth = 2 : i32,
      tileas.schedule.constraint.force_serial_execution,
      tileas.preferred_atom_size = 16 : i32,
      tileas.max_num_slices_for_non_reduce_axis = 4 : i32,
      tileas.max_num_of_recomputations = 5 : i32,
      tileas.enable_defusion_if_fusion_extending_liveness,
      tileas.recomputable} : tensor<128xf32>)");
  ASSERT_EQ(ops.size(), 1u);
  FailureOr<sched::OpConstraints> c = attrs::readConstraints(ops[0]);
  ASSERT_TRUE(succeeded(c));
  EXPECT_EQ(c->gid, std::optional<int32_t>(3));
  EXPECT_EQ(c->leaderGid, std::optional<int32_t>(1));
  EXPECT_EQ(c->maxDepth, std::optional<unsigned>(2));
  EXPECT_TRUE(c->forceSerial);
  EXPECT_EQ(c->preferredAtomSize, std::optional<int32_t>(16));
  EXPECT_EQ(c->maxNumSlicesForNonReduceAxis, std::optional<int32_t>(4));
  EXPECT_EQ(c->maxNumOfRecomputations, std::optional<int32_t>(5));
  EXPECT_TRUE(c->enableDefusionIfFusionExtendingLiveness);
  EXPECT_TRUE(c->recomputable);
}

TEST_F(ConstraintAttrsTest, AbsentIsNotZero) {
  auto ops = parse(R"(
    %a = tileas.exp2 %x : tensor<128xf32>
    %b = tileas.exp2 %x {tileas.schedule.constraint.max_depth = 0 : i32} : tensor<128xf32>)");
  ASSERT_EQ(ops.size(), 2u);
  FailureOr<sched::OpConstraints> a = attrs::readConstraints(ops[0]);
  FailureOr<sched::OpConstraints> b = attrs::readConstraints(ops[1]);
  ASSERT_TRUE(succeeded(a) && succeeded(b));
  EXPECT_FALSE(a->maxDepth);
  EXPECT_FALSE(a->gid);
  EXPECT_FALSE(a->hasPlacementConstraint());
  EXPECT_EQ(b->maxDepth, std::optional<unsigned>(0));
}

TEST_F(ConstraintAttrsTest, SeedsGroupsAndPendingInOneWalk) {
  auto ops = parse(R"(
    %a = tileas.exp2 %x {tileas.schedule.constraint.gid = 2 : i32, tileas.schedule.constraint.leader_gid = 1 : i32} : tensor<128xf32>
    %b = tileas.exp2 %x {tileas.schedule.constraint.gid = 1 : i32} : tensor<128xf32>
    %c = tileas.exp2 %x {tileas.schedule.constraint.gid = 5 : i32} : tensor<128xf32>
    %d = tileas.exp2 %x : tensor<128xf32>)");
  ASSERT_EQ(ops.size(), 4u);
  std::vector<sched::OpConstraints> constraints;
  sched::ConstraintGroups groups;
  ASSERT_TRUE(succeeded(attrs::seedConstraints(ops, constraints, groups)));
  ASSERT_EQ(constraints.size(), 4u);
  EXPECT_EQ(groups.groupOf(0), std::optional<int32_t>(1));
  EXPECT_EQ(groups.groupOf(1), std::optional<int32_t>(1));
  // gid 5 has no leader_gid: it leads its own group, not group 0.
  EXPECT_EQ(groups.groupOf(2), std::optional<int32_t>(5));
  EXPECT_FALSE(groups.groupOf(3));
  EXPECT_TRUE(groups.isPending(0));
  EXPECT_FALSE(groups.isPending(1));
  EXPECT_FALSE(groups.isPending(2));
}

TEST_F(ConstraintAttrsTest, ContradictoryLeadersFail) {
  auto ops = parse(R"(
    %a = tileas.exp2 %x {tileas.schedule.constraint.gid = 4 : i32, tileas.schedule.constraint.leader_gid = 7 : i32} : tensor<128xf32>
    %b = tileas.exp2 %x {tileas.schedule.constraint.gid = 4 : i32, tileas.schedule.constraint.leader_gid = 3 : i32} : tensor<128xf32>)");
  std::vector<sched::OpConstraints> constraints;
  sched::ConstraintGroups groups;
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(attrs::seedConstraints(ops, constraints, groups)));
  EXPECT_EQ(message, "constraint group 4 is given two leaders: 3 here and 7 "
                     "earlier");
}

} // namespace
