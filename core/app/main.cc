// The repo-reader command: option handling, configuration, then MCP over stdio, or over
// Streamable HTTP with --http [ADDR:]PORT (or http.listen in the configuration).
#include <Poco/Util/Application.h>
#include <Poco/Util/HelpFormatter.h>
#include <Poco/Util/Option.h>
#include <Poco/Util/OptionSet.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "core/answer/pipeline.h"
#include "core/app/wiring.h"
#include "core/config/config.h"
#include "core/git/git_repo.h"
#include "core/history/history_indexer.h"
#include "core/hosts/group_relister.h"
#include "core/hosts/groups.h"
#include "core/index/text_indexer.h"
#include "core/mcp/http_transport.h"
#include "core/mcp/server.h"
#include "core/mcp/stdio_transport.h"
#include "core/plugins/loader.h"
#include "core/runtime/service.h"
#include "core/secrets/server_log.h"
#include "core/sync/syncer.h"
#include "core/tools/about.h"
#include "core/tools/list_repos.h"
#include "core/util/crash_note.h"
#include "core/util/heap_trim.h"
#include "core/util/text.h"
#include "core/version.h"

namespace rr {
namespace {

using Poco::Util::Application;
using Poco::Util::Option;
using Poco::Util::OptionSet;

constexpr int kExitOk = 0;
constexpr int kExitConfig = 1;
constexpr int kExitUsage = 2;

// Writes `text` (one line or several) to standard error as the server's log writes, through the
// secret filter: the configured one once it is in force, before that the problem-line filter of
// the plugin folder `folder` (core/secrets/problem_filter.h). A problem line may quote what
// the operator wrote, and that may hold a secret.
void ProblemLines(const std::string& folder, const std::string& text) {
  static bool filtered = false;
  if (!filtered) {
    SetLogFilter(ProblemLineFilter(folder));
    filtered = true;
  }
  size_t at = 0;
  while (at <= text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    LogLine(std::string_view(text).substr(at, nl - at));
    at = nl + 1;
  }
}

// Why the token variable `env` (named by `key` in the configuration) cannot be used, or "".
// The HTTP side refuses to start without it, so --check refuses too.
std::string TokenVariableProblem(const std::string& env, const std::string& key) {
  const char* v = std::getenv(env.c_str());
  if (v && *v) return std::string();
  return "the environment variable " + env + " (" + key + ") is " + (v ? "empty" : "not set") +
         "; set it to the token callers must send (the HTTP side does not start without it)";
}

// Each token variable the HTTP side needs, with the configuration key naming it.
std::vector<std::pair<std::string, std::string>> HttpTokenVariables(const Config& config) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!config.http.token_env.empty()) out.emplace_back(config.http.token_env, "http token_env");
  for (size_t i = 0; i < config.http.tokens.size(); ++i) {
    out.emplace_back(config.http.tokens[i].token_env,
                     "http tokens[" + std::to_string(i) + "] token_env");
  }
  if (!config.http.metrics_token_env.empty()) {
    out.emplace_back(config.http.metrics_token_env, "http metrics token_env");
  }
  return out;
}

// /metrics' own token must open nothing else, and no caller's token may open /metrics: "" when
// its value is none of the callers' tokens, else why not (naming variables, never values).
std::string MetricsTokenProblem(const Config& config) {
  const std::string& env = config.http.metrics_token_env;
  const char* metrics = env.empty() ? nullptr : std::getenv(env.c_str());
  if (!metrics || !*metrics) return std::string();
  std::vector<std::string> agents;
  if (!config.http.token_env.empty()) agents.push_back(config.http.token_env);
  for (const auto& t : config.http.tokens) agents.push_back(t.token_env);
  for (const auto& a : agents) {
    const char* v = std::getenv(a.c_str());
    if (v && std::string(v) == metrics) {
      return "$" + env + " (http metrics token_env) holds the same token as $" + a +
             ", a caller's token; give /metrics a token of its own (e.g. openssl rand -hex 32)";
    }
  }
  return std::string();
}

