// read_guidance: the guidance a repository carries for agents (core/guidance/guidance.h), read on
// its default branch whatever ref an agent reads. Without `name`, everything in force — for the
// whole repository, then for some paths, each with its scope — then the skills, each with the
// call that reads it; with `name`, one piece in full (or a file of a skill).
//
// Also here, for the tools that show guidance in their own answers: GuidanceSummary
// (list_repos' line) and GuidanceMark (the repository headings of search, find_files and
// find_commits, which are about many repositories).
#pragma once

#include <optional>
#include <string>

#include "core/served/served_repo.h"
#include "core/tools/tool.h"

namespace rr {

inline constexpr const char* kReadGuidanceTool = "read_guidance";

class ReadGuidanceTool : public Tool {
 public:
  const ToolSpec& spec() const override;
  Result<Draft> Call(const CallContext& ctx, const Args& args) const override;
};

// "AGENTS.md, .claude/rules/pricing.md, skill refund-flow" (a few names, then how many more),
// or "" when the repository carries none (or it cannot be read now).
std::string GuidanceSummary(const ServedRepo& repo, const StopToken& stop);

// " · carries guidance for agents — read_guidance {"repo":"shop"} reads it" for a repository
// heading, or "" when the repository carries none. `head`: the commit the caller resolved the
// default branch at, when it did (GuidanceOf then opens the repository only for a commit whose
// guidance it has not found yet).
std::string GuidanceMark(const ServedRepo& repo, const StopToken& stop,
                         const std::optional<CommitId>& head = std::nullopt);

}  // namespace rr
