#include "core/hosts/group_relister.h"

#include <time.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/answer/host_links.h"
#include "core/secrets/server_log.h"
#include "core/util/text.h"

namespace rr {

std::optional<std::chrono::seconds> ParseRetryAfter(const std::string& value, std::time_t now) {
  const size_t b = value.find_first_not_of(" \t");
  const size_t e = value.find_last_not_of(" \t");
  const std::string v = b == std::string::npos ? std::string() : value.substr(b, e - b + 1);
  if (v.empty()) return std::nullopt;
  if (v.find_first_not_of("0123456789") == std::string::npos) {
    // delay-seconds; anything past a day is a day.
    if (v.size() > 9) return kMaxRetryAfter;
    return std::min(std::chrono::seconds(std::stoll(v)), kMaxRetryAfter);
  }
  // The three forms HTTP allows (RFC 9110, 5.6.7), read in the C locale's day and month names.
  for (const char* format :
       {"%a, %d %b %Y %H:%M:%S GMT", "%A, %d-%b-%y %H:%M:%S GMT", "%a %b %e %H:%M:%S %Y"}) {
    std::tm tm{};
    const char* end = strptime(v.c_str(), format, &tm);
    if (!end || *end != '\0') continue;
    const std::time_t at = timegm(&tm);
    if (at == static_cast<std::time_t>(-1)) continue;
    if (at <= now) return std::chrono::seconds(0);
    return std::min(std::chrono::seconds(at - now), kMaxRetryAfter);
  }
  return std::nullopt;
}

std::chrono::seconds NextListingIn(bool ok, int failures,
                                   std::optional<std::chrono::seconds> retry_after,
                                   std::chrono::seconds every, std::chrono::seconds first_retry,
                                   double jitter) {
  jitter = std::clamp(jitter, 0.0, 0.999999);
  auto spread = [jitter](std::chrono::seconds d) {
    const double s = static_cast<double>(d.count());
    return std::chrono::seconds(static_cast<int64_t>(s - s / 10 + jitter * s / 5));
  };
  if (ok) return spread(every);
  std::chrono::seconds wait = first_retry;
  for (int i = 1; i < failures && wait < every; ++i) wait *= 2;
  wait = spread(std::min(wait, every));
  if (retry_after) wait = std::max(wait, std::min(*retry_after, kMaxRetryAfter));
  return wait;
}

namespace {

std::chrono::seconds EveryOf(const GroupConfig& g) {
  return std::chrono::seconds(g.list_every > 0 ? g.list_every : g.sync_every);
}

std::string Seconds(std::chrono::seconds s) {
  if (s.count() >= 3600 && s.count() % 60 == 0) {
    return std::to_string(s.count() / 3600) + " h " + std::to_string(s.count() % 3600 / 60) +
           " min";
  }
  if (s.count() >= 60) return std::to_string(s.count() / 60) + " min";
  return std::to_string(s.count()) + " s";
}

std::string NameList(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i == 20) return out + ", and " + std::to_string(names.size() - 20) + " more";
    out += (i ? ", " : "") + names[i];
  }
  return out;
}

}  // namespace

GroupRelister::GroupRelister(Config config, const std::vector<GroupOutcome>& outcomes,
                             std::vector<std::shared_ptr<const repo_reader::HostPlugin>> hosts,
                             std::shared_ptr<LiveCatalog> live, MirrorSyncer* syncer,
                             Options options)
    : config_(std::move(config)),
      hosts_(std::move(hosts)),
      live_(std::move(live)),
      syncer_(syncer),
      options_(std::move(options)),
      clock_(options_.clock ? *options_.clock : Clock::Real()),
      // Only to spread listings: any seed will do.
      seed_(static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) |
            1) {
  if (!options_.log) options_.log = [](const std::string& line) { LogLine(line); };
  fixed_mirrors_ = outcomes.empty() ? config_.mirrors.size() : outcomes.front().first_mirror;
  groups_.resize(config_.groups.size());
  const auto now = clock_.Now();
  for (size_t i = 0; i < groups_.size(); ++i) {
    GroupNow& g = groups_[i];
    if (i < outcomes.size()) {
      const GroupOutcome& o = outcomes[i];
      for (size_t m = o.first_mirror; m < o.first_mirror + o.listed && m < config_.mirrors.size();
           ++m) {
        g.mirrors.push_back(config_.mirrors[m]);
      }
      g.failures = o.error.empty() ? 0 : 1;
      const auto wait =
          NextListingIn(o.error.empty(), g.failures, ParseRetryAfter(o.retry_after, clock_.Wall()),
                        EveryOf(config_.groups[i]), options_.first_retry, Jitter());
      g.due = now + wait;
    } else {
      g.due = now;
    }
  }
  config_.mirrors.resize(std::min(fixed_mirrors_, config_.mirrors.size()));
}

