// The Runtime of core/runtime/service.h starts its services in the order they were added and
// stops them in the reverse order, each once; a service started later (the history indexer)
// starts only when asked, and never after the runtime stopped.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/runtime/service.h"

namespace rr::testing {
namespace runtime_test {
namespace {

class Recorded : public BackgroundService {
 public:
  Recorded(std::string name, std::vector<std::string>* log) : name_(std::move(name)), log_(log) {}
  std::string name() const override { return name_; }
  void Start() override { log_->push_back("start " + name_); }
  void Stop() override { log_->push_back("stop " + name_); }

 private:
  std::string name_;
  std::vector<std::string>* log_;
};

TEST(Runtime, StartsInOrderAndStopsInReverseEachOnce) {
  std::vector<std::string> log;
  {
    Runtime runtime;
    runtime.Add(std::make_unique<Recorded>("syncer", &log));
    runtime.Add(std::make_unique<Recorded>("relister", &log));
    auto* later = runtime.Add(std::make_unique<Recorded>("indexer", &log));
    EXPECT_EQ(runtime.Add(std::unique_ptr<Recorded>()), nullptr);
    EXPECT_EQ(runtime.Names(), (std::vector<std::string>{"syncer", "relister", "indexer"}));
    runtime.StartAll();
    runtime.StartAll();  // nothing started twice
    runtime.Start(later);
    EXPECT_TRUE(runtime.started(later));
    runtime.Stop();
    runtime.Stop();
  }  // and the destructor stops nothing again
  EXPECT_EQ(log, (std::vector<std::string>{"start syncer", "start relister", "start indexer",
                                           "stop indexer", "stop relister", "stop syncer"}));
}

TEST(Runtime, AServiceStartedLaterStartsOnlyWhenAskedAndNeverAfterStop) {
  std::vector<std::string> log;
  Runtime runtime;
  runtime.Add(std::make_unique<Recorded>("syncer", &log));
  runtime.StartAll();
  auto* indexer = runtime.Add(std::make_unique<Recorded>("indexer", &log));
  EXPECT_FALSE(runtime.started(indexer));
  runtime.Stop();
  runtime.Start(indexer);
  runtime.StartAll();
  EXPECT_FALSE(runtime.started(indexer));
  // Stopped all the same: a service's Stop is safe on one never started.
  EXPECT_EQ(log, (std::vector<std::string>{"start syncer", "stop indexer", "stop syncer"}));
}

}  // namespace
}  // namespace runtime_test
}  // namespace rr::testing
