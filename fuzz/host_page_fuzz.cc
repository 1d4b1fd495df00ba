// A host plugin's listing-page parser (HostPlugin::ParsePage), for the plugin compiled into this
// target (fuzz/CMakeLists.txt builds one target per built-in host plugin), reached through its
// exported entry as the server reaches it. Input: a byte choosing the status, a byte choosing
// the owner's kind, the Link, X-Next-Page, X-RateLimit-Remaining and Retry-After header values
// (length-prefixed), then the body. Whatever the page, ParsePage answers (it must not throw).
#include <repo_reader/sdk.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz_util.h"

extern "C" const void* repo_reader_plugin;

namespace {

const repo_reader::HostPlugin& Host() {
  static repo_reader::Made<repo_reader::HostPlugin> made = [] {
    auto entry = reinterpret_cast<repo_reader::PluginEntryFunction*>(
        reinterpret_cast<intptr_t>(repo_reader_plugin));
    return entry()->make_hosts(repo_reader::PluginSettings{});
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
