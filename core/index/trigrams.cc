#include "core/index/trigrams.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace rr {
namespace {

// The trigrams a run of plain bytes requires, added to `out`.
void AddRun(std::string_view run, bool ignore_case, std::vector<uint32_t>* out) {
  for (size_t i = 0; i + 3 <= run.size(); ++i) {
    bool usable = true;
    for (size_t k = i; k < i + 3; ++k) {
      const auto c = static_cast<unsigned char>(run[k]);
      if (c == '\n') usable = false;
      if (ignore_case) {
        const unsigned char f = FoldTrigramByte(c);
        if (c >= 0x80 || f == 'k' || f == 's') usable = false;
      }
    }
    if (usable) {
      out->push_back(TrigramOf(static_cast<unsigned char>(run[i]),
                               static_cast<unsigned char>(run[i + 1]),
                               static_cast<unsigned char>(run[i + 2])));
    }
  }
}

void SortUnique(std::vector<uint32_t>* v) {
  std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

// Past a bracket expression that opens at `i` ('['): the index after its closing ']', or npos
// when it does not close.
size_t PastBracket(std::string_view p, size_t i) {
  size_t j = i + 1;
  if (j < p.size() && p[j] == '^') ++j;
  if (j < p.size() && p[j] == ']') ++j;  // a ']' first is a character
  while (j < p.size()) {
    if (p[j] == '[' && j + 1 < p.size() &&
        (p[j + 1] == ':' || p[j + 1] == '=' || p[j + 1] == '.')) {
      const char kind = p[j + 1];
      const size_t close = p.find(std::string{kind, ']'}, j + 2);
      if (close == std::string_view::npos) return std::string_view::npos;
      j = close + 2;
      continue;
    }
    if (p[j] == ']') return j + 1;
    ++j;
  }
  return std::string_view::npos;
}

// Past the pattern's element at `j`: an escape pair, a bracket expression (npos when it does not
// close), or one byte.
size_t PastElement(std::string_view p, size_t j) {
  if (p[j] == '\\') return j + 2;
  if (p[j] == '[') return PastBracket(p, j);
  return j + 1;
}

// An interval's bounds at `i` ('{'): true with *min and *past (the index after '}') when the
// text there is {m}, {m,}, {,n} or {m,n}.
bool Interval(std::string_view p, size_t i, size_t* min, size_t* past) {
  size_t j = i + 1, m = 0;
  bool digits = false;
  while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j]))) {
    m = std::min<size_t>(m * 10 + static_cast<size_t>(p[j] - '0'), 1000000);
    digits = true;
    ++j;
  }
  bool comma = false;
  if (j < p.size() && p[j] == ',') {
    comma = true;
    ++j;
    while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j]))) {
      digits = true;
      ++j;
    }
  }
  if (j >= p.size() || p[j] != '}' || (!digits && !comma) || !digits) return false;
  *min = m;
  *past = j + 1;
  return true;
}

