//===- Readers.cpp - GauS instances from files and from Problems ----------===//
//
// The three graph formats (.dag, .txt, .gml) are read into one raw graph
// (node weights, weighted edges, the line each edge came from), and one
// builder turns that into an instance of the asked formulation, so the
// formulation defaults live in a single place. The readers never trust
// the file: counts are checked against the lines actually present, ids
// against the counts, and every number against its range, and the raw
// graph is checked for cycles before any longest path is taken.
//
// Choices the sources leave open (docs/gaus.md):
//   - Bytes in B and C on GS-Schedule graphs are the node's parameter when
//     it is positive and 1 otherwise: about 60% of the nodes have parameter
//     0, and a value that takes no memory would make their lifetimes free.
//   - Duplicate edges are merged (GS-Schedule's graphs are NetworkX
//     DiGraphs, where they cannot exist; the .dag files merged them too);
//     the merged edge keeps the larger weight. Self loops are rejected: a
//     DAG file with one is corrupt.
//   - GML's `directed` is not read: every edge runs source -> target.
//   - .json and .graphml problems are modulo problems; A and B on them are
//     refused rather than guessed at (which edges to drop, which latency).
//   - C on a DAG: the II is the smallest at which the edges admit a
//     schedule, from ResMII up. With the capacity set to
//     ceil(users / targetResMII), the reservation table is nearly full at
//     that II whenever ResMII decides it.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/Readers.h"
#include "scheduler/gaus/Legalize.h"

#include "scheduler/io/HatScheT.h"
#include "scheduler/io/ProblemJSON.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

using namespace tilepipe;
using namespace tilepipe::gaus;
using llvm::StringRef;

namespace {

/// Largest node or edge count a file may declare.
constexpr uint64_t kMaxCount = 10'000'000;

/// The graph as a DAG file gives it, before a formulation is chosen.
struct RawEdge {
  unsigned src, dst;
  double weight;
  unsigned line;
};
struct RawGraph {
  std::vector<std::string> names;
  std::vector<double> weight;
  /// C: whether the node holds the shared resource (.dag: not the inputs
  /// and the constant, which are wires, not operations).
  std::vector<char> usesUnit;
  std::vector<RawEdge> edges;
  /// .dag: unit weights and bytes; otherwise bytes follow the weights.
  bool unitBytes = false;
  /// .dag: the header's level count, checked against the longest path.
  std::optional<uint64_t> levels;
  unsigned headerLine = 0;
};

/// Collects the first error as "path[:line]: message".
class Errors {
public:
  Errors(StringRef path, std::string &out) : path(path), out(out) {}
  bool at(unsigned line, const llvm::Twine &message) {
    out = path.str();
    if (line)
      out += ":" + std::to_string(line);
    out += ": " + message.str();
    return false;
  }
  bool whole(const llvm::Twine &message) { return at(0, message); }
  /// A message that already names the file (the io readers' errors).
  bool verbatim(std::string message) {
    out = std::move(message);
    return false;
  }

private:
  StringRef path;
  std::string &out;
};

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/// Splits a line into whitespace-separated tokens, dropping a '#' comment.
void tokenize(StringRef line, llvm::SmallVectorImpl<StringRef> &tokens) {
  tokens.clear();
  size_t hash = line.find('#');
  if (hash != StringRef::npos)
    line = line.take_front(hash);
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && isSpace(line[i]))
      ++i;
    size_t begin = i;
    while (i < line.size() && !isSpace(line[i]))
      ++i;
    if (i > begin)
      tokens.push_back(line.slice(begin, i));
  }
}

/// Calls `fn(lineNumber, tokens)` for every line with tokens; stops at the
/// first false (returning false). `lineNumber` ends on the last line read.
template <typename Fn>
bool forEachLine(StringRef text, unsigned &lineNumber, Fn fn) {
  llvm::SmallVector<StringRef, 8> tokens;
  lineNumber = 0;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    ++lineNumber;
    tokenize(line, tokens);
    if (!tokens.empty() && !fn(lineNumber, tokens))
      return false;
  }
  return true;
}

/// "0..N-1", or "no nodes" when there are none.
std::string idRange(uint64_t numNodes) {
  if (numNodes == 0)
    return "no nodes (the header declares none)";
  return "0.." + std::to_string(numNodes - 1);
}

bool parseCount(StringRef token, uint64_t &value) {
  return !token.getAsInteger(10, value);
}

/// A non-negative finite number (integer or decimal).
bool parseWeight(StringRef token, double &value) {
  int64_t integer;
  if (!token.getAsInteger(10, integer)) {
    value = double(integer);
  } else if (token.getAsDouble(value)) {
    return false;
  }
  return std::isfinite(value) && value >= 0;
}

