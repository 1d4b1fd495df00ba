#include "core/sync/content_fetch.h"

#include <git2.h>

#include <condition_variable>
#include <optional>
#include <set>
#include <string>

#include "core/git/git_repo.h"
#include "core/sync/mirror_sync.h"
#include "core/sync/token.h"
#include "core/util/text.h"

namespace rr {
namespace {

// The fetches of all mirrors running at once: at most kMaxFetchesAtOnce.
class FetchSlots {
 public:
  bool Take(std::chrono::steady_clock::time_point until, const StopToken& stop) {
    std::unique_lock<std::mutex> lock(mu_);
    while (running_ >= MirrorContentFetcher::kMaxFetchesAtOnce) {
      if (stop.stopped() || std::chrono::steady_clock::now() >= until) return false;
      cv_.wait_for(lock, std::chrono::milliseconds(100));
    }
    ++running_;
    return true;
  }
  void Give() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      --running_;
    }
    cv_.notify_one();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  size_t running_ = 0;
};

FetchSlots& Slots() {
  static FetchSlots slots;
  return slots;
}

// Waits for `lock` until `until`, a tenth of a second at a time, so that a cancelled call
// stops waiting.
bool LockBefore(std::timed_mutex& lock, std::chrono::steady_clock::time_point until,
                const StopToken& stop) {
  while (!stop.stopped()) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) return false;
    if (lock.try_lock_until(std::min(until, now + std::chrono::milliseconds(100)))) return true;
  }
  return false;
}

// The ids of `wants` the mirror at `dir` lacks, hex, one a line; nullopt when it won't open.
std::optional<std::string> Lacking(const std::string& dir, const std::vector<ContentWant>& wants) {
  InitGitLibrary();
  git_repository* raw = nullptr;
  if (git_repository_open_bare(&raw, dir.c_str()) != 0) return std::nullopt;
  std::unique_ptr<git_repository, Deleter> repo(raw);
  git_odb* odb_raw = nullptr;
  if (git_repository_odb(&odb_raw, repo.get()) != 0) return std::nullopt;
  std::unique_ptr<git_odb, Deleter> odb(odb_raw);
  std::string ids;
  std::set<std::string> seen;
  for (const ContentWant& w : wants) {
    if (git_odb_exists(odb.get(), &w.oid)) continue;
    char hex[GIT_OID_HEXSZ + 1];
    git_oid_tostr(hex, sizeof hex, &w.oid);
    if (seen.insert(hex).second) ids += std::string(hex) + "\n";
  }
  return ids;
}

}  // namespace

MirrorContentFetcher::MirrorContentFetcher(GitProcess git, const MirrorConfig& mirror,
                                           PathPolicy policy)
    : git_(std::move(git)),
      mirror_(mirror),
      policy_(std::move(policy)),
      lock_(MirrorLock(mirror.dir)) {
  mirror_.state.reset();
}

Result<std::shared_ptr<MirrorContentFetcher>> MirrorContentFetcher::Make(
    GitProcess git, const MirrorConfig& mirror) {
  if (mirror.dir.empty()) return Error{"mirror `" + mirror.name + "` has no folder"};
  auto policy = PathPolicy::Make(mirror.include, mirror.exclude, mirror.serve_credential_files);
  if (!policy) return Error{"mirror `" + mirror.name + "`: " + policy.error()};
  return std::shared_ptr<MirrorContentFetcher>(
      new MirrorContentFetcher(std::move(git), mirror, policy.take()));
}

Status MirrorContentFetcher::Fetch(const std::vector<ContentWant>& wants, const StopToken& stop) {
  if (wants.empty()) return Status::Ok();
  if (wants.size() > kMaxIdsPerFetch) {
    return Error{"at most " + WithCommas(kMaxIdsPerFetch) + " contents are fetched at once"};
  }
  // Judged once more, by the mirror's own configuration: a path it does not serve refuses the
  // whole batch, before anything reaches the host.
  for (const ContentWant& w : wants) {
    if (w.path.is_root() || !policy_.ServesFile(w.path)) {
      return Error{"fetching the contents of `" + w.path.Display() +
                   "` is refused: this server does not serve that path"};
    }
  }
  const auto deadline = std::min(stop.deadline(), std::chrono::steady_clock::now() + kMaxFetchTime);
  // The mirror's turn first (a call waiting for a sync holds no slot another mirror could use),
  // then a slot among all mirrors' fetches.
  if (!LockBefore(*lock_, deadline, stop)) {
    return Error{stop.stopped() ? stop.Why()
                                : std::string("the mirror is being synced right now, or another "
                                              "call is fetching from it")};
  }
  std::lock_guard<std::timed_mutex> held(*lock_, std::adopt_lock);
  if (!Slots().Take(deadline, stop)) {
    return Error{stop.stopped() ? stop.Why()
                                : std::string("too many mirrors are fetching contents right now")};
  }
  struct Slot {
    ~Slot() { Slots().Give(); }
  } slot;
  // What another call brought while this one waited is not asked again.
  auto ids = Lacking(mirror_.dir, wants);
  if (!ids) return Error{"the mirror cannot be opened"};
  if (ids->empty()) return Status::Ok();

  std::optional<HostToken> token;
  if (!mirror_.token_env.empty()) {
    auto t = HostToken::FromEnvironment(mirror_.token_env, mirror_.host_kind);
    if (!t) return Error{t.error()};
    token = t.take();
  }
  auto scrub = [&](std::string text) { return token ? token->Scrub(std::move(text)) : text; };
  GitRun run = MirrorNetworkRun(mirror_, token ? &*token : nullptr, "fetch", MirrorFetchArgs(),
                                *ids, deadline);
  // Without naming commits the mirror has, as the sync's own contents fetch (mirror_sync.cc):
  // else the host may send deltas against older contents the mirror never fetched.
  run.config.push_back({"fetch.negotiationAlgorithm", "noop"});
  fetches_.fetch_add(1);
  auto out = git_.Run(run, stop.cancel_flag());
  if (!out) return Error{scrub(out.error())};
  if (out->stopped) return Error{stop.Why()};
  if (out->timed_out) {
    return Error{stop.stopped() ? stop.Why()
                                : "the fetch took longer than a fetch may (" +
                                      std::to_string(kMaxFetchTime.count()) + " seconds)"};
  }
  if (out->too_much) return Error{"the fetch wrote more than the server reads"};
  if (out->status != 0) {
    std::string err = out->err;
    while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
    if (err.size() > 1000) err = err.substr(0, 1000) + "…";
    if (err.empty()) err = "git fetch ended with status " + std::to_string(out->status);
    return Error{"the fetch failed: " + DisplayName(scrub(err))};
  }
  return Status::Ok();
}

std::shared_ptr<ContentFetcher> MakeContentFetcher(const Config& config,
                                                   const MirrorConfig& mirror) {
  if (config.mirror_folder.empty() || mirror.dir.empty()) return nullptr;
  auto f =
      MirrorContentFetcher::Make(GitProcess(GitProcess::FindGit(), config.mirror_folder), mirror);
  if (!f) return nullptr;
  return f.take();
}

}  // namespace rr
