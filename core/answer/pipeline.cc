#include "core/answer/pipeline.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string_view>

#include "core/secrets/server_log.h"
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

// The form a blob's text is read in by the secret filter, for ScanCache's key: its lines as a
// file's window shows them. Another form (or a change to this one) is another name.
constexpr std::string_view kLinesForm = "file-lines/1";

// A blob's text as the secret filter reads a file's lines: each line (FileLineReader's lines)
// as DisplayText shows it, its escapes as blanks (DisplayText's scan text), joined by '\n'.
// *starts receives where each line starts.
std::string LinesText(std::string_view bytes, std::vector<size_t>* starts) {
  std::string text;
  text.reserve(bytes.size());
  FileLineReader reader(bytes);
  std::string scan;
  while (!reader.done()) {
    if (!starts->empty()) text.push_back('\n');
    starts->push_back(text.size());
    const std::string_view line = reader.Next();
    // Printable ASCII and tabs, most lines of most files, DisplayText keeps as they are.
    if (std::all_of(line.begin(), line.end(),
                    [](char c) { return (c >= 0x20 && c < 0x7F) || c == '\t'; })) {
      text.append(line);
      continue;
    }
    const std::string shown = DisplayText(line, &scan);
    text.append(scan.empty() ? shown : scan);
  }
  return text;
}

// The spans of a scan of LinesText, cut into their pieces on its lines.
LineSpans PiecesOf(const ScanResult& r, std::string_view text, const std::vector<size_t>& starts) {
  LineSpans out;
  out.lines = starts.size();
  out.what.reserve(r.spans.size());
  for (size_t k = 0; k < r.spans.size(); ++k) {
    const HiddenSpan& sp = r.spans[k];
    out.what.push_back(sp.what);
    size_t l = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), sp.begin) -
                                   starts.begin());
    l = l ? l - 1 : 0;
    for (; l < starts.size() && starts[l] < sp.end; ++l) {
      const size_t line_end = l + 1 < starts.size() ? starts[l + 1] - 1 : text.size();
      const size_t from = std::max(sp.begin, starts[l]), to = std::min(sp.end, line_end);
      if (from >= to) continue;  // only the line break
      out.pieces.push_back({static_cast<uint32_t>(l), static_cast<uint32_t>(from - starts[l]),
                            static_cast<uint32_t>(to - starts[l]), static_cast<uint32_t>(k)});
    }
  }
  out.pieces.shrink_to_fit();
  return out;
}

}  // namespace

AnswerPipeline::AnswerPipeline(size_t answer_characters,
                               std::vector<std::shared_ptr<const OutputFilter>> filters,
                               std::shared_ptr<const SecretFilter> secrets,
                               std::shared_ptr<const HostLinks> links)
    : limit_(answer_characters),
      filters_(std::move(filters)),
      secrets_(std::move(secrets)),
      links_(std::move(links)) {}

std::string AnswerPipeline::LinkLine(const Draft& d, size_t shown) const {
  if (!links_ || d.read.kind == ReadSpot::Kind::kNone || d.read.host_kind.empty()) return "";
  uint32_t first = 0, last = 0;
  if (d.read.kind == ReadSpot::Kind::kFile) {
    // The lines shown: the first and the last numbered line the cap keeps.
    const size_t kept = NumberedBefore(d.numbers_, shown);
    if (kept > 0 && d.numbers_.front().number <= d.numbers_[kept - 1].number) {
      first = d.numbers_.front().number;
      last = d.numbers_[kept - 1].number;
    }
  }
  return links_->Line(d.read, first, last);
}

// Hides secrets in the pieces of one answer and counts what it hid. Without a filter it
// changes nothing.
class AnswerPipeline::Hider {
 public:
  explicit Hider(const SecretFilter* filter) : filter_(filter) {}

