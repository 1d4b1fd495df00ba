// What the secret filter finds in a whole blob, kept by the blob's id (core/secrets/scan_cache.h):
// a file read again, in any window, is not scanned again — and what was kept is used only for
// the same bytes read by the same detectors. Attacks: the same path holding other bytes at
// another ref, the same id given other bytes, another filter (a plugin reloaded), a scan that
// failed; and a window on a blob already scanned still hides a value recognised from the line
// above it.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/answer/pipeline.h"
#include "core/secrets/scan_cache.h"
#include "core/tools/file_lines.h"
#include "tests/secrets/generated_values.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace blob_scan_test {
namespace {

using repo_reader::ScanInput;
using repo_reader::SecretDetector;
using repo_reader::SpanSink;

bool Word(char c) { return isalnum(static_cast<unsigned char>(c)) != 0; }

// Hides "tok_" and the letters and digits after it, and the text of the line under a line
// ending "secret: >-" (recognised from the line above only). Counts the texts it reads, and
// throws while *fail is set.
class Counting : public SecretDetector {
 public:
  Counting(std::atomic<int>* calls, const std::atomic<bool>* fail, std::string prefix = "tok_")
      : calls_(calls), fail_(fail), prefix_(std::move(prefix)) {}
  const char* id() const noexcept override { return "counting"; }
  std::vector<std::string> keywords() const override { return {prefix_, "secret: >-"}; }
  void Scan(const ScanInput& in, SpanSink& sink) const override {
    ++*calls_;
    if (fail_ && *fail_) throw std::runtime_error("no");
    for (size_t i = 0; i < in.hit_count; ++i) {
      const size_t at = in.hits[i].offset;
      if (in.hits[i].keyword == 0) {
        size_t end = at + prefix_.size();
        while (end < in.text.size() && Word(in.text[end])) ++end;
        if (end > at + prefix_.size()) sink.Add(at, end, "test token");
        continue;
      }
      size_t from = in.text.find('\n', at);
      if (from == std::string_view::npos) continue;
      ++from;
      while (from < in.text.size() && in.text[from] == ' ') ++from;
      size_t end = in.text.find('\n', from);
      if (end == std::string_view::npos) end = in.text.size();
      if (end > from) sink.Add(from, end, "block value");
    }
  }

 private:
  std::atomic<int>* calls_;
  const std::atomic<bool>* fail_;
  std::string prefix_;
};

std::shared_ptr<const SecretFilter> Filter(std::vector<std::shared_ptr<SecretDetector>> ds) {
  std::vector<SecretFilter::Detector> list;
  for (auto& d : ds) list.push_back({std::move(d), "test"});
  std::string error;
  auto f = SecretFilter::Make(std::move(list), &error);
  EXPECT_TRUE(f) << error;
  return f;
}

// A file of 200 lines: line 100 is "  secret: >-", line 101 the value under it, line 150 a token.
std::string Blob(const std::string& value, size_t value_line = 101) {
  std::string s;
  for (size_t n = 1; n <= 200; ++n) {
    if (n == value_line - 1) {
      s += "  secret: >-\n";
    } else if (n == value_line) {
      s += "    " + value + "\n";
    } else if (n == 150) {
      s += "token: tok_" + Chars(20, kBase62, 7) + "\n";
    } else {
      s += "line " + std::to_string(n) + ": nothing here\n";
    }
  }
  return s;
}

// Lines [start, start + count) of `bytes` (from 1) as read_file drafts them, the block's source
// being the whole blob `id`.
Draft Window(const std::string& id, const std::string& bytes, size_t start, size_t count) {
  Draft d;
  d.header = "shop · main @ 0123456789ab (2026-03-01) · config/app.yaml";
  FileLineReader reader(bytes);
  const size_t total = reader.Count();
  const size_t width = std::to_string(total).size();
  for (size_t i = 0; i + 1 < start; ++i) reader.Next();
  StartFileLines("config/app.yaml", width, &d);
  const size_t begin = reader.pos();
  for (size_t i = start; i < start + count && i <= total; ++i) {
    AppendFileLine(reader.Next(), i, width, &d);
  }
  EndFileLines(bytes, begin, reader.pos(), 0, &d, id, start - 1);
  return d;
}

const std::string kValue = "Zq" + Chars(22, kBase62, 11);

TEST(BlobScan, ASecondReadOfTheSameBlobInAnyWindowIsNotScannedAgain) {
  std::atomic<int> calls{0};
  auto f = Filter({std::make_shared<Counting>(&calls, nullptr)});
  AnswerPipeline p(100000, {}, f);
  const std::string bytes = Blob(kValue);
  const std::string whole = p.Finish(Window("a1", bytes, 1, 200));
  EXPECT_EQ(whole.find(kValue), std::string::npos) << whole;
  EXPECT_NE(whole.find("101      [hidden: block value]"), std::string::npos) << whole;
  EXPECT_EQ(calls.load(), 1);
  // A window beginning on the value's line: the line above is not shown, and not read again.
  const std::string window = p.Finish(Window("a1", bytes, 101, 3));
  EXPECT_EQ(window.find(kValue), std::string::npos) << window;
  EXPECT_NE(window.find("101      [hidden: block value]\n"), std::string::npos) << window;
  EXPECT_NE(window.find(HiddenNote(1)), std::string::npos) << window;
  // A window with nothing to hide says nothing hidden; one with the token hides it.
  const std::string plain = p.Finish(Window("a1", bytes, 10, 5));
  EXPECT_EQ(plain.find("hidden"), std::string::npos) << plain;
  const std::string token = p.Finish(Window("a1", bytes, 150, 1));
  EXPECT_NE(token.find("150  token: [hidden: test token]"), std::string::npos) << token;
  EXPECT_EQ(calls.load(), 1);
  const ScanCache::Stats s = f->blob_scans().stats();
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.hits, 3u);
  EXPECT_EQ(s.entries, 1u);
}

