// url-password: the password in scheme://user:password@host.
//
// At each "://" (or JSON's escaped ":\/\/") after a scheme, the authority is read up to the
// first '/', '?', '#', blank, quote or bracket (unless an '@' follows soon after and what came
// after the ':' is not a port: a password written with a '/' in it); the user information is
// what comes before its last '@', and the password what follows the first ':' in it. The user may
// be empty (redis://:password@host). Only the password is reported. A reference or placeholder
// (${DB_PASSWORD}, <password>, ***) is kept, and so is a URL without a password.
#include <memory>

#include "detectors.h"

namespace rr_secrets {

namespace {

// Capital letters in words joined by '_' (PERSONAL_ACCESS_TOKEN): a name standing for a value.
bool IsCapitalsName(std::string_view v) {
  bool joined = false;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '_' && i > 0 && i + 1 < v.size() && v[i - 1] != '_') {
      joined = true;
    } else if (!(v[i] >= 'A' && v[i] <= 'Z')) {
      return false;
    }
  }
  return joined;
}

bool EndsAuthority(char c) {
  switch (c) {
    case '/':
    case '?':
    case '#':
    case ' ':
    case '\t':
    case '\r':
    case '\n':
    case '"':
    case '\'':
    case '`':
    case '<':
    case '>':
    case '\\':
    case '(':
    case ')':
    case '[':
    case ']':
    case '{':
    case '}':
    case ',':
      return true;
    default:
      return false;
  }
}

class UrlPasswords final : public Detector {
 public:
  UrlPasswords() : Detector("url-password", {"://", ":\\/\\/"}) {}

 protected:
  void Find(const ScanInput& in, SpanSink& sink) const override {
    const std::string_view t = in.text;
    for (size_t h = 0; h < in.hit_count; ++h) {
      const size_t at = in.hits[h].offset;
      if (at == 0 || at >= t.size() || !IsAlnum(t[at - 1])) continue;
      const size_t from = at + (t[at + 1] == '\\' ? 5 : 3);
      size_t end = from;
      size_t last_at = std::string_view::npos;
      while (end < t.size() && end - from < 512) {
        const char c = t[end];
        if (c == '@') {
          last_at = end;
        } else if (EndsAuthority(c)) {
          // A password may hold these too; they end it only when no '@' follows before the
          // authority plainly ends (a blank, a quote, the line's end).
          if (c == '/' || c == '?' || c == '#' || c == '\\' || c == '(' || c == ')' || c == '[' ||
              c == ']' || c == '{' || c == '}' || c == ',') {
            size_t look = end + 1;
            while (look < t.size() && look - end < 128 && t[look] != '@' && !IsBlank(t[look]) &&
                   t[look] != '\n' && t[look] != '"' && t[look] != '\'' && t[look] != '/') {
              ++look;
            }
            if (look < t.size() && t[look] == '@' && last_at == std::string_view::npos &&
                HasColon(t, from, end)) {
              end = look;
              continue;
            }
          }
          break;
        }
        ++end;
      }
      if (last_at == std::string_view::npos) continue;
      size_t colon = from;
      while (colon < last_at && t[colon] != ':') ++colon;
      if (colon >= last_at) continue;
      const size_t pb = colon + 1, pe = last_at;
      if (pb >= pe) continue;
      const std::string_view password = t.substr(pb, pe - pb);
      // A name in capitals stands for the password (`https://USERNAME:PERSONAL_ACCESS_TOKEN@…`).
      if (IsReference(password) || IsPlaceholder(password) || IsCapitalsName(password)) continue;
      if (password[0] == '$' || password.find('{') != std::string_view::npos) continue;
      Report(sink, t, pb, pe, "password");
    }
  }

 private:
  // True when [from, end) holds a ':' followed by something other than a port number.
  static bool HasColon(std::string_view t, size_t from, size_t end) {
    for (size_t i = from; i < end; ++i) {
      if (t[i] != ':') continue;
      for (size_t j = i + 1; j < end; ++j) {
        if (!IsDigit(t[j])) return true;
      }
      return false;
    }
    return false;
  }
};

}  // namespace

std::unique_ptr<Detector> MakeUrlPasswords() { return std::make_unique<UrlPasswords>(); }

}  // namespace rr_secrets
