// repo-reader plugin SDK: the entry point every plugin exports, in C++.
//
// A plugin written in C++ describes itself with a PluginEntry (its name, its version, the kinds
// it provides and a factory for each) and exports it with REPO_READER_PLUGIN(function), at
// namespace scope in one source file. The macro defines the plugin's one exported symbol, the C
// function `repo_reader_plugin_entry` of plugin_abi.h, and everything behind it is this header,
// compiled into the plugin: it turns the PluginEntry into the C entry (rr_plugin), hands each
// object a factory makes to the server as a C (self, ops) pair, and runs each call the server
// makes on it. The server never sees a C++ type of the plugin's, so the plugin may be built with
// any compiler and standard library.
//
// Contract for plugin authors:
//  - Include only headers under repo_reader/ (sdk.h includes them all). Build with hidden
//    visibility (-fvisibility=hidden): the entry is the only symbol the server looks for.
//  - Let no exception leave a call into the plugin. This layer catches what escapes at the
//    boundary and reports it to the server as an error (a failed detector withholds the answer
//    rather than show it unfiltered), but a plugin that throws is a broken plugin.
//  - Everything the factories return is owned by the server from then on and destroyed before
//    the library is unloaded; the server keeps the library loaded while anything it made lives.
//  - The entry function may be called more than once and must answer the same entry each time
//    (a static object is the usual way). It runs no other code of consequence.
#pragma once

#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "repo_reader/abi.h"
#include "repo_reader/host.h"
#include "repo_reader/plugin_abi.h"
#include "repo_reader/secret_detector.h"

namespace repo_reader {

// What a plugin provides; an entry's `kinds` is a bitwise or of these.
enum PluginKind : uint32_t {
  kSecretDetectorPlugin = RR_KIND_SECRET_DETECTOR,
  kHostPlugin = RR_KIND_HOST,
};

// Settings the operator gave the plugin in the configuration (`settings:` under its entry),
// as text. Keys and values are the operator's; a plugin says in its docs which it reads.
using PluginSettings = std::map<std::string, std::string>;

// A factory's answer: what it made, or why it could not (then `made` is empty and `error` is a
// sentence for the operator, shown at start and by --check).
template <class T>
struct Made {
  std::vector<std::unique_ptr<T>> made;
  std::string error;
};

struct PluginEntry {
  // kAbiVersion as the plugin saw it when built (passed on to the server as it is).
  uint32_t abi_version;
  // sizeof(PluginEntry) as the plugin saw it.
  uint32_t entry_size;
  // The plugin's name: 1 to 64 of [a-z0-9._-], starting with a letter or digit. Two plugins
  // of one name are refused. Names starting with "repo-reader" are the server's own.
  const char* name;
  // The plugin's own version, for people ("1.4.2").
  const char* version;
  // A line saying what it is, for --check and `about`.
  const char* description;
  // A bitwise or of PluginKind.
  uint32_t kinds;
  // With kSecretDetectorPlugin: the detectors. Called once, at load.
  Made<SecretDetector> (*make_secret_detectors)(const PluginSettings& settings);
  // With kHostPlugin: the host kinds it serves (one plugin may serve several). Called once.
  Made<HostPlugin> (*make_hosts)(const PluginSettings& settings);
};

// The signature of the function REPO_READER_PLUGIN exports.
using PluginEntryFunction = const PluginEntry*();

// The name the server looks for.
inline constexpr const char* kEntrySymbol = RR_PLUGIN_ENTRY_SYMBOL;

// The C++ layer over the C boundary. Everything here runs inside the plugin; every function the
// server calls is noexcept and turns an exception into an error it writes (plugin_abi.h).
namespace abi_glue {

inline std::string_view View(rr_str s) {
  return s.size ? std::string_view(s.data, s.size) : std::string_view();
}
inline rr_str Str(std::string_view s) { return rr_str{s.data(), s.size()}; }
inline void Write(const rr_text_out* out, std::string_view text) {
  if (out && out->write && !text.empty()) out->write(out->ctx, text.data(), text.size());
}
inline rr_status Fail(const rr_text_out* error, std::string_view text) {
  Write(error, text);
  return RR_FAILED;
}

// Runs `f` (answering an rr_status); what it throws becomes an error "threw: <what>".
template <class F>
rr_status Guard(const rr_text_out* error, F&& f) noexcept {
  try {
    return f();
  } catch (const std::exception& e) {
    try {
      return Fail(error, std::string("threw: ") + e.what());
    } catch (...) {
      return Fail(error, "threw");
    }
  } catch (...) {
    return Fail(error, "threw");
  }
}

inline PluginSettings Settings(const rr_setting* settings, size_t count) {
  PluginSettings out;
  for (size_t i = 0; i < count; ++i) {
    out[std::string(View(settings[i].key))] = std::string(View(settings[i].value));
  }
  return out;
}

// --- Secret detectors
class SinkOverC final : public SpanSink {
 public:
  explicit SinkOverC(const rr_span_sink* sink) : sink_(sink) {}
  void Add(size_t begin, size_t end, std::string_view what) override {
    sink_->add(sink_->ctx, begin, end, what.data(), what.size());
  }

