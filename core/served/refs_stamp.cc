#include "core/served/refs_stamp.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <string_view>
#include <vector>

namespace rr {
namespace {

// splitmix64's finaliser: every bit of the input reaches every bit of the output.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

int64_t Ns(const struct timespec& t) {
  return static_cast<int64_t>(t.tv_sec) * 1000000000 + static_cast<int64_t>(t.tv_nsec);
}

class Digest {
 public:
  void Add(uint64_t v) { h_ = Mix(h_ ^ v); }
  void Add(std::string_view bytes) {
    uint64_t word = 0;
    size_t n = 0;
    for (unsigned char c : bytes) {
      word = (word << 8) | c;
      if (++n == 8) {
        Add(word);
        word = 0;
        n = 0;
      }
    }
    Add(word ^ (static_cast<uint64_t>(bytes.size()) << 56));
  }
  // A file or folder as stat shows it, or that it is absent; notes its latest time.
  void Add(const struct stat* st) {
    if (!st) {
      Add(uint64_t{0xab5e47});
      return;
    }
    Add(static_cast<uint64_t>(st->st_dev));
    Add(static_cast<uint64_t>(st->st_ino));
    Add(static_cast<uint64_t>(st->st_size));
    Add(static_cast<uint64_t>(st->st_mode));
    Add(static_cast<uint64_t>(Ns(st->st_mtim)));
    Add(static_cast<uint64_t>(Ns(st->st_ctim)));
    // Racy by the modification time alone: a change always sets it to the clock's time, so one
    // recorded well before the stamp cannot be met again by a later change. (The change time is
    // in the digest, but setting the modification time by hand sets it too.)
    latest_ = std::max(latest_, Ns(st->st_mtim));
  }
  // True when the file is a link (recorded as the link itself, never where it leads).
  bool AddFile(const std::string& path) {
    struct stat st;
    const bool found = lstat(path.c_str(), &st) == 0;
    Add(found ? &st : nullptr);
    return found && S_ISLNK(st.st_mode);
  }
  uint64_t value() const { return h_; }
  int64_t latest() const { return latest_; }

 private:
  uint64_t h_ = 0x5eed;
  int64_t latest_ = 0;
};

// HEAD's text (it is small: a ref name or a commit id), or "" when it cannot be read.
std::string ReadHead(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return "";
  char buf[512];
  const ssize_t n = read(fd, buf, sizeof buf);
  close(fd);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

// Every folder below `root` (itself included), names sorted so the order never depends on the
// file system. False when there are more than `limit`.
bool AddFolders(const std::string& root, size_t limit, Digest* d) {
  std::vector<std::string> pending{""};
  size_t seen = 0;
  while (!pending.empty()) {
    const std::string rel = std::move(pending.back());
    pending.pop_back();
    if (++seen > limit) return false;
    const std::string path = rel.empty() ? root : root + "/" + rel;
    d->Add(std::string_view(rel));
    DIR* dir = opendir(path.c_str());
    if (!dir) {
      d->Add(static_cast<const struct stat*>(nullptr));
      continue;
    }
    struct stat st;
    d->Add(fstat(dirfd(dir), &st) == 0 ? &st : nullptr);
    std::vector<std::string> subfolders;
    while (const struct dirent* e = readdir(dir)) {
      const std::string_view name = e->d_name;
      if (name == "." || name == "..") continue;
      bool folder = e->d_type == DT_DIR;
      if (e->d_type == DT_UNKNOWN) {
        struct stat child;
        folder = fstatat(dirfd(dir), e->d_name, &child, AT_SYMLINK_NOFOLLOW) == 0 &&
                 S_ISDIR(child.st_mode);
      }
      if (folder) subfolders.emplace_back(name);
    }
    closedir(dir);
    std::sort(subfolders.begin(), subfolders.end(), std::greater<>());
    for (auto& s : subfolders) pending.push_back(rel.empty() ? s : rel + "/" + s);
  }
  return true;
}

}  // namespace

uint64_t FilesDigest(std::initializer_list<std::string> files) {
  Digest d;
  for (const auto& f : files) {
    struct stat st;
    if (stat(f.c_str(), &st) != 0) {
      d.Add(static_cast<const struct stat*>(nullptr));
      continue;
    }
    d.Add(static_cast<uint64_t>(st.st_dev));
    d.Add(static_cast<uint64_t>(st.st_ino));
    d.Add(static_cast<uint64_t>(st.st_size));
    d.Add(static_cast<uint64_t>(Ns(st.st_mtim)));
  }
  return d.value();
}

namespace {

// HEAD, its text, the loose file of the branch it names and packed-refs, added to `d`. False
// when HEAD names a branch whose loose file cannot be trusted alone: HEAD unreadable, the
// name leaving refs/, or (when `branch_text`) a loose file naming another ref.
bool AddHead(const RefsPlace& place, const std::string& common, bool branch_text, Digest* d) {
  d->AddFile(place.git_dir + "/HEAD");
  const std::string head = ReadHead(place.git_dir + "/HEAD");
  d->Add(std::string_view(head));
  // The loose file of the branch HEAD names: git never rewrites it in place, but a hand may.
  constexpr std::string_view kRef = "ref: refs/";
  bool plain = !head.empty();
  if (head.compare(0, kRef.size(), kRef) == 0) {
    std::string name = head.substr(5);
    while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) name.pop_back();
    if (name.find("..") == std::string::npos) {
      const bool link = d->AddFile(common + "/" + name);
      if (branch_text) {
        // A link, or a file that itself names a ref: where it leads is not looked at.
        constexpr std::string_view kSymbolic = "ref:";
        const std::string text = ReadHead(common + "/" + name);
        plain = plain && !link && text.compare(0, kSymbolic.size(), kSymbolic) != 0;
      }
    } else {
      plain = false;
    }
  }
  d->AddFile(common + "/packed-refs");
  return plain;
}

// Racy: not everything could be looked at, or something changed within kRacySeconds of now.
bool Racy(const Digest& d, bool whole) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return !whole || d.latest() > Ns(now) - RefsStamp::kRacySeconds * 1000000000;
}

}  // namespace

RefsStamp RefsStamp::Take(const RefsPlace& place) {
  if (place.empty()) return RefsStamp();  // racy: never trusted
  const std::string& common = place.common_dir.empty() ? place.git_dir : place.common_dir;
  Digest d;
  AddHead(place, common, false, &d);
  const bool whole = AddFolders(common + "/refs", kMaxFolders, &d);
  RefsStamp s;
  s.digest_ = d.value();
  s.racy_ = Racy(d, whole);
  return s;
}

RefsStamp RefsStamp::TakeOfHead(const RefsPlace& place) {
  if (place.empty()) return RefsStamp();
  const std::string& common = place.common_dir.empty() ? place.git_dir : place.common_dir;
  Digest d;
  d.Add(uint64_t{0x4ead});  // never equal to a whole stamp of the same files
  const bool plain = AddHead(place, common, true, &d);
  RefsStamp s;
  s.digest_ = d.value();
  s.racy_ = Racy(d, plain);
  return s;
}

}  // namespace rr
