// Repositories written by an attacker: trees. Entry names git would never write (.., ., .git,
// holding /, repeated), modes that lie about the object, a tree thousands of folders deep, a
// folder of thousands of files, names with control characters, symbolic links out of the
// repository.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/util/text.h"
#include "tests/safety/hostile_kit.h"

namespace rr::testing::safety::hostile_tree {
namespace {

namespace fs = std::filesystem;

const char kEmptyTree[] = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

// Runs git fast-import on `stream` in the repository. (fast-import writes thousands of trees
// in one process; glibc's default heap growth makes it slow on some machines, hence the pad.)
void FastImport(const TestRepo& repo, const std::string& stream) {
  auto env = repo.Env();
  env["MALLOC_TOP_PAD_"] = "268435456";
  auto r = rr::testing::Run({"git", "fast-import", "--quiet"}, repo.path(), env, stream);
  ASSERT_EQ(r.status, 0) << r.err;
}

// The line of an answer holding `what` ("" when none does).
std::string LineWith(const std::string& text, const std::string& what) {
  for (const auto& line : Lines(text)) {
    if (Has(line, what)) return line;
  }
  return "";
}

// The skip a continuation note gives ("continue with skip: 2,096"), or -1 when it gives none.
long SkipIn(const std::string& note) {
  const size_t at = note.find("skip: ");
  if (at == std::string::npos) return -1;
  std::string digits;
  for (size_t i = at + 6; i < note.size() && (isdigit(note[i]) || note[i] == ','); ++i) {
    if (note[i] != ',') digits.push_back(note[i]);
  }
  return digits.empty() ? -1 : std::stol(digits);
}

// The note says how to go on: the skip to page on, or a narrower path.
bool SaysHowToContinue(const std::string& note) {
  return SkipIn(note) > 0 || Has(note, "path: \"");
}

std::string Repeat(const std::string& s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

TEST(HostileTree, EntriesNamedDotDotDotOrDotGitOrHoldingSlashAreNeverServed) {
  TempDir tmp;
  TestRepo repo(tmp / "names");
  repo.Git({"config", "core.fsync", "none"});
  const std::string ok = repo.Blob("a plain file\n");
  const std::string evil = repo.Blob("EVIL CONTENT\n");
  const std::string config = repo.Blob("[core]\n\tfsmonitor = touch pwned\n");
  const std::string first = repo.Blob("first of two\n");
  const std::string second = repo.Blob("second of two\n");
  const std::string inner = repo.Blob("inner file\n");
  const std::string odd = repo.Blob("odd mode\n");
  repo.Git({"hash-object", "-t", "tree", "-w", "--stdin"}, "");  // the empty tree
  const std::string dotgit = repo.RawTree({{"100644", "config", config}, {"100644", "HEAD", evil}});
  const std::string sane = repo.RawTree({{"100644", "inner.txt", inner}});
  const std::string corrupt = repo.RawTree({{"100644", "", evil}});  // an empty name
  const std::string root = repo.RawTree({
      {"100644", "..", evil},
      {"100644", ".", evil},
      {"40000", ".git", dotgit},
      {"40000", ".GIT", dotgit},
      {"100644", ".Git", evil},
      {"100644", "a/b", evil},
      {"40000", "x/..", sane},
      {"100644", "dup", first},
      {"100644", "dup", second},
      {"40000", "twice", sane},
      {"100644", "twice", evil},
      {"40000", "fake-folder", evil},  // says folder, is a file's contents
      {"100644", "fake-file", sane},   // says file, is a folder
      {"120000", "fake-link", sane},
      {"40000", "empty", kEmptyTree},
      {"40000", "corrupt", corrupt},
      {"12345", "odd-mode", odd},  // a mode git never writes: read as git reads it, a file
      {"100644", "ok.txt", ok},
      {"40000", "sane", sane},
  });
  const std::string commit = repo.CommitTree(root, "Hostile tree");
  repo.Git({"update-ref", "refs/heads/main", commit});
  ToolHarness h({Served("names", repo.path())});

  auto top = h.Call("list_files", R"({"repo":"names"})");
  ASSERT_FALSE(top.is_error) << top.text;
  const auto lines = Lines(top.text);
  const std::vector<std::string> body(lines.begin() + 1, lines.end());
  EXPECT_EQ(body, (std::vector<std::string>{"twice/", "sane/", "dup", "fake-file",
                                            "fake-link (link)", "odd-mode", "ok.txt"}))
      << top.text;

  auto all = h.Call("list_files", R"({"repo":"names","recursive":true})");
  ASSERT_FALSE(all.is_error) << all.text;
  for (const char* never : {"..", ".git", ".GIT", ".Git", "a/b", "x/", "fake-folder", "empty",
                            "corrupt", "config", "HEAD"}) {
    for (const auto& line : Lines(all.text)) {
      EXPECT_NE(line.rfind(never, 0), 0u) << never << " listed:\n" << all.text;
    }
  }
  EXPECT_TRUE(Has(all.text, "\nsane/inner.txt")) << all.text;
  EXPECT_TRUE(Has(all.text, "\ntwice/inner.txt")) << all.text;

  // Paths through . .. or .git are refused before any lookup; the others are not there.
  for (const char* path : {"..", ".", ".git/config", ".GIT/config", ".Git", "sane/../ok.txt",
                           "./ok.txt", "sane/.git/config"}) {
    auto a = h.Call("read_file", R"({"repo":"names","path":")" + std::string(path) + "\"}");
    EXPECT_TRUE(a.is_error) << path << ": " << a.text;
    EXPECT_FALSE(Has(a.text, "EVIL CONTENT")) << a.text;
    EXPECT_FALSE(Has(a.text, "fsmonitor")) << a.text;
    EXPECT_TRUE(Has(a.text, "part;")) << a.text;
  }
  for (const char* path :
       {"a/b", "x/../inner.txt", "fake-folder", "empty", "corrupt", "corrupt/x"}) {
    auto a = h.Call("read_file", R"({"repo":"names","path":")" + std::string(path) + "\"}");
    EXPECT_TRUE(a.is_error) << path << ": " << a.text;
    EXPECT_FALSE(Has(a.text, "EVIL CONTENT")) << a.text;
  }
  for (const char* path : {"fake-folder", "empty", "corrupt", "a", "x"}) {
    auto a = h.Call("list_files", R"({"repo":"names","path":")" + std::string(path) + "\"}");
    EXPECT_TRUE(a.is_error) << path << ": " << a.text;
    EXPECT_TRUE(Has(a.text, "no file or folder")) << a.text;
  }

