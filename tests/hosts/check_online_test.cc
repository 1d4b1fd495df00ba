// `repo-reader --check --online` reaches each group's host (here a fake of GitHub's API on
// loopback), says how many repositories each group brings, with progress on stderr, and never
// prints the token; plain `--check` does not reach a host.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/hosts/fake_host.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/text_checks.h"

namespace rr::testing {
namespace check_online_test {
namespace {

TEST(CheckOnline, ListsEachGroupAndSaysWhatItBrings) {
  int status = 200;
  FakeHost api([&](const std::string&) {
    FakeHost::Reply r;
    r.status = status;
    r.body = R"([{"full_name":"acme/shop"},{"full_name":"acme/infra"}])";
    return r;
  });
  TempDir dir;
  const std::string config = dir / "c.yaml";
  std::ofstream(config) << "mirror_folder: " << dir.path()
                        << "\ngroups:\n  - host: https://github.example\n    host_kind: github\n"
                           "    owner: acme\n    token_env: RR_TOKEN\n    api: "
                        << api.base() << "/api\n";
  const std::map<std::string, std::string> env = {{"RR_TOKEN", "tok-online-secret-7"}};

  auto offline = rr::testing::Run({RR_BINARY, "--config", config, "--check"}, dir.path(), env);
  EXPECT_EQ(offline.status, 0) << offline.out << offline.err;
  EXPECT_TRUE(Has(offline.out, "not listed: --check --online")) << offline.out;
  EXPECT_TRUE(api.seen().empty());

  auto online =
      rr::testing::Run({RR_BINARY, "--config", config, "--check", "--online"}, dir.path(), env);
  EXPECT_EQ(online.status, 0) << online.out << online.err;
  EXPECT_TRUE(Has(online.out, "github.example/acme: reached, 2 repositories to serve"))
      << online.out;
  EXPECT_TRUE(Has(online.err, "group 1 of 1, github.example/acme: page 1")) << online.err;
  EXPECT_FALSE(Has(online.out + online.err, "tok-online-secret-7"));
  ASSERT_EQ(api.seen().size(), 1u);

  status = 401;
  auto refused =
      rr::testing::Run({RR_BINARY, "--config", config, "--check", "--online"}, dir.path(), env);
  EXPECT_NE(refused.status, 0);
  EXPECT_TRUE(Has(refused.out, "the listing failed: page 1: HTTP 401")) << refused.out;
  EXPECT_FALSE(Has(refused.out + refused.err, "tok-online-secret-7"));
}

}  // namespace
}  // namespace check_online_test
}  // namespace rr::testing
