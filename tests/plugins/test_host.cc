// A host plugin for the loader's tests: plugin RR_NAME serving the host kind RR_HOST_KIND (for
// a made-up host, "acmehub"). Built twice under two names with one kind, so that the loader's
// rule "a host kind is served by one plugin" can be tried; and with a kind no configuration
// could name.
#include <repo_reader/sdk.h>

#include <memory>
#include <string>

namespace {

using repo_reader::HostRepo;

class TestHost : public repo_reader::HostPlugin {
 public:
  const char* kind() const noexcept override { return RR_HOST_KIND; }
  std::string RepoLink(const HostRepo& r) const override {
    return std::string(r.web_base) + "/" + std::string(r.path);
  }
  std::string FileLink(const HostRepo& r, std::string_view commit, std::string_view path, uint32_t,
                       uint32_t) const override {
    return RepoLink(r) + "/file/" + std::string(commit) + "/" + std::string(path);
  }
  std::string FolderLink(const HostRepo& r, std::string_view commit,
                         std::string_view path) const override {
    return RepoLink(r) + "/folder/" + std::string(commit) + "/" + std::string(path);
  }
  std::string CommitLink(const HostRepo& r, std::string_view commit) const override {
    return RepoLink(r) + "/commit/" + std::string(commit);
  }
  std::string CompareLink(const HostRepo&, std::string_view, std::string_view) const override {
    return "";
  }
  repo_reader::AuthHeader auth_header() const override { return {"Authorization", "Bearer "}; }
  repo_reader::HttpRequest FirstPage(const repo_reader::GroupQuery& q) const override {
    repo_reader::HttpRequest r;
    r.url = std::string(q.api_base) + "/owners/" + std::string(q.owner) + "/repos";
    return r;
  }
  repo_reader::GroupPage ParsePage(const repo_reader::GroupQuery&,
                                   const repo_reader::HttpResponse&) const override {
    repo_reader::GroupPage page;
    page.error = "the test host lists no repository";
    return page;
  }
};

repo_reader::Made<repo_reader::HostPlugin> MakeHosts(const repo_reader::PluginSettings&) {
  repo_reader::Made<repo_reader::HostPlugin> made;
  made.made.push_back(std::make_unique<TestHost>());
  return made;
}

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry = {repo_reader::kAbiVersion,
                                                 sizeof(repo_reader::PluginEntry),
                                                 RR_NAME,
                                                 "1.0.0",
                                                 "a host plugin of the loader's tests",
                                                 repo_reader::kHostPlugin,
                                                 nullptr,
                                                 &MakeHosts};
  return &entry;
}

}  // namespace

REPO_READER_PLUGIN(Entry)