TEST(BlobScan, TheSameIdWithOtherBytesIsScannedOnItsOwn) {
  std::atomic<int> calls{0};
  auto f = Filter({std::make_shared<Counting>(&calls, nullptr)});
  AnswerPipeline p(100000, {}, f);
  const std::string first = p.Finish(Window("same", Blob(kValue), 1, 200));
  EXPECT_EQ(first.find(kValue), std::string::npos) << first;
  // Bytes of the same size under the same id, the value two lines lower: what the first scan
  // found must not stand for them.
  const std::string other = Blob(kValue, 103);
  ASSERT_EQ(other.size(), Blob(kValue).size());
  const std::string second = p.Finish(Window("same", other, 100, 10));
  EXPECT_EQ(second.find(kValue), std::string::npos) << second;
  EXPECT_EQ(calls.load(), 2);
}

TEST(BlobScan, AnotherFilterNeverUsesWhatOneFound) {
  // A plugin reloaded, or detectors added, make another filter: it reads the blob itself.
  std::atomic<int> a_calls{0}, b_calls{0};
  auto a = Filter({std::make_shared<Counting>(&a_calls, nullptr)});
  auto b = Filter({std::make_shared<Counting>(&b_calls, nullptr),
                   std::make_shared<Counting>(&b_calls, nullptr, "line 4")});
  const std::string bytes = Blob(kValue);
  const std::string by_a = AnswerPipeline(100000, {}, a).Finish(Window("a1", bytes, 40, 2));
  EXPECT_NE(by_a.find("40  line 40: nothing here"), std::string::npos) << by_a;
  const std::string by_b = AnswerPipeline(100000, {}, b).Finish(Window("a1", bytes, 40, 2));
  EXPECT_NE(by_b.find("40  [hidden: test token]: nothing here"), std::string::npos) << by_b;
  EXPECT_EQ(a_calls.load(), 1);
  EXPECT_EQ(b_calls.load(), 2);  // each of b's detectors, once
}

TEST(BlobScan, AScanThatFailedIsNotKept) {
  std::atomic<int> calls{0};
  std::atomic<bool> fail{true};
  auto f = Filter({std::make_shared<Counting>(&calls, &fail)});
  AnswerPipeline p(100000, {}, f);
  const std::string bytes = Blob(kValue);
  const std::string withheld = p.Finish(Window("a1", bytes, 101, 1));
  EXPECT_NE(withheld.find("withheld"), std::string::npos) << withheld;
  EXPECT_EQ(f->blob_scans().stats().entries, 0u);
  fail = false;
  const std::string shown = p.Finish(Window("a1", bytes, 101, 1));
  EXPECT_NE(shown.find("[hidden: block value]"), std::string::npos) << shown;
  EXPECT_EQ(calls.load(), 2);
}

