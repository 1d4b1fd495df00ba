// Test plugin `bad-name`: a good detector plugin whose name, "Bad Name", is not a plugin name.
#include "test_plugin.h"

namespace bad_name {

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry =
      test_plugin::DetectorEntry("Bad Name", &test_plugin::One<test_plugin::PlantedTokenDetector>);
  return &entry;
}

REPO_READER_PLUGIN(Entry)

}  // namespace bad_name
