#pragma once

#include "core/tools/tool.h"

namespace rr {

class BlameTool : public Tool {
 public:
  const ToolSpec& spec() const override;
  Result<Draft> Call(const CallContext& ctx, const Args& args) const override;
};

}  // namespace rr
