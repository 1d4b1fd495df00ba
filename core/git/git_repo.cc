#include "core/git/git_repo.h"

#include <atomic>
#include <cstring>
#include <unordered_set>

#include "core/util/sanitizers.h"
#include "core/util/striped_mutex.h"
#include "core/util/text.h"

#if defined(RR_ASAN)
#include <sanitizer/lsan_interface.h>
#endif

namespace rr {

void InitGitLibrary() {
  static std::once_flag once;
  std::call_once(once, [] {
    git_libgit2_init();
    // Neither the user's nor the machine's git configuration may change an answer: read none.
    for (int level : {GIT_CONFIG_LEVEL_SYSTEM, GIT_CONFIG_LEVEL_XDG, GIT_CONFIG_LEVEL_GLOBAL,
                      GIT_CONFIG_LEVEL_PROGRAMDATA}) {
      git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, "");
    }
    // A partial clone whose configuration names its promisor remote the older way
    // (extensions.partialClone) opens too: its missing contents answer as not in the local
    // copy, and libgit2 never fetches them.
    const char* extensions[] = {"partialclone"};
    git_libgit2_opts(GIT_OPT_SET_EXTENSIONS, extensions, static_cast<size_t>(1));
    // A repository owned by another user opens: nothing in it is ever executed.
    git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
    // Objects are addressed by their digest already; re-hashing every read only costs time.
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
    git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, static_cast<ssize_t>(32) * 1024 * 1024);
    // libgit2 caches no tree over 4 KB by default, so a large root or crowded folder would be
    // inflated and parsed again on every call; trees are what every listing reads.
    git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
                     static_cast<size_t>(1024) * 1024);
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_FILE_LIMIT, static_cast<size_t>(256));
  });
}

std::string LastGitError() {
  const git_error* e = git_error_last();
  // libgit2's messages quote names from the repository (refs, paths): shown escaped.
  return e && e->message ? DisplayName(e->message) : "unknown libgit2 error";
}

std::string CommitId::Hex() const {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, &oid_);
  return buf;
}

namespace {

// What a ref's full name makes it, and its short name: only branches, remote-tracking branches
// and tags are listed, counted or resolved from an agent's text.
std::optional<RefEntry::Kind> KindOfRef(std::string_view full, std::string_view* short_name) {
  static constexpr std::pair<std::string_view, RefEntry::Kind> kPrefixes[] = {
      {"refs/heads/", RefEntry::Kind::kBranch},
      {"refs/remotes/", RefEntry::Kind::kRemoteBranch},
      {"refs/tags/", RefEntry::Kind::kTag}};
  for (const auto& [prefix, kind] : kPrefixes) {
    if (full.substr(0, prefix.size()) == prefix) {
      if (short_name) *short_name = full.substr(prefix.size());
      return kind;
    }
  }
  return std::nullopt;
}

}  // namespace

Result<std::unique_ptr<GitRepo>> GitRepo::Open(const std::string& path) {
  InitGitLibrary();
  git_repository* r = nullptr;
  int rc;
  {
#if defined(RR_ASAN)
    // libgit2 1.5 leaks a regular expression's match data (about 20 KB with PCRE2 10.42) for
    // each configuration entry while checking the extensions of a repository whose format
    // version is 1, on every open. The sync keeps its mirrors at version 0 for this
    // (core/sync/mirror_sync.cc); a local repository of version 1 still costs it per open.
    // Not reported, so sanitizer builds report ours.
    __lsan::ScopedDisabler libgit2_leaks_on_open;
#endif
    rc = git_repository_open_ext(&r, path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr);
  }
  if (rc != 0) {
    return Error{"`" + path + "` is not a git repository that can be read: " + LastGitError()};
  }
  std::unique_ptr<GitRepo> repo(new GitRepo(r));
  git_odb* odb = nullptr;
  if (git_repository_odb(&odb, r) != 0) {
    return Error{"`" + path + "`: its object database cannot be opened: " + LastGitError()};
  }
  repo->odb_.reset(odb);
  return repo;
}

