// Draft: what a tool hands the answer pipeline (core/answer/pipeline.h) — a first line, the
// body's lines, and what the secret filter needs to read them as they were written, which only
// the pipeline reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/answer/host_links.h"
#include "core/secrets/block_source.h"
#include "core/secrets/secret_filter.h"

namespace rr {

// What a tool hands the pipeline: a first line and the body, one unit a line.
//
// A tool writes the body's lines (`lines`) and says what they are through the methods below —
// a file's lines, a diff, commit messages; a line read otherwise than it is shown; a file's
// numbered line; a tool's own line; a block of lines shown from one source; a part of the
// body that is a text of its own; another draft joined to this one. How the secret filter
// reads them (what is read as one text, which bytes are the tool's line numbers, which lines
// stand aside, what is read around a block) is kept in private fields only the pipeline reads,
// so a tool cannot set it wrong: it states facts about its lines, never the filter's geometry.
// Indices given to the methods (`first`) count in `lines`.
class Draft {
 public:
  std::string header;
  std::vector<std::string> lines;
  // Optional: the first line once the cut is known (`shown` lines kept), e.g. a file's
  // "lines 1–850 of 3001". Without it, `header` is used.
  std::function<std::string(size_t shown)> header_for;
  // Optional: the note for a cut answer; lines[first] is the first line left out.
  // It says what was left out and exactly how to continue.
  std::function<std::string(const std::vector<std::string>& lines, size_t first)> cut_note;
  // Lines after the body that are kept whole (short closing remarks).
  std::vector<std::string> closing;

  // A block of lines shown from one source: a window of a file, a group of a text search's
  // lines, a diff's hunk (core/secrets/block_source.h). The secret filter reads a block with the
  // source's lines just before and after it, never shown, so that a value recognised by its
  // neighbours is hidden in any window that shows it. In a diff, those lines are read as the
  // diff's context lines (' ' before each). Lines aside within a block are not the source's. A
  // block whose source is a whole blob (BlockSource::Of) in a file's lines is the blob's lines
  // from source.line on, one a line (lines aside skipped): it is hidden from what the filter
  // finds in the blob's whole text, and left out of the text's other readings. `path`: the file
  // the block shows, when the text it is part of names none (a text search over several files);
  // the block is then also read on its own as that file's text.
  struct Block {
    size_t first = 0;  // the block's first line, in `lines`
    size_t count = 0;  // how many lines it runs
    BlockSource source;
    std::string path;
  };
  // A line the secret filter reads otherwise than it is shown: `text` stands for lines[line]
  // after the tool's line number: its first `shown` bytes byte for byte (a file's window writes
  // an escape there as blanks, so that its letters never join the value beside it); the rest is
  // read as if it followed on that line, and never shown: the part of a line past its cut. A
  // value split there is still recognised, and what of it is shown hidden.
  struct ScanAs {
    size_t line = 0;
    std::string text;
    size_t shown = 0;
  };
  // A body line that shows a file's line number (a file's window, blame's lines, an outline's
  // entries). The host link names the lines shown from these, never from the rendered text.
  struct Number {
    size_t line = 0;      // in `lines`
    uint32_t number = 0;  // the file's line, from 1 (a file read is at most 10 MB)
  };

  // What the body's lines are, for the secret filter (lines before the first part; see
  // StartPart). A file's lines: `path` the file ("" when they come from several), each line's
  // first `number_width` bytes the tool's own line number when they hold only digits, spaces,
  // ':' and '-' (otherwise the whole line is read as text).
  void ShowsFile(std::string path, size_t number_width);
  // A diff, as git writes it.
  void ShowsDiff() { body_kind_ = TextKind::kDiff; }
  // Commit messages (with the tool's lines about each commit).
  void ShowsCommitMessages() { body_kind_ = TextKind::kCommitMessage; }