 private:
  const rr_span_sink* sink_;
};

inline const SecretDetector* AsDetector(void* self) {
  return static_cast<const SecretDetector*>(self);
}
inline const char* DetectorId(void* self) noexcept {
  try {
    return AsDetector(self)->id();
  } catch (...) {
    return nullptr;
  }
}
inline rr_status DetectorKeywords(void* self, void* ctx,
                                  void (*keyword)(void* ctx, const char* data, size_t size),
                                  const rr_text_out* error) noexcept {
  return Guard(error, [&] {
    for (const std::string& k : AsDetector(self)->keywords()) keyword(ctx, k.data(), k.size());
    return RR_OK;
  });
}
inline rr_status DetectorScan(void* self, const rr_scan_input* in, const rr_span_sink* sink,
                              const rr_text_out* error) noexcept {
  return Guard(error, [&] {
    const ScanInput input{View(in->text), static_cast<TextKind>(in->kind), View(in->path), in->hits,
                          in->hit_count};
    SinkOverC out(sink);
    AsDetector(self)->Scan(input, out);
    return RR_OK;
  });
}
inline void DetectorDestroy(void* self) noexcept { delete AsDetector(self); }

inline constexpr rr_secret_detector_ops kDetectorOps = {sizeof(rr_secret_detector_ops), &DetectorId,
                                                        &DetectorKeywords, &DetectorScan,
                                                        &DetectorDestroy};

// --- Hosts
inline const HostPlugin* AsHost(void* self) { return static_cast<const HostPlugin*>(self); }
inline HostRepo Repo(const rr_host_repo& r) { return HostRepo{View(r.web_base), View(r.path)}; }
inline GroupQuery Query(const rr_group_query& q) {
  return GroupQuery{View(q.api_base), View(q.owner), static_cast<OwnerKind>(q.owner_kind),
                    q.per_page};
}
inline void WriteRequest(const HttpRequest& r, const rr_request_out* out) {
  out->set(out->ctx, Str(r.method), Str(r.url));
  for (const auto& [name, value] : r.headers) out->header(out->ctx, Str(name), Str(value));
}

inline const char* HostKind(void* self) noexcept {
  try {
    return AsHost(self)->kind();
  } catch (...) {
    return nullptr;
  }
}
inline rr_status HostLink(void* self, const rr_link_query* q, const rr_text_out* url,
                          const rr_text_out* error) noexcept {
  return Guard(error, [&] {
    const HostPlugin& h = *AsHost(self);
    const HostRepo repo = Repo(q->repo);
    std::string link;
    switch (q->what) {
      case RR_LINK_REPO:
        link = h.RepoLink(repo);
        break;
      case RR_LINK_FILE:
        link = h.FileLink(repo, View(q->commit), View(q->path), q->first, q->last);
        break;
      case RR_LINK_FOLDER:
        link = h.FolderLink(repo, View(q->commit), View(q->path));
        break;
      case RR_LINK_COMMIT:
        link = h.CommitLink(repo, View(q->commit));
        break;
      case RR_LINK_COMPARE:
        link = h.CompareLink(repo, View(q->base), View(q->commit));
        break;
      default:
        return Fail(error, "no such kind of link: " + std::to_string(q->what));
    }
    Write(url, link);
    return RR_OK;
  });
}
inline rr_status HostAuthHeader(void* self, const rr_text_out* name, const rr_text_out* prefix,
                                const rr_text_out* error) noexcept {
  return Guard(error, [&] {
    const AuthHeader a = AsHost(self)->auth_header();
    Write(name, a.name);
    Write(prefix, a.prefix);
    return RR_OK;
  });
}
inline rr_status HostFirstPage(void* self, const rr_group_query* q, const rr_request_out* out,
                               const rr_text_out* error) noexcept {
  return Guard(error, [&] {
    WriteRequest(AsHost(self)->FirstPage(Query(*q)), out);
    return RR_OK;
  });
}
inline rr_status HostParsePage(void* self, const rr_group_query* q, const rr_http_response* r,
                               const rr_page_out* out, const rr_text_out* error) noexcept {
  return Guard(error, [&] {
    HttpResponse response;
    response.status = r->status;
    for (size_t i = 0; i < r->header_count; ++i) {
      response.headers.emplace_back(std::string(View(r->headers[i].name)),
                                    std::string(View(r->headers[i].value)));
    }
    response.body = View(r->body);
    const GroupPage page = AsHost(self)->ParsePage(Query(*q), response);
    if (!page.error.empty()) return Fail(error, page.error);
    for (const ListedRepo& repo : page.repos) {
      const rr_listed_repo c = {Str(repo.path), Str(repo.description), Str(repo.default_branch),
                                (repo.archived ? RR_REPO_ARCHIVED : 0u) |
                                    (repo.fork ? RR_REPO_FORK : 0u) |
                                    (repo.empty ? RR_REPO_EMPTY : 0u)};
      out->repo(out->ctx, &c);
    }
    if (page.has_next) WriteRequest(page.next, &out->next);
    return RR_OK;
  });
}
inline void HostDestroy(void* self) noexcept { delete AsHost(self); }

inline constexpr rr_host_ops kHostOps = {sizeof(rr_host_ops), &HostKind,      &HostLink,
                                         &HostAuthHeader,     &HostFirstPage, &HostParsePage,
                                         &HostDestroy};

// --- The entry
template <const PluginEntry* (*F)()>
rr_status MakeDetectors(const rr_setting* settings, size_t count, const rr_detector_out* out,
                        const rr_text_out* error) noexcept {
  return Guard(error, [&] {
    Made<SecretDetector> made = F()->make_secret_detectors(Settings(settings, count));
    if (!made.error.empty()) return Fail(error, made.error);
    for (auto& d : made.made) {
      if (d) out->add(out->ctx, const_cast<SecretDetector*>(d.release()), &kDetectorOps);
    }
    return RR_OK;
  });
}

template <const PluginEntry* (*F)()>
rr_status MakeHosts(const rr_setting* settings, size_t count, const rr_host_out* out,
                    const rr_text_out* error) noexcept {
  return Guard(error, [&] {
    Made<HostPlugin> made = F()->make_hosts(Settings(settings, count));
    if (!made.error.empty()) return Fail(error, made.error);
    for (auto& h : made.made) {
      if (h) out->add(out->ctx, h.release(), &kHostOps);
    }
    return RR_OK;
  });
}

template <const PluginEntry* (*F)()>
const rr_plugin* Entry(const rr_text_out* error) noexcept {
  try {
    const PluginEntry* e = F();
    if (!e) return nullptr;
    if (e->entry_size != sizeof(PluginEntry)) {
      Fail(error, "its C++ entry is malformed (entry_size " + std::to_string(e->entry_size) +
                      ", expected " + std::to_string(sizeof(PluginEntry)) +
                      "); set it to sizeof(repo_reader::PluginEntry)");
      return nullptr;
    }
    static const rr_plugin entry = {e->abi_version,
                                    sizeof(rr_plugin),
                                    e->name,
                                    e->version,
                                    e->description,
                                    e->kinds,
                                    e->make_secret_detectors ? &MakeDetectors<F> : nullptr,
                                    e->make_hosts ? &MakeHosts<F> : nullptr};
    return &entry;
  } catch (const std::exception& x) {
    Write(error, x.what());
  } catch (...) {
    Write(error, "it threw");
  }
  return nullptr;
}

}  // namespace abi_glue
}  // namespace repo_reader

#if defined(_WIN32)
#define REPO_READER_PLUGIN_EXPORT __declspec(dllexport)
#else
#define REPO_READER_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

// Exports `function` (a PluginEntryFunction) as the plugin's entry: defines the C function
// `repo_reader_plugin_entry` (plugin_abi.h). Use once, in one source file of the plugin.
#define REPO_READER_PLUGIN(function)                                              \
  extern "C" REPO_READER_PLUGIN_EXPORT const rr_plugin* repo_reader_plugin_entry( \
      const rr_text_out* error) {                                                 \
    return ::repo_reader::abi_glue::Entry<&function>(error);                      \
  }
