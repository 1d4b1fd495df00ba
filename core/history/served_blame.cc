#include "core/history/served_blame.h"

#include "core/history/history.h"
#include "core/util/text.h"

namespace rr {

Result<BlameSubject> FindBlameSubject(RepoReader& reader, const ReadPoint& at, const RepoPath& path,
                                      const StopToken& stop) {
  auto node = reader.Find(at, path, stop);
  if (!node) return Error{node.error()};
  const std::string quoted = "`" + node->path.Display() + "`";
  const std::string repo = reader.repo().name();
  switch (node->kind) {
    case EntryKind::kFolder:
      return Error{quoted +
                   " is a folder; blame takes a file: list the folder with list_files "
                   "(repo: \"" +
                   repo + "\", path: \"" + node->path.Display() + "\")"};
    case EntryKind::kLink:
      return Error{quoted +
                   " is a symbolic link; blame takes a file. read_file shows the link's "
                   "target: blame the target by its own path"};
    case EntryKind::kSubmodule:
      return Error{quoted +
                   " is a submodule: its files belong to another repository, and are "
                   "not blamed here"};
    case EntryKind::kFile:
    case EntryKind::kOther:
      break;
  }
  auto data = reader.Read(*node, stop);
  if (!data) return Error{data.error()};
  if (data->kind == FileData::Kind::kBinary) {
    return Error{quoted + " is a binary file (" + HumanBytes(data->size) +
                 "); blame reads text files only"};
  }
  BlameSubject s;
  s.total_lines = CountLines(data->bytes());
  s.file = node.take();
  s.data = data.take();
  return s;
}

namespace {

constexpr size_t kPrefetchCommits = 1000;

// The file's versions at `path` in the commits that changed it, newest first, from `at`.
std::vector<Node> VersionsAlongHistory(RepoReader& reader, const ReadPoint& at,
                                       const RepoPath& path, const StopToken& stop) {
  std::vector<Node> out;
  HistoryFilter filter;
  filter.path = path;
  auto page = Log(reader, at, filter, 0, kPrefetchCommits, stop);
  if (!page) return out;
  for (const CommitLine& c : page->commits) {
    if (stop.stopped()) break;
    ReadPoint point;
    point.label = c.id.Hex();
    point.commit.id = c.id;
    auto node = reader.Find(point, path, stop);
    if (node && node->kind == EntryKind::kFile) out.push_back(node.take());
  }
  return out;
}

}  // namespace

Result<BlameResult> BlameServed(RepoReader& reader, const ReadPoint& at,
                                const BlameSubject& subject, uint32_t first_line,
                                uint32_t max_lines, const StopToken& stop,
                                std::function<void(uint32_t settled, uint32_t total)> progress) {
  const PathPolicy& policy = reader.repo_->policy();
  BlameOptions options;
  options.first_line = first_line;
  options.max_lines = max_lines;
  options.max_blob_bytes = RepoReader::kMaxFileBytes;
  // An earlier path is followed only when this server serves a file there; a name no path may
  // hold (".git", "..") never is.
  options.may_follow = [&policy](std::string_view raw) {
    auto path = RepoPath::Parse(raw);
    return path && !path->is_root() && path->str() == raw && policy.ServesFile(*path);
  };
  options.graph = reader.repo().Graph();
  options.progress = std::move(progress);
  // In a mirror, older versions the walk needs are fetched when missing; each path is judged
  // again by FetchMissing, so only served files' contents are ever asked for. At the first one
  // missing, the versions of the file along its history at this path (git log -- path, up to
  // kPrefetchCommits commits) are fetched in one batch: the walk then seldom needs another.
  bool prefetched = false;
  if (reader.repo().settings().fetcher) {
    options.fetch_missing = [&](const std::vector<std::pair<git_oid, std::string>>& versions) {
      std::vector<Node> nodes;
      if (!prefetched) {
        prefetched = true;
        nodes = VersionsAlongHistory(reader, at, subject.file.path, stop);
      }
      for (const auto& [oid, raw] : versions) {
        auto path = RepoPath::Parse(raw);
        if (!path || path->is_root() || path->str() != raw) continue;
        nodes.push_back(Node{path.take(), EntryKind::kFile, oid});
      }
      reader.FetchMissing(nodes, stop);
    };
  }
  auto result = BlameFile(*reader.lease_, at.commit.id, subject.file.path.str(), options, stop);
  if (!result)
    return Error{"`" + subject.file.path.Display() + "` cannot be blamed: " + result.error()};
  // The engine looks the path up again; a tree that names it twice (which git never writes)
  // could give it another file than the one read.
  if (result->total_lines != subject.total_lines) {
    return Error{"`" + subject.file.path.Display() +
                 "` cannot be blamed: its folder names it more than once"};
  }
  return result;
}

}  // namespace rr
