// The MCP Skills extension (`io.modelcontextprotocol/skills`, SEP-2640): hosts that load skills
// natively get every listed repository's skills without a tool call. The skills offered are
// those the guidance holds (core/guidance/guidance.h): the owners' `.claude/skills/<name>/` and the
// operator's, on each repository's default branch, include / exclude and own: false applied.
//
//   skills/list      every skill, a page of repositories at a time (`cursor`): its SKILL.md's
//                    URI, its front matter as JSON, and every file with its size and SHA-256
//                    digest
//   skills/get       one skill's entry by its SKILL.md URI
//   resources/read   a skill's file: exactly the bytes the entry's size and digest cover
//   resources/list   the SKILL.md of every skill, paged as skills/list: named by the skill's name
//                    (its front matter's, as the extension says), titled "<repo> · <name>"
//   resources/templates/list  none
//
// URIs: skill://<repo>/_owners/<skill>/<file> for the owners' skills, skill://<repo>/_operator/
// <skill>/<file> for the operator's (a repository's name never has a part starting with `_`).
// Files are served as text with the secret filter applied, as every answer is: the size and
// digest are of the text served, hidden values included. Not offered: binary files or text that
// is not UTF-8 (never shown by this server), skills whose front matter the extension refuses
// (name not the folder's, over 64 characters or not lowercase words joined by single hyphens;
// description empty or over 1,024 characters) or over its limits (512 files, 16 MB), and any
// skill a detector fails on. A file is read at the commit the skill was found at, so a listing
// and the reads after it agree until the default branch moves.
//
// Thread-safe; every answer is a complete JSON-RPC result or error.
#pragma once

#include <Poco/JSON/Object.h>

#include <string>

#include "core/secrets/secret_filter.h"
#include "core/served/catalog.h"
#include "core/util/stop.h"

namespace rr {

class JsonWriter;

inline constexpr const char* kSkillsExtension = "io.modelcontextprotocol/skills";

// Whether `method` is answered here.
bool IsSkillsMethod(const std::string& method);

// The members the server's capabilities gain: resources, and the extension.
void SkillsCapabilities(JsonWriter& w);

struct SkillsAnswer {
  std::string result;  // the JSON result, when error_code is 0
  int error_code = 0;  // -32002 (as 2025 spells it) for a resource not found
  std::string error_message;
  std::string uri;  // the URI not found
};

// Answers one request of the extension. `secrets` may be null only where no detector runs.
SkillsAnswer AnswerSkills(const Catalog& catalog, const SecretFilter* secrets,
                          const std::string& method, const Poco::JSON::Object::Ptr& params,
                          const StopToken& stop);

}  // namespace rr
