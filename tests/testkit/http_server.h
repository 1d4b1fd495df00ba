// Test kit: the real repo-reader binary serving over HTTP (--http 127.0.0.1:0 or a
// configuration's http: section), its stderr kept in a file, and a small HTTP client for it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace rr::testing {

class HttpServerProcess {
 public:
  // Starts the binary with `args` in `cwd`, environment minimal plus `env`, and waits until it
  // prints its URL (or exits). ok() tells whether it is serving.
  HttpServerProcess(const std::vector<std::string>& args, const std::string& cwd,
                    const std::map<std::string, std::string>& env = {});
  ~HttpServerProcess();

  bool ok() const { return port_ != 0; }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  std::string url() const { return url_; }
  // Everything written to stderr so far.
  std::string Stderr() const;
  // Sends SIGTERM; Wait() then gives the exit status.
  void Terminate();
  int Wait(std::chrono::milliseconds timeout = std::chrono::seconds(20));

 private:
  pid_t pid_ = -1;
  std::string err_file_;
  int port_ = 0;
  std::string url_;
  bool exited_ = false;
  int status_ = -1;
};

struct HttpReply {
  int status = 0;                              // 0: no answer (connection refused or closed)
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;                            // with status 0: "no answer: " and why
};

// One HTTP request on a new connection to 127.0.0.1:`port`. `headers` are sent as given (a Host
// header among them replaces the default one).
HttpReply HttpRequest(int port, const std::string& method, const std::string& path,
                      const std::string& body = "",
                      const std::map<std::string, std::string>& headers = {},
                      std::chrono::milliseconds timeout = std::chrono::seconds(30));

// The headers a 2026-07-28 client sends for `method` (and Mcp-Name for a tool call).
std::map<std::string, std::string> ModernHeaders(const std::string& method,
                                                 const std::string& name = "");
// params._meta's 2026-07-28 fields, as JSON members ("\"_meta\":{…}").
std::string ModernMeta();

}  // namespace rr::testing
