// command-line: passwords given to a command on its command line.
//
//   curl -u user:password …          (also --user, -uuser:password, --user=user:password)
//   docker login -u user -p password  (podman, helm registry, oras, nerdctl, buildah, skopeo,
//                                      cf and az login: -p / --password)
//   mysql -ppassword …                (mysql, mariadb, mysqldump, mysqladmin: -p joined)
//   sshpass -p password …, mongosh -p password …, redis-cli -a password …
//   htpasswd -b file user password
//   psexec \\host -u user -p password, plink/pscp -pw password, sqlcmd/osql -P password
//
// The line holding the command's name is split into words as a shell would (quotes kept
// together); only the password is reported. A reference ($PASS, ${{ secrets.X }}) or a
// placeholder is kept; "-p 8080" for a port is not read (only the commands above are).
#include <memory>
#include <string_view>
#include <vector>

#include "detectors.h"

namespace rr_secrets {

namespace {

struct Word {
  size_t begin, end;    // the word's text, without the quotes around it
  bool quoted = false;  // it was written in quotes
};

std::vector<Word> SplitWords(std::string_view t, size_t from, size_t to) {
  std::vector<Word> words;
  size_t i = from;
  // A line's end is a blank too: a command continued on the next line reads on there. So are
  // the shell's separators outside quotes (`-p Harbor12345;docker push …`, `… | jq`, `&&`).
  auto blank = [&](size_t k) {
    return IsBlank(t[k]) || t[k] == '\n' || t[k] == '\r' || t[k] == ';' || t[k] == '|' ||
           t[k] == '&';
  };
  while (i < to) {
    while (i < to && blank(i)) ++i;
    if (i >= to) break;
    if (t[i] == '"' || t[i] == '\'') {
      const char q = t[i];
      size_t j = i + 1;
      while (j < to && t[j] != q) j += (t[j] == '\\' && q == '"') ? 2 : 1;
      words.push_back({i + 1, std::min(j, to), true});
      i = j + 1;
      continue;
    }
    size_t j = i;
    while (j < to && !blank(j)) {
      // A call's string argument (os.system("…"), exec('…')) starts a quoted word.
      if ((t[j] == '"' || t[j] == '\'') && j > i && (t[j - 1] == '(' || t[j - 1] == '[')) break;
      ++j;
    }
    if (j < to && !blank(j)) {
      words.push_back({i, j, false});
      i = j;
      continue;
    }
    // A word ending a quoted string (the command itself inside quotes) loses that quote.
    size_t e = j;
    while (e > i && (t[e - 1] == '"' || t[e - 1] == '\'' || t[e - 1] == ';' || t[e - 1] == '`')) {
      --e;
    }
    words.push_back({i, e, false});
    i = j;
  }
  return words;
}

bool Acceptable(std::string_view value) {
  if (value.size() < 3 || value[0] == '-') return false;
  if (IsReference(value) || IsPlaceholder(value)) return false;
  if (value[0] == '$' || value[0] == '%' || value[0] == '<') return false;
  return true;
}

class CommandLine final : public Detector {
 public:
  CommandLine()
      : Detector("command-line", {"curl", "wget", "login", "mysql", "mariadb", "sshpass", "mongo",
                                  "redis-cli", "htpasswd", "psexec", "paexec", "plink", "pscp",
                                  "psftp", "putty", "sqlcmd", "osql"}) {}

 protected:
  void Find(const ScanInput& in, SpanSink& sink) const override {
    const std::string_view t = in.text;
    size_t done = 0;
    for (size_t h = 0; h < in.hit_count; ++h) {
      const size_t at = in.hits[h].offset;
      if (at < done || at >= t.size()) continue;
      const size_t ls = LineStart(t, at);
      size_t le = ContentEnd(t, at);
      // A command continued on the next lines (each ending with '\\').
      for (int more = 0; more < 8 && le > ls && t[le - 1] == '\\' && le + 1 < t.size(); ++more) {
        le = ContentEnd(t, LineEnd(t, le) + 1);
      }
      done = le;
      Line(t, ls, le, sink, 0);
    }
  }

 private:
  static std::string_view Text(std::string_view t, const Word& w) {
    return t.substr(w.begin, w.end - w.begin);
  }

  static void Password(std::string_view t, size_t b, size_t e, SpanSink& sink) {
    if (b < e && Acceptable(t.substr(b, e - b))) Report(sink, t, b, e, "password");
  }

