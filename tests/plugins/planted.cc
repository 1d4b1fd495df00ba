// Test plugin `planted`: a good secret-detector plugin. It hides PLANTED-<16 hex digits> (found
// by its keyword) and, with a detector that declares no keyword, every line that starts with
// SECRET-LINE. Built twice: as planted.so and, under the same plugin name, as duplicate.so.
#include "test_plugin.h"

namespace planted {

using repo_reader::ScanInput;
using repo_reader::SpanSink;

class SecretLineDetector : public repo_reader::SecretDetector {
 public:
  const char* id() const noexcept override { return "secret-line"; }
  std::vector<std::string> keywords() const override { return {}; }
  void Scan(const ScanInput& in, SpanSink& sink) const override {
    constexpr std::string_view kMark = "SECRET-LINE";
    for (size_t begin = 0; begin < in.text.size();) {
      size_t end = in.text.find('\n', begin);
      if (end == std::string_view::npos) end = in.text.size();
      if (in.text.substr(begin, end - begin).substr(0, kMark.size()) == kMark) {
        sink.Add(begin, end, "secret line");
      }
      begin = end + 1;
    }
  }
};

repo_reader::Made<repo_reader::SecretDetector> MakeDetectors(const repo_reader::PluginSettings&) {
  repo_reader::Made<repo_reader::SecretDetector> made;
  made.made.push_back(std::make_unique<test_plugin::PlantedTokenDetector>());
  made.made.push_back(std::make_unique<SecretLineDetector>());
  return made;
}

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry =
      test_plugin::DetectorEntry("planted", &MakeDetectors);
  return &entry;
}

REPO_READER_PLUGIN(Entry)

}  // namespace planted
