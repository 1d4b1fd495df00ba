#include "core/tools/history_common.h"

#include "core/util/text.h"
#include "core/util/when.h"

namespace rr {

std::vector<ArgSpec> HistoryFilterArgs() {
  return {
      {"author", ArgType::kString,
       "Only commits whose author's name or email matches this regular expression (extended, "
       "any case): `grace`, `@acme\\.com$`.",
       false},
      {"message", ArgType::kString,
       "Only commits whose message matches this extended regular expression, any case, line "
       "by line: `fix(es)? cart`, `^Revert`.",
       false},
      {"since", ArgType::kString,
       "Only commits made on or after this date: 2026-01-31, 2026-01-31 14:00, 2 weeks ago, "
       "yesterday.",
       false},
      {"until", ArgType::kString,
       "Only commits made on or before this date (a date alone includes that whole day, UTC).",
       false},
  };
}

Result<HistoryFilter> FilterOf(const CallContext& ctx, const Args& args, int64_t now) {
  HistoryFilter f;
  if (auto a = args.String("author")) {
    auto e = Ere::Compile(*a, {true, false}, "author");
    if (!e) return Error{e.error()};
    f.author = e.take();
  }
  if (auto m = args.String("message")) {
    auto e = Ere::Compile(*m, {true, true}, "message");
    if (!e) return Error{e.error()};
    f.message = e.take();
  }
  if (auto s = args.String("since")) {
    auto t = ParseWhen(*s, DateBound::kSince, now, "since");
    if (!t) return Error{t.error()};
    f.since = *t;
  }
  if (auto u = args.String("until")) {
    auto t = ParseWhen(*u, DateBound::kUntil, now, "until");
    if (!t) return Error{t.error()};
    f.until = *t;
  }
  if (f.since && f.until && *f.since > *f.until) {
    return Error{"`since` is after `until`: no commit can be in between; swap them"};
  }
  f.secrets = ctx.secrets.get();
  f.failures = std::make_shared<ScanFailures>();
  return f;
}

Status CheckFilter(const Args& args) {
  auto f = FilterOf(CallContext{}, args, static_cast<int64_t>(std::time(nullptr)));
  if (!f) return Error{f.error()};
  return Status::Ok();
}

std::string DescribeFilter(const Args& args) {
  std::string out;
  if (auto a = args.String("author")) out += " · author ~ `" + EchoArgument(*a) + "`";
  if (auto m = args.String("message")) out += " · message ~ `" + EchoArgument(*m) + "`";
  if (auto s = args.String("since")) out += " · since " + EchoArgument(*s);
  if (auto u = args.String("until")) out += " · until " + EchoArgument(*u);
  return out;
}

std::string CommitLineText(const CommitLine& c) {
  return c.id.Short() + " " + ShortDate(c.time, c.offset) + " " + DisplayName(c.author) + " — " +
         DisplayName(c.subject);
}

const char kNoneKnownToMatch[] =
    "No commit is known to match: the pattern was too costly on some (below).";

std::string TooCostlyNote(const TooCostly& costly, const std::string& in) {
  if (costly.count == 0) return "";
  std::string ids;
  for (size_t i = 0; i < costly.named.size(); ++i) {
    ids += (i == 0                                                                ? ""
            : i + 1 == costly.named.size() && costly.count == costly.named.size() ? " and "
                                                                                  : ", ") +
           costly.named[i].Short();
  }
  if (costly.count > costly.named.size()) {
    ids += " and " + WithCommas(costly.count - costly.named.size()) + " more";
  }
  return "[this pattern is too costly on " +
         std::string(costly.count == 1 ? "commit " : "commits ") + ids + in +
         "; narrow it (a repeat inside a repeat, such as (.*a){25}, is the usual cause)" +
         " — the regular expression engine gave up on " +
         (costly.count == 1 ? "its author or message, so it may match"
                            : "their authors or messages, so they may match") +
         "]";
}

}  // namespace rr