/// The header "n N M [L]" (the L only in .dag): both counts in range and
/// small enough for the file to hold that many lines.
bool parseHeader(llvm::ArrayRef<StringRef> tokens, unsigned line,
                 bool withLevels, size_t fileSize, uint64_t &numNodes,
                 uint64_t &numEdges, RawGraph &raw, Errors &errors) {
  const char *shape = withLevels ? "'n N M L'" : "'n N M'";
  size_t want = withLevels ? 4 : 3;
  if (tokens[0] != "n" || tokens.size() != want)
    return errors.at(line, llvm::Twine("expected the header ") + shape);
  if (!parseCount(tokens[1], numNodes) || !parseCount(tokens[2], numEdges))
    return errors.at(line, "the node and edge counts must be non-negative "
                           "integers");
  if (numNodes > kMaxCount || numEdges > kMaxCount)
    return errors.at(line, "the header declares " + std::to_string(numNodes) +
                               " nodes and " + std::to_string(numEdges) +
                               " edges; at most " + std::to_string(kMaxCount) +
                               " of each are accepted");
  // Every node or edge line takes at least three characters.
  if (3 * (numNodes + numEdges) > fileSize + 3)
    return errors.at(line, "the header declares " + std::to_string(numNodes) +
                               " nodes and " + std::to_string(numEdges) +
                               " edges, more lines than the file holds");
  if (withLevels) {
    uint64_t levels;
    if (!parseCount(tokens[3], levels))
      return errors.at(line, "the level count must be a non-negative integer");
    raw.levels = levels;
  }
  raw.headerLine = line;
  raw.names.resize(numNodes);
  raw.weight.assign(numNodes, 0);
  raw.usesUnit.assign(numNodes, 1);
  raw.edges.reserve(numEdges);
  return true;
}

/// An edge line's endpoints: in range, distinct.
bool parseEndpoints(StringRef srcToken, StringRef dstToken, uint64_t numNodes,
                    unsigned line, unsigned &src, unsigned &dst,
                    Errors &errors) {
  uint64_t s, d;
  if (!parseCount(srcToken, s) || !parseCount(dstToken, d))
    return errors.at(line, "edge endpoints must be node ids (non-negative "
                           "integers)");
  if (s >= numNodes || d >= numNodes)
    return errors.at(line, "edge " + std::to_string(s) + " -> " +
                               std::to_string(d) + " names a node outside " +
                               idRange(numNodes));
  if (s == d)
    return errors.at(line, "self loop on node " + std::to_string(s));
  src = unsigned(s);
  dst = unsigned(d);
  return true;
}

/// The line-based formats: .dag ("id kind is_po", "src dst") and .txt
/// ("id w", "src dst w").
bool readLines(StringRef text, bool dag, RawGraph &raw, Errors &errors) {
  uint64_t numNodes = 0, numEdges = 0, nodesSeen = 0;
  bool haveHeader = false;
  std::vector<char> defined;
  unsigned lastLine = 0;
  bool ok = forEachLine(
      text, lastLine, [&](unsigned line, llvm::ArrayRef<StringRef> tokens) {
        if (!haveHeader) {
          haveHeader = true;
          if (!parseHeader(tokens, line, dag, text.size(), numNodes, numEdges,
                           raw, errors))
            return false;
          defined.assign(numNodes, 0);
          return true;
        }
        if (nodesSeen < numNodes) {
          size_t want = dag ? 3 : 2;
          if (tokens.size() != want)
            return errors.at(line,
                             llvm::Twine("expected a node line ") +
                                 (dag ? "'id kind is_po'" : "'id weight'") +
                                 " (node " + std::to_string(nodesSeen + 1) +
                                 " of " + std::to_string(numNodes) + ")");
          uint64_t id;
          if (!parseCount(tokens[0], id) || id >= numNodes)
            return errors.at(line, "node id '" + tokens[0] + "' is not in " +
                                       idRange(numNodes));
          if (defined[id])
            return errors.at(line, "node " + std::to_string(id) +
                                       " is defined twice");
          defined[id] = 1;
          raw.names[id] = std::to_string(id);
          if (dag) {
            StringRef kind = tokens[1];
            if (kind != "C" && kind != "I" && kind != "A")
              return errors.at(line,
                               "node kind '" + kind + "' is not C, I or A");
            if (tokens[2] != "0" && tokens[2] != "1")
              return errors.at(line,
                               "is_po must be 0 or 1, not '" + tokens[2] + "'");
            raw.weight[id] = 1;
            raw.usesUnit[id] = kind == "A";
          } else if (!parseWeight(tokens[1], raw.weight[id])) {
            return errors.at(line, "node weight '" + tokens[1] +
                                       "' is not a non-negative number");
          }
          ++nodesSeen;
          return true;
        }
        if (raw.edges.size() >= numEdges)
          return errors.at(line, "more edge lines than the header's " +
                                     std::to_string(numEdges));
        size_t want = dag ? 2 : 3;
        if (tokens.size() != want)
          return errors.at(line,
                           dag ? "expected an edge line 'src dst'"
                               : "expected an edge line 'src dst weight'");
        RawEdge edge{0, 0, 1, line};
        if (!parseEndpoints(tokens[0], tokens[1], numNodes, line, edge.src,
                            edge.dst, errors))
          return false;
        if (!dag && !parseWeight(tokens[2], edge.weight))
          return errors.at(line, "edge weight '" + tokens[2] +
                                     "' is not a non-negative number");
        raw.edges.push_back(edge);
        return true;
      });
  if (!ok)
    return false;
  if (!haveHeader)
    return errors.at(lastLine,
                     dag ? "no header 'n N M L'" : "no header 'n N M'");
  if (nodesSeen < numNodes)
    return errors.at(lastLine, "the file ends after " +
                                   std::to_string(nodesSeen) + " of " +
                                   std::to_string(numNodes) + " node lines");
  if (raw.edges.size() < numEdges)
    return errors.at(lastLine, "the file ends after " +
                                   std::to_string(raw.edges.size()) + " of " +
                                   std::to_string(numEdges) + " edge lines");
  raw.unitBytes = dag;
  return true;
}

