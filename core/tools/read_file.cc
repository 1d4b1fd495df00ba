#include "core/tools/read_file.h"

#include <algorithm>
#include <cstring>

#include "core/tools/common.h"
#include "core/util/text.h"

namespace rr {
namespace {

constexpr size_t kMaxLineChars = 2000;
constexpr size_t kWordSlack = 200;  // how far back a long line's cut may move to end a word
// What the secret filter reads beyond what is shown (never shown itself): the rest of a line
// past its cut, and the lines after the window, up to these.
constexpr size_t kRestBytes = 64 * 1024;
constexpr size_t kLeadOutLines = 4;
constexpr size_t kLeadOutBytes = 16 * 1024;

// Bytes of a token-like run: letters, digits and the punctuation tokens are written with.
bool IsWordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '+' || c == '/' || c == '=' || c == '.' || c == '~' ||
         static_cast<unsigned char>(c) >= 0x80;
}

std::string Digits(size_t n) { return std::to_string(n); }

}  // namespace

const ToolSpec& ReadFileTool::spec() const {
  static const ToolSpec s{
      "read_file",
      "Read a file",
      "A file at any ref, as numbered lines. The first line names the file, the ref, the commit "
      "and "
      "the window (lines 1–850 of 3001); a file longer than the answer is cut where the answer is "
      "full, with the start_line that continues it. A line over 2,000 characters is cut, saying "
      "how many were left out. A binary file is given by its size, a symbolic link by its target "
      "(never followed), a submodule by the commit it pins; a file over 10 MB is not read; a "
      "folder is refused with a pointer to list_files.",
      {RepoArg(),
       RefArg(),
       PathArg("The file, written from the repository's root: src/app.py.", true),
       {"start_line", ArgType::kInteger, "The first line to show. Default 1.", false, 1,
        std::nullopt},
       {"max_lines", ArgType::kInteger,
        "At most this many lines. Default: as many as fit in the answer.", false, 1,
        std::nullopt}}};
  return s;
}

