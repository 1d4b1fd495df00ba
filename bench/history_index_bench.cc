// history-index-bench: builds or updates the server's history index of a repository, as the
// server's background indexer does, and says how long each stage took.
//
//   history-index-bench REPOSITORY INDEX_FOLDER [--batch N] [--bloom-version 1|2]
//
// INDEX_FOLDER must be absolute and outside the repository. Run it twice to time an update
// with nothing new; add commits between runs to time an incremental update.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/git/history_index.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: history-index-bench REPOSITORY INDEX_FOLDER [--batch N] "
                 "[--bloom-version 1|2]\n");
    return 2;
  }
  rr::HistoryIndexOptions options;
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--batch") options.batch_commits = static_cast<uint32_t>(std::atoi(argv[i + 1]));
    if (flag == "--bloom-version") {
      options.bloom.hash_version = static_cast<uint32_t>(std::atoi(argv[i + 1]));
    }
  }
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  auto repo = rr::GitRepo::Open(argv[1]);
  if (!repo) {
    std::fprintf(stderr, "%s\n", repo.error().c_str());
    return 1;
  }
  double found_at = -1;
  auto progress = [&](const rr::HistoryIndexProgress& p) {
    using Stage = rr::HistoryIndexProgress::Stage;
    if (p.stage == Stage::kComputing && found_at < 0) found_at = seconds();
    if (p.stage == Stage::kWriting) {
      std::fprintf(stderr, "%8.2f s  layer written: %llu of %llu new commits\n", seconds(),
                   static_cast<unsigned long long>(p.done),
                   static_cast<unsigned long long>(p.total));
    }
  };
  auto u = rr::HistoryIndex::Update(**repo, argv[2], rr::StopToken(), progress, options);
  const double total = seconds();
  if (!u) {
    std::fprintf(stderr, "%s\n", u.error().c_str());
    return 1;
  }
  std::printf("new commits %llu, layers written %u, layers %u, commits %llu%s%s\n",
              static_cast<unsigned long long>(u->new_commits), u->layers_written, u->layers,
              static_cast<unsigned long long>(u->commits),
              u->rebuilt_because.empty() ? "" : ", rebuilt because ", u->rebuilt_because.c_str());
  if (found_at >= 0) std::printf("finding new commits and their generations: %.2f s\n", found_at);
  std::printf("total: %.2f s\n", total);
  return 0;
}
