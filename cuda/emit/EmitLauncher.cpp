//===- EmitLauncher.cpp - a kernel's host launcher and main ---------------===//
//
// Host code, written as text: it is ordinary C++ around three calls into
// tilepipe/host/ (encodeTma, launch, and the main's Args), which is where
// the GPU and CPU modes differ, so none of it needs EmitC's checking.
//
//===----------------------------------------------------------------------===//

#include "cuda/emit/EmitLauncher.h"

#include "cuda/analysis/CudaTypes.h"
#include "cuda/analysis/Identifiers.h"

#include "ir/TileASDialect.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

std::string cuda::parameterName(func::FuncOp func, unsigned index) {
  if (auto name = func.getArgAttrOfType<StringAttr>(index, "tileas.name"))
    return name.getValue().str();
  if (auto loc = dyn_cast<NameLoc>(func.getArgument(index).getLoc()))
    return loc.getName().getValue().str();
  return "arg" + std::to_string(index);
}

namespace {

/// How one kernel parameter crosses from the host.
struct Param {
  /// Pointer: an array the threads read or write elements of (global_store,
  /// global_gather, global_scatter), passed as its base pointer; the main
  /// reads it in or writes it out as a tensor's.
  enum class Kind { Tensor, Array, Pointer, Scalar };
  Kind kind = Kind::Scalar;
  std::string name;  ///< On the command line.
  std::string ident; ///< In C++.
  std::string type;  ///< Scalar: its C++ type; Array: the element type.
  const TileLayout *tile = nullptr; ///< Tensor: what its TMAs move.
  std::string tileType;             ///< Tensor: the layout's C++ type.
  /// Tensor: its box's unit dimensions between the tile's, innermost first.
  unsigned unitDims = 0;
  int rank = 0;
  std::vector<int64_t> shape; ///< Array: the static shape.
  bool loaded = false, stored = false, scales = false;
};

} // namespace

std::string cuda::hostScalarType(Type t) {
  if (t.isIndex())
    return "int64_t";
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.getWidth() == 1)
      return "bool";
    if (i.getWidth() == 8 || i.getWidth() == 16 || i.getWidth() == 32 ||
        i.getWidth() == 64)
      return (i.isUnsigned() ? "uint" : "int") + std::to_string(i.getWidth()) +
             "_t";
  }
  if (t.isF32())
    return "float";
  if (t.isF64())
    return "double";
  return "";
}

