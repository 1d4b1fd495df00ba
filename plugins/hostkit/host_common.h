// What the built-in host plugins (github, gitlab, bitbucket) share, built into each of them:
// their links, from a table of how each host addresses its pages (LinkedHost); percent-encoding,
// reading a header of an answer, the `Link` header's next page, and reading a page of a listing
// (ReadPage: the status, the JSON (Poco::JSON), each entry into a ListedRepo, the next page), so
// that each plugin says only where its host's pages differ (PageStyle and two small functions).
// Built against the SDK only; nothing here makes a request (the server does), and nothing here
// throws out of a plugin call.
#pragma once

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <repo_reader/sdk.h>

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rr_hosts {

// Percent-encodes every byte but the unreserved ones (RFC 3986: A-Z a-z 0-9 - . _ ~), and '/'
// when `keep_slash` (a path's parts keep their separators).
inline std::string Encode(std::string_view text, bool keep_slash) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' ||
        (keep_slash && c == '/')) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

// A path from the repository's root, without a leading or trailing '/', encoded for a URL.
inline std::string EncodePath(std::string_view path) {
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  return Encode(path, true);
}

// Whether a commit id is one: 40 (SHA-1) or 64 (SHA-256) hexadecimal digits. A link always names
// a commit id; anything else gets no link.
inline bool IsCommitId(std::string_view id) {
  if (id.size() != 40 && id.size() != 64) return false;
  for (unsigned char c : id) {
    if (!std::isxdigit(c)) return false;
  }
  return true;
}

// The repository's web page: "<web_base>/<path>", or "" when either is missing.
inline std::string RepoPage(const repo_reader::HostRepo& repo) {
  std::string_view path = repo.path;
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  if (repo.web_base.empty() || path.empty()) return "";
  return std::string(repo.web_base) + "/" + Encode(path, true);
}

// How a host addresses the pages links point to. Every link names a full commit id (anything
// else gets no link) and percent-encodes paths:
//   file    <repo page><file><commit>/<path><line><first><range><last>
//   folder  <repo page><folder><commit>/<path>   (with folder_slash: <commit>/ and <path>/)
//   commit  <repo page><commit><commit id>
//   compare <repo page><compare><base>...<head>  (no link where `compare` is null)
struct LinkStyle {
  const char* file;     // "/blob/"
  const char* folder;   // "/tree/"
  bool folder_slash;    // Bitbucket's folders end in '/'
  const char* commit;   // "/commit/"
  const char* compare;  // "/compare/", or nullptr
  const char* line;     // "#L"
  const char* range;    // "-L"
};

// A host plugin's links, from its LinkStyle; the plugin adds what it lists and how.
class LinkedHost : public repo_reader::HostPlugin {
 public:
  explicit LinkedHost(const LinkStyle& style) : style_(style) {}

  std::string RepoLink(const repo_reader::HostRepo& repo) const override { return RepoPage(repo); }

  std::string FileLink(const repo_reader::HostRepo& repo, std::string_view commit,
                       std::string_view path, uint32_t first, uint32_t last) const override {
    const std::string base = RepoPage(repo);
    const std::string file = EncodePath(path);
    if (base.empty() || !IsCommitId(commit) || file.empty()) return "";
    std::string out = base + style_.file + std::string(commit) + "/" + file;
    if (first > 0) {
      out += style_.line + std::to_string(first);
      if (last > first) out += style_.range + std::to_string(last);
    }
    return out;
  }

  std::string FolderLink(const repo_reader::HostRepo& repo, std::string_view commit,
                         std::string_view path) const override {
    const std::string base = RepoPage(repo);
    if (base.empty() || !IsCommitId(commit)) return "";
    const std::string folder = EncodePath(path);
    std::string out = base + style_.folder + std::string(commit);
    if (style_.folder_slash) return out + "/" + (folder.empty() ? "" : folder + "/");
    return folder.empty() ? out : out + "/" + folder;
  }

