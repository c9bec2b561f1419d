//===- emulator/srcloc.h - where an atom was called from --------*- C++ -*-===//
//
// Reports name the kernel line a thread is blocked or faulted at. The tp::
// runtime takes a SrcLoc default argument initialised with TP_CPU_HERE, so
// the location is that of the emitted kernel's call, and hands it to
// tp::cpu::set_loc before each atom.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_SRCLOC_H
#define TILEPIPE_EMULATOR_SRCLOC_H

namespace tp::cpu {

struct SrcLoc {
  const char *file = nullptr;
  int line = 0;

  /// The builtins, as default arguments of a function used in a default
  /// argument, evaluate at the outermost call site (like
  /// std::source_location, which C++17 lacks).
  static constexpr SrcLoc current(const char *file = __builtin_FILE(),
                                  int line = __builtin_LINE()) {
    return SrcLoc{file, line};
  }
};

} // namespace tp::cpu

#define TP_CPU_HERE (::tp::cpu::SrcLoc::current())

#endif // TILEPIPE_EMULATOR_SRCLOC_H
