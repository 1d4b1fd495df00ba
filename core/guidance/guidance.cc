#include "core/guidance/guidance.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

#include "core/guidance/folder_scan.h"
#include "core/util/text.h"
#include "core/util/yaml_load.h"

namespace rr {

// What one source holds at one commit: the owners' pieces of a repository, or the operator's
// pieces of one folder of the guidance repository.
struct PieceSet {
  GuidanceSource source;
  std::vector<GuidancePiece> pieces;
  bool incomplete = false;  // not every folder was looked at (Guidance::incomplete)
};

// Per repository (ServedRepo::guidance_cache()).
class GuidanceCache {
 public:
  std::mutex build_mu;  // one walk of this repository at a time

  std::mutex mu;  // guards what follows
  // The owners' pieces at `owners_commit`.
  std::shared_ptr<const PieceSet> owners;
  // As an operator's guidance repository: its folders' pieces, all at `folders_commit`.
  std::optional<CommitId> folders_commit;
  std::map<std::string, std::shared_ptr<const PieceSet>> folders;
  // The last Guidance given, and the commits it was made of (nullopt: that source had none).
  std::shared_ptr<const Guidance> last;
  std::optional<CommitId> last_owners, last_operators;
};

GuidanceCache& ServedRepo::guidance_cache() const {
  return guidance_cache_.Get([] { return new GuidanceCache(); },
                             [](GuidanceCache* cache) { delete cache; });
}

namespace {

// Guidance is kept in memory per commit: bounded per piece, per source and in count, so that a
// repository full of huge AGENTS.md files costs a bounded amount.
constexpr size_t kMaxPieceBytes = 256 * 1024;
constexpr size_t kMaxSourceBytes = 8 * 1024 * 1024;
constexpr size_t kMaxPieces = kMaxGuidancePieces;
constexpr size_t kMaxSkillFiles = 512;  // the MCP Skills extension's per-skill limit
constexpr size_t kBinaryProbeBytes = 8000;

constexpr std::string_view kSkillsFolder = ".claude/skills/";

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t')) --e;
  return std::string(s.substr(b, e - b));
}

// `path` relative to `root` (a folder above it), rebuilt part by part.
RepoPath Below(const RepoPath& root, const RepoPath& path) {
  if (root.is_root()) return path;
  const auto parts = path.parts();
  RepoPath out;
  for (size_t i = root.parts().size(); i < parts.size(); ++i) out = out.Child(parts[i]);
  return out;
}

// Splits at commas outside braces: "*.{ts,tsx}, docs/**" -> "*.{ts,tsx}", "docs/**".
std::vector<std::string> SplitPatterns(std::string_view s) {
  std::vector<std::string> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && s[i] == '{') ++depth;
    if (i < s.size() && s[i] == '}' && depth > 0) --depth;
    if (i == s.size() || (s[i] == ',' && depth == 0)) {
      std::string p = Trim(s.substr(start, i - start));
      if (!p.empty()) out.push_back(std::move(p));
      start = i + 1;
    }
  }
  return out;
}

// Expands the brace groups of a glob ({ts,tsx}), up to 64 patterns.
void ExpandBraces(const std::string& p, std::vector<std::string>* out) {
  if (out->size() >= 64) return;
  const size_t open = p.find('{');
  if (open == std::string::npos) {
    out->push_back(p);
    return;
  }
  int depth = 0;
  std::vector<size_t> commas;
  size_t close = std::string::npos;
  for (size_t i = open; i < p.size(); ++i) {
    if (p[i] == '{') ++depth;
    if (p[i] == '}' && --depth == 0) {
      close = i;
      break;
    }
    if (p[i] == ',' && depth == 1) commas.push_back(i);
  }
  if (close == std::string::npos || commas.empty()) {
    out->push_back(p);  // not a group: the glob reads `{` as itself
    return;
  }
  size_t from = open + 1;
  commas.push_back(close);
  for (size_t c : commas) {
    ExpandBraces(p.substr(0, open) + p.substr(from, c - from) + p.substr(close + 1), out);
    from = c + 1;
  }
}

