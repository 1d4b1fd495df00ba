// MCP over stdio: one JSON-RPC message a line on the input, one a line on the output. The output
// carries protocol only (logs go to stderr). The framing is LineFramer's (line_framer.h): a line
// longer than kMaxMessageBytes is refused with an error that carries its id when the line's start
// names one, and skipped; the server keeps serving.
#pragma once

#include <mutex>
#include <string>

#include "core/mcp/server.h"

namespace rr {

class StdioTransport {
 public:
  static constexpr size_t kMaxMessageBytes = 8 * 1024 * 1024;

  StdioTransport(int in_fd, int out_fd) : in_fd_(in_fd), out_fd_(out_fd) {}

  // A sink for McpServer: writes one message and a newline, whole, under a lock.
  McpServer::Sink sink();

  // Reads messages until end of input, handing each to `server`; returns at end of input.
  void Run(McpServer& server);

  // Ends the process at once with status 0, after any message being written is complete.
  [[noreturn]] void ExitCleanly();

 private:
  void Write(const std::string& message);

  int in_fd_;
  int out_fd_;
  std::mutex out_mu_;
};

}  // namespace rr
