#include "core/guidance/skills.h"

#include <Poco/SHA2Engine.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <mutex>
#include <unordered_map>

#include "core/guidance/guidance.h"
#include "core/secrets/server_log.h"
#include "core/util/json_text.h"
#include "core/util/json_writer.h"
#include "core/util/text.h"
#include "core/util/yaml_load.h"

namespace rr {
namespace {

constexpr int kInvalidParams = -32602;
constexpr int kResourceNotFound = -32002;  // MCP's "resource not found"
constexpr size_t kReposPerPage = 50;       // a page of skills/list and resources/list
constexpr int kTtlMs = 60000;              // how long a host may keep a listing
constexpr size_t kMaxFiles = 512;          // the extension's per-skill limits
constexpr size_t kMaxBytes = 16 * 1024 * 1024;
constexpr int kMaxDepth = 32;  // of a front matter's YAML, as hosts read it
// A front matter's JSON: its YAML is at most 64 KB with every alias written out
// (kMaxFrontMatterExpanded), which JSON's escapes may make at most six times as long.
constexpr size_t kMaxFrontMatterJson = 6 * kMaxFrontMatterExpanded + 4096;

const char* const kOwners = "_owners";
const char* const kOperator = "_operator";

// --- URIs -------------------------------------------------------------------------------------

// A path segment as the extension's hosts spell it: letters, digits and `_!$&'()*+,.:;=@[]|~-`
// kept, every other byte percent-encoded.
std::string EncodeSegment(std::string_view s) {
  static const char* const kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      std::string_view("_!$&'()*+,.:;=@[]|~-").find(static_cast<char>(c)) !=
                          std::string_view::npos;
    if (keep) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

bool DecodeSegment(std::string_view s, std::string* out) {
  out->clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out->push_back(s[i]);
      continue;
    }
    if (i + 2 >= s.size()) return false;
    auto hex = [](char c) {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    const int hi = hex(s[i + 1]), lo = hex(s[i + 2]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return true;
}

// The skill's folder name (`refund-flow`) and a file's path below the folder.
std::string FolderOf(const GuidancePiece& skill) { return std::string(skill.file.Parent().name()); }
std::string BelowFolder(const GuidancePiece& skill, const Node& file) {
  return file.path.str().substr(skill.file.Parent().str().size() + 1);
}

std::string UriOf(const std::string& repo, const GuidancePiece& skill, const std::string& rel) {
  std::string uri = "skill://";
  size_t start = 0;
  for (size_t i = 0; i <= repo.size(); ++i) {  // a repository's name is plain: owner/name
    if (i == repo.size() || repo[i] == '/') {
      uri += (start ? "/" : "") + EncodeSegment(std::string_view(repo).substr(start, i - start));
      start = i + 1;
    }
  }
  uri += std::string("/") + (skill.from.empty() ? kOwners : kOperator) + "/" +
         EncodeSegment(FolderOf(skill));
  size_t s = 0;
  for (size_t i = 0; i <= rel.size(); ++i) {
    if (i == rel.size() || rel[i] == '/') {
      uri += "/" + EncodeSegment(std::string_view(rel).substr(s, i - s));
      s = i + 1;
    }
  }
  return uri;
}

// What a skill URI names.
struct SkillRef {
  std::string repo;
  bool operator_skill = false;
  std::string folder;
  std::string rel;  // the file below the skill's folder
};

bool ParseUri(const std::string& uri, SkillRef* out) {
  const std::string_view scheme = "skill://";
  if (uri.compare(0, scheme.size(), scheme) != 0) return false;
  std::string_view rest = std::string_view(uri).substr(scheme.size());
  if (const size_t hash = rest.find('#'); hash != std::string_view::npos)
    rest = rest.substr(0, hash);
  if (rest.find('?') != std::string_view::npos) return false;
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= rest.size(); ++i) {
    if (i == rest.size() || rest[i] == '/') {
      std::string part;
      if (!DecodeSegment(rest.substr(start, i - start), &part) || part.empty() ||
          part.find('/') != std::string::npos) {
        return false;
      }
      parts.push_back(std::move(part));
      start = i + 1;
    }
  }
  size_t origin = 0;
  while (origin < parts.size() && parts[origin] != kOwners && parts[origin] != kOperator) ++origin;
  if (origin == 0 || origin + 2 >= parts.size()) return false;
  for (size_t i = 0; i < origin; ++i) out->repo += (i ? "/" : "") + parts[i];
  out->operator_skill = parts[origin] == kOperator;
  out->folder = parts[origin + 1];
  for (size_t i = origin + 2; i < parts.size(); ++i)
    out->rel += (i > origin + 2 ? "/" : "") + parts[i];
  return true;
}

// --- front matter -----------------------------------------------------------------------------

// YAML 1.2 core schema's plain scalars, and the extension's skill names, each read by a scan
// that looks at every byte once (a front matter is written by others: no backtracking matcher).
bool OneOf(std::string_view s, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    if (s == w) return true;
  }
  return false;
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
// The digits from s[*i] on; false when there is none.
bool Digits(std::string_view s, size_t* i, bool (*is)(char) = IsDigit) {
  const size_t from = *i;
  while (*i < s.size() && is(s[*i])) ++*i;
  return *i > from;
}
size_t AfterSign(std::string_view s) { return !s.empty() && (s[0] == '+' || s[0] == '-'); }

bool IsNullWord(std::string_view s) { return OneOf(s, {"~", "null", "Null", "NULL"}); }
bool IsTrueWord(std::string_view s) { return OneOf(s, {"true", "True", "TRUE"}); }
bool IsFalseWord(std::string_view s) { return OneOf(s, {"false", "False", "FALSE"}); }
// [+-]?[0-9]+
bool IsInteger(std::string_view s) {
  size_t i = AfterSign(s);
  return Digits(s, &i) && i == s.size();
}
// [+-]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([Ee][+-]?[0-9]+)?
bool IsFloat(std::string_view s) {
  size_t i = AfterSign(s);
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!Digits(s, &i)) return false;
  } else {
    if (!Digits(s, &i)) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      Digits(s, &i);
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!Digits(s, &i)) return false;
  }
  return i == s.size();
}
// 0o[0-7]+
bool IsOctal(std::string_view s) {
  size_t i = 2;
  return s.size() > 2 && s[0] == '0' && s[1] == 'o' &&
         Digits(s, &i, [](char c) { return c >= '0' && c <= '7'; }) && i == s.size();
}
// 0x[0-9A-Fa-f]+
bool IsHex(std::string_view s) {
  size_t i = 2;
  return s.size() > 2 && s[0] == '0' && s[1] == 'x' &&
         Digits(s, &i,
                [](char c) {
                  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
                }) &&
         i == s.size();
}
// [+-]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)
bool IsSpecialFloat(std::string_view s) {
  return OneOf(s.substr(AfterSign(s)), {".inf", ".Inf", ".INF"}) ||
         OneOf(s, {".nan", ".NaN", ".NAN"});
}
// [0-9a-z]+(-[0-9a-z]+)*
bool IsSkillName(std::string_view s) {
  if (s.empty() || s.front() == '-' || s.back() == '-') return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '-' ? s[i - 1] == '-' : !(IsDigit(c) || (c >= 'a' && c <= 'z'))) return false;
  }
  return true;
}

