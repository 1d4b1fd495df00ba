/* repo-reader plugin SDK: the C boundary between the server and a plugin.
 *
 * This header is the whole binary interface. It is plain C (C99 and C++), depends on nothing but
 * <stddef.h> and <stdint.h>, and nothing of C++ crosses it: no class, no exception, no standard
 * library type. A plugin built by any compiler against any C++ standard library (or written in
 * C, or anything that can export a C function) loads in a server built by another. The C++
 * classes plugin authors write against (SecretDetector, HostPlugin, REPO_READER_PLUGIN in
 * <repo_reader/sdk.h>) are a header-only layer over this one, compiled into the plugin.
 *
 * --- The entry ---------------------------------------------------------------------------------
 * A plugin is a shared object exporting one C function, `repo_reader_plugin_entry`
 * (RR_PLUGIN_ENTRY_SYMBOL), of type rr_plugin_entry_fn. The server calls it once, after dlopen,
 * and reads `abi_version` first: it loads a plugin whose version is between
 * RR_PLUGIN_ABI_MIN_VERSION and RR_PLUGIN_ABI_VERSION of the server's own copy of this header,
 * and refuses any other with both versions named. Every other symbol should be hidden
 * (-fvisibility=hidden).
 *
 * --- Versions ----------------------------------------------------------------------------------
 * RR_PLUGIN_ABI_VERSION changes with any change to this header that a built plugin or server
 * could notice (a member, its type or order, a signature, a constant's value). The server's test
 * suite keeps a digest of this header with the version (sdk/abi.lock) and fails when the header
 * changes without a bump. A later version may only add: new members at the end of a struct that
 * carries `struct_size` (the reader reads a member only when struct_size covers it), new kinds,
 * new constants. RR_PLUGIN_ABI_MIN_VERSION is the oldest version a server built with this header
 * still loads; it is raised only when a version removes or changes something.
 * Version 1 was the C++ boundary of repo-reader 0.x, which no server loads any more.
 *
 * --- Ownership ---------------------------------------------------------------------------------
 * Memory never changes hands: whoever allocates a thing frees it, with its own allocator.
 *  - rr_str arguments (and every pointer inside a struct passed as an argument) are borrowed:
 *    valid for the duration of the call only. Copy what you keep.
 *  - Results travel through callbacks the caller passes in (rr_text_out, rr_span_sink, ...):
 *    the callee calls them with borrowed data during the call, and the caller copies it.
 *  - Objects a plugin makes (detectors, hosts) are handed to the server as (self, ops) pairs.
 *    From then on the server owns them: it calls ops->destroy(self) exactly once, before it
 *    unloads the library, and never calls anything on `self` after that.
 *  - Strings the plugin answers as `const char*` (the entry's name, version and description, a
 *    detector's id, a host's kind) are NUL-terminated, owned by the plugin, and stay valid while
 *    the library is loaded (entry strings) or while the object lives (id, kind).
 *
 * --- Errors ------------------------------------------------------------------------------------
 * Errors are data. A call that can fail returns an rr_status and, on RR_FAILED, has written a
 * sentence for the operator to its `error` channel (UTF-8; the server bounds and cleans it).
 * Nothing may unwind across this boundary: a C++ plugin catches every exception at its side of
 * it (the C++ layer does) and reports it as an error. A call that fails reports nothing else: the
 * caller discards whatever the call had written to its other outputs.
 *
 * --- Threads -----------------------------------------------------------------------------------
 * The entry and the factories are called once, on one thread, at load. Every call on a made
 * object (rr_secret_detector_ops, rr_host_ops) but destroy may run on many threads at once on the
 * same object: keep per-call state on the stack; the object must not change after it is made.
 * destroy is called once, when no other call on the object is running. Callbacks the server
 * passes in may be called only on the thread that made the call, and only during it.
 */
#ifndef REPO_READER_PLUGIN_ABI_H
#define REPO_READER_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RR_PLUGIN_ABI_VERSION 2u
#define RR_PLUGIN_ABI_MIN_VERSION 2u
#define RR_PLUGIN_ENTRY_SYMBOL "repo_reader_plugin_entry"

typedef uint32_t rr_status;
#define RR_OK 0u
#define RR_FAILED 1u

/* A byte string: `size` bytes at `data`, not NUL-terminated; data may be NULL when size is 0.
 * Borrowed: valid for the duration of the call it is passed to or answered by. */
typedef struct rr_str {
  const char* data;
  size_t size;
} rr_str;

/* A channel for text the callee writes: `write` appends `size` bytes to what the caller
 * collects (call it any number of times). Owned by the caller; the callee copies nothing. */
