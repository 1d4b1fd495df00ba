// repo-reader-gitlab: the host plugin for GitLab (gitlab.com and self-managed GitLab).
//
// Links: <web>/<group>/<project>/-/blob/<commit>/<path>#L1-40, -/tree/<commit>/<path>,
// -/commit/<commit>, -/compare/<base>...<head>, and the project's page.
// Listing (REST API v4, docs.gitlab.com/api/groups and /api/projects): GET
// <api>/groups/<url-encoded group path>/projects?include_subgroups=true (the group and all its
// subgroups) or <api>/users/<user>/projects, ordered by id, `per_page` at a time; the next page
// is the `Link` header's rel="next", else the page `X-Next-Page` names. Token: `Authorization:
// Bearer <token>` (a personal, group or project access token with read_api).
// The plugin reads no settings.
#include <repo_reader/sdk.h>

#include <memory>
#include <string>

#include "host_common.h"

namespace rr_gitlab {

namespace {

using repo_reader::GroupPage;
using repo_reader::GroupQuery;
using repo_reader::HostRepo;
using repo_reader::HttpRequest;
using repo_reader::HttpResponse;

constexpr rr_hosts::LinkStyle kLinks = {"/-/blob/",    "/-/tree/", false, "/-/commit/",
                                        "/-/compare/", "#L",       "-"};
constexpr rr_hosts::PageStyle kPages = {"a token with the read_api scope", "a list of projects",
                                        "(a JSON array)", "path_with_namespace", nullptr};

class GitLab : public rr_hosts::LinkedHost {
 public:
  GitLab() : LinkedHost(kLinks) {}

  const char* kind() const noexcept override { return "gitlab"; }

  repo_reader::AuthHeader auth_header() const override { return {"Authorization", "Bearer "}; }

  HttpRequest FirstPage(const GroupQuery& q) const override {
    HttpRequest r;
    const std::string owner = rr_hosts::Encode(q.owner, false);  // "a/b" is "a%2Fb"
    r.url = std::string(q.api_base) +
            (q.kind == repo_reader::OwnerKind::kUser
                 ? "/users/" + owner + "/projects?"
                 : "/groups/" + owner + "/projects?include_subgroups=true&") +
            "order_by=id&sort=asc&per_page=" + std::to_string(q.per_page ? q.per_page : 100);
    r.headers = {{"Accept", "application/json"}};
    return r;
  }

  GroupPage ParsePage(const GroupQuery& q, const HttpResponse& response) const override {
    const std::string what =
        std::string(q.kind == repo_reader::OwnerKind::kUser ? "user `" : "group `") +
        std::string(q.owner).substr(0, 200) + "`";
    return rr_hosts::ReadPage(
        response, what, kPages,
        [](const Poco::JSON::Object& o, repo_reader::ListedRepo* repo) {
          repo->description = rr_hosts::Text(o, "description");
          repo->default_branch = rr_hosts::Text(o, "default_branch");
          repo->archived = rr_hosts::Flag(o, "archived");
          repo->fork = rr_hosts::Present(o, "forked_from_project");
          repo->empty = rr_hosts::Flag(o, "empty_repo");
        },
        [&](const Poco::JSON::Object::Ptr&, std::string* next, std::string* error) {
          *next = rr_hosts::NextFromLink(response);
          if (!next->empty()) return true;
          // Without a Link header (GitLab leaves it out past 10,000 entries with offset
          // pagination): the page X-Next-Page names, empty on the last page.
          if (const std::string* n = rr_hosts::Header(response, "X-Next-Page")) {
            const bool number = !n->empty() && n->size() < 10 &&
                                n->find_first_not_of("0123456789") == std::string::npos;
            if (!n->empty() && !number) {
              *error = "the host's X-Next-Page header is not a page number";
              return false;
            }
            if (number) *next = FirstPage(q).url + "&page=" + *n;
          }
          return true;
        },
        FirstPage(q).headers);
  }
};

repo_reader::Made<repo_reader::HostPlugin> MakeHosts(const repo_reader::PluginSettings& settings) {
  repo_reader::Made<repo_reader::HostPlugin> made;
  if (!settings.empty()) {
    made.error = "repo-reader-gitlab reads no settings; remove `" + settings.begin()->first + "`";
    return made;
  }
  made.made.push_back(std::make_unique<GitLab>());
  return made;
}

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry = {
      repo_reader::kAbiVersion,
      sizeof(repo_reader::PluginEntry),
      "repo-reader-gitlab",
      "0.1.0",
      "GitLab: links to its pages, group (with subgroups) and user listings",
      repo_reader::kHostPlugin,
      nullptr,
      &MakeHosts,
  };
  return &entry;
}

}  // namespace

}  // namespace rr_gitlab

REPO_READER_PLUGIN(rr_gitlab::Entry)
