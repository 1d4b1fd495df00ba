#include "core/index/text_bases.h"

#include <git2.h>

#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

#include "core/git/commits.h"
#include "core/git/tree_diff.h"
#include "core/index/repo_text_index.h"
#include "core/index/text_index.h"
#include "core/index/text_store.h"
#include "core/util/private_folder.h"

namespace rr {
namespace {

constexpr size_t kMaxBaseChanges = 64;  // files a list over a base lists itself, at most

// True when the base `key` of the store at `store` was wanted before, by another repository
// than the one at `index_folder` (in this process): the second repository to ask for a base
// writes it; one repository built again on the same commit does not. (A million wanted at
// most: then it starts again.)
bool BaseWantedBefore(const std::string& store, uint64_t key, const std::string& index_folder) {
  static std::mutex mu;
  static auto* wanted = new std::unordered_map<uint64_t, uint64_t>();  // -> the first's folder
  const uint64_t id = Fnv64(store, key);
  const uint64_t asker = Fnv64(index_folder);
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = wanted->find(id); it != wanted->end()) return it->second != asker;
  if (wanted->size() >= (size_t{1} << 20)) wanted->clear();
  wanted->emplace(id, asker);
  return false;
}

struct ListedFile {
  std::string_view path;
  git_oid oid{};
  bool executable = false;
  BlobKind kind = BlobKind::kUnread;
  uint32_t size = 0;
};

// A base's id: a digest of its paths, their contents' ids and executable bits, in order.
git_oid BaseId(const std::vector<ListedFile>& files) {
  std::string bytes = "repo-reader text index base\n";
  for (const ListedFile& f : files) {
    bytes.append(f.path);
    bytes.push_back('\0');
    bytes.append(reinterpret_cast<const char*>(f.oid.id), GIT_OID_RAWSZ);
    bytes.push_back(f.executable ? '1' : '0');
  }
  git_oid id{};
  git_odb_hash(&id, bytes.data(), bytes.size(), GIT_OBJECT_BLOB);
  return id;
}

// The paths the first parent's tree and the commit's differ at (added, changed, deleted), or
// nothing when there are more than kMaxBaseChanges.
class ChangedPaths final : public TreeDiffVisitor {
 public:
  bool Descend(std::string_view, std::string_view) override { return true; }
  bool Changed(const TreeChange& change) override {
    std::string path(change.folder);
    if (!path.empty()) path.push_back('/');
    path.append(change.name);
    paths.insert(std::move(path));
    too_many = paths.size() > kMaxBaseChanges;
    return !too_many;
  }
  std::set<std::string> paths;
  bool too_many = false;
};

}  // namespace

