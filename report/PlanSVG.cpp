//===- PlanSVG.cpp - the agents and their pipes as a picture --------------===//
//
// Agents are boxes side by side; a pipe between two agents is an arc above
// the boxes (one lane per pipe, so that labels never overlap), a pipe
// within one agent a short loop on its box. Sizes follow the content, not
// a fixed canvas, so a loop with many pipes stays legible.
//
//===----------------------------------------------------------------------===//

#include "report/PlanSVG.h"
#include "report/SVGText.h"


#include <algorithm>

using namespace tilepipe;
using namespace tilepipe::report;

namespace {

constexpr int kBoxWidth = 200, kGap = 60, kLine = 14, kLane = 22, kMargin = 20;

int boxCentre(unsigned agent) {
  return kMargin + int(agent) * (kBoxWidth + kGap) + kBoxWidth / 2;
}

} // namespace

void report::writePlanSVG(llvm::raw_ostream &os, const PlanPicture &picture) {
  unsigned numAgents = std::max<size_t>(1, picture.agents.size());
  size_t maxOps = 0;
  for (const AgentBox &a : picture.agents)
    maxOps = std::max(maxOps, a.ops.size());
  // Lanes for the arcs between agents, above the boxes.
  unsigned lanes = 0;
  for (const PipeArrow &p : picture.pipes)
    lanes += p.from != p.to;
  int width =
      std::max<int>(2 * kMargin + int(numAgents) * (kBoxWidth + kGap), 640);
  int top = 60 + int(lanes) * kLane + 20;
  int boxHeight = 30 + int(maxOps) * kLine + 10;
  int selfLoops = 0;
  for (const PipeArrow &p : picture.pipes)
    selfLoops += p.from == p.to;
  int listTop = top + boxHeight + 30 + selfLoops * kLine;
  int height =
      listTop + int(picture.mutexes.size() + picture.pipes.size()) * kLine + 40;

  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << height << "\" font-family=\"monospace\" "
     << "font-size=\"11\">\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
     << "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" "
        "refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
        "orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" "
        "fill=\"#333\"/></marker></defs>\n";
  os << "<text x=\"" << kMargin << "\" y=\"22\" font-size=\"15\">"
     << escapeSVGText(picture.title) << "</text>\n";
  os << "<text x=\"" << kMargin << "\" y=\"40\">"
     << escapeSVGText(picture.summary) << "</text>\n";

  // Agents.
  for (auto [index, agent] : llvm::enumerate(picture.agents)) {
    int x = boxCentre(index) - kBoxWidth / 2;
    os << "<g class=\"agent\"><rect x=\"" << x << "\" y=\"" << top
       << "\" width=\"" << kBoxWidth << "\" height=\"" << boxHeight
       << "\" rx=\"6\" fill=\"#e8f0fe\" stroke=\"#3367d6\"/>\n";
    os << "<text x=\"" << x + 8 << "\" y=\"" << top + 18
       << "\" font-size=\"13\" font-weight=\"bold\">"
       << escapeSVGText(agent.name) << "</text>\n";
    for (auto [k, op] : llvm::enumerate(agent.ops))
      os << "<text x=\"" << x + 8 << "\" y=\"" << top + 34 + int(k) * kLine
         << "\">" << escapeSVGText(op) << "</text>\n";
    os << "</g>\n";
  }

  // Pipes between agents: one lane each, innermost lane for the last.
  int lane = 0, self = 0;
  for (auto [index, pipe] : llvm::enumerate(picture.pipes)) {
    std::string dash = pipe.carried ? " stroke-dasharray=\"5,3\"" : "";
    if (pipe.from == pipe.to) {
      int x = boxCentre(pipe.from) + kBoxWidth / 2;
      int y = top + boxHeight + 12 + self * kLine;
      os << "<path class=\"pipe\" d=\"M " << x - 20 << " " << top + boxHeight
         << " C " << x - 20 << " " << y + 8 << ", " << x - 60 << " " << y + 8
         << ", " << x - 60 << " " << top + boxHeight
         << "\" fill=\"none\" stroke=\"#333\" marker-end=\"url(#arrow)\""
         << dash << "/>\n";
      os << "<text x=\"" << x - 200 << " \" y=\"" << y + 14 << "\">"
         << escapeSVGText(pipe.label) << "</text>\n";
      ++self;
      continue;
    }
    int y = top - 12 - lane * kLane;
    int x0 = boxCentre(pipe.from) + (pipe.from < pipe.to ? 20 : -20);
    int x1 = boxCentre(pipe.to) + (pipe.from < pipe.to ? -20 : 20);
    os << "<path class=\"pipe\" d=\"M " << x0 << " " << top << " L " << x0
       << " " << y << " L " << x1 << " " << y << " L " << x1 << " " << top
       << "\" fill=\"none\" stroke=\"#333\" marker-end=\"url(#arrow)\"" << dash
       << "/>\n";
    os << "<text x=\"" << std::min(x0, x1) + 6 << "\" y=\"" << y - 4 << "\">"
       << escapeSVGText(pipe.label) << "</text>\n";
    ++lane;
  }

  // The list: every pipe and mutex in words.
  int y = listTop;
  for (const PipeArrow &pipe : picture.pipes) {
    llvm::StringRef from = pipe.from < picture.agents.size()
                               ? llvm::StringRef(picture.agents[pipe.from].name)
                               : "?";
    llvm::StringRef to = pipe.to < picture.agents.size()
                             ? llvm::StringRef(picture.agents[pipe.to].name)
                             : "?";
    os << "<text x=\"" << kMargin << "\" y=\"" << y << "\">"
       << escapeSVGText(pipe.label) << ": " << escapeSVGText(from) << " -&gt; "
       << escapeSVGText(to) << (pipe.carried ? " (carried)" : "")
       << "</text>\n";
    y += kLine;
  }
  for (const std::string &m : picture.mutexes) {
    os << "<text x=\"" << kMargin << "\" y=\"" << y << "\">" << escapeSVGText(m)
       << "</text>\n";
    y += kLine;
  }
  os << "</svg>\n";
}

llvm::Error report::writePlanSVGFile(llvm::StringRef path,
                                     const PlanPicture &picture) {
  return writeSVGFile(
      path, [&](llvm::raw_ostream &os) { writePlanSVG(os, picture); });
}
