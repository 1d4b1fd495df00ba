#include "core/mcp/stdio_transport.h"

#include <unistd.h>

#include <cerrno>

namespace rr {

McpServer::Sink StdioTransport::sink() {
  return [this](const std::string& message) { Write(message); };
}

void StdioTransport::Write(const std::string& message) {
  std::lock_guard<std::mutex> lock(out_mu_);
  std::string line = message;
  line.push_back('\n');
  const char* p = line.data();
  size_t left = line.size();
  while (left > 0) {
    const ssize_t n = ::write(out_fd_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      _exit(0);  // the client closed its end: nobody is left to answer
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
}

void StdioTransport::ExitCleanly() {
  std::lock_guard<std::mutex> lock(out_mu_);
  _exit(0);
}

void StdioTransport::Run(McpServer& server) {
  std::string line;
  bool skipping = false;  // inside a line that is too long
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(in_fd_, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (n == 0) break;
    size_t start = 0;
    for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
      if (buf[i] != '\n') continue;
      if (!skipping) {
        line.append(buf + start, i - start);
        if (line.size() > kMaxMessageBytes) {
          Write(McpServer::OversizedMessageError(kMaxMessageBytes, line));
        } else {
          if (!line.empty() && line.back() == '\r') line.pop_back();
          if (!line.empty()) server.Handle(line);
        }
      }
      line.clear();
      skipping = false;
      start = i + 1;
    }
    if (!skipping) {
      line.append(buf + start, static_cast<size_t>(n) - start);
      if (line.size() > kMaxMessageBytes) {
        Write(McpServer::OversizedMessageError(kMaxMessageBytes, line));
        line.clear();
        line.shrink_to_fit();
        skipping = true;
      }
    }
  }
  if (!skipping && !line.empty() && line.size() <= kMaxMessageBytes) server.Handle(line);
  server.Drain();
}

}  // namespace rr
