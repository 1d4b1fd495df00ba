// RefsStamp: whether a repository's branches, tags or HEAD may have moved since a moment, told
// from how the files that hold them look (stat), without opening the repository or reading a
// ref. list_repos keeps each repository's entry with the stamp it was read at (entry_cache.h).
//
// git and libgit2 write every ref through a lock file renamed into place, packed-refs too, and
// remove a deleted ref's file (and a folder it leaves empty). So a ref made, moved or deleted
// changes at least one of: HEAD (inode, size, times), packed-refs (likewise), the loose file of
// the branch HEAD names, or the modification time of a folder under refs/ (a file created,
// renamed into or removed from it). The stamp is a digest of all of them, HEAD's text, and the
// names of the folders under refs/.
//
// A file system's clock ticks coarsely: a change in the same tick as one the stamp records
// leaves the times unchanged. A stamp that records a change less than kRacySeconds before it was
// taken is therefore `racy` and is never taken as proof that nothing moved (git's "racily clean"
// rule); neither is one that could not look at everything (more than kMaxFolders folders).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace rr {

// Where a repository keeps HEAD (git_dir) and its refs/ folder and packed-refs (common_dir:
// the main repository's git folder for a linked worktree), without trailing '/'.
struct RefsPlace {
  std::string git_dir;
  std::string common_dir;  // "" when the same as git_dir (kept once: one per repository)
  bool empty() const { return git_dir.empty(); }
  static RefsPlace Of(std::string git_dir, std::string common_dir) {
    if (common_dir == git_dir) common_dir.clear();
    return {std::move(git_dir), std::move(common_dir)};
  }
};

// How some files look now -- device, inode, size and modification time of each, an absent one
// as absent -- as one number: equal numbers, files unchanged (the history's graph files).
uint64_t FilesDigest(std::initializer_list<std::string> files);

class RefsStamp {
 public:
  static constexpr int64_t kRacySeconds = 2;
  static constexpr size_t kMaxFolders = 4096;

  // How the refs' files look now. An absent file or folder is recorded as absent.
  static RefsStamp Take(const RefsPlace& place);
  // How the files that decide where HEAD points look now: HEAD, the loose file of the branch it
  // names and packed-refs -- not the folders of the other refs, whose moves do not change it
  // (a search's default branch, core/served/known_default.h: a few calls instead of a listing of
  // every folder under refs/). Never trusted when HEAD cannot be read or the branch's loose file
  // names another ref (its moves would not show). Compare it only with a stamp taken the same way.
  static RefsStamp TakeOfHead(const RefsPlace& place);

  // True when `later` shows nothing changed since this stamp, and this stamp can be trusted.
  bool Unchanged(const RefsStamp& later) const { return !racy_ && digest_ == later.digest_; }
  bool racy() const { return racy_; }
  // The digest itself: equal digests mean the files looked the same (kept on disk by the
  // history index; tests compare them).
  uint64_t digest() const { return digest_; }
  // A stamp kept as its digest, taken when it was not racy.
  static RefsStamp Trusted(uint64_t digest) {
    RefsStamp s;
    s.digest_ = digest;
    s.racy_ = false;
    return s;
  }

 private:
  uint64_t digest_ = 0;
  bool racy_ = true;
};

}  // namespace rr
