/* inputs.c: files, directories (the project file a command-line folder
** holds, else every *.p below, in sorted order) and P
** project files (their <PFile> and <IncludeProject> entries, relative to
** the project file's folder).  Project files may include each other; a
** cycle is reported once, not followed. */
#include <config.h>
#include "lang/inputs.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct Collect {
  Diag *d;
  PtrVec *out;           /* paths to parse */
  PtrVec seen;           /* real paths already added (heap strings) */
  PtrVec projects;       /* real paths of projects being expanded */
  int errors;
} Collect;

static int ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int seen_before(PtrVec *v, const char *real) {
  for (int i = 0; i < v->n; i++) if (strcmp(v->items[i], real) == 0) return 1;
  return 0;
}

static void add_input(Collect *c, const char *path, int from_dir);

static void add_file(Collect *c, const char *path) {
  char real[PATH_MAX];
  if (!realpath(path, real)) {
    diag_error_noloc(c->d, "cannot read '%s': %s", path, strerror(errno));
    c->errors++;
    return;
  }
  if (seen_before(&c->seen, real)) return;
  ptrvec_push(&c->seen, xstrdup(real));
  ptrvec_push(c->out, xstrdup(path));
}

static int cmp_names(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

static void add_dir(Collect *c, const char *path, int depth) {
  if (depth > 64) {
    diag_error_noloc(c->d, "directory '%s' nests too deeply", path);
    c->errors++;
    return;
  }
  struct dirent **names;
  int n = scandir(path, &names, NULL, cmp_names);
  if (n < 0) {
    diag_error_noloc(c->d, "cannot read directory '%s': %s", path, strerror(errno));
    c->errors++;
    return;
  }
  for (int i = 0; i < n; i++) {
    const char *nm = names[i]->d_name;
    if (nm[0] != '.') {
      Buf b;
      buf_init(&b);
      buf_printf(&b, "%s%s%s", path, ends_with(path, "/") ? "" : "/", nm);
      struct stat st;
      if (stat(b.data, &st) == 0) {
        if (S_ISDIR(st.st_mode)) add_dir(c, b.data, depth + 1);
        else if (S_ISREG(st.st_mode) && ends_with(nm, ".p")) add_file(c, b.data);
      }
      buf_fini(&b);
    }
    free(names[i]);
  }
  free(names);
}

/* Trim ASCII whitespace in place. */
static char *trim(char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = 0;
  return s;
}

static void add_project(Collect *c, const char *path) {
  char real[PATH_MAX];
  if (!realpath(path, real)) {
    diag_error_noloc(c->d, "cannot read project '%s': %s", path, strerror(errno));
    c->errors++;
    return;
  }
  if (seen_before(&c->projects, real)) return;   /* already expanded, or a cycle */
  ptrvec_push(&c->projects, xstrdup(real));
  size_t len;
  char *text = read_file(path, &len);
  if (!text) {
    diag_error_noloc(c->d, "cannot read project '%s': %s", path, strerror(errno));
    c->errors++;
    return;
  }
  if (strlen(text) != len) {
    diag_error_noloc(c->d, "project '%s' is not a text file", path);
    c->errors++;
    free(text);
    return;
  }
  /* Folder of the project file, for relative entries. */
  char *dir = xstrdup(path);
  char *slash = strrchr(dir, '/');
  if (slash) slash[1] = 0; else dir[0] = 0;
  static const char *const tags[] = { "PFile", "IncludeProject" };
  int entries = 0;
  for (const char *p = text; (p = strchr(p, '<')) != NULL; p++) {
    for (int t = 0; t < 2; t++) {
      size_t tl = strlen(tags[t]);
      if (strncmp(p + 1, tags[t], tl) != 0 || p[1 + tl] != '>') continue;
      const char *start = p + 2 + tl;
      Buf close;
      buf_init(&close);
      buf_printf(&close, "</%s>", tags[t]);
      const char *end = strstr(start, close.data);
      buf_fini(&close);
      if (!end) {
        diag_error_noloc(c->d, "project '%s': <%s> is not closed", path, tags[t]);
        c->errors++;
        break;
      }
      char *entry = xstrndup(start, (size_t)(end - start));
      char *e = trim(entry);
      /* "./PSrc/" reads as "PSrc/" in messages, ".//PSrc" too: the slashes
      ** after a "./" do not make the path absolute. */
      while (e[0] == '.' && e[1] == '/') {
        e += 2;
        while (*e == '/') e++;
      }
      Buf full;
      buf_init(&full);
      if (e[0] == '/') buf_puts(&full, e); else buf_printf(&full, "%s%s", dir, e);
      if (*e) {
        entries++;
        if (t == 1) add_project(c, full.data);
        else add_input(c, full.data, 0);
      }
      buf_fini(&full);
      free(entry);
    }
  }
  if (!entries) {
    diag_error_noloc(c->d, "project '%s' names no <PFile> or <IncludeProject>", path);
    c->errors++;
  }
  free(dir);
  free(text);
}

/* The project file directly in folder path (not below it), as `p compile`
** finds one in the folder it runs in: 1 and *out (heap) when there is
** exactly one, 0 when there is none, -1 (reported) when there are several. */
static int folder_project(Collect *c, const char *path, char **out) {
  struct dirent **names;
  int n = scandir(path, &names, NULL, cmp_names), found = 0;
  *out = NULL;
  for (int i = 0; i < (n > 0 ? n : 0); i++) {
    const char *nm = names[i]->d_name;
    Buf b;
    buf_init(&b);
    buf_printf(&b, "%s%s%s", path, ends_with(path, "/") ? "" : "/", nm);
    struct stat st;
    if (nm[0] != '.' && ends_with(nm, ".pproj") && stat(b.data, &st) == 0 && S_ISREG(st.st_mode)) {
      if (++found == 1) *out = xstrdup(b.data);
      else {
        if (found == 2)
          diag_error_noloc(c->d, "folder '%s' holds several project files ('%s', '%s', ...): name the one to check", path,
                           *out, b.data);
        c->errors += found == 2;
      }
    }
    buf_fini(&b);
    free(names[i]);
  }
  free(names);
  if (found > 1) { free(*out); *out = NULL; return -1; }
  return found;
}

/* top: path was given on the command line, where a folder holding one
** project file means that project (P's habit); below, a folder means
** every *.p file in it. */
static void add_input(Collect *c, const char *path, int top) {
  struct stat st;
  if (stat(path, &st) != 0) {
    diag_error_noloc(c->d, "cannot read '%s': %s", path, strerror(errno));
    c->errors++;
    return;
  }
  if (S_ISDIR(st.st_mode)) {
    char *proj = NULL;
    int k = top ? folder_project(c, path, &proj) : 0;
    if (k == 1) add_project(c, proj);
    else if (k == 0) add_dir(c, path, 0);
    free(proj);
  } else if (!S_ISREG(st.st_mode)) {
    diag_error_noloc(c->d, "'%s' is not a regular file, a directory or a project", path);
    c->errors++;
  } else if (ends_with(path, ".pproj")) add_project(c, path);
  else add_file(c, path);
}

int inputs_collect(Diag *d, char *const *inputs, int n, PtrVec *out) {
  Collect c = { d, out, {0}, {0}, 0 };
  for (int i = 0; i < n; i++) add_input(&c, inputs[i], 1);
  for (int i = 0; i < c.seen.n; i++) free(c.seen.items[i]);
  for (int i = 0; i < c.projects.n; i++) free(c.projects.items[i]);
  ptrvec_fini(&c.seen);
  ptrvec_fini(&c.projects);
  return c.errors;
}
