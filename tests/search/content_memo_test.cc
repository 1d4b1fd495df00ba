// ContentMemo (core/search/content_memo.h): a content read once a search however many
// repositories hold it -- a claimed content is read by one thread while the others wait for what
// it came to; a thread that kept nothing lets the next read it; and what the memo keeps, entries
// included, stays within its bound (past it, every thread reads on its own).
#include "core/search/content_memo.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace rr::testing::search::content_memo {
namespace {

using namespace std::chrono_literals;

// Whether `key` was claimed, is being read or was kept.
bool Claimed(const ContentMemo& memo, const std::string& key) {
  bool claimed = false;
  memo.Find(key, &claimed);
  return claimed;
}

FileHits OneMatch() {
  FileHits h;
  h.matches = 1;
  h.lines.push_back(ShownLine{3, true, "the line"});
  return h;
}

TEST(ContentMemo, AClaimedContentIsReadOnceAndTheOthersWaitForIt) {
  ContentMemo memo;
  const std::string key = "k1";
  EXPECT_FALSE(Claimed(memo, key));
  EXPECT_TRUE(memo.Claim(key));
  EXPECT_FALSE(memo.Claim(key));
  EXPECT_TRUE(Claimed(memo, key));
  EXPECT_EQ(memo.Find(key), nullptr);  // claimed, not read
  bool mine = false;
  EXPECT_EQ(memo.Take(key, StopToken(), &mine), nullptr);
  ASSERT_TRUE(mine);  // the first to take it reads it
  std::atomic<bool> answered{false};
  std::shared_ptr<const ContentMemo::Done> seen;
  bool other_mine = true;
  std::thread other([&] {
    seen = memo.Take(key, StopToken(), &other_mine);
    answered = true;
  });
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(answered.load());  // waits while the first reads
  memo.Keep(key, false, OneMatch());
  other.join();
  EXPECT_FALSE(other_mine);
  ASSERT_NE(seen, nullptr);
  EXPECT_EQ(seen->hits.matches, 1u);
  ASSERT_NE(memo.Find(key), nullptr);
}

TEST(ContentMemo, AReaderThatKeptNothingLetsTheNextReadIt) {
  ContentMemo memo;
  const std::string key = "k2";
  bool mine = false;
  memo.Take(key, StopToken(), &mine);
  ASSERT_TRUE(mine);
  bool other_mine = false;
  std::thread other([&] { memo.Take(key, StopToken(), &other_mine); });
  std::this_thread::sleep_for(50ms);
  memo.Release(key);  // could not read it there: the waiting thread is to read it
  other.join();
  EXPECT_TRUE(other_mine);
  memo.Keep(key, true, FileHits{});
  bool third = true;
  auto done = memo.Take(key, StopToken(), &third);
  ASSERT_NE(done, nullptr);
  EXPECT_TRUE(done->binary);
  EXPECT_FALSE(third);
}

TEST(ContentMemo, AWaitEndsWithTheStop) {
  ContentMemo memo;
  bool mine = false;
  memo.Take("k3", StopToken(), &mine);
  ASSERT_TRUE(mine);
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  const StopToken stop(cancelled, std::chrono::hours(1));
  bool other_mine = true;
  std::thread other([&] { EXPECT_EQ(memo.Take("k3", stop, &other_mine), nullptr); });
  std::this_thread::sleep_for(50ms);
  cancelled->store(true);
  other.join();  // returns, to read it itself or drop it
  EXPECT_FALSE(other_mine);
}

TEST(ContentMemo, WhatItKeepsStaysWithinItsBound) {
  ContentMemo memo;
  // Contents met and claimed, each a key of 64 KB: past kMaxBytes none is kept any more, and
  // each thread reads what it meets itself (never waits for a reader).
  const size_t each = 64 * 1024;
  size_t kept = 0;
  for (size_t i = 0; i < 2 * ContentMemo::kMaxBytes / each; ++i) {
    std::string key(each, 'x');
    key += std::to_string(i);
    bool mine = false;
    memo.Take(key, StopToken(), &mine);
    if (!mine) {
      EXPECT_FALSE(Claimed(memo, key));
      EXPECT_FALSE(memo.Claim(key));
      bool again = true;
      EXPECT_EQ(memo.Take(key, StopToken(), &again), nullptr);  // at once
      EXPECT_FALSE(again);
      continue;
    }
    ++kept;
    memo.Keep(key, false, FileHits{});
  }
  EXPECT_GT(kept, ContentMemo::kMaxBytes / each / 2);
  EXPECT_LT(kept, ContentMemo::kMaxBytes / each + 1);
}

// Settled, a memo keeps only what contents came to: a claim or a read never finished is dropped,
// so that the next search reads those contents itself.
TEST(ContentMemo, SettledItKeepsOnlyWhatContentsCameTo) {
  ContentMemo memo;
  ASSERT_TRUE(memo.Claim("claimed"));
  bool mine = false;
  memo.Take("reading", StopToken(), &mine);
  ASSERT_TRUE(mine);
  memo.Take("done", StopToken(), &mine);
  memo.Keep("done", false, OneMatch());
  const size_t before = memo.bytes();
  memo.Settle();
  EXPECT_FALSE(Claimed(memo, "claimed"));
  EXPECT_FALSE(Claimed(memo, "reading"));
  ASSERT_NE(memo.Find("done"), nullptr);
  EXPECT_EQ(memo.Find("done")->hits.matches, 1u);
  EXPECT_LT(memo.bytes(), before);
}

// The shelf hands a memo to the next search with the same key and owner (the secret filter) only,
// one search at a time, and keeps at most kMemos of them and kMaxBytes in all, the least recently
// used going first.
TEST(ContentMemoShelf, HandsAMemoOnUnderItsKeyAndOwnerWithinItsBounds) {
  ContentMemoShelf shelf;
  auto filter = std::make_shared<int>(1), other_filter = std::make_shared<int>(2);
  auto memo = shelf.Take("return", filter);
  ASSERT_NE(memo, nullptr);
  ASSERT_TRUE(memo->Claim("never read"));
  bool mine = false;
  memo->Take("k", StopToken(), &mine);
  memo->Keep("k", false, OneMatch());
  shelf.Put("return", memo, filter);
  EXPECT_EQ(shelf.memos(), 1u);
  EXPECT_FALSE(Claimed(*memo, "never read"));  // settled when put back
  // Another key, or another filter: a memo of its own.
  EXPECT_NE(shelf.Take("return!", filter), memo);
  EXPECT_NE(shelf.Take("return", other_filter), memo);
  EXPECT_NE(shelf.Take("return", nullptr), memo);
  // The same: this memo, off the shelf while that search runs (a search beside it gets a new one).
  auto again = shelf.Take("return", filter);
  EXPECT_EQ(again, memo);
  EXPECT_EQ(shelf.memos(), 0u);
  EXPECT_NE(shelf.Take("return", filter), memo);
  ASSERT_NE(again->Find("k"), nullptr);
  shelf.Put("return", again, filter);

  // At most kMemos: the least recently used go first.
  for (size_t i = 0; i < ContentMemoShelf::kMemos + 3; ++i) {
    const std::string key = "pattern " + std::to_string(i);
    shelf.Put(key, shelf.Take(key, filter), filter);
  }
  EXPECT_EQ(shelf.memos(), ContentMemoShelf::kMemos);
  EXPECT_NE(shelf.Take("return", filter), memo);  // the oldest, gone
  auto last = shelf.Take("pattern " + std::to_string(ContentMemoShelf::kMemos + 2), filter);
  EXPECT_EQ(shelf.memos(), ContentMemoShelf::kMemos - 1);
  shelf.Put("last", last, filter);

  // At most kMaxBytes in all: a memo of two thirds of it leaves room for no other of that size.
  shelf.Clear();
  auto big = [&](const std::string& key) {
    auto m = shelf.Take(key, filter);
    FileHits h;
    h.matches = 1;
    h.lines.push_back(ShownLine{1, true, std::string(ContentMemoShelf::kMaxBytes / 3 * 2, 'x')});
    bool reads = false;
    m->Take("blob", StopToken(), &reads);
    m->Keep("blob", false, h);
    EXPECT_GT(m->bytes(), ContentMemoShelf::kMaxBytes / 2);
    shelf.Put(key, m, filter);
    return m;
  };
  big("first");
  big("second");
  EXPECT_EQ(shelf.memos(), 1u);  // the two do not fit: the older went
  EXPECT_GT(shelf.bytes(), ContentMemoShelf::kMaxBytes / 2);
  EXPECT_LE(shelf.bytes(), ContentMemoShelf::kMaxBytes);
  // Over half its bound a memo is not handed on (it would soon keep nothing new, and the search
  // would read each copy of a content it has not met): a new one, and the full one dropped.
  auto next = shelf.Take("second", filter);
  EXPECT_EQ(next->bytes(), 0u);
  EXPECT_EQ(shelf.memos(), 0u);
}

// Memos unused for kUnusedFor are dropped (the shared shelf is asked after every background
// pass), the others kept.
TEST(ContentMemoShelf, DropsWhatWentUnused) {
  ContentMemoShelf shelf;
  shelf.Put("old", shelf.Take("old", nullptr), nullptr);
  const auto now = std::chrono::steady_clock::now();
  shelf.DropUnused(now + ContentMemoShelf::kUnusedFor - 1min);
  EXPECT_EQ(shelf.memos(), 1u);
  shelf.DropUnused(now + ContentMemoShelf::kUnusedFor + 1min);
  EXPECT_EQ(shelf.memos(), 0u);
}

}  // namespace
}  // namespace rr::testing::search::content_memo
