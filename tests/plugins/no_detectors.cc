// Test plugin `no-detectors`: says it is a secret-detector plugin, then gives no detector.
#include "test_plugin.h"

namespace no_detectors {

repo_reader::Made<repo_reader::SecretDetector> MakeDetectors(const repo_reader::PluginSettings&) {
  return {};
}

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry =
      test_plugin::DetectorEntry("no-detectors", &MakeDetectors);
  return &entry;
}

REPO_READER_PLUGIN(Entry)

}  // namespace no_detectors
