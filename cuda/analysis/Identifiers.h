//===- Identifiers.h - C++ names for MLIR names -----------------*- C++ -*-===//
//
// A function's symbol becomes the kernel's name and each argument's name a
// parameter of the kernel and the launcher. MLIR allows any string there
// (`@"x y"`, `@main`, `@int`); C++ does not, and some C++ names are taken by
// the language, CUDA or the emitted code. A name that is a plain identifier
// (below) is kept; any other is mangled, injectively (docs/cuda.md, "Kernel
// names").
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_ANALYSIS_IDENTIFIERS_H
#define TILEPIPE_CUDA_ANALYSIS_IDENTIFIERS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilepipe::cuda {

/// A letter, then letters, digits and single underscores; not a C++
/// keyword, a CUDA built-in, a standard type, function or macro the kernels
/// see, nor a name that starts with a prefix the emitted code, the mangling,
/// CUDA or the standard headers' macro families own (tp_, tpk, TILEPIPE,
/// cuda, CU_, NV, INT, FLT_, E followed by a capital, ...).
bool isPlainIdentifier(llvm::StringRef name);

/// `name` when it is a plain identifier; otherwise "tpk" followed by the
/// name's bytes, letters and digits as they are and every other byte as
/// '_' and two lowercase hex digits ("x y" -> "tpkx_20y", "main" ->
/// "tpkmain"). Distinct names stay distinct, and the result is a plain
/// identifier's shape with no double underscore.
std::string kernelIdentifier(llvm::StringRef name);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_ANALYSIS_IDENTIFIERS_H