// The globs of a front matter key: a pattern, patterns separated by commas, or a list of them.
// False, with *why, when the value is of another shape or a pattern cannot be read.
bool ScopeOf(const YAML::Node& value, const std::string& key, GuidanceScope* scope,
             std::string* why) {
  std::vector<std::string> patterns;
  if (!value || value.IsNull()) return true;
  if (value.IsScalar()) {
    patterns = SplitPatterns(value.Scalar());
  } else if (value.IsSequence()) {
    for (const auto& item : value) {
      if (!item.IsScalar()) {
        *why = "`" + key + "` must be a glob or a list of globs";
        return false;
      }
      for (auto& p : SplitPatterns(item.Scalar())) patterns.push_back(std::move(p));
    }
  } else {
    *why = "`" + key + "` must be a glob or a list of globs";
    return false;
  }
  GuidanceScope s;
  s.kind = GuidanceScope::Kind::kGlobs;
  for (std::string p : patterns) {
    while (StartsWith(p, "./")) p.erase(0, 2);
    if (p == "**" || p == "**/*" || p == "*" || p == "/**") return true;  // everything
    std::vector<std::string> expanded;
    ExpandBraces(p, &expanded);
    for (const auto& e : expanded) {
      auto g = Glob::Compile(e);
      if (!g) {
        *why = "`" + key + "`: " + g.error();
        return false;
      }
      s.globs.push_back(g.take());
    }
    s.patterns.push_back(std::move(p));
  }
  if (s.globs.empty()) return true;  // no pattern: the whole repository
  *scope = std::move(s);
  return true;
}

// The text of a YAML scalar on one line, or "".
std::string OneLine(const YAML::Node& n) {
  if (!n || !n.IsScalar()) return "";
  std::string s = n.Scalar();
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return Trim(s);
}

// Reads a piece's front matter: its scope (rules), its name and description (skills). A front
// matter that cannot be read leaves the piece in force for the whole repository, with a note.
void ReadFrontMatter(GuidancePiece* piece, std::string_view scope_key, bool cursor) {
  const FrontMatter fm = SplitFrontMatter(piece->text);
  if (!fm.present) return;
  auto broken = [&](const std::string& why) {
    piece->scope = GuidanceScope();
    piece->body_offset = 0;
    piece->note = "Its front matter cannot be read (" + why +
                  "), so it is shown as written and taken as in force for the whole repository.";
  };
  if (!fm.problem.empty()) return broken(fm.problem);
  piece->body_offset = fm.body_offset;
  YAML::Node root;
  try {
    root = LoadFrontMatter(fm.yaml);
  } catch (const YAML::Exception& e) {
    const std::string where =
        e.mark.is_null() ? "" : " at line " + std::to_string(e.mark.line + 2);  // after `---`
    const bool bound = dynamic_cast<const YamlBoundsExceeded*>(&e) != nullptr;
    return broken((bound ? "" : "not valid YAML: ") + e.msg + where);
  } catch (const std::exception& e) {
    return broken(std::string("not valid YAML: ") + e.what());
  }
  if (root.IsNull()) return;
  if (!root.IsMap()) return broken("it is not a mapping of keys to values");
  try {
    piece->description = OneLine(root["description"]);
    if (piece->kind == GuidancePiece::Kind::kSkill) {
      const std::string name = OneLine(root["name"]);
      if (!name.empty()) piece->name = piece->from.empty() ? name : piece->from + ":" + name;
      return;
    }
    if (cursor && root["alwaysApply"] && root["alwaysApply"].IsScalar() &&
        root["alwaysApply"].Scalar() == "true") {
      return;  // always in force
    }
    std::string why;
    if (!ScopeOf(root[std::string(scope_key)], std::string(scope_key), &piece->scope, &why)) {
      return broken(why);
    }
  } catch (const std::exception& e) {
    return broken(e.what());
  }
}

// Reads one source (the owners' whole repository, or the operator's folder for it): AGENTS.md
// and CLAUDE.md in every folder (FindAgentsFiles), and the rules, instructions and skills in their
// own folders at the source's root.
class SourceReader {
 public:
  SourceReader(RepoReader& reader, const ReadPoint& at, RepoPath root, std::string from)
      : reader_(reader), at_(at), root_(std::move(root)), from_(std::move(from)) {}