  // Adds line `shown`; `read_as`, when not empty, is what the secret filter reads for it (its
  // first `read_shown` bytes stand for what is shown; ScanAs).
  void AddLine(std::string shown, std::string read_as = {}, size_t read_shown = 0);
  // Adds a line showing the file's line `number`, read as AddLine says.
  void AddNumberedLine(std::string shown, uint32_t number, std::string read_as = {},
                       size_t read_shown = 0);
  // Adds a line of the tool's own (a heading, a note, a commit line of a blame), read by the
  // secret filter as a text of its own and left out of the body's text, so that the lines on
  // either side are read as they follow each other in their source (a private key whose lines
  // came in different commits is still one block).
  void AddOwnLine(std::string line) {
    aside_.push_back(lines.size());
    lines.push_back(std::move(line));
  }
  // Lines [first, first + count) were shown from `source`. Blocks are added in order of their
  // lines, never overlapping.
  void AddBlock(size_t first, size_t count, BlockSource source, std::string path = {});

  // The lines from here to the next part (or the end) are a text of their own for the secret
  // filter — its own kind, path and line numbers — so that one file's format decides what a
  // setting looks like in it alone, and a block one file leaves open never runs into the next
  // (files read at once, a repository's index file and listing). StartPart: the tool's own
  // lines; StartFilePart: a file's lines as ShowsFile says; StartPartAs: read as `other`'s body
  // is (before it is appended).
  void StartPart() { parts_.push_back({lines.size(), TextKind::kOther, "", 0}); }
  void StartFilePart(std::string path, size_t number_width) {
    parts_.push_back({lines.size(), TextKind::kFile, std::move(path), number_width});
  }
  void StartPartAs(const Draft& other) {
    parts_.push_back({lines.size(), other.body_kind_, other.body_path_, other.number_width_});
  }
  // Appends `more`'s lines with what the filter knows of them (blocks, lines read otherwise,
  // own lines, numbers, parts); its header, notes and what its body is are not taken.
  void Append(Draft more);
  // Keeps the first `n` lines. A block cut inside keeps what comes before it in its source
  // but no longer what came after: that does not follow its last line kept.
  void KeepFirst(size_t n);
  // Every line so far is the tool's own (AddOwnLine).
  void AllOwnLines();

  const std::vector<Block>& blocks() const { return blocks_; }
  // Sorted by line.
  const std::vector<Number>& numbers() const { return numbers_; }

  // Guidance joined ahead of the answer (tools leave these empty; see the top of this file).
  // `guidance_line`: the first line ("" for none). `guidance`: the scoped rules in force, in
  // order. `guidance_left_out`: the note naming the rules left out for room, given their names.
  struct GuidanceRule {
    std::string opener;              // "=== Guidance for src/a.py: .claude/rules/p.md … ==="
    std::string name;                // as the left-out note names it
    std::vector<std::string> lines;  // its text, as shown
    std::vector<ScanAs> scan_as;     // as for the body's lines (no line numbers)
    std::string path;                // the file it comes from, for the secret filter
  };
  std::string guidance_line;
  std::vector<GuidanceRule> guidance;
  std::function<std::string(const std::vector<std::string>& names)> guidance_left_out;

  // Non-empty: the secret filter failed on something the tool read to make this answer (a file
  // searched, a commit message matched): the failure, as ScanResult::failure says it. The
  // answer is then withheld as if the filter had failed on the answer itself, and the operator
  // is told which detector failed.
  std::string withheld;

  // What the answer read, for the host link under the header (host_links.h). Set by the server
  // from what the call noted; a tool leaves it alone.
  ReadSpot read;

 private:
  friend class AnswerPipeline;

  struct Part {
    size_t first = 0;
    TextKind kind = TextKind::kOther;
    std::string path;
    size_t number_width = 0;
  };

  // What the body's lines before the first part are (ShowsFile …).
  TextKind body_kind_ = TextKind::kOther;
  std::string body_path_;
  size_t number_width_ = 0;
  std::vector<Block> blocks_;    // sorted by first, not overlapping
  std::vector<ScanAs> scan_as_;  // sorted by line
  std::vector<size_t> aside_;    // sorted: the tool's own lines
  std::vector<Part> parts_;      // sorted by first: each runs to the next one's first line
  std::vector<Number> numbers_;  // sorted by line
};

// How many of the body's first `k` lines show a file's line number: Draft::numbers before `k`.
size_t NumberedBefore(const std::vector<Draft::Number>& numbers, size_t k);

}  // namespace rr
