// A group's listing: the repositories a GitHub organisation or user, a GitLab group (with its
// subgroups) or a Bitbucket workspace holds, read from the host's API. The host plugin builds
// each request and reads each page; this is the only place a request to a host's API is made,
// and it holds the rules (seed: "A group's listing", "Tokens", "Sizes"):
//  - GET only, to the API alone: every request, the first and each next page, must be under the
//    API's base (same scheme, host, port, and below its path); a next page pointing elsewhere
//    fails the listing. No redirect is followed (a 3xx fails the listing). No proxy is used.
//  - The token goes only in the header the plugin names, only to the API; a plugin's header
//    of that name, or one holding a line break, is dropped. An error never holds the token.
//  - A request is stopped after 30 seconds without progress, a page after 60 seconds however
//    slowly it comes, and read up to 32 MB; a group lists at most 20,000 repositories.
//  - An answer that is not HTTP, or not the JSON the plugin reads, fails the listing: the
//    caller keeps what it had.
//  - A listed repository's path is checked again: every part plain (letters, digits, '.', '_',
//    '-'; never "." or ".."), under the owner; and, on a host whose repository names hold no
//    '/' (GitHub, Bitbucket: NamesHaveOneLevel), exactly one part below it -- `acme/evil/slash`
//    is no GitHub repository, so it is refused rather than mirrored. GitLab's groups have
//    subgroups: any depth below the group. Each path refused is named in GroupListing::refused,
//    for the log. Its git address is built from the configured web
//    address and that path, never taken from the listing. Archived repositories and forks are
//    left out unless asked for; the name globs choose among the rest.
//
// Thread-safe: ListGroup keeps no state between calls.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/sync/token.h"
#include "core/util/result.h"
#include "repo_reader/host.h"

namespace rr {

// What the configuration says of a group (the part the listing needs).
struct GroupQuerySpec {
  std::string web;    // the host's web address, no trailing slash: "https://github.com"
  std::string api;    // the API's base, no trailing slash: "https://api.github.com"
  std::string owner;  // "acme", "platform/backend"
  repo_reader::OwnerKind kind = repo_reader::OwnerKind::kOrganisation;
  std::vector<std::string> names;  // globs over the path below the owner; empty: all
  bool archived = false;           // keep archived repositories
  bool forks = false;              // keep forks
  // The host's repository names hold no '/': a repository is exactly <owner>/<name>. ListGroup
  // sets it from the host plugin's kind (NamesHaveOneLevel) whatever is given here.
  bool one_level = false;
};

// Whether repository names on hosts of `host_kind` are one part below the owner: true for
// github and bitbucket; false for gitlab (subgroups) and host kinds this server does not know.
bool NamesHaveOneLevel(const std::string& host_kind);

struct ListLimits {
  std::chrono::milliseconds request{30000};  // without progress
  std::chrono::milliseconds page{60000};     // a whole page, however slowly it comes
  size_t page_bytes = 32u << 20;
  size_t max_repos = 20000;
  uint32_t per_page = 100;
  // When set and true, the listing ends before its next page (the server is stopping).
  std::shared_ptr<const std::atomic<bool>> stop;
};

// One repository a listing gave, checked.
struct GroupRepo {
  std::string path;  // on the host: "acme/shop"
  std::string url;   // its git address: <web>/<path>.git
  std::string description;
  std::string default_branch;
  bool archived = false;
  bool fork = false;
};

struct GroupListing {
  std::vector<GroupRepo> repos;  // in the host's order
  size_t left_out = 0;           // listed but left out: archived, forks, names, odd paths
  // Of those, the odd paths: "`acme/evil/slash`: why", the first kMaxRefusedNamed of them, for
  // the log; refused_count counts them all.
  static constexpr size_t kMaxRefusedNamed = 20;
  std::vector<std::string> refused;
  size_t refused_count = 0;
  size_t pages = 0;
  bool capped = false;  // the listing stopped at max_repos
};

// Whether a listed path may be served for `owner`: plain parts, under the owner (with
// `one_level`, exactly one part below it).
bool IsListablePath(const std::string& path, const std::string& owner, bool one_level = false);

// Checks one listed repository as a listing's entry: path, filters. On success fills `out`.
// A path refused for its shape (not a filter) says why in *refused, when given.
bool AcceptListed(const GroupQuerySpec& spec, const repo_reader::ListedRepo& listed, GroupRepo* out,
                  std::string* refused = nullptr);

// Lists the group. `token` may be null (a public listing). `progress` (may be empty) hears of
// each page: pages read, repositories kept so far. `retry_after`, when not null, receives the
// host's Retry-After header (as sent, at most 100 characters) when the listing failed on a 429,
// 503 or 403 (GitHub's secondary rate limit) answer that carried one, else "".
Result<GroupListing> ListGroup(const repo_reader::HostPlugin& host, const GroupQuerySpec& spec,
                               const HostToken* token, const ListLimits& limits = {},
                               const std::function<void(size_t, size_t)>& progress = {},
                               std::string* retry_after = nullptr);

}  // namespace rr
