//===- ProblemJSONTest.cpp - the JSON problem reader ----------------------===//

#include "scheduler/io/ProblemJSON.h"

#include "gtest/gtest.h"

#include <string>

using namespace tilepipe;
using namespace tilepipe::io;
using tilepipe::sched::OpId;

namespace {

std::optional<ProblemFile> readOK(llvm::StringRef text,
                                  llvm::StringRef fileName = "p.json") {
  llvm::Expected<ProblemFile> file = readProblemJSON(text, fileName);
  if (!file) {
    ADD_FAILURE() << llvm::toString(file.takeError());
    return std::nullopt;
  }
  return std::move(*file);
}

std::string readError(llvm::StringRef text) {
  llvm::Expected<ProblemFile> file = readProblemJSON(text, "p.json");
  if (file)
    return "(read)";
  return llvm::toString(file.takeError());
}

/// A problem with one op "a" plus the given members spliced into the root.
std::string withOp(llvm::StringRef op, llvm::StringRef more = "") {
  return (llvm::Twine(
              "{\"resources\": [{\"name\": \"alu\", \"limit\": 1}, "
              "{\"name\": \"mul\", \"limit\": 2}, {\"name\": \"mem\"}], "
              "\"ops\": [") +
          op + "]" + more + "}")
      .str();
}

const char *kExample = R"({
  "name": "dot",
  "comment": "a hand-written example",
  "resources": [
    {"name": "alu", "limit": 1},
    {"name": "mul", "limit": 2},
    {"name": "mem", "limit": -1},
    {"name": "bus"}
  ],
  "ops": [
    {"name": "ld", "latency": 2, "resource": "mem"},
    {"name": "m", "latency": 3, "resource": "mul", "blocking": 2,
     "class": "fmul"},
    {"name": "a", "latency": 1, "resource": "alu", "max_depth": 1,
     "gid": 4},
    {"name": "st", "latency": 1,
     "uses": [{"resource": "alu"},
              {"resource": "mul", "duration": 3, "amount": 2, "offset": 1},
              {"resource": "bus", "duration": 5}],
     "gid": 5, "leader_gid": 4},
    {"name": "nop", "latency": 0, "resource": "alu", "blocking": 0}
  ],
  "edges": [
    {"src": "ld", "dst": "m"},
    {"src": "m", "dst": "a", "latency": 7},
    {"src": "a", "dst": "a", "distance": 1},
    {"src": "a", "dst": "st", "delay": 2},
    {"src": "m", "dst": "st", "latency": 1, "delay": 1, "distance": 3}
  ]
})";

