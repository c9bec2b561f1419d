//===- PlanSVG.cpp - the agents and their pipes as a picture --------------===//
//
// Agents are boxes side by side; a pipe between two agents is an arc above
// the boxes (one lane per pipe, so that labels never overlap), a pipe
// within one agent a short loop on its box. Sizes follow the labels,
// measured from the font (TextMetrics.h), not a fixed canvas.
//
//===----------------------------------------------------------------------===//

#include "report/PlanSVG.h"
#include "report/SVGText.h"
#include "report/TextMetrics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"


#include <algorithm>

using namespace tilepipe;
using namespace tilepipe::report;

namespace {

constexpr int kGap = 60, kLine = 14, kLane = 22, kMargin = 20;
constexpr double kLabel = 11, kName = 13, kTitle = 15;

std::string px(double v) { return llvm::formatv("{0:F2}", v).str(); }

void text(llvm::raw_ostream &os, double x, double y, llvm::StringRef body,
          double size = kLabel, llvm::StringRef extra = "") {
  os << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\"";
  if (size != kLabel)
    os << " font-size=\"" << int(size) << "\"";
  os << extra << ">" << escapeSVGText(body) << "</text>\n";
}

} // namespace

void report::writePlanSVG(llvm::raw_ostream &os, const PlanPicture &picture) {
  unsigned numAgents = std::max<size_t>(1, picture.agents.size());
  size_t maxOps = 0;
  // Boxes as wide as their widest line.
  double boxWidth = 200;
  for (const AgentBox &a : picture.agents) {
    maxOps = std::max(maxOps, a.ops.size());
    boxWidth = std::max(boxWidth, textWidth(a.name, kName) + 16);
    for (const std::string &op : a.ops)
      boxWidth = std::max(boxWidth, textWidth(op, kLabel) + 16);
  }
  auto centre = [&](unsigned agent) {
    return kMargin + agent * (boxWidth + kGap) + boxWidth / 2;
  };
  // Lanes for the arcs between agents, above the boxes.
  unsigned lanes = 0, selfLoops = 0;
  for (const PipeArrow &p : picture.pipes) {
    lanes += p.from != p.to;
    selfLoops += p.from == p.to;
  }
  double width = kMargin + numAgents * (boxWidth + kGap) - kGap + kMargin;
  std::vector<std::string> listLines;
  for (const PipeArrow &pipe : picture.pipes) {
    llvm::StringRef from = pipe.from < picture.agents.size()
                               ? llvm::StringRef(picture.agents[pipe.from].name)
                               : "?";
    llvm::StringRef to = pipe.to < picture.agents.size()
                             ? llvm::StringRef(picture.agents[pipe.to].name)
                             : "?";
    listLines.push_back(pipe.label + ": " + from.str() + " -> " + to.str() +
                        (pipe.carried ? " (carried)" : ""));
  }
  for (const std::string &m : picture.mutexes)
    listLines.push_back(m);
  for (const std::string &line : listLines)
    width = std::max(width, 2 * kMargin + textWidth(line, kLabel));
  width = std::max({width, 640.0, 2 * kMargin + textWidth(picture.title, kTitle),
                    2 * kMargin + textWidth(picture.summary, kLabel)});
  int top = 60 + int(lanes) * kLane + 20;
  int boxHeight = 30 + int(maxOps) * kLine + 10;
  int listTop = top + boxHeight + 30 + int(selfLoops) * kLine;
  int height = listTop + int(listLines.size()) * kLine + 20;

  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << int(width + 1)
     << "\" height=\"" << height << "\" font-family=\"" << kFontFamily
     << "\" font-size=\"" << int(kLabel) << "\">\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
     << "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" "
        "refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
        "orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" "
        "fill=\"#333\"/></marker></defs>\n";
  text(os, kMargin, 22, picture.title, kTitle);
  text(os, kMargin, 40, picture.summary);

  // Agents.
  for (auto [index, agent] : llvm::enumerate(picture.agents)) {
    double x = centre(index) - boxWidth / 2;
    os << "<g class=\"agent\"><rect x=\"" << px(x) << "\" y=\"" << top
       << "\" width=\"" << px(boxWidth) << "\" height=\"" << boxHeight
       << "\" rx=\"6\" fill=\"#e8f0fe\" stroke=\"#3367d6\"/>\n";
    text(os, x + 8, top + 18, agent.name, kName, " font-weight=\"bold\"");
    for (auto [k, op] : llvm::enumerate(agent.ops))
      text(os, x + 8, top + 34 + int(k) * kLine, op);
    os << "</g>\n";
  }

  // Pipes between agents: one lane each, innermost lane for the last. A
  // label sits on its own lane between the arrow's two ends, on a white
  // ground (outer lanes' arrows pass behind it); one too long for that
  // span shows its name alone ("pipe 3"), and the list below has it whole.
  int lane = 0, self = 0;
  for (const PipeArrow &pipe : picture.pipes) {
    std::string dash = pipe.carried ? " stroke-dasharray=\"5,3\"" : "";
    std::string name = llvm::StringRef(pipe.label).split(':').first.str();
    if (pipe.from == pipe.to) {
      double x = centre(pipe.from) + boxWidth / 2;
      int y = top + boxHeight + 12 + self * kLine;
      os << "<path class=\"pipe\" d=\"M " << px(x - 20) << " "
         << top + boxHeight << " C " << px(x - 20) << " " << y + 8 << ", "
         << px(x - 60) << " " << y + 8 << ", " << px(x - 60) << " "
         << top + boxHeight << "\" fill=\"none\" stroke=\"#333\" "
         << "marker-end=\"url(#arrow)\"" << dash << "/>\n";
      double room = boxWidth - 70;
      std::string shown = textWidth(pipe.label, kLabel) <= room
                              ? pipe.label
                              : fitText(name, kLabel, room);
      text(os, x - boxWidth, y + 4, shown);
      ++self;
      continue;
    }
    int y = top - 12 - lane * kLane;
    // Each lane's ends stand apart, so that two pipes between the same
    // agents are two arrows, not one drawn twice.
    double spread = std::min(10.0, (boxWidth / 2 - 30) / std::max(1u, lanes));
    double offset = 20 + lane * spread;
    double x0 = centre(pipe.from) + (pipe.from < pipe.to ? offset : -offset);
    double x1 = centre(pipe.to) + (pipe.from < pipe.to ? -offset : offset);
    os << "<path class=\"pipe\" d=\"M " << px(x0) << " " << top << " L "
       << px(x0) << " " << y << " L " << px(x1) << " " << y << " L " << px(x1)
       << " " << top << "\" fill=\"none\" stroke=\"#333\" "
       << "marker-end=\"url(#arrow)\"" << dash << "/>\n";
    double room = std::abs(x1 - x0) - 12;
    std::string shown = textWidth(pipe.label, kLabel) <= room
                            ? pipe.label
                            : fitText(name, kLabel, room);
    if (!shown.empty()) {
      double lx = std::min(x0, x1) + 6;
      os << "<rect x=\"" << px(lx - 2) << "\" y=\"" << px(y - 4 - kAscentEm * kLabel)
         << "\" width=\"" << px(textWidth(shown, kLabel) + 4) << "\" height=\""
         << px((kAscentEm + kDescentEm) * kLabel) << "\" fill=\"white\"/>\n";
      text(os, lx, y - 4, shown);
    }
    ++lane;
  }

  // The list: every pipe and mutex in words.
  int y = listTop;
  for (const std::string &line : listLines) {
    text(os, kMargin, y, line);
    y += kLine;
  }
  os << "</svg>\n";
}

llvm::Error report::writePlanSVGFile(llvm::StringRef path,
                                     const PlanPicture &picture) {
  return writeSVGFile(
      path, [&](llvm::raw_ostream &os) { writePlanSVG(os, picture); });
}
