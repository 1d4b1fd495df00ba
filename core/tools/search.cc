#include "core/tools/search.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <mutex>

#include "core/index/repo_text_index.h"
#include "core/index/text_store.h"
#include "core/search/content_memo.h"
#include "core/search/text_search.h"
#include "core/served/known_default.h"
#include "core/tools/common.h"
#include "core/tools/file_lines.h"
#include "core/tools/first_few.h"
#include "core/tools/read_guidance.h"
#include "core/tools/text_hits.h"
#include "core/util/text.h"

namespace rr {
namespace {

constexpr size_t kMaxPerFile = 5;
// Repositories that could not be searched named in place, with why; the rest in one note.
constexpr size_t kFailuresInPlace = 5;

// What a search across repositories searches: each repository's default branch and the path
// there (its target), the repositories without the path and those that failed.
struct SearchTargets {
  std::vector<SearchTarget> targets;
  std::vector<size_t> target_of;  // per repository: its target, SIZE_MAX for none
  // Per repository: why it could not be searched, or "". A repository reached with neither a
  // target nor a failure is one where `path` is not a served folder or file.
  std::vector<std::string> failed;
  size_t reached = 0;  // repositories opened before the call's time ran out
  // What they are kept by (KeepTargets): the path, the repositories (weakly: an entry of a
  // repository since gone is never used) and RefsWatch::Reported() before they were found.
  RepoPath path = RepoPath::Root();
  std::vector<std::weak_ptr<const ServedRepo>> repos;
  uint64_t reported = 0;
  // Their text indexes as the last search over them found them (SearchResult::indexes), under
  // kept_targets_mu.
  mutable std::shared_ptr<const TargetIndexes> indexes;
};

// The last searches' targets, kept while the watch reports no change: over 20,000 repositories,
// finding each one's kept default branch (KnownDefault: its slot, its entry, its ticket, a
// copy of where it is) was 18-22 ms of every search, on one thread, before anything was
// searched. Kept only when every repository's answer was vouched for by the watch (a repository
// stamped instead is looked at again by every search), none failed and none was left unreached.
// The last few sets, most recent first (kKeptTargetSets): an agent's searches under a folder
// between searches of the whole organisation then leave the whole's set (and its indexes) kept,
// not made again by the next one (~30 ms over 20,000 repositories). Each holds about 256 bytes
// a repository (its target, its place, its index): about 5 MB over 20,000, 20 MB at most.
constexpr size_t kKeptTargetSets = 4;
std::mutex kept_targets_mu;
std::deque<std::shared_ptr<const SearchTargets>> kept_targets;

// The same repositories, in the same order: compared by their control blocks, which a weak
// reference keeps (an address a repository since gone had is never taken for its own).
template <typename A, typename B>
bool SameRepos(const std::vector<A>& a, const std::vector<B>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].owner_before(b[i]) || b[i].owner_before(a[i])) return false;
  }
  return true;
}

// Keeps `t` first; a set for the same path and repositories, or past kKeptTargetSets, goes.
void KeepTargets(std::shared_ptr<const SearchTargets> t) {
  std::lock_guard<std::mutex> lock(kept_targets_mu);
  // (Sets found before the last change are of no use any more: `reported` moved past them.)
  kept_targets.erase(std::remove_if(kept_targets.begin(), kept_targets.end(),
                                    [&](const std::shared_ptr<const SearchTargets>& k) {
                                      return k->reported != t->reported ||
                                             (k->path == t->path && SameRepos(k->repos, t->repos));
                                    }),
                     kept_targets.end());
  kept_targets.push_front(std::move(t));
  if (kept_targets.size() > kKeptTargetSets) kept_targets.pop_back();
}