  // A name repeated in a tree: the entry read is the entry listed, the first.
  auto dup = h.Call("read_file", R"({"repo":"names","path":"dup"})");
  ASSERT_FALSE(dup.is_error) << dup.text;
  EXPECT_TRUE(Has(dup.text, "first of two")) << dup.text;
  auto odd_read = h.Call("read_file", R"({"repo":"names","path":"odd-mode"})");
  ASSERT_FALSE(odd_read.is_error) << odd_read.text;
  EXPECT_EQ(Lines(odd_read.text).back(), "1  odd mode") << odd_read.text;
  auto twice = h.Call("list_files", R"({"repo":"names","path":"twice"})");
  ASSERT_FALSE(twice.is_error) << twice.text;
  EXPECT_TRUE(Has(twice.text, "twice/inner.txt")) << twice.text;

  // A file whose object is a folder, a link whose object is a folder: refused, no crash.
  for (const char* path : {"fake-file", "fake-link"}) {
    auto a = h.Call("read_file", R"({"repo":"names","path":")" + std::string(path) + "\"}");
    EXPECT_TRUE(a.is_error) << path << ": " << a.text;
    EXPECT_FALSE(Has(a.text, "inner.txt")) << a.text;
  }
  for (const auto& c : CallEveryTool(h, "names", {"ok.txt", "sane/inner.txt"})) {
    EXPECT_FALSE(c.answer.is_error) << c.tool << " " << c.args << ": " << c.answer.text;
    EXPECT_FALSE(Has(c.answer.text, "EVIL CONTENT")) << c.answer.text;
    EXPECT_TRUE(Printable(c.answer.text));
  }
  // Blame reads a path as every tool reads it, in a tree out of git's order (ok.txt after
  // sane/, dup twice): the first entry of the name, wherever it is.
  for (const auto& [path, text] : std::vector<std::pair<std::string, std::string>>{
           {"ok.txt", "a plain file"}, {"sane/inner.txt", "inner file"}, {"dup", "first of two"}}) {
    auto b = h.Call("blame", R"({"repo":"names","path":")" + path + "\"}");
    ASSERT_FALSE(b.is_error) << path << ": " << b.text;
    EXPECT_TRUE(Has(b.text, text)) << b.text;
    EXPECT_TRUE(Has(b.text, "Hostile tree")) << b.text;
  }
}

