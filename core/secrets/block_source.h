// Where a block of an answer's lines comes from, and what the secret filter reads of that source
// around the block. A block is a run of lines shown from one text (a window of a file, a group
// of grep's lines, a diff's hunk); the filter reads it with the source's lines just before and
// after it, never shown, so that a value recognised by its neighbours (a YAML block scalar's
// text under `password: >-`, an AWS secret access key under its key id, a private key's body
// inside its BEGIN line) is hidden in whatever window shows it.
//
// What is read around a block:
//   before: the source's last few lines before the block's first line (kLeadInLines, at most
//     kLeadInBytes), and from the start of the last armour line (-----BEGIN …) when no -----END
//     line follows it: the block the window opens inside. Only the last kLookBack bytes are
//     looked at; a block longer than that is seen from where that stretch starts.
//   after: the source's lines after the block's last line (kLeadOutLines, at most
//     kLeadOutBytes), read as if they followed it.
//
// A BlockSource made by Around holds only what the filter reads around the block (the block's
// own lines are the answer's), so an answer never keeps whole blobs alive; it is shared and
// read-only once made.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace rr {

struct BlockSource {
  static constexpr size_t kLookBack = 64 * 1024;
  static constexpr size_t kLeadInLines = 4;
  static constexpr size_t kLeadInBytes = 16 * 1024;
  static constexpr size_t kLeadOutLines = 4;
  static constexpr size_t kLeadOutBytes = 16 * 1024;

  // The source's bytes (all of it, or the stretch around the block); null: no source.
  std::shared_ptr<const std::string> text;
  size_t begin = 0;  // where the block's first line starts in *text
  size_t end = 0;    // where the line after the block's last line starts (or text->size())
  // Set by Around: *text is what Before reads, then what After reads (begin == end between).
  bool cut = false;

  explicit operator bool() const { return text != nullptr; }

  // The source around the block [begin, end) of `whole` (begin at a line's start; end where the
  // line after the block starts, or past the end): what Before and After read, copied.
  static BlockSource Around(std::string_view whole, size_t begin, size_t end);

  // What the filter reads before the block: "" or text ending with one '\n'.
  std::string Before() const;
  // What the filter reads after the block: "" or the lines after it, as they are in the source.
  std::string_view After() const;
};

}  // namespace rr
