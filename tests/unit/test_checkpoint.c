/* test_checkpoint.c: the checkpoint file (checker/base/checkpoint.h) and the
** program fingerprint it is keyed by (bc_fingerprint).
** (a) Sections written are read back alike, by tag; a missing tag is none.
** (b) A checkpoint for another version, model, test, search or options is
**     refused, one row each, with the message that says which (for the
**     options: each that differs, with both values).
** (c) Every truncation, and a flipped bit anywhere, is refused (the
**     checksum); a file that is not a checkpoint says so; an unwritable
**     path says so; no temporary file is left behind.
** (d) The same model compiled twice has one fingerprint; a model changed
**     in a name, a constant, or a statement has another. */
#include <config.h>
#include "tests/unit/check_main.h"
#include "tests/unit/model.h"
#include "checker/base/checkpoint.h"
#include "checker/base/files.h"
#include <dirent.h>
#include <unistd.h>

static char dir[] = "/tmp/pcheck-test-ck-XXXXXX";
static char path[sizeof dir + 16];

static const CkHeader base = { "0.1.0", 0x1234567890abcdefull, "tcOne", "dfs", "seed=3 reduction=on" };

/* A checkpoint with three sections (one empty) written to path. */
static void write_sample(void) {
  Checkpoint c;
  ck_init(&c);
  uint8_t big[5000];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i * 7);
  ck_add_ref(&c, "cache", big, sizeof big);   /* borrowed: written from the caller's bytes */
  ck_add(&c, "empty", NULL, 0);
  Buf counts;
  buf_init(&counts);
  buf_puts(&counts, "abcdefgh");
  ck_add_buf(&c, "counts", &counts);   /* taken */
  ck_assert_ptr_null(counts.data);
  Buf err;
  buf_init(&err);
  ck_assert_int_eq(ck_write(&c, &base, path, &err), 0);
  buf_fini(&err);
  ck_fini(&c);
}

static void setup(void) {
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/ck", dir);
}

START_TEST(test_round_trip) {
  write_sample();
  Checkpoint c;
  ck_init(&c);
  Buf err;
  buf_init(&err);
  ck_assert_int_eq(ck_read(&c, &base, path, &err), 0);
  uint64_t n;
  const uint8_t *p = ck_get(&c, "cache", &n);
  ck_assert_ptr_nonnull(p);
  ck_assert_uint_eq(n, 5000);
  for (size_t i = 0; i < n; i++) ck_assert_int_eq(p[i], (uint8_t)(i * 7));
  ck_assert_ptr_nonnull(ck_get(&c, "empty", &n));
  ck_assert_uint_eq(n, 0);
  p = ck_get(&c, "counts", &n);
  ck_assert_uint_eq(n, 8);
  ck_assert(memcmp(p, "abcdefgh", 8) == 0);
  ck_assert_ptr_null(ck_get(&c, "stack", &n));
  /* Nothing but the checkpoint in the folder: the temporary file went. */
  DIR *d = opendir(dir);
  int files = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    if (e->d_name[0] != '.') files++;
  closedir(d);
  ck_assert_int_eq(files, 1);
  buf_fini(&err);
  ck_fini(&c);
}
END_TEST

static const struct {
  CkHeader want;
  const char *says;
} mismatch[] = {
  { { "0.2.0", 0x1234567890abcdefull, "tcOne", "dfs", "seed=3 reduction=on" },
    "was written by pcheck 0.1.0; this is pcheck 0.2.0" },
  { { "0.1.0", 0x1234567890abcdeeull, "tcOne", "dfs", "seed=3 reduction=on" }, "is for another model" },
  { { "0.1.0", 0x1234567890abcdefull, "tcTwo", "dfs", "seed=3 reduction=on" }, "is for test 'tcOne', not 'tcTwo'" },
  { { "0.1.0", 0x1234567890abcdefull, "tcOne", "bfs", "seed=3 reduction=on" }, "is of --search dfs, not bfs" },
  { { "0.1.0", 0x1234567890abcdefull, "tcOne", "dfs", "seed=4 reduction=on" },
    "with other search options (seed: 3 in the checkpoint, 4 now)" },
  { { "0.1.0", 0x1234567890abcdefull, "tcOne", "dfs", "reduction=off explorer=rr seed=3" },
    "(reduction: on in the checkpoint, off now; explorer: none in the checkpoint, rr now)" },
  { { "0.1.0", 0x1234567890abcdefull, "tcOne", "dfs", "seed=3" }, "(reduction: on in the checkpoint, none now)" },
};

START_TEST(test_mismatch) {
  write_sample();
  Checkpoint c;
  ck_init(&c);
  Buf err;
  buf_init(&err);
  ck_assert_int_eq(ck_read(&c, &mismatch[_i].want, path, &err), -1);
  ck_assert_msg(strstr(err.data, mismatch[_i].says) != NULL, "row %d: %s", _i, err.data);
  ck_assert_uint_eq(c.n, 0);
  buf_fini(&err);
  ck_fini(&c);
}
END_TEST

