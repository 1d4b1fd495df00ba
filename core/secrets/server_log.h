// The server's own log: one line at a time to standard error, through the secret filter set at
// start, so a value that looks like a secret never reaches the log either (a repository's
// name, a path, a library's error text may carry one). Before the configured filter is in
// force, the command sets the problem-line filter (core/secrets/problem_filter.h) for the lines
// it writes then (a configuration or a plugin refused); without any filter set, lines are
// written as they are (unit tests).
//
// Thread-safe: lines from many threads are written whole, one after another.
#pragma once

#include <memory>
#include <string_view>

#include "core/secrets/secret_filter.h"

namespace rr {

// The filter every later log line passes. Null: none.
void SetLogFilter(std::shared_ptr<const SecretFilter> filter);

// Writes `line` (a newline is added) to standard error, secrets hidden. A line the filter
// cannot check is replaced by a sentence saying so.
void LogLine(std::string_view line);

}  // namespace rr
