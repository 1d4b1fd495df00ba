// Test kit: the real repo-reader binary, started as a child process and spoken to over stdio,
// as an MCP client would.
#pragma once

#include <Poco/JSON/Object.h>
#include <sys/types.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rr::testing {

class McpProcess {
 public:
  // Starts the binary with `args` in `cwd`. The environment is minimal plus `env`.
  McpProcess(const std::vector<std::string>& args, const std::string& cwd,
             const std::map<std::string, std::string>& env = {});
  ~McpProcess();

  // Sends one line (a newline is added).
  void Send(const std::string& line);
  // The next line the server wrote, or nothing after `timeout`.
  std::optional<std::string> ReadLine(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  // The next message as JSON (fails the test when it is not JSON or does not come).
  Poco::JSON::Object::Ptr ReadMessage(std::chrono::milliseconds timeout = std::chrono::seconds(20));

  // Sends a request and returns the response with that id.
  Poco::JSON::Object::Ptr Request(const std::string& method, const std::string& params_json,
                                  int id);
  // initialize + notifications/initialized.
  Poco::JSON::Object::Ptr Initialize(const std::string& version = "2025-06-18");
  // tools/call: the text of the answer; *is_error says whether it was a tool error.
  std::string Call(const std::string& tool, const std::string& args_json, bool* is_error = nullptr);

  void CloseInput();
  // The exit status, or -1 when it did not exit in time (or was killed by a signal).
  int Wait(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  pid_t pid() const { return pid_; }
  // The signal that ended it, once Wait has seen it end on one; 0 otherwise.
  int term_signal() const { return term_signal_; }
  // Everything the server wrote to stderr so far (read when it has exited).
  std::string Stderr();

 private:
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::string buffer_;
  int next_id_ = 1000;
  bool exited_ = false;
  int status_ = -1;
  int term_signal_ = 0;
};

}  // namespace rr::testing
