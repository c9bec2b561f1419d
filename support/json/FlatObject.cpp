//===- FlatObject.cpp -----------------------------------------------------===//

#include "support/json/FlatObject.h"

using namespace tilepipe::support::json;
using llvm::StringRef;

namespace {

/// More members than any reader's object allows: the object goes to
/// json::parse (and the reader's "unknown key"), and the duplicate check
/// below stays a short scan.
constexpr size_t kMaxFlatMembers = 16;

class Cursor {
public:
  explicit Cursor(StringRef text) : p(text.begin()), e(text.end()) {}

  void skipSpace() {
    // JSON's four whitespace characters, no others.
    while (p != e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
      ++p;
  }
  bool eat(char c) {
    skipSpace();
    if (p == e || *p != c)
      return false;
    ++p;
    return true;
  }
  bool atEnd() {
    skipSpace();
    return p == e;
  }
  char peek() {
    skipSpace();
    return p == e ? '\0' : *p;
  }
  /// A string of printable ASCII without escapes.
  bool string(StringRef &out) {
    if (!eat('"'))
      return false;
    const char *begin = p;
    for (; p != e && *p != '"'; ++p)
      if (*p < 0x20 || *p > 0x7e || *p == '\\')
        return false;
    if (p == e)
      return false;
    out = StringRef(begin, p - begin);
    ++p;
    return true;
  }
  /// -?(0|[1-9][0-9]*) within int64, not followed by a fraction or an
  /// exponent.
  bool integer(int64_t &out) {
    skipSpace();
    bool negative = p != e && *p == '-';
    if (negative)
      ++p;
    if (p == e || *p < '0' || *p > '9')
      return false;
    if (*p == '0' && p + 1 != e && p[1] >= '0' && p[1] <= '9')
      return false;
    // Accumulated negative: -2^63 is representable, 2^63 is not.
    int64_t value = 0;
    for (; p != e && *p >= '0' && *p <= '9'; ++p) {
      int digit = *p - '0';
      if (value < (INT64_MIN + digit) / 10)
        return false;
      value = value * 10 - digit;
    }
    if (p != e && (*p == '.' || *p == 'e' || *p == 'E'))
      return false;
    if (!negative) {
      if (value == INT64_MIN)
        return false;
      value = -value;
    }
    out = value;
    return true;
  }

private:
  const char *p, *e;
};

} // namespace

bool tilepipe::support::json::parseFlatObject(StringRef text, FlatObject &out) {
  out.members.clear();
  Cursor in(text);
  if (!in.eat('{'))
    return false;
  if (!in.eat('}')) {
    do {
      StringRef key;
      if (!in.string(key) || !in.eat(':'))
        return false;
      FlatValue value;
      char c = in.peek();
      if (c == '"') {
        value.isString = true;
        if (!in.string(value.string))
          return false;
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        if (!in.integer(value.integer))
          return false;
      } else {
        return false;
      }
      if (out.members.size() == kMaxFlatMembers || out.get(key))
        return false;
      out.members.push_back({key, value});
    } while (in.eat(','));
    if (!in.eat('}'))
      return false;
  }
  return in.atEnd();
}
