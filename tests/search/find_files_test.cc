// find_files: the paths it lists are checked against git's own glob — `git ls-files` over the
// tree of the commit read, with a `:(glob)` pathspec (the same `**`; a pattern without '/' is
// git's `**/` + pattern) — for many patterns, at the default branch and at an old tag; excluded
// and credential files never listed whatever the pattern; many repositories at once with one
// that cannot be opened; paging with skip through capped answers; patterns that look like
// options; bad globs refused; the time limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"
#include "tests/tools/tool_test_support.h"

namespace rr::testing {
namespace find_files_test {
namespace {

std::string Json(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// What git lists for `pattern` in the tree of `ref`: the tree read into an index of its own,
// then `git ls-files -z` with the pattern as a `:(glob)` pathspec.
std::vector<std::string> GitFinds(const TestRepo& repo, const std::string& ref,
                                  const std::string& pattern) {
  TempDir tmp;
  auto env = repo.Env();
  env["GIT_INDEX_FILE"] = tmp / "index";
  auto read = Run({"git", "read-tree", ref}, repo.path(), env);
  EXPECT_EQ(read.status, 0) << read.err;
  std::string spec = pattern;
  if (spec.front() == '/') {
    spec.erase(0, 1);
  } else if (spec.find('/') == std::string::npos) {
    spec = "**/" + spec;
  }
  auto ls = Run({"git", "ls-files", "-z", "--", ":(glob)" + spec}, repo.path(), env);
  EXPECT_EQ(ls.status, 0) << ls.err;
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < ls.out.size()) {
    const size_t nul = ls.out.find('\0', pos);
    out.push_back(ls.out.substr(pos, nul - pos));
    pos = nul + 1;
  }
  return out;
}

// The paths an answer lists, per repository heading ("## shop · main @ …"), marks dropped.
std::map<std::string, std::vector<std::string>> Listed(const std::string& answer) {
  std::map<std::string, std::vector<std::string>> out;
  std::string current;
  const auto lines = Lines(answer);
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.rfind("## ", 0) == 0) {
      current = line.substr(3, line.find(' ', 3) - 3);
      out[current];
      continue;
    }
    if (current.empty() || line.empty() || line[0] == '[' || line == "No served file matches.") {
      continue;
    }
    std::string path = line;
    for (const std::string mark : {" (link)", " (submodule)"}) {
      if (path.size() > mark.size() &&
          path.compare(path.size() - mark.size(), mark.size(), mark) == 0) {
        path.resize(path.size() - mark.size());
      }
    }
    out[current].push_back(path);
  }
  return out;
}

std::vector<std::string> ListedIn(const std::string& answer, const std::string& repo) {
  auto all = Listed(answer);
  return all.count(repo) ? all[repo] : std::vector<std::string>{};
}

class FindFiles : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir();
    repo_ = new TestRepo(tmp_->path() + "/shop");
    TestRepo& r = *repo_;
    for (const std::string p : {"Dockerfile",
                                "Makefile",
                                "README.md",
                                "build",
                                "api/cart.proto",
                                "api/v2/order.proto",
                                "api/v2/Dockerfile",
                                "src/test_top.py",
                                "src/app.py",
                                "src/api/test_cart.py",
                                "src/api/v2/test_order.py",
                                "src/api/v2/helper.py",
                                "src/main.go",
                                "cmd/a/main.go",
                                "cmd/b/main.go",
                                "cmd/b/c/main.go",
                                "docs/index.md",
                                "docs/guide/start.md",
                                "docs/Makefile",
                                "tools/build/run.sh",
                                "tools/src",
                                "lib/a.c",
                                "lib/n.c",
                                "lib/z.c",
                                "lib/make.c",
                                "x/testdata/in.txt",
                                "x/y/testdata/deep/out.txt",
                                "a-b/file",
                                "a/file",
                                "a.b",
                                "weird[1].txt",
                                "star*name.txt"}) {
      r.Write(p, "content of " + p + "\n");
    }
    r.Commit("The tree");
    r.Git({"tag", "v1"});
    r.Git({"rm", "-q", "-r", "api", "cmd/b"});
    r.Write("api/new.proto", "syntax\n");
    r.Write("src/api/test_new.py", "x\n");
    r.Commit("Move things");
  }
  static void TearDownTestSuite() {
    delete repo_;
    delete tmp_;
  }
  static TempDir* tmp_;
  static TestRepo* repo_;
};
TempDir* FindFiles::tmp_ = nullptr;
TestRepo* FindFiles::repo_ = nullptr;

