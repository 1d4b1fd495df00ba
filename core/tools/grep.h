// grep: the lines matching a pattern in one repository at any ref, with lines of context, in
// git grep's format (core/tools/text_hits.h). Up to 100 matching lines a file; binary files
// skipped; only served files searched (core/search/text_search.h).
#pragma once

#include "core/tools/tool.h"

namespace rr {

class GrepTool : public Tool {
 public:
  const ToolSpec& spec() const override;
  Result<Draft> Call(const CallContext& ctx, const Args& args) const override;
};

}  // namespace rr
