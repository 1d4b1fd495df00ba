#include "core/secrets/secret_filter.h"

#include <algorithm>
#include <array>
#include <climits>
#include <functional>
#include <map>

#include "core/util/crash_note.h"
#include "core/util/text.h"
#include "repo_reader/plugin_host.h"

namespace rr {

// A deterministic automaton over byte classes that finds every keyword in one pass. Bytes
// that occur in no keyword share class 0; an upper-case ASCII letter shares its lower-case
// letter's class, so matching ignores case. Transitions are stored pre-multiplied by the
// class count, with the top bit set where the target state ends a keyword, so the inner loop is
// one load and one test per byte.
struct SecretFilter::Automaton {
  struct Output {
    uint32_t length;                                 // the keyword's length in bytes
    std::vector<std::pair<uint32_t, uint32_t>> who;  // (detector, keyword index)
  };
  std::array<uint8_t, 256> cls{};
  uint32_t classes = 1;
  static constexpr uint32_t kEnds = 1u << 31;
  std::vector<uint32_t> next;               // state * classes + class -> target * classes (| kEnds)
  std::vector<std::vector<uint32_t>> outs;  // per state: outputs ending here (with fail links)
  std::vector<Output> outputs;
  size_t longest = 0;  // the longest keyword's length in bytes

  static char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

  explicit Automaton(const std::map<std::string, std::vector<std::pair<uint32_t, uint32_t>>>& kw) {
    for (const auto& [word, who] : kw) {
      for (char c : word) {
        const auto b = static_cast<unsigned char>(c);
        if (cls[b] == 0) cls[b] = static_cast<uint8_t>(classes++);
      }
    }
    for (int c = 'A'; c <= 'Z'; ++c) cls[c] = cls[c + 32];
    // The trie.
    std::vector<std::vector<int64_t>> go(1, std::vector<int64_t>(classes, -1));
    std::vector<std::vector<uint32_t>> state_outs(1);
    for (const auto& [word, who] : kw) {
      size_t s = 0;
      for (char c : word) {
        const uint8_t k = cls[static_cast<unsigned char>(c)];
        if (go[s][k] < 0) {
          go[s][k] = static_cast<int64_t>(go.size());
          go.emplace_back(classes, -1);
          state_outs.emplace_back();
        }
        s = static_cast<size_t>(go[s][k]);
      }
      state_outs[s].push_back(static_cast<uint32_t>(outputs.size()));
      outputs.push_back({static_cast<uint32_t>(word.size()), who});
      longest = std::max(longest, word.size());
    }
    // Failure links, breadth first, folded into a full transition table.
    const size_t n = go.size();
    std::vector<size_t> fail(n, 0), order;
    order.reserve(n);
    next.assign(n * classes, 0);
    for (uint32_t k = 0; k < classes; ++k) {
      if (go[0][k] >= 0) {
        const auto t = static_cast<size_t>(go[0][k]);
        fail[t] = 0;
        order.push_back(t);
        next[k] = static_cast<uint32_t>(t * classes);
      }
    }
    for (size_t i = 0; i < order.size(); ++i) {
      const size_t s = order[i];
      for (uint32_t o : state_outs[fail[s]]) state_outs[s].push_back(o);
      for (uint32_t k = 0; k < classes; ++k) {
        if (go[s][k] >= 0) {
          const auto t = static_cast<size_t>(go[s][k]);
          fail[t] = next[fail[s] * classes + k] / classes;
          order.push_back(t);
          next[s * classes + k] = static_cast<uint32_t>(t * classes);
        } else {
          next[s * classes + k] = next[fail[s] * classes + k];
        }
      }
    }
    outs = std::move(state_outs);
    for (auto& t : next) {
      if (!outs[t / classes].empty()) t |= kEnds;
    }
  }
};

namespace {

using repo_reader::KeywordHit;

class CheckedSink : public repo_reader::SpanSink {
 public:
  CheckedSink(size_t size, std::vector<HiddenSpan>* spans) : size_(size), spans_(spans) {}
  void Add(size_t begin, size_t end, std::string_view what) override {
    if (std::string problem = repo_reader::host::SpanProblem(begin, end, size_); !problem.empty()) {
      if (bad_.empty()) bad_ = std::move(problem);
      return;
    }
    std::string label = DisplayName(what.substr(0, repo_reader::host::kLabelLimit));
    if (label.empty()) label = "secret";
    spans_->push_back({begin, end, std::move(label)});
  }
  const std::string& bad() const { return bad_; }

