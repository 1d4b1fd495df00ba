// Test plugin `wrong-abi`: well formed, but built (it says) against the next SDK ABI version.
#include "test_plugin.h"

namespace wrong_abi {

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry = [] {
    auto e = test_plugin::DetectorEntry("wrong-abi",
                                        &test_plugin::One<test_plugin::PlantedTokenDetector>);
    e.abi_version = repo_reader::kAbiVersion + 1;
    return e;
  }();
  return &entry;
}

REPO_READER_PLUGIN(Entry)

}  // namespace wrong_abi
