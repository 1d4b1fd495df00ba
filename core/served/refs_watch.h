// RefsWatch: the kernel's word (inotify) that the files deciding where a repository's HEAD points
// (and the text index's lists, WatchFile) have not changed, so that a search over thousands of
// repositories need not look at them one by one (RefsStamp::TakeOfHead: nine system calls a
// repository, most of a rare token's search over 20,000 of them; core/served/known_default.h).
//
// A ticket watches, before the refs are read, the folder holding HEAD (for HEAD), the common
// folder (for packed-refs) and the folder holding the loose file of the branch HEAD names (for
// that file; when the folder does not exist, the nearest one above it that does, for the next
// folder's name). Every change the kernel reports of one of those names -- written, replaced,
// removed, renamed over, its times or mode changed -- and every change of a watched folder itself
// (removed, renamed) makes each ticket on it stale; a queue that overflowed makes every ticket
// stale. Reports are read by Catch: a change made before a Catch is seen by every Unchanged after
// it. A ticket is never given where a move could go unreported: a HEAD that cannot be read or
// names no branch, a branch file that is a link or names another ref, a folder reached through a
// link (a link re-pointed reports nothing), the limit of watches reached, no inotify at all. Then
// the caller stamps, as before.
//
// A folder is known by the kernel's watch on it, not by its path: each ticket asks the kernel
// for the watch of each path (inotify_add_watch answers the watch a folder already has, however
// it was reached), so a folder renamed or removed and another made at its path is watched anew,
// never taken for the one that was there. The folders above the git folder are not watched: a
// repository whose parent folder is renamed and replaced by another is seen only once the refs
// are stamped again (a restart).
//
// Watches are kept for the process's life, one a folder however many tickets use it (at most
// three a repository; the kernel's limit, fs.inotify.max_user_watches, is 8,192 on older kernels
// and about 1 % of memory's worth on newer ones: past it, repositories are stamped).
//
// Thread safety: every function may be called from any thread.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/served/refs_stamp.h"

namespace rr {

class RefsWatch {
 public:
  // What one ticket watches: the counters of reported changes of its names and folders, and
  // their sum when it was taken, with the count of the kernel's overflows then (each only grows,
  // so the sum is the same exactly when every counter and the overflows are -- but for a
  // counter of 32 bits that went round between two looks: four billion changes of one folder).
  class Ticket {
   public:
    Ticket() : sum(0), count(0) {}

   private:
    friend class RefsWatch;
    // A branch nested deeper than this many counters allow is stamped instead (18: a branch
    // five folders below refs/heads).
    static constexpr size_t kMaxCounters = 18;
    // Most tickets hold 8 counters (a repository's refs: its folder and HEAD, packed-refs, refs
    // and its folder, heads and its folder, the branch) or 2 (a file): kept here, each number
    // in 3 bytes (there are at most 2^24 counters); a deeper branch's take the rest from `more`.
    // 20,000 repositories keep two tickets each: a ticket is 48 bytes, 64 with its shared count
    // (with 4-byte numbers and the overflows on their own it was 80).
    static constexpr size_t kInline = 8;
    uint32_t At(size_t i) const {
      if (i >= kInline) return more[i - kInline];
      const uint8_t* b = &ids[3 * i];
      return uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16;
    }
    void Put(size_t i, uint32_t counter);
    std::array<uint8_t, 3 * kInline> ids{};
    // The sum in 56 bits: 18 counters of 32 bits and the overflows add up to less than 2^38.
    uint64_t sum : 56;
    uint64_t count : 8;
    std::unique_ptr<uint32_t[]> more;  // kMaxCounters - kInline, once past kInline
    mutable std::atomic<uint64_t> clear_at{UINT64_MAX};
  };

  // The process's watch (made on first use).
  static RefsWatch& Shared();

  // Watches what decides where `place`'s HEAD points now. Null when it cannot be watched (see
  // above): then stamp. Take it before reading the refs.
  std::shared_ptr<const Ticket> Watch(const RefsPlace& place);
  // Watches one file, `name` in `folder` (the text index's list of a repository, say): any
  // change of it, or of the folder, makes the ticket stale. Null when it cannot be watched.
  std::shared_ptr<const Ticket> WatchFile(const std::string& folder, const std::string& name);
  // Reads every report the kernel holds: a change made before this call is seen after it.
  void Catch();
  // Nothing reported about the ticket's names since it was taken (as of the last Catch).
  bool Unchanged(const Ticket& ticket) const;
  // How many Catch calls have read a report of a change (or an overflow) so far. While it is
  // what it was, every ticket found Unchanged since is unchanged still: what was read under
  // many tickets can be kept whole, without a look at any of them.
  uint64_t Reported() const { return reported_.load(); }

