//===- host/main.cuh - what a generated main calls --------------*- CUDA -*-===//
//
// Under -DTILEPIPE_MAIN a translated kernel gets a main (docs/cuda.md, "The
// main") that reads its inputs from .npy files, runs the launcher and writes
// its outputs as .npy:
//
//   kernel NAME=in.npy ... NAME=value ... --out NAME=out.npy --shape NAME=R,C
//          [--grid X[,Y[,Z]]] [--ctas N] [--seed S]
//          [--repeat N [--warmup W] [--rotate R]]
//
// A parameter is named by its MLIR name (the `tileas.name` argument
// attribute or a name location) or argN. Float32 .npy inputs are rounded to
// the kernel's element type as CUDA's conversions do (to nearest even,
// fp8 saturating to finite); uint8 .npy inputs are the raw bytes of 8-bit
// types (fp8, UE8M0 scale factors). Global rows are padded to 16 bytes, as
// TMA needs. Exit status: 0, 1 when the launch or the kernel failed (the
// emulator's fault or deadlock report, or the CUDA error, on stderr), 2 on
// a usage or file error. --repeat N times N more launches (time_launches).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_HOST_MAIN_CUH
#define TILEPIPE_HOST_MAIN_CUH

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "tilepipe/host/launch.cuh"

#include "tilepipe/emulator/outline.h"
#include "tilepipe/host/npy.h"
#include <chrono>

namespace tp::host {

//===----------------------------------------------------------------------===//
// Element conversions, as CUDA rounds
//===----------------------------------------------------------------------===//

template <class T> T fromFloat(float x) {
  using tp::detail::kSame;
  if constexpr (kSame<T, float>)
    return x;
  else if constexpr (kSame<T, __nv_bfloat16>)
    return __float2bfloat16_rn(x);
  else if constexpr (kSame<T, __half>)
    return __float2half_rn(x);
  else if constexpr (kSame<T, int32_t>)
    return int32_t(std::nearbyint(x));
  else if constexpr (kSame<T, uint8_t>)
    return uint8_t(std::fmin(std::fmax(std::nearbyint(x), 0.0f), 255.0f));
  else if constexpr (kSame<T, int8_t>)
    return int8_t(std::fmin(std::fmax(std::nearbyint(x), -128.0f), 127.0f));
  else if constexpr (kSame<T, int16_t>)
    return int16_t(
        std::fmin(std::fmax(std::nearbyint(x), -32768.0f), 32767.0f));
  else
    return T(x); // fp8: round to nearest even, saturating to finite
}

template <class T> float toFloat(T x) {
  using tp::detail::kSame;
  if constexpr (kSame<T, float>)
    return x;
  else if constexpr (kSame<T, int32_t> || kSame<T, uint8_t> ||
                     kSame<T, int8_t> || kSame<T, int16_t>)
    return float(x);
  else
    return static_cast<float>(x);
}

//===----------------------------------------------------------------------===//
// Arrays in global memory
//===----------------------------------------------------------------------===//

/// One tensor the kernel reads or writes: a host copy with rows padded to
/// 16 bytes and its global-memory twin (the same memory under
/// TILEPIPE_CPU).
template <class T> class Array {
public:
  Array() = default;
  Array(const Array &) = delete;
  Array &operator=(const Array &) = delete;
  ~Array() { release(); }

  /// Allocates `shape` (outermost first), zero-filled.
  bool allocate(const std::vector<int64_t> &shape, std::string &err) {
    release();
    shape_ = shape;
    strides_.assign(shape.size(), 1);
    int64_t inner = shape.empty() ? 1 : shape.back();
    int64_t perChunk = int64_t(16 / sizeof(T));
    int64_t pitch = (inner + perChunk - 1) / perChunk * perChunk;
    int64_t stride = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      strides_[i] = stride;
      stride *= i + 1 == shape.size() ? pitch : shape[i];
    }
    elements_ = shape.empty() ? 1 : stride;
    host_.assign(size_t(elements_), fromFloat<T>(0.0f));
    device_ = deviceAllocate(err);
    return device_ != nullptr;
  }