  Result<std::vector<GuidancePiece>> Read(const StopToken& stop, bool* incomplete) {
    auto top = reader_.Find(at_, root_, stop);
    if (!top) {
      if (stop.stopped()) return Error{stop.Why()};
      return std::vector<GuidancePiece>();  // not there, or not served: no guidance
    }
    if (top->kind != EntryKind::kFolder) return std::vector<GuidancePiece>();
    // The folders that hold rules, instructions and skills.
    for (const char* folder :
         {".claude/rules", ".cursor/rules", ".github/instructions", ".claude/skills"}) {
      auto node = reader_.Find(at_, Join(folder), stop);
      if (!node || node->kind != EntryKind::kFolder) continue;
      size_t too_deep = 0, seen = 0;
      Status walked = reader_.Walk(
          *node, stop,
          [&](const Node& n) {
            if (++seen > kMaxFolderFiles) {
              *incomplete = true;
              return false;
            }
            return Visit(n);
          },
          &too_deep);
      if (!walked) return Error{walked.error()};
    }
    auto copilot = reader_.Find(at_, Join(".github/copilot-instructions.md"), stop);
    if (copilot && copilot->kind == EntryKind::kFile) Visit(*copilot);
    // AGENTS.md and CLAUDE.md in every folder.
    auto finds = FindAgentsFiles(reader_, top->path, top->oid, stop);
    if (stop.stopped()) return Error{stop.Why()};
    if (finds->incomplete) *incomplete = true;
    for (const auto& [rel, oid] : finds->files) {
      auto path = RepoPath::Parse(root_.is_root() ? rel : root_.str() + "/" + rel);
      if (!path || !reader_.repo().policy().ServesFile(*path)) continue;
      Visit(Node{path.take(), EntryKind::kFile, oid, false});
    }
    std::sort(found_.begin(), found_.end(), [](const auto& a, const auto& b) {
      return a.second.path.str() < b.second.path.str();
    });
    std::vector<GuidancePiece> out;
    for (auto& [rel, node] : found_) {
      if (out.size() >= kMaxPieces) break;
      out.push_back(Make(rel, node));
    }
    for (auto& [name, files] : skills_) {
      if (out.size() >= kMaxPieces) break;
      if (auto skill = MakeSkill(name, std::move(files))) out.push_back(std::move(*skill));
    }
    // Instructions, then rules, then skills; the root's files before the dot-folders'.
    std::stable_sort(out.begin(), out.end(), [](const GuidancePiece& a, const GuidancePiece& b) {
      auto rank = [](const GuidancePiece& p) {
        return std::make_pair(static_cast<int>(p.kind), p.file.str().rfind('.', 0) == 0);
      };
      return rank(a) < rank(b);
    });
    return out;
  }

 private:
  // Files read from one folder of rules or skills, at most.
  static constexpr size_t kMaxFolderFiles = 10000;

  enum class What { kNone, kInstructions, kClaudeRule, kCursorRule, kCopilotRule };

  RepoPath Join(std::string_view rel) const {
    auto p =
        RepoPath::Parse(root_.is_root() ? std::string(rel) : root_.str() + "/" + std::string(rel));
    return p ? p.take() : root_;
  }

  static What Classify(const std::string& rel) {
    const std::string_view r = rel;
    if (StartsWith(r, kSkillsFolder)) return What::kNone;  // a skill's file
    const size_t slash = r.rfind('/');
    const std::string_view name = slash == std::string_view::npos ? r : r.substr(slash + 1);
    if (name == "AGENTS.md" || name == "CLAUDE.md") return What::kInstructions;
    if (r == ".github/copilot-instructions.md") return What::kInstructions;
    if (StartsWith(r, ".claude/rules/") && EndsWith(r, ".md")) return What::kClaudeRule;
    if (StartsWith(r, ".cursor/rules/") && (EndsWith(r, ".mdc") || EndsWith(r, ".md"))) {
      return What::kCursorRule;
    }
    if (StartsWith(r, ".github/instructions/") && EndsWith(r, ".instructions.md")) {
      return What::kCopilotRule;
    }
    return What::kNone;
  }

  bool Visit(const Node& n) {
    if (n.kind != EntryKind::kFile) return true;  // links and submodules are not guidance
    RepoPath rel = Below(root_, n.path);
    const std::string& r = rel.str();
    if (StartsWith(r, kSkillsFolder)) {
      const size_t end = r.find('/', kSkillsFolder.size());
      if (end != std::string::npos) {
        auto& files = skills_[r.substr(kSkillsFolder.size(), end - kSkillsFolder.size())];
        files.push_back(n);
      }
      return true;
    }
    // Each file once: an AGENTS.md in a rules folder is found by both readers.
    if (Classify(r) != What::kNone && seen_.insert(r).second)
      found_.emplace_back(std::move(rel), n);
    return true;
  }

