#include "core/history/history_indexer.h"

#include <malloc.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>

#include "core/secrets/server_log.h"
#include "core/util/text.h"

namespace rr {
namespace {

// This thread only: the lowest CPU priority and the idle I/O class, so answering agents always
// comes first.
void LowerThisThreadsPriority() {
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  setpriority(PRIO_PROCESS, tid, 19);
  constexpr int kWhoProcess = 1, kClassIdle = 3, kClassShift = 13;
  syscall(SYS_ioprio_set, kWhoProcess, 0, kClassIdle << kClassShift);
}

std::string Seconds(std::chrono::steady_clock::duration d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", std::chrono::duration<double>(d).count());
  return buf;
}

}  // namespace

HistoryIndexer::HistoryIndexer(std::shared_ptr<const Catalog> catalog, Options options)
    : HistoryIndexer(std::make_shared<LiveCatalog>(std::move(catalog)), options) {}

HistoryIndexer::HistoryIndexer(std::shared_ptr<LiveCatalog> catalog, Options options)
    : catalog_(std::move(catalog)),
      options_(options),
      clock_(options_.clock ? *options_.clock : Clock::Real()),
      stopping_(std::make_shared<std::atomic<bool>>(false)),
      // No time limit: only stopping the server stops an update.
      stop_(stopping_, std::chrono::hours(24 * 365 * 50)) {}

HistoryIndexer::~HistoryIndexer() { Stop(); }

void HistoryIndexer::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_->store(true);
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void HistoryIndexer::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (started_ || stopping_->load()) return;
  started_ = true;
  bool any = catalog_->may_change();
  for (const auto& repo : catalog_->Get()->all()) {
    any = any || !repo->settings().index_folder.empty();
  }
  if (any) thread_ = std::thread([this] { Run(); });
}

uint64_t HistoryIndexer::passes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return passes_;
}

void HistoryIndexer::Run() {
  LowerThisThreadsPriority();
  while (!stopping_->load()) {
    const std::shared_ptr<const Catalog> catalog = catalog_->Get();  // this pass's set
    for (const auto& repo : catalog->all()) {
      if (stopping_->load()) return;
      if (!repo->NeedsHistoryIndex()) continue;
      // The log's time is the work's real time, whatever clock the schedule reads.
      const auto start = std::chrono::steady_clock::now();
      auto u = repo->UpdateHistoryIndex(stop_);
      if (stopping_->load()) return;
      // Kept only while failing: one entry for each of 20,000 repositories would be memory
      // for nothing.
      if (!u) {
        std::string& last = last_error_[repo->name()];
        if (last != u.error()) {
          LogLine("repo-reader: the history index of `" + repo->name() +
                  "` could not be updated: " + u.error());
        }
        last = u.error();
        continue;
      }
      last_error_.erase(repo->name());
      if (u->new_commits == 0) continue;
      std::string line = "repo-reader: history index of `" + repo->name() +
                         "`: " + Plural(u->new_commits, "commit", "commits") + " indexed in " +
                         Seconds(std::chrono::steady_clock::now() - start) + " (" +
                         Plural(u->commits, "commit", "commits") + " in " +
                         Plural(u->layers, "layer", "layers") + ")";
      if (!u->rebuilt_because.empty()) line += "; rebuilt: " + u->rebuilt_because;
      LogLine(line);
    }
    // What the pass read is freed; its memory goes back to the system, not kept for the next.
    malloc_trim(0);
    std::unique_lock<std::mutex> lock(mu_);
    ++passes_;
    clock_.WaitFor(lock, cv_, options_.recheck, [this] { return stopping_->load(); });
  }
}

}  // namespace rr
