//===- emulator/fault.h - a broken ISA rule ---------------------*- C++ -*-===//
//
// The data path reports every rule of the PTX ISA or the driver API that an
// emulated kernel breaks by throwing Fault. The message starts with the
// instruction family ("tma: ", "mma: ", ...) and names the rule; the thread
// runtime adds the thread and the source location.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_FAULT_H
#define TILEPIPE_EMULATOR_FAULT_H

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace tp::cpu {

struct Fault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Throws Fault; a translation unit built without exceptions (LLVM style)
/// prints the message and aborts instead.
[[noreturn]] inline void fault(const std::string &message) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  throw Fault(message);
#else
  std::fprintf(stderr, "tilepipe cpu fault: %s\n", message.c_str());
  std::abort();
#endif
}

} // namespace tp::cpu

#endif // TILEPIPE_EMULATOR_FAULT_H
