#include "core/history/history.h"

#include <git2.h>

#include <algorithm>
#include <cstring>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "core/git/commit_graph.h"
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

// The commits of one call, by a dense index: a commit-graph's commits by their position in it
// (their facts read from the graph, no object parsed), every other commit after them, read from
// the repository once. Walks keep per-commit state in vectors indexed the same way.
class Dag {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr uint64_t kInfinity = UINT64_MAX;  // the generation of a commit outside the graph

  Dag(GitRepo& git, std::shared_ptr<const CommitGraph> graph)
      : git_(git), graph_(std::move(graph)), base_(graph_ ? graph_->size() : 0) {}

  // The index of a commit, or kNone when `id` is not a commit this repository holds.
  uint32_t Index(const git_oid& id) {
    uint32_t pos;
    if (graph_ && graph_->Find(id, &pos)) return pos;
    auto it = extra_index_.find(id);
    if (it != extra_index_.end()) return it->second;
    git_commit* c = nullptr;
    if (git_commit_lookup(&c, git_.raw(), &id) != 0) return kNone;
    Extra e;
    e.id = id;
    e.tree = *git_commit_tree_id(c);
    e.time = git_commit_time(c);
    const unsigned n = git_commit_parentcount(c);
    for (unsigned i = 0; i < n; i++) e.parent_ids.push_back(*git_commit_parent_id(c, i));
    git_commit_free(c);
    const uint32_t index = base_ + static_cast<uint32_t>(extras_.size());
    extras_.push_back(std::move(e));
    extra_index_.emplace(id, index);
    return index;
  }

  size_t size() const { return base_ + extras_.size(); }
  bool in_graph(uint32_t i) const { return i < base_; }

  git_oid Id(uint32_t i) const { return i < base_ ? graph_->Id(i) : extras_[i - base_].id; }
  git_oid Tree(uint32_t i) const { return i < base_ ? graph_->Tree(i) : extras_[i - base_].tree; }
  int64_t Time(uint32_t i) const {
    return i < base_ ? graph_->CommitTime(i) : extras_[i - base_].time;
  }
  uint64_t Generation(uint32_t i) const { return i < base_ ? graph_->Generation(i) : kInfinity; }

  // The parents' indexes, in order (a parent the repository lacks is left out).
  void Parents(uint32_t i, std::vector<uint32_t>* out) {
    out->clear();
    if (i < base_) {
      graph_->Parents(i, out);
      return;
    }
    if (!extras_[i - base_].resolved) {
      std::vector<uint32_t> parents;
      const std::vector<git_oid> ids = extras_[i - base_].parent_ids;  // Index may grow extras_
      for (const auto& p : ids) {
        const uint32_t pi = Index(p);
        if (pi != kNone) parents.push_back(pi);
      }
      extras_[i - base_].parents = std::move(parents);
      extras_[i - base_].resolved = true;
    }
    *out = extras_[i - base_].parents;
  }

  // Bloom filters: whether `key`'s path may differ from the first parent's.
  bool has_bloom() const { return graph_ && graph_->has_bloom(); }
  CommitGraph::PathKey Key(std::string_view path) const {
    return graph_ ? graph_->Key(path) : CommitGraph::PathKey();
  }
  bool SameAsFirstParent(uint32_t i, const CommitGraph::PathKey& key) const {
    return i < base_ && !key.empty() &&
           graph_->ChangedVsFirstParent(i, key) == CommitGraph::Changed::kNo;
  }

 private:
  struct Extra {
    git_oid id;
    git_oid tree;
    int64_t time = 0;
    std::vector<git_oid> parent_ids;
    std::vector<uint32_t> parents;
    bool resolved = false;
  };
  GitRepo& git_;
  std::shared_ptr<const CommitGraph> graph_;
  uint32_t base_;
  std::vector<Extra> extras_;
  OidMap<uint32_t> extra_index_;
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
    if (stop_.stopped()) {
      stopped_ = true;  // the caller sees the stop and says so
      return true;
    }
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
  bool stopped_ = false;

 public:
  // True once an answer was given because the call was stopping (it is then unknown).
  bool stopped() const { return stopped_; }
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
  // The subject: the message's first line, as written (a line ending \r\n loses its \r, as
  // list_refs shows subjects).
  size_t start = 0;
  while (start < msg.size() && msg[start] == '\n') start++;
  const size_t end = msg.find('\n', start);
  out->subject = msg.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (!out->subject.empty() && out->subject.back() == '\r') out->subject.pop_back();
  if (message) *message = std::move(msg);
  git_commit_free(c);
  return true;
}

