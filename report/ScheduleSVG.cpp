//===- ScheduleSVG.cpp - a schedule as a picture
//---------------------------===//

#include "report/ScheduleSVG.h"
#include "report/SVGText.h"
#include "report/TextMetrics.h"

#include "llvm/Support/FormatVariadic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace tilepipe;

namespace {

constexpr int kPlot = 760, kPad = 10, kRow = 14, kBar = 12;
constexpr double kLabel = 11, kTick = 10, kTitle = 15;
constexpr unsigned kMaxColumns = 240;
/// The label column never takes more than this; longer labels are cut.
constexpr double kMaxLabelColumn = 480;

/// Stage colours, cycled.
const char *stageColour(unsigned stage) {
  static const char *colours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                  "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};
  return colours[stage % 8];
}

std::string px(double v) { return llvm::formatv("{0:F2}", v).str(); }

/// Writes one text element; `anchor` is start, middle or end.
void text(llvm::raw_ostream &os, double x, double y, llvm::StringRef body,
          double size, llvm::StringRef anchor = "start") {
  os << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\"";
  if (size != kLabel)
    os << " font-size=\"" << int(size) << "\"";
  if (anchor != "start")
    os << " text-anchor=\"" << anchor << "\"";
  os << ">" << report::escapeSVGText(body) << "</text>\n";
}

/// A cycle axis under a panel: a line, ticks at a step the labels fit, the
/// cycle of each tick, and the word "cycle" in the label column.
/// Returns the height it took.
int axis(llvm::raw_ostream &os, double left, int y, uint64_t span) {
  os << "<line x1=\"" << px(left) << "\" y1=\"" << y << "\" x2=\""
     << px(left + kPlot) << "\" y2=\"" << y << "\" stroke=\"#333\"/>\n";
  uint64_t step = report::tickStep(span, kPlot, kTick);
  for (uint64_t c = 0; c <= span; c += step) {
    double x = left + double(c) * kPlot / double(std::max<uint64_t>(1, span));
    os << "<line x1=\"" << px(x) << "\" y1=\"" << y << "\" x2=\"" << px(x)
       << "\" y2=\"" << y + 4 << "\" stroke=\"#333\"/>\n";
    // The last label ends at the axis' end rather than past it.
    double half = report::textWidth(std::to_string(c), kTick) / 2;
    llvm::StringRef anchor =
        x + half > left + kPlot ? "end" : (x - half < left ? "start" : "middle");
    text(os, x, y + 4 + kTick, std::to_string(c), kTick, anchor);
    if (c + step < c) // Overflow.
      break;
  }
  text(os, kPad, y + 4 + kTick, "cycle", kTick);
  return 4 + int(kTick) + 8;
}

} // namespace

