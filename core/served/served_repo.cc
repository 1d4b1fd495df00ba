#include "core/served/served_repo.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "core/served/known_default.h"
#include "core/util/striped_mutex.h"
#include "core/util/text.h"

namespace rr {

ServedRepo::ServedRepo(RepoSettings s) : settings_(std::move(s)) {}
namespace {

// How many tree entries one visibility check may look at before it gives up (a tree whose
// folders share subtrees can name far more paths than it has objects).
constexpr size_t kVisibilityBudget = 200000;

std::string Quote(const RepoPath& p) { return "`" + p.Display() + "`"; }

}  // namespace

std::string ReadPoint::Where(const std::string& repo) const {
  return repo + " · " + EchoArgument(label) + " @ " + commit.id.Short() + " (" +
         ShortDate(commit.time, commit.offset) + ")";
}

std::string BlobIdOf(const Node& file) {
  if (git_oid_is_zero(&file.oid)) return std::string();
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, &file.oid);
  return hex;
}

std::string_view FileData::bytes() const {
  if (!blob) return packed;
  return std::string_view(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                          static_cast<size_t>(git_blob_rawsize(blob.get())));
}

namespace {

std::string NotMirroredYet(const ServedRepo& repo) {
  return "repository `" + repo.name() + "` is not mirrored yet: its first sync from " +
         repo.settings().mirror->Get().url +
         " has not finished; call again later (list_repos says when it has synced)";
}

}  // namespace

Result<RepoReader> ServedRepo::Open() const {
  if (settings_.mirror && !settings_.mirror->Mirrored()) return Error{NotMirroredYet(*this)};
  auto lease = handles_.Borrow(settings_.path);
  if (!lease) {
    return Error{HideStorage("repository `" + name() + "` cannot be opened: " + lease.error())};
  }
  return RepoReader(this, lease.take());
}

Result<RepoReader> ServedRepo::OpenOnce() const {
  if (settings_.mirror && !settings_.mirror->Mirrored()) return Error{NotMirroredYet(*this)};
  auto git = GitRepo::Open(settings_.path);
  if (!git) {
    return Error{HideStorage("repository `" + name() + "` cannot be opened: " + git.error())};
  }
  return RepoReader(this, RepoHandles::Lease(nullptr, git.take()));
}

std::string ServedRepo::HideStorage(std::string text) const {
  if (!settings_.mirror || settings_.path.empty()) return text;
  // The folder as configured, and as libgit2 writes it back (a trailing '/').
  std::string folder = settings_.path;
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  const std::string instead = "its local copy";
  for (size_t at = text.find(folder); at != std::string::npos;
       at = text.find(folder, at + instead.size())) {
    size_t end = at + folder.size();
    if (end < text.size() && text[end] == '/') ++end;  // git_dir "…/x.git/"
    // Quoted (`…` or '…'): the quotes go with it.
    if (at > 0 && end < text.size() && (text[at - 1] == '`' || text[at - 1] == '\'') &&
        text[end] == text[at - 1]) {
      --at;
      ++end;
    }
    text.replace(at, end - at, instead);
  }
  return text;
}

std::string ServedRepo::IndexedStampFile(const std::string& index_folder) {
  return index_folder + "/refs-stamp";
}

// The file: "repo-reader refs-stamp 1" then one "key value" a line: git_dir, common_dir, refs,
// chain (digests in hex), commits, layers.
std::optional<ServedRepo::KeptStamp> ServedRepo::ReadIndexedStamp(const std::string& file) {
  const int fd = open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char buf[16384];
  const ssize_t n = read(fd, buf, sizeof buf);
  close(fd);
  if (n <= 0 || static_cast<size_t>(n) == sizeof buf) return std::nullopt;
  std::istringstream in(std::string(buf, static_cast<size_t>(n)));
  std::string line;
  if (!std::getline(in, line) || line != "repo-reader refs-stamp 1") return std::nullopt;
  std::map<std::string, std::string> kv;
  while (std::getline(in, line)) {
    const size_t space = line.find(' ');
    if (space == std::string::npos) {
      kv[line] = "";
    } else {
      kv[line.substr(0, space)] = line.substr(space + 1);
    }
  }
  try {
    KeptStamp k;
    k.place = RefsPlace::Of(kv.at("git_dir"), kv.at("common_dir"));
    k.indexed.refs = RefsStamp::Trusted(std::stoull(kv.at("refs"), nullptr, 16));
    k.indexed.chain = std::stoull(kv.at("chain"), nullptr, 16);
    k.indexed.commits = static_cast<uint32_t>(std::stoul(kv.at("commits")));
    k.indexed.layers = static_cast<uint32_t>(std::stoul(kv.at("layers")));
    if (k.place.empty()) return std::nullopt;
    return k;
  } catch (...) {
    return std::nullopt;
  }
}

