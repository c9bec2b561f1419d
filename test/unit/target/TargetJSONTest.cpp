//===- TargetJSONTest.cpp - target files: round trip, inherit, errors -----===//
//
// The loader's messages are part of its interface (users read them, lit
// tests match them), so the rejection tests compare whole messages.
//
//===----------------------------------------------------------------------===//

#include "target/Target.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace tilepipe::target;

namespace {

std::string dump(const TargetModel &model) {
  return llvm::formatv("{0:2}", model.toJSON()).str();
}

/// The loader's message for `text`, or "<loaded>".
std::string loadError(llvm::StringRef text) {
  llvm::Expected<TargetModel> model = TargetModel::fromJSON(text, "bad.json");
  if (model)
    return "<loaded>";
  return llvm::toString(model.takeError());
}

TargetModel load(llvm::StringRef text) {
  llvm::Expected<TargetModel> model = TargetModel::fromJSON(text, "t.json");
  if (!model) {
    ADD_FAILURE() << llvm::toString(model.takeError());
    return TargetModel();
  }
  return std::move(*model);
}

/// The source tree's target/sm_100a.json, found from this file's path.
std::string shippedFile() {
  llvm::SmallString<256> path(__FILE__);
  for (int i = 0; i < 4; ++i)
    llvm::sys::path::remove_filename(path);
  llvm::sys::path::append(path, "target", "sm_100a.json");
  return std::string(path);
}

//===----------------------------------------------------------------------===//
// Round trip
//===----------------------------------------------------------------------===//

TEST(TargetJSON, RoundTripIsIdentical) {
  const TargetModel &builtIn = TargetModel::sm100a();
  std::string text = dump(builtIn);
  TargetModel loaded = load(text);
  EXPECT_EQ(loaded, builtIn);
  EXPECT_EQ(dump(loaded), text);
  EXPECT_EQ(loaded.lookupOpClass("umma")->latency,
            builtIn.lookupOpClass("umma")->latency);
}

TEST(TargetJSON, OutputIsDeterministicAndSortedByName) {
  TargetModel shuffled = TargetModel::sm100a();
  std::reverse(shuffled.opClasses.begin(), shuffled.opClasses.end());
  shuffled.rebuildIndex();
  EXPECT_EQ(shuffled, TargetModel::sm100a()) << "order is not content";
  std::string text = dump(shuffled);
  EXPECT_EQ(text, dump(TargetModel::sm100a()));
  size_t a = text.find("\"book.dual_alu\""), b = text.find("\"cp_async\""),
         c = text.find("\"umma_ts\"");
  ASSERT_NE(a, std::string::npos);
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
}

TEST(TargetJSON, ShippedFileIsTheBuiltIn) {
  std::string path = shippedFile();
  llvm::Expected<TargetModel> model = TargetModel::fromFile(path);
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  EXPECT_EQ(*model, TargetModel::sm100a());
  // Byte for byte what `tilepipe target --dump --json` writes, so that a
  // change to SM100a.cpp without regenerating the file fails here.
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buffer));
  EXPECT_EQ((*buffer)->getBuffer().str(), dump(TargetModel::sm100a()) + "\n");
}

TEST(TargetJSON, QuantityForms) {
  TargetModel m = load(R"({"name": "q", "inherit": "sm_100a",
    "op_classes": {"x": {
      "latency": {"base": 3, "flops_per_cycle": 2, "elements_per_cycle": 4},
      "chain_latency": {"bytes_table": [[0, 1], [10, 11]]},
      "footprint": [{"slot": "dual_alu", "duration": {"bytes_per_cycle": 8}}]
    }}})");
  const OpClassInfo *x = m.lookupOpClass("x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->latency.base, 3);
  EXPECT_EQ(x->latency.flopsPerCycle, 2);
  EXPECT_EQ(x->latency.elementsPerCycle, 4);
  ASSERT_TRUE(x->chainLatency.has_value());
  EXPECT_EQ(x->chainLatency->bytesTable,
            (std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {10, 11}}));
  EXPECT_EQ(x->footprint[0].duration.bytesPerCycle, 8);
  EXPECT_EQ(x->footprint[0].occupancy, 1u) << "occupancy defaults to 1";
  EXPECT_FALSE(x->async);
  ResolvedOp op = m.resolve(*x, {5, 5, 5});
  EXPECT_EQ(op.latency, 3 + 3 + 2);
  EXPECT_EQ(op.chainLatency, 6);
  EXPECT_EQ(load(dump(m)), m);
}

