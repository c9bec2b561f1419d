//===- XML.cpp - a strict XML reader on top of pugixml --------------------===//
//
// pugixml parses a copy of the text in place, so each name and value it
// returns points into that copy: its offset is a position in the text. Line
// ends are normalised first (CR LF and lone CR become LF, XML 1.0 section
// 2.11) and pugixml is asked to neither normalise nor decode, so those
// positions are exact. What pugixml lets through (references, duplicate
// attributes, '<' in a value, "--" in a comment, text or a second element
// beside the root, a DOCTYPE, the declaration's content) is checked on its
// tree, and its own errors are reworded in the terms of the text.
//
//===----------------------------------------------------------------------===//

#include "scheduler/io/XML.h"
#include "scheduler/io/ProblemFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cstring>

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

constexpr size_t npos = StringRef::npos;

bool isNameChar(char c) {
  return llvm::isAlnum(c) || (unsigned char)c >= 0x80 ||
         StringRef("_:-.").contains(c);
}

bool isElement(pugi::xml_node n) { return n.type() == pugi::node_element; }

/// Every construct becomes a node, whitespace included; nothing is decoded
/// or normalised but whitespace in attribute values (XML 1.0 section 3.3.3).
constexpr unsigned kOptions =
    pugi::parse_cdata | pugi::parse_comments | pugi::parse_pi |
    pugi::parse_declaration | pugi::parse_doctype | pugi::parse_ws_pcdata |
    pugi::parse_wconv_attribute | pugi::parse_fragment;

class Reader {
public:
  Reader(StringRef input, StringRef fileName) : fileName(fileName) {
    for (size_t i = 0, e = input.size(); i < e; ++i) {
      text += input[i] == '\r' ? '\n' : input[i];
      if (input[i] == '\r' && i + 1 < e && input[i + 1] == '\n')
        ++i;
    }
    parsed = text.size();
    lineStarts.push_back(0);
    for (size_t i = 0, e = text.size(); i < e; ++i)
      if (text[i] == '\n')
        lineStarts.push_back(i + 1);
  }

  llvm::Expected<Element> run() {
    Element top;
    if (read(top))
      return std::move(top.children.front());
    unsigned line = lineOf(errorAt);
    return makeReadError(fileName.empty() ? StringRef("<input>") : fileName,
                         line, errorAt - lineStarts[line - 1] + 1,
                         errorMessage);
  }

private:
  /// Keeps the error that comes first in the text.
  bool fail(size_t at, const llvm::Twine &message) {
    if (errorMessage.empty() || std::min(at, text.size()) < errorAt) {
      errorAt = std::min(at, text.size());
      errorMessage = message.str();
    }
    return false;
  }

  unsigned lineOf(size_t at) const {
    return llvm::upper_bound(lineStarts, at) - lineStarts.begin();
  }
  /// Where a string pugixml returned starts in the text (npos: elsewhere).
  size_t offsetOf(const char *s) const {
    return s >= work.data() && s < work.data() + parsed
               ? size_t(s - work.data())
               : npos;
  }

  bool read(Element &top);
  bool convert(const pugi::xml_document &doc, Element &top);
  bool decode(StringRef raw, size_t rawAt, std::string &out);
  bool declaration(pugi::xml_node decl);
  bool parseError(const pugi::xml_parse_result &result, pugi::xml_node last);

  std::string text; ///< The input, line ends normalised.
  std::string work; ///< `text` up to `parsed` and two NULs, parsed in place.
  size_t parsed;    ///< How much of `text` pugixml reads.
  pugi::xml_node unfinished; ///< The node pugixml failed in, if it did.
  StringRef fileName;
  std::vector<size_t> lineStarts;
  size_t errorAt = 0;
  std::string errorMessage;
};

