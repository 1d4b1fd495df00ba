// The libgit2 layer: opening repositories, resolving refs to commits, reading commits, refs,
// trees and blobs. Private to core: tools never use it directly; they go through
// core/served/served_repo.h, which applies include / exclude on top of it.
//
// Nothing here starts a process or touches the network: libgit2 is used in-process, files are
// read from commits' objects (never a working folder), blobs are read raw (no filters, no
// attributes), and no global or system git configuration is read (InitGitLibrary).
#pragma once

#include <git2.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/git/pack_reader.h"
#include "core/git/ref_text.h"
#include "core/util/result.h"

namespace rr {

// Sets libgit2 up once per process: no global/XDG/system configuration, no owner validation,
// no strict hash verification, a bounded object cache. Safe to call more than once.
void InitGitLibrary();

class CommitId {
 public:
  CommitId() = default;
  explicit CommitId(const git_oid& oid) : oid_(oid) {}
  const git_oid& oid() const { return oid_; }
  std::string Hex() const;
  std::string Short() const { return Hex().substr(0, 12); }
  bool operator==(const CommitId& o) const { return git_oid_equal(&oid_, &o.oid_); }

 private:
  git_oid oid_{};
};

struct CommitSummary {
  CommitId id;
  int64_t time = 0;     // committer time, seconds since the epoch
  int offset = 0;       // committer's offset from UTC, minutes
  std::string subject;  // first line of the message, raw bytes
};

struct RefEntry {
  enum class Kind { kBranch, kRemoteBranch, kTag };
  Kind kind;
  std::string name;  // short name: main, origin/main, v1.0 (raw bytes)
  CommitSummary commit;
  bool annotated = false;  // an annotated tag
};

struct HeadState {
  enum class Kind { kBranch, kDetached, kUnborn, kBroken };
  Kind kind = Kind::kBroken;
  std::string branch;   // the branch HEAD names (kBranch, kUnborn)
  CommitId commit;      // kBranch, kDetached
  std::string problem;  // kBroken: what is wrong
};

// What a tree entry is.
enum class EntryKind { kFile, kFolder, kLink, kSubmodule, kOther };

struct TreeEntry {
  std::string name;  // raw bytes from the tree
  EntryKind kind;
  git_oid oid;
  bool executable = false;
};

struct Deleter {
  void operator()(git_repository* p) const { git_repository_free(p); }
  void operator()(git_tree* p) const { git_tree_free(p); }
  void operator()(git_commit* p) const { git_commit_free(p); }
  void operator()(git_blob* p) const { git_blob_free(p); }
  void operator()(git_object* p) const { git_object_free(p); }
  void operator()(git_reference* p) const { git_reference_free(p); }
  void operator()(git_reference_iterator* p) const { git_reference_iterator_free(p); }
  void operator()(git_odb* p) const { git_odb_free(p); }
  void operator()(git_tag* p) const { git_tag_free(p); }
};
using TreePtr = std::unique_ptr<git_tree, Deleter>;
using BlobPtr = std::unique_ptr<git_blob, Deleter>;

// The last libgit2 error as text.
std::string LastGitError();

// One open repository. Not thread-safe: one thread at a time (RepoHandles hands them out).
class GitRepo {
 public:
  // Opens the repository at `path` (a work tree or a git folder, bare or not). Does not search
  // parent folders.
  static Result<std::unique_ptr<GitRepo>> Open(const std::string& path);
  ~GitRepo();
  // Finds the repository holding `path` (it or a parent folder), as git does.
  static Result<std::string> Discover(const std::string& path);

  HeadState Head();
  // Resolves checked ref text to a commit; nullopt for anything else, whatever the reason (not
  // there, ambiguous, not a commit, a name outside branches and tags): all answer as one.
  std::optional<CommitId> Resolve(const RefText& ref);
  Result<CommitSummary> Summary(const CommitId& id);
  // Branches, remote-tracking branches and tags (tags of a commit only; symbolic refs skipped).
  // Stops after `limit` refs and sets *truncated.
  Result<std::vector<RefEntry>> Refs(size_t limit, bool* truncated);