Result<OverBase> ListOverBase(RepoReader& reader, const ReadPoint& at,
                              const std::string& store_folder, uint64_t policy,
                              const std::string& file, const StopToken& stop) {
  OverBase out;
  GitRepo& git = PolicyAccess::Git(reader);
  auto commit = ReadCommit(git, at.commit.id);
  if (!commit || commit->parents.empty()) return out;
  auto parent = ReadCommit(git, commit->parents[0]);
  if (!parent) return out;  // not in the local copy (a shallow clone)
  const uint64_t key = TextPartKey(parent->tree, ".", policy);
  const std::string base_file = TextPartFile(store_folder, key);
  // A base as this server writes them: of this policy, every content read, its id its paths'.
  auto valid = [&](const IndexFile& part, std::vector<ListedFile>* files) {
    if (part.policy() != policy || part.parts() != 0 || part.unread_paths() != 0) return false;
    files->assign(part.paths(), ListedFile{});
    for (size_t j = 0; j < files->size(); ++j) {
      const IndexFile::PathEntry e = part.Path(j);
      (*files)[j].path = e.path;
      (*files)[j].oid = part.Oid(e.blob);
      (*files)[j].executable = e.executable;
    }
    const git_oid id = BaseId(*files);
    return git_oid_equal(&id, &part.commit()) != 0;
  };
  std::shared_ptr<const IndexFile> base;
  std::vector<ListedFile> in_base;  // its files, in its order (the walk's)
  if (auto opened = IndexFile::Open(base_file); opened && valid(**opened, &in_base)) {
    base = opened.take();
  }
  if (!base) in_base.clear();  // views into a file let go
  const std::string index_folder = file.substr(0, file.rfind('/'));
  if (!base && !BaseWantedBefore(store_folder, key, index_folder)) return out;
  // The commit's files, as the list just written names them.
  auto list = IndexFile::Open(file);
  if (!list) return Error{list.error()};
  auto index = TextIndex::Make(list.take(), CurrentTextStore(store_folder));
  if (!index) return Error{index.error()};
  const TextIndex& ix = **index;
  std::vector<ListedFile> files(ix.paths());
  for (size_t i = 0; i < files.size(); ++i) {
    const IndexFile::PathEntry e = ix.Path(i);
    ListedFile& f = files[i];
    f.path = e.path;
    f.oid = ix.Oid(e.blob);
    f.executable = e.executable;
    f.kind = ix.ListedKind(e.blob, &f.size);
  }
  if (!base) {
    ChangedPaths changed;
    Status diffed = DiffTrees(git, &parent->tree, &commit->tree, changed, stop);
    if (!diffed || changed.too_many) return out;
    std::vector<ListedFile> shared;
    shared.reserve(files.size());
    for (const ListedFile& f : files) {
      if (changed.paths.count(std::string(f.path)) != 0) continue;
      if (f.kind == BlobKind::kUnread) return out;  // a base is read by every copy naming it
      shared.push_back(f);
    }
    IndexFileWriter writer;
    for (const ListedFile& f : shared) {
      writer.AddPath(f.path, writer.AddSized(f.oid, f.kind, f.size), f.executable);
    }
    writer.SetTree(BaseId(shared));
    Status parts = MakePrivateFolder(store_folder + "/parts", "the text index folder");
    if (!parts) return Error{parts.error()};
    Status wrote = writer.Write(base_file, writer.tree(), policy);
    if (!wrote) return Error{wrote.error()};
    auto opened = IndexFile::Open(base_file);
    if (!opened) return Error{opened.error()};
    if (!valid(**opened, &in_base)) return Error{"the base written does not read back"};
    base = opened.take();
    out.base_written = true;
    out.base_bytes = base->bytes();
  }
  // The commit's files in order: runs of the base's, and the files the base lacks.
  struct Piece {
    size_t first = 0, paths = 0;  // a run of the base
    const ListedFile* own = nullptr;
  };
  std::vector<Piece> pieces;
  size_t own = 0, runs = 0, j = 0;
  for (const ListedFile& f : files) {
    while (j < in_base.size() && in_base[j].path < f.path) ++j;
    const bool same = j < in_base.size() && in_base[j].path == f.path &&
                      git_oid_equal(&in_base[j].oid, &f.oid) != 0 &&
                      in_base[j].executable == f.executable;
    if (!same) {
      pieces.push_back(Piece{0, 0, &f});
      ++own;
      continue;
    }
    if (!pieces.empty() && pieces.back().own == nullptr &&
        pieces.back().first + pieces.back().paths == j) {
      pieces.back().paths++;
    } else {
      pieces.push_back(Piece{j, 1, nullptr});
      ++runs;
    }
    ++j;
  }
  if (own > kMaxBaseChanges || runs > kMaxBaseChanges) return out;
  IndexFileWriter over;
  for (const Piece& p : pieces) {
    if (p.own) {
      over.AddPath(p.own->path, over.AddSized(p.own->oid, p.own->kind, p.own->size),
                   p.own->executable);
    } else {
      over.AddPart(base->commit(), key, p.first, p.paths);
    }
  }
  if (stop.stopped()) return Error{"stopped"};
  Status written = over.Write(file, at.commit.id.oid(), policy);
  if (!written) return Error{written.error()};
  out.used = true;
  return out;
}

}  // namespace rr
