/* inputs.c: files, directories (the project file a command-line folder
** holds, else every *.p below, in sorted order) and P
** project files (their <InputFiles><PFile> and <IncludeProject> entries,
** relative to the project file's folder, read as XML as P reads them:
** proj_read).  Project files may include each other; a cycle is reported
** once, not followed. */
#include <config.h>
#include "lang/inputs.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* One inputs_collect call: where paths go and what has been seen.  A file
** is added at most once however many inputs name it (by its real path); a
** project is expanded at most once, which also ends include cycles. */
typedef struct Collect {
  Diag *d;
  PtrVec *out;           /* paths to parse */
  PtrVec seen;           /* real paths already added (heap strings) */
  PtrVec projects;       /* real paths of projects being expanded */
  int errors;
} Collect;

/* Whether s ends in suffix (case-sensitive: "X.P" is not a P file). */
static int ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Whether real is one of v's strings (a linear scan: models have tens of
** files, not thousands). */
static int seen_before(PtrVec *v, const char *real) {
  for (int i = 0; i < v->n; i++) if (strcmp(v->items[i], real) == 0) return 1;
  return 0;
}

static void add_input(Collect *c, const char *path, int from_dir);
static void add_project(Collect *c, const char *path);

/* Add the P file at path unless its real path was added before; a path
** that does not resolve is an error.  The path is kept as given. */
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

