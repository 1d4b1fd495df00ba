// ContentFetcher: how a mirror's missing file contents are fetched on demand, when a tool is
// about to read an older version the sync did not bring (it brings the served files' contents
// at the kept refs' tips only). Held by a mirror's RepoSettings; null for a local repository,
// whose missing contents (a partial clone the operator made) are never fetched.
//
// Who may ask, and for what: only RepoReader (served_repo.h), for nodes it found in the
// repository's own trees, and only after each node's path was judged again by the repository's
// PathPolicy (include / exclude and the credential-file rule) right before the fetch. The
// implementation (core/sync/content_fetch.h, the only place git runs as a process) judges every
// path once more against the mirror's own configuration and refuses the whole batch when one is
// not served: whatever asks, nothing outside include / exclude is fetched. An id an agent wrote
// (a ref) is never fetched: RepoReader::At resolves only what the mirror holds.
//
// A fetch adds objects only: it never moves a ref (one call, one set).
#pragma once

#include <git2.h>

#include <cstddef>
#include <vector>

#include "core/policy/repo_path.h"
#include "core/util/result.h"
#include "core/util/stop.h"

namespace rr {

// One file's contents to fetch: its id, and the served path it was found at.
struct ContentWant {
  git_oid oid;
  RepoPath path;
};

class ContentFetcher {
 public:
  // The most ids one fetch asks the host for; a longer list is fetched in several.
  static constexpr size_t kMaxIdsPerFetch = 2000;

  virtual ~ContentFetcher() = default;

  // Fetches the contents of `wants` (at most kMaxIdsPerFetch) into the mirror, within `stop`'s
  // time (and at most a minute), never while a sync of the same mirror runs. Ok when git's
  // fetch went through (whether each id arrived is for the caller to look at); otherwise a
  // sentence saying why, scrubbed of any token, for the answer. Thread-safe.
  virtual Status Fetch(const std::vector<ContentWant>& wants, const StopToken& stop) = 0;

  // How many fetches reached the host so far (for tests and the benchmark).
  virtual size_t fetches() const = 0;
};

}  // namespace rr
