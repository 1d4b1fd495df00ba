// Host links: the line under an answer's header that points to the host's own page for what the
// answer read (seed: "A link to the host's own page"), e.g.
//   On GitHub: https://github.com/acme/shop/blob/<commit>/src/app.py#L1-L40
// The file at the commit read and the lines shown, the folder, the commit, or the comparison
// (GitHub and GitLab only), as the tool's spec declares (its `link` trait, core/tools/tool.h). A
// link always names a commit id, so it shows what the answer showed after the branch moves. Only
// a mirror whose host kind has a loaded host plugin gets one; a local repository has none.
//
// A tool says nothing of links. What a call read is its target, resolved once from its arguments
// before it runs (core/served/call_target.h: the repository, the commit a ref resolved to, the
// path); the server makes it a ReadSpot of the kind the spec declares, and the answer pipeline
// joins the line once, between the header and the cap, with the line range taken from the lines
// the cap kept. The host plugin builds the URL (and percent-encodes paths); the core never reads
// a URL from anything but the configuration.
//
// Thread-safe: HostLinks is immutable after construction.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "repo_reader/host.h"

namespace rr {

// The host page an answer links to: none, the file read (with the lines shown), the folder, the
// commit, the comparison of two commits.
enum class LinkKind { kNone, kFile, kFolder, kCommit, kCompare };

// What an answer read, for its link. Empty `host_kind`: no link.
struct ReadSpot {
  using Kind = LinkKind;
  Kind kind = Kind::kNone;
  std::string host_kind;    // the mirror's host kind ("github"); "" for a local repository
  std::string url;          // the mirror's configured URL: https://github.com/acme/shop.git
  std::string commit;       // full id: the commit read, or the comparison's head
  std::string base_commit;  // full id: the comparison's base
  std::string path;         // from the repository's root; "" for the root
};

// The web address and the repository path of a mirror URL: "https://github.com/acme/shop.git"
// gives {"https://github.com", "acme/shop"}. Empty strings for a URL it cannot split.
struct WebAddress {
  std::string base;
  std::string path;
};
WebAddress WebAddressOf(const std::string& url);

class HostLinks {
 public:
  explicit HostLinks(std::vector<std::shared_ptr<const repo_reader::HostPlugin>> hosts);

  // The link line for `spot`, lines first..last of a file (0: none given), or "" when there is
  // none (a local repository, a host kind without a plugin, a page the host does not have).
  std::string Line(const ReadSpot& spot, uint32_t first, uint32_t last) const;

  // The repository's own page (for a listing of repositories), "On GitHub:
  // https://github.com/acme/shop", or "".
  std::string RepoLine(const std::string& host_kind, const std::string& url) const;

  bool empty() const { return hosts_.empty(); }

 private:
  std::map<std::string, std::shared_ptr<const repo_reader::HostPlugin>> hosts_;
};

}  // namespace rr