// A number as JSON text, or "" when it is not finite (hosts refuse such a front matter).
std::string JsonNumber(double v) {
  if (!std::isfinite(v)) return "";
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// A plain scalar typed as YAML 1.2's core schema types it (as hosts verifying a skill read it):
// null, true, false, a number, or a string. "" when it is a number JSON cannot hold.
std::string PlainScalar(const std::string& s) {
  if (s.empty() || IsNullWord(s)) return "null";
  if (IsTrueWord(s)) return "true";
  if (IsFalseWord(s)) return "false";
  if (IsInteger(s) || IsFloat(s)) return JsonNumber(std::strtod(s.c_str(), nullptr));
  if (IsOctal(s)) return JsonNumber(static_cast<double>(std::strtoull(s.c_str() + 2, nullptr, 8)));
  if (IsHex(s)) return JsonNumber(static_cast<double>(std::strtoull(s.c_str() + 2, nullptr, 16)));
  if (IsSpecialFloat(s)) return "";
  return JsonQuote(s);
}

// YAML as JSON; false when something in it has no JSON form hosts agree on.
bool ToJson(const YAML::Node& n, int depth, JsonWriter& out) {
  if (depth > kMaxDepth) return false;
  switch (n.Type()) {
    case YAML::NodeType::Null:
      out.Null();
      return true;
    case YAML::NodeType::Scalar: {
      const std::string v = n.Tag() == "!" ? JsonQuote(n.Scalar()) : PlainScalar(n.Scalar());
      if (v.empty()) return false;
      out.Raw(v);
      return true;
    }
    case YAML::NodeType::Sequence: {
      out.BeginArray();
      for (const auto& item : n) {
        if (!ToJson(item, depth + 1, out)) return false;
      }
      out.End();
      return true;
    }
    case YAML::NodeType::Map: {
      out.BeginObject();
      for (const auto& kv : n) {
        if (!kv.first.IsScalar() || kv.first.Scalar() == "__proto__") return false;
        out.Key(kv.first.Scalar());
        if (!ToJson(kv.second, depth + 1, out)) return false;
      }
      out.End();
      return true;
    }
    case YAML::NodeType::Undefined:
      return false;
  }
  return false;
}

bool ValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = Utf8SequenceLength(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

// The front matter of a SKILL.md as served, as JSON, when hosts can take it: a mapping whose
// name is the skill's folder and whose description, compatibility and metadata are as the
// extension says. "" otherwise, with *why set when the front matter could not be read within
// its bounds (a host is told why the skill is not offered; other refusals are the extension's).
std::string FrontMatterJson(const std::string& text, const std::string& folder, std::string* why) {
  const FrontMatter fm = SplitFrontMatter(text);
  if (!fm.present) return "";
  if (!fm.problem.empty()) {
    *why = fm.problem;
    return "";
  }
  try {
    const YAML::Node root = LoadFrontMatter(fm.yaml);
    if (!root.IsMap()) return "";
    // A string: quoted, or plain and read as no other type.
    auto text = [](const YAML::Node& n, size_t most) {
      if (!n || !n.IsScalar() || n.Scalar().empty() || CodePoints(n.Scalar()) > most) return false;
      return n.Tag() == "!" || PlainScalar(n.Scalar()).rfind('"', 0) == 0;
    };
    const YAML::Node name = root["name"];
    if (!text(name, 64) || name.Scalar() != folder || !IsSkillName(folder)) return "";
    if (!text(root["description"], 1024)) return "";
    if (root["compatibility"] && !text(root["compatibility"], 500)) return "";
    if (const YAML::Node m = root["metadata"]) {
      if (!m.IsMap()) return "";
      for (const auto& kv : m) {
        const YAML::Node& v = kv.second;
        if (!v.IsScalar() || !(v.Tag() == "!" || PlainScalar(v.Scalar()).rfind('"', 0) == 0)) {
          return "";
        }
      }
    }
    JsonWriter w;
    if (!ToJson(root, 0, w)) return "";
    std::string json = w.Take();
    if (json.size() > kMaxFrontMatterJson) {
      *why = "as JSON it is larger than " + WithCommas(kMaxFrontMatterJson) + " bytes";
      return "";
    }
    return json;
  } catch (const YamlBoundsExceeded& e) {
    *why = e.msg + (e.mark.is_null() ? "" : " at line " + std::to_string(e.mark.line + 2));
    return "";
  } catch (const std::exception&) {
    return "";
  }
}

// --- files as served --------------------------------------------------------------------------

struct Served {
  std::string text;    // what resources/read sends
  std::string digest;  // "sha256:<hex>" of `text`
  std::string why;     // not served: why
};

// Files as served, kept by their contents' id, path and the filter: a listing reads each file
// and runs the secret filter over it once per commit.
class ServedFiles {
 public:
  std::shared_ptr<const Served> Get(const ServedRepo& repo, const GuidancePiece& skill,
                                    const Node& file, const SecretFilter* secrets) {
    std::string key(reinterpret_cast<const char*>(file.oid.id), sizeof(file.oid.id));
    key += file.path.str();
    key += std::to_string(reinterpret_cast<uintptr_t>(secrets));
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = kept_.find(key);
      if (it != kept_.end()) return it->second;
    }
    auto s = std::make_shared<Served>();
    auto data = ReadGuidanceFile(repo, skill, file);
    if (!data) {
      s->why = data.error();
    } else if (data->binary || !ValidUtf8(data->bytes)) {
      s->why = "not text";  // never shown by this server
    } else if (secrets) {
      ScanResult r = secrets->Scan(data->bytes, TextKind::kFile, file.path.str());
      if (!r.ok()) {
        // Not served, as any answer the filter cannot check; the operator is told which failed.
        s->why = r.failure;
        LogLine("repo-reader: a skill's file was withheld: " + r.failure);
      } else {
        s->text = SecretFilter::Redact(data->bytes, r.spans);
      }
    } else {
      s->text = std::move(data->bytes);
    }
    if (s->why.empty()) {
      Poco::SHA2Engine sha(Poco::SHA2Engine::SHA_256);
      sha.update(s->text);
      s->digest = "sha256:" + Poco::DigestEngine::digestToHex(sha.digest());
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (kept_.size() > 20000) kept_.clear();
    kept_[key] = s;
    return s;
  }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<const Served>> kept_;
};

ServedFiles& Files() {
  static ServedFiles files;
  return files;
}

// A skill's entry as skills/list and skills/get give it, or "" when it is not offered (with
// *why, when given, set when its front matter is past its bounds).
std::string EntryOf(const ServedRepo& repo, const GuidancePiece& skill, const SecretFilter* secrets,
                    std::string* why = nullptr) {
  if (skill.kind != GuidancePiece::Kind::kSkill || skill.files.empty()) return "";
  const std::string folder = FolderOf(skill);
  std::string unread;
  auto manifest = Files().Get(repo, skill, skill.files.front(), secrets);
  const std::string frontmatter =
      manifest->why.empty() ? FrontMatterJson(manifest->text, folder, &unread) : "";
  if (why && !unread.empty()) *why = "its front matter cannot be read (" + unread + ")";
  if (!skill.note.empty() || frontmatter.empty()) return "";
  JsonWriter w;
  w.BeginObject()
      .Field("uri", UriOf(repo.name(), skill, "SKILL.md"))
      .Key("frontmatter")
      .Raw(frontmatter)
      .Key("resources")
      .BeginArray();
  size_t count = 0, bytes = 0;
  for (const Node& f : skill.files) {
    auto served = &f == &skill.files.front() ? manifest : Files().Get(repo, skill, f, secrets);
    if (!served->why.empty()) continue;
    if (++count > kMaxFiles || (bytes += served->text.size()) > kMaxBytes) return "";
    w.BeginObject()
        .Field("uri", UriOf(repo.name(), skill, BelowFolder(skill, f)))
        .Field("digest", served->digest)
        .Field("size", served->text.size())
        .End();
  }
  return w.End().End().Take();
}

// The members every skills and resources result ends with: how long a host may keep it.
void CacheFields(JsonWriter& w) { w.Field("ttlMs", kTtlMs).Field("cacheScope", "private"); }

// The listed repositories of one page, from the cursor.
bool PageOf(const Catalog& catalog, const Poco::JSON::Object::Ptr& params,
            std::vector<std::shared_ptr<const ServedRepo>>* page, std::string* next) {
  size_t from = 0;
  if (params && params->has("cursor") && !params->get("cursor").isEmpty()) {
    if (!params->get("cursor").isString()) return false;
    const std::string c = params->getValue<std::string>("cursor");
    if (c.empty() || c.find_first_not_of("0123456789") != std::string::npos || c.size() > 9) {
      return false;
    }
    from = std::stoul(c);
  }
  const auto listed = catalog.listed();
  if (from > listed.size()) return false;
  for (size_t i = from; i < listed.size() && page->size() < kReposPerPage; ++i) {
    page->push_back(listed[i]);
  }
  if (from + page->size() < listed.size()) *next = std::to_string(from + page->size());
  return true;
}

std::vector<const GuidancePiece*> SkillsOf(const ServedRepo& repo, const StopToken& stop,
                                           std::shared_ptr<const Guidance>* keep) {
  std::vector<const GuidancePiece*> out;
  auto g = GuidanceOf(repo, stop);
  if (!g) return out;
  *keep = g.take();
  for (const GuidancePiece* p : (*keep)->pieces) {
    if (p->kind == GuidancePiece::Kind::kSkill) out.push_back(p);
  }
  return out;
}

SkillsAnswer Fail(int code, std::string message) {
  SkillsAnswer a;
  a.error_code = code;
  a.error_message = std::move(message);
  return a;
}

// The skill a URI names, with what keeps it alive; null when none is offered there.
const GuidancePiece* SkillAt(const Catalog& catalog, const SkillRef& ref, const StopToken& stop,
                             std::shared_ptr<const ServedRepo>* repo,
                             std::shared_ptr<const Guidance>* keep) {
  auto found = catalog.Find(ref.repo);
  if (!found || !(*found)->listed()) return nullptr;
  *repo = found.take();
  for (const GuidancePiece* p : SkillsOf(**repo, stop, keep)) {
    if (p->from.empty() == !ref.operator_skill && FolderOf(*p) == ref.folder) return p;
  }
  return nullptr;
}

std::string UriParam(const Poco::JSON::Object::Ptr& params) {
  if (!params || !params->has("uri") || !params->get("uri").isString()) return "";
  return params->getValue<std::string>("uri");
}

SkillsAnswer List(const Catalog& catalog, const SecretFilter* secrets,
                  const Poco::JSON::Object::Ptr& params, const StopToken& stop, bool resources) {
  std::vector<std::shared_ptr<const ServedRepo>> page;
  std::string next;
  if (!PageOf(catalog, params, &page, &next)) {
    return Fail(kInvalidParams, "invalid cursor: give the nextCursor of the page before");
  }
  JsonWriter w;
  w.BeginObject().Key(resources ? "resources" : "skills").BeginArray();
  for (const auto& repo : page) {
    std::shared_ptr<const Guidance> keep;
    for (const GuidancePiece* skill : SkillsOf(*repo, stop, &keep)) {
      const std::string entry = EntryOf(*repo, *skill, secrets);
      if (entry.empty()) continue;
      if (!resources) {
        w.Raw(entry);
        continue;
      }
      w.BeginObject()
          .Field("uri", UriOf(repo->name(), *skill, "SKILL.md"))
          .Field("name", FolderOf(*skill))
          .Field("title", repo->name() + " · " + FolderOf(*skill))
          .Field("description", skill->description)
          .Field("mimeType", "text/markdown")
          .End();
    }
  }
  w.End();
  if (!next.empty()) w.Field("nextCursor", next);
  CacheFields(w);
  SkillsAnswer a;
  a.result = w.End().Take();
  return a;
}

SkillsAnswer Get(const Catalog& catalog, const SecretFilter* secrets,
                 const Poco::JSON::Object::Ptr& params, const StopToken& stop) {
  const std::string uri = UriParam(params);
  if (uri.empty())
    return Fail(kInvalidParams, "skills/get needs params.uri, a skill's SKILL.md URI");
  SkillRef ref;
  std::shared_ptr<const ServedRepo> repo;
  std::shared_ptr<const Guidance> keep;
  const GuidancePiece* skill = nullptr;
  if (ParseUri(uri, &ref) && ref.rel == "SKILL.md")
    skill = SkillAt(catalog, ref, stop, &repo, &keep);
  std::string why;
  const std::string entry = skill ? EntryOf(*repo, *skill, secrets, &why) : "";
  if (entry.empty() && !why.empty()) {
    return Fail(kInvalidParams, "the skill at " + EchoArgument(uri) + " is not offered: " + why);
  }
  if (entry.empty()) {
    return Fail(kInvalidParams, "no skill at " + EchoArgument(uri) + "; skills/list lists them");
  }
  JsonWriter w;
  w.BeginObject().Key("skill").Raw(entry);
  CacheFields(w);
  SkillsAnswer a;
  a.result = w.End().Take();
  return a;
}

SkillsAnswer Read(const Catalog& catalog, const SecretFilter* secrets,
                  const Poco::JSON::Object::Ptr& params, const StopToken& stop) {
  const std::string uri = UriParam(params);
  if (uri.empty()) return Fail(kInvalidParams, "resources/read needs params.uri");
  SkillRef ref;
  std::shared_ptr<const ServedRepo> repo;
  std::shared_ptr<const Guidance> keep;
  const GuidancePiece* skill =
      ParseUri(uri, &ref) ? SkillAt(catalog, ref, stop, &repo, &keep) : nullptr;
  // Only what the skill's entry lists is served.
  if (skill && !EntryOf(*repo, *skill, secrets).empty()) {
    for (const Node& f : skill->files) {
      if (BelowFolder(*skill, f) != ref.rel) continue;
      auto served = Files().Get(*repo, *skill, f, secrets);
      if (!served->why.empty()) break;
      const bool markdown =
          ref.rel.size() >= 3 && ref.rel.compare(ref.rel.size() - 3, 3, ".md") == 0;
      JsonWriter w;
      w.BeginObject()
          .Key("contents")
          .BeginArray()
          .BeginObject()
          .Field("uri", UriOf(repo->name(), *skill, ref.rel))
          .Field("mimeType", markdown ? "text/markdown" : "text/plain")
          .Field("text", served->text)
          .End()
          .End();
      CacheFields(w);
      SkillsAnswer a;
      a.result = w.End().Take();
      return a;
    }
  }
  SkillsAnswer a = Fail(kResourceNotFound, "resource not found: " + EchoArgument(uri) +
                                               " (this server's resources are the files of the "
                                               "skills skills/list lists)");
  a.uri = uri;
  return a;
}

}  // namespace

bool IsSkillsMethod(const std::string& method) {
  return method == "skills/list" || method == "skills/get" || method == "resources/read" ||
         method == "resources/list" || method == "resources/templates/list";
}

void SkillsCapabilities(JsonWriter& w) {
  w.Key("resources").BeginObject().Field("listChanged", false).End();
  w.Key("extensions").BeginObject().Key(kSkillsExtension).BeginObject().End().End();
}

SkillsAnswer AnswerSkills(const Catalog& catalog, const SecretFilter* secrets,
                          const std::string& method, const Poco::JSON::Object::Ptr& params,
                          const StopToken& stop) {
  try {
    if (method == "skills/list") return List(catalog, secrets, params, stop, false);
    if (method == "resources/list") return List(catalog, secrets, params, stop, true);
    if (method == "skills/get") return Get(catalog, secrets, params, stop);
    if (method == "resources/read") return Read(catalog, secrets, params, stop);
    if (method == "resources/templates/list") {
      JsonWriter w;
      w.BeginObject().Key("resourceTemplates").BeginArray().End();
      CacheFields(w);
      SkillsAnswer a;
      a.result = w.End().Take();
      return a;
    }
  } catch (const std::exception& e) {
    return Fail(-32603, std::string("internal error: ") + e.what());
  }
  return Fail(-32601, "method not found: " + EchoArgument(method));
}

}  // namespace rr