Result<std::string> GitRepo::Discover(const std::string& path) {
  InitGitLibrary();
  git_buf buf = GIT_BUF_INIT;
  if (git_repository_discover(&buf, path.c_str(), 0, nullptr) != 0) {
    return Error{"no git repository at `" + path + "` or any folder above it"};
  }
  std::string gitdir(buf.ptr, buf.size);
  git_buf_dispose(&buf);
  return gitdir;
}

HeadState GitRepo::Head() {
  HeadState h;
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo_.get(), "HEAD") != 0) {
    h.problem = "HEAD cannot be read: " + LastGitError();
    return h;
  }
  std::unique_ptr<git_reference, Deleter> head(raw);
  if (git_reference_type(head.get()) == GIT_REFERENCE_DIRECT) {
    h.kind = HeadState::Kind::kDetached;
    h.commit = CommitId(*git_reference_target(head.get()));
    return h;
  }
  std::string target = git_reference_symbolic_target(head.get());
  h.branch = target.rfind("refs/heads/", 0) == 0 ? target.substr(11) : target;
  git_reference* resolved = nullptr;
  const int rc = git_reference_resolve(&resolved, head.get());
  if (rc == GIT_ENOTFOUND) {
    h.kind = HeadState::Kind::kUnborn;
    return h;
  }
  if (rc != 0) {
    h.problem = "HEAD cannot be resolved: " + LastGitError();
    return h;
  }
  std::unique_ptr<git_reference, Deleter> res(resolved);
  git_object* obj = nullptr;
  if (git_reference_peel(&obj, res.get(), GIT_OBJECT_COMMIT) != 0) {
    h.problem = "HEAD does not point at a commit: " + LastGitError();
    return h;
  }
  h.kind = HeadState::Kind::kBranch;
  h.commit = CommitId(*git_object_id(obj));
  git_object_free(obj);
  return h;
}

std::optional<CommitId> GitRepo::Resolve(const RefText& ref) {
  // What a ref may name: HEAD, a branch, a remote-tracking branch or a tag (short or full
  // name), or a commit id of at least 7 hex digits -- then ~N / ^N (RefText allows no other
  // suffix). Anything else answers as an unknown name: refs/stash would read uncommitted and
  // untracked files, and a short id would tell which objects exist.
  // The suffix is git's ~, ~N, ^ and ^N, any number of times, and nothing else: git refuses
  // ^@ and the like for one commit (libgit2 would read `main^@` as some commit).
  const size_t cut = ref.str().find_first_of("~^");
  std::string base = ref.str().substr(0, cut);
  const std::string suffix = cut == std::string::npos ? std::string() : ref.str().substr(cut);
  for (size_t i = 0; i < suffix.size();) {
    if (suffix[i] != '~' && suffix[i] != '^') return std::nullopt;
    for (++i; i < suffix.size() && suffix[i] >= '0' && suffix[i] <= '9';) ++i;
  }
  if (base == "@") base = "HEAD";  // git's short name for HEAD, which libgit2 reads only alone
  if (base.empty()) return std::nullopt;
  if (base != "HEAD") {
    git_reference* found = nullptr;
    if (git_reference_dwim(&found, repo_.get(), base.c_str()) == 0) {
      auto allowed = [](const char* name) { return KindOfRef(name, nullptr).has_value(); };
      const bool named_allowed = allowed(git_reference_name(found));  // before `found` is freed
      git_reference* resolved = nullptr;
      const bool ok = git_reference_resolve(&resolved, found) == 0;
      // A ref naming an object that is not there is an unknown name too (answered here also
      // because libgit2 1.5's revparse leaks the reference it looked up in that case); so is a
      // branch that is a symbolic ref to something no ref may name.
      const bool reachable = ok && allowed(git_reference_name(resolved)) &&
                             git_odb_exists(odb_.get(), git_reference_target(resolved));
      git_reference_free(resolved);
      git_reference_free(found);
      if (!named_allowed || !reachable) return std::nullopt;
    } else {
      const bool hex = base.size() >= 7 && base.size() <= GIT_OID_HEXSZ &&
                       base.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
      if (!hex) return std::nullopt;
    }
  }
  git_object* obj = nullptr;
  // Ambiguous answers as unknown: which other objects share a prefix is not for an agent to
  // learn (an excluded file's id could be confirmed that way).
  if (git_revparse_single(&obj, repo_.get(), (base + suffix).c_str()) != 0) return std::nullopt;
  std::unique_ptr<git_object, Deleter> o(obj);
  git_object* commit = nullptr;
  if (git_object_peel(&commit, o.get(), GIT_OBJECT_COMMIT) != 0) return std::nullopt;
  CommitId id(*git_object_id(commit));
  git_object_free(commit);
  return id;
}

