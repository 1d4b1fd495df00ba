#include "core/sync/mirror_sync.h"

#include <git2.h>
#include <sys/stat.h>

#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "core/git/git_repo.h"
#include "core/served/served_repo.h"
#include "core/sync/token.h"
#include "core/util/text.h"

namespace rr {
namespace {

constexpr const char* kStaging = "refs/rr-sync/";

// What ls-remote answered.
struct Remote {
  std::string head;                         // "main", or "" when the host names none
  std::map<std::string, std::string> refs;  // full name -> id, branches and tags only
};

bool PlainRefName(const std::string& name) {
  if (name.empty() || name.size() > 1000) return false;
  for (unsigned char c : name) {
    if (c <= ' ' || c == 0x7f || c == ':' || c == '\\' || c == '~' || c == '^' || c == '?' ||
        c == '*' || c == '[') {
      return false;
    }
  }
  return name.find("..") == std::string::npos;
}

std::vector<std::string_view> Parts(std::string_view name) {
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (i <= name.size()) {
    size_t j = name.find('/', i);
    if (j == std::string_view::npos) j = name.size();
    parts.push_back(name.substr(i, j - i));
    i = j + 1;
  }
  return parts;
}

Remote ParseLsRemote(const std::string& out) {
  Remote r;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("ref: ", 0) == 0) {
      const size_t tab = line.find('\t');
      if (tab != std::string::npos && line.substr(tab + 1) == "HEAD") {
        const std::string target = line.substr(5, tab - 5);
        if (target.rfind("refs/heads/", 0) == 0) r.head = target.substr(11);
      }
      continue;
    }
    const size_t tab = line.find('\t');
    if (tab != 40 && tab != 64) continue;
    const std::string name = line.substr(tab + 1);
    if (name.size() > 3 && name.compare(name.size() - 3, 3, "^{}") == 0) continue;
    if ((name.rfind("refs/heads/", 0) == 0 || name.rfind("refs/tags/", 0) == 0) &&
        PlainRefName(name)) {
      r.refs[name] = line.substr(0, tab);
    }
  }
  return r;
}

class Sync {
 public:
  Sync(const GitProcess& git, const MirrorConfig& m, std::chrono::steady_clock::time_point deadline,
       std::shared_ptr<std::atomic<bool>> stop)
      : git_(git), m_(m), deadline_(deadline), stop_(std::move(stop)) {}

  Result<SyncReport> Run() {
    if (!m_.token_env.empty()) {
      auto t = HostToken::FromEnvironment(m_.token_env, m_.host_kind);
      if (!t) return Error{t.error()};
      token_ = t.take();
    }
    auto r = Steps();
    if (!r) return Error{Scrub(r.error())};
    return r;
  }

 private:
  std::string Scrub(std::string text) const {
    return token_ ? token_->Scrub(std::move(text)) : text;
  }

  GitRun Local(std::string sub, std::vector<std::string> args, std::string input = "") const {
    GitRun run;
    run.subcommand = std::move(sub);
    run.args = std::move(args);
    run.git_dir = m_.dir;
    run.input = std::move(input);
    run.deadline = deadline_;
    return run;
  }

  // A run that reaches the host (MirrorNetworkRun).
  GitRun Network(std::string sub, std::vector<std::string> args, std::string input = "") const {
    return MirrorNetworkRun(m_, token_ ? &*token_ : nullptr, std::move(sub), std::move(args),
                            std::move(input), deadline_);
  }

  Result<GitOutput> Git(const GitRun& run, const char* what) const {
    auto out = git_.Run(run, stop_.get());
    if (!out) return Error{out.error()};
    if (out->stopped) return Error{"the sync was stopped"};
    if (out->timed_out)
      return Error{std::string(what) + " took longer than a sync may (30 minutes)"};
    if (out->too_much) return Error{std::string(what) + " wrote more than the sync reads"};
    if (out->status != 0) {
      std::string err = out->err;
      while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
      if (err.size() > 2000) err = err.substr(0, 2000) + "…";
      return Error{std::string(what) + " failed: " + DisplayName(Scrub(err))};
    }
    return out;
  }