TEST(BlobScan, ABlobOverTheBoundIsReadAroundTheWindowEachTime) {
  std::atomic<int> calls{0};
  auto f = Filter({std::make_shared<Counting>(&calls, nullptr)});
  AnswerPipeline p(100000, {}, f);
  std::string bytes = Blob(kValue);
  while (bytes.size() <= BlockSource::kWholeBytes) bytes += "filler line, nothing here\n";
  for (int k = 0; k < 2; ++k) {
    const Draft d = Window("big", bytes, 101, 2);
    ASSERT_FALSE(d.blocks().empty());
    EXPECT_FALSE(d.blocks()[0].source.blob);
    const std::string a = p.Finish(d);
    EXPECT_EQ(a.find(kValue), std::string::npos) << a;
  }
  EXPECT_EQ(calls.load(), 2);
  EXPECT_EQ(f->blob_scans().stats().entries, 0u);
}

TEST(BlobScan, ASearchedBlobIsScannedOnceAndOtherBytesUnderItsIdOnTheirOwn) {
  // What grep and search read of a file: its bytes as they are (ScanBlob), offsets in them.
  std::atomic<int> calls{0};
  auto f = Filter({std::make_shared<Counting>(&calls, nullptr)});
  const std::string bytes = Blob(kValue);
  const ScanResult first = f->ScanBlob("a1", bytes, TextKind::kFile, "config/app.yaml");
  const ScanResult again = f->ScanBlob("a1", bytes, TextKind::kFile, "config/app.yaml");
  ASSERT_EQ(first.spans.size(), 2u);
  ASSERT_EQ(again.spans.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(again.spans[k].begin, first.spans[k].begin);
    EXPECT_EQ(again.spans[k].end, first.spans[k].end);
    EXPECT_EQ(again.spans[k].what, first.spans[k].what);
  }
  EXPECT_EQ(bytes.substr(first.spans[0].begin, first.spans[0].end - first.spans[0].begin), kValue);
  EXPECT_EQ(calls.load(), 1);
  // Other bytes under the same id, another path, another kind: each read on its own.
  const std::string other = Blob(kValue, 103);
  const ScanResult moved = f->ScanBlob("a1", other, TextKind::kFile, "config/app.yaml");
  ASSERT_FALSE(moved.spans.empty());
  EXPECT_EQ(other.substr(moved.spans[0].begin, moved.spans[0].end - moved.spans[0].begin), kValue);
  f->ScanBlob("a1", bytes, TextKind::kFile, "config/other.yaml");
  f->ScanBlob("a1", bytes, TextKind::kOther, "config/app.yaml");
  EXPECT_EQ(calls.load(), 4);
}

TEST(BlobScan, TheCacheKeepsItsBoundDroppingTheLeastRecentlyUsed) {
  ScanCache cache(4096);
  auto spans = std::make_shared<LineSpans>();
  spans->what = {"x"};
  spans->pieces = {{1, 0, 4, 0}};
  for (int k = 0; k < 100; ++k) {
    cache.Keep(ScanCache::Key("id" + std::to_string(k), 10, 0, "a", "f"), spans);
    EXPECT_LE(cache.stats().bytes, 4096u);
    // The first entry, used each time, stays.
    EXPECT_NE(cache.Find(ScanCache::Key("id0", 10, 0, "a", "f")), nullptr) << k;
  }
  EXPECT_GT(cache.stats().entries, 1u);
  EXPECT_LT(cache.stats().entries, 100u);
  EXPECT_EQ(cache.Find(ScanCache::Key("id1", 10, 0, "a", "f")), nullptr);
  // Every part of the key counts.
  EXPECT_EQ(cache.Find(ScanCache::Key("id0", 11, 0, "a", "f")), nullptr);
  EXPECT_EQ(cache.Find(ScanCache::Key("id0", 10, 1, "a", "f")), nullptr);
  EXPECT_EQ(cache.Find(ScanCache::Key("id0", 10, 0, "b", "f")), nullptr);
  EXPECT_EQ(cache.Find(ScanCache::Key("id0", 10, 0, "a", "g")), nullptr);
}

