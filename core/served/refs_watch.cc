#include "core/served/refs_watch.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace rr {
namespace {

// Every change of a name within a watched folder, and of the folder itself.
constexpr uint32_t kMask = IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE |
                           IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF |
                           IN_ONLYDIR | IN_DONT_FOLLOW;

std::string WithoutTrailingSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

// True when no part of `path` is a link: a link re-pointed later would report nothing.
bool NoLinkOnTheWay(const std::string& path) {
  char* real = realpath(path.c_str(), nullptr);
  if (!real) return false;
  const bool same = path == real;
  std::free(real);
  return same;
}

// The first bytes of a small file (HEAD, a loose ref), without following a link; "" when it
// cannot be read.
std::string ReadSmall(const std::string& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return "";
  char buf[512];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  ::close(fd);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

}  // namespace

RefsWatch& RefsWatch::Shared() {
  static auto* watch = new RefsWatch();  // never destroyed: used until the process ends
  return *watch;
}

RefsWatch::RefsWatch() : chunks_(new std::atomic<std::atomic<uint32_t>*>[kMaxChunks]) {
  for (uint32_t i = 0; i < kMaxChunks; ++i) chunks_[i].store(nullptr);
  fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
}

RefsWatch::~RefsWatch() {
  if (fd_ >= 0) ::close(fd_);
  for (uint32_t i = 0; i < kMaxChunks; ++i) delete[] chunks_[i].load();
}

size_t RefsWatch::folders() const {
  std::lock_guard<std::mutex> lock(mu_);
  return watched_;
}

void RefsWatch::Ticket::Put(size_t i, uint32_t counter) {
  if (i >= kInline) {
    if (!more) more.reset(new uint32_t[kMaxCounters - kInline]());
    more[i - kInline] = counter;
    return;
  }
  ids[3 * i] = static_cast<uint8_t>(counter);
  ids[3 * i + 1] = static_cast<uint8_t>(counter >> 8);
  ids[3 * i + 2] = static_cast<uint8_t>(counter >> 16);
}

uint32_t RefsWatch::NewCounter() {
  const uint32_t i = counters_used_;
  if (i / kChunk >= kMaxChunks) return kNoCounter;
  if (i % kChunk == 0) {
    chunks_[i / kChunk].store(new std::atomic<uint32_t>[kChunk](), std::memory_order_release);
  }
  ++counters_used_;
  return i;
}

uint32_t RefsWatch::PartId(std::string_view name) {
  if (auto it = part_ids_.find(name); it != part_ids_.end()) return it->second;
  parts_.emplace_back(name);
  const auto id = static_cast<uint32_t>(parts_.size() - 1);
  part_ids_.emplace(parts_.back(), id);
  return id;
}

bool RefsWatch::Add(const std::string& path, const std::string& name, Ticket* ticket) {
  std::lock_guard<std::mutex> lock(mu_);
  // The kernel answers the watch the folder at `path` has now, if any (however it was reached):
  // a folder renamed away keeps its watch, and another made at the path gets a new one.
  const int wd = inotify_add_watch(fd_, path.c_str(), kMask);
  if (wd < 0) return false;  // the limit of watches reached, say: stamp instead
  const auto at = static_cast<size_t>(wd);
  if (wd > kMaxDescriptor) {
    inotify_rm_watch(fd_, wd);
    return false;
  }
  if (at >= folders_.size()) folders_.resize(at + 1);
  Folder& folder = folders_[at];
  if (folder.self == kNoCounter) {
    folder.self = NewCounter();
    if (folder.self == kNoCounter) {  // every counter used: this folder is not watched
      inotify_rm_watch(fd_, wd);
      return false;
    }
    folder.first = kNoName;
    ++watched_;
  }
  const uint32_t part = PartId(name);
  uint32_t counter = kNoCounter;
  for (uint32_t n = folder.first; n != kNoName; n = names_[n].next) {
    if (names_[n].part == part) counter = names_[n].counter;
  }
  if (counter == kNoCounter) {
    counter = NewCounter();
    if (counter == kNoCounter) return false;
    uint32_t n = free_names_;
    if (n != kNoName) {
      free_names_ = names_[n].next;
    } else {
      n = static_cast<uint32_t>(names_.size());
      names_.emplace_back();
    }
    names_[n] = Name{part, counter, folder.first};
    folder.first = n;
  }
  // Each counter once a ticket (HEAD's, packed-refs' and refs' folder is one).
  auto take = [&](uint32_t c) {
    for (size_t i = 0; i < ticket->count; ++i) {
      if (ticket->At(i) == c) return true;
    }
    if (ticket->count == Ticket::kMaxCounters) return false;
    ticket->Put(ticket->count, c);
    ticket->count++;
    ticket->sum += Counter(c).load();
    return true;
  };
  return take(folder.self) && take(counter);
}

std::shared_ptr<const RefsWatch::Ticket> RefsWatch::Watch(const RefsPlace& place) {
  if (fd_ < 0 || place.empty()) return nullptr;
  const std::string git_dir = WithoutTrailingSlashes(place.git_dir);
  const std::string common =
      place.common_dir.empty() ? git_dir : WithoutTrailingSlashes(place.common_dir);
  if (!NoLinkOnTheWay(git_dir) || !NoLinkOnTheWay(common)) return nullptr;
  auto ticket = std::make_shared<Ticket>();
  // Taken before any counter is read: a report caught meanwhile makes the first Unchanged read
  // the counters.
  ticket->clear_at.store(reported_.load());
  ticket->sum = overflows_.load();
  if (!Add(git_dir, "HEAD", ticket.get()) || !Add(common, "packed-refs", ticket.get())) {
    return nullptr;
  }
  // HEAD is read once it is watched: a change from here on is reported.
  std::string head = ReadSmall(git_dir + "/HEAD");
  constexpr std::string_view kRef = "ref: refs/";
  if (head.compare(0, kRef.size(), kRef) != 0) return nullptr;  // detached, or unreadable
  std::string name = head.substr(5);
  while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) name.pop_back();
  if (name.empty() || name.find("..") != std::string::npos || name.back() == '/' ||
      name.find("//") != std::string::npos) {
    return nullptr;
  }
  // Down to the branch's loose file, each folder watched for the next name (a folder above it
  // renamed, or made where there was none, is reported), as far as the folders exist.
  std::string folder = common;
  size_t from = 0;
  for (;;) {
    const size_t slash = name.find('/', from);
    const std::string part = name.substr(from, slash == std::string::npos ? slash : slash - from);
    if (!Add(folder, part, ticket.get())) return nullptr;
    const std::string next = folder + "/" + part;
    struct stat st {};
    if (slash == std::string::npos) {
      // The loose file, when there is one: a plain file that names a commit, not another ref.
      if (lstat(next.c_str(), &st) != 0) break;  // packed only: its creation is reported
      if (!S_ISREG(st.st_mode)) return nullptr;
      if (ReadSmall(next).compare(0, 4, "ref:") == 0) return nullptr;
      break;
    }
    if (lstat(next.c_str(), &st) != 0) break;  // its creation is reported
    if (!S_ISDIR(st.st_mode)) return nullptr;  // a link, say
    folder = next;
    from = slash + 1;
  }
  return ticket;
}

