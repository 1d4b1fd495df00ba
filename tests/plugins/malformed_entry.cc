// Test plugins with a malformed entry, one source built once per fault (RR_FAULT):
//   null-entry       the entry function answers nullptr
//   throws-in-entry  the entry function throws
//   wrong-size       entry_size is not sizeof(PluginEntry) (the C++ layer refuses it)
//   no-kind          kinds is 0
//   unknown-kind     kinds names a kind this SDK does not define
//   no-factory       a secret-detector plugin without make_secret_detectors
//   no-host-factory  a host plugin without make_hosts
#include <stdexcept>

#include "test_plugin.h"

#define RR_FAULT_NULL_ENTRY 1
#define RR_FAULT_THROWS_IN_ENTRY 2
#define RR_FAULT_WRONG_SIZE 3
#define RR_FAULT_NO_KIND 4
#define RR_FAULT_UNKNOWN_KIND 5
#define RR_FAULT_NO_FACTORY 6
#define RR_FAULT_NO_HOST_FACTORY 7

namespace malformed_entry {

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry = [] {
    auto e = test_plugin::DetectorEntry("malformed",
                                        &test_plugin::One<test_plugin::PlantedTokenDetector>);
#if RR_FAULT == RR_FAULT_WRONG_SIZE
    e.entry_size = sizeof(repo_reader::PluginEntry) - 8;
#elif RR_FAULT == RR_FAULT_NO_KIND
    e.kinds = 0;
#elif RR_FAULT == RR_FAULT_UNKNOWN_KIND
    e.kinds |= 1u << 7;
#elif RR_FAULT == RR_FAULT_NO_FACTORY
    e.make_secret_detectors = nullptr;
#elif RR_FAULT == RR_FAULT_NO_HOST_FACTORY
    e.kinds = repo_reader::kHostPlugin;
#endif
    return e;
  }();
#if RR_FAULT == RR_FAULT_NULL_ENTRY
  (void)entry;
  return nullptr;
#elif RR_FAULT == RR_FAULT_THROWS_IN_ENTRY
  (void)entry;
  throw std::runtime_error("the entry broke");
#else
  return &entry;
#endif
}

REPO_READER_PLUGIN(Entry)

}  // namespace malformed_entry
