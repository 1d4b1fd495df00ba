#include "core/git/blame.h"

#include <git2/sys/odb_backend.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <queue>
#include <unordered_map>

#include "core/util/text.h"

namespace rr {

uint32_t CountLines(std::string_view text) {
  uint32_t n = 0;
  for (const char* p = text.data(); p < text.data() + text.size(); ++n) {
    const void* nl = std::memchr(p, '\n', static_cast<size_t>(text.data() + text.size() - p));
    p = nl ? static_cast<const char*>(nl) + 1 : text.data() + text.size();
  }
  return n;
}

namespace {

struct OidHash {
  size_t operator()(const git_oid& o) const {
    size_t h;
    std::memcpy(&h, o.id, sizeof h);
    return h;
  }
};
struct OidEq {
  bool operator()(const git_oid& a, const git_oid& b) const { return git_oid_equal(&a, &b); }
};

bool IsRegular(git_filemode_t mode) {
  return mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE;
}

// Lines [lno, lno + n) of the file at the start commit (from 0), which are lines
// [s_lno, s_lno + n) of the suspect's version of it.
struct Range {
  uint32_t lno = 0;
  uint32_t s_lno = 0;
  uint32_t n = 0;
};

struct Commit;

// A file at a path in one commit, and the lines it is suspected for.
struct Origin {
  Commit* commit = nullptr;
  uint32_t path = 0;  // index into Engine::paths_
  git_oid blob{};
  std::vector<Range> suspects;  // sorted by s_lno, never overlapping
  BlobPtr data;                 // read when first diffed, released once passed on
  BlameStop stop = BlameStop::kNone;
};

struct Commit {
  git_oid id{};
  enum class State { kUnread, kRead, kMissing } state = State::kUnread;
  uint32_t graph_pos = UINT32_MAX;  // its position in the commit-graph, once read from it
  int64_t time = 0;                 // committer time
  git_oid tree{};
  std::vector<Commit*> parents;
  std::vector<Origin*> origins;
};

// A hunk of a diff with no context, lines counted from 0: lines [a, a + a_n) of the old version
// became lines [b, b + b_n) of the new one.
struct Hunk {
  uint32_t a = 0, a_n = 0, b = 0, b_n = 0;
};

int CollectHunk(const git_diff_delta*, const git_diff_hunk* h, void* payload) {
  Hunk k;
  k.a_n = static_cast<uint32_t>(h->old_lines);
  k.b_n = static_cast<uint32_t>(h->new_lines);
  // A unified hunk header names the line before an empty side.
  k.a = static_cast<uint32_t>(h->old_lines ? h->old_start - 1 : h->old_start);
  k.b = static_cast<uint32_t>(h->new_lines ? h->new_start - 1 : h->new_start);
  static_cast<std::vector<Hunk>*>(payload)->push_back(k);
  return 0;
}

// git's measure of how much of one file another holds (its rename detection's): each file is cut
// after every '\n' and every 64 bytes, whichever comes first (a text's "\r\n" counted as "\n"),
// and the bytes of each distinct piece counted. What two files share is, piece by piece, the
// smaller of the two counts.
class PieceCounts {
 public:
  explicit PieceCounts(std::string_view data) {
    const bool text =
        std::memchr(data.data(), '\0', std::min<size_t>(data.size(), 8000)) == nullptr;
    std::unordered_map<uint64_t, uint32_t> counts;
    constexpr uint64_t kBasis = 14695981039346656037ull, kPrime = 1099511628211ull;
    uint64_t h = kBasis;
    uint32_t n = 0;
    for (size_t i = 0; i < data.size(); ++i) {
      const auto c = static_cast<unsigned char>(data[i]);
      if (text && c == '\r' && i + 1 < data.size() && data[i + 1] == '\n') continue;
      h = (h ^ c) * kPrime;
      if (++n < 64 && c != '\n') continue;
      counts[h] += n;
      h = kBasis;
      n = 0;
    }
    if (n > 0) counts[h] += n;
    pieces_.assign(counts.begin(), counts.end());
    std::sort(pieces_.begin(), pieces_.end());
  }

  uint64_t Shared(const PieceCounts& other) const {
    uint64_t shared = 0;
    auto a = pieces_.begin();
    auto b = other.pieces_.begin();
    while (a != pieces_.end() && b != other.pieces_.end()) {
      if (a->first < b->first) {
        ++a;
      } else if (b->first < a->first) {
        ++b;
      } else {
        shared += std::min(a->second, b->second);
        ++a;
        ++b;
      }
    }
    return shared;
  }

