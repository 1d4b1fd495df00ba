// secrets-bench: the secret filter's quality and speed, measured with the detectors the server
// loads (the built-in plugin from the build's plugins/ folder, through rr::LoadPlugins).
//
// Quality: every record of the labelled corpus (bench/secrets/make_corpus.py) is scanned with
// its kind and path. A secret is caught when the spans cover every byte of every occurrence of
// its value; a negative record is a false positive when any span is reported in it. Prints
// recall and the false-positive rate per category, then every miss and every false positive
// with the text around it.
//
// Speed, on one thread: every text file (no NUL in its first 8,000 bytes, at most 1 MB) at
// HEAD of a git repository, read once into memory through `git cat-file --batch`, scanned
// whole (median of --runs); beside it, the time `git cat-file --batch` takes to write the same
// blobs; and the cost of scanning the first 40,000 characters of a file of about 100 KB (what
// read_file shows of it), median of many runs.
//
// Not a test: nothing here fails a build. bench/secrets/run.sh builds and runs it.

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "core/plugins/loader.h"
#include "core/secrets/secret_filter.h"

namespace {

using Clock = std::chrono::steady_clock;
using rr::HiddenSpan;
using rr::SecretFilter;
using rr::TextKind;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// This thread's CPU time: on a shared machine it says what the work costs when wall time also
// counts the waits for a core.
double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// A percentage with one decimal, or two when one would show a few cases as 0.0.
std::string Percent(size_t part, size_t whole) {
  if (whole == 0) return "–";
  const double p = 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  return Fixed(p, part > 0 && p < 0.1 ? 2 : 1) + " %";
}

[[noreturn]] void Die(const std::string& why) {
  std::fprintf(stderr, "secrets-bench: %s\n", why.c_str());
  std::exit(2);
}

// ---- options --------------------------------------------------------------------------------

struct Options {
  std::string corpus;
  std::string repo;
  std::string plugin_folder;  // empty: the loader's default, as the server uses it
  std::string file;           // the ~100 KB file (path at HEAD); empty: the one nearest 100 KB
  int runs = 7;
  int small_runs = 2000;
  long list = -1;  // how many misses and false positives to list; -1: all
  bool quality = true;
  bool speed = true;
  int repo_hits = 20;      // how many of the repository's files with hidden values to name
  int spans_per_file = 3;  // and how many of each one's hidden values to show
};

const char kUsage[] =
    "usage: secrets-bench [options]\n"
    "  --corpus PATH         the corpus (JSON Lines from make_corpus.py)\n"
    "  --repo PATH           the git repository for the throughput runs (default: this project)\n"
    "  --runs N              full-repository runs, median reported (default 7, at least 5)\n"
    "  --small-runs N        runs on the ~100 KB file (default 2000)\n"
    "  --file PATH           that file, as a path at HEAD (default: the text file nearest 100 KB)\n"
    "  --plugin-folder DIR   where the built-in plugin is (default: as the server finds it)\n"
    "  --list N              list at most N misses and N false positives (default: all)\n"
    "  --repo-hits N         name at most N files of the repository holding hidden values\n"
    "  --spans-per-file N    show at most N of each one's hidden values, in context (default 3)\n"
    "  --quality-only | --speed-only\n";

Options ParseOptions(int argc, char** argv) {
  Options o;
#ifdef RR_SOURCE_DIR
  o.corpus = std::string(RR_SOURCE_DIR) + "/bench/secrets/out/corpus.jsonl";
  o.repo = RR_SOURCE_DIR;
#endif
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Die(a + " needs a value\n" + kUsage);
      return argv[++i];
    };
    if (a == "--corpus") {
      o.corpus = value();
    } else if (a == "--repo") {
      o.repo = value();
    } else if (a == "--runs") {
      o.runs = std::max(5, std::atoi(value().c_str()));
    } else if (a == "--small-runs") {
      o.small_runs = std::max(11, std::atoi(value().c_str()));
    } else if (a == "--file") {
      o.file = value();
    } else if (a == "--plugin-folder") {
      o.plugin_folder = value();
    } else if (a == "--list") {
      o.list = std::atol(value().c_str());
    } else if (a == "--repo-hits") {
      o.repo_hits = std::atoi(value().c_str());
    } else if (a == "--spans-per-file") {
      o.spans_per_file = std::atoi(value().c_str());
    } else if (a == "--quality-only") {
      o.speed = false;
    } else if (a == "--speed-only") {
      o.quality = false;
    } else if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else {
      Die("unknown option " + a + "\n" + kUsage);
    }
  }
  return o;
}

