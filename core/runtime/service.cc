#include "core/runtime/service.h"

namespace rr {

void Runtime::AddService(std::shared_ptr<BackgroundService> service) {
  if (!service) return;
  std::lock_guard<std::mutex> lock(mu_);
  services_.push_back(Entry{std::move(service), false});
}

void Runtime::StartAll() {
  std::lock_guard<std::mutex> lock(mu_);
  if (stopped_) return;
  for (auto& e : services_) {
    if (e.started) continue;
    e.started = true;
    e.service->Start();
  }
}

void Runtime::Start(BackgroundService* service) {
  std::lock_guard<std::mutex> lock(mu_);
  if (stopped_) return;
  for (auto& e : services_) {
    if (e.service.get() != service || e.started) continue;
    e.started = true;
    e.service->Start();
  }
}

void Runtime::Stop() {
  std::vector<BackgroundService*> order;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    for (auto it = services_.rbegin(); it != services_.rend(); ++it) {
      order.push_back(it->service.get());
    }
  }
  // Outside the lock: a service's thread may call Start (which then does nothing) while it is
  // being stopped.
  for (BackgroundService* s : order) s->Stop();
}

std::vector<std::string> Runtime::Names() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& e : services_) out.push_back(e.service->name());
  return out;
}

bool Runtime::started(const BackgroundService* service) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& e : services_) {
    if (e.service.get() == service) return e.started;
  }
  return false;
}

}  // namespace rr
