// The tool interface. A tool declares its arguments and its traits (ToolSpec), receives them
// already checked (Args) and its target already resolved (CallContext::target: the repository,
// commit and paths its `repo`, `ref`, `path` and `paths` name; core/served/call_target.h), reads
// only through the Catalog / RepoReader (core/served), and returns a Draft or an error; the
// answer pipeline turns either into what the agent sees. A tool never writes output.
#pragma once

#include <Poco/JSON/Object.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/answer/host_links.h"
#include "core/answer/pipeline.h"
#include "core/guidance/guidance_join.h"
#include "core/served/call_target.h"
#include "core/served/catalog.h"
#include "core/util/result.h"
#include "core/util/stop.h"

namespace rr {

// kStrings: a JSON array of strings (read_file's `paths`), each item checked as kString is.
enum class ArgType { kString, kInteger, kBoolean, kStrings };

struct ArgSpec {
  std::string name;
  ArgType type;
  std::string description;
  bool required = false;
  std::optional<int64_t> min, max;  // integers: the range; string lists: how many items
  std::vector<std::string> one_of;  // strings: the accepted values, when fixed
  // kStrings: a string is accepted too, as its items separated by commas ("shop, billing"),
  // each without the spaces around it. The schema says array; the string is what older
  // clients and agents send.
  bool comma_separated = false;
};

class Args;

// What the server does around a tool, declared with its spec rather than known by its name:
// how the call's target is resolved before it runs (core/tools/common.h: ResolveTarget), which
// host page its answer links to, and how guidance joins its answer.
struct ToolTraits {
  // The host page its answer links to (core/answer/host_links.h), read from the target: the
  // file at `path` (kFile), the folder at `path` (kFolder), the commit `at` (kCommit), `base`
  // against `at` (kCompare).
  LinkKind link = LinkKind::kNone;
  // How the repository's guidance joins its answers (core/guidance/guidance_join.h).
  GuidanceWay guidance = GuidanceWay::kByPaths;

  // The arguments that name a commit, resolved in this order on the repository once it is
  // opened: {"ref"}; {"commit"}; {"base", "head"} (the first is the target's `base`, the
  // second its `at`, and an error names which: "base: …"). An absent one is the default
  // branch. Resolved only when the call reads one repository.
  std::vector<std::string> refs;
  // The repository is opened before the tool runs even without a ref to resolve.
  bool open = false;
  // Non-empty: `path` may not name the repository's root; the error when it does.
  std::string root_refused;
  // `path` is judged by the repository's path policy as soon as the repository is known, before
  // any ref is resolved: an answer about a path this server does not serve never depends on
  // what the repository holds.
  bool path_outside_first = false;
  // Checks of the tool's own arguments that need no repository, run before the target is
  // resolved, so that their errors come before any about the repository.
  std::function<Status(const Args&)> check_first;
};

struct ToolSpec {
  std::string name;
  std::string title;
  std::string description;
  std::vector<ArgSpec> args;
  ToolTraits traits;

  bool Takes(const std::string& arg) const;
};

// Arguments checked against a ToolSpec: every one known, of its type and range.
class Args {
 public:
  // Checks `args` (may be null: no arguments) against the spec. Errors name the argument and
  // say what is expected.
  static Result<Args> Check(const ToolSpec& spec, const Poco::JSON::Object::Ptr& args);

  std::optional<std::string> String(const std::string& name) const;
  std::optional<int64_t> Integer(const std::string& name) const;
  bool Boolean(const std::string& name, bool fallback) const;
  // A kStrings argument: its items in the order given.
  std::optional<std::vector<std::string>> Strings(const std::string& name) const;

 private:
  std::map<std::string, std::variant<std::string, int64_t, bool, std::vector<std::string>>> values_;
};

// What the server knows of itself, for `about`: fixed at start.
struct ServerFacts {
  std::string secret_filter;         // DescribeSecretFilter's sentence
  std::vector<std::string> plugins;  // "name version — description", in load order
};

struct CallContext {
  std::shared_ptr<const Catalog> catalog;
  StopToken stop;
  size_t answer_characters = 40000;
  std::shared_ptr<const ServerFacts> facts;  // may be null (tests without plugins)
  // The secret filter in force, for tools that must not confirm a guessed secret (log's and
  // find_commits' message filter). May be null where no detector runs (pipeline unit tests).
  std::shared_ptr<const SecretFilter> secrets;
  // Reports how far a long call has come (done so far, the total when known, what is counted:
  // "files listed"); the server sends it to the client as notifications/progress when the client
  // asked for progress, at a sensible rate. Empty when nobody listens; call through Progress().
  std::function<void(uint64_t done, std::optional<uint64_t> total, const std::string& what)>
      progress;

  void Progress(uint64_t done, std::optional<uint64_t> total, const std::string& what) const {
    if (progress) progress(done, total, what);
  }

  // What the call's `repo`, `ref`, `path` and `paths` name, resolved before the tool ran
  // (ResolveTarget). Never null; empty for a call made without one (a tool that takes none).
  std::shared_ptr<const CallTarget> target = std::make_shared<const CallTarget>();
};

class Tool {
 public:
  virtual ~Tool() = default;
  virtual const ToolSpec& spec() const = 0;
  virtual Result<Draft> Call(const CallContext& ctx, const Args& args) const = 0;
};

// Every tool this server offers, in the order tools/list shows them.
std::vector<std::unique_ptr<const Tool>> BuiltinTools();

}  // namespace rr
