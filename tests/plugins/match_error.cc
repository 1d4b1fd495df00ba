// Test plugin `match-error`: a detector built on the built-in plugin's own Detector and Pattern
// (plugins/secrets), whose pattern cannot be decided on a long text: at its keyword
// "stack-probe" it matches `(?:a(?=b)|.)*\z`, which runs PCRE2's JIT stack out on a line of
// a few hundred thousand bytes. On a short text it matches, and hides the keyword.
#include "plugins/secrets/regex.h"
#include "plugins/secrets/text_scan.h"
#include "test_plugin.h"

namespace match_error {

class Detector final : public rr_secrets::Detector {
 public:
  Detector()
      : rr_secrets::Detector("stack-hungry", {"stack-probe"}), pattern_(R"((?:a(?=b)|.)*\z)") {}

 protected:
  void Find(const rr_secrets::ScanInput& in, rr_secrets::SpanSink& sink) const override {
    for (size_t h = 0; h < in.hit_count; ++h) {
      const size_t at = in.hits[h].offset;
      rr_secrets::Pattern::Match m;
      if (pattern_.MatchAt(in.text, at, &m))
        rr_secrets::Report(sink, in.text, at, at + 11, "probe");
    }
  }

 private:
  rr_secrets::Pattern pattern_;
};

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry =
      test_plugin::DetectorEntry("match-error", &test_plugin::One<Detector>);
  return &entry;
}

REPO_READER_PLUGIN(Entry)

}  // namespace match_error
