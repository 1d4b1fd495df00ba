#include "core/secrets/server_log.h"

#include <unistd.h>

#include <mutex>
#include <string>

namespace rr {
namespace {

std::mutex& LogMutex() {
  static std::mutex mu;
  return mu;
}

std::shared_ptr<const SecretFilter>& LogFilter() {
  static std::shared_ptr<const SecretFilter> filter;
  return filter;
}

}  // namespace

void SetLogFilter(std::shared_ptr<const SecretFilter> filter) {
  std::lock_guard<std::mutex> lock(LogMutex());
  LogFilter() = std::move(filter);
}

void LogLine(std::string_view line) {
  std::shared_ptr<const SecretFilter> filter;
  {
    std::lock_guard<std::mutex> lock(LogMutex());
    filter = LogFilter();
  }
  std::string text(line);
  if (filter) {
    const ScanResult r = filter->Scan(text, TextKind::kOther);
    if (!r.ok()) {
      // Only which detector failed: what it said may quote the text it could not check.
      text = "repo-reader: a log line was left out: the secret filter could not check it (" +
             r.failed_by + " failed)";
    } else if (!r.spans.empty()) {
      text = SecretFilter::Redact(text, r.spans);
    }
  }
  text.push_back('\n');
  std::lock_guard<std::mutex> lock(LogMutex());
  size_t at = 0;
  while (at < text.size()) {
    const ssize_t w = ::write(STDERR_FILENO, text.data() + at, text.size() - at);
    if (w <= 0) break;
    at += static_cast<size_t>(w);
  }
}

}  // namespace rr
