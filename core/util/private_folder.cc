#include "core/util/private_folder.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace rr {

Status MakePrivateFolder(const std::string& folder, const std::string& what) {
  if (folder.empty() || folder[0] != '/') {
    return Error{what + " must be an absolute path, not `" + folder + "`"};
  }
  for (size_t at = folder.find('/', 1);; at = folder.find('/', at + 1)) {
    const std::string part = at == std::string::npos ? folder : folder.substr(0, at);
    if (!part.empty() && mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) {
      return Error{"cannot make the folder " + part + " for " + what + " (" + std::strerror(errno) +
                   ")"};
    }
    if (at == std::string::npos) break;
  }
  struct stat st {};
  if (lstat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return Error{what + " " + folder + " is not a folder (a link is refused)"};
  }
  if ((st.st_mode & 077) != 0 && chmod(folder.c_str(), 0700) != 0) {
    return Error{"cannot make " + what + " " + folder + " private (" + std::strerror(errno) + ")"};
  }
  return Status::Ok();
}

}  // namespace rr
