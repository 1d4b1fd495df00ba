// Shared by the text index's search tests: an organisation served twice, with the text index
// (a cache folder) and without it (every file read), to compare their answers.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/app/wiring.h"
#include "core/index/repo_text_index.h"
#include "core/search/text_search.h"
#include "tests/search/search_kit.h"

namespace rr::testing::search {

// The files in a text store's parts folder (folders' parts and bases), by name.
inline std::vector<std::string> PartFiles(const std::string& store) {
  std::vector<std::string> out;
  if (!std::filesystem::exists(store + "/parts")) return out;
  for (const auto& e : std::filesystem::directory_iterator(store + "/parts")) {
    out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class IndexedOrganisation : public ::testing::Test {
 protected:
  // Serves config_'s repositories (source "test"): scan_ reads every file, indexed_ keeps its
  // text index in a cache folder of its own (nothing is indexed yet).
  void Serve() {
    config_.source = "test";
    scan_config_ = config_;
    config_.cache_folder = tmp_ / "cache";
    std::filesystem::create_directories(config_.cache_folder);
    auto catalog = BuildCatalog(config_);
    ASSERT_TRUE(catalog) << catalog.error();
    catalog_ = catalog.take();
    indexed_ = std::make_unique<ToolHarness>(ToolHarness::FromConfig{}, config_);
    scan_ = std::make_unique<ToolHarness>(ToolHarness::FromConfig{}, scan_config_);
  }

  const ServedRepo& Repo(const std::string& name) {
    for (const auto& r : catalog_->all()) {
      if (r->name() == name) return *r;
    }
    throw std::runtime_error("no repository " + name);
  }

  // The same call with the index and reading every file: the same answer. Returns it.
  std::string Same(const std::string& tool, const std::string& args) {
    const auto with = indexed_->Call(tool, args);
    const auto without = scan_->Call(tool, args);
    EXPECT_EQ(with.is_error, without.is_error) << args;
    EXPECT_EQ(with.text, without.text) << tool << " " << args;
    return with.text;
  }

  // Every repository's default branch (its root) as a search target.
  static std::vector<SearchTarget> SearchTargetsOf(const Catalog& catalog) {
    std::vector<SearchTarget> out;
    for (const auto& repo : catalog.all()) {
      auto reader = repo->Open();
      EXPECT_TRUE(reader) << reader.error();
      if (!reader) continue;
      auto at = reader->At(std::nullopt);
      auto root = at ? reader->Find(*at, RepoPath::Root(), StopToken()) : Result<Node>(Error{""});
      EXPECT_TRUE(root) << repo->name();
      if (root) out.push_back(SearchTarget{repo.get(), *at, *root});
    }
    return out;
  }

  // The folder holding every repository's index folder (where the store's lists are).
  std::string ListsFolderOf(const std::string& name) {
    const std::string f = Repo(name).settings().index_folder.str();
    return f.substr(0, f.rfind('/'));
  }

  TempDir tmp_;
  std::vector<std::unique_ptr<TestRepo>> repos_;
  Config config_, scan_config_;
  std::shared_ptr<const Catalog> catalog_;
  std::unique_ptr<ToolHarness> indexed_, scan_;
};

}  // namespace rr::testing::search
