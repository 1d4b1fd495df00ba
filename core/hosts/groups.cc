#include "core/hosts/groups.h"

#include <Poco/DigestEngine.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/SHA1Engine.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "core/sync/token.h"
#include "core/util/text.h"

namespace rr {

namespace {

GroupQuerySpec SpecOf(const GroupConfig& g) {
  GroupQuerySpec s;
  s.web = g.host;
  s.api = g.api;
  s.owner = g.owner;
  s.kind = g.user ? repo_reader::OwnerKind::kUser : repo_reader::OwnerKind::kOrganisation;
  s.names = g.names;
  s.archived = g.archived;
  s.forks = g.forks;
  s.one_level = NamesHaveOneLevel(g.host_kind);
  return s;
}

const repo_reader::HostPlugin* PluginFor(
    const std::vector<std::shared_ptr<const repo_reader::HostPlugin>>& hosts,
    const std::string& kind) {
  for (const auto& h : hosts) {
    if (kind == h->kind()) return h.get();
  }
  return nullptr;
}

}  // namespace

void KeepListing(const std::string& file, const std::vector<GroupRepo>& repos) {
  Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
  for (const auto& r : repos) {
    Poco::JSON::Object::Ptr o = new Poco::JSON::Object;
    o->set("path", r.path);
    o->set("description", r.description);
    o->set("default_branch", r.default_branch);
    o->set("archived", r.archived);
    o->set("fork", r.fork);
    list->add(o);
  }
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
  const std::string tmp = file + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    list->stringify(out);
    if (!out) return;
  }
  std::rename(tmp.c_str(), file.c_str());
}

std::vector<std::string> RefusedLines(const std::string& head, const GroupListing& listing) {
  std::vector<std::string> lines;
  for (const auto& r : listing.refused)
    lines.push_back(head + ": a listed entry is left out: " + r);
  if (listing.refused_count > listing.refused.size()) {
    lines.push_back(head + ": " + WithCommas(listing.refused_count - listing.refused.size()) +
                    " more listed entries are left out for their paths");
  }
  return lines;
}

namespace {

// The kept listing, checked again entry by entry as if the host had sent it.
Result<std::vector<GroupRepo>> ReadKept(const std::string& file, const GroupQuerySpec& spec,
                                        size_t max_repos) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Error{"no listing is kept yet"};
  std::stringstream text;
  text << in.rdbuf();
  std::vector<GroupRepo> out;
  try {
    Poco::JSON::Parser parser;
    auto list = parser.parse(text.str()).extract<Poco::JSON::Array::Ptr>();
    for (size_t i = 0; i < list->size() && out.size() < max_repos; ++i) {
      auto o = list->getObject(static_cast<unsigned>(i));
      if (!o) continue;
      repo_reader::ListedRepo listed;
      listed.path = o->optValue<std::string>("path", "");
      listed.description = o->optValue<std::string>("description", "");
      listed.default_branch = o->optValue<std::string>("default_branch", "");
      listed.archived = o->optValue<bool>("archived", false);
      listed.fork = o->optValue<bool>("fork", false);
      GroupRepo repo;
      if (AcceptListed(spec, listed, &repo)) out.push_back(std::move(repo));
    }
  } catch (...) {
    return Error{"the kept listing " + file + " cannot be read"};
  }
  return out;
}

}  // namespace

std::string KeptListingFile(const Config& config, const GroupConfig& g) {
  Poco::SHA1Engine sha1;
  for (const std::string& part : {g.host, g.api, g.owner, std::string(g.user ? "user" : "org")}) {
    sha1.update(part);
    sha1.update(std::string(1, '\0'));
  }
  return config.mirror_folder + "/groups/" + Poco::DigestEngine::digestToHex(sha1.digest()) +
         ".json";
}

GroupFetch FetchGroup(const GroupConfig& group,
                      const std::vector<std::shared_ptr<const repo_reader::HostPlugin>>& hosts,
                      const ListLimits& limits, const std::string& head,
                      const std::function<void(const std::string&)>& log) {
  auto say = [&](const std::string& line) {
    if (log && !head.empty()) log(line);
  };
  GroupFetch out;
  const repo_reader::HostPlugin* host = PluginFor(hosts, group.host_kind);
  if (!host) {
    out.listing = Error{"no host plugin serves host kind `" + group.host_kind + "`"};
    return out;
  }
  std::optional<HostToken> token;
  if (!group.token_env.empty()) {
    auto t = HostToken::FromEnvironment(group.token_env, group.host_kind);
    if (!t) {
      out.listing = Error{t.error()};
      return out;
    }
    token = t.take();
  }
  say(head + ": listing through " + group.api);
  out.listing = ListGroup(
      *host, SpecOf(group), token ? &*token : nullptr, limits,
      [&](size_t pages, size_t kept_so_far) {
        say(head + ": page " + std::to_string(pages) + ", " +
            Plural(kept_so_far, "repository", "repositories") + " so far");
      },
      &out.retry_after);
  return out;
}