 private:
  std::vector<std::pair<uint64_t, uint32_t>> pieces_;
};

// git's scores run to 60,000; a rename needs half, a rename to a file of the same name found by
// that name alone three quarters.
constexpr uint64_t kMaxScore = 60000;
constexpr uint64_t kRenameScore = 30000;
constexpr uint64_t kSameNameScore = 45000;

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Tree order: names compared byte by byte, a folder's as if it ended in '/'.
int TreeOrder(std::string_view a, bool a_tree, std::string_view b, bool b_tree) {
  const size_t n = std::min(a.size(), b.size());
  if (int c = std::memcmp(a.data(), b.data(), n)) return c;
  const auto next = [n](std::string_view s, bool tree) -> unsigned {
    return s.size() > n ? static_cast<unsigned char>(s[n]) : tree ? '/' : 0;
  };
  const unsigned ca = next(a, a_tree), cb = next(b, b_tree);
  return ca < cb ? -1 : ca > cb ? 1 : 0;
}

// An object's bytes, read for the walk. Each commit and root tree is read once per blame, so
// they are read from the object database's backends directly: through the shared object cache
// they would only crowd out what other calls reuse, and cost more to keep than to read.
class RawObject {
 public:
  RawObject() = default;
  RawObject(const RawObject&) = delete;
  RawObject& operator=(const RawObject&) = delete;
  ~RawObject() { Clear(); }

  // False when no backend has the object (or it is not of type `want`).
  bool Read(git_odb* odb, const git_oid& id, git_object_t want) {
    Clear();
    git_object_t type = GIT_OBJECT_INVALID;
    const size_t n = git_odb_num_backends(odb);
    for (size_t i = 0; i < n && !data_; ++i) {
      git_odb_backend* b = nullptr;
      if (git_odb_get_backend(&b, odb, i) != 0 || !b || !b->read) continue;
      void* data = nullptr;
      size_t size = 0;
      if (b->read(&data, &size, &type, b, &id) != 0) continue;
      backend_ = b;
      data_ = data;
      bytes_ = std::string_view(static_cast<const char*>(data), size);
    }
    if (!data_) {
      // As libgit2 reads it otherwise: a pack written since the backends last looked is found.
      git_error_clear();
      git_odb_object* object = nullptr;
      if (git_odb_read(&object, odb, &id) != 0) return false;
      object_ = object;
      type = git_odb_object_type(object);
      bytes_ = std::string_view(static_cast<const char*>(git_odb_object_data(object)),
                                git_odb_object_size(object));
    }
    return type == want;
  }
  std::string_view bytes() const { return bytes_; }

 private:
  void Clear() {
    if (data_) git_odb_backend_data_free(backend_, data_);
    if (object_) git_odb_object_free(object_);
    data_ = nullptr;
    object_ = nullptr;
    bytes_ = {};
  }
  git_odb_backend* backend_ = nullptr;
  void* data_ = nullptr;
  git_odb_object* object_ = nullptr;
  std::string_view bytes_;
};

// A tree entry's mode as libgit2 reads it (git_tree_entry_filemode).
git_filemode_t NormalMode(uint32_t mode) {
  if ((mode & 0170000) == 0040000) return GIT_FILEMODE_TREE;
  if (mode & 0111) return GIT_FILEMODE_BLOB_EXECUTABLE;
  if ((mode & 0170000) == 0160000) return GIT_FILEMODE_COMMIT;
  if ((mode & 0170000) == 0120000) return GIT_FILEMODE_LINK;
  return GIT_FILEMODE_BLOB;
}

// The entry named `name` in a tree object's raw bytes: entries are "<mode> <name>\0<id>", in
// tree order, so the search ends at the first name past `name`. Reading the bytes directly,
// rather than parsing the whole tree into entries, is what makes a walk through thousands of
// commits' root trees cheap.
bool FindInTree(std::string_view data, std::string_view name, git_filemode_t* mode, git_oid* oid) {
  const char* p = data.data();
  const char* const end = p + data.size();
  while (p < end) {
    uint32_t m = 0;
    for (; p < end && *p >= '0' && *p <= '7'; ++p) m = (m << 3) | static_cast<uint32_t>(*p - '0');
    if (p == end || *p != ' ') return false;  // not a tree git or libgit2 would read
    const char* entry = ++p;
    const auto* nul = static_cast<const char*>(std::memchr(p, '\0', static_cast<size_t>(end - p)));
    if (!nul || end - nul < GIT_OID_RAWSZ + 1) return false;
    const std::string_view entry_name(entry, static_cast<size_t>(nul - entry));
    p = nul + 1 + GIT_OID_RAWSZ;
    // The first entry of that name, wherever it is: a tree git never wrote may be out of
    // order or name an entry twice, and the entry read must be the one every other tool reads
    // (GitRepo::FindEntry).
    if (entry_name == name) {
      *mode = NormalMode(m);
      git_oid_fromraw(oid, reinterpret_cast<const unsigned char*>(nul + 1));
      return true;
    }
  }
  return false;
}

class Engine {
 public:
  Engine(GitRepo& repo, const BlameOptions& options, const StopToken& stop)
      : repo_(repo), options_(options), stop_(stop) {}

  Result<BlameResult> Run(const CommitId& start, std::string_view path);