//===----------------------------------------------------------------------===//
// GML
//===----------------------------------------------------------------------===//

/// GML tokens: '[', ']', a quoted string (quotes dropped) or a bare word.
class GMLLexer {
public:
  enum Kind { Open, Close, String, Word, End, Bad };
  struct Token {
    Kind kind;
    StringRef text;
    unsigned line;
  };

  explicit GMLLexer(StringRef text) : text(text) {}

  Token next() {
    for (;;) {
      while (pos < text.size() && (isSpace(text[pos]) || text[pos] == '\n')) {
        if (text[pos] == '\n')
          ++line;
        ++pos;
      }
      if (pos < text.size() && text[pos] == '#') {
        while (pos < text.size() && text[pos] != '\n')
          ++pos;
        continue;
      }
      break;
    }
    if (pos >= text.size()) {
      // The end of the file is on its last line, not after its newline.
      bool newline = !text.empty() && text.back() == '\n';
      return {End, "", newline && line > 1 ? line - 1 : line};
    }
    char c = text[pos];
    if (c == '[' || c == ']') {
      ++pos;
      return {c == '[' ? Open : Close, text.slice(pos - 1, pos), line};
    }
    if (c == '"') {
      unsigned start = line;
      size_t begin = ++pos;
      while (pos < text.size() && text[pos] != '"') {
        if (text[pos] == '\n')
          ++line;
        ++pos;
      }
      if (pos >= text.size())
        return {Bad, "unterminated string", start};
      return {String, text.slice(begin, pos++), start};
    }
    size_t begin = pos;
    while (pos < text.size() && !isSpace(text[pos]) && text[pos] != '\n' &&
           text[pos] != '[' && text[pos] != ']' && text[pos] != '"')
      ++pos;
    return {Word, text.slice(begin, pos), line};
  }

private:
  StringRef text;
  size_t pos = 0;
  unsigned line = 1;
};

class GMLReader {
public:
  GMLReader(StringRef text, RawGraph &raw, Errors &errors)
      : lexer(text), raw(raw), errors(errors) {}

  bool read() {
    bool sawGraph = false;
    for (;;) {
      GMLLexer::Token key = lexer.next();
      if (key.kind == GMLLexer::End)
        break;
      if (key.kind != GMLLexer::Word)
        return unexpected(key, "a key");
      if (key.text == "graph") {
        if (sawGraph)
          return errors.at(key.line, "a second 'graph'; one is expected");
        sawGraph = true;
        if (!expectOpen(key) || !readGraph())
          return false;
      } else if (!skipValue()) {
        return false;
      }
    }
    if (!sawGraph)
      return errors.whole("no 'graph [ ... ]' in the file");
    return resolveEdges();
  }

private:
  struct PendingEdge {
    int64_t source = 0, target = 0;
    bool hasSource = false, hasTarget = false;
    double weight = 0;
    unsigned line = 0;
  };

  bool unexpected(const GMLLexer::Token &token, const llvm::Twine &what) {
    if (token.kind == GMLLexer::Bad)
      return errors.at(token.line, token.text);
    if (token.kind == GMLLexer::End)
      return errors.at(token.line,
                       "the file ends where " + what + " is expected");
    return errors.at(token.line,
                     "expected " + what + ", found '" + token.text + "'");
  }

  bool expectOpen(const GMLLexer::Token &key) {
    GMLLexer::Token open = lexer.next();
    if (open.kind != GMLLexer::Open)
      return unexpected(open, "'[' after '" + key.text + "'");
    return true;
  }

  /// Skips one value: a word, a string or a bracketed list (iteratively,
  /// so deep nesting cannot exhaust the stack).
  bool skipValue() {
    GMLLexer::Token value = lexer.next();
    if (value.kind == GMLLexer::String || value.kind == GMLLexer::Word)
      return true;
    if (value.kind != GMLLexer::Open)
      return unexpected(value, "a value");
    unsigned depth = 1;
    while (depth > 0) {
      GMLLexer::Token token = lexer.next();
      if (token.kind == GMLLexer::Open)
        ++depth;
      else if (token.kind == GMLLexer::Close)
        --depth;
      else if (token.kind == GMLLexer::End || token.kind == GMLLexer::Bad)
        return unexpected(token, "']'");
    }
    return true;
  }

