// http: (docs/configuration.md, "Serving over HTTP"): where to listen, who may call, the limits.
#include <cctype>
#include <string>

#include "core/config/sections.h"
#include "core/util/text.h"

namespace rr::cfg {

void ReadHttp(const YAML::Node& root, Problems& p, HttpConfig* h) {
  const YAML::Node http = root["http"];
  if (!http) return;
  if (!http.IsMap()) {
    p.Add(http, "`http` must be a mapping, e.g. http: {listen: \"127.0.0.1:8080\"}");
    return;
  }
  static const char* const kHttpKeys[] = {"listen",          "token_env",
                                          "tokens",          "behind_gateway",
                                          "allowed_origins", "max_body_bytes",
                                          "idle_seconds",    "call_seconds",
                                          "max_calls",       "max_connections",
                                          "drain_seconds",   "metrics",
                                          "request_seconds", "max_connections_per_address"};
  CheckKeys(http, std::begin(kHttpKeys), std::end(kHttpKeys), "http", p);
  if (http["listen"] && GetString(http["listen"], "http.listen", p, &h->listen)) {
    const std::string& l = h->listen;
    const size_t colon = l.rfind(':');
    const std::string port = colon == std::string::npos ? l : l.substr(colon + 1);
    bool digits = !port.empty() && port.size() <= 5;
    for (char c : port) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits || std::stoul(port) > 65535) {
      p.Add(http["listen"], "http.listen must be [ADDRESS:]PORT, e.g. \"127.0.0.1:8080\" or 8080");
    }
  }
  if (http["token_env"]) GetEnvName(http["token_env"], "http.token_env", p, &h->token_env);
  if (const YAML::Node tokens = http["tokens"]) {
    if (!tokens.IsSequence()) {
      p.Add(tokens,
            "http.tokens must be a list, e.g.\n  tokens:\n    - token_env: TEAM_A_TOKEN\n      "
            "repos: [shop, \"web/*\"]");
    } else {
      size_t index = 0;
      for (const auto& t : tokens) {
        const std::string where = "http.tokens[" + std::to_string(index++) + "]";
        if (!t.IsMap()) {
          p.Add(t, where + " must be a mapping with token_env and repos");
          continue;
        }
        static const char* const kTokenKeys[] = {"token_env", "repos"};
        CheckKeys(t, std::begin(kTokenKeys), std::end(kTokenKeys), where, p);
        HttpTokenConfig tc;
        if (!t["token_env"]) {
          p.Add(t, where + ": `token_env` is missing; name the variable holding the token");
        } else {
          GetEnvName(t["token_env"], where + ".token_env", p, &tc.token_env);
        }
        if (!t["repos"]) {
          p.Add(t, where +
                       ": `repos` is missing; list the repositories (names or globs) the "
                       "token may read, e.g. repos: [shop, \"web/*\"]");
        } else {
          GetPatterns(t["repos"], where + ".repos", p, &tc.repos);
        }
        h->tokens.push_back(std::move(tc));
      }
    }
  }
  if (http["behind_gateway"]) {
    GetBool(http["behind_gateway"], "http.behind_gateway", p, &h->behind_gateway);
  }
  if (const YAML::Node origins = http["allowed_origins"]) {
    if (!origins.IsSequence()) {
      p.Add(origins, "http.allowed_origins must be a list, e.g. [\"https://tools.example.com\"]");
    } else {
      for (const auto& o : origins) {
        std::string s;
        if (GetString(o, "http.allowed_origins entry", p, &s)) h->allowed_origins.push_back(s);
      }
    }
  }
  if (http["max_body_bytes"]) {
    GetCount(http["max_body_bytes"], "http.max_body_bytes", 1024, 64 << 20, p, &h->max_body_bytes);
  }
  if (http["idle_seconds"]) {
    GetCount(http["idle_seconds"], "http.idle_seconds", 1, 3600, p, &h->idle_seconds);
  }
  if (http["call_seconds"]) {
    GetCount(http["call_seconds"], "http.call_seconds", 1, 3600, p, &h->call_seconds);
  }
  if (http["max_calls"]) GetCount(http["max_calls"], "http.max_calls", 1, 4096, p, &h->max_calls);
  if (http["max_connections"]) {
    GetCount(http["max_connections"], "http.max_connections", 1, 65536, p, &h->max_connections);
  }
  if (http["max_connections_per_address"]) {
    GetCount(http["max_connections_per_address"], "http.max_connections_per_address", 1, 65536, p,
             &h->max_connections_per_address);
  }
  if (http["request_seconds"]) {
    GetCount(http["request_seconds"], "http.request_seconds", 1, 3600, p, &h->request_seconds);
  }
  if (http["drain_seconds"]) {
    GetCount(http["drain_seconds"], "http.drain_seconds", 0, 3600, p, &h->drain_seconds);
  }
  if (const YAML::Node metrics = http["metrics"]) {
    if (metrics.IsMap()) {
      static const char* const kMetricsKeys[] = {"token_env"};
      CheckKeys(metrics, std::begin(kMetricsKeys), std::end(kMetricsKeys), "http.metrics", p);
      if (!metrics["token_env"]) {
        p.Add(metrics,
              "http.metrics: `token_env` is missing; name the variable holding the token that "
              "reads /metrics, e.g. metrics: {token_env: RR_METRICS_TOKEN}");
      } else {
        GetEnvName(metrics["token_env"], "http.metrics.token_env", p, &h->metrics_token_env);
      }
      h->metrics = true;
    } else if (metrics.IsScalar() && (metrics.Scalar() == "true" || metrics.Scalar() == "false")) {
      h->metrics = metrics.Scalar() == "true";
    } else {
      p.Add(metrics,
            "http.metrics must be true, false, or /metrics' own token: metrics: {token_env: "
            "RR_METRICS_TOKEN}");
    }
    const bool agents_need_token = !h->token_env.empty() || !h->tokens.empty();
    if (h->metrics && metrics.IsScalar() && agents_need_token) {
      p.Add(metrics,
            "http.metrics: true would let every caller's token read /metrics (every token's "
            "calls, every repository counted); give /metrics a token of its own: metrics: "
            "{token_env: RR_METRICS_TOKEN}");
    }
    if (!h->metrics_token_env.empty()) {
      bool shared = h->metrics_token_env == h->token_env;
      for (const auto& t : h->tokens) shared = shared || t.token_env == h->metrics_token_env;
      if (shared) {
        p.Add(metrics["token_env"],
              "http.metrics.token_env names a variable a caller's token is read from too; "
              "/metrics needs a token of its own, in a variable of its own");
      }
    }
  }
}

}  // namespace rr::cfg
