#include "core/git/history_index.h"

#include <Poco/SHA1Engine.h>
#include <dirent.h>
#include <fcntl.h>
#include <git2/sys/odb_backend.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <list>
#include <unordered_map>
#include <unordered_set>

#include "core/git/commit_graph_format.h"
#include "core/util/private_folder.h"

namespace rr {

using namespace graph_format;  // NOLINT: the format's constants and byte writers

namespace {

constexpr const char* kChainName = "commit-graph-chain";
constexpr const char* kLockName = "lock";
constexpr const char* kTempPrefix = "tmp-";

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
template <class V>
using OidMap = std::unordered_map<git_oid, V, OidHash, OidEq>;

std::string Hex(const git_oid& oid) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, &oid);
  return buf;
}

// One commit of a layer being written.
struct Row {
  git_oid id{};
  git_oid tree{};
  std::vector<git_oid> parents;
  uint64_t date = 0;  // committer time, the 34 bits git keeps
  uint32_t topo = 0;
  uint64_t gen = 0;  // corrected commit date
  std::string filter;
};

// ---- Files: every write is a temporary file renamed into place.

std::string SysError(const std::string& what, const std::string& path) {
  return what + " " + path + " (" + std::strerror(errno) + ")";
}

Status WriteFileAtomically(const std::string& folder, const std::string& name,
                           const std::string& bytes) {
  const std::string temp = folder + "/" + kTempPrefix + name;
  const std::string final_path = folder + "/" + name;
  unlink(temp.c_str());
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return Error{SysError("cannot write", temp)};
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const Error e{SysError("cannot write", temp)};
      close(fd);
      unlink(temp.c_str());
      return e;
    }
    done += static_cast<size_t>(w);
  }
  if (fsync(fd) != 0 || close(fd) != 0) {
    unlink(temp.c_str());
    return Error{SysError("cannot write", temp)};
  }
  if (rename(temp.c_str(), final_path.c_str()) != 0) {
    const Error e{SysError("cannot rename into place", final_path)};
    unlink(temp.c_str());
    return e;
  }
  return Status::Ok();
}

// Removes layers the chain no longer names, and temporary files an interrupted update left.
void RemoveUnused(const std::string& folder, const std::vector<std::string>& chain) {
  std::unordered_set<std::string> keep;
  for (const auto& c : chain) keep.insert("graph-" + c + ".graph");
  DIR* dir = opendir(folder.c_str());
  if (!dir) return;
  std::vector<std::string> remove;
  while (const dirent* e = readdir(dir)) {
    const std::string name = e->d_name;
    const bool layer = name.rfind("graph-", 0) == 0 && name.size() > 6 &&
                       name.compare(name.size() - 6, 6, ".graph") == 0;
    if ((layer && !keep.count(name)) || name.rfind(kTempPrefix, 0) == 0) remove.push_back(name);
  }
  closedir(dir);
  for (const auto& name : remove) unlink((folder + "/" + name).c_str());
}

// An exclusive lock on the folder for one update; released when this goes away.
class FolderLock {
 public:
  static Result<std::unique_ptr<FolderLock>> Take(const std::string& folder) {
    const std::string file = folder + "/" + kLockName;
    const int fd = open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return Error{SysError("cannot open the lock file", file)};
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      close(fd);
      return Error{"another process is updating the index in " + folder};
    }
    return std::unique_ptr<FolderLock>(new FolderLock(fd));
  }
  ~FolderLock() { close(fd_); }

 private:
  explicit FolderLock(int fd) : fd_(fd) {}
  int fd_;
};

// ---- Bloom filters, by git's rules.

// git's canonical mode of a tree entry (tree-walk.c reads modes so).
uint32_t CanonMode(uint32_t mode) {
  switch (mode & 0170000) {
    case 0100000:
      return (mode & 0100) ? 0100755 : 0100644;
    case 0120000:
      return 0120000;
    case 0040000:
      return 0040000;
    default:
      return 0160000;
  }
}

// git's order of tree entries: a folder's name compares as if it ended in '/'.
int CompareEntries(std::string_view a, bool a_dir, std::string_view b, bool b_dir) {
  const size_t len = std::min(a.size(), b.size());
  const int cmp = std::memcmp(a.data(), b.data(), len);
  if (cmp != 0) return cmp;
  const unsigned char ca = len < a.size() ? a[len] : (a_dir ? '/' : 0);
  const unsigned char cb = len < b.size() ? b[len] : (b_dir ? '/' : 0);
  return ca < cb ? -1 : (ca > cb ? 1 : 0);
}