Result<CommitSummary> GitRepo::Summary(const CommitId& id) {
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo_.get(), &id.oid()) != 0) {
    return Error{"commit " + id.Short() + " cannot be read: " + LastGitError()};
  }
  std::unique_ptr<git_commit, Deleter> c(raw);
  CommitSummary s;
  s.id = id;
  s.time = git_commit_time(c.get());
  s.offset = git_commit_time_offset(c.get());
  const char* msg = git_commit_message(c.get());
  if (msg) {
    while (*msg == '\n') ++msg;
    const char* nl = std::strchr(msg, '\n');
    s.subject.assign(msg, nl ? static_cast<size_t>(nl - msg) : std::strlen(msg));
    if (!s.subject.empty() && s.subject.back() == '\r') s.subject.pop_back();
  }
  return s;
}

Result<std::vector<RefEntry>> GitRepo::Refs(size_t limit, bool* truncated) {
  *truncated = false;
  git_reference_iterator* raw_it = nullptr;
  if (git_reference_iterator_new(&raw_it, repo_.get()) != 0) {
    return Error{"the refs cannot be listed: " + LastGitError()};
  }
  std::unique_ptr<git_reference_iterator, Deleter> it(raw_it);
  std::vector<RefEntry> out;
  git_reference* raw = nullptr;
  while (true) {
    const int rc = git_reference_next(&raw, it.get());
    if (rc == GIT_ITEROVER) break;
    if (rc != 0) continue;  // an unreadable ref is passed over, never fatal
    std::unique_ptr<git_reference, Deleter> ref(raw);
    if (git_reference_type(ref.get()) != GIT_REFERENCE_DIRECT) continue;
    RefEntry e;
    std::string_view short_name;
    const auto kind = KindOfRef(git_reference_name(ref.get()), &short_name);
    if (!kind) continue;
    e.kind = *kind;
    e.name = std::string(short_name);
    if (out.size() >= limit) {
      *truncated = true;
      break;
    }
    git_object* peeled = nullptr;
    if (git_reference_peel(&peeled, ref.get(), GIT_OBJECT_COMMIT) != 0) continue;
    CommitId id(*git_object_id(peeled));
    git_object_free(peeled);
    e.annotated = !git_oid_equal(git_reference_target(ref.get()), &id.oid());
    auto s = Summary(id);
    if (!s) continue;
    e.commit = s.take();
    out.push_back(std::move(e));
  }
  return out;
}

Result<GitRepo::RefCounts> GitRepo::CountRefs() {
  git_reference_iterator* raw_it = nullptr;
  if (git_reference_iterator_new(&raw_it, repo_.get()) != 0) {
    return Error{"the refs cannot be listed: " + LastGitError()};
  }
  std::unique_ptr<git_reference_iterator, Deleter> it(raw_it);
  RefCounts counts;
  git_reference* raw = nullptr;
  while (true) {
    const int rc = git_reference_next(&raw, it.get());
    if (rc == GIT_ITEROVER) break;
    if (rc != 0) continue;
    std::unique_ptr<git_reference, Deleter> ref(raw);
    if (git_reference_type(ref.get()) != GIT_REFERENCE_DIRECT) continue;
    const auto kind = KindOfRef(git_reference_name(ref.get()), nullptr);
    if (!kind) continue;
    // Counted as Refs lists them: only refs that reach a commit. The type is read from the
    // object's header; only a tag object has to be read to see what it tags.
    size_t size = 0;
    git_object_t type = GIT_OBJECT_INVALID;
    if (git_odb_read_header(&size, &type, odb_.get(), git_reference_target(ref.get())) != 0) {
      continue;
    }
    if (type == GIT_OBJECT_TAG) {
      git_object* peeled = nullptr;
      if (git_reference_peel(&peeled, ref.get(), GIT_OBJECT_COMMIT) != 0) continue;
      git_object_free(peeled);
    } else if (type != GIT_OBJECT_COMMIT) {
      continue;
    }
    switch (*kind) {
      case RefEntry::Kind::kBranch:
        ++counts.branches;
        break;
      case RefEntry::Kind::kRemoteBranch:
        ++counts.remotes;
        break;
      case RefEntry::Kind::kTag:
        ++counts.tags;
        break;
    }
  }
  return counts;
}