// Through the server, on a real repository.
class BlobScanServed : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_ = std::make_unique<TestRepo>(tmp_ / "shop");
    repo_->Write("deploy/values.yaml", Yaml(first_pw_, 4));
    first_ = repo_->Commit("Add the settings");
    // The same path, another value on another line.
    repo_->Write("deploy/values.yaml", Yaml(second_pw_, 9));
    repo_->Commit("Move the password");
    harness_ =
        std::make_unique<ToolHarness>(std::vector<RepoConfig>{Served("shop", repo_->path())});
  }

  // A YAML file of 15 lines whose password is on line `line`, under `password: >-`: both
  // versions have as many lines, so what was found in one could be laid on the other.
  static std::string Yaml(const std::string& pw, size_t line) {
    std::string s = "db:\n  user: shop\n";
    for (size_t n = 3; n < line - 1; ++n) s += "  opt" + std::to_string(n) + ": on\n";
    s += "  password: >-\n    " + pw + "\n  host: db.example.com\n  port: 5432\n";
    for (size_t n = line + 3; n <= 15; ++n) s += "  more" + std::to_string(n) + ": on\n";
    return s;
  }

  std::string Call(const std::string& tool, const std::string& args) {
    auto a = harness_->Call(tool, R"({"repo":"shop",)" + args + "}");
    EXPECT_FALSE(a.is_error) << tool << " " << args << "\n" << a.text;
    return a.text;
  }

  const std::string first_pw_ = "Tr0ub4dor-" + Chars(12, kBase62, 81);
  const std::string second_pw_ = "Tr0ub4dor-" + Chars(12, kBase62, 82);
  TempDir tmp_;
  std::unique_ptr<TestRepo> repo_;
  std::unique_ptr<ToolHarness> harness_;
  std::string first_;
};

TEST_F(BlobScanServed, TheSamePathWithOtherContentAtAnotherRefIsScannedOnItsOwn) {
  const std::string old =
      Call("read_file", R"("path":"deploy/values.yaml","ref":")" + first_ + "\"");
  EXPECT_EQ(old.find(first_pw_), std::string::npos) << old;
  EXPECT_NE(old.find("[hidden: "), std::string::npos) << old;
  // The path again at the branch's tip, its value five lines lower; then each once more.
  for (int k = 0; k < 2; ++k) {
    const std::string now = Call("read_file", R"("path":"deploy/values.yaml")");
    EXPECT_EQ(now.find(second_pw_), std::string::npos) << now;
    const std::string window = Call("read_file", R"("path":"deploy/values.yaml","start_line":9)");
    EXPECT_EQ(window.find(second_pw_), std::string::npos) << window;
    const std::string again =
        Call("read_file", R"("path":"deploy/values.yaml","start_line":4,"ref":")" + first_ + "\"");
    EXPECT_EQ(again.find(first_pw_), std::string::npos) << again;
  }
}

TEST_F(BlobScanServed, AWindowOnABlobReadBeforeHidesAValueRecognisedFromTheLineAbove) {
  // The whole file first (what the filter found is kept), then windows beginning on the value's
  // line, which do not show the line that makes it recognisable.
  const std::string whole = Call("read_file", R"("path":"deploy/values.yaml")");
  EXPECT_EQ(whole.find(second_pw_), std::string::npos) << whole;
  for (const char* window : {R"(,"start_line":9)", R"(,"start_line":9,"max_lines":1)"}) {
    for (const char* tool : {"read_file", "blame"}) {
      const std::string a = Call(tool, R"("path":"deploy/values.yaml")" + std::string(window));
      ASSERT_NE(a.find("lines 9–"), std::string::npos) << a;
      EXPECT_EQ(a.find(second_pw_), std::string::npos) << tool << window << "\n" << a;
      EXPECT_NE(a.find("[hidden: "), std::string::npos) << tool << window << "\n" << a;
    }
  }
  // Several files at once, the window beginning on the value's line.
  const std::string batch =
      Call("read_file", R"("paths":["deploy/values.yaml"],"start_line":9,"max_lines":2)");
  EXPECT_EQ(batch.find(second_pw_), std::string::npos) << batch;
}

}  // namespace
}  // namespace blob_scan_test
}  // namespace rr::testing
