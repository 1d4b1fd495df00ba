// The built-in detectors. Each factory answers a detector ready to use, or one whose error()
// says why it could not be built (the plugin then refuses to load).
//
//   provider-tokens   keys and tokens by their providers' own formats (ghp_…, AKIA…, xoxb-…)
//   settings          a value given to a setting named for a secret (password: …, API_KEY=…)
//   url-password      the password in scheme://user:password@host
//   command-line      a password given to a command (curl -u, docker login -p, mysql -p…)
//   prose-password    a password written in prose ("the password is …", several languages)
//   prose-password-intl  the same where the word is not ASCII (пароль, 密码, hasło…): no keyword,
//                     a scan of the non-ASCII bytes of every text
//   discord-bot-tokens  Discord bot tokens by their shape alone (no keyword: a scan of '.')
//   private-keys      PEM blocks' key material, keys in base64 on one line, DER key prefixes
//   key-material      runs of key-shaped base64 lines with no header in sight (no keywords)
//   kubernetes-secrets  the values of a Kubernetes Secret's data: and stringData:
#pragma once

#include <memory>

#include "text_scan.h"

namespace rr_secrets {

std::unique_ptr<Detector> MakeProviderTokens();
std::unique_ptr<Detector> MakeSettings();
std::unique_ptr<Detector> MakeUrlPasswords();
std::unique_ptr<Detector> MakeCommandLine();
std::unique_ptr<Detector> MakeProsePasswords();
std::unique_ptr<Detector> MakeProsePasswordsIntl();
std::unique_ptr<Detector> MakeDiscordBotTokens();
std::unique_ptr<Detector> MakePrivateKeys();
std::unique_ptr<Detector> MakeKeyMaterialLines();
std::unique_ptr<Detector> MakeKubernetesSecrets();

}  // namespace rr_secrets
