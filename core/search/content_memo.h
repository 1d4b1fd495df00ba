// ContentMemo: what each file's content came to in one search over several repositories, so that
// the same content under the same path (a fork, a copy, a repository made from another) is read,
// matched and scanned once however many repositories hold it -- over an organisation built from a
// few codebases, thousands of times fewer (docs/performance.md, "Each content matched once a
// search").
//
// Kept by content id and path (the secret filter reads the path), for one search only. The caller
// keeps only what the content alone decides -- searched or binary, its matching lines and the
// filter's veto -- never what depends on the repository (a content it could not read, a detector
// that failed). At most kMaxBytes are kept, entries and lines; past it, nothing more is.
//
// Thread safety: every function may be called from any thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/search/text_search.h"
#include "core/util/stop.h"

namespace rr {

class ContentMemo {
 public:
  // What is kept -- every content met, claimed or read, and the lines of those kept -- stays
  // within this; past it, contents not met yet are read by each thread that meets them.
  static constexpr size_t kMaxBytes = 64 * 1024 * 1024;

  struct Done {
    bool binary = false;  // else searched
    FileHits hits;        // without its target and node
  };

  // The key of `node`'s content under its path.
  static std::string Key(const Node& node);
  // The key of content `oid` under `path`.
  static std::string Key(const git_oid& oid, std::string_view path);
  // What the content came to, when kept; null else. *claimed (when given): whether it was
  // claimed, is being read or was kept, in the same look-up.
  std::shared_ptr<const Done> Find(const std::string& key, bool* claimed = nullptr) const;

  // A file on its way to a searching thread. The first walker to hand on a content under a path
  // (found again in its repository's tree) claims it; a walker finding it claimed hands its own
  // copy on without opening its repository (the list trusted for where the content is, as for
  // a content already read), and the searching thread that takes a copy waits while another
  // reads the content rather than reading it again.
  // Claims `key`; false when it already was.
  bool Claim(const std::string& key);
  // For a searching thread about to read a file: what the content came to, when kept; while
  // another thread reads it, waits for that (until `stop` is); null when this thread is to
  // read it -- then *mine is set, and the thread Keeps what it came to or Releases it.
  std::shared_ptr<const Done> Take(const std::string& key, const StopToken& stop, bool* mine);
  // Keeps what the content came to (the first time, while it fits); past kMaxBytes, nothing is
  // kept and every thread asking reads the content itself.
  void Keep(std::string key, bool binary, const FileHits& hits);
  // The reading thread kept nothing (the file could not be read there, a detector failed): the
  // next to ask reads it.
  void Release(const std::string& key);

 private:
  enum class State : uint8_t { kClaimed, kReading, kDone, kUnkept };
  struct Entry {
    State state = State::kClaimed;
    std::shared_ptr<const Done> done;
  };
  static size_t EntryCost(const std::string& key);
  mutable std::mutex mu_;
  std::condition_variable read_;  // a content read (kept, released or not kept)
  std::unordered_map<std::string, Entry> kept_;
  size_t bytes_ = 0;
};

}  // namespace rr