 private:
  // A path's entry in a tree.
  struct Entry {
    bool found = false;
    git_filemode_t mode = GIT_FILEMODE_UNREADABLE;
    git_oid oid{};
  };
  struct PathInfo {
    std::string text;
    std::vector<std::string> parts;
    // Per depth: what the rest of the path names below a tree already looked at. Folders
    // deeper than the root are shared by most commits, so most lookups end in these.
    std::vector<std::unordered_map<git_oid, Entry, OidHash, OidEq>> below;
  };
  struct Deleted {
    std::string path;
    git_oid oid;
    git_filemode_t mode;
  };
  struct Guilty {
    Origin* origin;
    Range range;
    BlameStop stop;
  };
  struct Queued {
    int64_t time;
    uint64_t seq;
    Commit* commit;
    bool operator<(const Queued& o) const {
      // std::priority_queue serves the greatest: the newest, then the first queued.
      return time != o.time ? time < o.time : seq > o.seq;
    }
  };

  // --- Commit access: the only place commits are read.
  Commit* CommitFor(const git_oid& id);
  bool ReadCommit(Commit* c);
  Result<BlameCommit> Describe(const git_oid& id);

  uint32_t Intern(std::string_view path);
  Origin* GetOrigin(Commit* c, uint32_t path, const git_oid& blob);
  Entry EntryAt(const git_oid& root, uint32_t path);
  bool Load(Origin* o);
  void Queue(Origin* o, std::vector<Range> ranges);

  void Pass(Origin* o);
  bool SameAsFirstParent(Commit* c, uint32_t path);
  Origin* FindOrigin(Commit* parent, Origin* o);
  Origin* FindRename(Commit* parent, Origin* o);
  bool CollectDeleted(const git_oid& old_tree, const git_oid& new_tree, const std::string& prefix,
                      std::vector<Deleted>* out);
  bool CollectAll(const git_oid& tree, const std::string& prefix, std::vector<Deleted>* out);
  bool PassToParent(Origin* target, Origin* parent);
  void PassWhole(Origin* o, Origin* parent);

  GitRepo& repo_;
  std::unique_ptr<git_odb, Deleter> odb_;
  RawObject tree_;  // the tree EntryAt read last
  const BlameOptions& options_;
  const StopToken& stop_;
  std::unordered_map<git_oid, std::unique_ptr<Commit>, OidHash, OidEq> commits_;
  std::deque<Origin> origins_;
  std::vector<PathInfo> paths_;
  std::priority_queue<Queued> queue_;
  uint64_t seq_ = 0;
  std::vector<Guilty> guilty_;
  bool stopped_ = false;
  std::vector<uint32_t> graph_parents_;
  std::vector<CommitGraph::PathKey> keys_;  // per path in paths_, for the Bloom filters
};

Commit* Engine::CommitFor(const git_oid& id) {
  auto& slot = commits_[id];
  if (!slot) {
    slot = std::make_unique<Commit>();
    slot->id = id;
  }
  return slot.get();
}

bool Engine::ReadCommit(Commit* c) {
  if (c->state != Commit::State::kUnread) return c->state == Commit::State::kRead;
  c->state = Commit::State::kMissing;
  const CommitGraph* graph = options_.graph.get();
  if (graph && graph->Find(c->id, &c->graph_pos)) {
    c->tree = graph->Tree(c->graph_pos);
    c->time = graph->CommitTime(c->graph_pos);
    graph_parents_.clear();
    graph->Parents(c->graph_pos, &graph_parents_);
    for (uint32_t p : graph_parents_) c->parents.push_back(CommitFor(graph->Id(p)));
    c->state = Commit::State::kRead;
    return true;
  }
  c->graph_pos = UINT32_MAX;
  RawObject object;
  if (!object.Read(odb_.get(), c->id, GIT_OBJECT_COMMIT)) return false;
  // The header: "tree <id>", "parent <id>" for each parent, then author and committer; the
  // commit's time is the committer's. Nothing else of a commit is read on the walk.
  std::string_view rest = object.bytes();
  auto next_line = [&rest]() {
    const size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    return line;
  };
  auto read_id = [](std::string_view hex, git_oid* out) {
    return hex.size() == GIT_OID_HEXSZ && git_oid_fromstrn(out, hex.data(), hex.size()) == 0;
  };
  std::string_view line = next_line();
  if (line.substr(0, 5) != "tree " || !read_id(line.substr(5), &c->tree)) return false;
  for (line = next_line(); line.substr(0, 7) == "parent "; line = next_line()) {
    git_oid parent;
    if (!read_id(line.substr(7), &parent)) return false;
    c->parents.push_back(CommitFor(parent));
  }
  for (; !line.empty(); line = next_line()) {
    if (line.substr(0, 10) != "committer ") continue;
    // "committer Name <email> 1700000000 +0100"
    const size_t gt = line.rfind('>');
    if (gt == std::string_view::npos) return false;
    std::string_view when = line.substr(gt + 1);
    while (!when.empty() && when.front() == ' ') when.remove_prefix(1);
    int64_t t = 0;
    size_t digits = 0;
    for (; digits < when.size() && when[digits] >= '0' && when[digits] <= '9'; ++digits) {
      t = t * 10 + (when[digits] - '0');
    }
    if (digits == 0) return false;
    c->time = t;
    c->state = Commit::State::kRead;
    return true;
  }
  return false;
}

Result<BlameCommit> Engine::Describe(const git_oid& id) {
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo_.raw(), &id) != 0) {
    return Error{"commit " + CommitId(id).Short() + " cannot be read: " + LastGitError()};
  }
  std::unique_ptr<git_commit, Deleter> c(raw);
  BlameCommit out;
  out.id = CommitId(id);
  if (const git_signature* author = git_commit_author(c.get())) {
    out.author = author->name ? author->name : "";
    out.author_time = author->when.time;
    out.author_offset = author->when.offset;
  }
  if (const char* msg = git_commit_message(c.get())) {
    while (*msg == '\n') ++msg;
    const char* nl = std::strchr(msg, '\n');
    out.subject.assign(msg, nl ? static_cast<size_t>(nl - msg) : std::strlen(msg));
    if (!out.subject.empty() && out.subject.back() == '\r') out.subject.pop_back();
  }
  return out;
}

