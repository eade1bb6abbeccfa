/* fuzz_pproj.c: libFuzzer entry point for project files: any bytes as a
** .pproj file in a scratch folder that holds a source file, a folder of
** sources and a second project, expanded by inputs_collect as the command
** line's inputs are.  Every path it returns must exist.  Paths that leave
** the folder are not tried (leaves_folder).  Build and run
** with tests/fuzz/run.sh. */
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lang/inputs.h"

static char dir[] = "/tmp/pcheck-fuzz-pproj-XXXXXX";
static char proj[sizeof dir + 32];

static void put(const char *name, const char *text) {
  char path[sizeof dir + 64];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) abort();
  fputs(text, f);
  fclose(f);
}

/* The scratch folder goes at exit. */
static void clean(void) {
  static const char *const names[] = { "fuzz.pproj", "other.pproj", "a.p", "PSrc/b.p", "PSrc", "" };
  char path[sizeof dir + 64];
  for (int i = 0; i < 6; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    remove(path);
  }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (!mkdtemp(dir)) abort();
  atexit(clean);
  char sub[sizeof dir + 16];
  snprintf(sub, sizeof sub, "%s/PSrc", dir);
  mkdir(sub, 0777);
  put("a.p", "machine Main { start state S { } }\n");
  put("PSrc/b.p", "event e;\n");
  put("other.pproj", "<Project><InputFiles><PFile>./PSrc/</PFile></InputFiles></Project>\n");
  snprintf(proj, sizeof proj, "%s/fuzz.pproj", dir);
  return 0;
}

/* Does the project name a path outside the scratch folder (an absolute
** one, or one through "..")?  Those would make the fuzzer read the whole
** file system: such an input is skipped. */
static int leaves_folder(const uint8_t *data, size_t size) {
  for (size_t i = 0; i + 1 < size; i++) {
    if (data[i] == '.' && data[i + 1] == '.') return 1;
    if (data[i] == '>') {
      size_t j = i + 1;
      while (j < size && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r')) j++;
      if (j < size && data[j] == '/') return 1;
    }
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (leaves_folder(data, size)) return 0;
  FILE *f = fopen(proj, "wb");
  if (!f) abort();
  if (size && fwrite(data, 1, size, f) != size) abort();
  fclose(f);
  FILE *sink = fopen("/dev/null", "w");
  Diag d;
  diag_init(&d, sink);
  PtrVec out = {0};
  char *inputs[] = { proj };
  inputs_collect(&d, inputs, 1, &out);
  for (int i = 0; i < out.n; i++) {
    if (access((const char *)out.items[i], R_OK) != 0) abort();   /* only files that are there */
    free(out.items[i]);
  }
  free(out.items);
  diag_fini(&d);
  fclose(sink);
  return 0;
}
