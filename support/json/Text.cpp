//===- Text.cpp - strict JSON: the raw-text scan --------------------------===//

#include "support/json/Text.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>

using namespace tilepipe::support::json;
using llvm::StringRef;

char TextError::ID = 0;

std::string DuplicateKey::describe() const {
  return path + llvm::formatv(": duplicate key at {0}:{1} (first written at "
                              "{2}:{3})",
                              at.line, at.column, first.line, first.column)
                    .str();
}

const SplitArray &TextScan::array(StringRef key) const {
  for (const SplitArray &a : arrays)
    if (a.key == key)
      return a;
  llvm_unreachable("array not asked for in scanText");
}

namespace {

/// The 16-bit value of the \uXXXX escape at `at` (pointing at the
/// backslash), if it is one.
std::optional<unsigned> unicodeEscape(StringRef text, size_t at) {
  if (at + 6 > text.size() || text[at] != '\\' || text[at + 1] != 'u')
    return std::nullopt;
  unsigned value = 0;
  if (text.substr(at + 2, 4).getAsInteger(16, value))
    return std::nullopt;
  return value;
}

/// One open array or object.
struct Level {
  bool object = false;
  bool expectKey = false;
  std::string key;  ///< Object: the current key, raw.
  size_t index = 0; ///< Array: the current element.
  /// Object: each key and where it was first written. A short list for
  /// the million small objects of a large file, a map past a few dozen.
  llvm::SmallVector<std::pair<StringRef, size_t>, 12> few;
  std::unique_ptr<llvm::StringMap<size_t>> many;

  /// Records `key` at `at`, or returns where it was first written.
  std::optional<size_t> insert(StringRef key, size_t at) {
    if (!many) {
      for (auto &[k, first] : few)
        if (k == key)
          return first;
      if (few.size() < 32) {
        few.push_back({key, at});
        return std::nullopt;
      }
      many = std::make_unique<llvm::StringMap<size_t>>();
      for (auto &[k, first] : few)
        many->try_emplace(k, first);
    }
    auto [it, fresh] = many->try_emplace(key, at);
    if (fresh)
      return std::nullopt;
    return it->second;
  }
};

bool isSpace(char c) { return isspace(static_cast<unsigned char>(c)); }

/// The scan's state: the open levels, and the split array being walked.
class Scanner {
public:
  Scanner(StringRef text, unsigned maxDepth,
          llvm::ArrayRef<StringRef> splitKeys)
      : text(text), maxDepth(maxDepth) {
    for (StringRef key : splitKeys)
      result.arrays.push_back({key.str(), std::nullopt, {}});
  }

  TextScan run() {
    for (size_t pos = 0, e = text.size(); pos < e; ++pos) {
      char c = text[pos];
      if (inSplitElementList() && elementBegin == StringRef::npos && c != ',' &&
          c != ']' && !isSpace(c))
        elementBegin = pos;
      if (c == '"') {
        pos = string(pos);
      } else if (c == '{' || c == '[') {
        if (stack.size() >= maxDepth) {
          result.tooDeepAt = pos;
          break;
        }
        open(c, pos);
      } else if (c == '}' || c == ']') {
        close(pos);
      } else if (c == ',' && !stack.empty()) {
        comma(pos);
      }
    }
    return std::move(result);
  }

private:
  /// Directly inside a split array (stack depth 2 under the root object).
  bool inSplitElementList() const { return split && stack.size() == 2; }

  /// Walks the string opening at `pos`; returns the closing quote's offset.
  size_t string(size_t pos) {
    size_t begin = pos + 1, e = text.size();
    for (++pos; pos < e && text[pos] != '"'; ++pos) {
      if (text[pos] != '\\')
        continue;
      std::optional<unsigned> unit = unicodeEscape(text, pos);
      if (unit && *unit >= 0xD800 && *unit <= 0xDFFF) {
        std::optional<unsigned> low = unicodeEscape(text, pos + 6);
        bool paired = *unit < 0xDC00 && low && *low >= 0xDC00 && *low <= 0xDFFF;
        if (!paired && !result.loneSurrogateAt)
          result.loneSurrogateAt = pos;
        if (paired)
          pos += 6;
      }
      ++pos;
    }
    if (!stack.empty() && stack.back().object && stack.back().expectKey)
      key(text.slice(begin, std::min(pos, e)), begin - 1);
    return pos;
  }

