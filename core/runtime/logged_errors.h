// What a background service (core/runtime/periodic.h) last logged of each repository that
// failed, so that a failure is logged once, not once a pass, and again when it changes -- the
// history indexer's and the text indexer's way. Only a 64-bit digest of each error's text is
// kept: keeping the whole text cost about 0.3 KB a failing repository for the server's life
// (20,000 shallow clones, each "the history is incomplete: ..." with its own commit ids) -- and
// of the repository, its NameKey (core/util/name_key.h): 32 bytes a failing repository, where
// the name kept too took 72 and more.
//
// Not thread-safe: a service calls it from its own thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/util/name_key.h"

namespace rr {

class LoggedErrors {
 public:
  // True when `error` is not the error last logged for `repo` (a digest equal by chance, one in
  // 2^64, would leave a changed error unlogged until the next change); it is then the one
  // logged.
  bool First(const std::string& repo, std::string_view error);
  // `repo` went through: its next failure is logged whatever it is.
  void Clear(const std::string& repo) { last_.erase(NameKey(repo)); }
  size_t failing() const { return last_.size(); }  // how many are kept (for tests)

 private:
  std::unordered_map<uint64_t, uint64_t> last_;  // NameKey(repository) -> its error's digest
};

}  // namespace rr