uint32_t Engine::Intern(std::string_view path) {
  for (size_t i = 0; i < paths_.size(); ++i) {
    if (paths_[i].text == path) return static_cast<uint32_t>(i);
  }
  PathInfo info;
  info.text = std::string(path);
  for (size_t begin = 0; begin <= path.size();) {
    size_t slash = path.find('/', begin);
    if (slash == std::string_view::npos) slash = path.size();
    info.parts.emplace_back(path.substr(begin, slash - begin));
    begin = slash + 1;
  }
  info.below.resize(info.parts.size());
  paths_.push_back(std::move(info));
  return static_cast<uint32_t>(paths_.size() - 1);
}

Origin* Engine::GetOrigin(Commit* c, uint32_t path, const git_oid& blob) {
  for (Origin* o : c->origins) {
    if (o->path == path) return o;
  }
  origins_.emplace_back();
  Origin* o = &origins_.back();
  o->commit = c;
  o->path = path;
  o->blob = blob;
  c->origins.push_back(o);
  return o;
}

Engine::Entry Engine::EntryAt(const git_oid& root, uint32_t path) {
  PathInfo& info = paths_[path];
  // The trees looked at on the way down, each with the depth of the part it is searched for.
  std::vector<std::pair<git_oid, size_t>> seen;
  git_oid tree = root;
  Entry found;
  for (size_t depth = 0;; ++depth) {
    auto hit = info.below[depth].find(tree);
    if (hit != info.below[depth].end()) {
      found = hit->second;
      break;
    }
    seen.emplace_back(tree, depth);
    git_filemode_t mode;
    git_oid oid;
    if (!tree_.Read(odb_.get(), tree, GIT_OBJECT_TREE) ||  // not in the local copy
        !FindInTree(tree_.bytes(), info.parts[depth], &mode, &oid)) {
      break;
    }
    if (depth + 1 == info.parts.size()) {
      found.found = true;
      found.mode = mode;
      found.oid = oid;
      break;
    }
    if (mode != GIT_FILEMODE_TREE) break;
    tree = oid;
  }
  for (const auto& [oid, depth] : seen) info.below[depth].emplace(oid, found);
  return found;
}

bool Engine::Load(Origin* o) {
  if (o->data) return true;
  size_t size = 0;
  git_object_t type = GIT_OBJECT_INVALID;
  bool present = repo_.ObjectHeader(o->blob, &size, &type);
  if (!present && options_.fetch_missing) {
    options_.fetch_missing({{o->blob, paths_[o->path].text}});
    present = repo_.ObjectHeader(o->blob, &size, &type);
  }
  if (!present || type != GIT_OBJECT_BLOB) {
    o->stop = BlameStop::kMissing;
    return false;
  }
  if (size > options_.max_blob_bytes) {
    o->stop = BlameStop::kTooLarge;
    return false;
  }
  git_blob* raw = nullptr;
  if (git_blob_lookup(&raw, repo_.raw(), &o->blob) != 0) {
    o->stop = BlameStop::kMissing;
    return false;
  }
  o->data.reset(raw);
  return true;
}

std::string_view Bytes(const BlobPtr& blob) {
  return std::string_view(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                          static_cast<size_t>(git_blob_rawsize(blob.get())));
}

