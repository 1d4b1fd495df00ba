#include "core/outline/outline.h"

#include <algorithm>
#include <cstring>

namespace rr {
namespace {

constexpr size_t kStopCheckLines = 4096;  // lines between two looks at the stop token

bool IsSpace(char c) { return c == ' ' || c == '\t'; }
bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool IsIdent(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool EndsWithNoCase(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (size_t i = 0; i < suffix.size(); ++i) {
    if (Lower(s[s.size() - suffix.size() + i]) != suffix[i]) return false;
  }
  return true;
}

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (Lower(s[i]) != prefix[i]) return false;
  }
  return true;
}

std::string_view TrimLeft(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && IsSpace(s[i])) ++i;
  return s.substr(i);
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && (IsSpace(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string_view Trim(std::string_view s) { return TrimRight(TrimLeft(s)); }

// `s` starts with `word` followed by something that cannot continue a name.
bool StartsWithWord(std::string_view s, std::string_view word) {
  return s.size() >= word.size() && s.substr(0, word.size()) == word &&
         (s.size() == word.size() || !IsIdent(s[word.size()]));
}

// After `word` and the blanks following it; `s` itself when it does not start with the word.
std::string_view AfterWord(std::string_view s, std::string_view word) {
  if (!StartsWithWord(s, word)) return s;
  return TrimLeft(s.substr(word.size()));
}

// The identifier `s` starts with ("" when none).
std::string_view Identifier(std::string_view s) {
  if (s.empty() || !IsIdentStart(s[0])) return {};
  size_t i = 1;
  while (i < s.size() && IsIdent(s[i])) ++i;
  return s.substr(0, i);
}

// The lines of a text: a line ends at "\n" (a '\r' before it is dropped).
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {}
  bool Next(std::string_view* line) {
    if (pos_ >= text_.size()) return false;
    size_t nl = text_.find('\n', pos_);
    if (nl == std::string_view::npos) nl = text_.size();
    *line = text_.substr(pos_, nl - pos_);
    if (!line->empty() && line->back() == '\r' && nl < text_.size()) line->remove_suffix(1);
    pos_ = nl + 1;
    ++number_;
    return true;
  }
  size_t number() const { return number_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  size_t number_ = 0;
};

// ---- Markdown --------------------------------------------------------------------------------

// Columns of leading blanks (a tab to the next multiple of 4), and where the rest begins.
size_t Indent(std::string_view line, size_t* rest) {
  size_t col = 0, i = 0;
  for (; i < line.size() && IsSpace(line[i]); ++i)
    col = line[i] == '\t' ? col + 4 - col % 4 : col + 1;
  *rest = i;
  return col;
}

bool IsBlank(std::string_view line) { return TrimLeft(line).empty(); }

// A run of one character c, at least `least` long, then blanks only (`spaced`: blanks may come
// between the characters, as in a thematic break `- - -`).
bool RunOf(std::string_view s, char c, size_t least, bool spaced) {
  size_t n = 0, i = 0;
  for (; i < s.size(); ++i) {
    if (s[i] == c) {
      ++n;
    } else if (IsSpace(s[i]) && (spaced || n > 0)) {
      if (!spaced) break;
    } else {
      return false;
    }
  }
  for (; i < s.size(); ++i) {
    if (!IsSpace(s[i])) return false;
  }
  return n >= least;
}

bool IsThematicBreak(std::string_view rest) {
  return RunOf(rest, '-', 3, true) || RunOf(rest, '*', 3, true) || RunOf(rest, '_', 3, true);
}

// An ATX heading's level (1–6) and text, or 0.
int AtxHeading(std::string_view rest, std::string* text) {
  int level = 0;
  while (level < static_cast<int>(rest.size()) && rest[level] == '#') ++level;
  if (level == 0 || level > 6) return 0;
  if (static_cast<size_t>(level) < rest.size() && !IsSpace(rest[level])) return 0;
  std::string_view t = Trim(rest.substr(level));
  // A closing sequence: '#'s that are the whole text, or follow a blank.
  size_t k = t.size();
  while (k > 0 && t[k - 1] == '#') --k;
  if (k == 0) {
    t = {};
  } else if (k < t.size() && IsSpace(t[k - 1])) {
    t = TrimRight(t.substr(0, k));
  }
  text->assign(t);
  return level;
}

// The fence a line opens (``` or ~~~, at least 3), or 0.
size_t FenceOpen(std::string_view rest, char* fence_char) {
  if (rest.empty() || (rest[0] != '`' && rest[0] != '~')) return 0;
  const char c = rest[0];
  size_t n = 0;
  while (n < rest.size() && rest[n] == c) ++n;
  if (n < 3) return 0;
  if (c == '`' && rest.substr(n).find('`') != std::string_view::npos) return 0;  // inline code
  *fence_char = c;
  return n;
}

bool FenceCloses(std::string_view line, char fence_char, size_t fence_len) {
  size_t rest;
  if (Indent(line, &rest) > 3) return false;
  std::string_view r = line.substr(rest);
  size_t n = 0;
  while (n < r.size() && r[n] == fence_char) ++n;
  return n >= fence_len && Trim(r.substr(n)).empty();
}

// HTML blocks (CommonMark's seven kinds): the kind a line starts, or 0. Kind 7 (any tag alone on
// its line) may not interrupt a paragraph.
int HtmlBlockStart(std::string_view rest, bool in_paragraph) {
  if (rest.empty() || rest[0] != '<') return 0;
  auto tag_after = [&](size_t from, std::string_view name) {
    if (!StartsWithNoCase(rest.substr(from), name)) return false;
    const size_t e = from + name.size();
    return e == rest.size() || IsSpace(rest[e]) || rest[e] == '>' ||
           (rest[e] == '/' && e + 1 < rest.size() && rest[e + 1] == '>');
  };
  for (std::string_view t : {"script", "pre", "style", "textarea"}) {
    if (tag_after(1, t)) return 1;
  }
  if (rest.substr(0, 4) == "<!--") return 2;
  if (rest.substr(0, 2) == "<?") return 3;
  if (rest.substr(0, 9) == "<![CDATA[") return 5;
  if (rest.size() > 2 && rest[1] == '!' &&
      ((rest[2] >= 'a' && rest[2] <= 'z') || (rest[2] >= 'A' && rest[2] <= 'Z'))) {
    return 4;
  }
  static const char* const kBlockTags[] = {
      "address", "article",  "aside",    "base",     "basefont", "blockquote", "body",
      "caption", "center",   "colgroup", "col",      "dd",       "details",    "dialog",
      "dir",     "div",      "dl",       "dt",       "fieldset", "figcaption", "figure",
      "footer",  "form",     "frameset", "frame",    "h1",       "h2",         "h3",
      "h4",      "h5",       "h6",       "header",   "head",     "hr",         "html",
      "iframe",  "legend",   "link",     "li",       "main",     "menuitem",   "menu",
      "nav",     "noframes", "ol",       "optgroup", "option",   "param",      "p",
      "search",  "section",  "summary",  "table",    "tbody",    "td",         "tfoot",
      "th",      "thead",    "title",    "tr",       "track",    "ul"};
  const size_t from = rest.size() > 1 && rest[1] == '/' ? 2 : 1;
  for (const char* t : kBlockTags) {
    if (tag_after(from, t)) return 6;
  }
  // Kind 7: a whole open or closing tag alone on its line.
  if (in_paragraph || from >= rest.size() || !IsIdentStart(rest[from])) return 0;
  return TrimRight(rest).back() == '>' ? 7 : 0;
}

bool HtmlBlockEnds(int kind, std::string_view line) {
  auto has = [&](std::string_view s) {
    for (size_t i = 0; i + s.size() <= line.size(); ++i) {
      if (StartsWithNoCase(line.substr(i), s)) return true;
    }
    return false;
  };
  switch (kind) {
    case 1:
      return has("</script>") || has("</pre>") || has("</style>") || has("</textarea>");
    case 2:
      return line.find("-->") != std::string_view::npos;
    case 3:
      return line.find("?>") != std::string_view::npos;
    case 4:
      return line.find('>') != std::string_view::npos;
    case 5:
      return line.find("]]>") != std::string_view::npos;
    default:
      return false;  // 6 and 7 end at a blank line
  }
}

// A list item's marker: `-`, `+` or `*`, or up to 9 digits and `.` or `)`, then a blank or the
// end. *ordered: numbered; *one: numbered 1 (of those, only such may interrupt a paragraph).
bool ListItem(std::string_view rest, bool* ordered, bool* one) {
  size_t i = 0;
  *ordered = false;
  *one = false;
  if (!rest.empty() && (rest[0] == '-' || rest[0] == '+' || rest[0] == '*')) {
    i = 1;
  } else {
    while (i < rest.size() && i < 9 && IsDigit(rest[i])) ++i;
    if (i == 0 || i >= rest.size() || (rest[i] != '.' && rest[i] != ')')) return false;
    *ordered = true;
    *one = rest.substr(0, i).find_first_not_of('0') == i - 1 && rest[i - 1] == '1';
    ++i;
  }
  return i == rest.size() || IsSpace(rest[i]);
}

std::vector<OutlineEntry> MarkdownOutline(std::string_view text, const StopToken& stop) {
  std::vector<OutlineEntry> out;
  Lines lines(text);
  std::string_view line;
  // Front matter: `---` on the first line, closed by `---` or `...`.
  size_t front_matter_end = 0;  // the closing line's number, 0 when there is none
  {
    Lines probe(text);
    std::string_view l;
    if (probe.Next(&l) && TrimRight(l) == "---") {
      while (probe.Next(&l)) {
        const std::string_view t = TrimRight(l);
        if (t == "---" || t == "...") {
          front_matter_end = probe.number();
          break;
        }
      }
    }
  }
  bool in_fence = false;
  char fence_char = 0;
  size_t fence_len = 0;
  int html = 0;            // the HTML block the lines are in, 0 for none
  bool lazy = false;       // lines continuing a block quote or a list item
  bool paragraph = false;  // a paragraph is open: a setext underline may follow
  size_t paragraph_line = 0;
  std::string paragraph_text;
  auto end_paragraph = [&] {
    paragraph = false;
    paragraph_text.clear();
  };
  while (lines.Next(&line)) {
    const size_t number = lines.number();
    if (number % kStopCheckLines == 0 && stop.stopped()) break;
    if (number <= front_matter_end) continue;
    if (in_fence) {
      if (FenceCloses(line, fence_char, fence_len)) in_fence = false;
      continue;
    }
    if (html) {
      if ((html >= 6 && IsBlank(line)) || HtmlBlockEnds(html, line)) html = 0;
      continue;
    }
    if (IsBlank(line)) {
      end_paragraph();
      lazy = false;
      continue;
    }
    size_t rest_at;
    const size_t indent = Indent(line, &rest_at);
    const std::string_view rest = line.substr(rest_at);
    if (indent >= 4) {
      // A paragraph's continuation, a quote's or list item's, or indented code.
      if (paragraph && !lazy) paragraph_text += " " + std::string(Trim(rest));
      continue;
    }
    std::string heading;
    bool ordered = false, one = false;
    if (const size_t n = FenceOpen(rest, &fence_char)) {
      in_fence = true;
      fence_len = n;
      end_paragraph();
      lazy = false;
    } else if (const int level = AtxHeading(rest, &heading)) {
      out.push_back({number, level, std::move(heading)});
      end_paragraph();
      lazy = false;
    } else if (paragraph && !lazy && (RunOf(rest, '=', 1, false) || RunOf(rest, '-', 1, false))) {
      out.push_back({paragraph_line, rest[0] == '=' ? 1 : 2, paragraph_text});
      end_paragraph();
    } else if (IsThematicBreak(rest)) {
      end_paragraph();
      lazy = false;
    } else if (rest[0] == '>') {
      end_paragraph();
      lazy = true;
    } else if (ListItem(rest, &ordered, &one) && !(paragraph && ordered && !one)) {
      end_paragraph();
      lazy = true;
    } else if (const int kind = HtmlBlockStart(rest, paragraph)) {
      end_paragraph();
      lazy = false;
      if (!HtmlBlockEnds(kind, rest)) html = kind;
    } else if (lazy) {
      // continues the quote or list item
    } else if (paragraph) {
      paragraph_text += " " + std::string(Trim(rest));
    } else {
      paragraph = true;
      paragraph_line = number;
      paragraph_text.assign(Trim(rest));
    }
  }
  return out;
}

// ---- Code: what a line holds once strings and comments are known ----------------------------

// How a language writes strings and comments.
struct Syntax {
  bool slash_comments = true;     // `//` and `/* */`
  bool hash_comments = false;     // `#` to the end of the line
  bool single_quotes = true;      // '…' is a literal (not in Rust: lifetimes)
  bool rust_chars = false;        // 'x', '\n' are literals; 'a alone a lifetime
  bool multiline_double = false;  // "…" may run over lines (Rust)
  bool backticks = false;         // `…` may run over lines (JavaScript templates, Go raw strings)
  bool backtick_escapes = false;  // a '\\' in `…` escapes (JavaScript; not Go)
  bool cpp_raw = false;           // R"delim( … )delim"
  bool rust_raw = false;          // r"…", r#"…"#
  bool preprocessor = false;      // `#` lines (and their `\` continuations) are not code
};

// State carried from one line to the next.
struct LexState {
  enum Where { kCode, kBlockComment, kDouble, kBacktick, kRaw } where = kCode;
  std::string raw_end;  // what ends a raw string
  int parens = 0;       // ( and [ open in code
  bool macro = false;   // a preprocessor line continues
};

// What one line holds, for the rules.
struct Scanned {
  bool starts_in_code = true;  // the line starts in code, outside any open ( or [
  std::string_view code;       // the line up to a comment that ends it, trimmed
  // The braces and semicolons in code, in order ('{', '}', ';').
  std::string marks;
};

Scanned ScanLine(std::string_view line, const Syntax& syn, LexState* st) {
  Scanned s;
  s.starts_in_code = st->where == LexState::kCode && st->parens == 0 && !st->macro;
  size_t code_end = line.size();
  const std::string_view trimmed = TrimLeft(line);
  if (syn.preprocessor &&
      (st->macro || (st->where == LexState::kCode && !trimmed.empty() && trimmed[0] == '#'))) {
    st->macro = !TrimRight(line).empty() && TrimRight(line).back() == '\\';
    s.code = Trim(line);
    return s;
  }
  size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    switch (st->where) {
      case LexState::kBlockComment:
        if (c == '*' && i + 1 < line.size() && line[i + 1] == '/') {
          st->where = LexState::kCode;
          i += 2;
        } else {
          ++i;
        }
        continue;
      case LexState::kDouble:
        if (c == '\\') {
          i += 2;
        } else {
          if (c == '"') st->where = LexState::kCode;
          ++i;
        }
        continue;
      case LexState::kBacktick:
        if (c == '\\' && syn.backtick_escapes) {
          i += 2;
        } else {
          if (c == '`') st->where = LexState::kCode;
          ++i;
        }
        continue;
      case LexState::kRaw: {
        const size_t e = line.find(st->raw_end, i);
        if (e == std::string_view::npos) {
          i = line.size();
        } else {
          i = e + st->raw_end.size();
          st->where = LexState::kCode;
        }
        continue;
      }
      case LexState::kCode:
        break;
    }
    if (syn.slash_comments && c == '/' && i + 1 < line.size() && line[i + 1] == '/') {
      code_end = std::min(code_end, i);
      break;
    }
    if (syn.slash_comments && c == '/' && i + 1 < line.size() && line[i + 1] == '*') {
      code_end = std::min(code_end, i);
      st->where = LexState::kBlockComment;
      i += 2;
      continue;
    }
    if (syn.hash_comments && c == '#') {
      code_end = std::min(code_end, i);
      break;
    }
    if (syn.cpp_raw && c == '"' && i > 0 && line[i - 1] == 'R' &&
        (i < 2 || !IsIdent(line[i - 2]) || line[i - 2] == 'u' || line[i - 2] == 'U' ||
         line[i - 2] == 'L' || line[i - 2] == '8')) {
      const size_t open = line.find('(', i + 1);
      if (open != std::string_view::npos && open - i - 1 <= 16) {
        st->raw_end = ")" + std::string(line.substr(i + 1, open - i - 1)) + "\"";
        st->where = LexState::kRaw;
        i = open + 1;
        continue;
      }
    }
    if (syn.rust_raw && c == 'r' && (i == 0 || !IsIdent(line[i - 1]))) {
      size_t k = i + 1;
      while (k < line.size() && line[k] == '#') ++k;
      if (k < line.size() && line[k] == '"') {
        st->raw_end = "\"" + std::string(k - i - 1, '#');
        st->where = LexState::kRaw;
        i = k + 1;
        continue;
      }
    }
    if (c == '"') {
      // A string; one that does not close on its line runs on only where the language allows.
      size_t k = i + 1;
      while (k < line.size() && line[k] != '"') k += line[k] == '\\' ? 2 : 1;
      if (k >= line.size() && syn.multiline_double) {
        st->where = LexState::kDouble;
        i = line.size();
      } else {
        i = k + 1;
      }
      continue;
    }
    if (c == '\'' && syn.single_quotes) {
      size_t k = i + 1;
      while (k < line.size() && line[k] != '\'') k += line[k] == '\\' ? 2 : 1;
      i = k + 1;
      continue;
    }
    if (c == '\'' && syn.rust_chars) {
      // 'x' or '\n' is a character; 'a alone, a lifetime.
      if (i + 1 < line.size() && line[i + 1] == '\\') {
        const size_t k = line.find('\'', i + 2);
        i = k == std::string_view::npos ? line.size() : k + 1;
        continue;
      }
      size_t k = i + 1;
      if (k < line.size()) k += 1;
      while (k < line.size() && (static_cast<unsigned char>(line[k]) & 0xC0) == 0x80) ++k;
      i = k < line.size() && line[k] == '\'' ? k + 1 : i + 1;
      continue;
    }
    if (c == '`' && syn.backticks) {
      st->where = LexState::kBacktick;
      ++i;
      continue;
    }
    if (c == '(' || c == '[') ++st->parens;
    if ((c == ')' || c == ']') && st->parens > 0) --st->parens;
    if (c == '{' || c == '}' || c == ';') s.marks.push_back(c);
    ++i;
  }
  s.code = Trim(line.substr(0, std::min(code_end, line.size())));
  return s;
}

// What a brace opens, for the rules: only lines directly in a namespace (or at the top), a
// type's body or a module are judged; a function's body, an enum's, an object's are not.
enum class Scope { kTop, kType, kCode, kOther };

// The open braces of a file.
class Scopes {
 public:
  Scope current() const { return stack_.empty() ? Scope::kTop : stack_.back().scope; }
  const std::string& type_name() const {
    static const std::string none;
    return stack_.empty() ? none : stack_.back().name;
  }
  // The line's braces: the first opens `opens` (a definition's body) or, when the definition's
  // brace is on a later line, the next one does; every other opens code.
  void Apply(const std::string& marks, Scope opens, std::string name) {
    if (opens != Scope::kCode) {
      pending_ = opens;
      pending_name_ = std::move(name);
    }
    for (char m : marks) {
      if (m == '{') {
        stack_.push_back({pending_, pending_name_});
        pending_ = Scope::kCode;
        pending_name_.clear();
      } else if (m == '}') {
        if (!stack_.empty()) stack_.pop_back();
      } else {
        pending_ = Scope::kCode;  // ';' ends a declaration that opened nothing
        pending_name_.clear();
      }
    }
  }

 private:
  struct Open {
    Scope scope;
    std::string name;
  };
  std::vector<Open> stack_;
  Scope pending_ = Scope::kCode;
  std::string pending_name_;
};

// The text before a line's first '(' (its "head"), when the line holds one.
bool HeadOf(std::string_view code, std::string_view* head) {
  const size_t paren = code.find('(');
  if (paren == std::string_view::npos) return false;
  *head = TrimRight(code.substr(0, paren));
  return true;
}

size_t WordCount(std::string_view s) {
  size_t n = 0;
  bool in_word = false;
  for (char c : s) {
    if (IsSpace(c)) {
      in_word = false;
    } else if (!in_word) {
      in_word = true;
      ++n;
    }
  }
  return n;
}

bool IsOneOf(std::string_view word, std::initializer_list<std::string_view> words) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

// Words that start a statement, never a definition.
bool IsStatementWord(std::string_view w) {
  return IsOneOf(
      w, {"return",   "if",      "else",    "for",    "while",         "do",        "switch",
          "case",     "default", "goto",    "break",  "continue",      "throw",     "delete",
          "new",      "sizeof",  "typedef", "using",  "static_assert", "co_return", "co_await",
          "co_yield", "catch",   "try",     "await",  "yield",         "assert",    "super",
          "this",     "typeof",  "import",  "package"});
}

// A function's head (the text before its '('): it names what it defines (ends with a name or
// an operator) and reads as a declaration, not a statement or an expression.
bool FunctionHead(std::string_view head, bool allow_dots) {
  if (head.empty()) return false;
  const char c0 = head[0];
  if (!(IsIdentStart(c0) || c0 == '~' || c0 == ':' || c0 == '[')) return false;
  if (IsStatementWord(Identifier(head))) return false;
  const size_t op = head.find("operator");
  const std::string_view before_op = op == std::string_view::npos ? head : head.substr(0, op);
  if (before_op.find_first_of("=;\"'{}()!|+%^") != std::string_view::npos) return false;
  if (!allow_dots && (before_op.find('.') != std::string_view::npos ||
                      before_op.find("->") != std::string_view::npos)) {
    return false;
  }
  if (op == std::string_view::npos) {
    size_t lt = 0, gt = 0;
    for (char c : head) {
      lt += c == '<';
      gt += c == '>';
    }
    if (lt != gt) return false;
    return IsIdent(head.back());
  }
  return true;
}

// Leading words that say how a definition is kept, never what it is: each passed over when
// something that can be a name follows it (`get(key)` is a method named get, not a getter).
std::string_view StripWords(std::string_view s, std::initializer_list<std::string_view> words) {
  while (true) {
    const std::string_view w = Identifier(s);
    if (w.empty() || !IsOneOf(w, words)) return s;
    const std::string_view rest = TrimLeft(s.substr(w.size()));
    if (rest.empty() || !(IsIdentStart(rest[0]) || rest[0] == '#' || rest[0] == '*' ||
                          rest[0] == '[' || rest[0] == '@' || rest[0] == '<')) {
      return s;
    }
    s = rest;
  }
}

// Leading annotations (Java `@Override`, `@Foo(x = 1)`).
std::string_view StripAnnotations(std::string_view s) {
  while (s.size() > 1 && s[0] == '@' && !StartsWithWord(s.substr(1), "interface")) {
    size_t i = 1;
    while (i < s.size() && (IsIdent(s[i]) || s[i] == '.')) ++i;
    if (i < s.size() && s[i] == '(') {
      int depth = 0;
      for (; i < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')' && --depth == 0) {
          ++i;
          break;
        }
      }
    }
    s = TrimLeft(s.substr(i));
  }
  return s;
}

// A definition a keyword introduces: `keyword Name`, no '(' before its body.
bool KeywordDefinition(std::string_view s, std::string_view keyword, std::string* name) {
  if (!StartsWithWord(s, keyword)) return false;
  std::string_view rest = TrimLeft(s.substr(keyword.size()));
  const std::string_view n = Identifier(rest);
  if (n.empty()) return false;
  *name = std::string(n);
  return true;
}

// ---- C and C++ -------------------------------------------------------------------------------

struct Judged {
  bool entry = false;
  Scope opens = Scope::kCode;
  std::string name;
};

Judged JudgeC(std::string_view code) {
  Judged j;
  if (code.empty()) return j;
  if (code[0] == '#') {
    const std::string_view d = TrimLeft(code.substr(1));
    j.entry = StartsWithWord(d, "define") && !Identifier(AfterWord(d, "define")).empty();
    return j;
  }
  std::string_view s = code;
  if (StartsWithWord(s, "template")) {
    // template <…> on the same line as what it templates: what follows it is judged.
    size_t i = s.find('<');
    int depth = 0;
    for (; i < s.size(); ++i) {
      if (s[i] == '<') ++depth;
      if (s[i] == '>' && --depth == 0) break;
    }
    if (i >= s.size()) return j;
    s = TrimLeft(s.substr(i + 1));
  }
  if (StartsWithWord(s, "extern") && AfterWord(s, "extern").substr(0, 3) == "\"C\"") {
    j.opens = Scope::kTop;  // extern "C" { … }: its content is judged as at the top
    return j;
  }
  s = StripWords(s, {"typedef", "export", "static", "inline", "constexpr"});
  const size_t brace = s.find('{');
  const std::string_view before_brace = brace == std::string_view::npos ? s : s.substr(0, brace);
  // namespace, class, struct, union, enum: not a forward declaration (class Foo;), a variable
  // (struct stat st = …) or a function returning one (struct foo *make(…)).
  for (std::string_view kw : {"namespace", "class", "struct", "union", "enum"}) {
    if (!StartsWithWord(s, kw)) continue;
    if (before_brace.find('(') != std::string_view::npos) break;
    if (before_brace.find('=') != std::string_view::npos) return j;
    std::string_view after = AfterWord(s, kw);
    if (kw == "enum") after = AfterWord(AfterWord(after, "class"), "struct");
    const std::string_view name = Identifier(after);
    if (name.empty()) {
      // Anonymous: not an entry, but what an anonymous namespace holds is judged.
      if (kw == "namespace") j.opens = Scope::kTop;
      return j;
    }
    if (brace == std::string_view::npos && code.back() == ';') return j;
    j.entry = true;
    j.name = std::string(name);
    j.opens = kw == "namespace" ? Scope::kTop : kw == "enum" ? Scope::kOther : Scope::kType;
    return j;
  }
  // A function: what it returns, then its name, then '('. A declaration (ending with ';')
  // counts when it has a return type: a macro's call at the top (FOO(x);) does not.
  s = StripWords(
      s, {"virtual", "explicit", "friend", "extern", "static", "inline", "constexpr", "consteval"});
  std::string_view head;
  if (!HeadOf(s, &head) || !FunctionHead(head, false)) return j;
  if (head.find(':') != std::string_view::npos && head.find("::") == std::string_view::npos) {
    return j;  // public: … on one line, a label
  }
  if (code.back() == ';' && WordCount(head) < 2) return j;
  j.entry = true;
  return j;
}

// ---- Java --------------------------------------------------------------------------------

Judged JudgeJava(std::string_view code, Scope scope, const std::string& type_name) {
  Judged j;
  std::string_view s = StripAnnotations(code);
  if (s.empty()) return j;
  for (std::string_view prev; prev != s;) {
    prev = s;
    s = StripWords(s, {"public", "protected", "private", "static", "final", "abstract", "sealed",
                       "strictfp", "synchronized", "native", "default", "transient"});
    if (s.substr(0, 11) == "non-sealed ") s = TrimLeft(s.substr(11));
  }
  std::string name;
  if (s.substr(0, 10) == "@interface" && KeywordDefinition(s.substr(1), "interface", &name)) {
    j.entry = true;
    j.opens = Scope::kOther;
    return j;
  }
  for (std::string_view kw : {"class", "interface", "enum", "record"}) {
    if (KeywordDefinition(s, kw, &name)) {
      j.entry = true;
      j.name = name;
      j.opens = Scope::kType;
      return j;
    }
  }
  if (scope != Scope::kType) return j;
  if (!s.empty() && s[0] == '<') {
    // A generic method's type parameters: <T> List<T> copy(…)
    int depth = 0;
    size_t i = 0;
    for (; i < s.size(); ++i) {
      if (s[i] == '<') ++depth;
      if (s[i] == '>' && --depth == 0) break;
    }
    if (i >= s.size()) return j;
    s = TrimLeft(s.substr(i + 1));
  }
  std::string_view head;
  if (!HeadOf(s, &head) || !FunctionHead(head, true)) return j;
  // A method has a type before its name; a constructor without modifiers is named as its class.
  const size_t words = WordCount(head);
  if (words < 2 && !(head == type_name && code.back() != ';')) return j;
  j.entry = true;
  return j;
}

// ---- JavaScript and TypeScript -----------------------------------------------------------

bool BindsFunction(std::string_view rhs) {
  rhs = TrimLeft(rhs);
  if (StartsWithWord(rhs, "function") || StartsWithWord(rhs, "class")) return true;
  if (StartsWithWord(rhs, "async")) return true;
  // An arrow function: (a, b) => …, x => …, <T>(a: T): U => …
  const size_t arrow = rhs.find("=>");
  if (arrow == std::string_view::npos) return false;
  const std::string_view params = rhs.substr(0, arrow);
  if (params.empty()) return false;
  return params[0] == '(' || params[0] == '<' ||
         (Identifier(params).size() == TrimRight(params).size());
}

Judged JudgeJs(std::string_view code, Scope scope) {
  Judged j;
  if (code.empty()) return j;
  std::string_view s = code;
  if (scope == Scope::kTop) {
    s = StripWords(s, {"export", "default", "declare", "abstract"});
    const std::string_view plain = StripWords(s, {"async"});
    std::string name;
    if (StartsWithWord(plain, "function")) {
      j.entry = true;
      return j;
    }
    if (KeywordDefinition(s, "class", &name) || StartsWithWord(s, "class")) {
      j.entry = true;
      j.name = name;
      j.opens = Scope::kType;
      return j;
    }
    if (KeywordDefinition(s, "interface", &name)) {
      j.entry = true;
      j.opens = Scope::kOther;
      return j;
    }
    if (KeywordDefinition(s, "type", &name)) {
      const std::string_view rest = TrimLeft(AfterWord(s, "type").substr(name.size()));
      j.entry = !rest.empty() && (rest[0] == '=' || rest[0] == '<');
      return j;
    }
    if (KeywordDefinition(AfterWord(s, "const"), "enum", &name)) {
      j.entry = true;
      j.opens = Scope::kOther;
      return j;
    }
    const std::string_view module_name = AfterWord(s, "module");
    if (KeywordDefinition(s, "namespace", &name) || KeywordDefinition(s, "module", &name) ||
        (StartsWithWord(s, "module") && !module_name.empty() &&
         (module_name[0] == '\'' || module_name[0] == '"')) ||
        (StartsWithWord(s, "global") && AfterWord(s, "global").substr(0, 1) == "{")) {
      j.entry = true;
      j.opens = Scope::kTop;
      return j;
    }
    for (std::string_view kw : {"const", "let", "var"}) {
      if (KeywordDefinition(s, kw, &name)) {
        const size_t eq = s.find('=');
        if (eq != std::string_view::npos && (eq + 1 >= s.size() || s[eq + 1] != '=') &&
            BindsFunction(s.substr(eq + 1))) {
          j.entry = true;
        }
        return j;
      }
    }
    // module.exports = function …, exports.name = (…) => …
    if (StartsWithWord(s, "module") || StartsWithWord(s, "exports")) {
      const size_t eq = s.find('=');
      j.entry = eq != std::string_view::npos &&
                s.substr(0, eq).find('(') == std::string_view::npos &&
                BindsFunction(s.substr(eq + 1));
      return j;
    }
    return j;
  }
  if (scope != Scope::kType) return j;
  // A class's members: methods, and fields bound to a function.
  s = StripWords(s, {"static", "async", "get", "set", "public", "private", "protected", "readonly",
                     "override", "abstract", "declare", "accessor"});
  if (!s.empty() && s[0] == '*') s = TrimLeft(s.substr(1));
  size_t i = 0;
  if (i < s.size() && s[i] == '#') ++i;
  const std::string_view name = Identifier(s.substr(i));
  if (name.empty() || IsStatementWord(name) || name == "function") return j;
  std::string_view rest = TrimLeft(s.substr(i + name.size()));
  if (!rest.empty() && (rest[0] == '?' || rest[0] == '!')) rest = TrimLeft(rest.substr(1));
  if (!rest.empty() && rest[0] == '<') {
    const size_t gt = rest.find('>');
    if (gt == std::string_view::npos) return j;
    rest = TrimLeft(rest.substr(gt + 1));
  }
  if (!rest.empty() && rest[0] == '(') {
    j.entry = true;
    return j;
  }
  // name = (…) => …, name: Type = function …
  const size_t eq = rest.find('=');
  if (eq != std::string_view::npos && (rest[0] == '=' || rest[0] == ':') &&
      (eq + 1 >= rest.size() || rest[eq + 1] != '=') && BindsFunction(rest.substr(eq + 1))) {
    j.entry = true;
  }
  return j;
}

// ---- Rust --------------------------------------------------------------------------------

Judged JudgeRust(std::string_view code, Scope scope) {
  Judged j;
  if (code.empty() || code[0] == '#') return j;  // attributes
  std::string_view s = code;
  if (StartsWithWord(s, "pub")) {
    s = TrimLeft(s.substr(3));
    if (!s.empty() && s[0] == '(') {
      const size_t close = s.find(')');
      if (close == std::string_view::npos) return j;
      s = TrimLeft(s.substr(close + 1));
    }
  }
  while (true) {
    const std::string_view before = s;
    s = StripWords(s, {"default", "async", "unsafe"});
    if (StartsWithWord(s, "const") && (StartsWithWord(AfterWord(s, "const"), "fn") ||
                                       StartsWithWord(AfterWord(s, "const"), "unsafe") ||
                                       StartsWithWord(AfterWord(s, "const"), "async"))) {
      s = AfterWord(s, "const");
    }
    if (StartsWithWord(s, "extern")) {
      std::string_view after = AfterWord(s, "extern");
      if (!after.empty() && after[0] == '"') {
        const size_t close = after.find('"', 1);
        if (close == std::string_view::npos) return j;
        after = TrimLeft(after.substr(close + 1));
      }
      if (after.empty() || after[0] == '{') {
        j.opens = Scope::kTop;  // extern "C" { … }: foreign functions
        return j;
      }
      if (StartsWithWord(after, "crate")) return j;
      s = after;
    }
    if (s == before) break;
  }
  std::string name;
  if (KeywordDefinition(s, "fn", &name)) {
    j.entry = true;
    return j;
  }
  if (StartsWithWord(s, "impl") || StartsWithWord(s, "trait") ||
      (StartsWithWord(s, "auto") && StartsWithWord(AfterWord(s, "auto"), "trait"))) {
    j.entry = true;
    j.opens = Scope::kType;
    return j;
  }
  if (scope == Scope::kType) {
    j.entry = KeywordDefinition(s, "type", &name) || KeywordDefinition(s, "const", &name);
    return j;
  }
  if (KeywordDefinition(s, "mod", &name)) {
    j.entry = true;
    j.opens = Scope::kTop;
    return j;
  }
  for (std::string_view kw : {"struct", "enum", "union", "type"}) {
    if (KeywordDefinition(s, kw, &name)) {
      j.entry = true;
      j.opens = Scope::kOther;
      return j;
    }
  }
  if (s.substr(0, 12) == "macro_rules!") {
    j.entry = true;
    j.opens = Scope::kOther;
  }
  return j;
}

// One pass over a brace language: `judge` looks at every line that starts in code outside any
// open parenthesis, in a scope that is judged.
template <typename Judge>
std::vector<OutlineEntry> BraceOutline(std::string_view text, const Syntax& syn,
                                       const StopToken& stop, Judge judge) {
  std::vector<OutlineEntry> out;
  Lines lines(text);
  std::string_view line;
  LexState lex;
  Scopes scopes;
  while (lines.Next(&line)) {
    if (lines.number() % kStopCheckLines == 0 && stop.stopped()) break;
    const Scope scope = scopes.current();
    const bool judged_here = scope == Scope::kTop || scope == Scope::kType;
    const Scanned s = ScanLine(line, syn, &lex);
    Judged j;
    if (s.starts_in_code && judged_here) {
      j = judge(s.code, scope, scopes.type_name());
      if (j.entry) out.push_back({lines.number(), 0, std::string(line)});
    }
    scopes.Apply(s.marks, j.opens, std::move(j.name));
  }
  return out;
}

// ---- Python, Go, shell, YAML: line rules -----------------------------------------------------

std::vector<OutlineEntry> PythonOutline(std::string_view text, const StopToken& stop) {
  std::vector<OutlineEntry> out;
  Lines lines(text);
  std::string_view line;
  char open = 0;  // the quote of an open triple-quoted string
  int brackets = 0;
  while (lines.Next(&line)) {
    if (lines.number() % kStopCheckLines == 0 && stop.stopped()) break;
    const bool in_code = open == 0 && brackets == 0;
    if (in_code) {
      const std::string_view s = StripWords(TrimLeft(line), {"async"});
      std::string name;
      if (KeywordDefinition(s, "def", &name) || KeywordDefinition(s, "class", &name)) {
        out.push_back({lines.number(), 0, std::string(line)});
      }
    }
    for (size_t i = 0; i < line.size();) {
      const char c = line[i];
      if (open) {
        if (c == '\\') {
          i += 2;
        } else if (c == open && line.substr(i, 3) == std::string(3, open)) {
          open = 0;
          i += 3;
        } else {
          ++i;
        }
        continue;
      }
      if (c == '#') break;
      if (c == '"' || c == '\'') {
        if (line.substr(i, 3) == std::string(3, c)) {
          open = c;
          i += 3;
          continue;
        }
        size_t k = i + 1;
        while (k < line.size() && line[k] != c) k += line[k] == '\\' ? 2 : 1;
        i = k + 1;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++brackets;
      if ((c == ')' || c == ']' || c == '}') && brackets > 0) --brackets;
      ++i;
    }
  }
  return out;
}

std::vector<OutlineEntry> GoOutline(std::string_view text, const StopToken& stop) {
  std::vector<OutlineEntry> out;
  Syntax syn;
  syn.backticks = true;
  Lines lines(text);
  std::string_view line;
  LexState lex;
  bool type_group = false;
  while (lines.Next(&line)) {
    if (lines.number() % kStopCheckLines == 0 && stop.stopped()) break;
    const bool in_code = lex.where == LexState::kCode;
    ScanLine(line, syn, &lex);
    if (!in_code) continue;
    if (type_group) {
      if (!line.empty() && line[0] == ')') {
        type_group = false;
      } else if (line.size() > 1 && line[0] == '\t' && IsIdentStart(line[1])) {
        out.push_back({lines.number(), 0, std::string(line)});
      }
      continue;
    }
    if (StartsWithWord(line, "func")) {
      out.push_back({lines.number(), 0, std::string(line)});
    } else if (StartsWithWord(line, "type")) {
      const std::string_view rest = AfterWord(line, "type");
      if (!rest.empty() && rest[0] == '(') {
        type_group = true;
      } else if (!Identifier(rest).empty()) {
        out.push_back({lines.number(), 0, std::string(line)});
      }
    }
  }
  return out;
}

bool ShellName(char c) { return IsIdent(c) || c == '.' || c == ':' || c == '-'; }

std::vector<OutlineEntry> ShellOutline(std::string_view text, const StopToken& stop) {
  std::vector<OutlineEntry> out;
  Lines lines(text);
  std::string_view line;
  std::string heredoc;  // the word that ends an open here-document
  bool strip_tabs = false;
  while (lines.Next(&line)) {
    if (lines.number() % kStopCheckLines == 0 && stop.stopped()) break;
    if (!heredoc.empty()) {
      std::string_view l = line;
      if (strip_tabs) {
        while (!l.empty() && l[0] == '\t') l.remove_prefix(1);
      }
      if (l == heredoc) heredoc.clear();
      continue;
    }
    const std::string_view s = TrimLeft(line);
    if (s.empty() || s[0] == '#') continue;
    bool entry = false;
    if (StartsWithWord(s, "function")) {
      const std::string_view rest = AfterWord(s, "function");
      entry = !rest.empty() && ShellName(rest[0]);
    } else {
      size_t i = 0;
      while (i < s.size() && ShellName(s[i])) ++i;
      std::string_view rest = TrimLeft(s.substr(i));
      if (i > 0 && rest.substr(0, 1) == "(") {
        rest = TrimLeft(rest.substr(1));
        entry = rest.substr(0, 1) == ")";
      }
    }
    if (entry) out.push_back({lines.number(), 0, std::string(line)});
    // A here-document starts: <<WORD, <<-WORD, <<'WORD', <<"WORD" (not <<<, a here-string).
    for (size_t at = s.find("<<"); at != std::string_view::npos; at = s.find("<<", at + 2)) {
      if (at + 2 < s.size() && s[at + 2] == '<') {
        at += 1;
        continue;
      }
      // Not inside quotes, nor an arithmetic shift ($(( a << b ))).
      const std::string_view before = s.substr(0, at);
      if (std::count(before.begin(), before.end(), '"') % 2 ||
          std::count(before.begin(), before.end(), '\'') % 2 ||
          before.find("((") != std::string_view::npos) {
        continue;
      }
      size_t k = at + 2;
      strip_tabs = k < s.size() && s[k] == '-';
      if (strip_tabs) ++k;
      while (k < s.size() && IsSpace(s[k])) ++k;
      char quote = 0;
      if (k < s.size() && (s[k] == '\'' || s[k] == '"')) quote = s[k++];
      size_t e = k;
      while (e < s.size() && (IsIdent(s[e]) || s[e] == '-')) ++e;
      if (e > k && IsIdentStart(s[k]) && (!quote || (e < s.size() && s[e] == quote))) {
        heredoc = std::string(s.substr(k, e - k));
        break;
      }
    }
  }
  return out;
}

std::vector<OutlineEntry> YamlOutline(std::string_view text, const StopToken& stop) {
  std::vector<OutlineEntry> out;
  Lines lines(text);
  std::string_view line;
  while (lines.Next(&line)) {
    if (lines.number() % kStopCheckLines == 0 && stop.stopped()) break;
    if (line.empty() || std::strchr(" \t#-[{%&*!|>?@`,]}", line[0]) != nullptr) continue;
    if (line.substr(0, 3) == "..." || line.substr(0, 3) == "---") continue;
    size_t colon;
    if (line[0] == '"' || line[0] == '\'') {
      const size_t close = line.find(line[0], 1);
      if (close == std::string_view::npos) continue;
      colon = close + 1;
      while (colon < line.size() && IsSpace(line[colon])) ++colon;
      if (colon >= line.size() || line[colon] != ':') continue;
    } else {
      colon = 0;
      while (true) {
        colon = line.find(':', colon);
        if (colon == std::string_view::npos) break;
        if (colon + 1 == line.size() || IsSpace(line[colon + 1])) break;
        ++colon;
      }
      if (colon == std::string_view::npos) continue;
      const size_t hash = line.find(" #");
      if (hash != std::string_view::npos && hash < colon) continue;
    }
    out.push_back({lines.number(), 0, std::string(line)});
  }
  return out;
}

// A script's interpreter, from its #! line: "sh", "bash", "python3"… (through /usr/bin/env).
std::string_view Interpreter(std::string_view first_line) {
  if (first_line.substr(0, 2) != "#!") return {};
  std::string_view s = Trim(first_line.substr(2));
  auto next_word = [&s] {
    s = TrimLeft(s);
    size_t e = 0;
    while (e < s.size() && !IsSpace(s[e])) ++e;
    const std::string_view w = s.substr(0, e);
    s = s.substr(e);
    return w;
  };
  std::string_view program = next_word();
  if (program.rfind('/') != std::string_view::npos) program.remove_prefix(program.rfind('/') + 1);
  if (program == "env") {
    do {
      program = next_word();
    } while (!program.empty() && program[0] == '-');
  }
  return program;
}

}  // namespace

bool IsMarkdownPath(std::string_view path) {
  for (std::string_view ext : {".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdx"}) {
    if (EndsWithNoCase(path, ext)) return true;
  }
  return false;
}

OutlineKind OutlineKindOf(std::string_view path, std::string_view first_line) {
  if (IsMarkdownPath(path)) return OutlineKind::kMarkdown;
  struct Ext {
    const char* ext;
    OutlineKind kind;
  };
  static const Ext kExts[] = {
      {".c", OutlineKind::kC},
      {".h", OutlineKind::kC},
      {".cc", OutlineKind::kC},
      {".cpp", OutlineKind::kC},
      {".cxx", OutlineKind::kC},
      {".c++", OutlineKind::kC},
      {".hh", OutlineKind::kC},
      {".hpp", OutlineKind::kC},
      {".hxx", OutlineKind::kC},
      {".h++", OutlineKind::kC},
      {".ipp", OutlineKind::kC},
      {".inl", OutlineKind::kC},
      {".cu", OutlineKind::kC},
      {".py", OutlineKind::kPython},
      {".pyi", OutlineKind::kPython},
      {".pyw", OutlineKind::kPython},
      {".js", OutlineKind::kJavaScript},
      {".mjs", OutlineKind::kJavaScript},
      {".cjs", OutlineKind::kJavaScript},
      {".jsx", OutlineKind::kJavaScript},
      {".ts", OutlineKind::kJavaScript},
      {".tsx", OutlineKind::kJavaScript},
      {".mts", OutlineKind::kJavaScript},
      {".cts", OutlineKind::kJavaScript},
      {".go", OutlineKind::kGo},
      {".rs", OutlineKind::kRust},
      {".java", OutlineKind::kJava},
      {".sh", OutlineKind::kShell},
      {".bash", OutlineKind::kShell},
      {".zsh", OutlineKind::kShell},
      {".ksh", OutlineKind::kShell},
      {".yml", OutlineKind::kYaml},
      {".yaml", OutlineKind::kYaml},
  };
  for (const auto& e : kExts) {
    if (EndsWithNoCase(path, e.ext)) return e.kind;
  }
  const std::string_view program = Interpreter(first_line);
  if (IsOneOf(program, {"sh", "bash", "zsh", "ksh", "dash", "ash"})) return OutlineKind::kShell;
  if (program.substr(0, 6) == "python") return OutlineKind::kPython;
  if (program == "node" || program == "deno" || program == "bun") return OutlineKind::kJavaScript;
  return OutlineKind::kNone;
}

const char* OutlineKindName(OutlineKind kind) {
  switch (kind) {
    case OutlineKind::kNone:
      return "";
    case OutlineKind::kMarkdown:
      return "Markdown";
    case OutlineKind::kC:
      return "C/C++";
    case OutlineKind::kPython:
      return "Python";
    case OutlineKind::kJavaScript:
      return "JavaScript/TypeScript";
    case OutlineKind::kGo:
      return "Go";
    case OutlineKind::kRust:
      return "Rust";
    case OutlineKind::kJava:
      return "Java";
    case OutlineKind::kShell:
      return "shell";
    case OutlineKind::kYaml:
      return "YAML";
  }
  return "";
}

std::vector<OutlineEntry> Outline(std::string_view text, OutlineKind kind, const StopToken& stop) {
  switch (kind) {
    case OutlineKind::kNone:
      return {};
    case OutlineKind::kMarkdown:
      return MarkdownOutline(text, stop);
    case OutlineKind::kC: {
      Syntax syn;
      syn.cpp_raw = true;
      syn.preprocessor = true;
      return BraceOutline(text, syn, stop, [](std::string_view code, Scope, const std::string&) {
        return JudgeC(code);
      });
    }
    case OutlineKind::kJava: {
      Syntax syn;
      return BraceOutline(text, syn, stop, JudgeJava);
    }
    case OutlineKind::kJavaScript: {
      Syntax syn;
      syn.backticks = true;
      syn.backtick_escapes = true;
      return BraceOutline(text, syn, stop,
                          [](std::string_view code, Scope scope, const std::string&) {
                            return JudgeJs(code, scope);
                          });
    }
    case OutlineKind::kRust: {
      Syntax syn;
      syn.single_quotes = false;
      syn.rust_chars = true;
      syn.multiline_double = true;
      syn.rust_raw = true;
      return BraceOutline(text, syn, stop,
                          [](std::string_view code, Scope scope, const std::string&) {
                            return JudgeRust(code, scope);
                          });
    }
    case OutlineKind::kGo:
      return GoOutline(text, stop);
    case OutlineKind::kPython:
      return PythonOutline(text, stop);
    case OutlineKind::kShell:
      return ShellOutline(text, stop);
    case OutlineKind::kYaml:
      return YamlOutline(text, stop);
  }
  return {};
}

}  // namespace rr
