//===- ReadersTest.cpp - GauS instance readers ----------------------------===//
//
// Small files written to a temporary folder, plus the stored data sets
// (../shared/data from the repository root, or $TILEPIPE_GAUS_DATA); the
// tests on the data sets are skipped where those are not present.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/Readers.h"
#include "scheduler/gaus/Objective.h"

#include "scheduler/io/HatScheT.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <tuple>

using namespace tilepipe;
using namespace tilepipe::gaus;

namespace {

std::string dataDir() {
  if (const char *env = std::getenv("TILEPIPE_GAUS_DATA"))
    return env;
  llvm::SmallString<256> dir(__FILE__);
  for (int up = 0; up < 6; ++up) // gaus, scheduler, unit, test, the repository.
    llvm::sys::path::remove_filename(dir);
  llvm::sys::path::append(dir, "shared", "data");
  return std::string(dir);
}

std::string dataFile(const std::string &relative) {
  return dataDir() + "/" + relative;
}

#define REQUIRE_DATA(path)                                                     \
  do {                                                                         \
    if (!llvm::sys::fs::exists(path))                                          \
      GTEST_SKIP() << "no data set at " << (path);                             \
  } while (false)

class GausReaders : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> path;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gaus-readers", path));
    dir = std::string(path);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  std::string write(const std::string &name, const std::string &text) {
    std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  std::optional<Instance> read(const std::string &name, const std::string &text,
                               Formulation f, std::string &error) {
    ReadOptions options;
    options.formulation = f;
    return readInstance(write(name, text), options, error);
  }

  /// Reading `text` fails with "path:line: ..." containing `message`.
  void expectError(const std::string &name, const std::string &text,
                   unsigned line, const std::string &message,
                   Formulation f = Formulation::B) {
    std::string error;
    EXPECT_FALSE(read(name, text, f, error)) << text;
    std::string prefix = dir + "/" + name + ":";
    if (line)
      prefix += std::to_string(line) + ":";
    EXPECT_EQ(error.rfind(prefix, 0), 0u)
        << "error '" << error << "' does not start with '" << prefix << "'";
    EXPECT_NE(error.find(message), std::string::npos)
        << "error '" << error << "' lacks '" << message << "'";
  }

  std::string dir;
};

const char *kDag = R"(# a tiny AIG
n 5 5 2
0 C 0
1 I 0
2 I 0
3 A 0
4 A 1   # a primary output
0 3
1 3
2 4
3 4
1 3
)";

unsigned countBackEdges(const Instance &inst) {
  unsigned count = 0;
  for (const Edge &e : inst.edges)
    count += e.distance > 0;
  return count;
}

