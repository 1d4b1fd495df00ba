// provider-tokens: keys and tokens recognised by their providers' own formats.
//
// Each rule is a format with the keywords it starts with (or, for a few, holds at a known
// place: Telegram's ":AA", Terraform's ".atlasv1."). At each keyword occurrence the rules of
// that keyword are tried in table order, anchored where the token must begin; the first that
// matches reports the token (or the part of it that is secret, for webhook URLs) and the
// occurrences inside it are skipped. A token written as documentation's example (AWS's
// AKIAIOSFODNN7EXAMPLE, ghp_xxxx…) is kept. An AWS access key id also reveals the secret
// access key written beside it (on the same line or the next three: a CSV export, two shell
// lines, a constructor's arguments).
//
// discord-bot-tokens, here too, has no keyword: a Discord bot token starts with the base64 of
// the bot's numeric id, a shape of its own, found by a scan of the text's '.' bytes.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "detectors.h"
#include "regex.h"

namespace rr_secrets {

namespace {

// Where a rule's match starts, relative to the keyword occurrence.
enum class Start : uint8_t {
  kAtKeyword,     // the keyword is the token's prefix
  kBefore,        // `back` bytes before the keyword
  kDigitsBefore,  // after the run of digits before the keyword (Telegram's bot id)
  kTokenBefore,   // at the start of the run of token characters holding the keyword
  kNearby,        // anywhere in the `back` bytes after the keyword (a name gives context)
};

enum Flags : uint32_t {
  kNone = 0,
  kNeedsDigitAndLetter = 1 << 0,
  kNeedsBothCases = 1 << 1,
  kAwsPair = 1 << 2,
  kJwt = 1 << 3,  // a header that decodes to a JSON object, not jwt.io's example (JwtAccepted)
};

struct RuleSpec {
  const char* what;
  const char* keywords;  // '|'-separated (or ','-separated after a first ','), lower case
  const char* pattern;
  Start start;
  int back;
  int group;  // the capture group that is the secret; 0 is the whole match
  uint32_t flags;
};

// clang-format off
const RuleSpec kRules[] = {
  // AWS
  {"AWS access key", "akia|asia|abia|acca|a3t",
   R"((?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9]))",
   Start::kAtKeyword, 0, 0, kAwsPair},
  // GitHub
  {"GitHub token", "ghp_|gho_|ghu_|ghs_|ghr_",
   R"((?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{30,255}(?![A-Za-z0-9]))", Start::kAtKeyword, 0, 0,
   kNone},
  {"GitHub token", "github_pat_", R"(github_pat_[A-Za-z0-9_]{40,255})", Start::kAtKeyword, 0, 0,
   kNone},
  // GitLab
  {"GitLab token", "glpat-|gldt-|glrt-|glrtr-|glsoat-|glcbt-|glffct-|glft-|glwt-",
   R"((?<![A-Za-z0-9_])gl(?:pat|dt|rtr|rt|soat|cbt|ffct|ft|wt)-[A-Za-z0-9_-]{20,300}(?:\.[A-Za-z0-9_-]{2,}){0,3})",
   Start::kAtKeyword, 0, 0, kNone},
  // Four kinds with a length of their own: incoming-mail 25, pipeline-trigger 40, agent 50 or
  // more, OAuth application secret 64. Another length is no token of theirs.
  {"GitLab token", "glimt-|glptt-|glagent-|gloas-",
   R"((?<![A-Za-z0-9_])(?:glimt-[A-Za-z0-9_-]{25}|glptt-[A-Za-z0-9_-]{40}|glagent-[A-Za-z0-9_-]{50,1024}|gloas-[A-Za-z0-9_-]{64})(?![A-Za-z0-9_-]))",
   Start::kAtKeyword, 0, 0, kNone},
  {"GitLab runner token", "gr1348941", R"(GR1348941[A-Za-z0-9_-]{20,})", Start::kAtKeyword, 0, 0,
   kNone},
  // Slack
  // Bot, user, workspace and legacy tokens: a team's numeric id (and more ids), then the
  // secret; configuration and refresh tokens: "1-" and a long run. A shorter run, ids of a few
  // digits, or a run of words is documentation's ("xoxb-12345-abcd", "xoxp-1-TokenHere").
  {"Slack token", "xoxb-|xoxp-|xoxa-|xoxr-|xoxs-|xoxo-|xoxe-",
   R"(xox[bparsoe]-(?:[0-9]{1,2}-)?(?:[0-9]{8,}-)+[A-Za-z0-9]{8,}(?:-[A-Za-z0-9]+)*(?![A-Za-z0-9-]))",
   Start::kAtKeyword, 0, 0, kNone},
  {"Slack token", "xoxa-2-|xoxr-2-|xoxe-1-|xoxe.",
   R"(xox(?:[ar]-2|e-1|e\.xox[bp]-1)-[A-Za-z0-9]{60,}(?![A-Za-z0-9-]))", Start::kAtKeyword, 0, 0,
   kNone},
  {"Slack token", "xapp-", R"(xapp-[0-9]+-[A-Za-z0-9-]{10,})", Start::kAtKeyword, 0, 0, kNone},
  {"Slack webhook", "hooks.slack.com",
   R"(hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/+-]{20,}))",
   Start::kAtKeyword, 0, 1, kNone},
  // Stripe
  {"Stripe key", "sk_live_|sk_test_|sk_prod_|rk_live_|rk_test_|rk_prod_",
   R"((?<![A-Za-z0-9])[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,255})", Start::kAtKeyword, 0, 0,
   kNone},
  {"Stripe webhook secret", "whsec_", R"(whsec_[A-Za-z0-9+/=]{24,})", Start::kAtKeyword, 0, 0,
   kNone},
  // Google
  {"Google API key", "aiza", R"((?<![A-Za-z0-9+/])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-]))", Start::kAtKeyword, 0, 0,
   kNone},
  {"Google OAuth token", "ya29.", R"(ya29\.[A-Za-z0-9_-]{20,})", Start::kAtKeyword, 0, 0, kNone},
  {"Google client secret", "gocspx-", R"(GOCSPX-[A-Za-z0-9_-]{20,})", Start::kAtKeyword, 0, 0,
   kNone},
  {"Google refresh token", "1//0", R"((?<![A-Za-z0-9/])1//0[A-Za-z0-9_-]{30,})",
   Start::kAtKeyword, 0, 0, kNone},
  // Anthropic, before OpenAI's sk-
  {"Anthropic key", "sk-ant-",
   R"(sk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{93}AA(?![A-Za-z0-9_-])|sk-ant-(?!api03-|admin01-)[a-z]{2,8}[0-9]{0,3}-[A-Za-z0-9_-]{20,})",
   Start::kAtKeyword, 0, 0, kNone},
  // OpenAI
  // An admin key is 58 characters, OpenAI's signature T3BlbkFJ and 58 more; "sk-admin-" with
  // another length or no signature is no key of theirs. A project key of the first keys' length
  // (20 characters, the signature, 20 more) without the signature in its place is none either.
  {"OpenAI key", "sk-proj-|sk-svcacct-|sk-none-",
   R"(sk-(?:proj|svcacct|None)-(?![A-Za-z0-9]{20}(?!T3BlbkFJ)[A-Za-z0-9]{28}(?![A-Za-z0-9_-]))[A-Za-z0-9_-]{20,})",
   Start::kAtKeyword, 0, 0, kNone},
  {"OpenAI key", "sk-admin-",
   R"((?<![A-Za-z0-9_-])sk-admin-[A-Za-z0-9_-]{58}T3BlbkFJ[A-Za-z0-9_-]{58}(?![A-Za-z0-9_-]))",
   Start::kAtKeyword, 0, 0, kNone},
  {"API key", "sk-",
   R"((?<![A-Za-z0-9_-])sk-[A-Za-z0-9]{20,}(?:T3BlbkFJ[A-Za-z0-9]{20,})?(?![A-Za-z0-9_-]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  {"OpenAI key", "t3blbkfj", R"([A-Za-z0-9_-]*T3BlbkFJ[A-Za-z0-9_-]*)", Start::kTokenBefore, 200,
   0, kNone},
  // npm
  {"npm token", "npm_", R"((?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9]))",
   Start::kAtKeyword, 0, 0, kNone},
  // Telegram
  {"Telegram bot token", ":aa",
   R"((?<![0-9])[0-9]{6,12}:AA[A-Za-z0-9_-]{30,40}(?![A-Za-z0-9_-]))", Start::kDigitsBefore, 12,
   0, kNone},
  // Mapbox secret tokens look like a JWT behind "sk."
  {"Mapbox token", "sk.eyj", R"(sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,})",
   Start::kAtKeyword, 0, 0, kNone},
  // JWT (and JWE's five parts; and a header and claims with no signature after them, which a
  // server that takes "alg": "none" accepts, and whose claims are the token's data all the same)
  {"JWT", "eyj",
   R"((?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.(?:[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)?|eyJ[A-Za-z0-9_-]{8,}))",
   Start::kAtKeyword, 0, 0, kJwt},
  {"Grafana key", "eyjrijoi", R"(eyJrIjoi[A-Za-z0-9]{40,}={0,2})", Start::kAtKeyword, 0, 0,
   kNone},
  // Azure
  {"Azure storage key", "accountkey=", R"((?i:accountkey)=([A-Za-z0-9+/]{40,}={0,2}))",
   Start::kAtKeyword, 0, 1, kNone},
  {"Azure access key", "sharedaccesskey=", R"((?i:sharedaccesskey)=([A-Za-z0-9+/]{20,}={0,2}))",
   Start::kAtKeyword, 0, 1, kNone},
  // Tableau's personal access token secret: 16 bytes in base64 (22 characters and "=="), ':',
  // 32 letters and digits.
  {"Tableau token", "==:",
   R"((?<![A-Za-z0-9+/])[A-Za-z0-9+/]{22}==:[A-Za-z0-9]{32}(?![A-Za-z0-9]))", Start::kBefore, 22,
   0, kNeedsDigitAndLetter},
  // A 512-bit key in base64 (64 bytes: 86 characters and "=="), as Azure Storage's and Cosmos
  // DB's account keys are written, whatever names it (`{ "AccountKey", "…" }`, `-storagekey …`,
  // `process.env.ACCOUNT_KEY || "…"`). Not a SHA-512 digest, which integrity fields name.
  {"512-bit key", "==",
   R"((?<![A-Za-z0-9+/=])(?<!sha512-)(?<!sha512=)(?<!sha512:)[A-Za-z0-9+/]{86}==(?![A-Za-z0-9+/=]))",
   Start::kBefore, 86, 0, kNeedsDigitAndLetter | kNeedsBothCases},
  {"Azure SAS signature", "sig=", R"((?<=[?&;])sig=([A-Za-z0-9%+/]{20,}(?:=|%3[dD])*))",
   Start::kAtKeyword, 0, 1, kNone},
  {"Azure client secret", "q~",
   R"((?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-]))",
   Start::kBefore, 4, 0, kNone},
  // Twilio
  {"Twilio key", "sk", R"((?<![A-Za-z0-9_])SK[0-9a-fA-F]{32}(?![A-Za-z0-9]))", Start::kAtKeyword,
   0, 0, kNone},
  // SendGrid
  {"SendGrid key", "sg.", R"((?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50})",
   Start::kAtKeyword, 0, 0, kNone},
  // Shopify
  {"Shopify token", "shpat_|shpca_|shppa_|shpss_", R"(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})",
   Start::kAtKeyword, 0, 0, kNone},
  // Hugging Face
  {"Hugging Face token", "hf_", R"((?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,40}(?![A-Za-z0-9]))",
   Start::kAtKeyword, 0, 0, kNeedsBothCases},
  {"Hugging Face token", "api_org_", R"(api_org_[A-Za-z0-9]{30,40})", Start::kAtKeyword, 0, 0,
   kNeedsBothCases},
  // PyPI (pypi.org and test.pypi.org macaroons)
  {"PyPI token", "pypi-age", R"(pypi-AgE[A-Za-z0-9_-]{50,})", Start::kAtKeyword, 0, 0, kNone},
  // Docker Hub
  {"Docker Hub token", "dckr_pat_|dckr_oat_", R"(dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,})",
   Start::kAtKeyword, 0, 0, kNone},
  // DigitalOcean
  {"DigitalOcean token", "dop_v1_|doo_v1_|dor_v1_", R"(do[opr]_v1_[a-f0-9]{64})",
   Start::kAtKeyword, 0, 0, kNone},
  // Mailgun
  {"Mailgun key", "key-", R"((?<![A-Za-z0-9_-])key-[0-9a-f]{32}(?![A-Za-z0-9]))",
   Start::kAtKeyword, 0, 0, kNone},
  // Heroku
  {"Heroku key", "hrku-", R"(HRKU-[A-Za-z0-9_-]{20,})", Start::kAtKeyword, 0, 0, kNone},
  // Discord: webhooks by URL, bot tokens near the word
  {"Discord webhook", "discord",
   R"(discord(?:app)?\.com/api/webhooks/[0-9]+/([A-Za-z0-9_-]{30,}))", Start::kAtKeyword, 0, 1,
   kNone},
  {"Discord token", "discord",
   R"((?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-]))",
   Start::kNearby, 512, 0, kNone},
  // Atlassian, Bitbucket
  {"Atlassian token", "atatt|atctt", R"(AT[AC]TT[A-Za-z0-9_=-]{50,})", Start::kAtKeyword, 0, 0,
   kNone},
  {"Bitbucket app password", "atbb", R"((?<![A-Za-z0-9])ATBB[A-Za-z0-9]{28,})",
   Start::kAtKeyword, 0, 0, kNone},
  // Postman
  {"Postman key", "pmak-", R"(PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34})", Start::kAtKeyword, 0, 0,
   kNone},
  // Grafana
  {"Grafana token", "glc_", R"(glc_[A-Za-z0-9+/]{32,}={0,2})", Start::kAtKeyword, 0, 0, kNone},
  {"Grafana token", "glsa_", R"(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})", Start::kAtKeyword, 0, 0,
   kNone},
  // New Relic
  {"New Relic key", "nrak-|nrii-|nraa-", R"(NR(?:AK|II|AA)-[A-Za-z0-9]{20,40})",
   Start::kAtKeyword, 0, 0, kNone},
  // Databricks
  {"Databricks token", "dapi",
   R"((?<![A-Za-z0-9])dapi[a-f0-9]{32}(?:-[0-9])?(?![A-Za-z0-9]))", Start::kAtKeyword, 0, 0,
   kNone},
  // HashiCorp Vault, Terraform Cloud
  {"Vault token", "hvs.|hvb.|hvr.", R"((?<![A-Za-z0-9])hv[sbr]\.[A-Za-z0-9_-]{24,})",
   Start::kAtKeyword, 0, 0, kNone},
  {"Terraform token", ".atlasv1.", R"([A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{40,})",
   Start::kBefore, 14, 0, kNone},
  // Sentry
  {"Sentry token", "sntrys_", R"(sntrys_[A-Za-z0-9+/=_]{40,})", Start::kAtKeyword, 0, 0, kNone},
  {"Sentry token", "sntryu_", R"(sntryu_[a-f0-9]{64}(?![A-Za-z0-9_]))", Start::kAtKeyword, 0, 0,
   kNone},
  // age
  {"age key", "age-secret-key-1", R"(AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})",
   Start::kAtKeyword, 0, 0, kNone},
  // Linear
  {"Linear key", "lin_api_", R"(lin_api_[A-Za-z0-9]{40})", Start::kAtKeyword, 0, 0, kNone},
  // Square
  {"Square token", "sq0atp-|sq0csp-", R"(sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43})",
   Start::kAtKeyword, 0, 0, kNone},
  {"Square token", "eaaa", R"((?<![A-Za-z0-9])EAAA[A-Za-z0-9_-]{60})", Start::kAtKeyword, 0, 0,
   kNone},
  // Supabase
  {"Supabase token", "sbp_", R"(sbp_[a-f0-9]{40})", Start::kAtKeyword, 0, 0, kNone},
  // PlanetScale
  {"PlanetScale token", "pscale_tkn_|pscale_pw_|pscale_oauth_",
   R"(pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64})", Start::kAtKeyword, 0, 0, kNone},
  // Notion
  {"Notion token", "secret_", R"((?<![A-Za-z0-9_])secret_[A-Za-z0-9]{43}(?![A-Za-z0-9]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  {"Notion token", "ntn_", R"(ntn_[0-9]{11}[A-Za-z0-9]{35})", Start::kAtKeyword, 0, 0, kNone},
  // Contentful
  {"Contentful token", "cfpat-", R"(CFPAT-[A-Za-z0-9_-]{43})", Start::kAtKeyword, 0, 0, kNone},
  // Doppler
  {"Doppler token", "dp.", R"((?<![A-Za-z0-9])dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_-]{40,})",
   Start::kAtKeyword, 0, 0, kNone},
  // Alibaba Cloud
  {"Alibaba key", "ltai", R"((?<![A-Za-z0-9])LTAI[A-Za-z0-9]{12,24}(?![A-Za-z0-9]))",
   Start::kAtKeyword, 0, 0, kNone},
  // Fly.io
  {"Fly token", "fo1_", R"(fo1_[A-Za-z0-9_-]{40,})", Start::kAtKeyword, 0, 0, kNone},
  {"Fly token", "fm1r_|fm1a_|fm2_", R"(fm(?:1[ar]|2)_[A-Za-z0-9+/=_-]{50,})", Start::kAtKeyword,
   0, 0, kNone},
  // Pulumi
  {"Pulumi token", "pul-", R"((?<![A-Za-z0-9])pul-[a-f0-9]{40})", Start::kAtKeyword, 0, 0, kNone},
  // Others with a prefix of their own
  // Buildkite user tokens: "bkua_" and 40 lower-case letters and digits (not only hex).
  {"Buildkite token", "bkua_", R"((?<![A-Za-z0-9_])bkua_[a-z0-9]{40}(?![A-Za-z0-9_]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  // Jenkins keeps a credential encrypted as {base64}, the base64 starting AQAAABAAAA (format 1,
  // a 16-byte IV): secret material in credentials.xml and config.xml. The braces are shown.
  {"Jenkins secret", "{aqaaabaaaa", R"(\{(AQAAABAAAA[A-Za-z0-9+/]{20,}={0,2})\})",
   Start::kAtKeyword, 0, 1, kNone},
  // Each by its own prefix, length and alphabet (the providers' documented token formats).
  {"LangSmith key", "lsv2_pt_|lsv2_sk_",
   R"((?<![A-Za-z0-9_])lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}(?![A-Za-z0-9_]))",
   Start::kAtKeyword, 0, 0, kNone},
  {"Apify token", "apify_api_", R"((?<![A-Za-z0-9_])apify_api_[A-Za-z0-9-]{36}(?![A-Za-z0-9_-]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  {"Cloudflare key", "cfk_", R"((?<![A-Za-z0-9_])cfk_[A-Za-z0-9]{40}[a-f0-9]{8}(?![A-Za-z0-9_]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  {"Rootly key", "rootly_", R"((?<![A-Za-z0-9_])rootly_[a-f0-9]{64}(?![A-Za-z0-9_]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  {"CircleCI token", "ccipat_",
   R"((?<![A-Za-z0-9_])CCIPAT_[A-Za-z0-9]{22}_[a-fA-F0-9]{40}(?![A-Za-z0-9_]))",
   Start::kAtKeyword, 0, 0, kNone},
  {"Spectral token", "spu-", R"((?<![A-Za-z0-9_-])spu-[a-z0-9]{32}(?![A-Za-z0-9_-]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  {"pganalyze key", "pgar_", R"((?<![A-Za-z0-9_])pgar_[A-Za-z0-9]{27}(?![A-Za-z0-9_]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  {"AWS AppSync key", "da2-", R"((?<![A-Za-z0-9_-])da2-[a-z0-9]{26}(?![A-Za-z0-9_-]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  {"Bitbucket Data Center token", "bbdc-",
   R"((?<![A-Za-z0-9_-])BBDC-[A-Za-z0-9+/@_-]{40,50}(?![A-Za-z0-9+/@_-]))", Start::kAtKeyword, 0,
   0, kNeedsDigitAndLetter},
  {"Alchemy key", "alcht_", R"((?<![A-Za-z0-9_])alcht_[A-Za-z0-9]{30}(?![A-Za-z0-9_]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  {"PhotoRoom key", "sk_pr_",
   R"((?<![A-Za-z0-9])sk_pr_[A-Za-z0-9]{1,64}_[a-fA-F0-9]{40}(?![A-Za-z0-9_]))",
   Start::kAtKeyword, 0, 0, kNone},
  {"RubyGems token", "rubygems_", R"(rubygems_[a-f0-9]{48})", Start::kAtKeyword, 0, 0, kNone},
  {"Prefect token", "pnu_", R"(pnu_[A-Za-z0-9]{36})", Start::kAtKeyword, 0, 0, kNone},
  {"ReadMe key", "rdme_", R"(rdme_[a-z0-9]{70})", Start::kAtKeyword, 0, 0, kNone},
  {"Shippo token", "shippo_live_|shippo_test_", R"(shippo_(?:live|test)_[a-fA-F0-9]{40})",
   Start::kAtKeyword, 0, 0, kNone},
  {"OpenShift token", "sha256~", R"(sha256~[A-Za-z0-9_-]{43})", Start::kAtKeyword, 0, 0, kNone},
  {"Dynatrace token", "dt0c01.", R"(dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64})", Start::kAtKeyword,
   0, 0, kNone},
  {"1Password token", "ops_eyj", R"(ops_eyJ[A-Za-z0-9+/=_-]{100,})", Start::kAtKeyword, 0, 0,
   kNone},
  {"Tailscale key", "tskey-", R"(tskey-[A-Za-z0-9-]{20,})", Start::kAtKeyword, 0, 0, kNone},
  {"Groq key", "gsk_", R"((?<![A-Za-z0-9_])gsk_[A-Za-z0-9]{48,})", Start::kAtKeyword, 0, 0,
   kNone},
  {"Replicate token", "r8_", R"((?<![A-Za-z0-9_])r8_[A-Za-z0-9]{37,})", Start::kAtKeyword, 0, 0,
   kNone},
  {"xAI key", "xai-", R"((?<![A-Za-z0-9_-])xai-[A-Za-z0-9]{60,})", Start::kAtKeyword, 0, 0,
   kNone},
  {"Perplexity key", "pplx-", R"(pplx-[A-Za-z0-9]{40,})", Start::kAtKeyword, 0, 0, kNone},
  // Pinecone: "pcsk_", a key id of 5 or 6 letters and digits, "_", 63 letters and digits.
  {"Pinecone key", "pcsk_",
   R"((?<![A-Za-z0-9_])pcsk_[A-Za-z0-9]{5,6}_[A-Za-z0-9]{63}(?![A-Za-z0-9_]))", Start::kAtKeyword,
   0, 0, kNone},
  {"Figma token", "figd_", R"(figd_[A-Za-z0-9_-]{40,})", Start::kAtKeyword, 0, 0, kNone},
  {"NuGet key", "oy2", R"((?<![A-Za-z0-9])oy2[a-z0-9]{43}(?![A-Za-z0-9]))", Start::kAtKeyword, 0,
   0, kNone},
  {"Firebase key", ":apa91b", R"(AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,})",
   Start::kBefore, 11, 0, kNone},
  {"Cloudflare key", "v1.0-", R"(v1\.0-[a-f0-9]{24}-[a-f0-9]{146})", Start::kAtKeyword, 0, 0,
   kNone},
  {"EasyPost key", "ezak|eztk", R"((?<![A-Za-z0-9+/])EZ[AT]K[A-Za-z0-9]{54}(?![A-Za-z0-9+/]))",
   Start::kAtKeyword, 0, 0, kNone},
  {"Flutterwave key", "flwseck", R"(FLWSECK(?:_TEST)?-[a-hA-H0-9]{32}-X)", Start::kAtKeyword, 0, 0,
   kNone},
  {"Clojars token", "clojars_", R"(CLOJARS_[a-z0-9]{60})", Start::kAtKeyword, 0, 0, kNone},
  {"Adafruit key", "aio_", R"((?<![A-Za-z0-9_])aio_[A-Za-z0-9]{28}(?![A-Za-z0-9]))",
   Start::kAtKeyword, 0, 0, kNeedsBothCases},
  {"Frame.io token", "fio-u-", R"(fio-u-[A-Za-z0-9_=-]{64})", Start::kAtKeyword, 0, 0, kNone},
  {"Typeform token", "tfp_", R"(tfp_[A-Za-z0-9_.=-]{59})", Start::kAtKeyword, 0, 0, kNone},
  {"Infracost key", "ico-", R"((?<![A-Za-z0-9.-])ico-[A-Za-z0-9]{32}(?![A-Za-z0-9]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  {"Duffel token", "duffel_live_|duffel_test_", R"(duffel_(?:live|test)_[A-Za-z0-9_=-]{43})",
   Start::kAtKeyword, 0, 0, kNone},
  {"Defined Networking key", "dnkey-", R"(dnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52})",
   Start::kAtKeyword, 0, 0, kNone},
  {"Brevo key", "xkeysib-|xsmtpsib-", R"(x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16})",
   Start::kAtKeyword, 0, 0, kNone},
  {"Azure DevOps token", "jqqj99",
   R"((?<![A-Za-z0-9])[A-Za-z0-9]{52}JQQJ99[A-Za-z0-9]{18}AZDO[A-Za-z0-9]{4}(?![A-Za-z0-9]))",
   Start::kBefore, 52, 0, kNone},
  {"Mailchimp key", "-us",
   R"((?<![A-Za-z0-9])[0-9a-f]{32}-us[0-9]{1,2}(?![A-Za-z0-9]))", Start::kBefore, 32, 0, kNone},
  {"Sourcegraph token", "sgp_",
   R"((?<![A-Za-z0-9_])sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}(?![A-Za-z0-9_]))",
   Start::kAtKeyword, 0, 0, kNone},
  // Adobe client secrets
  {"Adobe client secret", "p8e-", R"((?<![A-Za-z0-9_-])p8e-[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  // JFrog Artifactory: API keys and reference tokens
  {"Artifactory key", "akcp", R"((?<![A-Za-z0-9])AKCp[A-Za-z0-9]{69}(?![A-Za-z0-9]))",
   Start::kAtKeyword, 0, 0, kNone},
  {"Artifactory token", "cmvmdgtu",
   R"((?<![A-Za-z0-9])cmVmdGtu[A-Za-z0-9]{56}(?![A-Za-z0-9]))", Start::kAtKeyword, 0, 0, kNone},
  // Twitter / X app-only bearer tokens: 22 'A's, then base64 and URL-escapes (%3D)
  {"Twitter token", "aaaaaaaaaaaaaaaaaaaaaa",
   R"((?<![A-Za-z0-9%])A{22}[A-Za-z0-9%]{50,120}(?![A-Za-z0-9%]))", Start::kAtKeyword, 0, 0,
   kNeedsDigitAndLetter},
  // Microsoft Teams incoming webhooks: the path after webhookb2/ is the secret
  {"Teams webhook", "webhook.office.com/webhookb2/",
   R"(webhook\.office\.com/webhookb2/([A-Za-z0-9@/_-]{60,}))", Start::kAtKeyword, 0, 1, kNone},
  // Django's generated SECRET_KEY
  {"Django secret key", "django-insecure-", R"(django-insecure-[^\s'"`]{20,})",
   Start::kAtKeyword, 0, 0, kNone},
  // A JWT base64-encoded once more ("eyJ" is "ZXlK"), as Kubernetes Secrets' data hold them
  {"JWT", "zxlk", R"((?<![A-Za-z0-9+/])ZXlK[A-Za-z0-9][A-Za-z0-9+/_-]{38,}={0,2})",
   Start::kAtKeyword, 0, 0, kNone},
  // A .dockerconfigjson: base64 of {"auths": …} (or of it pretty-printed), which holds each
  // registry's "auth"
  {"Docker config", "eyjhdxrocyi6|ewogicjhdxrocyi6|ewogicagimf1dghzij|eyaiyxv0ahmi|ewojimf1dghzij",
   R"((?:eyJhdXRocyI6|ewogICJhdXRocyI6|ewogICAgImF1dGhzIj|eyAiYXV0aHMi|ewoJImF1dGhzIj)[A-Za-z0-9+/]{20,}={0,2})",
   Start::kAtKeyword, 0, 0, kNone},
  // Finage: "API_KEY" glued to 32 capitals and digits
  {"Finage key", "api_key", R"((?<![A-Za-z0-9_])API_KEY[0-9A-Z]{32}(?![A-Za-z0-9_]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  {"Scalingo token", "tk-us-", R"(tk-us-[A-Za-z0-9_-]{48})", Start::kAtKeyword, 0, 0, kNone},
  // 1Password account secret keys: A3-, then groups of upper-case letters and digits
  {"1Password secret key", "a3-",
   R"((?<![A-Za-z0-9-])A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}(?![A-Za-z0-9-]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  // Amazon Bedrock long-lived API keys: ABSK and the base64 of "BedrockAPIKey-…"
  {"AWS Bedrock key", "absk", R"((?<![A-Za-z0-9+/])ABSK[A-Za-z0-9+/]{100,270}={0,2})",
   Start::kAtKeyword, 0, 0, kNone},
  // 42 intranet client secrets
  {"42 client secret", "s-s4t2", R"(s-s4t2(?:ud|af)-[a-f0-9]{64}(?![A-Za-z0-9]))",
   Start::kAtKeyword, 0, 0, kNone},
  // SonarQube / SonarCloud tokens
  {"Sonar token", "squ_|sqp_|sqa_", R"((?<![A-Za-z0-9_])sq[upa]_[a-f0-9]{40}(?![A-Za-z0-9]))",
   Start::kAtKeyword, 0, 0, kNone},
  // Octopus Deploy API keys
  // API- and 26 to 34 capitals and digits; not in a URL's path (a page id …/API-<32 hex>).
  {"Octopus Deploy key", "api-", R"((?<![A-Za-z0-9_./-])API-[A-Z0-9]{26,34}(?![A-Za-z0-9_-]))",
   Start::kAtKeyword, 0, 0, kNeedsDigitAndLetter},
  // Facebook page / user access tokens, and app tokens `app-id|app-secret`
  {"Facebook token", "eaam|eaac", R"((?<![A-Za-z0-9])EAA[MC][A-Za-z0-9]{80,}(?![A-Za-z0-9]))",
   Start::kAtKeyword, 0, 0, kNeedsBothCases},
  {"Facebook token", ",0|,1|,2|,3|,4|,5|,6|,7|,8|,9|",
   R"((?<![0-9])[0-9]{15,16}(?:\||%7[Cc])[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-]))",
   Start::kDigitsBefore, 16, 0, kNeedsDigitAndLetter},
  // Cloudflare: a global API key (37 hex) or an API token (40) written beside the name
  {"Sourcegraph token", "sourcegraph",
   R"((?<![A-Za-z0-9_-])[a-fA-F0-9]{40}(?![A-Za-z0-9_-]))", Start::kNearby, 120, 0,
   kNeedsDigitAndLetter | kNeedsBothCases},
  // Bundler's credentials for a gem server, BUNDLE_<HOST>=user:password (a.b.com as A__B__COM)
  {"password", "bundle_",
   R"(BUNDLE_[A-Z0-9_]*__[A-Z0-9]+[ \t]*[:=][ \t]*["']?[^:\s"']+:([^\s"']{3,}))",
   Start::kAtKeyword, 0, 1, kNone},
  {"Cloudflare key", "cloudflare", R"((?<![A-Za-z0-9_-])[a-f0-9]{37}(?![A-Za-z0-9_-]))",
   Start::kNearby, 120, 0, kNeedsDigitAndLetter},
  {"Cloudflare token", "cloudflare", R"((?<![A-Za-z0-9_-])[A-Za-z0-9_-]{40}(?![A-Za-z0-9_-]))",
   Start::kNearby, 120, 0, kNeedsDigitAndLetter | kNeedsBothCases},
};
// clang-format on

constexpr size_t kMaxTokenBytes = 16384;

struct Rule {
  const RuleSpec* spec;
  std::unique_ptr<Pattern> pattern;
};

bool HasDigitAndLetter(std::string_view s) {
  const Mix m = MixOf(s);
  return m.digit > 0 && (m.lower + m.upper) > 0;
}

bool HasBothCases(std::string_view s) {
  const Mix m = MixOf(s);
  return m.lower > 0 && m.upper > 0;
}

inline bool IsAwsSecretChar(char c) { return IsAlnum(c) || c == '/' || c == '+'; }

// The length of an escape's tail at t[at], when a backslash stands before it: "n", "t", "r", "e"
// (1), "xHH" (3), "uHHHH" (5); 0 otherwise. Text joined with "\n" in JSON or code ("\\n" in a
// JSON string inside another), and names shown with their control characters escaped (\x01,
// \u200E), put the tail right before the next value, where a token may have no letter or digit:
// the tail is no part of the value.
size_t EscapeTailAt(std::string_view t, size_t at) {
  if (at == 0 || at >= t.size() || t[at - 1] != '\\') return 0;
  const char c = t[at];
  if (c == 'n' || c == 't' || c == 'r' || c == 'e') return 1;
  auto hex = [&](size_t n) {
    if (at + n >= t.size()) return false;
    for (size_t i = 1; i <= n; ++i) {
      if (!IsHex(t[at + i])) return false;
    }
    return true;
  };
  if (c == 'x' && hex(2)) return 3;
  if (c == 'u' && hex(4)) return 5;
  return 0;
}

// Whether an escape ends just before t[at].
bool EscapeEndsBefore(std::string_view t, size_t at) {
  for (size_t tail : {1, 3, 5}) {
    if (at > tail && EscapeTailAt(t, at - tail) == tail) return true;
  }
  return false;
}

// A 40-character secret access key on the rest of the id's line or the three lines after it.
void FindAwsSecretBeside(std::string_view t, size_t id_end, SpanSink& sink) {
  size_t limit = LineEnd(t, id_end);
  for (int line = 0; line < 3 && limit < t.size(); ++line) limit = LineEnd(t, limit + 1);
  limit = std::min(limit, id_end + 400);
  for (size_t i = id_end; i < limit;) {
    if (!IsAwsSecretChar(t[i])) {
      ++i;
      continue;
    }
    if (const size_t tail = EscapeTailAt(t, i)) {
      i += tail;
      continue;
    }
    size_t j = i;
    while (j < limit && IsAwsSecretChar(t[j])) ++j;
    const bool bounded = (i == 0 || !IsAwsSecretChar(t[i - 1]) || EscapeEndsBefore(t, i)) &&
                         (j >= t.size() || t[j] != '=');
    if (j - i == 40 && bounded) {
      const std::string_view value = t.substr(i, 40);
      const Mix m = MixOf(value);
      if (m.upper > 0 && m.lower > 0 && (m.digit > 0 || m.symbol > 0) &&
          !IsPlaceholderToken(value)) {
        Report(sink, t, i, j, "AWS secret access key");
      }
    }
    i = j;
  }
}

class ProviderTokens final : public Detector {
 public:
  ProviderTokens() : Detector("provider-tokens", {}) {
    std::vector<std::string> keywords;
    for (const RuleSpec& spec : kRules) {
      Rule rule{&spec, std::make_unique<Pattern>(spec.pattern, spec.start != Start::kNearby)};
      if (!rule.pattern->ok() && error_.empty()) error_ = rule.pattern->error();
      const size_t index = rules_.size();
      rules_.push_back(std::move(rule));
      std::string_view list = spec.keywords;
      // '|' separates the keywords, or ',' where the list starts with one (a keyword holding '|').
      const char separator = !list.empty() && list[0] == ',' ? ',' : '|';
      if (separator == ',') list.remove_prefix(1);
      while (!list.empty()) {
        const size_t bar = list.find(separator);
        const std::string word(list.substr(0, bar));
        list = bar == std::string_view::npos ? std::string_view() : list.substr(bar + 1);
        auto it = std::find(keywords.begin(), keywords.end(), word);
        const size_t k = static_cast<size_t>(it - keywords.begin());
        if (it == keywords.end()) {
          keywords.push_back(word);
          by_keyword_.emplace_back();
        }
        by_keyword_[k].push_back(index);
      }
    }
    keywords_ = std::move(keywords);
  }

 protected:
  void Find(const ScanInput& in, SpanSink& sink) const override {
    const std::string_view t = in.text;
    size_t covered = 0;
    for (size_t h = 0; h < in.hit_count; ++h) {
      const KeywordHit& hit = in.hits[h];
      if (hit.offset < covered || hit.keyword >= by_keyword_.size()) continue;
      for (size_t r : by_keyword_[hit.keyword]) {
        const Rule& rule = rules_[r];
        if (rule.spec->start == Start::kNearby) {
          FindNearby(rule, t, hit.offset, sink);
          continue;
        }
        const size_t start = StartOf(*rule.spec, t, hit.offset);
        if (start == std::string_view::npos) continue;
        // Right after an escape, the token is matched as if the text began there: the escape's
        // tail is no letter before the token.
        const size_t origin = EscapeEndsBefore(t, start) ? start : 0;
        Pattern::Match m;
        if (!rule.pattern->MatchAt(t.substr(origin), start - origin,
                                   std::min(t.size(), start + kMaxTokenBytes) - origin, &m)) {
          continue;
        }
        for (auto& g : m.group) {
          if (g.matched()) g.begin += origin, g.end += origin;
        }
        const Pattern::Group whole = m.group[0];
        const Pattern::Group secret = m.group[rule.spec->group];
        if (!secret.matched() || whole.end <= hit.offset) continue;
        covered = std::max(covered, whole.end);
        if (!Accept(*rule.spec, t.substr(secret.begin, secret.end - secret.begin)) ||
            NamesAFile(t, whole.end)) {
          break;
        }
        Report(sink, t, secret.begin, secret.end, rule.spec->what);
        if (rule.spec->flags & kAwsPair) FindAwsSecretBeside(t, whole.end, sink);
        break;
      }
    }
  }

 private:
  static size_t StartOf(const RuleSpec& spec, std::string_view t, size_t at) {
    switch (spec.start) {
      case Start::kAtKeyword:
      case Start::kNearby:
        return at;
      case Start::kBefore:
        return at >= static_cast<size_t>(spec.back) ? at - spec.back : std::string_view::npos;
      case Start::kDigitsBefore: {
        size_t s = at;
        while (s > 0 && at - s < static_cast<size_t>(spec.back) && IsDigit(t[s - 1])) --s;
        return s < at ? s : std::string_view::npos;
      }
      case Start::kTokenBefore: {
        size_t s = at;
        while (s > 0 && at - s < static_cast<size_t>(spec.back) && IsTokenChar(t[s - 1])) --s;
        return s;
      }
    }
    return std::string_view::npos;
  }

  // A token's shape followed by a file's extension is a file's name (an image in a URL's path:
  // ".../video_box.ico-7a38….png", ".../2018-250-xoxo-indieweb-1.jpg").
  static bool NamesAFile(std::string_view t, size_t end) {
    if (end >= t.size() || t[end] != '.') return false;
    size_t e = end + 1;
    while (e < t.size() && e - end <= 5 && IsAlnum(t[e])) ++e;
    if (e < t.size() && IsAlnum(t[e])) return false;
    const std::string_view ext = t.substr(end + 1, e - end - 1);
    for (std::string_view x : {"png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "mp4",
                               "webm", "mp3", "pdf", "css", "html", "htm", "woff", "woff2"}) {
      if (EqualsNoCase(ext, x)) return true;
    }
    return false;
  }

  // A JWT's header is base64url of a JSON object: `{"alg":…}`. A run of eyJ… whose header does not
  // decode to one (cut short, or letters typed into it that decode to control bytes) is no token.
  // jwt.io's published example — the header {"alg":"HS256","typ":"JWT"} and claims naming the
  // subject "1234567890" and "John Doe" — is a value published for documentation and is kept, as
  // the placeholder rule keeps others; the same claims under any other header are hidden.
  static bool JwtAccepted(std::string_view token) {
    const size_t dot = token.find('.');
    if (dot == std::string_view::npos) return true;
    const std::string header = DecodeBase64(token, 0, 512);
    if (header.size() < 2 || header.front() != '{' || header.back() != '}') return false;
    // JSON is text: no control byte but its blanks. Letters typed into the base64 mostly decode
    // to some (the narrowest proof of no JSON: a header whose bytes are only not UTF-8 is still
    // hidden, as the rules lean towards hiding).
    for (char c : header) {
      const auto u = static_cast<unsigned char>(c);
      if ((u < 0x20 && c != '\t' && c != '\r' && c != '\n') || u == 0x7f) return false;
    }
    const bool unsigned_token = token.find('.', dot + 1) == std::string_view::npos;
    if (unsigned_token && !IsJsonObject(DecodeBase64(token, dot + 1, 4096))) return false;
    if (header != kJwtIoHeader) return true;
    const std::string claims = DecodeBase64(token, dot + 1, 512);
    return claims.find("\"sub\":\"1234567890\"") == std::string::npos ||
           claims.find("\"name\":\"John Doe\"") == std::string::npos;
  }
  static constexpr std::string_view kJwtIoHeader = R"({"alg":"HS256","typ":"JWT"})";

  // Decoded text that is a JSON object whole: `{…}`, with no control byte but blanks. (A header
  // and claims with no signature are a token only when the claims are whole: base64 that only
  // starts as `{"` — eyJ — is not.)
  static bool IsJsonObject(const std::string& text) {
    if (text.size() < 2 || text.front() != '{' || text.back() != '}') return false;
    for (char c : text) {
      const auto u = static_cast<unsigned char>(c);
      if ((u < 0x20 && c != '\t' && c != '\r' && c != '\n') || u == 0x7f) return false;
    }
    return true;
  }

  static bool Accept(const RuleSpec& spec, std::string_view token) {
    if (IsPlaceholderToken(token)) return false;
    if ((spec.flags & kJwt) && !JwtAccepted(token)) return false;
    if ((spec.flags & kNeedsDigitAndLetter) && !HasDigitAndLetter(token)) return false;
    if ((spec.flags & kNeedsBothCases) && !HasBothCases(token)) return false;
    return true;
  }

  static void FindNearby(const Rule& rule, std::string_view t, size_t at, SpanSink& sink) {
    const size_t limit = std::min(t.size(), at + static_cast<size_t>(rule.spec->back));
    Pattern::Match m;
    for (size_t from = at; from < limit && rule.pattern->MatchAt(t, from, limit, &m);) {
      const Pattern::Group g = m.group[rule.spec->group];
      const std::string_view token = t.substr(m.group[0].begin, m.group[0].end - m.group[0].begin);
      if (g.matched() && Accept(*rule.spec, token)) {
        Report(sink, t, g.begin, g.end, rule.spec->what);
      }
      from = std::max(m.group[0].end, from + 1);
    }
  }

  std::vector<Rule> rules_;
  std::vector<std::vector<size_t>> by_keyword_;
};

// A Discord bot token: base64 of the bot's numeric id (17 to 20 digits), '.', 6 characters,
// '.', 27 to 38 characters. Base64 of ASCII digits has a shape of its own (each group of four
// is [MNO][DTjz][AEIMQUYcgk][wxyz0-5]), which is what makes the token recognisable without
// a keyword; the scan looks at each '.' that has another '.' 7 bytes on. Tokens typed by hand
// for documentation and tests (GitGuardian's, detect-secrets') keep only the outline: an id of
// 24 to 26 characters from an M, N or O, then 6, then 27 or more; that outline is hidden too
// when both random parts mix digits with both cases (never a dotted name or a version).
class DiscordBotTokens final : public Detector {
 public:
  DiscordBotTokens() : Detector("discord-bot-tokens", {}) {}

 protected:
  void Find(const ScanInput& in, SpanSink& sink) const override {
    const std::string_view t = in.text;
    const char* data = t.data();
    const size_t size = t.size();
    size_t from = 23;
    while (from + 35 < size) {
      const void* dot = std::memchr(data + from, '.', size - 35 - from);
      if (!dot) return;
      const size_t i = static_cast<size_t>(static_cast<const char*>(dot) - data);
      from = i + 1;
      if (data[i + 7] != '.' || !IsTokenChar(data[i - 1])) continue;
      size_t end = Check(t, i);
      if (!end) end = CheckOutline(t, i);
      if (end) {
        Report(sink, t, i - IdLength(t, i), end, "Discord token");
        from = end;
      }
    }
  }

 private:
  static size_t IdLength(std::string_view t, size_t dot) {
    size_t s = dot;
    while (s > 0 && dot - s < 28 && IsAlnum(t[s - 1]) && !EscapeEndsBefore(t, s)) --s;
    return dot - s;
  }

  // The end of the token whose first '.' is at `dot`, or 0.
  static size_t Check(std::string_view t, size_t dot) {
    const size_t id = IdLength(t, dot);
    if (id < 23 || id > 27 || !StandsAlone(t, dot - id)) return 0;
    const size_t s = dot - id;
    static constexpr std::string_view kFirst = "MNO", kSecond = "DTjz", kThird = "AEIMQUYcgk",
                                      kFourth = "wxyz012345";
    for (size_t g = 0; g + 4 <= id; g += 4) {
      if (kFirst.find(t[s + g]) == std::string_view::npos ||
          kSecond.find(t[s + g + 1]) == std::string_view::npos ||
          kThird.find(t[s + g + 2]) == std::string_view::npos ||
          kFourth.find(t[s + g + 3]) == std::string_view::npos) {
        return 0;
      }
    }
    return TailEnd(t, dot);
  }

  // Nothing of a token or a dotted name runs on before `s`.
  static bool StandsAlone(std::string_view t, size_t s) {
    return s == 0 || !(IsTokenChar(t[s - 1]) || t[s - 1] == '.') || EscapeEndsBefore(t, s);
  }

  // After the id's '.' at `dot`: 6 token characters, '.', then 27 to 40 not followed by another
  // '.'. The end of the token, or 0.
  static size_t TailEnd(std::string_view t, size_t dot) {
    for (size_t k = dot + 1; k < dot + 7; ++k) {
      if (!IsTokenChar(t[k])) return 0;
    }
    size_t e = dot + 8;
    while (e < t.size() && e - dot - 8 <= 40 && IsTokenChar(t[e])) ++e;
    const size_t last = e - dot - 8;
    if (last < 27 || last > 40 || (e < t.size() && t[e] == '.')) return 0;
    return e;
  }

  // The hand-typed outline (see above): the end of the token, or 0. Its id may start inside
  // the run before the '.' (as the scanners' own patterns read it); the span reported covers
  // the run whole.
  static size_t CheckOutline(std::string_view t, size_t dot) {
    const size_t run = IdLength(t, dot);
    if (run < 24 || !StandsAlone(t, dot - run)) return 0;
    size_t id = 0;
    for (size_t len = std::min<size_t>(run, 26); len >= 24 && !id; --len) {
      const char c = t[dot - len];
      if (c == 'M' || c == 'N' || c == 'O') id = len;
    }
    if (!id || !RandomPart(t.substr(dot - id, id))) return 0;
    // The middle of a dotted name is a word (`.module.`, `.config.`); a token's is random.
    const std::string_view middle = t.substr(dot + 1, 6);
    if (std::all_of(middle.begin(), middle.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
      return 0;
    }
    const size_t e = TailEnd(t, dot);
    return e && RandomPart(t.substr(dot + 8, e - dot - 8)) ? e : 0;
  }

  // Digits and both cases, and no run of 7 lower-case letters (the words of a CamelCase name,
  // `…Component2Module`, `…Registration…`; random base64 holds one in about 4 % of cases).
  static bool RandomPart(std::string_view part) {
    const Mix m = MixOf(part);
    if (m.digit == 0 || m.lower == 0 || m.upper == 0) return false;
    size_t run = 0;
    for (char c : part) {
      run = c >= 'a' && c <= 'z' ? run + 1 : 0;
      if (run >= 7) return false;
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<Detector> MakeProviderTokens() { return std::make_unique<ProviderTokens>(); }
std::unique_ptr<Detector> MakeDiscordBotTokens() { return std::make_unique<DiscordBotTokens>(); }

}  // namespace rr_secrets
