// ParseWhen (core/util/when.h): every form docs/tools.md lists, read against a fixed `now`;
// what is not a date, or not a real one, is refused with the forms there are.
#include "core/util/when.h"

#include <gtest/gtest.h>

#include <ctime>
#include <string>

namespace rr {
namespace when_test {
namespace {

// Seconds since 1970 of a UTC date and time, by the C library (not by the code under test).
int64_t Utc(int y, int mo, int d, int h = 0, int mi = 0, int s = 0) {
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  return static_cast<int64_t>(timegm(&tm));
}

const int64_t kNow = Utc(2026, 3, 15, 10, 20, 30);

int64_t Since(const std::string& text) {
  auto t = ParseWhen(text, DateBound::kSince, kNow, "since");
  EXPECT_TRUE(t.ok()) << text << ": " << (t.ok() ? "" : t.error());
  return t.ok() ? *t : -1;
}
int64_t Until(const std::string& text) {
  auto t = ParseWhen(text, DateBound::kUntil, kNow, "until");
  EXPECT_TRUE(t.ok()) << text << ": " << (t.ok() ? "" : t.error());
  return t.ok() ? *t : -1;
}

const char kForms[] =
    "write 2026-01-31, 2026-01-31 14:00, 2026-01-31T14:00:00Z, 2 weeks ago, yesterday or "
    "@<seconds since 1970>";

TEST(When, ADateAloneIsTheWholeDayInUtc) {
  EXPECT_EQ(Since("2026-01-31"), Utc(2026, 1, 31));
  EXPECT_EQ(Until("2026-01-31"), Utc(2026, 1, 31, 23, 59, 59));
  EXPECT_EQ(Until("2026-01-31") + 1, Utc(2026, 2, 1));
  EXPECT_EQ(Since("2028-02-29"), Utc(2028, 2, 29));
  EXPECT_EQ(Since("2000-02-29"), Utc(2000, 2, 29));
  EXPECT_EQ(Since("1970-01-01"), 0);
  EXPECT_EQ(Until("2026-12-31"), Utc(2027, 1, 1) - 1);
}

TEST(When, ATimeIsUtcAndAMinuteAloneIsTheWholeMinute) {
  EXPECT_EQ(Since("2026-01-31 14:00"), Utc(2026, 1, 31, 14, 0, 0));
  EXPECT_EQ(Until("2026-01-31 14:00"), Utc(2026, 1, 31, 14, 0, 59));
  EXPECT_EQ(Since("2026-01-31 14:00:05"), Utc(2026, 1, 31, 14, 0, 5));
  EXPECT_EQ(Until("2026-01-31 14:00:05"), Utc(2026, 1, 31, 14, 0, 5));
  EXPECT_EQ(Since("2026-01-31 00:00:00"), Utc(2026, 1, 31));
  EXPECT_EQ(Until("2026-01-31 23:59:59"), Utc(2026, 1, 31, 23, 59, 59));
}

TEST(When, Iso8601WithAZone) {
  EXPECT_EQ(Since("2026-01-31T14:00:05Z"), Utc(2026, 1, 31, 14, 0, 5));
  EXPECT_EQ(Until("2026-01-31T14:00:05Z"), Utc(2026, 1, 31, 14, 0, 5));
  EXPECT_EQ(Since("2026-01-31T14:00:05+02:00"), Utc(2026, 1, 31, 12, 0, 5));
  EXPECT_EQ(Since("2026-01-31T14:00:05-05:30"), Utc(2026, 1, 31, 19, 30, 5));
  EXPECT_EQ(Since("2026-01-31T01:00:00+02:00"), Utc(2026, 1, 30, 23, 0, 0));
  EXPECT_EQ(Since("2026-01-31T14:00Z"), Utc(2026, 1, 31, 14, 0, 0));
  EXPECT_EQ(Until("2026-01-31T14:00Z"), Utc(2026, 1, 31, 14, 0, 59));
  EXPECT_EQ(Since("2026-01-31 14:00:05+02:00"), Utc(2026, 1, 31, 12, 0, 5));
  // Letters in any case, as elsewhere.
  EXPECT_EQ(Since("2026-01-31t14:00:05z"), Utc(2026, 1, 31, 14, 0, 5));
}

TEST(When, AgoCountsBackFromNow) {
  EXPECT_EQ(Since("2 weeks ago"), kNow - 14 * 86400);
  EXPECT_EQ(Since("1 week ago"), kNow - 7 * 86400);
  EXPECT_EQ(Since("3 days ago"), kNow - 3 * 86400);
  EXPECT_EQ(Since("1 day ago"), kNow - 86400);
  EXPECT_EQ(Since("5 hours ago"), kNow - 5 * 3600);
  EXPECT_EQ(Since("1 hour ago"), kNow - 3600);
  EXPECT_EQ(Since("10 minutes ago"), kNow - 600);
  EXPECT_EQ(Since("30 seconds ago"), kNow - 30);
  EXPECT_EQ(Since("1 second ago"), kNow - 1);
  EXPECT_EQ(Since("2 months ago"), kNow - 60 * 86400);
  EXPECT_EQ(Since("1 year ago"), kNow - 365 * 86400);
  EXPECT_EQ(Since("3 years ago"), kNow - 3 * 365 * 86400);
  EXPECT_EQ(Since("0 days ago"), kNow);
  // Dots for spaces, any case, spaces around; the same for until.
  EXPECT_EQ(Since("2.weeks.ago"), kNow - 14 * 86400);
  EXPECT_EQ(Since("2 Weeks Ago"), kNow - 14 * 86400);
  EXPECT_EQ(Since("  3 days ago  "), kNow - 3 * 86400);
  EXPECT_EQ(Until("2 weeks ago"), kNow - 14 * 86400);
}

TEST(When, NamedDaysAndSecondsSince1970) {
  EXPECT_EQ(Since("now"), kNow);
  EXPECT_EQ(Until("now"), kNow);
  EXPECT_EQ(Since("yesterday"), kNow - 86400);
  EXPECT_EQ(Since("today"), Utc(2026, 3, 15));
  EXPECT_EQ(Until("today"), Utc(2026, 3, 15));
  EXPECT_EQ(Since("Yesterday"), kNow - 86400);
  EXPECT_EQ(Since("@1767225600"), 1767225600);
  EXPECT_EQ(Until("@0"), 0);
}

TEST(When, WhatIsNotADateIsRefusedWithTheFormsThereAre) {
  for (const std::string text : {"",
                                 "   ",
                                 "garbage",
                                 "next week",
                                 "2 fortnights ago",
                                 "weeks ago",
                                 "2 weeks",
                                 "ago",
                                 "2 weeks ago please",
                                 "-2 days ago",
                                 "1234567 days ago",
                                 "@",
                                 "@12x",
                                 "@-5",
                                 "2026-1-31",
                                 "2026/01/31",
                                 "20260131",
                                 "31-01-2026",
                                 "2026-01-31 14",
                                 "2026-01-31 1400",
                                 "2026-01-31 14:00:05.5",
                                 "2026-01-31T14:00:05+0200",
                                 "2026-01-31T14:00:05 UTC",
                                 "2026-01-31T14:00:05+25:00",
                                 "2026-01-31x",
                                 "25:00",
                                 "14:00"}) {
    auto t = ParseWhen(text, DateBound::kSince, kNow, "since");
    ASSERT_FALSE(t.ok()) << "`" << text << "` was read as " << *t;
    EXPECT_EQ(t.error(), std::string("argument `since`: not a date this server reads; ") + kForms)
        << "text: " << text;
  }
}

TEST(When, ADateThatDoesNotExistIsRefusedSayingSo) {
  for (const std::string text :
       {"2026-02-30", "2026-02-29", "2100-02-29", "2026-04-31", "2026-13-01", "2026-00-10",
        "2026-01-00", "2026-01-32", "2026-01-31 25:00", "2026-01-31 24:00", "2026-01-31 14:60",
        "2026-01-31 14:00:61", "2026-01-31T25:00:00Z"}) {
    for (auto bound : {DateBound::kSince, DateBound::kUntil}) {
      auto t = ParseWhen(text, bound, kNow, "until");
      ASSERT_FALSE(t.ok()) << "`" << text << "` was read as " << *t;
      EXPECT_EQ(t.error(), "argument `until`: `" + text + "` is not a real date or time; " + kForms)
          << "text: " << text;
    }
  }
}

}  // namespace
}  // namespace when_test
}  // namespace rr