  // How many folders are watched, and whether watching works at all here (tests, `about`).
  size_t folders() const;
  bool works() const { return fd_ >= 0; }

  RefsWatch();
  ~RefsWatch();
  RefsWatch(const RefsWatch&) = delete;
  RefsWatch& operator=(const RefsWatch&) = delete;

 private:
  static constexpr uint32_t kNoCounter = UINT32_MAX;
  static constexpr uint32_t kNoName = UINT32_MAX;
  // Kept lean: there are three or four a repository, 80,000 over 20,000 repositories. A folder
  // is found by its watch descriptor, its place in folders_ (the kernel hands them out from 1
  // up, one a folder), and its names are a chain in names_: 8 bytes a folder and 12 a name,
  // where a table by descriptor with a vector of names each took about 70 a folder.
  struct Folder {
    uint32_t self = kNoCounter;  // the folder itself removed, renamed or unmounted; kNoCounter:
                                 // no folder has this descriptor (now)
    uint32_t first = kNoName;    // its first name in names_
  };
  // A name within a folder that some ticket watches (a few a folder): the name (parts_), its
  // counter, and the folder's next name (kNoName: the last). The names of a folder no longer
  // watched are chained from free_names_ and taken again.
  struct Name {
    uint32_t part = 0;
    uint32_t counter = kNoCounter;
    uint32_t next = kNoName;
  };
  // Descriptors past this are not kept (the folder is stamped instead): folders_ grows with the
  // highest descriptor the kernel has handed out, 8 bytes each, and it hands out a new one for
  // each folder watched anew (made again after a removal).
  static constexpr int kMaxDescriptor = 1 << 22;
  // Adds to `ticket` the counter of `name` in the folder at `path` (watched from now on) and the
  // folder's own; false when the folder cannot be watched or the ticket is full.
  bool Add(const std::string& path, const std::string& name, Ticket* ticket);
  // A counter of its own, at zero (mu_ held); kNoCounter when every one is used.
  uint32_t NewCounter();
  const std::atomic<uint32_t>& Counter(uint32_t i) const {
    return chunks_[i / kChunk].load(std::memory_order_acquire)[i % kChunk];
  }
  std::atomic<uint32_t>& Counter(uint32_t i) {
    return chunks_[i / kChunk].load(std::memory_order_acquire)[i % kChunk];
  }
  // The id of a name (mu_ held): the same few names (HEAD, packed-refs, refs, heads, main...)
  // over every repository.
  uint32_t PartId(std::string_view name);

  int fd_ = -1;
  mutable std::mutex mu_;        // folders_, parts_, new counters, and reading the kernel's reports
  std::vector<Folder> folders_;  // by watch descriptor
  size_t watched_ = 0;           // folders_ with a folder
  std::vector<Name> names_;
  uint32_t free_names_ = kNoName;
  std::deque<std::string> parts_;  // names by id (never move)
  std::unordered_map<std::string_view, uint32_t> part_ids_;
  // Counters are never freed (a ticket may outlive its folder's watch): chunks of kChunk, at
  // most kMaxChunks of them (16.7 million counters, 67 MB; past that, repositories are stamped).
  // A folder watched anew (made again after a removal) takes new ones: two or three counters,
  // 4 bytes each, for each folder ever watched (about ten a repository: 0.8 MB over 20,000).
  static constexpr uint32_t kChunk = 4096;
  static constexpr uint32_t kMaxChunks = 4096;
  static_assert(uint64_t{kChunk} * kMaxChunks <= (uint64_t{1} << 24), "a ticket's 3-byte numbers");
  std::unique_ptr<std::atomic<std::atomic<uint32_t>*>[]> chunks_;
  uint32_t counters_used_ = 0;
  std::atomic<uint32_t> overflows_{0};  // (a ticket adds it to its sum)
  // Bumped by each Catch that read a report of a change (or an overflow), after the counters.
  std::atomic<uint64_t> reported_{0};
};

}  // namespace rr