  /// Gives the timed launches (--rotate) `sets` copies of their own, each
  /// filled from the host copy (the inputs, or an output's initial
  /// contents): while `*turn` >= 0, tensor() and data() return copy
  /// `*turn % sets`, so a launch does not find its operands in L2 from the
  /// launch before, and the checked launch's outputs stay what --out writes.
  bool rotate(int sets, const int *turn, std::string &err) {
    for (int i = 0; i < sets; ++i) {
      void *copy = deviceAllocate(err);
      if (!copy)
        return false;
      copies_.push_back(copy);
      if (!copyIn(copy, err))
        return false;
    }
    turn_ = turn;
    return true;
  }

  /// Fills the host copy from `npy` (same number of elements, or a packer's
  /// output), converting float32 or taking uint8 or int8 bytes as they are.
  bool fill(const NpyArray &npy, std::string &err) {
    int64_t dense = 1;
    for (int64_t d : shape_)
      dense *= d;
    if (npy.count() != dense) {
      err = "holds " + std::to_string(npy.count()) + " elements, the " +
            "tensor " + std::to_string(dense);
      return false;
    }
    bool f32 = npy.descr == "<f4";
    bool u8 = npy.descr == "|u1" || npy.descr == "<u1" || npy.descr == "|i1" ||
              npy.descr == "<i1";
    if (!f32 && !(u8 && sizeof(T) == 1)) {
      err = "element type " + npy.descr + " is neither float32 nor (for an " +
            "8-bit tensor) uint8 or int8";
      return false;
    }
    for (int64_t i = 0; i < dense; ++i) {
      T v;
      if (f32) {
        float x;
        std::memcpy(&x, npy.data.data() + 4 * i, 4);
        v = fromFloat<T>(x);
      } else {
        std::memcpy(&v, npy.data.data() + i, 1);
      }
      host_[size_t(offset(i))] = v;
    }
    return true;
  }

  bool upload(std::string &err) { return copyIn(device_, err); }

  bool download(std::string &err) {
#if TP_EMULATOR
    std::memcpy(host_.data(), device_, bytes());
    (void)err;
    return true;
#else
    cudaError_t e =
        cudaMemcpy(host_.data(), device_, bytes(), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess)
      err = std::string("cudaMemcpy: ") + cudaGetErrorString(e);
    return e == cudaSuccess;
#endif
  }

  /// The host copy as dense float32, C order.
  std::vector<float> toF32() const {
    int64_t dense = 1;
    for (int64_t d : shape_)
      dense *= d;
    std::vector<float> out(static_cast<size_t>(dense));
    for (int64_t i = 0; i < dense; ++i)
      out[size_t(i)] = toFloat(host_[size_t(offset(i))]);
    return out;
  }