//===----------------------------------------------------------------------===//
// Files that stand alone, and files that inherit
//===----------------------------------------------------------------------===//

TEST(TargetJSON, StandaloneTarget) {
  TargetModel m = load(R"({
    "name": "toy",
    "description": "two units",
    "pools": [{"index": 0, "name": "lanes", "capacity": 2}],
    "slots": [{"id": 1, "name": "alu", "kind": "fine", "pool": "lanes"},
              {"id": 2, "name": "mem", "kind": "coarse", "primary": true,
               "meaning": "memory port"}],
    "op_classes": {
      "add": {"latency": 1, "footprint": [{"slot": 1, "duration": 1,
                                           "occupancy": 2}]},
      "load": {"latency": 10, "footprint": [{"slot": "mem", "duration": 3}],
               "pools": [{"pool": 0}], "async": true, "source": "made up"}
    }})");
  EXPECT_EQ(m.getName(), "toy");
  EXPECT_EQ(m.description, "two units");
  ASSERT_EQ(m.getSlots().size(), 2u);
  EXPECT_EQ(m.getSlot(1)->pool, 0u);
  EXPECT_TRUE(m.getSlot(2)->primary);
  EXPECT_EQ(m.getSlot(2)->kind, SlotKind::Coarse);
  EXPECT_EQ(m.getPools()[0].binding, true) << "binding defaults to true";
  EXPECT_EQ(m.getCaps(), GlobalCaps{}) << "absent caps keep the defaults";
  ASSERT_EQ(m.getOpClasses().size(), 2u);
  EXPECT_EQ(m.getOpClasses()[0].name, "add") << "sorted by name";
  const OpClassInfo *ld = m.lookupOpClass("load");
  EXPECT_EQ(ld->pools[0].amount, 1u) << "amount defaults to 1";
  EXPECT_TRUE(ld->async);
  EXPECT_EQ(ld->source, "made up");
  EXPECT_EQ(load(dump(m)), m);
}

TEST(TargetJSON, InheritOverridesAndAdds) {
  TargetModel m = load(R"({
    "name": "sm_100a_small_smem",
    "inherit": "sm_100a",
    "pools": [{"index": 1, "name": "alu_fma_issue", "capacity": 2}],
    "slots": [{"id": 20, "name": "my_unit", "kind": "fine", "primary": true,
               "pool": "regbank_pair", "meaning": "repurposed"}],
    "caps": {"smem_bytes": 101376, "reserved_named_barriers": 1},
    "op_classes": {
      "umma": {"latency": 300, "footprint": [{"slot": "tc_and_mma",
                                              "duration": 64}],
               "async": true, "mma": true},
      "my_op": {"latency": 5, "footprint": [{"slot": "my_unit",
                                             "duration": 2,
                                             "occupancy": 2}]}
    }})");
  const TargetModel &base = TargetModel::sm100a();
  EXPECT_EQ(m.getName(), "sm_100a_small_smem");
  EXPECT_EQ(m.description, "") << "descriptions are not inherited";
  ASSERT_EQ(m.getSlots().size(), 24u);
  EXPECT_EQ(m.getSlot(20)->name, "my_unit");
  EXPECT_EQ(m.lookupSlot("unknown"), nullptr);
  EXPECT_EQ(m.lookupSlot("my_unit")->pool, 8u);
  for (unsigned id = 1; id <= 24; ++id) {
    if (id != 20) {
      EXPECT_EQ(*m.getSlot(id), *base.getSlot(id));
    }
  }
  ASSERT_EQ(m.getPools().size(), 9u);
  EXPECT_EQ(m.getPools()[1].capacity, 2u);
  EXPECT_EQ(m.getPools()[1].role, "") << "a listed pool replaces it whole";
  EXPECT_EQ(m.getPools()[2], base.getPools()[2]);
  EXPECT_EQ(m.getCaps().smemBytes, 101376);
  EXPECT_EQ(m.getCaps().reservedNamedBarriers, 1u);
  EXPECT_EQ(m.getCaps().tmemColumns, 512) << "unlisted caps are inherited";
  EXPECT_EQ(m.getOpClasses().size(), base.getOpClasses().size() + 1);
  const OpClassInfo *umma = m.lookupOpClass("umma");
  EXPECT_EQ(umma->latency, Quantity::constant(300));
  EXPECT_FALSE(umma->chainLatency.has_value()) << "replaced whole";
  EXPECT_EQ(umma->footprint.size(), 1u);
  EXPECT_EQ(*m.lookupOpClass("fma"), *base.lookupOpClass("fma"));
  EXPECT_EQ(m.lookupOpClass("my_op")->footprint[0].slot, 20u);
  EXPECT_EQ(load(dump(m)), m);
}