// The kept targets of `repos` and `path` when no change was reported since they were found
// (`reported` is RefsWatch::Reported() after this call's Catch); else null.
std::shared_ptr<const SearchTargets> KeptTargets(
    const std::vector<std::shared_ptr<const ServedRepo>>& repos, const RepoPath& path,
    uint64_t reported) {
  std::vector<std::shared_ptr<const SearchTargets>> sets;
  {
    std::lock_guard<std::mutex> lock(kept_targets_mu);
    sets.assign(kept_targets.begin(), kept_targets.end());
  }
  for (const auto& t : sets) {
    if (t->reported == reported && t->path == path && SameRepos(t->repos, repos)) return t;
  }
  return nullptr;
}

}  // namespace

const ToolSpec& SearchTool::spec() const {
  static const ToolSpec s = [] {
    ToolSpec t{"search",
               "Search text across repositories",
               "Text across repositories at once, on each one's default branch: every matching "
               "line with its repository, file and line number — at most 5 lines a file, so an "
               "answer surveys many files. Binary files are skipped; files include / exclude "
               "keep out are never searched. A line holding a value that looks like a secret is "
               "shown hidden, and a match is kept only where the plain text lies outside it "
               "(with regex, such a line never matches). To read around a match, call "
               "read_file with its start_line; for another ref, or lines of context, use grep.",
               {}};
    auto pattern = PatternArgs();
    t.args.push_back(pattern[0]);
    t.args.push_back(ReposArg());
    t.args.push_back(
        PathArg("Only under this folder, or in this file, of each repository.", false));
    t.args.push_back(pattern[1]);
    t.args.push_back(pattern[2]);
    t.traits.guidance = GuidanceWay::kMarksHeadings;
    t.traits.check_first = CheckPattern;
    return t;
  }();
  return s;
}

