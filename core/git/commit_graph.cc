#include "core/git/commit_graph.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "core/git/commit_graph_format.h"

namespace rr {

using namespace graph_format;  // NOLINT: the format's constants and byte readers

namespace {

// A graph of more commits than this cannot be written by git (positions above it are flags).
constexpr uint64_t kMaxCommits = kParentNone;
// Bigger files are refused rather than read into memory.
constexpr uint64_t kMaxFileBytes = uint64_t{4} << 30;
constexpr uint64_t kMaxChainBytes = 64 * 1024;
constexpr size_t kMaxLayers = 1000;
constexpr uint32_t kMaxBloomHashes = 64;

std::string Hex(const uint8_t* raw) {
  git_oid oid;
  git_oid_fromraw(&oid, raw);
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, &oid);
  return buf;
}

// Reads a regular file whole. A FIFO, device or folder is refused without blocking on it.
bool ReadWhole(const std::string& file, uint64_t limit, std::vector<uint8_t>* out, std::string* why,
               bool* missing = nullptr) {
  if (missing) *missing = false;
  const int fd = open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (missing && errno == ENOENT) *missing = true;
    *why = file + ": cannot be opened (" + std::strerror(errno) + ")";
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    *why = file + ": not a regular file";
    return false;
  }
  if (static_cast<uint64_t>(st.st_size) > limit) {
    close(fd);
    *why = file + ": larger than " + std::to_string(limit) + " bytes";
    return false;
  }
  out->resize(static_cast<size_t>(st.st_size));
  size_t got = 0;
  while (got < out->size()) {
    const ssize_t r = read(fd, out->data() + got, out->size() - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  close(fd);
  // A file that shrank while read is read as it was when it stopped.
  out->resize(got);
  return true;
}

std::string Dirname(const std::string& file) {
  const size_t slash = file.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : file.substr(0, slash);
}

}  // namespace

struct CommitGraph::Layer {
  std::string file;
  std::vector<uint8_t> bytes;
  const uint8_t* fanout = nullptr;
  const uint8_t* oids = nullptr;
  const uint8_t* cdat = nullptr;
  const uint8_t* gda = nullptr;  // null: no generation data
  const uint8_t* gdo = nullptr;
  uint64_t gdo_count = 0;
  const uint8_t* edges = nullptr;
  uint64_t edge_count = 0;
  const uint8_t* bidx = nullptr;  // null: no usable Bloom filters
  const uint8_t* bdat = nullptr;  // the filters, after BDAT's header
  uint64_t bdat_size = 0;
  BloomSettings bloom;
  const uint8_t* bases = nullptr;
  uint64_t base_count = 0;
  uint32_t header_bases = 0;
  uint32_t n = 0;     // commits in this layer
  uint32_t base = 0;  // commits in the layers below
  std::string checksum;

