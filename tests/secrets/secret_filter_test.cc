// The core's secret filter, with detectors written in the test: the keyword pass, how
// detectors are called, containment, and the match-veto API search, grep and log rely on.
#include "core/secrets/secret_filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>

namespace rr {
namespace secret_filter_test {
namespace {

using repo_reader::ScanInput;
using repo_reader::SecretDetector;
using repo_reader::SpanSink;

// Hides every occurrence of each keyword itself, and records what it was given.
class WordDetector : public SecretDetector {
 public:
  explicit WordDetector(std::vector<std::string> words, std::string id = "words")
      : words_(std::move(words)), id_(std::move(id)) {}
  const char* id() const noexcept override { return id_.c_str(); }
  std::vector<std::string> keywords() const override { return words_; }
  void Scan(const ScanInput& in, SpanSink& sink) const override {
    ++calls;
    for (size_t i = 0; i < in.hit_count; ++i) {
      sink.Add(in.hits[i].offset, in.hits[i].offset + words_[in.hits[i].keyword].size(), id_);
    }
  }
  mutable int calls = 0;

 private:
  std::vector<std::string> words_;
  std::string id_;
};

// No keywords: hides every line that starts with "SECRET".
class LineDetector : public SecretDetector {
 public:
  const char* id() const noexcept override { return "lines"; }
  std::vector<std::string> keywords() const override { return {}; }
  void Scan(const ScanInput& in, SpanSink& sink) const override {
    size_t at = 0;
    while (at < in.text.size()) {
      size_t nl = in.text.find('\n', at);
      if (nl == std::string_view::npos) nl = in.text.size();
      if (in.text.substr(at, 6) == "SECRET") sink.Add(at, nl, "line");
      at = nl + 1;
    }
  }
};

class ThrowingDetector : public SecretDetector {
 public:
  const char* id() const noexcept override { return "thrower"; }
  std::vector<std::string> keywords() const override { return {"boom"}; }
  void Scan(const ScanInput&, SpanSink&) const override { throw std::runtime_error("kaboom"); }
};

class OutsideDetector : public SecretDetector {
 public:
  const char* id() const noexcept override { return "outside"; }
  std::vector<std::string> keywords() const override { return {"edge"}; }
  void Scan(const ScanInput& in, SpanSink& sink) const override {
    sink.Add(in.text.size() - 1, in.text.size() + 5, "x");
  }
};

std::shared_ptr<const SecretFilter> Make(std::vector<std::shared_ptr<const SecretDetector>> ds) {
  std::vector<SecretFilter::Detector> list;
  for (auto& d : ds) list.push_back({d, "test"});
  std::string error;
  auto f = SecretFilter::Make(std::move(list), &error);
  EXPECT_TRUE(f) << error;
  return f;
}

TEST(SecretFilter, FindsEveryKeywordInAnyCaseAndHidesIt) {
  auto f =
      Make({std::make_shared<WordDetector>(std::vector<std::string>{"hunter", "Hunt", "er2"})});
  const ScanResult r = f->Scan("the HUNTER2 and hunt", TextKind::kFile);
  ASSERT_TRUE(r.ok());
  // "HUNTER" (4..10), "HUNT" (4..8) merge; "ER2" (8..11) overlaps and merges; "hunt" 16..20.
  ASSERT_EQ(r.spans.size(), 2u);
  EXPECT_EQ(r.spans[0].begin, 4u);
  EXPECT_EQ(r.spans[0].end, 11u);
  EXPECT_EQ(r.spans[1].begin, 16u);
  EXPECT_EQ(SecretFilter::Redact("the HUNTER2 and hunt", r.spans),
            "the [hidden: words] and [hidden: words]");
}

TEST(SecretFilter, KeywordPassAgreesWithANaiveSearchOnRandomText) {
  const std::vector<std::string> words = {"ab", "abc", "bca", "c-d", "xyz", "zz", "aaaa", "ba"};
  auto det = std::make_shared<WordDetector>(words);
  auto f = Make({det});
  std::mt19937 rng(7);
  const std::string alphabet = "abcABC-dxyzZ \n";
  for (int round = 0; round < 200; ++round) {
    std::string text;
    for (int i = 0; i < 300; ++i) text.push_back(alphabet[rng() % alphabet.size()]);
    std::string lower = text;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::vector<bool> want(text.size(), false);
    for (const auto& w : words) {
      for (size_t at = lower.find(w); at != std::string::npos; at = lower.find(w, at + 1)) {
        for (size_t i = at; i < at + w.size(); ++i) want[i] = true;
      }
    }
    const ScanResult r = f->Scan(text, TextKind::kOther);
    ASSERT_TRUE(r.ok());
    std::vector<bool> got(text.size(), false);
    for (const auto& s : r.spans) {
      for (size_t i = s.begin; i < s.end; ++i) got[i] = true;
    }
    ASSERT_EQ(got, want) << text;
  }
}

// Records the keyword hits it is given, as (offset, keyword).
class HitRecorder : public SecretDetector {
 public:
  explicit HitRecorder(std::vector<std::string> words) : words_(std::move(words)) {}
  const char* id() const noexcept override { return "recorder"; }
  std::vector<std::string> keywords() const override { return words_; }
  void Scan(const ScanInput& in, SpanSink&) const override {
    for (size_t i = 0; i < in.hit_count; ++i) {
      hits.emplace_back(in.hits[i].offset, in.hits[i].keyword);
    }
  }
  mutable std::vector<std::pair<size_t, uint32_t>> hits;