  Tensor tensor() const {
    Tensor t;
    t.data = current();
    t.rank = int(shape_.size());
    for (size_t i = 0; i < shape_.size() && i < 5; ++i) {
      t.dims[i] = shape_[i];
      t.strides[i] = strides_[i];
    }
    return t;
  }
  const T *data() const { return static_cast<const T *>(current()); }
  const std::vector<int64_t> &shape() const { return shape_; }

private:
  size_t bytes() const { return size_t(elements_) * sizeof(T); }
  /// The memory the next launch uses: a timed launch's copy (rotate), else
  /// the checked launch's.
  void *current() const {
    if (!turn_ || *turn_ < 0 || copies_.empty())
      return device_;
    return copies_[size_t(*turn_) % copies_.size()];
  }
  /// Zero-filled global memory for the tensor, or null with `err` set.
  void *deviceAllocate(std::string &err) const {
    // At least one 16-byte row even for an empty tensor: its tensor map
    // still needs an address (host/launch.cuh, encodeTma).
    size_t allocBytes = std::max<size_t>(bytes(), 16);
#if TP_EMULATOR
    // 256-byte aligned, like cudaMalloc.
    void *p = std::aligned_alloc(256, (allocBytes + 255) / 256 * 256);
    if (!p)
      err = "out of memory";
    else
      std::memset(p, 0, allocBytes);
    return p;
#else
    void *p = nullptr;
    cudaError_t e = cudaMalloc(&p, allocBytes);
    if (e == cudaSuccess)
      e = cudaMemset(p, 0, allocBytes);
    if (e != cudaSuccess) {
      err = std::string("cudaMalloc: ") + cudaGetErrorString(e);
      cudaFree(p);
      return nullptr;
    }
    return p;
#endif
  }
  static void deviceFree(void *p) {
#if TP_EMULATOR
    std::free(p);
#else
    cudaFree(p);
#endif
  }
  /// The host copy into `to` (device_ or one of copies_).
  bool copyIn(void *to, std::string &err) const {
#if TP_EMULATOR
    std::memcpy(to, host_.data(), bytes());
    (void)err;
    return true;
#else
    cudaError_t e =
        cudaMemcpy(to, host_.data(), bytes(), cudaMemcpyHostToDevice);
    if (e != cudaSuccess)
      err = std::string("cudaMemcpy: ") + cudaGetErrorString(e);
    return e == cudaSuccess;
#endif
  }
  /// Padded offset of dense element i.
  int64_t offset(int64_t i) const {
    int64_t off = 0;
    for (size_t d = shape_.size(); d-- > 0;) {
      off += (i % shape_[d]) * strides_[d];
      i /= shape_[d];
    }
    return off;
  }
  void release() {
    for (void *copy : copies_)
      deviceFree(copy);
    copies_.clear();
    turn_ = nullptr;
    if (device_)
      deviceFree(device_);
    device_ = nullptr;
  }

  std::vector<int64_t> shape_, strides_;
  std::vector<T> host_;
  int64_t elements_ = 0;
  void *device_ = nullptr;
  /// The timed launches' copies (rotate) and Args's choice among them.
  std::vector<void *> copies_;
  const int *turn_ = nullptr;
};

/// UE8M0 scale factors given logically, [rows][K / 32] bytes, packed into
/// the [rows / 128][K / 128 * 32][16] atom tensor the kernel's TMA reads
/// (layout/scale_factors.cuh); the padding is 0 (2^-127).
inline NpyArray packScaleFactors(const NpyArray &logical) {
  int64_t rows = logical.shape[0], blocks = logical.shape[1];
  int64_t rowBlocks = (rows + 127) / 128, groups = (blocks + 3) / 4;
  NpyArray out;
  out.descr = "|u1";
  out.itemBytes = 1;
  out.shape = {rowBlocks, groups * 32, 16};
  out.data.assign(size_t(out.count()), 0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < blocks; ++j) {
      int64_t at = ((r / 128) * groups * 32 + (j / 4) * 32 + r % 32) * 16 +
                   (r % 128) / 32 * 4 + j % 4;
      out.data[size_t(at)] = logical.data[size_t(r * blocks + j)];
    }
  return out;
}

/// A launch's status once the kernel has finished: on a GPU the launch is
/// asynchronous, so a fault surfaces at the synchronization.
inline Status finish(Status launched) {
#if !TP_EMULATOR
  if (launched.ok) {
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
      return failure(std::string("the kernel failed: ") +
                     cudaGetErrorString(e));
  }
#endif
  return launched;
}

//===----------------------------------------------------------------------===//
// The command line
//===----------------------------------------------------------------------===//

class Args {
public:
  /// `names`: the kernel's parameters in order (argN aliases them).
  Args(int argc, char **argv, std::vector<std::string> names);

  bool ok() const { return ok_; }
  /// Prints the error (if any) and the command line; returns 2.
  int usage(const char *kernel) const;