// ---- showing text ---------------------------------------------------------------------------

// Moves `at` back to the start of a UTF-8 character.
size_t CharStart(std::string_view s, size_t at) {
  while (at > 0 && at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) --at;
  return at;
}

std::string Escaped(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += c;
    }
  }
  return out;
}

// A long stretch shortened in its middle.
std::string Shortened(std::string_view s, size_t keep = 100) {
  if (s.size() <= keep) return Escaped(s);
  const size_t head = CharStart(s, keep * 2 / 3);
  const size_t tail = CharStart(s, s.size() - keep / 3);
  return Escaped(s.substr(0, head)) + "…(" + std::to_string(tail - head) + " bytes)…" +
         Escaped(s.substr(tail));
}

// The text around [begin, end), with that stretch between ⟦ ⟧, as a Markdown code span (double
// backticks, so that the text's own backticks show).
std::string Around(std::string_view text, size_t begin, size_t end, size_t context = 60) {
  const size_t from = CharStart(text, begin > context ? begin - context : 0);
  const size_t to = CharStart(text, std::min(text.size(), end + context));
  std::string out = "`` ";
  if (from > 0) out += "…";
  out += Escaped(text.substr(from, begin - from));
  out += "⟦" + Shortened(text.substr(begin, end - begin)) + "⟧";
  out += Escaped(text.substr(end, to - end));
  if (to < text.size()) out += "…";
  return out + " ``";
}

// ---- quality --------------------------------------------------------------------------------

struct Secret {
  std::string value, what;
};

struct Record {
  std::string id, category, kind_name, path, text;
  TextKind kind = TextKind::kFile;
  std::vector<Secret> secrets;
  bool negative() const { return secrets.empty(); }
};

TextKind KindOf(const std::string& name) {
  if (name == "file") return TextKind::kFile;
  if (name == "diff") return TextKind::kDiff;
  if (name == "commit_message") return TextKind::kCommitMessage;
  Die("unknown kind \"" + name + "\" in the corpus");
}

std::vector<Record> ReadCorpus(const std::string& path) {
  std::ifstream in(path);
  if (!in) Die("cannot read the corpus " + path + " (make it with bench/secrets/make_corpus.py)");
  std::vector<Record> out;
  std::string line;
  size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    try {
      Poco::JSON::Parser parser;
      auto obj = parser.parse(line).extract<Poco::JSON::Object::Ptr>();
      Record r;
      r.id = obj->getValue<std::string>("id");
      r.category = obj->getValue<std::string>("category");
      r.kind_name = obj->getValue<std::string>("kind");
      r.kind = KindOf(r.kind_name);
      r.path = obj->getValue<std::string>("path");
      r.text = obj->getValue<std::string>("text");
      auto secrets = obj->getArray("secrets");
      for (size_t i = 0; secrets && i < secrets->size(); ++i) {
        auto s = secrets->getObject(static_cast<unsigned>(i));
        r.secrets.push_back({s->getValue<std::string>("value"), s->getValue<std::string>("what")});
        if (r.text.find(r.secrets.back().value) == std::string::npos) {
          Die(path + ":" + std::to_string(n) + ": a secret's value is not in its text");
        }
      }
      out.push_back(std::move(r));
    } catch (const std::exception& e) {
      Die(path + ":" + std::to_string(n) + ": " + e.what());
    }
  }
  return out;
}

size_t CoveredBytes(const std::vector<HiddenSpan>& spans, size_t begin, size_t end) {
  size_t covered = 0;
  for (const auto& s : spans) {
    if (s.end <= begin || s.begin >= end) continue;
    covered += std::min(end, s.end) - std::max(begin, s.begin);
  }
  return covered;
}