  // A piece (header, note, closing line, error): the text with its secrets hidden, and how many.
  // `marks`, when given, receives where each hidden value's mark begins in the text returned.
  std::pair<std::string, size_t> Piece(std::string text, TextKind kind,
                                       std::vector<size_t>* marks = nullptr) {
    if (!filter_ || text.empty()) return {std::move(text), 0};
    ScanResult r = filter_->Scan(text, kind);
    if (!r.ok()) {
      Fail(r.failure);
      return {std::string(), 0};
    }
    if (r.spans.empty()) return {std::move(text), 0};
    if (marks) {
      size_t grown = 0;  // bytes the marks before this one added (or took away)
      for (const auto& sp : r.spans) {
        marks->push_back(sp.begin + grown);
        grown += std::string_view("[hidden: ]").size() + sp.what.size();
        grown -= sp.end - sp.begin;
      }
    }
    return {SecretFilter::Redact(text, r.spans), r.spans.size()};
  }

  // The body's lines, in place: each of its texts (the whole body, or each of d.parts_) read
  // as one, then the lines aside each on its own. Records the first line each hidden span
  // shows on, so that only what is shown is counted.
  void Body(Draft& d) {
    if (!filter_ || d.lines.empty()) return;
    const size_t n = d.lines.size();
    const size_t first_part = d.parts_.empty() ? n : std::min(d.parts_.front().first, n);
    if (first_part > 0) Text(d, 0, first_part, d.body_kind_, d.body_path_, d.number_width_);
    for (size_t k = 0; k < d.parts_.size() && failure_.empty(); ++k) {
      const Draft::Part& p = d.parts_[k];
      const size_t end = k + 1 < d.parts_.size() ? std::min(d.parts_[k + 1].first, n) : n;
      if (p.first < end) Text(d, p.first, end, p.kind, p.path, p.number_width);
    }
    if (!failure_.empty()) return;
    for (size_t i : d.aside_) {
      if (i >= n || d.lines[i].empty()) continue;
      ScanResult a = filter_->Scan(d.lines[i], TextKind::kOther);
      if (!a.ok()) {
        Fail(a.failure);
        return;
      }
      for (size_t k = 0; k < a.spans.size(); ++k) body_first_line_.push_back(i);
      if (!a.spans.empty()) d.lines[i] = SecretFilter::Redact(d.lines[i], a.spans);
    }
  }

  // Lines [b, e) of the body, in place, as one text of `kind` from `path`: every line's own
  // text (after the tool's line numbers, `width`, or as the draft's scan_as gives it), with
  // what each block's source holds just before and after it read around the block's lines
  // (never shown). Lines aside are left out of it. When the text names no file but a block
  // does (a text search over several files), that block is read again on its own as that
  // file's text, so that its file's format decides what a setting looks like in it; what
  // either reading finds is hidden.
  void Text(Draft& d, size_t b, size_t e, TextKind kind, const std::string& path, size_t width) {
    const size_t n = e - b;
    std::vector<std::vector<Edit>> edits(n);
    std::deque<ScanResult> kept;  // the spans' `what`, which the edits point into
    // The blocks whose source is a whole blob, each from what the filter found in the blob's
    // whole text; their lines are then left out of the readings below.
    std::vector<char> done(n, 0);
    if (kind == TextKind::kFile) {
      for (const auto& blk : d.blocks_) {
        if (!blk.source.blob || blk.count == 0 || blk.first < b || blk.first + blk.count > e) {
          continue;
        }
        if (!Whole(d, blk, b, blk.path.empty() ? path : blk.path, width, &edits, &done)) return;
      }
    }
    if (!Read(d, b, e, kind, path, width, nullptr, &edits, &kept, true, SIZE_MAX, &done)) return;
    if (path.empty() && kind == TextKind::kFile) {
      for (const auto& blk : d.blocks_) {
        if (blk.path.empty() || blk.count == 0 || blk.first < b || blk.first + blk.count > e) {
          continue;
        }
        if (blk.source.blob &&
            std::any_of(done.begin() + static_cast<ptrdiff_t>(blk.first - b),
                        done.begin() + static_cast<ptrdiff_t>(blk.first - b + blk.count),
                        [](char x) { return x != 0; })) {
          continue;  // read whole, as its own file's text
        }
        if (!Read(d, blk.first, blk.first + blk.count, kind, blk.path, width, &blk, &edits, &kept,
                  false, b)) {
          return;
        }
      }
    }
    for (size_t k = 0; k < n; ++k) {
      if (edits[k].empty()) continue;
      // Overlapping edits (from two readings) become one, named by the first.
      std::vector<Edit>& es = edits[k];
      std::stable_sort(es.begin(), es.end(),
                       [](const Edit& x, const Edit& y) { return x.from < y.from; });
      std::vector<Edit> merged;
      for (const Edit& x : es) {
        if (!merged.empty() && x.from < merged.back().to) {
          merged.back().to = std::max(merged.back().to, x.to);
        } else {
          merged.push_back(x);
        }
      }
      std::string& line = d.lines[b + k];
      for (auto it = merged.rbegin(); it != merged.rend(); ++it) {
        line.replace(it->content + it->from, it->to - it->from, "[hidden: " + *it->what + "]");
      }
    }
  }