  dim3 grid() const { return grid_; }
  /// --repeat N: launches to time after the checked one (0: none).
  int repeat() const { return repeat_; }
  /// --warmup W: untimed launches before the timed ones.
  int warmup() const { return warmup_; }
  /// --rotate R: the sets of tensors the warm-up and timed launches take in
  /// turn, each a copy of the inputs of its own (0: the checked launch's).
  int rotate() const { return rotate_; }
  /// The next launch's tensors: set `set` % rotate(), or the checked
  /// launch's when `set` is negative (what --out writes).
  void use(int set) { turn_ = set; }
  const LaunchOptions &options() const { return options_; }

  /// An input tensor: NAME=file.npy, of `rank` dimensions (a 2-D uint8
  /// array for a 3-D scale-factor tensor is packed when `scales`).
  template <class T>
  bool input(const std::string &name, int rank, bool scales, Array<T> &out) {
    auto it = values_.find(name);
    if (it == values_.end())
      return fail(name + ": no input given (" + name + "=file.npy)");
    NpyArray npy;
    std::string err;
    if (!readNpy(it->second, npy, err))
      return fail(name + ": " + err);
    if (scales && npy.shape.size() == 2)
      npy = packScaleFactors(npy);
    if (int(npy.shape.size()) != rank)
      return fail(name + ": " + it->second + " has " +
                  std::to_string(npy.shape.size()) + " dimensions, the " +
                  "tensor " + std::to_string(rank));
    if (!out.allocate(npy.shape, err) || !out.fill(npy, err) ||
        !out.upload(err) || !rotated(out, err))
      return fail(name + ": " + it->second + ": " + err);
    return true;
  }

  /// An input of a fixed shape (a register tile or a cp.async source).
  template <class T>
  bool input(const std::string &name, const std::vector<int64_t> &shape,
             Array<T> &out) {
    if (!input(name, int(shape.size()), false, out))
      return false;
    if (out.shape() != shape)
      return fail(name + ": the array's shape is not the parameter's");
    return true;
  }

  /// An output tensor: --out NAME=file.npy --shape NAME=R,C; also read
  /// when NAME=file.npy gives its initial contents.
  template <class T> bool output(const std::string &name, int rank, Array<T> &out) {
    if (!outs_.count(name))
      return fail(name + ": no output file given (--out " + name +
                  "=file.npy)");
    if (values_.count(name))
      return input(name, rank, false, out);
    auto s = shapes_.find(name);
    if (s == shapes_.end())
      return fail(name + ": no shape given (--shape " + name + "=R,C)");
    std::vector<int64_t> shape = numbers(s->second);
    std::string err;
    if (int(shape.size()) != rank)
      return fail(name + ": --shape needs " + std::to_string(rank) +
                  " sizes");
    if (!out.allocate(shape, err) || !rotated(out, err))
      return fail(name + ": " + err);
    return true;
  }

  /// Writes an output after the kernel ran (nothing without --out).
  template <class T> bool write(const std::string &name, Array<T> &out) {
    auto it = outs_.find(name);
    if (it == outs_.end())
      return true;
    std::string err;
    if (!out.download(err))
      return fail(name + ": " + err);
    std::vector<float> f = out.toF32();
    if (!writeNpyF32(it->second, out.shape(), f.data(), err))
      return fail(name + ": " + err);
    return true;
  }

  /// A scalar parameter: NAME=value.
  template <class T> bool scalar(const std::string &name, T &out) {
    auto it = values_.find(name);
    if (it == values_.end())
      return fail(name + ": no value given (" + name + "=...)");
    char *end = nullptr;
    if constexpr (std::is_floating_point_v<T>)
      out = T(std::strtod(it->second.c_str(), &end));
    else
      out = T(std::strtoll(it->second.c_str(), &end, 0));
    if (!end || *end)
      return fail(name + ": '" + it->second + "' is not a number");
    return true;
  }

