// repo-reader plugin SDK: a test kit for a plugin's own test suite (GoogleTest or any other).
//
// It loads a built plugin exactly as the server does — the shared object, the
// `repo_reader_plugin` entry, the ABI check, the factories — and runs its secret detectors on
// sample texts the way the server's filter does: every keyword of every detector found in any
// case, each detector called only when one of its keywords occurs, spans checked and merged.
//
//   repo_reader::testkit::LoadedPlugin plugin("build/acme-tokens.so");
//   ASSERT_TRUE(plugin.ok()) << plugin.error();
//   auto found = plugin.Scan("token: acme_live_0123456789abcdef", repo_reader::TextKind::kFile,
//                            "config/app.yml");
//   EXPECT_EQ(found.redacted, "token: [hidden: Acme token]");
//
// Header-only. Needs Boost.DLL (Debian: libboost-dev) and -ldl. Not thread-safe per object.
// Errors are values: a plugin that cannot be loaded answers ok() == false with the reason (it
// makes the checks the server makes at load: ABI, name, kinds and factories, keywords); a
// detector that throws or reports an empty span or one outside the text fails the scan
// (Scanned::error).
#pragma once

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#define BOOST_DLL_USE_STD_FS 1
#include <boost/dll/shared_library.hpp>

#include "repo_reader/sdk.h"

namespace repo_reader::testkit {

struct Span {
  size_t begin = 0, end = 0;
  std::string what;
  std::string detector;  // the id of the detector that reported it
};

struct Scanned {
  std::vector<Span> spans;  // merged where they overlap, in order
  std::string redacted;     // the text with each span shown as [hidden: <what>]
  std::string error;        // non-empty: a detector failed; spans and redacted are empty
};

class LoadedPlugin {
 public:
  explicit LoadedPlugin(const std::string& path, const PluginSettings& settings = {}) {
    try {
      lib_ = std::make_shared<boost::dll::shared_library>(
          path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    } catch (const std::exception& e) {
      error_ = "cannot load " + path + ": " + e.what();
      return;
    }
    if (!lib_->has(kEntrySymbol)) {
      error_ = path + " exports no `" + std::string(kEntrySymbol) + "` entry";
      return;
    }
    try {
      auto& entry_fn = lib_->get_alias<PluginEntryFunction>(kEntrySymbol);
      entry_ = entry_fn();
    } catch (...) {
      error_ = "the entry threw";
      return;
    }
    if (!entry_) {
      error_ = "the entry answered nothing";
      return;
    }
    if (entry_->abi_version != kAbiVersion) {
      error_ = "built against ABI version " + std::to_string(entry_->abi_version) +
               ", the SDK is version " + std::to_string(kAbiVersion);
      entry_ = nullptr;
      return;
    }
    if (entry_->entry_size != sizeof(PluginEntry)) {
      error_ = "the entry's size does not match this SDK's";
      entry_ = nullptr;
      return;
    }
    // The checks the server makes at load, so that a plugin that passes its own tests loads.
    if (!ValidName(entry_->name)) {
      error_ = "the entry gives no valid name (1 to 64 of a-z, 0-9, '.', '_', '-')";
      entry_ = nullptr;
      return;
    }
    const uint32_t known = kSecretDetectorPlugin | kHostPlugin;
    if (entry_->kinds == 0 || (entry_->kinds & ~known) ||
        ((entry_->kinds & kSecretDetectorPlugin) && !entry_->make_secret_detectors) ||
        ((entry_->kinds & kHostPlugin) && !entry_->make_hosts)) {
      error_ = "the entry names no known kind, or a kind without its factory";
      entry_ = nullptr;
      return;
    }
    if (entry_->kinds & kSecretDetectorPlugin) {
      try {
        auto made = entry_->make_secret_detectors(settings);
        if (!made.error.empty()) {
          error_ = "make_secret_detectors: " + made.error;
          return;
        }
        for (auto& d : made.made) {
          if (!d) continue;
          Detector det;
          det.keywords = d->keywords();
          for (auto& k : det.keywords) {
            bool ascii = k.size() >= 2;
            for (auto& c : k) {
              if (static_cast<unsigned char>(c) >= 0x80 || c == 0) ascii = false;
              c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            }
            if (!ascii) {
              error_ = std::string(d->id()) + ": keyword `" + k +
                       "` is not usable: keywords are ASCII, at least 2 characters";
              return;
            }
          }
          det.detector = std::move(d);
          detectors_.push_back(std::move(det));
        }
        if (detectors_.empty()) error_ = "a secret-detector plugin that gives no detector";
      } catch (const std::exception& e) {
        error_ = std::string("make_secret_detectors threw: ") + e.what();
      } catch (...) {
        error_ = "make_secret_detectors threw";
      }
    }
    if (error_.empty() && (entry_->kinds & kHostPlugin)) {
      try {
        auto made = entry_->make_hosts(settings);
        if (!made.error.empty()) {
          error_ = "make_hosts: " + made.error;
          return;
        }
        for (auto& h : made.made) {
          if (h) hosts_.push_back(std::move(h));
        }
      } catch (const std::exception& e) {
        error_ = std::string("make_hosts threw: ") + e.what();
      } catch (...) {
        error_ = "make_hosts threw";
      }
    }
  }

  ~LoadedPlugin() {
    detectors_.clear();  // before the library goes
    hosts_.clear();
  }

  bool ok() const { return error_.empty() && entry_ != nullptr; }
  const std::string& error() const { return error_; }
  const PluginEntry* entry() const { return entry_; }
  size_t detector_count() const { return detectors_.size(); }
  // The host kinds a host plugin gave (owned here; valid while this object lives).
  std::vector<const HostPlugin*> hosts() const {
    std::vector<const HostPlugin*> out;
    for (const auto& h : hosts_) out.push_back(h.get());
    return out;
  }
  std::vector<std::string> detector_ids() const {
    std::vector<std::string> ids;
    for (const auto& d : detectors_) ids.push_back(d.detector->id());
    return ids;
  }

  // Runs every detector on `text` as the server's filter would.
  Scanned Scan(std::string_view text, TextKind kind = TextKind::kFile,
               std::string_view path = {}) const {
    Scanned out;
    std::string lower(text);
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::vector<Span> spans;
    for (const auto& d : detectors_) {
      std::vector<KeywordHit> hits;
      for (uint32_t k = 0; k < d.keywords.size(); ++k) {
        const std::string& word = d.keywords[k];
        if (word.empty()) continue;
        for (size_t at = lower.find(word); at != std::string::npos; at = lower.find(word, at + 1)) {
          hits.push_back({static_cast<uint32_t>(at), k});
        }
      }
      if (!d.keywords.empty() && hits.empty()) continue;
      std::sort(hits.begin(), hits.end(), [](const KeywordHit& a, const KeywordHit& b) {
        return a.offset < b.offset || (a.offset == b.offset && a.keyword < b.keyword);
      });
      Sink sink(text.size(), d.detector->id(), &spans);
      ScanInput in{text, kind, path, hits.empty() ? nullptr : hits.data(), hits.size()};
      try {
        d.detector->Scan(in, sink);
      } catch (const std::exception& e) {
        out.error = std::string(d.detector->id()) + " threw: " + e.what();
      } catch (...) {
        out.error = std::string(d.detector->id()) + " threw";
      }
      if (out.error.empty() && !sink.error.empty()) out.error = sink.error;
      if (!out.error.empty()) return out;
    }
    std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
      return a.begin < b.begin || (a.begin == b.begin && a.end > b.end);
    });
    for (auto& s : spans) {
      if (!out.spans.empty() && s.begin < out.spans.back().end) {
        out.spans.back().end = std::max(out.spans.back().end, s.end);
      } else {
        out.spans.push_back(std::move(s));
      }
    }
    size_t at = 0;
    for (const auto& s : out.spans) {
      out.redacted.append(text.substr(at, s.begin - at));
      out.redacted += "[hidden: " + s.what + "]";
      at = s.end;
    }
    out.redacted.append(text.substr(at));
    return out;
  }

