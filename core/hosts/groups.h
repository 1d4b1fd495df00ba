// Groups become mirrors: each `groups:` entry is listed through its host plugin (ListGroup) and
// every repository it keeps is added to the configuration as a mirror (GroupMirror), which the
// sync then keeps like any other.
//
// The listing is kept in the mirror folder (`groups/<digest>.json`) and read when a listing
// fails: the group keeps what it had. What is read there is checked again as if the host had
// just sent it (the same path rules and filters), so a file written there by anything else
// cannot add a repository the entry does not take. A repository also configured one by one (the
// same address, however spelt) is left out of the group: it is served once, by its own entry.
//
// Listed when the server starts (before it serves), and by `--check --online`. Progress goes to
// `log` (stderr): the group, page by page. While the server runs, each group is listed again
// by the GroupRelister (group_relister.h), with FetchGroup and GroupMirrors below.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/config/config.h"
#include "core/hosts/group_listing.h"
#include "core/plugins/loader.h"

namespace rr {

struct GroupOutcome {
  std::string label;        // "github.com/acme"
  size_t listed = 0;        // repositories the group brings
  size_t served_once = 0;   // left out: configured one by one too
  size_t unnamed = 0;       // left out: a path no name may be here, or a name already taken
  bool from_kept = false;   // the listing failed; the kept one was used
  std::string error;        // why the listing failed ("" when it did not)
  std::string retry_after;  // the host's Retry-After when it refused for a while (429, 503)
  size_t first_mirror = 0;  // where its mirrors begin in config->mirrors (`listed` of them)
};

// One listing of one group through its host plugin (from `hosts`), with its token. `head`
// begins each progress line given to `log` (may be empty: no progress).
struct GroupFetch {
  Result<GroupListing> listing = Error{""};
  std::string retry_after;  // as ListGroup gives it
};
GroupFetch FetchGroup(const GroupConfig& group,
                      const std::vector<std::shared_ptr<const repo_reader::HostPlugin>>& hosts,
                      const ListLimits& limits, const std::string& head,
                      const std::function<void(const std::string&)>& log);

// The mirrors a group's listed repositories become, in the host's order: each one's name not
// `name_taken`, its address not `url_served` (served by another entry: configured one by one,
// or listed by an earlier group). Counts what it leaves out in `outcome` (listed, served_once,
// unnamed).
std::vector<MirrorConfig> GroupMirrors(const Config& config, const GroupConfig& group,
                                       const std::vector<GroupRepo>& repos,
                                       const std::function<bool(const std::string&)>& name_taken,
                                       const std::function<bool(const std::string&)>& url_served,
                                       GroupOutcome* outcome);

// Writes a group's listing where it is kept (KeptListingFile), replacing the one before at once.
void KeepListing(const std::string& file, const std::vector<GroupRepo>& repos);

// The log's lines, each after `head`, for the entries a listing refused for their paths
// (GroupListing::refused): none when it refused none.
std::vector<std::string> RefusedLines(const std::string& head, const GroupListing& listing);

// Lists every group and adds its repositories to config->mirrors. A group whose listing fails
// (and that has no kept listing) adds nothing; the others are unaffected. `log` hears progress
// and outcomes, one line each.
std::vector<GroupOutcome> ExpandGroups(Config* config, const Plugins& plugins,
                                       const std::function<void(const std::string&)>& log,
                                       const ListLimits& limits = {});

// Where a group's listing is kept.
std::string KeptListingFile(const Config& config, const GroupConfig& group);

}  // namespace rr