  /// A scalar value (word or string) for `key`.
  bool scalar(const GMLLexer::Token &key, GMLLexer::Token &value) {
    value = lexer.next();
    if (value.kind == GMLLexer::Word || value.kind == GMLLexer::String)
      return true;
    return unexpected(value, "a value for '" + key.text + "'");
  }

  bool integer(const GMLLexer::Token &key, int64_t &out) {
    GMLLexer::Token value;
    if (!scalar(key, value))
      return false;
    if (value.text.getAsInteger(10, out))
      return errors.at(value.line, "'" + key.text + "' must be an integer, " +
                                       "not '" + value.text + "'");
    return true;
  }

  bool weight(const GMLLexer::Token &key, double &out) {
    GMLLexer::Token value;
    if (!scalar(key, value))
      return false;
    if (!parseWeight(value.text, out))
      return errors.at(value.line, "'" + key.text +
                                       "' must be a non-negative number, " +
                                       "not '" + value.text + "'");
    return true;
  }

  bool readGraph() {
    for (;;) {
      GMLLexer::Token key = lexer.next();
      if (key.kind == GMLLexer::Close)
        return true;
      if (key.kind != GMLLexer::Word)
        return unexpected(key, "a key or ']'");
      if (key.text == "node") {
        if (!expectOpen(key) || !readNode(key.line))
          return false;
      } else if (key.text == "edge") {
        if (!expectOpen(key) || !readEdge(key.line))
          return false;
      } else if (!skipValue()) {
        return false;
      }
    }
  }

  bool readNode(unsigned line) {
    int64_t id = 0;
    bool hasId = false;
    std::string label;
    double w = 0;
    for (;;) {
      GMLLexer::Token key = lexer.next();
      if (key.kind == GMLLexer::Close)
        break;
      if (key.kind != GMLLexer::Word)
        return unexpected(key, "a node key or ']'");
      if (key.text == "id") {
        if (!integer(key, id))
          return false;
        hasId = true;
      } else if (key.text == "label") {
        GMLLexer::Token value;
        if (!scalar(key, value))
          return false;
        label = value.text.str();
      } else if (key.text == "parameter") {
        if (!weight(key, w))
          return false;
      } else if (!skipValue()) {
        return false;
      }
    }
    if (!hasId)
      return errors.at(line, "node without an 'id'");
    if (raw.names.size() >= kMaxCount)
      return errors.at(line,
                       "more than " + std::to_string(kMaxCount) + " nodes");
    auto [it, inserted] = dense.try_emplace(id, unsigned(raw.names.size()));
    if (!inserted)
      return errors.at(line,
                       "node id " + std::to_string(id) + " is defined twice");
    raw.names.push_back(label.empty() ? std::to_string(id) : label);
    raw.weight.push_back(w);
    raw.usesUnit.push_back(1);
    return true;
  }

  bool readEdge(unsigned line) {
    PendingEdge edge;
    edge.line = line;
    for (;;) {
      GMLLexer::Token key = lexer.next();
      if (key.kind == GMLLexer::Close)
        break;
      if (key.kind != GMLLexer::Word)
        return unexpected(key, "an edge key or ']'");
      if (key.text == "source") {
        if (!integer(key, edge.source))
          return false;
        edge.hasSource = true;
      } else if (key.text == "target") {
        if (!integer(key, edge.target))
          return false;
        edge.hasTarget = true;
      } else if (key.text == "parameter") {
        if (!weight(key, edge.weight))
          return false;
      } else if (!skipValue()) {
        return false;
      }
    }
    if (!edge.hasSource || !edge.hasTarget)
      return errors.at(line, "edge without a 'source' and a 'target'");
    if (pending.size() >= kMaxCount)
      return errors.at(line,
                       "more than " + std::to_string(kMaxCount) + " edges");
    pending.push_back(edge);
    return true;
  }

  /// Edges may come before the nodes they name, so they are resolved last.
  bool resolveEdges() {
    raw.edges.reserve(pending.size());
    for (const PendingEdge &edge : pending) {
      auto src = dense.find(edge.source), dst = dense.find(edge.target);
      if (src == dense.end() || dst == dense.end())
        return errors.at(
            edge.line,
            "edge names node " +
                std::to_string(src == dense.end() ? edge.source : edge.target) +
                ", which no node defines");
      if (src->second == dst->second)
        return errors.at(edge.line,
                         "self loop on node " + std::to_string(edge.source));
      raw.edges.push_back({src->second, dst->second, edge.weight, edge.line});
    }
    return true;
  }