void ServedRepo::WriteIndexedStamp(const std::string& file, const RefsPlace& place,
                                   const Indexed& indexed) {
  for (const std::string* p : {&place.git_dir, &place.common_dir}) {
    if (p->find('\n') != std::string::npos) return;  // not one a line: not kept
  }
  char hex[2][17];
  std::snprintf(hex[0], sizeof hex[0], "%016llx",
                static_cast<unsigned long long>(indexed.refs.digest()));
  std::snprintf(hex[1], sizeof hex[1], "%016llx", static_cast<unsigned long long>(indexed.chain));
  const std::string text = "repo-reader refs-stamp 1\ngit_dir " + place.git_dir + "\ncommon_dir " +
                           place.common_dir + "\nrefs " + hex[0] + "\nchain " + hex[1] +
                           "\ncommits " + std::to_string(indexed.commits) + "\nlayers " +
                           std::to_string(indexed.layers) + "\n";
  // Written aside and renamed into place: a reader sees the old file or the new one.
  const std::string temp = file + ".new";
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return;
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  if (!written || rename(temp.c_str(), file.c_str()) != 0) unlink(temp.c_str());
}

ServedRepo::GraphState& ServedRepo::GraphsLocked() const {
  if (!graphs_) graphs_ = std::make_unique<GraphState>();
  return *graphs_;
}

void ServedRepo::KeepPlaceLocked(const RefsPlace& place) const {
  using Kind = PlaceKind;
  GraphState& kept = GraphsLocked();
  kept.other_place.reset();
  if (place.empty()) {
    kept.place_kind = Kind::kNone;
  } else if (place.common_dir.empty() && place.git_dir == settings_.path) {
    kept.place_kind = Kind::kPath;
  } else if (place.common_dir.empty() && place.git_dir == settings_.path + "/.git") {
    kept.place_kind = Kind::kPathGit;
  } else {
    kept.place_kind = Kind::kOther;
    kept.other_place = std::make_unique<RefsPlace>(place);
  }
}

RefsPlace ServedRepo::PlaceLocked() const {
  using Kind = PlaceKind;
  const GraphState& kept = GraphsLocked();
  if (kept.place_kind == Kind::kUnknown) {
    // On a handle opened for this alone: the history indexer asks every repository, and the
    // idle handles are for the repositories agents read.
    auto git = GitRepo::Open(settings_.path);
    KeepPlaceLocked(git ? RefsPlace::Of(git.value()->GitDir(), git.value()->CommonDir())
                        : RefsPlace{});
  }
  switch (kept.place_kind) {
    case Kind::kPath:
      return {settings_.path, ""};
    case Kind::kPathGit:
      return {settings_.path + "/.git", ""};
    case Kind::kOther:
      return *kept.other_place;
    default:
      return {};
  }
}

std::string ServedRepo::ObjectsDirLocked() const {
  const RefsPlace place = PlaceLocked();
  if (place.empty()) return "";
  return (place.common_dir.empty() ? place.git_dir : place.common_dir) + "/objects";
}

std::shared_ptr<const CommitGraph> ServedRepo::OwnGraphLocked() const {
  const std::string objects = ObjectsDirLocked();
  if (objects.empty()) return nullptr;
  const uint64_t files = FilesDigest(
      {objects + "/info/commit-graph", objects + "/info/commit-graphs/commit-graph-chain"});
  GraphState& g = GraphsLocked();
  if (!g.own_opened || files != g.own_files) {
    g.own_graph = CommitGraph::Open(objects);
    g.own_files = files;
    g.own_opened = true;
    g.own_bloom_known = true;  // of the same files
    g.own_bloom_has = g.own_graph && g.own_graph->has_bloom();
  }
  return g.own_graph;
}

std::shared_ptr<const CommitGraph> ServedRepo::IndexLocked() const {
  if (settings_.index_folder.empty()) return nullptr;
  const uint64_t files = FilesDigest({HistoryIndex::ChainFile(settings_.index_folder)});
  GraphState& g = GraphsLocked();
  if (!g.index_opened || files != g.index_files) {
    g.index_graph = HistoryIndex::Open(settings_.index_folder);
    g.index_files = files;
    g.index_opened = true;
  }
  return g.index_graph;
}

