// The pack reader (core/git/pack_reader.h): a pack, its version-2 index and its reverse index
// (.rev), written to a folder as a repository's objects/pack/ holds them, opened by
// PackReader::Open, and every object the index lists (up to 64) read as a blob: whole entries and
// OFS_DELTA / REF_DELTA chains, inflated with libdeflate.
//
// Input: a byte of flags, the index (length-prefixed), the reverse index (length-prefixed), then
// the pack. Flags 1 and 2 make the index's recorded pack checksum and the pack header's object
// count agree with the pack and the index (checks a mutation almost never passes, and which
// hide everything behind them).
#include <git2.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "core/git/pack_reader.h"
#include "fuzz_util.h"

namespace {

uint32_t Be32(const char* p) {
  const auto* u = reinterpret_cast<const uint8_t*>(p);
  return uint32_t{u[0]} << 24 | uint32_t{u[1]} << 16 | uint32_t{u[2]} << 8 | u[3];
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rr_fuzz::Input in(data, size);
  const uint8_t flags = in.Byte();
  std::string idx(in.Part(1 << 20));
  const std::string rev(in.Part(1 << 16));
  std::string pack(in.Rest());
  constexpr size_t kId = 20;
  const bool idx_ok = idx.size() >= 8 + 256 * 4 + 2 * kId;
  const uint32_t count = idx_ok ? Be32(idx.data() + 8 + 255 * 4) : 0;
  if ((flags & 1) && idx_ok && pack.size() >= 12 + kId) {
    idx.replace(idx.size() - 2 * kId, kId, pack, pack.size() - kId, kId);
  }
  if ((flags & 2) && idx_ok && pack.size() >= 12 + kId) {
    for (int i = 0; i < 4; ++i) pack[8 + i] = static_cast<char>(count >> (24 - 8 * i));
  }

  static const std::string objects = [] {
    const std::string o = rr_fuzz::ScratchDir() + "/objects";
    rr_fuzz::MakeDir(o);
    rr_fuzz::MakeDir(o + "/pack");
    return o;
  }();
  const std::string base = objects + "/pack/pack-fuzz";
  std::vector<std::string> files = {base + ".idx", base + ".pack"};
  rr_fuzz::WriteFile(base + ".idx", idx);
  rr_fuzz::WriteFile(base + ".pack", pack);
  if (!rev.empty()) {
    files.push_back(base + ".rev");
    rr_fuzz::WriteFile(base + ".rev", rev);
  }
  {
    auto reader = rr::PackReader::Open(objects);
    if (reader->packs() > 0) {
      const size_t listed = (idx.size() - (8 + 256 * 4)) / kId;
      const size_t n = std::min<size_t>({count, 64, listed});
      std::string out;
      for (size_t i = 0; i < n; ++i) {
        git_oid oid;
        std::memcpy(oid.id, idx.data() + 8 + 256 * 4 + i * kId, kId);
        (void)reader->ReadBlob(oid, 1 << 20, &out);
        (void)reader->ReadBlob(oid, 64, &out);  // the size limit, on a small blob
      }
      (void)reader->Current();
    }
  }
  rr_fuzz::RemoveFiles(files);
  return 0;
}
