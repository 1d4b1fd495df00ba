// The configuration's meaning: a YAML text read by ParseConfig as the server reads its file —
// every section's reader (repos, mirrors, groups, http, plugins, guidance, limits), the path
// prober on the paths it names (relative to a scratch folder, where nothing exists unless the
// text names the folder itself), and every check that refuses a value. Checked besides not
// crashing: an error is a list of problems, each naming the file, and its size stays linear in
// the text (an alias names its anchor's node, never a copy), and nothing is written.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/config/config.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string& base = rr_fuzz::ScratchDir();
  const auto config = rr::ParseConfig(text, "fuzz.yaml", base);
  if (!config) {
    const std::string& error = config.error();
    if (error.empty()) std::abort();
    if (error.rfind("fuzz.yaml", 0) != 0) std::abort();  // every problem names the file
    if (error.size() > 4096 + 64 * text.size()) std::abort();
  }
  return 0;
}
