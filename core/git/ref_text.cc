#include "core/git/ref_text.h"

#include "core/util/text.h"

namespace rr {

Result<RefText> RefText::Parse(std::string_view text) {
  const std::string shown = "ref `" + EchoArgument(text) + "` is refused: ";
  if (text.empty()) {
    return Error{
        "ref is empty; give a branch, tag or commit id, or leave ref out for the "
        "default branch"};
  }
  if (text.size() > kMaxBytes) {
    return Error{"ref is " + WithCommas(text.size()) + " bytes long; a ref may be at most " +
                 WithCommas(kMaxBytes) + " bytes"};
  }
  if (text.front() == '-') {
    return Error{shown +
                 "a ref may not start with -; to read a branch named like an option, give the "
                 "commit id list_refs shows for it"};
  }
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7F) {
      return Error{shown + "a ref may not hold spaces or control characters"};
    }
  }
  if (text.find(':') != std::string_view::npos) {
    return Error{shown +
                 "`:` selects a file or searches messages; give the ref alone and the path in "
                 "the path argument"};
  }
  if (text.find('{') != std::string_view::npos || text.find('}') != std::string_view::npos) {
    return Error{shown +
                 "revision syntax with { } (such as @{upstream} or ^{tree}) is not "
                 "accepted; give a branch, tag or commit id, optionally with ~N or ^N"};
  }
  if (text.find("..") != std::string_view::npos) {
    return Error{shown + "a range (a..b) is not one commit; give a single branch, tag or commit"};
  }
  for (char bad : {'*', '?', '[', '\\'}) {
    if (text.find(bad) != std::string_view::npos) {
      return Error{shown + "`" + std::string(1, bad) +
                   "` is not allowed in a ref; give a branch, tag or commit id"};
    }
  }
  RefText r;
  r.text_ = std::string(text);
  return r;
}

}  // namespace rr
