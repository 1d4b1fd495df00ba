#include "tests/testkit/mcp_process.h"

#include <Poco/JSON/Parser.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>
#include <thread>

#include "tests/testkit/git_fixture.h"

namespace rr::testing {

McpProcess::McpProcess(const std::vector<std::string>& args, const std::string& cwd,
                       const std::map<std::string, std::string>& env) {
  const ExecImage image(args, env);  // made before fork (see ExecImage)
  int in[2], out[2], err[2];
  if (pipe(in) || pipe(out) || pipe(err)) throw std::runtime_error("pipe");
  pid_ = fork();
  if (pid_ == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
    if (chdir(cwd.c_str()) != 0) _exit(127);
    execve(image.argv()[0], image.argv(), image.envp());
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  in_ = in[1];
  out_ = out[0];
  err_ = err[0];
  fcntl(err_, F_SETFL, O_NONBLOCK);
}

McpProcess::~McpProcess() {
  if (in_ >= 0) close(in_);
  if (!exited_ && pid_ > 0) {
    if (Wait(std::chrono::seconds(5)) == -1 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  if (out_ >= 0) close(out_);
  if (err_ >= 0) close(err_);
}

void McpProcess::Send(const std::string& line) {
  std::string data = line + "\n";
  const char* p = data.data();
  size_t left = data.size();
  while (left > 0) {
    const ssize_t n = write(in_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      ADD_FAILURE() << "cannot write to the server: " << strerror(errno);
      return;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
}

std::optional<std::string> McpProcess::ReadLine(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd pfd{out_, POLLIN, 0};
    if (poll(&pfd, 1, static_cast<int>(left.count())) <= 0) continue;
    char buf[65536];
    const ssize_t n = read(out_, buf, sizeof buf);
    if (n <= 0) return std::nullopt;
    buffer_.append(buf, static_cast<size_t>(n));
  }
}

Poco::JSON::Object::Ptr McpProcess::ReadMessage(std::chrono::milliseconds timeout) {
  auto line = ReadLine(timeout);
  if (!line) {
    ADD_FAILURE() << "the server sent nothing in time";
    return nullptr;
  }
  try {
    Poco::JSON::Parser parser;
    return parser.parse(*line).extract<Poco::JSON::Object::Ptr>();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "the server sent a line that is not a JSON object: " << *line;
    return nullptr;
  }
}

Poco::JSON::Object::Ptr McpProcess::Request(const std::string& method,
                                            const std::string& params_json, int id) {
  Send("{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) + ",\"method\":\"" + method +
       "\",\"params\":" + params_json + "}");
  while (true) {
    auto msg = ReadMessage();
    if (!msg) return nullptr;
    if (msg->has("id") && !msg->get("id").isEmpty() && msg->getValue<int>("id") == id) return msg;
  }
}

Poco::JSON::Object::Ptr McpProcess::Initialize(const std::string& version) {
  auto r =
      Request("initialize",
              "{\"protocolVersion\":\"" + version +
                  "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}",
              0);
  Send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  return r;
}

std::string McpProcess::Call(const std::string& tool, const std::string& args_json,
                             bool* is_error) {
  const int id = next_id_++;
  auto r = Request("tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + args_json + "}", id);
  if (!r) return "";
  if (!r->has("result")) {
    ADD_FAILURE() << "tools/call " << tool << " got no result";
    return "";
  }
  auto result = r->getObject("result");
  if (is_error) *is_error = result->getValue<bool>("isError");
  return result->getArray("content")->getObject(0)->getValue<std::string>("text");
}

void McpProcess::CloseInput() {
  if (in_ >= 0) close(in_);
  in_ = -1;
}

int McpProcess::Wait(std::chrono::milliseconds timeout) {
  if (exited_) return status_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      exited_ = true;
      status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      if (WIFSIGNALED(status)) term_signal_ = WTERMSIG(status);
      return status_;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

std::string McpProcess::Stderr() {
  std::string s;
  char buf[4096];
  while (true) {
    const ssize_t n = read(err_, buf, sizeof buf);
    if (n <= 0) break;
    s.append(buf, static_cast<size_t>(n));
  }
  return s;
}

}  // namespace rr::testing