typedef struct rr_text_out {
  void* ctx;
  void (*write)(void* ctx, const char* data, size_t size);
} rr_text_out;

/* One `key: value` setting the operator gave the plugin (`settings:` under its entry). */
typedef struct rr_setting {
  rr_str key;
  rr_str value;
} rr_setting;

/* What a plugin provides; rr_plugin.kinds is a bitwise or of these. */
#define RR_KIND_SECRET_DETECTOR 1u
#define RR_KIND_HOST 2u

/* ================================ Secret detectors ================================== */

/* What a scanned text is (a detector may treat kinds differently). */
#define RR_TEXT_FILE 1u           /* lines of a file, as stored */
#define RR_TEXT_DIFF 2u           /* a unified diff */
#define RR_TEXT_COMMIT_MESSAGE 3u /* a commit's message or subject */
#define RR_TEXT_PATH 4u           /* names: paths, refs, repository names */
#define RR_TEXT_ERROR 5u          /* an error message */
#define RR_TEXT_OTHER 6u          /* anything else the server writes */

/* One occurrence of one of the detector's keywords. */
typedef struct rr_keyword_hit {
  uint32_t offset;  /* byte offset in the text where the keyword begins */
  uint32_t keyword; /* index into the detector's keywords, in the order it gave them */
} rr_keyword_hit;

typedef struct rr_scan_input {
  rr_str text;   /* UTF-8, up to about 1 MB */
  uint32_t kind; /* RR_TEXT_* */
  rr_str path;   /* the file the text comes from, from the repository's root; or empty */
  const rr_keyword_hit* hits; /* this detector's keyword occurrences, by offset; NULL if none */
  size_t hit_count;
} rr_scan_input;

/* Where a detector reports what it found: text[begin, end) looks like a secret of kind `what`
 * (a few words: "GitHub token"). Spans may overlap and cross lines; the server checks each
 * (begin < end <= text size: anything else fails the scan) and merges them. */
typedef struct rr_span_sink {
  void* ctx;
  void (*add)(void* ctx, size_t begin, size_t end, const char* what, size_t what_size);
} rr_span_sink;

typedef struct rr_secret_detector_ops {
  uint32_t struct_size; /* sizeof(rr_secret_detector_ops) as the plugin saw it */
  /* A short id, unique within the plugin ("github-token"). Valid while the detector lives. */
  const char* (*id)(void* self);
  /* Writes each keyword with one call of `keyword` (ASCII, at least 2 bytes, any case): the
   * words this detector's secrets always come with. None: it is called on every text.
   * Called once, at load. */
  rr_status (*keywords)(void* self, void* ctx,
                        void (*keyword)(void* ctx, const char* data, size_t size),
                        const rr_text_out* error);
  /* Reports each secret in input->text to `sink`. Called only when one of its keywords occurs
   * (or on every text without keywords), on many threads at once. RR_FAILED makes the server
   * withhold the whole answer and report the detector. */
  rr_status (*scan)(void* self, const rr_scan_input* input, const rr_span_sink* sink,
                    const rr_text_out* error);
  /* Frees the detector. Called once by the server, which owns it. */
  void (*destroy)(void* self);
} rr_secret_detector_ops;

/* Where a factory hands over what it made: ownership passes to the server with the call, even
 * when the factory later fails (the server then destroys it). `ops` must stay valid while the
 * library is loaded (a static table). */
typedef struct rr_detector_out {
  void* ctx;
  void (*add)(void* ctx, void* self, const rr_secret_detector_ops* ops);
} rr_detector_out;

/* ====================================== Hosts ======================================= */

/* A repository on a host, as the configuration names it. */
typedef struct rr_host_repo {
  rr_str web_base; /* "https://github.com", no trailing slash */
  rr_str path;     /* "acme/shop" */
} rr_host_repo;

typedef struct rr_header {
  rr_str name;
  rr_str value;
} rr_header;

/* Where a host writes a request: `set` once (method "GET" or "HEAD", an absolute URL under the
 * API base), then `header` for each header (never the token). */
typedef struct rr_request_out {
  void* ctx;
  void (*set)(void* ctx, rr_str method, rr_str url);
  void (*header)(void* ctx, rr_str name, rr_str value);
} rr_request_out;

typedef struct rr_http_response {
  int32_t status;
  const rr_header* headers; /* names as sent; compare in any case */
  size_t header_count;
  rr_str body;
} rr_http_response;

#define RR_OWNER_USER 1u
#define RR_OWNER_ORGANISATION 2u