void Engine::Queue(Origin* o, std::vector<Range> ranges) {
  if (ranges.empty()) return;
  bool waiting = false;  // the commit is in the queue already: one of its origins has suspects
  for (const Origin* other : o->commit->origins) waiting = waiting || !other->suspects.empty();
  if (o->suspects.empty()) {
    o->suspects = std::move(ranges);
  } else {
    std::vector<Range> merged;
    merged.reserve(o->suspects.size() + ranges.size());
    std::merge(o->suspects.begin(), o->suspects.end(), ranges.begin(), ranges.end(),
               std::back_inserter(merged),
               [](const Range& a, const Range& b) { return a.s_lno < b.s_lno; });
    o->suspects = std::move(merged);
  }
  // Neighbours that continue each other in both files become one range.
  std::vector<Range>& s = o->suspects;
  size_t w = 0;
  for (size_t r = 1; r < s.size(); ++r) {
    if (s[w].lno + s[w].n == s[r].lno && s[w].s_lno + s[w].n == s[r].s_lno) {
      s[w].n += s[r].n;
    } else {
      s[++w] = s[r];
    }
  }
  s.resize(w + 1);
  if (!waiting) queue_.push(Queued{o->commit->time, seq_++, o->commit});
}

void Engine::PassWhole(Origin* o, Origin* parent) {
  if (!parent->data && o->data) parent->data = std::move(o->data);
  std::vector<Range> all = std::move(o->suspects);
  o->suspects.clear();
  Queue(parent, std::move(all));
}

Origin* Engine::FindOrigin(Commit* parent, Origin* o) {
  for (Origin* po : parent->origins) {
    if (po->path == o->path) return po;
  }
  const Entry e = EntryAt(parent->tree, o->path);
  // Not there, or there as something else than a file (a link, a submodule, a folder): the
  // parent had no version of this file at this path.
  if (!e.found || !IsRegular(e.mode)) return nullptr;
  return GetOrigin(parent, o->path, e.oid);
}

bool Engine::CollectAll(const git_oid& tree, const std::string& prefix, std::vector<Deleted>* out) {
  git_tree* raw = nullptr;
  if (git_tree_lookup(&raw, repo_.raw(), &tree) != 0) return false;
  TreePtr t(raw);
  const size_t n = git_tree_entrycount(t.get());
  for (size_t i = 0; i < n; ++i) {
    if (stop_.stopped()) return false;
    const git_tree_entry* e = git_tree_entry_byindex(t.get(), i);
    const git_filemode_t mode = git_tree_entry_filemode(e);
    std::string path = prefix + git_tree_entry_name(e);
    if (mode == GIT_FILEMODE_TREE) {
      if (!CollectAll(*git_tree_entry_id(e), path + "/", out)) return false;
    } else {
      out->push_back(Deleted{std::move(path), *git_tree_entry_id(e), mode});
    }
  }
  return true;
}

bool Engine::CollectDeleted(const git_oid& old_tree, const git_oid& new_tree,
                            const std::string& prefix, std::vector<Deleted>* out) {
  if (git_oid_equal(&old_tree, &new_tree)) return true;
  git_tree *raw_old = nullptr, *raw_new = nullptr;
  if (git_tree_lookup(&raw_old, repo_.raw(), &old_tree) != 0) return false;
  TreePtr a(raw_old);
  if (git_tree_lookup(&raw_new, repo_.raw(), &new_tree) != 0) return false;
  TreePtr b(raw_new);
  const size_t na = git_tree_entrycount(a.get()), nb = git_tree_entrycount(b.get());
  size_t i = 0, j = 0;
  while (i < na) {
    if (stop_.stopped()) return false;
    const git_tree_entry* ea = git_tree_entry_byindex(a.get(), i);
    const git_filemode_t ma = git_tree_entry_filemode(ea);
    const char* name_a = git_tree_entry_name(ea);
    int order = -1;  // ea before eb: only in the old tree
    const git_tree_entry* eb = nullptr;
    if (j < nb) {
      eb = git_tree_entry_byindex(b.get(), j);
      order = TreeOrder(name_a, ma == GIT_FILEMODE_TREE, git_tree_entry_name(eb),
                        git_tree_entry_filemode(eb) == GIT_FILEMODE_TREE);
    }
    if (order > 0) {  // only in the new tree: added
      ++j;
      continue;
    }
    std::string path = prefix + name_a;
    if (order < 0) {  // only in the old tree: deleted
      if (ma == GIT_FILEMODE_TREE) {
        if (!CollectAll(*git_tree_entry_id(ea), path + "/", out)) return false;
      } else {
        out->push_back(Deleted{std::move(path), *git_tree_entry_id(ea), ma});
      }
    } else if (ma == GIT_FILEMODE_TREE) {  // a folder in both
      if (!CollectDeleted(*git_tree_entry_id(ea), *git_tree_entry_id(eb), path + "/", out)) {
        return false;
      }
      ++j;
    } else {  // a file in both, changed or not: never a rename's source
      ++j;
    }
    ++i;
  }
  return true;
}

