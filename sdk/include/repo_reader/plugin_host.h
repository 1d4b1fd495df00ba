// repo-reader plugin SDK: the host side of the C boundary (plugin_abi.h), shared by the server
// and the test kit (testkit.h) so that both load a plugin, and check and merge what its
// detectors report, the same way.
//
//  - Library / OpenPlugin: dlopen a shared object, find its entry and check it (the ABI version
//    range, the entry's size, name, kinds and factories), with a sentence for each refusal.
//  - MakeDetectors / MakeHosts: run a factory and wrap what it made as C++ objects of the SDK's
//    own interfaces (HostedDetector is a SecretDetector, HostedHost a HostPlugin) that call the
//    plugin over the C boundary, keep its library loaded while they live, and destroy the
//    plugin's object (ops->destroy) when they go.
//  - KeywordProblem, SpanProblem, MergeSpans, Redact: the secret filter's rules for keywords and
//    spans.
//
// Header-only, for Linux (dlopen; link with -ldl). A call on the plugin that fails arrives here
// as data (RR_FAILED and a sentence) and leaves as a PluginFailure exception (whose what() is the
// plugin's sentence) from the wrapping objects, a value everywhere else.
#pragma once

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "repo_reader/host.h"
#include "repo_reader/plugin.h"
#include "repo_reader/plugin_abi.h"
#include "repo_reader/secret_detector.h"

namespace repo_reader::host {

// A call on a plugin's object that answered RR_FAILED; what() is the plugin's sentence.
class PluginFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// " threw: <what>" for a sentence the C++ layer wrote for an exception, else " failed: <what>":
// the tail of "make_hosts threw: …", "secret detector `x` of plugin `p` failed: …".
inline std::string FailedTail(const std::string& text) {
  if (text.rfind("threw", 0) == 0) return " " + text;
  return " failed: " + (text.empty() ? std::string("(it gave no reason)") : text);
}

// Collects what a plugin writes to an rr_text_out, up to `limit` bytes (the rest is dropped).
class Text {
 public:
  explicit Text(size_t limit = 4096) : limit_(limit) {}
  const rr_text_out* out() const { return &out_; }
  const std::string& str() const { return text_; }

 private:
  static void Write(void* ctx, const char* data, size_t size) {
    auto* self = static_cast<Text*>(ctx);
    if (!data || self->text_.size() >= self->limit_) return;
    self->text_.append(data, std::min(size, self->limit_ - self->text_.size()));
  }
  size_t limit_;
  std::string text_;
  rr_text_out out_{this, &Write};
};

inline rr_str Str(std::string_view s) { return rr_str{s.data(), s.size()}; }
inline std::string Copy(rr_str s) { return s.size && s.data ? std::string(s.data, s.size) : ""; }

// A loaded shared object; dlclose when the last holder goes.
class Library {
 public:
  // Loads `path` (RTLD_NOW | RTLD_LOCAL); null with *error set when it cannot.
  static std::shared_ptr<Library> Open(const std::string& path, std::string* error) {
    dlerror();
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* why = dlerror();
      *error = why ? why : "dlopen failed";
      return nullptr;
    }
    return std::shared_ptr<Library>(new Library(handle));
  }
  void* Symbol(const char* name) const { return dlsym(handle_, name); }
  ~Library() { dlclose(handle_); }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

 private:
  explicit Library(void* handle) : handle_(handle) {}
  void* handle_;
};

