// What grep and search share: the pattern's arguments, and a file's matching lines as answer
// lines in git grep's format with the file's path heading them:
//   config/legacy.ini
//     1- [old]
//     2: mode = classic
//     --
//    40: mode = classic
// `12:` a match, `11-` a line of context, `--` where lines are skipped (with context). Lines are
// shown as read_file shows them (DisplayText, a line over 2,000 characters cut); every number in an
// answer is right-aligned to the widest, so that the secret filter reads each line's own text
// after the same number of bytes (Draft::ShowsFile). Paths and `--` are the tool's own lines
// (Draft::AddOwnLine). Each run of a file's consecutive lines is a block with the file as its
// source (Draft::AddBlock), so the secret filter reads the lines just before and after it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/search/text_search.h"
#include "core/tools/tool.h"

namespace rr {

// pattern (required), regex, ignore_case.
std::vector<ArgSpec> PatternArgs();
// The pattern the arguments give, or an error saying what is wrong with it.
Result<TextPattern> PatternOf(const Args& args);
// PatternOf's error, for ToolTraits::check_first: the pattern is checked before the target.
Status CheckPattern(const Args& args);
// "`mode = classic`", with " (regular expression)" / " (any case)" when so.
std::string DescribePattern(const Args& args);

// The width every line number of `files` is shown at.
size_t NumberWidth(const std::vector<FileHits>& files);

// Marks `d` as holding files' lines (call once, before the first AppendHits): `path` the file
// they come from when there is one, else "".
void StartHits(size_t width, std::string path, Draft* d);
// The file's path and its lines; with context, `--` where lines are skipped (git grep writes
// it only then). Returns what it costs in the answer (characters).
size_t AppendHits(const FileHits& file, size_t width, bool context, Draft* d);

// What a body says in place of "No line matches." when a regular expression was too costly on
// some lines (they may match).
extern const char kNoLineKnownToMatch[];
// The note naming the lines a regular expression was too costly on (SearchResult::too_costly):
// "[this pattern is too costly on `big.txt:1`; narrow it …]"; empty when there are none.
// `repo_of(target)` names a file's repository when several were searched (search), or is empty.
std::string CostlyLinesNote(const std::vector<FileHits>& files,
                            const std::function<std::string(size_t target)>& repo_of = nullptr);

}  // namespace rr
