// MirrorContentFetcher: the ContentFetcher of a mirror (core/served/content_fetcher.h): fetches
// an older version's missing contents when a tool is about to read them. Every git it runs goes
// through GitProcess, built exactly as the sync's fetch of the served files' contents is
// (MirrorNetworkRun, MirrorFetchArgs): `git fetch --stdin` of blob ids, the URL's own protocol
// only, the token in git's environment only and redirects off for it, credential helpers off,
// the scrubbed environment, no ref written (objects are added, no ref moves).
//
// What it will fetch: a batch is refused whole when one of its paths is not served by the
// mirror's own include / exclude and credential-file rule (judged here again, after the
// reader judged it); at most ContentFetcher::kMaxIdsPerFetch ids.
//
// When: within the asking call's time and at most kMaxFetchTime; one fetch of a mirror at a
// time and never while its sync runs (MirrorLock, held by both); at most kMaxFetchesAtOnce
// fetches of all mirrors at once. A call that cannot get its turn in its time says so. Ids
// another call brought while this one waited are not asked again: calls that want the same
// contents at the same moment share one fetch.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>

#include "core/config/config.h"
#include "core/policy/path_policy.h"
#include "core/served/content_fetcher.h"
#include "core/sync/git_process.h"

namespace rr {

class MirrorContentFetcher final : public ContentFetcher {
 public:
  static constexpr std::chrono::seconds kMaxFetchTime{60};
  static constexpr size_t kMaxFetchesAtOnce = 4;

  // `mirror`: a checked MirrorConfig with `dir` set; `git` runs in its mirror folder.
  static Result<std::shared_ptr<MirrorContentFetcher>> Make(GitProcess git,
                                                            const MirrorConfig& mirror);

  Status Fetch(const std::vector<ContentWant>& wants, const StopToken& stop) override;
  size_t fetches() const override { return fetches_.load(); }

 private:
  MirrorContentFetcher(GitProcess git, const MirrorConfig& mirror, PathPolicy policy);

  GitProcess git_;
  MirrorConfig mirror_;  // without its state: what the fetch needs of the configuration
  PathPolicy policy_;
  std::shared_ptr<std::timed_mutex> lock_;
  std::atomic<size_t> fetches_{0};
};

// The fetcher of a configuration's mirror (git found on PATH, the configuration's mirror
// folder); null when the mirror has no folder.
std::shared_ptr<ContentFetcher> MakeContentFetcher(const Config& config,
                                                   const MirrorConfig& mirror);

}  // namespace rr