 private:
  std::vector<std::string> words_;
};

// Long texts are read as two halves at once: every occurrence is still given to the detector
// exactly once, in order, those that straddle the middle too (the long keyword is placed
// across it on purpose).
TEST(SecretFilter, LongTextsGiveEveryKeywordOnceWhereverItLies) {
  const std::string long_word = "straddling-the-middle-of-the-text-xyz";
  const std::vector<std::string> words = {"ab", "abc", "bca", "zz", "aaaa", long_word};
  auto det = std::make_shared<HitRecorder>(words);
  auto f = Make({det});
  std::mt19937 rng(11);
  const std::string alphabet = "abcABCxyzZ \n";
  for (int round = 0; round < 60; ++round) {
    const size_t size = 4000 + rng() % 6000;
    std::string text;
    for (size_t i = 0; i < size; ++i) text.push_back(alphabet[rng() % alphabet.size()]);
    // The long keyword across the middle, ending at it, starting at it, and at both ends.
    const size_t mid = size / 2, len = long_word.size();
    const size_t places[] = {mid - len / 2, mid - len, mid - len + 1, mid - 1, mid, 0, size - len};
    text.replace(places[round % 7], len, long_word);
    std::string lower = text;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::vector<std::pair<size_t, uint32_t>> want;
    for (uint32_t k = 0; k < words.size(); ++k) {
      for (size_t at = lower.find(words[k]); at != std::string::npos;
           at = lower.find(words[k], at + 1)) {
        want.emplace_back(at, k);
      }
    }
    std::sort(want.begin(), want.end());
    det->hits.clear();
    ASSERT_TRUE(f->Scan(text, TextKind::kOther).ok());
    ASSERT_EQ(det->hits, want) << "size " << size << ", round " << round;
  }
}

TEST(SecretFilter, ADetectorIsCalledOnlyWhenOneOfItsKeywordsOccurs) {
  auto a = std::make_shared<WordDetector>(std::vector<std::string>{"alpha"}, "a");
  auto b = std::make_shared<WordDetector>(std::vector<std::string>{"beta"}, "b");
  auto f = Make({a, b});
  ASSERT_TRUE(f->Scan("only alpha here", TextKind::kFile).ok());
  EXPECT_EQ(a->calls, 1);
  EXPECT_EQ(b->calls, 0);
  ASSERT_TRUE(f->Scan("nothing at all", TextKind::kFile).ok());
  EXPECT_EQ(a->calls, 1);
  EXPECT_EQ(b->calls, 0);
}

TEST(SecretFilter, ADetectorWithoutKeywordsRunsOnEveryText) {
  auto f = Make({std::make_shared<LineDetector>()});
  const ScanResult r = f->Scan("ok\nSECRET stuff\nok", TextKind::kFile);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.spans.size(), 1u);
  EXPECT_EQ(r.spans[0].begin, 3u);
  EXPECT_EQ(r.spans[0].end, 15u);
}

// Hides what follows "key=" up to the next blank or line end.
class AfterKeyDetector : public SecretDetector {
 public:
  const char* id() const noexcept override { return "after-key"; }
  std::vector<std::string> keywords() const override { return {"key="}; }
  void Scan(const ScanInput& in, SpanSink& sink) const override {
    for (size_t i = 0; i < in.hit_count; ++i) {
      const size_t b = in.hits[i].offset + 4;
      size_t e = b;
      while (e < in.text.size() && in.text[e] != ' ' && in.text[e] != '\n') ++e;
      if (e > b) sink.Add(b, e, "value");
    }
  }
};

// A value a detector hid once is hidden wherever else the text holds it standing alone: the
// second copy of a secret (`token = 'v' | 'v'`, a log echoing it) is not shown. A copy inside a
// longer token, a value shorter than 12 bytes, and one without both letters and digits (a
// detector's mistake on a word or a setting) are left to the detectors -- unless its letters
// change case as a random key's do (at every third letter or more often), which camelCase
// words never do.
TEST(SecretFilter, AHiddenValueIsHiddenWhereverItRecurs) {
  auto f = Make({std::make_shared<AfterKeyDetector>()});
  const std::string value = "q8Zr2LmXw4Tn";
  const std::string text = "key=" + value + "\nsaid '" + value + "' | \"" + value + "\"\nin x" +
                           value + "y\nkey=ab12cd\nhas ab12cd too\n" +
                           "key=protocol=http\nagain protocol=http\n" +
                           "key=vZrEclFwOqeA\nsaid 'vZrEclFwOqeA'\n" +
                           "key=TestSourcePassword\nsaid 'TestSourcePassword'\n" +
                           "key=mlm9iqkm\nsaid 'mlm9iqkm' | mlm9iqkmx\n" +
                           "key=vZrEclFw\nsaid 'vZrEclFw'\n" + "key=CRAM-MD5\nsaid \"CRAM-MD5\"\n";
  const ScanResult r = f->Scan(text, TextKind::kFile);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(SecretFilter::Redact(text, r.spans),
            "key=[hidden: value]\nsaid '[hidden: value]' | \"[hidden: value]\"\nin x" + value +
                "y\nkey=[hidden: value]\nhas ab12cd too\nkey=[hidden: value]\n"
                "again protocol=http\nkey=[hidden: value]\nsaid '[hidden: value]'\n"
                "key=[hidden: value]\nsaid 'TestSourcePassword'\n"
                "key=[hidden: value]\nsaid '[hidden: value]' | mlm9iqkmx\n"
                "key=[hidden: value]\nsaid 'vZrEclFw'\n"
                "key=[hidden: value]\nsaid \"CRAM-MD5\"\n");
}

TEST(SecretFilter, ADetectorThatThrowsFailsTheScanInsteadOfPassingTheText) {
  auto f = Make({std::make_shared<ThrowingDetector>()});
  const ScanResult r = f->Scan("a boom here", TextKind::kFile);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.failure.find("thrower"), std::string::npos) << r.failure;
  EXPECT_NE(r.failure.find("kaboom"), std::string::npos) << r.failure;
  EXPECT_TRUE(f->HoldsHidden("a boom here", TextKind::kCommitMessage));
  EXPECT_TRUE(f->Scan("quiet", TextKind::kFile).ok());
}

TEST(SecretFilter, ASpanOutsideTheTextFailsTheScan) {
  auto f = Make({std::make_shared<OutsideDetector>()});
  const ScanResult r = f->Scan("at the edge", TextKind::kFile);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.failure.find("outside the text"), std::string::npos) << r.failure;
}

