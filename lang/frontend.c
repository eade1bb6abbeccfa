/* frontend.c: read, parse and check a model.  Parsing goes on through
** every file so that all syntax errors are reported; type checking runs
** only on a model that parsed cleanly. */
#include <config.h>
#include "lang/frontend.h"
#include "lang/inputs.h"
#include "parser/parse.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int frontend_load(Program *p, Diag *d, char *const *inputs, int n, long *nlines) {
  PtrVec files = {0};
  int errors = inputs_collect(d, inputs, n, &files);
  long lines = 0;
  if (!errors && files.n == 0) {
    diag_error_noloc(d, "no P source files (*.p) in the inputs");
    errors++;
  }
  for (int i = 0; i < files.n; i++) {
    const char *path = files.items[i];
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
      diag_error_noloc(d, "cannot read '%s': %s", path, strerror(errno));
      errors++;
      continue;
    }
    if (len > FRONTEND_MAX_FILE) {
      diag_error_noloc(d, "'%s' is too large (%zu bytes; the limit is %u)", path, len, FRONTEND_MAX_FILE);
      free(text);
      errors++;
      continue;
    }
    for (size_t j = 0; j < len; j++) lines += text[j] == '\n';
    uint32_t id = diag_add_file(d, path, text, len);
    errors += parse_source(d, p->arena, id, p->root);
  }
  for (int i = 0; i < files.n; i++) free(files.items[i]);
  ptrvec_fini(&files);
  if (nlines) *nlines = lines;
  if (errors) return errors;
  return sema_check(p, d);
}
