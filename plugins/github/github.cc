// repo-reader-github: the host plugin for GitHub (github.com and GitHub Enterprise Server).
//
// Links: <web>/<owner>/<repo>/blob/<commit>/<path>#L1-L40, tree/<commit>/<path>,
// commit/<commit>, compare/<base>...<head>, and the repository's page.
// Listing (REST API, docs.github.com/rest/repos/repos): GET <api>/orgs/<org>/repos?type=all or
// <api>/users/<user>/repos?type=owner, sorted by full name, `per_page` at a time; the next page
// is the `Link` header's rel="next". Token: `Authorization: Bearer <token>` (a fine-grained
// token with Metadata: read, or a classic token with `repo` for private repositories).
// The plugin reads no settings.
#include <repo_reader/sdk.h>

#include <memory>
#include <string>

#include "host_common.h"

namespace rr_github {

namespace {

using repo_reader::GroupPage;
using repo_reader::GroupQuery;
using repo_reader::HostRepo;
using repo_reader::HttpRequest;
using repo_reader::HttpResponse;

constexpr rr_hosts::LinkStyle kLinks = {"/blob/",    "/tree/", false, "/commit/",
                                        "/compare/", "#L",     "-L"};
constexpr rr_hosts::PageStyle kPages = {"a token that can read the repositories' metadata",
                                        "a list of repositories", "(a JSON array)", "full_name",
                                        nullptr};

class GitHub : public rr_hosts::LinkedHost {
 public:
  GitHub() : LinkedHost(kLinks) {}

  const char* kind() const noexcept override { return "github"; }

  repo_reader::AuthHeader auth_header() const override { return {"Authorization", "Bearer "}; }

  HttpRequest FirstPage(const GroupQuery& q) const override {
    HttpRequest r;
    const std::string owner = rr_hosts::Encode(q.owner, false);
    r.url = std::string(q.api_base) +
            (q.kind == repo_reader::OwnerKind::kUser ? "/users/" + owner + "/repos?type=owner"
                                                     : "/orgs/" + owner + "/repos?type=all") +
            "&sort=full_name&per_page=" + std::to_string(q.per_page ? q.per_page : 100);
    r.headers = {{"Accept", "application/vnd.github+json"}, {"X-GitHub-Api-Version", "2022-11-28"}};
    return r;
  }

  GroupPage ParsePage(const GroupQuery& q, const HttpResponse& response) const override {
    const std::string what =
        std::string(q.kind == repo_reader::OwnerKind::kUser ? "user `" : "organisation `") +
        std::string(q.owner).substr(0, 100) + "`";
    return rr_hosts::ReadPage(
        response, what, kPages,
        [](const Poco::JSON::Object& o, repo_reader::ListedRepo* repo) {
          repo->description = rr_hosts::Text(o, "description");
          repo->default_branch = rr_hosts::Text(o, "default_branch");
          repo->archived = rr_hosts::Flag(o, "archived");
          repo->fork = rr_hosts::Flag(o, "fork");
        },
        [&](const Poco::JSON::Object::Ptr&, std::string* next, std::string*) {
          *next = rr_hosts::NextFromLink(response);
          return true;
        },
        FirstPage(q).headers);
  }
};

repo_reader::Made<repo_reader::HostPlugin> MakeHosts(const repo_reader::PluginSettings& settings) {
  repo_reader::Made<repo_reader::HostPlugin> made;
  if (!settings.empty()) {
    made.error = "repo-reader-github reads no settings; remove `" + settings.begin()->first + "`";
    return made;
  }
  made.made.push_back(std::make_unique<GitHub>());
  return made;
}

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry = {
      repo_reader::kAbiVersion,
      sizeof(repo_reader::PluginEntry),
      "repo-reader-github",
      "0.1.0",
      "GitHub: links to its pages, organisation and user listings",
      repo_reader::kHostPlugin,
      nullptr,
      &MakeHosts,
  };
  return &entry;
}

}  // namespace

}  // namespace rr_github

REPO_READER_PLUGIN(rr_github::Entry)
