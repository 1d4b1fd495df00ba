#include "core/runtime/periodic.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <random>

#include "core/util/heap_trim.h"

namespace rr {
namespace {

// This thread only: the lowest CPU priority and the idle I/O class.
void LowerThisThreadsPriority() {
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  setpriority(PRIO_PROCESS, tid, 19);
  constexpr int kWhoProcess = 1, kClassIdle = 3, kClassShift = 13;
  syscall(SYS_ioprio_set, kWhoProcess, 0, kClassIdle << kClassShift);
}

// A glance is spaced at least this many times as long as the last one took.
constexpr int kGlanceShare = 20;

}  // namespace

PeriodicService::PeriodicService(Schedule schedule)
    : schedule_(schedule),
      clock_(schedule_.clock ? *schedule_.clock : Clock::Real()),
      stopping_(std::make_shared<std::atomic<bool>>(false)),
      stop_(stopping_, std::chrono::hours(24 * 365 * 50)),
      random_(std::random_device{}()) {}

PeriodicService::~PeriodicService() { Stop(); }

void PeriodicService::Start() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (started_ || stopping_->load()) return;
    started_ = true;
  }
  if (!Wanted()) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_->load()) return;
  thread_ = std::thread([this] { Run(); });
}

void PeriodicService::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_->store(true);
  }
  cv_.notify_all();
  round_.notify_all();
  std::thread thread;
  {
    std::lock_guard<std::mutex> lock(mu_);
    thread.swap(thread_);
  }
  if (thread.joinable()) thread.join();
}

void PeriodicService::Nudge() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    whole_ = true;
  }
  cv_.notify_all();
}

void PeriodicService::Nudge(const std::string& key) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    keys_.insert(key);
  }
  cv_.notify_all();
}

uint64_t PeriodicService::passes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return passes_;
}

uint64_t PeriodicService::rounds() const {
  std::lock_guard<std::mutex> lock(mu_);
  return rounds_;
}

bool PeriodicService::WaitRounds(uint64_t n, std::chrono::milliseconds timeout) const {
  std::unique_lock<std::mutex> lock(mu_);
  return round_.wait_for(lock, timeout, [&] { return rounds_ >= n || stopping_->load(); }) &&
         rounds_ >= n;
}

void PeriodicService::CatchUp(const std::vector<std::string>&) { Pass(); }

Clock::Duration PeriodicService::Spread(Clock::Duration d) {
  if (schedule_.spread <= 0) return d;
  const double factor =
      std::uniform_real_distribution<double>(1 - schedule_.spread, 1 + schedule_.spread)(random_);
  return Clock::Duration(
      static_cast<Clock::Duration::rep>(static_cast<double>(d.count()) * factor));
}

void PeriodicService::Run() {
  if (schedule_.lowest_priority) LowerThisThreadsPriority();
  auto round_done = [this](bool pass) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      passes_ += pass ? 1 : 0;
      ++rounds_;
    }
    round_.notify_all();
  };
  const auto glance = std::chrono::duration_cast<Clock::Duration>(schedule_.glance);
  while (!stopping_->load()) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      keys_.clear();  // this pass covers them
      whole_ = false;
    }
    Pass();
    if (stopping_->load()) return;
    TrimCaches();
    GiveBackFreeHeap();
    round_done(true);
    const Clock::TimePoint next_pass =
        clock_.Now() + Spread(std::chrono::duration_cast<Clock::Duration>(schedule_.every));
    Clock::TimePoint next_glance =
        glance.count() > 0 ? clock_.Now() + glance : Clock::TimePoint::max();
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      clock_.WaitUntil(lock, cv_, std::min(next_pass, next_glance),
                       [this] { return stopping_->load() || whole_ || !keys_.empty(); });
      if (stopping_->load()) return;
      if (whole_) break;
      if (!keys_.empty()) {
        const std::vector<std::string> keys(keys_.begin(), keys_.end());
        keys_.clear();
        lock.unlock();
        CatchUp(keys);
        if (stopping_->load()) return;
        ReleaseThreadCache();  // quiet until the next round (core/util/heap_trim.h)
        round_done(false);
        lock.lock();
        continue;
      }
      const Clock::TimePoint now = clock_.Now();
      if (now >= next_pass) break;
      if (now < next_glance) continue;
      lock.unlock();
      const auto began = std::chrono::steady_clock::now();
      Glance();
      const auto took = std::chrono::steady_clock::now() - began;
      if (stopping_->load()) return;
      ReleaseThreadCache();
      round_done(false);
      next_glance = clock_.Now() + std::max<Clock::Duration>(glance, took * kGlanceShare);
      lock.lock();
    }
  }
}

}  // namespace rr