  // Reads a file's text into the piece, within the bounds.
  void Keep(GuidancePiece* p, const Node& n) {
    auto size = reader_.Size(n);
    p->size = size.value_or(0);
    if (!size) {
      p->note = "Its contents are not in the local copy (a partial clone); it is not shown.";
      return;
    }
    if (*size > kMaxPieceBytes || kept_ + *size > kMaxSourceBytes) {
      p->note = "It is " + HumanBytes(*size) +
                ", more than this server keeps as guidance; read it with read_file.";
      return;
    }
    auto data = reader_.Read(n);
    if (!data) {
      p->note = "It cannot be read: " + data.error();
      return;
    }
    if (data->kind == FileData::Kind::kBinary) {
      p->note = "It is a binary file; it is not shown.";
      return;
    }
    p->text.assign(data->bytes());
    kept_ += p->text.size();
  }

  GuidancePiece Make(const RepoPath& rel, const Node& n) {
    GuidancePiece p;
    p.from = from_;
    p.file = n.path;
    p.name = from_.empty() ? n.path.str() : from_ + ":" + n.path.str();
    Keep(&p, n);
    switch (Classify(rel.str())) {
      case What::kInstructions:
        p.kind = GuidancePiece::Kind::kInstructions;
        if (rel.name() != "copilot-instructions.md" && !rel.Parent().is_root()) {
          p.scope.kind = GuidanceScope::Kind::kFolder;
          p.scope.folder = rel.Parent();
        }
        break;
      case What::kClaudeRule:
        p.kind = GuidancePiece::Kind::kRule;
        ReadFrontMatter(&p, "paths", false);
        break;
      case What::kCursorRule:
        p.kind = GuidancePiece::Kind::kRule;
        ReadFrontMatter(&p, "globs", true);
        break;
      case What::kCopilotRule:
        p.kind = GuidancePiece::Kind::kRule;
        ReadFrontMatter(&p, "applyTo", false);
        break;
      case What::kNone:
        break;
    }
    return p;
  }

  std::optional<GuidancePiece> MakeSkill(const std::string& folder, std::vector<Node> files) {
    auto manifest = std::find_if(files.begin(), files.end(),
                                 [](const Node& n) { return n.path.name() == "SKILL.md"; });
    if (manifest == files.end()) return std::nullopt;
    // SKILL.md directly in the skill's folder, not deeper.
    const std::string expected = std::string(kSkillsFolder) + folder + "/SKILL.md";
    manifest = std::find_if(files.begin(), files.end(),
                            [&](const Node& n) { return Below(root_, n.path).str() == expected; });
    if (manifest == files.end()) return std::nullopt;
    std::rotate(files.begin(), manifest, manifest + 1);
    std::sort(files.begin() + 1, files.end(),
              [](const Node& a, const Node& b) { return a.path.str() < b.path.str(); });
    GuidancePiece p;
    p.kind = GuidancePiece::Kind::kSkill;
    p.from = from_;
    p.file = files.front().path;
    p.name = from_.empty() ? folder : from_ + ":" + folder;
    Keep(&p, files.front());
    if (!p.text.empty()) ReadFrontMatter(&p, "", false);
    if (files.size() > kMaxSkillFiles) {
      files.resize(kMaxSkillFiles);
      p.note += std::string(p.note.empty() ? "" : " ") + "It has more than " +
                std::to_string(kMaxSkillFiles) + " files; only the first are listed.";
    }
    p.files = std::move(files);
    return p;
  }

  RepoReader& reader_;
  const ReadPoint& at_;
  RepoPath root_;
  std::string from_;
  std::vector<std::pair<RepoPath, Node>> found_;
  std::set<std::string> seen_;
  std::map<std::string, std::vector<Node>> skills_;
  size_t kept_ = 0;
};

// The commit HEAD names now, or nullopt (no commit yet, unreadable).
std::optional<CommitId> HeadCommit(RepoReader& reader) {
  HeadState h = reader.Head();
  if (h.kind == HeadState::Kind::kBranch || h.kind == HeadState::Kind::kDetached) {
    return h.commit;
  }
  return std::nullopt;
}

bool SameCommit(const std::optional<CommitId>& a, const std::optional<CommitId>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || *a == *b;
}

// Reads one source at the default branch's commit now. Called with the cache's build_mu held.
Result<std::shared_ptr<const PieceSet>> ReadSource(const ServedRepo& repo, RepoReader& reader,
                                                   const RepoPath& root, std::string from,
                                                   const StopToken& stop) {
  auto at = reader.At(std::nullopt);
  if (!at) return Error{at.error()};
  SourceReader source(reader, *at, root, std::move(from));
  bool incomplete = false;
  auto pieces = source.Read(stop, &incomplete);
  if (!pieces) return Error{pieces.error()};
  auto set = std::make_shared<PieceSet>();
  set->incomplete = incomplete;
  set->source = GuidanceSource{repo.name(), at.take(), root.str()};
  set->pieces = pieces.take();
  return std::shared_ptr<const PieceSet>(std::move(set));
}

