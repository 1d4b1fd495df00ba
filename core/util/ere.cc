#include "core/util/ere.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cctype>

namespace rr {
namespace {

std::string Prefix(std::string_view argument) {
  return "argument `" + std::string(argument) + "`: ";
}

bool IsQuantifierStart(std::string_view p, size_t i) {
  const char c = p[i];
  if (c == '*' || c == '+' || c == '?') return true;
  if (c != '{') return false;
  // An interval only when it reads as one: {n}, {n,}, {n,m}, {,m}.
  size_t j = i + 1;
  bool digits = false;
  while (j < p.size() && isdigit(static_cast<unsigned char>(p[j]))) j++, digits = true;
  if (j < p.size() && p[j] == ',') {
    j++;
    while (j < p.size() && isdigit(static_cast<unsigned char>(p[j]))) j++, digits = true;
  }
  return digits && j < p.size() && p[j] == '}';
}

}  // namespace

Result<std::string> TranslateEre(std::string_view p, std::string_view argument, bool ignore_case) {
  std::string out;
  out.reserve(p.size() + 8);
  // Whether the previous item can take a quantifier (a literal, a class, a group's end), and
  // whether it was itself a quantifier.
  bool atom = false, quantified = false;
  size_t depth = 0;  // groups open
  size_t i = 0;
  while (i < p.size()) {
    const char c = p[i];
    if (c == '\\') {
      if (i + 1 >= p.size()) {
        return Error{Prefix(argument) +
                     "the pattern ends with a lone \\; write \\\\ for a backslash"};
      }
      const char n = p[i + 1];
      i += 2;
      if (isdigit(static_cast<unsigned char>(n))) {
        return Error{Prefix(argument) + "back-references (\\" + std::string(1, n) +
                     ") are not supported; match the text itself"};
      }
      if (n == '<') {
        out += "\\b(?=\\w)";
        atom = false, quantified = false;
        continue;
      }
      if (n == '>') {
        out += "\\b(?<=\\w)";
        atom = false, quantified = false;
        continue;
      }
      if (n == 'b' || n == 'B') {
        out += '\\', out += n;
        atom = false, quantified = false;
        continue;
      }
      if (n == 'w' || n == 'W' || n == 's' || n == 'S') {
        out += '\\', out += n;
        atom = true, quantified = false;
        continue;
      }
      if (isalnum(static_cast<unsigned char>(n))) {
        return Error{Prefix(argument) + "\\" + std::string(1, n) +
                     " is not part of extended regular expressions (for a digit write "
                     "[0-9]; for a character, write it as it is)"};
      }
      if (static_cast<unsigned char>(n) >= 0x80) {
        // A backslash before a multi-byte character: the character itself.
        out += n;
      } else {
        out += '\\', out += n;
      }
      atom = true, quantified = false;
      continue;
    }
    if (c == '[') {
      // A bracket expression: ']' first is literal; [:class:] kept; a backslash is literal.
      size_t j = i + 1;
      std::string cls = "[";
      if (j < p.size() && p[j] == '^') cls += '^', j++;
      bool first = true;
      bool closed = false;
      while (j < p.size()) {
        const char b = p[j];
        if (b == ']' && !first) {
          cls += ']';
          closed = true;
          j++;
          break;
        }
        first = false;
        if (b == '[' && j + 1 < p.size() &&
            (p[j + 1] == ':' || p[j + 1] == '=' || p[j + 1] == '.')) {
          const char kind = p[j + 1];
          const size_t end = p.find(std::string{kind, ']'}, j + 2);
          if (end == std::string_view::npos) {
            return Error{Prefix(argument) + "a [" + std::string(1, kind) +
                         " in brackets is not closed with " + std::string(1, kind) + "]"};
          }
          if (kind != ':') {
            return Error{Prefix(argument) + "[" + std::string(1, kind) + "…" +
                         std::string(1, kind) + "] in brackets is not supported"};
          }
          const std::string_view name = p.substr(j + 2, end - j - 2);
          if (ignore_case && (name == "upper" || name == "lower")) {
            cls += "[:alpha:]";  // as GNU regex reads them when case is ignored
          } else {
            cls.append(p.substr(j, end + 2 - j));
          }
          j = end + 2;
          continue;
        }
        if (b == '\\') {
          cls += "\\\\";
        } else if (b == '[') {
          cls += "\\[";
        } else {
          cls += b;
        }
        j++;
      }
      if (!closed) {
        return Error{Prefix(argument) + "a [ is not closed with ]; write \\[ for a bracket"};
      }
      out += cls;
      i = j;
      atom = true, quantified = false;
      continue;
    }
    if (c == '(') {
      if (i + 1 < p.size() && p[i + 1] == '?') {
        return Error{Prefix(argument) +
                     "(? groups (lookaround, options, named groups) are not part of extended "
                     "regular expressions"};
      }
      out += '(';
      i++;
      depth++;
      atom = false, quantified = false;
      continue;
    }
    if (c == ')' && depth == 0) {
      // A ) that closes no group is the character, as in GNU regex.
      out += "\\)";
      i++;
      atom = true, quantified = false;
      continue;
    }
    if (c == ')') depth--;
    if (c == ')' || c == '|' || c == '^' || c == '$' || c == '.') {
      out += c;
      i++;
      atom = (c == ')' || c == '.');
      quantified = false;
      continue;
    }
    if (IsQuantifierStart(p, i)) {
      size_t len = 1;
      if (c == '{') len = p.find('}', i) - i + 1;
      if (quantified) {
        return Error{Prefix(argument) + "a quantifier follows another (`" +
                     std::string(p.substr(i - 1, 2)) + "`); write one, e.g. a+ for a++"};
      }
      if (!atom) {
        // Nothing to repeat (the start, after ( | ^ $ or a word boundary): git log -E refuses
        // it and grep -E drops it; neither reads it as the character.
        return Error{Prefix(argument) + "`" + std::string(1, c) +
                     "` has nothing before it to repeat; write \\" + std::string(1, c) +
                     " for the character"};
      }
      if (c == '{' && p[i + 1] == ',') {
        out += "{0";
        out.append(p.substr(i + 1, len - 1));
      } else {
        out.append(p.substr(i, len));
      }
      i += len;
      quantified = true;
      continue;
    }
    if (c == '{' || c == '}' || c == ']') {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
    i++;
    atom = true, quantified = false;
  }
  return out;
}

struct Ere::Code {
  pcre2_code* code = nullptr;
  ~Code() { pcre2_code_free(code); }
};

Result<Ere> Ere::Compile(std::string_view pattern, Options options, std::string_view argument) {
  for (char c : pattern) {
    if (c == '\n' || c == '\r' || c == '\0') {
      return Error{Prefix(argument) + "the pattern must be one line"};
    }
  }
  auto translated = TranslateEre(pattern, argument, options.ignore_case);
  if (!translated) return Error{translated.error()};
  uint32_t flags = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_UCP;
  if (options.ignore_case) flags |= PCRE2_CASELESS;
  int code_error = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(translated->data()),
                                   translated->size(), flags, &code_error, &offset, nullptr);
  if (!code) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(code_error, message, sizeof(message));
    return Error{Prefix(argument) + "not a valid extended regular expression (" +
                 reinterpret_cast<const char*>(message) + ")"};
  }
  pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);  // without JIT it still matches, more slowly
  Ere ere;
  auto owned = std::make_shared<Code>();
  owned->code = code;
  ere.code_ = std::move(owned);
  if (options.multiline) {
    pcre2_code* across =
        pcre2_compile(reinterpret_cast<PCRE2_SPTR>(translated->data()), translated->size(),
                      flags | PCRE2_MULTILINE, &code_error, &offset, nullptr);
    if (across) {
      pcre2_jit_compile(across, PCRE2_JIT_COMPLETE);
      auto a = std::make_shared<Code>();
      a->code = across;
      ere.across_ = std::move(a);
    }
  }
  ere.translated_ = translated.take();
  ere.multiline_ = options.multiline;
  return ere;
}

