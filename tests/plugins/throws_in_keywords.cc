// Test plugin `throws-in-keywords`: its detector throws when asked for its keywords.
#include <stdexcept>

#include "test_plugin.h"

namespace throws_in_keywords {

class Detector : public test_plugin::PlantedTokenDetector {
 public:
  std::vector<std::string> keywords() const override {
    throw std::runtime_error("no keywords today");
  }
};

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry =
      test_plugin::DetectorEntry("throws-in-keywords", &test_plugin::One<Detector>);
  return &entry;
}

REPO_READER_PLUGIN(Entry)

}  // namespace throws_in_keywords
