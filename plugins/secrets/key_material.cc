// key-material (no keywords; a line scan): two or more consecutive lines of 64, 70 or 76
// characters of base64 with both cases and digits or '+' '/' (a diff hunk or a window showing only
// a key's body), unless a certificate's or public key's BEGIN line is the nearest marker above
// them, their first line starts like a certificate, a public key or a known file format (PNG,
// JPEG, fonts, archives), they hold a certificate's X.500 name attributes, or they sit in an
// XML element for a signature value, a certificate or a modulus. Header lines just above a
// run (Proc-Type, DEK-Info) go with it.
#include <cstring>
#include <memory>

#include "detectors.h"
#include "key_lines.h"

namespace rr_secrets {

namespace {

constexpr std::string_view kWhat = kPrivateKeyWhat;

bool StartsLikeNonKey(std::string_view core) {
  static constexpr std::string_view kMagic[] = {"iVBORw0KGgo",
                                                "/9j/",
                                                "R0lGOD",
                                                "UEsDB",
                                                "JVBERi0",
                                                "d09GR",
                                                "AAABAA",
                                                "T1RUTw",
                                                "AAEAAAA",
                                                "H4sI",
                                                "UklGR",
                                                "PHN2Zy",
                                                "PD94bWw",
                                                "mQINBF",
                                                "mQENBF",
                                                "mQGiB",
                                                "mDMEZ",
                                                "MFkwEwYHKoZIzj0CAQYI",
                                                "MHYwEAYHKoZIzj0CAQYF",
                                                "MCowBQYDK2Vw",
                                                "Qk0",
                                                "SUkq",
                                                "TU0A",
                                                "AAAAIGZ0eX",
                                                "AAAAHGZ0eX",
                                                "AAAAGGZ0eX",
                                                "T2dnUw",
                                                "ZkxhQw",
                                                "SUQz",
                                                "//uQ",
                                                "//sQ",
                                                "c3NoLXJzYQ",
                                                "c3NoLWVkMjU1MTk",
                                                "ZWNkc2Etc2hh",
                                                "AAAAB3NzaC1yc2E",
                                                "AAAAC3NzaC1lZDI1NTE5"};
  for (auto m : kMagic) {
    if (core.substr(0, m.size()) == m) return true;
  }
  // Certificates (SEQUENCE { SEQUENCE …) and public keys (SubjectPublicKeyInfo, PKCS#1).
  if (core.size() >= 12 && core.substr(0, 3) == "MII") {
    if (core.substr(6, 3) == "CCA") return true;
    if (core.substr(5, 23) == "jANBgkqhkiG9w0BAQEFAAOC") return true;
    if (core.substr(4, 4) == "CgKC" || core.substr(5, 4) == "gKCA") return true;
  }
  return false;
}

// A certificate (or a request for one) names its subject and issuer with X.500 attributes,
// whose OID prefix (06 03 55 04) shows in base64 as one of these at any alignment; a private
// key holds none.
bool HoldsNameAttributes(std::string_view run) {
  return run.find("BgNVB") != std::string_view::npos ||
         run.find("YDVQ") != std::string_view::npos || run.find("GA1UE") != std::string_view::npos;
}

// XML signatures and key files carry public base64 in elements of their own: a signature
// value, a certificate, an RSA modulus.
bool InPublicXmlElement(std::string_view t, size_t begin) {
  const size_t from = begin > 200 ? begin - 200 : 0;
  const std::string_view before = t.substr(from, begin - from);
  const size_t close = before.rfind('>');
  if (close == std::string_view::npos) return false;
  const std::string_view tag = before.substr(0, close);
  for (std::string_view name : {"SignatureValue", "Certificate", "Modulus", "Exponent",
                                "DigestValue", "X509CRL", "PublicKey", "SubjectPublicKeyInfo"}) {
    if (tag.size() >= name.size() && tag.substr(tag.size() - name.size()) == name) return true;
  }
  return false;
}

bool IsKeyLine(std::string_view core) {
  const size_t n = core.size();
  if (n != 64 && n != 70 && n != 76) return false;
  int lower = 0, upper = 0, other = 0;  // other: digits, '+', '/'
  for (char c : core) {
    const uint8_t k = ClassOf(c);
    if (k & kLower) {
      ++lower;
    } else if (k & kUpper) {
      ++upper;
    } else if (k & (kDigit | kB64Symbol)) {
      ++other;
    } else {
      return false;
    }
  }
  return lower > 0 && upper > 0 && other > 0;
}

class KeyMaterialLines final : public Detector {
 public:
  KeyMaterialLines() : Detector("key-material", {}) {}

