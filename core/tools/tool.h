// The tool interface. A tool declares its arguments (ToolSpec), receives them already checked
// (Args), reads only through the Catalog / RepoReader (core/policy), and returns a Draft or an
// error; the answer pipeline turns either into what the agent sees. A tool never writes output.
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

#include "core/answer/pipeline.h"
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

struct ToolSpec {
  std::string name;
  std::string title;
  std::string description;
  std::vector<ArgSpec> args;
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

  // What the call read, noted by the helpers every reading tool goes through (core/tools/common:
  // NoteRead); the server hands it to the answer pipeline for the host link. Never null.
  std::shared_ptr<ReadSpot> read = std::make_shared<ReadSpot>();
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
