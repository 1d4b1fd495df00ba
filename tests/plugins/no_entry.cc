// Test plugin `no-entry`: a shared object that exports no `repo_reader_plugin_entry` entry (its one
// function is hidden, as everything is without REPO_READER_PLUGIN).
#include "test_plugin.h"

namespace no_entry {

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry =
      test_plugin::DetectorEntry("no-entry", &test_plugin::One<test_plugin::PlantedTokenDetector>);
  return &entry;
}

}  // namespace no_entry