TEST(HostileTree, TreeThreeThousandFoldersDeepIsBoundedAndCapped) {
  TempDir tmp;
  TestRepo repo(tmp / "deep");
  // d/f.txt, d/d/f.txt, … 3,000 folders deep, a file in each.
  std::string stream =
      "commit refs/heads/main\ncommitter A <a@example.com> 1767268800 +0000\n"
      "data 4\ndeep\n";
  for (size_t k = 1; k <= 3000; ++k) {
    stream += "M 100644 inline " + Repeat("d/", k) + "f.txt\ndata 6\nlevel\n";
  }
  FastImport(repo, stream + "\n");
  constexpr size_t kCap = 40000;
  ToolHarness h({Served("deep", repo.path())}, kCap);

  // Every path up to 4,096 bytes is listed: d/…/f.txt down to 2,045 folders.
  auto all = h.Call("list_files", R"({"repo":"deep","recursive":true})");
  ASSERT_FALSE(all.is_error) << all.text.substr(0, 300);
  EXPECT_LE(CodePoints(all.text), kCap);
  EXPECT_TRUE(Has(Lines(all.text)[0], "2,045 files, at any depth")) << Lines(all.text)[0];
  const std::string note = LineWith(all.text, "more files not shown");
  EXPECT_TRUE(SaysHowToContinue(note)) << all.text.substr(all.text.size() - 300);
  EXPECT_TRUE(Has(all.text, "passed over: their paths are longer than 4,096 bytes"))
      << all.text.substr(all.text.size() - 300);

  // Reading and listing deep down works to the longest path allowed, and no further.
  const std::string deepest = Repeat("d/", 2045) + "f.txt";
  ASSERT_EQ(deepest.size(), 4095u);
  auto read = h.Call("read_file", R"({"repo":"deep","path":")" + deepest + "\"}");
  ASSERT_FALSE(read.is_error) << read.text.substr(0, 300);
  EXPECT_EQ(Lines(read.text).back(), "1  level");
  auto too_long =
      h.Call("read_file", R"({"repo":"deep","path":")" + Repeat("d/", 2100) + "f.txt\"}");
  EXPECT_TRUE(too_long.is_error);
  EXPECT_TRUE(Has(too_long.text, "a path may be at most 4,096 bytes"))
      << too_long.text.substr(0, 300);
  auto folder = h.Call("list_files", R"({"repo":"deep","path":")" + Repeat("d/", 2000) + "\"}");
  ASSERT_FALSE(folder.is_error) << folder.text.substr(0, 300);
  EXPECT_TRUE(Has(Lines(folder.text)[0], "1 folder, 1 file")) << Lines(folder.text)[0];
  auto below = h.Call("list_files",
                      R"({"repo":"deep","recursive":true,"path":")" + Repeat("d/", 2000) + "\"}");
  ASSERT_FALSE(below.is_error) << below.text.substr(0, 300);
  EXPECT_TRUE(Has(Lines(below.text)[0], "46 files, at any depth")) << Lines(below.text)[0];

  // The other tools (the recursive listing from the root was called above).
  for (const auto& [tool, args] : std::vector<std::pair<std::string, std::string>>{
           {"about", "{}"},
           {"list_repos", "{}"},
           {"list_refs", R"({"repo":"deep"})"},
           {"list_files", R"({"repo":"deep"})"},
           {"read_file", R"({"repo":"deep","path":"d/f.txt"})"}}) {
    auto a = h.Call(tool, args);
    EXPECT_FALSE(a.is_error) << tool << ": " << a.text.substr(0, 300);
    EXPECT_LE(CodePoints(a.text), kCap);
  }

  // The same with include / exclude patterns, which every path is judged against.
  RepoConfig narrowed = Served("deep", repo.path());
  narrowed.include = {"d/**"};
  narrowed.exclude = {"**/secret/**", "d/d/d/x/**", "*.pem"};
  ToolHarness n({narrowed}, kCap);
  auto narrowed_all = n.Call("list_files", R"({"repo":"deep","recursive":true})");
  ASSERT_FALSE(narrowed_all.is_error) << narrowed_all.text.substr(0, 300);
  EXPECT_TRUE(Has(Lines(narrowed_all.text)[0], "2,045 files, at any depth"));
  auto narrowed_read = n.Call("read_file", R"({"repo":"deep","path":")" + deepest + "\"}");
  EXPECT_FALSE(narrowed_read.is_error) << narrowed_read.text.substr(0, 300);
}

