// read_file: a file at any ref as numbered lines, a window of it (start_line, max_lines), or its
// outline (core/outline/outline.h). `paths` reads up to 20 files in one answer, in the order given,
// each under a line of its own: a file that cannot be read says why in its place, and a cut names
// the exact calls that continue (the file shown in part, the files not reached). Each file is a
// Draft part, so the secret filter reads it as that file alone.
#pragma once

#include "core/tools/tool.h"

namespace rr {

class ReadFileTool : public Tool {
 public:
  const ToolSpec& spec() const override;
  Result<Draft> Call(const CallContext& ctx, const Args& args) const override;
};

}  // namespace rr