TEST(TargetJSON, InheritCanAppendPools) {
  TargetModel m = load(R"({"name": "x", "inherit": "sm_100a",
    "pools": [{"index": 9, "name": "extra", "capacity": 3, "binding": false}],
    "op_classes": {"e": {"latency": 1, "pools": [{"pool": "extra",
                                                  "amount": 3}]}}})");
  ASSERT_EQ(m.getPools().size(), 10u);
  EXPECT_EQ(m.getPools()[9].name, "extra");
  EXPECT_FALSE(m.getPools()[9].binding);
  EXPECT_EQ(m.lookupOpClass("e")->pools[0].pool, 9u);
}

//===----------------------------------------------------------------------===//
// Rejections: every message names the file and the field.
//===----------------------------------------------------------------------===//

/// A valid file inheriting sm_100a with `classes` as its op_classes.
std::string withClasses(llvm::StringRef classes) {
  return (R"({"name": "t", "inherit": "sm_100a", "op_classes": )" + classes +
          "}")
      .str();
}

TEST(TargetJSONErrors, NotJSON) {
  EXPECT_EQ(loadError("{\"name\": \"t\",\n  \"slots\": [1, 2,]\n}"),
            "bad.json:2:18: not valid JSON: Invalid JSON value");
  EXPECT_EQ(loadError(""), "bad.json:1:1: not valid JSON: Unexpected EOF");
}

TEST(TargetJSONErrors, DuplicateKey) {
  EXPECT_EQ(loadError("{\"name\": \"t\", \"inherit\": \"sm_100a\",\n"
                      " \"op_classes\": {\"x\": {\"latency\": 1},\n"
                      "                \"x\": {\"latency\": 2}}}"),
            "bad.json: op_classes.x: duplicate key at 3:17 (first written at "
            "2:17)");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1, "footprint": [
                {"slot": "tma", "duration": 1, "slot": "tma"}]}})")),
            "bad.json: op_classes.x.footprint[0].slot: duplicate key at 2:48 "
            "(first written at 2:18)");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a",
                          "caps": {"a": {"b": 1, "b": [1, {"c": "}"}]}}})"),
            "bad.json: caps.a.b: duplicate key at 2:50 (first written at "
            "2:42)");
}

TEST(TargetJSONErrors, TopLevelNotAnObject) {
  EXPECT_EQ(loadError("[1]"),
            "bad.json: expected an object at the top level, got an array");
}

TEST(TargetJSONErrors, MissingRequiredField) {
  EXPECT_EQ(loadError(R"({"inherit": "sm_100a"})"),
            "bad.json: name: missing required field");
  EXPECT_EQ(loadError(R"({"name": "t", "pools": []})"),
            "bad.json: slots: missing required field");
  EXPECT_EQ(loadError(R"({"name": "t", "slots": []})"),
            "bad.json: pools: missing required field");
  EXPECT_EQ(loadError(withClasses(R"({"umma": {"footprint": []}})")),
            "bad.json: op_classes.umma.latency: missing required field");
  EXPECT_EQ(loadError(withClasses(
                R"({"x": {"latency": 1, "footprint": [{"duration": 1}]}})")),
            "bad.json: op_classes.x.footprint[0].slot: missing required field");
  EXPECT_EQ(loadError(withClasses(
                R"({"x": {"latency": 1, "footprint": [{"slot": "tma"}]}})")),
            "bad.json: op_classes.x.footprint[0].duration: missing required "
            "field");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a",
                          "slots": [{"id": 3, "kind": "fine"}]})"),
            "bad.json: slots[0].name: missing required field");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a",
                          "pools": [{"index": 3, "name": "p"}]})"),
            "bad.json: pools[0].capacity: missing required field");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1,
                                            "pools": [{"amount": 1}]}})")),
            "bad.json: op_classes.x.pools[0].pool: missing required field");
}

