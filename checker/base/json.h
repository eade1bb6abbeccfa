/* json.h: a small JSON reader (for trace files given to --replay) and
** helpers to write JSON strings.  Ownership: json_parse returns a tree the
** caller frees with json_free. */
#ifndef PCHECK_JSON_H
#define PCHECK_JSON_H
#include <stddef.h>
#include "vm/util.h"

typedef enum JsonKind { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } JsonKind;

typedef struct Json Json;
struct Json {
  JsonKind kind;
  double num;            /* JSON_NUMBER, JSON_BOOL (0/1) */
  char *str;             /* JSON_STRING (heap, NUL-terminated) */
  Json **items;          /* JSON_ARRAY elements, JSON_OBJECT values */
  char **keys;           /* JSON_OBJECT keys */
  size_t n;
};

/* Parse text (len bytes).  NULL on malformed input, with a message and the
** byte offset in err. */
Json *json_parse(const char *text, size_t len, Buf *err);
void json_free(Json *j);
/* Member `key` of an object, or NULL. */
const Json *json_get(const Json *obj, const char *key);
/* Whether j, where a reader wants a whole number from lo to hi, is fit to
** convert to an integer: 1 when it is one, and when it is absent (NULL)
** or not a number (which the reader ignores); 0 for a number with a
** fraction or out of range, which no cast may take. */
int json_whole(const Json *j, double lo, double hi);
/* Append s as a JSON string literal (quotes and escapes). */
void json_put_string(Buf *b, const char *s, size_t n);

#endif