std::mutex& ServedRepo::GraphMutex() const {
  static StripedMutexes<64> locks;
  return locks.For(this);
}

std::shared_ptr<const CommitGraph> ServedRepo::Graph() const {
  std::lock_guard<std::mutex> lock(GraphMutex());
  auto own = OwnGraphLocked();
  if (own && own->has_bloom()) return own;
  if (auto index = IndexLocked()) return index;
  return own;
}

bool ServedRepo::NeedsHistoryIndex() const {
  if (settings_.index_folder.empty()) return false;
  if (settings_.mirror && !settings_.mirror->Mirrored()) return false;  // nothing to index yet
  std::lock_guard<std::mutex> lock(GraphMutex());
  const std::string objects = ObjectsDirLocked();
  if (objects.empty()) return true;
  const uint64_t files = FilesDigest(
      {objects + "/info/commit-graph", objects + "/info/commit-graphs/commit-graph-chain"});
  // The graph a tool opened, if its files are unchanged; else only the answer is kept, not the
  // graph: asked of 20,000 repositories, holding their graphs would hold them all in memory.
  GraphState& g = GraphsLocked();
  if (!g.own_bloom_known || files != g.own_files) {
    auto graph = CommitGraph::Open(objects);
    // The files changed under a graph a tool opened: it is opened again when next asked for.
    g.own_graph = nullptr;
    g.own_opened = false;
    g.own_bloom_known = true;
    g.own_files = files;
    g.own_bloom_has = graph && graph->has_bloom();
  }
  return !g.own_bloom_has;
}

Result<HistoryIndexUpdate> ServedRepo::UpdateHistoryIndex(
    const StopToken& stop, const HistoryIndex::ProgressFn& progress) const {
  if (settings_.index_folder.empty()) {
    return Error{"no history index is kept of repository `" + name() + "`"};
  }
  const std::string chain = HistoryIndex::ChainFile(settings_.index_folder);
  RefsPlace place;
  {
    std::lock_guard<std::mutex> lock(GraphMutex());
    GraphState& g = GraphsLocked();
    // After a restart, what the last update of an earlier run kept beside the index.
    if (!g.has_indexed) {
      if (auto kept = ReadIndexedStamp(IndexedStampFile(settings_.index_folder))) {
        g.indexed = kept->indexed;
        g.has_indexed = true;
        if (g.place_kind == PlaceKind::kUnknown) KeepPlaceLocked(kept->place);
      }
    }
    const Indexed& last = g.indexed;
    const bool located = g.place_kind != PlaceKind::kUnknown;
    if (g.has_indexed && located && last.refs.Unchanged(RefsStamp::Take(PlaceLocked())) &&
        last.chain == FilesDigest({chain})) {
      HistoryIndexUpdate same;
      same.commits = last.commits;
      same.layers = last.layers;
      return same;
    }
  }
  // A handle of its own: what the update reads does not crowd the pool's caches.
  auto git = GitRepo::Open(settings_.path);
  if (!git) return Error{"repository `" + name() + "` cannot be opened: " + git.error()};
  place = RefsPlace::Of((*git)->GitDir(), (*git)->CommonDir());
  const RefsStamp refs = RefsStamp::Take(place);  // before the refs are read
  auto u = HistoryIndex::Update(**git, settings_.index_folder, stop, progress);
  if (u && !stop.stopped()) {
    const Indexed done{refs, FilesDigest({chain}), static_cast<uint32_t>(u->commits),
                       static_cast<uint32_t>(u->layers)};
    // Kept beside the index for the next start, when it can be trusted (not racy).
    if (!refs.racy()) WriteIndexedStamp(IndexedStampFile(settings_.index_folder), place, done);
    std::lock_guard<std::mutex> lock(GraphMutex());
    GraphState& g = GraphsLocked();
    if (g.place_kind == PlaceKind::kUnknown || g.place_kind == PlaceKind::kNone) {
      KeepPlaceLocked(place);
    }
    g.indexed = done;
    g.has_indexed = true;
  }
  return u;
}

