// Test plugin `reserved-name`: a good detector plugin that calls itself `repo-reader-foo`, a
// name kept for the server's own plugins.
#include "test_plugin.h"

namespace reserved_name {

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry = test_plugin::DetectorEntry(
      "repo-reader-foo", &test_plugin::One<test_plugin::PlantedTokenDetector>);
  return &entry;
}

REPO_READER_PLUGIN(Entry)

}  // namespace reserved_name
