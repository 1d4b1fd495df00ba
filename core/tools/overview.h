// overview: a repository's own map in one call — the first of INDEX.md, index.md and README.md at
// its root, whole up to half of the answer, then every served file with its size, folders once
// with their files beneath. Everything is read through RepoReader, so include / exclude and the
// credential-file rule apply: a file kept out is neither the index nor listed.
#pragma once

#include "core/tools/tool.h"

namespace rr {

class OverviewTool : public Tool {
 public:
  const ToolSpec& spec() const override;
  Result<Draft> Call(const CallContext& ctx, const Args& args) const override;
};

}  // namespace rr
