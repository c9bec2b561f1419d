//===- HarnessMain.cpp - the protocol harness's main of a kernel ----------===//
//
// After each kernel the translation writes, under TILEPIPE_HARNESS_MAIN, a
// main that runs the kernel for each trip count and CTA count on the
// protocol harness and prints one JSON line per run (docs/cuda.md, "The
// protocol harness"). The trip count reaches the kernel through the
// parameter its loop's upper bound is computed from; every other parameter
// is a zero, a null pointer or an empty descriptor.
//
//===----------------------------------------------------------------------===//

#include "cuda/emit/HarnessMain.h"
#include "cuda/analysis/CudaTypes.h"

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

namespace {

/// The parameter the trip count reaches the loops through, and the factor
/// the loop divides it by.
struct TripParameter {
  int index = -1;
  int64_t scale = 1;
};

/// The trip count reaches the loops through one integer parameter:
/// upper = maxsi(ceildivsi(arg, scale), 0) or a plain arg, from 0 step 1;
/// an i32 or i64 arg is index_cast first (an i32 or i64 loop).
TripParameter findTripParameter(func::FuncOp func,
                                ArrayRef<BlockArgument> params) {
  int tripParam = -1;
  int64_t scale = 1;
  func.walk([&](scf::ForOp loop) {
    if (tripParam >= 0)
      return;
    APInt lb, step;
    if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
        !matchPattern(loop.getStep(), m_ConstantInt(&step)) || !lb.isZero() ||
        !step.isOne())
      return;
    Value v = loop.getUpperBound();
    if (auto max = v.getDefiningOp<arith::MaxSIOp>())
      v = max.getLhs();
    int64_t s = 1;
    if (auto div = v.getDefiningOp<arith::CeilDivSIOp>()) {
      APInt c;
      if (!matchPattern(div.getRhs(), m_ConstantInt(&c)))
        return;
      s = c.getSExtValue();
      v = div.getLhs();
    }
    if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
      v = cast.getIn();
    for (auto [i, arg] : llvm::enumerate(params))
      if (arg == v) {
        tripParam = int(i);
        scale = s;
      }
  });
  return {tripParam, scale};
}

/// The kernel's arguments in the harness's launch: descriptors `desc`,
/// tiles passed in a buffer of zeros, the trip count `t` scaled, and a
/// persistent kernel's grid of three tiles per CTA.
std::string launchArguments(const KernelLayout &layout,
                            ArrayRef<BlockArgument> params,
                            TripParameter trip) {
  int tripParam = trip.index;
  int64_t scale = trip.scale;
  std::string args;
  for (auto [i, arg] : llvm::enumerate(params)) {
    if (i)
      args += ", ";
    if (isa<tileas::TmaDescType>(arg.getType()))
      args += "desc";
    else if (isa<MemRefType>(arg.getType()))
      args += "nullptr"; // The harness copies nothing from global memory.
    else if (isa<RankedTensorType>(arg.getType()))
      args += "(const " +
              registerElementName(
                  cast<ShapedType>(arg.getType()).getElementType()) +
              " *)zeros";
    else if (int(i) == tripParam)
      args += "(int64_t)(t * " + std::to_string(scale) + ")";
    else
      args += "0";
  }
  // A persistent kernel runs three tiles on each CTA: the pipes' iterations
  // and the accumulator's slots carry on from tile to tile.
  if (layout.persistent && !layout.tileCount)
    args += std::string(args.empty() ? "" : ", ") + "(int64_t)(3 * c), 1, 1";
  return args;
}

} // namespace