 private:
  size_t size_;
  std::vector<HiddenSpan>* spans_;
  std::string bad_;
};

// A value hidden once is hidden wherever it recurs in the same text: a secret written twice
// (`token = 'v' | 'v'`, a value and its echo in a log line) is not shown by its second copy.
// Only values with no blank: of 12 bytes or more that mix letters and digits, or whose letters
// of both cases change case at every third letter or more often (`vZrEclFwOqeA`; words in
// camelCase change far less: `TestSourcePassword`); of 8 to 11 bytes only letters and digits,
// mixed (`mlm9iqkm`: a name such as `CRAM-MD5`, which a detector may take for a value, recurs in
// code as itself). Shorter ones recur by chance (a word, a port, `ab12cd`). And only where the
// copy stands alone (no letter or digit either side), so a span never ends inside a longer
// token.
void HideRepeats(std::string_view text, std::vector<HiddenSpan>* spans) {
  constexpr size_t kMin = 8, kMinMixedCase = 12, kMax = 4096, kMaxValues = 64;
  std::vector<std::pair<std::string_view, size_t>> values;  // value, the span it came from
  for (size_t k = 0; k < spans->size() && values.size() < kMaxValues; ++k) {
    const HiddenSpan& s = (*spans)[k];
    const size_t size = s.end - s.begin;
    if (size < kMin || size > kMax) continue;
    const std::string_view v = text.substr(s.begin, size);
    // Only a value shaped like a key (letters and digits, no blank): a detector's mistake on a
    // word or a setting (`protocol=http`) is not copied to every line that repeats it.
    bool digit = false, letter = false, blank = false, other = false;
    size_t changes = 0;  // between neighbouring letters of different case
    int last_case = 0;   // of the letter before: 1 lower, 2 upper; 0 none
    for (char c : v) {
      digit |= c >= '0' && c <= '9';
      const int letter_case = c >= 'a' && c <= 'z' ? 1 : c >= 'A' && c <= 'Z' ? 2 : 0;
      letter |= letter_case != 0;
      blank |= c == ' ' || c == '\t' || c == '\n' || c == '\r';
      other |= letter_case == 0 && !(c >= '0' && c <= '9');
      if (letter_case && last_case && letter_case != last_case) ++changes;
      last_case = letter_case;
    }
    const bool mixed_case = size >= kMinMixedCase && changes * 3 >= size;
    if (size < kMinMixedCase && other) continue;
    if (letter && (digit || mixed_case) && !blank) values.emplace_back(v, k);
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end(),
                           [](const auto& a, const auto& b) { return a.first == b.first; }),
               values.end());
  auto alnum = [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  };
  const size_t found = spans->size();
  for (const auto& [value, from] : values) {
    for (size_t at = text.find(value); at != std::string_view::npos;
         at = text.find(value, at + 1)) {
      const size_t end = at + value.size();
      if ((at > 0 && alnum(text[at - 1])) || (end < text.size() && alnum(text[end]))) continue;
      bool covered = false;
      for (size_t k = 0; k < found && !covered; ++k) {
        covered = (*spans)[k].begin <= at && end <= (*spans)[k].end;
      }
      if (!covered) spans->push_back({at, end, (*spans)[from].what});
    }
  }
}

}  // namespace

SecretFilter::~SecretFilter() = default;

std::shared_ptr<const SecretFilter> SecretFilter::Make(std::vector<Detector> detectors,
                                                       std::string* error) {
  std::shared_ptr<SecretFilter> f(new SecretFilter());
  std::map<std::string, std::vector<std::pair<uint32_t, uint32_t>>> words;
  for (auto& d : detectors) {
    Compiled c;
    const std::string where = d.where.empty() ? std::string() : d.where + ": ";
    try {
      const std::string asking = "a secret detector of plugin `" + d.plugin + "` (its keywords)";
      PluginCallNote note(asking.c_str());
      const char* id = d.detector->id();
      c.id = id ? DisplayName(id) : "";
      c.keywords = d.detector->keywords();
    } catch (const repo_reader::host::PluginFailure& e) {
      *error = where + "a secret detector of plugin `" + d.plugin +
               "` failed to say its keywords: " +
               DisplayName(std::string_view(e.what()).substr(
                   std::string_view(e.what()).rfind("threw: ", 0) == 0 ? 7 : 0));
      return nullptr;
    } catch (const std::exception& e) {
      *error = where + "a secret detector of plugin `" + d.plugin +
               "` failed to say its keywords: " + DisplayName(e.what());
      return nullptr;
    } catch (...) {
      *error = where + "a secret detector of plugin `" + d.plugin + "` failed to say its keywords";
      return nullptr;
    }
    if (c.id.empty()) c.id = "(unnamed)";
    c.running = "secret detector `" + c.id + "` of plugin `" + d.plugin + "`";
    const auto index = static_cast<uint32_t>(f->detectors_.size());
    for (uint32_t k = 0; k < c.keywords.size(); ++k) {
      std::string w = c.keywords[k];
      if (!repo_reader::host::UsableKeyword(&w)) {
        *error = where + "secret detector `" + c.id + "` of plugin `" + d.plugin + "`: keyword `" +
                 DisplayName(c.keywords[k]) +
                 "` is not usable: keywords are ASCII, at least 2 characters";
        return nullptr;
      }
      words[w].push_back({index, k});
    }
    if (c.keywords.empty()) f->always_.push_back(index);
    c.d = std::move(d);
    f->detectors_.push_back(std::move(c));
  }
  f->automaton_ = std::make_unique<Automaton>(words);
  return f;
}