  GMLLexer lexer;
  RawGraph &raw;
  Errors &errors;
  std::unordered_map<int64_t, unsigned> dense;
  std::vector<PendingEdge> pending;
};

//===----------------------------------------------------------------------===//
// From a raw graph to an instance
//===----------------------------------------------------------------------===//

/// Merges duplicate edges in place (first occurrence kept, in file order,
/// with the larger weight).
void mergeDuplicates(RawGraph &raw) {
  std::vector<unsigned> byPair(raw.edges.size());
  std::iota(byPair.begin(), byPair.end(), 0u);
  std::sort(byPair.begin(), byPair.end(), [&](unsigned a, unsigned b) {
    const RawEdge &x = raw.edges[a], &y = raw.edges[b];
    return std::tie(x.src, x.dst, a) < std::tie(y.src, y.dst, b);
  });
  std::vector<char> keep(raw.edges.size(), 1);
  bool any = false;
  for (size_t k = 1; k < byPair.size(); ++k) {
    RawEdge &first = raw.edges[byPair[k - 1]];
    const RawEdge &dup = raw.edges[byPair[k]];
    if (first.src != dup.src || first.dst != dup.dst)
      continue;
    // The sort puts a run's first occurrence first; passing it along folds
    // every later duplicate into that one.
    first.weight = std::max(first.weight, dup.weight);
    keep[byPair[k]] = 0;
    byPair[k] = byPair[k - 1];
    any = true;
  }
  if (!any)
    return;
  size_t out = 0;
  for (size_t k = 0; k < raw.edges.size(); ++k)
    if (keep[k])
      raw.edges[out++] = raw.edges[k];
  raw.edges.resize(out);
}

/// Levels with unit latency (the longest path in edges to each node) by a
/// topological walk; on a cycle, reports one of its edges' lines.
bool computeLevels(const RawGraph &raw, std::vector<int64_t> &level,
                   Errors &errors) {
  unsigned n = raw.names.size();
  std::vector<unsigned> begin(n + 1, 0), indegree(n, 0);
  for (const RawEdge &e : raw.edges) {
    ++begin[e.src + 1];
    ++indegree[e.dst];
  }
  for (unsigned i = 0; i < n; ++i)
    begin[i + 1] += begin[i];
  std::vector<unsigned> out(raw.edges.size());
  {
    std::vector<unsigned> fill(begin.begin(), begin.end() - 1);
    for (unsigned k = 0; k < raw.edges.size(); ++k)
      out[fill[raw.edges[k].src]++] = k;
  }
  level.assign(n, 0);
  std::vector<unsigned> order;
  order.reserve(n);
  for (unsigned i = 0; i < n; ++i)
    if (indegree[i] == 0)
      order.push_back(i);
  for (size_t next = 0; next < order.size(); ++next) {
    unsigned u = order[next];
    for (unsigned k = begin[u]; k < begin[u + 1]; ++k) {
      const RawEdge &e = raw.edges[out[k]];
      level[e.dst] = std::max(level[e.dst], level[u] + 1);
      if (--indegree[e.dst] == 0)
        order.push_back(e.dst);
    }
  }
  if (order.size() == n)
    return true;
  // Every node left has an in-edge from another node left: walking those
  // backwards n times ends on a cycle.
  std::vector<unsigned> inEdge(n, ~0u);
  for (unsigned k = 0; k < raw.edges.size(); ++k)
    if (indegree[raw.edges[k].src] > 0 && indegree[raw.edges[k].dst] > 0)
      inEdge[raw.edges[k].dst] = k;
  unsigned v = 0;
  while (indegree[v] == 0)
    ++v;
  for (unsigned step = 0; step < n; ++step)
    v = raw.edges[inEdge[v]].src;
  const RawEdge &e = raw.edges[inEdge[v]];
  return errors.at(e.line, "edge " + raw.names[e.src] + " -> " +
                               raw.names[e.dst] +
                               " closes a cycle; the graph must be a DAG");
}

/// splitmix64 (Steele, Lea, Flood 2014), written out so that the recurrences
/// are the same with every standard library.
uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int64_t maxStart(const std::vector<int64_t> &starts) {
  return starts.empty() ? 0 : *std::max_element(starts.begin(), starts.end());
}

/// Whether `instance`'s edges admit a schedule at `ii` (and, with a depth
/// given, one inside it); `longest` gets the steps the ASAP starts span.
bool feasibleAt(const Instance &instance, unsigned ii, int64_t depth,
                int64_t &longest, std::string &reason) {
  std::vector<int64_t> starts(instance.nodes.size(), 0);
  if (!raiseToFixedPoint(instance, ii, starts, reason))
    return false;
  longest = maxStart(starts) + 1;
  if (depth > 0 && longest > depth) {
    reason = "the critical path at II " + std::to_string(ii) + " needs " +
             std::to_string(longest) + " steps, more than the depth " +
             std::to_string(depth);
    return false;
  }
  return true;
}

