#include "core/hosts/group_listing.h"

#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Timespan.h>
#include <Poco/URI.h>

#include <cctype>
#include <istream>
#include <memory>

#include "core/policy/glob.h"
#include "core/util/crash_note.h"
#include "core/util/text.h"

namespace rr {

namespace {

using Clock = std::chrono::steady_clock;

std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool IsPlainPart(const std::string& part) {
  if (part.empty() || part == "." || part == ".." || part.size() > 100) return false;
  for (unsigned char c : part) {
    if (!std::isalnum(c) && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

std::vector<std::string> Split(const std::string& path) {
  std::vector<std::string> parts;
  size_t at = 0;
  while (true) {
    const size_t slash = path.find('/', at);
    parts.push_back(path.substr(at, slash == std::string::npos ? std::string::npos : slash - at));
    if (slash == std::string::npos) break;
    at = slash + 1;
  }
  return parts;
}

// Whether `url` is under the API's base: same scheme, host and port, its path below the base's,
// no user information. The API's requests go nowhere else.
bool UnderApi(const std::string& url, const Poco::URI& api) {
  try {
    Poco::URI u(url);
    if (Lower(u.getScheme()) != Lower(api.getScheme())) return false;
    if (Lower(u.getHost()) != Lower(api.getHost()) || u.getPort() != api.getPort()) return false;
    if (!u.getUserInfo().empty() || !u.getFragment().empty()) return false;
    std::string base = api.getPath();
    while (!base.empty() && base.back() == '/') base.pop_back();
    const std::string& path = u.getPath();
    if (path.compare(0, base.size() + 1, base + "/") != 0) return false;
    for (const auto& part : Split(path.substr(base.size() + 1))) {
      if (part == "." || part == "..") return false;
    }
    return true;
  } catch (...) {
    return false;
  }
}

struct Page {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

// One GET, by the rules above. The error never holds the token (the caller scrubs it again).
Result<Page> Get(const repo_reader::HttpRequest& req, const Poco::URI& api,
                 const repo_reader::AuthHeader& auth, const HostToken* token,
                 const ListLimits& limits) {
  if (req.method != "GET")
    return Error{"the host plugin asked for a " + DisplayName(req.method) +
                 " request; a listing sends GET only"};
  if (!UnderApi(req.url, api)) {
    return Error{"a request to " + DisplayName(req.url.substr(0, 200)) +
                 " was refused: it is outside the host's API (" + api.toString() + ")"};
  }
  Poco::URI uri(req.url);
  std::unique_ptr<Poco::Net::HTTPClientSession> session;
  if (Lower(uri.getScheme()) == "https") {
    static const Poco::Net::Context::Ptr context =
        new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, "", "", "",
                               Poco::Net::Context::VERIFY_RELAXED, 9, true);
    session =
        std::make_unique<Poco::Net::HTTPSClientSession>(uri.getHost(), uri.getPort(), context);
  } else {
    session = std::make_unique<Poco::Net::HTTPClientSession>(uri.getHost(), uri.getPort());
  }
  const auto deadline = Clock::now() + limits.page;
  session->setTimeout(Poco::Timespan(static_cast<long>(limits.request.count() / 1000),
                                     static_cast<long>(limits.request.count() % 1000) * 1000));
  // The target as the plugin wrote it: Poco::URI decodes the path, and GitLab's group path is
  // one encoded part ("platform%2Fbackend"). The check above read the decoded path.
  const size_t authority = req.url.find("://") + 3;
  const size_t slash = req.url.find('/', authority);
  std::string target = slash == std::string::npos ? "/" : req.url.substr(slash);
  if (const size_t hash = target.find('#'); hash != std::string::npos) target.resize(hash);
  if (target.find_first_of(" \r\n") != std::string::npos) {
    return Error{"a request's address holds a space or a line break; it was not sent"};
  }
  Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_GET, target,
                                 Poco::Net::HTTPMessage::HTTP_1_1);
  request.set("User-Agent", "repo-reader");
  for (const auto& [name, value] : req.headers) {
    const bool odd = name.find_first_of("\r\n:") != std::string::npos ||
                     value.find_first_of("\r\n") != std::string::npos;
    if (odd || Lower(name) == Lower(auth.name) || Lower(name) == "host" ||
        Lower(name) == "cookie") {
      continue;
    }
    request.set(name, value);
  }
  if (token) request.set(auth.name, auth.prefix + token->value());
  Page page;
  try {
    session->sendRequest(request);
    Poco::Net::HTTPResponse response;
    std::istream& in = session->receiveResponse(response);
    page.status = static_cast<int>(response.getStatus());
    for (const auto& [name, value] : response) page.headers.emplace_back(name, value);
    if (page.status >= 300 && page.status < 400) {
      return Error{"the host answered " + std::to_string(page.status) + " (a redirect" +
                   (response.has("Location")
                        ? " to " + DisplayName(response.get("Location").substr(0, 200))
                        : std::string()) +
                   "); no redirect is followed, since the token travels with the request. Give "
                   "the API's address itself (api:)"};
    }
    // One receive at a time (peek waits for one, readsome takes what it brought), so that the
    // page's deadline is checked however slowly the bytes come.
    char buf[65536];
    while (in.peek() != std::char_traits<char>::eof()) {
      const std::streamsize got = in.readsome(buf, sizeof buf);
      if (got <= 0) break;
      page.body.append(buf, static_cast<size_t>(got));
      if (page.body.size() > limits.page_bytes) {
        return Error{"a page of the listing is larger than " + WithCommas(limits.page_bytes >> 20) +
                     " MB; it was not read"};
      }
      if (Clock::now() > deadline) {
        return Error{"a page of the listing took longer than " +
                     std::to_string(limits.page.count() / 1000) + " seconds; it was stopped"};
      }
    }
  } catch (const Poco::TimeoutException&) {
    return Error{"the host did not answer within " + std::to_string(limits.request.count() / 1000) +
                 " seconds"};
  } catch (const Poco::Exception& e) {
    return Error{"the host's answer could not be read as HTTP: " + DisplayName(e.displayText())};
  } catch (const std::exception& e) {
    return Error{"the host's answer could not be read as HTTP: " + DisplayName(e.what())};
  }
  return page;
}

}  // namespace

bool NamesHaveOneLevel(const std::string& host_kind) {
  return host_kind == "github" || host_kind == "bitbucket";
}

bool IsListablePath(const std::string& path, const std::string& owner, bool one_level) {
  if (path.size() > 1000) return false;
  const auto parts = Split(path);
  const auto owner_parts = Split(owner);
  if (parts.size() <= owner_parts.size()) return false;
  if (one_level && parts.size() != owner_parts.size() + 1) return false;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!IsPlainPart(parts[i])) return false;
    if (i < owner_parts.size() && Lower(parts[i]) != Lower(owner_parts[i])) return false;
  }
  return true;
}

bool AcceptListed(const GroupQuerySpec& spec, const repo_reader::ListedRepo& listed, GroupRepo* out,
                  std::string* refused) {
  if (!IsListablePath(listed.path, spec.owner, spec.one_level)) {
    if (refused) {
      std::string shown = listed.path.substr(0, 200);
      *refused = "`" + DisplayName(shown) + (listed.path.size() > 200 ? "…" : "") + "`: ";
      if (spec.one_level && IsListablePath(listed.path, spec.owner, false)) {
        *refused += "a repository's name on this host holds no `/` (it is " + spec.owner +
                    "/<name>), so this is no repository of " + spec.owner;
      } else {
        *refused += "not a path under " + spec.owner +
                    " whose every part is letters, digits, '.', '_' or '-'";
      }
    }
    return false;
  }
  if (listed.archived && !spec.archived) return false;
  if (listed.fork && !spec.forks) return false;
  const std::string below = listed.path.substr(spec.owner.size() + 1);
  if (!spec.names.empty()) {
    std::vector<std::string_view> parts;
    const auto split = Split(below);
    for (const auto& p : split) parts.push_back(p);
    bool any = false;
    for (const auto& pattern : spec.names) {
      auto glob = Glob::Compile(pattern);
      if (glob && glob->Matches(parts)) any = true;
    }
    if (!any) return false;
  }
  out->path = listed.path;
  out->url = spec.web + "/" + listed.path + ".git";
  out->description = listed.description.substr(0, 1000);
  out->default_branch = listed.default_branch.substr(0, 255);
  out->archived = listed.archived;
  out->fork = listed.fork;
  return true;
}

Result<GroupListing> ListGroup(const repo_reader::HostPlugin& host, const GroupQuerySpec& spec,
                               const HostToken* token, const ListLimits& limits,
                               const std::function<void(size_t, size_t)>& progress,
                               std::string* retry_after) {
  if (retry_after) retry_after->clear();
  Poco::URI api;
  try {
    api = Poco::URI(spec.api);
  } catch (...) {
    return Error{"the API address " + DisplayName(spec.api) + " is not a URL"};
  }
  const repo_reader::GroupQuery query{spec.api, spec.owner, spec.kind, limits.per_page};
  GroupQuerySpec checked = spec;
  std::string running;  // the crash note while the plugin's code runs (crash_note.h)
  try {
    const char* kind = host.kind();
    const std::string named = kind ? DisplayName(std::string_view(kind).substr(0, 64)) : "";
    checked.one_level = NamesHaveOneLevel(named);
    running = "the host plugin of host kind `" + named + "` (a listing)";
  } catch (...) {
    return Error{"the host plugin failed to say its kind"};
  }
  auto scrub = [token](std::string text) { return token ? token->Scrub(std::move(text)) : text; };
  GroupListing out;
  repo_reader::HttpRequest request;
  repo_reader::AuthHeader auth;
  try {
    PluginCallNote note(running.c_str());
    request = host.FirstPage(query);
    auth = host.auth_header();
  } catch (...) {
    return Error{"the host plugin failed to build the first request"};
  }
  if (auth.name.empty() || auth.name.find_first_of("\r\n: ") != std::string::npos ||
      auth.prefix.find_first_of("\r\n") != std::string::npos) {
    return Error{"the host plugin names no usable header for the token"};
  }
  while (true) {
    if (limits.stop && limits.stop->load()) return Error{"the listing was stopped"};
    auto page = Get(request, api, auth, token, limits);
    if (!page) return Error{scrub(page.error())};
    ++out.pages;
    repo_reader::HttpResponse response;
    response.status = page->status;
    response.headers = page->headers;
    response.body = page->body;
    repo_reader::GroupPage parsed;
    try {
      PluginCallNote note(running.c_str());
      parsed = host.ParsePage(query, response);
    } catch (...) {
      return Error{"the host plugin failed to read a page of the listing"};
    }
    if (!parsed.error.empty()) {
      // 429 and 503 say when to come back; GitHub's secondary rate limit says it on a 403.
      if (retry_after && (page->status == 429 || page->status == 503 || page->status == 403)) {
        for (const auto& [name, value] : page->headers) {
          if (Lower(name) == "retry-after") *retry_after = value.substr(0, 100);
        }
      }
      return Error{scrub("page " + std::to_string(out.pages) + ": " + DisplayName(parsed.error))};
    }
    for (const auto& listed : parsed.repos) {
      GroupRepo repo;
      std::string refused;
      if (!AcceptListed(checked, listed, &repo, &refused)) {
        ++out.left_out;
        if (!refused.empty()) {
          if (out.refused.size() < GroupListing::kMaxRefusedNamed) out.refused.push_back(refused);
          ++out.refused_count;
        }
        continue;
      }
      if (out.repos.size() >= limits.max_repos) {
        out.capped = true;
        break;
      }
      out.repos.push_back(std::move(repo));
    }
    if (progress) progress(out.pages, out.repos.size());
    if (out.capped || !parsed.has_next) break;
    if (!UnderApi(parsed.next.url, api)) {
      return Error{scrub("the host's next page, " + DisplayName(parsed.next.url.substr(0, 200)) +
                         ", is outside its API (" + api.toString() +
                         "); the listing was stopped there")};
    }
    request = std::move(parsed.next);
    if (out.pages >= 100000) return Error{"the listing has more than 100,000 pages"};
  }
  return out;
}

}  // namespace rr
