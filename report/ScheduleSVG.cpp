//===- ScheduleSVG.cpp - a schedule as a picture
//---------------------------===//

#include "report/ScheduleSVG.h"
#include "report/SVGText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace tilepipe;

namespace {

constexpr int kWidth = 960, kLeft = 170, kPlot = kWidth - kLeft - 20;
constexpr unsigned kMaxColumns = 240;

/// Stage colours, cycled.
const char *stageColour(unsigned stage) {
  static const char *colours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                  "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};
  return colours[stage % 8];
}

} // namespace

void report::writeScheduleSVG(llvm::raw_ostream &os,
                              const sched::Problem &problem,
                              const sched::ScheduleAnalysis &s,
                              llvm::StringRef title) {
  const rrt::ResourceLayout &layout = problem.getLayout();
  const unsigned n = problem.getNumOps();
  const uint64_t ii = std::max(1u, s.ii);
  const unsigned numRes = layout.numBits() + layout.numPools();

  // Heat map: units held per modulo row, relative to the capacity, summed
  // into at most kMaxColumns buckets.
  const unsigned columns = unsigned(std::min<uint64_t>(ii, kMaxColumns));
  auto bucketOf = [&](uint64_t row) { return unsigned(row * columns / ii); };
  std::vector<std::vector<double>> load(numRes,
                                        std::vector<double>(columns, 0));
  for (unsigned id = 0; id < n && id < s.slots.size(); ++id)
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
  for (unsigned res = 0; res < numRes; ++res)
    if (llvm::any_of(load[res], [](double v) { return v > 0; }))
      rows.push_back(res);

  const int heatTop = 60, cell = 14;
  const int timeTop = heatTop + int(rows.size()) * cell + 50;
  const int barH = 12;
  const int steadyTop = timeTop + int(n) * (barH + 2) + 50;
  const int height = steadyTop + int(n) * (barH + 2) + 30;
  int64_t span = int64_t(ii);
  for (unsigned id = 0; id < n && id < s.slots.size(); ++id)
    span = std::max<int64_t>(
        span, s.slots[id].cycle +
                  std::max<int64_t>(1, problem.getOp(id).latency.value_or(1)));
  auto x = [&](double cycle, double total) {
    return kLeft + cycle * kPlot / std::max(1.0, total);
  };

  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth
     << "\" height=\"" << height << "\" font-family=\"sans-serif\" "
     << "font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" "
     << "fill=\"white\"/>\n";
  os << "<text x=\"10\" y=\"24\" font-size=\"16\">" << escapeSVGText(title)
     << ": II " << s.ii << ", MII " << s.bounds.mii << ", " << s.numStages
     << " stages</text>\n";

  os << "<text x=\"10\" y=\"" << heatTop - 8
     << "\">Modulo reservation table (units held / capacity per modulo "
        "cycle; "
     << numRes - rows.size() << " of " << numRes
     << " resources unused)</text>\n";
  const double colW = double(kPlot) / columns;
  for (unsigned r = 0; r < rows.size(); ++r) {
    unsigned res = rows[r];
    bool bit = res < layout.numBits();
    std::string name =
        bit ? layout.bitNames[res] : layout.poolNames[res - layout.numBits()];
    double cap =
        bit ? 1 : std::max(1u, layout.poolCaps[res - layout.numBits()]);
    int y = heatTop + int(r) * cell;
    os << "<text x=\"10\" y=\"" << y + 11 << "\">" << escapeSVGText(name)
       << "</text>\n";
    // The row's extent; free cells stay unpainted (white), which keeps a
    // large II's picture small.
    os << "<rect x=\"" << kLeft << "\" y=\"" << y << "\" width=\"" << kPlot
       << "\" height=\"" << cell - 1 << "\" fill=\"white\" stroke=\"#ddd\"/>\n";
    for (unsigned c = 0; c < columns; ++c) {
      // Rows per bucket: the load is averaged over them.
      double rows = double((uint64_t(c + 1) * ii + columns - 1) / columns -
                           (uint64_t(c) * ii + columns - 1) / columns);
      double frac = std::min(1.0, load[res][c] / (cap * std::max(1.0, rows)));
      int shade = 255 - int(frac * 200);
      if (shade == 255)
        continue;
      os << "<rect x=\"" << llvm::format("%.2f", kLeft + c * colW) << "\" y=\""
         << y << "\" width=\"" << llvm::format("%.2f", colW) << "\" height=\""
         << cell - 1 << "\" fill=\"rgb(255," << shade << "," << shade
         << ")\"/>\n";
    }
  }

  os << "<text x=\"10\" y=\"" << timeTop - 8
     << "\">One iteration (bars: start to start + latency; dashed: stage "
        "boundaries)</text>\n";
  for (int64_t k = 0; k * int64_t(ii) <= span; ++k)
    os << "<line x1=\"" << x(double(k * ii), double(span)) << "\" y1=\""
       << timeTop << "\" x2=\"" << x(double(k * ii), double(span)) << "\" y2=\""
       << timeTop + int(n) * (barH + 2)
       << "\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n";
  for (unsigned id = 0; id < n && id < s.slots.size(); ++id) {
    const sched::ScheduleSlot &slot = s.slots[id];
    int64_t lat = std::max<int64_t>(1, problem.getOp(id).latency.value_or(1));
    int y = timeTop + int(id) * (barH + 2);
    os << "<text x=\"10\" y=\"" << y + 10 << "\">"
       << escapeSVGText(problem.getOp(id).name) << "</text>\n";
    os << "<rect x=\"" << x(double(slot.cycle), double(span)) << "\" y=\"" << y
       << "\" width=\"" << std::max(1.0, x(double(lat), double(span)) - kLeft)
       << "\" height=\"" << barH << "\" fill=\"" << stageColour(slot.stage)
       << "\"/>\n";
  }

  os << "<text x=\"10\" y=\"" << steadyTop - 8
     << "\">Steady state (each op at its modulo cycle, coloured by "
        "stage)</text>\n";
  for (unsigned id = 0; id < n && id < s.slots.size(); ++id) {
    const sched::ScheduleSlot &slot = s.slots[id];
    int64_t row = ((slot.cycle % int64_t(ii)) + int64_t(ii)) % int64_t(ii);
    int64_t lat = std::max<int64_t>(1, problem.getOp(id).latency.value_or(1));
    int64_t end = std::min<int64_t>(row + lat, int64_t(ii));
    int y = steadyTop + int(id) * (barH + 2);
    os << "<text x=\"10\" y=\"" << y + 10 << "\">"
       << escapeSVGText(problem.getOp(id).name) << " (stage " << slot.stage
       << ")</text>\n";
    os << "<rect x=\"" << x(double(row), double(ii)) << "\" y=\"" << y
       << "\" width=\""
       << std::max(1.0, x(double(end - row), double(ii)) - kLeft)
       << "\" height=\"" << barH << "\" fill=\"" << stageColour(slot.stage)
       << "\"/>\n";
  }
  os << "</svg>\n";
}

llvm::Error report::writeScheduleSVGFile(
    llvm::StringRef path, const sched::Problem &problem,
    const sched::ScheduleAnalysis &schedule, llvm::StringRef title) {
  return writeSVGFile(path, [&](llvm::raw_ostream &os) {
    writeScheduleSVG(os, problem, schedule, title);
  });
}