TEST(HostileTree, FolderOfThreeThousandFilesIsCappedWithAContinuationNote) {
  TempDir tmp;
  TestRepo repo(tmp / "wide");
  std::string stream =
      "blob\nmark :1\ndata 5\nwide\n"
      "commit refs/heads/main\ncommitter A <a@example.com> 1767268800 +0000\n"
      "data 4\nwide\nM 100644 inline README.md\ndata 7\nreadme\n";
  for (int i = 0; i < 3000; ++i) {
    char name[64];
    std::snprintf(name, sizeof name, "many/file-%04d.txt", i);
    stream += "M 100644 :1 " + std::string(name) + "\n";
  }
  FastImport(repo, stream + "\n");
  constexpr size_t kCap = 40000;
  ToolHarness h({Served("wide", repo.path())}, kCap);

  auto list = h.Call("list_files", R"({"repo":"wide","path":"many"})");
  ASSERT_FALSE(list.is_error) << list.text.substr(0, 300);
  EXPECT_LE(CodePoints(list.text), kCap);
  EXPECT_GT(CodePoints(list.text), kCap / 2);
  EXPECT_TRUE(Has(Lines(list.text)[0], "0 folders, 3,000 files")) << Lines(list.text)[0];
  const size_t shown = Lines(list.text).size() - 2;  // header, note
  const std::string note = Lines(list.text).back();
  EXPECT_TRUE(Has(note, "[" + WithCommas(3000 - shown) + " more entries not shown")) << note;
  if (SkipIn(note) > 0) {
    // Paging on as the note says gives the next entries.
    EXPECT_EQ(SkipIn(note), static_cast<long>(shown)) << note;
    auto next = h.Call("list_files", R"({"repo":"wide","path":"many","skip":)" +
                                         std::to_string(SkipIn(note)) + "}");
    ASSERT_FALSE(next.is_error) << next.text.substr(0, 300);
    char first[64];
    std::snprintf(first, sizeof first, "many/file-%04zu.txt", shown);
    EXPECT_EQ(Lines(next.text)[1], first) << next.text.substr(0, 300);
  }

  auto all = h.Call("list_files", R"({"repo":"wide","recursive":true})");
  ASSERT_FALSE(all.is_error) << all.text.substr(0, 300);
  EXPECT_LE(CodePoints(all.text), kCap);
  EXPECT_TRUE(Has(Lines(all.text)[0], "3,001 files, at any depth")) << Lines(all.text)[0];
  EXPECT_TRUE(Has(Lines(all.text).back(), "more files not shown")) << Lines(all.text).back();
  EXPECT_TRUE(SaysHowToContinue(Lines(all.text).back())) << Lines(all.text).back();

  auto one = h.Call("read_file", R"({"repo":"wide","path":"many/file-2999.txt"})");
  ASSERT_FALSE(one.is_error) << one.text;
  EXPECT_EQ(Lines(one.text).back(), "1  wide");
}