// The owners' pieces at `commit`: kept, or read now.
Result<std::shared_ptr<const PieceSet>> OwnersAt(const ServedRepo& repo, RepoReader& reader,
                                                 const CommitId& commit, const StopToken& stop) {
  GuidanceCache& cache = repo.guidance_cache();
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    if (cache.owners && cache.owners->source.at.commit.id == commit) return cache.owners;
  }
  std::lock_guard<std::mutex> build(cache.build_mu);
  {
    std::lock_guard<std::mutex> lock(cache.mu);  // another call may have read it meanwhile
    if (cache.owners && cache.owners->source.at.commit.id == commit) return cache.owners;
  }
  auto set = ReadSource(repo, reader, RepoPath::Root(), "", stop);
  if (!set) return Error{set.error()};
  std::lock_guard<std::mutex> lock(cache.mu);
  cache.owners = *set;
  return set.take();
}

// The operator's pieces for `folder` of the guidance repository `g` at `commit`.
Result<std::shared_ptr<const PieceSet>> FolderAt(const ServedRepo& g, RepoReader& reader,
                                                 const std::string& folder, const CommitId& commit,
                                                 const StopToken& stop) {
  GuidanceCache& cache = g.guidance_cache();
  auto kept = [&]() -> std::shared_ptr<const PieceSet> {
    if (!cache.folders_commit || !(*cache.folders_commit == commit)) return nullptr;
    auto it = cache.folders.find(folder);
    return it == cache.folders.end() ? nullptr : it->second;
  };
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    if (auto k = kept()) return k;
  }
  std::lock_guard<std::mutex> build(cache.build_mu);
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    if (auto k = kept()) return k;
  }
  auto root = RepoPath::Parse(folder);
  if (!root) return Error{"guidance folder `" + DisplayName(folder) + "`: " + root.error()};
  auto set = ReadSource(g, reader, *root, g.name(), stop);
  if (!set) return Error{set.error()};
  std::lock_guard<std::mutex> lock(cache.mu);
  if (!cache.folders_commit || !(*cache.folders_commit == (*set)->source.at.commit.id)) {
    cache.folders.clear();  // the branch moved: what was kept is of another commit
    cache.folders_commit = (*set)->source.at.commit.id;
  }
  cache.folders[folder] = *set;
  return set.take();
}

}  // namespace

bool GuidanceScope::Covers(const RepoPath& path) const {
  switch (kind) {
    case Kind::kWhole:
      return true;
    case Kind::kFolder:
      return path == folder || StartsWith(path.str(), folder.str() + "/");
    case Kind::kGlobs: {
      const auto parts = path.parts();
      for (const auto& g : globs) {
        if (g.MatchesPathOrFolder(parts)) return true;
      }
      return false;
    }
  }
  return false;
}

std::string GuidanceScope::Describe() const {
  switch (kind) {
    case Kind::kWhole:
      return "the whole repository";
    case Kind::kFolder:
      return folder.Display() + "/";
    case Kind::kGlobs: {
      std::string s;
      for (const auto& p : patterns) s += (s.empty() ? "" : ", ") + DisplayName(p);
      return s;
    }
  }
  return "";
}

std::vector<const GuidancePiece*> Guidance::Covering(const RepoPath& path) const {
  std::vector<const GuidancePiece*> out;
  for (const GuidancePiece* p : pieces) {
    if (p->kind != GuidancePiece::Kind::kSkill && p->scoped() && p->scope.Covers(path)) {
      out.push_back(p);
    }
  }
  return out;
}

const GuidancePiece* Guidance::Find(std::string_view name) const {
  for (const GuidancePiece* p : pieces) {
    if (p->name == name) return p;
  }
  // A skill's SKILL.md by its file name; a path written with a leading or trailing '/'.
  for (const GuidancePiece* p : pieces) {
    const std::string file = p->from.empty() ? p->file.str() : p->from + ":" + p->file.str();
    if (file == name) return p;
    if (p->from.empty()) {
      auto parsed = RepoPath::Parse(name);
      if (parsed && *parsed == p->file) return p;
    }
  }
  return nullptr;
}