TEST_F(GausReaders, DagFormulations) {
  std::string error;
  std::optional<Instance> b = read("tiny.dag", kDag, Formulation::B, error);
  ASSERT_TRUE(b) << error;
  EXPECT_EQ(b->name, "tiny");
  EXPECT_EQ(b->formulation, Formulation::B);
  ASSERT_EQ(b->nodes.size(), 5u);
  ASSERT_EQ(b->edges.size(), 4u); // The repeated 1 -> 3 is merged.
  EXPECT_EQ(b->depth, 3);         // L + 1.
  for (const Edge &e : b->edges) {
    EXPECT_EQ(e.latency, 1);
    EXPECT_EQ(e.distance, 0u);
    EXPECT_EQ(e.comm, 1);
  }
  EXPECT_EQ(b->edges[0].src, 0u);
  EXPECT_EQ(b->edges[0].dst, 3u);
  EXPECT_EQ(b->nodes[3].name, "3");
  EXPECT_EQ(b->nodes[3].bytes, 1);

  std::optional<Instance> a = read("tiny.dag", kDag, Formulation::A, error);
  ASSERT_TRUE(a) << error;
  EXPECT_EQ(a->depth, 3);
  for (const Edge &e : a->edges)
    EXPECT_EQ(e.latency, 0);
  for (const Node &node : a->nodes)
    EXPECT_EQ(node.weight, 1);

  ReadOptions options;
  options.formulation = Formulation::C;
  options.recurrencesPer100 = 40; // Two back edges on five nodes.
  options.targetResMII = 1;
  std::optional<Instance> c =
      readInstance(write("tiny.dag", kDag), options, error);
  ASSERT_TRUE(c) << error;
  EXPECT_EQ(c->formulation, Formulation::C);
  EXPECT_EQ(c->edges.size(), 6u);
  EXPECT_EQ(countBackEdges(*c), 2u);
  // Levels 0, 0, 0, 1, 2: a back edge runs to a node no later.
  std::vector<int64_t> level{0, 0, 0, 1, 2};
  for (const Edge &e : c->edges)
    if (e.distance > 0) {
      EXPECT_LE(level[e.dst], level[e.src]);
      EXPECT_NE(e.src, e.dst);
      EXPECT_EQ(e.latency, 1);
      EXPECT_TRUE(e.distance == 1 || e.distance == 2);
    }
  // Only the AND nodes hold the unit; two of them, target ResMII 1.
  ASSERT_EQ(c->capacity.size(), 1u);
  EXPECT_EQ(c->capacity[0], 2);
  EXPECT_EQ(c->resourceNames[0], "unit");
  for (unsigned i = 0; i < 5; ++i)
    EXPECT_EQ(c->nodes[i].uses.size(), i >= 3 ? 1u : 0u);
  EXPECT_GE(c->ii, 1u);
  std::string reason;
  std::optional<Frames> frames = computeFrames(*c, reason);
  ASSERT_TRUE(frames) << reason;
  int64_t longest =
      *std::max_element(frames->asap.begin(), frames->asap.end()) + 1;
  EXPECT_EQ(c->depth, longest + c->ii);
  // The II is the smallest with a schedule: one below has a positive cycle.
  if (c->ii > 1) {
    Instance below = *c;
    below.ii -= 1;
    below.depth = 1 << 20;
    EXPECT_FALSE(computeFrames(below, reason));
  }
}

TEST_F(GausReaders, DepthOverride) {
  ReadOptions options;
  options.depth = 7;
  std::string error;
  std::optional<Instance> b =
      readInstance(write("tiny.dag", kDag), options, error);
  ASSERT_TRUE(b) << error;
  EXPECT_EQ(b->depth, 7);
  options.depth = 2;
  EXPECT_FALSE(readInstance(write("tiny.dag", kDag), options, error));
  EXPECT_NE(error.find("below the longest path (3 nodes)"), std::string::npos)
      << error;
  // A's dependences are non-strict: one step holds every node.
  options.formulation = Formulation::A;
  options.depth = 1;
  EXPECT_TRUE(readInstance(write("tiny.dag", kDag), options, error)) << error;
}

TEST_F(GausReaders, TxtWeightsAndBytes) {
  const char *text = "# GS\nn 3 2\n0 5\n1 0\n2 2.5\n0 1 7\n1 2 0\n";
  std::string error;
  std::optional<Instance> a = read("g.txt", text, Formulation::A, error);
  ASSERT_TRUE(a) << error;
  ASSERT_EQ(a->nodes.size(), 3u);
  EXPECT_EQ(a->nodes[0].weight, 5);
  EXPECT_EQ(a->nodes[1].weight, 0);
  EXPECT_EQ(a->nodes[2].weight, 2.5);
  ASSERT_EQ(a->edges.size(), 2u);
  EXPECT_EQ(a->edges[0].comm, 7);
  EXPECT_EQ(a->edges[1].comm, 0);
  EXPECT_EQ(a->edges[0].latency, 0);
  EXPECT_EQ(a->depth, 3);
  std::optional<Instance> b = read("g.txt", text, Formulation::B, error);
  ASSERT_TRUE(b) << error;
  // Zero-weight nodes still take one byte.
  EXPECT_EQ(b->nodes[0].bytes, 5);
  EXPECT_EQ(b->nodes[1].bytes, 1);
  EXPECT_EQ(b->nodes[2].bytes, 2.5);
  EXPECT_EQ(b->edges[0].latency, 1);
}