  std::string CommitLink(const repo_reader::HostRepo& repo,
                         std::string_view commit) const override {
    const std::string base = RepoPage(repo);
    if (base.empty() || !IsCommitId(commit)) return "";
    return base + style_.commit + std::string(commit);
  }

  std::string CompareLink(const repo_reader::HostRepo& repo, std::string_view base_commit,
                          std::string_view head_commit) const override {
    const std::string base = RepoPage(repo);
    if (!style_.compare || base.empty() || !IsCommitId(base_commit) || !IsCommitId(head_commit))
      return "";
    return base + style_.compare + std::string(base_commit) + "..." + std::string(head_commit);
  }

 private:
  LinkStyle style_;
};

inline bool SameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// The first header of that name (any case), or nullptr.
inline const std::string* Header(const repo_reader::HttpResponse& r, std::string_view name) {
  for (const auto& [k, v] : r.headers) {
    if (SameName(k, name)) return &v;
  }
  return nullptr;
}

// The URL of `rel="next"` in an RFC 8288 Link header ("<url>; rel=\"next\", <url>; rel=\"last\""),
// or "" when there is none.
inline std::string NextFromLink(const repo_reader::HttpResponse& r) {
  const std::string* link = Header(r, "Link");
  if (!link) return "";
  const std::string& s = *link;
  size_t at = 0;
  while (at < s.size()) {
    const size_t open = s.find('<', at);
    if (open == std::string::npos) return "";
    const size_t close = s.find('>', open);
    if (close == std::string::npos) return "";
    size_t end = s.find('<', close);
    if (end == std::string::npos) end = s.size();
    const std::string params = s.substr(close + 1, end - close - 1);
    std::string lower;
    for (char c : params) {
      if (c != ' ' && c != '"') lower.push_back(static_cast<char>(std::tolower(c)));
    }
    if (lower.find("rel=next") != std::string::npos) return s.substr(open + 1, close - open - 1);
    at = end;
  }
  return "";
}

// What an HTTP status that is not 200 means for a listing, for the operator. `what` names the
// owner ("organisation `acme`"); `token` names what the host takes ("a token with read access").
inline std::string StatusError(const repo_reader::HttpResponse& r, const std::string& what,
                               const std::string& token) {
  const std::string code = "HTTP " + std::to_string(r.status);
  switch (r.status) {
    case 401:
      return code + ": the host refused the token (or wants one) for " + what + "; give " + token +
             " in the variable token_env names";
    case 403:
      if (const std::string* left = Header(r, "X-RateLimit-Remaining"); left && *left == "0") {
        return code + ": the host's rate limit is used up; the listing is tried again later";
      }
      return code + ": the token may not list " + what + "; give " + token;
    case 404:
      return code + ": the host knows no " + what +
             " (or the token may not see it); check the "
             "owner's spelling and the token's access";
    case 429: {
      const std::string* after = Header(r, "Retry-After");
      return code + ": the host asks to slow down" +
             (after ? " (Retry-After: " + after->substr(0, 20) + ")" : std::string()) +
             "; the listing is tried again later";
    }
    default:
      return code + ": the host did not list " + what;
  }
}

// Reads a value of `o` as text ("" when absent, null or not a string).
inline std::string Text(const Poco::JSON::Object& o, const std::string& key) {
  if (!o.has(key)) return "";
  const Poco::Dynamic::Var v = o.get(key);
  if (v.isEmpty() || !v.isString()) return "";
  return v.convert<std::string>();
}

inline bool Flag(const Poco::JSON::Object& o, const std::string& key) {
  if (!o.has(key)) return false;
  const Poco::Dynamic::Var v = o.get(key);
  if (v.isEmpty() || !v.isBoolean()) return false;
  return v.extract<bool>();
}

inline bool Present(const Poco::JSON::Object& o, const std::string& key) {
  return o.has(key) && !o.get(key).isEmpty();
}

