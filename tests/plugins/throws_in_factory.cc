// Test plugin `throws-in-factory`: its make_secret_detectors throws.
#include <stdexcept>

#include "test_plugin.h"

namespace throws_in_factory {

repo_reader::Made<repo_reader::SecretDetector> MakeDetectors(const repo_reader::PluginSettings&) {
  throw std::runtime_error("the factory broke");
}

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry =
      test_plugin::DetectorEntry("throws-in-factory", &MakeDetectors);
  return &entry;
}

REPO_READER_PLUGIN(Entry)

}  // namespace throws_in_factory
