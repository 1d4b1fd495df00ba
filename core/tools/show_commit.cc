#include "core/tools/show_commit.h"

#include <cstdio>
#include <ctime>

#include "core/tools/changes.h"
#include "core/tools/common.h"
#include "core/util/text.h"

namespace rr {
namespace {

// "2026-01-02 12:00:00 +0100": the time as its author's clock showed it, and that clock's offset.
std::string DateTime(int64_t seconds, int offset_minutes) {
  const time_t t = static_cast<time_t>(seconds + int64_t{offset_minutes} * 60);
  struct tm tm {};
  gmtime_r(&t, &tm);
  const int off = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d %c%02d%02d", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                offset_minutes < 0 ? '-' : '+', off / 60, off % 60);
  return buf;
}

std::string Person(const Signature& s) {
  return DisplayName(s.name) + " <" + DisplayName(s.email) + "> " + DateTime(s.time, s.offset);
}

bool SameSignature(const Signature& a, const Signature& b) {
  return a.name == b.name && a.email == b.email && a.time == b.time && a.offset == b.offset;
}

}  // namespace

const ToolSpec& ShowCommitTool::spec() const {
  static const ToolSpec s{
      "show_commit",
      "Show a commit",
      "One commit: its id, author and date, who committed it and when (when that differs), its "
      "parents and its whole message; the files it changed — A added, M modified, D deleted, T "
      "type changed — with lines added and removed; then the diff. A merge is shown against its "
      "first parent (what it brought into the branch), the first commit as adding everything, a "
      "rename as a deletion and an addition. Changed files this server doesn't serve are "
      "counted, never named. A diff longer than the answer is cut: narrow it with path, or ask "
      "for files_only.",
      {RepoArg(),
       {"commit", ArgType::kString,
        "The commit: its id (at least 7 hex digits), or any ref, for the commit it points at: "
        "a1b2c3d, main, v1.2.0, main~3.",
        true},
       ChangesPathArg(),
       FilesOnlyArg()},
      [] {
        ToolTraits t;
        t.link = LinkKind::kCommit;
        t.refs = {"commit"};
        // Judged before the commit is even looked up: the answer about an excluded path never
        // depends on what the repository holds.
        t.path_outside_first = true;
        return t;
      }()};
  return s;
}

Result<Draft> ShowCommitTool::Call(const CallContext& ctx, const Args& args) const {
  const CallTarget& t = *ctx.target;
  const RepoPath& path = t.path;
  const std::optional<ReadPoint>& at = t.at;
  ChangeReader changes(*t.reader);
  auto commit = changes.Details(at->commit.id);
  if (!commit) return Error{commit.error()};

  Draft d;
  d.lines.push_back("commit " + commit->id.Hex());
  d.lines.push_back("Author: " + Person(commit->author));
  if (!SameSignature(commit->author, commit->committer)) {
    d.lines.push_back("Committer: " + Person(commit->committer));
  }
  const auto& parents = commit->parents;
  std::string p = "Parents: ";
  if (parents.empty()) {
    p += "none — the first commit, shown as adding everything it holds";
  } else {
    for (size_t i = 0; i < parents.size(); ++i) p += (i ? ", " : "") + parents[i].Short();
    if (parents.size() > 1) {
      p += " — a merge, shown against its first parent " + parents[0].Short() +
           " (what it brought in)";
    }
  }
  d.lines.push_back(std::move(p));
  d.lines.push_back("");
  // The whole message, indented as git shows it; written by others, so shown as file text is.
  std::string_view message = commit->message;
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
    message.remove_suffix(1);
  }
  if (message.empty()) d.lines.push_back("    (no message)");
  // Kept while well under what the cap could show, as the changes are (changes.h): a message
  // of millions of lines is not held as lines.
  const size_t keep = ctx.answer_characters * 2 + 4096;
  size_t kept = 0;
  while (!message.empty()) {
    const size_t nl = message.find('\n');
    if (kept > keep) {
      d.lines.push_back("    [the rest of the message is not shown: it is longer than the answer]");
      break;
    }
    AddShownLine("    ", message.substr(0, nl), &d);
    kept += CodePoints(d.lines.back()) + 1;
    message = nl == std::string_view::npos ? std::string_view() : message.substr(nl + 1);
  }
  d.lines.push_back("");

  ChangesAsked asked;
  if (!parents.empty()) asked.before = parents[0];
  asked.after = commit->id;
  asked.under = path;
  asked.files_only = args.Boolean("files_only", false);
  size_t changed = 0;
  if (Status st = WriteChanges(ctx, changes, asked, &d, &changed); !st) return Error{st.error()};
  d.header = at->Where(t.repo->name()) + (path.is_root() ? std::string() : " · " + path.Display()) +
             " — " + Plural(changed, "changed file", "changed files");
  return d;
}

}  // namespace rr