TEST(HostileTree, NamesWithControlCharactersAreShownEscaped) {
  TempDir tmp;
  TestRepo repo(tmp / "ctl");
  const std::string blob = repo.Blob("plain\n");
  const std::string esc =
      repo.Blob("\x1b[2J\x1b]0;pwned\x07 cleared the screen\n" + std::string(300, '.') + "\n");
  const std::string folder = repo.RawTree({{"100644", "in\nside.txt", blob}});
  const std::string root = repo.RawTree({
      {"100644", "evil\nname.txt", blob},
      {"100644", "\x1b[31mred.txt", esc},
      {"100644", "bad\xFF.txt", blob},
      {"100644", "tab\tname.txt", blob},
      {"100644", "bell\x07.txt", blob},
      {"100644", "del\x7F.txt", blob},
      {"100644", "cr\rname.txt", blob},
      {"40000", "dir\x1b[0m", folder},
      {"100644", "plain.txt", esc},
  });
  // Written literally: git commit-tree would re-encode the byte that is not UTF-8.
  const std::string commit =
      repo.Git({"hash-object", "-t", "commit", "-w", "--literally", "--stdin"},
               "tree " + root + "\nauthor A <a@example.com> 1767268800 +0000\n" +
                   "committer A <a@example.com> 1767268800 +0000\n\n\x1b]0;pwned\x07Title "
                   "\x1b[31mred\xFF\n");
  repo.Git({"update-ref", "refs/heads/main", commit});
  ToolHarness h({Served("ctl", repo.path())});

  for (const std::string args : {R"({"repo":"ctl"})", R"({"repo":"ctl","recursive":true})"}) {
    auto list = h.Call("list_files", args);
    ASSERT_FALSE(list.is_error) << list.text;
    EXPECT_TRUE(Printable(list.text));
    EXPECT_FALSE(Has(list.text, "\t")) << list.text;
    for (const char* shown : {"evil\\nname.txt", "\\e[31mred.txt", "bad\\xFF.txt", "tab\\tname.txt",
                              "bell\\x07.txt", "del\\x7F.txt", "cr\\rname.txt", "dir\\e[0m"}) {
      EXPECT_TRUE(Has(list.text, shown)) << shown << " in:\n" << list.text;
    }
    // A newline in a name never starts a line of its own.
    for (const auto& line : Lines(list.text)) {
      EXPECT_NE(line, "name.txt") << list.text;
      EXPECT_NE(line, "side.txt") << list.text;
    }
  }
  auto deep = h.Call("list_files", R"({"repo":"ctl","recursive":true})");
  EXPECT_TRUE(Has(deep.text, "dir\\e[0m/in\\nside.txt")) << deep.text;

  // File text: escapes shown, never sent to the terminal.
  auto text = h.Call("read_file", R"({"repo":"ctl","path":"plain.txt"})");
  ASSERT_FALSE(text.is_error) << text.text;
  EXPECT_TRUE(Printable(text.text));
  EXPECT_TRUE(Has(text.text, "\\e[2J\\e]0;pwned\\x07 cleared the screen")) << text.text;

  // A path an agent writes with a control character is refused, not looked up.
  auto ctl = h.Call("read_file", R"({"repo":"ctl","path":"evil\nname.txt"})");
  EXPECT_TRUE(ctl.is_error);
  EXPECT_TRUE(Has(ctl.text, "control character")) << ctl.text;
  EXPECT_TRUE(Printable(ctl.text));

  for (const auto& c : CallEveryTool(h, "ctl", {"plain.txt"})) {
    EXPECT_FALSE(c.answer.is_error) << c.tool << " " << c.args << ": " << c.answer.text;
    EXPECT_TRUE(Printable(c.answer.text));
    EXPECT_FALSE(Has(c.answer.text, "\x1b")) << c.answer.text;
  }
  auto refs = h.Call("list_refs", R"({"repo":"ctl"})");
  EXPECT_TRUE(Has(refs.text, "\\e]0;pwned\\x07Title \\e[31mred\\xFF")) << refs.text;
  auto repos = h.Call("list_repos");
  EXPECT_TRUE(Has(repos.text, "\\e]0;pwned\\x07Title")) << repos.text;
}