std::string cuda::harnessMain(func::FuncOp func, const KernelLayout &layout,
                              ArrayRef<BlockArgument> params) {
  TripParameter trip = findTripParameter(func, params);
  int tripParam = trip.index;
  int maxDepth = 1;
  for (const PipeLayout &p : layout.pipes)
    maxDepth = std::max(maxDepth, p.depth);

  int64_t zeroBytes = 16;
  for (BlockArgument arg : params)
    if (auto tensor = dyn_cast<RankedTensorType>(arg.getType()))
      zeroBytes = std::max(zeroBytes, tensor.getNumElements() *
                                          tensor.getElementTypeBitWidth() / 8);
  std::string args = launchArguments(layout, params, trip);
  std::string text;
  llvm::raw_string_ostream os(text);
  const std::string &k = layout.name;
  os << "\n// The protocol harness (docs/cuda.md): compiled with "
        "-DTILEPIPE_HARNESS\n// -DTILEPIPE_HARNESS_MAIN, it runs the kernel "
        "for each trip count and CTA count\n// and prints one JSON line per "
        "run. Exit 0: every run clean; 1: a protocol\n// error, a timeout or "
        "a launch error; 77: no CUDA device.\n"
     << "#if defined(TILEPIPE_HARNESS_MAIN)\n"
     << "#include <tilepipe/harness_host.cuh>\n#include <cstdio>\n"
     << "#include <cstdlib>\n#include <cstring>\n#include <vector>\n"
     << "static std::vector<long long> tp_list(const char *s) {\n"
     << "  std::vector<long long> v;\n"
     << "  for (char *e; *s; s = *e ? e + 1 : e) v.push_back(std::strtoll(s, "
        "&e, 10));\n  return v;\n}\n"
     << "int main(int argc, char **argv) {\n";
  if (tripParam < 0) {
    os << "  std::printf(\"{\\\"kernel\\\": \\\"" << k
       << "\\\", \\\"skipped\\\": \\\"no parameter sets the trip "
          "count\\\"}\\n\");\n  return 77;\n}\n#endif";
    return os.str();
  }
  os << "  std::vector<long long> trips = {0, 1, 2, " << maxDepth << ", "
     << maxDepth + 1 << ", 1000};\n"
     << "  std::vector<long long> ctas = {1, 4, 132};\n"
     << "  if (argc > 1) trips = tp_list(argv[1]);\n"
     << "  if (argc > 2) ctas = tp_list(argv[2]);\n"
     << "  int devices = 0;\n"
     << "  cudaError_t err = cudaGetDeviceCount(&devices);\n"
     << "  if (err != cudaSuccess || devices == 0) {\n"
     << "    std::printf(\"{\\\"kernel\\\": \\\"" << k
     << "\\\", \\\"skipped\\\": \\\"no CUDA device (%s)\\\"}\\n\", "
        "cudaGetErrorString(err));\n    return 77;\n  }\n"
     << "  cudaFuncSetAttribute(" << k
     << ", cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sizeof(tp_smem_"
     << k << "));\n"
     << "  tp::TmaDesc desc;\n  std::memset(&desc, 0, sizeof(desc));\n"
     << "  void *zeros = nullptr; // Tiles passed in: zeros.\n"
     << "  cudaMalloc(&zeros, " << zeroBytes << ");\n"
     << "  cudaMemset(zeros, 0, " << zeroBytes << ");\n"
     << "  cudaEvent_t start, stop;\n  cudaEventCreate(&start);\n"
     << "  cudaEventCreate(&stop);\n  int bad = 0;\n"
     << "  for (long long t : trips)\n    for (long long c : ctas) {\n"
     << "      tp::host::reset();\n      cudaEventRecord(start);\n"
     << "      " << k << "<<<(unsigned)c, " << layout.threads()
     << ", sizeof(tp_smem_" << k << ")>>>(" << args << ");\n"
     << "      cudaEventRecord(stop);\n"
     << "      err = cudaGetLastError();\n"
     << "      if (err == cudaSuccess) err = cudaDeviceSynchronize();\n"
     << "      float ms = 0;\n      cudaEventElapsedTime(&ms, start, stop);\n"
     << "      tp::HarnessReport r;\n      tp::host::read(r);\n"
     << "      bool ok = err == cudaSuccess && tp::host::clean(r) && (t == 0 "
        "|| r.iterations > 0);\n"
     << "      bad |= !ok;\n"
     << "      std::printf(\"{\\\"kernel\\\": \\\"" << k
     << "\\\", \\\"trips\\\": %lld, \\\"ctas\\\": %lld, "
        "\\\"ok\\\": %s, \\\"launch\\\": \\\"%s\\\", "
        "\\\"errors\\\": %u, \\\"timeouts\\\": %u, "
        "\\\"checks\\\": %llu, \\\"first_error\\\": {\\\"cta\\\": "
        "%d, \\\"pipe\\\": %d, \\\"want\\\": %lld, \\\"got\\\": "
        "%lld}, \\\"ms\\\": %.3f, \\\"ns_per_iteration\\\": "
        "%.1f}\\n\", t, c, ok ? \"true\" : \"false\", "
        "cudaGetErrorString(err), r.errors, r.timeouts, r.iterations, "
        "r.firstCta, r.firstPipe, r.firstWant, r.firstGot, ms, t ? ms * 1e6 / "
        "t : 0.0);\n"
     << "      if (err != cudaSuccess) return 1; // The context is gone.\n"
     << "    }\n  return bad;\n}\n#endif";
  return os.str();
}