 protected:
  void Find(const ScanInput& in, SpanSink& sink) const override {
    const std::string_view t = in.text;
    const char* data = t.data();
    const size_t size = t.size();
    size_t run_begin = std::string_view::npos, run_end = 0, run_lines = 0;
    std::string_view first_core;
    Markers markers;
    bool run_in_public_block = false;
    size_t line = 0;
    while (line < size) {
      const void* nl = std::memchr(data + line, '\n', size - line);
      const size_t le = nl ? static_cast<size_t>(static_cast<const char*>(nl) - data) : size;
      bool key_line = false;
      size_t off = 0;
      std::string_view core;
      if (le - line >= 64 && le - line <= 76 + 48) {
        core = LineCore(t.substr(line, le - line), false, &off);
        key_line = IsKeyLine(core);
        if (!key_line && data[line] == '+') {
          core = LineCore(t.substr(line, le - line), true, &off);
          key_line = IsKeyLine(core);
        }
      }
      if (key_line) {
        if (run_lines == 0) {
          run_begin = line + off;
          first_core = core;
          run_in_public_block = markers.InPublicBlock(t, line);
        }
        ++run_lines;
        run_end = line + off + core.size();
      } else {
        if (run_lines >= 2) {
          // The block's last, shorter line.
          const std::string_view last = LineCore(t.substr(line, le - line), true, &off);
          size_t end = run_end;
          if (!last.empty() && last.size() < 76 && AllBase64(last) &&
              (MixOf(last).digit > 0 || MixOf(last).symbol > 0 || last.size() >= 16)) {
            end = line + off + last.size();
          }
          if (!run_in_public_block) Flush(t, run_begin, end, first_core, sink);
        }
        run_lines = 0;
      }
      line = le + 1;
    }
    if (run_lines >= 2 && !run_in_public_block) Flush(t, run_begin, run_end, first_core, sink);
  }

 private:
  static void Flush(std::string_view t, size_t begin, size_t end, std::string_view first_core,
                    SpanSink& sink) {
    if (StartsLikeNonKey(first_core) || HoldsNameAttributes(t.substr(begin, end - begin)) ||
        InPublicXmlElement(t, begin)) {
      return;
    }
    for (int k = 0; k < 4; ++k) {  // Proc-Type, DEK-Info just above
      const size_t ls = LineStart(t, begin);
      if (ls < 2) break;
      const size_t above = LineStart(t, ls - 1);
      size_t off = 0;
      const std::string_view core = LineCore(t.substr(above, ls - 1 - above), true, &off);
      if (!IsHeaderLine(core)) break;
      begin = above + off;
    }
    Report(sink, t, begin, end, kWhat);
  }

  // The PEM markers of a text, read forwards once as runs are found: whether the nearest marker
  // above a position is the BEGIN line of something other than a private key (a certificate, a
  // public key), whose body the lines below are.
  struct Markers {
    size_t read_to = 0;
    bool in_public_block = false;
    bool InPublicBlock(std::string_view t, size_t pos) {
      while (read_to < pos) {
        const void* found = memmem(t.data() + read_to, pos - read_to, "-----", 5);
        if (!found) {
          read_to = pos;
          break;
        }
        const size_t at = static_cast<size_t>(static_cast<const char*>(found) - t.data());
        const std::string_view rest = t.substr(at + 5, 80);
        if (rest.substr(0, 6) == "BEGIN ") {
          const size_t close = rest.find("-----");
          const std::string_view kind = rest.substr(0, close);
          in_public_block = kind.find("PRIVATE") == std::string_view::npos;
        } else if (rest.substr(0, 4) == "END ") {
          in_public_block = false;
        }
        read_to = at + 5;
        while (read_to < pos && t[read_to] == '-') ++read_to;
      }
      return in_public_block;
    }
  };
};

}  // namespace

std::unique_ptr<Detector> MakeKeyMaterialLines() { return std::make_unique<KeyMaterialLines>(); }

}  // namespace rr_secrets