  // One replacement on a line: [from, to) of its own text, which starts at `content`.
  struct Edit {
    size_t from = 0, to = 0, content = 0;
    const std::string* what = nullptr;
  };

  // Reads lines [b, e) as one text and adds what it hides to `edits` (indexed from `base`; by
  // default b). `only`: read just that block (its own source around it); otherwise every block
  // in [b, e) is read with its source. `first_reading`: the first reading of these lines (its
  // spans are counted; a later reading counts only the values the first did not find). `done`
  // (indexed from b): lines already read whole with their blob (Whole), left out. False when the
  // filter failed.
  bool Read(Draft& d, size_t b, size_t e, TextKind kind, const std::string& path, size_t width,
            const Draft::Block* only, std::vector<std::vector<Edit>>* edits,
            std::deque<ScanResult>* kept, bool first_reading, size_t base = SIZE_MAX,
            const std::vector<char>* done = nullptr) {
    if (base == SIZE_MAX) base = b;
    const size_t n = e - b;
    // Per line (from b): where its own text starts in the line and in the view, and how many
    // bytes of the view from there are shown.
    std::vector<size_t> content(n), start(n), shown(n);
    // The source read before line k and after it: at the first and the last line of each
    // block that is not aside.
    std::vector<const BlockSource*> before(n, nullptr), after(n, nullptr);
    auto is_aside = [&](size_t i) {
      return std::binary_search(d.aside_.begin(), d.aside_.end(), i);
    };
    auto is_done = [&](size_t i) { return done && (*done)[i - b]; };
    std::deque<BlockSource> cuts;  // a whole blob's source not read whole: the stretch around
    auto place = [&](const Draft::Block& blk) {
      if (!blk.source || blk.count == 0) return;
      const size_t from = std::max(blk.first, b), to = std::min(blk.first + blk.count, e);
      if (from >= to) return;
      size_t f = from, l = to - 1;
      while (f < to && is_aside(f)) ++f;
      while (l > f && is_aside(l)) --l;
      if (f >= to || is_done(f)) return;
      const BlockSource* src = &blk.source;
      if (src->blob) {
        cuts.push_back(src->Cut());
        src = &cuts.back();
      }
      // Only where the block itself begins or ends: a block cut by the text's edge reads
      // nothing of its source there.
      if (blk.first >= b) before[f - b] = src;
      if (blk.first + blk.count <= e) after[l - b] = src;
    };
    if (only) {
      place(*only);
    } else {
      for (const auto& blk : d.blocks_) place(blk);
    }
    const bool diff = kind == TextKind::kDiff;
    // A diff reads the source's lines around a hunk as its context lines.
    auto append_source = [diff](std::string* view, std::string_view text) {
      if (!diff) {
        view->append(text);
        return;
      }
      for (size_t at = 0; at < text.size();) {
        size_t nl = text.find('\n', at);
        nl = nl == std::string_view::npos ? text.size() : nl + 1;
        view->push_back(' ');
        view->append(text.substr(at, nl - at));
        at = nl;
      }
    };
    std::string view;
    auto next = std::lower_bound(d.scan_as_.begin(), d.scan_as_.end(), b,
                                 [](const Draft::ScanAs& s, size_t line) { return s.line < line; });
    auto next_aside = std::lower_bound(d.aside_.begin(), d.aside_.end(), b);
    bool first = true;
    for (size_t k = 0; k < n; ++k) {
      const size_t i = b + k;
      if (next_aside != d.aside_.end() && *next_aside == i) {
        ++next_aside;
        start[k] = view.size();  // shows nothing of the body's text (shown[k] stays 0)
        continue;
      }
      if (is_done(i)) {
        start[k] = view.size();  // read whole with its blob
        continue;
      }
      if (before[k]) {
        const std::string lead = before[k]->Before();
        if (!lead.empty()) {
          if (!first) view.push_back('\n');
          append_source(&view, lead);
          first = true;  // the lead ends with its line break
        }
      }
      if (!first) view.push_back('\n');
      first = false;
      start[k] = view.size();
      while (next != d.scan_as_.end() && next->line < i) ++next;
      if (next != d.scan_as_.end() && next->line == i) {
        content[k] = std::min(width, d.lines[i].size());
        shown[k] = std::min({next->shown, next->text.size(), d.lines[i].size() - content[k]});
        view.append(next->text);
      } else {
        content[k] = NumberedBy(d.lines[i], width) ? width : 0;
        shown[k] = d.lines[i].size() - content[k];
        view.append(d.lines[i], content[k], std::string::npos);
      }
      if (after[k]) {
        const std::string_view rest = after[k]->After();
        if (!rest.empty()) {
          view.push_back('\n');
          append_source(&view, rest);
        }
      }
    }
    ScanResult r = filter_->Scan(view, kind, path);
    if (!r.ok()) {
      Fail(r.failure);
      return false;
    }
    if (r.spans.empty()) return true;
    kept->push_back(std::move(r));
    const ScanResult& res = kept->back();
    const size_t off = b - base;
    for (const auto& sp : res.spans) {
      // The line holding sp.begin: the last whose start is <= it.
      size_t l = static_cast<size_t>(std::upper_bound(start.begin(), start.end(), sp.begin) -
                                     start.begin());
      l = l ? l - 1 : 0;
      std::vector<std::pair<size_t, Edit>> on;  // (line from b, edit)
      for (size_t k = l; k < n && start[k] < sp.end; ++k) {
        const size_t from = std::max(sp.begin, start[k]),
                     to = std::min(sp.end, start[k] + shown[k]);
        if (from >= to) continue;  // not on what this line shows (the source around a block)
        on.push_back({k, Edit{from - start[k], to - start[k], content[k], &sp.what}});
      }
      if (on.empty()) continue;
      bool known = false;  // a later reading: found already by an earlier one
      if (!first_reading) {
        for (const auto& [k, x] : on) {
          for (const Edit& y : (*edits)[off + k]) known = known || (x.from < y.to && y.from < x.to);
        }
      }
      if (!known) body_first_line_.push_back(b + on.front().first);
      for (auto& [k, x] : on) (*edits)[off + k].push_back(x);
    }
    return true;
  }

