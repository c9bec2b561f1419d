//===- FlatJSONTest.cpp - the in-place reading of flat objects ------------===//
//
// The in-place way (support/json/FlatObject.h) must give the problem, or the message, that
// json::parse gives: the reader is run both ways on seed problems, on
// hand-picked elements at the edges of the flat shape, and on thousands of
// random mutations of them, and the outcomes compared.
//
//===----------------------------------------------------------------------===//

#include "scheduler/io/ProblemJSON.h"
#include "support/SplitMix64.h"
#include "support/json/FlatObject.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

using namespace tilepipe;
using namespace tilepipe::io;
using tilepipe::support::json::FlatObject;
using tilepipe::support::json::parseFlatObject;

namespace {

/// Everything the reader fills in, as text.
std::string outcome(llvm::StringRef text, bool inPlace) {
  llvm::Expected<ProblemFile> file = readProblemJSON(text, "p.json", inPlace);
  if (!file)
    return "error: " + llvm::toString(file.takeError());
  std::string out;
  llvm::raw_string_ostream os(out);
  const sched::Problem &p = file->problem;
  os << file->name << " serial=" << p.isForceSerial() << "\n";
  for (const sched::Operation &op : p.getOps()) {
    os << op.name << " class=" << op.opClass << " lat=" << *op.latency
       << " bytes=" << op.resultBytes << " mem=" << int(op.resultMemory);
    const sched::OpConstraints &c = op.constraints;
    os << " depth=" << (c.maxDepth ? int64_t(*c.maxDepth) : -1)
       << " gid=" << (c.gid ? int64_t(*c.gid) : INT64_MIN)
       << " leader=" << (c.leaderGid ? int64_t(*c.leaderGid) : INT64_MIN);
    for (const rrt::Use &u : op.uses)
      os << " use(" << int(u.kind) << "," << u.index << "," << u.duration << ","
         << u.amount << "," << u.offset << ")";
    os << "\n";
  }
  for (const sched::Dependence &d : p.getDependences())
    os << d.src << "->" << d.dst << " " << d.latency << " " << d.distance
       << "\n";
  return out;
}

const char *kSeed = R"({"name": "s", "resources": [{"name": "alu", "limit": 1},
 {"name": "mul", "limit": 2}, {"name": "mem", "limit": -1}],
 "ops": [
  {"name": "a", "latency": 2, "resource": "alu"},
  {"name": "b", "latency": 3, "resource": "mul", "blocking": 2, "class": "f"},
  {"name": "c", "latency": 0, "max_depth": 1, "gid": 4, "leader_gid": 4},
  {"name": "d", "latency": 1, "result_bytes": 64, "result_memory": "smem"},
  {"name": "e", "latency": 1, "uses": [{"resource": "mul", "amount": 2}]}
 ],
 "edges": [
  {"src": "a", "dst": "b"}, {"src": "b", "dst": "c", "latency": 7},
  {"src": "c", "dst": "a", "distance": 1, "delay": 2},
  {"src": "d", "dst": "e"}
 ]})";

/// Elements at the edges of the flat shape, each put in place of op "a".
const char *kOps[] = {
    R"({"name": "a", "latency": 01})",
    R"({"name": "a", "latency": -0})",
    R"({"name": "a", "latency": 1.0})",
    R"({"name": "a", "latency": 1e0})",
    R"({"name": "a", "latency": 9223372036854775807})",
    R"({"name": "a", "latency": 9223372036854775808})",
    R"({"name": "a", "latency": -9223372036854775808})",
    R"({"name": "a", "latency": -9223372036854775809})",
    R"({"name": "a", "latency": 1048576})",
    R"({"name": "a", "latency": 1048577})",
    R"({"name": "a", "latency": -1})",
    R"({"name": "a", "latency": "1"})",
    R"({"name": "a", "latency": true})",
    R"({"name": "a", "latency": null})",
    R"({"name": "a", "latency": [1]})",
    R"({"name": "a", "latency": 1, "latency": 2})",
    R"({"name": "\u0061", "latency": 1})",
    R"({"name": "a\"", "latency": 1})",
    "{\"name\": \"\xc3\xa9\", \"latency\": 1}",
    "{\"name\": \"a\tb\", \"latency\": 1}",
    R"({"name": "", "latency": 1})",
    R"({"name": 5, "latency": 1})",
    R"({"latency": 1})",
    R"({"name": "a"})",
    R"({"name": "a", "latency": 1, "bogus": 1})",
    R"({"name": "a", "latency": 1, "resource": "nope"})",
    R"({"name": "a", "latency": 1, "blocking": 2})",
    R"({"name": "a", "latency": 1, "result_memory": "tmem"})",
    R"({"name": "a", "latency": 1, "result_memory": "disk"})",
    R"({"name": "a", "latency": 1, "leader_gid": 3})",
    R"({"name": "a", "latency": 1, "gid": 2147483648})",
    R"({"name": "a", "latency": 1,})",
    R"({"name": "a" "latency": 1})",
    R"({"name": "a", "latency": 1} x)",
    R"({ "name" : "a" , "latency" : 1 })",
    "{\r\n\"name\":\"a\",\t\"latency\":1\n}",
    R"({})",
    R"([])",
    R"(1)",
};

