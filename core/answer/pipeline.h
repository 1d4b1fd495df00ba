// The answer pipeline: every answer and every error a tool gives passes through here, and the
// MCP layer sends nothing to an agent from a tool that did not come out of it. Stages, in order:
//   the tool's draft -> header (where it read) -> cap at limits.answer_characters with a note
//   saying what was left out and how to continue -> output filters (last: the secret filter).
// Host links and guidance join between the header and the cap.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rr {

// What a tool hands the pipeline: a first line and the body, one unit a line.
struct Draft {
  std::string header;
  std::vector<std::string> lines;
  // Optional: the first line once the cut is known (`shown` lines kept), e.g. read_file's
  // "lines 1–850 of 3001". Without it, `header` is used.
  std::function<std::string(size_t shown)> header_for;
  // Optional: the note for a cut answer; lines[first] is the first line left out.
  // It says what was left out and exactly how to continue.
  std::function<std::string(const std::vector<std::string>& lines, size_t first)> cut_note;
  // Lines after the body that are kept whole (short closing remarks).
  std::vector<std::string> closing;
};

// A stage that sees the finished text last and may rewrite it (the secret filter plugs in
// here). Must be thread-safe: answers are finished on many threads at once.
class OutputFilter {
 public:
  virtual ~OutputFilter() = default;
  virtual std::string Apply(std::string text) const = 0;
};

class AnswerPipeline {
 public:
  AnswerPipeline(size_t answer_characters,
                 std::vector<std::shared_ptr<const OutputFilter>> filters = {});

  // The full answer for a draft.
  std::string Finish(const Draft& draft) const;
  // An error message, capped and filtered like any answer.
  std::string FinishError(std::string_view message) const;

  size_t answer_characters() const { return limit_; }

 private:
  std::string Filter(std::string text) const;

  size_t limit_;
  std::vector<std::shared_ptr<const OutputFilter>> filters_;
};

}  // namespace rr