// The headline figures, for the summary that ends the report.
struct Summary {
  bool quality = false, speed = false;
  size_t secrets = 0, caught = 0, negatives = 0, flagged = 0, failed = 0;
  double filter_mb_s = 0, git_mb_s = 0, window_ms = 0, repo_mb = 0;
  std::string window_file;
};

struct CategoryScore {
  size_t records = 0, secrets = 0, caught = 0, negatives = 0, flagged = 0;
};

void Quality(const SecretFilter& filter, const std::string& corpus_path, long list, Summary* sum) {
  const std::vector<Record> corpus = ReadCorpus(corpus_path);
  std::map<std::string, CategoryScore> by_category;
  std::map<std::string, CategoryScore> by_kind;  // positives and negatives of each kind of text  //
                                                 // positives first: "negative:" sorts after
  std::vector<std::string> misses, false_positives, failures;
  size_t secrets = 0, caught = 0, negatives = 0, flagged = 0, bytes = 0;
  const auto t0 = Clock::now();
  for (const Record& r : corpus) {
    const rr::ScanResult result = filter.Scan(r.text, r.kind, r.path);
    bytes += r.text.size();
    CategoryScore& c = by_category[r.category];
    CategoryScore& k = by_kind[r.kind_name];
    ++c.records;
    ++k.records;
    if (!result.ok()) {
      failures.push_back("- `" + r.id + "` (" + r.category +
                         "): the scan failed: " + result.failure);
    }
    if (r.negative()) {
      ++negatives;
      ++k.negatives;
      if (result.spans.empty()) continue;
      ++flagged;
      ++c.flagged;
      ++k.flagged;
      std::string entry = "- `" + r.id + "` (" + r.category + ", " + r.kind_name +
                          (r.path.empty() ? "" : ", " + r.path) + "):";
      for (const auto& s : result.spans) {
        entry += "\n  - hidden as \"" + s.what + "\": " + Around(r.text, s.begin, s.end);
      }
      false_positives.push_back(entry);
      continue;
    }
    for (const Secret& s : r.secrets) {
      ++secrets;
      ++c.secrets;
      ++k.secrets;
      bool ok = true;
      size_t missed_at = 0, missed_covered = 0;
      for (size_t at = r.text.find(s.value); at != std::string::npos;
           at = r.text.find(s.value, at + 1)) {
        const size_t covered = CoveredBytes(result.spans, at, at + s.value.size());
        if (covered < s.value.size()) {
          ok = false;
          missed_at = at;
          missed_covered = covered;
          break;
        }
      }
      if (ok) {
        ++caught;
        ++c.caught;
        ++k.caught;
        continue;
      }
      std::string how = missed_covered == 0
                            ? "not hidden"
                            : "partly hidden (" + std::to_string(missed_covered) + " of " +
                                  std::to_string(s.value.size()) + " bytes)";
      misses.push_back("- `" + r.id + "` (" + r.category + ", " + r.kind_name +
                       (r.path.empty() ? "" : ", " + r.path) + "): " + s.what + ", " + how + ": " +
                       Around(r.text, missed_at, missed_at + s.value.size()));
    }
  }
  const double elapsed = Seconds(Clock::now() - t0);
  sum->quality = true;
  sum->secrets = secrets;
  sum->caught = caught;
  sum->negatives = negatives;
  sum->flagged = flagged;
  sum->failed = failures.size();

  std::printf("## Quality: %zu records from %s\n\n", corpus.size(), corpus_path.c_str());
  std::printf("| | measured | target |\n|---|---|---|\n");
  std::printf("| recall (secrets caught) | %s (%zu of %zu) | ≥ 99 %% |\n",
              Percent(caught, secrets).c_str(), caught, secrets);
  std::printf("| false positives (negative records with a span) | %s (%zu of %zu) | ≤ 1 %% |\n",
              Percent(flagged, negatives).c_str(), flagged, negatives);
  std::printf("| scans that failed | %zu | 0 |\n", failures.size());
  std::printf("| corpus scan time | %s ms for %s KB | |\n\n", Fixed(elapsed * 1e3, 1).c_str(),
              Fixed(bytes / 1024.0, 0).c_str());

  std::printf("| category | records | secrets | caught | recall |\n|---|---:|---:|---:|---:|\n");
  for (const auto& [name, c] : by_category) {
    if (name.rfind("negative:", 0) == 0) continue;
    std::printf("| %s | %zu | %zu | %zu | %s |\n", name.c_str(), c.records, c.secrets, c.caught,
                Percent(c.caught, c.secrets).c_str());
  }
  std::printf("\n| negative category | records | with a span | false-positive rate |\n");
  std::printf("|---|---:|---:|---:|\n");
  for (const auto& [name, c] : by_category) {
    if (name.rfind("negative:", 0) != 0) continue;
    std::printf("| %s | %zu | %zu | %s |\n", name.c_str(), c.records, c.flagged,
                Percent(c.flagged, c.records).c_str());
  }
  std::printf("\n| kind of text | secrets | recall | negative records | false-positive rate |\n");
  std::printf("|---|---:|---:|---:|---:|\n");
  for (const auto& [name, k] : by_kind) {
    std::printf("| %s | %zu | %s | %zu | %s |\n", name.c_str(), k.secrets,
                Percent(k.caught, k.secrets).c_str(), k.negatives,
                Percent(k.flagged, k.negatives).c_str());
  }
  auto print_list = [list](const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    std::printf("\n### %s (%zu)\n\n", title, items.size());
    size_t shown = 0;
    for (const auto& item : items) {
      if (list >= 0 && shown >= static_cast<size_t>(list)) {
        std::printf("- … %zu more (--list)\n", items.size() - shown);
        break;
      }
      std::printf("%s\n", item.c_str());
      ++shown;
    }
  };
  print_list("Failed scans", failures);
  print_list("Misses", misses);
  print_list("False positives", false_positives);
  std::printf("\n");
}

