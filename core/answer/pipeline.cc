#include "core/answer/pipeline.h"

#include <algorithm>

#include "core/answer/server_log.h"
#include "core/util/text.h"

namespace rr {
namespace {

// One way of cutting an answer: how many body lines it shows, its header and cut note as
// shown, and how many hidden values it then holds.
struct Capped {
  size_t shown = 0;
  std::pair<std::string, size_t> header, note;
  size_t hidden = 0;
};

std::string CutToCodePoints(std::string s, size_t n) {
  if (CodePoints(s) <= n) return s;
  s.resize(PrefixBytes(s, n));
  return s;
}

}  // namespace

AnswerPipeline::AnswerPipeline(size_t answer_characters,
                               std::vector<std::shared_ptr<const OutputFilter>> filters,
                               std::shared_ptr<const SecretFilter> secrets)
    : limit_(answer_characters), filters_(std::move(filters)), secrets_(std::move(secrets)) {}

// Hides secrets in the pieces of one answer and counts what it hid. Without a filter it
// changes nothing.
class AnswerPipeline::Hider {
 public:
  explicit Hider(const SecretFilter* filter) : filter_(filter) {}

  // A piece (header, note, closing line, error): the text with its secrets hidden, and how many.
  std::pair<std::string, size_t> Piece(std::string text, TextKind kind) {
    if (!filter_ || text.empty()) return {std::move(text), 0};
    ScanResult r = filter_->Scan(text, kind);
    if (!r.ok()) {
      Fail(r.failure);
      return {std::string(), 0};
    }
    if (r.spans.empty()) return {std::move(text), 0};
    return {SecretFilter::Redact(text, r.spans), r.spans.size()};
  }

  // The body's lines, in place: one text of every line's own text (after the tool's line
  // numbers), with the lead-in's open block before it. Records the first line each hidden span
  // touches, so that only what is shown is counted.
  void Body(Draft& d) {
    if (!filter_ || d.lines.empty()) return;
    const std::string tail = OpenBlock(d.lead_in);
    std::vector<size_t> content(d.lines.size()), start(d.lines.size());
    std::string view = tail;
    for (size_t i = 0; i < d.lines.size(); ++i) {
      content[i] = NumberedBy(d.lines[i], d.number_width) ? d.number_width : 0;
      if (i) view.push_back('\n');
      start[i] = view.size();
      view.append(d.lines[i], content[i], std::string::npos);
    }
    ScanResult r = filter_->Scan(view, d.body_kind, d.body_path);
    if (!r.ok()) {
      Fail(r.failure);
      return;
    }
    // Replacements per line, in view offsets, applied right to left.
    std::vector<std::vector<std::pair<std::pair<size_t, size_t>, const std::string*>>> edits(
        d.lines.size());
    for (const auto& sp : r.spans) {
      if (sp.end <= tail.size()) continue;  // wholly in the lead-in: not shown
      const size_t b = std::max(sp.begin, tail.size());
      // The line holding b: the last whose start is <= b.
      size_t l =
          static_cast<size_t>(std::upper_bound(start.begin(), start.end(), b) - start.begin());
      l = l ? l - 1 : 0;
      body_first_line_.push_back(l);
      for (size_t i = l; i < d.lines.size() && start[i] < sp.end; ++i) {
        const size_t line_end = start[i] + d.lines[i].size() - content[i];
        const size_t from = std::max(b, start[i]), to = std::min(sp.end, line_end);
        if (from < to) edits[i].push_back({{from - start[i], to - start[i]}, &sp.what});
      }
    }
    for (size_t i = 0; i < d.lines.size(); ++i) {
      if (edits[i].empty()) continue;
      std::string& line = d.lines[i];
      for (auto it = edits[i].rbegin(); it != edits[i].rend(); ++it) {
        const size_t from = content[i] + it->first.first, to = content[i] + it->first.second;
        line.replace(from, to - from, "[hidden: " + *it->second + "]");
      }
    }
  }

  // Hidden spans that begin on the first `shown` lines of the body.
  size_t BodyCount(size_t shown) const {
    size_t n = 0;
    for (size_t l : body_first_line_) n += l < shown ? 1 : 0;
    return n;
  }
  size_t BodyTotal() const { return body_first_line_.size(); }
  const std::string& failure() const { return failure_; }

 private:
  void Fail(const std::string& why) {
    if (failure_.empty()) failure_ = why;
  }

  static bool NumberedBy(const std::string& line, size_t width) {
    if (width == 0 || line.size() < width) return false;
    for (size_t i = 0; i < width; ++i) {
      const char c = line[i];
      if (!(c == ' ' || c == ':' || c == '-' || (c >= '0' && c <= '9'))) return false;
    }
    return true;
  }

  // The part of `lead_in` from the start of its last armour line (-----BEGIN …) when no
  // -----END line follows it: the block the body opens inside. Only the last 64 KB are looked
  // at; a block longer than that is seen from where the window starts.
  static std::string OpenBlock(const std::string& lead_in) {
    constexpr size_t kLookBack = 64 * 1024;
    if (lead_in.empty()) return std::string();
    const size_t from = lead_in.size() > kLookBack ? lead_in.size() - kLookBack : 0;
    const size_t begin = lead_in.rfind("-----BEGIN ");
    if (begin == std::string::npos || begin < from) return std::string();
    if (lead_in.find("-----END ", begin) != std::string::npos) return std::string();
    const size_t line = lead_in.rfind('\n', begin);
    std::string tail = lead_in.substr(line == std::string::npos ? 0 : line + 1);
    if (!tail.empty() && tail.back() == '\n') tail.pop_back();
    tail.push_back('\n');
    return tail;
  }