TEST(ProblemJSON, ReadsTheExample) {
  std::optional<ProblemFile> file = readOK(kExample);
  ASSERT_TRUE(file);
  const sched::Problem &p = file->problem;
  EXPECT_EQ(file->name, "dot");

  // limit 1 -> a bit, limit 2 -> a pool, -1 or absent -> nothing.
  const rrt::ResourceLayout &layout = p.getLayout();
  ASSERT_EQ(layout.numBits(), 1u);
  EXPECT_EQ(layout.bitNames[0], "alu");
  ASSERT_EQ(layout.numPools(), 1u);
  EXPECT_EQ(layout.poolNames[0], "mul");
  EXPECT_EQ(layout.poolCaps[0], 2u);
  EXPECT_TRUE(layout.poolBinding[0]);

  ASSERT_EQ(p.getNumOps(), 5u);
  const sched::Operation &ld = p.getOp(0), &m = p.getOp(1), &a = p.getOp(2),
                         &st = p.getOp(3), &nop = p.getOp(4);
  EXPECT_EQ(ld.name, "ld");
  EXPECT_EQ(ld.latency, 2);
  EXPECT_TRUE(ld.uses.empty()); // Unlimited resource: no footprint.

  EXPECT_EQ(m.opClass, "fmul");
  ASSERT_EQ(m.uses.size(), 1u);
  EXPECT_EQ(m.uses[0].kind, rrt::Use::Kind::Pool);
  EXPECT_EQ(m.uses[0].index, 0u);
  EXPECT_EQ(m.uses[0].duration, 2u);
  EXPECT_EQ(m.uses[0].amount, 1u);
  EXPECT_EQ(m.uses[0].offset, 0u);

  ASSERT_EQ(a.uses.size(), 1u);
  EXPECT_EQ(a.uses[0].kind, rrt::Use::Kind::Bit);
  EXPECT_EQ(a.uses[0].duration, 1u); // blocking defaults to 1.
  EXPECT_EQ(a.constraints.maxDepth, std::optional<unsigned>(1));
  EXPECT_EQ(a.constraints.gid, std::optional<int32_t>(4));
  EXPECT_FALSE(a.constraints.leaderGid);

  ASSERT_EQ(st.uses.size(), 2u); // The "bus" use is unlimited: dropped.
  EXPECT_EQ(st.uses[0].kind, rrt::Use::Kind::Bit);
  EXPECT_EQ(st.uses[0].duration, 1u);
  EXPECT_EQ(st.uses[1].kind, rrt::Use::Kind::Pool);
  EXPECT_EQ(st.uses[1].duration, 3u);
  EXPECT_EQ(st.uses[1].amount, 2u);
  EXPECT_EQ(st.uses[1].offset, 1u);
  EXPECT_EQ(st.constraints.leaderGid, std::optional<int32_t>(4));

  EXPECT_TRUE(nop.uses.empty()); // blocking 0: no footprint.
  EXPECT_FALSE(p.isForceSerial());

  // Edge latency: given, or the source's latency; delay adds to it.
  llvm::ArrayRef<sched::Dependence> deps = p.getDependences();
  ASSERT_EQ(deps.size(), 5u);
  auto expectDep = [&](size_t i, OpId src, OpId dst, int64_t lat,
                       unsigned dist) {
    EXPECT_EQ(deps[i].src, src) << "edge " << i;
    EXPECT_EQ(deps[i].dst, dst) << "edge " << i;
    EXPECT_EQ(deps[i].latency, lat) << "edge " << i;
    EXPECT_EQ(deps[i].distance, dist) << "edge " << i;
  };
  expectDep(0, 0, 1, 2, 0);
  expectDep(1, 1, 2, 7, 0);
  expectDep(2, 2, 2, 1, 1);
  expectDep(3, 2, 3, 3, 0);
  expectDep(4, 1, 3, 2, 3);

  // gid 5 follows 4: one group, rooted at 4, led by "a".
  const sched::ConstraintGroups &groups = p.getGroups();
  EXPECT_EQ(groups.groupOf(2), std::optional<int32_t>(4));
  EXPECT_EQ(groups.groupOf(3), std::optional<int32_t>(4));
  EXPECT_FALSE(groups.groupOf(0));
  EXPECT_EQ(groups.leaderOp(3), std::optional<OpId>(2));

  // The problem is finalized and valid.
  EXPECT_EQ(p.getFootprints().size(), 5u);
  sched::DiagnosticList diags;
  EXPECT_TRUE(p.check(diags));
}

TEST(ProblemJSON, MinimalProblemAndDefaults) {
  std::optional<ProblemFile> file =
      readOK(R"({"ops": [{"name": "x", "latency": 0}], "force_serial": true})",
             "dir/loop.json");
  ASSERT_TRUE(file);
  EXPECT_EQ(file->name, "loop"); // The file's stem.
  EXPECT_EQ(file->problem.getNumOps(), 1u);
  EXPECT_TRUE(file->problem.getDependences().empty());
  EXPECT_EQ(file->problem.getLayout().numBits(), 0u);
  EXPECT_TRUE(file->problem.isForceSerial());
}