  Status Prepare() {
    const std::string& folder = git_.folder();
    for (const std::string& d : {folder, folder + "/.home"}) {
      if (mkdir(d.c_str(), 0700) != 0 && errno != EEXIST) {
        // A parent may be missing: make the whole path.
        std::string partial;
        for (const auto& part : Parts(d)) {
          partial += std::string(part) + "/";
          if (partial != "/") mkdir(partial.c_str(), 0700);
        }
      }
      struct stat st;
      if (stat(d.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        return Error{"the mirror folder " + d + " cannot be made: " + std::strerror(errno)};
      }
    }
    struct stat st;
    if (stat((m_.dir + "/HEAD").c_str(), &st) != 0) {
      auto init = Git(Local("init", {"--bare", "--quiet"}), "making the mirror (git init)");
      if (!init) return Error{init.error()};
    }
    auto set = Git(Local("config", {"remote.origin.url", m_.url}), "setting the mirror's remote");
    if (!set) return Error{set.error()};
    return Status::Ok();
  }

  // A fetch with a filter marks the mirror as repository format version 1, though it names no
  // extension (the promisor is in remote.origin.*; git reads that in either version). Opening a
  // version-1 repository, libgit2 1.5 checks each configuration entry against its extensions
  // and leaks PCRE2 match data (about 20 KB) for every entry that is not one: some 80 KB each
  // time a mirror is opened, which grew the server by that much for every mirror synced. At
  // version 0 libgit2 checks nothing. A mirror whose configuration does name an extension is
  // left as git made it.
  Status KeepFormatVersionZero() const {
    auto ext = git_.Run(Local("config", {"--get-regexp", "^extensions\\."}), stop_.get());
    if (!ext) return Error{ext.error()};
    if (ext->status == 0) return Status::Ok();  // it names an extension: leave it
    if (ext->status != 1) {
      return Error{"reading the mirror's configuration failed: " + Scrub(ext->err)};
    }
    auto set = Git(Local("config", {"core.repositoryformatversion", "0"}),
                   "setting the mirror's format version");
    if (!set) return Error{set.error()};
    return Status::Ok();
  }

  Result<SyncReport> Steps() {
    if (Status s = Prepare(); !s) return Error{s.error()};
    auto listed = Git(Network("ls-remote", {"--symref", "origin"}), "listing the host's refs");
    if (!listed) return Error{listed.error()};
    const Remote remote = ParseLsRemote(listed->out);

    SyncReport report;
    report.default_branch = remote.head;
    if (report.default_branch.empty() || !remote.refs.count("refs/heads/" + remote.head)) {
      for (const char* b : {"main", "master"}) {
        if (remote.refs.count(std::string("refs/heads/") + b)) report.default_branch = b;
      }
      if (report.default_branch.empty() ||
          !remote.refs.count("refs/heads/" + report.default_branch)) {
        report.default_branch.clear();
        for (const auto& [name, id] : remote.refs) {
          if (name.rfind("refs/heads/", 0) == 0) {
            report.default_branch = name.substr(11);
            break;
          }
        }
      }
    }
    std::vector<Glob> globs;
    for (const auto& g : m_.refs) {
      auto c = Glob::CompileWhole(g);
      if (c) globs.push_back(c.take());
    }
    std::vector<std::string> wanted;
    for (const auto& [name, id] : remote.refs) {
      const bool branch = name.rfind("refs/heads/", 0) == 0;
      const std::string short_name = name.substr(branch ? 11 : 10);
      bool keep = branch && short_name == report.default_branch;
      if (!keep && m_.refs.empty()) keep = !branch;
      for (const auto& g : globs) keep = keep || g.Matches(Parts(short_name));
      if (keep) wanted.push_back(name);
    }

    // 3. History without contents, into staging refs.
    std::string refspecs;
    for (const auto& name : wanted) refspecs += "+" + name + ":" + kStaging + name.substr(5) + "\n";
    if (!wanted.empty()) {
      auto fetched = Git(Network("fetch", FetchArgs(), refspecs), "fetching the history");
      if (!fetched) return Error{fetched.error()};
    }
    if (Status s = KeepFormatVersionZero(); !s) return Error{s.error()};

    // Which staged refs name a commit (a tag of a tree or of a file's contents is not kept).
    InitGitLibrary();
    std::map<std::string, std::string> keep;  // served ref -> id it will name
    std::set<std::string> tips;               // commit ids to walk
    std::vector<std::string> staged_all, served_now;
    size_t left_out = 0;
    {
      git_repository* raw = nullptr;
      if (git_repository_open_bare(&raw, m_.dir.c_str()) != 0) {
        return Error{"the mirror cannot be opened: " + LastGitError()};
      }
      std::unique_ptr<git_repository, Deleter> repo(raw);
      for (const auto& name : wanted) {
        const std::string staged = kStaging + name.substr(5);
        git_reference* ref = nullptr;
        if (git_reference_lookup(&ref, repo.get(), staged.c_str()) != 0) {
          return Error{"the host did not send " + DisplayName(name) +
                       "; the sync is tried again later"};
        }
        git_object* commit = nullptr;
        const git_oid target = *git_reference_target(ref);
        const bool is_commit = git_reference_peel(&commit, ref, GIT_OBJECT_COMMIT) == 0;
        git_reference_free(ref);
        if (!is_commit) {
          ++left_out;
          continue;
        }
        char hex[GIT_OID_HEXSZ + 1];
        git_oid_tostr(hex, sizeof hex, &target);
        keep[name] = hex;
        git_oid_tostr(hex, sizeof hex, git_object_id(commit));
        tips.insert(hex);
        git_object_free(commit);
      }
      ListRefs(repo.get(), "refs/rr-sync/*", &staged_all);
      ListRefs(repo.get(), "refs/heads/*", &served_now);
      ListRefs(repo.get(), "refs/tags/*", &served_now);
    }
    if (left_out) {
      report.refs_left_out = Plural(left_out, "tag names", "tags name") +
                             " a folder or a file's contents rather than a commit: not kept";
    }

    // 4. The served files' contents the mirror lacks.
    auto missing = MissingContents(tips);
    if (!missing) return Error{missing.error()};
    if (!missing->empty()) {
      std::string ids;
      for (const auto& id : *missing) ids += id + "\n";
      // Without "have" lines, as git's own lazy fetch of a partial clone asks: told that the
      // mirror has the commits, the host may send contents as deltas against older contents
      // the mirror never fetched, which it then cannot resolve ("did not send all necessary
      // objects"; found by bench/mirrors.py on a repository with long delta chains).
      GitRun contents = Network("fetch", FetchArgs(), ids);
      contents.config.push_back({"fetch.negotiationAlgorithm", "noop"});
      auto fetched = Git(contents, "fetching the served files' contents");
      if (!fetched) return Error{fetched.error()};
      auto still = MissingContents(tips);
      if (!still) return Error{still.error()};
      if (!still->empty()) {
        return Error{"the host did not send the contents of " +
                     Plural(still->size(), "served file", "served files") +
                     "; the last good state stays served and the sync is tried again later"};
      }
      report.contents = missing->size();
    }

    // 5. One transaction: the served refs move, the staging refs go.
    std::string tx;
    for (const auto& [name, id] : keep) tx += "update " + name + " " + id + "\n";
    for (const auto& name : served_now) {
      if (!keep.count(name)) tx += "delete " + name + "\n";
    }
    for (const auto& name : staged_all) tx += "delete " + name + "\n";
    if (!tx.empty()) {
      auto moved = Git(Local("update-ref", {"--stdin"}, tx), "moving the mirror's refs");
      if (!moved) return Error{moved.error()};
    }
    if (!report.default_branch.empty()) {
      auto head = Git(Local("symbolic-ref", {"HEAD", "refs/heads/" + report.default_branch}),
                      "naming the default branch");
      if (!head) return Error{head.error()};
    }
    report.refs = keep.size();
    return report;
  }

  static std::vector<std::string> FetchArgs() { return MirrorFetchArgs(); }

  static std::string LastGitError() {
    const git_error* e = git_error_last();
    return e && e->message ? DisplayName(e->message) : std::string("unknown error");
  }

  static void ListRefs(git_repository* repo, const char* glob, std::vector<std::string>* out) {
    git_reference_iterator* raw = nullptr;
    if (git_reference_iterator_glob_new(&raw, repo, glob) != 0) return;
    const char* name = nullptr;
    while (git_reference_next_name(&name, raw) == 0) out->push_back(name);
    git_reference_iterator_free(raw);
  }

  // The ids of the served files' contents (and links' targets) at `tips` that the mirror
  // lacks: a walk through the policy layer, so nothing include / exclude keep out is named.
  Result<std::set<std::string>> MissingContents(const std::set<std::string>& tips) const {
    std::set<std::string> missing;
    if (tips.empty()) return missing;
    RepoSettings settings;
    settings.name = m_.name;
    settings.path = m_.dir;
    auto policy = PathPolicy::Make(m_.include, m_.exclude, m_.serve_credential_files);
    if (!policy) return Error{policy.error()};
    settings.policy = policy.take();
    ServedRepo served(std::move(settings));
    auto reader = served.Open();
    if (!reader) return Error{reader.error()};
    const auto budget = deadline_ - std::chrono::steady_clock::now();
    StopToken stop(stop_, std::chrono::duration_cast<StopToken::Clock::duration>(
                              std::max(budget, StopToken::Clock::duration::zero())));
    for (const auto& tip : tips) {
      auto at = reader->At(tip);
      if (!at) return Error{at.error()};
      auto root = reader->Find(*at, RepoPath::Root(), stop);
      if (!root) continue;  // nothing served at this commit
      size_t too_deep = 0;
      Status walked = reader->Walk(
          *root, stop,
          [&](const Node& n) {
            if ((n.kind == EntryKind::kFile || n.kind == EntryKind::kLink) && !reader->Size(n)) {
              char hex[GIT_OID_HEXSZ + 1];
              git_oid_tostr(hex, sizeof hex, &n.oid);
              missing.insert(hex);
            }
            return true;
          },
          &too_deep);
      if (!walked) return Error{stop.stopped() ? "the sync was stopped" : walked.error()};
    }
    return missing;
  }

  const GitProcess& git_;
  const MirrorConfig& m_;
  std::chrono::steady_clock::time_point deadline_;
  std::shared_ptr<std::atomic<bool>> stop_;
  std::optional<HostToken> token_;
};

}  // namespace

