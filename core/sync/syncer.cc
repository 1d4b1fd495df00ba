#include "core/sync/syncer.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>

#include "core/secrets/server_log.h"
#include "core/served/mirror_state.h"
#include "core/sync/mirror_sync.h"
#include "core/util/text.h"

namespace rr {

MirrorSyncer::MirrorSyncer(GitProcess git, std::vector<MirrorConfig> mirrors, Options options)
    : git_(std::move(git)),
      options_(std::move(options)),
      clock_(options_.clock ? *options_.clock : Clock::Real()),
      // Only to spread syncs: any seed will do.
      seed_(static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) |
            1) {
  if (options_.concurrency == 0) options_.concurrency = 1;
  if (!options_.log) options_.log = [](const std::string& line) { LogLine(line); };
  // The first syncs begin within a few seconds of each other, not all at once.
  const auto now = clock_.Now();
  const auto spread = std::chrono::milliseconds(200 * std::min<size_t>(mirrors.size(), 25));
  for (auto& m : mirrors) {
    auto slot = std::make_shared<Slot>();
    slot->due = now + Jitter(spread);
    if (!m.group.empty()) ++first_[m.group].total;
    slot->mirror = std::move(m);
    slots_.push_back(std::move(slot));
  }
}

MirrorSyncer::~MirrorSyncer() { Stop(); }

Clock::Duration MirrorSyncer::Jitter(Clock::Duration d) {
  // xorshift: spreading start times needs no better randomness.
  seed_ ^= seed_ << 13;
  seed_ ^= seed_ >> 7;
  seed_ ^= seed_ << 17;
  const auto ticks = d.count();
  if (ticks <= 0) return Clock::Duration::zero();
  return Clock::Duration(static_cast<Clock::Duration::rep>(seed_ % static_cast<uint64_t>(ticks)));
}

void MirrorSyncer::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (started_ || stop_->load()) return;
  started_ = true;
  StartWorkersLocked();
}

void MirrorSyncer::StartWorkersLocked() {
  const size_t want = std::min(options_.concurrency, slots_.size());
  while (workers_.size() < want) workers_.emplace_back([this] { Work(); });
}

void MirrorSyncer::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_->store(true);
    for (auto& slot : slots_) slot->stop->store(true);
    for (auto& slot : in_flight_) slot->stop->store(true);
  }
  cv_.notify_all();
  for (auto& t : workers_) {
    if (t.joinable()) t.join();
  }
  workers_.clear();
}

void MirrorSyncer::Add(MirrorConfig mirror) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_->load()) return;
    for (const auto& slot : slots_) {
      if (slot->mirror.dir == mirror.dir) return;
    }
    auto slot = std::make_shared<Slot>();
    slot->due = clock_.Now() + Jitter(std::chrono::seconds(2));
    if (!mirror.group.empty()) ++first_[mirror.group].total;
    slot->mirror = std::move(mirror);
    slots_.push_back(std::move(slot));
    ++changes_;
    if (started_) StartWorkersLocked();
  }
  cv_.notify_all();
}

void MirrorSyncer::OnSynced(std::function<void(const std::string& name)> synced) {
  std::lock_guard<std::mutex> lock(mu_);
  synced_ = std::move(synced);
}

bool MirrorSyncer::Remove(const std::string& dir) {
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = *slots_[i];
    if (slot.mirror.dir != dir) continue;
    slot.stop->store(true);  // a sync under way ends at its next check; the folder keeps its state
    if (slot.first && !slot.mirror.group.empty()) {
      auto it = first_.find(slot.mirror.group);
      if (it != first_.end() && it->second.total > 0) {
        --it->second.total;
        if (it->second.done >= it->second.total) first_.erase(it);
      }
    }
    slot.first = false;
    slots_.erase(slots_.begin() + static_cast<std::ptrdiff_t>(i));
    return true;
  }
  return false;
}

size_t MirrorSyncer::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return slots_.size();
}