std::shared_ptr<const RefsWatch::Ticket> RefsWatch::WatchFile(const std::string& folder,
                                                              const std::string& name) {
  if (fd_ < 0) return nullptr;
  const std::string path = WithoutTrailingSlashes(folder);
  if (!NoLinkOnTheWay(path)) return nullptr;
  auto ticket = std::make_shared<Ticket>();
  ticket->clear_at.store(reported_.load());
  ticket->sum = overflows_.load();
  if (!Add(path, name, ticket.get())) return nullptr;
  return ticket;
}

void RefsWatch::Catch() {
  if (fd_ < 0) return;
  std::lock_guard<std::mutex> lock(mu_);
  alignas(inotify_event) char buf[64 * 1024];
  bool any = false;  // a counter moved: reported_ moves after it
  for (;;) {
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n <= 0) break;  // none left (EAGAIN)
    for (const char* p = buf; p < buf + n;) {
      inotify_event ev;
      std::memcpy(&ev, p, sizeof ev);
      const char* name = p + sizeof(inotify_event);
      p += sizeof(inotify_event) + ev.len;
      if (ev.mask & IN_Q_OVERFLOW) {
        overflows_.fetch_add(1);  // reports were lost: every ticket is stale
        any = true;
        continue;
      }
      if (ev.wd <= 0 || static_cast<size_t>(ev.wd) >= folders_.size()) continue;
      Folder& folder = folders_[static_cast<size_t>(ev.wd)];
      if (folder.self == kNoCounter) continue;
      if (ev.mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT)) {
        Counter(folder.self).fetch_add(1);
        any = true;
      }
      if (ev.len > 0) {
        const std::string_view changed(name, strnlen(name, ev.len));
        for (uint32_t n = folder.first; n != kNoName; n = names_[n].next) {
          if (parts_[names_[n].part] == changed) {
            Counter(names_[n].counter).fetch_add(1);
            any = true;
          }
        }
      }
      // The watch is gone (the folder removed): its counters stay, for the tickets holding them;
      // its names are taken again by other folders.
      if (ev.mask & IN_IGNORED) {
        if (folder.first != kNoName) {
          uint32_t last = folder.first;
          while (names_[last].next != kNoName) last = names_[last].next;
          names_[last].next = free_names_;
          free_names_ = folder.first;
        }
        folder = Folder{};
        --watched_;
      }
    }
  }
  if (any) reported_.fetch_add(1);
}

bool RefsWatch::Unchanged(const Ticket& ticket) const {
  // No report since the ticket was last found unchanged: it still is. (reported_ moves after
  // the counters, within the Catch that read the report, so a change caught before this call
  // always sends it to the counters.)
  const uint64_t reported = reported_.load();
  if (ticket.clear_at.load(std::memory_order_relaxed) == reported) return true;
  uint64_t sum = overflows_.load();
  for (size_t i = 0; i < ticket.count; ++i) sum += Counter(ticket.At(i)).load();
  if ((sum & ((uint64_t{1} << 56) - 1)) != ticket.sum) return false;
  ticket.clear_at.store(reported, std::memory_order_relaxed);
  return true;
}

}  // namespace rr