class RepoReaderApp : public Application {
 protected:
  void defineOptions(OptionSet& options) override {
    // Application::defineOptions is not called: it adds nothing we use.
    options.addOption(Option("config", "c", "read the configuration from FILE (YAML)")
                          .required(false)
                          .repeatable(false)
                          .argument("FILE"));
    options.addOption(Option("check", "",
                             "check the configuration, print what would be served, "
                             "and exit (non-zero on any problem)")
                          .required(false)
                          .repeatable(false));
    options.addOption(Option("online", "",
                             "with --check: reach each group's host, check its token and say "
                             "how many repositories each group brings")
                          .required(false)
                          .repeatable(false));
    options.addOption(Option("http", "",
                             "serve MCP over Streamable HTTP at [ADDR:]PORT (default address "
                             "127.0.0.1) instead of stdio; the endpoint is /mcp")
                          .required(false)
                          .repeatable(false)
                          .argument("[ADDR:]PORT"));
    options.addOption(
        Option("version", "v", "print the version and exit").required(false).repeatable(false));
    options.addOption(
        Option("help", "h", "print this help and exit").required(false).repeatable(false));
  }

  void handleOption(const std::string& name, const std::string& value) override {
    Application::handleOption(name, value);
    if (name == "config") config_file_ = value;
    if (name == "check") check_ = true;
    if (name == "online") online_ = true;
    if (name == "http") http_ = value;
    if (name == "version") version_ = true;
    if (name == "help") {
      help_ = true;
      stopOptionsProcessing();
    }
  }

  void initialize(Application&) override {}  // no subsystems, no configuration files
  void uninitialize() override {}

  int main(const ArgVec& args) override {
    if (help_) {
      Poco::Util::HelpFormatter hf(options());
      hf.setCommand("repo-reader");
      hf.setUsage("[--config FILE] [--check [--online]] [--http [ADDR:]PORT]");
      hf.setHeader(
          "A read-only MCP server for git repositories, over stdio, or over HTTP with --http. "
          "Without --config it serves the git repository of the current folder.");
      hf.setFooter(
          "Manual: man repo-reader. Docs: /usr/share/doc/repo-reader/ (the Debian package; "
          "/usr/local/share/doc/repo-reader/ from a source install, docs/ in the source): "
          "README.md, configuration.md, tools.md, safety.md, operating.md, plugins.md.");
      hf.format(std::cout);
      return kExitOk;
    }
    if (version_) {
      std::cout << kServerName << " " << kServerVersion << "\n";
      return kExitOk;
    }
    if (!args.empty()) {
      ProblemLines("", "repo-reader: unexpected argument `" + DisplayName(args[0]) +
                           "`; options are --config FILE, --check [--online], --http "
                           "[ADDR:]PORT, --version, --help");
      return kExitUsage;
    }
    Result<Config> config = Error{""};
    if (config_file_.empty()) {
      char cwd[PATH_MAX];
      if (!getcwd(cwd, sizeof cwd)) {
        ProblemLines("", "repo-reader: the current folder cannot be read");
        return kExitConfig;
      }
      config = DefaultConfig(cwd);
    } else {
      config = LoadConfigFile(config_file_);
    }
    if (!config) {
      ProblemLines(
          "", "repo-reader: " +
                  std::string(config_file_.empty() ? "" : "the configuration has problems:\n") +
                  config.error());
      return kExitConfig;
    }
    // Plugins next: from here on every line the server writes passes the secret filter.
    auto plugins = LoadPlugins(config->plugins);
    if (!plugins) {
      ProblemLines(config->plugins.folder,
                   "repo-reader: " + std::string(check_ ? "" : "not started: ") +
                       "the plugins have problems:\n" + plugins.error());
      return kExitConfig;
    }
    SetLogFilter(plugins->secrets);
    if (online_ && !check_) {
      LogLine(
          "repo-reader: --online goes with --check (repo-reader --config FILE --check "
          "--online)");
      return kExitUsage;
    }
    // Groups become mirrors before the catalog is built: listed now (progress on stderr), or
    // with --check only when --online asks to reach the hosts.
    if (!config->groups.empty() && (!check_ || online_)) {
      groups_ = ExpandGroups(config.operator->(), *plugins,
                             [](const std::string& line) { LogLine("repo-reader: " + line); });
      listed_ = true;
    }
    LinkRepositories(*config, HostLinks(plugins->hosts));  // list_repos' link to each page
    auto catalog = BuildCatalog(*config);
    if (!catalog) {
      LogLine("repo-reader: " + catalog.error());
      return kExitConfig;
    }
    if (check_) return Check(*config, *plugins, **catalog);
    // The repositories configured one by one are served from the catalog from here on; only the
    // group relister reads them again (their names and count), so without groups they are let
    // go: with 20,000 of them, 7 MB kept for nothing.
    if (config->groups.empty()) std::vector<RepoConfig>().swap(config->repos);
    // The served set while the server runs: groups are listed again (GroupRelister) and each
    // call reads the set as it was when it began.
    auto live = std::make_shared<LiveCatalog>(catalog.take(), !config->groups.empty());
    if (!http_.empty() || !config->http.listen.empty()) return ServeHttp(*config, *plugins, live);
    return Serve(*config, *plugins, live);
  }