// A tree as git stores it, parsed: entries point into `raw`.
struct ParsedTree {
  struct Entry {
    std::string_view name;
    uint32_t mode;  // canonical (CanonMode)
    const unsigned char* id;
  };
  std::string raw;
  std::vector<Entry> entries;
};

// Reads trees straight from the repository's object stores, bypassing libgit2's object cache
// (whose eviction, once full, rescans its whole table on every insert: most of the time of a
// build went there), and keeps the trees it read last in a small cache of its own: a commit's
// trees are mostly its parent's, read just before.
class TreeReader {
 public:
  static constexpr size_t kCacheBytes = 32 * 1024 * 1024;

  explicit TreeReader(git_repository* repo) {
    if (git_repository_odb(&odb_, repo) != 0) odb_ = nullptr;
  }
  ~TreeReader() { git_odb_free(odb_); }
  TreeReader(const TreeReader&) = delete;
  TreeReader& operator=(const TreeReader&) = delete;

  // The tree, or null when it cannot be read or parsed.
  std::shared_ptr<const ParsedTree> Read(const git_oid& id) {
    auto hit = index_.find(id);
    if (hit != index_.end()) {
      lru_.splice(lru_.begin(), lru_, hit->second);
      return hit->second->second;
    }
    auto tree = std::make_shared<ParsedTree>();
    if (!ReadRaw(id, &tree->raw) || !Parse(tree.get())) return nullptr;
    bytes_ += tree->raw.size();
    lru_.emplace_front(id, tree);
    index_[id] = lru_.begin();
    while (bytes_ > kCacheBytes && lru_.size() > 1) {
      bytes_ -= lru_.back().second->raw.size();
      index_.erase(lru_.back().first);
      lru_.pop_back();
    }
    return tree;
  }

 private:
  bool ReadRaw(const git_oid& id, std::string* out) {
    for (size_t i = 0; odb_ && i < git_odb_num_backends(odb_); ++i) {
      git_odb_backend* b = nullptr;
      if (git_odb_get_backend(&b, odb_, i) != 0 || !b->read) continue;
      void* data = nullptr;
      size_t len = 0;
      git_object_t type = GIT_OBJECT_INVALID;
      if (b->read(&data, &len, &type, b, &id) != 0) continue;
      const bool tree = type == GIT_OBJECT_TREE;
      if (tree) out->assign(static_cast<const char*>(data), len);
      git_odb_backend_data_free(b, data);
      return tree;
    }
    // Not in a store as they were when opened (a pack added since): through libgit2.
    git_odb_object* obj = nullptr;
    if (!odb_ || git_odb_read(&obj, odb_, &id) != 0) return false;
    const bool tree = git_odb_object_type(obj) == GIT_OBJECT_TREE;
    if (tree)
      out->assign(static_cast<const char*>(git_odb_object_data(obj)), git_odb_object_size(obj));
    git_odb_object_free(obj);
    return tree;
  }

  // "<octal mode> <name>\0<20-byte id>" repeated; anything else is unreadable.
  static bool Parse(ParsedTree* t) {
    const std::string_view raw = t->raw;
    size_t at = 0;
    while (at < raw.size()) {
      uint32_t mode = 0;
      size_t digits = 0;
      while (at < raw.size() && raw[at] != ' ') {
        if (raw[at] < '0' || raw[at] > '7' || ++digits > 7) return false;
        mode = mode * 8 + static_cast<uint32_t>(raw[at] - '0');
        ++at;
      }
      if (digits == 0 || at >= raw.size()) return false;
      const size_t nul = raw.find('\0', ++at);
      if (nul == std::string_view::npos || nul == at || raw.size() - nul - 1 < GIT_OID_RAWSZ) {
        return false;
      }
      t->entries.push_back({raw.substr(at, nul - at), CanonMode(mode),
                            reinterpret_cast<const unsigned char*>(raw.data()) + nul + 1});
      at = nul + 1 + GIT_OID_RAWSZ;
    }
    return true;
  }