std::vector<MirrorConfig> GroupMirrors(const Config& config, const GroupConfig& group,
                                       const std::vector<GroupRepo>& repos,
                                       const std::function<bool(const std::string&)>& name_taken,
                                       const std::function<bool(const std::string&)>& url_served,
                                       GroupOutcome* outcome) {
  std::vector<MirrorConfig> out;
  std::unordered_set<std::string> names, urls;  // this group's own, so far
  for (const auto& repo : repos) {
    const std::string key = RepositoryUrlKey(repo.url);
    if (url_served(repo.url) || urls.count(key)) {
      ++outcome->served_once;
      continue;
    }
    auto mirror = GroupMirror(config, group, repo.path, repo.description);
    if (!mirror || name_taken(mirror->name) || names.count(mirror->name)) {
      ++outcome->unnamed;
      continue;
    }
    names.insert(mirror->name);
    urls.insert(key);
    out.push_back(mirror.take());
    ++outcome->listed;
  }
  return out;
}

std::vector<GroupOutcome> ExpandGroups(Config* config, const Plugins& plugins,
                                       const std::function<void(const std::string&)>& log,
                                       const ListLimits& limits) {
  std::vector<GroupOutcome> outcomes;
  auto say = [&](const std::string& line) {
    if (log) log(line);
  };
  // What is served so far: names, and addresses (however spelt).
  std::unordered_set<std::string> names, urls;
  for (const auto& r : config->repos) names.insert(r.name);
  for (const auto& m : config->mirrors) {
    names.insert(m.name);
    urls.insert(RepositoryUrlKey(m.url));
  }
  size_t k = 0;
  for (const auto& group : config->groups) {
    ++k;
    GroupOutcome outcome;
    outcome.label = group.label;
    const GroupQuerySpec spec = SpecOf(group);
    const std::string kept = config->mirror_folder.empty() ? "" : KeptListingFile(*config, group);
    std::vector<GroupRepo> repos;
    const std::string head = "group " + std::to_string(k) + " of " +
                             std::to_string(config->groups.size()) + ", " + group.label;
    GroupFetch fetched = FetchGroup(group, plugins.hosts, limits, head, say);
    Result<GroupListing>& listing = fetched.listing;
    if (listing) {
      for (const auto& line : RefusedLines(head, *listing)) say(line);
      repos = std::move(listing->repos);
      if (listing->capped) {
        say(head + ": the listing stopped at " + WithCommas(limits.max_repos) +
            " repositories, the most a group lists");
      }
      if (!kept.empty()) KeepListing(kept, repos);
    } else {
      outcome.error = listing.error();
      outcome.retry_after = fetched.retry_after;
      auto before = kept.empty() ? Result<std::vector<GroupRepo>>(Error{"none kept"})
                                 : ReadKept(kept, spec, limits.max_repos);
      if (before) {
        repos = before.take();
        outcome.from_kept = true;
      }
      say(head + ": the listing failed: " + outcome.error +
          (outcome.from_kept
               ? " — the kept listing (" + Plural(repos.size(), "repository", "repositories") +
                     ") is served"
               : std::string(" — nothing of it is served until a listing succeeds")));
    }
    outcome.first_mirror = config->mirrors.size();
    auto mirrors = GroupMirrors(
        *config, group, repos, [&](const std::string& name) { return names.count(name) > 0; },
        [&](const std::string& url) { return urls.count(RepositoryUrlKey(url)) > 0; }, &outcome);
    for (auto& m : mirrors) {
      names.insert(m.name);
      urls.insert(RepositoryUrlKey(m.url));
      config->mirrors.push_back(std::move(m));
    }
    say(head + ": " + Plural(outcome.listed, "repository", "repositories") + " served" +
        (outcome.served_once
             ? ", " + std::to_string(outcome.served_once) + " left out as configured one by one"
             : std::string()) +
        (outcome.unnamed
             ? ", " + std::to_string(outcome.unnamed) +
                   " left out for a name that cannot be served here (not a valid name, or taken)"
             : std::string()));
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

}  // namespace rr