std::vector<std::string> SecretFilter::plugins() const {
  std::vector<std::string> names;
  for (const auto& c : detectors_) {
    if (std::find(names.begin(), names.end(), c.d.plugin) == names.end()) {
      names.push_back(c.d.plugin);
    }
  }
  return names;
}

ScanResult SecretFilter::Scan(std::string_view text, TextKind kind, std::string_view path) const {
  ScanResult r;
  if (detectors_.empty() || text.empty()) return r;
  if (text.size() > UINT32_MAX) {
    r.failure = r.failed_by = "the text is larger than the secret filter reads (4 GB)";
    return r;
  }
  // Per-thread buffers: the hits of each detector, reused call after call.
  thread_local std::vector<std::vector<KeywordHit>> hits;
  thread_local std::vector<uint32_t> touched;
  if (hits.size() < detectors_.size()) hits.resize(detectors_.size());
  // Cleared here as well as at the end: a scan that ended early (out of memory) must not leave
  // hits behind that would keep a detector from being called on the next text.
  for (size_t d = 0; d < detectors_.size(); ++d) hits[d].clear();
  touched.clear();

  const Automaton& a = *automaton_;
  const uint32_t* next = a.next.data();
  const uint8_t* cls = a.cls.data();
  const uint32_t classes = a.classes;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  // The keywords ending at byte i in state s, those starting before `limit` only.
  auto found = [&](size_t i, uint32_t s, size_t limit) {
    for (uint32_t o : a.outs[(s & ~Automaton::kEnds) / classes]) {
      const auto& out = a.outputs[o];
      const size_t at = i + 1 - out.length;
      if (at >= limit) continue;
      for (const auto& [d, k] : out.who) {
        if (hits[d].empty()) touched.push_back(d);
        hits[d].push_back({static_cast<uint32_t>(at), k});
      }
    }
  };
  // Each step waits on the one before (a load of the next state), so one pass runs at the
  // memory's latency, not its speed. A long text is read as two halves at once, which the CPU
  // overlaps: the first from byte 0 to `mid` plus the longest keyword less one byte, keeping the
  // keywords that start before `mid`; the second from `mid` in the first state, so that every
  // keyword it finds starts at `mid` or after. Each keyword is found once, by one of them.
  constexpr size_t kTwoHalvesFrom = 4096;
  size_t a_end = n, b_begin = n;
  if (n >= kTwoHalvesFrom && a.longest > 0 && a.longest < n / 4) {
    b_begin = n / 2;
    a_end = b_begin + a.longest - 1;
  }
  uint32_t s = 0, t = 0;
  size_t i = 0, j = b_begin;
  const size_t both = std::min(a_end, n - b_begin);  // steps the two halves take together
  for (; i < both; ++i, ++j) {
    s = next[(s & ~Automaton::kEnds) + cls[p[i]]];
    t = next[(t & ~Automaton::kEnds) + cls[p[j]]];
    if ((s | t) & Automaton::kEnds) {
      if (s & Automaton::kEnds) found(i, s, b_begin);
      if (t & Automaton::kEnds) found(j, t, SIZE_MAX);
    }
  }
  for (; i < a_end; ++i) {
    s = next[(s & ~Automaton::kEnds) + cls[p[i]]];
    if (s & Automaton::kEnds) found(i, s, b_begin);
  }
  for (; j < n; ++j) {
    t = next[(t & ~Automaton::kEnds) + cls[p[j]]];
    if (t & Automaton::kEnds) found(j, t, SIZE_MAX);
  }
  for (uint32_t d : always_) touched.push_back(d);
  std::sort(touched.begin(), touched.end());  // detectors run in load order

  std::vector<HiddenSpan> spans;
  for (uint32_t d : touched) {
    auto& h = hits[d];
    std::sort(h.begin(), h.end(), [](const KeywordHit& x, const KeywordHit& y) {
      return x.offset < y.offset || (x.offset == y.offset && x.keyword < y.keyword);
    });
    const Compiled& c = detectors_[d];
    CheckedSink sink(n, &spans);
    const repo_reader::ScanInput in{text, kind, path, h.empty() ? nullptr : h.data(), h.size()};
    std::string failed;
    try {
      PluginCallNote note(c.running.c_str());
      c.d.detector->Scan(in, sink);
      if (!sink.bad().empty()) failed = sink.bad();
    } catch (const repo_reader::host::PluginFailure& e) {
      failed = DisplayName(repo_reader::host::FailedTail(e.what()).substr(1));
    } catch (const std::exception& e) {
      failed = std::string("threw: ") + DisplayName(e.what());
    } catch (...) {
      failed = "threw";
    }
    h.clear();
    if (!failed.empty() && r.failure.empty()) {
      r.failed_by = "secret detector `" + c.id + "` of plugin `" + c.d.plugin + "`";
      r.failure = r.failed_by + " " + failed;
    }
  }
  for (auto& h : hits) h.clear();
  if (!r.ok()) return r;

  HideRepeats(text, &spans);
  // Stable: of two spans alike, the one from the detector loaded first gives the label.
  repo_reader::host::MergeSpans(std::move(spans), &r.spans);
  return r;
}