  git_odb* odb_ = nullptr;
  using Lru = std::list<std::pair<git_oid, std::shared_ptr<const ParsedTree>>>;
  Lru lru_;
  OidMap<Lru::iterator> index_;
  size_t bytes_ = 0;
};

class FilterMaker {
 public:
  FilterMaker(git_repository* repo, const HistoryIndexOptions& o) : trees_(repo), o_(o) {}

  // The filter of `tree` against `parent_tree` (none: a root commit, against the empty tree).
  std::string Make(const git_oid* parent_tree, const git_oid& tree) {
    changed_.clear();
    if (!Diff(parent_tree, &tree)) return std::string(1, '\xff');
    paths_.clear();
    for (const auto& path : changed_) {
      std::string_view p = path;
      while (true) {
        if (!paths_.insert(std::string(p)).second) break;  // its folders are in already
        const size_t slash = p.rfind('/');
        if (slash == std::string_view::npos) break;
        p = p.substr(0, slash);
      }
    }
    if (paths_.size() > o_.max_changed_paths) return std::string(1, '\xff');
    size_t len = (paths_.size() * o_.bloom.bits_per_entry + 7) / 8;
    if (len == 0) len = 1;
    std::string filter(len, '\0');
    const uint64_t bits = uint64_t{len} * 8;
    for (const auto& path : paths_) {
      uint32_t h0, h1;
      CommitGraph::BloomHashes(o_.bloom.hash_version, path, &h0, &h1);
      for (uint32_t i = 0; i < o_.bloom.num_hashes; ++i) {
        const uint64_t bit = static_cast<uint32_t>(h0 + i * h1) % bits;
        filter[bit / 8] =
            static_cast<char>(static_cast<uint8_t>(filter[bit / 8]) | (1u << (bit % 8)));
      }
    }
    return filter;
  }

 private:
  using Entry = ParsedTree::Entry;
  struct Pair {
    bool has_a = false, has_b = false;
    git_oid a{}, b{};
    std::string prefix;  // "" or "folder/"
  };

  static git_oid IdOf(const Entry& e) {
    git_oid id;
    git_oid_fromraw(&id, e.id);
    return id;
  }

  // Collects the paths of files that differ into changed_, as git's recursive diff-tree lists
  // them (no renames). False when there are more than max_changed_paths, or the work is over
  // its bound, or a tree cannot be read: the filter then says nothing.
  bool Diff(const git_oid* a, const git_oid* b) {
    uint64_t entries = 0;
    std::vector<Pair> stack;
    stack.push_back(Pair{a != nullptr, true, a ? *a : git_oid{}, *b, ""});
    while (!stack.empty()) {
      Pair w = std::move(stack.back());
      stack.pop_back();
      std::shared_ptr<const ParsedTree> ta, tb;
      if ((w.has_a && !(ta = trees_.Read(w.a))) || (w.has_b && !(tb = trees_.Read(w.b)))) {
        return false;
      }
      const size_t na = ta ? ta->entries.size() : 0;
      const size_t nb = tb ? tb->entries.size() : 0;
      size_t i = 0, j = 0;
      while (i < na || j < nb) {
        if (++entries > o_.max_entries_per_commit) return false;
        const Entry* ea = i < na ? &ta->entries[i] : nullptr;
        const Entry* eb = j < nb ? &tb->entries[j] : nullptr;
        const int cmp =
            !ea   ? 1
            : !eb ? -1
                  : CompareEntries(ea->name, ea->mode == 0040000, eb->name, eb->mode == 0040000);
        if (cmp < 0) {
          if (!OneSide(*ea, w.prefix, true, &stack)) return false;
          ++i;
        } else if (cmp > 0) {
          if (!OneSide(*eb, w.prefix, false, &stack)) return false;
          ++j;
        } else {
          const bool same = std::memcmp(ea->id, eb->id, GIT_OID_RAWSZ) == 0;
          if (ea->mode == 0040000) {
            if (!same) {
              stack.push_back(
                  Pair{true, true, IdOf(*ea), IdOf(*eb), w.prefix + std::string(ea->name) + "/"});
            }
          } else if (!same || ea->mode != eb->mode) {
            if (!Changed(w.prefix + std::string(ea->name))) return false;
          }
          ++i;
          ++j;
        }
      }
    }
    return true;
  }

