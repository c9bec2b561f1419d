//===- Document.h - several pictures in one self-contained file -*- C++ -*-===//
//
// `tilepipe report` puts every loop's pictures (the schedule and the plan)
// into one file a kernel author can open or attach: an HTML page with the
// SVGs inline, or one SVG that stacks them. Both are self-contained (no
// scripts, fonts or external references).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_REPORT_DOCUMENT_H
#define TILEPIPE_REPORT_DOCUMENT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tilepipe::report {

/// One picture or one line of text under a heading.
struct Section {
  std::string heading;
  std::vector<std::string> notes; ///< Plain text lines (escaped on output).
  std::vector<std::string> svgs;  ///< Whole SVG documents, as the writers
                                  ///< of ScheduleSVG.h and PlanSVG.h emit.
};

enum class DocumentFormat { HTML, SVG };

/// HTML: a page with a heading per section and its SVGs inline. SVG: the
/// pictures stacked in one SVG (nested <svg> elements), each section's
/// heading and notes as text above them. Element ids are made unique per
/// picture so that two pictures' markers never collide.
void writeDocument(llvm::raw_ostream &os, llvm::StringRef title,
                   const std::vector<Section> &sections, DocumentFormat format);

} // namespace tilepipe::report

#endif // TILEPIPE_REPORT_DOCUMENT_H
