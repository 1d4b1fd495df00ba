#include "core/search/text_search.h"

#include "core/index/repo_text_index.h"
#include "core/index/trigrams.h"
#include "core/search/content_memo.h"
#include "core/search/work_queue.h"
#include "core/served/refs_watch.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>

#include "core/util/heap_trim.h"

namespace rr {
namespace {

// A search that read at least this much gives the heap it freed back to the system when it ends
// (GiveBackFreeHeap, a few milliseconds); a search the index answered from a few files does not.
constexpr uint64_t kGiveBackAfterBytes = 8ull << 20;
// Files a searching thread takes from the queue at once, at most (WorkQueue::PopSome).
constexpr size_t kTakenAtOnce = 8;
// Targets a walker takes at once, and counts done together: over an organisation most are
// answered by their index in a microsecond, and walkers taking (and counting) them one by one
// spent most of that on the shared counters' cache line going back and forth between cores.
constexpr size_t kTargetsAtOnce = 16;

// A caseless literal on PCRE2 (JIT), read as UTF-8 where it is valid, as Ere reads text.
struct Pcre2Code {
  pcre2_code* code = nullptr;
  ~Pcre2Code() { pcre2_code_free(code); }
};

std::shared_ptr<Pcre2Code> CompileCaseless(std::string_view text, std::string* error) {
  int code_error = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code =
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(),
                    PCRE2_LITERAL | PCRE2_CASELESS | PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
                    &code_error, &offset, nullptr);
  if (!code) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(code_error, message, sizeof(message));
    *error = reinterpret_cast<const char*>(message);
    return nullptr;
  }
  pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
  auto out = std::make_shared<Pcre2Code>();
  out->code = code;
  return out;
}

bool MatchCode(const Pcre2Code& c, std::string_view subject, size_t from, size_t* begin,
               size_t* end) {
  if (from > subject.size()) return false;
  pcre2_match_data* data = pcre2_match_data_create_from_pattern(c.code, nullptr);
  const int rc = pcre2_match(c.code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(),
                             from, 0, data, nullptr);
  if (rc >= 0) {
    const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(data);
    *begin = ov[0];
    *end = ov[1];
  }
  pcre2_match_data_free(data);
  return rc >= 0;
}

bool FindLiteral(std::string_view bytes, std::string_view text, size_t from, size_t* begin,
                 size_t* end) {
  if (from > bytes.size()) return false;
  const void* at = memmem(bytes.data() + from, bytes.size() - from, text.data(), text.size());
  if (!at) return false;
  *begin = static_cast<size_t>(static_cast<const char*>(at) - bytes.data());
  *end = *begin + text.size();
  return true;
}

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
char Upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

// How common a byte is in text and code, lower for rarer: the byte a search looks for first.
int Commonness(char c) {
  static constexpr std::string_view kLetters = "zqjxkvbpygfwmucldrhsnioate";  // rare first
  c = Lower(c);
  if (c == ' ' || c == '\t') return 100;
  const size_t letter = kLetters.find(c);
  // A letter is looked for in both cases (two scans): only a rarer one is worth it.
  if (letter != std::string_view::npos) return 40 + static_cast<int>(letter) * 2;
  if (c >= '0' && c <= '9') return 50;
  if (c == '_' || c == '-' || c == '.' || c == ',' || c == '(' || c == ')' || c == ';' ||
      c == '*' || c == '/' || c == '=') {
    return 60;
  }
  return 30;
}

// `lower` (ASCII, already in lower case) at `at` in `bytes`, ignoring ASCII case.
bool EqualsCaseless(std::string_view bytes, size_t at, std::string_view lower) {
  for (size_t i = 0; i < lower.size(); ++i) {
    if (Lower(bytes[at + i]) != lower[i]) return false;
  }
  return true;
}

// The first occurrence of `lower` at or after `from`, ignoring ASCII case: memchr for the
// anchor byte (both cases), then the whole pattern checked there.
bool FindCaselessAscii(std::string_view bytes, std::string_view lower, size_t anchor, size_t from,
                       size_t* begin, size_t* end) {
  const size_t m = lower.size();
  if (from > bytes.size() || bytes.size() - from < m) return false;
  const char* data = bytes.data();
  const size_t last = bytes.size() - m;  // the last start that fits
  const char a = lower[anchor], b = Upper(a);
  // Next place of each case of the anchor byte, at or after `pos` (nullptr: none).
  auto next = [&](char c, size_t pos) -> const char* {
    const size_t limit = last + anchor + 1;  // the anchor of the last start that fits
    if (pos >= limit) return nullptr;
    return static_cast<const char*>(std::memchr(data + pos, c, limit - pos));
  };
  const char* pa = next(a, from + anchor);
  const char* pb = a == b ? nullptr : next(b, from + anchor);
  while (pa || pb) {
    const char* p = !pb || (pa && pa < pb) ? pa : pb;
    const size_t start = static_cast<size_t>(p - data) - anchor;
    if (EqualsCaseless(bytes, start, lower)) {
      *begin = start;
      *end = start + m;
      return true;
    }
    if (p == pa) {
      pa = next(a, static_cast<size_t>(p - data) + 1);
    } else {
      pb = next(b, static_cast<size_t>(p - data) + 1);
    }
  }
  return false;
}

}  // namespace

