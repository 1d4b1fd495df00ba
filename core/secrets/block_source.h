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
// own lines are the answer's); it is shared and read-only once made.
//
// A block of a file's lines (a window read_file or blame shows, a file in the repository's
// overview) has the whole blob as its source instead, when the blob is at most kWholeBytes
// (made by Of): the filter reads the blob's whole text, as lines the way a file's window shows
// them, and hides on the block's lines what it found there, so that a value recognised anywhere
// around it is hidden in whatever window shows it. What it found is kept by the blob's id
// (core/secrets/scan_cache.h): the same file read again, in any window, is not read again. The
// answer keeps the blob's bytes until it is finished.
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

  // Set by Of for a whole blob (then `text` is null): its id and bytes; begin and end are the
  // block's bytes in it, and `line` the blob's line (from 0) that is the block's first.
  struct Blob {
    std::string id;  // the blob's object id: the same id, the same bytes
    std::string bytes;
  };
  static constexpr size_t kWholeBytes = 1u << 20;
  std::shared_ptr<const Blob> blob;
  size_t line = 0;

  explicit operator bool() const { return text != nullptr || blob != nullptr; }

  // The source around the block [begin, end) of `whole` (begin at a line's start; end where the
  // line after the block starts, or past the end): what Before and After read, copied.
  static BlockSource Around(std::string_view whole, size_t begin, size_t end);
  // The source of the block [begin, end) of the blob `id` whose bytes are `whole`, the block's
  // first line being the blob's line `line` (from 0): the whole blob when it has an id and is at
  // most kWholeBytes, otherwise Around.
  static BlockSource Of(std::string_view id, std::string_view whole, size_t begin, size_t end,
                        size_t line);
  // For a whole blob: Around on it (where its text cannot be read as a file's lines); otherwise
  // this source as it is.
  BlockSource Cut() const;

  // What the filter reads before the block: "" or text ending with one '\n'.
  std::string Before() const;
  // What the filter reads after the block: "" or the lines after it, as they are in the source.
  std::string_view After() const;
};

}  // namespace rr