TEST(ProblemJSON, LeaderEqualToGidLeadsItsOwnGroup) {
  std::optional<ProblemFile> file = readOK(withOp(
      R"({"name": "a", "latency": 1, "gid": 3, "leader_gid": 3},
         {"name": "b", "latency": 1, "gid": 3, "leader_gid": 3})"));
  ASSERT_TRUE(file);
  EXPECT_EQ(file->problem.getGroups().groupOf(1), std::optional<int32_t>(3));
  EXPECT_EQ(file->problem.getGroups().leaderOp(1), std::optional<OpId>(0));
}

TEST(ProblemJSON, SyntaxErrors) {
  EXPECT_EQ(readError("{\n  \"ops\": [\n    {\"name\": \"a\",}\n  ]\n}"),
            "p.json:3:18: not valid JSON: Expected object key");
  EXPECT_EQ(readError(""), "p.json:1:1: not valid JSON: Unexpected EOF");
  std::string deep(100000, '[');
  EXPECT_EQ(readError(deep),
            "p.json:1:65: arrays and objects nest deeper than 64");
}

TEST(ProblemJSON, DuplicateKeys) {
  EXPECT_EQ(readError("{\"ops\": [{\"name\": \"a\", \"latency\": 1,\n"
                      "  \"latency\": 2}]}"),
            "p.json: ops[0].latency: duplicate key at 2:3 (first written at "
            "1:24)");
  EXPECT_EQ(readError("{\"ops\": [], \"ops\": []}"),
            "p.json: ops: duplicate key at 1:13 (first written at 1:2)");
  // The same key in two objects is not a duplicate.
  EXPECT_EQ(readError(withOp(R"({"name": "a", "latency": 1},
                                {"name": "b", "latency": 1})")),
            "(read)");
}

TEST(ProblemJSON, ShapeErrors) {
  EXPECT_EQ(readError("[]"),
            "p.json: expected the problem to be an object, got an array");
  EXPECT_EQ(readError("{}"), "p.json: missing required key 'ops'");
  EXPECT_EQ(readError(R"({"ops": []})"),
            "p.json: ops: a problem needs at least one op");
  EXPECT_EQ(readError(R"({"ops": {}})"),
            "p.json: ops: expected an array, got an object");
  EXPECT_EQ(readError(R"({"ops": [3]})"),
            "p.json: ops[0]: expected an object, got a number");
  EXPECT_EQ(readError(R"({"name": 3, "ops": []})"),
            "p.json: name: expected a string, got a number");
  EXPECT_EQ(readError(R"({"force_serial": 1, "ops": []})"),
            "p.json: force_serial: expected true or false, got a number");
  EXPECT_EQ(readError(R"({"resources": {}, "ops": []})"),
            "p.json: resources: expected an array, got an object");
  EXPECT_EQ(readError(R"({"resources": [null], "ops": []})"),
            "p.json: resources[0]: expected an object, got null");
  EXPECT_EQ(readError(withOp(R"({"name": "a", "latency": 1})",
                             R"(, "edges": "none")")),
            "p.json: edges: expected an array, got a string");
  EXPECT_EQ(readError(withOp(R"({"name": "a", "latency": 1})",
                             R"(, "edges": [true])")),
            "p.json: edges[0]: expected an object, got a boolean");
  EXPECT_EQ(readError(withOp(R"({"name": "a", "latency": 1, "uses": {}})")),
            "p.json: ops[0].uses: expected an array, got an object");
  EXPECT_EQ(readError(withOp(R"({"name": "a", "latency": 1, "uses": [1]})")),
            "p.json: ops[0].uses[0]: expected an object, got a number");
}

TEST(ProblemJSON, UnknownKeys) {
  EXPECT_EQ(readError(R"({"opz": [], "ops": []})"),
            "p.json: opz: unknown key (expected one of: name, comment, "
            "force_serial, resources, ops, edges)");
  EXPECT_EQ(readError(R"({"resources": [{"name": "x", "cap": 2}], "ops": []})"),
            "p.json: resources[0].cap: unknown key (expected one of: name, "
            "limit)");
  EXPECT_EQ(readError(withOp(R"({"name": "a", "latency": 1, "lat": 2})")),
            "p.json: ops[0].lat: unknown key (expected one of: name, class, "
            "latency, resource, blocking, uses, max_depth, gid, leader_gid, "
            "result_bytes, result_memory)");
  EXPECT_EQ(readError(withOp(
                R"({"name": "a", "latency": 1, "uses": [{"resource": "alu",
                    "cycles": 2}]})")),
            "p.json: ops[0].uses[0].cycles: unknown key (expected one of: "
            "resource, duration, amount, offset)");
  EXPECT_EQ(readError(withOp(R"({"name": "a", "latency": 1})",
                             R"(, "edges": [{"src": "a", "dst": "a",
                                 "dist": 1}])")),
            "p.json: edges[0].dist: unknown key (expected one of: src, dst, "
            "latency, delay, distance)");
  // A key that is not an identifier is quoted in the path.
  EXPECT_EQ(readError(R"({"two words": 1, "ops": []})"),
            "p.json: [\"two words\"]: unknown key (expected one of: name, "
            "comment, force_serial, resources, ops, edges)");
}

