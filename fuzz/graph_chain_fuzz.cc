// A split commit-graph chain, as a repository's objects/info/commit-graphs/ holds it and as the
// server's own history index is kept (HistoryIndex::Open reads its folder's commit-graph-chain
// with CommitGraph::OpenFile): up to 4 layers, length-prefixed in the input. The chain file names
// each layer by its trailing checksum (as a chain must), base first; with flag 1 the chain file's
// text is taken from the input as well (length-prefixed, before the layers).
#include <cstdint>
#include <string>
#include <vector>

#include "core/git/commit_graph.h"
#include "fuzz_util.h"
#include "graph_walk.h"

namespace {

std::string Hex(std::string_view bytes) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rr_fuzz::Input in(data, size);
  const uint8_t flags = in.Byte();
  const std::string_view given_chain = (flags & 1) ? in.Part(4096) : std::string_view();
  const int layers = 1 + in.Byte() % 4;
  static const std::string dir = [] {
    const std::string d = rr_fuzz::ScratchDir() + "/commit-graphs";
    rr_fuzz::MakeDir(d);
    return d;
  }();
  std::vector<std::string> files;
  std::string chain;
  for (int i = 0; i < layers; ++i) {
    const std::string_view layer = i + 1 == layers ? in.Rest() : in.Part(1 << 20);
    const std::string name =
        layer.size() >= 20 ? Hex(layer.substr(layer.size() - 20)) : std::string(40, '0');
    chain += name + "\n";
    const std::string file = dir + "/graph-" + name + ".graph";
    rr_fuzz::WriteFile(file, layer);
    files.push_back(file);
  }
  const std::string chain_file = dir + "/commit-graph-chain";
  rr_fuzz::WriteFile(chain_file, (flags & 1) ? given_chain : std::string_view(chain));
  files.push_back(chain_file);
  std::string problem;
  if (auto graph = rr::CommitGraph::OpenFile(chain_file, &problem)) rr_fuzz::WalkGraph(*graph);
  rr_fuzz::RemoveFiles(files);
  return 0;
}
