//===- XML.h - a strict XML reader on top of pugixml ----------*- C++ -*-===//
//
// Just enough XML for the HatScheT instance files (graphML and resource
// models): elements, attributes, character data, comments, CDATA sections,
// processing instructions (skipped), the `<?xml ...?>` declaration, the five
// predefined entities and numeric character references. pugixml (Debian's
// libpugixml-dev) parses, without recursion; XML.cpp checks what pugixml
// lets through and converts its tree. A DOCTYPE (and with it every
// user-defined entity) is refused, so reading a file never expands anything.
//
// The reader is strict: anything that is not well-formed XML 1.0 is an
// error "file:line:column: message", and nesting is bounded so that a hostile
// file can neither exhaust the stack nor the heap through depth.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_IO_XML_H
#define TILEPIPE_SCHEDULER_IO_XML_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tilepipe::io::xml {

struct Attribute {
  std::string name;
  std::string value; ///< Entities decoded, whitespace normalised.
  unsigned line = 0;
};

struct Element {
  std::string name; ///< As written, prefix included ("y:ShapeNode").
  unsigned line = 0;
  std::vector<Attribute> attributes; ///< In document order; names unique.
  std::vector<Element> children;
  /// The character data directly inside this element (not inside its
  /// children), concatenated, entities decoded, kept verbatim otherwise.
  std::string text;

  const Attribute *findAttribute(llvm::StringRef attrName) const;
  /// True when `text` holds only XML whitespace.
  bool hasOnlyBlankText() const;
};

/// Deepest element nesting accepted.
constexpr unsigned kMaxDepth = 256;

/// Parses a whole document and returns its root element. `fileName` only
/// prefixes the error messages.
llvm::Expected<Element> parse(llvm::StringRef text, llvm::StringRef fileName);

/// Reads and parses `path`.
llvm::Expected<Element> parseFile(llvm::StringRef path);

} // namespace tilepipe::io::xml

#endif // TILEPIPE_SCHEDULER_IO_XML_H