void MirrorSyncer::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_->load()) {
    // The mirror due soonest that no other worker is syncing.
    std::shared_ptr<Slot> next;
    for (const auto& slot : slots_) {
      if (slot->running) continue;
      if (!next || slot->due < next->due) next = slot;
    }
    // Until the schedule changes (or the sync is due): then it is read again.
    const uint64_t seen = changes_;
    auto changed = [this, seen] { return stop_->load() || changes_ != seen; };
    if (!next) {
      clock_.WaitUntil(lock, cv_, Clock::TimePoint::max(), changed);
      continue;
    }
    if (clock_.Now() < next->due) {
      clock_.WaitUntil(lock, cv_, next->due, changed);
      continue;
    }
    next->running = true;
    in_flight_.push_back(next);
    const MirrorConfig& m = next->mirror;  // never changed once added
    lock.unlock();

    const size_t now_running = ++running_;
    size_t most = most_at_once_.load();
    while (now_running > most && !most_at_once_.compare_exchange_weak(most, now_running)) {
    }
    if (m.state) m.state->Began();
    // Its time limit is real time: it bounds a git process.
    auto report =
        SyncMirror(git_, m, std::chrono::steady_clock::now() + options_.max_duration, next->stop);
    const int64_t wall = static_cast<int64_t>(clock_.Wall());
    if (report) {
      if (m.state) m.state->Succeeded(wall);
    } else {
      if (m.state) m.state->Failed(wall, report.error());
    }
    --running_;
    ++finished_;

    lock.lock();
    Slot& slot = *next;
    slot.running = false;
    in_flight_.erase(std::find(in_flight_.begin(), in_flight_.end(), next));
    // A group's first syncs: "repository k of n".
    std::string progress;
    if (slot.first && !m.group.empty()) {
      auto it = first_.find(m.group);
      if (it != first_.end()) {
        ++it->second.done;
        progress = " (group " + m.group + ", first sync: repository " +
                   std::to_string(it->second.done) + " of " + std::to_string(it->second.total) +
                   ")";
        if (it->second.done >= it->second.total) first_.erase(it);
      }
    }
    slot.first = false;
    const auto every =
        std::chrono::duration_cast<Clock::Duration>(std::chrono::seconds(m.sync_every));
    if (report) {
      slot.failures = 0;
      slot.due = clock_.Now() + every - every / 10 + Jitter(every / 5);
    } else {
      ++slot.failures;
      auto wait = std::chrono::duration_cast<Clock::Duration>(options_.first_retry);
      for (int i = 1; i < slot.failures && wait < every; ++i) wait *= 2;
      wait = std::min(wait, every);
      slot.due = clock_.Now() + wait - wait / 10 + Jitter(wait / 5);
    }
    ++changes_;
    const bool removed = slot.stop->load() && !stop_->load();
    const auto synced = report ? synced_ : nullptr;
    lock.unlock();
    if (synced) synced(m.name);
    if (report) {
      std::string line = "repo-reader: mirror `" + m.name + "` synced from " + m.url + ": " +
                         Plural(report->refs, "ref", "refs");
      if (report->contents) {
        line += ", " +
                Plural(report->contents, "served file's contents", "served files' contents") +
                " fetched";
      }
      if (!report->refs_left_out.empty()) line += "; " + report->refs_left_out;
      options_.log(line + progress);
    } else if (removed) {
      options_.log("repo-reader: mirror `" + m.name + "`: its sync was stopped, since its group " +
                   "no longer lists it; its folder keeps what the last good sync made");
    } else {
      options_.log("repo-reader: mirror `" + m.name + "` could not sync from " + m.url + ": " +
                   report.error() + progress);
    }
    lock.lock();
    cv_.notify_all();
  }
}

Result<std::unique_ptr<MirrorSyncer>> MakeMirrorSync(const Config& config, const Clock& clock) {
  if (config.mirrors.empty() && config.groups.empty()) return std::unique_ptr<MirrorSyncer>();
  const std::string git = GitProcess::FindGit();
  if (git.empty()) {
    return Error{
        "mirrors are configured but git is not installed (no git on PATH); the sync "
        "needs git 2.29 or later"};
  }
  LogLine("repo-reader: " + Plural(config.mirrors.size(), "mirror", "mirrors") + " kept in " +
          config.mirror_folder + ", synced in the background");
  MirrorSyncer::Options options;
  options.clock = &clock;
  return std::make_unique<MirrorSyncer>(GitProcess(git, config.mirror_folder), config.mirrors,
                                        std::move(options));
}

std::vector<std::string> DescribeMirrors(const Config& config) {
  std::vector<std::string> out;
  if (config.mirrors.empty()) return out;
  out.push_back(Plural(config.mirrors.size(), "mirror", "mirrors") + ", kept in " +
                config.mirror_folder + ":");
  for (const auto& m : config.mirrors) {
    out.push_back("  " + m.name + " — mirrored from " + m.url);
    std::string refs = "the default branch and ";
    if (m.refs.empty()) {
      refs += "every tag";
    } else {
      for (size_t i = 0; i < m.refs.size(); ++i) refs += (i ? ", " : "") + DisplayName(m.refs[i]);
    }
    out.push_back("    keeps " + refs + "; synced every " + std::to_string(m.sync_every / 60) +
                  " min");
    if (!m.token_env.empty()) {
      const char* v = std::getenv(m.token_env.c_str());
      out.push_back(
          "    token from $" + m.token_env +
          (v && *v ? std::string(" (set)") : std::string(" (NOT SET: its syncs will fail)")));
    }
    if (!m.host_kind.empty()) out.push_back("    host kind: " + m.host_kind);
    if (m.state) {
      const auto v = m.state->Get();
      if (v.last_synced) {
        out.push_back("    last synced " + UtcMinute(v.last_synced));
      } else {
        out.push_back("    not mirrored yet");
      }
      if (v.last_failed)
        out.push_back("    last sync failed " + UtcMinute(v.last_failed) + ": " + v.error);
    }
  }
  return out;
}

}  // namespace rr
