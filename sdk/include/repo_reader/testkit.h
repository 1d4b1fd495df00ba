// repo-reader plugin SDK: a test kit for a plugin's own test suite (GoogleTest or any other).
//
// It loads a built plugin with the server's own host side of the C boundary (plugin_host.h: the
// shared object, the `repo_reader_plugin_entry` entry, the ABI check, the factories) and runs
// its secret detectors on sample texts with the filter's own rules: every keyword of every
// detector found in any case, each detector called only when one of its keywords occurs, spans
// checked, merged and shown as the server shows them.
//
//   repo_reader::testkit::LoadedPlugin plugin("build/acme-tokens.so");
//   ASSERT_TRUE(plugin.ok()) << plugin.error();
//   auto found = plugin.Scan("token: acme_live_0123456789abcdef", repo_reader::TextKind::kFile,
//                            "config/app.yml");
//   EXPECT_EQ(found.redacted, "token: [hidden: Acme token]");
//
// Header-only. Needs -ldl. Not thread-safe per object. Errors are values: a plugin that cannot
// be loaded answers ok() == false with the reason (the checks the server makes at load: ABI,
// name, kinds and factories, keywords); a detector that fails or reports an empty span or one
// outside the text fails the scan (Scanned::error).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "repo_reader/plugin_host.h"
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
    std::string why;
    lib_ = host::Library::Open(path, &why);
    if (!lib_) {
      error_ = "cannot load " + path + ": " + why;
      return;
    }
    const host::Opened opened = host::OpenPlugin(*lib_, path);
    if (!opened.entry) {
      error_ = opened.error;
      return;
    }
    if (opened.entry->kinds & kSecretDetectorPlugin) {
      auto made = host::MakeDetectors(*opened.entry, settings, lib_);
      if (!made.error.empty()) {
        error_ = made.error;
        return;
      }
      for (auto& d : made.made) {
        Detector det;
        try {
          det.keywords = d->keywords();
        } catch (const std::exception& e) {
          error_ = std::string(d->id() ? d->id() : "a detector") +
                   ": failed to say its keywords: " + e.what();
          return;
        }
        for (auto& k : det.keywords) {
          const std::string given = k;
          if (!host::UsableKeyword(&k)) {
            error_ = std::string(d->id() ? d->id() : "a detector") + ": keyword `" + given +
                     "` is not usable: keywords are ASCII, at least 2 characters";
            return;
          }
        }
        det.detector = std::move(d);
        detectors_.push_back(std::move(det));
      }
      if (detectors_.empty()) {
        error_ = "a secret-detector plugin that gives no detector";
        return;
      }
    }
    if (opened.entry->kinds & kHostPlugin) {
      auto made = host::MakeHosts(*opened.entry, settings, lib_);
      if (!made.error.empty()) {
        error_ = made.error;
        return;
      }
      for (auto& h : made.made) hosts_.push_back(std::move(h));
    }
    entry_ = opened.entry;
  }

  ~LoadedPlugin() {
    detectors_.clear();  // before the library goes (each also holds it)
    hosts_.clear();
  }

  bool ok() const { return error_.empty() && entry_ != nullptr; }
  const std::string& error() const { return error_; }
  // The plugin's C entry (plugin_abi.h): name, version, description, kinds, abi_version.
  const rr_plugin* entry() const { return entry_; }
  size_t detector_count() const { return detectors_.size(); }
  // The host kinds a host plugin gave (owned here; valid while this object lives).
  std::vector<const HostPlugin*> hosts() const {
    std::vector<const HostPlugin*> out;
    for (const auto& h : hosts_) out.push_back(h.get());
    return out;
  }
  std::vector<std::string> detector_ids() const {
    std::vector<std::string> ids;
    for (const auto& d : detectors_) ids.push_back(d.detector->id() ? d.detector->id() : "");
    return ids;
  }

  // Runs every detector on `text` as the server's filter would.
  Scanned Scan(std::string_view text, TextKind kind = TextKind::kFile,
               std::string_view path = {}) const {
    Scanned out;
    std::string lower(text);
    for (auto& c : lower) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    }
    std::vector<Span> spans;
    for (const auto& d : detectors_) {
      std::vector<KeywordHit> hits;
      for (uint32_t k = 0; k < d.keywords.size(); ++k) {
        const std::string& word = d.keywords[k];
        for (size_t at = lower.find(word); at != std::string::npos; at = lower.find(word, at + 1)) {
          hits.push_back({static_cast<uint32_t>(at), k});
        }
      }
      if (!d.keywords.empty() && hits.empty()) continue;
      std::sort(hits.begin(), hits.end(), [](const KeywordHit& a, const KeywordHit& b) {
        return a.offset < b.offset || (a.offset == b.offset && a.keyword < b.keyword);
      });
      const std::string id = d.detector->id() ? d.detector->id() : "";
      Sink sink(text.size(), id, &spans);
      ScanInput in{text, kind, path, hits.empty() ? nullptr : hits.data(), hits.size()};
      try {
        d.detector->Scan(in, sink);
      } catch (const host::PluginFailure& e) {
        out.error = id + host::FailedTail(e.what());
      } catch (const std::exception& e) {
        out.error = id + " threw: " + e.what();
      }
      if (out.error.empty() && !sink.error.empty()) out.error = sink.error;
      if (!out.error.empty()) return out;
    }
    host::MergeSpans(std::move(spans), &out.spans);
    out.redacted = host::Redact(text, out.spans);
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
  struct Detector {
    std::unique_ptr<host::HostedDetector> detector;
    std::vector<std::string> keywords;
  };
  class Sink : public SpanSink {
   public:
    Sink(size_t size, std::string id, std::vector<Span>* spans)
        : size_(size), id_(std::move(id)), spans_(spans) {}
    void Add(size_t begin, size_t end, std::string_view what) override {
      if (std::string problem = host::SpanProblem(begin, end, size_); !problem.empty()) {
        if (error.empty()) error = id_ + " " + problem;
        return;
      }
      // The server shows at most 40 bytes of a label.
      spans_->push_back({begin, end, std::string(what.substr(0, host::kLabelLimit)), id_});
    }
    std::string error;

   private:
    size_t size_;
    std::string id_;
    std::vector<Span>* spans_;
  };

  std::shared_ptr<host::Library> lib_;
  const rr_plugin* entry_ = nullptr;
  std::vector<Detector> detectors_;
  std::vector<std::unique_ptr<host::HostedHost>> hosts_;
  std::string error_;
};

}  // namespace repo_reader::testkit