bool Reader::read(Element &top) {
  if (size_t bad = 0; !llvm::json::isUTF8(text, &bad))
    return fail(bad, "not valid UTF-8");
  // pugixml reads up to the first character XML forbids, so that an error
  // before it is still the one reported.
  for (size_t i = 0; i < parsed; ++i)
    if ((unsigned char)text[i] < 0x20 && text[i] != '\t' && text[i] != '\n') {
      fail(parsed = i, "invalid character " +
                           llvm::formatv("U+{0:X-4}", unsigned(text[i])));
      break;
    }
  // pugixml overwrites the last byte with its terminator; the second NUL
  // keeps an error at the end at offset `parsed`.
  work = text.substr(0, parsed);
  work.append(2, '\0');
  pugi::xml_document doc;
  pugi::xml_parse_result result = doc.load_buffer_inplace(
      work.data(), work.size(), kOptions, pugi::encoding_utf8);
  // After an error `doc` holds what came before it, which is checked too:
  // fail() keeps the first error in the text, on a tie the first reported.
  pugi::xml_node last = doc;
  while (pugi::xml_node child = last.last_child())
    last = child;
  if (!result) {
    unfinished = last;
    parseError(result, last);
  }
  convert(doc, top);
  if (errorMessage.empty() && top.children.empty())
    fail(text.size(), "no root element");
  return errorMessage.empty();
}

/// Copies pugixml's tree below `top` in document order, with an explicit
/// stack, checking what pugixml does not.
bool Reader::convert(const pugi::xml_document &doc, Element &top) {
  struct Item {
    pugi::xml_node node;
    Element *parent;
    unsigned depth;
  };
  std::vector<Item> stack;
  auto push = [&](pugi::xml_node node, Element &into, unsigned depth) {
    // Reserved, so that the Element pointers on the stack stay valid.
    into.children.reserve(llvm::count_if(node.children(), isElement));
    size_t first = stack.size();
    for (pugi::xml_node child : node.children())
      stack.push_back({child, &into, depth});
    std::reverse(stack.begin() + first, stack.end());
  };
  push(doc, top, 1);
  while (!stack.empty()) {
    auto [node, parent, depth] = stack.back();
    stack.pop_back();
    StringRef value = node.value();
    size_t valueAt = offsetOf(node.value());
    switch (node.type()) {
    case pugi::node_element: {
      size_t lt = offsetOf(node.name()) - 1;
      if (parent == &top && !top.children.empty())
        return fail(lt, "content after the root element");
      if (depth > kMaxDepth)
        return fail(lt, "elements nest deeper than " + llvm::Twine(kMaxDepth));
      Element &element = parent->children.emplace_back();
      element.name = node.name();
      element.line = lineOf(lt);
      for (pugi::xml_attribute a : node.attributes()) {
        StringRef raw = a.value();
        if (element.findAttribute(a.name()))
          return fail(offsetOf(a.name()), "duplicate attribute '" +
                                              StringRef(a.name()) + "' in <" +
                                              element.name + ">");
        if (size_t bad = raw.find('<'); bad != npos)
          return fail(offsetOf(a.value()) + bad,
                      "'<' is not allowed in an attribute value");
        Attribute &attr = element.attributes.emplace_back();
        attr.name = a.name();
        attr.line = lineOf(offsetOf(a.name()));
        if (!decode(raw, offsetOf(a.value()), attr.value))
          return false;
      }
      push(node, element, depth + 1);
      break;
    }
    case pugi::node_pcdata:
    case pugi::node_cdata:
      if (parent == &top) {
        size_t ch = value.find_first_not_of(" \t\n");
        if (ch == npos && node.type() == pugi::node_pcdata)
          continue;
        return fail(valueAt + (ch == npos ? 0 : ch),
                    top.children.empty() ? "expected the root element"
                                         : "content after the root element");
      }
      if (node.type() == pugi::node_cdata) {
        parent->text += value;
      } else if (size_t bad = value.find("]]>"); bad != npos) {
        return fail(valueAt + bad, "']]>' is not allowed in character data");
      } else if (!decode(value, valueAt, parent->text)) {
        return false;
      }
      break;
    case pugi::node_comment: {
      size_t bad = value.find("--");
      if (bad != npos || value.ends_with("-"))
        return fail(valueAt + std::min(bad, value.size() - 1),
                    "'--' is not allowed inside a comment");
      break;
    }
    case pugi::node_declaration:
      if (node != unfinished && !declaration(node))
        return false;
      break;
    case pugi::node_doctype:
      return fail(text.rfind("<!", valueAt),
                  "DOCTYPE declarations are not supported");
    default: // Processing instructions are skipped.
      break;
    }
  }
  return true;
}

