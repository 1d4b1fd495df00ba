#include "core/util/crash_note.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "core/util/sanitizers.h"

namespace rr {
namespace {

thread_local const char* t_running = nullptr;

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction g_before[sizeof kSignals / sizeof kSignals[0]];
bool g_installed = false;

// The calling thread's alternate signal stack, made when it first runs plugin code (unless it
// has one: a sanitizer's), and given back when the thread ends.
struct AltStack {
  void* memory = nullptr;
  AltStack() {
    stack_t now{};
    if (sigaltstack(nullptr, &now) != 0 || !(now.ss_flags & SS_DISABLE)) return;
    const size_t size = 64 * 1024;
    memory = std::malloc(size);
    if (!memory) return;
    stack_t s{};
    s.ss_sp = memory;
    s.ss_size = size;
    if (sigaltstack(&s, nullptr) != 0) {
      std::free(memory);
      memory = nullptr;
    }
  }
  ~AltStack() {
    if (!memory) return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    std::free(memory);
  }
};

void Put(const char* s) {
  size_t n = std::strlen(s);
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<size_t>(w);
  }
}

const char* NameOf(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV (a bad memory access)";
    case SIGBUS:
      return "SIGBUS (a bad memory access)";
    case SIGFPE:
      return "SIGFPE (an arithmetic fault)";
    case SIGILL:
      return "SIGILL (an illegal instruction)";
    case SIGABRT:
      return "SIGABRT (aborted)";
  }
  return "a fatal signal";
}

void OnFatal(int sig, siginfo_t* info, void*) {
  const char* running = t_running;
  Put("repo-reader: the process ends on ");
  Put(NameOf(sig));
  if (running) {
    Put(" in plugin code: ");
    Put(running);
    Put(" was running on the thread that faulted. A plugin runs inside the server and can take "
        "it down: fix the plugin, or remove it from the configuration\n");
  } else {
    Put(" with no plugin code running on the thread that faulted\n");
  }
  // The default action takes it from here -- the process ends on this signal, as it would have
  // without this handler (a sanitizer's handler, in a sanitizer build): for a fault, the
  // instruction faults again when this handler returns; a signal that was sent (abort, kill)
  // is sent again.
#if defined(RR_ASAN)
  for (size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) {
    if (kSignals[i] == sig) sigaction(sig, &g_before[i], nullptr);
  }
#else
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
#endif
  if (info == nullptr || info->si_code <= 0) raise(sig);
}

}  // namespace

PluginCallNote::PluginCallNote(const char* what) noexcept : before_(t_running) {
  thread_local AltStack alt_stack;
  (void)alt_stack;
  t_running = what;
}

PluginCallNote::~PluginCallNote() { t_running = before_; }

void InstallCrashReport() {
  if (g_installed) return;
  g_installed = true;
  for (size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) {
    struct sigaction a {};
    a.sa_sigaction = &OnFatal;
    sigemptyset(&a.sa_mask);
    a.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigaction(kSignals[i], &a, &g_before[i]);
  }
}

}  // namespace rr
