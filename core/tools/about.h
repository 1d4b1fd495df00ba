#pragma once

#include "core/plugins/loader.h"
#include "core/tools/tool.h"

namespace rr {

// What `about` tells of the plugins and the secret filter, from what was loaded.
std::shared_ptr<const ServerFacts> FactsOf(const Plugins& plugins);

class AboutTool : public Tool {
 public:
  const ToolSpec& spec() const override;
  Result<Draft> Call(const CallContext& ctx, const Args& args) const override;
};

}  // namespace rr
