// The built-in secret plugin as the detector tests load it, and the checks they make of what it
// hides (tests/secrets/typed_by_hand_test.cc, real_code_test.cc, public_formats_test.cc).
#pragma once

#include <gtest/gtest.h>
#include <repo_reader/testkit.h>

#include <string>
#include <string_view>

namespace rr::testing {

inline const repo_reader::testkit::LoadedPlugin& BuiltinSecrets() {
  static const repo_reader::testkit::LoadedPlugin plugin(std::string(RR_PLUGIN_DIR) +
                                                         "/repo-reader-secrets.so");
  return plugin;
}

// `text` scanned as the file `path` (or as another kind of text); a detector's failure fails the
// test.
inline repo_reader::testkit::Scanned ScanAs(
    const std::string& text, std::string_view path,
    repo_reader::TextKind kind = repo_reader::TextKind::kFile) {
  repo_reader::testkit::Scanned s = BuiltinSecrets().Scan(text, kind, path);
  EXPECT_TRUE(s.error.empty()) << s.error;
  return s;
}

// Every byte of `value` is hidden by one span.
inline ::testing::AssertionResult HidesWhole(
    const std::string& text, const std::string& value, std::string_view path,
    repo_reader::TextKind kind = repo_reader::TextKind::kFile) {
  const auto s = ScanAs(text, path, kind);
  const size_t at = text.find(value);
  if (at == std::string::npos) return ::testing::AssertionFailure() << "value not in the text";
  for (const auto& span : s.spans) {
    if (span.begin <= at && span.end >= at + value.size()) return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "`" << value << "` is not hidden whole in:\n"
                                       << s.redacted;
}

inline ::testing::AssertionResult HidesNone(
    const std::string& text, std::string_view path,
    repo_reader::TextKind kind = repo_reader::TextKind::kFile) {
  const auto s = ScanAs(text, path, kind);
  if (s.spans.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "hidden where nothing should be:\n" << s.redacted;
}

}  // namespace rr::testing