// Whether a commit passes the author / message / until filters (since ends the walk instead).
// A commit a pattern was too costly on does not pass, and is counted in *costly.
bool Passes(GitRepo& git, const git_oid& id, const HistoryFilter& f, int64_t time, CommitLine* line,
            TooCostly* costly) {
  if (f.until && time > *f.until) return false;
  if (f.since && time < *f.since) return false;
  std::string message;
  if (!ReadLine(git, id, line, &message)) return false;
  // A pattern that does not match rules the commit out whatever the other cost; one too costly
  // leaves it unknown.
  bool author_costly = false, message_costly = false;
  if (f.author && !f.author->Matches(line->author + " <" + line->email + ">", &author_costly) &&
      !author_costly) {
    return false;
  }
  if (f.message && !f.message->Matches(message, &message_costly) && !message_costly) return false;
  if ((f.message || f.skip_hidden_messages) && f.secrets) {
    const ScanResult r = f.secrets->Scan(message, TextKind::kCommitMessage);
    if (!r.ok() && f.failures) f.failures->Note(r);
    if (!r.ok() || !r.spans.empty()) return false;
  }
  if (author_costly || message_costly) {
    if (costly->named.size() < TooCostly::kNamed) costly->named.push_back(line->id);
    costly->count++;
    return false;
  }
  return true;
}

// The incremental walk: newest first by commit date (ties in the order found), as git log.
class Walk {
 public:
  explicit Walk(Dag& dag) : dag_(dag) {}
  void Push(uint32_t i) {
    if (i == Dag::kNone) return;
    if (seen_.size() <= i) seen_.resize(std::max<size_t>(dag_.size(), i + 1) + 1024);
    if (seen_[i]) return;
    seen_[i] = true;
    queue_.push(Item{dag_.Time(i), seq_++, i});
  }
  bool empty() const { return queue_.empty(); }
  int64_t top_time() const { return queue_.top().time; }
  uint32_t Pop() {
    const uint32_t i = queue_.top().index;
    queue_.pop();
    return i;
  }

 private:
  struct Item {
    int64_t time;
    uint64_t seq;
    uint32_t index;
    bool operator<(const Item& o) const {
      if (time != o.time) return time < o.time;
      return seq > o.seq;
    }
  };
  Dag& dag_;
  std::vector<bool> seen_;
  std::priority_queue<Item> queue_;
  uint64_t seq_ = 0;
};

// Whether a commit is listed, and which parents the walk follows from it.
class Judge {
 public:
  Judge(GitRepo& git, const PathPolicy& policy, const std::optional<RepoPath>& path, Dag& dag,
        const StopToken& stop)
      : git_(git), path_(path), dag_(dag), compare_(git, policy, stop) {
    if (path_) {
      parts_ = path_->parts();
      key_ = dag_.Key(path_->str());
    }
  }

  // True when a judgement was cut short by the stop token: the last answer is unknown.
  bool stopped() const { return compare_.stopped(); }

  // Sets *follow to the parents to walk; returns whether the commit is listed.
  bool Listed(uint32_t c, std::vector<uint32_t>* follow) {
    dag_.Parents(c, &parents_);
    if (!path_) {
      *follow = parents_;
      const git_oid tree = dag_.Tree(c);
      if (parents_.empty()) {
        // A root commit: listed when it holds something served, or nothing at all.
        auto t = git_.Subtree(tree);
        if (t && git_tree_entrycount(t->get()) == 0) return true;
        return compare_.Differs(RepoPath::Root(), Side{}, RootSide(tree));
      }
      const git_oid base = dag_.Tree(parents_[0]);
      if (git_oid_equal(&base, &tree)) return true;  // changed nothing at all
      return compare_.Differs(RepoPath::Root(), RootSide(base), RootSide(tree));
    }
    // The first parent by the Bloom filter when it can say "unchanged": no tree is read.
    if (!parents_.empty() && dag_.SameAsFirstParent(c, key_)) {
      follow->assign(1, parents_[0]);
      return false;
    }
    const Side mine = PathSide(dag_.Tree(c));
    if (parents_.empty()) {
      follow->clear();
      return compare_.Differs(*path_, Side{}, mine);
    }
    for (uint32_t p : parents_) {
      if (!compare_.Differs(*path_, PathSide(dag_.Tree(p)), mine)) {
        follow->assign(1, p);  // the same as this parent: follow it alone, not listed
        return false;
      }
    }
    *follow = parents_;
    return true;
  }