 private:
  // A line of --check's report, with secrets hidden like any line the server writes.
  static void Say(const Plugins& plugins, const std::string& line) {
    const ScanResult r = plugins.secrets->Scan(line, TextKind::kOther);
    if (!r.ok()) {
      std::cout << "(a line was left out: the secret filter could not check it: " << r.failed_by
                << " failed)\n";
      return;
    }
    std::cout << (r.spans.empty() ? line : SecretFilter::Redact(line, r.spans)) << "\n";
  }

  int Check(const Config& config, const Plugins& plugins, const Catalog& catalog) {
    Say(plugins, "Configuration: " + config.source);
    Say(plugins, "Answers are capped at " + WithCommas(config.answer_characters) + " characters.");
    Say(plugins, "History index: " + DescribeHistoryIndex(config) + ".");
    Say(plugins, "Plugin folder: " + plugins.folder);
    Say(plugins, Plural(plugins.loaded.size(), "plugin", "plugins") + ":");
    for (const auto& p : plugins.loaded) {
      Say(plugins, "  " + p.name + " " + p.version + " — " + p.path);
      if (!p.description.empty()) Say(plugins, "    " + p.description);
    }
    Say(plugins, DescribeSecretFilter(plugins) + ".");
    for (const auto& line : DescribeMirrors(config)) Say(plugins, line);
    int rc = kExitOk;
    if (!config.groups.empty()) {
      Say(plugins, Plural(config.groups.size(), "group", "groups") + ":");
      for (const auto& g : config.groups) {
        Say(plugins, "  " + g.label + " (" + g.host_kind + ", " +
                         (g.user ? "user" : "organisation") + ") through " + g.api +
                         (g.token_env.empty() ? ", no token" : ", token from $" + g.token_env) +
                         "; listed again every " +
                         std::to_string((g.list_every ? g.list_every : g.sync_every) / 60) +
                         " min");
      }
      if (!listed_) Say(plugins, "  not listed: --check --online reaches the hosts and lists them");
      for (const auto& o : groups_) {
        if (!o.error.empty()) {
          Say(plugins, "  " + o.label + ": the listing failed: " + o.error);
          rc = kExitConfig;
        } else {
          Say(plugins, "  " + o.label + ": reached, " +
                           Plural(o.listed, "repository", "repositories") + " to serve");
        }
      }
    }
    for (const auto& [env, key] : HttpTokenVariables(config)) {
      const std::string problem = TokenVariableProblem(env, key);
      if (problem.empty()) {
        Say(plugins, "HTTP token: from $" + env + " (set)");
      } else {
        Say(plugins, "HTTP token: " + problem);
        rc = kExitConfig;
      }
    }
    if (const std::string problem = MetricsTokenProblem(config); !problem.empty()) {
      Say(plugins, "HTTP token: " + problem);
      rc = kExitConfig;
    }
    Say(plugins, Plural(config.repos.size(), "repository", "repositories") + ":");
    for (const auto& repo : catalog.all()) {
      if (repo->settings().mirror) continue;  // described above
      std::string line = "  " + repo->name() + " — " + repo->settings().path;
      if (!repo->listed()) line += " (not listed)";
      if (repo->policy().partial()) line += " (only part served)";
      Say(plugins, line);
      auto reader = repo->Open();
      if (!reader) {
        Say(plugins, "    cannot be opened: " + reader.error());
        rc = kExitConfig;
        continue;
      }
      auto at = reader->At(std::nullopt);
      if (at) {
        Say(plugins,
            "    default branch " + DisplayName(at->label) + " @ " + at->commit.id.Short());
      } else {
        Say(plugins, "    " + at.error());
      }
    }
    std::cout << (rc == kExitOk ? "OK\n" : "Problems found.\n");
    return rc;
  }