TEST_F(GausReaders, GmlArbitraryIdsAndNesting) {
  const char *text = R"(Creator "someone [with brackets]"
# a comment
graph [
  directed 1
  attrs [ nested [ deep 1 ] list [ ] ]
  edge [ source 10 target -3 parameter 4 name "e [1]" ]
  node [ id 10 label "ten" parameter 2 ]
  node [
    id -3
    parameter 0
  ]
  node [ id 7 label "seven" ]
  edge [
    source -3
    target 7
  ]
]
)";
  std::string error;
  std::optional<Instance> a = read("g.gml", text, Formulation::A, error);
  ASSERT_TRUE(a) << error;
  ASSERT_EQ(a->nodes.size(), 3u);
  EXPECT_EQ(a->nodes[0].name, "ten");
  EXPECT_EQ(a->nodes[1].name, "-3");
  EXPECT_EQ(a->nodes[2].name, "seven");
  EXPECT_EQ(a->nodes[0].weight, 2);
  ASSERT_EQ(a->edges.size(), 2u);
  EXPECT_EQ(a->edges[0].src, 0u);
  EXPECT_EQ(a->edges[0].dst, 1u);
  EXPECT_EQ(a->edges[0].comm, 4);
  EXPECT_EQ(a->edges[1].src, 1u);
  EXPECT_EQ(a->edges[1].dst, 2u);
  EXPECT_EQ(a->edges[1].comm, 0);
  EXPECT_EQ(a->depth, 3);
}

TEST_F(GausReaders, MalformedDag) {
  expectError("e.dag", "0 A 0\n", 1, "expected the header 'n N M L'");
  expectError("e.dag", "n 2 1\n", 1, "expected the header 'n N M L'");
  expectError("e.dag", "n x 1 0\n", 1, "non-negative integers");
  expectError("e.dag", "n 20000000 1 0\n", 1, "at most 10000000");
  expectError("e.dag", "n 9000 9000 1\n0 I 0\n", 1,
              "more lines than the file holds");
  expectError("e.dag", "n 2 1 1\n0 I 0\n2 A 0\n0 1\n", 3,
              "node id '2' is not in 0..1");
  expectError("e.dag", "n 2 1 1\n0 I 0\n0 A 0\n0 1\n", 3, "defined twice");
  expectError("e.dag", "n 2 1 1\n0 I 0\n1 Q 0\n0 1\n", 3,
              "node kind 'Q' is not C, I or A");
  expectError("e.dag", "n 2 1 1\n0 I 0\n1 A 2\n0 1\n", 3, "is_po");
  expectError("e.dag", "n 3 1 1\n0 I 0\n1 A 0\n", 3,
              "ends after 2 of 3 node lines");
  expectError("e.dag", "n 2 2 1\n0 I 0\n1 A 0\n0 1\n", 4,
              "ends after 1 of 2 edge lines");
  expectError("e.dag", "n 2 1 1\n0 I 0\n1 A 0\n0 5\n", 4,
              "names a node outside 0..1");
  expectError("e.dag", "n 2 1 1\n0 I 0\n1 A 0\n1 1\n", 4, "self loop");
  expectError("e.dag", "n 2 1 1\n0 I 0\n1 A 0\n0 1\n1 0\n", 5,
              "more edge lines than the header's 1");
  expectError("e.dag", "n 2 1 1\n0 I 0\n1 A 0\n0 1 9\n", 4,
              "expected an edge line 'src dst'");
  expectError("e.dag", "n 3 3 2\n0 A 0\n1 A 0\n2 A 0\n0 1\n1 2\n2 0\n", 0,
              "closes a cycle");
  expectError("e.dag", "n 2 1 5\n0 I 0\n1 A 0\n0 1\n", 1,
              "the header gives 5 levels but the longest path has 1 edges");
  expectError("e.dag", "# nothing\n", 1, "no header");
}

TEST_F(GausReaders, CycleNamesTheLineOfOneOfItsEdges) {
  // Edges on lines 6, 7 and 8 form the cycle; line 5's edge leads into it.
  std::string error;
  EXPECT_FALSE(read("c.dag",
                    "n 4 4 3\n0 A 0\n1 A 0\n2 A 0\n3 A 0\n0 1\n1 2\n2 3\n3 1\n",
                    Formulation::B, error));
  bool onCycle = false;
  for (unsigned line : {7u, 8u, 9u})
    onCycle |= error.find(".dag:" + std::to_string(line) + ": edge") !=
               std::string::npos;
  EXPECT_TRUE(onCycle) << error;
}

