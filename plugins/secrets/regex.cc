// Pattern: PCRE2 compilation with JIT, and matching with pooled match data.
#define PCRE2_CODE_UNIT_WIDTH 8
#include "regex.h"

#include <pcre2.h>

#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace rr_secrets {

namespace {

// Match-data blocks sized for kMaxGroups, shared by every pattern: taken for one match and
// given back. A pool rather than a thread_local block: a thread_local with a destructor in a
// library the server loads at run time lives in dynamic TLS, which LeakSanitizer's scan at exit
// misreads (it crashes instead of checking) — and the pool is as cheap, uncontended.
class MatchDataPool {
 public:
  ~MatchDataPool() {
    for (pcre2_match_data* d : free_) pcre2_match_data_free(d);
  }
  pcre2_match_data* Take() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!free_.empty()) {
        pcre2_match_data* d = free_.back();
        free_.pop_back();
        return d;
      }
    }
    return pcre2_match_data_create(Pattern::kMaxGroups, nullptr);
  }
  void Give(pcre2_match_data* d) {
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(d);
  }

 private:
  std::mutex mu_;
  std::vector<pcre2_match_data*> free_;
};

MatchDataPool& Pool() {
  static MatchDataPool pool;
  return pool;
}

// One block for the length of a match.
class MatchData {
 public:
  MatchData() : data_(Pool().Take()) {}
  ~MatchData() {
    if (data_) Pool().Give(data_);
  }
  MatchData(const MatchData&) = delete;
  MatchData& operator=(const MatchData&) = delete;
  pcre2_match_data* get() const { return data_; }

 private:
  pcre2_match_data* data_;
};

}  // namespace

Pattern::Pattern(std::string_view pattern, bool anchored) {
  int code = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* compiled =
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                    (anchored ? PCRE2_ANCHORED : 0u) | PCRE2_DOTALL, &code, &offset, nullptr);
  if (!compiled) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(code, message, sizeof message);
    error_ = "pattern `" + std::string(pattern) + "` does not compile at offset " +
             std::to_string(offset) + ": " + reinterpret_cast<const char*>(message);
    return;
  }
  jit_ = pcre2_jit_compile(compiled, PCRE2_JIT_COMPLETE) == 0;
  code_ = compiled;
}

Pattern::~Pattern() { pcre2_code_free(static_cast<pcre2_code*>(code_)); }

bool Pattern::MatchAt(std::string_view text, size_t start, size_t limit, Match* m) const {
  if (!code_ || start > limit || limit > text.size()) return false;
  MatchData block;
  pcre2_match_data* data = block.get();
  if (!data) throw std::bad_alloc();
  auto* code = static_cast<pcre2_code*>(code_);
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  const int rc = jit_ ? pcre2_jit_match(code, subject, limit, start, 0, data, nullptr)
                      : pcre2_match(code, subject, limit, start, 0, data, nullptr);
  if (rc == PCRE2_ERROR_NOMATCH) return false;
  if (rc < 0) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(rc, message, sizeof message);
    // The pattern is the plugin's own; the subject is never quoted (it may hold the secret).
    throw MatchError("a pattern could not be matched (PCRE2 error " + std::to_string(rc) + ": " +
                     reinterpret_cast<const char*>(message) + ")");
  }
  const int groups = rc == 0 ? kMaxGroups : rc;  // 0: more groups than the ovector holds
  const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data);
  for (int i = 0; i < kMaxGroups; ++i) {
    if (i < groups && ovector[2 * i] != PCRE2_UNSET) {
      m->group[i].begin = ovector[2 * i];
      m->group[i].end = ovector[2 * i + 1];
    } else {
      m->group[i] = Group{};
    }
  }
  return true;
}

}  // namespace rr_secrets