Result<TreePtr> GitRepo::RootTree(const CommitId& id) {
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo_.get(), &id.oid()) != 0) {
    return Error{"commit " + id.Short() + " cannot be read: " + LastGitError()};
  }
  std::unique_ptr<git_commit, Deleter> c(raw);
  git_tree* tree = nullptr;
  if (git_commit_tree(&tree, c.get()) != 0) {
    return Error{"the tree of commit " + id.Short() + " is not in the local copy"};
  }
  return TreePtr(tree);
}

Result<TreePtr> GitRepo::Subtree(const git_oid& oid) {
  git_tree* tree = nullptr;
  if (git_tree_lookup(&tree, repo_.get(), &oid) != 0) {
    return Error{
        "a folder's tree cannot be read (missing from the local copy, or recorded as a "
        "folder but not one)"};
  }
  return TreePtr(tree);
}

namespace {

EntryKind KindOf(git_filemode_t mode) {
  switch (mode) {
    case GIT_FILEMODE_TREE:
      return EntryKind::kFolder;
    case GIT_FILEMODE_BLOB:
    case GIT_FILEMODE_BLOB_EXECUTABLE:
      return EntryKind::kFile;
    case GIT_FILEMODE_LINK:
      return EntryKind::kLink;
    case GIT_FILEMODE_COMMIT:
      return EntryKind::kSubmodule;
    default:
      return EntryKind::kOther;
  }
}

TreeEntry MakeEntry(const git_tree_entry* te) {
  TreeEntry e;
  e.name = git_tree_entry_name(te);
  const git_filemode_t mode = git_tree_entry_filemode(te);
  e.kind = KindOf(mode);
  e.executable = mode == GIT_FILEMODE_BLOB_EXECUTABLE;
  e.oid = *git_tree_entry_id(te);
  return e;
}

}  // namespace

std::vector<TreeEntry> GitRepo::Entries(const git_tree* tree) {
  const size_t n = git_tree_entrycount(tree);
  std::vector<TreeEntry> out;
  out.reserve(n);
  std::unordered_set<std::string_view> seen;
  for (size_t i = 0; i < n; ++i) {
    const git_tree_entry* te = git_tree_entry_byindex(tree, i);
    const std::string_view name = git_tree_entry_name(te);
    if (!seen.insert(name).second) continue;
    out.push_back(MakeEntry(te));
  }
  return out;
}

bool GitRepo::FindEntry(const git_tree* tree, std::string_view name, TreeEntry* out) {
  // Linear and first-match, like Entries: with duplicate names (a hostile tree) the entry read
  // is the entry listed.
  // Compared without measuring each name first: most differ at their first byte (a folder of
  // thousands, searched for each of its files, made strlen a third of a lookup).
  const size_t n = git_tree_entrycount(tree);
  if (name.empty()) return false;
  for (size_t i = 0; i < n; ++i) {
    const git_tree_entry* te = git_tree_entry_byindex(tree, i);
    const char* entry = git_tree_entry_name(te);
    if (entry[0] == name[0] && std::string_view(entry) == name) {
      *out = MakeEntry(te);
      return true;
    }
  }
  return false;
}

bool GitRepo::ObjectHeader(const git_oid& oid, size_t* size, git_object_t* type) {
  return git_odb_read_header(size, type, odb_.get(), &oid) == 0;
}

