// The built-in secret detectors (plugins/secrets), which read every file, diff and commit
// message the server shows: the input is cut into a path (its name decides the format the
// settings are read in), a kind of text and the text. Every detector is called as the server
// calls it, with its keywords' occurrences found as the server finds them (ASCII case folded,
// each occurrence, in order of offset; a keyword that is a prefix of another, both). Every span
// reported must lie inside the text and not be empty.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "plugins/secrets/detectors.h"

namespace {

class CheckedSink final : public repo_reader::SpanSink {
 public:
  explicit CheckedSink(size_t size) : size_(size) {}
  void Add(size_t begin, size_t end, std::string_view what) override {
    if (begin >= end || end > size_ || what.empty()) __builtin_trap();
  }

 private:
  size_t size_;
};

char Fold(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Each occurrence of each keyword, ASCII case folded, in order of offset.
std::vector<repo_reader::KeywordHit> Hits(std::string_view text,
                                          const std::vector<std::string>& keywords) {
  std::string folded(text);
  std::transform(folded.begin(), folded.end(), folded.begin(), Fold);
  std::vector<repo_reader::KeywordHit> hits;
  for (size_t k = 0; k < keywords.size(); ++k) {
    if (keywords[k].empty()) continue;
    for (size_t at = folded.find(keywords[k]); at != std::string::npos;
         at = folded.find(keywords[k], at + 1)) {
      repo_reader::KeywordHit hit{};
      hit.offset = at;
      hit.keyword = static_cast<uint32_t>(k);
      hits.push_back(hit);
    }
  }
  std::stable_sort(hits.begin(), hits.end(),
                   [](const auto& a, const auto& b) { return a.offset < b.offset; });
  return hits;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto detectors = [] {
    std::vector<std::unique_ptr<rr_secrets::Detector>> made;
    made.push_back(rr_secrets::MakeProviderTokens());
    made.push_back(rr_secrets::MakeSettings());
    made.push_back(rr_secrets::MakeUrlPasswords());
    made.push_back(rr_secrets::MakeCommandLine());
    made.push_back(rr_secrets::MakeProsePasswords());
    made.push_back(rr_secrets::MakeProsePasswordsIntl());
    made.push_back(rr_secrets::MakeDiscordBotTokens());
    made.push_back(rr_secrets::MakePrivateKeys());
    made.push_back(rr_secrets::MakeKeyMaterialLines());
    made.push_back(rr_secrets::MakeKubernetesSecrets());
    for (const auto& d : made) {
      if (!d->error().empty()) __builtin_trap();
    }
    return made;
  }();
  rr_fuzz::Input in(data, size);
  static const repo_reader::TextKind kKinds[] = {repo_reader::TextKind::kFile,
                                                 repo_reader::TextKind::kDiff,
                                                 repo_reader::TextKind::kCommitMessage};
  const repo_reader::TextKind kind = kKinds[in.Byte() % 3];
  const std::string path(in.Part(256));
  const std::string text(in.Rest());
  for (const auto& d : detectors) {
    const auto hits = Hits(text, d->keywords());
    repo_reader::ScanInput input{text, kind, path, hits.data(), hits.size()};
    CheckedSink sink(text.size());
    d->Scan(input, sink);
  }
  return 0;
}
