// The commit-graph reader (core/git/commit_graph.h) on one graph file, as a repository's
// objects/info/commit-graph: CommitGraph::OpenFile, then every accessor on every position (up to
// 256): ids (and Find of each), trees, parents, generations, Bloom filters for a few paths.
#include <git2.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/git/commit_graph.h"
#include "fuzz_util.h"
#include "graph_walk.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = rr_fuzz::ScratchDir() + "/commit-graph";
  rr_fuzz::WriteFile(path, std::string_view(reinterpret_cast<const char*>(data), size));
  std::string problem;
  if (auto graph = rr::CommitGraph::OpenFile(path, &problem)) rr_fuzz::WalkGraph(*graph);
  rr_fuzz::RemoveFiles({path});
  return 0;
}