Result<Draft> SearchTool::Call(const CallContext& ctx, const Args& args) const {
  auto pattern = PatternOf(args);
  if (!pattern) return Error{pattern.error()};
  const RepoPath& path = ctx.target->path;
  const std::vector<std::shared_ptr<const ServedRepo>>& repos = ctx.target->repos;

  // Each repository's default branch and the path there, on this thread; a repository that
  // fails here is reported in its place. Progress counts the repositories opened, then goes on
  // counting the files searched past them, so that it only ever grows.
  const size_t n = repos.size();
  // What the kernel reported moving among the watched refs: every move made before this call is
  // seen by KnownDefault below, and by the targets kept from the last search.
  RefsWatch::Shared().Catch();
  const uint64_t reported = RefsWatch::Shared().Reported();
  std::shared_ptr<const SearchTargets> kept = KeptTargets(repos, path, reported);
  std::shared_ptr<SearchTargets> made;
  if (!kept) {
    made = std::make_shared<SearchTargets>();
    made->path = path;
    made->reported = reported;
    made->failed.resize(n);
    made->target_of.assign(n, SIZE_MAX);
    made->reached = n;
    made->targets.reserve(n);
  }
  // Every repository's answer vouched for by the watch: the targets can be kept.
  bool keepable = true;
  TextStoresLookedAt stores;
  for (size_t i = 0; made && i < n; ++i) {
    std::vector<std::string>& failed = made->failed;
    size_t& reached = made->reached;
    if (ctx.stop.stopped()) {
      reached = i;
      break;
    }
    if (i > 0 && i % 64 == 0) {
      ctx.Progress(i, std::nullopt,
                   WithCommas(i) + " of " + WithCommas(n) + " repositories opened");
    }
    // A repository whose opening the call's time cut short is one not reached, not a failure
    // (nor one without `path`).
    auto cut_short = [&] {
      if (!ctx.stop.stopped()) return false;
      reached = i;
      return true;
    };
    // Where its default branch was last found, while its refs have not moved (a few stat
    // calls): the repository is not opened. Else it is opened and resolved, and that kept.
    bool watched = false;
    std::shared_ptr<const KnownPath> known = KnownDefault(repos[i], path, &watched);
    // Another path than the root, first asked: found among the paths of the text index of the
    // kept default branch, without opening the repository (over 20,000 repositories, opening
    // each one took seconds the first time a path was asked).
    bool listed = false;
    if (!known && !path.is_root() && n > 1) {
      known = ListedDefault(repos[i], path, &stores);
      watched = watched || known != nullptr;
      listed = known != nullptr;
    }
    if (!known) {
      auto reader = repos[i]->Open();
      if (!reader) {
        if (cut_short()) break;
        failed[i] = reader.error();
        keepable = false;
        continue;
      }
      const RefsPlace place = reader->Place();
      std::shared_ptr<const RefsWatch::Ticket> ticket = RefsWatch::Shared().Watch(place);
      watched = ticket != nullptr;
      const RefsStamp before = RefsStamp::TakeOfHead(place);
      auto at = reader->At(std::nullopt);
      if (!at) {
        if (cut_short()) break;
        failed[i] = at.error();
        keepable = false;
        continue;
      }
      auto node = reader->Find(*at, path, ctx.stop);
      if (!node && cut_short()) break;
      KeepDefault(repos[i], place, std::move(ticket), before, *at, path, node);
      known = KnownPath::Of(*at, node);
    }
    keepable = keepable && watched;
    if (!known->found) {
      // Not there in this repository (or outside what it serves): nothing to search in it.
      if (repos.size() == 1) return Error{known->error.str()};
      continue;
    }
    if (known->node.kind != EntryKind::kFolder && known->node.kind != EntryKind::kFile) {
      continue;
    }
    made->target_of[i] = made->targets.size();
    made->targets.push_back(SearchTarget{repos[i].get(), known->At(), known->node, listed});
  }
  if (made && made->reached == n && keepable && n > 1) {
    made->repos.reserve(n);
    for (const auto& r : repos) made->repos.push_back(r);
    KeepTargets(made);
  }
  const SearchTargets& planned = kept ? *kept : *made;
  const std::vector<SearchTarget>& targets = planned.targets;
  const std::vector<size_t>& target_of = planned.target_of;
  const std::vector<std::string>& failed = planned.failed;
  const size_t reached = planned.reached;

  SearchOptions options;
  options.max_per_file = kMaxPerFile;
  // The files kept are those the answer can show: each at least as many characters as its
  // lines show as at the narrowest (LeastFileLineCost), and the answer stops past its limit.
  options.keep_shown = ctx.answer_characters;
  options.least_shown = [](const FileHits& f) {
    size_t least = 1;  // its path's line
    for (const ShownLine& l : f.lines) least += LeastFileLineCost(l.text, 0);
    return least;
  };
  {
    std::lock_guard<std::mutex> lock(kept_targets_mu);
    options.indexes = planned.indexes;
  }
  // Over several repositories, each gets at most a third of the call's time, so that one huge
  // repository cannot keep the others from being searched.
  if (targets.size() > 1 && ctx.stop.budget().count() > 0) {
    options.per_target =
        std::chrono::duration_cast<std::chrono::milliseconds>(ctx.stop.budget() / 3);
  }
  options.progress = [&ctx, n](size_t searched, std::optional<size_t> total) {
    ctx.Progress(n + searched, total ? std::optional<uint64_t>(n + *total) : std::nullopt,
                 total ? WithCommas(searched) + " of " + WithCommas(*total) + " files searched"
                       : WithCommas(searched) + " files searched (more being listed)");
  };
  // What contents came to in the last search with this pattern and filter (ContentMemoShelf):
  // a content read then is not read again. Over one repository no memo is used.
  std::string memo_key;
  if (targets.size() > 1) {
    memo_key = pattern->text() + '\0' + (pattern->regex() ? 'r' : '-') +
               (pattern->ignore_case() ? 'i' : '-') + std::to_string(options.max_per_file) + '/' +
               std::to_string(options.context) + (options.files_only ? 'f' : '-');
    options.memo = ContentMemoShelf::Shared().Take(memo_key, ctx.secrets);
  }
  SearchResult found = SearchText(targets, *pattern, ctx.secrets.get(), options, ctx.stop);
  if (options.memo) {
    ContentMemoShelf::Shared().Put(memo_key, std::move(options.memo), ctx.secrets);
  }
  if (found.indexes) {
    std::lock_guard<std::mutex> lock(kept_targets_mu);
    planned.indexes = std::move(found.indexes);
  }
  if (!found.filter_failure.empty()) {
    Draft withheld;
    withheld.withheld = found.filter_failure;
    return withheld;
  }

  // The files of each target, in order.
  std::vector<std::vector<const FileHits*>> by_target(targets.size());
  size_t lines = 0, files = 0, with = 0;
  for (const auto& f : found.files) by_target[f.target].push_back(&f);
  for (const auto& report : found.targets) {
    lines += report.matched_lines;
    files += report.matched_files;
    with += report.matched_files > 0;
  }

  Draft d;
  d.header = DescribePattern(args) + " in " + Plural(repos.size(), "repository", "repositories") +
             (repos.size() == 1 ? " (its default branch)" : " (their default branches)");
  if (!path.is_root()) d.header += ", under " + path.Display();
  d.header += ": " + Plural(lines, "line", "lines") + " in " + Plural(files, "file", "files") +
              " of " + Plural(with, "repository", "repositories") + " — at most 5 lines a file.";
  const size_t width = NumberWidth(found.files);
  StartHits(width, "", &d);
  size_t budget = 0, failures = 0;
  FirstFew partial, out_of_time;  // "name (searched k of n files)"
  bool unopened = false;          // a repository could not be opened to read its files
  // Files not read, per repository: "name: 2 files (big.bin, data/dump.sql)"
  FirstFew unreadable(5);
  size_t unreadable_files = 0;
  // A repository that could not be searched: the first few named in place with why, the rest
  // counted in one note, so that thousands of them cannot fill the answer before its matches.
  FirstFew failed_rest;
  auto fail = [&](size_t i, const std::string& why) {
    if (++failures <= kFailuresInPlace) {
      d.AddOwnLine("## " + repos[i]->name() + " — not searched: " + why);
    } else {
      failed_rest.Add(repos[i]->name());
    }
  };
  FirstFew without;  // repositories where `path` is not a served folder or file
  for (size_t i = 0; i < reached; ++i) {
    if (!failed[i].empty()) {
      fail(i, failed[i]);
      continue;
    }
    if (target_of[i] == SIZE_MAX) {
      without.Add(repos[i]->name());
      continue;
    }
    const size_t t = target_of[i];
    const TargetReport& report = found.targets[t];
    if (!report.error.empty()) {
      fail(i, report.error);
      continue;
    }
    // A folder with no served file in it, over several repositories: as a path with no file
    // listed below it in a text index (ListedDefault), whichever way it was found.
    if (n > 1 && targets[t].under.kind == EntryKind::kFolder && report.listed &&
        report.files == 0) {
      without.Add(repos[i]->name());
      continue;
    }
    if (report.partial) {
      std::string done =
          " (searched " + WithCommas(report.searched) + " of " +
          (report.listed ? "" : "at least ") + WithCommas(report.files) + " files" +
          (report.problem.empty() || !found.why.empty() ? "" : ": " + report.problem) + ")";
      if (!report.listed && report.files == 0) done = " (not reached)";
      (report.out_of_time ? out_of_time : partial).Add(repos[i]->name() + done);
      unopened = unopened || (!report.out_of_time && !report.problem.empty());
    }
    if (report.unreadable) {
      std::string named;
      for (const auto& p : report.unreadable_first) {
        named += (named.empty() ? "" : ", ") + p.Display();
      }
      if (report.unreadable > report.unreadable_first.size()) named += ", …";
      unreadable.Add(repos[i]->name() + ": " + Plural(report.unreadable, "file", "files") + " (" +
                     named + ")");
      unreadable_files += report.unreadable;
    }
    if (report.matched_files == 0) continue;
    // The mark of a heading past the answer's cap is never shown (the answer is cut before it):
    // it is not looked up. Where it is, the commit searched is the default branch's now, so a
    // repository whose guidance is kept for it is not opened.
    d.AddOwnLine("## " + targets[t].at.Where(repos[i]->name()) +
                 (budget > ctx.answer_characters
                      ? std::string()
                      : GuidanceMark(*repos[i], ctx.stop, targets[t].at.commit.id)));
    for (const FileHits* f : by_target[t]) {
      if (budget > ctx.answer_characters) break;
      budget += AppendHits(*f, width, false, &d);
    }
  }
  if (reached < n) {
    // The call's time ran out before every repository was opened: those left are named.
    std::string names;
    for (size_t i = reached; i < n && i < reached + 10; ++i) {
      names += (names.empty() ? "" : ", ") + repos[i]->name();
    }
    if (n - reached > 10) names += ", …";
    d.closing.push_back("[partial: " + ctx.stop.Why() + " — " +
                        Plural(n - reached, "repository", "repositories") +
                        " not searched: " + names + " (or name fewer with repos)]");
  }
  std::string failed_note;
  if (!failed_rest.empty()) {
    failed_note = "[" + Plural(failed_rest.count(), "more repository", "more repositories") +
                  " not searched, for reasons such as those above: " + failed_rest.Text() + "]";
  }
  if (!repos.empty() && failures == repos.size()) {
    std::string why;
    for (const auto& line : d.lines) why += (why.empty() ? "" : "\n") + line.substr(3);
    if (!failed_note.empty()) why += "\n" + failed_note;
    return Error{why};
  }
  if (!failed_note.empty()) d.closing.push_back(failed_note);
  if (files == 0) {
    d.AddOwnLine(targets.empty() && reached < n ? "Nothing was searched."
                 : !found.too_costly.empty()    ? kNoLineKnownToMatch
                                                : "No line matches.");
  }
  if (!found.too_costly.empty()) {
    d.closing.push_back(
        CostlyLinesNote(found.too_costly, [&](size_t t) { return targets[t].repo->name(); }));
  }
  if (!unreadable.empty()) {
    d.closing.push_back("[" + Plural(unreadable_files, "file", "files") +
                        " not searched — over 10 MB, or not in the local copy — in " +
                        Plural(unreadable.count(), "repository", "repositories") + ": " +
                        unreadable.Text() + "]");
  }
  if (!partial.empty()) {
    d.closing.push_back("[partial: " +
                        (!found.why.empty() ? found.why
                         : unopened         ? "a repository could not be opened to read its files"
                                            : "the search stopped early") +
                        " — not searched in full: " + partial.Text() + "]");
  }
  if (!out_of_time.empty()) {
    const auto seconds =
        std::chrono::duration_cast<std::chrono::seconds>(options.per_target).count();
    d.closing.push_back("[partial: a repository is searched for at most " +
                        Plural(static_cast<size_t>(seconds), "second", "seconds") +
                        " when several are — not searched in full: " + out_of_time.Text() +
                        "; grep searches one repository with the call's whole time]");
  }
  if (!without.empty()) {
    d.closing.push_back("[no " + path.Display() + " to search in " +
                        Plural(without.count(), "repository", "repositories") +
                        " (missing there, or not served): " + without.Text() + "]");
  }
  d.cut_note = [limit = ctx.answer_characters](const std::vector<std::string>&, size_t) {
    return "[the answer reached its limit of " + WithCommas(limit) +
           " characters; the rest is not shown — narrow with repos, path, or a more precise "
           "pattern]";
  };
  return d;
}

}  // namespace rr
