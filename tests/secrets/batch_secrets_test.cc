// Secrets in files read several at once (read_file paths): each file is seen by the secret
// filter as a file's text of its own — its own path, its own line numbers, the lines before its
// window — as when it is read alone. A private key in the second file of a batch, even in a
// window that opens inside it, is hidden; a setting named for a secret is judged by its own
// file's format.
#include <gtest/gtest.h>

#include "tests/secrets/generated_values.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace batch_secrets_test {
namespace {

class BatchSecrets : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < 12; ++i) body_.push_back(Chars(64, kBase62 + "+/", 100 + i));
    std::string key = "-----BEGIN RSA PRIVATE KEY-----\n";
    for (const auto& b : body_) key += b + "\n";
    key += "-----END RSA PRIVATE KEY-----\n";
    repo_ = std::make_unique<TestRepo>(tmp_ / "shop");
    std::string notes;
    for (int i = 1; i <= 150; ++i) notes += "note " + std::to_string(i) + "\n";
    repo_->Write("docs/notes.md", notes);
    repo_->Write("keys/deploy_key.txt", key);
    repo_->Commit("Add a key");
    h_ = std::make_unique<ToolHarness>(std::vector<RepoConfig>{Served("shop", repo_->path())});
  }

  TempDir tmp_;
  std::unique_ptr<TestRepo> repo_;
  std::unique_ptr<ToolHarness> h_;
  std::vector<std::string> body_;
};

TEST_F(BatchSecrets, APrivateKeyInTheSecondFileIsHiddenEvenInAWindowInsideIt) {
  // Line 1 is BEGIN: windows from line 3 open inside the block. The first file's numbers are
  // three digits wide, the key's two: each file's lines are read with their own.
  for (const char* window : {R"("start_line":3,"max_lines":1)", R"("start_line":3,"max_lines":2)",
                             R"("start_line":5)", R"("start_line":1)"}) {
    SCOPED_TRACE(window);
    auto a =
        h_->Call("read_file",
                 std::string(R"({"repo":"shop","paths":["docs/notes.md","keys/deploy_key.txt"],)") +
                     window + "}");
    ASSERT_FALSE(a.is_error) << a.text;
    ASSERT_TRUE(Has(a.text, "=== keys/deploy_key.txt")) << a.text;
    for (const auto& b : body_) EXPECT_TRUE(HasNot(a.text, b.substr(0, 24))) << a.text;
    EXPECT_TRUE(Has(a.text, "[hidden: private key]"));
    EXPECT_TRUE(Has(a.text, "looks like a secret is hidden as `[hidden: …]`"));
    // The first file is shown as it is.
    EXPECT_TRUE(Has(a.text, "note "));
  }
  // The key's window alone hides it the same way: the batch shows nothing read_file would not.
  auto alone = h_->Call(
      "read_file", R"({"repo":"shop","path":"keys/deploy_key.txt","start_line":3,"max_lines":1})");
  auto batch =
      h_->Call("read_file", R"({"repo":"shop","paths":["docs/notes.md","keys/deploy_key.txt"],)"
                            R"("start_line":3,"max_lines":1})");
  const std::string key_line = Lines(alone.text)[1];
  EXPECT_TRUE(Has(batch.text, "=== keys/deploy_key.txt · lines 3–3 of 14\n" + key_line));
}

}  // namespace
}  // namespace batch_secrets_test
}  // namespace rr::testing
