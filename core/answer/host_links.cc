#include "core/answer/host_links.h"

#include <utility>

#include "core/util/crash_note.h"

namespace rr {

WebAddress WebAddressOf(const std::string& url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return {};
  const size_t slash = url.find('/', scheme + 3);
  if (slash == std::string::npos) return {};
  std::string path = url.substr(slash + 1);
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".git") == 0)
    path.resize(path.size() - 4);
  if (path.empty()) return {};
  return {url.substr(0, slash), path};
}

HostLinks::HostLinks(std::vector<std::shared_ptr<const repo_reader::HostPlugin>> hosts) {
  for (auto& h : hosts) {
    if (h) hosts_.emplace(h->kind(), std::move(h));
  }
}

namespace {

// How the line names the host: "On GitHub:".
std::string Label(const std::string& kind) {
  if (kind == "github") return "On GitHub: ";
  if (kind == "gitlab") return "On GitLab: ";
  if (kind == "bitbucket") return "On Bitbucket: ";
  return "On the host (" + kind + "): ";
}

// A link is shown only when it is a plain https (or, to this machine, http) address of printable
// ASCII: a plugin's mistake never reaches an answer as something else.
bool Plain(const std::string& link) {
  if (link.rfind("https://", 0) != 0 && link.rfind("http://", 0) != 0) return false;
  if (link.size() > 4096) return false;
  for (unsigned char c : link) {
    if (c <= ' ' || c >= 0x7f) return false;
  }
  return true;
}

}  // namespace

std::string HostLinks::RepoLine(const std::string& host_kind, const std::string& url) const {
  auto it = hosts_.find(host_kind);
  if (host_kind.empty() || it == hosts_.end()) return "";
  const WebAddress web = WebAddressOf(url);
  if (web.base.empty()) return "";
  std::string link;
  try {
    const std::string running = "the host plugin of host kind `" + host_kind + "` (a link)";
    PluginCallNote note(running.c_str());
    link = it->second->RepoLink(repo_reader::HostRepo{web.base, web.path});
  } catch (...) {
    return "";
  }
  if (link.empty() || !Plain(link)) return "";
  return Label(host_kind) + link;
}

std::string HostLinks::Line(const ReadSpot& spot, uint32_t first, uint32_t last) const {
  if (spot.kind == ReadSpot::Kind::kNone || spot.host_kind.empty() || spot.commit.empty()) {
    return "";
  }
  auto it = hosts_.find(spot.host_kind);
  if (it == hosts_.end()) return "";
  const WebAddress web = WebAddressOf(spot.url);
  if (web.base.empty()) return "";
  const repo_reader::HostRepo repo{web.base, web.path};
  const repo_reader::HostPlugin& host = *it->second;
  std::string link;
  try {
    const std::string running = "the host plugin of host kind `" + spot.host_kind + "` (a link)";
    PluginCallNote note(running.c_str());
    switch (spot.kind) {
      case ReadSpot::Kind::kFile:
        if (!spot.path.empty()) link = host.FileLink(repo, spot.commit, spot.path, first, last);
        break;
      case ReadSpot::Kind::kFolder:
        link = host.FolderLink(repo, spot.commit, spot.path);
        break;
      case ReadSpot::Kind::kCommit:
        link = host.CommitLink(repo, spot.commit);
        break;
      case ReadSpot::Kind::kCompare:
        if (!spot.base_commit.empty()) link = host.CompareLink(repo, spot.base_commit, spot.commit);
        break;
      case ReadSpot::Kind::kNone:
        break;
    }
  } catch (...) {
    return "";
  }
  if (link.empty() || !Plain(link)) return "";
  return Label(spot.host_kind) + link;
}

}  // namespace rr
