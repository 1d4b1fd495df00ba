#include "core/guidance/folder_scan.h"

#include <atomic>
#include <cstring>
#include <functional>
#include <mutex>
#include <unordered_map>

namespace rr {
namespace {

// What a tree holds (FolderScan) is kept by the tree's id, the path policy it was read under
// (its rules' digest) and, when include / exclude make the answer depend on where the tree is,
// its path.
struct TreeKey {
  git_oid tree{};
  uint64_t policy = 0;
  std::string path;  // "" unless the policy is partial
  bool operator==(const TreeKey& o) const {
    return git_oid_equal(&tree, &o.tree) && policy == o.policy && path == o.path;
  }
};
struct TreeKeyHash {
  size_t operator()(const TreeKey& k) const {
    size_t h;
    std::memcpy(&h, k.tree.id, sizeof h);  // an object id's bytes are already well mixed
    h ^= static_cast<size_t>(k.policy * 0x9E3779B97F4A7C15ull);
    return k.path.empty() ? h : h ^ std::hash<std::string>()(k.path);
  }
};

// What trees hold, kept for every repository of the server: a tree's finds depend on the tree
// and the policy alone, so the forks and copies of one codebase across an organisation read
// each folder they share once, and a branch that moved reads only the trees that changed.
// Bounded: two generations of at most kPerGeneration trees and kBytesPerGeneration bytes each
// (a tree's finds list every guidance file below it); a tree found in the older moves to the
// newer, and when the newer is full the older is dropped (the least used go).
class TreeMemo {
 public:
  static constexpr size_t kPerGeneration = 200000;
  static constexpr size_t kBytesPerGeneration = 32u << 20;

  std::shared_ptr<const TreeFinds> Find(const TreeKey& key) {
    Generation dropped;  // freed after the lock is let go
    std::lock_guard<std::mutex> lock(mu_);
    auto it = now_.trees.find(key);
    if (it != now_.trees.end()) return it->second;
    auto old = before_.trees.find(key);
    if (old == before_.trees.end()) return nullptr;
    auto finds = old->second;
    AddLocked(key, finds, &dropped);
    return finds;
  }
  void Keep(const TreeKey& key, std::shared_ptr<const TreeFinds> finds) {
    Generation dropped;
    std::lock_guard<std::mutex> lock(mu_);
    AddLocked(key, std::move(finds), &dropped);
  }
  size_t size() {
    std::lock_guard<std::mutex> lock(mu_);
    return now_.trees.size() + before_.trees.size();
  }

 private:
  struct Generation {
    std::unordered_map<TreeKey, std::shared_ptr<const TreeFinds>, TreeKeyHash> trees;
    size_t bytes = 0;
  };
  static size_t BytesOf(const TreeKey& key, const TreeFinds& finds) {
    size_t bytes = 128 + key.path.size();
    for (const auto& f : finds.files) bytes += sizeof f + f.first.size();
    return bytes;
  }
  void AddLocked(const TreeKey& key, std::shared_ptr<const TreeFinds> finds, Generation* dropped) {
    const size_t bytes = BytesOf(key, *finds);
    if (now_.trees.size() >= kPerGeneration || now_.bytes + bytes > kBytesPerGeneration) {
      *dropped = std::move(before_);
      before_ = std::move(now_);
      now_ = Generation();
    }
    auto [it, added] = now_.trees.emplace(key, std::move(finds));
    if (added) now_.bytes += bytes;
  }
  std::mutex mu_;
  Generation now_, before_;
};

TreeMemo& KeptTrees() {
  static TreeMemo* const kept = new TreeMemo;  // never destroyed: threads may scan at exit
  return *kept;
}

std::atomic<uint64_t>& TreesRead() {
  static std::atomic<uint64_t> read{0};
  return read;
}

// One kept "nothing below" for every tree that holds no guidance file (most of them); never
// destroyed either.
const std::shared_ptr<const TreeFinds>& NoFinds() {
  static const auto* const none =
      new std::shared_ptr<const TreeFinds>(std::make_shared<const TreeFinds>());
  return *none;
}

}  // namespace

size_t GuidanceTreesKept() { return KeptTrees().size(); }
uint64_t GuidanceTreesRead() { return TreesRead().load(std::memory_order_relaxed); }

namespace {

// Finds AGENTS.md and CLAUDE.md in every folder, reading each distinct tree once: what a tree
// holds is kept by its id for every repository (TreeMemo), so folders shared by many paths or
// many repositories cost one read, and a moved branch costs only the trees that changed. Applies
// the policy as RepoReader does: names that are not plain path parts and folders the policy
// keeps out are never entered, and every file found is checked with ServesFile by the caller.
// A tree is kept only when what it holds is the same wherever it is: not one with a folder that
// cannot be read here (not in this copy), a path too long to serve, or a folder kept out by the
// name of the folder holding it (.aws/credentials) -- another repository holding the same tree
// elsewhere must not be told there is nothing below.
class FolderScan {
 public:
  FolderScan(RepoReader& reader, const StopToken& stop)
      : reader_(reader), git_(PolicyAccess::Git(reader)), stop_(stop) {
    const PathPolicy& policy = reader.repo().policy();
    partial_ = policy.partial();
    policy_ = std::hash<std::string>()(policy.Describe());
  }

