// The real binary over stdio, as an agent's client runs it: a branch named like an option is
// listed and never taken as an option, and neither the environment the server was started from
// nor the machine's or user's git configuration changes what it reads or makes it run anything.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/safety/hostile_kit.h"
#include "tests/testkit/mcp_process.h"

namespace rr::testing::safety::hostile_process {
namespace {

namespace fs = std::filesystem;

std::string ConfigFor(const TempDir& tmp, const std::string& name, const std::string& path) {
  const std::string file = tmp / (name + ".yaml");
  std::ofstream(file) << "repos:\n  - name: " << name << "\n    path: " << path << "\n";
  return file;
}

TEST(HostileEndToEnd, BranchNamedLikeAnOptionIsReadNotExecuted) {
  TempDir tmp;
  TestRepo repo(tmp / "shop");
  repo.Write("app.py", "print('on main')\n");
  repo.Commit("Main");
  repo.Write("app.py", "print('on the option branch')\n");
  const std::string option = repo.Commit("Option branch");
  const std::string pwned = tmp / "pwned";
  repo.Git({"update-ref", "refs/heads/--output=x", option});
  repo.Git({"update-ref", "refs/heads/-p", option});
  repo.Git({"update-ref", "refs/heads/--output=" + pwned, option});
  repo.Git({"update-ref", "refs/heads/main", "HEAD~1"});
  repo.Git({"symbolic-ref", "HEAD", "refs/heads/--output=x"});
  fs::create_directories(tmp / "cwd");
  const std::string config = ConfigFor(tmp, "shop", repo.path());
  const auto before = Snapshot(tmp.path());

  {
    McpProcess server({RR_BINARY, "--config", config}, tmp / "cwd");
    server.Initialize();
    bool error = true;
    auto refs = server.Call("list_refs", R"({"repo":"shop"})", &error);
    EXPECT_FALSE(error) << refs;
    EXPECT_TRUE(Has(refs, "* --output=x  ")) << refs;
    EXPECT_TRUE(Has(refs, "  -p  ")) << refs;
    for (const std::string& ref :
         std::vector<std::string>{"--output=x", "-p", "--output=" + pwned}) {
      auto a = server.Call(
          "read_file", R"({"repo":"shop","path":"app.py","ref":)" + JsonQuote(ref) + "}", &error);
      EXPECT_TRUE(error) << a;
      EXPECT_TRUE(Has(a, "may not start with -")) << a;
    }
    auto by_id = server.Call("read_file",
                             R"({"repo":"shop","path":"app.py","ref":")" + option + "\"}", &error);
    EXPECT_FALSE(error) << by_id;
    EXPECT_TRUE(Has(by_id, "print('on the option branch')")) << by_id;
    auto by_default = server.Call("read_file", R"({"repo":"shop","path":"app.py"})", &error);
    EXPECT_FALSE(error) << by_default;
    EXPECT_TRUE(Has(by_default, "shop · --output=x @ ")) << by_default;
    server.CloseInput();
    EXPECT_EQ(server.Wait(), 0) << server.Stderr();
  }
  {
    // Started in the repository with no configuration, as `claude mcp add repo-reader --
    // repo-reader` runs it.
    McpProcess server({RR_BINARY}, repo.path());
    server.Initialize();
    bool error = true;
    auto files = server.Call("list_files", R"({"repo":"shop"})", &error);
    EXPECT_FALSE(error) << files;
    EXPECT_TRUE(Has(files, "shop · --output=x @ ")) << files;
    auto a = server.Call("list_files", R"({"repo":"shop","ref":"--output=x"})", &error);
    EXPECT_TRUE(error) << a;
    server.CloseInput();
    EXPECT_EQ(server.Wait(), 0) << server.Stderr();
  }
  EXPECT_FALSE(fs::exists(pwned));
  EXPECT_FALSE(fs::exists(tmp / "cwd/x"));
  EXPECT_FALSE(fs::exists(repo.path() + "/x"));
  EXPECT_EQ(Snapshot(tmp.path()), before);
}

TEST(HostileEndToEnd, EnvironmentAndMachineGitConfigurationChangeNothing) {
  TempDir tmp;
  const std::string markers = tmp / "markers";
  fs::create_directories(markers);
  const std::string program = tmp / "hostile.sh";
  WriteExecutable(program, "#!/bin/sh\n: > \"" + markers + "/$1\"\necho HOSTILE OUTPUT\n");
  TestRepo served(tmp / "served");
  served.Write("served.txt", "the configured repository\n");
  served.Commit("Served");
  TestRepo other(tmp / "other");
  other.Write("other.txt", "a repository the environment names\n");
  const std::string other_commit = other.Commit("Other");

  // The user's and the machine's git configuration: broken (libgit2 would refuse to open any
  // repository while reading it), and naming programs.
  const std::string broken = "[core\n\tfsmonitor = " + program + " fsmonitor\n[[[ not config\n";
  const std::string home = tmp / "home";
  fs::create_directories(home + "/.config/git");
  std::ofstream(home + "/.gitconfig") << broken;
  std::ofstream(home + "/.config/git/config") << broken;
  std::ofstream(tmp / "global.cfg") << broken;
  // The server's own cache (its history index) is the one thing it writes: kept outside the
  // folder checked for changes below.
  TempDir cache;
  const std::map<std::string, std::string> env = {
      {"HOME", home},
      {"XDG_CONFIG_HOME", home + "/.config"},
      {"XDG_CACHE_HOME", cache.path()},
      {"GIT_CONFIG_GLOBAL", tmp / "global.cfg"},
      {"GIT_CONFIG_SYSTEM", tmp / "global.cfg"},
      {"GIT_DIR", other.path() + "/.git"},
      {"GIT_WORK_TREE", other.path()},
      {"GIT_OBJECT_DIRECTORY", other.path() + "/.git/objects"},
      {"GIT_ALTERNATE_OBJECT_DIRECTORIES", other.path() + "/.git/objects"},
      {"GIT_NAMESPACE", "elsewhere"},
      {"GIT_CONFIG_COUNT", "1"},
      {"GIT_CONFIG_KEY_0", "core.fsmonitor"},
      {"GIT_CONFIG_VALUE_0", program + " fsmonitor-env"},
      {"GIT_CONFIG_PARAMETERS", "'diff.external'='" + program + " external-env'"},
      {"GIT_EXTERNAL_DIFF", program + " external"},
      {"GIT_PAGER", program + " pager"},
      {"GIT_SSH_COMMAND", program + " ssh"},
      {"GIT_ASKPASS", program + " askpass"},
  };
  const std::string config = ConfigFor(tmp, "served", served.path());
  const auto before = Snapshot(tmp.path());

  auto check = [&](McpProcess& server, const std::string& name) {
    server.Initialize();
    bool error = true;
    auto files =
        server.Call("list_files", R"({"repo":")" + name + R"(","recursive":true})", &error);
    EXPECT_FALSE(error) << files;
    EXPECT_TRUE(Has(files, "\nserved.txt")) << files;
    EXPECT_FALSE(Has(files, "other.txt")) << files;
    auto read =
        server.Call("read_file", R"({"repo":")" + name + R"(","path":"served.txt"})", &error);
    EXPECT_FALSE(error) << read;
    EXPECT_TRUE(Has(read, "the configured repository")) << read;
    // The other repository's objects are not reachable: neither its commit nor its file.
    auto foreign = server.Call(
        "read_file",
        R"({"repo":")" + name + R"(","path":"other.txt","ref":")" + other_commit + "\"}", &error);
    EXPECT_TRUE(error) << foreign;
    EXPECT_TRUE(Has(foreign, "is not a branch, tag or commit")) << foreign;
    for (const std::string tool : {"about", "list_repos"}) {
      auto a = server.Call(tool, "{}", &error);
      EXPECT_FALSE(error) << a;
      EXPECT_FALSE(Has(a, "cannot")) << a;
    }
    auto refs = server.Call("list_refs", R"({"repo":")" + name + "\"}", &error);
    EXPECT_FALSE(error) << refs;
    EXPECT_TRUE(Has(refs, "1 branch, 0 tags")) << refs;
    server.CloseInput();
    EXPECT_EQ(server.Wait(), 0) << server.Stderr();
  };
  {
    McpProcess server({RR_BINARY, "--config", config}, tmp.path(), env);
    check(server, "served");
  }
  {
    // Without a configuration: the repository of the folder it starts in, whatever GIT_DIR says.
    McpProcess server({RR_BINARY}, served.path(), env);
    check(server, "served");
  }
  EXPECT_TRUE(Entries(markers).empty()) << "a program ran: " << Entries(markers).front();
  EXPECT_EQ(Snapshot(tmp.path()), before);
}

}  // namespace
}  // namespace rr::testing::safety::hostile_process