Result<BlobPtr> GitRepo::Blob(const git_oid& oid) {
  git_blob* b = nullptr;
  if (git_blob_lookup(&b, repo_.get(), &oid) != 0) {
    return Error{"the file's contents cannot be read: " + LastGitError()};
  }
  return BlobPtr(b);
}

bool GitRepo::PackedBlob(const git_oid& oid, size_t max_bytes, std::string* out) {
  if (!packs_) packs_ = PackReader::Open(ObjectsDir());
  return packs_->ReadBlob(oid, max_bytes, out) == PackReader::Answer::kRead;
}

namespace {

// Idle handles that keep their pack reader open, across every repository. Reopening it maps
// every pack index again and unmapping it costs each core a TLB flush: done on every call, it
// took two thirds of the server's calls per second (bench/http_load.py). So the first few idle
// handles keep their packs (the repositories called most stay mapped), and the rest close them,
// so that the descriptors idle handles hold stay bounded however many repositories are
// searched (a search over thousands of them).
constexpr size_t kMaxIdleWithPacks = 8;
std::atomic<size_t> idle_with_packs{0};

}  // namespace

GitRepo::~GitRepo() {
  if (keeps_packs_) --idle_with_packs;
}

void GitRepo::Idle(bool idle) {
  if (keeps_packs_) {
    --idle_with_packs;
    keeps_packs_ = false;
  }
  if (!packs_) return;
  if (!idle) {  // lent out: packs changed on disk since are read again when next needed
    if (!packs_->Current()) packs_.reset();
    return;
  }
  if (idle_with_packs.fetch_add(1) < kMaxIdleWithPacks) {  // a place reserved atomically
    keeps_packs_ = true;
  } else {
    --idle_with_packs;
    packs_.reset();
  }
}

namespace {
std::string WithoutTrailingSlash(const char* dir) {
  std::string s = dir ? dir : "";
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}
}  // namespace

std::string GitRepo::GitDir() { return WithoutTrailingSlash(git_repository_path(repo_.get())); }

std::string GitRepo::CommonDir() {
  return WithoutTrailingSlash(git_repository_commondir(repo_.get()));
}

std::string GitRepo::ObjectsDir() {
  std::string dir = git_repository_commondir(repo_.get());
  if (!dir.empty() && dir.back() != '/') dir += '/';
  return dir + "objects";
}

namespace {

// Idle handles kept open across every repository. Each keeps its packs mapped and its caches;
// with hundreds of repositories configured, keeping them all would hold memory for nothing.
constexpr size_t kMaxIdleTotal = 32;
std::atomic<size_t> idle_total{0};

}  // namespace

RepoHandles::Lease::~Lease() {
  if (!repo_ || !owner_) return;
  std::lock_guard<std::mutex> lock(owner_->Mutex());
  if (owner_->Idle() >= kMaxIdle) return;
  if (idle_total.fetch_add(1) >= kMaxIdleTotal) {  // reserve a place atomically, or give it back
    --idle_total;
    return;
  }
  repo_->Idle(true);
  repo_->next_idle_ = std::move(owner_->idle_);
  owner_->idle_ = std::move(repo_);
}

size_t RepoHandles::Idle() const {
  size_t n = 0;
  for (const GitRepo* r = idle_.get(); r; r = r->next_idle_.get()) ++n;
  return n;
}

RepoHandles::~RepoHandles() { idle_total -= Idle(); }

std::mutex& RepoHandles::Mutex() const {
  static StripedMutexes<64> locks;
  return locks.For(this);
}

Result<RepoHandles::Lease> RepoHandles::Borrow(const std::string& path) {
  {
    std::lock_guard<std::mutex> lock(Mutex());
    if (idle_) {
      std::unique_ptr<GitRepo> r = std::move(idle_);
      idle_ = std::move(r->next_idle_);
      --idle_total;
      r->Idle(false);
      return Lease(this, std::move(r));
    }
  }
  auto r = GitRepo::Open(path);
  if (!r) return Error{r.error()};
  return Lease(this, r.take());
}

}  // namespace rr
