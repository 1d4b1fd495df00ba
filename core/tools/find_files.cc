#include "core/tools/find_files.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "core/policy/glob.h"
#include "core/tools/common.h"
#include "core/tools/first_few.h"
#include "core/tools/read_guidance.h"
#include "core/util/text.h"

namespace rr {

namespace {

// The glob as find_files reads it (find_files.h): a trailing `/**` matches the files below the
// folders the rest of the pattern matches, never a file of that name.
class FileGlob {
 public:
  static Result<FileGlob> Compile(const std::string& pattern) {
    if (pattern.size() > 1 && pattern.back() == '/') {
      return Error{"pattern `" + EchoArgument(pattern) +
                   "` ends with '/'; find_files lists files: write `" +
                   EchoArgument(pattern.substr(0, pattern.size() - 1)) +
                   "/**` for every file below a folder"};
    }
    auto whole = Glob::Compile(pattern);
    if (!whole) return Error{whole.error()};
    FileGlob g;
    // Strip trailing `/**` parts: what is left names folders.
    std::string base = pattern;
    bool below = false;
    while (base == "**" || base == "/**" ||
           (base.size() >= 3 && base.compare(base.size() - 3, 3, "/**") == 0)) {
      below = true;
      base = base == "**" || base == "/**" ? std::string() : base.substr(0, base.size() - 3);
    }
    if (below) {
      g.below_ = true;
      if (base.empty()) {
        g.all_ = true;
      } else {
        // `src/**` is anchored: so is what is left of it.
        if (base.front() != '/' && base.find('/') == std::string::npos) base = "/" + base;
        auto folder = Glob::Compile(base);
        if (!folder) return Error{folder.error()};
        g.glob_ = folder.take();
      }
    } else {
      g.glob_ = whole.take();
    }
    return g;
  }

  bool Matches(const RepoPath& path) const {
    if (all_) return true;
    auto parts = path.parts();
    if (!below_) return glob_->Matches(parts);
    parts.pop_back();  // a folder above the file must match
    return glob_->MatchesPathOrFolder(parts);
  }

  // Whether a file below `folder` could match: false lets the walk pass the folder over.
  bool CouldMatchBelow(const RepoPath& folder) const {
    if (all_) return true;
    const auto parts = folder.parts();
    if (glob_->CouldMatchBelow(parts)) return true;
    return below_ && glob_->MatchesPathOrFolder(parts);
  }

 private:
  std::optional<Glob> glob_;
  bool below_ = false;  // the pattern ended in `/**`
  bool all_ = false;    // `**`: every file
};

std::string Mark(EntryKind k) {
  switch (k) {
    case EntryKind::kLink:
      return " (link)";
    case EntryKind::kSubmodule:
      return " (submodule)";
    default:
      return "";
  }
}

// What one repository gave.
struct Found {
  std::string error;               // not read: why
  std::string heading;             // "shop · main @ 14a4c0422ae3 (2026-03-01)"
  std::string commit;              // the commit read (hex), to read it again
  std::vector<std::string> lines;  // matching paths as shown, from the `first`-th on
  size_t first = 0;
  bool dropped = false;  // lines it found were not kept (KeptLines): read again to show them
  size_t count = 0;      // every match
  size_t too_deep = 0;
  bool stopped = false;
};

// The lines every repository of a call keeps, at most `limit_bytes` together: past it, the
// repositories last in the answer's order give theirs up first (and keep no more), so what is
// kept is always the answer's first lines. Thread-safe.
class KeptLines {
 public:
  KeptLines(std::vector<Found>& found, size_t limit_bytes) : found_(found), limit_(limit_bytes) {}