void report::writeScheduleSVG(llvm::raw_ostream &os,
                              const sched::Problem &problem,
                              const sched::ScheduleAnalysis &s,
                              llvm::StringRef title) {
  const rrt::ResourceLayout &layout = problem.getLayout();
  const unsigned n = std::min<unsigned>(problem.getNumOps(), s.slots.size());
  const uint64_t ii = std::max(1u, s.ii);
  const unsigned numRes = layout.numBits() + layout.numPools();

  // Heat map: units held per modulo row, relative to the capacity, summed
  // into at most kMaxColumns buckets.
  const unsigned columns = unsigned(std::min<uint64_t>(ii, kMaxColumns));
  auto bucketOf = [&](uint64_t row) { return unsigned(row * columns / ii); };
  std::vector<std::vector<double>> load(numRes,
                                        std::vector<double>(columns, 0));
  for (unsigned id = 0; id < n; ++id)
    for (const rrt::Use &u : problem.getOp(id).uses) {
      unsigned res =
          u.kind == rrt::Use::Kind::Bit ? u.index : layout.numBits() + u.index;
      if (res >= numRes)
        continue;
      // Whole laps add to every row; the rest row by row (at most II).
      uint64_t laps = u.duration / ii, rest = u.duration % ii;
      if (laps)
        for (unsigned c = 0; c < columns; ++c)
          load[res][c] += double(laps) * u.amount;
      int64_t first = s.slots[id].cycle + u.offset;
      for (uint64_t k = 0; k < rest; ++k) {
        uint64_t row = uint64_t(
            ((first + int64_t(k)) % int64_t(ii) + int64_t(ii)) % int64_t(ii));
        load[res][bucketOf(row)] += u.amount;
      }
    }

  // Only the resources some op holds get a row: a target has dozens of
  // pools, and a loop uses a handful.
  std::vector<unsigned> rows;
  std::vector<std::string> resNames;
  for (unsigned res = 0; res < numRes; ++res)
    if (llvm::any_of(load[res], [](double v) { return v > 0; })) {
      rows.push_back(res);
      resNames.push_back(res < layout.numBits()
                             ? layout.bitNames[res]
                             : layout.poolNames[res - layout.numBits()]);
    }
  std::vector<std::string> opNames, steadyNames;
  for (unsigned id = 0; id < n; ++id) {
    opNames.push_back(problem.getOp(id).name);
    steadyNames.push_back(problem.getOp(id).name + " (stage " +
                          std::to_string(s.slots[id].stage) + ")");
  }

  // The label column is as wide as its widest label.
  double column = 0;
  for (const auto *names : {&resNames, &opNames, &steadyNames})
    for (const std::string &name : *names)
      column = std::max(column, textWidth(name, kLabel));
  column = std::min(column, kMaxLabelColumn);
  const double left = kPad + column + 12;
  const int width = int(left + kPlot + 2 * kPad);
  auto label = [&](llvm::StringRef name) {
    return fitText(name, kLabel, column);
  };

  int64_t span = int64_t(ii);
  for (unsigned id = 0; id < n; ++id)
    span = std::max<int64_t>(
        span, s.slots[id].cycle +
                  std::max<int64_t>(1, problem.getOp(id).latency.value_or(1)));
  auto x = [&](double cycle, double total) {
    return left + cycle * kPlot / std::max(1.0, total);
  };

  std::string body;
  llvm::raw_string_ostream out(body);
  int y = 10;
  std::string heading = (title.empty() ? "" : title.str() + ": ") + "II " +
                        std::to_string(s.ii) + ", MII " +
                        std::to_string(s.bounds.mii) + ", " +
                        std::to_string(s.numStages) + " stages";
  y += int(kTitle);
  text(out, kPad, y, fitText(heading, kTitle, width - 2 * kPad), kTitle);
  y += 10;

  // Panel 1: the modulo reservation table.
  y += int(kLabel) + 6;
  text(out, kPad, y,
       fitText("Modulo reservation table: units held / capacity per modulo "
               "cycle (" +
                   std::to_string(numRes - rows.size()) + " of " +
                   std::to_string(numRes) + " resources unused)",
               kLabel, width - 2 * kPad),
       kLabel);
  y += 6;
  const double colW = double(kPlot) / columns;
  for (unsigned r = 0; r < rows.size(); ++r) {
    unsigned res = rows[r];
    bool bit = res < layout.numBits();
    double cap =
        bit ? 1 : std::max(1u, layout.poolCaps[res - layout.numBits()]);
    text(out, kPad, y + 11, label(resNames[r]), kLabel);
    // The row's extent; free cells stay unpainted (white), which keeps a
    // large II's picture small.
    out << "<rect x=\"" << px(left) << "\" y=\"" << y << "\" width=\"" << kPlot
        << "\" height=\"" << kRow - 1
        << "\" fill=\"white\" stroke=\"#ddd\"/>\n";
    for (unsigned c = 0; c < columns; ++c) {
      // Rows per bucket: the load is averaged over them.
      double perBucket = double((uint64_t(c + 1) * ii + columns - 1) / columns -
                                (uint64_t(c) * ii + columns - 1) / columns);
      double frac =
          std::min(1.0, load[res][c] / (cap * std::max(1.0, perBucket)));
      int shade = 255 - int(frac * 200);
      if (shade == 255)
        continue;
      out << "<rect x=\"" << px(left + c * colW) << "\" y=\"" << y
          << "\" width=\"" << px(colW) << "\" height=\"" << kRow - 1
          << "\" fill=\"rgb(255," << shade << "," << shade << ")\"/>\n";
    }
    y += kRow;
  }
  y += 2;
  y += axis(out, left, y, ii);

  // Panel 2: one iteration, its stages labelled above the bars.
  y += int(kLabel) + 10;
  text(out, kPad, y,
       fitText("One iteration: bars from start to start + latency; dashed "
               "lines at stage boundaries",
               kLabel, width - 2 * kPad),
       kLabel);
  y += 6 + int(kTick);
  for (int64_t k = 0; k * int64_t(ii) < span; ++k) {
    double x0 = x(double(k * int64_t(ii)), double(span));
    double x1 = x(double(std::min<int64_t>((k + 1) * int64_t(ii), span)),
                  double(span));
    std::string name = "stage " + std::to_string(k);
    if (textWidth(name, kTick) + 6 > x1 - x0)
      name = std::to_string(k);
    if (textWidth(name, kTick) + 4 <= x1 - x0)
      text(out, (x0 + x1) / 2, y, name, kTick, "middle");
  }
  y += 4;
  const int timeTop = y;
  for (unsigned id = 0; id < n; ++id) {
    const sched::ScheduleSlot &slot = s.slots[id];
    int64_t lat = std::max<int64_t>(1, problem.getOp(id).latency.value_or(1));
    text(out, kPad, y + 10, label(opNames[id]), kLabel);
    out << "<rect x=\"" << px(x(double(slot.cycle), double(span))) << "\" y=\""
        << y << "\" width=\""
        << px(std::max(1.0, x(double(lat), double(span)) - left))
        << "\" height=\"" << kBar << "\" fill=\"" << stageColour(slot.stage)
        << "\"/>\n";
    y += kBar + 2;
  }
  for (int64_t k = 0; k * int64_t(ii) <= span; ++k)
    out << "<line x1=\"" << px(x(double(k * int64_t(ii)), double(span)))
        << "\" y1=\"" << timeTop << "\" x2=\""
        << px(x(double(k * int64_t(ii)), double(span))) << "\" y2=\"" << y
        << "\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n";
  y += 2;
  y += axis(out, left, y, uint64_t(span));

  // Panel 3: the steady state, each op at its modulo cycle.
  y += int(kLabel) + 10;
  text(out, kPad, y,
       fitText("Steady state: each op at its modulo cycle, coloured by stage",
               kLabel, width - 2 * kPad),
       kLabel);
  y += 6;
  for (unsigned id = 0; id < n; ++id) {
    const sched::ScheduleSlot &slot = s.slots[id];
    int64_t row = ((slot.cycle % int64_t(ii)) + int64_t(ii)) % int64_t(ii);
    int64_t lat = std::max<int64_t>(1, problem.getOp(id).latency.value_or(1));
    int64_t end = std::min<int64_t>(row + lat, int64_t(ii));
    text(out, kPad, y + 10, label(steadyNames[id]), kLabel);
    out << "<rect x=\"" << px(x(double(row), double(ii))) << "\" y=\"" << y
        << "\" width=\""
        << px(std::max(1.0, x(double(end - row), double(ii)) - left))
        << "\" height=\"" << kBar << "\" fill=\"" << stageColour(slot.stage)
        << "\"/>\n";
    y += kBar + 2;
  }
  y += 2;
  y += axis(out, left, y, ii);
  y += kPad;

  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << y << "\" font-family=\"" << kFontFamily
     << "\" font-size=\"" << int(kLabel) << "\">\n<rect width=\"100%\" "
     << "height=\"100%\" fill=\"white\"/>\n"
     << body << "</svg>\n";
}

llvm::Error report::writeScheduleSVGFile(
    llvm::StringRef path, const sched::Problem &problem,
    const sched::ScheduleAnalysis &schedule, llvm::StringRef title) {
  return writeSVGFile(path, [&](llvm::raw_ostream &os) {
    writeScheduleSVG(os, problem, schedule, title);
  });
}