ScanResult SecretFilter::ScanBlob(std::string_view blob_id, std::string_view bytes, TextKind kind,
                                  std::string_view path) const {
  if (blob_id.empty() || detectors_.empty() || bytes.empty() || bytes.size() > UINT32_MAX) {
    return Scan(bytes, kind, path);
  }
  // The spans are kept as pieces of a text of one line, at their own offsets.
  const std::string id =
      std::string(blob_id) + ":" + std::to_string(std::hash<std::string_view>()(bytes));
  const std::string key = ScanCache::Key(id, bytes.size(), static_cast<int>(kind), path, "raw/1");
  ScanResult r;
  if (auto kept = blob_scans_->Find(key)) {
    r.spans.reserve(kept->pieces.size());
    for (const auto& p : kept->pieces) r.spans.push_back({p.from, p.to, kept->what[p.span]});
    return r;
  }
  r = Scan(bytes, kind, path);
  if (!r.ok()) return r;
  auto spans = std::make_shared<LineSpans>();
  spans->lines = 1;
  spans->pieces.reserve(r.spans.size());
  spans->what.reserve(r.spans.size());
  for (const auto& sp : r.spans) {
    spans->pieces.push_back({0, static_cast<uint32_t>(sp.begin), static_cast<uint32_t>(sp.end),
                             static_cast<uint32_t>(spans->what.size())});
    spans->what.push_back(sp.what);
  }
  blob_scans_->Keep(key, std::move(spans));
  return r;
}

std::string SecretFilter::Redact(std::string_view text, const std::vector<HiddenSpan>& spans) {
  return repo_reader::host::Redact(text, spans);
}

bool SecretFilter::Clear(const std::vector<HiddenSpan>& spans, size_t begin, size_t end) {
  // The first span ending after `begin`; it overlaps when it starts before `end`.
  auto it = std::upper_bound(spans.begin(), spans.end(), begin,
                             [](size_t b, const HiddenSpan& s) { return b < s.end; });
  if (it == spans.end()) return true;
  const size_t last = end > begin ? end : begin + 1;  // an empty match at a hidden byte
  return it->begin >= last;
}

bool SecretFilter::LineHoldsHidden(const std::vector<HiddenSpan>& spans, size_t line_begin,
                                   size_t line_end) {
  if (line_end <= line_begin) {
    // An empty line holds a hidden value only inside a block that spans it.
    auto it = std::upper_bound(spans.begin(), spans.end(), line_begin,
                               [](size_t b, const HiddenSpan& s) { return b < s.end; });
    return it != spans.end() && it->begin < line_begin;
  }
  return !Clear(spans, line_begin, line_end);
}

bool SecretFilter::HoldsHidden(std::string_view text, TextKind kind) const {
  const ScanResult r = Scan(text, kind);
  return !r.ok() || !r.spans.empty();
}

std::string HiddenNote(size_t count) {
  if (count == 1) {
    return "[1 value that looks like a secret is hidden as `[hidden: …]` — this server never "
           "shows it.]";
  }
  return "[" + WithCommas(count) +
         " values that look like secrets are hidden as `[hidden: …]` — this server never shows "
         "them.]";
}

}  // namespace rr
