// repo-reader plugin SDK: the host interface (GitHub, GitLab, Bitbucket and the like), in C++.
// A class the plugin implements; REPO_READER_PLUGIN (plugin.h) hands it to the server over the
// C boundary (plugin_abi.h, rr_host_ops).
//
// A host plugin knows one kind of host's conventions, and nothing else: how its web pages are
// addressed (links under an answer to the file, folder, commit, comparison or repository just
// read) and how its API lists the repositories of an owner, organisation, group or workspace.
// It never makes a request. For a listing it builds each request (HttpRequest) and parses each
// answer (HttpResponse); the server sends the request itself, with its own rules: the token is
// added by the server (in the header auth_header() names), no redirect is followed, a next page
// that points outside the API is refused, sizes and times are bounded, and what the listing
// says is checked again (a repository's git address is built by the server from the configured
// host, never taken from the listing).
//
// Thread safety: every function is const and may be called on many threads at once.
// Errors: a function that cannot do its work answers an empty string (links) or a GroupPage
// with `error` set; it never throws.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "repo_reader/plugin_abi.h"

namespace repo_reader {

// A repository on a host, as the configuration names it.
struct HostRepo {
  std::string_view web_base;  // the host's web address, no trailing slash: "https://github.com"
  std::string_view path;      // the repository's path on the host: "acme/shop", "group/sub/app"
};

struct HttpRequest {
  std::string method = "GET";  // the server sends only GET and HEAD
  std::string url;             // absolute; must be under the configured API base
  std::vector<std::pair<std::string, std::string>> headers;  // never the token: see auth_header
};

struct HttpResponse {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // names as sent; compare in any case
  std::string_view body;
};

// What an owner is on the host: the API differs between them.
enum class OwnerKind : uint32_t {
  kUser = RR_OWNER_USER,                  // a user's repositories
  kOrganisation = RR_OWNER_ORGANISATION,  // GitHub organisation, GitLab group (with subgroups),
                                          // Bitbucket workspace
};

struct GroupQuery {
  std::string_view api_base;  // the API's root, no trailing slash: "https://api.github.com"
  std::string_view owner;     // "acme", "group/subgroup"
  OwnerKind kind;
  uint32_t per_page;  // the server's page size (at most 100)
};

// One repository a listing names. The server checks every field again.
struct ListedRepo {
  std::string path;            // its path on the host: "acme/shop"
  std::string description;     // the host's description, may be empty
  std::string default_branch;  // may be empty when the host does not say
  bool archived = false;
  bool fork = false;
  bool empty = false;  // the host says it holds no commit
};

struct GroupPage {
  std::vector<ListedRepo> repos;
  bool has_next = false;
  HttpRequest next;   // with has_next: the next page's request
  std::string error;  // non-empty: the page could not be read; says why, for the operator
};

// How the server sends the token: `<name>: <prefix><token>` ("Authorization", "Bearer ").
struct AuthHeader {
  std::string name;
  std::string prefix;
};

class HostPlugin {
 public:
  virtual ~HostPlugin() = default;

  // The kind the configuration names it by ("github"): lowercase, unique among plugins.
  virtual const char* kind() const noexcept = 0;

  // --- Links. Each answers a full https URL, or "" when the host has no such page.
  // `commit` is a full commit id; `path` is from the repository's root, never empty for files.
  virtual std::string RepoLink(const HostRepo& repo) const = 0;
  // Lines first..last (1-based); first == 0: the whole file.
  virtual std::string FileLink(const HostRepo& repo, std::string_view commit, std::string_view path,
                               uint32_t first, uint32_t last) const = 0;
  // path empty: the root folder.
  virtual std::string FolderLink(const HostRepo& repo, std::string_view commit,
                                 std::string_view path) const = 0;
  virtual std::string CommitLink(const HostRepo& repo, std::string_view commit) const = 0;
  virtual std::string CompareLink(const HostRepo& repo, std::string_view base_commit,
                                  std::string_view head_commit) const = 0;

  // --- Group listing.
  virtual AuthHeader auth_header() const = 0;
  // The first page's request.
  virtual HttpRequest FirstPage(const GroupQuery& query) const = 0;
  // Reads one page's answer (any status: the plugin says what a 404 or 401 means).
  virtual GroupPage ParsePage(const GroupQuery& query, const HttpResponse& response) const = 0;
};

}  // namespace repo_reader