TEST_F(GausReaders, MalformedTxtAndGml) {
  expectError("e.txt", "n 2 1\n0 1\n1 -4\n0 1 1\n", 3,
              "node weight '-4' is not a non-negative number");
  expectError("e.txt", "n 2 1\n0 1\n1 nan\n0 1 1\n", 3, "node weight 'nan'");
  expectError("e.txt", "n 2 1\n0 1\n1 1\n0 1 -1\n", 4, "edge weight '-1'");
  expectError("e.txt", "n 2 1\n0 1\n1 1\n0 1\n", 4,
              "expected an edge line 'src dst weight'");
  expectError("e.txt", "n 2 1\n0 1 A\n", 2, "expected a node line 'id weight'");

  expectError("e.gml", "graph [ node [ id 1 label \"x ]\n", 1,
              "unterminated string");
  expectError("e.gml", "graph [\n node [ id 1 ]\n", 2,
              "the file ends where a key or ']' is expected");
  expectError("e.gml", "graph [\n node [ label \"a\" ]\n]\n", 2,
              "node without an 'id'");
  expectError("e.gml", "graph [\n node [ id 1 ]\n node [ id 1 ]\n]\n", 3,
              "node id 1 is defined twice");
  expectError("e.gml",
              "graph [\n node [ id 1 ]\n edge [ source 1 target 4 ]\n]\n", 3,
              "edge names node 4, which no node defines");
  expectError("e.gml", "graph [\n node [ id x ]\n]\n", 2,
              "'id' must be an integer");
  expectError("e.gml", "graph [\n node [ id 1 parameter -2 ]\n]\n", 2,
              "'parameter' must be a non-negative number");
  expectError("e.gml",
              "graph [\n node [ id 1 ]\n edge [ source 1 target 1 ]\n]\n", 3,
              "self loop");
  expectError("e.gml", "graph [ ]\n]\n", 2, "expected a key, found ']'");
  expectError("e.gml", "version 1\n", 0, "no 'graph [ ... ]'");
  expectError("e.gml", "graph [ ]\ngraph [ ]\n", 2, "a second 'graph'");
}

TEST_F(GausReaders, UnknownFilesAndFormats) {
  expectError("e.foo", "", 0, "supported: .dag");
  std::string error;
  ReadOptions options;
  EXPECT_FALSE(readInstance(dir + "/missing.dag", options, error));
  EXPECT_NE(error.find("cannot read the file"), std::string::npos) << error;
  options.formulation = Formulation::C;
  EXPECT_FALSE(readInstance(write("g.graphml", "<graphml/>"), options, error));
  EXPECT_NE(error.find("resource model"), std::string::npos) << error;
  options.formulation = Formulation::B;
  EXPECT_FALSE(readInstance(write("p.json", "{}"), options, error));
  EXPECT_NE(error.find("formulations A and B need a DAG"), std::string::npos)
      << error;
  options.formulation = Formulation::C;
  EXPECT_FALSE(readInstance(write("p.json", "{\"ops\": 3}"), options, error));
  EXPECT_NE(error.find("p.json"), std::string::npos) << error;
  options.targetResMII = 0;
  EXPECT_FALSE(readInstance(write("tiny.dag", kDag), options, error));
}

TEST_F(GausReaders, JsonProblemAsModulo) {
  const char *text = R"({
  "name": "loop",
  "resources": [{"name": "alu", "limit": 1}, {"name": "mul", "limit": 2}],
  "ops": [
    {"name": "a", "latency": 1, "resource": "alu"},
    {"name": "b", "latency": 2, "resource": "mul", "blocking": 2},
    {"name": "c", "latency": 1, "resource": "alu"}
  ],
  "edges": [
    {"src": "a", "dst": "b"},
    {"src": "b", "dst": "c"},
    {"src": "c", "dst": "a", "distance": 1}
  ]
})";
  ReadOptions options;
  options.formulation = Formulation::C;
  std::string error;
  std::optional<Instance> c =
      readInstance(write("loop.json", text), options, error);
  ASSERT_TRUE(c) << error;
  EXPECT_EQ(c->name, "loop");
  ASSERT_EQ(c->nodes.size(), 3u);
  EXPECT_EQ(c->edges.size(), 3u);
  // The cycle a -> b -> c -> a has latency 1 + 2 + 1 and distance 1.
  EXPECT_EQ(c->ii, 4u);
  std::string reason;
  std::optional<Frames> frames = computeFrames(*c, reason);
  ASSERT_TRUE(frames) << reason;
  EXPECT_EQ(c->depth, 4 + 4); // The longest path (starts 0, 1, 3) + II.

  options.ii = 6;
  c = readInstance(write("loop.json", text), options, error);
  ASSERT_TRUE(c) << error;
  EXPECT_EQ(c->ii, 6u);
  options.ii = 3;
  EXPECT_FALSE(readInstance(write("loop.json", text), options, error));
  EXPECT_NE(error.find("II 3 admits no schedule"), std::string::npos) << error;
}

