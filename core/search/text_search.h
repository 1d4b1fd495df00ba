// The text search behind grep and search: the matching lines of the served files below a path,
// in one or many repositories, read only through RepoReader (so include / exclude and the
// credential-file rule hold by construction: a file the policy keeps out is never read).
//   - A pattern is one line. Plain text is literal (memmem over the file; with ignore_case, a
//     caseless literal on PCRE2, Unicode case folding as git grep -i; a pattern of ASCII bytes
//     without k or s -- whose only other cases are ASCII -- by memchr on its rarest byte and a
//     byte-wise check, which finds the same);
//     with regex it is a POSIX ERE (core/util/ere.h). Matching is
//     per line, as `git grep` (-F or -E, -i) matches; a line ends at '\n'.
//   - Binary files (a NUL among the first 8,000 bytes, git's rule) are skipped and counted;
//     links and submodules are not searched (git grep at a tree reads regular files only).
//   - A guessed secret cannot be confirmed: each file with a candidate match is scanned once by
//     the secret filter (as a file, with its path). A plain match counts only where one of its
//     occurrences on the line lies clear of every hidden value (SecretFilter::Clear); a regular
//     expression never matches a line holding one (LineHoldsHidden). A detector that fails on a
//     file makes it `withheld`, never searched unfiltered, and the failure is kept
//     (SearchResult::filter_failure): the caller withholds its whole answer, as the answer
//     pipeline withholds any answer the filter cannot check. Limits, counts and context
//     are then what they would be had the dropped line not matched.
//   - Up to max_per_file matching lines a file (git grep -m); `context` lines before and after
//     each (git grep -C), groups that touch or overlap merged.
//   - Streamed: the files are read as the trees are walked -- walkers (one a target at a time)
//     hand them to the searching threads through a queue of at most kQueueItems files -- so the
//     memory a search takes does not grow with the files a tree names (a few-KB tree whose
//     folders share subtrees names millions); only the first files that match are kept with
//     their lines (keep_bytes, paths included; keep_shown, what they show), the others
//     counted.
//   - Bounded by `stop`, checked at every tree entry and every file: past it, nothing more is
//     walked or read, and the result says it is partial and how many files it covered. With
//     `per_target` set, each target also has its own time: counted from when its first file is
//     read, past it no further file of that target is walked or read (the target is reported
//     partial, `out_of_time`), and the others go on — so one huge repository cannot take a
//     whole search's time from the rest.
//   - Open handles are bounded: a walker holds one (its target's), a searching thread at most
//     kReadersPerThread; a repository that cannot be opened (too many open files, say) is
//     reported with the reason, never passed over in silence.
//   - Progress: `progress` hears how many files are searched, and of how many once every tree
//     is walked.
//   - Over several repositories, a content under the same path that another repository of the
//     search already had read (a fork, a copy) is not read, matched or scanned again
//     (core/search/content_memo.h; never for a mirror that fetches what its copy lacks).
//   - The result is in the order the files are in their trees (git's path order), whatever the
//     threads did: deterministic (which files keep their lines too).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/secrets/block_source.h"
#include "core/secrets/secret_filter.h"
#include "core/served/served_repo.h"
#include "core/util/ere.h"
#include "core/util/result.h"
#include "core/util/stop.h"

namespace rr {

// What to find: a literal or an ERE, one line.
class TextPattern {
 public:
  // `argument` names the argument in errors ("argument `pattern`: …").
  static Result<TextPattern> Make(std::string_view pattern, bool regex, bool ignore_case,
                                  std::string_view argument);

  bool regex() const { return regex_; }
  bool ignore_case() const { return ignore_case_; }
  const std::string& text() const { return text_; }

  // The first occurrence at or after `from` in `bytes`, possibly not on a line of its own
  // (see Ere::FindAcross): [*begin, *end). The search confirms it line by line. For a regular
  // expression, false with *gave_up set (when given) where PCRE2 gave up on a line first.
  bool FindCandidate(std::string_view bytes, size_t from, size_t* begin, size_t* end,
                     Ere::GaveUp* gave_up = nullptr) const;
  // The first occurrence at or after `from` in `line` (one line, without its '\n'); false with
  // *gave_up set (when given) where PCRE2 gave up on it.
  bool FindInLine(std::string_view line, size_t from, size_t* begin, size_t* end,
                  Ere::GaveUp* gave_up = nullptr) const;