  // An entry on one side only: a file is one change, a folder every file below it.
  bool OneSide(const Entry& e, const std::string& prefix, bool is_a, std::vector<Pair>* stack) {
    std::string path = prefix + std::string(e.name);
    if (e.mode != 0040000) return Changed(std::move(path));
    Pair p;
    p.prefix = path + "/";
    (is_a ? p.has_a : p.has_b) = true;
    (is_a ? p.a : p.b) = IdOf(e);
    stack->push_back(std::move(p));
    return true;
  }

  bool Changed(std::string path) {
    changed_.push_back(std::move(path));
    return changed_.size() <= o_.max_changed_paths;
  }

  TreeReader trees_;
  const HistoryIndexOptions& o_;
  std::vector<std::string> changed_;
  std::unordered_set<std::string> paths_;
};

// ---- Layers.

// The bytes of a layer holding `rows` (sorted by id) on top of `bases` (checksums, base first;
// their commits take positions 0 .. base_commits-1 in `below`).
Result<std::string> LayerBytes(const std::vector<Row>& rows, const std::vector<git_oid>& bases,
                               uint32_t base_commits, const CommitGraph* below,
                               const HistoryIndexOptions& o) {
  OidMap<uint32_t> here;
  here.reserve(rows.size());
  for (uint32_t i = 0; i < rows.size(); ++i) here.emplace(rows[i].id, base_commits + i);
  auto position = [&](const git_oid& id, uint32_t* pos) {
    auto it = here.find(id);
    if (it != here.end()) {
      *pos = it->second;
      return true;
    }
    return below && below->Find(id, pos) && *pos < base_commits;
  };

  std::string fanout, oids, cdat, gda, gdo, edges, bidx, bdat;
  uint32_t count = 0;
  size_t r = 0;
  for (int b = 0; b < 256; ++b) {
    while (r < rows.size() && rows[r].id.id[0] == b) ++r, ++count;
    PutBe32(&fanout, count);
  }
  uint32_t overflows = 0;
  uint32_t edge_count = 0;
  uint32_t filters_end = 0;
  PutBe32(&bdat, o.bloom.hash_version);
  PutBe32(&bdat, o.bloom.num_hashes);
  PutBe32(&bdat, o.bloom.bits_per_entry);
  for (const Row& row : rows) {
    oids.append(reinterpret_cast<const char*>(row.id.id), GIT_OID_RAWSZ);
    cdat.append(reinterpret_cast<const char*>(row.tree.id), GIT_OID_RAWSZ);
    std::vector<uint32_t> parents(row.parents.size());
    for (size_t i = 0; i < row.parents.size(); ++i) {
      if (!position(row.parents[i], &parents[i])) {
        return Error{"commit " + Hex(row.id) + ": its parent " + Hex(row.parents[i]) +
                     " is not indexed"};
      }
    }
    PutBe32(&cdat, parents.empty() ? kParentNone : parents[0]);
    if (parents.size() < 2) {
      PutBe32(&cdat, kParentNone);
    } else if (parents.size() == 2) {
      PutBe32(&cdat, parents[1]);
    } else {
      PutBe32(&cdat, kExtraEdgesNeeded | edge_count);
      for (size_t i = 1; i < parents.size(); ++i) {
        PutBe32(&edges, parents[i] | (i + 1 == parents.size() ? kLastEdge : 0));
        ++edge_count;
      }
    }
    PutBe32(&cdat, (row.topo << 2) | static_cast<uint32_t>((row.date >> 32) & 0x3));
    PutBe32(&cdat, static_cast<uint32_t>(row.date));
    const uint64_t offset = row.gen - row.date;
    if (offset > kGenerationOffsetMax) {
      PutBe32(&gda, kGenerationOverflow | overflows++);
      PutBe64(&gdo, offset);
    } else {
      PutBe32(&gda, static_cast<uint32_t>(offset));
    }
    filters_end += static_cast<uint32_t>(row.filter.size());
    PutBe32(&bidx, filters_end);
    bdat += row.filter;
  }
  std::string base_ids;
  for (const auto& b : bases) base_ids.append(reinterpret_cast<const char*>(b.id), GIT_OID_RAWSZ);

  std::vector<std::pair<uint32_t, const std::string*>> chunks = {{kChunkOidFanout, &fanout},
                                                                 {kChunkOidLookup, &oids},
                                                                 {kChunkCommitData, &cdat},
                                                                 {kChunkGenerationData, &gda}};
  if (overflows) chunks.emplace_back(kChunkGenerationOverflow, &gdo);
  if (edge_count) chunks.emplace_back(kChunkExtraEdges, &edges);
  chunks.emplace_back(kChunkBloomIndexes, &bidx);
  chunks.emplace_back(kChunkBloomData, &bdat);
  if (!bases.empty()) chunks.emplace_back(kChunkBase, &base_ids);

  std::string out;
  PutBe32(&out, kSignature);
  out.push_back(static_cast<char>(kVersion));
  out.push_back(static_cast<char>(kHashVersionSha1));
  out.push_back(static_cast<char>(chunks.size()));
  out.push_back(static_cast<char>(bases.size()));
  uint64_t offset = kHeaderSize + (chunks.size() + 1) * kTocEntrySize;
  for (const auto& [id, bytes] : chunks) {
    PutBe32(&out, id);
    PutBe64(&out, offset);
    offset += bytes->size();
  }
  PutBe32(&out, 0);
  PutBe64(&out, offset);
  for (const auto& chunk : chunks) out += *chunk.second;
  Poco::SHA1Engine sha1;
  sha1.update(out.data(), static_cast<unsigned>(out.size()));
  const auto& digest = sha1.digest();
  out.append(reinterpret_cast<const char*>(digest.data()), digest.size());
  return out;
}