  const uint8_t* Data(uint32_t lex) const { return cdat + uint64_t{lex} * kCommitDataWidth; }
};

CommitGraph::CommitGraph() = default;
CommitGraph::~CommitGraph() = default;

std::unique_ptr<CommitGraph::Layer> CommitGraph::ParseLayer(std::string file,
                                                            std::vector<uint8_t> bytes,
                                                            std::string* why) {
  auto l = std::make_unique<Layer>();
  l->file = std::move(file);
  l->bytes = std::move(bytes);
  if (!ParseLayerInto(l.get(), why)) {
    *why = l->file + ": " + *why;
    return nullptr;
  }
  return l;
}

bool CommitGraph::ParseLayerInto(Layer* l, std::string* why) {
  const uint8_t* d = l->bytes.data();
  const uint64_t size = l->bytes.size();
  if (size < kHeaderSize + kTocEntrySize + kHashSize) {
    *why = "too small to be a commit-graph (" + std::to_string(size) + " bytes)";
    return false;
  }
  if (Be32(d) != kSignature) {
    *why = "not a commit-graph (no CGPH signature)";
    return false;
  }
  if (d[4] != kVersion) {
    *why = "commit-graph version " + std::to_string(d[4]) + " is not known (only 1 is)";
    return false;
  }
  if (d[5] != kHashVersionSha1) {
    *why = d[5] == 2 ? "written for a SHA-256 repository; only SHA-1 repositories are read"
                     : "unknown hash version " + std::to_string(d[5]);
    return false;
  }
  const uint32_t chunks = d[6];
  l->header_bases = d[7];
  const uint64_t toc_end = kHeaderSize + uint64_t{chunks + 1} * kTocEntrySize;
  const uint64_t data_end = size - kHashSize;
  if (toc_end > data_end) {
    *why = "too small to hold its table of " + std::to_string(chunks) + " chunks";
    return false;
  }
  struct Chunk {
    const uint8_t* at = nullptr;
    uint64_t size = 0;
  };
  Chunk oidf, oidl, cdat, gda2, gdo2, edge, bidx, bdat, base;
  std::set<uint32_t> seen;
  for (uint32_t i = 0; i < chunks; ++i) {
    const uint8_t* e = d + kHeaderSize + uint64_t{i} * kTocEntrySize;
    const uint32_t id = Be32(e);
    const uint64_t start = Be64(e + 4);
    const uint64_t end = Be64(e + 4 + kTocEntrySize);
    if (id == 0) {
      *why = "the chunk table ends early (a chunk id 0 at entry " + std::to_string(i) + ")";
      return false;
    }
    if (start < toc_end || start > end || end > data_end) {
      *why = "chunk " + std::to_string(i) + " lies outside the file (offsets " +
             std::to_string(start) + " to " + std::to_string(end) + ")";
      return false;
    }
    if (!seen.insert(id).second) {
      *why = "a chunk id appears twice";
      return false;
    }
    const Chunk c{d + start, end - start};
    switch (id) {
      case kChunkOidFanout:
        oidf = c;
        break;
      case kChunkOidLookup:
        oidl = c;
        break;
      case kChunkCommitData:
        cdat = c;
        break;
      case kChunkGenerationData:
        gda2 = c;
        break;
      case kChunkGenerationOverflow:
        gdo2 = c;
        break;
      case kChunkExtraEdges:
        edge = c;
        break;
      case kChunkBloomIndexes:
        bidx = c;
        break;
      case kChunkBloomData:
        bdat = c;
        break;
      case kChunkBase:
        base = c;
        break;
      default:
        break;  // chunks of later versions are passed over, as git does
    }
  }
  if (Be32(d + kHeaderSize + uint64_t{chunks} * kTocEntrySize) != 0) {
    *why = "the chunk table has no terminating entry";
    return false;
  }
  if (!oidf.at || oidf.size != kFanoutSize) {
    *why = "the OID fanout chunk (OIDF) is missing or not 1024 bytes";
    return false;
  }
  l->fanout = oidf.at;
  for (int i = 0; i < 255; ++i) {
    if (Be32(oidf.at + 4 * i) > Be32(oidf.at + 4 * (i + 1))) {
      *why = "the OID fanout is not in order";
      return false;
    }
  }
  const uint64_t n = Be32(oidf.at + 4 * 255);
  if (n >= kMaxCommits) {
    *why = "claims " + std::to_string(n) + " commits, more than a commit-graph can hold";
    return false;
  }
  l->n = static_cast<uint32_t>(n);
  if (!oidl.at || oidl.size / kHashSize != n) {
    *why = "the OID lookup chunk (OIDL) is missing or does not hold " + std::to_string(n) + " ids";
    return false;
  }
  l->oids = oidl.at;
  if (!cdat.at || cdat.size / kCommitDataWidth != n) {
    *why = "the commit data chunk (CDAT) is missing or does not hold " + std::to_string(n) +
           " commits";
    return false;
  }
  l->cdat = cdat.at;
  // Generation data of the wrong size is passed over, as git does.
  if (gda2.at && gda2.size / 4 == n) {
    l->gda = gda2.at;
    l->gdo = gdo2.at;
    l->gdo_count = gdo2.size / 8;
  }
  l->edges = edge.at;
  l->edge_count = edge.size / 4;
  l->bases = base.at;
  l->base_count = base.size / kHashSize;
  if (bidx.at && bdat.at && bidx.size / 4 == n && bdat.size >= kBloomHeaderSize) {
    BloomSettings s{Be32(bdat.at), Be32(bdat.at + 4), Be32(bdat.at + 8)};
    bool ok = (s.hash_version == 1 || s.hash_version == 2) && s.num_hashes >= 1 &&
              s.num_hashes <= kMaxBloomHashes && s.bits_per_entry >= 1;
    const uint64_t data_size = bdat.size - kBloomHeaderSize;
    uint32_t prev = 0;
    for (uint32_t i = 0; ok && i < n; ++i) {
      const uint32_t v = Be32(bidx.at + 4 * uint64_t{i});
      ok = v >= prev && v <= data_size;
      prev = v;
    }
    if (ok) {
      l->bidx = bidx.at;
      l->bdat = bdat.at + kBloomHeaderSize;
      l->bdat_size = data_size;
      l->bloom = s;
    }
  }
  // OIDs strictly ascending, each in the fanout's bucket for its first byte: Find relies on it.
  for (uint32_t i = 0; i < n; ++i) {
    const uint8_t* oid = l->oids + uint64_t{i} * kHashSize;
    if (i > 0 && std::memcmp(oid - kHashSize, oid, kHashSize) >= 0) {
      *why =
          "the OID lookup chunk is not in strictly ascending order (at " + std::to_string(i) + ")";
      return false;
    }
    const uint32_t first = oid[0];
    const uint32_t lo = first == 0 ? 0 : Be32(l->fanout + 4 * (first - 1));
    const uint32_t hi = Be32(l->fanout + 4 * first);
    if (i < lo || i >= hi) {
      *why = "the OID fanout does not agree with the OID lookup chunk";
      return false;
    }
  }
  l->checksum = Hex(d + data_end);
  return true;
}

std::shared_ptr<const CommitGraph> CommitGraph::OpenFile(const std::string& file,
                                                         std::string* problem) {
  std::string why;
  std::vector<uint8_t> bytes;
  if (!ReadWhole(file, kMaxFileBytes, &bytes, &why)) {
    if (problem) *problem = why;
    return nullptr;
  }
  std::vector<std::unique_ptr<Layer>> layers;
  if (bytes.size() >= 4 && Be32(bytes.data()) == kSignature) {
    auto l = ParseLayer(file, std::move(bytes), &why);
    if (!l) {
      if (problem) *problem = why;
      return nullptr;
    }
    if (l->header_bases != 0) {
      if (problem) *problem = file + ": names base graphs, which only a chain's layer may";
      return nullptr;
    }
    layers.push_back(std::move(l));
    return Build(std::move(layers), problem);
  }
  // A chain: one layer checksum a line, base first.
  if (bytes.size() > kMaxChainBytes) {
    if (problem) *problem = file + ": too large for a commit-graph chain";
    return nullptr;
  }
  const std::string text(bytes.begin(), bytes.end());
  std::vector<std::string> names;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(at, nl - at);
    at = nl + 1;
    git_oid oid;
    if (line.size() != GIT_OID_HEXSZ || git_oid_fromstrn(&oid, line.data(), line.size()) != 0 ||
        line.find_first_not_of("0123456789abcdef") != std::string::npos) {
      if (problem) *problem = file + ": a line is not a layer's checksum";
      return nullptr;
    }
    names.push_back(line);
  }
  if (names.empty()) {
    if (problem) *problem = file + ": the chain is empty";
    return nullptr;
  }
  if (names.size() > kMaxLayers) {
    if (problem) *problem = file + ": more than " + std::to_string(kMaxLayers) + " layers";
    return nullptr;
  }
  const std::string dir = Dirname(file);
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string layer_file = dir + "/graph-" + names[i] + ".graph";
    std::vector<uint8_t> layer_bytes;
    if (!ReadWhole(layer_file, kMaxFileBytes, &layer_bytes, &why)) {
      if (problem) *problem = file + ": layer " + std::to_string(i) + ": " + why;
      return nullptr;
    }
    auto l = ParseLayer(layer_file, std::move(layer_bytes), &why);
    if (!l) {
      if (problem) *problem = why;
      return nullptr;
    }
    // As git checks a chain: the layer's checksum is its name, and it names every layer below
    // it, in order, in its BASE chunk.
    bool matches = l->checksum == names[i] && l->base_count >= i && (i == 0 || l->bases);
    for (size_t b = 0; matches && b < i; ++b) matches = Hex(l->bases + b * kHashSize) == names[b];
    if (!matches) {
      if (problem) {
        *problem = layer_file + ": does not match the chain (its checksum or its base graphs)";
      }
      return nullptr;
    }
    layers.push_back(std::move(l));
  }
  return Build(std::move(layers), problem);
}

