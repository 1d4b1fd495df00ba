// The last line of a process that a fault ends. Plugins run in the server's process, as in
// every in-process plugin host, so a plugin that dereferences a bad pointer, divides by zero or
// aborts takes the whole server down; this at least makes the log say which plugin's code was
// running when it did.
//
//   - PluginCallNote marks, on the calling thread, the plugin code being run ("secret detector
//     `x` of plugin `p`"), for as long as it lives. It only stores a pointer in a thread-local
//     slot: cheap enough for every detector call.
//   - InstallCrashReport sets handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT that write
//     one line to standard error with write(2) -- nothing that allocates or locks -- naming the
//     signal and the plugin code marked on the faulting thread (or that none was), then give the
//     signal its default action: the process ends on it, with its core dump when the system
//     keeps them (in a sanitizer build, the sanitizer's handler that was there before). Handlers
//     set before InstallCrashReport are replaced: call it after Poco's Application is made (it
//     sets its own, which turn a fault into abort()). Each thread that runs plugin code gets a
//     small alternate signal stack (unless it has one), so a stack overflow in a plugin is reported
//     too.
//
// The text given to PluginCallNote must outlive the note and not change while it is set.
#pragma once

namespace rr {

class PluginCallNote {
 public:
  explicit PluginCallNote(const char* what) noexcept;
  ~PluginCallNote();
  PluginCallNote(const PluginCallNote&) = delete;
  PluginCallNote& operator=(const PluginCallNote&) = delete;

 private:
  const char* before_;
};

// Once, at start, before any thread is started. Idempotent.
void InstallCrashReport();

}  // namespace rr