TEST(TargetJSONErrors, WrongType) {
  EXPECT_EQ(loadError(R"({"name": 3, "inherit": "sm_100a"})"),
            "bad.json: name: expected a string, got a number");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a", "slots": {}})"),
            "bad.json: slots: expected an array, got an object");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a", "caps": [1]})"),
            "bad.json: caps: expected an object, got an array");
  EXPECT_EQ(loadError(withClasses(R"({"x": 4})")),
            "bad.json: op_classes.x: expected an object, got a number");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": "4"}})")),
            "bad.json: op_classes.x.latency: expected an integer or a "
            "quantity object, got a string");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1.5}})")),
            "bad.json: op_classes.x.latency: expected an integer, got 1.5");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1, "async": 1}})")),
            "bad.json: op_classes.x.async: expected true or false, got a "
            "number");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1, "footprint":
                [{"slot": "tma", "duration": 1, "occupancy": "2"}]}})")),
            "bad.json: op_classes.x.footprint[0].occupancy: expected an "
            "integer, got a string");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1, "footprint":
                [{"slot": [12], "duration": 1}]}})")),
            "bad.json: op_classes.x.footprint[0].slot: expected a slot name "
            "or id, got an array");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency":
                {"bytes_table": [[1, 2, 3]]}}})")),
            "bad.json: op_classes.x.latency.bytes_table[0]: expected a "
            "[bytes, cycles] pair");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a",
                          "slots": [{"id": 3, "name": "a", "kind": "warm"}]})"),
            "bad.json: slots[0].kind: unknown slot kind 'warm' (expected "
            "coarse, fine or test)");
}

TEST(TargetJSONErrors, UnknownSlot) {
  EXPECT_EQ(loadError(withClasses(R"({"umma": {"latency": 1, "footprint": [
                {"slot": "tc_and_mma", "duration": 8},
                {"slot": "tpmma", "duration": 8}]}})")),
            "bad.json: op_classes.umma.footprint[1].slot: unknown slot "
            "'tpmma'");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1, "footprint": [
                {"slot": 30, "duration": 8}]}})")),
            "bad.json: op_classes.x.footprint[0].slot: unknown slot 30");
  EXPECT_EQ(loadError(withClasses(R"({"book.mma": {"latency": 1,
                "footprint": [{"slot": "x", "duration": 8}]}})")),
            "bad.json: op_classes[\"book.mma\"].footprint[0].slot: unknown "
            "slot 'x'");
}

TEST(TargetJSONErrors, UnknownPool) {
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1,
                "pools": [{"pool": "smem_budget"}]}})")),
            "bad.json: op_classes.x.pools[0].pool: unknown pool "
            "'smem_budget'");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1,
                "pools": [{"pool": 9}]}})")),
            "bad.json: op_classes.x.pools[0].pool: unknown pool 9");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a", "slots": [
                {"id": 5, "name": "alu", "kind": "coarse", "pool": "alu"}]})"),
            "bad.json: slots[0].pool: unknown pool 'alu'");
}

TEST(TargetJSONErrors, SlotIdOutOfRange) {
  EXPECT_EQ(loadError(R"({"name": "t", "pools": [], "slots": [
                {"id": 0, "name": "a", "kind": "fine"}]})"),
            "bad.json: slots[0].id: slot id 0 is out of range 1..24");
  EXPECT_EQ(loadError(R"({"name": "t", "pools": [], "slots": [
                {"id": 1, "name": "a", "kind": "fine"},
                {"id": 25, "name": "b", "kind": "fine"}]})"),
            "bad.json: slots[1].id: slot id 25 is out of range 1..24");
}

