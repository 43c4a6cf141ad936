// SPDX-License-Identifier: Apache-2.0
#include "allocator_tuning.hpp"

#include <tbb/task_scheduler_observer.h>

#include <cstdlib>
#include <string_view>
#include <system_error>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace npu::cli {

namespace {

/// The layout of glibc's heaps this relies on: the main heap grows with sbrk, and every other arena's
/// heap is a reservation of HEAP_MAX_SIZE (2 x DEFAULT_MMAP_THRESHOLD_MAX: 64 MiB on 64-bit systems)
/// aligned to its size (malloc/arena.c, new_heap), so an address inside it gives its start.
#if defined(__GLIBC__)
constexpr bool kHeapLayoutKnown = sizeof(void*) == 8 && sizeof(long) == 8;
#else
constexpr bool kHeapLayoutKnown = false;
#endif
constexpr std::uintptr_t kThreadHeapBytes = std::uintptr_t{64} << 20U;
constexpr std::uintptr_t kHugePageBytes = std::uintptr_t{2} << 20U;
/// MADV_COLLAPSE (Linux 6.1, <linux/mman.h>; not in glibc 2.36's <sys/mman.h>): older kernels refuse it.
constexpr int kCollapseAdvice = 25;
/// The main heap is grown by this (plus the top pad) once, so that what it advises covers a small model's
/// compile: MobileNet-v2's main thread peaks at about 50 MiB.
constexpr std::size_t kMainHeapGrowth = std::size_t{28} << 20U;

constexpr int kMmapThreshold = 32 << 20; // glibc's mallopt refuses more (HEAP_MAX_SIZE / 2)
constexpr int kTrimThreshold = 256 << 20;
constexpr int kTopPad = 32 << 20;

struct ProcessState {
  std::string decision = "default (no model compiled)";
  bool smallModel = false; ///< the model compiled is a regular file below kTunedModelBytes
  bool tuned = false;      ///< tuneAllocatorFor tuned the allocator
  std::uintptr_t mainHeapStart = 0;
  std::thread heapMaker; ///< makes the thread heap the first worker takes (see makeWorkerHeap)

  ProcessState() = default;
  ProcessState(const ProcessState&) = delete;
  ProcessState& operator=(const ProcessState&) = delete;
  ~ProcessState() {
    if (heapMaker.joinable()) { // the command failed before its compile started
      heapMaker.join();
    }
  }
};

ProcessState& processState() {
  static ProcessState state;
  return state;
}

#if defined(__GLIBC__)
std::uintptr_t programBreak() {
  return reinterpret_cast<std::uintptr_t>(::sbrk(0));
}

/// Sets glibc's thresholds and grows the main heap by kMainHeapGrowth and the top pad, advised to use
/// huge pages from its first 2 MiB boundary on (what lies below was touched already). False when mallopt
/// refused a setting.
bool tuneMainHeap(ProcessState& state) {
  if (::mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 0 || ::mallopt(M_TRIM_THRESHOLD, kTrimThreshold) == 0 ||
      ::mallopt(M_TOP_PAD, kTopPad) == 0) {
    return false;
  }
  state.mainHeapStart = programBreak();
  // volatile: the compiler may not drop the allocation whose only purpose is to grow the heap
  void* volatile growth = std::malloc(kMainHeapGrowth);
  const std::uintptr_t end = programBreak();
  std::free(growth);
  const std::uintptr_t start = (state.mainHeapStart + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  if (end > start) {
    ::madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);
  }
  return true;
}

/// Advises the heap of the calling thread's malloc arena to use huge pages, unless it is the main heap.
void tuneThisThreadsHeap() {
  thread_local bool done = false;
  if (done) {
    return;
  }
  done = true;
  void* volatile probe = std::malloc(1);
  const auto address = reinterpret_cast<std::uintptr_t>(probe);
  std::free(probe);
  if (address == 0 || (address >= processState().mainHeapStart && address < programBreak())) {
    return;
  }
  ::madvise(reinterpret_cast<void*>(address & ~(kThreadHeapBytes - 1)), kThreadHeapBytes, MADV_HUGEPAGE);
}

/// Run on a thread of its own that then ends: glibc gives the thread a malloc arena, whose heap is advised
/// here and its first 2 MiB (where the arena's header was written before the advice) collapsed into a huge
/// page; when the thread ends the arena is free, and the next thread to allocate, the first TBB worker,
/// takes it. The worker would otherwise create its heap itself, with that first 2 MiB on small pages.
void makeWorkerHeap() {
  tuneThisThreadsHeap();
  void* volatile probe = std::malloc(1);
  const auto address = reinterpret_cast<std::uintptr_t>(probe);
  std::free(probe);
  ::madvise(reinterpret_cast<void*>(address & ~(kThreadHeapBytes - 1)), kHugePageBytes, kCollapseAdvice);
}
#endif

} // namespace