// ---- running git ----------------------------------------------------------------------------

struct RunResult {
  std::string out;
  int status = -1;
  double seconds = 0;
  double cpu_seconds = 0;  // the process's user + system time
};

// Runs a command with `input` on its standard input, collecting its standard output. The time
// is from before the process starts until it has exited and all its output is read.
RunResult Run(const std::vector<std::string>& args, const std::string& input) {
  int in_pipe[2], out_pipe[2];
  if (pipe(in_pipe) != 0 || pipe(out_pipe) != 0) Die("pipe: " + std::string(strerror(errno)));
  RunResult r;
  const auto t0 = Clock::now();
  const pid_t pid = fork();
  if (pid < 0) Die("fork: " + std::string(strerror(errno)));
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    close(in_pipe[0]);
    close(in_pipe[1]);
    close(out_pipe[0]);
    close(out_pipe[1]);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  std::thread writer([fd = in_pipe[1], &input] {
    size_t done = 0;
    while (done < input.size()) {
      const ssize_t n = write(fd, input.data() + done, input.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    close(fd);
  });
  std::vector<char> buf(1 << 20);
  for (;;) {
    const ssize_t n = read(out_pipe[0], buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    r.out.append(buf.data(), static_cast<size_t>(n));
  }
  close(out_pipe[0]);
  writer.join();
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  r.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  r.seconds = Seconds(Clock::now() - t0);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

struct Blob {
  std::string oid, path, text;
};

struct TreeEntry {
  std::string oid, path;
  size_t size = 0;
};

// Every regular-file blob at HEAD of at most `max_size` bytes.
std::vector<TreeEntry> ListHead(const std::string& repo, size_t max_size) {
  RunResult r = Run({"git", "-C", repo, "ls-tree", "-r", "-l", "-z", "--full-tree", "HEAD"}, "");
  if (r.status != 0) Die("git ls-tree failed in " + repo);
  std::vector<TreeEntry> out;
  size_t pos = 0;
  while (pos < r.out.size()) {
    const size_t nul = r.out.find('\0', pos);
    const std::string entry = r.out.substr(pos, nul - pos);
    pos = nul == std::string::npos ? r.out.size() : nul + 1;
    // <mode> SP <type> SP <oid> SP+ <size> TAB <path>
    const size_t tab = entry.find('\t');
    if (tab == std::string::npos) continue;
    char mode[16], type[16], oid[80], size[32];
    if (std::sscanf(entry.c_str(), "%15s %15s %79s %31s", mode, type, oid, size) != 4) continue;
    if (std::strcmp(type, "blob") != 0) continue;
    if (std::strcmp(mode, "100644") != 0 && std::strcmp(mode, "100755") != 0) continue;
    const size_t n = std::strtoull(size, nullptr, 10);
    if (n > max_size) continue;
    out.push_back({oid, entry.substr(tab + 1), n});
  }
  return out;
}

std::string OidList(const std::vector<std::string>& oids) {
  std::string s;
  for (const auto& o : oids) s += o + "\n";
  return s;
}

// Splits `git cat-file --batch` output into the objects' contents, in order.
std::vector<std::string> SplitBatch(const std::string& out) {
  std::vector<std::string> contents;
  size_t pos = 0;
  while (pos < out.size()) {
    const size_t eol = out.find('\n', pos);
    if (eol == std::string::npos) break;
    const std::string header = out.substr(pos, eol - pos);
    const size_t sp = header.rfind(' ');
    if (sp == std::string::npos || header.find(" missing") != std::string::npos) {
      Die("git cat-file: " + header);
    }
    const size_t size = std::strtoull(header.c_str() + sp + 1, nullptr, 10);
    contents.push_back(out.substr(eol + 1, size));
    pos = eol + 1 + size + 1;
  }
  return contents;
}

bool IsText(std::string_view s) {
  return s.substr(0, 8000).find('\0') == std::string_view::npos;  // git's own test
}

size_t PrefixOfChars(std::string_view s, size_t chars) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (n == chars) return i;
      ++n;
    }
  }
  return s.size();
}

bool LooksLikeSource(const std::string& path) {
  static const char* kExt[] = {".c",  ".cc", ".cpp", ".h",    ".hpp", ".py", ".js",
                               ".ts", ".go", ".rs",  ".java", ".rb",  ".pl", ".sh"};
  for (const char* e : kExt) {
    const size_t n = std::strlen(e);
    if (path.size() > n && path.compare(path.size() - n, n, e) == 0) return true;
  }
  return false;
}

void Speed(const SecretFilter& filter, const Options& o, Summary* sum) {
  constexpr size_t kMaxFile = 1 << 20;
  const std::vector<TreeEntry> entries = ListHead(o.repo, kMaxFile);
  std::vector<std::string> oids;
  for (const auto& e : entries) oids.push_back(e.oid);
  RunResult first = Run({"git", "-C", o.repo, "cat-file", "--batch"}, OidList(oids));
  if (first.status != 0) Die("git cat-file --batch failed in " + o.repo);
  std::vector<std::string> contents = SplitBatch(first.out);
  first.out.clear();
  if (contents.size() != entries.size()) Die("git cat-file gave fewer objects than asked");
  std::vector<Blob> blobs;
  size_t bytes = 0, binary = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!IsText(contents[i])) {
      ++binary;
      continue;
    }
    bytes += contents[i].size();
    blobs.push_back({entries[i].oid, entries[i].path, std::move(contents[i])});
  }
  contents.clear();
  std::vector<std::string> text_oids;
  for (const auto& b : blobs) text_oids.push_back(b.oid);
  const std::string text_oid_list = OidList(text_oids);
  const double mb = bytes / 1e6;

  // The filter over everything, and git writing the same blobs, interleaved run by run.
  std::vector<double> scan_s, git_s, scan_cpu_s, git_cpu_s;
  size_t spans = 0;
  for (int run = 0; run < o.runs; ++run) {
    const double c0 = ThreadCpuSeconds();
    const auto t0 = Clock::now();
    size_t n = 0;
    for (const Blob& b : blobs) n += filter.Scan(b.text, TextKind::kFile, b.path).spans.size();
    scan_s.push_back(Seconds(Clock::now() - t0));
    scan_cpu_s.push_back(ThreadCpuSeconds() - c0);
    spans = n;
    RunResult g = Run({"git", "-C", o.repo, "cat-file", "--batch"}, text_oid_list);
    if (g.status != 0) Die("git cat-file --batch failed");
    git_s.push_back(g.seconds);
    git_cpu_s.push_back(g.cpu_seconds);
  }
  const double scan = Median(scan_s), git = Median(git_s);
  const double scan_cpu = Median(scan_cpu_s), git_cpu = Median(git_cpu_s);

  // Which files cost most, and which hold values the filter hides.
  struct Cost {
    double seconds;
    const Blob* blob;
  };
  std::vector<Cost> costs;
  std::map<std::string, std::map<std::string, int>> hits;    // path -> what -> count
  std::map<std::string, std::vector<std::string>> hit_text;  // path -> the first few, in context
  for (const Blob& b : blobs) {
    const auto t0 = Clock::now();
    const rr::ScanResult r = filter.Scan(b.text, TextKind::kFile, b.path);
    costs.push_back({Seconds(Clock::now() - t0), &b});
    for (const auto& s : r.spans) {
      ++hits[b.path][s.what];
      auto& shown = hit_text[b.path];
      if (shown.size() < static_cast<size_t>(std::max(0, o.spans_per_file))) {
        shown.push_back("\"" + s.what + "\": " + Around(b.text, s.begin, s.end, 40));
      }
    }
  }
  std::sort(costs.begin(), costs.end(),
            [](const Cost& a, const Cost& b) { return a.seconds > b.seconds; });

  // The ~100 KB file: its first 40,000 characters, as read_file shows them.
  const Blob* pick = nullptr;
  for (const Blob& b : blobs) {
    if (!o.file.empty()) {
      if (b.path == o.file) pick = &b;
      continue;
    }
    auto distance = [](const Blob& x) {
      const long d = static_cast<long>(x.text.size()) - 100 * 1024;
      return d < 0 ? -d : d;
    };
    if (!LooksLikeSource(b.path) || b.text.size() < 60 * 1024) continue;
    if (!pick || distance(b) < distance(*pick)) pick = &b;
  }
  if (!pick && o.file.empty()) {
    for (const Blob& b : blobs) {
      if (!pick || std::labs(static_cast<long>(b.text.size()) - 102400) <
                       std::labs(static_cast<long>(pick->text.size()) - 102400)) {
        pick = &b;
      }
    }
  }
  if (!pick) Die("no text file " + o.file + " at HEAD of " + o.repo);
  const std::string_view window(pick->text.data(), PrefixOfChars(pick->text, 40000));
  std::vector<double> small_s;
  for (int run = 0; run < o.small_runs; ++run) {
    const auto t0 = Clock::now();
    const rr::ScanResult r = filter.Scan(window, TextKind::kFile, pick->path);
    small_s.push_back(Seconds(Clock::now() - t0));
    if (!r.ok()) Die("the scan failed on " + pick->path + ": " + r.failure);
  }
  std::sort(small_s.begin(), small_s.end());
  const double small = Median(small_s);
  const double small_p99 = small_s[small_s.size() * 99 / 100];
  sum->speed = true;
  sum->filter_mb_s = mb / scan;
  sum->git_mb_s = mb / git;
  sum->window_ms = small * 1e3;
  sum->repo_mb = mb;
  sum->window_file = pick->path;

  std::printf("## Speed: %s\n\n", o.repo.c_str());
  std::printf(
      "%zu text files at HEAD (%s MB; %zu binary files and every file over 1 MB left out), "
      "in memory, one thread; median of %d runs.\n\n",
      blobs.size(), Fixed(mb, 1).c_str(), binary, o.runs);
  std::printf(
      "| | time | throughput | CPU time | throughput per CPU second | target |\n"
      "|---|---:|---:|---:|---:|---|\n");
  std::printf("| secret filter, every file | %s ms | %s MB/s | %s ms | %s MB/s | ≥ 100 MB/s |\n",
              Fixed(scan * 1e3, 1).c_str(), Fixed(mb / scan, 1).c_str(),
              Fixed(scan_cpu * 1e3, 1).c_str(), Fixed(mb / scan_cpu, 1).c_str());
  std::printf("| `git cat-file --batch`, the same blobs | %s ms | %s MB/s | %s ms | %s MB/s | |\n",
              Fixed(git * 1e3, 1).c_str(), Fixed(mb / git, 1).c_str(),
              Fixed(git_cpu * 1e3, 1).c_str(), Fixed(mb / std::max(git_cpu, 1e-9), 1).c_str());
  std::printf(
      "| read_file window: first 40,000 characters of `%s` (%s KB) | %s ms (p99 %s ms) | %s "
      "MB/s | | | ≤ 0.2 ms |\n\n",
      pick->path.c_str(), Fixed(pick->text.size() / 1024.0, 0).c_str(),
      Fixed(small * 1e3, 3).c_str(), Fixed(small_p99 * 1e3, 3).c_str(),
      Fixed(window.size() / 1e6 / small, 1).c_str());
  std::printf("Runs (filter, ms): ");
  for (double s : scan_s) std::printf("%s ", Fixed(s * 1e3, 1).c_str());
  std::printf("\nRuns (git, ms): ");
  for (double s : git_s) std::printf("%s ", Fixed(s * 1e3, 1).c_str());
  std::printf("\n\nSlowest files to scan:\n\n| file | KB | ms | MB/s |\n|---|---:|---:|---:|\n");
  for (size_t i = 0; i < costs.size() && i < 8; ++i) {
    const Cost& c = costs[i];
    std::printf("| %s | %s | %s | %s |\n", c.blob->path.c_str(),
                Fixed(c.blob->text.size() / 1024.0, 0).c_str(), Fixed(c.seconds * 1e3, 2).c_str(),
                Fixed(c.blob->text.size() / 1e6 / std::max(c.seconds, 1e-9), 1).c_str());
  }
  std::printf("\n%zu values hidden in %zu files of the repository", spans, hits.size());
  if (!hits.empty() && o.repo_hits > 0) {
    std::printf(":\n\n");
    int shown = 0;
    for (const auto& [path, whats] : hits) {
      if (shown++ >= o.repo_hits) {
        std::printf("- … %zu more (--repo-hits)\n", hits.size() - o.repo_hits);
        break;
      }
      std::string list;
      for (const auto& [what, n] : whats) {
        list += (list.empty() ? "" : ", ") + std::to_string(n) + " × " + what;
      }
      std::printf("- %s: %s\n", path.c_str(), list.c_str());
      for (const auto& t : hit_text[path]) std::printf("  - %s\n", t.c_str());
    }
  } else {
    std::printf(".\n");
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  const Options o = ParseOptions(argc, argv);
  rr::PluginsConfig config;
  config.folder = o.plugin_folder;
  auto plugins = rr::LoadPlugins(config);
  if (!plugins) Die("the plugins have problems:\n" + plugins.error());
  std::printf("# The secret filter\n\n%s.\n\n", rr::DescribeSecretFilter(*plugins).c_str());
  Summary sum;
  if (o.quality) Quality(*plugins->secrets, o.corpus, o.list, &sum);
  if (o.speed) Speed(*plugins->secrets, o, &sum);
  std::printf("## Summary\n\n| measure | measured | target |\n|---|---:|---|\n");
  if (sum.quality) {
    std::printf("| recall over %zu secrets | %s | ≥ 99 %% |\n", sum.secrets,
                Percent(sum.caught, sum.secrets).c_str());
    std::printf("| false positives over %zu negative records | %s | ≤ 1 %% |\n", sum.negatives,
                Percent(sum.flagged, sum.negatives).c_str());
    if (sum.failed) std::printf("| failed scans | %zu | 0 |\n", sum.failed);
  }
  if (sum.speed) {
    std::printf("| filter throughput (%s MB of source, one thread) | %s MB/s | ≥ 100 MB/s |\n",
                Fixed(sum.repo_mb, 1).c_str(), Fixed(sum.filter_mb_s, 1).c_str());
    std::printf("| `git cat-file --batch` on the same blobs | %s MB/s | |\n",
                Fixed(sum.git_mb_s, 1).c_str());
    std::printf("| read_file window of a ~100 KB file (%s) | %s ms | ≤ 0.2 ms |\n",
                sum.window_file.c_str(), Fixed(sum.window_ms, 3).c_str());
  }
  return 0;
}