  // The words of t[ls, le); a quoted word holding blanks (a command given as a string: a
  // package.json script, a compose file's command, os.system("…"), sh -c '…') is read as words
  // too, one level deep.
  static void Line(std::string_view t, size_t ls, size_t le, SpanSink& sink, int depth) {
    const std::vector<Word> words = SplitWords(t, ls, le);
    enum {
      kNone,
      kCurl,
      kLogin,
      kMysql,
      kSshpass,
      kMongo,
      kRedis,
      kHtpasswd,
      kPsexec,
      kPutty,
      kSqlcmd
    } command = kNone;
    for (size_t i = 0; i < words.size(); ++i) {
      if (words[i].quoted && depth == 0) {
        for (size_t k = words[i].begin; k < words[i].end; ++k) {
          if (IsBlank(t[k])) {
            Line(t, words[i].begin, words[i].end, sink, depth + 1);
            break;
          }
        }
      }
      std::string_view w = Text(t, words[i]);
      if (i == 0 && !w.empty() && (w[0] == '+' || w[0] == '-') && ls < t.size() && t[ls] == w[0]) {
        w.remove_prefix(1);  // a diff's marker
      }
      const size_t slash = w.rfind('/');
      if (slash != std::string_view::npos) w = w.substr(slash + 1);
      if (w == "curl" || w == "wget" || w == "http" || w == "https") {
        command = kCurl;
      } else if (w == "login" && command == kNone) {
        command = kLogin;
      } else if (w == "mysql" || w == "mariadb" || w == "mysqldump" || w == "mysqladmin") {
        command = kMysql;
      } else if (w == "sshpass") {
        command = kSshpass;
      } else if (w == "mongo" || w == "mongosh" || w == "mongodump" || w == "mongorestore") {
        command = kMongo;
      } else if (w == "redis-cli") {
        command = kRedis;
      } else if (w == "htpasswd") {
        command = kHtpasswd;
      } else if (EqualsNoCase(w, "psexec") || EqualsNoCase(w, "psexec.exe") ||
                 EqualsNoCase(w, "psexec64.exe") || EqualsNoCase(w, "paexec") ||
                 EqualsNoCase(w, "paexec.exe")) {
        command = kPsexec;
      } else if (w == "plink" || w == "pscp" || w == "psftp" || w == "putty" ||
                 EqualsNoCase(w, "plink.exe") || EqualsNoCase(w, "pscp.exe") ||
                 EqualsNoCase(w, "putty.exe")) {
        command = kPutty;
      } else if (EqualsNoCase(w, "sqlcmd") || EqualsNoCase(w, "sqlcmd.exe") || w == "osql") {
        command = kSqlcmd;
      }
      if (command == kNone) continue;
      const Word& word = words[i];
      const bool has_next = i + 1 < words.size();
      const Word next = has_next ? words[i + 1] : Word{0, 0};
      switch (command) {
        case kCurl:
          if ((w == "-u" || w == "--user" || w == "--proxy-user" || w == "-U") && has_next) {
            UserColonPassword(t, next.begin, next.end, sink);
          } else if (w.substr(0, 2) == "-u" && w.size() > 2) {
            UserColonPassword(t, word.begin + 2, word.end, sink);
          } else if (w.substr(0, 7) == "--user=") {
            UserColonPassword(t, word.begin + 7, word.end, sink);
          }
          break;
        case kLogin:
        case kSshpass:
        case kMongo:
          if ((w == "-p" || w == "--password" || w == "--pass") && has_next) {
            Password(t, next.begin, next.end, sink);
          }
          break;
        case kMysql:
          if (w.size() > 2 && w.substr(0, 2) == "-p") Password(t, word.begin + 2, word.end, sink);
          if (w == "--password" && has_next) Password(t, next.begin, next.end, sink);
          break;
        case kRedis:
          if ((w == "-a" || w == "--pass") && has_next) Password(t, next.begin, next.end, sink);
          break;
        case kPsexec:
          if (w == "-p" && has_next) Password(t, next.begin, next.end, sink);
          break;
        case kPutty:
          if (w == "-pw" && has_next) Password(t, next.begin, next.end, sink);
          break;
        case kSqlcmd:
          if (w == "-P" && has_next) Password(t, next.begin, next.end, sink);
          break;
        case kHtpasswd:
          if (w == "-b" || (w.size() > 1 && w[0] == '-' && w.find('b') != std::string_view::npos)) {
            if (i + 3 < words.size()) Password(t, words[i + 3].begin, words[i + 3].end, sink);
          }
          break;
        case kNone:
          break;
      }
    }
  }

  static void UserColonPassword(std::string_view t, size_t b, size_t e, SpanSink& sink) {
    // Documentation's `<user:password>`, `[user:pass]`: a placeholder as a whole.
    if (b < e && ((t[b] == '<' || t[e - 1] == '>') || (t[b] == '[' && t[e - 1] == ']'))) return;
    for (size_t i = b; i < e; ++i) {
      if (t[i] == ':') {
        Password(t, i + 1, e, sink);
        return;
      }
    }
  }
};

}  // namespace

std::unique_ptr<Detector> MakeCommandLine() { return std::make_unique<CommandLine>(); }

}  // namespace rr_secrets
