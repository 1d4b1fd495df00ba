#include "core/tools/about.h"

#include "core/index/text_indexer.h"
#include "core/util/text.h"
#include "core/version.h"

namespace rr {

std::shared_ptr<const ServerFacts> FactsOf(const Plugins& plugins) {
  auto facts = std::make_shared<ServerFacts>();
  facts->secret_filter = DescribeSecretFilter(plugins);
  for (const auto& p : plugins.loaded) {
    facts->plugins.push_back(p.name + " " + p.version +
                             (p.description.empty() ? "" : " — " + p.description));
  }
  return facts;
}

const ToolSpec& AboutTool::spec() const {
  static const ToolSpec s{
      "about",
      "About this server",
      "What this server is, its version and status, and how many repositories it serves. Call it "
      "to check the connection. Read-only: it never changes a repository.",
      {}};
  return s;
}

Result<Draft> AboutTool::Call(const CallContext& ctx, const Args&) const {
  Draft d;
  d.header = std::string(kServerName) + " " + kServerVersion;
  const size_t listed = ctx.catalog->listed().size();
  d.lines = {
      "A read-only MCP server: agents read git repositories' files, folders, refs and history at "
      "any branch, tag or commit.",
      "status: ok",
      "read_only: true",
      "repositories: " + WithCommas(listed),
      "Begin with list_repos, and overview for a repository's map; then list_files and "
      "read_file (any ref), list_refs for branches and tags; search, grep and find_files to "
      "find text and files; log, show_commit, diff, blame and find_commits for history; "
      "read_guidance for a repository's guidance for agents.",
  };
  // How much of what search reads the text index holds (docs/performance.md); it only ever
  // makes a search faster, never changes an answer.
  const TextIndexStats text = CurrentTextIndexStats();
  if (text.off || (text.passes > 0 && text.repositories == 0)) {
    d.lines.push_back("text index: off (no cache folder); search reads every file");
  } else if (text.passes > 0 || text.indexed > 0) {
    d.lines.push_back("text index: " + WithCommas(text.indexed) + " of " +
                      WithCommas(text.repositories) + " repositories' default branches (" +
                      WithCommas(text.text_bytes / 1000000) + " MB of text in " +
                      WithCommas(text.index_bytes / 1000000) + " MB)");
  } else {
    d.lines.push_back("text index: being built; search reads every file until it is");
  }
  if (ctx.facts) {
    d.lines.push_back(ctx.facts->secret_filter);
    for (const auto& p : ctx.facts->plugins) d.lines.push_back("plugin: " + p);
  }
  return d;
}

}  // namespace rr
