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

#ifndef TILEPIPE_CUDA_IDENTIFIERS_H
#define TILEPIPE_CUDA_IDENTIFIERS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilepipe::cuda {

/// A letter, then letters, digits and single underscores; not a C++
/// keyword, a CUDA built-in, a standard type or function the kernels see,
/// a name with no lowercase letter (the macros' convention), nor one that
/// starts with the prefixes the emitted code and the mangling own (tp_,
/// tpk, TILEPIPE, cuda, or cu followed by an uppercase letter).
bool isPlainIdentifier(llvm::StringRef name);

/// `name` when it is a plain identifier; otherwise "tpk" followed by the
/// name's bytes, letters and digits as they are and every other byte as
/// '_' and two lowercase hex digits ("x y" -> "tpkx_20y", "main" ->
/// "tpkmain"). Distinct names stay distinct, and the result is a plain
/// identifier's shape with no double underscore.
std::string kernelIdentifier(llvm::StringRef name);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_IDENTIFIERS_H
