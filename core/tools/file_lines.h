// A file's text as numbered answer lines, the one way read_file and blame show it: each line
// through DisplayText, numbered to the width of the file's last number, a line over 2,000
// characters cut between words (never inside an escape) with a note of what was left out; and
// what the secret filter reads of them and around them (Draft::AddNumberedLine's reading, a
// Draft::Block with the file's text as its source), so that a value split by a cut or by the
// window's edges is still recognised.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/answer/pipeline.h"
#include "core/util/text.h"  // FileLineReader

namespace rr {

// Marks `d` as showing lines of the file at `path`, numbered to `width` digits: the secret
// filter reads them as a file's.
void StartFileLines(const std::string& path, size_t width, Draft* d);

// One line's text as every tool shows a file's line: DisplayText, and past 2,000 characters cut
// between words (never inside an escape) with a note of what was left out. *scan receives what
// the secret filter reads for it (Draft::ScanAs::text) when that is not the result itself, else
// it is left empty; *shown, how many of those bytes stand for what is shown.
std::string ShownText(std::string_view raw, std::string* scan, size_t* shown);

// Appends line `number` (raw bytes `raw`) to `d`, numbered to `width` digits. Returns what it
// costs in the answer: its code points and its newline.
size_t AppendFileLine(std::string_view raw, size_t number, size_t width, Draft* d);

// Ends a window of the file: d->lines from `first` on show its bytes [begin, end) (`end`: where
// the line after the window starts), the first of them being the file's line `line` (from 0).
// They become one block whose source is the file (BlockSource::Of): with the blob's id, its
// whole text, read by the secret filter once per blob (what it found is kept by that id);
// without, the lines just before and after the window. Never shown either way.
void EndFileLines(std::string_view bytes, size_t begin, size_t end, size_t first, Draft* d,
                  std::string_view blob_id = {}, size_t line = 0);

// The least an answer can spend on line `raw` shown by AppendFileLine at `width` digits: at most
// that many lines of a file fit in an answer.
size_t LeastFileLineCost(std::string_view raw, size_t width);

}  // namespace rr