TEST(TargetJSONErrors, DuplicateSlotIdOrName) {
  EXPECT_EQ(loadError(R"({"name": "t", "pools": [], "slots": [
                {"id": 1, "name": "a", "kind": "fine"},
                {"id": 1, "name": "b", "kind": "fine"}]})"),
            "bad.json: slots[1].id: duplicate slot id 1 (also slots[0])");
  EXPECT_EQ(loadError(R"({"name": "t", "pools": [], "slots": [
                {"id": 1, "name": "a", "kind": "fine"},
                {"id": 2, "name": "a", "kind": "fine"}]})"),
            "bad.json: slots[1].name: duplicate slot name 'a' (also slot 1)");
  // Against an inherited slot: reported at the entry the file wrote.
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a", "slots": [
                {"id": 20, "name": "tma", "kind": "fine"}]})"),
            "bad.json: slots[0].name: duplicate slot name 'tma' (also slot "
            "12)");
}

TEST(TargetJSONErrors, SlotIdGap) {
  EXPECT_EQ(loadError(R"({"name": "t", "pools": [], "slots": [
                {"id": 1, "name": "a", "kind": "fine"},
                {"id": 3, "name": "b", "kind": "fine"}]})"),
            "bad.json: slots[1].id: slot id 3 leaves a gap (slot ids must "
            "run from 1 without gaps; the next free one is 2)");
}

TEST(TargetJSONErrors, DuplicatePool) {
  EXPECT_EQ(loadError(R"({"name": "t", "slots": [], "pools": [
                {"index": 0, "name": "a", "capacity": 1},
                {"index": 0, "name": "b", "capacity": 1}]})"),
            "bad.json: pools[1].index: duplicate pool index 0 (also "
            "pools[0])");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a", "pools": [
                {"index": 9, "name": "smem_lock", "capacity": 1}]})"),
            "bad.json: pools[0].name: duplicate pool name 'smem_lock' (also "
            "pool 5)");
  EXPECT_EQ(loadError(R"({"name": "t", "slots": [], "pools": [
                {"index": 1, "name": "a", "capacity": 1}]})"),
            "bad.json: pools[0].index: pool 1 leaves a gap (pools must run "
            "from 0 without gaps; the next free one is 0)");
}

TEST(TargetJSONErrors, PoolCapacityZero) {
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a", "pools": [
                {"index": 1, "name": "alu_fma_issue", "capacity": 0}]})"),
            "bad.json: pools[0].capacity: must be at least 1 (got 0)");
}

TEST(TargetJSONErrors, Occupancy) {
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1, "footprint": [
                {"slot": "tma", "duration": 1, "occupancy": 0}]}})")),
            "bad.json: op_classes.x.footprint[0].occupancy: must be at least "
            "1 (got 0)");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1, "footprint": [
                {"slot": "alu_or_fmaheavy", "duration": 1,
                 "occupancy": 5}]}})")),
            "bad.json: op_classes.x.footprint[0].occupancy: 5 exceeds the "
            "capacity 4 of pool 'alu_fma_issue' that slot 'alu_or_fmaheavy' "
            "is bound to");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1, "footprint": [
                {"slot": "tma", "duration": 1, "occupancy": 2}]}})")),
            "bad.json: op_classes.x.footprint[0].occupancy: slot 'tma' is a "
            "singleton (bound to no pool), so occupancy must be 1 (got 2)");
  // Lowering a capacity under an inherited class's occupancy is caught too.
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a",
                "pools": [{"index": 1, "name": "alu_fma_issue",
                           "capacity": 1}],
                "op_classes": {"y": {"latency": 1, "footprint": [
                  {"slot": "alu_or_fmaheavy", "duration": 1,
                   "occupancy": 2}]}}})"),
            "bad.json: op_classes.y.footprint[0].occupancy: 2 exceeds the "
            "capacity 1 of pool 'alu_fma_issue' that slot 'alu_or_fmaheavy' "
            "is bound to");
}

TEST(TargetJSONErrors, PoolAmount) {
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1,
                "pools": [{"pool": "smem_lock", "amount": 2}]}})")),
            "bad.json: op_classes.x.pools[0].amount: 2 exceeds the capacity "
            "1 of pool 'smem_lock'");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1,
                "pools": [{"pool": "smem_lock", "amount": 0}]}})")),
            "bad.json: op_classes.x.pools[0].amount: must be at least 1 (got "
            "0)");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1,
                "pools": [{"pool": 7}, {"pool": "alu_fma_fanout"}]}})")),
            "bad.json: op_classes.x.pools[1].pool: pool 'alu_fma_fanout' "
            "already requested in pools[0]");
}