  // How many branches, remote-tracking branches and tags Refs would list, without reading
  // their commits (a tag is counted when it names a commit or a tag).
  struct RefCounts {
    size_t branches = 0, remotes = 0, tags = 0;
  };
  Result<RefCounts> CountRefs();

  Result<TreePtr> RootTree(const CommitId& id);
  Result<TreePtr> Subtree(const git_oid& oid);
  // Entries in tree order. A name repeated in one tree is kept once (its first entry).
  std::vector<TreeEntry> Entries(const git_tree* tree);
  // The first entry named `name` (exact bytes), or none.
  bool FindEntry(const git_tree* tree, std::string_view name, TreeEntry* out);

  // Size and type of an object without reading it; false when the object is not in the local
  // copy (a partial clone).
  bool ObjectHeader(const git_oid& oid, size_t* size, git_object_t* type);
  Result<BlobPtr> Blob(const git_oid& oid);
  // A blob's contents read straight from the repository's packs (core/git/pack_reader.h) when
  // it is there as a blob of at most `max_bytes`; false when it is not (anything unusual
  // included): read it with Blob then, which answers as always.
  bool PackedBlob(const git_oid& oid, size_t max_bytes, std::string* out);

  // The repository's object folder (a worktree's is its main repository's), without a trailing
  // '/'.
  std::string ObjectsDir();
  // The git folder (HEAD's; a linked worktree's own) and the folder its refs and packed-refs are
  // kept in (the main repository's for a linked worktree), each without a trailing '/'.
  std::string GitDir();
  std::string CommonDir();

  git_repository* raw() { return repo_.get(); }

 private:
  friend class RepoHandles;
  explicit GitRepo(git_repository* r) : repo_(r) {}
  // The handle goes idle (true) or is lent out again (false). Going idle, it keeps its pack
  // reader open while few idle handles across the process do (git_repo.cc says how many), and
  // closes it otherwise; lent out, its packs are looked at again.
  void Idle(bool idle);
  std::unique_ptr<git_repository, Deleter> repo_;
  std::unique_ptr<git_odb, Deleter> odb_;
  std::unique_ptr<PackReader> packs_;   // opened on the first PackedBlob
  bool keeps_packs_ = false;            // idle, and counted among those keeping their packs
  std::unique_ptr<GitRepo> next_idle_;  // the next idle handle of its RepoHandles
};

// A small pool of open handles to one repository, opened on first use. Thread-safe.
class RepoHandles {
 public:
  RepoHandles() = default;
  RepoHandles(const RepoHandles&) = delete;
  RepoHandles& operator=(const RepoHandles&) = delete;
  ~RepoHandles();

  class Lease {
   public:
    // Without an owner, the handle is closed when the lease ends instead of kept idle.
    Lease(RepoHandles* owner, std::unique_ptr<GitRepo> repo)
        : owner_(owner), repo_(std::move(repo)) {}
    Lease(Lease&&) = default;
    ~Lease();
    GitRepo& operator*() { return *repo_; }
    GitRepo* operator->() { return repo_.get(); }

   private:
    RepoHandles* owner_;
    std::unique_ptr<GitRepo> repo_;
  };

  // A handle for this thread's exclusive use until the lease ends: an idle one, else one opened
  // at `path` (the owner's, always the same: with 20,000 repositories, even a reference to it
  // kept here was 160 KB).
  Result<Lease> Borrow(const std::string& path);

 private:
  static constexpr size_t kMaxIdle = 4;
  // Kept small (one for each of 20,000 repositories): the idle handles as a chain through
  // GitRepo::next_idle_, the most recently idle first, rather than a vector.
  // The lock on idle_: one of a few the process shares among all repositories' handles, by
  // address (core/util/striped_mutex.h; a mutex of its own was 40 bytes of each of 20,000
  // repositories). Held only to take or give back a handle, nothing else of the pool taken.
  std::mutex& Mutex() const;
  std::unique_ptr<GitRepo> idle_;
  size_t Idle() const;  // how many (Mutex() held)
};

}  // namespace rr