  // The background services, in the runtime that owns them: the mirror syncer and the group
  // relister (which tells the syncer of mirrors) started now, list_repos' entry filler (whose
  // threads start with the first call that needs them; given to the tools by `tools`), the
  // history and text indexers once the server has answered (`options.first_answered`); each
  // sync that goes through nudges both indexers about its mirror. The runtime stops them, the
  // last first, when serving ends. False (said in the log) when the syncer cannot run.
  bool StartServices(Runtime& runtime, const Config& config, const Plugins& plugins,
                     const std::shared_ptr<LiveCatalog>& live, McpServer::Options& options,
                     std::vector<std::unique_ptr<const Tool>>& tools) {
    auto syncer = MakeMirrorSync(config, runtime.clock());
    if (!syncer) {
      LogLine("repo-reader: not started: " + syncer.error());
      return false;
    }
    // Made now so that the syncer can tell it of each sync (it starts after the first answer).
    TextIndexer::Options text;
    text.clock = &runtime.clock();
    auto text_owned = std::make_unique<TextIndexer>(live, text);
    TextIndexer* text_indexer = text_owned.get();
    HistoryIndexer::Options index;
    index.clock = &runtime.clock();
    auto history_owned = std::make_unique<HistoryIndexer>(live, index);
    HistoryIndexer* history_indexer = history_owned.get();
    MirrorSyncer* sync = runtime.Add(syncer.take());
    // A sync that went through may have moved the mirror's refs: its indexes catch up at once.
    // (The runtime stops the indexers first, then the syncer; a nudge in between is dropped.)
    if (sync) {
      sync->OnSynced([text_indexer, history_indexer](const std::string& name) {
        text_indexer->Nudge(name);
        history_indexer->Nudge(name);
      });
    }
    if (!config.groups.empty()) {
      GroupRelister::Options relist;
      relist.serve = ServeMirror;
      relist.clock = &runtime.clock();
      runtime.Add(std::make_unique<GroupRelister>(config, groups_, plugins.hosts, live, sync,
                                                  std::move(relist)));
    }
    auto filler = ListReposTool::MakeFiller();
    runtime.Add(filler);
    tools = BuiltinTools(std::move(filler));
    runtime.StartAll();
    runtime.Add(std::move(history_owned));
    runtime.Add(std::move(text_owned));
    // Both start after the first answer, so that starting stays quick.
    options.first_answered = [&runtime, history_indexer, text_indexer] {
      runtime.Start(history_indexer);
      runtime.Start(text_indexer);
    };
    return true;
  }

