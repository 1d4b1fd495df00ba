// acme-tokens: a repo-reader secret-detector plugin for Acme Corp's API tokens.
//
// An Acme token is `acme_live_` or `acme_test_`, then 32 base62 characters (0-9, A-Z, a-z):
// 28 random ones and a 4-character checksum. The checksum is FNV-1a (32 bits) over everything
// before it, prefix included, taken modulo 62^4 and written as 4 base62 digits, most
// significant first. Only a token whose checksum holds is hidden: placeholders
// (acme_live_xxxx…) and made-up strings are left as they are, so an agent still sees them.
//
// Settings (under the plugin's entry in the server's configuration):
//   test_tokens: hide (default) | show   whether acme_test_ tokens are hidden too
#include <repo_reader/sdk.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace acme {
namespace {

constexpr std::string_view kLive = "acme_live_";
constexpr std::string_view kTest = "acme_test_";
constexpr size_t kPrefixSize = 10;  // both prefixes
constexpr size_t kBodySize = 28;
constexpr size_t kCheckSize = 4;
constexpr size_t kTokenSize = kPrefixSize + kBodySize + kCheckSize;

constexpr std::string_view kBase62 =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

bool IsBase62(char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

// The checksum of `signed_part` (prefix and body) as Acme writes it.
std::string Checksum(std::string_view signed_part) {
  uint32_t h = 2166136261u;
  for (char c : signed_part) {
    h ^= static_cast<unsigned char>(c);
    h *= 16777619u;
  }
  uint32_t v = h % (62u * 62u * 62u * 62u);
  std::string out(kCheckSize, '0');
  for (size_t i = kCheckSize; i-- > 0;) {
    out[i] = kBase62[v % 62];
    v /= 62;
  }
  return out;
}

// Whether a well-formed token with a valid checksum starts at `at` (a keyword hit).
bool TokenAt(std::string_view text, size_t at, bool test_tokens) {
  if (text.size() - at < kTokenSize) return false;
  const std::string_view prefix = text.substr(at, kPrefixSize);
  if (prefix != kLive && !(test_tokens && prefix == kTest)) return false;
  // A token stands alone: no letter or digit right before or after it.
  if (at > 0 && IsBase62(text[at - 1])) return false;
  if (at + kTokenSize < text.size() && IsBase62(text[at + kTokenSize])) return false;
  for (size_t i = at + kPrefixSize; i < at + kTokenSize; ++i) {
    if (!IsBase62(text[i])) return false;
  }
  const size_t check_at = at + kPrefixSize + kBodySize;
  return Checksum(text.substr(at, kPrefixSize + kBodySize)) == text.substr(check_at, kCheckSize);
}

class AcmeTokenDetector final : public repo_reader::SecretDetector {
 public:
  explicit AcmeTokenDetector(bool test_tokens) : test_tokens_(test_tokens) {}

  const char* id() const noexcept override { return "acme-token"; }

  // Both prefixes start with it; the server calls Scan only where it occurs (in any case).
  std::vector<std::string> keywords() const override { return {"acme_"}; }

  // Immutable and allocation-free: safe on many threads at once, and nothing here throws.
  void Scan(const repo_reader::ScanInput& input, repo_reader::SpanSink& sink) const override {
    for (size_t i = 0; i < input.hit_count; ++i) {
      const size_t at = input.hits[i].offset;
      if (TokenAt(input.text, at, test_tokens_)) sink.Add(at, at + kTokenSize, "Acme token");
    }
  }

 private:
  const bool test_tokens_;
};

// Called once, at load. Answers the operator's mistakes as errors, and lets nothing escape.
repo_reader::Made<repo_reader::SecretDetector> MakeDetectors(
    const repo_reader::PluginSettings& settings) {
  repo_reader::Made<repo_reader::SecretDetector> out;
  try {
    bool test_tokens = true;
    for (const auto& [key, value] : settings) {
      if (key != "test_tokens") {
        out.error = "unknown setting `" + key + "`; acme-tokens reads only test_tokens";
        return out;
      }
      if (value != "hide" && value != "show") {
        out.error = "test_tokens is `hide` or `show`, not `" + value + "`";
        return out;
      }
      test_tokens = value == "hide";
    }
    out.made.push_back(std::make_unique<AcmeTokenDetector>(test_tokens));
  } catch (const std::exception& e) {
    out.made.clear();
    out.error = std::string("cannot start: ") + e.what();
  }
  return out;
}

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry = {
      repo_reader::kAbiVersion,
      sizeof(repo_reader::PluginEntry),
      "acme-tokens",
      "1.0.0",
      "hides Acme Corp API tokens (acme_live_..., acme_test_...)",
      repo_reader::kSecretDetectorPlugin,
      &MakeDetectors,
      nullptr,
  };
  return &entry;
}

}  // namespace
}  // namespace acme

REPO_READER_PLUGIN(acme::Entry)
