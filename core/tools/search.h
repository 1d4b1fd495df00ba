// search: the lines matching a pattern across repositories at once, on each one's default
// branch; at most 5 lines a file, so that an answer surveys many files. A repository that
// cannot be opened is reported in its place while the others answer.
#pragma once

#include "core/tools/tool.h"

namespace rr {

class SearchTool : public Tool {
 public:
  const ToolSpec& spec() const override;
  Result<Draft> Call(const CallContext& ctx, const Args& args) const override;
};

}  // namespace rr
