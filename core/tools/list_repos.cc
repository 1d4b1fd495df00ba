#include "core/tools/list_repos.h"

#include <optional>

#include "core/policy/glob.h"
#include "core/tools/mirror_lines.h"
#include "core/tools/read_guidance.h"
#include "core/util/text.h"

namespace rr {
namespace {

using Steady = std::chrono::steady_clock;
using Repos = std::vector<std::shared_ptr<const ServedRepo>>;

// A description is cut at this many characters, so that a page always holds whole entries.
constexpr size_t kMaxDescription = 400;
// What an entry not read yet is guessed to take, when choosing how many to read for a page.
constexpr size_t kGuessedEntry = 200;

const char kNotReadYet[] =
    "Default branch: not read yet — list_refs reads it; list_repos shows it once read";
const char kPatternHelp[] =
    "a pattern is a glob over repository names: * any characters but /, ? one character, [a-z] "
    "one of a class; a pattern without / matches the last part of an owner/name name (team-*, "
    "*-api, acme/*)";

// The mirror's last sync, 0 for a repository that is no mirror.
int64_t MirrorSynced(const ServedRepo& repo) {
  return repo.settings().mirror ? repo.settings().mirror->Get().last_synced : 0;
}

// The entry kept, when it still holds (EntryCache::Fresh) and, for a mirror, was read after its
// latest sync: an entry read while the first sync was still running (the mirror's folder not a
// repository yet) is not shown once the sync has finished -- read_file reads the mirror then.
std::shared_ptr<const RepoEntry> FreshEntry(const ServedRepo& repo) {
  auto e = repo.entry_cache().Fresh();
  if (e && e->mirror_synced != MirrorSynced(repo)) return nullptr;
  return e;
}

std::shared_ptr<RepoEntry> ReadEntryOnce(const ServedRepo& repo, const StopToken& stop);

// What an entry shows from git, read on a handle of its own (EntryFiller's threads). A mirror
// not mirrored yet has nothing to read (null: nothing is kept; list_repos says it is not
// mirrored yet). A mirror that cannot be read now shows its last complete entry, when it had
// one. No line names the mirror's folder (the server's own storage).
std::shared_ptr<const RepoEntry> ReadEntry(const ServedRepo& repo, const StopToken& stop) {
  const int64_t synced = MirrorSynced(repo);
  if (repo.settings().mirror && synced == 0) return nullptr;
  auto e = ReadEntryOnce(repo, stop);
  if (repo.settings().mirror) {
    if (e->failed) {
      auto last = repo.entry_cache().Last();
      if (last && !last->failed) {
        auto again = std::make_shared<RepoEntry>(*last);
        again->read_at = RepoEntry::Clock::now();
        again->mirror_synced = synced;
        return again;
      }
    }
    e->text = repo.HideStorage(std::move(e->text));
  }
  e->mirror_synced = synced;
  return e;
}

std::shared_ptr<RepoEntry> ReadEntryOnce(const ServedRepo& repo, const StopToken& stop) {
  auto e = std::make_shared<RepoEntry>();
  auto reader = repo.OpenOnce();
  if (!reader) {
    e->failed = true;
    e->text = "Cannot be read now: " + reader.error();
    return e;
  }
  // The stamp first: a ref that moves while the rest is read changes the next stamp.
  e->place = reader->Place();
  e->stamp = RefsStamp::Take(e->place);
  std::vector<std::string> lines;
  HeadState head = reader->Head();
  if (head.kind == HeadState::Kind::kUnborn) {
    lines.push_back("Default branch: " + DisplayName(head.branch) + " — no commit yet");
  } else if (head.kind == HeadState::Kind::kBroken) {
    lines.push_back("Default branch: unreadable (" + head.problem + ")");
  }
  std::optional<ReadPoint> at;
  if (head.kind == HeadState::Kind::kBranch || head.kind == HeadState::Kind::kDetached) {
    auto a = reader->At(std::nullopt);
    if (a) {
      at = a.take();
      lines.push_back("Default branch: " + DisplayName(at->label) + " @ " + at->commit.id.Short() +
                      " (" + ShortDate(at->commit.time, at->commit.offset) + ") — " +
                      DisplayName(at->commit.subject));
    } else {
      e->failed = true;
      lines.push_back("Default branch: " + a.error());
    }
  }
  auto counts = reader->CountRefs();
  if (counts) {
    std::string line = Plural(counts->branches, "branch", "branches");
    if (counts->remotes) {
      line += ", " + Plural(counts->remotes, "remote-tracking branch", "remote-tracking branches");
    }
    line += ", " + Plural(counts->tags, "tag", "tags") + " — list_refs lists them";
    lines.push_back(line);
  } else {
    e->failed = true;
    lines.push_back("Branches and tags: " + counts.error());
  }
  for (const auto& l : lines) e->text += (e->text.empty() ? "" : "\n") + l;
  if (at) {  // kept with the entry, so it is looked up again only when the refs change
    const std::string found = GuidanceSummary(repo, stop);
    if (!found.empty()) e->guidance = "Carries guidance for agents: " + found + ".";
  }
  return e;
}

// One repository's entry: its own lines (name, description, whether served in part) around
// what was read from git, or a line saying that has not been read yet.
std::string Render(const ServedRepo& repo, const RepoEntry* e) {
  std::string s = "## " + repo.name();
  if (!repo.description().empty()) {
    std::string desc = DisplayName(repo.description());
    if (CodePoints(desc) > kMaxDescription) {
      desc.resize(PrefixBytes(desc, kMaxDescription));
      desc += "…";
    }
    s += "\n" + desc;
  }
  std::vector<std::string> mirror;  // a mirror's lines: where from, when synced (never cached)
  const bool nothing_yet = AddMirrorLines(repo, mirror);
  for (const auto& l : mirror) s += "\n" + l;
  if (nothing_yet) return s;
  s += "\n";
  s += e ? e->text : kNotReadYet;
  if (repo.policy().partial()) {
    s += "\nOnly part of it is served (include / exclude in the configuration).";
  }
  if (e && !e->guidance.empty()) s += "\n" + e->guidance;
  return s;
}

std::vector<std::string_view> NameParts(std::string_view name) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t slash = name.find('/', start);
    parts.push_back(
        name.substr(start, slash == std::string_view::npos ? name.npos : slash - start));
    if (slash == std::string_view::npos) return parts;
    start = slash + 1;
  }
}