 private:
  // The entry at the path in a root tree, remembered per folder level: a commit that left the
  // path's first folder as its parent had it is answered after reading its root tree alone.
  Side PathSide(const git_oid& root) { return SideBelow(root, 0); }
  Side SideBelow(const git_oid& tree, size_t depth) {
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
  const std::optional<RepoPath> path_;
  std::vector<std::string_view> parts_;
  Dag& dag_;
  CommitGraph::PathKey key_;
  ServedCompare compare_;
  std::vector<uint32_t> parents_;
  std::unordered_map<size_t, OidMap<Side>> sides_;
};

}  // namespace

// Whether commit `c` is listed and passes the filter (its line then in *line); pushes the parents
// the walk follows from it. Without a path every parent is walked whatever the judgement, so the
// filter, which reads the commit alone, goes first and trees are compared only for the commits it
// lets through: an author or a message found in few commits costs a read of each commit, as in
// `git log --author`, not a tree comparison as well. With a path the judgement says which
// parents to follow, so it always comes first. When the judgement was cut short by the stop
// token the answer is false and judge.stopped() says so.
bool JudgedAndPassed(GitRepo& git, Dag& dag, Judge& judge, Walk& walk, uint32_t c,
                     const HistoryFilter& filter, std::vector<uint32_t>* follow, CommitLine* line,
                     TooCostly* costly) {
  if (!filter.path) {
    dag.Parents(c, follow);
    for (uint32_t p : *follow) walk.Push(p);
    // Too costly counts only for a commit that is listed: judged after.
    TooCostly here;
    const bool passes = Passes(git, dag.Id(c), filter, dag.Time(c), line, &here);
    if (!passes && here.count == 0) return false;
    const bool listed = judge.Listed(c, follow) && !judge.stopped();
    if (!passes) {
      if (listed) {
        if (costly->named.size() < TooCostly::kNamed) costly->named.push_back(line->id);
        costly->count++;
      }
      return false;
    }
    return listed;
  }
  const bool listed = judge.Listed(c, follow);
  if (judge.stopped()) return false;
  for (uint32_t p : *follow) walk.Push(p);
  return listed && Passes(git, dag.Id(c), filter, dag.Time(c), line, costly);
}