  std::shared_ptr<const TreeFinds> Scan(const RepoPath& folder, const git_oid& tree) {
    struct Frame {
      TreeKey key;
      RepoPath path;
      std::vector<TreeEntry> entries;
      size_t next = 0;
      TreeFinds found;
      bool keep = true;  // every folder below was read here
    };
    const PathPolicy& policy = reader_.repo().policy();
    TreeMemo& kept = KeptTrees();
    std::vector<Frame> stack;
    std::shared_ptr<const TreeFinds> result;
    auto add = [](TreeFinds& to, const std::string& prefix, const TreeFinds& from) {
      if (from.incomplete) to.incomplete = true;
      for (const auto& [rel, oid] : from.files) {
        if (to.files.size() >= kMaxGuidancePieces) {
          to.incomplete = true;
          break;
        }
        to.files.emplace_back(prefix + "/" + rel, oid);
      }
    };
    auto open = [&](const RepoPath& path, TreeKey key) {
      auto sub = git_.Subtree(key.tree);
      if (!sub) return false;  // not in the local copy, or not a folder: nothing below
      if (++trees_ > kMaxTrees) {
        stopped_ = true;
        return false;
      }
      TreesRead().fetch_add(1, std::memory_order_relaxed);
      stack.push_back(Frame{std::move(key), path, git_.Entries(sub->get()), 0, {}, true});
      return true;
    };
    if (auto found = kept.Find(KeyOf(folder, tree))) return found;
    if (!open(folder, KeyOf(folder, tree))) {
      auto none = std::make_shared<TreeFinds>();
      none->incomplete = stopped_;
      return none;
    }
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next == f.entries.size()) {
        std::shared_ptr<const TreeFinds> done =
            f.found.files.empty() && !f.found.incomplete
                ? NoFinds()
                : std::make_shared<const TreeFinds>(std::move(f.found));
        // Only what is whole, and was read whole here, is kept.
        if (!done->incomplete && f.keep) kept.Keep(f.key, done);
        const bool keep = f.keep;
        stack.pop_back();
        if (stack.empty()) {
          result = done;
          break;
        }
        Frame& parent = stack.back();
        if (!keep) parent.keep = false;
        add(parent.found, parent.entries[parent.next - 1].name, *done);
        continue;
      }
      const TreeEntry& e = f.entries[f.next++];
      if (stop_.stopped()) {
        stopped_ = true;
        f.found.incomplete = true;
        f.next = f.entries.size();
        continue;
      }
      if (!IsServableEntryName(e.name)) continue;
      if (f.path.str().size() + 1 + e.name.size() > RepoPath::kMaxBytes) {
        // Too long a path here, not everywhere the tree may be: what it holds is not kept.
        f.keep = false;
        continue;
      }
      if (e.kind == EntryKind::kFile && (e.name == "AGENTS.md" || e.name == "CLAUDE.md")) {
        if (f.found.files.size() < kMaxGuidancePieces) {
          f.found.files.emplace_back(e.name, e.oid);
        } else {
          f.found.incomplete = true;
        }
        continue;
      }
      if (e.kind != EntryKind::kFolder) continue;
      RepoPath child = f.path.Child(e.name);
      if (policy.ChildOutside(child, e.name)) {
        // Kept out by its name alone, wherever the tree is; or by where it is (include /
        // exclude, which put the path in the key; a credential file named with its folder,
        // .aws/credentials: then what this tree holds is not kept).
        if (!partial_ && !PathPolicy::IsCredentialName(e.name)) f.keep = false;
        continue;
      }
      TreeKey key = KeyOf(child, e.oid);
      if (auto found = kept.Find(key)) {
        add(f.found, e.name, *found);
        continue;
      }
      if (!open(child, std::move(key))) {
        if (stopped_) {
          stack.back().found.incomplete = true;
        } else {
          stack.back().keep = false;
        }
      }
    }
    if (!result) {
      auto none = std::make_shared<TreeFinds>();
      none->incomplete = true;
      return none;
    }
    return result;
  }

 private:
  // At most this many trees are read in one scan (a tree whose folders are all different: a
  // monorepo of hundreds of thousands of folders); past it, the guidance says it is incomplete.
  static constexpr size_t kMaxTrees = 200000;

  TreeKey KeyOf(const RepoPath& path, const git_oid& oid) const {
    // Without include / exclude, which folders are entered depends on names alone (the
    // credential rule), which the tree itself holds; with them, on where the tree is.
    return TreeKey{oid, policy_, partial_ ? path.str() : std::string()};
  }

  RepoReader& reader_;
  GitRepo& git_;
  const StopToken& stop_;
  bool partial_ = false;
  uint64_t policy_ = 0;
  bool stopped_ = false;
  size_t trees_ = 0;
};

}  // namespace

std::shared_ptr<const TreeFinds> FindAgentsFiles(RepoReader& reader, const RepoPath& folder,
                                                 const git_oid& tree, const StopToken& stop) {
  return FolderScan(reader, stop).Scan(folder, tree);
}

}  // namespace rr