Result<ReadPoint> RepoReader::At(const std::optional<std::string>& ref) {
  GitRepo& git = *lease_;
  ReadPoint at;
  if (!ref) {
    HeadState h = git.Head();
    switch (h.kind) {
      case HeadState::Kind::kBranch:
        at.label = h.branch;
        break;
      case HeadState::Kind::kDetached:
        at.label = "HEAD (detached)";
        break;
      case HeadState::Kind::kUnborn:
        return Error{"repository `" + repo_->name() +
                     "` has no commit yet on its default branch `" + DisplayName(h.branch) +
                     "`; there is nothing to read"};
      case HeadState::Kind::kBroken:
        return Error{"repository `" + repo_->name() + "` has no readable default branch (" +
                     h.problem + "); give a ref — list_refs lists them"};
    }
    auto s = git.Summary(h.commit);
    if (!s) return Error{s.error()};
    at.commit = s.take();
    return at;
  }
  auto text = RefText::Parse(*ref);
  if (!text) return Error{text.error()};
  auto id = git.Resolve(*text);
  if (!id) {
    return Error{"ref `" + EchoArgument(*ref) + "` is not a branch, tag or commit of `" +
                 repo_->name() +
                 "`; list_refs lists its branches and tags (a commit id needs at least 7 hex "
                 "digits, more where they are not enough)"};
  }
  auto s = git.Summary(*id);
  if (!s) return Error{s.error()};
  at.label = *ref;
  at.commit = s.take();
  return at;
}

Result<Node> RepoReader::Find(const ReadPoint& at, const RepoPath& path, const StopToken& stop) {
  const PathPolicy& policy = repo_->policy();
  if (policy.Outside(path)) {
    return Error{"path " + Quote(path) + " is outside what this server serves in `" +
                 repo_->name() + "`"};
  }
  GitRepo& git = *lease_;
  auto root = git.RootTree(at.commit.id);
  if (!root) return Error{root.error()};
  Node node{RepoPath::Root(), EntryKind::kFolder, *git_tree_id(root->get())};
  if (path.is_root()) return node;

  // (The answers are worded only when given: a search finds thousands of files again.)
  auto outside = [&] {
    return Error{"path " + Quote(path) + " is outside what this server serves in `" +
                 repo_->name() + "`"};
  };
  // Anything but a folder holding served files answers as one that is not there. A path that
  // would not be served as a file (include names only files below it, or none) gets the same
  // answer whether it is absent, a file, or a folder holding nothing served: judged by the path.
  auto missing = [&] {
    if (!policy.ServesFile(path)) return outside();
    return Error{"no file or folder " + Quote(path) + " in `" + repo_->name() + "` at " +
                 DisplayName(at.label) + " (" + at.commit.id.Short() +
                 "); list_files shows what is there"};
  };
  TreePtr tree = root.take();
  const auto parts = path.parts();
  for (size_t i = 0; i < parts.size(); ++i) {
    TreeEntry e;
    if (!git.FindEntry(tree.get(), parts[i], &e)) return missing();
    node.path = node.path.Child(parts[i]);
    node.kind = e.kind;
    node.oid = e.oid;
    node.executable = e.executable;
    if (i + 1 == parts.size()) break;
    if (e.kind != EntryKind::kFolder) return missing();
    auto sub = git.Subtree(e.oid);
    if (!sub) return missing();
    tree = sub.take();
  }
  if (node.kind == EntryKind::kOther) return missing();
  if (node.kind == EntryKind::kFolder) {
    if (!HoldsServed(node.path, node.oid, stop)) {
      if (stop.stopped()) return Error{stop.Why()};
      return missing();
    }
    return node;
  }
  if (!policy.ServesFile(node.path)) return outside();
  return node;
}

bool RepoReader::HoldsServed(const RepoPath& folder, const git_oid& tree, const StopToken& stop) {
  const PathPolicy& policy = repo_->policy();
  if (policy.Outside(folder)) return false;
  GitRepo& git = *lease_;
  std::vector<std::pair<RepoPath, git_oid>> pending{{folder, tree}};
  size_t budget = kVisibilityBudget;  // this folder's; visibility_left_ is the call's
  while (!pending.empty()) {
    auto [path, oid] = std::move(pending.back());
    pending.pop_back();
    auto sub = git.Subtree(oid);
    if (!sub) continue;
    const size_t n = git_tree_entrycount(sub->get());
    // Files first: a served file ends the search without opening any subfolder.
    std::vector<std::pair<RepoPath, git_oid>> folders;
    for (size_t i = 0; i < n; ++i) {
      if (budget == 0 || visibility_left_ == 0 || stop.stopped()) {
        visibility_exhausted_ = !stop.stopped();
        return false;
      }
      --budget;
      --visibility_left_;
      const git_tree_entry* te = git_tree_entry_byindex(sub->get(), i);
      const std::string_view name = git_tree_entry_name(te);
      if (!IsServableEntryName(name)) continue;
      if (path.str().size() + 1 + name.size() > RepoPath::kMaxBytes) continue;
      RepoPath child = path.Child(name);
      const git_filemode_t mode = git_tree_entry_filemode(te);
      if (mode == GIT_FILEMODE_TREE) {
        if (!policy.ChildOutside(child, name)) {
          folders.emplace_back(std::move(child), *git_tree_entry_id(te));
        }
      } else if (mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE ||
                 mode == GIT_FILEMODE_LINK || mode == GIT_FILEMODE_COMMIT) {
        if (policy.ServesChild(child, name)) return true;
      }
    }
    for (auto it = folders.rbegin(); it != folders.rend(); ++it) pending.push_back(std::move(*it));
  }
  return false;
}