TEST(ProblemJSON, ResourceErrors) {
  EXPECT_EQ(readError(R"({"resources": [{"limit": 2}], "ops": []})"),
            "p.json: resources[0]: missing required key 'name'");
  EXPECT_EQ(readError(R"({"resources": [{"name": ""}], "ops": []})"),
            "p.json: resources[0].name: must not be empty");
  EXPECT_EQ(
      readError(R"({"resources": [{"name": "a", "limit": 0}], "ops": []})"),
      "p.json: resources[0].limit: must be -1 (unlimited) or at least "
      "1, got 0");
  EXPECT_EQ(
      readError(R"({"resources": [{"name": "a", "limit": -2}], "ops": []})"),
      "p.json: resources[0].limit: -2 is out of range [-1, 1048576]");
  EXPECT_EQ(
      readError(R"({"resources": [{"name": "a", "limit": 1.5}], "ops": []})"),
      "p.json: resources[0].limit: expected an integer, got 1.5");
  EXPECT_EQ(
      readError(R"({"resources": [{"name": "a", "limit": "2"}], "ops": []})"),
      "p.json: resources[0].limit: expected an integer, got a string");
  EXPECT_EQ(readError(R"({"resources": [{"name": "a"}, {"name": "a"}],
                          "ops": []})"),
            "p.json: resources[1].name: duplicate resource name 'a'");
}

