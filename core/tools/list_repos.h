// list_repos: the repositories this server reads, a page at a time (skip), optionally only
// those whose names match a glob (pattern). Each entry's part read from git -- the default branch
// @ commit (date) — subject, the counts of branches and tags, the guidance mark -- is kept in the
// repository's EntryCache and read again only when its refs change. Entries missing from the
// cache are read in parallel (EntryFiller) for at most kFillBudget (the first kAlwaysRead of a
// page whatever it takes); one not read by then says so ("not read yet") and is read in the
// background for the next call.
#pragma once

#include <chrono>
#include <memory>

#include "core/tools/entry_filler.h"
#include "core/tools/tool.h"

namespace rr {

class ListReposTool : public Tool {
 public:
  // How long a call waits for entries not yet read, in all.
  static constexpr std::chrono::milliseconds kFillBudget{700};
  // The first entries of a page are waited for whatever the budget (up to the call's own limit).
  static constexpr size_t kAlwaysRead = 8;
  // The threads that read entries (started on the first call that needs them).
  static constexpr size_t kFillThreads = 4;

  // Reads entries with `filler` (MakeFiller's; the app's runtime owns and stops it), or with a
  // filler of its own when null.
  explicit ListReposTool(std::shared_ptr<EntryFiller> filler = nullptr);
  const ToolSpec& spec() const override;
  Result<Draft> Call(const CallContext& ctx, const Args& args) const override;

  // The filler list_repos reads entries with: kFillThreads threads, not started.
  static std::shared_ptr<EntryFiller> MakeFiller();

 private:
  std::shared_ptr<EntryFiller> filler_;
};

// Every tool this server offers (BuiltinTools(), core/tools/tool.h), list_repos reading entries
// with `entry_filler` (the app's, MakeFiller; its runtime stops it).
std::vector<std::unique_ptr<const Tool>> BuiltinTools(std::shared_ptr<EntryFiller> entry_filler);

}  // namespace rr
