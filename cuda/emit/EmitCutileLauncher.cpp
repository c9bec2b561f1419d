//===- EmitCutileLauncher.cpp - a launcher with cuTile's convention -------===//
//
// Host code as text, like EmitLauncher.cpp: what it reads from `params` and
// what it passes to tp_launch_<kernel> are decided here, from the
// attributes; the checks a TMA needs and the mode switch live in
// tilepipe/host/cutile.cuh.
//
//===----------------------------------------------------------------------===//

#include "cuda/emit/EmitCutileLauncher.h"

#include "cuda/analysis/CudaTypes.h"
#include "cuda/emit/EmitLauncher.h"

#include "ir/TileASDialect.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

namespace {

/// One cuTile kernel parameter, after flattening.
struct CutileParam {
  bool isArray = false;
  Type dtype;
  int64_t rank = 0;     ///< Arrays.
  bool index64 = false; ///< Arrays: int64 shapes and strides.
  unsigned firstSlot = 0;
  std::string name; ///< Its `name`, else the argument it feeds's, else paramK.

  /// Slots of `params` it fills: the pointer, shape and strides of an
  /// array, or the scalar.
  unsigned slots() const { return isArray ? 1 + 2 * unsigned(rank) : 1; }
  std::string indexType() const { return index64 ? "int64_t" : "int32_t"; }
};

/// What one argument of the kernel is made from.
struct ArgSource {
  enum class Kind { Tensor, Pointer, Shape, Stride, Scalar };
  Kind kind = Kind::Scalar;
  unsigned param = 0;
  int64_t dim = 0; ///< Shape and Stride.
};

/// `name` as it may stand in a C++ string literal and a // comment: quotes
/// and backslashes escaped, anything but printable ASCII as '?'.
std::string printableName(StringRef name) {
  std::string out;
  for (char c : name) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c >= 0x20 && c < 0x7f ? c : '?';
  }
  return out;
}

/// The host type a scalar of cuTile dtype `t` is passed as.
std::string scalarParamType(Type t) {
  if (t.isF16() || t.isBF16())
    return cudaElementName(t);
  return hostScalarType(t);
}

/// Reads one entry of `tileas.cutile.params`; fails with an error at the
/// function.
FailureOr<CutileParam> readParam(func::FuncOp func, Attribute entry,
                                 unsigned index) {
  auto dict = dyn_cast<DictionaryAttr>(entry);
  auto fail = [&](const Twine &why) {
    return emitError(func.getLoc())
               << kCutileParamsAttr << "[" << index << "]: " << why,
           failure();
  };
  if (!dict)
    return fail("expected a dictionary");
  auto kind = dict.getAs<StringAttr>("kind");
  auto dtype = dict.getAs<TypeAttr>("dtype");
  if (!kind || !dtype)
    return fail("expected `kind` (a string) and `dtype` (a type)");
  CutileParam p;
  p.dtype = dtype.getValue();
  if (auto name = dict.getAs<StringAttr>("name"))
    p.name = name.getValue().str();
  if (kind.getValue() == "scalar") {
    if (scalarParamType(p.dtype).empty())
      return fail("a scalar of type " + llvm::Twine(cudaElementName(p.dtype)) +
                  " has no host form");
    return p;
  }
  if (kind.getValue() != "array")
    return fail("unknown kind '" + kind.getValue() +
                "' (expected \"array\" or \"scalar\")");
  p.isArray = true;
  auto rank = dict.getAs<IntegerAttr>("rank");
  auto indexType = dict.getAs<TypeAttr>("index");
  if (!rank || rank.getInt() < 1 || rank.getInt() > 5)
    return fail("an array needs a `rank` from 1 to 5");
  p.rank = rank.getInt();
  if (!indexType || !(indexType.getValue().isInteger(32) ||
                      indexType.getValue().isInteger(64)))
    return fail("an array needs `index` = i32 or i64");
  p.index64 = indexType.getValue().isInteger(64);
  return p;
}

FailureOr<std::vector<CutileParam>> readParams(func::FuncOp func,
                                               ArrayAttr attr) {
  std::vector<CutileParam> params;
  unsigned slot = 0;
  for (auto [i, entry] : llvm::enumerate(attr)) {
    FailureOr<CutileParam> p = readParam(func, entry, unsigned(i));
    if (failed(p))
      return failure();
    p->firstSlot = slot;
    slot += p->slots();
    params.push_back(*p);
  }
  return params;
}

