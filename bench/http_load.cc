// http-load: a load generator for repo-reader over Streamable HTTP, on loopback. N clients
// (threads), each on one kept-alive connection, send 2026-07-28 tools/call requests one after
// another — read_file of a file and list_files of a folder, alternately — for a time or a
// number of calls, whichever comes first, and check every answer (status 200, a tool result
// that is not an error). It prints calls per second, latency percentiles, errors, and the
// resident memory of the server processes named with --pid once a second.
//
//   http-load --port 8080 [--clients 16] [--seconds 60] [--max-calls N] [--repo R]
//             [--file PATH] [--folder PATH] [--token T] [--pid PID]... [--json]
//
// Written on plain sockets with one write per request and a small parser for the answer, so
// that it costs far less than the server it measures (docs/performance.md).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int port = 0;
  int clients = 16;
  double seconds = 60;
  long max_calls = 10'000'000;
  std::string repo = "shop";
  std::string file = "README.md";
  std::string folder = "";
  std::string token;
  std::vector<int> pids;
  bool json = false;
};

std::string Request(const Options& o, const std::string& tool, const std::string& args, long id) {
  const std::string body =
      "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
      ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + args +
      ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      "\"io.modelcontextprotocol/clientCapabilities\":{},"
      "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"http-load\",\"version\":\"1\"}}}}";
  std::string r = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(o.port) +
                  "\r\nContent-Type: application/json\r\nAccept: application/json, "
                  "text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: "
                  "tools/call\r\nMcp-Name: " +
                  tool + "\r\n";
  if (!o.token.empty()) r += "Authorization: Bearer " + o.token + "\r\n";
  return r + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

int Connect(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

// Reads one response on `fd` (Content-Length or chunked); false when the connection broke.
bool ReadResponse(int fd, std::string& buf, int* status, std::string* body) {
  size_t header_end;
  while ((header_end = buf.find("\r\n\r\n")) == std::string::npos) {
    char tmp[65536];
    const ssize_t n = recv(fd, tmp, sizeof tmp, 0);
    if (n <= 0) return false;
    buf.append(tmp, static_cast<size_t>(n));
  }
  *status = std::atoi(buf.c_str() + 9);
  std::string head = buf.substr(0, header_end);
  for (auto& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t pos = header_end + 4;
  const size_t cl = head.find("\r\ncontent-length:");
  if (cl != std::string::npos) {
    const size_t len = std::strtoul(head.c_str() + cl + 17, nullptr, 10);
    while (buf.size() < pos + len) {
      char tmp[65536];
      const ssize_t n = recv(fd, tmp, sizeof tmp, 0);
      if (n <= 0) return false;
      buf.append(tmp, static_cast<size_t>(n));
    }
    *body = buf.substr(pos, len);
    buf.erase(0, pos + len);
    return true;
  }
  if (head.find("transfer-encoding: chunked") == std::string::npos) return false;
  body->clear();
  for (;;) {
    size_t eol;
    while ((eol = buf.find("\r\n", pos)) == std::string::npos) {
      char tmp[65536];
      const ssize_t n = recv(fd, tmp, sizeof tmp, 0);
      if (n <= 0) return false;
      buf.append(tmp, static_cast<size_t>(n));
    }
    const size_t len = std::strtoul(buf.c_str() + pos, nullptr, 16);
    while (buf.size() < eol + 2 + len + 2) {
      char tmp[65536];
      const ssize_t n = recv(fd, tmp, sizeof tmp, 0);
      if (n <= 0) return false;
      buf.append(tmp, static_cast<size_t>(n));
    }
    body->append(buf, eol + 2, len);
    pos = eol + 2 + len + 2;
    if (len == 0) break;
  }
  buf.erase(0, pos);
  return true;
}

long RssKb(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "http-load: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--port")
      o.port = std::stoi(next());
    else if (a == "--clients")
      o.clients = std::stoi(next());
    else if (a == "--seconds")
      o.seconds = std::stod(next());
    else if (a == "--max-calls")
      o.max_calls = std::stol(next());
    else if (a == "--repo")
      o.repo = next();
    else if (a == "--file")
      o.file = next();
    else if (a == "--folder")
      o.folder = next();
    else if (a == "--token")
      o.token = next();
    else if (a == "--pid")
      o.pids.push_back(std::stoi(next()));
    else if (a == "--json")
      o.json = true;
    else {
      std::fprintf(stderr,
                   "usage: http-load --port PORT [--clients 16] [--seconds 60] [--max-calls N] "
                   "[--repo R] [--file PATH] [--folder PATH] [--token T] [--pid PID]... "
                   "[--json]\n");
      return 2;
    }
  }
  if (o.port <= 0 || o.clients <= 0 || o.seconds <= 0) {
    std::fprintf(stderr, "http-load: --port is needed; --clients and --seconds must be > 0\n");
    return 2;
  }
  const std::string folder_arg = o.folder.empty() ? "" : ",\"path\":" + JsonString(o.folder);
  const std::string read_args =
      "{\"repo\":" + JsonString(o.repo) + ",\"path\":" + JsonString(o.file) + "}";
  const std::string list_args = "{\"repo\":" + JsonString(o.repo) + folder_arg + "}";

  std::atomic<long> issued{0};
  std::atomic<long> errors{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::vector<double> all_ms;
  std::string first_error;
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::duration<double>(o.seconds);

  std::vector<std::thread> threads;
  for (int c = 0; c < o.clients; ++c) {
    threads.emplace_back([&, c] {
      std::vector<double> ms;
      ms.reserve(1 << 16);
      const std::string requests[2] = {Request(o, "read_file", read_args, c * 2 + 1),
                                       Request(o, "list_files", list_args, c * 2 + 2)};
      int fd = Connect(o.port);
      std::string buf, body;
      long k = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        if (issued.fetch_add(1) >= o.max_calls || Clock::now() >= deadline) break;
        const std::string& req = requests[k++ % 2];
        const auto t0 = Clock::now();
        int status = 0;
        bool ok = fd >= 0 && send(fd, req.data(), req.size(), MSG_NOSIGNAL) ==
                                 static_cast<ssize_t>(req.size());
        ok = ok && ReadResponse(fd, buf, &status, &body);
        const double elapsed = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        if (ok && status == 200 && body.find("\"isError\":false") != std::string::npos) {
          ms.push_back(elapsed);
          continue;
        }
        errors.fetch_add(1);
        {
          std::lock_guard<std::mutex> lock(mu);
          if (first_error.empty()) {
            first_error = "status " + std::to_string(status) + ": " + body.substr(0, 300);
          }
        }
        if (!ok) {  // a broken connection: a new one
          if (fd >= 0) close(fd);
          buf.clear();
          fd = Connect(o.port);
        }
      }
      if (fd >= 0) close(fd);
      std::lock_guard<std::mutex> lock(mu);
      all_ms.insert(all_ms.end(), ms.begin(), ms.end());
    });
  }
  // Memory of the servers, once a second.
  std::vector<std::vector<long>> rss(o.pids.size());
  std::thread sampler([&] {
    while (!stop.load()) {
      for (size_t i = 0; i < o.pids.size(); ++i) rss[i].push_back(RssKb(o.pids[i]));
      for (int i = 0; i < 10 && !stop.load(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
  });
  for (auto& t : threads) t.join();
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  stop = true;
  sampler.join();

  std::sort(all_ms.begin(), all_ms.end());
  auto pct = [&](double p) {
    if (all_ms.empty()) return 0.0;
    return all_ms[std::min(all_ms.size() - 1, static_cast<size_t>(p * all_ms.size()))];
  };
  const long ok = static_cast<long>(all_ms.size());
  const double rate = ok / wall;
  if (o.json) {
    std::printf(
        "{\"clients\":%d,\"seconds\":%.2f,\"calls\":%ld,\"errors\":%ld,\"calls_per_s\":%.1f,"
        "\"p50_ms\":%.3f,\"p90_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f,\"rss_kb\":[",
        o.clients, wall, ok, errors.load(), rate, pct(0.5), pct(0.9), pct(0.99),
        all_ms.empty() ? 0.0 : all_ms.back());
    for (size_t i = 0; i < rss.size(); ++i) {
      std::printf("%s[", i ? "," : "");
      for (size_t j = 0; j < rss[i].size(); ++j) std::printf("%s%ld", j ? "," : "", rss[i][j]);
      std::printf("]");
    }
    std::printf("]}\n");
  } else {
    std::printf("%d clients, %.1f s: %ld calls, %ld errors, %.0f calls/s\n", o.clients, wall, ok,
                errors.load(), rate);
    std::printf("latency ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n", pct(0.5), pct(0.9),
                pct(0.99), all_ms.empty() ? 0.0 : all_ms.back());
    for (size_t i = 0; i < rss.size(); ++i) {
      if (rss[i].empty()) continue;
      const size_t warm = std::min(rss[i].size() - 1, static_cast<size_t>(10));
      std::printf("server %d RSS MB: start %.1f, after 10 s %.1f, peak %.1f, end %.1f\n", o.pids[i],
                  rss[i].front() / 1024.0, rss[i][warm] / 1024.0,
                  *std::max_element(rss[i].begin(), rss[i].end()) / 1024.0, rss[i].back() / 1024.0);
    }
  }
  if (!first_error.empty())
    std::fprintf(stderr, "http-load: first error: %s\n", first_error.c_str());
  return errors.load() == 0 ? 0 : 1;
}
