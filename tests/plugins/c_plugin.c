/* Test plugins written in plain C against plugin_abi.h alone, compiled by a C compiler: the
 * boundary is C, so a plugin need not be C++. One source, built once per RR_FAULT:
 *   c-planted        well formed: hides each PLANTED-<16 lowercase hex digits> as "planted token"
 *   c-wrong-size     its entry's struct_size is not sizeof(rr_plugin)
 *   c-older-abi      built (it says) against ABI version 1, older than the minimum
 *   c-failing-scan   its detector answers RR_FAILED with a sentence on its keyword
 */
#include <repo_reader/plugin_abi.h>
#include <stdlib.h>
#include <string.h>

#define RR_FAULT_NONE 0
#define RR_FAULT_WRONG_SIZE 1
#define RR_FAULT_OLDER_ABI 2
#define RR_FAULT_FAILING_SCAN 3

#ifndef RR_FAULT
#define RR_FAULT RR_FAULT_NONE
#endif

#define EXPORT __attribute__((visibility("default")))

typedef struct detector {
  char id[16];
} detector;

static void say(const rr_text_out* out, const char* text) {
  if (out && out->write) out->write(out->ctx, text, strlen(text));
}

static const char* detector_id(void* self) { return ((detector*)self)->id; }

static rr_status detector_keywords(void* self, void* ctx,
                                   void (*keyword)(void* ctx, const char* data, size_t size),
                                   const rr_text_out* error) {
  (void)self;
  (void)error;
  keyword(ctx, "planted-", 8);
  return RR_OK;
}

static int is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

static rr_status detector_scan(void* self, const rr_scan_input* in, const rr_span_sink* sink,
                               const rr_text_out* error) {
  size_t i, k;
  (void)self;
  if (RR_FAULT == RR_FAULT_FAILING_SCAN) {
    say(error, "the C detector could not read the text");
    return RR_FAILED;
  }
  for (i = 0; i < in->hit_count; ++i) {
    const size_t at = in->hits[i].offset;
    int hex = 1;
    if (in->text.size < at + 8 + 16) continue;
    for (k = at + 8; k < at + 8 + 16; ++k) hex = hex && is_hex(in->text.data[k]);
    if (hex) sink->add(sink->ctx, at, at + 8 + 16, "planted token", 13);
  }
  return RR_OK;
}

static void detector_destroy(void* self) { free(self); }

static const rr_secret_detector_ops detector_ops = {sizeof(rr_secret_detector_ops), detector_id,
                                                    detector_keywords, detector_scan,
                                                    detector_destroy};

static rr_status make_detectors(const rr_setting* settings, size_t count,
                                const rr_detector_out* out, const rr_text_out* error) {
  detector* d;
  (void)settings;
  if (count != 0) {
    say(error, "c-planted reads no settings");
    return RR_FAILED;
  }
  d = (detector*)malloc(sizeof *d);
  if (!d) {
    say(error, "out of memory");
    return RR_FAILED;
  }
  strcpy(d->id, "c-planted-token");
  out->add(out->ctx, d, &detector_ops);
  return RR_OK;
}

EXPORT const rr_plugin* repo_reader_plugin_entry(const rr_text_out* error) {
  static const rr_plugin entry = {
#if RR_FAULT == RR_FAULT_OLDER_ABI
    1u,
#else
    RR_PLUGIN_ABI_VERSION,
#endif
#if RR_FAULT == RR_FAULT_WRONG_SIZE
    sizeof(rr_plugin) - 8,
#else
    sizeof(rr_plugin),
#endif
    RR_NAME,
    "1.0.0",
    "a test plugin written in C",
    RR_KIND_SECRET_DETECTOR,
    make_detectors,
    NULL
  };
  (void)error;
  return &entry;
}