// Whether an index can be extended by this writer, or must be rebuilt (and why).
std::string WhyRebuild(const CommitGraph& g, const HistoryIndexOptions& o) {
  if (!g.corrected_dates()) return "a layer has no corrected commit dates";
  for (const auto& l : g.layers()) {
    if (!l.bloom) return "a layer has no Bloom filters";
    if (l.bloom_settings != o.bloom) return "its Bloom filters were written with other settings";
  }
  if (g.layers().size() > 200) return "it has too many layers";
  return "";
}

// Every commit a ref or HEAD names (tags peeled).
std::vector<git_oid> Tips(git_repository* repo) {
  std::vector<git_oid> tips;
  auto add = [&](git_reference* ref) {
    git_object* obj = nullptr;
    if (git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT) == 0) {
      tips.push_back(*git_object_id(obj));
      git_object_free(obj);
    }
    git_reference_free(ref);
  };
  git_reference_iterator* it = nullptr;
  if (git_reference_iterator_new(&it, repo) == 0) {
    git_reference* ref = nullptr;
    while (git_reference_next(&ref, it) == 0) add(ref);
    git_reference_iterator_free(it);
  }
  git_reference* head = nullptr;
  if (git_reference_lookup(&head, repo, "HEAD") == 0) add(head);
  return tips;
}

}  // namespace

std::string HistoryIndex::ChainFile(const std::string& folder) { return folder + "/" + kChainName; }

std::shared_ptr<const CommitGraph> HistoryIndex::Open(const std::string& folder,
                                                      std::string* problem) {
  return CommitGraph::OpenFile(ChainFile(folder), problem);
}

