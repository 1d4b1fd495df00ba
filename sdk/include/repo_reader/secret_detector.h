// repo-reader plugin SDK: the secret-detector interface (C++). A class the plugin implements;
// REPO_READER_PLUGIN (plugin.h) hands it to the server over the C boundary (plugin_abi.h), so
// nothing of it but plain data crosses into the server.
//
// Every answer the server gives, and every error, passes through its secret filter before an
// agent sees it. The filter asks each detector in force where the text holds values that look
// like secrets, and shows each such span as `[hidden: <what>]`. A detector only reports spans:
// it never sees the answer as sent, changes nothing and makes no request.
//
// Keywords. A detector declares the words its secrets always come with (a token's prefix, a
// setting's name). The server finds every keyword of every detector in one pass over the text,
// case-insensitively, and calls a detector only when one of its own occurs, handing it where
// each occurrence begins: a detector looks there, rather than scanning the whole text again.
// A detector that declares no keyword is called on every text, and should be fast (a line
// scan, not a regular expression over everything).
//
// Thread safety: Scan is called on many threads at once, on the same object. Keep per-call
// state on the stack (or thread_local); the object itself must not change after construction.
//
// Errors: Scan reports nothing it is unsure of as an error; it either reports spans or none.
// An exception that escapes Scan, or a span that is empty or outside the text (begin >= end,
// end > size), makes the server withhold the whole answer and report the detector to the
// operator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "repo_reader/plugin_abi.h"

namespace repo_reader {

// What the text is. A detector may treat kinds differently (a file's format decides what a
// setting looks like; a diff's lines start with ' ', '+' or '-').
enum class TextKind : uint32_t {
  kFile = RR_TEXT_FILE,  // lines of a file, as stored (read_file, blame, search and grep hits)
  kDiff = RR_TEXT_DIFF,  // a unified diff: lines start with ' ', '+', '-', '@@' or a file header
  kCommitMessage = RR_TEXT_COMMIT_MESSAGE,  // a commit's message, or its subject
  kPath = RR_TEXT_PATH,                     // names: file paths, refs, repository names
  kError = RR_TEXT_ERROR,                   // an error message
  kOther = RR_TEXT_OTHER,  // anything else the server writes (headers, listings, notes)
};

// One occurrence of one of the detector's keywords: `offset`, the byte offset in ScanInput::text
// where the keyword begins, and `keyword`, its index into the detector's keywords(). The C
// boundary's own struct (plugin_abi.h), so that hits reach a detector without a copy.
using KeywordHit = rr_keyword_hit;

struct ScanInput {
  std::string_view text;  // UTF-8; may be large (a whole file window, up to about 1 MB)
  TextKind kind;
  // The file the text comes from, from the repository's root ("config/app.yml"), when there is
  // one; empty otherwise. Its name tells the format (YAML, .env, code).
  std::string_view path;
  // This detector's keyword occurrences in the text, in order of offset (for a keyword that is
  // a prefix of another, both). Empty for a detector that declared no keyword.
  const KeywordHit* hits;
  size_t hit_count;
};

// Where a detector reports what it found.
class SpanSink {
 public:
  // text[begin, end) looks like a secret of kind `what` ("GitHub token", "password",
  // "private key"): a few words, shown to the agent as `[hidden: <what>]`. Report the secret
  // itself, not the setting's name or the quotes around it. Spans may overlap; the server
  // merges them. A span may cross lines (a private key's block).
  virtual void Add(size_t begin, size_t end, std::string_view what) = 0;

 protected:
  ~SpanSink() = default;
};

class SecretDetector {
 public:
  virtual ~SecretDetector() = default;

  // A short id, unique within the plugin ("github-token"): named in the server's reports.
  virtual const char* id() const noexcept = 0;

  // The words this detector's secrets come with: ASCII, at least 2 characters, matched in any
  // case. Asked once, at load. Empty: the detector is called on every text.
  virtual std::vector<std::string> keywords() const = 0;

  // Reports each secret in `input.text` to `sink`. Called only when one of the keywords occurs
  // (or always, without keywords). Must be thread-safe and must not throw.
  virtual void Scan(const ScanInput& input, SpanSink& sink) const = 0;
};

}  // namespace repo_reader
