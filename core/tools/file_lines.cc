#include "core/tools/file_lines.h"

#include <algorithm>

#include "core/util/text.h"

namespace rr {
namespace {

constexpr size_t kMaxLineChars = 2000;
constexpr size_t kWordSlack = 200;  // how far back a long line's cut may move to end a word
// What the secret filter reads of a line past its cut (never shown), up to this.
constexpr size_t kRestBytes = 64 * 1024;

// Bytes of a token-like run: letters, digits and the punctuation tokens are written with.
bool IsWordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '+' || c == '/' || c == '=' || c == '.' || c == '~' ||
         static_cast<unsigned char>(c) >= 0x80;
}

}  // namespace

void StartFileLines(const std::string& path, size_t width, Draft* d) {
  d->ShowsFile(path, width + 2);
}

std::string ShownText(std::string_view raw, std::string* scan_out, size_t* shown_out) {
  // `scan`: what the filter reads for the line, when that is not `text` (DisplayText).
  std::string scan;
  std::string text = DisplayText(raw, &scan);
  size_t shown = text.size();  // bytes of `scan` that stand for what is shown
  const size_t cps = CodePoints(text);
  if (cps > kMaxLineChars) {
    // Cut between words where one ends near the limit, so that a value (a token in minified
    // code) is shown whole or not at all, never its first half.
    size_t cut = PrefixBytes(text, kMaxLineChars);
    const size_t floor = cut > kWordSlack ? cut - kWordSlack : 0;
    size_t at = cut;
    while (at > floor && IsWordByte(text[at - 1]) && IsWordByte(text[at])) --at;
    if (at > floor) cut = at;
    // Never inside an escape (`\x01`, `\e[32m`): where the text was escaped, `scan` holds
    // blanks in its place, so a byte that differs between the two belongs to an escape, and
    // every escape begins with '\\'.
    auto escape_byte = [&](size_t k) { return !scan.empty() && scan[k] != text[k]; };
    while (cut > 0 && cut < text.size() && escape_byte(cut - 1) && escape_byte(cut) &&
           text[cut] != '\\') {
      --cut;
    }
    const size_t left = cps - CodePoints(std::string_view(text).substr(0, cut));
    // The filter reads on past the cut: a value the cut splits (a password holding '!') is
    // recognised whole, and its part before the cut hidden.
    if (scan.empty()) scan = text;
    if (scan.size() > cut + kRestBytes) scan.resize(cut + kRestBytes);
    shown = cut;
    text.resize(cut);
    text += " …[" + WithCommas(left) + " more characters on this line]";
  }
  *scan_out = std::move(scan);
  *shown_out = shown;
  return text;
}

size_t AppendFileLine(std::string_view raw, size_t number, size_t width, Draft* d) {
  std::string scan;
  size_t shown = 0;
  const std::string text = ShownText(raw, &scan, &shown);
  const std::string num = std::to_string(number);
  std::string out(width > num.size() ? width - num.size() : 0, ' ');
  out += num;
  out += "  ";
  out += text;
  const size_t cost = CodePoints(out) + 1;
  d->AddNumberedLine(std::move(out), static_cast<uint32_t>(number), std::move(scan), shown);
  return cost;
}

void EndFileLines(std::string_view bytes, size_t begin, size_t end, size_t first, Draft* d,
                  std::string_view blob_id, size_t line) {
  if (first >= d->lines.size()) return;
  d->AddBlock(first, d->lines.size() - first, BlockSource::Of(blob_id, bytes, begin, end, line));
}

size_t LeastFileLineCost(std::string_view raw, size_t width) {
  // Every byte that does not continue a UTF-8 sequence shows as one character at least (escapes
  // show as more); a line cut for length keeps at least 2,000 less the slack a cut may move back.
  size_t chars = 0;
  for (char c : raw) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return width + 2 + std::min(chars, kMaxLineChars - kWordSlack) + 1;
}

}  // namespace rr