  // True when every byte of `needle`'s first occurrence in `text` is hidden.
  bool Hides(std::string_view text, std::string_view needle, TextKind kind = TextKind::kFile,
             std::string_view path = {}) const {
    const size_t at = text.find(needle);
    if (at == std::string_view::npos) return false;
    const Scanned s = Scan(text, kind, path);
    for (const auto& span : s.spans) {
      if (span.begin <= at && span.end >= at + needle.size()) return true;
    }
    return false;
  }

 private:
  static bool ValidName(const char* name) {
    if (!name) return false;
    size_t n = 0;
    for (; name[n] && n <= 64; ++n) {
      const char c = name[n];
      const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      if (n == 0 && !alnum) return false;
      if (!alnum && c != '.' && c != '_' && c != '-') return false;
    }
    return n >= 1 && n <= 64;
  }

  struct Detector {
    std::unique_ptr<SecretDetector> detector;
    std::vector<std::string> keywords;
  };
  class Sink : public SpanSink {
   public:
    Sink(size_t size, std::string id, std::vector<Span>* spans)
        : size_(size), id_(std::move(id)), spans_(spans) {}
    void Add(size_t begin, size_t end, std::string_view what) override {
      if (begin >= end || end > size_) {
        error = id_ + " reported a span outside the text (" + std::to_string(begin) + ".." +
                std::to_string(end) + " of " + std::to_string(size_) + ")";
        return;
      }
      // The server shows at most 40 bytes of a label.
      spans_->push_back({begin, end, std::string(what.substr(0, 40)), id_});
    }
    std::string error;

   private:
    size_t size_;
    std::string id_;
    std::vector<Span>* spans_;
  };

  std::shared_ptr<boost::dll::shared_library> lib_;
  const PluginEntry* entry_ = nullptr;
  std::vector<Detector> detectors_;
  std::vector<std::unique_ptr<HostPlugin>> hosts_;
  std::string error_;
};

}  // namespace repo_reader::testkit