/// Appends `raw` (at `rawAt` in the text) with its references decoded.
bool Reader::decode(StringRef raw, size_t rawAt, std::string &out) {
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '&') {
      out += raw[i];
      continue;
    }
    size_t semi = raw.find(';', i);
    if (semi == npos || semi - i > 12)
      return fail(rawAt + i, "'&' must start an entity reference such as "
                             "&amp;");
    StringRef ref = raw.slice(i + 1, semi), whole = raw.slice(i, semi + 1);
    size_t refAt = rawAt + i;
    i = semi;
    if (char c = llvm::StringSwitch<char>(ref)
                     .Case("amp", '&')
                     .Case("lt", '<')
                     .Case("gt", '>')
                     .Case("quot", '"')
                     .Case("apos", '\'')
                     .Default(0)) {
      out += c;
      continue;
    }
    if (!ref.consume_front("#"))
      return fail(refAt, "unknown entity '" + whole +
                             "' (only &amp; &lt; &gt; &quot; &apos; and "
                             "character references are supported)");
    unsigned radix = ref.consume_front("x") ? 16 : 10;
    uint32_t cp = 0;
    if (ref.empty() || ref.getAsInteger(radix, cp) ||
        !llvm::all_of(ref, radix == 16 ? llvm::isHexDigit : llvm::isDigit))
      return fail(refAt, "malformed character reference '" + whole + "'");
    // XML 1.0 "Char": what a character reference may produce.
    if (!(cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
          (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF)))
      return fail(refAt, "character reference '" + whole +
                             "' names a character XML does not allow");
    char utf8[UNI_MAX_UTF8_BYTES_PER_CODE_POINT], *end = utf8;
    llvm::ConvertCodePointToUTF8(cp, end);
    out.append(utf8, end);
  }
  return true;
}

/// `<?xml version="1.x" [encoding="..."] [standalone="yes|no"] ?>`, first.
bool Reader::declaration(pugi::xml_node decl) {
  size_t lt = offsetOf(decl.name()) - 2;
  if (StringRef(decl.name()) != "xml" ||
      lt != (StringRef(text).starts_with("\xEF\xBB\xBF") ? 3 : 0))
    return fail(lt, "the XML declaration is only allowed at the very start "
                    "of the file");
  static const StringRef order[] = {"version", "encoding", "standalone"};
  size_t next = 0; // Each may appear once, in this order, version first.
  for (pugi::xml_attribute a : decl.attributes()) {
    StringRef key = a.name(), value = a.value();
    if (size_t bad = value.find('<'); bad != npos)
      return fail(offsetOf(a.value()) + bad,
                  "'<' is not allowed in an attribute value");
    size_t rank = llvm::find(order, key) - std::begin(order);
    if (rank == std::size(order))
      return fail(offsetOf(a.name()),
                  "unknown '" + key + "' in the XML declaration");
    if (next == 0 ? rank != 0 : rank < next)
      return fail(offsetOf(a.name()),
                  "'" + key + "' is out of place in the XML declaration");
    next = rank + 1;
    if (key == "version" && !value.starts_with("1."))
      return fail(offsetOf(a.name()),
                  "unsupported XML version '" + value + "'");
    if (key == "encoding" && !value.equals_insensitive("utf-8") &&
        !value.equals_insensitive("us-ascii"))
      return fail(offsetOf(a.name()),
                  "unsupported encoding '" + value + "' (only UTF-8 is read)");
    if (key == "standalone" && value != "yes" && value != "no")
      return fail(offsetOf(a.name()), "standalone must be 'yes' or 'no'");
  }
  return next != 0 || fail(lt, "the XML declaration needs a version");
}

