// The MCP methods the server answers, one row each, read by both eras: the method's name, the
// eras it exists in, whether it runs on the call pool (it reads repositories: cancellable, under
// the call budget) or inline (constant answers), which params member the Streamable HTTP
// Mcp-Name header mirrors in 2026-07-28, and its handler. The server (server.h) dispatches
// through it; the era adapter (era.h) checks a request before and decorates the answer after;
// the call runner gives a pool method its stop token and progress.
//
// To add a method: one Add() in McpServer's constructor, a handler that reads MethodCall and
// returns a MethodAnswer, and tests in both eras it exists in. A capability advertised by
// initialize or server/discover is answered in every era that advertises it.
//
// Built once, then read by many threads (no lock: nothing changes it after construction).
#pragma once

#include <Poco/JSON/Object.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/mcp/era.h"
#include "core/served/catalog.h"
#include "core/util/stop.h"

namespace rr {

// The eras a method exists in, as bits.
enum EraSet : unsigned { kLegacyOnly = 1, kModernOnly = 2, kBothEras = 3 };

inline bool InEra(unsigned eras, Era era) {
  return (eras & (era == Era::kModern ? kModernOnly : kLegacyOnly)) != 0;
}

enum class RunOn {
  kInline,  // on the thread that read the message: answers that read nothing
  kPool,    // on the call pool (or the caller's thread, for a caller that waits)
};

// Reports progress of the call under way: done so far, the total when known, what is being done.
using ProgressFn =
    std::function<void(uint64_t done, std::optional<uint64_t> total, const std::string& what)>;

// What one connection remembers across its messages: over stdio, the version initialize
// negotiated (the 2025 revisions scope it to the process). Streamable HTTP keeps none.
struct Connection {
  std::mutex mu;
  std::string negotiated;  // "" until initialize
};

// What a handler is given: one request, already checked by its era.
struct MethodCall {
  Era era;
  Poco::JSON::Object::Ptr params;  // null when the request had none
  // The repositories this caller reads (one call, one set). Never null.
  std::shared_ptr<const Catalog> catalog;
  StopToken stop;       // cancelled, or past the call budget (pool methods)
  ProgressFn progress;  // empty when the client asked for none
  // The transport's access-log entry, when the caller keeps one: the handler may name the tool
  // and repository, and say "tool error".
  struct Notes {
    std::string* tool = nullptr;
    std::string* repo = nullptr;
    std::string* outcome = nullptr;
  } notes;
  // The connection the request came on, when it keeps state (stdio); null over HTTP.
  struct Connection* connection = nullptr;
};

// What a handler answers: a result object (JSON text), or an error.
struct MethodAnswer {
  std::string result;
  RpcError error;
  static MethodAnswer Result(std::string json) { return {std::move(json), {}}; }
  static MethodAnswer Error(RpcError e) { return {"", std::move(e)}; }
};

using MethodHandler = std::function<MethodAnswer(const MethodCall&)>;

struct Method {
  std::string name;
  unsigned eras = kBothEras;
  RunOn run = RunOn::kInline;
  // The params member the Mcp-Name header mirrors in 2026-07-28 ("name", "uri"); null: none.
  const char* mcp_name = nullptr;
  MethodHandler handler;
};

class MethodTable {
 public:
  // Adds a row; a name added twice is a programming error (it throws std::logic_error).
  void Add(Method method);
  // The row of `name`, or null when there is none.
  const Method* Find(const std::string& name) const;
  // The names of the methods of `era`, in the order added, joined with ", ".
  std::string NamesIn(Era era) const;
  const std::vector<Method>& rows() const { return rows_; }

 private:
  std::vector<Method> rows_;
};

}  // namespace rr
