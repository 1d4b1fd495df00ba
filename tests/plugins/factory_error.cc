// Test plugin `factory-error`: its make_secret_detectors answers an error (and, wrongly, a
// detector beside it, which must be dropped).
#include "test_plugin.h"

namespace factory_error {

repo_reader::Made<repo_reader::SecretDetector> MakeDetectors(const repo_reader::PluginSettings& s) {
  auto made = test_plugin::One<test_plugin::PlantedTokenDetector>(s);
  made.error = "the setting `region` is missing";
  return made;
}

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry =
      test_plugin::DetectorEntry("factory-error", &MakeDetectors);
  return &entry;
}

REPO_READER_PLUGIN(Entry)

}  // namespace factory_error
