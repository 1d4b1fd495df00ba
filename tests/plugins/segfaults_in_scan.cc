// Test plugin `segfaults-in-scan`: its detector makes a bad memory access (SIGSEGV) from Scan
// wherever its keyword "crash-here" occurs, as a plugin with a bad pointer would; the server's
// process ends, and its log must say which detector of which plugin was running.
#include <cstdint>

#include "test_plugin.h"

namespace segfaults_in_scan {

class Detector : public repo_reader::SecretDetector {
 public:
  const char* id() const noexcept override { return "crashes"; }
  std::vector<std::string> keywords() const override { return {"crash-here"}; }
  void Scan(const repo_reader::ScanInput&, repo_reader::SpanSink&) const override {
    // An address no process maps (the first page), read from a volatile so that the compiler
    // neither knows it nor drops the store.
    *reinterpret_cast<volatile int*>(bad_address) = 1;
  }

 private:
  static inline volatile std::uintptr_t bad_address = 8;
};

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry =
      test_plugin::DetectorEntry("segfaults-in-scan", &test_plugin::One<Detector>);
  return &entry;
}

REPO_READER_PLUGIN(Entry)

}  // namespace segfaults_in_scan
