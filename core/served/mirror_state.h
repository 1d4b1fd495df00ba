// MirrorState: where a mirror comes from and what its sync last did. The sync (core/sync)
// writes it; tools read it (list_repos: mirrored from, last synced, why the last sync failed,
// not mirrored yet, syncing). What it holds is shown to agents: never a token (the sync scrubs
// an error before handing it here). The last outcome is kept in a small file beside the mirror
// so that a restart still knows when it last synced.
//
// Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <utility>

namespace rr {

class MirrorState {
 public:
  // `status_file`: where the outcome is kept ("" keeps nothing); read now when it exists.
  MirrorState(std::string url, std::string group, std::string status_file);

  struct View {
    std::string url;    // the configured URL (never holds credentials: the configuration refuses)
    std::string group;  // the group it came from, "" for a mirror configured one by one
    bool syncing = false;
    int64_t last_synced = 0;  // seconds since 1970 of the last sync that succeeded; 0: never
    int64_t last_failed = 0;  // of the last that failed, when it failed after the last success
    std::string error;        // why it failed
  };
  View Get() const;
  // Whether a sync ever succeeded: the mirror holds something to read.
  bool Mirrored() const { return Get().last_synced != 0; }

  // The host kind that serves its links ("github"; "" for none). Set once, before it is shared.
  void set_host_kind(std::string kind) { host_kind_ = std::move(kind); }
  const std::string& host_kind() const { return host_kind_; }
  // The line list_repos shows for the repository's page on its host ("On GitHub: https://…"),
  // "" for none. Set once, at start, before it is shared (LinkRepositories).
  void set_repo_link(std::string line) { repo_link_ = std::move(line); }
  const std::string& repo_link() const { return repo_link_; }

  void Began();
  void Succeeded(int64_t now);
  void Failed(int64_t now, std::string why);

 private:
  void Save() const;  // with mu_ held

  mutable std::mutex mu_;
  View view_;
  std::string status_file_;
  std::string host_kind_;
  std::string repo_link_;
};

// "2026-10-24 10:30 UTC".
std::string UtcMinute(int64_t seconds);

}  // namespace rr
