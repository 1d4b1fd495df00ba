#include "core/util/when.h"

#include <cctype>
#include <string>

namespace rr {
namespace {

// Days from 1970-01-01 to a civil date (proleptic Gregorian).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

bool Digits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = 0; i < n; i++) {
    const char c = s[pos + i];
    if (!isdigit(static_cast<unsigned char>(c))) return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

int DaysInMonth(int y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

std::string Forms() {
  return "write 2026-01-31, 2026-01-31 14:00, 2026-01-31T14:00:00Z, 2 weeks ago, yesterday or "
         "@<seconds since 1970>";
}

std::string Help(std::string_view argument) {
  return "argument `" + std::string(argument) + "`: not a date this server reads; " + Forms();
}

// An absolute date and time; false when `s` (lower case) is not one.
bool Absolute(std::string_view s, DateBound bound, int64_t* out, bool* bad_value) {
  int y, mo, d;
  if (!Digits(s, 0, 4, &y) || s.size() < 10 || s[4] != '-' || !Digits(s, 5, 2, &mo) ||
      s[7] != '-' || !Digits(s, 8, 2, &d)) {
    return false;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > DaysInMonth(y, mo)) {
    *bad_value = true;
    return false;
  }
  const int64_t day = DaysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  if (s.size() == 10) {
    *out = day * 86400 + (bound == DateBound::kUntil ? 86399 : 0);
    return true;
  }
  if (s[10] != ' ' && s[10] != 't') return false;
  int h, mi, sec = 0;
  if (!Digits(s, 11, 2, &h) || s.size() < 16 || s[13] != ':' || !Digits(s, 14, 2, &mi)) {
    return false;
  }
  size_t pos = 16;
  bool has_seconds = false;
  if (pos < s.size() && s[pos] == ':') {
    if (!Digits(s, pos + 1, 2, &sec)) return false;
    pos += 3;
    has_seconds = true;
  }
  if (h > 23 || mi > 59 || sec > 60) {
    *bad_value = true;
    return false;
  }
  int64_t offset = 0;
  if (pos < s.size()) {
    if (s[pos] == 'z' && pos + 1 == s.size()) {
      pos++;
    } else if ((s[pos] == '+' || s[pos] == '-') && s.size() == pos + 6 && s[pos + 3] == ':') {
      int oh, om;
      if (!Digits(s, pos + 1, 2, &oh) || !Digits(s, pos + 4, 2, &om) || oh > 23 || om > 59) {
        return false;
      }
      offset = (oh * 60 + om) * 60 * (s[pos] == '-' ? -1 : 1);
      pos = s.size();
    } else {
      return false;
    }
  }
  *out = day * 86400 + h * 3600 + mi * 60 + sec - offset;
  if (!has_seconds && bound == DateBound::kUntil) *out += 59;
  return true;
}

}  // namespace

Result<int64_t> ParseWhen(std::string_view text, DateBound bound, int64_t now,
                          std::string_view argument) {
  std::string s;
  for (char c : text) s += static_cast<char>(tolower(static_cast<unsigned char>(c)));
  while (!s.empty() && s.back() == ' ') s.pop_back();
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  if (s.empty() || s.size() > 64) return Error{Help(argument)};
  if (s == "now") return now;
  if (s == "today") return now - ((now % 86400) + 86400) % 86400;
  if (s == "yesterday") return now - 86400;
  if (s[0] == '@') {
    if (s.size() < 2 || s.size() > 13) return Error{Help(argument)};
    int64_t v = 0;
    for (size_t i = 1; i < s.size(); i++) {
      if (!isdigit(static_cast<unsigned char>(s[i]))) return Error{Help(argument)};
      v = v * 10 + (s[i] - '0');
    }
    return v;
  }
  int64_t value = 0;
  bool bad_value = false;
  if (Absolute(s, bound, &value, &bad_value)) return value;
  if (bad_value) {
    return Error{"argument `" + std::string(argument) + "`: `" + std::string(text) +
                 "` is not a real date or time; " + Forms()};
  }
  // "<n> <unit>[s] ago", spaces or dots between.
  for (char& c : s) {
    if (c == '.') c = ' ';
  }
  size_t i = 0;
  int64_t n = 0;
  size_t digits = 0;
  while (i < s.size() && isdigit(static_cast<unsigned char>(s[i]))) {
    n = n * 10 + (s[i++] - '0');
    if (++digits > 6) return Error{Help(argument)};
  }
  if (digits == 0) return Error{Help(argument)};
  while (i < s.size() && s[i] == ' ') i++;
  size_t unit_end = s.find(' ', i);
  if (unit_end == std::string::npos) return Error{Help(argument)};
  std::string unit = s.substr(i, unit_end - i);
  std::string rest = s.substr(unit_end);
  while (!rest.empty() && rest.front() == ' ') rest.erase(rest.begin());
  if (rest != "ago") return Error{Help(argument)};
  if (unit.size() > 1 && unit.back() == 's') unit.pop_back();
  static const struct {
    const char* name;
    int64_t seconds;
  } kUnits[] = {{"second", 1},       {"minute", 60},        {"hour", 3600},       {"day", 86400},
                {"week", 7 * 86400}, {"month", 30 * 86400}, {"year", 365 * 86400}};
  for (const auto& u : kUnits) {
    if (unit == u.name) return now - n * u.seconds;
  }
  return Error{Help(argument)};
}

}  // namespace rr