  void Keep(size_t repo, std::string line) {
    std::lock_guard<std::mutex> lock(mu_);
    Found& f = found_[repo];
    if (repo >= cut_) {
      f.dropped = true;
      return;
    }
    bytes_ += line.size() + sizeof(std::string);
    f.lines.push_back(std::move(line));
    holders_.insert(repo);
    while (bytes_ > limit_ && !holders_.empty()) {
      const size_t last = *holders_.rbegin();
      Found& g = found_[last];
      for (const auto& l : g.lines) bytes_ -= l.size() + sizeof(std::string);
      g.lines.clear();
      g.lines.shrink_to_fit();
      g.dropped = true;
      holders_.erase(last);
      cut_ = std::min(cut_, last);
    }
  }

 private:
  std::mutex mu_;
  std::vector<Found>& found_;
  size_t limit_;
  size_t bytes_ = 0;
  size_t cut_ = SIZE_MAX;
  std::set<size_t> holders_;
};

// Walks a repository opened at `at`, counting its matching paths into *out and keeping those
// from the `from`-th to before the `to`-th: in *out, or through `kept` (as repository `index`).
void WalkIn(const ServedRepo& repo, RepoReader& reader, const ReadPoint& at, const FileGlob& glob,
            size_t from, size_t to, const StopToken& stop, Found* out, KeptLines* kept = nullptr,
            size_t index = 0) {
  if (stop.stopped()) {
    out->stopped = true;
    return;
  }
  out->heading = at.Where(repo.name());
  out->commit = at.commit.id.Hex();
  out->first = from;
  auto root = reader.Find(at, RepoPath::Root(), stop);
  if (!root) {
    // The root holds nothing served: no file to list.
    if (stop.stopped()) out->stopped = true;
    return;
  }
  Status st = reader.Walk(
      *root, stop,
      [&](const Node& f) {
        if (!glob.Matches(f.path)) return true;
        const size_t j = out->count++;
        if (j < from || j >= to) return true;
        std::string line = f.path.Display() + Mark(f.kind);
        if (kept) {
          kept->Keep(index, std::move(line));
        } else {
          out->lines.push_back(std::move(line));
        }
        return true;
      },
      &out->too_deep, [&](const RepoPath& folder) { return glob.CouldMatchBelow(folder); });
  if (!st) {
    if (stop.stopped()) {
      out->stopped = true;
    } else {
      out->error = st.error();
    }
  }
}

// Opens a repository at `ref` (its default branch without one) and walks it as WalkIn does.
void FindIn(const ServedRepo& repo, const std::optional<std::string>& ref, const FileGlob& glob,
            size_t from, size_t to, const StopToken& stop, Found* out, KeptLines* kept = nullptr,
            size_t index = 0) {
  if (stop.stopped()) {
    out->stopped = true;
    return;
  }
  auto reader = repo.Open();
  if (!reader) {
    out->error = reader.error();
    return;
  }
  auto at = reader->At(ref);
  if (!at) {
    out->error = at.error();
    return;
  }
  WalkIn(repo, reader.value(), *at, glob, from, to, stop, out, kept, index);
}

}  // namespace

const ToolSpec& FindFilesTool::spec() const {
  static const ToolSpec s{
      "find_files",
      "Find files by name",
      "Where are the .proto files, the Dockerfiles, the tests of this module? The served files "
      "whose paths match a glob, across the default branch of every repository (or those "
      "named), or in one repository at any ref. A pattern without '/' matches the file's name "
      "in any folder (Dockerfile, *.proto); one with '/' matches the path from the root "
      "(src/**/test_*.py); ** is any number of folders, * and ? stay within a name. Per "
      "repository, its matching paths in tree order. A cut answer gives the skip that "
      "continues it.",
      {{"pattern", ArgType::kString,
        "The glob: *.proto, Dockerfile, src/**/test_*.py, docs/** (every file under docs). "
        "Case matters.",
        true},
       ReposArg("Not with repo."),
       {"repo", ArgType::kString,
        "One repository, by name, to read at any ref (with ref). Not with repos.", false},
       {"ref", ArgType::kString,
        "With repo: a branch, tag or commit id: main, release/2.1, v1.2.0, a1b2c3d. Default: "
        "the default branch.",
        false},
       {"skip", ArgType::kInteger,
        "Skip this many paths first (counted across repositories), to page on; a cut answer "
        "gives the next skip. Default 0.",
        false, 0, std::nullopt}},
      [] {
        ToolTraits t;
        // With `repo` or `ref`: one repository, opened at `ref` before the tool runs.
        t.refs = {"ref"};
        t.guidance = GuidanceWay::kMarksHeadings;
        t.check_first = [](const Args& args) -> Status {
          auto glob = FileGlob::Compile(*args.String("pattern"));
          if (!glob) return Error{glob.error()};
          const bool ref = args.String("ref").has_value(), one = args.String("repo").has_value();
          const bool names = args.Strings("repos").has_value();
          if (one && names) {
            return Error{
                "give `repo` (one repository, at any ref) or `repos` (several, on their "
                "default branches), not both"};
          }
          if (ref && names) {
            return Error{"`ref` reads one repository: name it with `repo`, not `repos`"};
          }
          return Status::Ok();
        };
        return t;
      }()};
  return s;
}

Result<Draft> FindFilesTool::Call(const CallContext& ctx, const Args& args) const {
  const std::string pattern = *args.String("pattern");
  auto glob = FileGlob::Compile(pattern);
  if (!glob) return Error{glob.error()};
  const CallTarget& target = *ctx.target;
  const bool one = target.repo_named;
  const auto ref = args.String("ref");
  // With `repo` or `ref`: the one repository, opened at `ref`; otherwise those of `repos`.
  const bool single = target.repo != nullptr;
  const std::vector<std::shared_ptr<const ServedRepo>> repos =
      single ? std::vector<std::shared_ptr<const ServedRepo>>{target.repo} : target.repos;
  const size_t skip = static_cast<size_t>(args.Integer("skip").value_or(0));
  // A shown line costs at least two characters of the cap (a name and its line break), so no
  // answer shows more than answer_characters / 2 paths: a repository keeps at most that many
  // past `skip` (its own first paths are at or after the answer's first), the rest only counted.
  const size_t keep = skip + ctx.answer_characters / 2 + 1;

  // One repository keeps only the paths the answer can show; several keep their first ones
  // within one bound for them all (KeptLines), and a repository whose paths the answer reaches
  // but that gave them up is read again below, at the same commit.
  std::vector<Found> found(repos.size());
  // 64 answers' worth: 2.5 MB of paths with the default cap.
  KeptLines kept(found, 64 * ctx.answer_characters);
  const size_t workers =
      std::min<size_t>({repos.size(), std::max(1u, std::thread::hardware_concurrency()), 8});
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < repos.size();) {
      if (single) {
        WalkIn(*repos[i], *target.reader, *target.at, *glob, skip, keep, ctx.stop, &found[i]);
      } else {
        FindIn(*repos[i], std::nullopt, *glob, 0, keep, ctx.stop, &found[i], &kept, i);
      }
    }
  };
  if (workers <= 1) {
    work();
  } else {
    std::vector<std::thread> threads;
    for (size_t t = 0; t < workers; ++t) threads.emplace_back(work);
    for (auto& t : threads) t.join();
  }

  size_t total = 0, with = 0, failed = 0, too_deep = 0;
  FirstFew partial;
  for (size_t i = 0; i < repos.size(); ++i) {
    const Found& f = found[i];
    if (!f.error.empty()) failed++;
    if (f.stopped) partial.Add(repos[i]->name());
    total += f.count;
    with += f.count > 0;
    too_deep += f.too_deep;
  }
  if (failed == repos.size()) {
    if (single) return Error{found[0].error};
    std::string why;
    for (size_t i = 0; i < repos.size(); ++i) {
      why += (why.empty() ? "" : "\n") + repos[i]->name() + " — not read: " + found[i].error;
    }
    return Error{why};
  }
  if (skip > 0 && skip >= total && partial.empty()) {
    return Error{"skip " + WithCommas(skip) + " is past the end: " +
                 Plural(total, "path", "paths") + " match; give a smaller skip"};
  }

  // The repositories the answer reaches whose paths were given up: read again for those it
  // shows (until the lines read could fill the answer twice over).
  {
    size_t index = 0, chars = 0;
    for (size_t i = 0; i < repos.size() && chars <= 2 * ctx.answer_characters; ++i) {
      Found& f = found[i];
      const size_t before = index;
      index += f.count;
      if (!f.error.empty() || index <= skip) continue;
      const size_t from = skip > before ? skip - before : 0;
      if (f.dropped) {
        Found again;
        FindIn(*repos[i], f.commit, *glob, from, from + (keep - skip), ctx.stop, &again);
        if (!again.error.empty() || again.count != f.count) break;  // not read the same: cut
        f.lines = std::move(again.lines);
        f.first = from;
        f.dropped = false;
      }
      for (size_t j = from; j >= f.first && j - f.first < f.lines.size(); ++j) {
        chars += f.lines[j - f.first].size() + 1;
      }
    }
  }

  Draft d;
  // For the cut note: how many paths come before each line.
  auto paths_before = std::make_shared<std::vector<size_t>>();
  size_t index = 0, shown = 0;
  bool held_back = false;  // a repository kept fewer paths than the answer could reach
  for (size_t i = 0; i < repos.size() && !held_back; ++i) {
    const Found& f = found[i];
    const ServedRepo& repo = *repos[i];
    if (!f.error.empty()) {
      paths_before->push_back(shown);
      d.lines.push_back("## " + repo.name() + " — not read: " + f.error);
      continue;
    }
    const bool any_left = f.count > 0 && index + f.count > skip;
    if (f.heading.empty() || (!any_left && !(single && f.count == 0))) {
      index += f.count;
      continue;
    }
    std::string heading = "## " + f.heading + " · " + Plural(f.count, "file", "files");
    if (index < skip) heading += ", from its file " + WithCommas(skip - index + 1);
    if (repo.policy().partial()) heading += " · served in part";
    if (!one) heading += GuidanceMark(repo, ctx.stop);  // with `repo`, the first line says so
    paths_before->push_back(shown);
    d.lines.push_back(std::move(heading));
    for (size_t j = 0; j < f.count; ++j, ++index) {
      if (index < skip) continue;
      if (f.dropped || j < f.first || j - f.first >= f.lines.size()) {
        held_back = true;
        break;
      }
      paths_before->push_back(shown++);
      d.lines.push_back(f.lines[j - f.first]);
    }
  }

  d.header = "Files matching `" + EchoArgument(pattern) + "` in ";
  if (single) {
    d.header += repos[0]->name() + (ref ? " at `" + EchoArgument(*ref) + "`" : "") + ": " +
                Plural(total, "file", "files");
  } else {
    d.header += Plural(repos.size(), "repository", "repositories") +
                " (their default branches): " + Plural(total, "file", "files") + " in " +
                Plural(with, "repository", "repositories");
  }
  if (skip > 0) d.header += ", from file " + WithCommas(skip + 1);
  if (total == 0) d.lines.push_back("No served file matches.");
  if (too_deep) {
    d.closing.push_back("[" + Plural(too_deep, "entry", "entries") +
                        " passed over: their paths are longer than 4,096 bytes]");
  }
  if (!partial.empty()) {
    d.closing.push_back("[partial: " + ctx.stop.Why() +
                        " — not searched in full: " + partial.Text() + "]");
  }
  d.cut_note = [paths_before, total, skip, single](const std::vector<std::string>& lines,
                                                   size_t first) {
    const size_t before = first < paths_before->size() ? (*paths_before)[first] : lines.size();
    std::string note = "[" + Plural(total - skip - before, "more file", "more files") +
                       " not shown — continue with skip: " + WithCommas(skip + before) +
                       ", or narrow the pattern";
    return note + (single ? "]" : " or name fewer repos]");
  };
  return d;
}

}  // namespace rr
