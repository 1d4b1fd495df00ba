// Arguments written to inflate an answer: every text a caller sends -- each string argument of
// every tool, each item of a list argument, an argument's name, a tool's name, a method's name, a
// skill URI -- is repeated in an answer or an error at most kEchoedCharacters characters long,
// however long it was sent, so no argument gets an answer past its cap by being echoed whole.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/util/text.h"
#include "tests/safety/hostile_kit.h"

namespace rr::testing::safety::hostile_arguments {
namespace {

// 1 MiB of one letter no answer writes a run of: an answer holding a run of it longer than an
// echo may be repeated the argument whole.
const std::string kHuge(1u << 20, 'Q');

// The longest run of 'Q' in `text`.
size_t LongestRun(const std::string& text) {
  size_t best = 0, run = 0;
  for (char c : text) {
    run = c == 'Q' ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

// A value for an argument that lets the call go as far as it can: the repository, a file of
// it, a ref of it, a pattern that matches.
std::string Plausible(const std::string& name) {
  if (name == "repo" || name == "repos") return "shop";
  if (name == "path" || name == "paths") return "README.md";
  if (name == "ref" || name == "base" || name == "commit" || name == "head" || name == "since" ||
      name == "until") {
    return "main";
  }
  return "Shop";
}

struct ShopRepo {
  TempDir tmp;
  TestRepo repo{tmp / "shop"};
  ShopRepo() {
    repo.Write("README.md", "# Shop\n\nSells things.\n");
    repo.Write("src/app.py", "print('hello')\n");
    repo.Write(".claude/skills/refund-flow/SKILL.md",
               "---\nname: refund-flow\ndescription: Refunds.\n---\nCall the refund API.\n");
    repo.Commit("Add the shop");
  }
};

TEST(HostileArguments, NoStringArgumentOfAnyToolIsEchoedWhole) {
  ShopRepo shop;
  ToolHarness h({Served("shop", shop.repo.path())});
  const auto list = h.Raw(R"({"jsonrpc":"2.0","id":900000,"method":"tools/list"})", 900000);
  ASSERT_TRUE(list && list->getObject("result"));
  const auto tools = list->getObject("result")->getArray("tools");
  ASSERT_TRUE(tools && tools->size() > 10);
  size_t calls = 0;
  for (size_t t = 0; t < tools->size(); ++t) {
    const auto tool = tools->getObject(static_cast<unsigned>(t));
    const std::string name = tool->getValue<std::string>("name");
    const auto schema = tool->getObject("inputSchema");
    const auto props = schema->getObject("properties");
    std::set<std::string> required;
    if (const auto req = schema->getArray("required")) {
      for (size_t i = 0; i < req->size(); ++i) required.insert(req->getElement<std::string>(i));
    }
    // Each string or list argument in turn holds the huge text; the required others plausible
    // values.
    for (const auto& [arg, spec_var] : *props) {
      const auto spec = spec_var.extract<Poco::JSON::Object::Ptr>();
      const std::string type = spec->getValue<std::string>("type");
      if (type != "string" && type != "array") continue;
      for (const std::string& prefix : std::vector<std::string>{"", "\x01", "src/"}) {
        std::string args = "{";
        for (const auto& [other, other_spec_var] : *props) {
          const auto other_spec = other_spec_var.extract<Poco::JSON::Object::Ptr>();
          const std::string other_type = other_spec->getValue<std::string>("type");
          std::string value;
          if (other == arg) {
            value = JsonQuote(prefix + kHuge);
          } else if (required.count(other) && other_spec->has("enum")) {
            value = JsonQuote(other_spec->getArray("enum")->getElement<std::string>(0));
          } else if (required.count(other) || other == "repo") {
            value = JsonQuote(Plausible(other));
          } else {
            continue;
          }
          if (other_type == "array") value = "[" + value + "]";
          if (other_type != "string" && other_type != "array") continue;
          args += (args.size() > 1 ? "," : "") + JsonQuote(other) + ":" + value;
        }
        args += "}";
        const auto answer = h.Call(name, args);
        ++calls;
        EXPECT_LE(LongestRun(answer.text), kEchoedCharacters)
            << name << " with " << arg << " of " << kHuge.size() << " characters (prefix "
            << DisplayName(prefix) << ") answered " << answer.text.size() << " characters:\n"
            << answer.text.substr(0, 600);
      }
    }
  }
  EXPECT_GT(calls, 40u);  // every tool's arguments were tried
}

TEST(HostileArguments, NamesOfArgumentsToolsMethodsAndSkillUrisAreNotEchoedWhole) {
  ShopRepo shop;
  ToolHarness h({Served("shop", shop.repo.path())});
  int id = 800000;
  auto raw = [&](const std::string& method, const std::string& params) {
    ++id;
    const auto r = h.Raw("{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
                             ",\"method\":" + JsonQuote(method) + ",\"params\":" + params + "}",
                         id);
    std::ostringstream text;
    if (r) r->stringify(text);
    return text.str();
  };
  const std::string q = JsonQuote(kHuge);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"tools/call", "{\"name\":\"read_file\",\"arguments\":{" + q + ":1}}"},
      {"tools/call", "{\"name\":" + q + ",\"arguments\":{}}"},
      {kHuge, "{}"},
      {"skills/get", "{\"uri\":" + JsonQuote("skill://shop/_owners/" + kHuge + "/SKILL.md") + "}"},
      {"skills/get", "{\"uri\":" + q + "}"},
      {"resources/read", "{\"uri\":" + q + "}"},
      {"resources/read",
       "{\"uri\":" + JsonQuote("skill://shop/_owners/refund-flow/" + kHuge) + "}"},
      {"initialize", "{\"protocolVersion\":" + q + "}"},
  };
  for (const auto& [method, params] : cases) {
    const std::string answer = raw(method, params);
    EXPECT_FALSE(answer.empty()) << method.substr(0, 40);
    EXPECT_LE(LongestRun(answer), kEchoedCharacters)
        << method.substr(0, 40) << " answered " << answer.size() << " characters:\n"
        << answer.substr(0, 600);
  }
}

TEST(HostileArguments, AnEchoSaysHowLongTheTextWas) {
  const std::string shown = EchoArgument(kHuge);
  EXPECT_EQ(shown, std::string(kEchoedCharacters, 'Q') + "… (1,048,576 characters)");
  EXPECT_EQ(EchoArgument("src/app.py"), "src/app.py");
  // Escapes count as the characters they stand for, and a cut never splits a character.
  const std::string cut = EchoArgument(std::string(199, 'a') + "é\x01" + std::string(10, 'b'));
  EXPECT_EQ(cut, std::string(199, 'a') + "é… (211 characters)");
  EXPECT_EQ(EchoArgument("a\x01"), "a\\x01");
  EXPECT_TRUE(Printable(EchoArgument(std::string(300, '\xff'))));
}

}  // namespace
}  // namespace rr::testing::safety::hostile_arguments
