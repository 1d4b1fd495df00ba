#include "core/policy/repo_path.h"

#include <strings.h>

#include "core/util/text.h"

namespace rr {
namespace {

bool IsDotGit(std::string_view part) {
  return part.size() == 4 && strncasecmp(part.data(), ".git", 4) == 0;
}

}  // namespace

bool IsServableEntryName(std::string_view name) {
  if (name.empty() || name == "." || name == ".." || IsDotGit(name)) return false;
  for (char c : name) {
    if (c == '/' || c == '\0') return false;
  }
  return true;
}

Result<RepoPath> RepoPath::Parse(std::string_view text) {
  if (text.size() > kMaxBytes) {
    return Error{"path is " + WithCommas(text.size()) + " bytes long; a path may be at most " +
                 WithCommas(kMaxBytes) + " bytes"};
  }
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u == 0)
      return Error{"path `" + EchoArgument(text) + "` holds a NUL byte; write a plain path"};
    if (u < 0x20 || u == 0x7F) {
      return Error{"path `" + EchoArgument(text) +
                   "` holds a control character; write a plain path such as src/app.py"};
    }
  }
  std::string_view t = text;
  if (!t.empty() && t.front() == '/') t.remove_prefix(1);
  if (!t.empty() && t.back() == '/') t.remove_suffix(1);
  RepoPath p;
  if (t.empty()) return p;
  size_t start = 0;
  while (true) {
    const size_t slash = t.find('/', start);
    const std::string_view part =
        t.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (part.empty()) {
      return Error{"path `" + EchoArgument(text) +
                   "` has an empty part (`//`); write each folder once, e.g. src/app.py"};
    }
    if (part == "." || part == "..") {
      return Error{"path `" + EchoArgument(text) + "` has a `" + std::string(part) +
                   "` part; paths are written from the repository's root without . or .."};
    }
    if (IsDotGit(part)) {
      return Error{"path `" + EchoArgument(text) +
                   "` has a `.git` part; a repository's own .git folder is never served"};
    }
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  p.text_ = std::string(t);
  return p;
}

std::vector<std::string_view> RepoPath::parts() const {
  std::vector<std::string_view> out;
  if (text_.empty()) return out;
  std::string_view t = text_;
  size_t start = 0;
  while (true) {
    const size_t slash = t.find('/', start);
    if (slash == std::string_view::npos) {
      out.push_back(t.substr(start));
      break;
    }
    out.push_back(t.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

std::string_view RepoPath::name() const {
  const size_t slash = text_.rfind('/');
  return slash == std::string::npos ? std::string_view(text_)
                                    : std::string_view(text_).substr(slash + 1);
}

RepoPath RepoPath::Parent() const {
  RepoPath p;
  const size_t slash = text_.rfind('/');
  if (slash != std::string::npos) p.text_ = text_.substr(0, slash);
  return p;
}

RepoPath RepoPath::Child(std::string_view entry_name) const {
  RepoPath p;
  p.text_.reserve(text_.size() + 1 + entry_name.size());
  p.text_ = text_;
  if (!p.text_.empty()) p.text_.push_back('/');
  p.text_.append(entry_name);
  return p;
}

std::string RepoPath::Display() const { return text_.empty() ? "/" : DisplayName(text_); }

}  // namespace rr