/// Reads argument `arg`'s `tileas.cutile.source` against the parameters;
/// fails with an error at the argument.
FailureOr<ArgSource> readSource(func::FuncOp func, BlockArgument arg,
                                const std::vector<CutileParam> &params) {
  unsigned i = arg.getArgNumber();
  auto fail = [&](const Twine &why) {
    return emitError(arg.getLoc()) << "kernel parameter '"
                                   << parameterName(func, i) << "': " << why,
           failure();
  };
  auto dict = func.getArgAttrOfType<DictionaryAttr>(i, kCutileSourceAttr);
  if (!dict)
    return fail(Twine("no ") + kCutileSourceAttr +
                ": the cuTile launcher cannot fill it");
  auto number = [&](StringRef key) -> std::optional<int64_t> {
    if (auto a = dict.getAs<IntegerAttr>(key))
      return a.getInt();
    return std::nullopt;
  };
  std::optional<int64_t> array = number("array"), scalar = number("scalar"),
                         shape = number("shape"), stride = number("stride");
  ArgSource src;
  bool isDesc = isa<tileas::TmaDescType>(arg.getType());
  if (scalar && !array && !shape && !stride && !isDesc) {
    if (*scalar < 0 || size_t(*scalar) >= params.size() ||
        params[*scalar].isArray)
      return fail("`scalar = " + Twine(*scalar) +
                  "` does not name a scalar parameter");
    src.param = unsigned(*scalar);
    return src;
  }
  if (!array || scalar || (shape && stride))
    return fail("expected {array = K}, {array = K, shape = D}, "
                "{array = K, stride = D} or {scalar = K}");
  if (*array < 0 || size_t(*array) >= params.size() || !params[*array].isArray)
    return fail("`array = " + Twine(*array) +
                "` does not name an array parameter");
  const CutileParam &p = params[*array];
  src.param = unsigned(*array);
  // An array the kernel writes elements of (tileas.global_store): its base.
  if (auto memref = dyn_cast<MemRefType>(arg.getType());
      memref && !shape && !stride) {
    if (memref.getElementType() != p.dtype)
      return fail("its element type differs from array " + Twine(*array) +
                  "'s");
    src.kind = ArgSource::Kind::Pointer;
    return src;
  }
  if (isDesc != !(shape || stride))
    return fail(isDesc ? "a tma_desc is made from a whole array ({array = K})"
                       : "an index or scalar argument needs `shape` or "
                         "`stride`");
  if (isDesc) {
    auto desc = cast<tileas::TmaDescType>(arg.getType());
    if (int64_t(desc.getRank()) != p.rank || desc.getElementType() != p.dtype)
      return fail("its descriptor's rank and element type differ from "
                  "array " +
                  Twine(*array) + "'s");
    src.kind = ArgSource::Kind::Tensor;
    return src;
  }
  src.kind = shape ? ArgSource::Kind::Shape : ArgSource::Kind::Stride;
  src.dim = shape ? *shape : *stride;
  if (src.dim < 0 || src.dim >= p.rank)
    return fail("array " + Twine(*array) + " has no dimension " +
                Twine(src.dim));
  return src;
}

/// Names each parameter the lowering left unnamed after the first argument
/// it feeds, else paramK.
void nameParams(func::FuncOp func, const std::vector<ArgSource> &sources,
                std::vector<CutileParam> &params) {
  std::vector<bool> named;
  for (const CutileParam &p : params)
    named.push_back(!p.name.empty());
  for (auto [i, src] : llvm::enumerate(sources))
    if ((src.kind == ArgSource::Kind::Tensor ||
         src.kind == ArgSource::Kind::Pointer ||
         src.kind == ArgSource::Kind::Scalar) &&
        !named[src.param]) {
      params[src.param].name = parameterName(func, unsigned(i));
      named[src.param] = true;
    }
  for (auto [k, p] : llvm::enumerate(params))
    p.name = p.name.empty() ? "param" + std::to_string(k)
                            : printableName(p.name);
}

/// The table of `params` slots above the launcher.
void writeSlotComment(llvm::raw_ostream &os, const std::string &kernel,
                      const std::vector<CutileParam> &params) {
  unsigned slots =
      params.empty() ? 0 : params.back().firstSlot + params.back().slots();
  os << "\n// The cuTile launcher of " << kernel
     << " (docs/cuda-tile-launch.md): params is what\n// cuLaunchKernel "
        "would receive for tileiras's cubin (cutile_python_v1), "
     << slots << " slots:\n";
  for (auto [i, p] : llvm::enumerate(params)) {
    os << "//   [" << p.firstSlot;
    if (p.slots() > 1)
      os << ".." << p.firstSlot + p.slots() - 1;
    os << "] " << p.name << ": ";
    if (p.isArray)
      os << "array of " << cudaElementName(p.dtype) << ", rank " << p.rank
         << " (pointer, shape, strides as " << p.indexType() << ")\n";
    else
      os << scalarParamType(p.dtype) << "\n";
  }
}

