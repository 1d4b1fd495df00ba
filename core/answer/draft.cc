#include "core/answer/draft.h"

#include <algorithm>
#include <cassert>
#include <iterator>
#include <memory>
#include <string>

namespace rr {

size_t NumberedBefore(const std::vector<Draft::Number>& numbers, size_t k) {
  return static_cast<size_t>(
      std::lower_bound(numbers.begin(), numbers.end(), k,
                       [](const Draft::Number& n, size_t at) { return n.line < at; }) -
      numbers.begin());
}

void Draft::ShowsFile(std::string path, size_t number_width) {
  body_kind_ = TextKind::kFile;
  body_path_ = std::move(path);
  number_width_ = number_width;
}

void Draft::AddLine(std::string shown, std::string read_as, size_t read_shown) {
  if (!read_as.empty()) scan_as_.push_back({lines.size(), std::move(read_as), read_shown});
  lines.push_back(std::move(shown));
}

void Draft::AddNumberedLine(std::string shown, uint32_t number, std::string read_as,
                            size_t read_shown) {
  numbers_.push_back({lines.size(), number});
  AddLine(std::move(shown), std::move(read_as), read_shown);
}

void Draft::AddBlock(size_t first, size_t count, BlockSource source, std::string path) {
  // In order of their lines, never overlapping: the pipeline reads them so.
  assert(blocks_.empty() || blocks_.back().first + blocks_.back().count <= first);
  blocks_.push_back({first, count, std::move(source), std::move(path)});
}

void Draft::Append(Draft more) {
  const size_t base = lines.size();
  for (auto& b : more.blocks_) {
    b.first += base;
    blocks_.push_back(std::move(b));
  }
  for (auto& sa : more.scan_as_) {
    sa.line += base;
    scan_as_.push_back(std::move(sa));
  }
  for (size_t a : more.aside_) aside_.push_back(a + base);
  for (auto& p : more.parts_) {
    p.first += base;
    parts_.push_back(std::move(p));
  }
  for (const auto& n : more.numbers_) numbers_.push_back({n.line + base, n.number});
  lines.insert(lines.end(), std::make_move_iterator(more.lines.begin()),
               std::make_move_iterator(more.lines.end()));
}

void Draft::KeepFirst(size_t n) {
  if (n >= lines.size()) return;
  lines.resize(n);
  while (!blocks_.empty() && blocks_.back().first >= n) blocks_.pop_back();
  if (!blocks_.empty() && blocks_.back().first + blocks_.back().count > n) {
    Block& b = blocks_.back();
    b.count = n - b.first;
    // What followed the block in its source no longer follows its last line kept.
    BlockSource before_only = b.source.Cut();
    if (before_only.text) {
      before_only.text =
          std::make_shared<const std::string>(before_only.text->substr(0, before_only.begin));
      before_only.end = before_only.begin;
    }
    b.source = std::move(before_only);
  }
  auto line_past = [n](const auto& x) { return x.line >= n; };
  scan_as_.erase(std::find_if(scan_as_.begin(), scan_as_.end(), line_past), scan_as_.end());
  numbers_.erase(std::find_if(numbers_.begin(), numbers_.end(), line_past), numbers_.end());
  aside_.erase(std::lower_bound(aside_.begin(), aside_.end(), n), aside_.end());
  while (!parts_.empty() && parts_.back().first >= n) parts_.pop_back();
}

void Draft::AllOwnLines() {
  aside_.clear();
  for (size_t i = 0; i < lines.size(); ++i) aside_.push_back(i);
}

}  // namespace rr