/// The smallest II >= `lowest` at which the edges admit a schedule (within
/// `depth` when it is positive). Feasibility only grows with the II, so a
/// galloping search from `lowest` followed by bisection finds it in
/// O(log) tests, most of them near `lowest` where the answer usually is.
std::optional<unsigned> searchII(const Instance &instance, unsigned lowest,
                                 int64_t depth, std::string &reason) {
  // Above every cycle's latency no cycle is positive, and back edges lift
  // nothing past the zero-distance paths.
  uint64_t latencies = 0;
  for (const Edge &e : instance.edges)
    latencies += uint64_t(std::max<int64_t>(0, e.latency));
  uint64_t highest = std::min<uint64_t>(uint64_t(lowest) + 2 * latencies + 1,
                                        uint64_t(UINT32_MAX));
  int64_t longest;
  if (!feasibleAt(instance, unsigned(highest), depth, longest, reason))
    return std::nullopt;
  uint64_t bad = lowest, step = 1;
  // Gallop: find a feasible II, remembering the last infeasible one.
  uint64_t good = highest;
  for (uint64_t ii = lowest; ii < highest; ii = bad + step, step *= 2) {
    std::string ignored;
    if (feasibleAt(instance, unsigned(ii), depth, longest, ignored)) {
      good = ii;
      break;
    }
    bad = ii;
  }
  if (good == lowest)
    return lowest;
  // Bisect (bad, good]: bad is infeasible, good feasible.
  while (good - bad > 1) {
    uint64_t mid = bad + (good - bad) / 2;
    std::string ignored;
    if (feasibleAt(instance, unsigned(mid), depth, longest, ignored))
      good = mid;
    else
      bad = mid;
  }
  return unsigned(good);
}

/// Sets instance.ii (given or searched) and the depth (given, or the
/// longest path at that II plus one II of slack).
bool chooseIIAndDepth(Instance &instance, unsigned lowest,
                      const ReadOptions &options, unsigned slackStages,
                      Errors &errors) {
  std::string reason;
  unsigned ii;
  if (options.ii > 0) {
    ii = options.ii;
  } else {
    std::optional<unsigned> found =
        searchII(instance, std::max(lowest, 1u), options.depth, reason);
    if (!found)
      return errors.whole("no II admits a schedule: " + reason);
    ii = *found;
  }
  int64_t longest;
  if (!feasibleAt(instance, ii, options.depth, longest, reason))
    return errors.whole("II " + std::to_string(ii) +
                        " admits no schedule: " + reason);
  instance.ii = ii;
  instance.depth = options.depth > 0
                       ? options.depth
                       : longest + int64_t(slackStages) * int64_t(ii);
  return true;
}

/// Formulation C on a DAG: recurrences by a fixed seed, one shared
/// resource, then the II and the depth.
bool augmentModulo(const RawGraph &raw, const std::vector<int64_t> &level,
                   const ReadOptions &options, Instance &instance,
                   Errors &errors) {
  unsigned n = instance.nodes.size();
  // Nodes by (level, id): the ones with level <= L form a prefix.
  int64_t maxLevel = maxStart(level);
  std::vector<unsigned> prefixEnd(maxLevel + 2, 0);
  for (unsigned i = 0; i < n; ++i)
    ++prefixEnd[level[i] + 1];
  for (int64_t l = 0; l <= maxLevel; ++l)
    prefixEnd[l + 1] += prefixEnd[l];
  std::vector<unsigned> byLevel(n);
  {
    std::vector<unsigned> fill(prefixEnd.begin(), prefixEnd.end() - 1);
    for (unsigned i = 0; i < n; ++i)
      byLevel[fill[level[i]]++] = i;
  }

  uint64_t wanted =
      uint64_t(std::llround(double(n) * options.recurrencesPer100 / 100.0));
  uint64_t state = options.augmentSeed;
  llvm::DenseSet<uint64_t> added;
  // A pick can be refused (no earlier node, or a repeat); the attempt cap
  // keeps tiny graphs from spinning.
  for (uint64_t attempt = 0; attempt < 8 * wanted + 64 && added.size() < wanted;
       ++attempt) {
    if (n < 2)
      break;
    unsigned v = unsigned(splitmix64(state) % n);
    unsigned earlier = prefixEnd[level[v] + 1]; // Nodes with level <= v's.
    unsigned u = byLevel[splitmix64(state) % earlier];
    unsigned distance = 1 + unsigned(splitmix64(state) & 1);
    if (u == v || !added.insert((uint64_t(v) << 32) | u).second)
      continue;
    Edge back;
    back.src = v;
    back.dst = u;
    back.latency = 1;
    back.distance = distance;
    back.comm = 0;
    instance.edges.push_back(back);
  }

  unsigned users = 0;
  for (unsigned i = 0; i < n; ++i)
    if (raw.usesUnit[i]) {
      instance.nodes[i].uses.push_back(Use{0, 0, 1, 1});
      ++users;
    }
  unsigned capacity =
      std::max(1u, (users + options.targetResMII - 1) / options.targetResMII);
  unsigned resMII = std::max(1u, (users + capacity - 1) / capacity);
  instance.capacity = {double(capacity)};
  instance.resourceNames = {"unit"};
  if (!chooseIIAndDepth(instance, resMII, options, /*slackStages=*/1, errors))
    return false;
  if (options.ii > 0)
    return true;
  // At the bound the table is (nearly) full and the recurrences have no
  // slack, and on many DAGs no method finds a schedule at all; the first
  // II (up to twice the bound) where the legaliser seats the ASAP starts
  // gives every method a known legal schedule to beat (docs/gaus.md).
  unsigned bound = instance.ii;
  for (unsigned ii = bound; ii <= 2 * bound; ++ii) {
    ReadOptions at = options;
    at.ii = ii;
    // A larger II only loosens the recurrences: feasible at the bound,
    // feasible here.
    if (!chooseIIAndDepth(instance, ii, at, /*slackStages=*/1, errors))
      return false;
    std::string reason;
    std::optional<Frames> frames = computeFrames(instance, reason);
    if (frames && legalize(instance, *frames, frames->asap))
      return true;
  }
  ReadOptions at = options;
  at.ii = bound;
  return chooseIIAndDepth(instance, bound, at, /*slackStages=*/1, errors);
}