std::shared_ptr<std::timed_mutex> MirrorLock(const std::string& dir) {
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<std::timed_mutex>> locks;
  std::lock_guard<std::mutex> guard(mu);
  auto& slot = locks[dir];
  auto lock = slot.lock();
  if (!lock) {
    lock = std::make_shared<std::timed_mutex>();
    slot = lock;
  }
  return lock;
}

GitRun MirrorNetworkRun(const MirrorConfig& mirror, const HostToken* token, std::string subcommand,
                        std::vector<std::string> args, std::string input,
                        std::chrono::steady_clock::time_point deadline) {
  GitRun run;
  run.subcommand = std::move(subcommand);
  run.args = std::move(args);
  run.git_dir = mirror.dir;
  run.input = std::move(input);
  run.deadline = deadline;
  const bool https = mirror.url.rfind("https://", 0) == 0;
  run.allow_protocol = https ? "https" : "http";
  if (token) run.config = token->GitConfig(mirror.url);
  run.config.push_back({"credential." + mirror.url + ".helper", ""});
  if (!https) run.config.push_back({"http." + mirror.url + ".proxy", ""});
  return run;
}

std::vector<std::string> MirrorFetchArgs() {
  return {"--no-tags",
          "--recurse-submodules=no",
          "--filter=blob:none",
          "--no-write-fetch-head",
          "--refmap=",
          "--no-auto-gc",
          "--no-auto-maintenance",
          "--no-write-commit-graph",
          "--no-show-forced-updates",
          "--quiet",
          "--stdin",
          "origin"};
}

Result<SyncReport> SyncMirror(const GitProcess& git, const MirrorConfig& mirror,
                              std::chrono::steady_clock::time_point deadline,
                              const std::shared_ptr<std::atomic<bool>>& stop) {
  if (mirror.dir.empty()) return Error{"mirror `" + mirror.name + "` has no folder"};
  // No on-demand fetch of this mirror runs meanwhile (content_fetch.h); one running now ends
  // within its call's time.
  const auto lock = MirrorLock(mirror.dir);
  std::lock_guard<std::timed_mutex> held(*lock);
  return Sync(git, mirror, deadline, stop ? stop : std::make_shared<std::atomic<bool>>(false))
      .Run();
}

}  // namespace rr
