#include "core/tools/diff.h"

#include "core/tools/changes.h"
#include "core/tools/common.h"
#include "core/util/text.h"

namespace rr {
namespace {

// "main @ 14a4c0422ae3 (2026-03-01)"
std::string Point(const ReadPoint& p) {
  return DisplayName(p.label) + " @ " + p.commit.id.Short() + " (" +
         ShortDate(p.commit.time, p.commit.offset) + ")";
}

}  // namespace

const ToolSpec& DiffTool::spec() const {
  static const ToolSpec s{
      "diff",
      "Compare two refs",
      "The difference between two refs, as the files changed — A added, M modified, D deleted, "
      "T type changed — with lines added and removed, then the diff. Names both refs with their "
      "commits. With since_fork, compares from where head forked off base (their merge base): "
      "only what head changed, what a pull request shows. Renames show as a deletion and an "
      "addition; changed files this server doesn't serve are counted, never named. A diff "
      "longer than the answer is cut: narrow it with path, or ask for files_only.",
      {RepoArg(),
       {"base", ArgType::kString,
        "The ref to compare from: a branch, tag or commit id (main, v1.2.0, a1b2c3d, main~3).",
        true},
       {"head", ArgType::kString,
        "The ref to compare to. Default: the repository's default branch.", false},
       ChangesPathArg(),
       {"since_fork", ArgType::kBoolean,
        "true: compare from where head forked off base (their merge base) — only what head "
        "changed, what a pull request shows. Default false: the two refs as they are.",
        false},
       FilesOnlyArg()},
      [] {
        ToolTraits t;
        t.link = LinkKind::kCompare;
        t.refs = {"base", "head"};
        // Judged before any ref is looked up: the answer about an excluded path never depends
        // on what the repository holds.
        t.path_outside_first = true;
        return t;
      }()};
  return s;
}

Result<Draft> DiffTool::Call(const CallContext& ctx, const Args& args) const {
  const CallTarget& t = *ctx.target;
  const RepoPath& path = t.path;
  const std::optional<ReadPoint>& base = t.base;
  const std::optional<ReadPoint>& head = t.at;
  ChangeReader changes(*t.reader);

  Draft d;
  ChangesAsked asked;
  asked.before = base->commit.id;
  asked.after = head->commit.id;
  asked.under = path;
  asked.files_only = args.Boolean("files_only", false);
  if (args.Boolean("since_fork", false)) {
    auto fork = changes.MergeBase(base->commit.id, head->commit.id, ctx.stop);
    if (!fork) return Error{fork.error()};
    if (!*fork) {
      return Error{"`" + DisplayName(base->label) + "` and `" + DisplayName(head->label) +
                   "` share no history: they have no merge base to compare from. Compare them "
                   "as they are: leave since_fork out"};
    }
    asked.before = (*fork)->id;
    d.lines.push_back("merge base: " + (*fork)->id.Short() + " (" +
                      ShortDate((*fork)->time, (*fork)->offset) +
                      ") — shown: what head changed since it forked off base");
    d.lines.push_back("");
  }
  size_t changed = 0;
  if (Status st = WriteChanges(ctx, changes, asked, &d, &changed); !st) return Error{st.error()};
  d.header = t.repo->name() + " · " + Point(*base) + " → " + Point(*head) +
             (path.is_root() ? std::string() : " · " + path.Display()) + " — " +
             Plural(changed, "changed file", "changed files");
  return d;
}

}  // namespace rr
