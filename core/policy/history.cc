#include "core/policy/history.h"

#include <git2.h>

#include <algorithm>
#include <cstring>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "core/util/text.h"

namespace rr {
namespace {

struct OidHash {
  size_t operator()(const git_oid& o) const {
    size_t h;
    std::memcpy(&h, o.id, sizeof(h));
    return h;
  }
};
struct OidEq {
  bool operator()(const git_oid& a, const git_oid& b) const { return git_oid_equal(&a, &b); }
};
template <class V>
using OidMap = std::unordered_map<git_oid, V, OidHash, OidEq>;
using OidSet = std::unordered_set<git_oid, OidHash, OidEq>;

// What the walk needs of a commit.
struct Facts {
  git_oid tree;
  int64_t time = 0;
  std::vector<git_oid> parents;
};

// Commit facts for one call, each commit read once.
class FactsCache {
 public:
  explicit FactsCache(GitRepo& git) : git_(git) {}
  const Facts* Get(const git_oid& id) {
    auto it = map_.find(id);
    if (it != map_.end()) return &it->second;
    git_commit* c = nullptr;
    if (git_commit_lookup(&c, git_.raw(), &id) != 0) return nullptr;
    Facts f;
    f.tree = *git_commit_tree_id(c);
    f.time = git_commit_time(c);
    const unsigned n = git_commit_parentcount(c);
    for (unsigned i = 0; i < n; i++) f.parents.push_back(*git_commit_parent_id(c, i));
    git_commit_free(c);
    return &map_.emplace(id, std::move(f)).first->second;
  }

 private:
  GitRepo& git_;
  OidMap<Facts> map_;
};

// One side of a comparison at a path: what the tree holds there, if anything.
struct Side {
  bool present = false;
  EntryKind kind = EntryKind::kOther;
  git_oid oid{};
  bool executable = false;
  bool operator==(const Side& o) const {
    if (present != o.present) return false;
    if (!present) return true;
    return kind == o.kind && executable == o.executable && git_oid_equal(&oid, &o.oid);
  }
};

Side RootSide(const git_oid& tree) {
  Side s;
  s.present = true;
  s.kind = EntryKind::kFolder;
  s.oid = tree;
  return s;
}

// Compares what is served at and below `path` on two sides; true when it differs. Folders the
// policy keeps out are never read; a subtree with the same id on both sides is never read.
class ServedCompare {
 public:
  ServedCompare(GitRepo& git, const PathPolicy& policy, const StopToken& stop)
      : git_(git), policy_(policy), stop_(stop) {}

  bool Differs(const RepoPath& path, const Side& a, const Side& b) {
    if (a == b) return false;
    if (stop_.stopped()) return true;  // the caller sees the stop and says so
    const bool a_folder = a.present && a.kind == EntryKind::kFolder;
    const bool b_folder = b.present && b.kind == EntryKind::kFolder;
    // A file on either side (added, removed, changed, or replaced by a folder).
    if (((a.present && !a_folder) || (b.present && !b_folder)) && !path.is_root() &&
        policy_.ServesFile(path)) {
      return true;
    }
    if (!a_folder && !b_folder) return false;
    if (!path.is_root() && policy_.Outside(path)) return false;
    // Both trees are sorted in git's order (a folder's name as if it ended in '/'): merge them
    // without copying an entry. A name changed from file to folder sorts apart on each side
    // and is seen as a removal and an addition, which is what it is.
    TreePtr ta, tb;
    if (a_folder) {
      auto t = git_.Subtree(a.oid);
      if (t) ta = t.take();
    }
    if (b_folder) {
      auto t = git_.Subtree(b.oid);
      if (t) tb = t.take();
    }
    const size_t na = ta ? git_tree_entrycount(ta.get()) : 0;
    const size_t nb = tb ? git_tree_entrycount(tb.get()) : 0;
    size_t i = 0, j = 0;
    auto repeated = [](const git_tree* t, size_t k) {  // a name repeated in one tree counts once
      return k > 0 && strcmp(git_tree_entry_name(git_tree_entry_byindex(t, k)),
                             git_tree_entry_name(git_tree_entry_byindex(t, k - 1))) == 0;
    };
    while (true) {
      while (i < na && repeated(ta.get(), i)) i++;
      while (j < nb && repeated(tb.get(), j)) j++;
      if (i >= na && j >= nb) break;
      const git_tree_entry* x = i < na ? git_tree_entry_byindex(ta.get(), i) : nullptr;
      const git_tree_entry* y = j < nb ? git_tree_entry_byindex(tb.get(), j) : nullptr;
      const int order = !x ? 1 : !y ? -1 : GitOrder(x, y);
      Side sa, sb;
      std::string_view name;
      if (order <= 0) {
        name = git_tree_entry_name(x);
        sa = EntrySide(x);
        i++;
      }
      if (order >= 0) {
        name = git_tree_entry_name(y);
        sb = EntrySide(y);
        j++;
      }
      if (sa == sb || !IsServableEntryName(name)) continue;
      const RepoPath child = path.Child(name);
      if (child.str().size() > RepoPath::kMaxBytes) continue;
      if (Differs(child, sa, sb)) return true;
    }
    return false;
  }

