#include "tests/testkit/http_server.h"

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "tests/testkit/git_fixture.h"

namespace rr::testing {

HttpServerProcess::HttpServerProcess(const std::vector<std::string>& args, const std::string& cwd,
                                     const std::map<std::string, std::string>& env) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "rr-http-err-XXXXXX").string();
  const int fd = mkstemp(tmpl.data());
  err_file_ = tmpl;
  const ExecImage image(args, env);  // made before fork (see ExecImage)
  pid_ = fork();
  if (pid_ == 0) {
    dup2(fd, 2);
    const int devnull = open("/dev/null", O_RDWR);
    dup2(devnull, 0);
    dup2(devnull, 1);
    if (chdir(cwd.c_str()) != 0) _exit(127);
    execve(image.argv()[0], image.argv(), image.envp());
    _exit(127);
  }
  close(fd);
  const std::regex url_re("over HTTP at (http://[^ ]+:([0-9]+)/mcp)");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    std::smatch m;
    const std::string err = Stderr();
    if (std::regex_search(err, m, url_re)) {
      url_ = m[1];
      port_ = std::stoi(m[2]);
      return;
    }
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      exited_ = true;
      status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

HttpServerProcess::~HttpServerProcess() {
  if (!exited_ && pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  unlink(err_file_.c_str());
}

std::string HttpServerProcess::Stderr() const {
  std::ifstream in(err_file_);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void HttpServerProcess::Terminate() {
  if (!exited_ && pid_ > 0) kill(pid_, SIGTERM);
}

int HttpServerProcess::Wait(std::chrono::milliseconds timeout) {
  if (exited_) return status_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      exited_ = true;
      status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      return status_;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

HttpReply HttpRequest(int port, const std::string& method, const std::string& path,
                      const std::string& body, const std::map<std::string, std::string>& headers,
                      std::chrono::milliseconds timeout) {
  HttpReply reply;
  try {
    Poco::Net::HTTPClientSession session("127.0.0.1", static_cast<Poco::UInt16>(port));
    session.setTimeout(Poco::Timespan(timeout.count() * 1000));
    Poco::Net::HTTPRequest req(method, path, Poco::Net::HTTPMessage::HTTP_1_1);
    bool has_type = false;
    for (const auto& [k, v] : headers) {
      if (k == "Host") {
        req.setHost(v);
      } else {
        req.set(k, v);
      }
      if (k == "Content-Type") has_type = true;
    }
    if (!body.empty() || method == "POST") {
      if (!has_type) req.setContentType("application/json");
      if (!req.has("Accept")) req.set("Accept", "application/json, text/event-stream");
      req.setContentLength(static_cast<std::streamsize>(body.size()));
    }
    session.sendRequest(req) << body;
    Poco::Net::HTTPResponse res;
    std::istream& in = session.receiveResponse(res);
    reply.status = res.getStatus();
    for (const auto& [k, v] : res) {
      std::string lower = k;
      for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      reply.headers[lower] = v;
    }
    std::stringstream s;
    s << in.rdbuf();
    reply.body = s.str();
  } catch (const std::exception& e) {
    reply.status = 0;
    reply.body = std::string("no answer: ") + e.what();  // for a failing test to say why
  }
  return reply;
}

std::map<std::string, std::string> ModernHeaders(const std::string& method,
                                                 const std::string& name) {
  std::map<std::string, std::string> h = {{"MCP-Protocol-Version", "2026-07-28"},
                                          {"Mcp-Method", method}};
  if (!name.empty()) h["Mcp-Name"] = name;
  return h;
}

std::string ModernMeta() {
  return R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
         R"("io.modelcontextprotocol/clientCapabilities":{},)"
         R"("io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}})";
}

}  // namespace rr::testing
