// DiffTrees, the policy-free comparison of two trees: the changes git's diff-tree finds, in its
// order and with its letters; a file replaced by a folder reported with that folder; and nothing
// below a folder the visitor refuses.
#include "core/git/tree_diff.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/testkit/git_fixture.h"

namespace rr::testing {
namespace tree_diff_test {
namespace {

// Records what DiffTrees reports: "M a/b", and each folder it was asked about as "> a".
class Recorder : public TreeDiffVisitor {
 public:
  explicit Recorder(std::vector<std::string> refuse = {}) : refuse_(std::move(refuse)) {}
  bool Descend(std::string_view folder, std::string_view name) override {
    const std::string path = Join(folder, name);
    seen.push_back("> " + path);
    for (const auto& r : refuse_) {
      if (r == path) return false;
    }
    return true;
  }
  bool Changed(const TreeChange& c) override {
    changes.push_back(std::string(1, ChangeLetter(c.kind)) + " " + Join(c.folder, c.name));
    if (c.folder_in_other_tree) folder_beside.push_back(Join(c.folder, c.name));
    return true;
  }
  std::vector<std::string> seen, changes, folder_beside;

 private:
  static std::string Join(std::string_view folder, std::string_view name) {
    return folder.empty() ? std::string(name) : std::string(folder) + "/" + std::string(name);
  }
  std::vector<std::string> refuse_;
};

git_oid TreeOf(GitRepo& git, const std::string& commit) {
  git_oid id;
  EXPECT_EQ(git_oid_fromstr(&id, commit.c_str()), 0);
  auto tree = git.RootTree(CommitId(id));
  EXPECT_TRUE(tree) << tree.error();
  return *git_tree_id(tree->get());
}

std::vector<std::string> GitDiffTree(const TestRepo& r, const std::string& a,
                                     const std::string& b) {
  std::vector<std::string> out;
  std::string text = r.Git({"diff-tree", "-r", "--no-renames", "--name-status", a, b});
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(pos, nl - pos);
    line[1] = ' ';  // "M\tpath" -> "M path"
    out.push_back(line);
    pos = nl + 1;
  }
  return out;
}

TEST(TreeDiff, ChangesComeInGitsOrderWithGitsLetters) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  // Names that sort differently as names and as paths: "a-b" < "a.txt" < "a/" < "a0".
  for (const std::string p :
       {"a-b", "a.txt", "a/x", "a/deep/er/y", "a0", "b/c/d", "same/s.txt", "mode.sh", "kind"}) {
    r.Write(p, p + "\n");
  }
  const std::string a = r.Commit("First");
  r.Write("a-b", "changed\n");
  std::filesystem::remove(std::filesystem::path(r.path()) / "a.txt");
  r.Write("a/y", "new\n");
  r.Write("a/deep/er/y", "changed\n");
  std::filesystem::remove(std::filesystem::path(r.path()) / "a0");
  r.Write("a0/inside", "a file became a folder\n");
  std::filesystem::remove_all(std::filesystem::path(r.path()) / "b");
  std::filesystem::permissions(std::filesystem::path(r.path()) / "mode.sh",
                               std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  std::filesystem::remove(std::filesystem::path(r.path()) / "kind");
  std::filesystem::create_symlink("a-b", std::filesystem::path(r.path()) / "kind");
  const std::string b = r.Commit("Second");

  auto git = GitRepo::Open(r.path());
  ASSERT_TRUE(git) << git.error();
  const git_oid ta = TreeOf(**git, a), tb = TreeOf(**git, b);
  Recorder rec;
  ASSERT_TRUE(DiffTrees(**git, &ta, &tb, rec, StopToken()));
  EXPECT_EQ(rec.changes, GitDiffTree(r, a, b));
  // Only folders whose ids differ are asked about: same/ is never.
  EXPECT_EQ(rec.seen,
            (std::vector<std::string>{"> a", "> a/deep", "> a/deep/er", "> a0", "> b", "> b/c"}));
  EXPECT_EQ(rec.folder_beside, (std::vector<std::string>{"a0"}));

  // Against nothing: everything added, as git shows a root commit.
  Recorder root;
  ASSERT_TRUE(DiffTrees(**git, nullptr, &ta, root, StopToken()));
  EXPECT_EQ(root.changes.size(), 9u);
  EXPECT_EQ(root.changes.front(), "A a-b");
  // And the other way round: everything deleted, the folder beside the file found again.
  Recorder back;
  ASSERT_TRUE(DiffTrees(**git, &tb, &ta, back, StopToken()));
  EXPECT_EQ(back.changes, GitDiffTree(r, b, a));
  EXPECT_EQ(back.folder_beside, (std::vector<std::string>{"a0"}));
}

TEST(TreeDiff, NothingBelowARefusedFolderIsVisited) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  r.Write("public/a.txt", "a\n");
  r.Write("secret/deep/key.txt", "k\n");
  const std::string a = r.Commit("First");
  r.Write("public/a.txt", "b\n");
  r.Write("secret/deep/key.txt", "k2\n");
  const std::string b = r.Commit("Second");
  auto git = GitRepo::Open(r.path());
  ASSERT_TRUE(git) << git.error();
  const git_oid ta = TreeOf(**git, a), tb = TreeOf(**git, b);
  Recorder rec({"secret"});
  ASSERT_TRUE(DiffTrees(**git, &ta, &tb, rec, StopToken()));
  EXPECT_EQ(rec.changes, (std::vector<std::string>{"M public/a.txt"}));
  EXPECT_EQ(rec.seen, (std::vector<std::string>{"> public", "> secret"}));
}

TEST(TreeDiff, AStoppedComparisonSaysWhy) {
  TempDir tmp;
  TestRepo r(tmp / "shop");
  for (int i = 0; i < 600; ++i) r.Write("f" + std::to_string(i), "x\n");
  const std::string a = r.Commit("First");
  auto git = GitRepo::Open(r.path());
  ASSERT_TRUE(git) << git.error();
  const git_oid ta = TreeOf(**git, a);
  auto cancelled = std::make_shared<std::atomic<bool>>(true);
  Recorder rec;
  Status st = DiffTrees(**git, nullptr, &ta, rec, StopToken(cancelled, std::chrono::hours(1)));
  EXPECT_FALSE(st);
  EXPECT_EQ(st.error(), "the call was cancelled");
  EXPECT_LT(rec.changes.size(), 600u);
}

}  // namespace
}  // namespace tree_diff_test
}  // namespace rr::testing
