/* fuzz_trace.c: libFuzzer entry point for the trace loaders: any bytes as
** a trace file (.schedule, or JSON when they start with '{') go through
** trace_parse, as `pcheck --replay FILE` reads them.  A trace read without
** an error must hold what the readers promise: choices of a known kind, a
** cycle within the trace, a threshold that is not negative.  Build and run
** with tests/fuzz/run.sh. */
#include <config.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "checker/report/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = xmalloc(size + 1);
  if (size) memcpy(text, data, size);
  text[size] = 0;
  TraceInfo t;
  Buf err;
  buf_init(&err);
  if (trace_parse("fuzz.schedule", text, size, &t, &err) == 0) {
    for (uint64_t i = 0; i < t.n; i++)
      if (t.choices[i].kind != VC_MACHINE && t.choices[i].kind != VC_DATA) abort();
    if (t.cycle_start > (int64_t)t.n || t.temperature < 0 || !t.test) abort();
    trace_info_fini(&t);
  } else if (!err.data || !err.len) {
    abort();   /* a refusal always says why */
  }
  buf_fini(&err);
  free(text);
  return 0;
}
