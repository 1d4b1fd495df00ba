// docs/safety.md names, for each protection, the test that proves it. These tests keep the page
// honest: every test it names exists (in the file it names), and every test of the
// hostile-repository suite is named on it.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace rr::testing {
namespace safety_doc_test {
namespace {

std::string ReadSource(const std::string& rel) {
  std::ifstream in(std::string(RR_SOURCE_DIR) + "/" + rel, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every test this binary holds, as Suite.Name.
std::set<std::string> RegisteredTests() {
  std::set<std::string> out;
  const auto* unit = ::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit->total_test_suite_count(); ++i) {
    const auto* suite = unit->GetTestSuite(i);
    for (int j = 0; j < suite->total_test_count(); ++j) {
      out.insert(std::string(suite->name()) + "." + suite->GetTestInfo(j)->name());
    }
  }
  return out;
}

// `Suite.Name` references on the page (a test name is two CamelCase words joined by a dot).
std::set<std::string> NamedOnPage(const std::string& page) {
  std::set<std::string> out;
  static const std::regex name("`([A-Z][A-Za-z0-9]*\\.[A-Z][A-Za-z0-9]*)`");
  for (std::sregex_iterator it(page.begin(), page.end(), name), end; it != end; ++it) {
    out.insert((*it)[1]);
  }
  return out;
}

TEST(SafetyDoc, EveryTestNamedHereExists) {
  const std::string page = ReadSource("docs/safety.md");
  ASSERT_FALSE(page.empty()) << "docs/safety.md cannot be read";
  const auto tests = RegisteredTests();
  const auto named = NamedOnPage(page);
  EXPECT_GT(named.size(), 30u);
  for (const auto& t : named) {
    EXPECT_TRUE(tests.count(t)) << "docs/safety.md names " << t << ", which is no test";
  }
  // Where the page says which file holds a test, it is there.
  static const std::regex with_file(
      "`([A-Z][A-Za-z0-9]*)\\.([A-Z][A-Za-z0-9]*)`[\\s,]*\\(`(tests/[a-z_/]+_test\\.cc)`\\)");
  for (std::sregex_iterator it(page.begin(), page.end(), with_file), end; it != end; ++it) {
    const std::string source = ReadSource((*it)[3]);
    EXPECT_NE(source.find("(" + std::string((*it)[1]) + ", " + std::string((*it)[2]) + ")"),
              std::string::npos)
        << (*it)[1] << "." << (*it)[2] << " is not in " << (*it)[3];
  }
}

TEST(SafetyDoc, EveryHostileRepositoryTestIsNamedHere) {
  const auto named = NamedOnPage(ReadSource("docs/safety.md"));
  for (const auto& t : RegisteredTests()) {
    if (t.rfind("Hostile", 0) != 0) continue;
    EXPECT_TRUE(named.count(t)) << t << " is not named in docs/safety.md";
  }
}

}  // namespace
}  // namespace safety_doc_test
}  // namespace rr::testing
