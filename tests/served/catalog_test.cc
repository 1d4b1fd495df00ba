// Catalog::Find: every repository is found by its name whatever the configuration's order, a
// name given twice finds the first in configuration order, and a name not served is an error
// that names what is served.
#include "core/served/catalog.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace rr {
namespace catalog_test {
namespace {

std::shared_ptr<const ServedRepo> Repo(const std::string& name, const std::string& path) {
  RepoSettings s;
  s.name = name;
  s.path = path;
  return std::make_shared<const ServedRepo>(std::move(s));
}

TEST(Catalog, FindsEachRepositoryByNameWhateverTheOrder) {
  std::vector<std::shared_ptr<const ServedRepo>> repos;
  // Names out of order, a prefix of another, one sorting before and after the rest.
  for (const char* name : {"web", "shop", "shop-api", "a", "zz", "Shop", "sho", "team/web"}) {
    repos.push_back(Repo(name, std::string("/srv/") + name));
  }
  for (int i = 999; i >= 0; --i) {
    repos.push_back(Repo("r" + std::to_string(i * 7919 % 1000), "/srv/r" + std::to_string(i)));
  }
  const Catalog c(repos);
  for (const auto& r : repos) {
    auto found = c.Find(r->name());
    ASSERT_TRUE(found) << r->name() << ": " << found.error();
    EXPECT_EQ((*found)->name(), r->name());
  }
  EXPECT_EQ((*c.Find("shop"))->settings().path, "/srv/shop");
  EXPECT_EQ((*c.Find("Shop"))->settings().path, "/srv/Shop");
  for (const char* absent : {"", "s", "shop-", "shop-apix", "zzz", "team", "r1000"}) {
    auto missing = c.Find(absent);
    ASSERT_FALSE(missing) << absent;
    EXPECT_EQ(missing.error().rfind("no repository named `", 0), 0u) << missing.error();
    EXPECT_NE(missing.error().find("served: web, shop, shop-api"), std::string::npos)
        << missing.error();
  }
}

TEST(Catalog, ANameGivenTwiceFindsTheFirstInConfigurationOrder) {
  std::vector<std::shared_ptr<const ServedRepo>> repos;
  repos.push_back(Repo("b", "/srv/b"));
  for (int i = 0; i < 50; ++i) repos.push_back(Repo("twice", "/srv/twice-" + std::to_string(i)));
  repos.push_back(Repo("a", "/srv/a"));
  const Catalog c(repos);
  auto found = c.Find("twice");
  ASSERT_TRUE(found) << found.error();
  EXPECT_EQ((*found)->settings().path, "/srv/twice-0");
  const Catalog empty({});
  EXPECT_FALSE(empty.Find("twice"));
}

}  // namespace
}  // namespace catalog_test
}  // namespace rr
