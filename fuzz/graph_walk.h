// Every accessor of an opened CommitGraph on its positions (up to 256), for the graph targets.
// An opened graph promises that following parents always ends (a parent's generation is smaller
// than its child's): checked here.
#pragma once

#include <git2.h>

#include <algorithm>
#include <vector>

#include "core/git/commit_graph.h"

namespace rr_fuzz {

inline void WalkGraph(const rr::CommitGraph& g) {
  const uint32_t n = std::min<uint32_t>(g.size(), 256);
  const rr::CommitGraph::PathKey keys[] = {g.Key("a"), g.Key("src/main.c"), g.Key("/x/y/z/")};
  std::vector<uint32_t> parents;
  for (uint32_t pos = 0; pos < n; ++pos) {
    const git_oid id = g.Id(pos);
    uint32_t found = 0;
    if (!g.Find(id, &found) || found != pos) __builtin_trap();
    (void)g.Tree(pos);
    (void)g.CommitTime(pos);
    (void)g.TopoLevel(pos);
    const uint64_t gen = g.Generation(pos);
    if (g.Parents(pos, &parents)) {
      for (uint32_t p : parents) {
        if (p >= g.size() || g.Generation(p) >= gen) __builtin_trap();
      }
    }
    uint32_t first = 0;
    (void)g.FirstParent(pos, &first);
    for (const auto& k : keys) (void)g.ChangedVsFirstParent(pos, k);
    std::string_view filter;
    (void)g.BloomFilter(pos, &filter);
    (void)g.LayerOf(pos);
  }
  // Past the end: zeros and false, never a read outside.
  (void)g.Id(g.size());
  (void)g.Parents(g.size(), &parents);
}

}  // namespace rr_fuzz
