/* replay_main.c: runs a libFuzzer target without libFuzzer, over the files
** named on the command line (make check runs each target over its kept
** corpus and its regression inputs: tests/fuzz_corpus.sh).  A target that
** aborts or trips a sanitizer fails the run; otherwise it prints how many
** inputs it ran. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  int ran = 0;
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) { fprintf(stderr, "replay: cannot read %s\n", argv[i]); return 2; }
    size_t cap = 4096, n = 0;
    uint8_t *b = malloc(cap);
    size_t got;
    while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
      n += got;
      if (n == cap) b = realloc(b, cap *= 2);
    }
    fclose(f);
    if (!b) return 3;
    /* A copy of exactly n bytes, so that a read past the input is caught. */
    uint8_t *exact = malloc(n ? n : 1);
    if (n) memcpy(exact, b, n);
    free(b);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    ran++;
  }
  printf("replay: %d inputs ran\n", ran);
  return 0;
}