TEST(HostileTree, SymbolicLinksAreAnsweredWithTheirTargetNeverItsContents) {
  TempDir tmp;
  TestRepo repo(tmp / "links");
  repo.Write(".env", "API_TOKEN=hunter2-from-the-env-file\n");
  repo.Write("docs/readme.md", "docs\n");
  repo.Write("outside-secret.txt", "unused\n");
  fs::create_symlink("/etc/passwd", repo.path() + "/passwd");
  fs::create_symlink("..", repo.path() + "/up");
  fs::create_symlink("../../../../../../../../etc/shadow", repo.path() + "/shadow");
  fs::create_symlink(".env", repo.path() + "/settings");
  fs::create_symlink("docs", repo.path() + "/docs-link");
  fs::create_symlink("loop", repo.path() + "/loop");
  fs::create_symlink("\x1b[31mred", repo.path() + "/escape");
  repo.Commit("Links");
  ToolHarness h({Served("links", repo.path())});

  auto list = h.Call("list_files", R"({"repo":"links"})");
  ASSERT_FALSE(list.is_error) << list.text;
  for (const char* link : {"passwd", "up", "shadow", "settings", "docs-link", "loop", "escape"}) {
    EXPECT_TRUE(Has(list.text, "\n" + std::string(link) + " (link)")) << list.text;
  }
  EXPECT_FALSE(Has(list.text, ".env")) << list.text;

  const std::vector<std::pair<std::string, std::string>> targets = {
      {"passwd", "/etc/passwd"},
      {"up", ".."},
      {"shadow", "../../../../../../../../etc/shadow"},
      {"settings", ".env"},
      {"docs-link", "docs"},
      {"loop", "loop"},
      {"escape", "\\e[31mred"}};
  for (const auto& [link, target] : targets) {
    auto a = h.Call("read_file", R"({"repo":"links","path":")" + link + "\"}");
    ASSERT_FALSE(a.is_error) << link << ": " << a.text;
    EXPECT_TRUE(Has(a.text, "A symbolic link to `" + target + "`. It is not followed")) << a.text;
    EXPECT_FALSE(Has(a.text, "root:")) << a.text;
    EXPECT_FALSE(Has(a.text, "hunter2")) << a.text;
    EXPECT_TRUE(Printable(a.text));
  }
  // Never followed as a folder either.
  for (const char* path : {"up/etc/passwd", "docs-link/readme.md", "up/links/.env"}) {
    auto a = h.Call("read_file", R"({"repo":"links","path":")" + std::string(path) + "\"}");
    EXPECT_TRUE(a.is_error) << path << ": " << a.text;
    EXPECT_FALSE(Has(a.text, "root:")) << a.text;
    EXPECT_FALSE(Has(a.text, "hunter2")) << a.text;
  }
  auto as_folder = h.Call("list_files", R"({"repo":"links","path":"docs-link"})");
  EXPECT_TRUE(as_folder.is_error);
  EXPECT_TRUE(Has(as_folder.text, "is a file, not a folder")) << as_folder.text;
  for (const auto& c : CallEveryTool(h, "links", {"passwd", "settings", "up"})) {
    EXPECT_FALSE(c.answer.is_error) << c.tool << " " << c.args << ": " << c.answer.text;
    EXPECT_FALSE(Has(c.answer.text, "hunter2")) << c.answer.text;
    EXPECT_FALSE(Has(c.answer.text, "root:")) << c.answer.text;
  }
}

}  // namespace
}  // namespace rr::testing::safety::hostile_tree