START_TEST(test_damaged) {
  write_sample();
  size_t len;
  char *orig = read_file(path, &len);
  ck_assert_ptr_nonnull(orig);
  Checkpoint c;
  ck_init(&c);
  Buf err, b;
  buf_init(&err);
  buf_init(&b);
  char cut[sizeof path + 8];
  snprintf(cut, sizeof cut, "%s.bad", path);
  /* Every truncation. */
  for (size_t n = 0; n < len; n += n < 64 ? 1 : 97) {
    b.len = 0;
    buf_append(&b, orig, n);
    ck_assert_int_eq(file_write_atomic(cut, &b), 0);
    err.len = 0;
    ck_assert_msg(ck_read(&c, &base, cut, &err) == -1, "a checkpoint cut to %zu of %zu bytes was read", n, len);
  }
  /* A bit flipped here and there. */
  for (size_t i = 0; i < len; i += 13) {
    b.len = 0;
    buf_append(&b, orig, len);
    b.data[i] ^= (char)(1 << (i % 8));
    ck_assert_int_eq(file_write_atomic(cut, &b), 0);
    err.len = 0;
    ck_assert_msg(ck_read(&c, &base, cut, &err) == -1, "a checkpoint with byte %zu changed was read", i);
    ck_assert(strstr(err.data, "damaged") || strstr(err.data, "not a pcheck checkpoint"));
  }
  b.len = 0;
  buf_puts(&b, "version: 2\ntest: Main\nm 1\n");
  ck_assert_int_eq(file_write_atomic(cut, &b), 0);
  err.len = 0;
  ck_assert_int_eq(ck_read(&c, &base, cut, &err), -1);
  ck_assert(strstr(err.data, "is not a pcheck checkpoint") != NULL);
  /* A path that cannot be written. */
  Checkpoint w;
  ck_init(&w);
  err.len = 0;
  ck_assert_int_eq(ck_write(&w, &base, "/nonexistent-folder/ck", &err), -1);
  ck_assert(strstr(err.data, "cannot write the checkpoint '/nonexistent-folder/ck'") != NULL);
  ck_fini(&w);
  remove(cut);
  free(orig);
  buf_fini(&b);
  buf_fini(&err);
  ck_fini(&c);
}
END_TEST

/* ck_peek: the test and search of a checkpoint, whatever this run is. */
START_TEST(test_peek) {
  write_sample();
  CkPeek pk;
  Buf err;
  buf_init(&err);
  ck_assert_int_eq(ck_peek(path, &pk, &err), 0);
  ck_assert_str_eq(pk.test, "tcOne");
  ck_assert_str_eq(pk.search, "dfs");
  ck_assert_str_eq(pk.options, "seed=3 reduction=on");
  ck_assert_int_eq(ck_peek("/nonexistent-folder/ck", &pk, &err), -1);
  ck_assert(strstr(err.data, "cannot read the checkpoint '/nonexistent-folder/ck'") != NULL);
  buf_fini(&err);
}
END_TEST

static const char *const sources[] = {
  "event e: int;\nmachine Main { var x: int; start state S { entry { x = 1; send this, e, 2; } on e do (v: int) { x = v; } } }\n",
  /* a name changed */
  "event f: int;\nmachine Main { var x: int; start state S { entry { x = 1; send this, f, 2; } on f do (v: int) { x = v; } } }\n",
  /* a constant changed */
  "event e: int;\nmachine Main { var x: int; start state S { entry { x = 1; send this, e, 3; } on e do (v: int) { x = v; } } }\n",
  /* a statement more */
  "event e: int;\nmachine Main { var x: int; start state S { entry { x = 1; send this, e, 2; } on e do (v: int) { x = v; x = x + 1; } } }\n",
};

START_TEST(test_fingerprint) {
  uint64_t fp[4];
  for (int i = 0; i < 4; i++) {
    Model m;
    model_load(&m, sources[i]);
    ck_assert(m.ok);
    fp[i] = bc_fingerprint(m.bc);
    Model again;
    model_load(&again, sources[i]);
    ck_assert_msg(bc_fingerprint(again.bc) == fp[i], "source %d: two compilations differ", i);
    model_free(&again);
    model_free(&m);
  }
  for (int i = 1; i < 4; i++) ck_assert_msg(fp[i] != fp[0], "a changed model (%d) has the same fingerprint", i);
}
END_TEST

static void teardown(void) {
  remove(path);
  rmdir(dir);
  memcpy(dir + sizeof dir - 7, "XXXXXX", 6);
}

int main(void) {
  Suite *s = suite_create("checkpoint");
  TCase *tc = tcase_create("all");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_round_trip);
  tcase_add_loop_test(tc, test_mismatch, 0, (int)(sizeof mismatch / sizeof mismatch[0]));
  tcase_add_test(tc, test_damaged);
  tcase_add_test(tc, test_peek);
  tcase_add_test(tc, test_fingerprint);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
