//===- XML.cpp - a small, strict XML reader -------------------------------===//
//
// One pass over the text with an explicit element stack (no recursion), so
// the only limit on a document is kMaxDepth. Line ends are normalised first
// (CR LF and lone CR become LF, as XML 1.0 section 2.11 asks), which keeps
// the line numbers of the messages equal to the editor's.
//
//===----------------------------------------------------------------------===//

#include "scheduler/io/XML.h"
#include "scheduler/io/ProblemFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <optional>

using namespace tilepipe::io;
using namespace tilepipe::io::xml;
using llvm::StringRef;

const Attribute *Element::findAttribute(StringRef attrName) const {
  for (const Attribute &attr : attributes)
    if (attr.name == attrName)
      return &attr;
  return nullptr;
}

static bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool Element::hasOnlyBlankText() const { return llvm::all_of(text, isSpace); }

namespace {

bool isNameStart(unsigned char c) {
  return llvm::isAlpha(c) || c == '_' || c == ':' || c >= 0x80;
}

bool isNameChar(unsigned char c) {
  return isNameStart(c) || llvm::isDigit(c) || c == '-' || c == '.';
}

/// XML 1.0 "Char": what a character reference may produce.
bool isXMLCodePoint(uint32_t cp) {
  return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
         (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
}

void appendUTF8(uint32_t cp, std::string &out) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

class Parser {
public:
  Parser(StringRef input, StringRef fileName) : fileName(fileName) {
    buffer.reserve(input.size());
    for (size_t i = 0, e = input.size(); i < e; ++i) {
      if (input[i] != '\r') {
        buffer += input[i];
        continue;
      }
      buffer += '\n';
      if (i + 1 < e && input[i + 1] == '\n')
        ++i;
    }
    text = buffer;
    lineStarts.push_back(0);
    for (size_t i = 0, e = text.size(); i < e; ++i)
      if (text[i] == '\n')
        lineStarts.push_back(i + 1);
  }

  llvm::Expected<Element> run() {
    std::optional<Element> root = document();
    if (!root) {
      auto [line, column] = lineColumn(errorAt);
      return makeReadError(fileName.empty() ? StringRef("<input>") : fileName,
                           line, column, errorMessage);
    }
    return std::move(*root);
  }

private:
  //===--- Positions and errors -------------------------------------------===//

  std::pair<unsigned, unsigned> lineColumn(size_t at) const {
    auto it = llvm::upper_bound(lineStarts, at);
    size_t line = it - lineStarts.begin();
    return {unsigned(line), unsigned(at - *(it - 1) + 1)};
  }
  unsigned lineOf(size_t at) const { return lineColumn(at).first; }

  bool fail(size_t at, const llvm::Twine &message) {
    errorAt = std::min(at, text.size());
    errorMessage = message.str();
    return false;
  }

  bool atEnd() const { return pos >= text.size(); }
  bool lookingAt(StringRef s) const { return text.substr(pos).starts_with(s); }
  bool skipSpaces() {
    size_t begin = pos;
    while (!atEnd() && isSpace(text[pos]))
      ++pos;
    return pos != begin;
  }

  /// Characters XML 1.0 forbids anywhere (C0 controls but TAB and LF; CR is
  /// gone after normalisation).
  bool checkChars(size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      unsigned char c = text[i];
      if (c < 0x20 && c != '\t' && c != '\n')
        return fail(i, "invalid character " + llvm::formatv("U+{0:X-4}", c));
    }
    return true;
  }

  //===--- Lexical pieces -------------------------------------------------===//

  bool name(std::string &out, StringRef what) {
    if (atEnd() || !isNameStart(text[pos]))
      return fail(pos, "expected " + what);
    size_t begin = pos;
    while (!atEnd() && isNameChar(text[pos]))
      ++pos;
    out = text.slice(begin, pos).str();
    return true;
  }

  /// At '&': appends the decoded reference.
  bool reference(std::string &out) {
    size_t begin = pos;
    size_t semi = text.find(';', pos);
    if (semi == StringRef::npos || semi - pos > 12)
      return fail(begin, "'&' must start an entity reference such as &amp;");
    StringRef ref = text.slice(pos + 1, semi);
    pos = semi + 1;
    if (ref == "amp")
      out += '&';
    else if (ref == "lt")
      out += '<';
    else if (ref == "gt")
      out += '>';
    else if (ref == "quot")
      out += '"';
    else if (ref == "apos")
      out += '\'';
    else if (ref.consume_front("#")) {
      unsigned radix = ref.consume_front("x") ? 16 : 10;
      uint32_t cp = 0;
      if (ref.empty() || ref.getAsInteger(radix, cp) ||
          !llvm::all_of(ref, [&](char c) {
            return radix == 16 ? llvm::isHexDigit(c) : llvm::isDigit(c);
          }))
        return fail(begin, "malformed character reference '&" +
                               text.slice(begin + 1, semi) + ";'");
      if (!isXMLCodePoint(cp))
        return fail(begin, "character reference '&" +
                               text.slice(begin + 1, semi) +
                               ";' names a character XML does not allow");
      appendUTF8(cp, out);
    } else {
      return fail(begin, "unknown entity '&" + ref +
                             ";' (only &amp; &lt; &gt; &quot; &apos; and "
                             "character references are supported)");
    }
    return true;
  }

  /// A quoted attribute value; literal whitespace becomes a space (the
  /// attribute-value normalisation of XML 1.0 section 3.3.3 for CDATA).
  bool attributeValue(std::string &out) {
    if (atEnd() || (text[pos] != '"' && text[pos] != '\''))
      return fail(pos, "expected a quoted attribute value");
    char quote = text[pos];
    size_t open = pos++;
    while (true) {
      if (atEnd())
        return fail(open, "attribute value is not closed");
      char c = text[pos];
      if (c == quote) {
        ++pos;
        return true;
      }
      if (c == '<')
        return fail(pos, "'<' is not allowed in an attribute value");
      if (c == '&') {
        if (!reference(out))
          return false;
        continue;
      }
      if (!checkChars(pos, pos + 1))
        return false;
      out += isSpace(c) ? ' ' : c;
      ++pos;
    }
  }

  /// At "<!--".
  bool comment() {
    size_t open = pos;
    size_t dashes = text.find("--", pos + 4);
    if (dashes == StringRef::npos)
      return fail(open, "comment is not closed");
    if (dashes + 2 >= text.size() || text[dashes + 2] != '>')
      return fail(dashes, "'--' is not allowed inside a comment");
    if (!checkChars(pos + 4, dashes))
      return false;
    pos = dashes + 3;
    return true;
  }

  /// At "<?" (not the declaration): skipped.
  bool processingInstruction() {
    size_t open = pos;
    pos += 2;
    std::string target;
    if (!name(target, "a processing instruction target"))
      return false;
    if (StringRef(target).equals_insensitive("xml"))
      return fail(open, "the XML declaration is only allowed at the very "
                        "start of the file");
    size_t close = text.find("?>", pos);
    if (close == StringRef::npos)
      return fail(open, "processing instruction is not closed");
    if (!checkChars(pos, close))
      return false;
    pos = close + 2;
    return true;
  }

  /// At "<![CDATA[": appends the section verbatim.
  bool cdata(std::string &out) {
    size_t open = pos;
    size_t close = text.find("]]>", pos + 9);
    if (close == StringRef::npos)
      return fail(open, "CDATA section is not closed");
    if (!checkChars(pos + 9, close))
      return false;
    out += text.slice(pos + 9, close);
    pos = close + 3;
    return true;
  }

  /// Character data up to the next '<'.
  bool charData(std::string &out) {
    while (!atEnd() && text[pos] != '<') {
      char c = text[pos];
      if (c == '&') {
        if (!reference(out))
          return false;
        continue;
      }
      if (c == '>' && pos >= 2 && text.slice(pos - 2, pos) == "]]")
        return fail(pos - 2, "']]>' is not allowed in character data");
      if (!checkChars(pos, pos + 1))
        return false;
      out += c;
      ++pos;
    }
    return true;
  }

  /// `<?xml version="1.x" [encoding="..."] [standalone="yes|no"] ?>`.
  bool declaration() {
    size_t open = pos;
    pos += 5;
    std::vector<std::pair<std::string, std::string>> pseudo;
    while (true) {
      bool hadSpace = skipSpaces();
      if (lookingAt("?>")) {
        pos += 2;
        break;
      }
      if (atEnd())
        return fail(open, "XML declaration is not closed");
      if (!hadSpace)
        return fail(pos, "expected whitespace in the XML declaration");
      size_t at = pos;
      std::string key, value;
      if (!name(key, "'version', 'encoding' or 'standalone'"))
        return false;
      skipSpaces();
      if (atEnd() || text[pos] != '=')
        return fail(pos, "expected '=' after '" + key + "'");
      ++pos;
      skipSpaces();
      if (!attributeValue(value))
        return false;
      static const char *const order[] = {"version", "encoding", "standalone"};
      auto it = llvm::find(order, key);
      if (it == std::end(order))
        return fail(at, "unknown '" + key + "' in the XML declaration");
      // Each may appear once, in this order, version first.
      size_t rank = it - std::begin(order);
      if (pseudo.empty()
              ? rank != 0
              : rank <= size_t(llvm::find(order, pseudo.back().first) -
                               std::begin(order)))
        return fail(at, "'" + key + "' is out of place in the XML declaration");
      if (key == "version" && !StringRef(value).starts_with("1."))
        return fail(at, "unsupported XML version '" + value + "'");
      if (key == "encoding" && !StringRef(value).equals_insensitive("utf-8") &&
          !StringRef(value).equals_insensitive("us-ascii"))
        return fail(at, "unsupported encoding '" + value +
                            "' (only UTF-8 is read)");
      if (key == "standalone" && value != "yes" && value != "no")
        return fail(at, "standalone must be 'yes' or 'no'");
      pseudo.emplace_back(key, value);
    }
    if (pseudo.empty())
      return fail(open, "the XML declaration needs a version");
    return true;
  }

  /// Whitespace, comments and processing instructions around the root.
  bool misc() {
    while (true) {
      skipSpaces();
      if (lookingAt("<!--")) {
        if (!comment())
          return false;
      } else if (lookingAt("<?")) {
        if (!processingInstruction())
          return false;
      } else {
        return true;
      }
    }
  }

  //===--- Elements -------------------------------------------------------===//

  /// At '<' + name: reads the start tag into `element`; `selfClosing` says
  /// whether it ended in "/>".
  bool startTag(Element &element, bool &selfClosing) {
    element.line = lineOf(pos);
    ++pos;
    if (!name(element.name, "an element name"))
      return false;
    while (true) {
      bool hadSpace = skipSpaces();
      if (lookingAt("/>")) {
        pos += 2;
        selfClosing = true;
        return true;
      }
      if (lookingAt(">")) {
        ++pos;
        selfClosing = false;
        return true;
      }
      if (atEnd())
        return fail(pos, "start tag <" + element.name + "> is not closed");
      if (!hadSpace)
        return fail(pos, "expected whitespace, '>' or '/>' in <" +
                             element.name + ">");
      Attribute attr;
      size_t at = pos;
      attr.line = lineOf(pos);
      if (!name(attr.name, "an attribute name"))
        return false;
      skipSpaces();
      if (atEnd() || text[pos] != '=')
        return fail(pos, "expected '=' after attribute '" + attr.name + "'");
      ++pos;
      skipSpaces();
      if (!attributeValue(attr.value))
        return false;
      if (element.findAttribute(attr.name))
        return fail(at, "duplicate attribute '" + attr.name + "' in <" +
                            element.name + ">");
      element.attributes.push_back(std::move(attr));
    }
  }

  std::optional<Element> document() {
    if (size_t bad = 0; !llvm::json::isUTF8(text, &bad)) {
      fail(bad, "not valid UTF-8");
      return std::nullopt;
    }
    if (lookingAt("\xEF\xBB\xBF"))
      pos += 3;
    if (lookingAt("<?xml") && pos + 5 < text.size() &&
        (isSpace(text[pos + 5]) || text[pos + 5] == '?'))
      if (!declaration())
        return std::nullopt;
    if (!misc())
      return std::nullopt;
    if (lookingAt("<!DOCTYPE")) {
      fail(pos, "DOCTYPE declarations are not supported");
      return std::nullopt;
    }
    if (atEnd()) {
      fail(pos, "no root element");
      return std::nullopt;
    }
    if (text[pos] != '<' || pos + 1 >= text.size() ||
        !isNameStart(text[pos + 1])) {
      fail(pos, "expected the root element");
      return std::nullopt;
    }

    std::vector<Element> stack;
    std::optional<Element> root;
    auto close = [&](Element element) {
      if (stack.empty())
        root = std::move(element);
      else
        stack.back().children.push_back(std::move(element));
    };
    while (!root) {
      if (atEnd()) {
        fail(pos, "unexpected end of file: <" + stack.back().name +
                      "> opened at line " + llvm::Twine(stack.back().line) +
                      " is not closed");
        return std::nullopt;
      }
      bool ok = true;
      if (text[pos] != '<') {
        ok = charData(stack.back().text);
      } else if (lookingAt("<!--")) {
        ok = comment();
      } else if (lookingAt("<![CDATA[")) {
        ok = cdata(stack.back().text);
      } else if (lookingAt("<?")) {
        ok = processingInstruction();
      } else if (lookingAt("<!DOCTYPE")) {
        ok = fail(pos, "DOCTYPE declarations are not supported");
      } else if (lookingAt("<!")) {
        ok = fail(pos, "unexpected markup '<!'");
      } else if (lookingAt("</")) {
        size_t at = pos;
        pos += 2;
        std::string endName;
        ok = name(endName, "an element name after '</'");
        if (ok) {
          skipSpaces();
          if (atEnd() || text[pos] != '>')
            ok = fail(pos, "expected '>' to close </" + endName + ">");
        }
        if (ok && endName != stack.back().name)
          ok = fail(at, "end tag </" + endName + "> does not match <" +
                            stack.back().name + "> opened at line " +
                            llvm::Twine(stack.back().line));
        if (ok) {
          ++pos;
          Element done = std::move(stack.back());
          stack.pop_back();
          close(std::move(done));
        }
      } else {
        if (stack.size() >= kMaxDepth)
          ok = fail(pos, "elements nest deeper than " + llvm::Twine(kMaxDepth));
        Element element;
        bool selfClosing = false;
        ok = ok && startTag(element, selfClosing);
        if (ok) {
          if (selfClosing)
            close(std::move(element));
          else
            stack.push_back(std::move(element));
        }
      }
      if (!ok)
        return std::nullopt;
    }
    if (!misc())
      return std::nullopt;
    if (!atEnd()) {
      fail(pos, "content after the root element");
      return std::nullopt;
    }
    return root;
  }

  std::string buffer;
  StringRef text;
  StringRef fileName;
  size_t pos = 0;
  std::vector<size_t> lineStarts;
  size_t errorAt = 0;
  std::string errorMessage;
};

} // namespace

llvm::Expected<Element> tilepipe::io::xml::parse(StringRef text,
                                                 StringRef fileName) {
  return Parser(text, fileName).run();
}

llvm::Expected<Element> tilepipe::io::xml::parseFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeReadError(path, 0, 0,
                         "cannot read file: " + buffer.getError().message());
  return parse((*buffer)->getBuffer(), path);
}
