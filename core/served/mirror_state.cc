#include "core/served/mirror_state.h"

#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

namespace rr {

MirrorState::MirrorState(std::string url, std::string group, std::string status_file)
    : status_file_(std::move(status_file)) {
  view_.url = std::move(url);
  view_.group = std::move(group);
  if (status_file_.empty()) return;
  std::ifstream in(status_file_);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string what;
    int64_t when = 0;
    words >> what >> when;
    if (what == "synced") view_.last_synced = when;
    if (what == "failed") {
      view_.last_failed = when;
      std::getline(words >> std::ws, view_.error);
    }
  }
}

MirrorState::View MirrorState::Get() const {
  std::lock_guard<std::mutex> lock(mu_);
  return view_;
}

void MirrorState::Began() {
  std::lock_guard<std::mutex> lock(mu_);
  view_.syncing = true;
}

void MirrorState::Succeeded(int64_t now) {
  std::lock_guard<std::mutex> lock(mu_);
  view_.syncing = false;
  view_.last_synced = now;
  view_.last_failed = 0;
  view_.error.clear();
  Save();
}

void MirrorState::Failed(int64_t now, std::string why) {
  std::lock_guard<std::mutex> lock(mu_);
  for (char& c : why) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  view_.syncing = false;
  view_.last_failed = now;
  view_.error = std::move(why);
  Save();
}

void MirrorState::Save() const {
  if (status_file_.empty()) return;
  const std::string tmp = status_file_ + ".new";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) return;
    if (view_.last_synced) out << "synced " << view_.last_synced << "\n";
    if (view_.last_failed) out << "failed " << view_.last_failed << " " << view_.error << "\n";
    if (!out) return;
  }
  std::rename(tmp.c_str(), status_file_.c_str());
}

std::string UtcMinute(int64_t seconds) {
  const time_t t = static_cast<time_t>(seconds);
  struct tm tm {};
  gmtime_r(&t, &tm);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d UTC", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min);
  return buf;
}

}  // namespace rr
