// Text helpers shared by every answer: safe display of names written by others, valid UTF-8,
// numbers and dates in one style.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rr {

// A name (path, ref, link target) as it may be shown: control characters, DEL and bytes that are
// not valid UTF-8 become visible escapes (\n, \t, \e, \xNN); everything else is kept. The result
// is valid UTF-8 and holds no control character.
std::string DisplayName(std::string_view raw);

// Text a caller sent -- a path, ref, pattern, URI, repository, tool or method name -- as an
// answer or an error repeats it: DisplayName of its first kEchoedCharacters characters, and when
// it is longer, "… (1,048,576 characters)" after them. An answer never grows with what it was
// asked (a byte that is not UTF-8 counts as one character).
inline constexpr size_t kEchoedCharacters = 200;
std::string EchoArgument(std::string_view raw);

// True when DisplayName would change the text.
bool NeedsEscaping(std::string_view raw);

// A line of file text as it may be shown: invalid UTF-8 becomes U+FFFD, control characters other
// than tab become escapes (\e, \r, \xNN). The result is valid UTF-8.
//
// With `scan`: when anything was escaped, *scan receives the text the secret filter reads for
// the line, as long as the result, byte for byte the same except that each escape is blanks (so
// that its last letters never join the value beside it: `\x01ghp_…` keeps the token's start),
// a terminal's control sequence (ESC [ … m) is blanks whole, and a carriage return is a line
// break ("\r\n"). Left empty when nothing was escaped: the result is what the filter reads.
std::string DisplayText(std::string_view raw, std::string* scan = nullptr);

// The lines of a file's bytes, read one at a time: "a\nb\n" is two lines, a last line without
// '\n' counts. A line ends at "\r\n" or "\n"; a '\r' ending the file is part of its last line.
class FileLineReader {
 public:
  explicit FileLineReader(std::string_view bytes) : bytes_(bytes) {}

  size_t Count() const;  // every line of the file, counted in one pass
  bool done() const { return pos_ >= bytes_.size(); }
  std::string_view Next();             // the next line, without its ending
  size_t pos() const { return pos_; }  // where the next line starts
  std::string_view bytes() const { return bytes_; }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

// Length of the valid UTF-8 sequence starting at s[i], or 0 when the bytes there are not one.
size_t Utf8SequenceLength(std::string_view s, size_t i);

// Length in code points of valid UTF-8 text (what an answer's cap counts).
size_t CodePoints(std::string_view utf8);

// Byte offset of the first `n` code points of valid UTF-8 text (all of it if shorter).
size_t PrefixBytes(std::string_view utf8, size_t n);

// 12345678 -> "12,345,678".
std::string WithCommas(uint64_t n);

// "1 file" / "3 files".
std::string Plural(uint64_t n, std::string_view one, std::string_view many);

// A commit time as YYYY-MM-DD in the given offset (minutes east of UTC).
std::string ShortDate(int64_t seconds, int offset_minutes);

// A byte count for people: "812 bytes", "11.0 MB".
std::string HumanBytes(uint64_t n);
// `bytes` in decimal megabytes with one decimal ("12.3 MB"), as the indexers' log lines give them.
std::string Megabytes(uint64_t bytes);

}  // namespace rr
