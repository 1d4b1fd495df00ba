// The call pool: tools/call from a caller that does not wait (stdio) runs on a bounded pool of
// threads (core/runtime/executor.h). Past max_in_flight calls at once a call is refused at once
// as "server busy", never queued without bound; Drain (stdin's end) returns only once every
// call taken has answered.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "core/tools/tool.h"
#include "tests/testkit/git_fixture.h"
#include "tests/testkit/text_checks.h"
#include "tests/testkit/tool_harness.h"

namespace rr::testing {
namespace call_pool_test {
namespace {

// A tool that holds each call until released, then answers with the count of calls it began.
class HoldingTool : public Tool {
 public:
  HoldingTool(std::shared_future<void> release, std::atomic<int>* began)
      : release_(std::move(release)), began_(began) {
    spec_.name = "hold";
    spec_.title = "Hold";
    spec_.description = "Holds the call until the test releases it.";
  }
  const ToolSpec& spec() const override { return spec_; }
  Result<Draft> Call(const CallContext& ctx, const Args&) const override {
    const int n = ++*began_;
    // Held until released, or until the call is cancelled (the server stopping after a failed
    // assertion), so that a failing test ends instead of hanging.
    while (release_.wait_for(std::chrono::milliseconds(5)) != std::future_status::ready) {
      if (ctx.stop.stopped()) return Error{ctx.stop.Why()};
    }
    Draft d;
    d.header = "held";
    d.lines.push_back("call " + std::to_string(n));
    return d;
  }

 private:
  ToolSpec spec_;
  std::shared_future<void> release_;
  std::atomic<int>* began_;
};

class CallPool : public ::testing::Test {
 protected:
  CallPool() : repo_(tmp_ / "shop") {
    repo_.Write("README.md", "# Shop\n");
    repo_.Commit("Start");
  }
  std::unique_ptr<ToolHarness> Harness(size_t workers, size_t max_in_flight) {
    Config config;
    config.source = "test";
    config.repos = {Served("shop", repo_.path())};
    McpServer::Options options;
    options.workers = workers;
    options.max_in_flight = max_in_flight;
    std::vector<std::unique_ptr<const Tool>> extra;
    extra.push_back(std::make_unique<HoldingTool>(released_, &began_));
    return std::make_unique<ToolHarness>(ToolHarness::FromConfig{}, config, std::move(extra),
                                         options);
  }
  void WaitBegan(int n) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (began_.load() < n && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_EQ(began_.load(), n);
  }

  TempDir tmp_;
  TestRepo repo_;
  std::promise<void> release_;
  std::shared_future<void> released_ = release_.get_future().share();
  std::atomic<int> began_{0};
};

// One thread, two calls at once at most: the first runs, the second waits its turn, the third
// is refused at once, saying why; once released, the two taken both answer.
TEST_F(CallPool, PastMaxInFlightACallIsRefusedAtOnceAndTheOthersAnswer) {
  auto h = Harness(1, 2);
  const int first = h->CallAsync("hold");
  WaitBegan(1);
  const int second = h->CallAsync("hold");
  const ToolHarness::Answer third = h->Call("hold");
  EXPECT_TRUE(third.is_error);
  EXPECT_TRUE(Has(third.text, "server busy")) << third.text;
  EXPECT_TRUE(Has(third.text, "2 calls are already running")) << third.text;
  EXPECT_EQ(began_.load(), 1);  // the second waits for the one thread
  release_.set_value();
  EXPECT_TRUE(Has(h->Await(first).text, "call 1"));
  EXPECT_TRUE(Has(h->Await(second).text, "call 2"));
  EXPECT_EQ(began_.load(), 2);  // the refused call never ran
}

// Drain waits for the calls taken, running and queued, to answer; it does not return early.
TEST_F(CallPool, DrainReturnsOnlyOnceEveryCallTakenHasAnswered) {
  auto h = Harness(1, 8);
  const int first = h->CallAsync("hold");
  const int second = h->CallAsync("hold");
  WaitBegan(1);
  auto drained = std::async(std::launch::async, [&] { h->Drain(); });
  EXPECT_EQ(drained.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
  release_.set_value();
  ASSERT_EQ(drained.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  // Both answers were sent before Drain returned.
  size_t answers = 0;
  for (const auto& m : h->Sent())
    answers +=
        Has(m, "\"id\":" + std::to_string(first)) || Has(m, "\"id\":" + std::to_string(second));
  EXPECT_EQ(answers, 2u);
  EXPECT_TRUE(Has(h->Await(second).text, "call 2"));
}

// Batches (stdio, 2025-03-26) wait for the pool within its bound too. One thread held by a call,
// one place in the queue: the first batch takes it; the second is refused at once, each of its
// requests answered "server busy" by its own id (its notification gets nothing), so the client
// waits for none; the first batch is answered once the thread is free.
TEST_F(CallPool, ABatchPastThePoolsBoundIsAnsweredBusyByEachOfItsIds) {
  auto h = Harness(1, 1);
  auto init = h->Raw(R"({"jsonrpc":"2.0","id":900,"method":"initialize","params":{)"
                     R"("protocolVersion":"2025-03-26","capabilities":{},)"
                     R"("clientInfo":{"name":"test","version":"1"}}})",
                     900);
  ASSERT_TRUE(init && init->has("result"));
  const int held = h->CallAsync("hold");
  WaitBegan(1);
  h->Send(R"([{"jsonrpc":"2.0","id":"a1","method":"ping"}])");
  h->Send(R"([{"jsonrpc":"2.0","id":"b1","method":"ping"},)"
          R"({"jsonrpc":"2.0","method":"notifications/initialized"},)"
          R"({"jsonrpc":"2.0","id":7,"method":"tools/list"}])");
  // The refusal is sent at once, while the thread is still held.
  std::string refused;
  for (const auto& m : h->Sent()) {
    if (Has(m, R"("id":"b1")")) refused = m;
  }
  ASSERT_FALSE(refused.empty()) << "the second batch was not answered at once";
  EXPECT_EQ(refused.front(), '[') << refused;
  EXPECT_TRUE(Has(refused, R"("id":7,"error":{"code":-32000,"message":"server busy: )")) << refused;
  EXPECT_TRUE(Has(refused, R"("id":"b1","error":{"code":-32000)")) << refused;
  EXPECT_TRUE(HasNot(refused, "notifications")) << refused;
  for (const auto& m : h->Sent()) EXPECT_TRUE(HasNot(m, R"("id":"a1")")) << m;
  release_.set_value();
  EXPECT_TRUE(Has(h->Await(held).text, "call 1"));
  h->Drain();
  bool first_answered = false;
  for (const auto& m : h->Sent()) first_answered |= Has(m, R"("id":"a1","result")");
  EXPECT_TRUE(first_answered);
}

}  // namespace
}  // namespace call_pool_test
}  // namespace rr::testing
