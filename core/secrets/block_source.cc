#include "core/secrets/block_source.h"

#include <algorithm>

namespace rr {
namespace {

// Where what the filter reads before a block starts in `before` (the source up to the block's
// first line, its last kLookBack bytes at most).
size_t LeadInStart(std::string_view before) {
  if (before.empty()) return 0;
  const size_t n = before.size();
  const size_t from = n > BlockSource::kLookBack ? n - BlockSource::kLookBack : 0;
  // The last kLeadInLines lines, up to kLeadInBytes.
  size_t begin = n - 1;  // the last line's '\n' (or last byte)
  for (size_t k = 0; k < BlockSource::kLeadInLines && begin > 0; ++k) {
    const size_t nl = before.rfind('\n', begin - 1);
    begin = nl == std::string_view::npos ? 0 : nl;
  }
  if (begin > 0 || before[0] == '\n') ++begin;
  begin = std::max(begin, n > BlockSource::kLeadInBytes ? n - BlockSource::kLeadInBytes : 0);
  // An open block, from its BEGIN line.
  const size_t armour = before.rfind("-----BEGIN ");
  if (armour != std::string_view::npos && armour >= from &&
      before.find("-----END ", armour) == std::string_view::npos) {
    const size_t line = before.rfind('\n', armour);
    begin = std::min(begin, line == std::string_view::npos ? 0 : line + 1);
  }
  return begin;
}

// Where what the filter reads after a block ends in `whole`, the block ending at `end`.
size_t LeadOutEnd(std::string_view whole, size_t end) {
  if (end >= whole.size()) return end;
  size_t out = end;
  for (size_t k = 0; k < BlockSource::kLeadOutLines && out < whole.size(); ++k) {
    const size_t nl = whole.find('\n', out);
    out = nl == std::string_view::npos ? whole.size() : nl + 1;
  }
  return std::min(out, end + BlockSource::kLeadOutBytes);
}

// The last kLookBack bytes of `whole` before `at`.
std::string_view LookBack(std::string_view whole, size_t at) {
  at = std::min(at, whole.size());
  const size_t from = at > BlockSource::kLookBack ? at - BlockSource::kLookBack : 0;
  return whole.substr(from, at - from);
}

}  // namespace

BlockSource BlockSource::Around(std::string_view whole, size_t begin, size_t end) {
  begin = std::min(begin, whole.size());
  end = std::min(std::max(begin, end), whole.size());
  const std::string_view before = LookBack(whole, begin);
  std::string_view lead = before.substr(LeadInStart(before));
  // A source whose only line before the block is empty still reads as starting with a line
  // break there.
  if (lead.empty() && !before.empty()) lead = before.substr(before.size() - 1);
  const std::string_view rest = whole.substr(end, LeadOutEnd(whole, end) - end);
  // The block's own lines are the answer's: only what lies around them is kept.
  auto text = std::make_shared<std::string>();
  text->reserve(lead.size() + rest.size());
  text->append(lead);
  text->append(rest);
  BlockSource s;
  s.text = std::move(text);
  s.begin = s.end = lead.size();
  s.cut = true;
  return s;
}

BlockSource BlockSource::Of(std::string_view id, std::string_view whole, size_t begin, size_t end,
                            size_t line) {
  if (id.empty() || whole.size() > kWholeBytes) return Around(whole, begin, end);
  BlockSource s;
  s.blob = std::make_shared<const Blob>(Blob{std::string(id), std::string(whole)});
  s.begin = std::min(begin, whole.size());
  s.end = std::min(std::max(s.begin, end), whole.size());
  s.line = line;
  return s;
}

BlockSource BlockSource::Cut() const {
  if (!blob) return *this;
  return Around(blob->bytes, begin, end);
}

std::string BlockSource::Before() const {
  if (!text) return std::string();
  const std::string_view before =
      cut ? std::string_view(*text).substr(0, begin) : LookBack(*text, begin);
  if (before.empty()) return std::string();
  std::string tail(cut ? before : before.substr(LeadInStart(before)));
  if (!tail.empty() && tail.back() == '\n') tail.pop_back();
  tail.push_back('\n');
  return tail;
}

std::string_view BlockSource::After() const {
  if (!text || end >= text->size()) return std::string_view();
  const std::string_view whole = *text;
  return whole.substr(end, (cut ? whole.size() : LeadOutEnd(whole, end)) - end);
}

}  // namespace rr
