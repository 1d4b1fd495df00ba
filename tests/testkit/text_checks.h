// Test kit: checks on an answer's text that say, when they fail, what was looked for and in what.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace rr::testing {

// `text` holds `part` somewhere.
inline ::testing::AssertionResult Has(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected to find\n  " << part << "\nin\n" << text;
}

// `text` holds `part` nowhere.
inline ::testing::AssertionResult HasNot(const std::string& text, const std::string& part) {
  if (text.find(part) == std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "did not expect\n  " << part << "\nin\n" << text;
}

}  // namespace rr::testing
