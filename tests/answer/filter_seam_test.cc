// The secret filter will be the pipeline's last stage. This proves the seam: every tools/call
// answer and every error an agent can get back from a tool passes through the output filters.
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include "core/tools/tool.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace filter_seam_test {
namespace {

constexpr const char* kPlanted = "AKIAPLANTEDPLANTED00";

// Replaces the planted value and signs every text it sees.
class SigningFilter : public OutputFilter {
 public:
  std::string Apply(std::string text) const override {
    size_t at;
    while ((at = text.find(kPlanted)) != std::string::npos) {
      text.replace(at, std::string(kPlanted).size(), "[hidden: test]");
    }
    return text + "\n<filtered>";
  }
};

TEST(OutputFilterSeam, EveryToolAnswerAndEveryErrorPassesThroughTheFilter) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("config/settings.yml", std::string("key: ") + kPlanted + "\n");
  repo.Write("src/" + std::string(kPlanted) + ".txt", "named after it\n");
  repo.Commit(std::string("Add ") + kPlanted);
  auto filter = std::make_shared<SigningFilter>();
  ToolHarness h({Served("shop", repo.path())}, 40000, {filter});

  const std::vector<std::pair<std::string, std::string>> calls = {
      {"about", "{}"},
      {"list_repos", "{}"},
      {"list_refs", R"({"repo":"shop"})"},
      {"list_files", R"({"repo":"shop","recursive":true})"},
      {"list_files", R"({"repo":"shop","path":"src"})"},
      {"read_file", R"({"repo":"shop","path":"config/settings.yml"})"},
      // Errors: the tool's own, argument checking, unknown repository, refused ref, unknown tool.
      {"read_file", R"({"repo":"shop","path":"src/AKIAPLANTEDPLANTED00.txt/x"})"},
      {"read_file", R"({"repo":"shop","path":"nowhere/AKIAPLANTEDPLANTED00"})"},
      {"read_file", R"({"repo":"shop","AKIAPLANTEDPLANTED00":1})"},
      {"list_files", R"({"repo":"AKIAPLANTEDPLANTED00"})"},
      {"list_refs", R"({"repo":"shop","kind":"AKIAPLANTEDPLANTED00"})"},
      {"read_file", R"({"repo":"shop","ref":"-AKIAPLANTEDPLANTED00","path":"a"})"},
      {"AKIAPLANTEDPLANTED00", "{}"},
  };
  for (const auto& [tool, args] : calls) {
    auto a = h.Call(tool, args);
    EXPECT_NE(a.text.find("<filtered>"), std::string::npos) << tool << " " << args << "\n"
                                                            << a.text;
    EXPECT_EQ(a.text.find(kPlanted), std::string::npos) << tool << " " << args << "\n" << a.text;
  }
  // Nothing the server sent for a tool call carries the planted value, in any field.
  for (const auto& m : h.Sent()) EXPECT_EQ(m.find(kPlanted), std::string::npos) << m;
  // tools/list, initialize and ping answers carry no repository data, so they need no filter.
}

}  // namespace
}  // namespace filter_seam_test
}  // namespace rr::testing