  /// A key of the innermost object, its opening quote at `at`.
  void key(StringRef key, size_t at) {
    Level &top = stack.back();
    top.expectKey = false;
    top.key = key.str();
    std::optional<size_t> firstAt = top.insert(key, at);
    if (!firstAt || result.duplicate)
      return;
    std::string path;
    for (const Level &level : llvm::ArrayRef(stack).drop_back())
      path = level.object ? pathKey(path, level.key)
                          : pathIndex(path, level.index);
    result.duplicate = DuplicateKey{pathKey(path, key), positionOf(text, at),
                                    positionOf(text, *firstAt)};
  }

  void open(char c, size_t pos) {
    stack.emplace_back();
    stack.back().object = c == '{';
    stack.back().expectKey = c == '{';
    if (c != '[' || stack.size() != 2 || !stack[0].object)
      return;
    for (SplitArray &array : result.arrays)
      if (array.key == stack[0].key && !array.contents) {
        split = &array;
        split->contents = {pos + 1, pos + 1};
      }
  }

  void close(size_t pos) {
    if (inSplitElementList()) {
      endElement(pos);
      split->contents->second = pos;
      split = nullptr;
    }
    if (!stack.empty())
      stack.pop_back();
  }

  void comma(size_t pos) {
    if (inSplitElementList())
      endElement(pos);
    if (stack.back().object)
      stack.back().expectKey = true;
    else
      ++stack.back().index;
  }

  /// Ends the current element of the split array at `end`.
  void endElement(size_t end) {
    if (elementBegin != StringRef::npos) {
      size_t b = elementBegin;
      while (end > b && isSpace(text[end - 1]))
        --end;
      split->elements.push_back({uint32_t(b), uint32_t(end)});
    }
    elementBegin = StringRef::npos;
  }

  StringRef text;
  unsigned maxDepth;
  TextScan result;
  std::vector<Level> stack;
  /// The split array being walked, and where its current element began
  /// (npos when none has).
  SplitArray *split = nullptr;
  size_t elementBegin = StringRef::npos;
};

} // namespace

TextScan
tilepipe::support::json::scanText(StringRef text, unsigned maxDepth,
                                  llvm::ArrayRef<StringRef> splitKeys) {
  return Scanner(text, maxDepth, splitKeys).run();
}

SyntaxError tilepipe::support::json::takeSyntaxError(llvm::Error err) {
  std::string text = llvm::toString(std::move(err));
  unsigned line = 0, column = 0, offset = 0;
  int consumed = 0;
  if (std::sscanf(text.c_str(), "[%u:%u, byte=%u]: %n", &line, &column, &offset,
                  &consumed) == 3 &&
      consumed > 0)
    return {TextPosition{line, std::max(column, 1u)},
            text.substr(size_t(consumed))};
  return {std::nullopt, std::move(text)};
}

void TextError::log(llvm::raw_ostream &os) const {
  if (at)
    os << at->line << ":" << at->column << ": ";
  os << message;
}

llvm::Expected<llvm::json::Value>
tilepipe::support::json::parseStrict(StringRef text, unsigned maxDepth) {
  TextScan scan = scanText(text, maxDepth);
  if (scan.tooDeepAt)
    return llvm::make_error<TextError>(
        TextError::Kind::TooDeep, positionOf(text, *scan.tooDeepAt),
        "arrays and objects nest deeper than " + std::to_string(maxDepth));
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) {
    SyntaxError syntax = takeSyntaxError(parsed.takeError());
    return llvm::make_error<TextError>(TextError::Kind::Syntax, syntax.at,
                                       "not valid JSON: " + syntax.message);
  }
  if (scan.duplicate)
    return llvm::make_error<TextError>(TextError::Kind::DuplicateKey,
                                       std::nullopt,
                                       scan.duplicate->describe());
  return parsed;
}