 private:
  static Side EntrySide(const git_tree_entry* e) {
    Side s;
    s.present = true;
    s.oid = *git_tree_entry_id(e);
    switch (git_tree_entry_filemode(e)) {
      case GIT_FILEMODE_TREE:
        s.kind = EntryKind::kFolder;
        break;
      case GIT_FILEMODE_BLOB:
        s.kind = EntryKind::kFile;
        break;
      case GIT_FILEMODE_BLOB_EXECUTABLE:
        s.kind = EntryKind::kFile;
        s.executable = true;
        break;
      case GIT_FILEMODE_LINK:
        s.kind = EntryKind::kLink;
        break;
      case GIT_FILEMODE_COMMIT:
        s.kind = EntryKind::kSubmodule;
        break;
      default:
        s.kind = EntryKind::kOther;
    }
    return s;
  }
  // git's tree order: bytes, a folder's name compared as if it ended in '/'.
  static int GitOrder(const git_tree_entry* x, const git_tree_entry* y) {
    const char* a = git_tree_entry_name(x);
    const char* b = git_tree_entry_name(y);
    const size_t la = strlen(a), lb = strlen(b);
    const size_t n = la < lb ? la : lb;
    if (int c = memcmp(a, b, n)) return c;
    const unsigned char ca =
        la > n ? a[n] : (git_tree_entry_filemode(x) == GIT_FILEMODE_TREE ? '/' : 0);
    const unsigned char cb =
        lb > n ? b[n] : (git_tree_entry_filemode(y) == GIT_FILEMODE_TREE ? '/' : 0);
    return ca < cb ? -1 : ca > cb ? 1 : 0;
  }
  GitRepo& git_;
  const PathPolicy& policy_;
  const StopToken& stop_;
};

// A commit's metadata for the answer and the filters.
bool ReadLine(GitRepo& git, const git_oid& id, CommitLine* out, std::string* message) {
  git_commit* c = nullptr;
  if (git_commit_lookup(&c, git.raw(), &id) != 0) return false;
  out->id = CommitId(id);
  out->time = git_commit_time(c);
  out->offset = git_commit_time_offset(c);
  const git_signature* a = git_commit_author(c);
  out->author = a && a->name ? a->name : "";
  out->email = a && a->email ? a->email : "";
  const char* raw = git_commit_message_raw(c);
  std::string msg = raw ? raw : "";
  const size_t nl = msg.find('\n');
  // The subject: the first paragraph's first line, as written.
  size_t start = 0;
  while (start < msg.size() && msg[start] == '\n') start++;
  const size_t end = msg.find('\n', start);
  out->subject = msg.substr(start, end == std::string::npos ? std::string::npos : end - start);
  (void)nl;
  if (message) *message = std::move(msg);
  git_commit_free(c);
  return true;
}

// Whether a commit passes the author / message / until filters (since ends the walk instead).
bool Passes(GitRepo& git, const git_oid& id, const HistoryFilter& f, const Facts& facts,
            CommitLine* line) {
  if (f.until && facts.time > *f.until) return false;
  if (f.since && facts.time < *f.since) return false;
  std::string message;
  if (!ReadLine(git, id, line, &message)) return false;
  if (f.author && !f.author->Matches(line->author + " <" + line->email + ">")) return false;
  if (f.message && !f.message->Matches(message)) return false;
  if ((f.message || f.skip_hidden_messages) && f.secrets &&
      f.secrets->HoldsHidden(message, TextKind::kCommitMessage)) {
    return false;
  }
  return true;
}

// The incremental walk: newest first by commit date (ties in the order found), as git log.
class Walk {
 public:
  Walk(GitRepo& git, FactsCache& facts) : git_(git), facts_(facts) {}
  void Push(const git_oid& id) {
    if (!seen_.insert(id).second) return;
    const Facts* f = facts_.Get(id);
    if (!f) return;
    queue_.push(Item{f->time, seq_++, id});
  }
  bool empty() const { return queue_.empty(); }
  int64_t top_time() const { return queue_.top().time; }
  git_oid Pop() {
    git_oid id = queue_.top().id;
    queue_.pop();
    return id;
  }

