// Shared by the loader's test plugins (tests/plugins/*.cc other than *_test.cc): each is a real
// shared object built only against the SDK, as a third party's would be, and each misbehaves in
// exactly one way the loader or the secret filter promises to refuse or contain.
#pragma once

#include <repo_reader/sdk.h>

#include <memory>
#include <string_view>

namespace test_plugin {

using repo_reader::Made;
using repo_reader::PluginEntry;
using repo_reader::PluginSettings;
using repo_reader::SecretDetector;

using DetectorFactory = Made<SecretDetector> (*)(const PluginSettings&);

// A well-formed entry of a secret-detector plugin; a plugin changes the one field it gets wrong.
constexpr PluginEntry DetectorEntry(const char* name, DetectorFactory make) {
  return PluginEntry{repo_reader::kAbiVersion,
                     sizeof(PluginEntry),
                     name,
                     "1.0.0",
                     "a test plugin of the loader's tests",
                     repo_reader::kSecretDetectorPlugin,
                     make,
                     nullptr};
}

// A factory making one detector of type T.
template <class T>
Made<SecretDetector> One(const PluginSettings&) {
  Made<SecretDetector> made;
  made.made.push_back(std::make_unique<T>());
  return made;
}

// Hides each PLANTED-<16 lowercase hex digits> (the keyword "planted-" in any case) as
// "planted token".
class PlantedTokenDetector : public SecretDetector {
 public:
  const char* id() const noexcept override { return "planted-token"; }
  std::vector<std::string> keywords() const override { return {"planted-"}; }
  void Scan(const repo_reader::ScanInput& in, repo_reader::SpanSink& sink) const override {
    constexpr size_t kPrefix = 8, kDigits = 16;
    for (size_t i = 0; i < in.hit_count; ++i) {
      const size_t at = in.hits[i].offset;
      if (in.text.size() < at + kPrefix + kDigits) continue;
      bool hex = true;
      for (size_t k = at + kPrefix; k < at + kPrefix + kDigits; ++k) {
        const char c = in.text[k];
        hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
      }
      if (hex) sink.Add(at, at + kPrefix + kDigits, "planted token");
    }
  }
};

}  // namespace test_plugin