TEST(ProblemJSON, OpErrors) {
  EXPECT_EQ(readError(withOp(R"({"latency": 1})")),
            "p.json: ops[0]: missing required key 'name'");
  EXPECT_EQ(readError(withOp(R"({"name": "a"})")),
            "p.json: ops[0]: missing required key 'latency'");
  EXPECT_EQ(readError(withOp(R"({"name": "a", "latency": -1})")),
            "p.json: ops[0].latency: -1 is out of range [0, 1048576]");
  EXPECT_EQ(readError(withOp(R"({"name": "a", "latency": 1e9})")),
            "p.json: ops[0].latency: 1000000000 is out of range [0, 1048576]");
  EXPECT_EQ(readError(withOp(R"({"name": "a", "latency": 1, "class": 2})")),
            "p.json: ops[0].class: expected a string, got a number");
  EXPECT_EQ(readError(withOp(R"({"name": "a", "latency": 1},
                                {"name": "a", "latency": 2})")),
            "p.json: ops[1].name: duplicate op name 'a' (also ops[0])");
  EXPECT_EQ(readError(withOp(R"({"name": "a", "latency": 1},
                                {"name": "b", "latency": 1,
                                 "resource": "mull"})")),
            "p.json: ops[1].resource: unknown resource 'mull'");
  EXPECT_EQ(
      readError(withOp(
          R"({"name": "a", "latency": 1, "resource": "x", "blocking": 0})")),
      "p.json: ops[0].resource: unknown resource 'x'");
  EXPECT_EQ(readError(withOp(R"({"name": "a", "latency": 1, "blocking": 2})")),
            "p.json: ops[0].blocking: given without 'resource'");
  EXPECT_EQ(
      readError(withOp(
          R"({"name": "a", "latency": 1, "resource": "alu", "blocking": -1})")),
      "p.json: ops[0].blocking: -1 is out of range [0, 1048576]");
  EXPECT_EQ(
      readError(withOp(R"({"name": "a", "latency": 1, "max_depth": -1})")),
      "p.json: ops[0].max_depth: -1 is out of range [0, 1048576]");
  EXPECT_EQ(
      readError(withOp(R"({"name": "a", "latency": 1, "gid": 4294967296})")),
      "p.json: ops[0].gid: 4294967296 is out of range [-2147483648, "
      "2147483647]");
  EXPECT_EQ(
      readError(withOp(R"({"name": "a", "latency": 1, "leader_gid": 1})")),
      "p.json: ops[0].leader_gid: given without 'gid'");
}

TEST(ProblemJSON, UseErrors) {
  auto use = [](llvm::StringRef u) {
    return readError(
        withOp((R"({"name": "a", "latency": 1, "uses": [)" + u + "]}").str()));
  };
  EXPECT_EQ(use(R"({"duration": 2})"),
            "p.json: ops[0].uses[0]: missing required key 'resource'");
  EXPECT_EQ(use(R"({"resource": "nope"})"),
            "p.json: ops[0].uses[0].resource: unknown resource 'nope'");
  EXPECT_EQ(use(R"({"resource": "alu"}, {"resource": "alu", "amount": 2})"),
            "p.json: ops[0].uses[1].amount: resource 'alu' has limit 1, so a "
            "use holds 1 unit, not 2");
  EXPECT_EQ(use(R"({"resource": "mul", "duration": 0})"),
            "p.json: ops[0].uses[0].duration: 0 is out of range [1, 1048576]");
  EXPECT_EQ(use(R"({"resource": "mul", "amount": 0})"),
            "p.json: ops[0].uses[0].amount: 0 is out of range [1, 1048576]");
  EXPECT_EQ(use(R"({"resource": "mul", "offset": -1})"),
            "p.json: ops[0].uses[0].offset: -1 is out of range [0, 1048576]");
}

TEST(ProblemJSON, GroupErrors) {
  EXPECT_EQ(readError(withOp(
                R"({"name": "a", "latency": 1, "gid": 4, "leader_gid": 7},
                                {"name": "b", "latency": 1},
                                {"name": "c", "latency": 1, "gid": 4, "leader_gid": 3})")),
            "p.json: ops[2].leader_gid: constraint group 4 is given two "
            "leaders: 3 here and 7 at ops[0]");
}

TEST(ProblemJSON, EdgeErrors) {
  auto edge = [](llvm::StringRef e) {
    return readError(withOp(R"({"name": "a", "latency": 1},
                               {"name": "b", "latency": 1})",
                            (", \"edges\": [" + e + "]").str()));
  };
  EXPECT_EQ(edge(R"({"dst": "b"})"),
            "p.json: edges[0]: missing required key 'src'");
  EXPECT_EQ(edge(R"({"src": "a"})"),
            "p.json: edges[0]: missing required key 'dst'");
  EXPECT_EQ(edge(R"({"src": "a", "dst": "b"}, {"src": "x", "dst": "b"})"),
            "p.json: edges[1].src: unknown op 'x'");
  EXPECT_EQ(edge(R"({"src": "a", "dst": "y"})"),
            "p.json: edges[0].dst: unknown op 'y'");
  EXPECT_EQ(edge(R"({"src": "a", "dst": 1})"),
            "p.json: edges[0].dst: expected a string, got a number");
  EXPECT_EQ(edge(R"({"src": "a", "dst": "b", "latency": -3})"),
            "p.json: edges[0].latency: -3 is out of range [0, 1048576]");
  EXPECT_EQ(edge(R"({"src": "a", "dst": "b", "delay": -1})"),
            "p.json: edges[0].delay: -1 is out of range [0, 1048576]");
  EXPECT_EQ(edge(R"({"src": "a", "dst": "b", "distance": 2000000})"),
            "p.json: edges[0].distance: 2000000 is out of range [0, 1048576]");
}

TEST(ProblemJSON, FileErrors) {
  llvm::Expected<ProblemFile> file =
      readProblemJSONFile("/nonexistent/problem.json");
  ASSERT_FALSE(file);
  EXPECT_EQ(llvm::toString(file.takeError()),
            "/nonexistent/problem.json: cannot read file: No such file or "
            "directory");
}

TEST(ProblemJSON, ErrorsAreReadErrors) {
  llvm::Expected<ProblemFile> file = readProblemJSON("{\"ops\": 1}", "q.json");
  ASSERT_FALSE(file);
  bool seen = false;
  llvm::handleAllErrors(file.takeError(), [&](const ReadError &e) {
    seen = true;
    EXPECT_EQ(e.getFile(), "q.json");
    EXPECT_EQ(e.getLine(), 0u);
    EXPECT_EQ(e.location(), "q.json");
    EXPECT_EQ(e.getMessage(), "ops: expected an array, got a number");
  });
  EXPECT_TRUE(seen);
}

} // namespace