Result<TextPattern> TextPattern::Make(std::string_view pattern, bool regex, bool ignore_case,
                                      std::string_view argument) {
  const std::string prefix = "argument `" + std::string(argument) + "`: ";
  if (pattern.empty()) return Error{prefix + "give the text to find; it is empty"};
  for (char c : pattern) {
    if (c == '\n' || c == '\r' || c == '\0') {
      return Error{prefix + "the pattern must be one line"};
    }
  }
  TextPattern p;
  p.text_ = std::string(pattern);
  p.regex_ = regex;
  p.ignore_case_ = ignore_case;
  if (regex) {
    auto ere = Ere::Compile(pattern, Ere::Options{ignore_case, true}, argument);
    if (!ere) return Error{ere.error()};
    p.ere_ = std::make_shared<const Ere>(ere.take());
    return p;
  }
  if (!ignore_case) {
    p.literal_ = true;
    return p;
  }
  // ASCII bytes fold as PCRE2's caseless UTF-8 match (and git grep -i) folds them, but for k
  // and s, which also match the Kelvin sign and the long s: those stay on PCRE2.
  if (std::all_of(pattern.begin(), pattern.end(), [](char c) {
        return static_cast<unsigned char>(c) < 0x80 && Lower(c) != 'k' && Lower(c) != 's';
      })) {
    p.ascii_caseless_ = true;
    for (char c : pattern) p.lower_ += Lower(c);
    for (size_t i = 1; i < p.lower_.size(); ++i) {
      if (Commonness(p.lower_[i]) < Commonness(p.lower_[p.anchor_])) p.anchor_ = i;
    }
    return p;
  }
  // A pattern of ASCII bytes with k or s: PCRE2, on the lines where the bytes around its rarest
  // other byte, up to the nearest k or s either side, are there (ASCII case aside).
  if (std::all_of(pattern.begin(), pattern.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    auto ks = [](char c) { return Lower(c) == 'k' || Lower(c) == 's'; };
    for (char c : pattern) p.lower_ += Lower(c);
    bool found = false;
    for (size_t i = 0; i < p.lower_.size(); ++i) {
      if (ks(p.lower_[i])) continue;
      if (!found || Commonness(p.lower_[i]) < Commonness(p.lower_[p.anchor_])) p.anchor_ = i;
      found = true;
    }
    if (!found) {
      p.lower_.clear();
    } else {
      p.window_begin_ = p.anchor_;
      while (p.window_begin_ > 0 && !ks(p.lower_[p.window_begin_ - 1])) --p.window_begin_;
      p.window_end_ = p.anchor_ + 1;
      while (p.window_end_ < p.lower_.size() && !ks(p.lower_[p.window_end_])) ++p.window_end_;
    }
  }
  std::string error;
  auto code = CompileCaseless(pattern, &error);
  if (!code) return Error{prefix + "cannot be searched for (" + error + ")"};
  p.caseless_ = std::shared_ptr<const void>(code, code.get());
  return p;
}

bool TextPattern::FindCandidate(std::string_view bytes, size_t from, size_t* begin, size_t* end,
                                Ere::GaveUp* gave_up) const {
  if (literal_) return FindLiteral(bytes, text_, from, begin, end);
  if (ascii_caseless_) return FindCaselessAscii(bytes, lower_, anchor_, from, begin, end);
  if (ere_) return ere_->FindAcross(bytes, from, begin, end, gave_up);
  const auto& code = *static_cast<const Pcre2Code*>(caseless_.get());
  if (lower_.empty()) return MatchCode(code, bytes, from, begin, end);
  // Every match holds the window of the pattern around the anchor (ASCII bytes but k and s,
  // each matching only itself in either case) and lies on one line: PCRE2 runs only on the
  // lines where that window is.
  const std::string_view window =
      std::string_view(lower_).substr(window_begin_, window_end_ - window_begin_);
  const size_t left = anchor_ - window_begin_, right = window_end_ - anchor_;
  const char a = lower_[anchor_], b = Upper(a);
  const char* data = bytes.data();
  const size_t n = bytes.size();
  if (from > n) return false;
  auto next = [&](char c, size_t pos) -> const char* {
    return pos < n ? static_cast<const char*>(std::memchr(data + pos, c, n - pos)) : nullptr;
  };
  const char* pa = next(a, from + left);
  const char* pb = a == b ? nullptr : next(b, from + left);
  while (pa || pb) {
    const char* p = !pb || (pa && pa < pb) ? pa : pb;
    const size_t at = static_cast<size_t>(p - data);
    size_t resume = at + 1;
    if (n - at >= right && EqualsCaseless(bytes, at - left, window)) {
      const void* before = at > from ? memrchr(data + from, '\n', at - from) : nullptr;
      const size_t ls =
          before ? static_cast<size_t>(static_cast<const char*>(before) - data) + 1 : from;
      const void* after = std::memchr(p, '\n', n - at);
      const size_t le = after ? static_cast<size_t>(static_cast<const char*>(after) - data) : n;
      if (MatchCode(code, bytes.substr(0, le), ls, begin, end)) return true;
      resume = le + 1;  // nothing on this line
    }
    if (pa && pa - data < static_cast<std::ptrdiff_t>(resume)) pa = next(a, resume);
    if (pb && pb - data < static_cast<std::ptrdiff_t>(resume)) pb = next(b, resume);
  }
  return false;
}

bool TextPattern::FindInLine(std::string_view line, size_t from, size_t* begin, size_t* end,
                             Ere::GaveUp* gave_up) const {
  if (literal_) return FindLiteral(line, text_, from, begin, end);
  if (ascii_caseless_) return FindCaselessAscii(line, lower_, anchor_, from, begin, end);
  if (ere_) return ere_->Find(line, from, begin, end, gave_up);
  return MatchCode(*static_cast<const Pcre2Code*>(caseless_.get()), line, from, begin, end);
}

size_t DefaultThreads() {
  const unsigned n = std::thread::hardware_concurrency();
  return std::min<size_t>(std::max(1u, n), 8);
}

namespace {

struct LineSpan {
  size_t number = 0, begin = 0, end = 0;  // [begin, end): the line without its '\n'
};

ShownLine Shown(std::string_view bytes, const LineSpan& l, bool match) {
  std::string_view text = bytes.substr(l.begin, l.end - l.begin);
  // As read_file shows a line: its "\r\n" ending is no part of it.
  if (l.end < bytes.size() && !text.empty() && text.back() == '\r') text.remove_suffix(1);
  if (text.size() > ShownLine::kMaxLineBytes) text = text.substr(0, ShownLine::kMaxLineBytes);
  return ShownLine{l.number, match, std::string(text)};
}

// The matching lines of one text file, and the lines around them, into *out.
// False when the secret filter failed on the file (it must then not be shown at all; the
// failure is noted in *failures).
bool SearchBytes(std::string_view bytes, const std::string& path, const TextPattern& pattern,
                 const SecretFilter* secrets, const SearchOptions& o, FileHits* out,
                 ScanFailures* failures, std::string_view blob_id) {
  const size_t limit = o.files_only ? 1 : o.max_per_file;
  std::vector<LineSpan> matches;
  ScanResult scan;
  bool scanned = false;
  size_t pos = 0;          // always a line's start
  size_t counted = 0;      // newlines counted up to here
  size_t line_number = 1;  // of the line starting at `counted`
  const size_t n = bytes.size();
  while (pos <= n) {
    size_t b = 0, e = 0;
    Ere::GaveUp gave_up;
    const bool candidate = pattern.FindCandidate(bytes, pos, &b, &e, &gave_up);
    if (!candidate && !gave_up.any) break;
    if (!candidate) b = gave_up.begin;  // the line PCRE2 gave up on, as a candidate's
    if (b >= n && (n == 0 || bytes[n - 1] == '\n')) break;  // past the last line
    const void* before = b > pos ? memrchr(bytes.data() + pos, '\n', b - pos) : nullptr;
    const size_t ls =
        before ? static_cast<size_t>(static_cast<const char*>(before) - bytes.data()) + 1 : pos;
    const void* after = b < n ? std::memchr(bytes.data() + b, '\n', n - b) : nullptr;
    const size_t le =
        after ? static_cast<size_t>(static_cast<const char*>(after) - bytes.data()) : n;
    line_number += static_cast<size_t>(std::count(bytes.data() + counted, bytes.data() + ls, '\n'));
    counted = ls;
    if (secrets && !scanned) {
      scan = secrets->ScanBlob(blob_id, bytes, TextKind::kFile, path);
      scanned = true;
      if (!scan.ok()) {
        failures->Note(scan);
        return false;
      }
    }
    const std::string_view line = bytes.substr(ls, le - ls);
    bool ok = false;
    if (pattern.regex()) {
      size_t mb = 0, me = 0;
      Ere::GaveUp in_line;
      ok = candidate && pattern.FindInLine(line, 0, &mb, &me, &in_line);
      if (!ok && (gave_up.any || in_line.any) &&
          !(secrets && SecretFilter::LineHoldsHidden(scan.spans, ls, le))) {
        // Unknown, not "no match": named in the answer. A line holding a hidden value is not
        // (it never matches), or how costly a pattern is there would tell of the value.
        out->costly_lines.push_back(line_number);
        if (out->costly_lines.size() == FileHits::kMaxCostlyLines && le + 1 < n) {
          out->costly_rest = true;
          break;
        }
      }
      ok = ok && !(secrets && SecretFilter::LineHoldsHidden(scan.spans, ls, le));
    } else {
      // Any occurrence on the line clear of the hidden values; overlapping ones too.
      size_t from = b >= ls ? b - ls : 0, mb = 0, me = 0;
      while (!ok && pattern.FindInLine(line, from, &mb, &me)) {
        ok = !secrets || SecretFilter::Clear(scan.spans, ls + mb, ls + me);
        from = mb + 1;
      }
    }
    if (ok) {
      if (matches.size() == limit) {
        out->more = true;
        break;
      }
      matches.push_back({line_number, ls, le});
    }
    pos = le + 1;
  }
  out->matches = matches.size();
  if (o.files_only || matches.empty()) return true;

  // The lines to show: each match with up to `context` lines either side, merged; each run of
  // consecutive lines with the file's text around it.
  const size_t c = o.context;
  size_t last_shown = 0;              // number of the last line added (0: none)
  size_t run_begin = 0, run_end = 0;  // the bytes of the run being added
  auto end_run = [&] {
    if (out->runs.empty()) return;
    FileHits::Run& r = out->runs.back();
    if (!r.source) r.source = BlockSource::Around(bytes, run_begin, run_end);
  };
  auto add = [&](const LineSpan& l, bool match) {
    if (out->lines.empty() || l.number != out->lines.back().number + 1) {
      end_run();
      out->runs.push_back({out->lines.size(), 0, BlockSource()});
      run_begin = l.begin;
    }
    out->runs.back().count++;
    run_end = l.end + 1;  // where the next line starts
    out->lines.push_back(Shown(bytes, l, match));
  };
  for (size_t i = 0; i < matches.size(); ++i) {
    const LineSpan& m = matches[i];
    // Before: lines max(m - c, last_shown + 1) .. m - 1, found walking back from m.
    const size_t first = std::max(m.number > c ? m.number - c : 1, last_shown + 1);
    std::vector<LineSpan> back;
    size_t start = m.begin;
    for (size_t k = m.number; k > first; --k) {
      const size_t end = start - 1;  // the '\n' ending line k - 1
      const void* nl = end > 0 ? memrchr(bytes.data(), '\n', end) : nullptr;
      start = nl ? static_cast<size_t>(static_cast<const char*>(nl) - bytes.data()) + 1 : 0;
      back.push_back({k - 1, start, end});
    }
    for (auto it = back.rbegin(); it != back.rend(); ++it) add(*it, false);
    add(m, true);
    last_shown = m.number;
    // After: up to c lines, not reaching the next match (its own context takes over).
    const size_t stop_before = i + 1 < matches.size() ? matches[i + 1].number : SIZE_MAX;
    size_t next = m.end + 1;
    for (size_t k = 1; k <= c && m.number + k < stop_before && next < n; ++k) {
      const void* nl = std::memchr(bytes.data() + next, '\n', n - next);
      const size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - bytes.data()) : n;
      add({m.number + k, next, end}, false);
      last_shown = m.number + k;
      next = end + 1;
    }
  }
  end_run();
  return true;
}

}  // namespace

