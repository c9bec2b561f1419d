//===- Parallel.cpp - a small blocking thread pool for the relaxation -----===//

#include "scheduler/gaus/Parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

using namespace tilepipe::gaus;

namespace {

class Pool {
public:
  explicit Pool(unsigned workers) {
    for (unsigned w = 0; w < workers; ++w)
      threads.emplace_back([this] { work(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    wake.notify_all();
    for (std::thread &t : threads)
      t.join();
  }
  unsigned size() const { return threads.size() + 1; }

  void run(size_t n, size_t grain,
           llvm::function_ref<void(size_t, size_t)> fn) {
    size_t chunks = (n + grain - 1) / grain;
    {
      std::lock_guard<std::mutex> lock(mutex);
      job = fn;
      jobN = n;
      jobGrain = grain;
      next.store(0);
      remaining = chunks;
      ++generation;
    }
    wake.notify_all();
    take();
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return remaining == 0; });
  }

private:
  /// Runs chunks of the current job until none is left.
  void take() {
    size_t finished = 0;
    for (;;) {
      size_t c = next.fetch_add(1);
      size_t begin = c * jobGrain;
      if (begin >= jobN)
        break;
      job(begin, std::min(jobN, begin + jobGrain));
      ++finished;
    }
    if (finished) {
      std::lock_guard<std::mutex> lock(mutex);
      remaining -= finished;
      if (remaining == 0)
        done.notify_all();
    }
  }
  void work() {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return stopping || generation != seen; });
        if (stopping)
          return;
        seen = generation;
      }
      take();
    }
  }

  std::vector<std::thread> threads;
  std::mutex mutex;
  std::condition_variable wake, done;
  llvm::function_ref<void(size_t, size_t)> job;
  size_t jobN = 0, jobGrain = 1;
  std::atomic<size_t> next{0};
  size_t remaining = 0;
  uint64_t generation = 0;
  bool stopping = false;
};

unsigned wanted = 0;
std::mutex poolMutex;

Pool &pool() {
  static Pool *instance = nullptr;
  static unsigned built = 0;
  unsigned threads = getThreads();
  if (!instance || built != threads) {
    delete instance;
    instance = new Pool(threads - 1);
    built = threads;
  }
  return *instance;
}

} // namespace

void tilepipe::gaus::setThreads(unsigned threads) {
  std::lock_guard<std::mutex> lock(poolMutex);
  wanted = threads;
}

unsigned tilepipe::gaus::getThreads() {
  if (wanted)
    return wanted;
  return std::max(1u, std::thread::hardware_concurrency());
}

void tilepipe::gaus::parallelFor(size_t n, size_t grain, bool parallel,
                                 llvm::function_ref<void(size_t, size_t)> fn) {
  grain = std::max<size_t>(1, grain);
  if (!parallel || n <= grain || getThreads() == 1) {
    if (n)
      fn(0, n);
    return;
  }
  // One job at a time: the relaxation's passes are sequential anyway.
  std::lock_guard<std::mutex> lock(poolMutex);
  pool().run(n, grain, fn);
}