TEST(TargetJSONErrors, DuplicateFootprintSlot) {
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1, "footprint": [
                {"slot": "tma", "duration": 1},
                {"slot": 12, "duration": 2}]}})")),
            "bad.json: op_classes.x.footprint[1].slot: slot 'tma' already "
            "appears in footprint[0]");
}

TEST(TargetJSONErrors, NegativeNumbers) {
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": -1}})")),
            "bad.json: op_classes.x.latency: must not be negative (got -1)");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": {"base": -2}}})")),
            "bad.json: op_classes.x.latency.base: must not be negative (got "
            "-2)");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1, "footprint": [
                {"slot": "tma", "duration": {"bytes_per_cycle": -25}}]}})")),
            "bad.json: op_classes.x.footprint[0].duration.bytes_per_cycle: "
            "must not be negative (got -25)");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency":
                {"bytes_table": [[1024, 10], [2048, -1]]}}})")),
            "bad.json: op_classes.x.latency.bytes_table[1][1]: must not be "
            "negative (got -1)");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a",
                          "caps": {"smem_bytes": -5}})"),
            "bad.json: caps.smem_bytes: must not be negative (got -5)");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a", "pools": [
                {"index": -1, "name": "p", "capacity": 1}]})"),
            "bad.json: pools[0].index: must not be negative (got -1)");
}

TEST(TargetJSONErrors, BytesTable) {
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency":
                {"bytes_table": [[1024, 10], [4096, 20], [2048, 30]]}}})")),
            "bad.json: op_classes.x.latency.bytes_table[2]: bytes 2048 must "
            "be above the previous point's 4096 (bytes_table must be "
            "strictly increasing)");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency":
                {"bytes_table": [[1024, 10], [1024, 20]]}}})")),
            "bad.json: op_classes.x.latency.bytes_table[1]: bytes 1024 must "
            "be above the previous point's 1024 (bytes_table must be "
            "strictly increasing)");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency":
                {"bytes_table": []}}})")),
            "bad.json: op_classes.x.latency.bytes_table: must have at least "
            "one [bytes, cycles] point");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency":
                {"bytes_table": [[1, 1]], "bytes_per_cycle": 4}}})")),
            "bad.json: op_classes.x.latency.bytes_per_cycle: cannot be "
            "combined with bytes_table (the table replaces the bytes term)");
}

TEST(TargetJSONErrors, UnknownKeys) {
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a", "slot": []})"),
            "bad.json: slot: unknown field (expected one of: name, "
            "description, inherit, slots, pools, caps, chip, op_classes)");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1, "latncy": 2}})")),
            "bad.json: op_classes.x.latncy: unknown field (expected one of: "
            "latency, chain_latency, footprint, pools, async, tma, mma, "
            "source)");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": 1, "footprint": [
                {"slot": "tma", "duration": 1, "ocupancy": 1}]}})")),
            "bad.json: op_classes.x.footprint[0].ocupancy: unknown field "
            "(expected one of: slot, duration, occupancy)");
  EXPECT_EQ(loadError(withClasses(R"({"x": {"latency": {"bytes": 3}}})")),
            "bad.json: op_classes.x.latency.bytes: unknown field (expected "
            "one of: base, bytes_per_cycle, flops_per_cycle, "
            "elements_per_cycle, hbm_bytes_per_cycle, "
            "fetched_bytes_per_cycle, bytes_table)");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a",
                          "caps": {"smem": 1}})"),
            "bad.json: caps.smem: unknown field (expected one of: smem_bytes, "
            "tmem_columns, tmem_lanes, named_barriers, "
            "reserved_named_barriers, registers_per_sm)");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a", "slots": [
                {"id": 3, "name": "a", "kind": "fine", "primray": true}]})"),
            "bad.json: slots[0].primray: unknown field (expected one of: id, "
            "name, kind, primary, pool, meaning)");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a", "pools": [
                {"index": 3, "name": "a", "capacity": 1, "cap": 1}]})"),
            "bad.json: pools[0].cap: unknown field (expected one of: index, "
            "name, capacity, binding, role)");
}

