// CommitGraph: git's commit-graph file format, read by our own code (libgit2 1.5 reads neither
// the generation-data chunks current git writes nor changed-path Bloom filters).
//
// What is read: a single `<objects>/info/commit-graph`, or a split chain
// (`<objects>/info/commit-graphs/commit-graph-chain` naming graph-<hash>.graph layers, base
// first); the chunks OIDF, OIDL, CDAT, EDGE (octopus merges), GDA2/GDO2 (corrected commit
// dates), BIDX/BDAT (changed-path Bloom filters, hash versions 1 and 2). The format is
// gitformat-commit-graph(5); the history index (history_index.h) writes the same format.
//
// A graph is data anyone who can write the repository can write. Files are read whole into
// memory (never mapped: a file truncated while mapped would kill the process), and everything is
// checked when opened, so no accessor reads outside what was read: sizes of every chunk, OIDs
// strictly ascending and agreeing with the fanout, every parent position inside the graph,
// octopus edge lists inside EDGE and terminated, generation data overflow positions inside GDO2,
// every parent's Generation() smaller than its child's (so following parents always ends), and a
// chain's layers naming each other as git checks them. A graph failing any of this is not used
// at all (Open answers nullptr and says why). Bloom filters that fail their own checks (index not
// ascending, past the data, unknown hash version, settings differing from the top layer's) are
// left out for their layer only, as git does; those commits answer kUnknown.
//
// What a graph cannot promise: that its data is true. A graph can name any tree or parents for a
// commit id; readers trust it as they trust the repository it came from. Only SHA-1 graphs are
// read (libgit2 1.5 reads only SHA-1 repositories).
//
// Thread safety: an opened graph is immutable; share it freely between threads.
#pragma once

#include <git2.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rr {

class CommitGraph {
 public:
  // Settings of the changed-path Bloom filters (BDAT's header).
  struct BloomSettings {
    uint32_t hash_version = 1;  // 1: murmur3 reading bytes >= 0x80 as signed (git's first); 2
    uint32_t num_hashes = 7;
    uint32_t bits_per_entry = 10;
    bool operator==(const BloomSettings& o) const {
      return hash_version == o.hash_version && num_hashes == o.num_hashes &&
             bits_per_entry == o.bits_per_entry;
    }
    bool operator!=(const BloomSettings& o) const { return !(*this == o); }
  };

  // One file of the graph: the single file, or a layer of a chain (base first).
  struct LayerInfo {
    std::string file;      // as opened
    std::string checksum;  // the trailer, hex (a chain names its layers by it)
    uint32_t commits = 0;
    bool generation_data = false;  // has GDA2
    bool bloom = false;            // has usable Bloom filters
    BloomSettings bloom_settings;  // when `bloom`
  };

  // The graph in `objects_dir`: info/commit-graph when it is usable, else the chain in
  // info/commit-graphs/ (git's order). nullptr when there is none or it is unusable; *problem
  // (when non-null) then says which and why.
  static std::shared_ptr<const CommitGraph> Open(const std::string& objects_dir,
                                                 std::string* problem = nullptr);
  // A graph file (starts with "CGPH") or a chain file (lines of layer checksums; the layers are
  // graph-<checksum>.graph beside it).
  static std::shared_ptr<const CommitGraph> OpenFile(const std::string& graph_or_chain_file,
                                                     std::string* problem = nullptr);

  // Commits, all layers. Positions are 0 .. size()-1, base layer first, each layer in OID order.
  uint32_t size() const { return size_; }
  bool Find(const git_oid& id, uint32_t* pos) const;
  // The accessors below take a position < size(); anything else answers zeros / false.
  git_oid Id(uint32_t pos) const;
  git_oid Tree(uint32_t pos) const;
  // The parents' positions, in the commit's order. False if corrupt (never, once opened).
  bool Parents(uint32_t pos, std::vector<uint32_t>* out) const;
  // The first parent's position; false for a root commit.
  bool FirstParent(uint32_t pos, uint32_t* parent) const;
  int64_t CommitTime(uint32_t pos) const;  // committer time, seconds (34 bits, as git keeps it)
  // The corrected commit date when every layer has it (corrected_dates()), else the
  // topological level. Never 0 for a valid commit; a parent's is always smaller than its child's.
  uint64_t Generation(uint32_t pos) const;
  uint32_t TopoLevel(uint32_t pos) const;  // generation number v1, kept in every graph
  bool corrected_dates() const { return corrected_dates_; }

  // True when at least one layer has usable Bloom filters.
  bool has_bloom() const { return bloom_version_ != 0; }

  // A path's hashes for the Bloom filters, computed once per query: the path and each of its
  // leading folders, as git adds them when it writes a filter.
  class PathKey {
   public:
    PathKey() = default;
    bool empty() const { return hashes_.empty(); }

   private:
    friend class CommitGraph;
    uint32_t version_ = 0;
    std::vector<std::pair<uint32_t, uint32_t>> hashes_;  // (hash0, hash1) per prefix
  };
  // The key of `path` (written from the root; a leading or trailing '/' is ignored).
  PathKey Key(std::string_view path) const;

  enum class Changed { kNo, kMaybe, kUnknown };
  // Whether `key`'s path may differ between the commit and its FIRST parent (the empty tree for
  // a root commit). kNo is certain; kMaybe may be a false positive (about 1 in 100 per path);
  // kUnknown: no filter for this commit (its layer has none, or it is empty or "too many
  // changes", as git treats them), so the caller must compare the trees itself.
  Changed ChangedVsFirstParent(uint32_t pos, const PathKey& key) const;

  // For the history index, which copies filters when it merges layers.
  // The raw filter of a commit; false when its layer has none.
  bool BloomFilter(uint32_t pos, std::string_view* bytes) const;
  const std::vector<LayerInfo>& layers() const { return info_; }
  // The layer holding position `pos`.
  size_t LayerOf(uint32_t pos) const;

  // The Bloom filter hashes git uses (exposed for the writer and its tests).
  static uint32_t Murmur3(uint32_t version, uint32_t seed, std::string_view data);
  static void BloomHashes(uint32_t version, std::string_view path, uint32_t* hash0,
                          uint32_t* hash1);

  ~CommitGraph();

 private:
  struct Layer;
  CommitGraph();
  // Parses one file's header, chunk table and chunk sizes; nothing is read outside `bytes`.
  static std::unique_ptr<Layer> ParseLayer(std::string file, std::vector<uint8_t> bytes,
                                           std::string* why);
  static bool ParseLayerInto(Layer* l, std::string* why);
  static std::shared_ptr<const CommitGraph> Build(std::vector<std::unique_ptr<Layer>> layers,
                                                  std::string* problem);
  const Layer& At(uint32_t pos, uint32_t* lex) const;

  std::vector<std::unique_ptr<Layer>> layers_;
  std::vector<LayerInfo> info_;
  uint32_t size_ = 0;
  bool corrected_dates_ = false;
  uint32_t bloom_version_ = 0;  // 0: no Bloom filters
};

}  // namespace rr