TEST(GausFromProblem, ResourcesEdgesAndDepth) {
  rrt::ResourceLayout layout;
  layout.addBit("tc");
  layout.addPool("alu", 2);
  layout.addPool("free", 1, /*binding=*/false);
  sched::Problem problem(layout);
  sched::Operation op0, op1, op2;
  op0.name = "x";
  op0.latency = 3;
  op0.uses = {rrt::Use::bit(0, 2)};
  op1.name = "y";
  op1.latency = 1;
  op1.uses = {rrt::Use::pool(0, 1, 2, /*offset=*/1)};
  op2.name = "z";
  op2.latency = 1;
  op2.uses = {rrt::Use::pool(1, 1, 1)};
  problem.addOp(op0);
  problem.addOp(op1);
  problem.addOp(op2);
  problem.addDependence({0, 1, 3, 0});
  problem.addDependence({1, 0, 1, 1});
  problem.finalize();

  Instance inst = fromProblem(problem, 4, 1);
  EXPECT_EQ(inst.formulation, Formulation::C);
  EXPECT_EQ(inst.ii, 4u);
  EXPECT_EQ(inst.resourceNames,
            (std::vector<std::string>{"tc", "alu", "free"}));
  EXPECT_EQ(inst.capacity, (std::vector<double>{1, 2, 1}));
  ASSERT_EQ(inst.nodes.size(), 3u);
  EXPECT_EQ(inst.nodes[1].name, "y");
  EXPECT_EQ(inst.nodes[1].bytes, 1);
  ASSERT_EQ(inst.nodes[0].uses.size(), 1u);
  EXPECT_EQ(inst.nodes[0].uses[0].resource, 0u);
  EXPECT_EQ(inst.nodes[0].uses[0].duration, 2);
  ASSERT_EQ(inst.nodes[1].uses.size(), 1u);
  EXPECT_EQ(inst.nodes[1].uses[0].resource, 1u);
  EXPECT_EQ(inst.nodes[1].uses[0].offset, 1);
  EXPECT_EQ(inst.nodes[1].uses[0].amount, 2);
  EXPECT_TRUE(inst.nodes[2].uses.empty()); // A pool that never refuses.
  ASSERT_EQ(inst.edges.size(), 2u);
  EXPECT_EQ(inst.edges[1].distance, 1u);
  // Starts 0, 3, 0: four steps, plus one II.
  EXPECT_EQ(inst.depth, 4 + 4);
  std::string reason;
  EXPECT_TRUE(computeFrames(inst, reason)) << reason;

  // At II 3 the cycle (latency 4, distance 1) is positive: the instance
  // is still made, and computeFrames says why it has no schedule.
  Instance tight = fromProblem(problem, 3, 2);
  EXPECT_FALSE(computeFrames(tight, reason));
  EXPECT_NE(reason.find("positive cycle"), std::string::npos) << reason;
}

//===----------------------------------------------------------------------===//
// The stored data sets
//===----------------------------------------------------------------------===//

/// Rows of a stats.tsv, keyed by the first column.
std::map<std::string, std::vector<std::string>>
readStats(const std::string &path) {
  std::map<std::string, std::vector<std::string>> rows;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line); // Header.
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    llvm::SmallVector<llvm::StringRef, 12> parts;
    llvm::StringRef(line).split(parts, '\t');
    for (llvm::StringRef part : parts)
      cells.push_back(part.str());
    if (!cells.empty())
      rows[cells[0]] = cells;
  }
  return rows;
}