  const std::string &message() const { return message_; }

private:
  /// The timed launches' copies of a tensor, when there are timed launches
  /// and --rotate asks for copies.
  template <class T> bool rotated(Array<T> &out, std::string &err) {
    return repeat_ <= 0 || rotate_ <= 0 || out.rotate(rotate_, &turn_, err);
  }
  bool split(const std::string &kv, std::string &k, std::string &v);
  /// argN -> the N-th parameter's name.
  std::string canonical(const std::string &k) const;
  static std::vector<int64_t> numbers(const std::string &s);
  bool error(const std::string &m);
  bool fail(const std::string &m);

  std::vector<std::string> names_;
  std::map<std::string, std::string> values_, outs_, shapes_;
  dim3 grid_ = dim3(1, 1, 1);
  int repeat_ = 0;
  // 10 warm-ups as bench/gpu/cublas_gemm.cu; 4 sets as the peers'
  // bench/gpu/rotation.py.
  int warmup_ = 10, rotate_ = 4;
  /// The set the next launch's tensors come from (use()); the Arrays that
  /// rotate() read it.
  int turn_ = -1;
  LaunchOptions options_;
  bool ok_ = true;
  std::string message_;
};

/// --repeat N: the launches after the checked one, timed for make
/// gpu-check's TFLOP/s (docs/cuda.md, "The main"). Args::warmup() untimed
/// launches, then N, each timed on its own: cudaEvents around each launch
/// on a GPU, the wall clock on the CPU emulator (which says nothing of
/// speed). The launches take their tensors from Args::rotate() copies in
/// turn, so that none finds its operands in L2 from the launch before; on a
/// GPU a write of twice the L2's size also precedes each launch, outside
/// its events, as triton's do_bench (the peers' timer) does. Prints one
/// JSON line, "ms" the median of the N times; false after printing the
/// first failure.
template <class Launch>
bool time_launches(const char *kernel, Args &args, Launch launch) {
  int n = args.repeat(), warmup = args.warmup(), sets = args.rotate();
  if (n <= 0)
    return true;
  auto fail = [&](const std::string &why) {
    args.use(-1);
    std::fprintf(stderr, "%s: %s\n", kernel, why.c_str());
    return false;
  };
  std::vector<double> ms(size_t(n), 0.0);
#if TP_EMULATOR
  bool flushed = false;
  for (int i = 0; i < warmup + n; ++i) {
    args.use(sets > 0 ? i % sets : -1);
    auto start = std::chrono::steady_clock::now();
    Status s = launch();
    std::chrono::duration<double, std::milli> took =
        std::chrono::steady_clock::now() - start;
    if (!s.ok)
      return fail(s.report);
    if (i >= warmup)
      ms[size_t(i - warmup)] = took.count();
  }
  args.use(-1);
#else
  cudaStream_t stream = args.options().stream;
  int device = 0, l2 = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
  size_t flushBytes = 2 * size_t(std::max(l2, 0));
  void *flush = nullptr;
  if (e == cudaSuccess && flushBytes)
    e = cudaMalloc(&flush, flushBytes);
  std::vector<cudaEvent_t> events(size_t(2 * n), nullptr);
  for (cudaEvent_t &ev : events)
    if (e == cudaSuccess)
      e = cudaEventCreate(&ev);
  Status launched;
  for (int i = 0; i < warmup + n && e == cudaSuccess && launched.ok; ++i) {
    args.use(sets > 0 ? i % sets : -1);
    if (flush)
      e = cudaMemsetAsync(flush, 0, flushBytes, stream);
    int t = i - warmup;
    if (t >= 0 && e == cudaSuccess)
      e = cudaEventRecord(events[size_t(2 * t)], stream);
    if (e == cudaSuccess)
      launched = launch();
    if (t >= 0 && e == cudaSuccess && launched.ok)
      e = cudaEventRecord(events[size_t(2 * t + 1)], stream);
  }
  args.use(-1);
  if (e == cudaSuccess)
    launched = finish(launched);
  for (int t = 0; t < n && e == cudaSuccess && launched.ok; ++t) {
    float took = 0;
    e = cudaEventElapsedTime(&took, events[size_t(2 * t)],
                             events[size_t(2 * t + 1)]);
    ms[size_t(t)] = took;
  }
  for (cudaEvent_t ev : events)
    if (ev)
      cudaEventDestroy(ev);
  cudaFree(flush);
  if (e != cudaSuccess)
    return fail(std::string("timing: ") + cudaGetErrorString(e));
  if (!launched.ok)
    return fail(launched.report);
  bool flushed = flush != nullptr;
#endif
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  double median = n % 2
                      ? sorted[size_t(n / 2)]
                      : (sorted[size_t(n / 2 - 1)] + sorted[size_t(n / 2)]) / 2;
  double mean = 0;
  for (double x : ms)
    mean += x / n;
  std::printf("{\"kernel\": \"%s\", \"launches\": %d, \"ms\": %.4f, "
              "\"mean_ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f, "
              "\"warmup\": %d, \"rotate\": %d, \"l2_flush\": %s}\n",
              kernel, n, median, mean, sorted.front(), sorted.back(), warmup,
              sets, flushed ? "true" : "false");
  std::fflush(stdout);
  return true;
}