namespace {

/// The unit dimensions of a box that lie between the tile's (not its
/// leading batch of one), as a mask innermost first: the tile lands without
/// them (frontend/cutile, smemTileOf), so the map's box needs them named.
unsigned interiorUnitDims(ArrayRef<int64_t> box) {
  unsigned mask = 0;
  size_t lead = 0;
  while (lead < box.size() && box[lead] == 1)
    ++lead;
  for (size_t d = lead; d + 1 < box.size(); ++d)
    if (box[d] == 1)
      mask |= 1u << (box.size() - 1 - d);
  return mask;
}

FailureOr<std::vector<Param>> collectParams(func::FuncOp func,
                                            const KernelLayout &layout) {
  std::vector<Param> params;
  llvm::StringSet<> seen;
  for (BlockArgument arg : func.getArguments()) {
    Param p;
    p.name = parameterName(func, arg.getArgNumber());
    // tp_ names are never plain, so the fallback meets no other parameter.
    p.ident = isPlainIdentifier(p.name) && p.name != layout.name
                  ? p.name
                  : "tp_arg" + std::to_string(arg.getArgNumber());
    if (!seen.insert(p.name).second)
      return emitError(arg.getLoc())
                 << "two kernel parameters are named '" << p.name << "'",
             failure();
    Type t = arg.getType();
    if (auto desc = dyn_cast<tileas::TmaDescType>(t)) {
      p.kind = Param::Kind::Tensor;
      p.tile = layout.tiles.ofDesc(arg);
      p.rank = int(desc.getRank());
      p.type = cudaElementName(desc.getElementType());
      p.unitDims = interiorUnitDims(desc.getShape());
      if (p.tile) {
        p.tileType = p.tile->cppType;
      } else {
        // No TMA uses it: the box as the descriptor type states it.
        p.tileType = "tp::DenseTile<" + p.type;
        for (int64_t d : desc.getShape())
          p.tileType += ", " + std::to_string(d);
        p.tileType += ">";
      }
      for (Operation *user : arg.getUsers()) {
        p.loaded |= isa<tileas::TmaLoadOp>(user);
        p.stored |= isa<tileas::TmaStoreOp>(user);
      }
      // Block-scale factors in their atom form: a logical [rows][K / 32]
      // .npy is packed by the main.
      p.scales = p.rank == 3 && desc.getElementType().isUnsignedInteger(8) &&
                 desc.getDimSize(2) == 16 && desc.getDimSize(1) % 32 == 0;
    } else if (auto memref = dyn_cast<MemRefType>(t);
               memref && memref.getRank() >= 1 &&
               llvm::all_of(memref.getShape(), ShapedType::isDynamic)) {
      p.kind = Param::Kind::Pointer;
      p.type = cudaElementName(memref.getElementType());
      p.rank = int(memref.getRank());
      // Read by threads (a gather) it is an input; written, an output.
      for (Operation *user : arg.getUsers()) {
        // An atomic combine reads what the array holds.
        auto scatter = dyn_cast<tileas::GlobalScatterOp>(user);
        p.loaded |= isa<tileas::GlobalGatherOp, tileas::GlobalLoadOp>(user) ||
                    (scatter && scatter.getCombine());
        p.stored |= isa<tileas::GlobalStoreOp, tileas::GlobalScatterOp>(user);
      }
    } else if (auto shaped = dyn_cast<ShapedType>(t);
               shaped && isa<MemRefType, RankedTensorType>(t) &&
               shaped.hasStaticShape()) {
      p.kind = Param::Kind::Array;
      p.type = cudaElementName(shaped.getElementType());
      p.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
    } else {
      p.kind = Param::Kind::Scalar;
      p.type = hostScalarType(t);
    }
    if (p.type.empty())
      return emitError(arg.getLoc())
                 << "a kernel parameter of type " << t
                 << " has no host form in the launcher",
             failure();
    params.push_back(p);
  }
  return params;
}

std::string shapeList(ArrayRef<int64_t> shape) {
  std::string s = "{";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "}";
}

void writeLauncher(llvm::raw_ostream &os, const std::string &kernel,
                   const KernelLayout &layout,
                   const std::vector<Param> &params) {
  os << "\n// The host launcher of " << kernel
     << " (docs/cuda.md, \"The launcher\"): a tensor map\n// per tma_desc "
        "parameter, for the tile layout its TMAs move, then the launch.\n";
  for (const Param &p : params)
    if (p.kind == Param::Kind::Tensor) {
      os << "//   " << p.name << ": " << p.tileType;
      if (p.tile)
        os << ", " << p.tile->boxes << (p.tile->boxes == 1 ? " box" : " boxes")
           << " of " << p.tile->bytes / p.tile->boxes << " B, "
           << p.tile->tmaSwizzle();
      os << "\n";
    }
  os << "#include <tilepipe/host/launch.cuh>\n"
     << "inline tp::host::Status tp_launch_" << kernel << "(";
  for (const Param &p : params) {
    if (p.kind == Param::Kind::Tensor)
      os << "const tp::host::Tensor &" << p.ident << ", ";
    else if (p.kind == Param::Kind::Array)
      os << "const " << p.type << " *" << p.ident << ", ";
    else if (p.kind == Param::Kind::Pointer)
      os << p.type << " *" << p.ident << ", ";
    else
      os << p.type << " " << p.ident << ", ";
  }
  os << "dim3 tp_grid,\n    const tp::host::LaunchOptions &tp_options = "
        "tp::host::LaunchOptions()) {\n"
     << "  tp::host::Status tp_status;\n";
  for (const Param &p : params)
    if (p.kind == Param::Kind::Tensor)
      os << "  tp::TmaDesc tp_map_" << p.ident << ";\n"
         << "  tp_status = tp::host::encodeTma<" << p.tileType << ">(tp_map_"
         << p.ident << ", " << p.ident << ", \"" << p.name << "\""
         << (p.unitDims ? ", " + std::to_string(p.unitDims) + "u" : "")
         << ");\n"
         << "  if (!tp_status.ok)\n    return tp_status;\n";
  // A persistent kernel covers tp_grid's tiles with the CTAs it gets; one
  // that counts its own tiles is launched on tp_grid's CTAs.
  bool gridOfTiles = layout.persistent && !layout.tileCount;
  os << "  return tp::host::launch(" << kernel << ", "
     << (gridOfTiles ? "tp::host::persistentGrid(tp_grid, tp_options)"
                     : "tp_grid")
     << ", dim3(" << layout.threads() << "), sizeof(tp_smem_" << kernel
     << "), tp_options";
  for (const Param &p : params)
    os << ", " << (p.kind == Param::Kind::Tensor ? "tp_map_" : "") << p.ident;
  if (gridOfTiles)
    os << ", (int64_t)tp_grid.x, (int64_t)tp_grid.y, (int64_t)tp_grid.z";
  os << ");\n}\n";
}

void writeMain(llvm::raw_ostream &os, const std::string &kernel,
               const std::vector<Param> &params) {
  os << "\n// Under -DTILEPIPE_MAIN: " << kernel
     << " NAME=in.npy ... NAME=value ... --out NAME=out.npy\n"
        "//   --shape NAME=R,C [--grid X[,Y[,Z]]] [--seed S] "
        "(docs/cuda.md, \"The main\").\n"
     << "#if defined(TILEPIPE_MAIN)\n#include <tilepipe/host/main.cuh>\n"
     << "int main(int argc, char **argv) {\n"
     << "  tp::host::Args tp_args(argc, argv, {";
  for (auto [i, p] : llvm::enumerate(params))
    os << (i ? ", " : "") << "\"" << p.name << "\"";
  os << "});\n  if (!tp_args.ok())\n    return tp_args.usage(\"" << kernel
     << "\");\n";
  for (const Param &p : params) {
    std::string v = "tp_" + p.ident;
    if (p.kind == Param::Kind::Scalar) {
      os << "  " << p.type << " " << v << " = 0;\n  if (!tp_args.scalar(\""
         << p.name << "\", " << v << "))\n    return 2;\n";
      continue;
    }
    os << "  tp::host::Array<" << p.type << "> " << v << ";\n  if (!tp_args.";
    if (p.kind == Param::Kind::Array)
      os << "input(\"" << p.name << "\", " << shapeList(p.shape) << ", " << v;
    else if (p.stored)
      os << "output(\"" << p.name << "\", " << p.rank << ", " << v;
    else
      os << "input(\"" << p.name << "\", " << p.rank << ", "
         << (p.scales ? "true" : "false") << ", " << v;
    os << "))\n    return 2;\n";
  }
  std::string call;
  llvm::raw_string_ostream cs(call);
  cs << "tp_launch_" << kernel << "(";
  for (const Param &p : params) {
    std::string v = "tp_" + p.ident;
    if (p.kind == Param::Kind::Tensor)
      cs << v << ".tensor(), ";
    else if (p.kind == Param::Kind::Array)
      cs << v << ".data(), ";
    else if (p.kind == Param::Kind::Pointer)
      cs << "const_cast<" << p.type << " *>(" << v << ".data()), ";
    else
      cs << v << ", ";
  }
  cs << "tp_args.grid(), tp_args.options())";
  os << "  tp::host::Status tp_status = tp::host::finish(" << call << ");\n"
     << "  if (!tp_status.ok) {\n"
     << "    std::fprintf(stderr, \"" << kernel
     << ": %s\\n\", tp_status.report.c_str());\n    return 1;\n  }\n"
     // --repeat N: N more launches after the checked one above, each
     // timed, their tensors rotated (make gpu-check's TFLOP/s); the method
     // and the JSON line are host/main.cuh's, not the emitted text's.
     << "  if (!tp::host::time_launches(\"" << kernel
     << "\", tp_args, [&] { return " << call << "; }))\n    return 1;\n";
  for (const Param &p : params)
    if ((p.kind == Param::Kind::Tensor || p.kind == Param::Kind::Pointer) &&
        p.stored)
      os << "  if (!tp_args.write(\"" << p.name << "\", tp_" << p.ident
         << "))\n    return 2;\n";
  os << "  return 0;\n}\n#endif // TILEPIPE_MAIN";
}

} // namespace

FailureOr<std::string> cuda::emitLauncher(func::FuncOp func,
                                          const KernelLayout &layout) {
  FailureOr<std::vector<Param>> params = collectParams(func, layout);
  if (failed(params))
    return failure();
  std::string text;
  llvm::raw_string_ostream os(text);
  writeLauncher(os, layout.name, layout, *params);
  writeMain(os, layout.name, *params);
  return text;
}