TEST(GausReadersData, CtrlDag) {
  std::string path = dataFile("epfl-aig/dag/ctrl.dag");
  REQUIRE_DATA(path);
  ReadOptions options;
  std::string error;
  std::optional<Instance> b = readInstance(path, options, error);
  ASSERT_TRUE(b) << error;
  EXPECT_EQ(b->nodes.size(), 182u);
  EXPECT_EQ(b->edges.size(), 348u);
  EXPECT_EQ(b->depth, 11);
  std::string reason;
  std::optional<Frames> frames = computeFrames(*b, reason);
  ASSERT_TRUE(frames) << reason;
  EXPECT_TRUE(evaluate(*b, frames->asap).legal);

  options.formulation = Formulation::C;
  std::optional<Instance> c = readInstance(path, options, error);
  ASSERT_TRUE(c) << error;
  EXPECT_EQ(countBackEdges(*c), 2u); // One per 100 nodes, rounded.
  // 174 AND nodes hold the unit; capacity ceil(174 / 64) = 3, ResMII 58.
  EXPECT_EQ(c->capacity, (std::vector<double>{3}));
  EXPECT_GE(c->ii, 58u);
  ASSERT_TRUE(computeFrames(*c, reason)) << reason;
  // Fixed seed: the same recurrences every time; another seed differs.
  std::optional<Instance> again = readInstance(path, options, error);
  ASSERT_TRUE(again);
  ASSERT_EQ(again->edges.size(), c->edges.size());
  for (size_t k = 0; k < c->edges.size(); ++k) {
    EXPECT_EQ(again->edges[k].src, c->edges[k].src);
    EXPECT_EQ(again->edges[k].dst, c->edges[k].dst);
    EXPECT_EQ(again->edges[k].distance, c->edges[k].distance);
  }
  EXPECT_EQ(again->ii, c->ii);
  options.augmentSeed = 2;
  options.recurrencesPer100 = 10;
  std::optional<Instance> other = readInstance(path, options, error);
  ASSERT_TRUE(other) << error;
  EXPECT_EQ(countBackEdges(*other), 18u);
}

TEST(GausReadersData, EveryDagMatchesItsStats) {
  std::string stats = dataFile("epfl-aig/stats.tsv");
  REQUIRE_DATA(stats);
  unsigned checked = 0;
  for (const auto &[name, row] : readStats(stats)) {
    std::string path = dataFile("epfl-aig/dag/" + name + ".dag");
    if (!llvm::sys::fs::exists(path))
      continue; // hyp is not stored.
    ReadOptions options;
    std::string error;
    std::optional<Instance> b = readInstance(path, options, error);
    ASSERT_TRUE(b) << error;
    EXPECT_EQ(std::to_string(b->nodes.size()), row[4]) << name;
    EXPECT_EQ(std::to_string(b->edges.size()), row[5]) << name;
    EXPECT_EQ(std::to_string(b->depth - 1), row[6]) << name;
    std::string reason;
    EXPECT_TRUE(computeFrames(*b, reason)) << name << ": " << reason;
    ++checked;
  }
  EXPECT_EQ(checked, 19u);
}

TEST(GausReadersData, RandomWorkloadTxt) {
  std::string path = dataFile("gs-schedule-rw/txt/rand_graph_1000_1.txt");
  REQUIRE_DATA(path);
  for (Formulation f : {Formulation::A, Formulation::B}) {
    ReadOptions options;
    options.formulation = f;
    std::string error;
    std::optional<Instance> inst = readInstance(path, options, error);
    ASSERT_TRUE(inst) << error;
    EXPECT_EQ(inst->nodes.size(), 949u);
    EXPECT_EQ(inst->edges.size(), 2730u);
    EXPECT_EQ(inst->depth, 15);
    unsigned weighted = 0, communicating = 0;
    double sum = 0;
    for (const Node &node : inst->nodes) {
      weighted += node.weight > 0;
      sum += node.weight;
    }
    for (const Edge &e : inst->edges)
      communicating += e.comm > 0;
    EXPECT_EQ(weighted, 379u);
    EXPECT_EQ(sum, 1134096);
    EXPECT_EQ(communicating, 1092u);
    std::string reason;
    EXPECT_TRUE(computeFrames(*inst, reason)) << reason;
  }
}