Result<RepoReader::Listing> RepoReader::List(const Node& folder, const StopToken& stop) {
  const PathPolicy& policy = repo_->policy();
  GitRepo& git = *lease_;
  auto tree = git.Subtree(folder.oid);
  if (!tree) return Error{"folder " + Quote(folder.path) + ": " + tree.error()};
  Listing out;
  for (TreeEntry& e : git.Entries(tree->get())) {
    if (stop.stopped()) return Error{stop.Why()};
    if (!IsServableEntryName(e.name) || e.kind == EntryKind::kOther) continue;
    if (folder.path.str().size() + 1 + e.name.size() > RepoPath::kMaxBytes) continue;
    Node child{folder.path.Child(e.name), e.kind, e.oid, e.executable};
    if (e.kind == EntryKind::kFolder) {
      const bool exhausted_before = visibility_exhausted_;
      visibility_exhausted_ = false;
      if (HoldsServed(child.path, child.oid, stop)) {
        out.folders.push_back(std::move(child));
      } else if (visibility_exhausted_) {
        ++out.unchecked;
      }
      visibility_exhausted_ = visibility_exhausted_ || exhausted_before;
    } else if (policy.ServesChild(child.path, e.name)) {
      out.files.push_back(std::move(child));
    }
  }
  if (stop.stopped()) return Error{stop.Why()};
  return out;
}

Status RepoReader::Walk(const Node& folder, const StopToken& stop,
                        const std::function<bool(const Node&)>& visit, size_t* too_deep,
                        const std::function<bool(const RepoPath&)>& enter) {
  const PathPolicy& policy = repo_->policy();
  GitRepo& git = *lease_;
  *too_deep = 0;
  // Explicit stack: a tree thousands of folders deep cannot overflow the call stack.
  struct Frame {
    RepoPath path;
    std::vector<TreeEntry> entries;
    size_t next = 0;
  };
  std::vector<Frame> stack;
  auto push = [&](const RepoPath& path, const git_oid& oid) {
    auto tree = git.Subtree(oid);
    if (!tree) return;
    stack.push_back(Frame{path, git.Entries(tree->get()), 0});
  };
  push(folder.path, folder.oid);
  while (!stack.empty()) {
    if (stop.stopped()) return Error{stop.Why()};
    Frame& f = stack.back();
    if (f.next == f.entries.size()) {
      stack.pop_back();
      continue;
    }
    const TreeEntry& e = f.entries[f.next++];
    if (!IsServableEntryName(e.name) || e.kind == EntryKind::kOther) continue;
    if (f.path.str().size() + 1 + e.name.size() > RepoPath::kMaxBytes) {
      ++*too_deep;
      continue;
    }
    RepoPath child = f.path.Child(e.name);
    if (e.kind == EntryKind::kFolder) {
      if (!policy.ChildOutside(child, e.name) && (!enter || enter(child))) {
        push(child, e.oid);  // invalidates f
      }
      continue;
    }
    if (!policy.ServesChild(child, e.name)) continue;
    if (!visit(Node{std::move(child), e.kind, e.oid, e.executable})) return Status::Ok();
  }
  return Status::Ok();
}

std::optional<size_t> RepoReader::Size(const Node& file) {
  size_t size = 0;
  git_object_t type;
  if (!(*lease_).ObjectHeader(file.oid, &size, &type)) return std::nullopt;
  return size;
}

std::optional<size_t> RepoReader::Size(const Node& file, const StopToken& stop) {
  if (auto size = Size(file)) return size;
  if (!repo_->settings().fetcher || !FetchMissing({file}, stop)) return std::nullopt;
  return Size(file);
}