Result<Draft> ReadFileTool::Call(const CallContext& ctx, const Args& args) const {
  auto path = PathOf(args);
  if (!path) return Error{path.error()};
  if (path->is_root()) {
    return Error{"path names the repository's root, a folder: list it with list_files"};
  }
  auto o = OpenAt(ctx, args);
  if (!o) return Error{o.error()};
  auto node = o->reader.Find(o->at, *path, ctx.stop);
  if (!node) return Error{node.error()};
  const std::string where = o->at.Where(o->repo->name()) + " · " + node->path.Display();
  const std::string quoted = "`" + node->path.Display() + "`";

  Draft d;
  switch (node->kind) {
    case EntryKind::kFolder:
      return Error{quoted + " is a folder: list it with list_files (repo: \"" + o->repo->name() +
                   "\", path: \"" + node->path.Display() + "\")"};
    case EntryKind::kSubmodule: {
      d.header = where + " · submodule";
      d.lines.push_back("A submodule, pinned at commit " + CommitId(node->oid).Hex() +
                        ". Its files belong to another repository and are not read here.");
      return d;
    }
    case EntryKind::kLink: {
      auto data = o->reader.Read(*node);
      if (!data) return Error{data.error()};
      d.header = where + " · symbolic link";
      d.lines.push_back("A symbolic link to `" + DisplayName(data->bytes()) +
                        "`. It is not followed: read the target by its own path.");
      return d;
    }
    case EntryKind::kFile:
    case EntryKind::kOther:
      break;
  }

  auto data = o->reader.Read(*node);
  if (!data) return Error{data.error()};
  const std::string_view bytes = data->bytes();
  if (data->kind == FileData::Kind::kBinary) {
    const bool utf16 = bytes.size() >= 2 && ((bytes[0] == '\xFF' && bytes[1] == '\xFE') ||
                                             (bytes[0] == '\xFE' && bytes[1] == '\xFF'));
    d.header = where + " · binary";
    d.lines.push_back(std::string(utf16 ? "UTF-16 text" : "A binary file") + " of " +
                      HumanBytes(data->size) + "; not shown as text.");
    return d;
  }

  // Lines: "a\nb\n" is two lines; a final line without '\n' counts. Counted in one pass and
  // read one at a time from the window's first: nothing is held per line of the file.
  size_t total = 0;
  for (const char* p = bytes.data(); p < bytes.data() + bytes.size(); ++total) {
    const void* nl = std::memchr(p, '\n', static_cast<size_t>(bytes.data() + bytes.size() - p));
    p = nl ? static_cast<const char*>(nl) + 1 : bytes.data() + bytes.size();
  }
  size_t pos = 0;  // where the next line to read starts
  auto next_line = [&]() {
    size_t nl = bytes.find('\n', pos);
    if (nl == std::string_view::npos) nl = bytes.size();
    std::string_view line = bytes.substr(pos, nl - pos);
    // A line ending is "\r\n" or "\n"; a "\r" that ends the file without a "\n" is part of
    // the last line, and shown (escaped) like any lone "\r".
    if (nl < bytes.size() && !line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos = nl + 1;
    return line;
  };
  if (total == 0) {
    d.header = where + " · empty file (0 lines)";
    return d;
  }
  const size_t start = static_cast<size_t>(args.Integer("start_line").value_or(1));
  if (start > total) {
    return Error{quoted + " has " + Plural(total, "line", "lines") + "; start_line " +
                 Digits(start) + " is past its end"};
  }
  const int64_t max_lines = args.Integer("max_lines").value_or(0);
  size_t end = total;  // one past the last line asked for
  if (max_lines > 0 && static_cast<uint64_t>(max_lines) < total - start + 1) {
    end = start - 1 + static_cast<size_t>(max_lines);
  }
  const size_t width = Digits(total).size();
  d.number_width = width + 2;
  size_t budget = 0;         // characters formatted so far
  bool past_budget = false;  // then the answer is cut, and the cut's note continues it
  for (size_t i = 0; i + 1 < start; ++i) next_line();
  // For the secret filter: what the file holds, and the text just before the window, so that
  // a private key's block the window opens inside is hidden whole.
  d.body_kind = TextKind::kFile;
  d.body_path = node->path.Display();
  if (pos > 0) {
    constexpr size_t kLeadIn = 64 * 1024;
    d.lead_in.assign(
        bytes.substr(pos > kLeadIn ? pos - kLeadIn : 0, pos > kLeadIn ? kLeadIn : pos));
  }
  for (size_t i = start - 1; i < end; ++i) {
    // `scan`: what the filter reads for the line, when that is not `text` (DisplayText).
    std::string scan;
    std::string text = DisplayText(next_line(), &scan);
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
    if (!scan.empty()) d.scan_as.push_back({d.lines.size(), std::move(scan), shown});
    std::string num = Digits(i + 1);
    std::string out(width - num.size(), ' ');
    out += num;
    out += "  ";
    out += text;
    budget += CodePoints(out) + 1;
    d.lines.push_back(std::move(out));
    // Once the lines alone are longer than the answer, the cap is sure to cut: formatting more
    // would only be thrown away.
    if (budget > ctx.answer_characters) {
      past_budget = true;
      break;
    }
  }
  const size_t numbered = d.lines.size();
  if (numbered > 0 && pos < bytes.size()) {
    // The lines just after the window, read by the filter as if they followed its last line and
    // never shown: a value recognised by what follows it (a run of key lines, a key's END line)
    // is hidden in a window that stops before that.
    size_t lead_out = pos;
    for (size_t k = 0; k < kLeadOutLines && lead_out < bytes.size(); ++k) {
      const size_t nl = bytes.find('\n', lead_out);
      lead_out = nl == std::string_view::npos ? bytes.size() : nl + 1;
    }
    lead_out = std::min(lead_out, pos + kLeadOutBytes);
    if (d.scan_as.empty() || d.scan_as.back().line != numbered - 1) {
      std::string own = d.lines.back().substr(d.number_width);
      const size_t size = own.size();
      d.scan_as.push_back({numbered - 1, std::move(own), size});
    }
    auto& last = d.scan_as.back().text;
    last.push_back('\n');
    last.append(bytes.substr(pos, lead_out - pos));
  }
  d.header_for = [where, start, total, numbered](size_t shown) {
    shown = std::min(shown, numbered);  // the window's closing note is not a line of the file
    if (shown == 0)
      return where + " · no line fits the answer (" + Plural(total, "line", "lines") + ")";
    return where + " · lines " + Digits(start) + "–" + Digits(start + shown - 1) + " of " +
           Digits(total);
  };
  d.cut_note = [start, total, limit = ctx.answer_characters](const std::vector<std::string>&,
                                                             size_t first) {
    const size_t next = start + first;
    return "[lines " + Digits(next) + "–" + Digits(total) +
           " not shown: the answer reached its limit of " + WithCommas(limit) +
           " characters — continue with start_line: " + Digits(next) + "]";
  };
  if (end < total && !past_budget) {
    // The window stopped before the end of the file (max_lines), not the cap. Its note is the
    // body's last line, so that a cut answer ends with the cut's note (the start_line that
    // continues it) instead of this one.
    d.lines.push_back("[" + Plural(total - end, "more line", "more lines") +
                      " after this — continue with start_line: " + Digits(end + 1) + "]");
  }
  return d;
}

}  // namespace rr