  // The lines of `blk`, whose source is a whole blob, from what the filter finds in the blob's
  // whole text (LinesText) read as the file at `path`: found once per blob and kept by the
  // blob's id, its size and a hash of its bytes, the path and the form (ScanCache), in the
  // filter's own cache. Marks the block's lines (not aside) in `done` (indexed from b). A block
  // whose lines the blob does not hold is left to the other readings, with the stretch around it.
  bool Whole(const Draft& d, const Draft::Block& blk, size_t b, const std::string& path,
             size_t width, std::vector<std::vector<Edit>>* edits, std::vector<char>* done) {
    const BlockSource& src = blk.source;
    const BlockSource::Blob& blob = *src.blob;
    const std::string id =
        blob.id + ":" + std::to_string(std::hash<std::string_view>()(blob.bytes));
    const std::string key =
        ScanCache::Key(id, blob.bytes.size(), static_cast<int>(TextKind::kFile), path, kLinesForm);
    ScanCache& cache = filter_->blob_scans();
    std::shared_ptr<const LineSpans> spans = cache.Find(key);
    if (!spans) {
      std::vector<size_t> starts;
      const std::string text = LinesText(blob.bytes, &starts);
      const ScanResult r = filter_->Scan(text, TextKind::kFile, path);
      if (!r.ok()) {
        Fail(r.failure);
        return false;
      }
      spans = std::make_shared<const LineSpans>(PiecesOf(r, text, starts));
      cache.Keep(key, spans);
    }
    const size_t end = blk.first + blk.count;
    auto is_aside = [&](size_t i) {
      return std::binary_search(d.aside_.begin(), d.aside_.end(), i);
    };
    size_t own = 0;  // the block's lines that are the blob's
    for (size_t i = blk.first; i < end; ++i) own += is_aside(i) ? 0 : 1;
    if (src.line + own > spans->lines) return true;  // not the blob's lines: read otherwise
    held_.push_back(spans);
    std::vector<char> counted(spans->what.size(), 0);
    size_t line = src.line;
    for (size_t i = blk.first; i < end; ++i) {
      if (is_aside(i)) continue;
      (*done)[i - b] = 1;
      // What of the line is the file's text: after the tool's number, as many bytes as shown.
      size_t content = 0, shown = 0;
      auto as = std::lower_bound(d.scan_as_.begin(), d.scan_as_.end(), i,
                                 [](const Draft::ScanAs& x, size_t l) { return x.line < l; });
      if (as != d.scan_as_.end() && as->line == i) {
        content = std::min(width, d.lines[i].size());
        shown = std::min({as->shown, as->text.size(), d.lines[i].size() - content});
      } else {
        content = NumberedBy(d.lines[i], width) ? width : 0;
        shown = d.lines[i].size() - content;
      }
      const auto on = std::equal_range(
          spans->pieces.begin(), spans->pieces.end(), LineSpans::Piece{static_cast<uint32_t>(line)},
          [](const LineSpans::Piece& x, const LineSpans::Piece& y) { return x.line < y.line; });
      ++line;
      for (auto p = on.first; p != on.second; ++p) {
        const size_t to = std::min<size_t>(p->to, shown);
        if (p->from >= to) continue;  // past what the line shows
        (*edits)[i - b].push_back(Edit{p->from, to, content, &spans->what[p->span]});
        if (!counted[p->span]) {
          counted[p->span] = 1;
          body_first_line_.push_back(i);
        }
      }
    }
    return true;
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

  const SecretFilter* filter_;
  std::vector<std::shared_ptr<const LineSpans>> held_;  // what Whole's edits point into
  std::string failure_;
  std::vector<size_t> body_first_line_;
};

// Guidance as shown: its text (no final newline; "" for none), how many values it hid, and a
// detector's failure.
struct AnswerPipeline::Laid {
  std::string text;
  size_t hidden = 0;
  std::string failure;
};

AnswerPipeline::Laid AnswerPipeline::LayGuidance(Draft& d) const {
  Laid out;
  if (d.guidance_line.empty()) return out;
  auto piece = [&](std::string text) {
    Hider h(secrets_.get());
    auto shown = h.Piece(std::move(text), TextKind::kOther);
    if (!h.failure().empty() && out.failure.empty()) out.failure = h.failure();
    return shown;
  };
  auto first = piece(d.guidance_line);
  out.text = std::move(first.first);
  out.hidden = first.second;
  if (d.guidance.empty()) return out;

  // Each rule as shown, secrets hidden: its opener, then its lines.
  struct Shown {
    std::string text;
    size_t cost = 0, hidden = 0;
  };
  std::vector<Shown> rules;
  std::vector<std::string> names;
  for (auto& r : d.guidance) {
    Draft body;
    body.lines = std::move(r.lines);
    body.scan_as_ = std::move(r.scan_as);
    body.body_kind_ = TextKind::kFile;
    body.body_path_ = r.path;
    Hider h(secrets_.get());
    h.Body(body);
    auto opener = h.Piece(r.opener, TextKind::kOther);
    if (!h.failure().empty()) {
      out.failure = h.failure();
      return out;
    }
    Shown s;
    s.text = std::move(opener.first);
    for (const auto& line : body.lines) s.text += "\n" + line;
    s.cost = CodePoints(s.text) + 1;
    s.hidden = h.BodyTotal() + opener.second;
    rules.push_back(std::move(s));
    names.push_back(r.name);
  }
  auto note = [&](const std::vector<std::string>& left) {
    return d.guidance_left_out ? piece(d.guidance_left_out(left))
                               : std::pair<std::string, size_t>();
  };
  // Room: half the answer, less the first line, the closing line and the note as it would be
  // with every rule left out (it only gets shorter).
  const size_t half = limit_ / 2;
  const std::string all_left = note(names).first;
  const size_t fixed = CodePoints(out.text) + CodePoints(kEndOfGuidance) + 1 +
                       (all_left.empty() ? 0 : CodePoints(all_left) + 1);
  size_t used = fixed;
  std::vector<std::string> left;
  std::string shown;
  for (size_t i = 0; i < rules.size(); ++i) {
    if (used + rules[i].cost > half) {
      left.push_back(names[i]);
      continue;
    }
    used += rules[i].cost;
    shown += "\n" + rules[i].text;
    out.hidden += rules[i].hidden;
  }
  out.text += shown;
  if (!left.empty()) {
    auto n = note(left);
    if (!n.first.empty()) out.text += "\n" + n.first;
    out.hidden += n.second;
  }
  out.text += "\n";
  out.text += kEndOfGuidance;
  return out;
}

std::string AnswerPipeline::Filter(std::string text) const {
  for (const auto& f : filters_) text = f->Apply(std::move(text));
  return text;
}

std::string AnswerPipeline::Withheld(const std::string& failure) const {
  counts_->answers++;
  counts_->withheld++;
  LogLine("repo-reader: an answer was withheld: " + failure);
  return Filter(
      "[This answer is withheld: the secret filter could not check it, so nothing of it is "
      "shown. The operator has been told which detector failed.]");
}

std::string AnswerPipeline::FinishError(std::string_view message) const {
  Hider hider(secrets_.get());
  std::vector<size_t> marks;
  auto [text, hidden] = hider.Piece(std::string(message), TextKind::kError, &marks);
  if (!hider.failure().empty()) return Withheld(hider.failure());
  std::string closing = hidden ? "\n" + HiddenNote(hidden) : std::string();
  const size_t room = limit_ > CodePoints(closing) ? limit_ - CodePoints(closing) : 0;
  if (CodePoints(text) > room) {
    const std::string note = "\n[the message was cut at " + WithCommas(room) + " characters]";
    const size_t keep = PrefixBytes(text, room > note.size() ? room - note.size() : 0);
    // Only the hidden values whose mark is kept are counted (a shorter count fits the room).
    hidden = static_cast<size_t>(
        std::count_if(marks.begin(), marks.end(), [keep](size_t at) { return at < keep; }));
    closing = hidden ? "\n" + HiddenNote(hidden) : std::string();
    text.resize(keep);
    text += note;
  }
  counts_->answers++;
  counts_->hidden += hidden;
  return Filter(std::move(text) + closing);
}

std::string AnswerPipeline::Finish(Draft d) const {
  if (!d.withheld.empty()) return Withheld(d.withheld);
  // Guidance first; the answer is capped in the room it leaves.
  Laid guidance = LayGuidance(d);
  if (!guidance.failure.empty()) return Withheld(guidance.failure);
  const size_t taken = guidance.text.empty() ? 0 : CodePoints(guidance.text) + 1;
  const size_t room = limit_ > taken ? limit_ - taken : 0;  // for the answer itself

  Hider hider(secrets_.get());
  hider.Body(d);
  size_t fixed_hidden = guidance.hidden;  // in the guidance and the closing lines
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
  // The host link joins here, under the header, for the lines the cap keeps (host_links.h).
  auto header_for = [&](size_t shown) {
    std::string header = d.header_for ? d.header_for(shown) : d.header;
    if (std::string link = LinkLine(d, shown); !link.empty()) header += "\n" + link;
    return hider.Piece(std::move(header), TextKind::kOther);
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
  const size_t limit = room > reserve ? room - reserve : 0;
  Capped c = cap(hid_early ? limit : room);
  if (!hid_early && c.hidden > 0) c = cap(limit);
  if (!hider.failure().empty()) return Withheld(hider.failure());

  std::string out = std::move(c.header.first);
  if (CodePoints(out) > room) out = CutToCodePoints(std::move(out), room / 2);
  if (!guidance.text.empty()) out = std::move(guidance.text) + "\n" + out;
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
  counts_->answers++;
  if (c.shown < n) counts_->cut++;
  counts_->hidden += c.hidden;
  return Filter(std::move(out));
}

}  // namespace rr
