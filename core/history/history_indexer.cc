#include "core/history/history_indexer.h"

#include <cstdio>

#include "core/secrets/server_log.h"
#include "core/util/text.h"

namespace rr {
namespace {

std::string Seconds(std::chrono::steady_clock::duration d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", std::chrono::duration<double>(d).count());
  return buf;
}

}  // namespace

HistoryIndexer::HistoryIndexer(std::shared_ptr<const Catalog> catalog, Options options)
    : HistoryIndexer(std::make_shared<LiveCatalog>(std::move(catalog)), options) {}

namespace {
PeriodicService::Schedule HistorySchedule(const HistoryIndexer::Options& options) {
  PeriodicService::Schedule s;
  s.every = options.recheck;
  s.clock = options.clock;
  return s;
}
}  // namespace

HistoryIndexer::HistoryIndexer(std::shared_ptr<LiveCatalog> catalog, Options options)
    : PeriodicService(HistorySchedule(options)), catalog_(std::move(catalog)) {}

HistoryIndexer::~HistoryIndexer() { Stop(); }

bool HistoryIndexer::Wanted() {
  if (catalog_->may_change()) return true;
  for (const auto& repo : catalog_->Get()->all()) {
    if (!repo->settings().index_folder.empty()) return true;
  }
  return false;
}

void HistoryIndexer::Pass() {
  const std::shared_ptr<const Catalog> catalog = catalog_->Get();  // this pass's set
  for (const auto& repo : catalog->all()) {
    if (stopping()) return;
    Update(*repo);
  }
}

void HistoryIndexer::CatchUp(const std::vector<std::string>& names) {
  const std::shared_ptr<const Catalog> catalog = catalog_->Get();
  for (const std::string& name : names) {
    if (stopping()) return;
    auto repo = catalog->Find(name);
    if (repo) Update(**repo);
  }
}

void HistoryIndexer::Update(const ServedRepo& repo) {
  if (!repo.NeedsHistoryIndex()) return;
  // The log's time is the work's real time, whatever clock the schedule reads.
  const auto start = std::chrono::steady_clock::now();
  auto u = repo.UpdateHistoryIndex(stop());
  if (stopping()) return;
  // Kept only while failing: one entry for each of 20,000 repositories would be memory
  // for nothing.
  if (!u) {
    if (logged_.First(repo.name(), u.error())) {
      LogLine("repo-reader: the history index of `" + repo.name() +
              "` could not be updated: " + u.error());
    }
    return;
  }
  logged_.Clear(repo.name());
  if (u->new_commits == 0) return;
  std::string line = "repo-reader: history index of `" + repo.name() +
                     "`: " + Plural(u->new_commits, "commit", "commits") + " indexed in " +
                     Seconds(std::chrono::steady_clock::now() - start) + " (" +
                     Plural(u->commits, "commit", "commits") + " in " +
                     Plural(u->layers, "layer", "layers") + ")";
  if (!u->rebuilt_because.empty()) line += "; rebuilt: " + u->rebuilt_because;
  LogLine(line);
}

}  // namespace rr