Result<LogPage> Log(RepoReader& reader, const ReadPoint& at, const HistoryFilter& filter,
                    size_t skip, size_t max_count, const StopToken& stop,
                    const WalkProgress& progress) {
  GitRepo& git = PolicyAccess::Git(reader);
  Dag dag(git, reader.repo().Graph());
  Walk walk(dag);
  Judge judge(git, reader.repo().policy(), filter.path, dag, stop);
  walk.Push(dag.Index(at.commit.id.oid()));
  LogPage page;
  size_t matched = 0;
  std::vector<uint32_t> follow;
  size_t steps = 0;
  while (!walk.empty()) {
    if ((++steps & 255) == 0 && stop.stopped()) {
      page.stopped = stop.Why();
      break;
    }
    if (progress && steps % kWalkProgressEvery == 0) progress(steps);
    if (filter.since && walk.top_time() < *filter.since) break;  // all the rest is older
    const uint32_t c = walk.Pop();
    CommitLine line;
    const size_t costly = page.too_costly.count;
    if (!JudgedAndPassed(git, dag, judge, walk, c, filter, &follow, &line, &page.too_costly)) {
      if (judge.stopped()) {  // judged while stopping: unknown, so neither listed nor passed over
        page.stopped = stop.Why();
        break;
      }
      // A pattern too costly on a commit took PCRE2's whole match limit: the time is looked at
      // after each such commit, not only every 256.
      if (page.too_costly.count != costly && stop.stopped()) {
        page.stopped = stop.Why();
        break;
      }
      continue;
    }
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

// Containment: which commits reach a target, remembered across the questions about one target.
// A commit whose generation number is below the target's cannot hold it (commit-graph); outside
// the graph, a parent older than the target by more than a day is not walked (a commit cannot
// hold one made after it; the day allows for clocks that were off).
class Reach {
 public:
  Reach(Dag& dag, uint32_t target, const StopToken& stop)
      : dag_(dag),
        target_(target),
        generation_(dag.Generation(target)),
        floor_(dag.Time(target) - 86400),
        stop_(stop) {}

  // Whether a commit cannot hold the target without looking at its parents.
  bool TooOld(uint32_t c) const {
    if (generation_ != Dag::kInfinity && dag_.in_graph(c)) return dag_.Generation(c) < generation_;
    return dag_.Time(c) < floor_;
  }

  bool From(uint32_t start) {
    if (start == Dag::kNone) return false;
    if (int k = Known(start); k >= 0) return k == 1;
    std::vector<std::pair<uint32_t, size_t>> stack;  // commit, next parent to look at
    std::vector<uint32_t> parents;
    stack.push_back({start, 0});
    size_t steps = 0;
    while (!stack.empty()) {
      if ((++steps & 255) == 0 && stop_.stopped()) return false;
      const uint32_t c = stack.back().first;
      if (TooOld(c)) {
        Set(c, 0);
        stack.pop_back();
        continue;
      }
      dag_.Parents(c, &parents);
      size_t& next = stack.back().second;
      bool descended = false, found = false;
      while (next < parents.size()) {
        const uint32_t p = parents[next++];
        const int k = Known(p);
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
      if (found) {
        for (const auto& s : stack) Set(s.first, 1);  // every one reaches it through this one
        return true;
      }
      Set(c, 0);
      stack.pop_back();
    }
    return Known(start) == 1;
  }

 private:
  int Known(uint32_t c) const {
    if (c == target_) return 1;
    return c < memo_.size() ? memo_[c] : -1;
  }
  void Set(uint32_t c, int8_t v) {
    if (memo_.size() <= c) memo_.resize(std::max<size_t>(dag_.size(), c + 1) + 1024, -1);
    memo_[c] = v;
  }
  Dag& dag_;
  uint32_t target_;
  uint64_t generation_;
  int64_t floor_;
  const StopToken& stop_;
  std::vector<int8_t> memo_;
};

}  // namespace

Result<FoundCommits> FindCommits(RepoReader& reader, const HistoryFilter& filter, size_t max_count,
                                 const StopToken& stop, const WalkProgress& progress) {
  GitRepo& git = PolicyAccess::Git(reader);
  FoundCommits out;
  bool truncated = false;
  auto refs = reader.Refs(200000, &truncated);
  if (!refs) return Error{refs.error()};
  const HeadState head = git.Head();
  if (head.kind == HeadState::Kind::kBranch) out.default_branch = head.branch;

  Dag dag(git, reader.repo().Graph());
  uint32_t head_commit = Dag::kNone;
  if (head.kind == HeadState::Kind::kBranch || head.kind == HeadState::Kind::kDetached) {
    head_commit = dag.Index(head.commit.oid());
  }
  Walk walk(dag);
  walk.Push(head_commit);
  std::vector<uint32_t> ref_index;
  for (const auto& r : *refs) {
    ref_index.push_back(dag.Index(r.commit.id.oid()));
    walk.Push(ref_index.back());
  }
  Judge judge(git, reader.repo().policy(), std::nullopt, dag, stop);
  std::vector<uint32_t> follow, found_index;
  size_t steps = 0;
  while (!walk.empty()) {
    if ((++steps & 255) == 0 && stop.stopped()) {
      out.stopped = stop.Why();
      break;
    }
    if (progress && steps % kWalkProgressEvery == 0) progress(steps);
    if (filter.since && walk.top_time() < *filter.since) break;
    const uint32_t c = walk.Pop();
    FoundCommit found;
    const size_t costly = out.too_costly.count;
    if (!JudgedAndPassed(git, dag, judge, walk, c, filter, &follow, &found.commit,
                         &out.too_costly)) {
      if (judge.stopped() || (out.too_costly.count != costly && stop.stopped())) {  // as in Log
        out.stopped = stop.Why();
        break;
      }
      continue;
    }
    if (out.commits.size() == max_count) {
      out.more = true;
      break;
    }
    out.commits.push_back(std::move(found));
    found_index.push_back(c);
  }
  if (progress) progress(steps);  // the whole walk, for a count over many repositories

  // Where each one is: the default branch, else the branches holding it; the oldest tag.
  std::vector<size_t> branches, tags;
  for (size_t i = 0; i < refs->size(); i++) {
    ((*refs)[i].kind == RefEntry::Kind::kTag ? tags : branches).push_back(i);
  }
  // Branches named newest first (by their commit's date), as list_refs lists them.
  std::stable_sort(branches.begin(), branches.end(), [&](size_t a, size_t b) {
    return (*refs)[a].commit.time > (*refs)[b].commit.time;
  });
  std::sort(tags.begin(), tags.end(), [&](size_t a, size_t b) {
    const RefEntry& x = (*refs)[a];
    const RefEntry& y = (*refs)[b];
    if (x.commit.time != y.commit.time) return x.commit.time < y.commit.time;
    return x.name < y.name;
  });
  for (size_t n = 0; n < out.commits.size(); n++) {
    if (stop.stopped()) {
      out.stopped = stop.Why();
      break;
    }
    FoundCommit& fc = out.commits[n];
    Reach reach(dag, found_index[n], stop);
    fc.on_default = reach.From(head_commit);
    if (!fc.on_default) {
      for (size_t b : branches) {
        if (!reach.From(ref_index[b])) continue;
        if (fc.branches.size() < 3) {
          fc.branches.push_back((*refs)[b].name);
        } else {
          fc.more_branches++;
        }
      }
    }
    for (size_t t : tags) {
      if (ref_index[t] == Dag::kNone || reach.TooOld(ref_index[t])) continue;
      if (reach.From(ref_index[t])) {
        fc.first_tag = (*refs)[t].name;
        break;
      }
    }
  }
  if (!out.stopped.empty()) out.more = true;
  return out;
}

Result<std::vector<CommitId>> MergeBases(RepoReader& reader, const CommitId& a, const CommitId& b,
                                         const StopToken& stop) {
  GitRepo& git = PolicyAccess::Git(reader);
  Dag dag(git, reader.repo().Graph());
  const uint32_t ia = dag.Index(a.oid()), ib = dag.Index(b.oid());
  if (ia == Dag::kNone || ib == Dag::kNone) return Error{"a commit to compare cannot be read"};
  std::vector<CommitId> out;
  if (ia == ib) {
    out.push_back(a);
    return out;
  }
  // Paint down from both (git's paint_down_to_common): newest generation first, then newest
  // date; a commit painted from both sides is a common ancestor, and everything below it is
  // stale. Stops when only stale commits are left.
  enum : uint8_t { kOne = 1, kTwo = 2, kStale = 4, kResult = 8 };
  std::vector<uint8_t> flags;
  auto flag = [&](uint32_t i) -> uint8_t& {
    if (flags.size() <= i) flags.resize(std::max<size_t>(dag.size(), i + 1) + 1024, 0);
    return flags[i];
  };
  struct Item {
    uint64_t generation;
    int64_t time;
    uint64_t seq;
    uint32_t index;
    bool counted;  // not stale when pushed: counted in `nonstale`
    bool operator<(const Item& o) const {
      if (generation != o.generation) return generation < o.generation;
      if (time != o.time) return time < o.time;
      return seq > o.seq;
    }
  };
  std::priority_queue<Item> queue;
  uint64_t seq = 0;
  size_t nonstale = 0;
  auto push = [&](uint32_t i) {
    const bool counted = !(flag(i) & kStale);
    queue.push(Item{dag.Generation(i), dag.Time(i), seq++, i, counted});
    if (counted) nonstale++;
  };
  flag(ia) |= kOne;
  flag(ib) |= kTwo;
  push(ia);
  push(ib);
  std::vector<uint32_t> results, parents;
  size_t steps = 0;
  while (!queue.empty() && nonstale > 0) {
    if ((++steps & 255) == 0 && stop.stopped()) return Error{stop.Why()};
    const Item item = queue.top();
    queue.pop();
    uint8_t& f = flag(item.index);
    if (item.counted) nonstale--;
    uint8_t paint = f & (kOne | kTwo | kStale);
    if ((paint & (kOne | kTwo)) == (kOne | kTwo)) {
      if (!(f & kResult)) {
        f |= kResult;
        if (!(f & kStale)) results.push_back(item.index);
      }
      paint |= kStale;
    }
    dag.Parents(item.index, &parents);
    for (uint32_t p : parents) {
      uint8_t& pf = flag(p);
      if ((pf & paint) == paint) continue;
      pf |= paint;
      push(p);
    }
  }
  // Drop a result that another result holds (git's remove_redundant).
  std::vector<uint32_t> best;
  for (uint32_t r : results) {
    if (flag(r) & kStale) {
      // Became stale after it was found: reached from another common ancestor above it.
      bool held = false;
      for (uint32_t other : results) {
        if (other == r) continue;
        Reach reach(dag, r, stop);
        if (reach.From(other)) {
          held = true;
          break;
        }
      }
      if (held) continue;
    }
    best.push_back(r);
  }
  std::stable_sort(best.begin(), best.end(),
                   [&](uint32_t x, uint32_t y) { return dag.Time(x) > dag.Time(y); });
  for (uint32_t r : best) out.push_back(CommitId(dag.Id(r)));
  return out;
}

}  // namespace rr