// Args's members that do not depend on an element type: one definition in
// the emulator library under -DTILEPIPE_EMULATOR_EXTERN (emulator/outline.h).
#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE Args::Args(int argc, char **argv, std::vector<std::string> names)
    : names_(std::move(names)) {
  for (int i = 1; i < argc && ok_; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        error("missing value after " + a);
        return "";
      }
      return argv[++i];
    };
    if (a == "--out" || a == "--shape") {
      std::string kv = next(), k, v;
      if (split(kv, k, v))
        (a == "--out" ? outs_ : shapes_)[canonical(k)] = v;
    } else if (a == "--grid") {
      std::vector<int64_t> g = numbers(next());
      if (g.empty() || g.size() > 3)
        error("--grid takes X[,Y[,Z]]");
      grid_ = dim3(g.size() > 0 ? unsigned(g[0]) : 1,
                   g.size() > 1 ? unsigned(g[1]) : 1,
                   g.size() > 2 ? unsigned(g[2]) : 1);
    } else if (a == "--ctas") {
      std::vector<int64_t> n = numbers(next());
      if (n.size() != 1 || n[0] < 1)
        error("--ctas takes a positive count");
      else
        options_.ctas = int(n[0]);
    } else if (a == "--seed") {
      std::string s = next();
#if TP_EMULATOR
      options_.cpu.seed = std::strtoull(s.c_str(), nullptr, 0);
#endif
    } else if (a == "--repeat" || a == "--warmup" || a == "--rotate") {
      std::vector<int64_t> n = numbers(next());
      if (n.size() != 1 || n[0] < 0 || n[0] > (1 << 20))
        error(a + " takes a count");
      else if (a == "--repeat")
        repeat_ = int(n[0]);
      else if (a == "--warmup")
        warmup_ = int(n[0]);
      else
        rotate_ = int(n[0]);
    } else if (a == "--help" || a == "-h") {
      error("");
    } else {
      std::string k, v;
      if (split(a, k, v))
        values_[canonical(k)] = v;
    }
  }
}

TP_EMU_OUTLINE int Args::usage(const char *kernel) const {
  if (!message_.empty())
    std::fprintf(stderr, "%s: %s\n", kernel, message_.c_str());
  std::fprintf(stderr, "usage: %s", kernel);
  for (const std::string &n : names_)
    std::fprintf(stderr, " %s=...", n.c_str());
  std::fprintf(stderr, " [--out NAME=out.npy --shape NAME=R,C] "
                       "[--grid X[,Y[,Z]]] [--ctas N] [--seed S] "
                       "[--repeat N [--warmup W] [--rotate R]]\n");
  return 2;
}

