//===- TextReaders.cpp - GauS instances from .dag, .txt and .gml ----------===//
//
// The three graph formats (.dag, .txt, .gml) are read into one raw graph
// (node weights, weighted edges, the line each edge came from), and one
// builder turns that into an instance of the asked formulation, so the
// formulation defaults live in a single place. The readers never trust
// the file: counts are checked against the lines actually present, ids
// against the counts, and every number against its range, and the raw
// graph is checked for cycles before any longest path is taken.
//
// The builder is InstanceBuilder.cpp; readInstance, here, also sends
// .json and .graphml to ProblemReaders.cpp.
//
// Choices the sources leave open (docs/gaus.md):
//   - Self loops are rejected: a DAG file with one is corrupt.
//   - GML's `directed` is not read: every edge runs source -> target.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/ReaderSupport.h"
#include "scheduler/gaus/Readers.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <unordered_map>

using namespace tilepipe;
using namespace tilepipe::gaus;
using namespace tilepipe::gaus::detail;
using llvm::StringRef;

namespace {

/// Largest node or edge count a file may declare.
constexpr uint64_t kMaxCount = 10'000'000;

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
