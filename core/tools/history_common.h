// What log and find_commits share: the author / message / since / until arguments, checked into
// a HistoryFilter, and the one line a commit is shown as:
//   80f39763c22b 2026-02-15 Grace Hopper — Fix the cart total for empty carts
#pragma once

#include <ctime>
#include <vector>

#include "core/history/history.h"
#include "core/tools/tool.h"

namespace rr {

// author, message, since, until, in that order.
std::vector<ArgSpec> HistoryFilterArgs();

// The filters from the arguments (regular expressions compiled, dates read); `now` for dates
// such as "2 weeks ago".
Result<HistoryFilter> FilterOf(const CallContext& ctx, const Args& args, int64_t now);
// FilterOf's error, for ToolTraits::check_first: the filters are checked before the target.
Status CheckFilter(const Args& args);

// What the filters asked for, for an answer's first line: " by `Grace`, since 2026-01-01".
std::string DescribeFilter(const Args& args);

std::string CommitLineText(const CommitLine& c);

// What a body says in place of "No commit matches." when a pattern was too costly on some
// commits (they may match), and the note naming them; `in` is " in <repo>" or "".
extern const char kNoneKnownToMatch[];
std::string TooCostlyNote(const TooCostly& costly, const std::string& in = "");

}  // namespace rr