/// The statements that read parameter `k` into tp_p<k>.
void writeRead(llvm::raw_ostream &os, unsigned k, const CutileParam &p) {
  std::string var = "tp_p" + std::to_string(k);
  if (p.isArray)
    os << "  tp::host::cutile::Array " << var << ";\n  if (!tp_call.array<"
       << p.indexType() << ">(" << k << ", " << p.firstSlot << ", " << p.rank
       << ", \"" << p.name << "\", " << var << "))\n";
  else
    os << "  " << scalarParamType(p.dtype) << " " << var
       << ";\n  if (!tp_call.scalar(" << p.firstSlot << ", \"" << p.name
       << "\", " << var << "))\n";
  os << "    return tp_call.refused();\n";
}

/// The expression argument `i` of tp_launch_<kernel> is passed, after the
/// statements that make it.
std::string writeArgument(llvm::raw_ostream &os, func::FuncOp func, unsigned i,
                          const ArgSource &src,
                          const std::vector<CutileParam> &params) {
  std::string param = "tp_p" + std::to_string(src.param);
  BlockArgument arg = func.getArgument(i);
  if (src.kind == ArgSource::Kind::Tensor) {
    std::string var = "tp_t" + std::to_string(i);
    auto desc = cast<tileas::TmaDescType>(arg.getType());
    os << "  tp::host::Tensor " << var << ";\n  if (!tp_call.tensor("
       << src.param << ", " << param << ", sizeof("
       << cudaElementName(desc.getElementType()) << "), \""
       << params[src.param].name << "\", " << var
       << "))\n    return tp_call.refused();\n";
    return var;
  }
  if (src.kind == ArgSource::Kind::Pointer)
    return "(" +
           cudaElementName(cast<MemRefType>(arg.getType()).getElementType()) +
           " *)" + param + ".data";
  std::string type = hostScalarType(arg.getType());
  if (src.kind == ArgSource::Kind::Scalar)
    return "(" + type + ")" + param;
  return "(" + type + ")" + param +
         (src.kind == ArgSource::Kind::Shape ? ".shape[" : ".strides[") +
         std::to_string(src.dim) + "]";
}

void writeCutileLauncher(llvm::raw_ostream &os, func::FuncOp func,
                         const std::string &kernel,
                         const std::vector<CutileParam> &params,
                         const std::vector<ArgSource> &sources) {
  writeSlotComment(os, kernel, params);
  os << "#include <tilepipe/host/cutile.cuh>\n"
     << "extern \"C\" cudaError_t " << kernel
     << "_launch(dim3 tp_grid, cudaStream_t tp_stream,\n"
     << "    void **tp_params) {\n"
     << "  tp::host::cutile::Call tp_call(\"" << kernel << "\", tp_params);\n";
  for (auto [k, p] : llvm::enumerate(params))
    writeRead(os, unsigned(k), p);
  std::vector<std::string> args;
  for (auto [i, src] : llvm::enumerate(sources))
    args.push_back(writeArgument(os, func, unsigned(i), src, params));
  os << "  return tp_call.finish(tp_launch_" << kernel << "(";
  for (const std::string &a : args)
    os << a << ", ";
  os << "tp_grid,\n      tp_call.options(tp_stream)));\n}\n"
     << "extern \"C\" const char *" << kernel << "_launch_error(void) {\n"
     << "  return tp::host::cutile::lastError().c_str();\n}\n";
}

} // namespace

FailureOr<std::string> cuda::emitCutileLauncher(func::FuncOp func,
                                                const KernelLayout &layout) {
  Attribute attr = func->getAttr(kCutileParamsAttr);
  if (!attr)
    return std::string();
  auto list = dyn_cast<ArrayAttr>(attr);
  if (!list)
    return emitError(func.getLoc())
               << kCutileParamsAttr << " must be an array of dictionaries",
           failure();
  FailureOr<std::vector<CutileParam>> params = readParams(func, list);
  if (failed(params))
    return failure();
  std::vector<ArgSource> sources;
  for (BlockArgument arg : func.getArguments()) {
    FailureOr<ArgSource> src = readSource(func, arg, *params);
    if (failed(src))
      return failure();
    if (src->kind != ArgSource::Kind::Tensor &&
        src->kind != ArgSource::Kind::Pointer &&
        hostScalarType(arg.getType()).empty())
      return emitError(arg.getLoc())
                 << "kernel parameter '"
                 << parameterName(func, arg.getArgNumber()) << "' of type "
                 << arg.getType() << " has no host form",
             failure();
    sources.push_back(*src);
  }
  nameParams(func, sources, *params);
  std::string text;
  llvm::raw_string_ostream os(text);
  writeCutileLauncher(os, func, layout.name, *params, sources);
  return text;
}