const std::vector<std::string> kPatterns = {"*.proto",
                                            "Dockerfile",
                                            "src/**/test_*.py",
                                            "**/*.py",
                                            "docs/**",
                                            "**/testdata/**",
                                            "cmd/*/main.go",
                                            "/Makefile",
                                            "Makefile",
                                            "?ake*",
                                            "[a-m]*.c",
                                            "[!a-m]*.c",
                                            "[^a-m]*.c",
                                            "**",
                                            "*",
                                            "src/**",
                                            "**/v2/*",
                                            "**/build/**",
                                            "build",
                                            "a*/file",
                                            "weird\\[1\\].txt",
                                            "star\\*name.txt",
                                            "lib/?.c",
                                            "no/such/**",
                                            "**/api/**/*.py",
                                            "src/*.py",
                                            "/*.md",
                                            "a.b",
                                            "*/*/*",
                                            "cmd/**/main.go"};

TEST_F(FindFiles, AgreesWithGitsGlobAtTheDefaultBranchAndAtAnOldTag) {
  ToolHarness h({Served("shop", repo_->path())});
  for (const std::string ref : {"", "v1"}) {
    for (const auto& p : kPatterns) {
      const std::string args = "{\"repo\":\"shop\",\"pattern\":" + Json(p) +
                               (ref.empty() ? "" : ",\"ref\":" + Json(ref)) + "}";
      auto a = h.Call("find_files", args);
      ASSERT_FALSE(a.is_error) << args << ": " << a.text;
      const auto want = GitFinds(*repo_, ref.empty() ? "main" : ref, p);
      EXPECT_EQ(ListedIn(a.text, "shop"), want) << args << "\n" << a.text;
      EXPECT_TRUE(Has(a.text, "## shop · " + (ref.empty() ? "main" : ref) + " @ " +
                                  Short(repo_->Rev(ref.empty() ? "main" : ref))))
          << a.text;
      EXPECT_TRUE(Has(a.text, ": " + Commas(want.size()) + (want.size() == 1 ? " file" : " files")))
          << a.text;
    }
  }
}