/// Words pugixml's error. `last` is the last node it read: for an error in a
/// start tag, that element.
bool Reader::parseError(const pugi::xml_parse_result &result,
                        pugi::xml_node last) {
  size_t pos = std::min<size_t>(result.offset, parsed);
  bool haveRoot = llvm::any_of(last.root().children(), isElement);
  // The start of the construct that `open` opens, and the message for it.
  auto construct = [&](const char *open, const char *close, StringRef what) {
    size_t lt = text.rfind(open, pos);
    return text.find(close, lt) == npos ? fail(lt, what + " is not closed")
                                        : fail(pos, "malformed " + what);
  };
  switch (result.status) {
  case pugi::status_bad_comment:
    return construct("<!", "-->", "comment");
  case pugi::status_bad_cdata:
    return construct("<!", "]]>", "CDATA section");
  case pugi::status_bad_pi:
    if (size_t lt = text.rfind("<?", pos);
        StringRef(text).substr(lt + 2, 3).equals_insensitive("xml") &&
        (lt + 5 >= text.size() || !isNameChar(text[lt + 5])))
      return text.find("?>", lt) == npos
                 ? fail(lt, "XML declaration is not closed")
                 : fail(lt, "the XML declaration is only allowed at the "
                            "very start of the file");
    return construct("<?", "?>", "processing instruction");
  case pugi::status_bad_doctype:
    return fail(text.rfind("<!", pos),
                "DOCTYPE declarations are not supported");
  case pugi::status_unrecognized_tag: {
    size_t lt = text.rfind('<', pos ? pos - 1 : 0);
    if (lt + 1 < text.size() && text[lt + 1] == '!')
      return fail(lt, "unexpected markup '<!'");
    return haveRoot ? fail(lt + 1, "expected an element name")
                    : fail(lt, "expected the root element");
  }
  case pugi::status_bad_start_element:
  case pugi::status_bad_attribute: {
    std::string tag = isElement(last)
                          ? ("<" + StringRef(last.name()) + ">").str()
                          : "the XML declaration";
    char quote = pos ? text[pos - 1] : 0;
    if (pos == parsed)
      return fail(pos, "start tag " + tag + " is not closed");
    if (pugi::xml_attribute attr = last.last_attribute();
        attr && result.status == pugi::status_bad_attribute) {
      size_t eq = offsetOf(attr.name()) + strlen(attr.name());
      while (eq < parsed && isSpace(text[eq]))
        ++eq;
      if (eq < parsed && text[eq] != '=')
        return fail(eq, "expected '=' after attribute '" +
                            StringRef(attr.name()) + "'");
    }
    if ((quote == '"' || quote == '\'') && text.find(quote, pos) == npos)
      return fail(pos - 1, "attribute value is not closed");
    if (result.status == pugi::status_bad_attribute && quote == '=')
      return fail(pos, "expected a quoted attribute value");
    // pugixml has read past a '/' and past a non-space right after the name.
    bool past = result.status == pugi::status_bad_start_element &&
                (text[pos - 1] == '/' ||
                 (pos - 1 == offsetOf(last.name()) + strlen(last.name()) &&
                  !isSpace(text[pos - 1])));
    return fail(pos - past, "expected whitespace, '>' or '/>' in " + tag);
  }
  case pugi::status_bad_end_element: {
    size_t end = text.rfind("</", pos);
    return fail(pos, "expected '>' to close </" +
                         StringRef(text).slice(end + 2, pos).rtrim() + ">");
  }
  case pugi::status_end_element_mismatch:
    break;
  default:
    return fail(pos, result.description());
  }

  // pugixml does not say which element is open: read the text before the
  // end tag (or all of it) again with an element appended, which lands in it.
  size_t end = pos < parsed ? text.rfind("</", pos) : npos;
  StringRef endName = StringRef(text).substr(end).substr(2);
  endName = endName.take_while(isNameChar);
  if (end != npos && endName.empty())
    return fail(end + 2, "expected an element name after '</'");
  end = std::min(end, parsed);
  std::string probe = text.substr(0, end) + "<p/>" + std::string(2, '\0');
  pugi::xml_document partial;
  partial.load_buffer_inplace(probe.data(), probe.size(), kOptions,
                              pugi::encoding_utf8);
  pugi::xml_node open = partial;
  while (pugi::xml_node child = open.last_child())
    open = child;
  open = open.parent();
  if (!isElement(open))
    return fail(end, haveRoot ? "content after the root element"
                              : "expected the root element");
  std::string opened = ("<" + StringRef(open.name()) + "> opened at line " +
                        llvm::Twine(lineOf(open.offset_debug())))
                           .str();
  if (end == parsed)
    return fail(end, "unexpected end of file: " + opened + " is not closed");
  return fail(end, "end tag </" + endName + "> does not match " + opened);
}

} // namespace

llvm::Expected<Element> tilepipe::io::xml::parse(StringRef text,
                                                 StringRef fileName) {
  return Reader(text, fileName).run();
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
