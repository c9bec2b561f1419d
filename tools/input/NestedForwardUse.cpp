//===- NestedForwardUse.cpp - values used before a nested definition ------===//

#include "tools/input/NestedForwardUse.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

using namespace tilepipe::tools;

namespace {

bool isIdChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '$' || c == '.' ||
         c == '_' || c == '-';
}

struct Pending {
  std::string name;
  int depth;
  unsigned line, column;
};

/// Walks the text once, tracking region depth, the definitions visible and
/// the uses not yet defined (docs: NestedForwardUse.h).
class ForwardUseScanner {
public:
  explicit ForwardUseScanner(llvm::StringRef text)
      : text(text), n(text.size()) {}

  std::optional<NestedForwardUse> run() {
    while (i < n) {
      char c = text[i];
      if (c == '/' && text.substr(i).starts_with("//"))
        comment();
      else if (c == '"')
        string();
      else if (c == '(' || c == ')')
        paren(c);
      else if (c == '{' || c == '}')
        brace(c);
      else if (c != '%')
        advance(i + 1);
      else if (std::optional<NestedForwardUse> found = valueName())
        return found;
    }
    return std::nullopt;
  }

private:
  /// Moves to `to`, counting lines and columns.
  void advance(size_t to) {
    for (; i < to && i < n; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
  }
  static bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }
  char prevNonSpace(size_t at) const {
    while (at > 0) {
      char c = text[--at];
      if (!isSpace(c))
        return c;
    }
    return 0;
  }
  size_t nextNonSpace(size_t at) const {
    while (at < n && isSpace(text[at]))
      ++at;
    return at;
  }

  /// A line comment; `// -----` starts a new split-input chunk.
  void comment() {
    size_t end = text.find('\n', i);
    if (end == llvm::StringRef::npos)
      end = n;
    if (text.slice(i, end).trim() == "// -----") {
      depth = 0;
      parens = 0;
      defs.clear();
      pending.clear();
    }
    advance(end);
  }
  void string() {
    size_t j = i + 1;
    while (j < n && text[j] != '"' && text[j] != '\n')
      j += text[j] == '\\' ? 2 : 1;
    advance(j + 1);
  }
  void paren(char c) {
    parens += c == '(' ? 1 : -1;
    advance(i + 1);
  }
  /// A region opens or closes; what was defined or pending inside a
  /// closed one is forgotten.
  void brace(char c) {
    advance(i + 1);
    if (c == '{') {
      ++depth;
      return;
    }
    --depth;
    for (auto it = defs.begin(); it != defs.end();) {
      auto cur = it++;
      if (cur->second > depth)
        defs.erase(cur);
    }
    llvm::erase_if(pending, [&](const Pending &p) { return p.depth > depth; });
  }

  /// Whether the name ending at `after` is being defined: `%x = op`, or
  /// one of `%a, %b = op`.
  bool assigned(size_t start, size_t next) const {
    if (next < n && text[next] == '=' &&
        (next + 1 >= n || text[next + 1] != '='))
      return true;
    if (next >= n || text[next] != ',')
      return false;
    size_t k = next;
    // A result list holds names only: `%i, %j] token = %t` (indices of a
    // tileir load) is an operand list.
    while (k < n && text[k] != '\n' && text[k] != '=' && text[k] != '(' &&
           text[k] != '{' && text[k] != ':' && text[k] != '[' && text[k] != ']')
      ++k;
    return k < n && text[k] == '=' && prevNonSpace(start) != '(' &&
           (k + 1 >= n || text[k + 1] != '=');
  }

  /// `%name` at `i`: a definition, an argument or a use.
  std::optional<NestedForwardUse> valueName() {
    size_t j = i + 1;
    while (j < n && isIdChar(text[j]))
      ++j;
    if (j == i + 1) {
      advance(j);
      return std::nullopt;
    }
    std::string name = text.slice(i, j).str();
    // `%x#2` reads a result; `%x:2 =` defines several.
    size_t after = j;
    if (after < n && (text[after] == '#' || text[after] == ':') &&
        after + 1 < n &&
        std::isdigit(static_cast<unsigned char>(text[after + 1]))) {
      bool result = text[after] == '#';
      ++after;
      while (after < n && std::isdigit(static_cast<unsigned char>(text[after])))
        ++after;
      if (result)
        j = after;
    }
    size_t next = nextNonSpace(after);
    bool defined = assigned(i, next);
    // `(%a: i32, %b: f32)`: block and function arguments, in parentheses
    // (an operand list `%a, %c1 : index` has none).
    char before = prevNonSpace(i);
    bool argument = parens > 0 && (before == '(' || before == ',') &&
                    next < n && text[next] == ':' &&
                    !(next + 1 < n && text[next + 1] == ':');
    // `tileir.for %i in (...)` defines its induction variable.
    argument |= text.substr(next).starts_with("in (");
    unsigned useLine = line, useColumn = column;
    advance(j);
    if (!defined && !argument) {
      if (!defs.count(name))
        pending.push_back({name, depth, useLine, useColumn});
      return std::nullopt;
    }
    for (const Pending &p : pending)
      if (p.name == name && p.depth < depth)
        return NestedForwardUse{name, p.line, p.column, useLine};
    llvm::erase_if(pending, [&](const Pending &p) { return p.name == name; });
    defs.try_emplace(name, depth); // The outermost stays visible.
    return std::nullopt;
  }

  llvm::StringRef text;
  size_t i = 0, n;
  int depth = 0, parens = 0;
  unsigned line = 1, column = 1;
  // Visible definitions: name -> the depth they were made at.
  llvm::StringMap<int> defs;
  std::vector<Pending> pending;
};

} // namespace

std::optional<NestedForwardUse>
tilepipe::tools::findNestedForwardUse(llvm::StringRef text) {
  return ForwardUseScanner(text).run();
}

void tilepipe::tools::printNestedForwardUse(const NestedForwardUse &found,
                                            llvm::StringRef file,
                                            llvm::raw_ostream &os) {
  os << file << ":" << found.line << ":" << found.column << ": error: '"
     << found.name << "' is used before its definition at line "
     << found.defLine
     << ", which lies inside a region opened after this use; a value defined "
        "in a region is visible only inside it\n";
}

bool tilepipe::tools::checkNestedForwardUses(int argc, char **argv) {
  // The input: the first positional argument, as MLIR's mains read it.
  llvm::StringRef input = "-";
  for (int k = 1; k < argc; ++k) {
    llvm::StringRef arg = argv[k];
    if ((arg == "-o" || arg == "--o") && k + 1 < argc) {
      ++k;
      continue;
    }
    if (arg == "-" || !arg.starts_with("-")) {
      input = arg;
      break;
    }
  }
  bool fromStdin = input == "-";
  auto buffer = fromStdin ? llvm::MemoryBuffer::getSTDIN()
                          : llvm::MemoryBuffer::getFile(input, /*IsText=*/true);
  if (!buffer)
    return true; // The main says why it cannot read it.
  std::optional<NestedForwardUse> found =
      findNestedForwardUse((*buffer)->getBuffer());
  if (found) {
    printNestedForwardUse(*found, fromStdin ? "<stdin>" : input, llvm::errs());
    return false;
  }
  if (!fromStdin)
    return true;
  // Hand the text back on stdin for the main to read.
  int fd;
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("tilepipe-stdin", "mlir", fd, path))
    return true;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << (*buffer)->getBuffer();
  }
  int in = ::open(path.c_str(), O_RDONLY);
  llvm::sys::fs::remove(path);
  if (in >= 0) {
    ::dup2(in, 0);
    ::close(in);
  }
  return true;
}