TP_EMU_OUTLINE bool Args::split(const std::string &kv, std::string &k,
                                std::string &v) {
  size_t eq = kv.find('=');
  if (eq == std::string::npos || eq == 0)
    return error("'" + kv + "' is not NAME=VALUE");
  k = kv.substr(0, eq), v = kv.substr(eq + 1);
  return true;
}
TP_EMU_OUTLINE std::string Args::canonical(const std::string &k) const {
  if (k.size() > 3 && k.compare(0, 3, "arg") == 0 &&
      k.find_first_not_of("0123456789", 3) == std::string::npos) {
    size_t n = std::strtoul(k.c_str() + 3, nullptr, 10);
    if (n < names_.size())
      return names_[n];
  }
  return k;
}
TP_EMU_OUTLINE std::vector<int64_t> Args::numbers(const std::string &s) {
  std::vector<int64_t> v;
  for (const char *p = s.c_str(); *p;) {
    char *e;
    v.push_back(std::strtoll(p, &e, 10));
    if (e == p)
      return {};
    p = *e == ',' ? e + 1 : e;
  }
  return v;
}
TP_EMU_OUTLINE bool Args::error(const std::string &m) {
  ok_ = false;
  message_ = m;
  return false;
}
TP_EMU_OUTLINE bool Args::fail(const std::string &m) {
  std::fprintf(stderr, "%s\n", m.c_str());
  return false;
}
#endif // !TILEPIPE_EMULATOR_EXTERN

// The element and scalar types translated mains use, instantiated once in the
// emulator library (scripts/kernelcache.py compiles it with
// TILEPIPE_EMULATOR_LIBRARY) and only declared in kernel binaries compiled
// against it: the same code, compiled once. Other types instantiate as usual.
#if defined(TILEPIPE_EMULATOR_EXTERN) || defined(TILEPIPE_EMULATOR_LIBRARY)
#if defined(TILEPIPE_EMULATOR_LIBRARY)
#define TP_HOST_INSTANTIATE template
#else
#define TP_HOST_INSTANTIATE extern template
#endif
#define TP_HOST_ELEMENT(T)                                                     \
  TP_HOST_INSTANTIATE class Array<T>;                                          \
  TP_HOST_INSTANTIATE bool Args::input<T>(const std::string &, int, bool,      \
                                          Array<T> &);                         \
  TP_HOST_INSTANTIATE bool Args::input<T>(                                     \
      const std::string &, const std::vector<int64_t> &, Array<T> &);          \
  TP_HOST_INSTANTIATE bool Args::output<T>(const std::string &, int,           \
                                           Array<T> &);                        \
  TP_HOST_INSTANTIATE bool Args::write<T>(const std::string &, Array<T> &);
TP_HOST_ELEMENT(float)
TP_HOST_ELEMENT(__nv_bfloat16)
TP_HOST_ELEMENT(__half)
TP_HOST_ELEMENT(int32_t)
TP_HOST_ELEMENT(uint8_t)
TP_HOST_ELEMENT(__nv_fp8_e4m3)
TP_HOST_ELEMENT(__nv_fp8_e5m2)
#define TP_HOST_SCALAR(T)                                                      \
  TP_HOST_INSTANTIATE bool Args::scalar<T>(const std::string &, T &);
TP_HOST_SCALAR(int64_t)
TP_HOST_SCALAR(int32_t)
TP_HOST_SCALAR(uint32_t)
TP_HOST_SCALAR(float)
TP_HOST_SCALAR(double)
#undef TP_HOST_SCALAR
#undef TP_HOST_ELEMENT
#undef TP_HOST_INSTANTIATE
#endif

} // namespace tp::host

#endif // TILEPIPE_HOST_MAIN_CUH
