// Test plugin `bad-span`: its detector reports a span that runs past the end of the text
// wherever its keyword "bad-span-here" occurs.
#include "test_plugin.h"

namespace bad_span {

class Detector : public repo_reader::SecretDetector {
 public:
  const char* id() const noexcept override { return "overruns"; }
  std::vector<std::string> keywords() const override { return {"bad-span-here"}; }
  void Scan(const repo_reader::ScanInput& in, repo_reader::SpanSink& sink) const override {
    for (size_t i = 0; i < in.hit_count; ++i) {
      sink.Add(in.hits[i].offset, in.text.size() + 10, "overrun");
    }
  }
};

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry =
      test_plugin::DetectorEntry("bad-span", &test_plugin::One<Detector>);
  return &entry;
}

REPO_READER_PLUGIN(Entry)

}  // namespace bad_span
