// The HTTP request head and body framing as the HTTP transport (core/mcp/http_transport.cc)
// receives them: Poco's HTTPServerSession / HTTPServerRequestImpl with the HTTPServerParams the
// transport sets (keep-alive, no request limit, Poco's header limits), over a real loopback
// connection, requests read one after another on it as HTTPServerConnection reads them, and each
// body read through its stream (Content-Length, chunked, or none) up to 64 KiB, as the transport's
// POST handler and DropBody read it. The transport's own checks on the headers (Host, Origin,
// Authorization) are not reached here: they live in its request handler.
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/HTTPServerResponseImpl.h>
#include <Poco/Net/HTTPServerSession.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/StreamSocket.h>

#include <cstdint>
#include <string>

namespace {

Poco::Net::ServerSocket& Listener() {
  static Poco::Net::ServerSocket* s = [] {
    auto* socket = new Poco::Net::ServerSocket;
    socket->bind(Poco::Net::SocketAddress("127.0.0.1", 0), true);
    socket->listen(4);
    return socket;
  }();
  return *s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A loopback socket's buffers take this much before anyone reads; the head's own limits (100
  // fields of 8 KiB) are reached by the fields' count and length within it.
  if (size > 60000) return 0;
  Poco::Net::StreamSocket client(Listener().address());
  client.setSendBufferSize(256 * 1024);
  Poco::Net::StreamSocket server = Listener().acceptConnection();
  size_t sent = 0;
  while (sent < size) {
    const int n = client.sendBytes(data + sent, static_cast<int>(size - sent));
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  client.shutdownSend();

  Poco::Net::HTTPServerParams::Ptr params = new Poco::Net::HTTPServerParams;
  params->setKeepAlive(true);
  params->setKeepAliveTimeout(Poco::Timespan(1, 0));
  params->setTimeout(Poco::Timespan(1, 0));
  params->setMaxKeepAliveRequests(0);
  params->setServerName("repo-reader");
  Poco::Net::HTTPServerSession session(server, params);
  try {
    for (int i = 0; i < 8 && session.hasMoreRequests(); ++i) {
      Poco::Net::HTTPServerResponseImpl response(session);
      Poco::Net::HTTPServerRequestImpl request(response, session, params);
      (void)request.getMethod();
      (void)request.getURI();
      (void)request.has("Host");
      (void)request.has("Origin");
      (void)request.has("Authorization");
      if (request.hasContentLength()) (void)request.getContentLength64();
      std::istream& in = request.stream();
      char buf[16384];
      size_t body = 0;
      while ((in.read(buf, sizeof buf) || in.gcount() > 0) && body <= 65536) {
        body += static_cast<size_t>(in.gcount());
      }
      response.setKeepAlive(request.getKeepAlive() && body <= 65536);
      response.setContentLength(0);
      response.send();
      session.setKeepAlive(response.getKeepAlive());
    }
  } catch (const Poco::Exception&) {
    // NoMessageException, MessageException (a malformed head: the connection answers 400 and
    // closes), timeouts, a reset connection
  } catch (const std::exception&) {
  }
  return 0;
}