GroupRelister::~GroupRelister() { Stop(); }

double GroupRelister::Jitter() {
  seed_ ^= seed_ << 13;
  seed_ ^= seed_ >> 7;
  seed_ ^= seed_ << 17;
  return static_cast<double>(seed_ % 1000000) / 1000000.0;
}

void GroupRelister::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (thread_.joinable() || stop_->load() || groups_.empty()) return;
  thread_ = std::thread([this] { Run(); });
}

void GroupRelister::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_->store(true);
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void GroupRelister::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_->load()) {
    size_t next = 0;
    for (size_t i = 1; i < groups_.size(); ++i) {
      if (groups_[i].due < groups_[next].due) next = i;
    }
    if (clock_.Now() < groups_[next].due) {
      clock_.WaitUntil(lock, cv_, groups_[next].due, [this] { return stop_->load(); });
      continue;
    }
    lock.unlock();
    ListNow(next);
    lock.lock();
  }
}

std::vector<std::string> GroupRelister::Names(size_t index) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  if (index >= groups_.size()) return out;
  for (const auto& m : groups_[index].mirrors) out.push_back(m.name);
  return out;
}

GroupRelister::Relisted GroupRelister::ListNow(size_t index) {
  Relisted r;
  if (index >= groups_.size()) return r;
  const GroupConfig& group = config_.groups[index];
  GroupNow& now = groups_[index];
  r.outcome.label = group.label;
  const std::string head = "repo-reader: group " + group.label;
  ListLimits limits = options_.limits;
  limits.stop = stop_;
  GroupFetch fetched = FetchGroup(group, hosts_, limits, "", nullptr);
  if (!fetched.listing) {
    ++now.failures;
    r.outcome.error = fetched.listing.error();
    r.outcome.retry_after = fetched.retry_after;
    r.next = NextListingIn(false, now.failures, ParseRetryAfter(fetched.retry_after, clock_.Wall()),
                           EveryOf(group), options_.first_retry, Jitter());
    now.due = clock_.Now() + r.next;
    if (!stop_->load()) {
      options_.log(
          head + ": listing it again failed: " + r.outcome.error + " — it keeps its " +
          Plural(now.mirrors.size(), "repository", "repositories") + "; tried again in " +
          Seconds(r.next) +
          (fetched.retry_after.empty() || r.outcome.error.find("Retry-After") != std::string::npos
               ? std::string()
               : " (the host's Retry-After: " + DisplayName(fetched.retry_after) + ")"));
    }
    return r;
  }
  now.failures = 0;
  if (!stop_->load()) {
    for (const auto& line : RefusedLines(head, *fetched.listing)) options_.log(line);
  }
  std::vector<GroupRepo> repos = std::move(fetched.listing->repos);
  if (!config_.mirror_folder.empty()) KeepListing(KeptListingFile(config_, group), repos);

  // What else is served: the repositories and mirrors configured one by one, the other groups.
  std::unordered_set<std::string> names, urls;
  for (const auto& rc : config_.repos) names.insert(rc.name);
  for (const auto& m : config_.mirrors) {
    names.insert(m.name);
    urls.insert(RepositoryUrlKey(m.url));
  }
  for (size_t i = 0; i < groups_.size(); ++i) {
    if (i == index) continue;
    for (const auto& m : groups_[i].mirrors) {
      names.insert(m.name);
      urls.insert(RepositoryUrlKey(m.url));
    }
  }
  std::vector<MirrorConfig> fresh = GroupMirrors(
      config_, group, repos, [&](const std::string& n) { return names.count(n) > 0; },
      [&](const std::string& u) { return urls.count(RepositoryUrlKey(u)) > 0; }, &r.outcome);

  // Kept: the mirror already there (its state, what the syncer holds), its description renewed.
  std::unordered_map<std::string, const MirrorConfig*> before;
  for (const auto& m : now.mirrors) before.emplace(m.dir, &m);
  std::unordered_set<std::string> after_dirs;
  std::vector<std::string> changed;  // folders whose ServedRepo is made again
  std::vector<MirrorConfig> added;
  const HostLinks links(hosts_);
  for (auto& m : fresh) {
    after_dirs.insert(m.dir);
    auto it = before.find(m.dir);
    if (it == before.end()) {
      if (m.state) m.state->set_repo_link(links.RepoLine(m.host_kind, m.url));
      r.added.push_back(m.name);
      added.push_back(m);
      changed.push_back(m.dir);
      continue;
    }
    const std::string description = m.description;
    m = *it->second;
    if (m.description != description) {
      m.description = description;
      changed.push_back(m.dir);
    }
  }
  std::vector<std::string> removed_dirs;
  for (const auto& m : now.mirrors) {
    if (!after_dirs.count(m.dir)) {
      r.removed.push_back(m.name);
      removed_dirs.push_back(m.dir);
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    now.mirrors = std::move(fresh);
  }
  if (!changed.empty() || !removed_dirs.empty() || r.added.size()) {
    auto next = Rebuild(changed);
    if (next) live_->Set(std::move(next));
  }
  // After the swap: calls from now on no longer see a removed repository; one under way still
  // reads its folder, which stays.
  if (syncer_) {
    for (const auto& dir : removed_dirs) syncer_->Remove(dir);
    for (auto& m : added) syncer_->Add(std::move(m));
  }
  r.next = NextListingIn(true, 0, std::nullopt, EveryOf(group), options_.first_retry, Jitter());
  now.due = clock_.Now() + r.next;
  std::string line = head +
                     " listed again: " + Plural(now.mirrors.size(), "repository", "repositories") +
                     " served";
  if (!r.added.empty()) line += "; added: " + NameList(r.added);
  if (!r.removed.empty()) {
    line += "; no longer listed, so no longer served or synced (their folders stay in " +
            config_.mirror_folder + "): " + NameList(r.removed);
  }
  if (r.added.empty() && r.removed.empty()) line += ", none added or removed";
  options_.log(line);
  return r;
}

std::shared_ptr<const Catalog> GroupRelister::Rebuild(const std::vector<std::string>& changed) {
  const std::shared_ptr<const Catalog> old = live_->Get();
  const std::unordered_set<std::string> remade(changed.begin(), changed.end());
  // The old set's mirrors by folder: kept as they are unless made again.
  std::unordered_map<std::string, std::shared_ptr<const ServedRepo>> by_dir;
  for (const auto& repo : old->all()) {
    if (repo->settings().mirror) by_dir.emplace(repo->settings().path, repo);
  }
  std::vector<std::shared_ptr<const ServedRepo>> repos;
  // First those configured one by one, as BuildCatalog orders them: repositories, then mirrors.
  const size_t fixed = config_.repos.size() + config_.mirrors.size();
  for (size_t i = 0; i < fixed && i < old->all().size(); ++i) repos.push_back(old->all()[i]);
  std::shared_ptr<const ServedRepo> guidance;
  if (!config_.guidance_repo.empty()) {
    if (auto g = old->Find(config_.guidance_repo)) guidance = g.take();
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& g : groups_) {
    for (const auto& m : g.mirrors) {
      auto it = by_dir.find(m.dir);
      if (it != by_dir.end() && !remade.count(m.dir)) {
        repos.push_back(it->second);
        continue;
      }
      auto made = options_.serve ? options_.serve(config_, m, guidance)
                                 : Result<std::shared_ptr<const ServedRepo>>(
                                       Error{"no way to serve a mirror was given"});
      if (!made) {
        options_.log("repo-reader: group " + m.group + ": `" + m.name +
                     "` cannot be served: " + made.error());
        continue;
      }
      repos.push_back(made.take());
    }
  }
  return std::make_shared<const Catalog>(std::move(repos));
}

}  // namespace rr
