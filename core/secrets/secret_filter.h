// SecretFilter: finds the values that look like secrets in a text, with the detectors in force
// (the built-in ones and the operator's plugins), and hides them. The answer pipeline runs it
// on every piece of every answer and error; search, grep and log use its spans to refuse
// matches that would confirm a guessed secret (Clear, LineHoldsHidden, HoldsHidden).
//
// One pass finds every keyword of every detector (case-insensitive, a byte-class Aho–Corasick
// automaton); a detector is then called only when one of its keywords occurs, with where each
// occurrence begins. Detectors without keywords are called on every text.
//
// Thread-safe: const after construction; Scan runs on many threads at once.
// Containment: a detector that throws, or reports a span outside the text, fails the scan
// (ScanResult::failure says which and how); callers then withhold the text, never show it.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/secrets/scan_cache.h"
#include "repo_reader/secret_detector.h"

namespace rr {

using repo_reader::TextKind;

// A hidden stretch of a text: [begin, end) in bytes, and what it looked like.
struct HiddenSpan {
  size_t begin = 0, end = 0;
  std::string what;
};

struct ScanResult {
  std::vector<HiddenSpan> spans;  // sorted, non-overlapping (overlaps merged)
  std::string failure;            // non-empty: a detector failed; the text must be withheld
  std::string failed_by;          // which detector, without what it said (safe to log as is)
  bool ok() const { return failure.empty(); }
};

class SecretFilter {
 public:
  // A detector in force, and what keeps the library that made it loaded.
  struct Detector {
    std::shared_ptr<const repo_reader::SecretDetector> detector;
    std::string plugin;  // the plugin's name, for reports
    // "file:line:column" of the configuration entry naming the plugin, for Make's errors; ""
    // for a plugin no entry names (the built-in ones).
    std::string where;
  };

  // Asks each detector for its keywords (a detector that throws there, or gives one the filter
  // cannot use, fails construction: null, and *error says which detector of which plugin and,
  // when the detector has one, its configuration entry's `where` first).
  static std::shared_ptr<const SecretFilter> Make(std::vector<Detector> detectors,
                                                  std::string* error);

  // The spans to hide in `text`. `path` is the file the text comes from, when known.
  ScanResult Scan(std::string_view text, TextKind kind, std::string_view path = {}) const;

  // Scan of the whole blob `blob_id` whose bytes are `bytes`, as Scan reads it, kept in
  // blob_scans() by the blob's id, size and a hash of its bytes, `kind` and `path`: the same
  // blob searched again is not read by the detectors again. A failed scan is not kept. Without
  // an id, Scan.
  ScanResult ScanBlob(std::string_view blob_id, std::string_view bytes, TextKind kind,
                      std::string_view path) const;

  // `text` with every span shown as `[hidden: <what>]`.
  static std::string Redact(std::string_view text, const std::vector<HiddenSpan>& spans);

  // --- The match-veto API: a guessed secret cannot be confirmed.
  // True when [begin, end) overlaps no hidden span: a plain-text match there may be shown.
  static bool Clear(const std::vector<HiddenSpan>& spans, size_t begin, size_t end);
  // True when the line [line_begin, line_end) holds (part of) a hidden span: a regular
  // expression never counts a match on such a line.
  static bool LineHoldsHidden(const std::vector<HiddenSpan>& spans, size_t line_begin,
                              size_t line_end);
  // True when `text` holds any value to hide, or the scan failed (then it must not be shown
  // either): log's message filter skips such a commit.
  bool HoldsHidden(std::string_view text, TextKind kind) const;

  size_t detector_count() const { return detectors_.size(); }
  // What this filter found in whole blobs, by their ids (scan_cache.h): this filter's detectors
  // only, so a filter made again (a plugin reloaded) starts with an empty one.
  ScanCache& blob_scans() const { return *blob_scans_; }
  // The distinct plugin names the detectors come from, in load order.
  std::vector<std::string> plugins() const;

  ~SecretFilter();

 private:
  SecretFilter() = default;
  struct Automaton;
  struct Compiled {
    Detector d;
    std::string id;
    std::vector<std::string> keywords;
    std::string running;  // "secret detector `id` of plugin `p`": the crash note while it runs
  };
  std::vector<Compiled> detectors_;
  std::vector<size_t> always_;  // detectors without keywords
  std::unique_ptr<Automaton> automaton_;
  std::unique_ptr<ScanCache> blob_scans_ = std::make_unique<ScanCache>();
};

// The first failure of the secret filter during one call, noted by the threads that scan what
// the call reads (search's files, log's messages) so that the tool withholds its answer
// (Draft::withheld) instead of leaving out what could not be checked. Thread-safe.
class ScanFailures {
 public:
  void Note(const ScanResult& r) {
    if (r.ok()) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (first_.empty()) first_ = r.failure;
  }
  // The first failure (ScanResult::failure), or "".
  std::string First() const {
    std::lock_guard<std::mutex> lock(mu_);
    return first_;
  }

 private:
  mutable std::mutex mu_;
  std::string first_;
};

// The message ending an answer that hid `count` values (count > 0).
std::string HiddenNote(size_t count);

}  // namespace rr