Origin* Engine::FindRename(Commit* parent, Origin* o) {
  // Only a file the commit added can have been renamed: a parent that has something else than a
  // folder at the path changed its type, which git never takes for a rename.
  const Entry at = EntryAt(parent->tree, o->path);
  if (at.found && at.mode != GIT_FILEMODE_TREE) return nullptr;
  std::vector<Deleted> deleted;
  if (!CollectDeleted(parent->tree, o->commit->tree, "", &deleted)) {
    if (o->stop == BlameStop::kNone)
      o->stop = stop_.stopped() ? BlameStop::kStopped : BlameStop::kMissing;
    return nullptr;
  }
  if (deleted.empty()) return nullptr;
  const std::string target = paths_[o->path].text;
  const std::string_view target_base = BaseName(target);
  auto may_follow = [&](const std::string& path) {
    return !options_.may_follow || options_.may_follow(path);
  };
  auto refuse = [&](BlameStop why) -> Origin* {
    if (o->stop == BlameStop::kNone) o->stop = why;
    return nullptr;
  };

  // An identical file first: the first of the same name, or else the first.
  const Deleted* exact = nullptr;
  for (const Deleted& d : deleted) {
    if (!IsRegular(d.mode) || !git_oid_equal(&d.oid, &o->blob)) continue;
    if (!exact || (BaseName(exact->path) != target_base && BaseName(d.path) == target_base)) {
      exact = &d;
    }
  }
  if (exact) {
    if (!may_follow(exact->path)) return refuse(BlameStop::kNotFollowed);
    return GetOrigin(parent, Intern(exact->path), exact->oid);
  }

  // Then a similar file. Sizes alone rule most out: one more than twice the other's size cannot
  // be half the same. Of those left, none is read unless every one may be followed.
  size_t target_size = 0;
  git_object_t type;
  if (options_.fetch_missing) {
    // Versions the local copy lacks are fetched first, in one batch, and only from paths that
    // may be followed: a missing one that may not stops the blame here, unread.
    std::vector<std::pair<git_oid, std::string>> wanted;
    if (!repo_.ObjectHeader(o->blob, &target_size, &type)) {
      wanted.emplace_back(o->blob, paths_[o->path].text);
    }
    for (const Deleted& d : deleted) {
      if (!IsRegular(d.mode) || repo_.ObjectHeader(d.oid, &target_size, &type)) continue;
      if (!may_follow(d.path)) return refuse(BlameStop::kNotFollowed);
      wanted.emplace_back(d.oid, d.path);
    }
    if (!wanted.empty()) options_.fetch_missing(wanted);
  }
  if (!repo_.ObjectHeader(o->blob, &target_size, &type)) return refuse(BlameStop::kMissing);
  struct Candidate {
    const Deleted* file;
    size_t size;
  };
  std::vector<Candidate> candidates;
  for (const Deleted& d : deleted) {
    if (!IsRegular(d.mode)) continue;
    size_t size = 0;
    if (!repo_.ObjectHeader(d.oid, &size, &type)) {
      if (!may_follow(d.path)) return refuse(BlameStop::kNotFollowed);
      return refuse(BlameStop::kMissing);
    }
    const size_t larger = std::max(size, target_size), smaller = std::min(size, target_size);
    if (larger * (kMaxScore - kRenameScore) < (larger - smaller) * kMaxScore) continue;
    candidates.push_back(Candidate{&d, size});
  }
  if (candidates.empty()) return nullptr;
  for (const Candidate& c : candidates) {
    if (!may_follow(c.file->path)) return refuse(BlameStop::kNotFollowed);
    if (c.size > options_.max_blob_bytes) return refuse(BlameStop::kTooLarge);
  }
  if (!Load(o)) return nullptr;
  const PieceCounts mine(Bytes(o->data));
  // A deleted file whose name no other deleted file has, named as this one: taken when three
  // quarters the same, before any other is compared.
  const Deleted* same_name = nullptr;
  size_t same_name_count = 0;
  for (const Deleted& d : deleted) {
    if (BaseName(d.path) == target_base) {
      ++same_name_count;
      same_name = &d;
    }
  }
  uint64_t best_score = 0;
  bool best_same_name = false;
  const Candidate* best = nullptr;
  for (int round = 0; round < 2 && !best; ++round) {
    for (const Candidate& c : candidates) {
      if (stop_.stopped()) return refuse(BlameStop::kStopped);
      const bool named = BaseName(c.file->path) == target_base;
      if (round == 0 && !(same_name_count == 1 && c.file == same_name)) continue;
      git_blob* raw = nullptr;
      if (git_blob_lookup(&raw, repo_.raw(), &c.file->oid) != 0) return refuse(BlameStop::kMissing);
      BlobPtr blob(raw);
      const uint64_t shared = PieceCounts(Bytes(blob)).Shared(mine);
      const uint64_t score =
          shared * kMaxScore / std::max<uint64_t>(std::max(c.size, target_size), 1);
      if (round == 0) {
        if (score >= kSameNameScore) best = &c;
        break;
      }
      if (score < kRenameScore) continue;
      if (!best || score > best_score || (score == best_score && named && !best_same_name)) {
        best = &c;
        best_score = score;
        best_same_name = named;
      }
    }
  }
  if (!best) return nullptr;
  return GetOrigin(parent, Intern(best->file->path), best->file->oid);
}

