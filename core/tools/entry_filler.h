// EntryFiller: reads list_repos' entries (core/served/entry_cache.h) of repositories whose
// entries are missing or stale, on a few threads of its own, so that a page of cold entries is
// read in parallel and the call waits only as long as it chooses. Entries still unread when the
// call stops waiting are read all the same and kept, so the next call finds them.
//
// Repositories asked for by the latest call are read first. A repository already waiting or
// being read is not queued twice. The threads start with the first Fill (a server that is never
// asked for list_repos has none) and read one repository at a time each, on a handle opened for
// it and closed after (ServedRepo::OpenOnce), so no repository is held open.
//
// A background service (core/runtime/service.h) the app owns and list_repos uses: Start starts
// nothing (the threads start with the first Fill that needs them); Stop (and the destructor)
// drops what is queued, ends a Fill waiting, lets each thread finish the entry it is reading, and
// joins them; a Fill after Stop reads nothing. It has no schedule: its only wait is a call's own
// time budget, which is real time.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <vector>

#include "core/runtime/service.h"
#include "core/served/served_repo.h"
#include "core/util/stop.h"

namespace rr {

class EntryFiller final : public BackgroundService {
 public:
  using Clock = std::chrono::steady_clock;
  // Reads one repository's entry; it is kept in the repository's entry_cache by the filler.
  using ReadFn =
      std::function<std::shared_ptr<const RepoEntry>(const ServedRepo&, const StopToken&)>;

  EntryFiller(size_t threads, ReadFn read);
  ~EntryFiller() override;
  EntryFiller(const EntryFiller&) = delete;
  EntryFiller& operator=(const EntryFiller&) = delete;

  std::string name() const override { return "list_repos entry filler"; }
  void Start() override {}
  void Stop() override;

  // Queues the repositories and waits until each one's entry has been read and kept, or until
  // `until`, or until `stop` says so -- whichever comes first.
  void Fill(const std::vector<std::shared_ptr<const ServedRepo>>& repos, Clock::time_point until,
            const StopToken& stop);

 private:
  void Work();

  const size_t threads_wanted_;
  const ReadFn read_;
  std::shared_ptr<std::atomic<bool>> stopping_;
  StopToken stop_;
  std::mutex mu_;
  std::condition_variable work_cv_, done_cv_;
  std::deque<std::shared_ptr<const ServedRepo>> queue_;
  std::unordered_set<const ServedRepo*> pending_;  // queued or being read
  std::vector<std::thread> threads_;
};

}  // namespace rr