 private:
  std::string text_;
  bool regex_ = false;
  bool ignore_case_ = false;
  bool literal_ = false;  // plain, case as written: memmem
  std::shared_ptr<const Ere> ere_;
  std::shared_ptr<const void> caseless_;  // ignore_case, plain, not ASCII: PCRE2's literal
  // ignore_case, plain, ASCII but k and s: the pattern in lower case, and which of its bytes to
  // look for. On PCRE2, an ASCII pattern with k or s: the same, the anchor never k or s (lower_
  // empty when there is none), and around it the bytes up to the nearest k or s either side.
  bool ascii_caseless_ = false;
  std::string lower_;
  size_t anchor_ = 0;
  size_t window_begin_ = 0, window_end_ = 0;
};

// One line shown: a match or a line of context. `text` is the line's bytes without its ending
// (a "\r" before the '\n' kept, as FileLineReader leaves it to be cut), at most kMaxLineBytes.
struct ShownLine {
  static constexpr size_t kMaxLineBytes = 96 * 1024;
  size_t number = 0;  // from 1
  bool match = false;
  std::string text;
};

// A file that matches, kept with its lines.
struct FileHits {
  size_t target = 0;  // which SearchTarget
  Node node;
  size_t matches = 0;            // matching lines counted (at most max_per_file)
  bool more = false;             // matching lines past max_per_file
  std::vector<ShownLine> lines;  // the lines to show, in order (none with files_only)
  // The runs of consecutive lines in `lines`, in order: where each begins in `lines`, how many
  // lines it holds, and the file's text around it (what the secret filter reads just before and
  // after it, core/secrets/block_source.h).
  struct Run {
    size_t first = 0, count = 0;
    BlockSource source;
  };
  std::vector<Run> runs;
  // Lines a regular expression was too costly on (PCRE2 gave up: Ere::GaveUp), by number, in
  // order: not known to match or not. A line holding a value the secret filter hides is never
  // named (it never matches a regular expression either). After kMaxCostlyLines the rest of the
  // file is not searched (`costly_rest`): each such line costs PCRE2's whole match limit.
  static constexpr size_t kMaxCostlyLines = 5;
  std::vector<size_t> costly_lines;
  bool costly_rest = false;
};

struct SearchTarget {
  const ServedRepo* repo = nullptr;
  ReadPoint at;
  Node under;  // a folder, or one file
  // `under` was found in the repository's text index of `at` (its list's paths), not in the
  // tree: a folder's id is not known (left zero: it is found in the tree when the tree must be
  // walked), and a file is found again in the tree before it is read, as every listed file is.
  bool listed = false;
};

class TextIndex;
struct TextStoreSnapshot;
class ContentMemo;

// Each target's text index as a search found it (CurrentTextIndex), for the next search over
// the same targets (SearchOptions::indexes), kept by the caller with them: each target's index
// still while RefsWatch::Reported() is `reported` (every list was vouched for by the watch: a
// list written since is reported) and each store is what CurrentTextStore shows of its folder.
struct TargetIndexes {
  uint64_t reported = 0;
  std::vector<std::shared_ptr<const TextStoreSnapshot>> stores;
  std::vector<std::shared_ptr<const TextIndex>> of;  // per target; null: none
};

struct SearchOptions {
  size_t max_per_file = 100;
  size_t context = 0;
  bool files_only = false;
  size_t threads = 0;  // 0: DefaultThreads()
  // Matching files are kept (with their lines and paths) until the bytes kept would pass this;
  // the files after are counted, not kept.
  size_t keep_bytes = 8 * 1024 * 1024;
  // And, when `least_shown` is given, only while the files before the last one kept would not
  // show more than keep_shown characters: `least_shown` tells the fewest characters a file's
  // lines show as, so a caller that shows the files in order up to keep_shown characters has
  // every file it shows, and no more are kept. (Over an organisation, a rare identifier's
  // thousands of files were each kept -- a lock, a copy -- for an answer that shows a few.)
  size_t keep_shown = 0;
  std::function<size_t(const FileHits&)> least_shown;
  // The time each target may take (zero: only `stop` bounds it).
  std::chrono::milliseconds per_target{0};
  // Told how many files have been searched, every kProgressEvery files and when the last is
  // (files passed over once the time is up are not counted), and of how many once every tree
  // is walked (before: nullopt); called from the search's threads, never two at once. Empty:
  // nobody asked.
  std::function<void(size_t searched, std::optional<size_t> total)> progress;
  static constexpr size_t kProgressEvery = 256;
  // Files walked but not yet searched, at most (the queue between walkers and searchers).
  static constexpr size_t kQueueItems = 1024;
  // Repositories a searching thread keeps open at once (the least recently used is closed).
  static constexpr size_t kReadersPerThread = 4;
  // Paths of unreadable files a target names (TargetReport::unreadable_first).
  static constexpr size_t kNamedUnreadable = 3;
  // What an earlier search over the same targets found of their text indexes (its
  // SearchResult::indexes): used while it holds, so that 20,000 repositories' indexes are not
  // each looked for again; null: each is looked for.
  std::shared_ptr<const TargetIndexes> indexes;
  // What contents came to in earlier searches with the same pattern, options and secret filter
  // (core/search/content_memo.h): used and added to over several targets, and settled once the
  // search is done, for the caller to hand on. Null: the search keeps a memo of its own.
  std::shared_ptr<ContentMemo> memo;
};

struct TargetReport {
  std::string error;    // non-empty: the target could not be walked (nothing of it searched)
  size_t files = 0;     // served files found below it (regular files, walked)
  bool listed = false;  // the walk went through: `files` is all of them
  size_t searched = 0;
  size_t binary = 0;      // skipped as binary
  size_t unreadable = 0;  // over 10 MB, or not in the local copy
  size_t withheld = 0;    // the secret filter failed on it: see SearchResult::filter_failure
  // The first of them (at most SearchOptions::kNamedUnreadable), in path order.
  std::vector<RepoPath> unreadable_first;
  size_t too_deep = 0;       // paths too long to serve, passed over
  size_t matched_files = 0;  // files with a matching line (kept in `files` or not)
  size_t matched_lines = 0;  // matching lines counted in them
  bool more = false;         // some file has matching lines past max_per_file
  bool partial = false;      // stopped before every file was searched
  bool out_of_time = false;  // partial because its own time (per_target) ran out
  std::string problem;       // partial because the repository could not be opened to read a file
};

struct SearchResult {
  std::vector<FileHits> files;  // the first matching files kept, by target, in path order
  std::vector<TargetReport> targets;
  bool stopped = false;  // some target is partial
  std::string why;       // when `stop` stopped it; empty when only targets' own times ran out
  // Files with a matching line that are counted in their target but not kept in `files`.
  size_t unkept = 0;
  // The files a regular expression was too costly on somewhere (FileHits::costly_lines), by
  // target, in path order, with or without matching lines.
  std::vector<FileHits> too_costly;
  // The first failure of the secret filter on a file (ScanResult::failure), "" for none.
  std::string filter_failure;
  // The bytes of the files' contents read (what the memo answered is not read).
  uint64_t read_bytes = 0;
  // Each target's text index as found, when every one was vouched for by the watch (for the
  // next search over the same targets: SearchOptions::indexes); else null.
  std::shared_ptr<const TargetIndexes> indexes;
};

// The threads a search uses by default: the machine's cores, at most 8.
size_t DefaultThreads();

// Searches every target. `secrets` may be null only where no detector runs.
SearchResult SearchText(const std::vector<SearchTarget>& targets, const TextPattern& pattern,
                        const SecretFilter* secrets, const SearchOptions& options,
                        const StopToken& stop);

}  // namespace rr