size_t RepoReader::FetchMissing(const std::vector<Node>& files, const StopToken& stop) {
  const auto& fetcher = repo_->settings().fetcher;
  if (!fetcher) return 0;
  const PathPolicy& policy = repo_->policy();
  std::vector<ContentWant> wants;
  std::set<std::string> asked;
  for (const Node& n : files) {
    if (n.kind != EntryKind::kFile && n.kind != EntryKind::kLink) continue;
    // Judged again here, whoever made the node: a path this server does not serve is never
    // fetched.
    if (n.path.is_root() || !policy.ServesFile(n.path)) continue;
    const std::string hex = CommitId(n.oid).Hex();
    if (fetch_problems_.count(hex) || asked.count(hex) || Size(n)) continue;
    asked.insert(hex);
    wants.push_back(ContentWant{n.oid, n.path});
  }
  size_t arrived = 0;
  for (size_t i = 0; i < wants.size(); i += ContentFetcher::kMaxIdsPerFetch) {
    const size_t end = std::min(wants.size(), i + ContentFetcher::kMaxIdsPerFetch);
    std::vector<ContentWant> batch(wants.begin() + i, wants.begin() + end);
    std::string why;
    if (stop.stopped()) {
      why = stop.Why();
    } else if (Status fetched = fetcher->Fetch(batch, stop); !fetched) {
      why = fetched.error();
    }
    for (const ContentWant& w : batch) {
      Node n{w.path, EntryKind::kFile, w.oid};
      if (why.empty() && Size(n)) {
        ++arrived;
        continue;
      }
      fetch_problems_[CommitId(w.oid).Hex()] = why.empty() ? "the host did not send them" : why;
    }
  }
  return arrived;
}

std::string RepoReader::FetchProblem(const git_oid& oid) const {
  auto it = fetch_problems_.find(CommitId(oid).Hex());
  return it == fetch_problems_.end() ? std::string() : it->second;
}

namespace {
constexpr size_t kBinaryProbeBytes = 8000;  // git's FIRST_FEW_BYTES
}  // namespace

Result<FileData> RepoReader::Read(const Node& file) {
  return Read(file, StopToken(std::make_shared<std::atomic<bool>>(false), kFetchTime));
}

Result<FileData> RepoReader::Read(const Node& file, const StopToken& stop) {
  {
    // Most contents come straight from the packs; whatever that does not handle (and every
    // error, and contents a mirror has still to fetch) is read through libgit2 below.
    FileData d;
    if ((*lease_).PackedBlob(file.oid, kMaxFileBytes, &d.packed)) {
      d.size = d.packed.size();
      const size_t head = std::min<size_t>(d.size, kBinaryProbeBytes);
      d.kind = std::memchr(d.packed.data(), '\0', head) ? FileData::Kind::kBinary
                                                        : FileData::Kind::kText;
      return d;
    }
  }
  auto size = Size(file, stop);
  if (!size) {
    if (repo_->settings().fetcher) {
      std::string why = FetchProblem(file.oid);
      if (why.empty()) why = "they were not asked for";
      const auto& mirror = repo_->settings().mirror;
      return Error{"the contents of " + Quote(file.path) +
                   " at this commit are not in the mirror `" + repo_->name() +
                   "` and could not be fetched" + (mirror ? " from " + mirror->Get().url : "") +
                   ": " + why +
                   "; call again later, or read it at a ref the mirror keeps (list_refs)"};
    }
    return Error{"the contents of " + Quote(file.path) + " are not in the local copy of `" +
                 repo_->name() + "` (a partial clone); this server never fetches them"};
  }
  if (*size > kMaxFileBytes) {
    return Error{Quote(file.path) + " is " + HumanBytes(*size) +
                 ", over the 10 MB this server reads; it is not read"};
  }
  auto blob = (*lease_).Blob(file.oid);
  if (!blob) return Error{Quote(file.path) + ": " + blob.error()};
  FileData d;
  d.size = *size;
  // git's rule (buffer_is_binary): binary when a NUL is among the first 8,000 bytes. libgit2's
  // own test also calls a text with a few other control bytes binary; git shows such a file,
  // and so does this server, with the control bytes escaped.
  const auto* raw = static_cast<const char*>(git_blob_rawcontent(blob->get()));
  const size_t head = std::min<size_t>(static_cast<size_t>(*size), kBinaryProbeBytes);
  d.kind = std::memchr(raw, '\0', head) ? FileData::Kind::kBinary : FileData::Kind::kText;
  d.blob = blob.take();
  return d;
}

}  // namespace rr
