// A host plugin's listing-page parser (HostPlugin::ParsePage), for the plugin compiled into this
// target (fuzz/CMakeLists.txt builds one target per built-in host plugin), reached through its
// exported C entry and the SDK's host side (repo_reader/plugin_host.h) as the server reaches it.
// Input: a byte choosing the status, a byte choosing the owner's kind, the Link, X-Next-Page,
// X-RateLimit-Remaining and Retry-After header values (length-prefixed), then the body. Whatever
// the page, ParsePage answers (it must not throw).
#include <repo_reader/plugin_host.h>
#include <repo_reader/sdk.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz_util.h"

extern "C" const rr_plugin* repo_reader_plugin_entry(const rr_text_out* error);

namespace {

const repo_reader::HostPlugin& Host() {
  static repo_reader::host::Hosted<repo_reader::host::HostedHost> made = [] {
    const rr_plugin* entry = repo_reader_plugin_entry(nullptr);
    if (!entry || !entry->make_hosts) std::abort();
    // Compiled into this program: no library to keep loaded.
    return repo_reader::host::MakeHosts(*entry, repo_reader::PluginSettings{}, nullptr);
  }();
  if (made.made.empty()) std::abort();
  return *made.made.front();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rr_fuzz::Input in(data, size);
  static const int kStatus[] = {200, 200, 200, 200, 401, 403, 404, 429, 500, 0};
  repo_reader::HttpResponse response;
  response.status = kStatus[in.Byte() % (sizeof kStatus / sizeof kStatus[0])];
  repo_reader::GroupQuery q{
      "https://api.example.test", "acme/sub",
      in.Byte() & 1 ? repo_reader::OwnerKind::kUser : repo_reader::OwnerKind::kOrganisation, 100};
  for (const char* name : {"Link", "X-Next-Page", "X-RateLimit-Remaining", "Retry-After"}) {
    const std::string_view v = in.Part(4096);
    if (!v.empty()) response.headers.emplace_back(name, std::string(v));
  }
  const std::string body(in.Rest());
  response.body = body;
  const repo_reader::GroupPage page = Host().ParsePage(q, response);
  if (!page.error.empty() && !page.repos.empty()) std::abort();
  if (page.has_next && page.next.url.empty()) std::abort();
  return 0;
}