namespace {

// Whether a match call gave up rather than answered: any error but "no match" (the match, depth
// and heap limits, the JIT stack; with PCRE2_MATCH_INVALID_UTF no other error can come from a
// subject).
bool GaveUpOn(int rc) { return rc < 0 && rc != PCRE2_ERROR_NOMATCH; }

// The match context of this thread: a JIT stack that starts at 32 KB and may grow to 8 MB (the
// memory is taken as it is used). Nested repeats such as (a|b)* keep a frame on it for each
// character they take: PCRE2's default of 32 KB gives up on a line of a few thousand.
constexpr size_t kJitStackStart = 32 * 1024;
constexpr size_t kJitStackMax = 8 * 1024 * 1024;

pcre2_match_context* ThreadMatchContext() {
  struct Held {
    pcre2_match_context* context = nullptr;
    pcre2_jit_stack* stack = nullptr;
    Held() {
      context = pcre2_match_context_create(nullptr);
      stack = pcre2_jit_stack_create(kJitStackStart, kJitStackMax, nullptr);
      if (context && stack) pcre2_jit_stack_assign(context, nullptr, stack);
#if defined(RR_FUZZING)
      // The fuzz build only (fuzz/CMakeLists.txt): a hundredth of PCRE2's default match limit,
      // so that a pattern that backtracks without end gives up in milliseconds under the
      // sanitizers instead of a second a line; the give-up path is the same one.
      if (context) pcre2_set_match_limit(context, 100000);
#endif
    }
    ~Held() {
      pcre2_match_context_free(context);
      pcre2_jit_stack_free(stack);
    }
  };
  thread_local Held held;
  return held.context;  // null (PCRE2's defaults) only if memory ran out
}

}  // namespace