class WorkerHeapTuning::Observer final : public tbb::task_scheduler_observer {
public:
  Observer() { observe(true); }
  ~Observer() override { observe(false); }
  Observer(const Observer&) = delete;
  Observer& operator=(const Observer&) = delete;

  void on_scheduler_entry(bool worker) override {
#if defined(__GLIBC__)
    if (worker) {
      tuneThisThreadsHeap();
    }
#else
    static_cast<void>(worker);
#endif
  }
};

WorkerHeapTuning::WorkerHeapTuning() {
  ProcessState& state = processState();
  if (state.heapMaker.joinable()) {
    state.heapMaker.join();
  }
  if (state.tuned) {
    observer_ = std::make_unique<Observer>();
  }
}

WorkerHeapTuning::~WorkerHeapTuning() = default;

void tuneAllocatorFor(const std::filesystem::path& model, std::size_t threads) {
  ProcessState& state = processState();
  std::error_code error;
  const bool regular = std::filesystem::is_regular_file(model, error);
  const std::uintmax_t bytes = regular ? std::filesystem::file_size(model, error) : 0;
  state.smallModel = regular && !error && bytes < kTunedModelBytes;
  if (std::getenv("GLIBC_TUNABLES") != nullptr) {
    state.decision = "as GLIBC_TUNABLES sets it";
    return;
  }
  if (!kHeapLayoutKnown) {
    state.decision = "default (not glibc's allocator on a 64-bit system)";
    return;
  }
  if (const char* preload = std::getenv("LD_PRELOAD"); preload != nullptr && *preload != '\0') {
    // A tool in the process (valgrind, a profiler or sanitizer runtime) or another allocator may own malloc.
    state.decision = "default (LD_PRELOAD is set: malloc may not be glibc's)";
    return;
  }
  if (!regular || error) {
    state.decision = "default (the model is not a regular file)";
    return;
  }
  if (!state.smallModel) {
    state.decision =
        "default (a model of " + std::to_string(bytes >> 20U) + " MiB: the memory of huge pages matters more)";
    return;
  }
  if (bytes < kTunedModelMinBytes) {
    state.decision = "default (a model of " + std::to_string(bytes >> 10U) +
                     " KiB: too little memory touched for the tuning to pay)";
    return;
  }
#if defined(__GLIBC__)
  if (tuneMainHeap(state)) {
    state.tuned = true;
    const std::size_t parallelism = threads > 0 ? threads : std::thread::hardware_concurrency();
    if (parallelism > 1) {
      try {
        state.heapMaker = std::thread(makeWorkerHeap); // beside the loading of the plugins
      } catch (const std::system_error&) {
        // no thread: the worker makes its heap itself
      }
    }
    state.decision = "tuned for a small model (huge-page heaps, mmap threshold " + std::to_string(kMmapThreshold) +
                     ", trim threshold " + std::to_string(kTrimThreshold) + ", top pad " + std::to_string(kTopPad) +
                     ")";
    return;
  }
#endif
  state.decision = "default (the C library refused the tuning)";
}

void releaseCompilation(Compilation& compilation, tbb::task_group& releasing, bool trim) {
  if (processState().smallModel) {
    releasing.run([&compilation] { compilation = Compilation{}; });
    return;
  }
  compilation = Compilation{};
#if defined(__GLIBC__)
  if (trim) {
    ::malloc_trim(0); // the many small blocks of what was freed
  }
#else
  static_cast<void>(trim);
#endif
}

std::string allocatorTuningDescription() {
  return processState().decision;
}

} // namespace npu::cli
