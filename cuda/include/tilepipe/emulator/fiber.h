//===- emulator/fiber.h - emulated threads' stacks, switches ----*- C++ -*-===//
//
// Every CUDA thread of a CTA runs as a fiber: its own stack, switched to and
// from the scheduler cooperatively on the OS thread that called launch().
// ucontext is the portable glibc way to start a function on a new stack;
// its cost (a sigprocmask per switch) is small next to the work between
// switches.
//
// Stacks are mmap'ed with an inaccessible guard page below them, so that a
// kernel whose per-thread arrays overflow the stack crashes at once instead
// of overwriting the neighbouring thread's stack.
//
// Under AddressSanitizer every switch is announced to it, so that a kernel
// can be checked for memory errors while it runs on fibers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_FIBER_H
#define TILEPIPE_EMULATOR_FIBER_H

#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define TP_CPU_ASAN_FIBERS 1
#else
#define TP_CPU_ASAN_FIBERS 0
#endif

namespace tp::cpu::rt {

class FiberStack {
public:
  explicit FiberStack(size_t bytes) {
    page = size_t(sysconf(_SC_PAGESIZE));
    usable = (bytes + page - 1) / page * page;
    void *p = mmap(nullptr, usable + page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw std::bad_alloc();
    mapping = static_cast<char *>(p);
    // Stacks grow down: the guard is the lowest page.
    if (mprotect(mapping, page, PROT_NONE) != 0) {
      munmap(mapping, usable + page);
      throw std::runtime_error("tp::cpu: cannot protect a stack guard page");
    }
  }
  FiberStack(const FiberStack &) = delete;
  FiberStack &operator=(const FiberStack &) = delete;
  ~FiberStack() { munmap(mapping, usable + page); }

  void *base() const { return mapping + page; }
  size_t size() const { return usable; }

private:
  char *mapping = nullptr;
  size_t usable = 0;
  size_t page = 0;
};

/// A suspended execution context. start() prepares `entry` to run on
/// `stack` at the first switch to it; entry must call entered() first and
/// must never return (it switches away for the last time instead).
class Fiber {
public:
  void start(FiberStack &stack, void (*entry)()) {
    if (getcontext(&context) != 0)
      throw std::runtime_error("tp::cpu: getcontext failed");
    context.uc_stack.ss_sp = stack.base();
    context.uc_stack.ss_size = stack.size();
    context.uc_link = nullptr;
    makecontext(&context, entry, 0);
    bottom = stack.base();
    size = stack.size();
  }

  /// Saves the running context into `from` and resumes `to`; `final` when
  /// `from` will never be resumed.
  static void switchTo(Fiber &from, Fiber &to, bool final = false) {
#if TP_CPU_ASAN_FIBERS
    __sanitizer_start_switch_fiber(final ? nullptr : &from.fakeStack, to.bottom,
                                   to.size);
#else
    (void) final;
#endif
    if (swapcontext(&from.context, &to.context) != 0)
      throw std::runtime_error("tp::cpu: swapcontext failed");
#if TP_CPU_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(from.fakeStack, nullptr, nullptr);
#endif
  }

  /// The first thing a fiber's entry does: completes the switch from
  /// `caller`, whose stack bounds the sanitizer then tells us.
  static void entered(Fiber &caller) {
#if TP_CPU_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(nullptr, &caller.bottom, &caller.size);
#else
    (void)caller;
#endif
  }

private:
  ucontext_t context;
  const void *bottom = nullptr;
  size_t size = 0;
  void *fakeStack = nullptr;
};

} // namespace tp::cpu::rt

#endif // TILEPIPE_EMULATOR_FIBER_H