inline bool ValidPluginName(const char* name) {
  if (!name) return false;
  const size_t n = strnlen(name, 65);
  if (n == 0 || n > 64) return false;
  for (size_t i = 0; i < n; ++i) {
    const char c = name[i];
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (i == 0 && !alnum) return false;
    if (!alnum && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

// A plugin's checked entry, or why it is refused (a sentence naming `file` where it helps).
struct Opened {
  const rr_plugin* entry = nullptr;
  std::string error;
};

inline std::string Versions() {
  return std::to_string(RR_PLUGIN_ABI_MIN_VERSION) + " to " + std::to_string(RR_PLUGIN_ABI_VERSION);
}

// Finds and checks the entry of the loaded `library` (from `file`).
inline Opened OpenPlugin(const Library& library, const std::string& file) {
  Opened out;
  const std::string rebuild =
      "Rebuild the plugin against this server's SDK (find_package(repo_reader_sdk))";
  void* symbol = library.Symbol(RR_PLUGIN_ENTRY_SYMBOL);
  if (!symbol) {
    if (library.Symbol("repo_reader_plugin")) {
      // Version 1 exported a Boost.DLL alias of this name and passed C++ objects.
      out.error = file +
                  " was built against the plugin SDK's ABI version 1 (a C++ boundary), older "
                  "than the oldest this server loads, " +
                  std::to_string(RR_PLUGIN_ABI_MIN_VERSION) + " (it loads versions " + Versions() +
                  "). " + rebuild + ", or use a server of its version";
      return out;
    }
    out.error = file + " is not a repo-reader plugin: it exports no `" RR_PLUGIN_ENTRY_SYMBOL
                       "` entry (REPO_READER_PLUGIN in <repo_reader/plugin.h>)";
    return out;
  }
  Text why;
  const rr_plugin* e = nullptr;
  try {
    e = reinterpret_cast<rr_plugin_entry_fn>(symbol)(why.out());
  } catch (...) {  // a plugin that breaks the rule; kept out of the server all the same
    out.error = "its entry failed: it let an exception escape";
    return out;
  }
  if (!e) {
    out.error = why.str().empty() ? "its entry answered nothing" : "its entry failed: " + why.str();
    return out;
  }
  if (e->abi_version > RR_PLUGIN_ABI_VERSION) {
    out.error = file + " was built against the plugin SDK's ABI version " +
                std::to_string(e->abi_version) +
                ", newer than this server knows (it loads versions " + Versions() +
                "). Use a server of its version or later, or " +
                "rebuild the plugin against this server's SDK (find_package(repo_reader_sdk))";
    return out;
  }
  if (e->abi_version < RR_PLUGIN_ABI_MIN_VERSION) {
    out.error = file + " was built against the plugin SDK's ABI version " +
                std::to_string(e->abi_version) + ", older than the oldest this server loads, " +
                std::to_string(RR_PLUGIN_ABI_MIN_VERSION) + " (it loads versions " + Versions() +
                "). " + rebuild + ", or use a server of its version";
    return out;
  }
  // Version 2 is the only one: its entry is exactly this struct.
  if (e->struct_size != sizeof(rr_plugin)) {
    out.error = "its entry is malformed (size " + std::to_string(e->struct_size) + ", expected " +
                std::to_string(sizeof(rr_plugin)) + "); rebuild it against this server's SDK";
    return out;
  }
  if (!ValidPluginName(e->name)) {
    out.error = "its entry gives no valid name (1 to 64 of a-z, 0-9, '.', '_', '-')";
    return out;
  }
  const uint32_t known = RR_KIND_SECRET_DETECTOR | RR_KIND_HOST;
  if (e->kinds == 0 || (e->kinds & ~known) ||
      ((e->kinds & RR_KIND_SECRET_DETECTOR) && !e->make_secret_detectors) ||
      ((e->kinds & RR_KIND_HOST) && !e->make_hosts)) {
    out.error =
        "its entry is malformed: it names no kind this server knows, or a kind without its "
        "factory";
    return out;
  }
  out.entry = e;
  return out;
}

// A detector a plugin made, called over the C boundary.
class HostedDetector final : public SecretDetector {
 public:
  HostedDetector(void* self, const rr_secret_detector_ops* ops, std::shared_ptr<Library> library)
      : self_(self), ops_(ops), library_(std::move(library)) {}
  ~HostedDetector() override { ops_->destroy(self_); }
  HostedDetector(const HostedDetector&) = delete;
  HostedDetector& operator=(const HostedDetector&) = delete;

  // Whether the plugin's table has every function of this version.
  bool complete() const {
    return ops_->struct_size >= sizeof(rr_secret_detector_ops) && ops_->id && ops_->keywords &&
           ops_->scan && ops_->destroy;
  }

  const char* id() const noexcept override { return ops_->id(self_); }

  std::vector<std::string> keywords() const override {
    std::vector<std::string> words;
    Text error;
    auto add = [](void* ctx, const char* data, size_t size) {
      static_cast<std::vector<std::string>*>(ctx)->emplace_back(data ? data : "", data ? size : 0);
    };
    if (ops_->keywords(self_, &words, add, error.out()) != RR_OK) throw PluginFailure(error.str());
    return words;
  }

  void Scan(const ScanInput& input, SpanSink& sink) const override {
    const rr_scan_input in = {Str(input.text), static_cast<uint32_t>(input.kind), Str(input.path),
                              input.hits, input.hit_count};
    auto add = [](void* ctx, size_t begin, size_t end, const char* what, size_t what_size) {
      static_cast<SpanSink*>(ctx)->Add(
          begin, end, what ? std::string_view(what, what_size) : std::string_view());
    };
    const rr_span_sink out = {&sink, add};
    Text error;
    if (ops_->scan(self_, &in, &out, error.out()) != RR_OK) throw PluginFailure(error.str());
  }

 private:
  void* self_;
  const rr_secret_detector_ops* ops_;
  std::shared_ptr<Library> library_;  // destroyed after the plugin's object
};

// A host a plugin made, called over the C boundary. Links answer "" when the call fails;
// auth_header and FirstPage throw PluginFailure; ParsePage answers the failure as the page's
// error.
class HostedHost final : public HostPlugin {
 public:
  HostedHost(void* self, const rr_host_ops* ops, std::shared_ptr<Library> library)
      : self_(self), ops_(ops), library_(std::move(library)) {}
  ~HostedHost() override { ops_->destroy(self_); }
  HostedHost(const HostedHost&) = delete;
  HostedHost& operator=(const HostedHost&) = delete;

  bool complete() const {
    return ops_->struct_size >= sizeof(rr_host_ops) && ops_->kind && ops_->link &&
           ops_->auth_header && ops_->first_page && ops_->parse_page && ops_->destroy;
  }

  const char* kind() const noexcept override { return ops_->kind(self_); }

  std::string RepoLink(const HostRepo& repo) const override {
    return Link(RR_LINK_REPO, repo, {}, {}, {}, 0, 0);
  }
  std::string FileLink(const HostRepo& repo, std::string_view commit, std::string_view path,
                       uint32_t first, uint32_t last) const override {
    return Link(RR_LINK_FILE, repo, commit, {}, path, first, last);
  }
  std::string FolderLink(const HostRepo& repo, std::string_view commit,
                         std::string_view path) const override {
    return Link(RR_LINK_FOLDER, repo, commit, {}, path, 0, 0);
  }
  std::string CommitLink(const HostRepo& repo, std::string_view commit) const override {
    return Link(RR_LINK_COMMIT, repo, commit, {}, {}, 0, 0);
  }
  std::string CompareLink(const HostRepo& repo, std::string_view base_commit,
                          std::string_view head_commit) const override {
    return Link(RR_LINK_COMPARE, repo, head_commit, base_commit, {}, 0, 0);
  }

  AuthHeader auth_header() const override {
    Text name, prefix, error;
    if (ops_->auth_header(self_, name.out(), prefix.out(), error.out()) != RR_OK) {
      throw PluginFailure(error.str());
    }
    return AuthHeader{name.str(), prefix.str()};
  }

  HttpRequest FirstPage(const GroupQuery& query) const override {
    const rr_group_query q = Query(query);
    HttpRequest request;
    const rr_request_out out = RequestOut(&request);
    Text error;
    if (ops_->first_page(self_, &q, &out, error.out()) != RR_OK) throw PluginFailure(error.str());
    return request;
  }

  GroupPage ParsePage(const GroupQuery& query, const HttpResponse& response) const override {
    const rr_group_query q = Query(query);
    std::vector<rr_header> headers;
    headers.reserve(response.headers.size());
    for (const auto& [name, value] : response.headers) headers.push_back({Str(name), Str(value)});
    const rr_http_response r = {response.status, headers.data(), headers.size(),
                                Str(response.body)};
    GroupPage page;
    auto repo = [](void* ctx, const rr_listed_repo* c) {
      ListedRepo listed;
      listed.path = Copy(c->path);
      listed.description = Copy(c->description);
      listed.default_branch = Copy(c->default_branch);
      listed.archived = c->flags & RR_REPO_ARCHIVED;
      listed.fork = c->flags & RR_REPO_FORK;
      listed.empty = c->flags & RR_REPO_EMPTY;
      static_cast<GroupPage*>(ctx)->repos.push_back(std::move(listed));
    };
    rr_page_out out = {&page, repo, RequestOut(&page.next)};
    Text error;
    if (ops_->parse_page(self_, &q, &r, &out, error.out()) != RR_OK) {
      GroupPage failed;
      failed.error = error.str().empty() ? "the host plugin could not read the page" : error.str();
      return failed;
    }
    page.has_next = !page.next.url.empty();
    return page;
  }

 private:
  static rr_group_query Query(const GroupQuery& q) {
    return rr_group_query{Str(q.api_base), Str(q.owner), static_cast<uint32_t>(q.kind), q.per_page};
  }
  static rr_request_out RequestOut(HttpRequest* request) {
    auto set = [](void* ctx, rr_str method, rr_str url) {
      auto* r = static_cast<HttpRequest*>(ctx);
      r->method = method.size ? Copy(method) : std::string("GET");
      r->url = Copy(url);
    };
    auto header = [](void* ctx, rr_str name, rr_str value) {
      static_cast<HttpRequest*>(ctx)->headers.emplace_back(Copy(name), Copy(value));
    };
    return rr_request_out{request, set, header};
  }
  std::string Link(uint32_t what, const HostRepo& repo, std::string_view commit,
                   std::string_view base, std::string_view path, uint32_t first,
                   uint32_t last) const {
    const rr_link_query q = {
        what, {Str(repo.web_base), Str(repo.path)}, Str(commit), Str(base), Str(path), first, last};
    Text url(64 * 1024), error;
    if (ops_->link(self_, &q, url.out(), error.out()) != RR_OK) return std::string();
    return url.str();
  }

  void* self_;
  const rr_host_ops* ops_;
  std::shared_ptr<Library> library_;
};

template <class T>
struct Hosted {
  std::vector<std::unique_ptr<T>> made;
  std::string error;  // "make_hosts failed: …" / "make_hosts threw: …"
};

inline std::vector<rr_setting> CSettings(const PluginSettings& settings) {
  std::vector<rr_setting> out;
  for (const auto& [key, value] : settings) out.push_back({Str(key), Str(value)});
  return out;
}

// Runs the entry's make_secret_detectors; every detector holds `library`.
inline Hosted<HostedDetector> MakeDetectors(const rr_plugin& entry, const PluginSettings& settings,
                                            const std::shared_ptr<Library>& library) {
  struct Ctx {
    Hosted<HostedDetector>* out;
    const std::shared_ptr<Library>* library;
  };
  Hosted<HostedDetector> out;
  Ctx ctx{&out, &library};
  auto add = [](void* c, void* self, const rr_secret_detector_ops* ops) {
    auto* x = static_cast<Ctx*>(c);
    if (self && ops)
      x->out->made.push_back(std::make_unique<HostedDetector>(self, ops, *x->library));
  };
  const rr_detector_out sink = {&ctx, add};
  const std::vector<rr_setting> s = CSettings(settings);
  Text error;
  if (entry.make_secret_detectors(s.data(), s.size(), &sink, error.out()) != RR_OK) {
    out.made.clear();
    out.error = "make_secret_detectors" + FailedTail(error.str());
    return out;
  }
  for (const auto& d : out.made) {
    if (!d->complete()) {
      out.made.clear();
      out.error = "make_secret_detectors gave a detector whose function table is incomplete";
      break;
    }
  }
  return out;
}

// Runs the entry's make_hosts; every host holds `library`.
inline Hosted<HostedHost> MakeHosts(const rr_plugin& entry, const PluginSettings& settings,
                                    const std::shared_ptr<Library>& library) {
  struct Ctx {
    Hosted<HostedHost>* out;
    const std::shared_ptr<Library>* library;
  };
  Hosted<HostedHost> out;
  Ctx ctx{&out, &library};
  auto add = [](void* c, void* self, const rr_host_ops* ops) {
    auto* x = static_cast<Ctx*>(c);
    if (self && ops) x->out->made.push_back(std::make_unique<HostedHost>(self, ops, *x->library));
  };
  const rr_host_out sink = {&ctx, add};
  const std::vector<rr_setting> s = CSettings(settings);
  Text error;
  if (entry.make_hosts(s.data(), s.size(), &sink, error.out()) != RR_OK) {
    out.made.clear();
    out.error = "make_hosts" + FailedTail(error.str());
    return out;
  }
  for (const auto& h : out.made) {
    if (!h->complete()) {
      out.made.clear();
      out.error = "make_hosts gave a host whose function table is incomplete";
      break;
    }
  }
  return out;
}

// --- The secret filter's rules.

// Lower-cases `keyword` in place; false when the filter cannot use it (ASCII, at least 2 bytes).
inline bool UsableKeyword(std::string* keyword) {
  bool ok = keyword->size() >= 2;
  for (char& c : *keyword) {
    if (static_cast<unsigned char>(c) >= 0x80 || c == 0) ok = false;
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return ok;
}

// Why a reported span is refused, or "": spans are non-empty and inside the text.
inline std::string SpanProblem(size_t begin, size_t end, size_t size) {
  if (begin < end && end <= size) return std::string();
  return "reported a span outside the text (" + std::to_string(begin) + ".." + std::to_string(end) +
         " of " + std::to_string(size) + " bytes)";
}

// The longest label shown, in bytes.
inline constexpr size_t kLabelLimit = 40;

// Sorts spans (anything with begin, end) and merges those that overlap into `out`. Stable: of
// two spans alike, the one reported first gives the label.
template <class S>
void MergeSpans(std::vector<S> spans, std::vector<S>* out) {
  std::stable_sort(spans.begin(), spans.end(), [](const S& x, const S& y) {
    return x.begin < y.begin || (x.begin == y.begin && x.end > y.end);
  });
  for (auto& s : spans) {
    if (!out->empty() && s.begin < out->back().end) {
      out->back().end = std::max(out->back().end, s.end);
    } else {
      out->push_back(std::move(s));
    }
  }
}

// `text` with each merged span (begin, end, what) shown as `[hidden: <what>]`.
template <class S>
std::string Redact(std::string_view text, const std::vector<S>& spans) {
  std::string out;
  out.reserve(text.size());
  size_t at = 0;
  for (const auto& s : spans) {
    out.append(text.substr(at, s.begin - at));
    out += "[hidden: ";
    out += s.what;
    out += "]";
    at = s.end;
  }
  out.append(text.substr(at));
  return out;
}

}  // namespace repo_reader::host