std::shared_ptr<const CommitGraph> CommitGraph::Open(const std::string& objects_dir,
                                                     std::string* problem) {
  const std::string single = objects_dir + "/info/commit-graph";
  const std::string chain = objects_dir + "/info/commit-graphs/commit-graph-chain";
  struct stat st;
  std::string single_problem;
  if (stat(single.c_str(), &st) == 0) {
    auto g = OpenFile(single, &single_problem);
    if (g) return g;
  }
  if (stat(chain.c_str(), &st) == 0) {
    std::string chain_problem;
    auto g = OpenFile(chain, &chain_problem);
    if (g) return g;
    if (problem) {
      *problem = single_problem.empty() ? chain_problem : single_problem + "; " + chain_problem;
    }
    return nullptr;
  }
  if (problem) {
    *problem =
        single_problem.empty() ? "no commit-graph in " + objects_dir + "/info" : single_problem;
  }
  return nullptr;
}

std::shared_ptr<const CommitGraph> CommitGraph::Build(std::vector<std::unique_ptr<Layer>> layers,
                                                      std::string* problem) {
  std::shared_ptr<CommitGraph> g(new CommitGraph());
  uint64_t total = 0;
  bool all_gda = true;
  for (auto& l : layers) {
    l->base = static_cast<uint32_t>(total);
    total += l->n;
    if (total >= kMaxCommits) {
      if (problem) *problem = l->file + ": the chain holds more commits than a graph can";
      return nullptr;
    }
    all_gda = all_gda && l->gda;
  }
  g->size_ = static_cast<uint32_t>(total);
  g->corrected_dates_ = all_gda;
  // Bloom filters whose settings differ from the topmost layer's with filters are left out,
  // as git leaves them out.
  const Layer* reference = nullptr;
  for (auto it = layers.rbegin(); it != layers.rend(); ++it) {
    Layer& l = **it;
    if (!l.bidx) continue;
    if (!reference) {
      reference = &l;
    } else if (l.bloom != reference->bloom) {
      l.bidx = nullptr;
      l.bdat = nullptr;
    }
  }
  g->bloom_version_ = reference ? reference->bloom.hash_version : 0;
  g->layers_ = std::move(layers);

  // Every parent inside the graph (and in this layer or one below, as git requires), octopus
  // lists inside EDGE, overflow positions inside GDO2, and generations falling towards the roots.
  std::vector<uint32_t> parents;
  for (const auto& lp : g->layers_) {
    const Layer& l = *lp;
    const uint64_t layer_end = uint64_t{l.base} + l.n;
    for (uint32_t lex = 0; lex < l.n; ++lex) {
      const uint32_t pos = l.base + lex;
      const uint8_t* c = l.Data(lex);
      auto bad = [&](const std::string& what) {
        if (problem) *problem = l.file + ": commit " + std::to_string(lex) + ": " + what;
        return nullptr;
      };
      if (l.gda) {
        const uint32_t off = Be32(l.gda + 4 * uint64_t{lex});
        if ((off & kGenerationOverflow) && (off & ~kGenerationOverflow) >= l.gdo_count) {
          return bad("its generation data overflow entry is missing");
        }
      }
      parents.clear();
      const uint32_t p1 = Be32(c + kHashSize);
      const uint32_t p2 = Be32(c + kHashSize + 4);
      if (p1 != kParentNone) {
        parents.push_back(p1);
        if (p2 != kParentNone && !(p2 & kExtraEdgesNeeded)) {
          parents.push_back(p2);
        } else if (p2 != kParentNone) {
          uint64_t e = p2 & kEdgeMask;
          while (true) {
            if (e >= l.edge_count) return bad("its octopus parents lie outside EDGE");
            const uint32_t v = Be32(l.edges + 4 * e);
            parents.push_back(v & kEdgeMask);
            if (v & kLastEdge) break;
            ++e;
          }
        }
      }
      for (uint32_t p : parents) {
        if (p >= layer_end) return bad("a parent's position is outside the graph");
      }
      const uint64_t gen = g->Generation(pos);
      if (gen == 0) return bad("it has no generation number (a graph from before git 2.18)");
      for (uint32_t p : parents) {
        if (g->Generation(p) >= gen) return bad("a parent's generation is not below its own");
      }
    }
  }
  for (const auto& l : g->layers_) {
    LayerInfo info;
    info.file = l->file;
    info.checksum = l->checksum;
    info.commits = l->n;
    info.generation_data = l->gda != nullptr;
    info.bloom = l->bidx != nullptr;
    if (info.bloom) info.bloom_settings = l->bloom;
    g->info_.push_back(std::move(info));
  }
  return g;
}

