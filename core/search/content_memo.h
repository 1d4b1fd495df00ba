// ContentMemo: what each file's content came to in one search over several repositories, so that
// the same content under the same path (a fork, a copy, a repository made from another) is read,
// matched and scanned once however many repositories hold it -- over an organisation built from a
// few codebases, thousands of times fewer (docs/performance.md, "Each content matched once a
// search").
//
// Kept by content id and path (the secret filter reads the path). The caller keeps only what the
// content alone decides -- searched or binary, its matching lines and the filter's veto -- never
// what depends on the repository (a content it could not read, a detector that failed). At most
// kMaxBytes are kept, entries and lines; past it, nothing more is.
//
// What a memo holds is true of its pattern, options and secret filter for good: a content is
// named by its digest. So a search hands its memo on to the next search with the same ones
// (ContentMemoShelf): an agent that asks again, or pages, or a team asking the same thing, is
// answered without reading, matching or scanning a content read before. Only the repositories'
// lists and trees are looked at again, as every search does.
//
// Thread safety: every function may be called from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
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

  // Once its search is done (no thread uses it): drops whatever was claimed or being read and
  // never kept, so that what is handed on holds only what contents came to.
  void Settle();
  // What it keeps, roughly (entries and lines).
  size_t bytes() const;

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

// The memos of the last searches, by what they answer (ContentMemo's note): each search takes
// the memo of the same pattern, options and filter off the shelf -- it alone uses it -- and puts
// it back once done. The shelf holds at most kMemos memos and kMaxBytes in all (the least recently
// used go first), and none unused for kUnusedFor (looked at on each search, and after each
// background pass): a shelf is memory the server keeps after the search, bounded however many
// patterns are asked, and given back once nobody searches.
class ContentMemoShelf {
 public:
  static constexpr size_t kMemos = 16;
  static constexpr size_t kMaxBytes = 64 * 1024 * 1024;
  static constexpr std::chrono::minutes kUnusedFor{10};

  // The process's shelf (the search tool's).
  static ContentMemoShelf& Shared();

  // The memo kept for `key`, off the shelf; a new one when none is (or the one kept is over half
  // its bound). `owner` is what the key names
  // (the secret filter): held while the memo is, so that a key naming it by address never names
  // another.
  std::shared_ptr<ContentMemo> Take(const std::string& key, std::shared_ptr<const void> owner);
  // Puts `memo` back (settled) under `key`; memos unused too long, and the least recently used
  // past the bounds, are dropped.
  void Put(const std::string& key, std::shared_ptr<ContentMemo> memo,
           std::shared_ptr<const void> owner);
  // Drops the memos unused for kUnusedFor (the shared shelf's is called after every background
  // pass: TrimCaches).
  void DropUnused(std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());
  // How many memos it holds, and their bytes.
  size_t memos() const;
  size_t bytes() const;
  void Clear();

 private:
  struct Kept {
    std::string key;
    std::shared_ptr<ContentMemo> memo;
    std::shared_ptr<const void> owner;
    std::chrono::steady_clock::time_point used;
  };
  // Moves what is past the bounds, or unused too long, into *gone (freed by the caller once
  // the lock is let go).
  void DropOld(std::chrono::steady_clock::time_point now, std::deque<Kept>* gone);
  mutable std::mutex mu_;
  std::deque<Kept> kept_;  // the most recently used last
};

}  // namespace rr