  int Serve(const Config& config, const Plugins& plugins, std::shared_ptr<LiveCatalog> catalog) {
    // SIGTERM and SIGINT end the process cleanly from one thread of ours; a closed output pipe
    // is noticed by write() instead of killing the process.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    signal(SIGPIPE, SIG_IGN);

    // Static: the signal thread may still use it after Serve returns, until the process exits.
    static StdioTransport transport(STDIN_FILENO, STDOUT_FILENO);
    std::thread([set] {
      int sig = 0;
      sigwait(&set, &sig);
      transport.ExitCleanly();
    }).detach();

    LogLine("repo-reader " + std::string(kServerVersion) + ": serving " +
            Plural(catalog->Get()->all().size(), "repository", "repositories") + " from " +
            config.source + " over stdio");
    LogLine("repo-reader: " + DescribeSecretFilter(plugins));
    LogLine("repo-reader: history index " + DescribeHistoryIndex(config));
    LogLine("repo-reader: memory: " + DescribeAllocator());
    Runtime runtime;  // stopped after the server, which may start its indexer, is gone
    McpServer::Options options;
    std::vector<std::unique_ptr<const Tool>> tools;
    if (!StartServices(runtime, config, plugins, catalog, options, tools)) return kExitConfig;
    options.facts = FactsOf(plugins);
    McpServer server(std::move(catalog),
                     AnswerPipeline(config.answer_characters, {}, plugins.secrets,
                                    std::make_shared<HostLinks>(plugins.hosts)),
                     transport.sink(), std::move(tools), options);
    transport.Run(server);
    return kExitOk;
  }

  int ServeHttp(const Config& config, const Plugins& plugins,
                std::shared_ptr<LiveCatalog> catalog) {
    const std::string listen = http_.empty() ? config.http.listen : http_;
    HttpTransport::Setup setup;
    setup.config = config.http;
    if (!HttpTransport::ParseListen(listen, &setup.host, &setup.port)) {
      LogLine("repo-reader: --http `" + DisplayName(listen) +
              "` is not [ADDR:]PORT; give e.g. 8080, 127.0.0.1:8080 or [::1]:8080");
      return kExitUsage;
    }
    // Tokens, from the environment.
    auto token_of = [](const std::string& env, const std::string& key, std::string* value) {
      if (const std::string problem = TokenVariableProblem(env, key); !problem.empty()) {
        LogLine("repo-reader: not started: " + problem);
        return false;
      }
      *value = std::getenv(env.c_str());
      return true;
    };
    if (!config.http.token_env.empty()) {
      HttpTransport::Token t;
      if (!token_of(config.http.token_env, "http token_env", &t.value)) return kExitConfig;
      t.live = [catalog] { return catalog->Get(); };
      setup.tokens.push_back(std::move(t));
    }
    for (size_t i = 0; i < config.http.tokens.size(); ++i) {
      const auto& tc = config.http.tokens[i];
      HttpTransport::Token t;
      if (!token_of(tc.token_env, "http tokens[" + std::to_string(i) + "] token_env", &t.value)) {
        return kExitConfig;
      }
      // Its set, made again from each new whole (groups listed again).
      auto select = HttpTransport::TokenSet(tc);
      if (!select) {
        LogLine("repo-reader: " + select.error());
        return kExitConfig;
      }
      const size_t view = catalog->AddView(select.take());
      t.live = [catalog, view] { return catalog->View(view); };
      setup.tokens.push_back(std::move(t));
    }
    if (!config.http.metrics_token_env.empty()) {
      if (!token_of(config.http.metrics_token_env, "http metrics token_env",
                    &setup.metrics_token)) {
        return kExitConfig;
      }
      if (const std::string problem = MetricsTokenProblem(config); !problem.empty()) {
        LogLine("repo-reader: not started: " + problem);
        return kExitConfig;
      }
    }
    // Never open by accident.
    if (!HttpTransport::IsLoopbackName(setup.host) && setup.tokens.empty() &&
        !config.http.behind_gateway) {
      LogLine("repo-reader: not started: " + DisplayName(setup.host) +
              " is not this machine's own address (127.0.0.1, localhost or ::1), so anyone who "
              "can reach it could read the repositories; give http.token_env (or http.tokens), "
              "or say http.behind_gateway: true when a gateway in front checks who may call");
      return kExitConfig;
    }

    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    signal(SIGPIPE, SIG_IGN);

    Runtime runtime;  // stopped after the server, which may start its indexer, is gone
    McpServer::Options options;
    std::vector<std::unique_ptr<const Tool>> tools;
    if (!StartServices(runtime, config, plugins, catalog, options, tools)) return kExitConfig;
    options.facts = FactsOf(plugins);
    options.workers = 0;  // every call runs on its request's thread
    options.call_budget = std::chrono::seconds(config.http.call_seconds);
    const size_t served = catalog->Get()->all().size();
    McpServer server(std::move(catalog),
                     AnswerPipeline(config.answer_characters, {}, plugins.secrets,
                                    std::make_shared<HostLinks>(plugins.hosts)),
                     nullptr, std::move(tools), options);
    std::unique_ptr<HttpTransport> transport;
    try {
      transport = std::make_unique<HttpTransport>(server, setup);
    } catch (const Poco::Exception& e) {
      LogLine("repo-reader: not started: cannot listen on " + DisplayName(listen) + ": " +
              e.displayText());
      return kExitConfig;
    } catch (const std::exception& e) {
      LogLine("repo-reader: not started: cannot listen on " + DisplayName(listen) + ": " +
              e.what());
      return kExitConfig;
    }
    std::thread([set, t = transport.get()] {
      int sig = 0;
      sigwait(&set, &sig);
      t->Stop();
      LogLine("repo-reader: stopping: calls under way finish first");
    }).detach();

    LogLine("repo-reader " + std::string(kServerVersion) + ": serving " +
            Plural(served, "repository", "repositories") + " from " + config.source +
            " over HTTP at " + transport->url());
    LogLine("repo-reader: " + DescribeSecretFilter(plugins));
    LogLine("repo-reader: history index " + DescribeHistoryIndex(config));
    LogLine("repo-reader: memory: " + DescribeAllocator());
    std::string add =
        "repo-reader: add it to Claude Code with: claude mcp add --transport http "
        "repo-reader " +
        transport->url();
    if (!config.http.token_env.empty()) {
      add += " --header \"Authorization: Bearer $" + config.http.token_env + "\"";
    } else if (!config.http.tokens.empty()) {
      add += " --header \"Authorization: Bearer $" + config.http.tokens.front().token_env + "\"";
    }
    LogLine(add);
    transport->Run();
    // Connections close now, cancelling the calls still running; a call that does not stop
    // within the second after the drain is not waited for (the process exits; it writes
    // nothing).
    if (!transport->Finish(std::chrono::milliseconds(700))) {
      LogLine("repo-reader: stopped: a call still running after http.drain_seconds was cut off");
      std::fflush(nullptr);
      std::_Exit(kExitOk);
    }
    transport.reset();
    return kExitOk;
  }

