// The built-in detectors on lines of public repositories that nobody here wrote (the FastAPI
// full-stack template, Docker's awesome-compose, Sentry's self-hosted, Laravel, Express,
// kubernetes/examples): ordinary lines the filter hid, and a default password it showed. Each
// case is the line's shape, written again here; a value that is a secret is generated at run
// time, so no literal in this file looks like a credential to a scanner.
#include <gtest/gtest.h>
#include <repo_reader/testkit.h>

#include <string>

#include "tests/secrets/generated_values.h"

namespace real_code {
namespace {

using repo_reader::TextKind;
using repo_reader::testkit::LoadedPlugin;
using repo_reader::testkit::Scanned;
using rr::testing::Chars;
const std::string& kAlnum = rr::testing::kBase62;

const LoadedPlugin& Plugin() {
  static const LoadedPlugin plugin(std::string(RR_PLUGIN_DIR) + "/repo-reader-secrets.so");
  return plugin;
}

Scanned Scan(const std::string& text, std::string_view path) {
  Scanned s = Plugin().Scan(text, TextKind::kFile, path);
  EXPECT_TRUE(s.error.empty()) << s.error;
  return s;
}

::testing::AssertionResult HidesNothing(const std::string& text, std::string_view path) {
  const Scanned s = Scan(text, path);
  if (s.spans.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "hidden where nothing should be:\n" << s.redacted;
}

// Exactly `value` is hidden: one span, from its first byte to its last.
::testing::AssertionResult HidesExactly(const std::string& text, const std::string& value,
                                        std::string_view path) {
  const Scanned s = Scan(text, path);
  const size_t at = text.find(value);
  if (at == std::string::npos) return ::testing::AssertionFailure() << "value not in the text";
  if (s.spans.size() == 1 && s.spans[0].begin == at && s.spans[0].end == at + value.size()) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "`" << value << "` is not hidden exactly in:\n"
                                       << s.redacted;
}

TEST(RealCode, SentencesAboutAPasswordAreKept) {
  // Titles, a test's expectation, a test script's report.
  EXPECT_TRUE(HidesNothing("      {\n        title: \"Recover Password - FastAPI Template\",\n",
                           "frontend/src/routes/recover-password.tsx"));
  EXPECT_TRUE(HidesNothing("      title={`${project_name} - Password recovery`}\n",
                           "backend/app/email-templates/src/reset_password.tsx"));
  EXPECT_TRUE(
      HidesNothing("  await expect(page.getByText(\"Password is required\")).toBeVisible()\n",
                   "frontend/tests/login.spec.ts"));
  EXPECT_TRUE(
      HidesNothing("echo \"Pass: no-op when SETUP_CUSTOM_CA_CERTIFICATE is unset\"\n"
                   "echo \"Pass: invalid certificate causes a non-zero exit\"\n",
                   "_integration-test/custom-ca-roots/test.sh"));
  // Still hidden: a value after the dash as a line's last word, or after "is" in a string.
  const std::string v = Chars(6, kAlnum, 3) + "7!";
  EXPECT_TRUE(HidesExactly("db password - " + v + "\n", v, "notes/ops.md"));
  EXPECT_TRUE(HidesExactly("print(\"the password is " + v + "\")\n", v, "tools/x.py"));
}

TEST(RealCode, VersionsOfPackagesNamedForASecretsWordAreKept) {
  EXPECT_TRUE(HidesNothing("      \"requires\": {\n        \"js-tokens\": \"^3.0.0 || ^4.0.0\"\n",
                           "react-express-mysql/frontend/package-lock.json"));
  EXPECT_TRUE(HidesNothing(
      "    \"pbkdf2-password\": \"1.2.1\",\n    \"jsonwebtoken\": \"~9.0.2\"\n", "package.json"));
  EXPECT_TRUE(HidesNothing("keyring>=23.0,<25\n", "requirements.txt"));
}

TEST(RealCode, NamesOfThingsGivenToAKeyAreKept) {
  // A storage key's name is words; a key is random.
  EXPECT_TRUE(HidesNothing("  storageKey = \"vite-ui-theme\",\n",
                           "frontend/src/components/theme-provider.tsx"));
  EXPECT_TRUE(HidesNothing("const cacheKey = 'user_profile_v';\n", "src/cache.js"));
  // A password of words joined so is still a password.
  EXPECT_TRUE(
      HidesExactly("DB_PASSWORD=correct-horse-staple\n", "correct-horse-staple", "deploy/.env"));
}

TEST(RealCode, PlaceholdersAndReferencesOfRealProjectsAreKept) {
  EXPECT_TRUE(HidesNothing("SECRET_KEY=changethis\nPOSTGRES_PASSWORD=changethis\n", ".env"));
  EXPECT_TRUE(HidesNothing("wsrep_sst_auth=sstuser:changethis\n", "image/cluster.cnf"));
  // Laravel's cast of the password attribute.
  EXPECT_TRUE(HidesNothing("            'password' => 'hashed',\n", "app/Models/User.php"));
  // Apache's variable.
  EXPECT_TRUE(HidesNothing("    RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]\n",
                           "public/.htaccess"));
}

TEST(RealCode, AVariablesDefaultPasswordIsHiddenUpToItsBrace) {
  const std::string v = Chars(10, kAlnum, 5);
  // Spring's ${NAME:default}: the brace stays shown.
  EXPECT_TRUE(HidesExactly("spring.datasource.password=${MYSQL_PASSWORD:" + v + "}\n", v,
                           "backend/src/main/resources/application.properties"));
  // The shell's ${NAME:-default} and ${NAME:=default}: it was shown.
  EXPECT_TRUE(HidesExactly("DB_PASSWORD=${DB_PASSWORD:-" + v + "}\n", v, "deploy/.env"));
  EXPECT_TRUE(HidesExactly("export PGPASSWORD=\"${PGPASSWORD:=" + v + "}\"\n", v, "run.sh"));
  // No default: a reference.
  EXPECT_TRUE(
      HidesNothing("spring.datasource.password=${MYSQL_PASSWORD}\n", "application.properties"));
}

TEST(RealCode, AKubernetesSecretsCommentsAreNoValues) {
  const std::string v = Chars(24, kAlnum, 7) + "==";
  const Scanned s = Scan(
      "apiVersion: v1\nkind: Secret\nmetadata:\n  name: gluster\ndata:\n"
      "  # base64 encoded password. E.g.: echo -n \"mypassword\" | base64\n"
      "  key: " +
          v + "  # the key `ceph auth get-key` outputs\n",
      "glusterfs-secret.yaml");
  ASSERT_EQ(s.spans.size(), 1u) << s.redacted;
  EXPECT_NE(s.redacted.find("  # base64 encoded password. E.g.: echo -n \"mypassword\" | base64\n"),
            std::string::npos)
      << s.redacted;
  EXPECT_NE(s.redacted.find("]  # the key `ceph auth get-key` outputs"), std::string::npos)
      << s.redacted;
}

}  // namespace
}  // namespace real_code