  const SecretFilter* filter_;
  std::string failure_;
  std::vector<size_t> body_first_line_;
};

std::string AnswerPipeline::Filter(std::string text) const {
  for (const auto& f : filters_) text = f->Apply(std::move(text));
  return text;
}

std::string AnswerPipeline::Withheld(const std::string& failure) const {
  LogLine("repo-reader: an answer was withheld: " + failure);
  return Filter(
      "[This answer is withheld: the secret filter could not check it, so nothing of it is "
      "shown. The operator has been told which detector failed.]");
}

std::string AnswerPipeline::FinishError(std::string_view message) const {
  Hider hider(secrets_.get());
  auto [text, hidden] = hider.Piece(std::string(message), TextKind::kError);
  if (!hider.failure().empty()) return Withheld(hider.failure());
  const std::string closing = hidden ? "\n" + HiddenNote(hidden) : std::string();
  const size_t room = limit_ > CodePoints(closing) ? limit_ - CodePoints(closing) : 0;
  if (CodePoints(text) > room) {
    const std::string note = "\n[the message was cut at " + WithCommas(room) + " characters]";
    text = CutToCodePoints(std::move(text), room > note.size() ? room - note.size() : 0) + note;
  }
  return Filter(std::move(text) + closing);
}

std::string AnswerPipeline::Finish(Draft d) const {
  Hider hider(secrets_.get());
  hider.Body(d);
  size_t fixed_hidden = 0;  // in the closing lines
  for (auto& c : d.closing) {
    auto [text, n] = hider.Piece(std::move(c), TextKind::kOther);
    c = std::move(text);
    fixed_hidden += n;
  }
  if (!hider.failure().empty()) return Withheld(hider.failure());

  const size_t n = d.lines.size();
  std::vector<size_t> cost(n);  // code points of each line, with its newline
  size_t body = 0;
  for (size_t i = 0; i < n; ++i) {
    cost[i] = CodePoints(d.lines[i]) + 1;
    body += cost[i];
  }
  size_t closing = 0;
  for (const auto& c : d.closing) closing += CodePoints(c) + 1;

  // The header and the cut's note as shown: secrets hidden. Counted once, for what is used.
  auto header_for = [&](size_t shown) {
    return hider.Piece(d.header_for ? d.header_for(shown) : d.header, TextKind::kOther);
  };
  auto note_for = [&](size_t first) {
    std::string note = d.cut_note ? d.cut_note(d.lines, first)
                                  : "[" + Plural(n - first, "more line", "more lines") +
                                        " not shown: the answer reached its limit of " +
                                        WithCommas(limit_) + " characters]";
    return hider.Piece(std::move(note), TextKind::kOther);
  };
  // The cap. Room for the closing count of hidden values is kept when anything was hidden;
  // when only the header or the note turn out to hide something, the cap is measured again
  // with that room.
  auto cap = [&](size_t limit) {
    Capped c;
    c.shown = n;
    c.header = header_for(n);
    if (CodePoints(c.header.first) + body + closing > limit) {
      // Largest `shown` whose header, lines, note and closing fit. The header and note change
      // little with `shown`, so a first guess from the full header is corrected downwards.
      size_t used = CodePoints(c.header.first) + closing + CodePoints(note_for(0).first) + 1;
      c.shown = 0;
      while (c.shown < n && used + cost[c.shown] <= limit) used += cost[c.shown++];
      while (true) {
        c.header = header_for(c.shown);
        c.note = note_for(c.shown);
        size_t total = CodePoints(c.header.first) + closing + CodePoints(c.note.first) + 1;
        for (size_t i = 0; i < c.shown; ++i) total += cost[i];
        if (total <= limit || c.shown == 0) break;
        --c.shown;
      }
    }
    c.hidden = hider.BodyCount(c.shown) + c.header.second + (c.shown < n ? c.note.second : 0) +
               fixed_hidden;
    return c;
  };
  const size_t reserve = CodePoints(HiddenNote(hider.BodyTotal() + fixed_hidden + 99)) + 1;
  const bool hid_early = hider.BodyTotal() + fixed_hidden > 0;
  const size_t limit = limit_ > reserve ? limit_ - reserve : 0;
  Capped c = cap(hid_early ? limit : limit_);
  if (!hid_early && c.hidden > 0) c = cap(limit);
  if (!hider.failure().empty()) return Withheld(hider.failure());

  std::string out = std::move(c.header.first);
  if (CodePoints(out) > limit_) out = CutToCodePoints(std::move(out), limit_ / 2);
  for (size_t i = 0; i < c.shown; ++i) {
    out.push_back('\n');
    out += d.lines[i];
  }
  if (c.shown < n) {
    out.push_back('\n');
    out += c.note.first;
  }
  for (const auto& line : d.closing) {
    out.push_back('\n');
    out += line;
  }
  if (c.hidden) {
    out.push_back('\n');
    out += HiddenNote(c.hidden);
  }
  return Filter(std::move(out));
}

}  // namespace rr
