//===- SVGText.h - text inside the report's SVG files ----------*- C++ -*-===//
//
// Shared by every picture: op and resource names go into SVG text and
// attributes, and must be valid XML 1.0 whatever they hold.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_REPORT_SVGTEXT_H
#define TILEPIPE_REPORT_SVGTEXT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilepipe::report {

/// `text` with the XML specials escaped and the control characters XML 1.0
/// forbids dropped.
inline std::string escapeSVGText(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '&':
      out += "&amp;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      if (static_cast<unsigned char>(c) >= 0x20 || c == '\t')
        out += c;
    }
  }
  return out;
}

/// The file of picture `index` of `count`: `path` itself for one picture,
/// else FILE-index.EXT (EXT .svg when `path` has none).
std::string numberedPath(llvm::StringRef path, unsigned index, unsigned count);

/// Writes `path` with `write`, whole or not at all (a partial file is
/// removed); the error names the path.
llvm::Error writeSVGFile(llvm::StringRef path,
                         llvm::function_ref<void(llvm::raw_ostream &)> write);

} // namespace tilepipe::report

#endif // TILEPIPE_REPORT_SVGTEXT_H
