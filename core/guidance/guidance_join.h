// Joining guidance to answers: the one place a repository's guidance for agents
// (core/guidance/guidance.h) meets a tool's answer. The server calls JoinGuidance on every tool's
// draft before the answer pipeline finishes it, with the call's target (core/served/call_target.h,
// resolved once from the arguments) and the way the tool's spec says guidance joins its answers
// (GuidanceWay), so a tool — one added later too — gets it without doing anything:
//   - the target's repository (named by `repo`, or the only one served for a tool that takes
//     `repo`): when it carries guidance, the answer's first line says so and names the call that
//     reads it (the tool whose spec says it reads guidance, with {"repo":"shop"});
//   - the target's paths (`path`, and each path of `paths`): every scoped rule in force for one
//     of them (a folder's AGENTS.md, a rule whose globs match) is carried whole, each under its
//     `=== Guidance for <paths>: <name> (<scope>) ===`, before the answer; the pipeline keeps
//     them within half of the answer and names what it leaves out (pipeline.h).
// Tools about many repositories mark their repository headings instead
// (GuidanceWay::kMarksHeadings); the tool that reads guidance (GuidanceWay::kReads) gets nothing
// more. A tool's error carries no guidance.
//
// The guidance is always the default branch's, whatever ref the call read: a branch cannot
// change what an agent is told. Cost: GuidanceOf's lookup (a HEAD read per source) and the
// rules' lines; the tree is walked once per default-branch commit.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/answer/pipeline.h"
#include "core/served/call_target.h"
#include "core/util/stop.h"

namespace rr {

// How guidance joins a tool's answers: a trait its spec declares (core/tools/tool.h).
enum class GuidanceWay {
  // The repository's first line, and the rules in force for the target's paths (the default).
  kByPaths,
  // A tool about many repositories: it marks its repository headings itself; the first line
  // only when `repo` named one repository.
  kMarksHeadings,
  // The tool that reads guidance: its answers carry nothing more, and the
  // join's lines name it as the call that reads the rest.
  kReads,
  // Nothing joined.
  kNone,
};

// What the join reads of the call: the way its tool's spec declares, and the name of the tool
// whose way is kReads (the server finds it among its tools; empty: none, and nothing is joined).
struct GuidanceJoin {
  GuidanceWay way = GuidanceWay::kByPaths;
  std::string reading_tool;
};

// Fills draft's guidance fields for a call of a tool that joins guidance `how`, whose arguments
// resolved to `target`. Never fails: guidance that cannot be read now is said so on the first
// line, with the call that tries again.
void JoinGuidance(const CallTarget& target, const GuidanceJoin& how, const StopToken& stop,
                  Draft* draft);

// A file's text as lines to show (DisplayText; a "\r\n" line end is one line end): add(shown,
// read_as) for each line in order, `read_as` being what the secret filter must read for it when
// that differs from what is shown (else "").
void ForEachShownLine(std::string_view text,
                      const std::function<void(std::string shown, std::string read_as)>& add);
// The same lines appended to `d` (Draft::AddLine).
void AppendTextLines(std::string_view text, Draft* d);

// The call of `tool` (the one that reads guidance) for `repo`: `<tool> {"repo":"shop"}`, or
// with a name `<tool> {"repo":"shop","name":"refund-flow"}`.
std::string ReadGuidanceCall(const std::string& tool, const std::string& repo,
                             const std::string& name = "");

}  // namespace rr