TEST(TargetJSONErrors, UnknownBase) {
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_80"})"),
            "bad.json: inherit: unknown base target 'sm_80' (known: "
            "sm_100a, sm_90a)");
}

// The Hopper model is its shipped file compiled in (target/SM90a.cpp): it
// loads, validates, has no TMEM and only wgmma tensor-core classes, and a
// file may inherit it.
TEST(TargetJSON, BuiltinHopper) {
  const TargetModel *h = TargetModel::builtin("sm_90a");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h, &TargetModel::sm90a());
  EXPECT_EQ(h->getName(), "sm_90a");
  llvm::Error invalid = h->validate();
  EXPECT_FALSE(bool(invalid)) << llvm::toString(std::move(invalid));
  EXPECT_EQ(h->getCaps().tmemColumns, 0);
  EXPECT_EQ(h->getChip().smCount, 132u);
  EXPECT_NE(h->lookupOpClass("wgmma"), nullptr);
  EXPECT_EQ(h->lookupOpClass("umma"), nullptr);
  EXPECT_EQ(h->lookupOpClass("tmem_load"), nullptr);
  EXPECT_EQ(TargetModel::builtin("sm_100a"), &TargetModel::sm100a());
  EXPECT_EQ(TargetModel::builtin("sm_80"), nullptr);
  TargetModel derived = load(R"({"name": "h", "inherit": "sm_90a",
                                 "chip": {"sm_count": 114}})");
  EXPECT_EQ(derived.getChip().smCount, 114u);
  EXPECT_NE(derived.lookupOpClass("wgmma_rs"), nullptr);
}

TEST(TargetJSONErrors, Caps) {
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a",
                          "caps": {"reserved_named_barriers": 17}})"),
            "bad.json: caps.reserved_named_barriers: 17 exceeds "
            "named_barriers (16)");
  EXPECT_EQ(loadError(R"({"name": "t", "inherit": "sm_100a",
                          "caps": {"named_barriers": 4294967296}})"),
            "bad.json: caps.named_barriers: 4294967296 is out of range (at "
            "most 4294967295)");
}

TEST(TargetJSONErrors, EmptyName) {
  EXPECT_EQ(loadError(R"({"name": "", "inherit": "sm_100a"})"),
            "bad.json: name: must not be empty");
}

TEST(TargetJSONErrors, UnreadableFile) {
  llvm::Expected<TargetModel> model =
      TargetModel::fromFile("/nonexistent/target.json");
  ASSERT_FALSE(bool(model));
  EXPECT_EQ(llvm::toString(model.takeError()),
            "/nonexistent/target.json: cannot read file: No such file or "
            "directory");
}

//===----------------------------------------------------------------------===//
// validate() on hand-built models
//===----------------------------------------------------------------------===//

std::string validateError(const TargetModel &m) {
  llvm::Error err = m.validate();
  return err ? llvm::toString(std::move(err)) : "<valid>";
}

TEST(Validate, CatchesBrokenModels) {
  TargetModel m = TargetModel::sm100a();
  EXPECT_EQ(validateError(m), "<valid>");

  TargetModel badId = m;
  badId.slots[3].id = 9;
  EXPECT_EQ(validateError(badId),
            "slots[3].id: slot at position 3 must have id 4 (got 9; slots "
            "are indexed by id - 1)");

  TargetModel badPoolRef = m;
  badPoolRef.slots[0].pool = 42;
  EXPECT_EQ(validateError(badPoolRef), "slots[0].pool: unknown pool 42");

  TargetModel badPool = m;
  badPool.pools[2].capacity = 0;
  EXPECT_EQ(validateError(badPool), "pools[2].capacity: must be at least 1");

  TargetModel dupClass = m;
  dupClass.opClasses.push_back(dupClass.opClasses.front());
  EXPECT_EQ(validateError(dupClass),
            "op_classes[\"book.dual_alu\"]: duplicate op class name "
            "'book.dual_alu'");

  TargetModel badSlotRef = m;
  badSlotRef.opClasses.back().footprint[0].slot = 0;
  std::string name = badSlotRef.opClasses.back().name;
  EXPECT_EQ(validateError(badSlotRef),
            "op_classes." + name + ".footprint[0].slot: unknown slot 0");

  TargetModel tooMany = m;
  tooMany.slots.push_back(
      SlotInfo{25, "extra", SlotKind::Fine, false, std::nullopt, ""});
  EXPECT_EQ(validateError(tooMany),
            "slots: 25 slots; at most 24 (one RRT bit per slot id)");

  TargetModel unnamed = m;
  unnamed.name.clear();
  EXPECT_EQ(validateError(unnamed), "name: must not be empty");
}

} // namespace