TEST(SecretFilter, KeywordsMustBeAsciiOfTwoCharactersOrMore) {
  std::string error;
  std::vector<SecretFilter::Detector> list = {
      {std::make_shared<WordDetector>(std::vector<std::string>{"x"}), "test"}};
  EXPECT_FALSE(SecretFilter::Make(std::move(list), &error));
  EXPECT_NE(error.find("at least 2 characters"), std::string::npos) << error;
}

// The match-veto API: a plain match is kept only clear of hidden values; a regular expression
// never counts a line holding one; a commit message holding one is not found by log.
TEST(SecretFilterVeto, AMatchIsClearOnlyWhereItTouchesNoHiddenValue) {
  // "key=[hunter2] more": hidden 4..11.
  const std::vector<HiddenSpan> spans = {{4, 11, "password"}};
  EXPECT_TRUE(SecretFilter::Clear(spans, 0, 3));     // "key"
  EXPECT_TRUE(SecretFilter::Clear(spans, 0, 4));     // "key=" ends where the value starts
  EXPECT_FALSE(SecretFilter::Clear(spans, 3, 5));    // "=h"
  EXPECT_FALSE(SecretFilter::Clear(spans, 6, 8));    // inside
  EXPECT_FALSE(SecretFilter::Clear(spans, 10, 13));  // its end
  EXPECT_TRUE(SecretFilter::Clear(spans, 11, 16));   // after it
  EXPECT_FALSE(SecretFilter::Clear(spans, 5, 5));    // an empty match inside
}

TEST(SecretFilterVeto, ALineHoldingAHiddenValueIsKnownAsSuch) {
  // Lines: [0,10) [11,30) [31,40); a block hides 12..35 (across two lines).
  const std::vector<HiddenSpan> spans = {{12, 35, "private key"}};
  EXPECT_FALSE(SecretFilter::LineHoldsHidden(spans, 0, 10));
  EXPECT_TRUE(SecretFilter::LineHoldsHidden(spans, 11, 30));
  EXPECT_TRUE(SecretFilter::LineHoldsHidden(spans, 31, 40));
  EXPECT_TRUE(SecretFilter::LineHoldsHidden(spans, 20, 20));  // an empty line inside the block
  EXPECT_FALSE(SecretFilter::LineHoldsHidden(spans, 41, 41));
}

TEST(SecretFilterVeto, AMessageHoldingAHiddenValueIsReported) {
  auto f = Make({std::make_shared<WordDetector>(std::vector<std::string>{"hunter2"})});
  EXPECT_TRUE(f->HoldsHidden("Set the password to hunter2", TextKind::kCommitMessage));
  EXPECT_FALSE(f->HoldsHidden("Fix the cart total", TextKind::kCommitMessage));
}

TEST(HiddenNote, SaysHowManyWereHidden) {
  EXPECT_EQ(HiddenNote(1),
            "[1 value that looks like a secret is hidden as `[hidden: …]` — this server never "
            "shows it.]");
  EXPECT_NE(HiddenNote(2).find("[2 values that look like secrets are hidden"), std::string::npos);
}

}  // namespace
}  // namespace secret_filter_test
}  // namespace rr