std::string withFirstOp(llvm::StringRef op) {
  std::string text = kSeed;
  llvm::StringRef first = R"({"name": "a", "latency": 2, "resource": "alu"})";
  size_t at = text.find(first.str());
  return text.replace(at, first.size(), op.str());
}

TEST(FlatJSON, ParsesTheFlatShapeOnly) {
  FlatObject o;
  ASSERT_TRUE(parseFlatObject(R"( {"a": -12, "b": "x y"} )", o));
  ASSERT_EQ(o.members.size(), 2u);
  EXPECT_EQ(*o.get("a")->getAsInteger(), -12);
  EXPECT_EQ(*o.get("b")->getAsString(), "x y");
  EXPECT_EQ(o.get("c"), nullptr);
  EXPECT_TRUE(parseFlatObject("{}", o));
  EXPECT_TRUE(parseFlatObject(R"({"a": -9223372036854775808})", o));
  EXPECT_EQ(*o.get("a")->getAsInteger(), INT64_MIN);
  for (const char *no :
       {R"({"a": 01})", R"({"a": 1.5})", R"({"a": 1e2})",
        R"({"a": 9223372036854775808})", R"({"a": true})", R"({"a": null})",
        R"({"a": {}})", R"({"a": []})", R"({"a": "\n"})", R"({"a": 1, "a": 2})",
        R"({"a": 1,})", R"({"a": -})", R"({"a": 1} 2)", "{\"a\": \"\xc3\xa9\"}",
        R"({"a" 1})", "[1]"})
    EXPECT_FALSE(parseFlatObject(no, o)) << no;
}

TEST(FlatJSON, SameOutcomeAsJSONParseOnEdgeCases) {
  EXPECT_EQ(outcome(kSeed, true), outcome(kSeed, false));
  EXPECT_EQ(outcome(kSeed, true).rfind("error", 0), std::string::npos);
  for (const char *op : kOps) {
    std::string text = withFirstOp(op);
    EXPECT_EQ(outcome(text, true), outcome(text, false)) << op;
  }
}

// Random single- and few-byte edits of the seed: each outcome, a problem or
// a message, must be the same both ways.
TEST(FlatJSON, SameOutcomeAsJSONParseOnMutations) {
  const char alphabet[] = "{}[]\":,-0123456789eE.tn \\u\xc3\t";
  SplitMix64 rng(0x5eed);
  unsigned readBoth = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    std::string text = trial % 2 ? kSeed : withFirstOp(kOps[trial % 39]);
    for (int edits = 1 + int(rng.next() % 3); edits > 0; --edits) {
      size_t at = rng.next() % text.size();
      char c = alphabet[rng.next() % (sizeof(alphabet) - 1)];
      switch (rng.next() % 3) {
      case 0:
        text[at] = c;
        break;
      case 1:
        text.insert(text.begin() + at, c);
        break;
      default:
        text.erase(at, 1);
      }
    }
    std::string fast = outcome(text, true);
    ASSERT_EQ(fast, outcome(text, false)) << text;
    readBoth += fast.rfind("error", 0) == std::string::npos;
  }
  // The edits must leave some files readable, or the test compares only
  // messages.
  EXPECT_GT(readBoth, 50u);
}

} // namespace
