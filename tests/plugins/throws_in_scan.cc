// Test plugin `throws-in-scan`: its detector throws from Scan wherever its keyword
// "explode-here" occurs (and is never called elsewhere).
#include <stdexcept>

#include "test_plugin.h"

namespace throws_in_scan {

class Detector : public repo_reader::SecretDetector {
 public:
  const char* id() const noexcept override { return "explodes"; }
  std::vector<std::string> keywords() const override { return {"explode-here"}; }
  void Scan(const repo_reader::ScanInput&, repo_reader::SpanSink&) const override {
    throw std::runtime_error("the detector broke on its keyword");
  }
};

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry =
      test_plugin::DetectorEntry("throws-in-scan", &test_plugin::One<Detector>);
  return &entry;
}

REPO_READER_PLUGIN(Entry)

}  // namespace throws_in_scan
