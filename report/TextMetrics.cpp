//===- TextMetrics.cpp ----------------------------------------------------===//

#include "report/TextMetrics.h"

#include <cstdint>
#include <string>

using namespace tilepipe;

unsigned report::codePoints(llvm::StringRef text) {
  unsigned n = 0;
  for (char c : text)
    n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string report::fitText(llvm::StringRef text, double size, double width) {
  if (textWidth(text, size) <= width)
    return text.str();
  const double advance = kAdvanceEm * size;
  // Room for the ellipsis (one glyph) and as many code points as fit.
  long keep = long(width / advance) - 1;
  if (keep <= 0)
    return "";
  std::string out;
  long taken = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    bool lead = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (lead && taken++ == keep)
      break;
    out += text[i];
  }
  return out + "\xE2\x80\xA6";
}

uint64_t report::tickStep(uint64_t span, double pixels, double size) {
  if (span == 0 || pixels <= 0)
    return 1;
  const double gap = 2 * kAdvanceEm * size;
  double widest = textWidth(std::to_string(span), size) + gap;
  for (uint64_t scale = 1;; scale *= 10)
    for (uint64_t m : {1, 2, 5}) {
      uint64_t step = m * scale;
      if (step >= span || double(step) * pixels / double(span) >= widest)
        return step;
    }
}
