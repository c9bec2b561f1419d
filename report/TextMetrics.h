//===- TextMetrics.h - how wide a label is, from the font -------*- C++ -*-===//
//
// Every picture sets its text in DejaVu Sans Mono (fonts-dejavu-core, what
// fontconfig answers for "monospace" on Debian). Its hmtx table gives every
// glyph the same advance, 1233 of 2048 units per em, and its hhea table an
// ascent of 1901 and a descent of 483 units (read from
// /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf; docs/report.md). So
// a label's box is known exactly, and the layout sizes columns, ticks and
// arcs to the labels instead of guessing.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_REPORT_TEXTMETRICS_H
#define TILEPIPE_REPORT_TEXTMETRICS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilepipe::report {

/// The font-family attribute every picture's root carries.
inline constexpr const char *kFontFamily = "DejaVu Sans Mono, monospace";
inline constexpr double kAdvanceEm = 1233.0 / 2048.0;
inline constexpr double kAscentEm = 1901.0 / 2048.0;
inline constexpr double kDescentEm = 483.0 / 2048.0;

/// Characters as the renderer counts them: UTF-8 code points.
unsigned codePoints(llvm::StringRef text);

/// The advance width of `text` at `size` pixels.
inline double textWidth(llvm::StringRef text, double size) {
  return codePoints(text) * kAdvanceEm * size;
}

/// `text`, cut to fit `width` pixels at `size` with an ellipsis when it does
/// not (at a code point boundary).
std::string fitText(llvm::StringRef text, double size, double width);

/// A tick step for an axis of `span` cycles drawn `pixels` wide: 1, 2 or 5
/// times a power of ten, the smallest whose labels (up to `span`, at `size`)
/// stand apart with a gap.
uint64_t tickStep(uint64_t span, double pixels, double size);

} // namespace tilepipe::report

#endif // TILEPIPE_REPORT_TEXTMETRICS_H
