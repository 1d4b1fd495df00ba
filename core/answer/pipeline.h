// The answer pipeline: every answer and every error a tool gives passes through here, and the
// MCP layer sends nothing to an agent from a tool that did not come out of it. Stages, in order:
//   the tool's draft -> header (where it read) -> cap at limits.answer_characters with a note
//   saying what was left out and how to continue -> the secret filter -> output filters.
// Host links and guidance join between the header and the cap.
//
// Guidance (core/guidance/guidance_join.h fills Draft's guidance fields from the call's
// arguments, for every tool) comes first: the line saying the repository carries guidance, then
// each scoped rule whole, between its `=== Guidance … ===` opener and one closing
// `=== End of guidance — the answer follows ===`, then the answer as the tool drafted it. It
// takes at most half of answer_characters: a rule that does not fit is left out whole and named
// (never cut mid-rule), and the answer is capped in what is left. Its texts pass the secret
// filter like every other piece, each rule's lines as the lines of its own file.
//
// The secret filter sees every piece of the answer: the body as one text (so a private key's
// block is seen whole), the header, the cut note and the closing lines. The body is typed by
// what its lines are (Draft::ShowsFile and the like, parts, a tool's own lines) and by where they
// come from: each block of lines shown from one source — a window of a file (a file read, blamed,
// or shown as a repository's index), a run of a text search's lines, a diff's hunk — carries that
// source (Draft::Block, core/secrets/block_source.h), and the filter reads the source's lines just
// before and after the block with it, never shown: a value recognised by its neighbours (a YAML
// block scalar under `password: >-`, an AWS secret key under its key id, a private key's body under
// its BEGIN line) is hidden in whatever window, context line, hunk or blame's range shows it. A
// window of a file carries the whole blob instead (BlockSource::Of): the filter reads the blob's
// whole text once, keeps what it found by the blob's id (core/secrets/scan_cache.h, in the filter's
// own cache), and the window's lines are hidden from that, so the same file read again in any
// window is not scanned again. Tools hand the pipeline blocks; they do not compute what is read
// around them. The filter runs before the cap is measured, so the cap counts what is shown; a value
// it hides becomes `[hidden: <what>]`, and the answer then ends saying how many were hidden (room
// for that line is kept inside the cap). If a detector fails, the answer is withheld, never shown
// unfiltered.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/answer/draft.h"
#include "core/answer/host_links.h"
#include "core/secrets/secret_filter.h"

namespace rr {

inline constexpr const char* kEndOfGuidance = "=== End of guidance — the answer follows ===";

// A stage that sees the finished text last and may rewrite it (the secret filter plugs in
// here). Must be thread-safe: answers are finished on many threads at once.
class OutputFilter {
 public:
  virtual ~OutputFilter() = default;
  virtual std::string Apply(std::string text) const = 0;
};

// What a pipeline has done since the server started, for /metrics. Shared by a pipeline's
// copies; counted as answers are finished, on any thread.
struct AnswerCounts {
  std::atomic<uint64_t> answers{0};   // answers and errors finished
  std::atomic<uint64_t> cut{0};       // answers cut at the cap
  std::atomic<uint64_t> hidden{0};    // values the secret filter hid in them
  std::atomic<uint64_t> withheld{0};  // answers withheld because a detector failed
};

class AnswerPipeline {
 public:
  // `secrets` may be null only where no repository data can reach an answer (unit tests of the
  // pipeline's cap); the server always gives one (with no detector when the operator turned
  // the built-in ones off).
  AnswerPipeline(size_t answer_characters,
                 std::vector<std::shared_ptr<const OutputFilter>> filters = {},
                 std::shared_ptr<const SecretFilter> secrets = nullptr,
                 std::shared_ptr<const HostLinks> links = nullptr);

  // The full answer for a draft.
  std::string Finish(Draft draft) const;
  // An error message, capped and filtered like any answer.
  std::string FinishError(std::string_view message) const;

  size_t answer_characters() const { return limit_; }
  const std::shared_ptr<const SecretFilter>& secrets() const { return secrets_; }
  const AnswerCounts& counts() const { return *counts_; }

 private:
  class Hider;
  struct Laid;
  // The guidance of a draft as shown, within half of the answer.
  Laid LayGuidance(Draft& d) const;
  std::string Filter(std::string text) const;
  std::string Withheld(const std::string& failure) const;
  // The host link line for `d` showing its first `shown` lines, or "".
  std::string LinkLine(const Draft& d, size_t shown) const;

  size_t limit_;
  std::vector<std::shared_ptr<const OutputFilter>> filters_;
  std::shared_ptr<const SecretFilter> secrets_;
  std::shared_ptr<AnswerCounts> counts_ = std::make_shared<AnswerCounts>();
  std::shared_ptr<const HostLinks> links_;
};

}  // namespace rr