size_t CountMatching(const Glob& glob, const Repos& repos) {
  size_t n = 0;
  for (const auto& r : repos) n += glob.Matches(NameParts(r->name())) ? 1 : 0;
  return n;
}

// How many names `prefix*` matches, as CountMatching would with that glob when `prefix` holds
// no glob character, without a glob: a prefix with a '/' is anchored (the name starts with it,
// and '*' crosses no '/'); one without matches the last part of a name. A cut note suggests a
// pattern for each separator of a name, each counted over every repository: with 20,000
// repositories the glob made every page of list_repos cost tens of milliseconds more.
size_t CountPrefixed(std::string_view prefix, const Repos& repos) {
  const bool anchored = prefix.find('/') != std::string_view::npos;
  size_t n = 0;
  for (const auto& r : repos) {
    std::string_view name = r->name();
    if (anchored) {
      n += name.substr(0, prefix.size()) == prefix &&
                   name.find('/', prefix.size()) == std::string_view::npos
               ? 1
               : 0;
    } else {
      const size_t slash = name.rfind('/');
      if (slash != std::string_view::npos) name.remove_prefix(slash + 1);
      n += name.substr(0, prefix.size()) == prefix ? 1 : 0;
    }
  }
  return n;
}

// A pattern that narrows the list from `name` on: `name` up to one of its separators, then *.
// The shortest that matches at most `page` repositories (a page or so), else the one matching
// fewest; never one matching a single repository or all of them. "" when none narrows.
std::string SuggestPattern(const std::string& name, const Repos& listed, size_t page,
                           size_t* count) {
  std::string best;
  size_t best_count = 0;
  for (size_t i = 0; i + 1 < name.size(); ++i) {
    const char c = name[i];
    if (c != '-' && c != '_' && c != '.' && c != '/') continue;
    const std::string candidate = name.substr(0, i + 1) + "*";
    size_t n = 0;
    if (name.find_first_of("*?[]\\", 0) == std::string::npos) {
      n = CountPrefixed(std::string_view(name).substr(0, i + 1), listed);
    } else {
      auto glob = Glob::Compile(candidate);
      if (!glob) continue;
      n = CountMatching(*glob, listed);
    }
    if (n < 2 || n >= listed.size()) continue;
    if (n <= page) {
      *count = n;
      return candidate;
    }
    if (best.empty() || n < best_count) {
      best = candidate;
      best_count = n;
    }
  }
  *count = best_count;
  return best;
}

