//===- ThreadCpuClock.h - the calling thread's CPU time --------*- C++ -*-===//
//
// A std::chrono clock over the calling thread's CPU time. The schedulers'
// safety nets (time-limit-ms, the exact check's and --prove-optimal's
// timeouts) count it instead of wall-clock time, so another program's load
// on the machine does not move where they fire: a loaded machine gives the
// compiling thread fewer cycles a second, and the net waits for the same
// cycles. Only a slower machine moves it, and the output says when it fired.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SUPPORT_THREADCPUCLOCK_H
#define TILEPIPE_SUPPORT_THREADCPUCLOCK_H

#include <chrono>
#include <ctime>

namespace tilepipe {

struct ThreadCpuClock {
  using duration = std::chrono::nanoseconds;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::time_point<ThreadCpuClock>;
  static constexpr bool is_steady = true;

  static time_point now() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return time_point(std::chrono::seconds(ts.tv_sec) +
                      std::chrono::nanoseconds(ts.tv_nsec));
  }
};

} // namespace tilepipe

#endif // TILEPIPE_SUPPORT_THREADCPUCLOCK_H
