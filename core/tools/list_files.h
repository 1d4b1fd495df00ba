// list_files: a folder at any ref, its direct content or (recursive) every file under it, paged
// with skip; with outline, each Markdown file's headings beneath it (recursive: at most 40
// Markdown files, else refused saying how to narrow).
#pragma once

#include "core/tools/tool.h"

namespace rr {

class ListFilesTool : public Tool {
 public:
  const ToolSpec& spec() const override;
  Result<Draft> Call(const CallContext& ctx, const Args& args) const override;
};

}  // namespace rr
