// The entry of repo-reader-secrets, the built-in secret detectors (detectors.h lists them).
// The plugin reads no settings. A detector that cannot be built (a pattern that does not
// compile) refuses the whole plugin with the reason: the server never runs with part of it.
#include <repo_reader/sdk.h>

#include <memory>
#include <new>

#include "detectors.h"

namespace rr_secrets {

namespace {

repo_reader::Made<repo_reader::SecretDetector> MakeDetectors(const repo_reader::PluginSettings&) {
  repo_reader::Made<repo_reader::SecretDetector> out;
  try {
    std::unique_ptr<Detector> made[] = {
        MakeProviderTokens(),    MakeSettings(),         MakeUrlPasswords(),
        MakeCommandLine(),       MakeProsePasswords(),   MakeProsePasswordsIntl(),
        MakePrivateKeys(),       MakeKeyMaterialLines(), MakeDiscordBotTokens(),
        MakeKubernetesSecrets(),
    };
    for (auto& d : made) {
      if (!d->error().empty()) {
        out.made.clear();
        out.error = std::string("detector ") + d->id() + " cannot be built: " + d->error();
        return out;
      }
      out.made.push_back(std::move(d));
    }
  } catch (const std::bad_alloc&) {
    out.made.clear();
    out.error = "out of memory while building the detectors";
  }
  return out;
}

const repo_reader::PluginEntry* Entry() {
  static const repo_reader::PluginEntry entry = {
      repo_reader::kAbiVersion,
      sizeof(repo_reader::PluginEntry),
      "repo-reader-secrets",
      "0.1.0",
      "the built-in secret detectors: provider tokens, secret settings, URL passwords, "
      "passwords in prose, private keys",
      repo_reader::kSecretDetectorPlugin,
      &MakeDetectors,
      nullptr,
  };
  return &entry;
}

}  // namespace

}  // namespace rr_secrets

REPO_READER_PLUGIN(rr_secrets::Entry)
