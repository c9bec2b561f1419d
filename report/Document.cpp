//===- Document.cpp - several pictures in one self-contained file ---------===//

#include "report/Document.h"
#include "report/SVGText.h"
#include "report/TextMetrics.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace tilepipe;
using namespace tilepipe::report;

namespace {

/// The value of attribute `name` on the root <svg> element, or 0.
int rootDimension(llvm::StringRef svg, llvm::StringRef name) {
  size_t end = svg.find('>');
  llvm::StringRef root = svg.take_front(end);
  std::string key = (" " + name + "=\"").str();
  size_t at = root.find(key);
  if (at == llvm::StringRef::npos)
    return 0;
  llvm::StringRef rest = root.drop_front(at + key.size());
  int value = 0;
  if (rest.take_until([](char c) { return c == '"'; }).getAsInteger(10, value))
    return 0;
  return value;
}

/// `svg` with every id="X" renamed to X-<suffix>, and the references to it
/// (url(#X), href="#X") with it. The writers use a handful of ids, so a
/// textual rename is exact.
std::string uniquifyIds(llvm::StringRef svg, unsigned suffix) {
  llvm::SmallVector<std::string> ids;
  for (size_t at = svg.find(" id=\""); at != llvm::StringRef::npos;
       at = svg.find(" id=\"", at + 1)) {
    llvm::StringRef id =
        svg.drop_front(at + 5).take_until([](char c) { return c == '"'; });
    ids.push_back(id.str());
  }
  std::string out = svg.str();
  std::string tag = "-p" + std::to_string(suffix);
  for (const std::string &id : ids) {
    for (std::string from :
         {" id=\"" + id + "\"", "url(#" + id + ")", "href=\"#" + id + "\""}) {
      std::string to = from;
      to.insert(to.find(id) + id.size(), tag);
      for (size_t at = out.find(from); at != std::string::npos;
           at = out.find(from, at + to.size()))
        out.replace(at, from.size(), to);
    }
  }
  return out;
}

void writeHTML(llvm::raw_ostream &os, llvm::StringRef title,
               const std::vector<Section> &sections) {
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\"/>\n<title>"
     << escapeSVGText(title)
     << "</title>\n<style>body{font-family:sans-serif;margin:20px}"
        "svg{display:block;margin:12px 0;border:1px solid #ccc}"
        "p{margin:4px 0}</style>\n</head>\n<body>\n<h1>"
     << escapeSVGText(title) << "</h1>\n";
  unsigned picture = 0;
  for (const Section &section : sections) {
    os << "<h2>" << escapeSVGText(section.heading) << "</h2>\n";
    for (const std::string &note : section.notes)
      os << "<p>" << escapeSVGText(note) << "</p>\n";
    for (const std::string &svg : section.svgs)
      os << uniquifyIds(svg, picture++);
  }
  os << "</body>\n</html>\n";
}

constexpr int kMargin = 20, kHeading = 30, kNote = 18, kGap = 16;

void writeStackedSVG(llvm::raw_ostream &os, llvm::StringRef title,
                     const std::vector<Section> &sections) {
  // Lay out first: the root needs the total size.
  // Headings and notes as wide as the font makes them (TextMetrics.h).
  double widest = std::max(640.0, 2 * kMargin + textWidth(title, 20));
  for (const Section &section : sections) {
    widest = std::max(widest, 2 * kMargin + textWidth(section.heading, 16));
    for (const std::string &note : section.notes)
      widest = std::max(widest, 2 * kMargin + textWidth(note, 12));
  }
  int width = int(widest + 1), height = kMargin + kHeading;
  for (const Section &section : sections) {
    height += kHeading + int(section.notes.size()) * kNote;
    for (const std::string &svg : section.svgs) {
      width = std::max(width, 2 * kMargin + rootDimension(svg, "width"));
      height += rootDimension(svg, "height") + kGap;
    }
  }
  height += kMargin;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << height
     << "\" font-family=\"" << kFontFamily << "\" font-size=\"12\">\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  int y = kMargin + 20;
  os << "<text x=\"" << kMargin << "\" y=\"" << y << "\" font-size=\"20\">"
     << escapeSVGText(title) << "</text>\n";
  y += kHeading - 20;
  unsigned picture = 0;
  for (const Section &section : sections) {
    y += kHeading;
    os << "<text x=\"" << kMargin << "\" y=\"" << y - 8
       << "\" font-size=\"16\">" << escapeSVGText(section.heading)
       << "</text>\n";
    for (const std::string &note : section.notes) {
      y += kNote;
      os << "<text x=\"" << kMargin << "\" y=\"" << y - 4 << "\">"
         << escapeSVGText(note) << "</text>\n";
    }
    for (const std::string &svg : section.svgs) {
      // A nested <svg> takes x and y; the pictures' roots carry neither.
      std::string placed = uniquifyIds(svg, picture++);
      size_t at = placed.find("<svg");
      if (at != std::string::npos)
        placed.insert(at + 4, " x=\"" + std::to_string(kMargin) + "\" y=\"" +
                                  std::to_string(y) + "\"");
      os << placed;
      y += rootDimension(svg, "height") + kGap;
    }
  }
  os << "</svg>\n";
}

} // namespace

void report::writeDocument(llvm::raw_ostream &os, llvm::StringRef title,
                           const std::vector<Section> &sections,
                           DocumentFormat format) {
  if (format == DocumentFormat::HTML)
    writeHTML(os, title, sections);
  else
    writeStackedSVG(os, title, sections);
}
