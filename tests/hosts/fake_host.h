// Test kit for group listings: a small HTTP server on loopback that answers as a host's API
// documents it — pages with their pagination headers or bodies, 401/403/404/429, a redirect, a
// page that trickles — from a table the test writes, and records every request it was sent.
#pragma once

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace rr::testing {

class FakeHost {
 public:
  struct Reply {
    int status = 200;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    // Sent a byte at a time, this long apart (0: at once).
    std::chrono::milliseconds trickle{0};
  };
  struct Seen {
    std::string uri;  // path and query
    std::map<std::string, std::string> headers;
  };
  // Answers a request by its path and query ("/api/orgs/acme/repos?page=2"); an unknown one 404.
  using Route = std::function<Reply(const std::string& uri)>;

  explicit FakeHost(Route route)
      : state_(std::make_shared<State>()),
        server_(new Factory(state_),
                Poco::Net::ServerSocket(Poco::Net::SocketAddress("127.0.0.1", 0)), Params()) {
    state_->route = std::move(route);
    server_.start();
  }
  ~FakeHost() { server_.stopAll(true); }

  int port() const { return server_.port(); }
  std::string base() const { return "http://127.0.0.1:" + std::to_string(port()); }
  std::vector<Seen> seen() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->seen;
  }

 private:
  struct State {
    std::mutex mu;
    std::vector<Seen> seen;
    Route route;
  };
  class Handler : public Poco::Net::HTTPRequestHandler {
   public:
    explicit Handler(std::shared_ptr<State> s) : state_(std::move(s)) {}
    void handleRequest(Poco::Net::HTTPServerRequest& req,
                       Poco::Net::HTTPServerResponse& res) override {
      Seen seen;
      seen.uri = req.getURI();
      for (const auto& [k, v] : req) seen.headers[k] = v;
      {
        std::lock_guard<std::mutex> lock(state_->mu);
        state_->seen.push_back(seen);
      }
      const Reply r = state_->route(seen.uri);
      res.setStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(r.status));
      for (const auto& [k, v] : r.headers) res.set(k, v);
      res.setContentType("application/json");
      if (r.trickle.count() == 0) {
        res.setContentLength(static_cast<std::streamsize>(r.body.size()));
        res.send() << r.body;
        return;
      }
      res.setChunkedTransferEncoding(true);
      std::ostream& out = res.send();
      for (char c : r.body) {
        out << c;
        out.flush();
        if (!out) return;
        std::this_thread::sleep_for(r.trickle);
      }
    }

   private:
    std::shared_ptr<State> state_;
  };
  class Factory : public Poco::Net::HTTPRequestHandlerFactory {
   public:
    explicit Factory(std::shared_ptr<State> s) : state_(std::move(s)) {}
    Poco::Net::HTTPRequestHandler* createRequestHandler(
        const Poco::Net::HTTPServerRequest&) override {
      return new Handler(state_);
    }

   private:
    std::shared_ptr<State> state_;
  };
  static Poco::Net::HTTPServerParams::Ptr Params() {
    Poco::Net::HTTPServerParams::Ptr p = new Poco::Net::HTTPServerParams;
    p->setMaxThreads(4);
    p->setKeepAlive(false);
    return p;
  }

  std::shared_ptr<State> state_;
  Poco::Net::HTTPServer server_;
};

}  // namespace rr::testing
