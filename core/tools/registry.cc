#include "core/tools/about.h"
#include "core/tools/blame.h"
#include "core/tools/diff.h"
#include "core/tools/find_commits.h"
#include "core/tools/find_files.h"
#include "core/tools/grep.h"
#include "core/tools/list_files.h"
#include "core/tools/list_refs.h"
#include "core/tools/list_repos.h"
#include "core/tools/log.h"
#include "core/tools/overview.h"
#include "core/tools/read_file.h"
#include "core/tools/read_guidance.h"
#include "core/tools/search.h"
#include "core/tools/show_commit.h"

namespace rr {

std::vector<std::unique_ptr<const Tool>> BuiltinTools() { return BuiltinTools(nullptr); }

std::vector<std::unique_ptr<const Tool>> BuiltinTools(std::shared_ptr<EntryFiller> entry_filler) {
  std::vector<std::unique_ptr<const Tool>> tools;
  tools.push_back(std::make_unique<AboutTool>());
  tools.push_back(std::make_unique<ListReposTool>(std::move(entry_filler)));
  tools.push_back(std::make_unique<ListRefsTool>());
  tools.push_back(std::make_unique<ReadFileTool>());
  tools.push_back(std::make_unique<ListFilesTool>());
  tools.push_back(std::make_unique<OverviewTool>());
  tools.push_back(std::make_unique<LogTool>());
  tools.push_back(std::make_unique<ShowCommitTool>());
  tools.push_back(std::make_unique<DiffTool>());
  tools.push_back(std::make_unique<BlameTool>());
  tools.push_back(std::make_unique<SearchTool>());
  tools.push_back(std::make_unique<GrepTool>());
  tools.push_back(std::make_unique<ReadGuidanceTool>());
  tools.push_back(std::make_unique<FindCommitsTool>());
  tools.push_back(std::make_unique<FindFilesTool>());
  return tools;
}

}  // namespace rr