// What the cut note and the heading need after Call has returned.
struct Page {
  Repos listed, matched;
  std::optional<std::string> pattern;
  size_t skip = 0;
  size_t limit = 0;
  // The note last made, for the `first` it was made for (the pipeline asks more than once).
  size_t noted_first = SIZE_MAX;
  std::string note;
};

std::string Heading(const Page& p, size_t shown) {
  std::string h =
      "repo-reader · " + Plural(p.listed.size(), "repository", "repositories") + " served";
  if (p.pattern) {
    h += " · " + WithCommas(p.matched.size()) + (p.matched.size() == 1 ? " matches" : " match") +
         " `" + EchoArgument(*p.pattern) + "`";
  }
  if (p.skip > 0 || p.skip + shown < p.matched.size()) {
    h += " · repositories " + WithCommas(p.skip + 1) + "–" + WithCommas(p.skip + shown) + " of " +
         WithCommas(p.matched.size());
  }
  return h;
}

std::string CutNote(Page& p, size_t first) {
  if (first == p.noted_first) return p.note;
  const size_t next = p.skip + first;
  const size_t total = p.matched.size();
  std::string note = "[repositories " + WithCommas(next + 1) + "–" + WithCommas(total);
  note += p.pattern ? " of those matching `" + EchoArgument(*p.pattern) +
                          "` not shown: the same pattern with skip: " + std::to_string(next) +
                          " continues"
                    : " not shown: skip: " + std::to_string(next) + " continues the list";
  size_t count = 0;
  const std::string suggested =
      SuggestPattern(p.matched[next]->name(), p.listed, std::max<size_t>(first, 1), &count);
  if (!suggested.empty() && (!p.pattern || count < total)) {
    note += "; or narrow it with pattern, e.g. `" + suggested + "` (" +
            Plural(count, "repository", "repositories") + ")";
  } else {
    note += "; or narrow it with pattern (" + std::string(kPatternHelp) + ")";
  }
  note += "]";
  p.noted_first = first;
  p.note = note;
  return note;
}

// The answer when a pattern matches no name.
std::string NoMatch(const std::string& pattern, const Repos& listed) {
  std::string s = "No repository name matches `" + EchoArgument(pattern) + "`.";
  if (auto folded = Glob::Compile(pattern, /*ignore_case=*/true)) {
    for (const auto& r : listed) {
      if (folded->Matches(NameParts(r->name()))) {
        s += " Names are matched as written: ignoring case, " +
             WithCommas(CountMatching(*folded, listed)) + " would match (" + r->name() +
             ", …); write the pattern in their case.";
        break;
      }
    }
  }
  s += " Note: " + std::string(kPatternHelp) +
       ". list_repos without pattern lists every name, a page at a time (skip pages on).";
  return s;
}

}  // namespace

std::shared_ptr<EntryFiller> ListReposTool::MakeFiller() {
  return std::make_shared<EntryFiller>(kFillThreads, &ReadEntry);
}

ListReposTool::ListReposTool(std::shared_ptr<EntryFiller> filler)
    : filler_(filler ? std::move(filler) : MakeFiller()) {}

const ToolSpec& ListReposTool::spec() const {
  static const ToolSpec s{
      "list_repos",
      "List repositories",
      "The repositories this server reads, a page at a time. For each: its name (the `repo` "
      "argument of every other tool), its description, its default branch with the commit it is "
      "at (date and subject), how many branches and tags it has, whether only part of it is "
      "served, and whether it carries guidance for agents. A cut answer gives the skip that "
      "continues it and suggests a pattern that narrows it.",
      {{"pattern", ArgType::kString,
        "Only repositories whose names match this glob: team-*, *-api, acme/*. * matches any "
        "characters but /, ? one; a pattern without / matches the last part of an owner/name "
        "name.",
        false},
       {"skip", ArgType::kInteger,
        "Skip this many repositories first, to page on; a cut answer gives the next skip. "
        "Default 0.",
        false, 0, std::nullopt}}};
  return s;
}