// The trigrams one top-level branch of an ERE requires; false when it cannot tell (the caller
// then requires nothing).
bool Branch(std::string_view p, bool ignore_case, std::vector<uint32_t>* out) {
  std::string run;  // plain characters so far, each one byte (ASCII only)
  auto end_run = [&] {
    AddRun(run, ignore_case, out);
    run.clear();
  };
  bool last_in_run = false;  // the atom just read is run.back()
  size_t i = 0;
  while (i < p.size()) {
    const auto c = static_cast<unsigned char>(p[i]);
    switch (c) {
      case '*':
      case '?':
        if (last_in_run) run.pop_back();
        end_run();
        last_in_run = false;
        ++i;
        continue;
      case '+':
        end_run();
        last_in_run = false;
        ++i;
        continue;
      case '{': {
        size_t min = 0, past = 0;
        if (Interval(p, i, &min, &past)) {
          if (last_in_run && min == 0) run.pop_back();
          end_run();
          last_in_run = false;
          i = past;
          continue;
        }
        // A '{' that starts no interval is a character; requiring nothing of it, nor of the
        // character before it, is safe whichever way the matcher reads it.
        if (last_in_run) run.pop_back();
        end_run();
        last_in_run = false;
        ++i;
        continue;
      }
      case '[': {
        const size_t past = PastBracket(p, i);
        if (past == std::string_view::npos) return false;
        end_run();
        last_in_run = false;
        i = past;
        continue;
      }
      case '(': {
        // A group requires nothing here: skip to its ')' (brackets and escapes inside).
        size_t depth = 0, j = i;
        while (j < p.size()) {
          if (p[j] == '(') ++depth;
          if (p[j] == ')' && --depth == 0) break;
          j = PastElement(p, j);
          if (j == std::string_view::npos) return false;
        }
        if (j >= p.size()) return false;
        end_run();
        last_in_run = false;
        i = j + 1;
        continue;
      }
      case '\\': {
        if (i + 1 >= p.size()) return false;
        const auto e = static_cast<unsigned char>(p[i + 1]);
        // An escaped punctuation character is itself, except GNU's word anchors.
        if (e < 0x80 && std::ispunct(e) && e != '<' && e != '>' && e != '`' && e != '\'') {
          run.push_back(static_cast<char>(e));
          last_in_run = true;
        } else {
          end_run();
          last_in_run = false;
        }
        i += 2;
        continue;
      }
      default:
        break;
    }
    if (c == '.' || c == '^' || c == '$' || c == ')' || c == ']' || c == '}' || c >= 0x80 ||
        c < 0x20) {
      end_run();
      last_in_run = false;
      ++i;
      continue;
    }
    run.push_back(static_cast<char>(c));
    last_in_run = true;
    ++i;
  }
  end_run();
  return true;
}

// The pattern's top-level branches (split at '|' outside groups and brackets); false when the
// pattern cannot be read so.
bool Branches(std::string_view p, std::vector<std::string_view>* out) {
  size_t depth = 0, start = 0, j = 0;
  while (j < p.size()) {
    if (p[j] == '(') ++depth;
    if (p[j] == ')' && depth > 0) --depth;
    if (p[j] == '|' && depth == 0) {
      out->push_back(p.substr(start, j - start));
      start = j + 1;
    }
    j = PastElement(p, j);
    if (j == std::string_view::npos) return false;
  }
  out->push_back(p.substr(start));
  return true;
}

}  // namespace

namespace {
TrigramQuery Plan(std::string_view pattern, bool regex, bool ignore_case) {
  TrigramQuery q;
  if (!regex) {
    std::vector<uint32_t> t;
    AddRun(pattern, ignore_case, &t);
    SortUnique(&t);
    if (!t.empty()) {
      q.all = false;
      q.branches.push_back(std::move(t));
    }
    return q;
  }
  std::vector<std::string_view> branches;
  if (!Branches(pattern, &branches)) return q;
  for (std::string_view b : branches) {
    std::vector<uint32_t> t;
    if (!Branch(b, ignore_case, &t)) return TrigramQuery{};
    SortUnique(&t);
    if (t.empty()) return TrigramQuery{};
    q.branches.push_back(std::move(t));
  }
  q.all = q.branches.empty();
  return q;
}
}  // namespace

TrigramQuery PlanTrigrams(std::string_view pattern, bool regex, bool ignore_case) {
  TrigramQuery q = Plan(pattern, regex, ignore_case);
  q.key = TrigramQueryKey(q);
  return q;
}

std::string TrigramQueryKey(const TrigramQuery& query) {
  if (!query.key.empty()) return query.key;
  std::string key(1, query.all ? 'a' : 'q');
  for (const auto& branch : query.branches) {
    key.push_back('|');
    for (uint32_t t : branch) key.append(reinterpret_cast<const char*>(&t), 3);
  }
  return key;
}

}  // namespace rr