 private:
  struct Item {
    int64_t time;
    uint64_t seq;
    git_oid id;
    bool operator<(const Item& o) const {
      if (time != o.time) return time < o.time;
      return seq > o.seq;
    }
  };
  GitRepo& git_;
  FactsCache& facts_;
  OidSet seen_;
  std::priority_queue<Item> queue_;
  uint64_t seq_ = 0;
};

// Whether a commit is listed, and which parents the walk follows from it.
class Judge {
 public:
  Judge(GitRepo& git, const PathPolicy& policy, const std::optional<RepoPath>& path,
        FactsCache& facts, const StopToken& stop)
      : git_(git), policy_(policy), path_(path), facts_(facts), compare_(git, policy, stop) {
    if (path_) parts_ = path_->parts();
  }

  // Sets *follow to the parents to walk; returns whether the commit is listed.
  bool Listed(const Facts& c, std::vector<git_oid>* follow) {
    follow->clear();
    if (!path_) {
      *follow = c.parents;
      git_oid empty{};
      const git_oid* base = nullptr;
      const Facts* first = c.parents.empty() ? nullptr : facts_.Get(c.parents[0]);
      if (first) base = &first->tree;
      if (base && git_oid_equal(base, &c.tree)) return true;  // changed nothing at all
      Side before = base ? RootSide(*base) : Side{};
      if (!base) {
        // A root commit: listed when it holds something served, or nothing at all.
        auto t = git_.Subtree(c.tree);
        if (t && git_.Entries(t->get()).empty()) return true;
      }
      (void)empty;
      return compare_.Differs(RepoPath::Root(), before, RootSide(c.tree));
    }
    const Side mine = PathSide(c.tree);
    if (c.parents.empty()) return compare_.Differs(*path_, Side{}, mine);
    for (const auto& p : c.parents) {
      const Facts* pf = facts_.Get(p);
      if (!pf) continue;
      const Side theirs = PathSide(pf->tree);
      if (!compare_.Differs(*path_, theirs, mine)) {
        follow->assign(1, p);  // the same as this parent: follow it alone, not listed
        return false;
      }
    }
    *follow = c.parents;
    return true;
  }