TEST_F(FindFiles, SomePatternsAsTheDocumentationSaysThem) {
  ToolHarness h({Served("shop", repo_->path())});
  auto find = [&](const std::string& p) {
    return ListedIn(h.Call("find_files", "{\"pattern\":" + Json(p) + "}").text, "shop");
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(find("src/**/test_*.py"), (V{"src/api/test_cart.py", "src/api/test_new.py",
                                         "src/api/v2/test_order.py", "src/test_top.py"}));
  EXPECT_EQ(find("Dockerfile"), (V{"Dockerfile"}));  // api/v2/Dockerfile went after v1
  EXPECT_EQ(find("/Makefile"), (V{"Makefile"}));
  EXPECT_EQ(find("Makefile"), (V{"Makefile", "docs/Makefile"}));
  // A trailing /** is the files below, never a file of that name.
  EXPECT_EQ(find("**/build/**"), (V{"tools/build/run.sh"}));
  EXPECT_EQ(find("build"), (V{"build"}));
  EXPECT_EQ(find("**/src"), (V{"tools/src"}));
}

TEST_F(FindFiles, LinksAndSubmodulesAreMarked) {
  TempDir tmp;
  TestRepo r(tmp.path() + "/r");
  r.Write("a.txt", "a\n");
  AddSymlink(r, "link.txt", "a.txt");
  AddGitlink(r, "sub.txt", r.Commit("First"));
  r.Commit("Link and submodule");
  ToolHarness h({Served("r", r.path())});
  auto a = h.Call("find_files", R"({"pattern":"*.txt"})");
  ASSERT_FALSE(a.is_error) << a.text;
  EXPECT_TRUE(Has(a.text, "\na.txt\nlink.txt (link)\nsub.txt (submodule)")) << a.text;
  EXPECT_EQ(ListedIn(a.text, "r"), GitFinds(r, "main", "*.txt"));
}

// Attack: an excluded folder and credential files that the pattern matches are never listed,
// whatever the pattern; include keeps the rest out too.
TEST(FindFilesSafety, ExcludedAndCredentialFilesAreNeverListed) {
  TempDir tmp;
  TestRepo r(tmp.path() + "/r");
  for (const std::string p :
       {"app.yaml", "README.md", ".env", "config/.env", "config/.env.production",
        "config/.env.example", "config/app.yaml", "secrets/prod.yaml", "secrets/keys/a.yaml",
        "certs/server.pem", "deploy/id_rsa", "deploy/id_rsa.pub", ".aws/credentials",
        "src/secrets/x.yaml"}) {
    r.Write(p, "x\n");
  }
  r.Commit("Everything");
  RepoConfig rc = Served("r", r.path());
  rc.exclude = {"secrets/**"};
  RepoConfig inc = Served("inc", r.path());
  inc.include = {"config/**"};
  ToolHarness h({rc});
  using V = std::vector<std::string>;
  const V served = {"README.md",       "app.yaml",          "config/.env.example",
                    "config/app.yaml", "deploy/id_rsa.pub", "src/secrets/x.yaml"};
  // git lists everything; the answer is git's list less what is not served.
  EXPECT_EQ(GitFinds(r, "main", "*").size(), 14u);
  for (const std::string p : {"*", "**", "**/*", "**/**"}) {
    auto a = h.Call("find_files", "{\"pattern\":" + Json(p) + "}");
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_EQ(ListedIn(a.text, "r"), served) << p << "\n" << a.text;
    EXPECT_TRUE(Has(a.text, " · served in part")) << a.text;
  }
  for (const std::string p : {".env", "**/.env", "*.pem", "id_rsa", "secrets/**", "secrets/*.yaml",
                              "credentials", "**/keys/*", ".aws/*"}) {
    auto a = h.Call("find_files", "{\"pattern\":" + Json(p) + "}");
    ASSERT_FALSE(a.is_error) << p << ": " << a.text;
    EXPECT_EQ(ListedIn(a.text, "r"), V{}) << p << "\n" << a.text;
    EXPECT_FALSE(GitFinds(r, "main", p).empty()) << p;  // git would have listed some
    EXPECT_TRUE(Has(a.text, "No served file matches.")) << a.text;
    EXPECT_TRUE(HasNot(a.text, "prod.yaml")) << a.text;
    EXPECT_TRUE(HasNot(a.text, "server.pem")) << a.text;
    EXPECT_TRUE(HasNot(a.text, "a.yaml")) << a.text;
  }
  auto env = h.Call("find_files", R"({"pattern":".env*"})");
  EXPECT_EQ(ListedIn(env.text, "r"), V{"config/.env.example"}) << env.text;
  auto yaml = h.Call("find_files", R"({"pattern":"*.yaml"})");
  EXPECT_EQ(ListedIn(yaml.text, "r"), (V{"app.yaml", "config/app.yaml", "src/secrets/x.yaml"}))
      << yaml.text;

  ToolHarness hi({inc});
  auto a = hi.Call("find_files", R"({"pattern":"**"})");
  EXPECT_EQ(ListedIn(a.text, "inc"), (V{"config/.env.example", "config/app.yaml"})) << a.text;
}

// A repository folder whose .git names a folder that is not there: it cannot be opened.
std::string Unopenable(const TempDir& tmp) {
  std::filesystem::create_directories(tmp / "broken");
  std::ofstream(tmp / "broken/.git") << "gitdir: ../nowhere/.git\n";
  return tmp / "broken";
}

TEST(FindFilesMany, EveryRepositoryAnswersAndOneThatCannotBeOpenedIsReportedInItsPlace) {
  TempDir tmp;
  std::vector<std::unique_ptr<TestRepo>> repos;
  std::vector<RepoConfig> config;
  for (int i = 0; i < 12; ++i) {
    const std::string name = "r" + std::to_string(i);
    repos.push_back(std::make_unique<TestRepo>(tmp / name));
    for (int j = 0; j <= i % 4; ++j) {
      repos.back()->Write("proto/m" + std::to_string(j) + "/x" + std::to_string(i) + ".proto",
                          "x\n");
    }
    repos.back()->Write("README.md", name + "\n");
    if (i == 5) repos.back()->Write("other.txt", "no proto here\n");
    repos.back()->Commit("Repository " + name);
    if (i == 5) {
      repos.back()->Git({"rm", "-q", "-r", "proto"});
      repos.back()->Commit("No proto");
    }
    config.push_back(Served(name, repos.back()->path()));
    if (i == 6) config.push_back(Served("broken", Unopenable(tmp)));
  }
  ToolHarness h(config);
  auto a = h.Call("find_files", R"({"pattern":"*.proto"})");
  ASSERT_FALSE(a.is_error) << a.text;
  const auto listed = Listed(a.text);
  size_t total = 0;
  for (int i = 0; i < 12; ++i) {
    const std::string name = "r" + std::to_string(i);
    const auto want = GitFinds(*repos[i], "main", "*.proto");
    total += want.size();
    if (want.empty()) {
      EXPECT_EQ(listed.count(name), 0u) << name << " matches nothing: no heading\n" << a.text;
    } else {
      ASSERT_EQ(listed.count(name), 1u) << name << "\n" << a.text;
      EXPECT_EQ(listed.at(name), want) << name;
    }
  }
  EXPECT_TRUE(Has(a.text,
                  "Files matching `*.proto` in 13 repositories (their default "
                  "branches): " +
                      std::to_string(total) + " files in 11 repositories"))
      << a.text;
  // In its place, between r6 and r7, and the others still answered.
  const size_t r6 = a.text.find("## r6 ");
  const size_t broken = a.text.find("## broken — not read: repository `broken` cannot be opened");
  const size_t r7 = a.text.find("## r7 ");
  EXPECT_TRUE(r6 != std::string::npos && broken != std::string::npos && r7 != std::string::npos &&
              r6 < broken && broken < r7)
      << a.text;

  // repos narrows, in the order named, a name given twice once.
  auto some = h.Call("find_files", R"({"pattern":"*.proto","repos":"r3, r1,r3"})");
  ASSERT_FALSE(some.is_error) << some.text;
  EXPECT_LT(some.text.find("## r3 "), some.text.find("## r1 ")) << some.text;
  EXPECT_EQ(Listed(some.text).size(), 2u) << some.text;
  EXPECT_TRUE(Has(some.text, "in 2 repositories")) << some.text;
  auto as_list = h.Call("find_files", R"({"pattern":"*.proto","repos":["r3","r1","r3"]})");
  ASSERT_FALSE(as_list.is_error) << as_list.text;
  EXPECT_EQ(as_list.text, some.text);

  // Only the broken one: an error saying why.
  auto only = h.Call("find_files", R"({"pattern":"*","repos":"broken"})");
  EXPECT_TRUE(only.is_error);
  EXPECT_TRUE(Has(only.text, "repository `broken` cannot be opened")) << only.text;
  auto one = h.Call("find_files", R"({"pattern":"*","repo":"broken"})");
  EXPECT_TRUE(one.is_error);
  EXPECT_TRUE(Has(one.text, "repository `broken` cannot be opened")) << one.text;

  // Arguments that cannot go together, and names that are not served.
  auto both = h.Call("find_files", R"({"pattern":"*","repo":"r1","repos":"r2"})");
  EXPECT_TRUE(both.is_error);
  EXPECT_TRUE(Has(both.text, "not both")) << both.text;
  auto ref_many = h.Call("find_files", R"({"pattern":"*","repos":"r1","ref":"main"})");
  EXPECT_TRUE(ref_many.is_error);
  EXPECT_TRUE(Has(ref_many.text, "name it with `repo`")) << ref_many.text;
  auto ref_alone = h.Call("find_files", R"({"pattern":"*","ref":"main"})");
  EXPECT_TRUE(ref_alone.is_error);
  EXPECT_TRUE(Has(ref_alone.text, "argument `repo` is needed")) << ref_alone.text;
  auto unknown = h.Call("find_files", R"({"pattern":"*","repos":"r1,nope"})");
  EXPECT_TRUE(unknown.is_error);
  EXPECT_TRUE(Has(unknown.text, "nope")) << unknown.text;
  auto none = h.Call("find_files", R"({"pattern":"*","repos":" , "})");
  EXPECT_TRUE(none.is_error);
  EXPECT_TRUE(Has(none.text, "names no repository")) << none.text;
  auto bad_ref = h.Call("find_files", R"({"pattern":"*","repo":"r1","ref":"no-such"})");
  EXPECT_TRUE(bad_ref.is_error);
  EXPECT_TRUE(Has(bad_ref.text, "`no-such`")) << bad_ref.text;
}

// Capped answers page on with the skip their note gives, through every path of every
// repository, in order: together the pages are git's lists, one after the other.
TEST(FindFilesMany, SkipPagesThroughCappedAnswers) {
  TempDir tmp;
  std::vector<std::unique_ptr<TestRepo>> repos;
  std::vector<RepoConfig> config;
  for (int i = 0; i < 3; ++i) {
    const std::string name = "p" + std::to_string(i);
    repos.push_back(std::make_unique<TestRepo>(tmp / name));
    for (int j = 0; j < 150 + 40 * i; ++j) {
      repos.back()->Write("pkg/m" + std::to_string(j % 7) + "/file_" + std::to_string(j) + ".txt",
                          "x\n");
      if (j % 10 == 0) repos.back()->Write("other/" + std::to_string(j) + ".md", "x\n");
    }
    repos.back()->Commit("Files");
    config.push_back(Served(name, repos.back()->path()));
  }
  std::vector<std::string> want;
  std::vector<size_t> sizes;
  for (const auto& r : repos) {
    const auto found = GitFinds(*r, "main", "pkg/**/*.txt");
    sizes.push_back(found.size());
    want.insert(want.end(), found.begin(), found.end());
  }
  ToolHarness h(config, 5000);
  std::vector<std::string> got;
  size_t skip = 0;
  int pages = 0;
  const std::regex next(R"(continue with skip: ([0-9,]+))");
  while (true) {
    ASSERT_LT(++pages, 100);
    auto a = h.Call("find_files",
                    "{\"pattern\":\"pkg/**/*.txt\",\"skip\":" + std::to_string(skip) + "}");
    ASSERT_FALSE(a.is_error) << a.text;
    EXPECT_LE(CodePointsOf(a.text), 5000u);
    EXPECT_TRUE(Has(a.text, Commas(want.size()) + " files in 3 repositories")) << a.text;
    if (skip > 0) {
      EXPECT_TRUE(Has(a.text, ", from file " + Commas(skip + 1) + "\n")) << a.text;
      // The repository the page starts in says from which of its own files.
      size_t before = 0, i = 0;
      while (before + sizes[i] <= skip) before += sizes[i++];
      const std::string heading = "## p" + std::to_string(i) + " · main @ ";
      const std::string count = " · " + Commas(sizes[i]) + " files";
      EXPECT_TRUE(Has(
          a.text,
          count + (skip > before ? ", from its file " + Commas(skip - before + 1) : std::string()) +
              "\n"))
          << a.text;
      EXPECT_TRUE(Has(a.text, heading)) << a.text;
    }
    for (const auto& [repo, paths] : Listed(a.text))
      got.insert(got.end(), paths.begin(), paths.end());
    std::smatch m;
    if (!std::regex_search(a.text, m, next)) break;
    std::string digits = m[1];
    digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
    const size_t n = std::stoul(digits);
    ASSERT_GT(n, skip) << a.text;
    EXPECT_EQ(got.size(), n) << "the note's skip is the number of paths shown so far";
    EXPECT_TRUE(Has(a.text, "[" + Commas(want.size() - n) + " more files not shown")) << a.text;
    skip = n;
  }
  EXPECT_GE(pages, 3);
  EXPECT_EQ(got, want);
  // Listed() keys by repository, so a page holding two repositories was read in key order:
  // p0 < p1 < p2 keeps the configuration's order too.

  auto past = h.Call("find_files",
                     "{\"pattern\":\"pkg/**/*.txt\",\"skip\":" + std::to_string(want.size()) + "}");
  EXPECT_TRUE(past.is_error);
  EXPECT_TRUE(Has(past.text, "skip " + Commas(want.size()) + " is past the end")) << past.text;
}

TEST(FindFilesPatterns, APatternThatLooksLikeAnOptionIsANameLikeAnyOther) {
  TempDir tmp;
  TestRepo r(tmp.path() + "/r");
  for (const std::string p : {"-e", "--all", "--output=x", "sub/-n", "plain.txt"}) {
    r.Write(p, "x\n");
  }
  r.Commit("Names like options");
  ToolHarness h({Served("r", r.path())});
  using V = std::vector<std::string>;
  for (const std::string p :
       {"-e", "--all", "--*", "-*", "--output=x", "--open-files-in-pager=x", "-n", "--name-only"}) {
    auto a = h.Call("find_files", "{\"pattern\":" + Json(p) + "}");
    ASSERT_FALSE(a.is_error) << p << ": " << a.text;
    EXPECT_EQ(ListedIn(a.text, "r"), GitFinds(r, "main", p)) << p << "\n" << a.text;
  }
  EXPECT_EQ(ListedIn(h.Call("find_files", R"({"pattern":"-*"})").text, "r"),
            (V{"--all", "--output=x", "-e", "sub/-n"}));
}

TEST(FindFilesPatterns, BadGlobsAreRefusedSayingHowToWriteThem) {
  TempDir tmp;
  TestRepo r(tmp.path() + "/r");
  r.Write("a.txt", "x\n");
  r.Commit("One");
  ToolHarness h({Served("r", r.path())});
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("")", "a pattern is empty"},
      {R"("/")", "names no path"},
      {R"("a//b")", "has an empty part (`//`)"},
      {R"("../x")", "has a `..` part"},
      {R"("src/./x")", "has a `.` part"},
      {R"("src/**x")", "** stands alone between slashes"},
      {R"("a**")", "** stands alone between slashes"},
      {R"("[abc")", "has a `[` with no closing `]`"},
      {R"("docs/")", "write `docs/**` for every file below a folder"},
      {R"("a\u0001b")", "holds a control character"},
  };
  for (const auto& [pattern, says] : cases) {
    auto a = h.Call("find_files", "{\"pattern\":" + pattern + "}");
    EXPECT_TRUE(a.is_error) << pattern << ": " << a.text;
    EXPECT_TRUE(Has(a.text, says)) << pattern;
  }
  auto missing = h.Call("find_files", "{}");
  EXPECT_TRUE(missing.is_error);
  EXPECT_TRUE(Has(missing.text, "pattern")) << missing.text;
}

// A call out of time before it read anything says it is partial and what it did not read.
TEST(FindFilesPatterns, PastTheTimeLimitTheAnswerSaysItIsPartial) {
  TempDir tmp;
  TestRepo r(tmp.path() + "/r");
  r.Write("a.txt", "x\n");
  r.Commit("One");
  McpServer::Options options;
  options.call_budget = std::chrono::milliseconds(0);
  ToolHarness h({Served("r", r.path()), Served("s", r.path())}, 40000, {}, options);
  auto a = h.Call("find_files", R"({"pattern":"*"})");
  EXPECT_TRUE(Has(a.text, "[partial: the call was stopped after ")) << a.text;
  EXPECT_TRUE(Has(a.text, "not searched in full: r, s]")) << a.text;
  EXPECT_TRUE(HasNot(a.text, "a.txt")) << a.text;
}

}  // namespace
}  // namespace find_files_test
}  // namespace rr::testing