//===----------------------------------------------------------------------===//
// Where TMA bytes come from, and the chip
//===----------------------------------------------------------------------===//

namespace {

TEST(TargetJSON, ChipOfTheBuiltIn) {
  const ChipInfo &chip = TargetModel::sm100a().getChip();
  EXPECT_EQ(chip.smCount, 148u);
  EXPECT_EQ(chip.clockMHz, 1965u);
  EXPECT_EQ(chip.defaultL2Reuse, 4u);
  EXPECT_NE(chip.source.find("blackwell-facts 1.1"), std::string::npos);
  std::string text = dump(TargetModel::sm100a());
  EXPECT_NE(text.find("\"chip\": {\n    \"clock_mhz\": 1965,\n    "
                      "\"default_l2_reuse\": 4,\n    \"sm_count\": 148,"),
            std::string::npos);
}

TEST(TargetJSON, ChipAndByteSourcesRoundTrip) {
  TargetModel m = load(R"({"name": "c", "inherit": "sm_100a",
    "chip": {"sm_count": 132, "default_l2_reuse": 2},
    "op_classes": {"tma_load": {
      "latency": 100,
      "footprint": [
        {"slot": "tma", "duration": {"hbm_bytes_per_cycle": 20}},
        {"slot": "tp_gnic_rd", "duration": {"fetched_bytes_per_cycle": 50}}],
      "async": true, "tma": true}}})");
  EXPECT_EQ(m.getChip().smCount, 132u);
  EXPECT_EQ(m.getChip().clockMHz, 1965u) << "inherited";
  EXPECT_EQ(m.getChip().defaultL2Reuse, 2u);
  const OpClassInfo *tma = m.lookupOpClass("tma_load");
  ASSERT_NE(tma, nullptr);
  EXPECT_EQ(tma->footprint[0].duration.hbmBytesPerCycle, 20);
  EXPECT_EQ(tma->footprint[1].duration.fetchedBytesPerCycle, 50);
  // The file's default reuse applies to a load that states none.
  ResolvedOp op = m.resolve(*tma, {4000, 0, 0});
  EXPECT_EQ(op.triples[0].duration, 100u) << "2000 HBM bytes at 20 B/clk";
  EXPECT_EQ(op.triples[1].duration, 80u) << "4000 fetched bytes at 50 B/clk";
  OpWork stated{4000, 0, 0};
  stated.l2Reuse = 1;
  stated.multicast = 4;
  op = m.resolve(*tma, stated);
  EXPECT_EQ(op.triples[0].duration, 50u);
  EXPECT_EQ(op.triples[1].duration, 20u);
  std::string text = dump(m);
  TargetModel again = load(text);
  EXPECT_EQ(again, m);
  EXPECT_EQ(dump(again), text);
  TargetModel other = again;
  other.chip.clockMHz = 1800;
  EXPECT_NE(other, m) << "the chip is part of the model";
}

TEST(TargetJSONErrors, Chip) {
  EXPECT_EQ(loadError(R"({"name": "c", "inherit": "sm_100a",
                          "chip": {"default_l2_reuse": 0}})"),
            "bad.json: chip.default_l2_reuse: must be at least 1 (got 0)");
  std::string unknown = loadError(R"({"name": "c", "inherit": "sm_100a",
                                      "chip": {"clock_ghz": 2}})");
  EXPECT_NE(unknown.find("bad.json: chip.clock_ghz: unknown field"),
            std::string::npos)
      << unknown;
  std::string negative = loadError(R"({"name": "c", "inherit": "sm_100a",
    "op_classes": {"x": {"latency": {"hbm_bytes_per_cycle": -1}}}})");
  EXPECT_NE(negative.find("op_classes.x.latency.hbm_bytes_per_cycle"),
            std::string::npos)
      << negative;
}

} // namespace