std::pair<const GuidancePiece*, const Node*> Guidance::FindSkillFile(std::string_view name) const {
  for (const GuidancePiece* p : pieces) {
    if (p->kind != GuidancePiece::Kind::kSkill) continue;
    for (const Node& f : p->files) {
      if (FileName(*p, f) == name) return {p, &f};
      if (p->from.empty()) {
        auto parsed = RepoPath::Parse(name);
        if (parsed && *parsed == f.path) return {p, &f};
      }
    }
  }
  return {nullptr, nullptr};
}

std::string Guidance::FileName(const GuidancePiece& skill, const Node& file) {
  return skill.from.empty() ? file.path.str() : skill.from + ":" + file.path.str();
}

Result<std::shared_ptr<const Guidance>> GuidanceOf(const ServedRepo& repo, const StopToken& stop,
                                                   RepoReader* reader,
                                                   const std::optional<CommitId>& head) {
  const RepoSettings& s = repo.settings();
  const ServedRepo* g = s.guidance_repo.get();
  if (!s.own && !g) return std::make_shared<const Guidance>();

  // The commits the two sources' default branches are at now.
  std::optional<RepoReader> owned_reader, operator_reader;
  RepoReader* owners_reader = reader;
  // The repository's own handle, borrowed when first needed: "" or why it cannot be opened.
  auto open_owners = [&]() -> std::string {
    if (owners_reader) return "";
    auto r = repo.Open();
    if (!r) return r.error();
    owners_reader = &owned_reader.emplace(r.take());
    return "";
  };
  std::optional<CommitId> owners_commit, operator_commit;
  if (s.own) {
    if (head) {
      owners_commit = head;  // the caller resolved it: the repository is opened on a miss only
    } else {
      if (std::string why = open_owners(); !why.empty()) return Error{why};
      owners_commit = HeadCommit(*owners_reader);
    }
  }
  if (g) {
    auto r = g->Open();
    if (!r) return Error{"the guidance repository: " + r.error()};
    operator_reader.emplace(r.take());
    operator_commit = HeadCommit(*operator_reader);
  }
  GuidanceCache& cache = repo.guidance_cache();
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    if (cache.last && SameCommit(cache.last_owners, owners_commit) &&
        SameCommit(cache.last_operators, operator_commit)) {
      return cache.last;
    }
  }

  auto out = std::make_shared<Guidance>();
  out->repo = repo.name();
  std::shared_ptr<const PieceSet> owners, operators;
  if (operator_commit) {
    const std::string folder = s.guidance_folder.empty() ? repo.name() : s.guidance_folder.str();
    auto set = FolderAt(*g, *operator_reader, folder, *operator_commit, stop);
    if (!set) return Error{set.error()};
    operators = set.take();
  }
  if (owners_commit) {
    if (std::string why = open_owners(); !why.empty()) return Error{why};
    auto set = OwnersAt(repo, *owners_reader, *owners_commit, stop);
    if (!set) return Error{set.error()};
    owners = set.take();
  }
  for (const auto& set : {operators, owners}) {
    if (!set) continue;
    for (const auto& p : set->pieces) out->pieces.push_back(&p);
    out->holds.push_back(set);
  }
  if (operators) out->operators = operators->source;
  if (owners) out->owners = owners->source;
  out->incomplete = (owners && owners->incomplete) || (operators && operators->incomplete);

  std::lock_guard<std::mutex> lock(cache.mu);
  cache.last = out;
  // Keyed by the commits actually read: a branch that moved during the walk is read again.
  cache.last_owners = owners ? std::optional<CommitId>(owners->source.at.commit.id) : std::nullopt;
  cache.last_operators =
      operators ? std::optional<CommitId>(operators->source.at.commit.id) : std::nullopt;
  return std::shared_ptr<const Guidance>(std::move(out));
}

Result<GuidanceFile> ReadGuidanceFile(const ServedRepo& repo, const GuidancePiece& piece,
                                      const Node& file) {
  const ServedRepo* from = &repo;
  if (!piece.from.empty()) {
    from = repo.settings().guidance_repo.get();
    if (!from) return Error{"the guidance repository `" + piece.from + "` is not configured"};
  }
  auto reader = from->Open();
  if (!reader) return Error{reader.error()};
  auto data = reader->Read(file);
  if (!data) return Error{data.error()};
  GuidanceFile out;
  out.bytes.assign(data->bytes());
  const size_t head = std::min(out.bytes.size(), kBinaryProbeBytes);
  out.binary = std::memchr(out.bytes.data(), '\0', head) != nullptr;
  return out;
}

}  // namespace rr
