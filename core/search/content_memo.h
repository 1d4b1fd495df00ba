// ContentMemo: what each file's content came to in one search over several repositories, so that
// the same content under the same path (a fork, a copy, a repository made from another) is read,
// matched and scanned once however many repositories hold it -- over an organisation built from a
// few codebases, thousands of times fewer (docs/performance.md, "Each content matched once a
// search").
//
// Kept by content id and path (the secret filter reads the path), for one search only. The caller
// keeps only what the content alone decides -- searched or binary, its matching lines and the
// filter's veto -- never what depends on the repository (a content it could not read, a detector
// that failed). At most kMaxBytes of lines are kept; past it, nothing more is.
//
// Thread safety: every function may be called from any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/search/text_search.h"

namespace rr {

class ContentMemo {
 public:
  static constexpr size_t kMaxBytes = 64 * 1024 * 1024;

  struct Done {
    bool binary = false;  // else searched
    FileHits hits;        // without its target and node
  };

  // The key of `node`'s content under its path.
  static std::string Key(const Node& node);
  // The key of content `oid` under `path`.
  static std::string Key(const git_oid& oid, std::string_view path);
  // What the content came to, when kept; null else.
  std::shared_ptr<const Done> Find(const std::string& key) const;
  // Keeps what the content came to (the first time, while it fits).
  void Keep(std::string key, bool binary, const FileHits& hits);

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<const Done>> kept_;
  size_t bytes_ = 0;
};

}  // namespace rr
