//===- Identifiers.cpp ----------------------------------------------------===//

#include "cuda/analysis/Identifiers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace tilepipe;
using llvm::StringRef;

static const llvm::StringSet<> &takenNames() {
  static const llvm::StringSet<> names = {
      // C++20 keywords and alternative tokens.
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
      "bool", "break", "case", "catch", "char", "char8_t", "char16_t",
      "char32_t", "class", "compl", "concept", "const", "consteval",
      "constexpr", "constinit", "const_cast", "continue", "co_await",
      "co_return", "co_yield", "decltype", "default", "delete", "do", "double",
      "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false",
      "float", "for", "friend", "goto", "if", "inline", "int", "long",
      "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
      "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof",
      "static", "static_assert", "static_cast", "struct", "switch", "template",
      "this", "thread_local", "throw", "true", "try", "typedef", "typeid",
      "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
      "wchar_t", "while", "final", "override", "import", "module",
      // CUDA built-ins and vector types the kernels may see.
      "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3",
      "half", "half2", "nv_bfloat16", "nv_bfloat162", "float2", "float4",
      "int2", "int4", "uint2", "uint4",
      // The host and device library names the emitted code and its headers
      // use, and the launcher's own.
      "main", "argc", "argv", "std", "tp", "size_t", "ptrdiff_t", "int8_t",
      "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
      "uint64_t", "uintptr_t", "intptr_t", "printf", "fprintf", "puts",
      "malloc", "calloc", "realloc", "free", "memcpy", "memset", "memcmp",
      "strlen", "strcmp", "exit", "abort", "assert", "errno", "fabsf", "expf",
      "exp2f", "logf", "sqrtf", "fmaxf", "fminf", "max", "min", "abs",
      // Macros of the C and C++ headers the kernels include.
      "NULL", "EOF", "INFINITY", "NAN", "HUGE_VAL", "HUGE_VALF", "BUFSIZ",
      "FILENAME_MAX", "RAND_MAX", "stdin", "stdout", "stderr", "offsetof",
      "va_list", "va_start", "va_end", "va_arg", "va_copy", "MB_LEN_MAX",
      "TMP_MAX", "FOPEN_MAX", "CLOCKS_PER_SEC", "L_tmpnam", "MB_CUR_MAX"};
  return names;
}

bool cuda::isPlainIdentifier(StringRef name) {
  if (name.empty() || !llvm::isAlpha(name.front()) ||
      !llvm::all_of(name,
                    [](char c) { return llvm::isAlnum(c) || c == '_'; }) ||
      name.contains("__") || takenNames().contains(name))
    return false;
  // Prefixes owned by the emitted code, the mangling, CUDA, and the macro
  // families of <climits>, <cstdint>, <cfloat>, <cmath>, <cstdio>,
  // <cstdlib>, <cerrno>, <csignal> and <cinttypes>.
  static const char *const ownedPrefixes[] = {
      "tp_",   "tpk",   "TILEPIPE", "cuda",  "CUDA",    "CU_",   "CUB",
      "NV",    "M_",    "FLT_",     "DBL_",  "LDBL_",   "SEEK_", "EXIT_",
      "FP_",   "SIG",   "PRI",      "SCN",   "INT",     "UINT",  "LONG",
      "ULONG", "LLONG", "ULLONG",   "SCHAR", "UCHAR",   "CHAR_", "SHRT",
      "USHRT", "WCHAR", "WINT",     "SIZE_", "PTRDIFF", "MATH_"};
  for (const char *prefix : ownedPrefixes)
    if (name.starts_with(prefix))
      return false;
  // The driver API (cuLaunchKernel) and the errno codes (EINVAL).
  if (name.size() > 2 && name.starts_with("cu") && llvm::isUpper(name[2]))
    return false;
  if (name.size() > 1 && name.front() == 'E' && llvm::isUpper(name[1]))
    return false;
  return true;
}

std::string cuda::kernelIdentifier(StringRef name) {
  if (isPlainIdentifier(name))
    return name.str();
  std::string out = "tpk";
  for (unsigned char c : name) {
    if (llvm::isAlnum(c)) {
      out += char(c);
      continue;
    }
    out += '_';
    out += llvm::hexdigit(c >> 4, /*LowerCase=*/true);
    out += llvm::hexdigit(c & 15, /*LowerCase=*/true);
  }
  return out;
}