/* scandir's order: by byte value of the names, the same on every system
** and locale, so a folder's files are always parsed in one order. */
static int cmp_names(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

/* Add every *.p file below folder path (depth: folders above it in this
** walk; past 64 is an error, which also stops symlink loops), in name
** order, entering subfolders where they sort.  Hidden entries are skipped. */
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

/* A project file read as XML, as P's loader reads it (ParsePProjectFile.cs
** in P's source: XElement): comments, CDATA, processing instructions and
** attributes are XML's; only <InputFiles><PFile> and <IncludeProject>
** children of the root element are entries; &amp; and the other four
** predefined entities are decoded. */
typedef struct Proj {
  Collect *c;
  const char *path, *dir;    /* the file, its folder ("" or ending in '/') */
  const char *text;
  uint32_t file;             /* its number in c->d, for locations */
  int entries;
} Proj;

/* Elements a project file may nest (the entries sit at depth 2 or 3). */
enum { PROJ_DEPTH = 32 };

/* The error at byte offset at of the project file. */
static void proj_error(Proj *j, size_t at, const char *msg, const char *arg) {
  Span sp = { j->file, (uint32_t)at, (uint32_t)at + 1 };
  diag_error(j->c->d, sp, msg, arg);
  j->c->errors++;
}

/* Text of an element from p to its end (before '<' or the end), decoded,
** appended to b; returns where it stops. */
static const char *proj_text(Buf *b, const char *p) {
  static const struct { const char *name, *ch; } ents[] = {
    { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" }, { "&apos;", "'" },
  };
  while (*p && *p != '<') {
    size_t k = 0, n = sizeof ents / sizeof ents[0];
    if (*p == '&')
      for (k = 0; k < n && strncmp(p, ents[k].name, strlen(ents[k].name)) != 0; k++) {}
    if (*p == '&' && k < n) { buf_puts(b, ents[k].ch); p += strlen(ents[k].name); }
    else buf_putc(b, *p++);
  }
  return p;
}

/* <Target>: P 3.1 builds for PChecker, PEx, PObserve or PVerifier and
** refuses a project with any other target (P 1's CSharp, say); pcheck
** reads such a project all the same, and says that P would not. */
static void proj_target(Proj *j, char *text, size_t at) {
  static const char *const known[] = { "PChecker", "PEx", "PObserve", "PVerifier" };
  char *e = trim(text);
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (strcasecmp(e, known[i]) == 0) return;
  Span sp = { j->file, (uint32_t)at, (uint32_t)at + 1 };
  diag_warning(j->c->d, sp, "<Target>%s</Target>: P 3 refuses this target (it expects PChecker, PEx, PObserve or "
               "PVerifier); pcheck checks the project all the same", e);
}

/* One entry of the project: a P file or folder (tag 0) or a project to
** include (tag 1), text as written, at byte offset at. */
static void proj_entry(Proj *j, int tag, char *text, size_t at) {
  char *e = trim(text);
  /* "./PSrc/" reads as "PSrc/" in messages, ".//PSrc" too: the slashes
  ** after a "./" do not make the path absolute; "./" and "." are the
  ** project's folder. */
  while (e[0] == '.' && e[1] == '/') {
    e += 2;
    while (*e == '/') e++;
  }
  if (strcmp(e, ".") == 0) e += 1;
  Buf full;
  buf_init(&full);
  if (e[0] == '/') buf_puts(&full, e);
  else buf_printf(&full, "%s%s", j->dir, e);
  if (full.len == 0) buf_puts(&full, ".");
  j->entries++;
  struct stat st;
  if (tag == 1) add_project(j->c, full.data);
  else if (stat(full.data, &st) != 0) {
    /* P skips an entry that names nothing. */
    Span sp = { j->file, (uint32_t)at, (uint32_t)at + 1 };
    diag_warning(j->c->d, sp, "<PFile> '%s' names no file or folder: skipped, as P skips it", full.data);
  } else if (S_ISDIR(st.st_mode)) add_dir(j->c, full.data, 0);
  else if (!ends_with(full.data, ".p")) {
    /* Foreign code (C#, Java) for P's own runtimes: pcheck runs P only. */
    Span sp = { j->file, (uint32_t)at, (uint32_t)at + 1 };
    diag_warning(j->c->d, sp, "<PFile> '%s' is not a .p file (foreign code): pcheck skips it", full.data);
  } else add_input(j->c, full.data, 0);
  buf_fini(&full);
}

/* Skip from p (at "<!--", "<![CDATA[", "<?" or "<!") past its end; the
** CDATA's text is appended to text when text is not NULL.  NULL when it
** is not closed (reported). */
static const char *proj_skip(Proj *j, const char *p, Buf *text) {
  static const struct { const char *open, *close; } kinds[] = {
    { "<!--", "-->" }, { "<![CDATA[", "]]>" }, { "<?", "?>" }, { "<!", ">" },
  };
  size_t k = 0;
  while (strncmp(p, kinds[k].open, strlen(kinds[k].open)) != 0) k++;
  const char *body = p + strlen(kinds[k].open), *end = strstr(body, kinds[k].close);
  if (!end) { proj_error(j, (size_t)(p - j->text), "'%s' is not closed", kinds[k].open); return NULL; }
  if (k == 1 && text) buf_append(text, body, (size_t)(end - body));
  return end + strlen(kinds[k].close);
}

/* The entries of the project's XML text. */
static void proj_read(Proj *j) {
  char names[PROJ_DEPTH][32];  /* the open elements (names cut to 31 bytes) */
  int depth = 0, seen_root = 0;
  Buf text;                    /* the text of the open entry element */
  buf_init(&text);
  size_t entry_at = 0;
  int entry = -1;              /* the open entry: 0 PFile, 1 IncludeProject, 2 Target, -1 none */
  const char *p = j->text;
  while (p && *p) {
    if (*p != '<') {
      if (entry >= 0) p = proj_text(&text, p);
      else while (*p && *p != '<') p++;
      continue;
    }
    if (p[1] == '!' || p[1] == '?') { p = proj_skip(j, p, entry >= 0 ? &text : NULL); continue; }
    int closing = p[1] == '/';
    const char *n = p + 1 + closing, *ne = n;
    while (*ne && !strchr(" \t\r\n/>", *ne)) ne++;
    size_t nl = (size_t)(ne - n);
    const char *q = ne;        /* past the attributes, quotes respected */
    while (*q && *q != '>') {
      if (*q == '"' || *q == '\'') { const char *c2 = strchr(q + 1, *q); q = c2 ? c2 + 1 : q + strlen(q); }
      else q++;
    }
    if (!*q || nl == 0) { proj_error(j, (size_t)(p - j->text), "a tag that is not closed or has no name%s", ""); break; }
    int empty = !closing && q[-1] == '/';
    char name[32];
    snprintf(name, sizeof name, "%.*s", (int)(nl < 31 ? nl : 31), n);
    if (closing) {
      if (depth == 0 || strcmp(names[depth - 1], name) != 0) {
        proj_error(j, (size_t)(p - j->text), "</%s> closes no open element of that name", name);
        break;
      }
      if (entry >= 0 && depth == (entry == 0 ? 3 : 2)) {
        char *t = buf_take(&text);
        if (entry == 2) proj_target(j, t ? t : xstrdup(""), entry_at);
        else proj_entry(j, entry, t ? t : xstrdup(""), entry_at);
        free(t);
        buf_init(&text);
        entry = -1;
      }
      depth--;
    } else if (!empty) {
      if (depth == 0 && seen_root) { proj_error(j, (size_t)(p - j->text), "a second root element <%s>", name); break; }
      if (depth == PROJ_DEPTH) { proj_error(j, (size_t)(p - j->text), "elements nest too deeply at <%s>", name); break; }
      seen_root = 1;
      strcpy(names[depth++], name);
      if (depth == 3 && strcmp(name, "PFile") == 0 && strcmp(names[1], "InputFiles") == 0) entry = 0;
      else if (depth == 2 && strcmp(name, "IncludeProject") == 0) entry = 1;
      else if (depth == 2 && strcmp(name, "Target") == 0) entry = 2;
      if (entry >= 0 && text.len == 0) entry_at = (size_t)(p - j->text);
    }
    p = q + 1;
  }
  if (p && depth > 0) proj_error(j, strlen(j->text) ? strlen(j->text) - 1 : 0, "<%s> is not closed", names[depth - 1]);
  buf_fini(&text);
}

/* Expand the project file at path: its entries, relative to its folder,
** are added in the order written.  Errors: a path that does not resolve,
** cannot be read, holds a NUL byte or (else) names no entry.  The file is
** registered with the Diag, so its entries' messages have a place. */
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
  Proj j = { c, path, dir, text, 0, 0 };
  j.file = diag_add_file(c->d, path, text, len);   /* the Diag owns text from here */
  j.text = c->d->files[j.file].text;
  int before = c->errors;
  proj_read(&j);
  if (!j.entries && c->errors == before) {
    diag_error_noloc(c->d, "project '%s' names no <InputFiles><PFile> or <IncludeProject>", path);
    c->errors++;
  }
  free(dir);
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

/* Each input in order (add_input with top set); the bookkeeping of real
** paths is freed, the paths in out are the caller's. */
int inputs_collect(Diag *d, char *const *inputs, int n, PtrVec *out) {
  Collect c = { d, out, {0}, {0}, 0 };
  for (int i = 0; i < n; i++) add_input(&c, inputs[i], 1);
  for (int i = 0; i < c.seen.n; i++) free(c.seen.items[i]);
  for (int i = 0; i < c.projects.n; i++) free(c.projects.items[i]);
  ptrvec_fini(&c.seen);
  ptrvec_fini(&c.projects);
  return c.errors;
}