size_t CommitGraph::LayerOf(uint32_t pos) const {
  for (size_t i = 0; i < layers_.size(); ++i) {
    if (pos < uint64_t{layers_[i]->base} + layers_[i]->n) return i;
  }
  return layers_.empty() ? 0 : layers_.size() - 1;
}

const CommitGraph::Layer& CommitGraph::At(uint32_t pos, uint32_t* lex) const {
  const Layer& l = *layers_[LayerOf(pos)];
  *lex = pos - l.base;
  return l;
}

bool CommitGraph::Find(const git_oid& id, uint32_t* pos) const {
  const uint8_t* raw = id.id;
  for (auto it = layers_.rbegin(); it != layers_.rend(); ++it) {
    const Layer& l = **it;
    uint32_t lo = raw[0] == 0 ? 0 : Be32(l.fanout + 4 * (raw[0] - 1));
    uint32_t hi = Be32(l.fanout + 4 * raw[0]);
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      const int cmp = std::memcmp(l.oids + uint64_t{mid} * kHashSize, raw, kHashSize);
      if (cmp == 0) {
        *pos = l.base + mid;
        return true;
      }
      if (cmp < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
  }
  return false;
}

git_oid CommitGraph::Id(uint32_t pos) const {
  git_oid oid{};
  if (pos >= size_) return oid;
  uint32_t lex;
  const Layer& l = At(pos, &lex);
  git_oid_fromraw(&oid, l.oids + uint64_t{lex} * kHashSize);
  return oid;
}

git_oid CommitGraph::Tree(uint32_t pos) const {
  git_oid oid{};
  if (pos >= size_) return oid;
  uint32_t lex;
  const Layer& l = At(pos, &lex);
  git_oid_fromraw(&oid, l.Data(lex));
  return oid;
}

bool CommitGraph::Parents(uint32_t pos, std::vector<uint32_t>* out) const {
  out->clear();
  if (pos >= size_) return false;
  uint32_t lex;
  const Layer& l = At(pos, &lex);
  const uint64_t layer_end = uint64_t{l.base} + l.n;
  const uint8_t* c = l.Data(lex);
  const uint32_t p1 = Be32(c + kHashSize);
  const uint32_t p2 = Be32(c + kHashSize + 4);
  if (p1 == kParentNone) return true;
  if (p1 >= layer_end) return false;
  out->push_back(p1);
  if (p2 == kParentNone) return true;
  if (!(p2 & kExtraEdgesNeeded)) {
    if (p2 >= layer_end) return false;
    out->push_back(p2);
    return true;
  }
  for (uint64_t e = p2 & kEdgeMask; e < l.edge_count; ++e) {
    const uint32_t v = Be32(l.edges + 4 * e);
    if ((v & kEdgeMask) >= layer_end) return false;
    out->push_back(v & kEdgeMask);
    if (v & kLastEdge) return true;
  }
  out->clear();
  return false;
}

bool CommitGraph::FirstParent(uint32_t pos, uint32_t* parent) const {
  if (pos >= size_) return false;
  uint32_t lex;
  const Layer& l = At(pos, &lex);
  const uint32_t p1 = Be32(l.Data(lex) + kHashSize);
  if (p1 == kParentNone || p1 >= uint64_t{l.base} + l.n) return false;
  *parent = p1;
  return true;
}

int64_t CommitGraph::CommitTime(uint32_t pos) const {
  if (pos >= size_) return 0;
  uint32_t lex;
  const Layer& l = At(pos, &lex);
  const uint8_t* c = l.Data(lex) + kHashSize + 8;
  return static_cast<int64_t>((uint64_t{Be32(c) & 0x3} << 32) | Be32(c + 4));
}

uint32_t CommitGraph::TopoLevel(uint32_t pos) const {
  if (pos >= size_) return 0;
  uint32_t lex;
  const Layer& l = At(pos, &lex);
  return Be32(l.Data(lex) + kHashSize + 8) >> 2;
}

uint64_t CommitGraph::Generation(uint32_t pos) const {
  if (pos >= size_) return 0;
  if (!corrected_dates_) return TopoLevel(pos);
  uint32_t lex;
  const Layer& l = At(pos, &lex);
  const uint32_t off = Be32(l.gda + 4 * uint64_t{lex});
  uint64_t offset = off;
  if (off & kGenerationOverflow) {
    const uint64_t i = off & ~kGenerationOverflow;
    if (i >= l.gdo_count) return 0;
    offset = Be64(l.gdo + 8 * i);
  }
  return static_cast<uint64_t>(CommitTime(pos)) + offset;
}

uint32_t CommitGraph::Murmur3(uint32_t version, uint32_t seed, std::string_view data) {
  return graph_format::Murmur3(version, seed, data);
}

void CommitGraph::BloomHashes(uint32_t version, std::string_view path, uint32_t* hash0,
                              uint32_t* hash1) {
  *hash0 = graph_format::Murmur3(version, kBloomSeed0, path);
  *hash1 = graph_format::Murmur3(version, kBloomSeed1, path);
}

CommitGraph::PathKey CommitGraph::Key(std::string_view path) const {
  PathKey key;
  if (!bloom_version_) return key;
  key.version_ = bloom_version_;
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  if (path.empty()) return key;
  // The path, then each leading folder, as git adds them to a filter.
  size_t end = path.size();
  while (true) {
    uint32_t h0, h1;
    BloomHashes(key.version_, path.substr(0, end), &h0, &h1);
    key.hashes_.emplace_back(h0, h1);
    const size_t slash = path.rfind('/', end - 1);
    if (slash == std::string_view::npos || slash == 0) break;
    end = slash;
  }
  return key;
}

bool CommitGraph::BloomFilter(uint32_t pos, std::string_view* bytes) const {
  if (pos >= size_) return false;
  uint32_t lex;
  const Layer& l = At(pos, &lex);
  if (!l.bidx) return false;
  const uint32_t start = lex == 0 ? 0 : Be32(l.bidx + 4 * uint64_t{lex - 1});
  const uint32_t end = Be32(l.bidx + 4 * uint64_t{lex});
  *bytes = std::string_view(reinterpret_cast<const char*>(l.bdat) + start, end - start);
  return true;
}

CommitGraph::Changed CommitGraph::ChangedVsFirstParent(uint32_t pos, const PathKey& key) const {
  std::string_view filter;
  if (key.version_ != bloom_version_ || !BloomFilter(pos, &filter) || filter.empty()) {
    return Changed::kUnknown;
  }
  if (filter.size() == 1) {
    // git's two filters of one byte: nothing changed (all clear), too many changes (all set).
    if (static_cast<uint8_t>(filter[0]) == 0xff) return Changed::kUnknown;
    if (filter[0] == 0) return Changed::kNo;
  }
  uint32_t lex;
  const Layer& l = At(pos, &lex);
  const uint64_t bits = uint64_t{filter.size()} * 8;
  for (const auto& [h0, h1] : key.hashes_) {
    for (uint32_t i = 0; i < l.bloom.num_hashes; ++i) {
      const uint64_t bit = static_cast<uint32_t>(h0 + i * h1) % bits;
      if (!(static_cast<uint8_t>(filter[bit / 8]) & (1u << (bit % 8)))) return Changed::kNo;
    }
  }
  return Changed::kMaybe;
}

}  // namespace rr
