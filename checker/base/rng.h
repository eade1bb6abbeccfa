/* rng.h: the checker's random numbers (xoshiro256**, seeded by splitmix64).
** Every random decision of a search comes from an Rng seeded from --seed,
** so the same seed gives the same run.  The VM never draws numbers. */
#ifndef PCHECK_RNG_H
#define PCHECK_RNG_H
#include <stdint.h>

typedef struct Rng { uint64_t s[4]; } Rng;

/* splitmix64's finaliser: a bijective mix of z's bits (also the checker's
** hash of small keys: checker/observe/schedcov.c, learned.c, search_bita.c). */
static inline uint64_t rng_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* The next number of the splitmix64 sequence at *x (advanced): for seeding
** generators from one 64-bit seed. */
static inline uint64_t rng_splitmix(uint64_t *x) {
  return rng_mix(*x += 0x9e3779b97f4a7c15ull);
}

/* The four words of state from splitmix64 over seed, so that nearby
** seeds give unrelated streams. */
static inline void rng_seed(Rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++) r->s[i] = rng_splitmix(&seed);
}

/* The generator of item i (an execution, a sample) of a run seeded by
** seed: the same whatever ran the items before it, on whichever rank. */
static inline void rng_seed_at(Rng *r, uint64_t seed, uint64_t i) {
  rng_seed(r, rng_mix(seed) ^ rng_mix(i + 0x6a09e667f3bcc909ull));
}

/* The next 64 random bits (xoshiro256**, period 2^256 - 1). */
static inline uint64_t rng_next(Rng *r) {
  uint64_t *s = r->s;
  uint64_t x = s[1] * 5;
  uint64_t result = ((x << 7) | (x >> 57)) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = (s[3] << 45) | (s[3] >> 19);
  return result;
}

/* Uniform in [0, n), n > 0, without modulo bias. */
static inline uint32_t rng_below(Rng *r, uint32_t n) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t x;
  do x = rng_next(r); while (x >= limit);
  return (uint32_t)(x % n);
}

#endif