Result<HistoryIndexUpdate> HistoryIndex::Update(GitRepo& git, const std::string& folder,
                                                const StopToken& stop, const ProgressFn& progress,
                                                const HistoryIndexOptions& o) {
  auto report = [&](HistoryIndexProgress::Stage stage, uint64_t done, uint64_t total) {
    if (progress) progress(HistoryIndexProgress{stage, done, total});
  };
  const std::string stopped = "the index update was stopped; what was written is kept";
  git_repository* repo = git.raw();
  HistoryIndexUpdate result;

  if (auto made = MakePrivateFolder(folder, "the history index folder"); !made)
    return Error{made.error()};
  auto lock = FolderLock::Take(folder);
  if (!lock) return Error{lock.error()};

  std::shared_ptr<const CommitGraph> g;
  struct stat st;
  if (stat(ChainFile(folder).c_str(), &st) == 0) {
    std::string problem;
    g = Open(folder, &problem);
    if (!g) {
      result.rebuilt_because = "it could not be read: " + problem;
    } else if (std::string why = WhyRebuild(*g, o); !why.empty()) {
      result.rebuilt_because = why;
      g.reset();
    }
  }
  RemoveUnused(folder, [&] {
    std::vector<std::string> chain;
    if (g) {
      for (const auto& l : g->layers()) chain.push_back(l.checksum);
    }
    return chain;
  }());

  // The commits no layer holds: walked from every tip down to what is indexed.
  std::vector<Row> rows;
  OidMap<uint32_t> index_of;
  struct Todo {
    git_oid id;
    int64_t child;  // -1: a tip
  };
  std::vector<Todo> todo;
  for (const auto& t : Tips(repo)) todo.push_back({t, -1});
  while (!todo.empty()) {
    if (stop.stopped()) return Error{stopped};
    const Todo t = todo.back();
    todo.pop_back();
    uint32_t pos;
    if (index_of.count(t.id) || (g && g->Find(t.id, &pos))) continue;
    git_commit* c = nullptr;
    if (git_commit_lookup(&c, repo, &t.id) != 0) {
      if (t.child < 0) continue;  // a ref to a missing commit: passed over, as listings do
      return Error{"the history is incomplete: commit " + Hex(t.id) + ", a parent of " +
                   Hex(rows[t.child].id) + ", is missing (a shallow clone?); " + LastGitError()};
    }
    Row row;
    row.id = t.id;
    row.tree = *git_commit_tree_id(c);
    const git_time_t time = git_commit_time(c);
    row.date = time > 0 ? static_cast<uint64_t>(time) & kDateMask : 0;
    const unsigned n = git_commit_parentcount(c);
    for (unsigned i = 0; i < n; ++i) row.parents.push_back(*git_commit_parent_id(c, i));
    git_commit_free(c);
    const auto index = static_cast<uint32_t>(rows.size());
    index_of.emplace(row.id, index);
    for (auto it = row.parents.rbegin(); it != row.parents.rend(); ++it) {
      todo.push_back({*it, index});
    }
    rows.push_back(std::move(row));
    if (rows.size() % 1000 == 0)
      report(HistoryIndexProgress::Stage::kFindingCommits, rows.size(), 0);
  }
  result.layers = g ? static_cast<uint32_t>(g->layers().size()) : 0;
  result.commits = g ? g->size() : 0;
  if (rows.empty()) {
    if (!result.rebuilt_because.empty()) unlink(ChainFile(folder).c_str());
    return result;
  }

  // Parents first, and generation numbers on the way.
  std::vector<uint32_t> order;
  order.reserve(rows.size());
  {
    std::vector<uint8_t> state(rows.size(), 0);  // 0 new, 1 on the stack, 2 done
    std::vector<std::pair<uint32_t, size_t>> stack;
    for (uint32_t start = 0; start < rows.size(); ++start) {
      if (state[start]) continue;
      stack.emplace_back(start, 0);
      state[start] = 1;
      while (!stack.empty()) {
        const uint32_t r = stack.back().first;
        const size_t k = stack.back().second;
        if (k < rows[r].parents.size()) {
          ++stack.back().second;
          auto it = index_of.find(rows[r].parents[k]);
          if (it == index_of.end()) continue;
          if (state[it->second] == 1) return Error{"the history has a cycle"};
          if (state[it->second] == 0) {
            state[it->second] = 1;
            stack.emplace_back(it->second, 0);
          }
          continue;
        }
        uint32_t topo = 0;
        uint64_t gen = 0;
        for (const auto& p : rows[r].parents) {
          auto it = index_of.find(p);
          uint32_t pos;
          if (it != index_of.end()) {
            topo = std::max(topo, rows[it->second].topo);
            gen = std::max(gen, rows[it->second].gen);
          } else if (g && g->Find(p, &pos)) {
            topo = std::max(topo, g->TopoLevel(pos));
            gen = std::max(gen, g->Generation(pos));
          }
        }
        rows[r].topo = std::min(topo + 1, kTopoLevelMax);
        rows[r].gen = (rows[r].date && rows[r].date > gen) ? rows[r].date : gen + 1;
        state[r] = 2;
        order.push_back(r);
        stack.pop_back();
      }
    }
  }

  FilterMaker filters(repo, o);
  size_t next = 0;
  uint64_t computed = 0;
  while (next < order.size()) {
    // A batch: at least batch_commits, and as many as are indexed already, so a long first
    // build writes few layers and merges little.
    const size_t batch = std::max<size_t>({o.batch_commits, g ? g->size() : 0, 1});
    const size_t end = std::min(order.size(), next + batch);
    for (size_t i = next; i < end; ++i) {
      if (stop.stopped()) return Error{stopped};
      Row& row = rows[order[i]];
      const git_oid* parent_tree = nullptr;
      git_oid tree;
      if (!row.parents.empty()) {
        auto it = index_of.find(row.parents[0]);
        uint32_t pos;
        if (it != index_of.end()) {
          parent_tree = &rows[it->second].tree;
        } else if (g && g->Find(row.parents[0], &pos)) {
          tree = g->Tree(pos);
          parent_tree = &tree;
        }
      }
      row.filter = filters.Make(parent_tree, row.tree);
      if (++computed % 200 == 0 || i + 1 == end) {
        report(HistoryIndexProgress::Stage::kComputing, computed, order.size());
      }
    }

    // git's --split rule: layers on top holding at most size_multiple times the new commits are
    // merged into the new layer.
    const std::vector<CommitGraph::LayerInfo> before =
        g ? g->layers() : std::vector<CommitGraph::LayerInfo>{};
    size_t keep = before.size();
    uint64_t count = end - next;
    while (keep > 0 && before[keep - 1].commits <= uint64_t{o.size_multiple} * count) {
      count += before[keep - 1].commits;
      --keep;
    }
    uint32_t base_commits = 0;
    std::vector<git_oid> bases;
    for (size_t i = 0; i < keep; ++i) {
      base_commits += before[i].commits;
      git_oid id;
      git_oid_fromstr(&id, before[i].checksum.c_str());
      bases.push_back(id);
    }
    std::vector<Row> layer;
    layer.reserve(count);
    for (size_t i = next; i < end; ++i) layer.push_back(rows[order[i]]);
    for (uint32_t pos = base_commits; g && pos < g->size(); ++pos) {
      if (stop.stopped()) return Error{stopped};
      Row row;
      row.id = g->Id(pos);
      row.tree = g->Tree(pos);
      std::vector<uint32_t> parents;
      g->Parents(pos, &parents);
      for (uint32_t p : parents) row.parents.push_back(g->Id(p));
      row.date = static_cast<uint64_t>(g->CommitTime(pos));
      row.topo = g->TopoLevel(pos);
      row.gen = g->Generation(pos);
      std::string_view filter;
      if (g->BloomFilter(pos, &filter)) row.filter.assign(filter);
      layer.push_back(std::move(row));
    }
    std::sort(layer.begin(), layer.end(),
              [](const Row& a, const Row& b) { return git_oid_cmp(&a.id, &b.id) < 0; });
    layer.erase(std::unique(layer.begin(), layer.end(),
                            [](const Row& a, const Row& b) { return git_oid_equal(&a.id, &b.id); }),
                layer.end());

    auto bytes = LayerBytes(layer, bases, base_commits, g.get(), o);
    if (!bytes) return Error{bytes.error()};
    const std::string checksum = Hex([&] {
      git_oid id;
      git_oid_fromraw(&id, reinterpret_cast<const unsigned char*>(bytes->data()) + bytes->size() -
                               GIT_OID_RAWSZ);
      return id;
    }());
    if (stop.stopped()) return Error{stopped};
    if (auto w = WriteFileAtomically(folder, "graph-" + checksum + ".graph", *bytes); !w) {
      return Error{w.error()};
    }
    std::vector<std::string> chain;
    std::string chain_text;
    for (size_t i = 0; i < keep; ++i) chain.push_back(before[i].checksum);
    chain.push_back(checksum);
    for (const auto& c : chain) chain_text += c + "\n";
    if (auto w = WriteFileAtomically(folder, kChainName, chain_text); !w) return Error{w.error()};
    RemoveUnused(folder, chain);
    ++result.layers_written;
    result.new_commits += end - next;
    next = end;
    report(HistoryIndexProgress::Stage::kWriting, next, order.size());

    std::string problem;
    g = Open(folder, &problem);
    if (!g) return Error{"the index just written cannot be read back: " + problem};
  }
  result.layers = static_cast<uint32_t>(g->layers().size());
  result.commits = g->size();
  return result;
}

}  // namespace rr
