// Joining guidance to answers: the one place a repository's guidance for agents
// (core/guidance/guidance.h) meets a tool's answer. The server calls JoinGuidance on every tool's
// draft before the answer pipeline finishes it, so every tool — those added later too — gets it
// from its arguments alone, never by its own doing:
//   - `repo` (or, for a tool that takes `repo`, the only repository served when it is left out):
//     when that repository carries guidance, the answer's first line says so and names the call
//     that reads it (read_guidance {"repo":"shop"});
//   - `path`, and each path of `paths` (an array of strings): every scoped rule in force for one
//     of them (a folder's AGENTS.md, a rule whose globs match) is carried whole, each under its
//     `=== Guidance for <paths>: <name> (<scope>) ===`, before the answer; the pipeline keeps
//     them within half of the answer and names what it leaves out (pipeline.h).
// Tools about many repositories (search, find_files, find_commits: no `repo`) mark their
// repository headings instead (GuidanceMark, core/tools/read_guidance.h); read_guidance's own
// answers carry nothing more. A tool's error carries no guidance.
//
// The guidance is always the default branch's, whatever ref the call read: a branch cannot
// change what an agent is told. Cost: GuidanceOf's lookup (a HEAD read per source) and the
// rules' lines; the tree is walked once per default-branch commit.
#pragma once

#include <Poco/JSON/Object.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/answer/pipeline.h"
#include "core/served/catalog.h"
#include "core/util/stop.h"

namespace rr {

inline constexpr const char* kReadGuidanceTool = "read_guidance";

// What the join reads of the tool called: its name and whether it takes `repo` and `repos`
// (the server fills it from the tool's spec, so that guidance needs nothing of the tools).
struct GuidanceCall {
  std::string tool;
  bool takes_repo = false;
  bool takes_repos = false;
};

// Fills draft's guidance fields for a call of `tool` with `arguments` (already checked against
// its spec; may be null). Never fails: guidance that cannot be read now is said so on the first
// line, with the call that tries again.
void JoinGuidance(const Catalog& catalog, const GuidanceCall& tool,
                  const Poco::JSON::Object::Ptr& arguments, const StopToken& stop, Draft* draft);

// A file's text as lines to show (DisplayText; a "\r\n" line end is one line end), appended to
// `lines`; each line whose shown form differs from what the secret filter must read gets a
// ScanAs in `scan`, numbered from lines->size() as it was.
void AppendTextLines(std::string_view text, std::vector<std::string>* lines,
                     std::vector<Draft::ScanAs>* scan);

// `read_guidance {"repo":"shop"}`, or with a name `{"repo":"shop","name":"refund-flow"}`.
std::string ReadGuidanceCall(const std::string& repo, const std::string& name = "");

}  // namespace rr