 private:
  // The entry at the path in a root tree, each tree looked into once per call (a commit's is
  // needed again as its child's parent).
  // Remembered per folder level: a commit that left the path's first folder as its parent had
  // it is answered after reading its root tree alone.
  Side PathSide(const git_oid& root) { return SideBelow(root, 0); }
  Side SideBelow(const git_oid& tree, size_t depth) {
    if (depth == parts_.size()) return Side{};  // not reached: the caller stops at the leaf
    auto& memo = sides_[depth];
    auto it = memo.find(tree);
    if (it != memo.end()) return it->second;
    Side s;
    auto t = git_.Subtree(tree);
    TreeEntry e;
    if (t && git_.FindEntry(t->get(), parts_[depth], &e)) {
      if (depth + 1 == parts_.size()) {
        s.present = true;
        s.kind = e.kind;
        s.oid = e.oid;
        s.executable = e.executable;
      } else if (e.kind == EntryKind::kFolder) {
        s = SideBelow(e.oid, depth + 1);
      }
    }
    memo.emplace(tree, s);
    return s;
  }

  GitRepo& git_;
  const PathPolicy& policy_;
  const std::optional<RepoPath> path_;
  std::unordered_map<size_t, OidMap<Side>> sides_;
  std::vector<std::string_view> parts_;
  FactsCache& facts_;
  ServedCompare compare_;
};

}  // namespace

Result<LogPage> Log(RepoReader& reader, const ReadPoint& at, const HistoryFilter& filter,
                    size_t skip, size_t max_count, const StopToken& stop) {
  GitRepo& git = PolicyAccess::Git(reader);
  FactsCache facts(git);
  Walk walk(git, facts);
  Judge judge(git, reader.repo().policy(), filter.path, facts, stop);
  walk.Push(at.commit.id.oid());
  LogPage page;
  size_t matched = 0;
  std::vector<git_oid> follow;
  while (!walk.empty()) {
    if (stop.stopped()) {
      page.stopped = stop.Why();
      break;
    }
    if (filter.since && walk.top_time() < *filter.since) break;  // all the rest is older
    const git_oid id = walk.Pop();
    const Facts* f = facts.Get(id);
    if (!f) continue;
    const bool listed = judge.Listed(*f, &follow);
    if (stop.stopped()) {  // judged while stopping: unknown, so neither listed nor passed over
      page.stopped = stop.Why();
      break;
    }
    for (const auto& p : follow) walk.Push(p);
    if (!listed) continue;
    CommitLine line;
    if (!Passes(git, id, filter, *f, &line)) continue;
    if (matched++ < skip) continue;
    if (page.commits.size() == max_count) {
      page.more = true;
      break;
    }
    page.commits.push_back(std::move(line));
  }
  if (!page.stopped.empty()) page.more = true;
  return page;
}

namespace {

// Containment: which commits reach a target, remembered across the questions of one target.
// Parents older than the target by more than a day are not walked (a commit cannot hold one
// made after it; a day allows for clocks that were off).
class Reach {
 public:
  Reach(FactsCache& facts, const git_oid& target, int64_t target_time, const StopToken& stop)
      : facts_(facts), target_(target), floor_(target_time - 86400), stop_(stop) {}

  bool From(const git_oid& start) {
    std::vector<std::pair<git_oid, size_t>> stack;  // commit, next parent to look at
    auto known = [&](const git_oid& id) -> int {
      if (git_oid_equal(&id, &target_)) return 1;
      auto it = memo_.find(id);
      return it == memo_.end() ? -1 : it->second;
    };
    if (int k = known(start); k >= 0) return k == 1;
    stack.push_back({start, 0});
    while (!stack.empty()) {
      if (stop_.stopped()) return false;
      auto& [id, next] = stack.back();
      const Facts* f = facts_.Get(id);
      if (!f || f->time < floor_) {
        memo_[id] = 0;
        stack.pop_back();
        continue;
      }
      bool descended = false;
      bool found = false;
      while (next < f->parents.size()) {
        const git_oid p = f->parents[next++];
        const int k = known(p);
        if (k == 1) {
          found = true;
          break;
        }
        if (k == 0) continue;
        stack.push_back({p, 0});
        descended = true;
        break;
      }
      if (descended) continue;
      const git_oid done = id;
      memo_[done] = found ? 1 : 0;
      stack.pop_back();
      if (found) {
        // Every commit on the stack reaches the target through this one.
        for (auto& s : stack) memo_[s.first] = 1;
        stack.clear();
        return true;
      }
    }
    return known(start) == 1;
  }

