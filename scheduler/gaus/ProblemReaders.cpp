//===- ProblemReaders.cpp - GauS instances from sched::Problems -----------===//
//
// .json and .graphml files are read by scheduler/io into a sched::Problem,
// checked, and turned into formulation C by fromProblem: one node per op,
// the RRT footprint as uses, the dependences as edges. The II and the
// depth come from the same search as C on a DAG (InstanceBuilder.cpp).
//
// Choices the sources leave open (docs/gaus.md):
//   - .json and .graphml problems are modulo problems; A and B on them are
//     refused rather than guessed at (which edges to drop, which latency).
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/ReaderSupport.h"
#include "scheduler/gaus/Readers.h"

#include "scheduler/io/HatScheT.h"
#include "scheduler/io/ProblemJSON.h"

#include <algorithm>

using namespace tilepipe;
using namespace tilepipe::gaus;
using namespace tilepipe::gaus::detail;
using llvm::StringRef;

bool tilepipe::gaus::detail::readProblem(StringRef path, bool graphml,
                                         const ReadOptions &options,
                                         Instance &instance, Errors &errors) {
  if (options.formulation != Formulation::C)
    return errors.whole("formulations A and B need a DAG (.dag, .txt or "
                        ".gml); a .json or .graphml problem is a modulo "
                        "problem, read it as formulation C");
  if (graphml && options.resources.empty())
    return errors.whole("a .graphml instance needs its HatScheT resource "
                        "model (the resources option)");
  llvm::Expected<io::ProblemFile> file =
      graphml ? io::readHatScheTFiles(path, options.resources)
              : io::readProblemJSONFile(path);
  if (!file) {
    // The io readers' messages already start with "file:line:".
    return errors.verbatim(llvm::toString(file.takeError()));
  }
  const sched::Problem &problem = file->problem;
  sched::DiagnosticList diags;
  if (!problem.check(diags)) {
    for (const sched::Diagnostic &diag : diags.all())
      if (diag.severity == sched::Severity::Error)
        return errors.whole(diag.message);
    return errors.whole("the problem does not pass its checks");
  }
  rrt::Bounds bounds = problem.computeBounds();
  if (bounds.recurrenceInfeasible)
    return errors.whole("a distance-0 cycle of positive latency: no II "
                        "schedules it");
  if (bounds.resourceInfeasible)
    return errors.whole("an op collides with itself at every II "
                        "(resource '" +
                        (bounds.resBottleneck.empty() ? bounds.fineBottleneck
                                                      : bounds.resBottleneck) +
                        "')");
  unsigned lowest = std::max(bounds.mii, 1u);
  // The edges do not depend on the II; build once at the bound, then fix
  // the II and the depth.
  instance = fromProblem(problem, options.ii > 0 ? options.ii : lowest);
  instance.name = file->name;
  instance.alpha = options.alpha;
  return chooseIIAndDepth(instance, lowest, options, /*slackStages=*/1, errors);
}

Instance tilepipe::gaus::fromProblem(const sched::Problem &problem, unsigned ii,
                                     unsigned slackStages) {
  const rrt::ResourceLayout &layout = problem.getLayout();
  Instance instance;
  instance.formulation = Formulation::C;
  instance.ii = ii;
  // Dense resources: the RRT bits (capacity 1) first, then the pools.
  unsigned numBits = layout.numBits();
  for (unsigned b = 0; b < numBits; ++b) {
    instance.resourceNames.push_back(layout.bitNames[b]);
    instance.capacity.push_back(1);
  }
  for (unsigned p = 0; p < layout.numPools(); ++p) {
    instance.resourceNames.push_back(layout.poolNames[p]);
    instance.capacity.push_back(layout.poolCaps[p]);
  }
  instance.nodes.resize(problem.getNumOps());
  for (unsigned i = 0; i < problem.getNumOps(); ++i) {
    const sched::Operation &op = problem.getOp(i);
    Node &node = instance.nodes[i];
    node.name = op.name;
    node.bytes = 1;
    for (const rrt::Use &use : op.uses) {
      bool bit = use.kind == rrt::Use::Kind::Bit;
      // A non-binding pool never refuses (ResourceLayout::poolBinding):
      // its uses cannot make a schedule illegal, so they are left out.
      if (!bit && !layout.poolBinding[use.index])
        continue;
      Use out;
      out.resource = bit ? use.index : numBits + use.index;
      out.offset = use.offset;
      out.duration = use.duration;
      out.amount = bit ? 1 : use.amount;
      node.uses.push_back(out);
    }
  }
  for (const sched::Dependence &dep : problem.getDependences()) {
    Edge edge;
    edge.src = dep.src;
    edge.dst = dep.dst;
    edge.latency = dep.latency;
    edge.distance = dep.distance;
    instance.edges.push_back(edge);
  }
  // Depth: the longest path at `ii` plus the slack. A positive cycle at
  // `ii` leaves no longest path; the sum of the latencies bounds every
  // acyclic one, and computeFrames then reports the cycle.
  std::vector<int64_t> starts(instance.nodes.size(), 0);
  std::string reason;
  int64_t longest;
  if (raiseToFixedPoint(instance, ii, starts, reason)) {
    longest = maxStart(starts) + 1;
  } else {
    longest = 1;
    for (const Edge &e : instance.edges)
      longest += std::max<int64_t>(0, e.latency);
  }
  instance.depth = longest + int64_t(slackStages) * int64_t(ii);
  return instance;
}