namespace {

using Steady = std::chrono::steady_clock;

// The readers one searching thread keeps: at most SearchOptions::kReadersPerThread, the least
// recently used closed first (its handle goes back to the repository's pool, bounded there).
class ReaderCache {
 public:
  Result<RepoReader>* Of(const ServedRepo* repo) {
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].first != repo) continue;
      std::rotate(slots_.begin() + i, slots_.begin() + i + 1, slots_.end());
      return slots_.back().second.get();
    }
    if (slots_.size() == SearchOptions::kReadersPerThread) slots_.erase(slots_.begin());
    slots_.emplace_back(repo, std::make_unique<Result<RepoReader>>(repo->Open()));
    return slots_.back().second.get();
  }

 private:
  std::vector<std::pair<const ServedRepo*, std::unique_ptr<Result<RepoReader>>>> slots_;
};

}  // namespace

SearchResult SearchText(const std::vector<SearchTarget>& targets, const TextPattern& pattern,
                        const SecretFilter* secrets, const SearchOptions& options,
                        const StopToken& stop) {
  SearchResult result;
  result.targets.resize(targets.size());
  const size_t threads = options.threads ? options.threads : DefaultThreads();
  if (targets.empty()) return result;
  const size_t walkers = std::min(threads, targets.size());
  WorkQueue queue(SearchOptions::kQueueItems, walkers);

  // What the threads share, under `mu`: the reports, the files kept (by target and place in
  // its walk; only the first in that order while their bytes fit keep_bytes), and from where
  // on a matching file is no longer kept.
  std::mutex mu;
  using Key = std::pair<size_t, size_t>;
  struct Kept {
    FileHits hits;
    size_t bytes = 0;
    size_t shown = 0;  // options.least_shown
  };
  std::map<Key, Kept> kept;
  std::map<Key, FileHits> costly;  // files a regular expression was too costly on
  ScanFailures failures;
  size_t kept_bytes = 0, kept_shown = 0;
  const bool bound_shown = static_cast<bool>(options.least_shown);
  Key cut_from{SIZE_MAX, SIZE_MAX};
  // The first target whose every file is past `cut_from` (Key{t, 0} >= cut_from), for the
  // walkers to read without `mu`: it only ever moves back, as cut_from does.
  std::atomic<size_t> first_target_past_cut{SIZE_MAX};
  std::vector<size_t> handled(targets.size(), 0);  // files searched, or known unreadable
  std::vector<std::vector<std::pair<size_t, RepoPath>>> unreadable_at(targets.size());

  // Per target: when its first file began (steady-clock ticks; 0 = not yet), and whether its
  // own time ran out.
  std::vector<std::atomic<Steady::rep>> began(targets.size());
  std::vector<std::atomic<bool>> out_of_time(targets.size());
  for (size_t t = 0; t < targets.size(); ++t) {
    began[t].store(0);
    out_of_time[t].store(false);
  }
  const bool timed = options.per_target.count() > 0;

  std::atomic<size_t> listed{0};  // files walked, every target
  std::atomic<size_t> walks_left{targets.size()};
  std::atomic<size_t> finished{0};
  std::atomic<uint64_t> read_bytes{0};  // the files' contents read, every target
  std::mutex progress_mu;
  // Counts a file searched (read, whatever came of it); never throws (it runs in a destructor).
  auto count_file = [&]() noexcept {
    if (!options.progress) return;
    const size_t n = finished.fetch_add(1, std::memory_order_relaxed) + 1;
    const bool all_listed = walks_left.load() == 0;
    const size_t total = listed.load();
    // The last file searched is told once every thread is done (below), with the total.
    if (n % SearchOptions::kProgressEvery != 0 || n == total) return;
    try {
      std::lock_guard<std::mutex> lock(progress_mu);
      options.progress(n, all_listed ? std::optional<size_t>(total) : std::nullopt);
    } catch (...) {
      // Progress is a courtesy: a report that fails is not sent, and the search goes on.
    }
  };

  // The trigrams any match must hold (core/index/trigrams.h): with a repository's text index,
  // a file whose content holds them not is known not to match, and is counted searched without
  // being read. A pattern that requires none is searched by reading every file.
  const TrigramQuery query = PlanTrigrams(pattern.text(), pattern.regex(), pattern.ignore_case());

  // What the kernel reported changing among the text index's lists (CurrentTextIndex): a list
  // written before this search is seen by it.
  RefsWatch::Shared().Catch();
  const uint64_t reported = RefsWatch::Shared().Reported();
  // Each target's index: as an earlier search over the same targets found it, while nothing was
  // reported since and the stores are as they were; else looked for, and kept for the next
  // search (result.indexes) when the watch vouched for every one.
  std::shared_ptr<const TargetIndexes> kept_indexes = options.indexes;
  if (kept_indexes) {
    bool holds = kept_indexes->reported == reported && kept_indexes->of.size() == targets.size();
    for (size_t s = 0; holds && s < kept_indexes->stores.size(); ++s) {
      holds = CurrentTextStore(kept_indexes->stores[s]->folder) == kept_indexes->stores[s];
    }
    if (!holds) kept_indexes = nullptr;
  }
  const bool making_indexes = !kept_indexes && !query.all;
  std::vector<std::shared_ptr<const TextIndex>> found_indexes(making_indexes ? targets.size() : 0);
  std::atomic<bool> all_vouched{making_indexes};
  // The text index's store of each target, looked at once a search (most organisations keep
  // one store for every repository), not once a repository.
  // Each walker remembers the last store it asked for (`last`): over an organisation the next
  // target's is nearly always the same one, found without a lock or a table.
  std::mutex stores_mu;
  std::map<std::string, std::shared_ptr<const TextStoreSnapshot>> stores;
  struct LastStore {
    const std::string* folder = nullptr;
    std::shared_ptr<const TextStoreSnapshot> snapshot;
  };
  auto store_of = [&](size_t t, LastStore* last) -> std::shared_ptr<const TextStoreSnapshot> {
    if (targets[t].repo->settings().index_folder.empty()) return nullptr;
    const std::string& folder = TextStoreFolderOf(*targets[t].repo);
    if (last->folder && (last->folder == &folder || *last->folder == folder)) {
      return last->snapshot;
    }
    std::lock_guard<std::mutex> lock(stores_mu);
    auto it = stores.find(folder);
    if (it == stores.end()) it = stores.emplace(folder, CurrentTextStore(folder)).first;
    last->folder = &folder;
    last->snapshot = it->second;
    return it->second;
  };

  // Over several repositories, each content under a path is read once (core/search/content_memo.h).
  ContentMemo own_memo;
  ContentMemo& memo = options.memo ? *options.memo : own_memo;
  const bool memoised = targets.size() > 1;

  // What the candidates of a run of a part came to (TextIndex::RunAt): the same files (paths
  // and contents) in every repository naming the part, so the same answers from the memo. Made
  // by the first walker that finds every one of them answered by the memo (none too costly);
  // then a repository past the files kept (`cut_from`) adds it up whole, without looking at
  // its paths: over an organisation of copies, a common word's millions of files are added up
  // once for each folder shared, not once for each repository.
  struct PartTally {
    size_t files = 0;  // candidates, each searched
    size_t binary = 0, matched_files = 0, matched_lines = 0;
    bool more = false;
    void Add(const PartTally& o) {
      files += o.files;
      binary += o.binary;
      matched_files += o.matched_files;
      matched_lines += o.matched_lines;
      more = more || o.more;
    }
  };
  struct RunKey {
    std::shared_ptr<const TextList> part;  // kept alive: the key's identity for the search
    size_t first = 0, length = 0;
    bool operator<(const RunKey& o) const {
      return std::tie(part, first, length) < std::tie(o.part, o.first, o.length);
    }
  };
  std::mutex tallies_mu;
  std::map<RunKey, PartTally> tallies;
  // What each target's files came to, counted without `mu`: the files its index passed over and
  // the runs its walker added up, and every file a searching thread (or a walker, from the memo)
  // read that leaves nothing to keep -- no costly line, and no match or one past the files kept
  // (`first_target_past_cut`). Over an organisation that is nearly every file, and two walkers
  // and two searching threads taking one lock a repository or a file spent more time on the
  // lock's futex calls than on the files. Added to the reports once every thread is done. (The
  // rest of a report the walker alone writes -- error, files, listed, too_deep -- it writes
  // without the lock too: no searching thread writes those.)
  struct FileCounts {
    std::atomic<size_t> searched{0}, binary{0}, matched_files{0}, matched_lines{0};
    std::atomic<bool> more{false};
  };
  std::vector<FileCounts> file_counts(targets.size());

  // What a file came to, recorded: its target's report, and the file kept when it matches (only
  // the first in walk order while their bytes fit keep_bytes). By the searching threads, and by
  // the walkers for a file the memo already answers (it never goes through the queue).
  enum class Outcome : uint8_t { kNotSearched, kSearched, kBinary, kUnreadable, kWithheld };
  auto record = [&](size_t t, size_t index, const Node& node, Outcome outcome, FileHits h) {
    if (h.costly_lines.empty() && (outcome == Outcome::kSearched || outcome == Outcome::kBinary) &&
        (!h.matches || t >= first_target_past_cut.load(std::memory_order_relaxed))) {
      FileCounts& c = file_counts[t];
      c.searched.fetch_add(1, std::memory_order_relaxed);
      if (outcome == Outcome::kBinary) c.binary.fetch_add(1, std::memory_order_relaxed);
      if (h.matches) {
        c.matched_files.fetch_add(1, std::memory_order_relaxed);
        c.matched_lines.fetch_add(h.matches, std::memory_order_relaxed);
        if (h.more) c.more.store(true, std::memory_order_relaxed);
      }
      return;
    }
    size_t bytes = 0, shown = 0;
    if (h.matches) {
      h.target = t;
      h.node = node;
      bytes = node.path.str().size() + sizeof(FileHits);
      for (const auto& l : h.lines) bytes += l.text.size() + 16;
      for (const auto& r : h.runs) bytes += r.source.text ? r.source.text->size() + 32 : 0;
      if (bound_shown) shown = options.least_shown(h);
    }
    std::lock_guard<std::mutex> lock(mu);
    TargetReport& report = result.targets[t];
    ++handled[t];
    switch (outcome) {
      case Outcome::kNotSearched:
        break;
      case Outcome::kSearched:
        report.searched++;
        break;
      case Outcome::kBinary:
        report.searched++;
        report.binary++;
        break;
      case Outcome::kWithheld:
        // The filter failed on the file: never shown; the caller withholds its answer.
        report.withheld++;
        break;
      case Outcome::kUnreadable: {
        report.unreadable++;
        auto& first = unreadable_at[t];
        first.emplace_back(index, node.path);
        std::sort(first.begin(), first.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        if (first.size() > SearchOptions::kNamedUnreadable) first.pop_back();
        break;
      }
    }
    if (!h.costly_lines.empty()) {
      FileHits c;
      c.target = t;
      c.node = node;
      c.costly_lines = h.costly_lines;
      c.costly_rest = h.costly_rest;
      costly.emplace(Key{t, index}, std::move(c));
    }
    if (!h.matches) return;
    report.matched_files++;
    report.matched_lines += h.matches;
    report.more = report.more || h.more;
    const Key key{t, index};
    if (key >= cut_from) return;
    kept[key] = Kept{std::move(h), bytes, shown};
    kept_bytes += bytes;
    kept_shown += shown;
    while (!kept.empty()) {
      auto last = std::prev(kept.end());
      if (kept_bytes <= options.keep_bytes &&
          !(bound_shown && kept_shown - last->second.shown > options.keep_shown)) {
        break;
      }
      kept_bytes -= last->second.bytes;
      kept_shown -= last->second.shown;
      cut_from = last->first;
      first_target_past_cut.store(cut_from.second == 0 ? cut_from.first : cut_from.first + 1,
                                  std::memory_order_relaxed);
      kept.erase(last);
    }
  };

  // 1. The walkers: each takes the next target, walks it and hands its files on as it goes.
  std::atomic<size_t> next_target{0};
  auto walk = [&] {
    LastStore last_store;
    TextList::Asked asked;  // what the parts and shards told of the query (MayMatchAny)
    TextIndexUse use;       // this walker's targets, counted once it is done
    Outbox outbox(&queue, &stop);
    for (size_t first; (first = next_target.fetch_add(kTargetsAtOnce)) < targets.size();) {
      const size_t last = std::min(targets.size(), first + kTargetsAtOnce);
      size_t counted_here = 0;  // files these targets' indexes passed over, or added up
      for (size_t t = first; t < last; ++t) {
        const SearchTarget& target = targets[t];
        size_t files = 0, too_deep = 0;
        bool whole = false;
        std::string error;
        // The repository's index, and which of its blobs may match; files passed over by it.
        // (Held for the whole search by kept_indexes or found_indexes: no count taken on it here.)
        const TextIndex* index = nullptr;
        if (!query.all && target.under.kind == EntryKind::kFolder) {
          if (kept_indexes) {
            index = kept_indexes->of[t].get();
            // The indexes of the targets the walkers take next, on their way into the cache while
            // this one is searched: over 20,000 repositories, most of a rare token's search is
            // waiting for each index's first lines (its commit and Screen).
            for (size_t ahead = t + 2; ahead < t + 4 && ahead < targets.size(); ++ahead) {
              if (const TextIndex* next = kept_indexes->of[ahead].get()) next->Prefetch();
            }
          } else {
            bool vouched = false;
            found_indexes[t] = CurrentTextIndex(*target.repo, store_of(t, &last_store), &vouched);
            if (!vouched) all_vouched.store(false, std::memory_order_relaxed);
            index = found_indexes[t].get();
          }
        }
        const bool listed_by_index =
            index && git_oid_equal(&index->commit(), &target.at.commit.id.oid()) != 0;
        // At the commit its index lists: the list's paths below the folder searched (all of them
        // for the root), [range_begin, range_end), found by halving.
        const std::string& under_path = target.under.path.str();
        size_t range_begin = 0, range_end = 0;
        bool listed_range = listed_by_index;
        if (listed_by_index) {
          bool file = false;
          if (under_path.empty()) {
            range_end = index->paths();
          } else {
            index->PathsUnder(under_path, &range_begin, &range_end, &file);
          }
          listed_range = !file;  // (a folder the list holds as a file: not this list's tree)
        }
        // The binary paths of the range: the index's count for the whole tree, else counted.
        auto binary_in_range = [&] {
          if (under_path.empty()) return index->binary_paths();
          size_t n = 0;
          for (size_t i = range_begin; i < range_end; ++i) {
            n += index->Kind(index->Path(i).blob) == BlobKind::kBinary;
          }
          return n;
        };
        // The folder at the commit its index lists, and no file of the index can match (most
        // repositories of an organisation, for a rare token): every file is counted as searched
        // from the index's counts, and neither the list nor the repository is read.
        const bool none_can_match = listed_range && !index->MayMatchAny(query, &asked);
        // Which files may match: at the commit the list names, with every content found in the
        // store, the paths themselves (each part's found once a search for every repository naming
        // it), those of the range; else a flag a blob, for the paths and the tree's files.
        std::vector<bool> maybe;
        std::vector<size_t> candidates;
        const bool by_paths = listed_range && !none_can_match && index->missing() == 0;
        // With the paths: the runs already added up (PartTally) when none of this repository's
        // files is to be kept (Key{t, 0} past `cut_from`, which only ever moves back).
        const bool tally_runs = by_paths && memoised && target.repo->settings().fetcher == nullptr;
        std::vector<bool> skip_run;
        PartTally skipped;
        // A run inside the range (a whole part's run, to add up); a run outside it is skipped.
        auto inside = [&](const TextIndex::PathRun& run) {
          return run.begin >= range_begin && run.begin + run.length <= range_end;
        };
        if (by_paths && !under_path.empty()) {
          skip_run.assign(index->runs(), false);
          for (size_t r = 0; r < index->runs(); ++r) {
            const TextIndex::PathRun run = index->RunAt(r);
            skip_run[r] = run.begin >= range_end || run.begin + run.length <= range_begin;
          }
        }
        // (Read as it stands: one read a moment late only walks the target in full.)
        const bool past_cut =
            tally_runs && t >= first_target_past_cut.load(std::memory_order_relaxed);
        if (past_cut && index->parts() > 0) {
          skip_run.resize(index->runs(), false);
          std::lock_guard<std::mutex> lock(tallies_mu);
          for (size_t r = 0; r < index->runs(); ++r) {
            const TextIndex::PathRun run = index->RunAt(r);
            if (!run.part || skip_run[r] || !inside(run)) continue;
            auto it = tallies.find(RunKey{*run.part, run.first, run.length});
            if (it == tallies.end()) continue;
            skip_run[r] = true;
            skipped.Add(it->second);
          }
        }
        if (index && !none_can_match &&
            !(by_paths ? index->CandidatePaths(query, &candidates,
                                               skip_run.empty() ? nullptr : &skip_run)
                       : index->Candidates(query, &maybe))) {
          index = nullptr;
        }
        if (by_paths && index && !under_path.empty()) {  // a run across the range's edge
          candidates.erase(
              std::remove_if(candidates.begin(), candidates.end(),
                             [&](size_t i) { return i < range_begin || i >= range_end; }),
              candidates.end());
        }
        size_t passed = 0, passed_binary = 0;
        PartTally tallied;  // the runs added up whole (PartTally)
        // True when the index tells `blob` cannot match: it is counted as searched.
        auto pass_over = [&](size_t blob) {
          if (blob == SIZE_MAX || maybe[blob]) return false;
          passed++;
          if (index->Kind(blob) == BlobKind::kBinary) passed_binary++;
          return true;
        };
        if (stop.stopped()) {  // not reached: nothing of it is opened
          continue;
        }
        // The repository is opened only when something of it must be read: a target whose index
        // lists its commit and tells that no file can match needs nothing of it.
        std::optional<Result<RepoReader>> opened;
        auto open = [&]() -> RepoReader* {
          if (!opened) opened.emplace(target.repo->Open());
          if (!*opened) {
            if (error.empty()) error = opened->error();
            return nullptr;
          }
          return &opened->value();
        };
        RepoReader* reader = listed_by_index && index ? nullptr : open();
        if (none_can_match) {
          files = passed = range_end - range_begin;
          passed_binary = binary_in_range();
          whole = true;
        } else if (!(listed_by_index && index) && !reader) {
          // error says why
        } else if (target.under.kind != EntryKind::kFolder) {
          whole = true;
          if (target.under.kind == EntryKind::kFile) {
            reader->FetchMissing({target.under}, stop);
            whole = outbox.Push(WorkItem{t, files++, target.under, target.listed});
            if (whole) listed.fetch_add(1);
          }
        } else {
          // A mirror fetches, in batches, the contents its local copy lacks (an older ref):
          // files wait here until a batch is full.
          const bool fetching = target.repo->settings().fetcher != nullptr;
          std::vector<Node> batch;
          // Beside each file of the batch, what the memo answered for it when the list was read
          // (null: not asked, or not known then), so that it is not asked twice.
          std::vector<std::shared_ptr<const ContentMemo::Done>> answered;
          std::vector<bool> verify;  // beside each: WorkItem::verify
          bool cut = false;
          auto flush = [&] {
            if (batch.empty()) return;
            if (fetching) {                  // (only a mirror that fetches has anything to fetch)
              if (!reader) reader = open();  // never null here: the files came through it
              if (reader) reader->FetchMissing(batch, stop);
            }
            for (size_t k = 0; k < batch.size(); ++k) {
              if (cut) break;
              Node& n = batch[k];
              // A content another repository of this search already read under this path is
              // answered here from the memo: no work item, no searching thread woken for it
              // (over an organisation of copies, most of the files that may match).
              if (memoised && !fetching) {
                auto done = answered[k] ? answered[k] : memo.Find(ContentMemo::Key(n));
                if (done) {
                  listed.fetch_add(1);
                  record(t, files++, n, done->binary ? Outcome::kBinary : Outcome::kSearched,
                         done->hits);
                  count_file();
                  continue;
                }
              }
              if (!outbox.Push(WorkItem{t, files, std::move(n), verify[k]})) {
                cut = true;
                break;
              }
              ++files;
              listed.fetch_add(1);
            }
            batch.clear();
            answered.clear();
            verify.clear();
          };
          if (listed_by_index && index) {
            // The commit the index lists: its files in walk order, without reading the tree.
            // Each file to read is found again in the tree first (its path served, its content
            // the one listed), so that nothing but the repository decides what is read; an index
            // that disagrees is not used. (A file the memo already answers is not read at all.)
            const std::string& under = target.under.path.str();
            struct ToRead {
              Node node;
              std::shared_ptr<const ContentMemo::Done> done;  // what the memo answered, if it did
              bool verify = false;                            // WorkItem::verify
            };
            std::vector<ToRead> to_read;  // in the list's order
            const bool memo_listed = memoised && !fetching;
            size_t listed_files = 0;
            if (by_paths && index) {
              // Every path of the range but the candidates (and the runs added up) passed over:
              // binary contents are never candidates.
              listed_files = range_end - range_begin;
              passed = listed_files - candidates.size() - skipped.files;
              passed_binary = binary_in_range() - skipped.binary;
            }
            // The run of a part being gone through (with the paths, not skipped), and what its
            // candidates came to while each is answered by the memo.
            // (A walk cut short stops at a candidate not answered: never a run's tally in part.)
            size_t run = SIZE_MAX, run_end = 0;
            bool run_whole = false;
            PartTally run_tally, answered_here;
            auto end_run = [&] {
              if (!run_whole) return;
              run_whole = false;
              const TextIndex::PathRun r = index->RunAt(run);
              std::lock_guard<std::mutex> lock(tallies_mu);
              tallies.emplace(RunKey{*r.part, r.first, r.length}, run_tally);
            };
            auto enter_run = [&](size_t path) {  // the run holding `path`, past the last one's
              end_run();
              while (run_end <= path) {
                run = run == SIZE_MAX ? 0 : run + 1;
                const TextIndex::PathRun r = index->RunAt(run);
                run_end = r.begin + r.length;
                run_whole = r.part != nullptr && inside(r);
              }
              run_tally = PartTally{};
            };
            const size_t steps = by_paths ? candidates.size() : index ? index->paths() : 0;
            for (size_t k = 0; k < steps && index; ++k) {
              if (tally_runs && candidates[k] >= run_end) enter_run(candidates[k]);
              const TextIndex::PathEntry e = index->Path(by_paths ? candidates[k] : k);
              if (!by_paths) {
                if (!under.empty() &&
                    (e.path.size() <= under.size() || e.path[under.size()] != '/' ||
                     e.path.compare(0, under.size(), under) != 0)) {
                  continue;
                }
                ++listed_files;
                if (pass_over(e.blob)) continue;
              }
              std::shared_ptr<const ContentMemo::Done> done;
              std::string key;
              bool claimed = false;
              if (memo_listed) {
                key = ContentMemo::Key(index->Oid(e.blob), e.path);
                done = memo.Find(key, &claimed);
              }
              PartTally one;  // what it came to, when the memo answers it
              if (claimed && done && done->hits.costly_lines.empty()) {
                one.files = 1;
                one.binary = done->binary;
                one.matched_files = done->hits.matches > 0;
                one.matched_lines = done->hits.matches;
                one.more = done->hits.more;
                run_tally.Add(one);
                // Past the files kept, a file the memo answers is counted here, as the runs added
                // up are: no node made, nothing recorded one by one (a common word's root files).
                if (past_cut) {
                  answered_here.Add(one);
                  continue;
                }
              } else {
                run_whole = false;
              }
              auto path = RepoPath::Parse(e.path);
              if (!path) {  // never from the memo: found in the tree below, and refused there
                key.clear();
                done = nullptr;
                claimed = false;
              }
              if (claimed) {
                // Already read under this path in another repository of this search (answered
                // from the memo), or on its way to be: the list trusted for where the content is
                // as it is trusted for what cannot match. The repository is neither opened nor its
                // tree read here; a copy still to read is found again by the searching thread.
                to_read.push_back(
                    ToRead{Node{path.take(), EntryKind::kFile, index->Oid(e.blob), e.executable},
                           done, !done});
                continue;
              }
              if (!reader && !(reader = open())) break;
              auto node = path ? reader->Find(target.at, *path, stop) : Result<Node>(Error{""});
              if (!node || node->kind != EntryKind::kFile ||
                  !git_oid_equal(&node->oid, &index->Oid(e.blob))) {
                if (stop.stopped()) {
                  cut = true;
                  break;
                }
                index = nullptr;
                break;
              }
              if (!key.empty()) memo.Claim(key);
              to_read.push_back(ToRead{node.take(), nullptr});
            }
            if (tally_runs && index) end_run();
            if (!error.empty()) {
              // The repository could not be opened to read a file: nothing of it is searched.
              files = passed = passed_binary = 0;
              cut = true;
            } else if (index) {
              // flush numbers the files it hands on in order; the count is the listing's.
              for (ToRead& r : to_read) {
                if (out_of_time[t].load(std::memory_order_relaxed) || stop.stopped()) {
                  cut = true;
                  break;
                }
                batch.push_back(std::move(r.node));
                answered.push_back(std::move(r.done));
                verify.push_back(r.verify);
                if (!fetching || batch.size() == ContentFetcher::kMaxIdsPerFetch) flush();
              }
              if (!cut) flush();
              files = listed_files;
              whole = !cut;
              tallied = skipped;
              tallied.Add(answered_here);
            }
          }
          if (!cut && (!index || !git_oid_equal(&index->commit(), &target.at.commit.id.oid()))) {
            // Another commit: its tree is read, and the files whose contents the index holds are
            // judged by it; the others (changed since it was built) are read.
            if (!index) {  // started over: nothing passed over yet is kept
              files = passed = passed_binary = 0;
              cut = false;
            }
            if (!reader) reader = open();
            Status walked = Status(Error{error});  // when it could not be opened
            // A folder found in the list (SearchTarget::listed): found in the tree first.
            Node under = target.under;
            if (reader && target.listed) {
              auto found = reader->Find(target.at, under.path, stop);
              if (found && found->kind == EntryKind::kFolder) {
                under = found.take();
              } else {  // the list named a folder the tree does not hold: nothing of it searched
                error =
                    found ? "`" + under.path.Display() + "` is not a folder there" : found.error();
                walked = Status(Error{error});
                reader = nullptr;
              }
            }
            if (reader) {
              walked = reader->Walk(
                  under, stop,
                  [&](const Node& node) {
                    if (out_of_time[t].load(std::memory_order_relaxed) || stop.stopped()) {
                      cut = true;
                      return false;
                    }
                    if (node.kind != EntryKind::kFile) return true;
                    if (index && pass_over(index->Find(node.oid))) {
                      ++files;
                      return true;
                    }
                    batch.push_back(node);
                    answered.push_back(nullptr);
                    verify.push_back(false);
                    if (!fetching || batch.size() == ContentFetcher::kMaxIdsPerFetch) flush();
                    return !cut;
                  },
                  &too_deep);
            }
            if (!cut) flush();
            whole = walked && !cut;
          }
        }
        {
          // Fields no searching thread writes (file_counts: added to by both).
          TargetReport& report = result.targets[t];
          report.error = std::move(error);
          report.files = files;
          report.listed = whole;
          report.too_deep = too_deep;
          // What the index passed over is searched: no line of it can match.
          FileCounts& c = file_counts[t];
          c.searched.fetch_add(passed + tallied.files, std::memory_order_relaxed);
          c.binary.fetch_add(passed_binary + tallied.binary, std::memory_order_relaxed);
          c.matched_files.fetch_add(tallied.matched_files, std::memory_order_relaxed);
          c.matched_lines.fetch_add(tallied.matched_lines, std::memory_order_relaxed);
          if (tallied.more) c.more.store(true, std::memory_order_relaxed);
        }
        counted_here += passed + tallied.files;
        if (index) {
          use.targets++;
          use.files_passed_over += passed;
          use.other_commit += !listed_by_index;
          use.unopened += !opened.has_value();
          use.files_added_up += tallied.files;
        }
      }
      if (counted_here) {
        listed.fetch_add(counted_here);
        finished.fetch_add(counted_here);
      }
      walks_left.fetch_sub(last - first);
    }
    CountTextIndexUse(use);
    outbox.Flush();
    queue.WalkerDone();
  };

  // 2. The searching threads: every file handed on, read and matched.
  auto search = [&] {
    ReaderCache readers;
    std::deque<WorkItem> taken;  // from the queue, a few at a time
    for (;;) {
      if (taken.empty() && !queue.PopSome(&taken, kTakenAtOnce)) break;
      std::optional<WorkItem> item(std::move(taken.front()));
      taken.pop_front();
      if (stop.stopped()) continue;
      const size_t t = item->target;
      if (timed) {
        if (out_of_time[t].load(std::memory_order_relaxed)) continue;
        const Steady::rep now = Steady::now().time_since_epoch().count();
        Steady::rep first = 0;
        if (!began[t].compare_exchange_strong(first, now)) {
          if (Steady::duration(now - first) >= options.per_target) {
            out_of_time[t].store(true, std::memory_order_relaxed);
            continue;
          }
        }
      }
      struct Counted {  // however the file's turn ends from here
        decltype(count_file)& count;
        ~Counted() { count(); }
      } counted{count_file};
      Node& node = item->node;
      Outcome outcome = Outcome::kSearched;
      FileHits h;
      std::shared_ptr<const ContentMemo::Done> done;
      std::string memo_at;
      bool mine = false;  // this thread is to read the content for the memo (Keep or Release)
      // (A mirror that fetches what its copy lacks could fail to read what another read: its
      // files are read as they come, so that the answer never depends on the order.)
      const bool memo_here = memoised && targets[t].repo->settings().fetcher == nullptr;
      if (memo_here) {
        memo_at = ContentMemo::Key(node);
        done = memo.Take(memo_at, stop, &mine);
      }
      auto release = [&] {
        if (mine) memo.Release(memo_at);
        mine = false;
      };
      if (done) {
        outcome = done->binary ? Outcome::kBinary : Outcome::kSearched;
        h = done->hits;
      } else {
        Result<RepoReader>* reader = readers.Of(targets[t].repo);
        if (!*reader) {
          release();
          std::lock_guard<std::mutex> lock(mu);
          if (result.targets[t].problem.empty()) result.targets[t].problem = reader->error();
          continue;
        }
        if (item->verify) {
          // Listed, not found again by the walker: found in the tree now, so that nothing but
          // the repository decides what is read. (A list that disagrees would be damaged in a
          // way its checks cannot see: the tree's file is read, or none when it serves none.)
          auto found = (*reader)->Find(targets[t].at, node.path, stop);
          if (!found || found->kind != EntryKind::kFile) {
            release();
            record(t, item->index, node, Outcome::kNotSearched, FileHits{});
            continue;
          }
          if (!git_oid_equal(&found->oid, &node.oid)) {
            release();
            node = found.take();
            memo_at = ContentMemo::Key(node);
          }
        }
        auto data = (*reader)->Read(node);
        if (data) read_bytes.fetch_add(data->bytes().size(), std::memory_order_relaxed);
        if (!data) {
          outcome = Outcome::kUnreadable;
        } else if (data->kind == FileData::Kind::kBinary) {
          outcome = Outcome::kBinary;
        } else if (!SearchBytes(data->bytes(), node.path.str(), pattern, secrets, options, &h,
                                &failures, BlobIdOf(node))) {
          outcome = Outcome::kWithheld;
          h = FileHits{};
        }
        if (memo_here && (outcome == Outcome::kSearched || outcome == Outcome::kBinary)) {
          memo.Keep(std::move(memo_at), outcome == Outcome::kBinary, h);
          mine = false;
        }
        release();
      }
      record(t, item->index, node, outcome, std::move(h));
    }
  };

  {
    std::vector<std::thread> pool;
    for (size_t w = 0; w < walkers; ++w) pool.emplace_back(walk);
    for (size_t s = 1; s < threads; ++s) pool.emplace_back(search);
    search();
    for (auto& t : pool) t.join();
  }
  // What the threads read is freed by now, in their own parts of the heap: given back to the
  // system after a large search, not kept by the process until the next one.
  if (options.memo) options.memo->Settle();
  if (read_bytes.load() >= kGiveBackAfterBytes) GiveBackFreeHeap();
  if (options.progress && finished.load() > 0 && finished.load() == listed.load()) {
    try {
      options.progress(finished.load(), listed.load());
    } catch (...) {
    }
  }

  size_t matched = 0;
  for (size_t t = 0; t < targets.size(); ++t) {
    TargetReport& report = result.targets[t];
    const FileCounts& c = file_counts[t];
    report.searched += c.searched.load();
    report.binary += c.binary.load();
    handled[t] += c.searched.load();
    report.matched_files += c.matched_files.load();
    report.matched_lines += c.matched_lines.load();
    report.more = report.more || c.more.load();
    for (auto& [index, path] : unreadable_at[t]) report.unreadable_first.push_back(std::move(path));
    report.partial = report.error.empty() && (!report.listed || handled[t] < report.files);
    report.out_of_time = out_of_time[t].load() && report.partial;
    if (!report.partial || report.out_of_time) report.problem.clear();
    matched += report.matched_files;
    result.stopped = result.stopped || report.partial;
  }
  result.files.reserve(kept.size());
  for (auto& [key, k] : kept) result.files.push_back(std::move(k.hits));
  result.unkept = matched - result.files.size();
  for (auto& [key, c] : costly) result.too_costly.push_back(std::move(c));
  result.filter_failure = failures.First();
  result.read_bytes = read_bytes.load();
  if (making_indexes && all_vouched.load() && !stop.stopped()) {
    auto made = std::make_shared<TargetIndexes>();
    made->reported = reported;
    for (auto& [folder, store] : stores) made->stores.push_back(store);
    made->of = std::move(found_indexes);
    result.indexes = std::move(made);
  }
  if (result.stopped && stop.stopped()) result.why = stop.Why();
  return result;
}

}  // namespace rr