bool Engine::PassToParent(Origin* target, Origin* parent) {
  if (!Load(parent)) {
    if (target->stop == BlameStop::kNone) target->stop = parent->stop;
    return false;
  }
  if (!Load(target)) return false;
  std::vector<Hunk> hunks;
  git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
  opts.context_lines = 0;
  opts.interhunk_lines = 0;
  // As git blame diffs: text whatever the bytes, with the indent heuristic git uses by default.
  opts.flags = GIT_DIFF_FORCE_TEXT | GIT_DIFF_INDENT_HEURISTIC;
  // The blobs are diffed as the file with no name (""): libgit2 looks a file's diff driver up
  // in the attributes by its name, and for no name takes the default driver without reading
  // any attributes -- the same as git_diff_buffers, without hashing both versions again to
  // learn ids already known (a third of a diff's time on a 3,000-line file).
  if (git_diff_blobs(parent->data.get(), "", target->data.get(), "", &opts, nullptr, nullptr,
                     CollectHunk, nullptr, &hunks) != 0) {
    if (target->stop == BlameStop::kNone) target->stop = BlameStop::kMissing;
    return false;
  }
  // The target's lines in stretches: unchanged ones, which the parent had (at line + offset),
  // and the hunks' new sides, which the target changed.
  struct Stretch {
    uint32_t end;  // the stretch ends before this target line
    bool unchanged;
    int64_t offset;
  };
  std::vector<Stretch> stretches;
  stretches.reserve(2 * hunks.size() + 1);
  uint32_t at = 0;
  int64_t offset = 0;
  for (const Hunk& k : hunks) {
    offset = static_cast<int64_t>(k.a) - k.b;
    if (k.b > at) stretches.push_back(Stretch{k.b, true, offset});
    if (k.b_n > 0) stretches.push_back(Stretch{k.b + k.b_n, false, 0});
    at = k.b + k.b_n;
    offset = static_cast<int64_t>(k.a + k.a_n) - at;
  }
  stretches.push_back(Stretch{UINT32_MAX, true, offset});
  std::vector<Range> to_parent, kept;
  size_t s = 0;
  for (const Range& r : target->suspects) {
    for (uint32_t cur = r.s_lno, end = r.s_lno + r.n; cur < end;) {
      while (stretches[s].end <= cur) ++s;
      const Stretch& st = stretches[s];
      const uint32_t stop = std::min(end, st.end);
      const uint32_t lno = r.lno + (cur - r.s_lno);
      if (st.unchanged) {
        to_parent.push_back(Range{lno, static_cast<uint32_t>(cur + st.offset), stop - cur});
      } else {
        kept.push_back(Range{lno, cur, stop - cur});
      }
      cur = stop;
    }
  }
  target->suspects = std::move(kept);
  Queue(parent, std::move(to_parent));
  return true;
}

bool Engine::SameAsFirstParent(Commit* c, uint32_t path) {
  const CommitGraph* graph = options_.graph.get();
  if (!graph || !graph->has_bloom() || c->graph_pos == UINT32_MAX) return false;
  if (keys_.size() <= path) keys_.resize(paths_.size());
  if (keys_[path].empty()) keys_[path] = graph->Key(paths_[path].text);
  return graph->ChangedVsFirstParent(c->graph_pos, keys_[path]) == CommitGraph::Changed::kNo;
}

void Engine::Pass(Origin* o) {
  Commit* c = o->commit;
  const size_t n = c->parents.size();
  if (n == 0) return;  // a root commit keeps what it holds
  std::vector<Origin*> found(n, nullptr);
  // First the parents that have the file at the same path, then renames for the others.
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < n; ++i) {
      if (found[i]) continue;
      Commit* p = c->parents[i];
      if (!ReadCommit(p)) {
        if (o->stop == BlameStop::kNone) o->stop = BlameStop::kMissing;
        continue;
      }
      Origin* po = nullptr;
      if (round == 0 && i == 0 && SameAsFirstParent(c, o->path)) {
        // The Bloom filter says the first parent has this path as it is here: the same file,
        // without reading either tree.
        for (Origin* existing : p->origins) {
          if (existing->path == o->path) po = existing;
        }
        if (!po) po = GetOrigin(p, o->path, o->blob);
      } else {
        po = round == 0 ? FindOrigin(p, o) : FindRename(p, o);
      }
      if (!po) continue;
      if (git_oid_equal(&po->blob, &o->blob)) {  // the parent had this very file: it takes all
        PassWhole(o, po);
        return;
      }
      bool repeated = false;  // an earlier parent has the same version: it is offered the lines
      for (size_t j = 0; j < i; ++j) {
        repeated = repeated || (found[j] && git_oid_equal(&found[j]->blob, &po->blob));
      }
      if (!repeated) found[i] = po;
    }
  }
  for (size_t i = 0; i < n && !o->suspects.empty(); ++i) {
    if (!found[i]) continue;
    const bool passed = PassToParent(o, found[i]);
    if (found[i]->suspects.empty()) found[i]->data.reset();
    if (!passed) return;
  }
}

