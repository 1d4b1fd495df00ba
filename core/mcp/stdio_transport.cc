#include "core/mcp/stdio_transport.h"

#include <unistd.h>

#include <cerrno>

#include "core/mcp/line_framer.h"
#include "core/util/heap_trim.h"

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
  LineFramer framer(kMaxMessageBytes);
  const LineFramer::OnMessage handle = [&server](const std::string& message) {
    server.Handle(message);
  };
  const LineFramer::OnOversized refuse = [this](const std::string& head) {
    Write(McpServer::OversizedMessageError(kMaxMessageBytes, head));
  };
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(in_fd_, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (n == 0) break;
    framer.Feed(std::string_view(buf, static_cast<size_t>(n)), handle, refuse);
    // This thread waits for the client's next message now: what it freed (the messages read,
    // and at first the configuration's and catalog's making) goes back to the heap.
    ReleaseThreadCache();
  }
  framer.Finish(handle);
  server.Drain();
}

}  // namespace rr