Result<Draft> ListReposTool::Call(const CallContext& ctx, const Args& args) const {
  const auto start = Steady::now();
  auto page = std::make_shared<Page>();
  page->pattern = args.String("pattern");
  page->skip = static_cast<size_t>(args.Integer("skip").value_or(0));
  page->limit = ctx.answer_characters;
  page->listed = ctx.catalog->listed();
  if (page->pattern) {
    if (page->pattern->empty()) {
      return Error{"argument `pattern` is empty; " + std::string(kPatternHelp)};
    }
    auto glob = Glob::Compile(*page->pattern);
    if (!glob) return Error{"argument `pattern`: " + glob.error() + "; " + kPatternHelp};
    for (const auto& r : page->listed) {
      if (glob->Matches(NameParts(r->name()))) page->matched.push_back(r);
    }
  } else {
    page->matched = page->listed;
  }

  Draft d;
  d.header = Heading(*page, page->matched.size());
  if (page->listed.empty()) {
    d.lines.push_back("No repository is listed (see the configuration's repos).");
    return d;
  }
  if (page->matched.empty()) {
    d.lines.push_back(NoMatch(*page->pattern, page->listed));
    return d;
  }
  const size_t total = page->matched.size();
  if (page->skip >= total) {
    return Error{"argument `skip` is " + std::to_string(page->skip) + ", past the last of the " +
                 Plural(total, "repository", "repositories") +
                 (page->pattern ? " matching `" + EchoArgument(*page->pattern) + "`" : "") +
                 "; skip 0 shows the first, " + std::to_string(total - 1) + " the last"};
  }

  // Entries until the page is over full (so the pipeline cuts it at a whole entry), or none are
  // left. Each stretch of entries that could fill the rest is looked at in the cache first; the
  // ones not there are read in parallel, waiting at most until `until` for all stretches.
  const auto until = start + kFillBudget;
  const size_t budget = ctx.answer_characters;
  size_t chars = 0;
  size_t i = page->skip;
  while (i < total && chars <= budget) {
    if (ctx.stop.stopped()) return Error{ctx.stop.Why()};
    struct Slot {
      std::string text;
      bool cold = false;
    };
    std::vector<Slot> stretch;
    Repos cold, first;
    size_t guess = chars;
    for (size_t k = i; k < total && guess <= budget; ++k) {
      const auto& repo = page->matched[k];
      auto e = FreshEntry(*repo);
      Slot s;
      if (e) {
        s.text = Render(*repo, e.get());
        guess += CodePoints(s.text) + 2;
      } else {
        s.cold = true;
        guess += kGuessedEntry;
        cold.push_back(repo);
        if (k < page->skip + kAlwaysRead) first.push_back(repo);
      }
      stretch.push_back(std::move(s));
    }
    if (!cold.empty()) {
      filler_->Fill(cold, until, ctx.stop);
      // The first few of a page are always read: a server with a handful of repositories
      // answers whole, however slow the disk.
      if (!first.empty()) filler_->Fill(first, Steady::time_point::max(), ctx.stop);
    }
    for (size_t k = 0; k < stretch.size() && chars <= budget; ++k) {
      Slot& s = stretch[k];
      if (s.cold) {
        const auto& repo = *page->matched[i + k];
        // Read during this call (maybe just as a ref moved: then not Fresh, but read now), or
        // found fresh since.
        auto e = repo.entry_cache().Last();
        if (e && (e->read_at < start || e->mirror_synced != MirrorSynced(repo))) {
          e = FreshEntry(repo);
        }
        s.text = Render(repo, e.get());
      }
      std::string line = d.lines.empty() ? std::move(s.text) : "\n" + s.text;
      chars += CodePoints(line) + 1;
      d.lines.push_back(std::move(line));
    }
    i += stretch.size();
  }
  d.header_for = [page](size_t shown) { return Heading(*page, shown); };
  d.cut_note = [page](const std::vector<std::string>&, size_t first) {
    return CutNote(*page, first);
  };
  return d;
}

}  // namespace rr