bool buildFromRaw(RawGraph &raw, const ReadOptions &options, Instance &instance,
                  Errors &errors) {
  mergeDuplicates(raw);
  std::vector<int64_t> level;
  if (!computeLevels(raw, level, errors))
    return false;
  unsigned n = raw.names.size();
  int64_t longest = n == 0 ? 0 : maxStart(level) + 1; // Nodes on it.
  if (raw.levels && n > 0 && int64_t(*raw.levels) != longest - 1)
    return errors.at(raw.headerLine,
                     "the header gives " + std::to_string(*raw.levels) +
                         " levels but the longest path has " +
                         std::to_string(longest - 1) + " edges");

  instance.formulation = options.formulation;
  instance.alpha = options.alpha;
  instance.nodes.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    Node &node = instance.nodes[i];
    node.name = std::move(raw.names[i]);
    node.weight = raw.weight[i];
    node.bytes = raw.unitBytes || raw.weight[i] <= 0 ? 1 : raw.weight[i];
  }
  // A's dependences are non-strict (GS-Schedule's LP: v_src <= v_dst).
  int64_t latency = options.formulation == Formulation::A ? 0 : 1;
  instance.edges.reserve(raw.edges.size());
  for (const RawEdge &e : raw.edges) {
    Edge edge;
    edge.src = e.src;
    edge.dst = e.dst;
    edge.latency = latency;
    edge.distance = 0;
    edge.comm = e.weight;
    instance.edges.push_back(edge);
  }

  if (options.formulation == Formulation::C)
    return augmentModulo(raw, level, options, instance, errors);
  instance.ii = 0;
  instance.depth =
      options.depth > 0 ? options.depth : std::max<int64_t>(longest, 1);
  if (options.formulation == Formulation::B && instance.depth < longest)
    return errors.whole("depth " + std::to_string(instance.depth) +
                        " is below the longest path (" +
                        std::to_string(longest) + " nodes)");
  return true;
}

/// .json and .graphml: a sched::Problem, checked, then formulation C.
bool readProblem(StringRef path, bool graphml, const ReadOptions &options,
                 Instance &instance, Errors &errors) {
  if (options.formulation != Formulation::C)
    return errors.whole("formulations A and B need a DAG (.dag, .txt or "
                        ".gml); a .json or .graphml problem is a modulo "
                        "problem, read it as formulation C");
  if (graphml && options.resources.empty())
    return errors.whole("a .graphml instance needs its HatScheT resource "
                        "model (the resources option)");
  llvm::Expected<io::ProblemFile> file =
      graphml ? io::readHatScheTFiles(path, options.resources)
              : io::readProblemJSONFile(path);
  if (!file) {
    // The io readers' messages already start with "file:line:".
    return errors.verbatim(llvm::toString(file.takeError()));
  }
  const sched::Problem &problem = file->problem;
  sched::DiagnosticList diags;
  if (!problem.check(diags)) {
    for (const sched::Diagnostic &diag : diags.all())
      if (diag.severity == sched::Severity::Error)
        return errors.whole(diag.message);
    return errors.whole("the problem does not pass its checks");
  }
  rrt::Bounds bounds = problem.computeBounds();
  if (bounds.recurrenceInfeasible)
    return errors.whole("a distance-0 cycle of positive latency: no II "
                        "schedules it");
  if (bounds.resourceInfeasible)
    return errors.whole("an op collides with itself at every II "
                        "(resource '" +
                        (bounds.resBottleneck.empty() ? bounds.fineBottleneck
                                                      : bounds.resBottleneck) +
                        "')");
  unsigned lowest = std::max(bounds.mii, 1u);
  // The edges do not depend on the II; build once at the bound, then fix
  // the II and the depth.
  instance = fromProblem(problem, options.ii > 0 ? options.ii : lowest);
  instance.name = file->name;
  instance.alpha = options.alpha;
  return chooseIIAndDepth(instance, lowest, options, /*slackStages=*/1, errors);
}

} // namespace

