#include "core/answer/pipeline.h"

#include "core/util/text.h"

namespace rr {
namespace {

std::string CutToCodePoints(std::string s, size_t n) {
  if (CodePoints(s) <= n) return s;
  s.resize(PrefixBytes(s, n));
  return s;
}

}  // namespace

AnswerPipeline::AnswerPipeline(size_t answer_characters,
                               std::vector<std::shared_ptr<const OutputFilter>> filters)
    : limit_(answer_characters), filters_(std::move(filters)) {}

std::string AnswerPipeline::Filter(std::string text) const {
  for (const auto& f : filters_) text = f->Apply(std::move(text));
  return text;
}

std::string AnswerPipeline::FinishError(std::string_view message) const {
  std::string text(message);
  if (CodePoints(text) > limit_) {
    const std::string note = "\n[the message was cut at " + WithCommas(limit_) + " characters]";
    text = CutToCodePoints(std::move(text), limit_ > note.size() ? limit_ - note.size() : 0) + note;
  }
  return Filter(std::move(text));
}

std::string AnswerPipeline::Finish(const Draft& d) const {
  const size_t n = d.lines.size();
  std::vector<size_t> cost(n);  // code points of each line, with its newline
  size_t body = 0;
  for (size_t i = 0; i < n; ++i) {
    cost[i] = CodePoints(d.lines[i]) + 1;
    body += cost[i];
  }
  size_t closing = 0;
  for (const auto& c : d.closing) closing += CodePoints(c) + 1;

  auto header_for = [&](size_t shown) { return d.header_for ? d.header_for(shown) : d.header; };
  auto note_for = [&](size_t first) {
    if (d.cut_note) return d.cut_note(d.lines, first);
    return "[" + Plural(n - first, "more line", "more lines") +
           " not shown: the answer reached its limit of " + WithCommas(limit_) + " characters]";
  };

  size_t shown = n;
  std::string header = header_for(n);
  std::string note;
  if (CodePoints(header) + body + closing > limit_) {
    // Largest `shown` whose header, lines, note and closing fit. The header and note change
    // little with `shown`, so a first guess from the full header is corrected downwards.
    size_t used = CodePoints(header) + closing + CodePoints(note_for(0)) + 1;
    shown = 0;
    while (shown < n && used + cost[shown] <= limit_) used += cost[shown++];
    while (true) {
      header = header_for(shown);
      note = note_for(shown);
      size_t total = CodePoints(header) + closing + CodePoints(note) + 1;
      for (size_t i = 0; i < shown; ++i) total += cost[i];
      if (total <= limit_ || shown == 0) break;
      --shown;
    }
  }
  std::string out = std::move(header);
  if (CodePoints(out) > limit_) out = CutToCodePoints(std::move(out), limit_ / 2);
  for (size_t i = 0; i < shown; ++i) {
    out.push_back('\n');
    out += d.lines[i];
  }
  if (shown < n) {
    out.push_back('\n');
    out += note;
  }
  for (const auto& c : d.closing) {
    out.push_back('\n');
    out += c;
  }
  return Filter(std::move(out));
}

}  // namespace rr