typedef struct rr_group_query {
  rr_str api_base;     /* "https://api.github.com", no trailing slash */
  rr_str owner;        /* "acme", "group/subgroup" */
  uint32_t owner_kind; /* RR_OWNER_* */
  uint32_t per_page;   /* at most 100 */
} rr_group_query;

#define RR_REPO_ARCHIVED 1u
#define RR_REPO_FORK 2u
#define RR_REPO_EMPTY 4u

typedef struct rr_listed_repo {
  rr_str path;           /* "acme/shop" */
  rr_str description;    /* may be empty */
  rr_str default_branch; /* may be empty */
  uint32_t flags;        /* RR_REPO_* */
} rr_listed_repo;

/* Where a host writes one page of a listing: `repo` for each repository, and with a next page,
 * its request through `next` (no call of next.set: this was the last page). */
typedef struct rr_page_out {
  void* ctx;
  void (*repo)(void* ctx, const rr_listed_repo* repo);
  rr_request_out next;
} rr_page_out;

/* Which page a link points to (rr_link_query.what). */
#define RR_LINK_REPO 1u    /* the repository's page */
#define RR_LINK_FILE 2u    /* `path` at `commit`, lines first..last (first 0: the whole file) */
#define RR_LINK_FOLDER 3u  /* folder `path` (empty: the root) at `commit` */
#define RR_LINK_COMMIT 4u  /* `commit` */
#define RR_LINK_COMPARE 5u /* `base` ... `commit` */

typedef struct rr_link_query {
  uint32_t what; /* RR_LINK_* */
  rr_host_repo repo;
  rr_str commit; /* a full commit id */
  rr_str base;   /* RR_LINK_COMPARE: the base commit */
  rr_str path;   /* from the repository's root */
  uint32_t first, last;
} rr_link_query;

typedef struct rr_host_ops {
  uint32_t struct_size; /* sizeof(rr_host_ops) as the plugin saw it */
  /* The kind the configuration names it by ("github"). Valid while the host lives. */
  const char* (*kind)(void* self);
  /* Writes the full https URL of the page to `url`, or nothing when the host has no such page. */
  rr_status (*link)(void* self, const rr_link_query* query, const rr_text_out* url,
                    const rr_text_out* error);
  /* How the server sends the token: `<name>: <prefix><token>`. */
  rr_status (*auth_header)(void* self, const rr_text_out* name, const rr_text_out* prefix,
                           const rr_text_out* error);
  /* The first page's request. */
  rr_status (*first_page)(void* self, const rr_group_query* query, const rr_request_out* out,
                          const rr_text_out* error);
  /* Reads one page's answer (any status). RR_FAILED with a sentence: the page cannot be read. */
  rr_status (*parse_page)(void* self, const rr_group_query* query, const rr_http_response* response,
                          const rr_page_out* out, const rr_text_out* error);
  /* Frees the host. Called once by the server, which owns it. */
  void (*destroy)(void* self);
} rr_host_ops;

/* Like rr_detector_out, for hosts. */
typedef struct rr_host_out {
  void* ctx;
  void (*add)(void* ctx, void* self, const rr_host_ops* ops);
} rr_host_out;

/* ====================================== Entry ======================================= */

typedef struct rr_plugin {
  uint32_t abi_version; /* RR_PLUGIN_ABI_VERSION as the plugin was built; always first */
  uint32_t struct_size; /* sizeof(rr_plugin) as the plugin saw it; always second */
  /* 1 to 64 of [a-z0-9._-], starting with a letter or digit; unique among loaded plugins.
   * Names starting with "repo-reader" are the server's own. */
  const char* name;
  const char* version;     /* the plugin's own version, for people ("1.4.2") */
  const char* description; /* a line saying what it is */
  uint32_t kinds;          /* RR_KIND_* */
  /* With RR_KIND_SECRET_DETECTOR: hands each detector to `out`. Called once, at load. */
  rr_status (*make_secret_detectors)(const rr_setting* settings, size_t setting_count,
                                     const rr_detector_out* out, const rr_text_out* error);
  /* With RR_KIND_HOST: hands each host kind it serves to `out`. Called once, at load. */
  rr_status (*make_hosts)(const rr_setting* settings, size_t setting_count, const rr_host_out* out,
                          const rr_text_out* error);
} rr_plugin;

/* The exported entry: the plugin's description, valid while the library is loaded, or NULL
 * with a sentence written to `error`. May be called more than once; answers the same each time. */
typedef const rr_plugin* (*rr_plugin_entry_fn)(const rr_text_out* error);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* REPO_READER_PLUGIN_ABI_H */