bool Ere::Find(std::string_view subject, size_t from, size_t* begin, size_t* end,
               GaveUp* gave_up) const {
  pcre2_match_data* data = pcre2_match_data_create_from_pattern(code_->code, nullptr);
  pcre2_match_context* context = ThreadMatchContext();
  // One line at a time when multiline, as grep and git log --grep match: nothing (not [^x], \s
  // or \W) matches across a line break. A final line break ends the last line.
  bool found = false;
  size_t line = 0;
  while (true) {
    size_t line_end = subject.size();
    if (multiline_) {
      const size_t nl = subject.find('\n', line);
      if (nl != std::string_view::npos) line_end = nl;
    }
    if (line_end >= from) {
      const size_t start = from > line ? from - line : 0;
      const int rc = pcre2_match(code_->code, reinterpret_cast<PCRE2_SPTR>(subject.data() + line),
                                 line_end - line, start, 0, data, context);
      if (rc >= 0) {
        found = true;
        if (begin && end) {
          const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(data);
          *begin = line + ov[0];
          *end = line + ov[1];
        }
        break;
      }
      if (gave_up && GaveUpOn(rc)) {
        *gave_up = GaveUp{true, line, line_end};
        break;
      }
    }
    if (line_end >= subject.size() || line_end + 1 == subject.size()) break;
    line = line_end + 1;
  }
  pcre2_match_data_free(data);
  return found;
}

bool Ere::FindAcross(std::string_view subject, size_t from, size_t* begin, size_t* end,
                     GaveUp* gave_up) const {
  if (!across_) return Find(subject, from, begin, end, gave_up);
  if (from > subject.size()) return false;
  pcre2_match_data* data = pcre2_match_data_create_from_pattern(across_->code, nullptr);
  const int rc = pcre2_match(across_->code, reinterpret_cast<PCRE2_SPTR>(subject.data()),
                             subject.size(), from, 0, data, ThreadMatchContext());
  if (rc >= 0 && begin && end) {
    const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(data);
    *begin = ov[0];
    *end = ov[1];
  }
  pcre2_match_data_free(data);
  // Given up on the whole text: line by line, which finds what can be found and names the
  // first line that cannot be decided.
  if (GaveUpOn(rc)) return Find(subject, from, begin, end, gave_up);
  return rc >= 0;
}

bool Ere::Matches(std::string_view subject, bool* too_costly) const {
  size_t from = 0;
  bool costly = false;
  while (from <= subject.size()) {
    GaveUp gave_up;
    size_t b = 0, e = 0;
    if (Find(subject, from, &b, &e, &gave_up)) return true;
    if (!gave_up.any) break;
    costly = true;  // unknown on that line; a later line may still match
    from = gave_up.end + 1;
  }
  if (too_costly) *too_costly = costly;
  return false;
}

}  // namespace rr