 private:
  FactsCache& facts_;
  git_oid target_;
  int64_t floor_;
  const StopToken& stop_;
  OidMap<int> memo_;
};

}  // namespace

Result<FoundCommits> FindCommits(RepoReader& reader, const HistoryFilter& filter, size_t max_count,
                                 const StopToken& stop) {
  GitRepo& git = PolicyAccess::Git(reader);
  FoundCommits out;
  bool truncated = false;
  auto refs = reader.Refs(200000, &truncated);
  if (!refs) return Error{refs.error()};
  const HeadState head = git.Head();
  std::optional<git_oid> head_commit;
  if (head.kind == HeadState::Kind::kBranch) out.default_branch = head.branch;
  if (head.kind == HeadState::Kind::kBranch || head.kind == HeadState::Kind::kDetached) {
    head_commit = head.commit.oid();
  }

  FactsCache facts(git);
  Walk walk(git, facts);
  if (head_commit) walk.Push(*head_commit);
  for (const auto& r : *refs) walk.Push(r.commit.id.oid());
  Judge judge(git, reader.repo().policy(), std::nullopt, facts, stop);
  std::vector<git_oid> follow;
  while (!walk.empty()) {
    if (stop.stopped()) {
      out.stopped = stop.Why();
      break;
    }
    if (filter.since && walk.top_time() < *filter.since) break;
    const git_oid id = walk.Pop();
    const Facts* f = facts.Get(id);
    if (!f) continue;
    const bool listed = judge.Listed(*f, &follow);
    if (stop.stopped()) {  // as in Log
      out.stopped = stop.Why();
      break;
    }
    for (const auto& p : follow) walk.Push(p);
    if (!listed) continue;
    FoundCommit found;
    if (!Passes(git, id, filter, *f, &found.commit)) continue;
    if (out.commits.size() == max_count) {
      out.more = true;
      break;
    }
    out.commits.push_back(std::move(found));
  }

  // Where each one is: the default branch, else the branches holding it; the oldest tag.
  std::vector<const RefEntry*> branches, tags;
  for (const auto& r : *refs) {
    (r.kind == RefEntry::Kind::kTag ? tags : branches).push_back(&r);
  }
  auto oldest_first = [](const RefEntry* a, const RefEntry* b) {
    if (a->commit.time != b->commit.time) return a->commit.time < b->commit.time;
    return a->name < b->name;
  };
  std::sort(tags.begin(), tags.end(), oldest_first);
  for (auto& fc : out.commits) {
    if (stop.stopped()) {
      out.stopped = stop.Why();
      break;
    }
    Reach reach(facts, fc.commit.id.oid(), fc.commit.time, stop);
    fc.on_default = head_commit && reach.From(*head_commit);
    if (!fc.on_default) {
      for (const RefEntry* b : branches) {
        if (!reach.From(b->commit.id.oid())) continue;
        if (fc.branches.size() < 3) {
          fc.branches.push_back(b->name);
        } else {
          fc.more_branches++;
        }
      }
    }
    for (const RefEntry* t : tags) {
      if (t->commit.time < fc.commit.time - 86400) continue;  // as Reach's floor
      if (reach.From(t->commit.id.oid())) {
        fc.first_tag = t->name;
        break;
      }
    }
  }
  if (!out.stopped.empty()) out.more = true;
  return out;
}

}  // namespace rr
