#include "core/tools/mirror_lines.h"

#include "core/util/text.h"

namespace rr {

bool AddMirrorLines(const ServedRepo& repo, std::vector<std::string>& out) {
  if (!repo.settings().mirror) return false;
  const MirrorState::View v = repo.settings().mirror->Get();
  std::string line = "Mirrored from " + DisplayName(v.url);
  if (!v.group.empty()) line += " (group " + DisplayName(v.group) + ")";
  if (v.last_synced) {
    line += ", synced " + UtcMinute(v.last_synced) + (v.syncing ? "; syncing now." : ".");
  } else {
    line += v.syncing ? ": not mirrored yet (its first sync is running)."
                      : ": not mirrored yet (its first sync has not finished).";
  }
  out.push_back(line);
  if (const std::string& link = repo.settings().mirror->repo_link(); !link.empty()) {
    out.push_back(link);
  }
  if (v.last_failed) {
    out.push_back("The last sync, " + UtcMinute(v.last_failed) + ", failed: " + v.error +
                  (v.last_synced ? " — what was synced before is served." : ""));
  }
  return v.last_synced == 0;
}

}  // namespace rr