TEST(GausReadersData, EveryTxtMatchesItsStatsAndItsGml) {
  std::string stats = dataFile("gs-schedule-rw/stats.tsv");
  REQUIRE_DATA(stats);
  unsigned checked = 0;
  for (const auto &[name, row] : readStats(stats)) {
    ReadOptions options;
    options.formulation = Formulation::A;
    std::string error;
    std::optional<Instance> txt = readInstance(
        dataFile("gs-schedule-rw/txt/" + name + ".txt"), options, error);
    ASSERT_TRUE(txt) << error;
    EXPECT_EQ(std::to_string(txt->nodes.size()), row[1]) << name;
    EXPECT_EQ(std::to_string(txt->edges.size()), row[2]) << name;
    EXPECT_EQ(std::to_string(txt->depth), row[3]) << name;
    ++checked;
    if (name.find("_1000_") == std::string::npos)
      continue; // The GML files are large; the small ones suffice.
    std::optional<Instance> gml = readInstance(
        dataFile("gs-schedule-rw/gml/" + name + ".gml"), options, error);
    ASSERT_TRUE(gml) << error;
    ASSERT_EQ(gml->nodes.size(), txt->nodes.size()) << name;
    ASSERT_EQ(gml->edges.size(), txt->edges.size()) << name;
    for (size_t i = 0; i < txt->nodes.size(); ++i)
      EXPECT_EQ(gml->nodes[i].weight, txt->nodes[i].weight) << name;
    // The two files list the edges in different orders.
    auto sorted = [](const Instance &inst) {
      std::vector<std::tuple<unsigned, unsigned, double>> edges;
      for (const Edge &e : inst.edges)
        edges.emplace_back(e.src, e.dst, e.comm);
      std::sort(edges.begin(), edges.end());
      return edges;
    };
    EXPECT_EQ(sorted(*gml), sorted(*txt)) << name;
    EXPECT_EQ(gml->depth, txt->depth);
  }
  EXPECT_EQ(checked, 18u);
}

TEST(GausReadersData, DivDagAllFormulations) {
  std::string path = dataFile("epfl-aig/dag/div.dag");
  REQUIRE_DATA(path);
  for (Formulation f : {Formulation::A, Formulation::B, Formulation::C}) {
    ReadOptions options;
    options.formulation = f;
    std::string error;
    std::optional<Instance> inst = readInstance(path, options, error);
    ASSERT_TRUE(inst) << error;
    EXPECT_EQ(inst->nodes.size(), 57375u);
    std::string reason;
    std::optional<Frames> frames = computeFrames(*inst, reason);
    ASSERT_TRUE(frames) << reason;
    if (f == Formulation::C) {
      EXPECT_EQ(countBackEdges(*inst), 574u);
      EXPECT_GE(inst->ii, 57247u / 895u);
    } else {
      EXPECT_EQ(inst->edges.size(), 114494u);
      EXPECT_EQ(inst->depth, 4373);
    }
  }
}

TEST(GausReadersData, HatScheTGraph) {
  std::string graph = dataFile("hatschet-msp/MachSuite/aes2/graph10.graphml");
  std::string model = dataFile("hatschet-msp/MachSuite/aes2/graph10_RM.xml");
  REQUIRE_DATA(graph);
  ReadOptions options;
  options.formulation = Formulation::C;
  options.resources = model;
  std::string error;
  std::optional<Instance> c = readInstance(graph, options, error);
  ASSERT_TRUE(c) << error;
  llvm::Expected<io::ProblemFile> file = io::readHatScheTFiles(graph, model);
  ASSERT_TRUE(bool(file));
  EXPECT_EQ(c->nodes.size(), file->problem.getNumOps());
  EXPECT_EQ(c->edges.size(), file->problem.getDependences().size());
  EXPECT_GE(c->ii, file->problem.computeBounds().mii);
  std::string reason;
  ASSERT_TRUE(computeFrames(*c, reason)) << reason;
}

} // namespace
