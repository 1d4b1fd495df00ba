// The wiring from a checked configuration (core/config: plain values) to what is served: each
// repository's and mirror's ServedRepo (its path policy, history index folder, guidance
// repository and, for a mirror, the content fetcher of core/sync/content_fetch.h), the Catalog
// of them all, and each mirror's link to its page on the host. It sits in the app because it is
// the one place that joins the configuration, the read side, the plugins and the sync.
#pragma once

#include <memory>

#include "core/answer/host_links.h"
#include "core/config/config.h"
#include "core/served/catalog.h"
#include "core/served/served_repo.h"
#include "core/util/result.h"

namespace rr {

// The served set for a checked configuration.
Result<std::shared_ptr<const Catalog>> BuildCatalog(const Config& config);

// The served repository for one mirror of `config`, as BuildCatalog makes it; `guidance` is
// the operator's guidance repository (config.guidance_repo) when served, else null.
Result<std::shared_ptr<const ServedRepo>> ServeMirror(
    const Config& config, const MirrorConfig& mirror,
    const std::shared_ptr<const ServedRepo>& guidance);

// Gives each mirror the line list_repos shows for its page on the host (MirrorState::repo_link),
// from the host plugins loaded. Called once, before the catalog is shared.
void LinkRepositories(const Config& config, const HostLinks& links);

}  // namespace rr
