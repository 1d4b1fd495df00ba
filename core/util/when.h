// When: the dates an agent gives to since / until (log, find_commits), read in one documented
// way (docs/tools.md):
//   2026-01-31                     the whole day, in UTC: since takes its start, until its end
//   2026-01-31 14:00[:05]          that minute / second, in UTC
//   2026-01-31T14:00:05Z, …+02:00  ISO 8601 with a zone
//   2 weeks ago, 3 days ago, 1 year ago  (second, minute, hour, day, week, month = 30 days,
//                                   year = 365 days; singular or plural; dots for spaces too)
//   yesterday, today, now          24 hours ago / the start of today (UTC) / now
//   @1767225600                    seconds since 1970
// A date or time that does not exist (2026-02-30) is an error saying so, anything else one
// saying it is not a date; both list the forms there are. Nothing is guessed.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/util/result.h"

namespace rr {

enum class DateBound { kSince, kUntil };

// Seconds since the epoch. `now` is the current time (a parameter, so tests are exact).
Result<int64_t> ParseWhen(std::string_view text, DateBound bound, int64_t now,
                          std::string_view argument);

}  // namespace rr