Result<BlameResult> Engine::Run(const CommitId& start, std::string_view path) {
  git_odb* odb = nullptr;
  if (git_repository_odb(&odb, repo_.raw()) != 0) {
    return Error{"the repository's objects cannot be read: " + LastGitError()};
  }
  odb_.reset(odb);
  Commit* first = CommitFor(start.oid());
  if (!ReadCommit(first)) {
    return Error{"commit " + start.Short() + " cannot be read: " + LastGitError()};
  }
  const uint32_t path_id = Intern(path);
  const Entry e = EntryAt(first->tree, path_id);
  if (!e.found || !IsRegular(e.mode)) {
    return Error{"`" + EchoArgument(path) + "` is not a file at commit " + start.Short()};
  }
  Origin* origin = GetOrigin(first, path_id, e.oid);
  if (!Load(origin)) {
    return Error{origin->stop == BlameStop::kTooLarge
                     ? "`" + EchoArgument(path) + "` is over the size blame reads"
                     : "the contents of `" + EchoArgument(path) + "` are not in the local copy"};
  }
  BlameResult result;
  result.total_lines = CountLines(Bytes(origin->data));
  result.first_line = std::max<uint32_t>(options_.first_line, 1);
  uint32_t count = 0;
  if (result.first_line <= result.total_lines) {
    count = result.total_lines - result.first_line + 1;
    if (options_.max_lines > 0) count = std::min(count, options_.max_lines);
  }
  if (count == 0) return result;
  Queue(origin, {Range{result.first_line - 1, result.first_line - 1, count}});
  uint32_t settled = 0;  // lines whose commit is known

  while (!queue_.empty()) {
    if (stop_.stopped()) {
      stopped_ = true;
      break;
    }
    Commit* c = queue_.top().commit;
    queue_.pop();
    ReadCommit(c);
    const uint32_t settled_before = settled;
    for (size_t i = 0; i < c->origins.size(); ++i) {
      Origin* o = c->origins[i];
      if (o->suspects.empty()) continue;
      if (c->state == Commit::State::kRead) {
        Pass(o);
      } else if (o->stop == BlameStop::kNone) {
        o->stop = BlameStop::kMissing;
      }
      for (const Range& r : o->suspects) {
        guilty_.push_back(Guilty{o, r, o->stop});
        settled += r.n;
      }
      o->suspects.clear();
      o->data.reset();
    }
    if (options_.progress && settled != settled_before) options_.progress(settled, count);
  }
  if (stopped_) {
    for (Origin& o : origins_) {
      for (const Range& r : o.suspects) guilty_.push_back(Guilty{&o, r, BlameStop::kStopped});
      o.suspects.clear();
    }
  }

  // Every line of the window, with its commit and path numbered in order of first appearance.
  result.lines.resize(count);
  std::vector<const Guilty*> by_line(count, nullptr);
  for (const Guilty& g : guilty_) {
    for (uint32_t k = 0; k < g.range.n; ++k) {
      by_line[g.range.lno - (result.first_line - 1) + k] = &g;
    }
  }
  std::unordered_map<const Commit*, uint32_t> commit_index;
  std::unordered_map<uint32_t, uint32_t> path_index;
  for (uint32_t i = 0; i < count; ++i) {
    const Guilty* g = by_line[i];
    if (!g) return Error{"blame lost a line of `" + DisplayName(path) + "`"};  // never expected
    const Commit* c = g->origin->commit;
    auto [ci, new_commit] = commit_index.emplace(c, static_cast<uint32_t>(result.commits.size()));
    if (new_commit) {
      auto described = Describe(c->id);
      if (!described) return Error{described.error()};
      result.commits.push_back(described.take());
    }
    auto [pi, new_path] =
        path_index.emplace(g->origin->path, static_cast<uint32_t>(result.paths.size()));
    if (new_path) result.paths.push_back(paths_[g->origin->path].text);
    const uint32_t lno = result.first_line - 1 + i;  // from 0, in the start commit's version
    result.lines[i] =
        BlameLine{ci->second, pi->second, g->range.s_lno + (lno - g->range.lno) + 1, g->stop};
  }
  return result;
}

}  // namespace

Result<BlameResult> BlameFile(GitRepo& repo, const CommitId& start, std::string_view path,
                              const BlameOptions& options, const StopToken& stop) {
  return Engine(repo, options, stop).Run(start, path);
}

}  // namespace rr
