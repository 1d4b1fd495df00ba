// Values shaped like secrets for the secret-filter tests, generated from a seed so that every
// run sees the same ones. None is real: each is random characters in a provider's documented
// alphabet and length.
#pragma once

#include <random>
#include <string>

namespace rr::testing {

// `n` characters from `alphabet`, the same on every run for a given seed.
inline std::string Chars(size_t n, const std::string& alphabet, unsigned seed) {
  std::mt19937 rng(seed);
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(alphabet[rng() % alphabet.size()]);
  return s;
}

inline const std::string kBase62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
inline const std::string kUpperDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
inline const std::string kHex = "0123456789abcdef";

}  // namespace rr::testing
