// Test plugin `short-keyword`: its detector declares a one-letter keyword, which the secret
// filter cannot use (keywords are ASCII, at least 2 characters).
#include "test_plugin.h"

namespace short_keyword {

class Detector : public test_plugin::PlantedTokenDetector {
 public:
  std::vector<std::string> keywords() const override { return {"planted-", "x"}; }
};

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry =
      test_plugin::DetectorEntry("short-keyword", &test_plugin::One<Detector>);
  return &entry;
}

REPO_READER_PLUGIN(Entry)

}  // namespace short_keyword
