// The MCP Skills extension in-process, through the server as a transport drives it: the
// capability, skills/list's entries (each file's size and SHA-256 digest are those of exactly
// the text resources/read then serves), paging, skills/get, resources/read of what is not a
// listed file, and a moved default branch. tests/e2e/skills_client_test.cc runs the official
// client against the binary.
#include <Poco/DigestEngine.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/SHA2Engine.h>
#include <gtest/gtest.h>

#include <string>

#include "core/util/json_text.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace skills_test {
namespace {

std::string Sha256(const std::string& bytes) {
  Poco::SHA2Engine sha(Poco::SHA2Engine::SHA_256);
  sha.update(bytes);
  return "sha256:" + Poco::DigestEngine::digestToHex(sha.digest());
}

class Skills : public ::testing::Test {
 protected:
  Poco::JSON::Object::Ptr Request(ToolHarness& h, const std::string& method,
                                  const std::string& params) {
    const int id = next_++;
    return h.Raw("{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
                     ",\"method\":" + JsonQuote(method) + ",\"params\":" + params + "}",
                 id);
  }
  int next_ = 1000;
};

TEST_F(Skills, EveryListedFileIsServedWithTheSizeAndDigestOfExactlyItsBytes) {
  TempDir tmp;
  TestRepo shop(tmp / "shop");
  shop.Write(".claude/skills/refund-flow/SKILL.md",
             "---\nname: refund-flow\ndescription: Issue a refund.\n---\n"
             "Refunds go through the API; the password is hunter2hunter2.\n");
  shop.Write(".claude/skills/refund-flow/notes/API.md", "POST /refunds\r\n\xC3\xA9t\xC3\xA9\n");
  shop.Write(".claude/skills/refund-flow/latin1.txt", "caf\xE9\n");  // not UTF-8: not served
  shop.Commit("A skill");
  ToolHarness h({Served("shop", shop.path())});

  auto init = Request(
      h, "initialize",
      R"({"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}})");
  ASSERT_TRUE(init && init->has("result"));
  auto caps = init->getObject("result")->getObject("capabilities");
  EXPECT_TRUE(caps->has("resources"));
  EXPECT_TRUE(caps->getObject("extensions")->has("io.modelcontextprotocol/skills"));

  auto list = Request(h, "skills/list", "{}");
  ASSERT_TRUE(list && list->has("result")) << list;
  auto result = list->getObject("result");
  EXPECT_EQ(result->getValue<int>("ttlMs"), 60000);
  EXPECT_EQ(result->getValue<std::string>("cacheScope"), "private");
  EXPECT_FALSE(result->has("nextCursor"));
  auto skills = result->getArray("skills");
  ASSERT_EQ(skills->size(), 1u);
  auto skill = skills->getObject(0);
  EXPECT_EQ(skill->getValue<std::string>("uri"), "skill://shop/_owners/refund-flow/SKILL.md");
  EXPECT_EQ(skill->getObject("frontmatter")->getValue<std::string>("description"),
            "Issue a refund.");
  auto resources = skill->getArray("resources");
  ASSERT_EQ(resources->size(), 2u);
  for (size_t i = 0; i < resources->size(); ++i) {
    auto r = resources->getObject(static_cast<unsigned>(i));
    const std::string uri = r->getValue<std::string>("uri");
    auto read = Request(h, "resources/read", "{\"uri\":" + JsonQuote(uri) + "}");
    ASSERT_TRUE(read && read->has("result")) << uri;
    auto content = read->getObject("result")->getArray("contents")->getObject(0);
    EXPECT_EQ(content->getValue<std::string>("uri"), uri);
    const std::string text = content->getValue<std::string>("text");
    EXPECT_EQ(r->getValue<size_t>("size"), text.size()) << uri;
    EXPECT_EQ(r->getValue<std::string>("digest"), Sha256(text)) << uri;
    if (uri.find("SKILL.md") != std::string::npos) {
      EXPECT_TRUE(Has(text, "the password is [hidden: password]."));
      EXPECT_TRUE(HasNot(text, "hunter2hunter2"));
    } else {
      EXPECT_EQ(uri, "skill://shop/_owners/refund-flow/notes/API.md");
      EXPECT_EQ(text, "POST /refunds\r\n\xC3\xA9t\xC3\xA9\n");  // byte for byte
    }
  }
  auto get = Request(h, "skills/get", R"({"uri":"skill://shop/_owners/refund-flow/SKILL.md"})");
  ASSERT_TRUE(get && get->has("result"));
  EXPECT_EQ(get->getObject("result")->getObject("skill")->getValue<std::string>("uri"),
            "skill://shop/_owners/refund-flow/SKILL.md");

  // What the entry does not list is not served, nor is anything outside a skill.
  for (const char* uri :
       {"skill://shop/_owners/refund-flow/latin1.txt",
        "skill://shop/_owners/refund-flow/../../../README.md", "skill://shop/_owners/nope/SKILL.md",
        "file:///etc/passwd", "skill://nope/_owners/refund-flow/SKILL.md"}) {
    auto r = Request(h, "resources/read", "{\"uri\":" + JsonQuote(uri) + "}");
    ASSERT_TRUE(r && r->has("error")) << uri;
    EXPECT_EQ(r->getObject("error")->getValue<int>("code"), -32002) << uri;
  }
  auto unknown = Request(h, "skills/get", R"({"uri":"skill://shop/_owners/nope/SKILL.md"})");
  ASSERT_TRUE(unknown && unknown->has("error"));
  EXPECT_EQ(unknown->getObject("error")->getValue<int>("code"), -32602);
  auto templates = Request(h, "resources/templates/list", "{}");
  ASSERT_TRUE(templates && templates->has("result"));
  EXPECT_EQ(templates->getObject("result")->getArray("resourceTemplates")->size(), 0u);
}

TEST_F(Skills, AListingIsPagedByRepositoriesAndFollowsTheDefaultBranch) {
  TempDir tmp;
  TestRepo repo(tmp / "repo");
  repo.Write(".claude/skills/one/SKILL.md", "---\nname: one\ndescription: First.\n---\nx\n");
  repo.Commit("A skill");
  std::vector<RepoConfig> repos;
  for (int i = 0; i < 53; ++i) {
    repos.push_back(Served("r" + std::string(i < 10 ? "0" : "") + std::to_string(i), repo.path()));
  }
  ToolHarness h(repos);
  std::vector<std::string> uris;
  std::string cursor;
  int pages = 0;
  do {
    auto page =
        Request(h, "skills/list", cursor.empty() ? "{}" : "{\"cursor\":" + JsonQuote(cursor) + "}");
    ASSERT_TRUE(page && page->has("result"));
    auto result = page->getObject("result");
    auto skills = result->getArray("skills");
    for (size_t i = 0; i < skills->size(); ++i) {
      uris.push_back(skills->getObject(static_cast<unsigned>(i))->getValue<std::string>("uri"));
    }
    cursor = result->has("nextCursor") ? result->getValue<std::string>("nextCursor") : "";
    ++pages;
  } while (!cursor.empty() && pages < 10);
  EXPECT_EQ(pages, 2);
  ASSERT_EQ(uris.size(), 53u);
  EXPECT_EQ(uris.front(), "skill://r00/_owners/one/SKILL.md");
  EXPECT_EQ(uris.back(), "skill://r52/_owners/one/SKILL.md");
  auto bad = Request(h, "skills/list", R"({"cursor":"x"})");
  ASSERT_TRUE(bad && bad->has("error"));

  // The default branch moves: the listing and the file read follow it, and agree.
  auto before = Request(h, "skills/get", R"({"uri":"skill://r00/_owners/one/SKILL.md"})");
  repo.Write(".claude/skills/one/SKILL.md", "---\nname: one\ndescription: Second.\n---\ny\n");
  repo.Commit("Change the skill");
  auto after = Request(h, "skills/get", R"({"uri":"skill://r00/_owners/one/SKILL.md"})");
  ASSERT_TRUE(before && after && after->has("result"));
  auto entry = after->getObject("result")->getObject("skill");
  EXPECT_EQ(entry->getObject("frontmatter")->getValue<std::string>("description"), "Second.");
  auto file = entry->getArray("resources")->getObject(0);
  EXPECT_NE(file->getValue<std::string>("digest"), before->getObject("result")
                                                       ->getObject("skill")
                                                       ->getArray("resources")
                                                       ->getObject(0)
                                                       ->getValue<std::string>("digest"));
  auto read = Request(h, "resources/read", R"({"uri":"skill://r00/_owners/one/SKILL.md"})");
  ASSERT_TRUE(read && read->has("result"));
  EXPECT_EQ(Sha256(read->getObject("result")
                       ->getArray("contents")
                       ->getObject(0)
                       ->getValue<std::string>("text")),
            file->getValue<std::string>("digest"));
}

}  // namespace
}  // namespace skills_test
}  // namespace rr::testing