  std::string config_file_;
  std::string http_;
  bool check_ = false;
  bool online_ = false;
  bool listed_ = false;               // the groups were listed (serving, or --check --online)
  std::vector<GroupOutcome> groups_;  // what each listing did
  bool version_ = false;
  bool help_ = false;
};

}  // namespace
}  // namespace rr

// jemalloc's settings (CMakeLists.txt links it; read by jemalloc as it starts, and MALLOC_CONF in
// the environment goes over them). Two arenas, with each thread's cache of small blocks in front
// of them (the searching threads meet there seldom: searches were a fifth faster than on glibc's
// one heap a thread); pages freed go back to the system after a second, by jemalloc's own thread,
// so that an idle server gives back what a search or a pass of the indexers freed.
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf =
    "narenas:2,tcache_max:1024,dirty_decay_ms:1000,muzzy_decay_ms:0,background_thread:true";
}

int main(int argc, char** argv) {
  rr::SetHeapPolicy();  // before the first large block (core/util/heap_trim.h)
  rr::RepoReaderApp app;
  // A plugin runs in this process: should one take it down, the log says which (crash_note.h).
  // After the application is made: Poco's Application sets handlers of its own for SIGSEGV,
  // SIGBUS, SIGILL and SIGSYS that turn a fault into abort(), and these must replace them.
  rr::InstallCrashReport();
  try {
    app.init(argc, argv);
  } catch (const Poco::Exception& e) {
    // Poco's sentence may quote the option as given.
    rr::ProblemLines(
        "", "repo-reader: " + e.displayText() + "\nRun repo-reader --help for the options.");
    return rr::kExitUsage;
  }
  return app.run();
}