std::optional<Instance> tilepipe::gaus::readInstance(const std::string &path,
                                                     const ReadOptions &options,
                                                     std::string &error) {
  Errors errors(path, error);
  if (options.depth < 0) {
    errors.whole("the depth must be positive (0: the default)");
    return std::nullopt;
  }
  if (options.formulation == Formulation::C) {
    if (options.targetResMII == 0) {
      errors.whole("the target ResMII must be at least 1");
      return std::nullopt;
    }
    if (!std::isfinite(options.recurrencesPer100) ||
        options.recurrencesPer100 < 0 || options.recurrencesPer100 > 1000) {
      errors.whole("recurrences per 100 nodes must lie in [0, 1000]");
      return std::nullopt;
    }
  }

  StringRef ext = llvm::sys::path::extension(path);
  Instance instance;
  instance.name = llvm::sys::path::stem(path).str();
  if (ext.equals_insensitive(".json") || ext.equals_insensitive(".graphml")) {
    if (!readProblem(path, ext.equals_insensitive(".graphml"), options,
                     instance, errors))
      return std::nullopt;
    return instance;
  }
  bool dag = ext.equals_insensitive(".dag");
  bool txt = ext.equals_insensitive(".txt");
  bool gml = ext.equals_insensitive(".gml");
  if (!dag && !txt && !gml) {
    errors.whole("unknown extension '" + ext +
                 "'; supported: .dag (EPFL), .txt and .gml (GS-Schedule), "
                 ".json (tilepipe problem), .graphml (HatScheT)");
    return std::nullopt;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer) {
    errors.whole("cannot read the file: " + buffer.getError().message());
    return std::nullopt;
  }
  StringRef text = (*buffer)->getBuffer();
  RawGraph raw;
  bool ok = gml ? GMLReader(text, raw, errors).read()
                : readLines(text, dag, raw, errors);
  if (!ok || !buildFromRaw(raw, options, instance, errors))
    return std::nullopt;
  return instance;
}

Instance tilepipe::gaus::fromProblem(const sched::Problem &problem, unsigned ii,
                                     unsigned slackStages) {
  const rrt::ResourceLayout &layout = problem.getLayout();
  Instance instance;
  instance.formulation = Formulation::C;
  instance.ii = ii;
  // Dense resources: the RRT bits (capacity 1) first, then the pools.
  unsigned numBits = layout.numBits();
  for (unsigned b = 0; b < numBits; ++b) {
    instance.resourceNames.push_back(layout.bitNames[b]);
    instance.capacity.push_back(1);
  }
  for (unsigned p = 0; p < layout.numPools(); ++p) {
    instance.resourceNames.push_back(layout.poolNames[p]);
    instance.capacity.push_back(layout.poolCaps[p]);
  }
  instance.nodes.resize(problem.getNumOps());
  for (unsigned i = 0; i < problem.getNumOps(); ++i) {
    const sched::Operation &op = problem.getOp(i);
    Node &node = instance.nodes[i];
    node.name = op.name;
    node.bytes = 1;
    for (const rrt::Use &use : op.uses) {
      bool bit = use.kind == rrt::Use::Kind::Bit;
      // A non-binding pool never refuses (ResourceLayout::poolBinding):
      // its uses cannot make a schedule illegal, so they are left out.
      if (!bit && !layout.poolBinding[use.index])
        continue;
      Use out;
      out.resource = bit ? use.index : numBits + use.index;
      out.offset = use.offset;
      out.duration = use.duration;
      out.amount = bit ? 1 : use.amount;
      node.uses.push_back(out);
    }
  }
  for (const sched::Dependence &dep : problem.getDependences()) {
    Edge edge;
    edge.src = dep.src;
    edge.dst = dep.dst;
    edge.latency = dep.latency;
    edge.distance = dep.distance;
    instance.edges.push_back(edge);
  }
  // Depth: the longest path at `ii` plus the slack. A positive cycle at
  // `ii` leaves no longest path; the sum of the latencies bounds every
  // acyclic one, and computeFrames then reports the cycle.
  std::vector<int64_t> starts(instance.nodes.size(), 0);
  std::string reason;
  int64_t longest;
  if (raiseToFixedPoint(instance, ii, starts, reason)) {
    longest = maxStart(starts) + 1;
  } else {
    longest = 1;
    for (const Edge &e : instance.edges)
      longest += std::max<int64_t>(0, e.latency);
  }
  instance.depth = longest + int64_t(slackStages) * int64_t(ii);
  return instance;
}
