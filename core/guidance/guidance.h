// Guidance for agents: the instructions a repository carries for the agents that read it, found
// on its DEFAULT BRANCH only, whatever ref an agent reads, so that no branch can change what an
// agent is told (docs/safety.md, "Guidance can't be planted from a branch").
//
// What counts (docs/guidance.md), by path from the guidance's root:
//   AGENTS.md, CLAUDE.md                     at the root: the whole repository; in a folder: that
//                                            folder and everything below it
//   .github/copilot-instructions.md          the whole repository
//   .claude/rules/**/*.md          (paths:)  scoped by the globs in its front matter, or the
//   .cursor/rules/**/*.mdc, *.md   (globs:)  whole repository without them (.cursor's
//   .github/instructions/**/*.instructions.md (applyTo:)   alwaysApply: true is the whole
//   repository) .claude/skills/<name>/SKILL.md           a skill: read when it fits the task, named
//   and
//                                            described by its front matter; the files beside
//                                            it are the skill's
// Two sources: the repository's owners (its own files; none when the configuration says
// own: false) and the operator (the configured guidance repository's folder for this repository,
// `acme-rules` folder `shop/`, laid out the same way; its pieces are named `acme-rules:shop/…`
// and count whatever `own` says). Both are read through RepoReader, so include / exclude and the
// credential-file rule hold for guidance as for any file. Front matter is YAML (yaml-cpp); a
// piece whose front matter cannot be read is kept, in force for the whole repository, with a
// note saying why — never dropped.
//
// Speed: what is found is kept per default-branch commit (in ServedRepo::guidance_cache()) and
// reused until the branch moves, so GuidanceOf costs a HEAD lookup per source and a map lookup;
// the tree is walked once per commit, one walk at a time per repository, and what each folder's
// tree holds is kept by its id for every repository: a fork or copy of a codebase already
// walked reads only the trees it does not share.
//
// Texts are kept as committed: the secret filter runs where they are shown (the answer
// pipeline, and core/guidance/skills.h for skills served over MCP).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/guidance/front_matter.h"
#include "core/policy/glob.h"
#include "core/policy/repo_path.h"
#include "core/served/served_repo.h"
#include "core/util/result.h"
#include "core/util/stop.h"

namespace YAML {
class Node;
}

namespace rr {

// Which paths a piece is in force for.
struct GuidanceScope {
  enum class Kind { kWhole, kFolder, kGlobs };
  Kind kind = Kind::kWhole;
  RepoPath folder;                    // kFolder
  std::vector<std::string> patterns;  // kGlobs: as written in the front matter
  std::vector<Glob> globs;            // kGlobs: compiled ({a,b} expanded)

  // Whether a path of the repository (file or folder) is in force's reach: kWhole always;
  // kFolder the folder and below; kGlobs a glob matching the path or a folder above it.
  bool Covers(const RepoPath& path) const;
  // "the whole repository", "src/api/", "src/**/*.ts, *.md" (names escaped for display).
  std::string Describe() const;
};

struct GuidancePiece {
  enum class Kind { kInstructions, kRule, kSkill };
  Kind kind = Kind::kInstructions;
  // The name a piece is asked for by: the file's path for the owners' pieces (AGENTS.md,
  // .claude/rules/pricing.md), `acme-rules:shop/AGENTS.md` for the operator's; for a skill its
  // name (`refund-flow`, `acme-rules:refund-flow`).
  std::string name;
  std::string from;  // "" for the owners'; else the operator's guidance repository's name
  RepoPath file;     // the file, in the repository it was read from
  GuidanceScope scope;
  // The whole file as committed (raw bytes); empty when not kept (`note` says why).
  std::string text;
  size_t body_offset = 0;  // where the text after the front matter begins
  size_t size = 0;         // the file's size in bytes
  // Why it is shown otherwise than its kind says: a front matter that cannot be read, a file
  // too large to keep or binary. Empty when none.
  std::string note;
  std::string description;  // from the front matter: a skill's (or a rule's), one line
  // A skill: every served file of its folder, SKILL.md first, then in path order.
  std::vector<Node> files;

  std::string_view body() const { return std::string_view(text).substr(body_offset); }
  bool scoped() const { return scope.kind != GuidanceScope::Kind::kWhole; }
};

// Where a set of pieces was read.
struct GuidanceSource {
  std::string repo;    // the repository read
  ReadPoint at;        // its default branch and the commit read
  std::string folder;  // the operator's: the folder read (`shop`); "" for the owners'
};

// A repository's guidance at its default branch's commit (and its operator's). Immutable.
class Guidance {
 public:
  std::string repo;
  std::optional<GuidanceSource> owners;     // none with own: false, or no commit yet
  std::optional<GuidanceSource> operators;  // none without a guidance repository
  std::vector<const GuidancePiece*>
      pieces;  // the operator's first, then the owners', in path order
  // Not every folder was looked at for AGENTS.md and CLAUDE.md (over 200,000 distinct folders,
  // or over 2,000 pieces), or a rules or skills folder held more than 10,000 files.
  bool incomplete = false;

  bool empty() const { return pieces.empty(); }
  // The scoped pieces (not skills) in force for `path`, in order.
  std::vector<const GuidancePiece*> Covering(const RepoPath& path) const;
  // A piece by the name it is asked for by (also a skill's SKILL.md by its path), or null.
  const GuidancePiece* Find(std::string_view name) const;
  // A skill's file by its name (`.claude/skills/refund-flow/reference.md`, `acme-rules:…`):
  // the skill and the file, or {null, null}.
  std::pair<const GuidancePiece*, const Node*> FindSkillFile(std::string_view name) const;
  // The name a file of a skill is read by: its path, `acme-rules:` before it for the operator's.
  static std::string FileName(const GuidancePiece& skill, const Node& file);

  // What keeps `pieces` alive.
  std::vector<std::shared_ptr<const void>> holds;
};

// The guidance of `repo` now: found on its default branch (and its operator's guidance
// repository's), or kept from an earlier call while neither branch has moved. A repository
// with none gives an empty Guidance. Errors: the repository cannot be opened, or `stop` ended
// the first walk of a commit (nothing is kept then; the next call walks again).
//
// A caller that already holds `repo` open (a tool call's target) passes its handle as `reader`,
// and the commit its default branch is at as `head` when it resolved that too: the lookup then
// borrows no second handle and reads HEAD no second time. A caller that resolved the default
// branch without holding the repository open (a search over many, core/served/known_default.h)
// passes `head` alone: what is kept for that commit answers without the repository being
// opened, which is then opened only to find the guidance of a commit not seen before.
Result<std::shared_ptr<const Guidance>> GuidanceOf(const ServedRepo& repo, const StopToken& stop,
                                                   RepoReader* reader = nullptr,
                                                   const std::optional<CommitId>& head = {});

// A file of a piece (a skill's file) as committed, read from the repository it came from, at
// the commit it was found at.
struct GuidanceFile {
  bool binary = false;  // a NUL among its first 8,000 bytes (git's rule)
  std::string bytes;
};
Result<GuidanceFile> ReadGuidanceFile(const ServedRepo& repo, const GuidancePiece& piece,
                                      const Node& file);

}  // namespace rr
