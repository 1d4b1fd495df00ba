// repo-reader-bitbucket: the host plugin for Bitbucket Cloud (bitbucket.org).
//
// Links: <web>/<workspace>/<repo>/src/<commit>/<path>#lines-1:40, src/<commit>/<path>/ for a
// folder, commits/<commit>, and the repository's page. Bitbucket has no page comparing two
// commits by id that the other hosts' links match, so a comparison gets no link.
// Listing (REST API 2.0, developer.atlassian.com/cloud/bitbucket/rest/api-group-repositories):
// GET <api>/repositories/<workspace>?pagelen=N, sorted by full name; the next page is the body's
// `next` URL. A user's repositories are those of their workspace, so both kinds list the same.
// Token: `Authorization: Bearer <token>` (a workspace, project or repository access token with
// the repository scope). The plugin reads no settings.
#include <repo_reader/sdk.h>

#include <memory>
#include <string>

#include "host_common.h"

namespace rr_bitbucket {

namespace {

using repo_reader::GroupPage;
using repo_reader::GroupQuery;
using repo_reader::HostRepo;
using repo_reader::HttpRequest;
using repo_reader::HttpResponse;

constexpr rr_hosts::LinkStyle kLinks = {"/src/", "/src/",   true, "/commits/",
                                        nullptr, "#lines-", ":"};
constexpr rr_hosts::PageStyle kPages = {"an access token with the repository (read) scope",
                                        "a page of repositories", "(an object with `values`)",
                                        "full_name", "values"};

class Bitbucket : public rr_hosts::LinkedHost {
 public:
  Bitbucket() : LinkedHost(kLinks) {}

  const char* kind() const noexcept override { return "bitbucket"; }

  repo_reader::AuthHeader auth_header() const override { return {"Authorization", "Bearer "}; }

  HttpRequest FirstPage(const GroupQuery& q) const override {
    HttpRequest r;
    r.url = std::string(q.api_base) + "/repositories/" + rr_hosts::Encode(q.owner, false) +
            "?sort=full_name&pagelen=" + std::to_string(q.per_page ? q.per_page : 100);
    r.headers = {{"Accept", "application/json"}};
    return r;
  }

  GroupPage ParsePage(const GroupQuery& q, const HttpResponse& response) const override {
    const std::string what = "workspace `" + std::string(q.owner).substr(0, 100) + "`";
    return rr_hosts::ReadPage(
        response, what, kPages,
        [](const Poco::JSON::Object& o, repo_reader::ListedRepo* repo) {
          repo->description = rr_hosts::Text(o, "description");
          if (auto main = o.getObject("mainbranch")) {
            repo->default_branch = rr_hosts::Text(*main, "name");
          }
          repo->fork = rr_hosts::Present(o, "parent");
        },
        [](const Poco::JSON::Object::Ptr& body, std::string* next, std::string*) {
          *next = rr_hosts::Text(*body, "next");
          return true;
        },
        FirstPage(q).headers);
  }
};

repo_reader::Made<repo_reader::HostPlugin> MakeHosts(const repo_reader::PluginSettings& settings) {
  repo_reader::Made<repo_reader::HostPlugin> made;
  if (!settings.empty()) {
    made.error =
        "repo-reader-bitbucket reads no settings; remove `" + settings.begin()->first + "`";
    return made;
  }
  made.made.push_back(std::make_unique<Bitbucket>());
  return made;
}

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry = {
      repo_reader::kAbiVersion,
      sizeof(repo_reader::PluginEntry),
      "repo-reader-bitbucket",
      "0.1.0",
      "Bitbucket Cloud: links to its pages, workspace listings",
      repo_reader::kHostPlugin,
      nullptr,
      &MakeHosts,
  };
  return &entry;
}

}  // namespace

}  // namespace rr_bitbucket

REPO_READER_PLUGIN(rr_bitbucket::Entry)