// Parses `body` as JSON; the error, for the operator, when it is not.
inline Poco::Dynamic::Var ParseJson(std::string_view body, std::string* error) {
  try {
    Poco::JSON::Parser parser;
    return parser.parse(std::string(body));
  } catch (const std::exception& e) {
    *error = "the host's answer is not JSON (" + std::string(e.what()).substr(0, 120) + ")";
  } catch (...) {
    *error = "the host's answer is not JSON";
  }
  return {};
}

inline Poco::JSON::Array::Ptr AsArray(const Poco::Dynamic::Var& v) {
  if (v.type() == typeid(Poco::JSON::Array::Ptr)) return v.extract<Poco::JSON::Array::Ptr>();
  return nullptr;
}

inline Poco::JSON::Object::Ptr AsObject(const Poco::Dynamic::Var& v) {
  if (v.type() == typeid(Poco::JSON::Object::Ptr)) return v.extract<Poco::JSON::Object::Ptr>();
  return nullptr;
}

// How a host's listing pages read: what each holds, and how it names what it lists.
struct PageStyle {
  // What StatusError says the host takes: "a token with the read_api scope".
  const char* token;
  // What a page is, for the operator: "a list of repositories", "a page of repositories".
  const char* noun;
  // Its JSON shape: "(a JSON array)", "(an object with `values`)".
  const char* shape;
  // The field of an entry holding the repository's path: "full_name".
  const char* path_key;
  // Where the entries are: the answer itself (nullptr), or this field of the answer's object.
  const char* list_key;
};

// Reads one page of a listing as every built-in host's reads: a status other than 200 is the
// StatusError; then the JSON, its entries (each with a path under style.path_key, the rest read
// by `fill`), and the next page's URL from `next` (answering "" on the last page, or false with
// the error when the answer names a next page wrongly). The next page is asked for with
// `next_headers`. Nothing throws out of it: a page that cannot be read is an error, with no
// repository and no next page.
template <class Fill, class Next>
repo_reader::GroupPage ReadPage(
    const repo_reader::HttpResponse& response, const std::string& what, const PageStyle& style,
    Fill fill, Next next, const std::vector<std::pair<std::string, std::string>>& next_headers) {
  repo_reader::GroupPage page;
  try {
    if (response.status != 200) {
      page.error = StatusError(response, what, style.token);
      return page;
    }
    auto parsed = ParseJson(response.body, &page.error);
    if (!page.error.empty()) return page;
    Poco::JSON::Object::Ptr body = AsObject(parsed);
    Poco::JSON::Array::Ptr list;
    if (style.list_key) {
      list = body && body->has(style.list_key) ? body->getArray(style.list_key) : nullptr;
    } else {
      list = AsArray(parsed);
    }
    if (!list) {
      page.error = std::string("the host's answer is not ") + style.noun + " " + style.shape;
      return page;
    }
    for (size_t i = 0; i < list->size(); ++i) {
      auto o = list->getObject(static_cast<unsigned>(i));
      const std::string path = o ? Text(*o, style.path_key) : "";
      if (path.empty()) {
        page.repos.clear();
        page.error = std::string("the host's answer is not ") + style.noun + ": entry " +
                     std::to_string(i + 1) + " has no " + style.path_key;
        return page;
      }
      repo_reader::ListedRepo repo;
      repo.path = path;
      fill(*o, &repo);
      page.repos.push_back(std::move(repo));
    }
    std::string url;
    if (!next(body, &url, &page.error)) {
      page.repos.clear();
      return page;
    }
    if (!url.empty()) {
      page.has_next = true;
      page.next.url = url;
      page.next.headers = next_headers;
    }
  } catch (...) {
    page.repos.clear();
    page.has_next = false;
    page.next = repo_reader::HttpRequest();
    page.error = std::string("the host's answer could not be read as ") + style.noun;
  }
  return page;
}

}  // namespace rr_hosts
