// The built-in detectors on lines of public repositories that nobody here wrote (the FastAPI
// full-stack template, Docker's awesome-compose, Sentry's self-hosted, Laravel, Express,
// kubernetes/examples): ordinary lines the filter hid, and a default password it showed. Each
// case is the line's shape, written again here; a value that is a secret is generated at run
// time, so no literal in this file looks like a credential to a scanner.
#include <gtest/gtest.h>
#include <repo_reader/testkit.h>

#include <string>
#include <vector>

#include "tests/secrets/builtin_scan.h"
#include "tests/secrets/generated_values.h"

namespace real_code {
namespace {

using repo_reader::testkit::Scanned;
using rr::testing::Chars;
const std::string& kAlnum = rr::testing::kBase62;

using rr::testing::HidesNone;
using rr::testing::ScanAs;

// Exactly `value` is hidden: one span, from its first byte to its last.
::testing::AssertionResult HidesExactly(const std::string& text, const std::string& value,
                                        std::string_view path) {
  const Scanned s = ScanAs(text, path);
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
  EXPECT_TRUE(HidesNone("      {\n        title: \"Recover Password - FastAPI Template\",\n",
                        "frontend/src/routes/recover-password.tsx"));
  EXPECT_TRUE(HidesNone("      title={`${project_name} - Password recovery`}\n",
                        "backend/app/email-templates/src/reset_password.tsx"));
  EXPECT_TRUE(HidesNone("  await expect(page.getByText(\"Password is required\")).toBeVisible()\n",
                        "frontend/tests/login.spec.ts"));
  EXPECT_TRUE(
      HidesNone("echo \"Pass: no-op when SETUP_CUSTOM_CA_CERTIFICATE is unset\"\n"
                "echo \"Pass: invalid certificate causes a non-zero exit\"\n",
                "_integration-test/custom-ca-roots/test.sh"));
  // Still hidden: a value after the dash as a line's last word, or after "is" in a string.
  const std::string v = Chars(6, kAlnum, 3) + "7!";
  EXPECT_TRUE(HidesExactly("db password - " + v + "\n", v, "notes/ops.md"));
  EXPECT_TRUE(HidesExactly("print(\"the password is " + v + "\")\n", v, "tools/x.py"));
}

TEST(RealCode, VersionsOfPackagesNamedForASecretsWordAreKept) {
  EXPECT_TRUE(HidesNone("      \"requires\": {\n        \"js-tokens\": \"^3.0.0 || ^4.0.0\"\n",
                        "react-express-mysql/frontend/package-lock.json"));
  EXPECT_TRUE(HidesNone("    \"pbkdf2-password\": \"1.2.1\",\n    \"jsonwebtoken\": \"~9.0.2\"\n",
                        "package.json"));
  EXPECT_TRUE(HidesNone("keyring>=23.0,<25\n", "requirements.txt"));
}

TEST(RealCode, NamesOfThingsGivenToAKeyAreKept) {
  // A storage key's name is words; a key is random.
  EXPECT_TRUE(HidesNone("  storageKey = \"vite-ui-theme\",\n",
                        "frontend/src/components/theme-provider.tsx"));
  EXPECT_TRUE(HidesNone("const cacheKey = 'user_profile_v';\n", "src/cache.js"));
  // A password of words joined so is still a password.
  EXPECT_TRUE(
      HidesExactly("DB_PASSWORD=correct-horse-staple\n", "correct-horse-staple", "deploy/.env"));
}

TEST(RealCode, PlaceholdersAndReferencesOfRealProjectsAreKept) {
  EXPECT_TRUE(HidesNone("SECRET_KEY=changethis\nPOSTGRES_PASSWORD=changethis\n", ".env"));
  EXPECT_TRUE(HidesNone("wsrep_sst_auth=sstuser:changethis\n", "image/cluster.cnf"));
  // Laravel's cast of the password attribute.
  EXPECT_TRUE(HidesNone("            'password' => 'hashed',\n", "app/Models/User.php"));
  // Apache's variable.
  EXPECT_TRUE(HidesNone("    RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]\n",
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
      HidesNone("spring.datasource.password=${MYSQL_PASSWORD}\n", "application.properties"));
}

TEST(RealCode, AKubernetesSecretsCommentsAreNoValues) {
  const std::string v = Chars(24, kAlnum, 7) + "==";
  const Scanned s = ScanAs(
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

std::string Base64(const std::string& bytes) {
  static const char kAbc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v =
        (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    for (int k = 18; k >= 0; k -= 6) out.push_back(kAbc[(v >> k) & 63]);
  }
  if (i < bytes.size()) {
    uint32_t v = uint8_t(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= uint8_t(bytes[i + 1]) << 8;
    out.push_back(kAbc[(v >> 18) & 63]);
    out.push_back(kAbc[(v >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kAbc[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

TEST(RealCode, AKeyCommentedOutLineByLineIsHiddenWhole) {
  // Traefik's ingress-nginx fixture keeps a key in a YAML comment, `#    ` before each line:
  // only its first line was hidden (a DER prefix), the rest shown.
  std::string text = "# tls.key: |\n#    -----BEGIN PRIVATE KEY-----\n";
  std::vector<std::string> lines;
  for (unsigned i = 0; i < 6; ++i) {
    lines.push_back((i == 0 ? "MIIEvgIBADANBgkqhkiG9w0BAQEFAASC" + Chars(32, kAlnum, 20)
                            : Chars(64, kAlnum, 20 + i)));
    text += "#    " + lines.back() + "\n";
  }
  text += "#    -----END PRIVATE KEY-----\n";
  for (const std::string& marks : {std::string("#    "), std::string("// "), std::string(" * ")}) {
    std::string t = text;
    for (size_t at = t.find("#    "); at != std::string::npos; at = t.find("#    ", at + 1)) {
      t.replace(at, 5, marks);
    }
    const Scanned s = ScanAs(t, "fixtures/ingress.yml");
    for (const std::string& line : lines) {
      EXPECT_EQ(s.redacted.find(line), std::string::npos) << marks << "\n" << s.redacted;
    }
    // The markers stay shown, and each comment's mark.
    EXPECT_NE(s.redacted.find(marks + "-----BEGIN PRIVATE KEY-----\n" + marks + "[hidden: "),
              std::string::npos)
        << s.redacted;
    EXPECT_NE(s.redacted.find("]\n" + marks + "-----END PRIVATE KEY-----"), std::string::npos)
        << s.redacted;
  }
}

TEST(RealCode, EveryWayOfReadingAKeyTakesItsCommentMarks) {
  std::vector<std::string> lines;
  std::string body;
  for (unsigned i = 0; i < 5; ++i) {
    lines.push_back(Chars(64, kAlnum, 40 + i));
    body += "#    " + lines.back() + "\n";
  }
  auto none_shown = [&](const std::string& text) {
    const Scanned s = ScanAs(text, "fixtures/ingress.yml");
    for (const std::string& line : lines) {
      if (s.redacted.find(line) != std::string::npos) {
        return ::testing::AssertionFailure() << "shown:\n" << s.redacted;
      }
    }
    return ::testing::AssertionSuccess();
  };
  // BEGIN, then commented lines of no known prefix, then END.
  EXPECT_TRUE(
      none_shown("#    -----BEGIN PRIVATE KEY-----\n" + body + "#    -----END PRIVATE KEY-----\n"));
  // The text stops inside the block, or starts inside it.
  EXPECT_TRUE(none_shown("#    -----BEGIN PRIVATE KEY-----\n" + body));
  EXPECT_TRUE(none_shown(body + "#    -----END PRIVATE KEY-----\n"));
  // No marker: a DER key's prefix, and the lines continuing it.
  EXPECT_TRUE(
      none_shown("#    MIIEvgIBADANBgkqhkiG9w0BAQEFAASC" + Chars(32, kAlnum, 50) + "\n" + body));
  // The same with one line of each, too few for a run of key lines with no marker to be seen.
  lines.resize(1);
  body = "#    " + lines[0] + "\n";
  EXPECT_TRUE(none_shown("#    -----BEGIN PRIVATE KEY-----\n" + body));
  lines[0] = Chars(22, kAlnum, 51) + "7Q==";  // a key's last line, short
  EXPECT_TRUE(none_shown("#    MIIEvgIBADANBgkqhkiG9w0BAQEFAASC" + Chars(32, kAlnum, 50) + "\n" +
                         "#    " + lines[0] + "\n"));
}

TEST(RealCode, AnEmptyPemBlockInAStringHidesNothingAboveIt) {
  // An END alone (the text starts inside a block) after lines named like a PEM header: they
  // are no key either.
  EXPECT_TRUE(
      HidesNone("Certificate: tls.Certificate{\nCertFile: types.FileOrContent{\n"
                "-----END PRIVATE KEY-----\n",
                "pkg/x_test.go"));
  // Data above an empty block written on one line is not its key.
  const std::string data = Chars(48, kAlnum, 60);
  const Scanned s = ScanAs("\t\"" + data +
                               "\",\n\tKeyFile: \"-----BEGIN PRIVATE KEY-----\\n"
                               "-----END PRIVATE KEY-----\",\n",
                           "pkg/x_test.go");
  EXPECT_NE(s.redacted.find(data), std::string::npos) << s.redacted;
  // Traefik's tests: an END on its BEGIN's line closes an empty block; the lines above (a
  // field named like a PEM header, `Certificate: tls.Certificate{`) are no key.
  EXPECT_TRUE(HidesNone(
      "\t\t\tCertificate: tls.Certificate{\n"
      "\t\t\t\tCertFile: types.FileOrContent(\"-----BEGIN CERTIFICATE-----\\n-----END "
      "CERTIFICATE-----\"),\n"
      "\t\t\t\tKeyFile:  types.FileOrContent(\"-----BEGIN PRIVATE KEY-----\\n-----END PRIVATE "
      "KEY-----\"),\n",
      "pkg/provider/kubernetes/ingress/kubernetes_test.go"));
}

TEST(RealCode, AKubernetesSecretsCertificatesAreKeptItsKeysHidden) {
  const std::string cert = Base64("-----BEGIN CERTIFICATE-----\n" + Chars(48, kAlnum, 30) + "\n");
  const std::string key = Base64("-----BEGIN PRIVATE KEY-----\n" + Chars(48, kAlnum, 31) + "\n");
  const std::string ca = Base64("CA1-" + Chars(8, kAlnum, 32));
  const std::string text =
      "apiVersion: v1\nkind: Secret\nmetadata:\n  name: tls\ndata:\n"
      "  tls.crt: " +
      cert + "\n  ca.crt: " + ca + "\n  tls.ca: " + cert + "\n  tls.key: " + key + "\n";
  const Scanned s = ScanAs(text, "fixtures/tls.yml");
  EXPECT_NE(s.redacted.find("tls.crt: " + cert), std::string::npos) << s.redacted;
  EXPECT_NE(s.redacted.find("ca.crt: " + ca), std::string::npos) << s.redacted;
  EXPECT_NE(s.redacted.find("tls.ca: " + cert), std::string::npos) << s.redacted;
  EXPECT_EQ(s.redacted.find(key), std::string::npos) << s.redacted;
}

TEST(RealCode, UrnsAndNamesGivenToTheirOwnNameAreKept) {
  // Traefik's references to a Kubernetes Secret's entry, by name.
  EXPECT_TRUE(
      HidesNone("          ca: \"urn:k8s:secret:tls:ca\"\n"
                "          key: \"urn:k8s:secret:tls:key\"\n"
                "      secret: urn:k8s:secret:name:key\n",
                "docs/content/middlewares/http/forwardauth.md"));
  // A header's name given to its constant.
  EXPECT_TRUE(HidesNone("\tforward.ProxyAuthorization: \"ProxyAuthorization\",\n",
                        "pkg/middlewares/auth/forward.go"));
  // Yarn's lockfile.
  EXPECT_TRUE(HidesNone("    js-tokens: \"npm:^4.0.0\"\n", "webui/yarn.lock"));
  // Still hidden: a value after the same URN's words where no URN is.
  const std::string v = Chars(16, kAlnum, 33);
  EXPECT_TRUE(HidesExactly("k8s_secret: " + v + "\n", v, "deploy/values.yaml"));
}

TEST(RealCode, HelmChartsAndCustomResourcesOrdinaryLinesAreKept) {
  // Bitnami's charts: a template's actions, a Secret's name, a call in a Python block, a
  // workflow's `secrets: inherit`, a `required` message, a parameter's path, a placeholder URL.
  EXPECT_TRUE(
      HidesNone("  {{- $secretValue = join \",\" $clientPasswords | toString | b64enc }}\n"
                "{{- $currentSecret := printf \"%s-svcbind-%d\" (include \"x\" $) $i }}\n",
                "bitnami/kafka/templates/secrets.yaml"));
  EXPECT_TRUE(
      HidesNone("apiVersion: v1\nkind: Secret\ntype: Opaque\ndata:\n"
                "  {{- range $key, $value := .Values.config.secret.repositoryCredentials }}\n"
                "  {{ $key }}: {{ $value | b64enc }}\n  {{- end }}\n"
                "  {{- $cert := genSignedCert $cn nil (list $cn) 365 $ca }}\n",
                "bitnami/argo-cd/templates/secret.yaml"));
  EXPECT_TRUE(
      HidesNone("        existingSecret: RELEASENAME-elasticsearch-coordinating-crt\n"
                "    existingSecretPasswordKey: admin-password\n",
                "bitnami/elasticsearch/README.md"));
  EXPECT_TRUE(
      HidesNone("    c.JupyterHub.cookie_secret = "
                "get_secret_value(\"hub.config.JupyterHub.cookie_secret\")\n",
                "bitnami/jupyterhub/values.yaml"));
  EXPECT_TRUE(HidesNone("    secrets: inherit\n", ".github/workflows/cd-pipeline.yml"));
  EXPECT_TRUE(HidesNone(
      "  root-password: {{ required \"The previous root password is required!\" $rootPassword "
      "| b64enc | quote }}\n",
      "bitnami/mariadb/templates/secrets.yaml"));
  EXPECT_TRUE(HidesNone("    providing a valid password on \"auth.rbac.rootPassword\" parameter.\n",
                        "bitnami/etcd/templates/NOTES.txt"));
  EXPECT_TRUE(HidesNone(
      "as part of the URL: `https://USERNAME:PERSONAL_ACCESS_TOKEN@github.com/USERNAME/REPO`.\n",
      "bitnami/flux/README.md"));
  // Custom resources' descriptions: an enumeration of kinds, "bearer token" in prose.
  EXPECT_TRUE(HidesNone(
      "                description: Kind of the values referent, valid values are\n"
      "                  ('Secret', 'ConfigMap').\n"
      "                  and bearer token file at /var/run/secrets/kubernetes.io/serviceaccount/.\n"
      "                  for bearer token, the value should be \"Bearer <token>\".\n",
      "crds/kustomize-controller.yaml"));
  EXPECT_TRUE(
      HidesNone("| `auth.enabled` | Enable bearer token authentication on the server |\n"
                "Then set bearer authentication!\n",
                "bitnami/influxdb/README.md"));
  // Still hidden: a credential after a scheme, a password ending in a mark, a quoted password
  // of a random mix, a call-shaped password in capitals.
  const std::string v = Chars(20, kAlnum, 70);
  EXPECT_TRUE(HidesExactly("Authorization: Bearer " + v + "\n", v, "notes.md"));
  EXPECT_TRUE(HidesExactly("./bin/client login --db-token " + v + "! --verbose\n", v + "!",
                           "scripts/deploy.sh"));
  const std::string mix = "lpBjDjQx";  // a random mix of cases, no camelCase words
  EXPECT_TRUE(
      HidesExactly("the password is \"velvet." + mix + "\"\n", "velvet." + mix, "NOTES.md"));
  EXPECT_TRUE(HidesExactly("DB_PASSWORD=Get_" + v.substr(0, 6) + "(X)\n",
                           "Get_" + v.substr(0, 6) + "(X)", "deploy/.env"));
}

TEST(RealCode, ACommandsPasswordEndsAtTheShellsSeparator) {
  // Harbor's e2e test: `-p <password>;docker push …` hid `;docker` too.
  const std::string v = Chars(11, kAlnum, 80);
  EXPECT_TRUE(HidesExactly("\"docker login %s -u admin -p " + v + ";docker push %s/library/x\",\n",
                           v, "test/e2e/harbor.go"));
  EXPECT_TRUE(HidesExactly("mysql -u root -p" + v + " -e \"x\" && echo ok\n", v, "README.md"));
  EXPECT_TRUE(HidesExactly("curl -u admin:" + v + "|jq .\n", v, "README.md"));
}

}  // namespace
}  // namespace real_code
