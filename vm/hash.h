/* hash.h: the fingerprint of a State: XXH3-64 of its bytes.  Where
** libxxhash has its x86 dispatcher, the call goes through it and uses the
** widest vector unit the CPU has (SSE2, AVX2 or AVX-512); the value is the
** same on every path, so fingerprints, traces and state counts do not
** depend on the machine. */
#ifndef PCHECK_HASH_H
#define PCHECK_HASH_H
#include <stddef.h>
#include <stdint.h>
#include <xxhash.h>
#if defined(HAVE_XXH_X86DISPATCH_H) && defined(HAVE_XXH3_64BITS_DISPATCH)
#define XXH_DISPATCH_DISABLE_REPLACE 1
#include <xxh_x86dispatch.h>
static inline uint64_t state_hash(const void *p, size_t n) { return XXH3_64bits_dispatch(p, n); }
#else
static inline uint64_t state_hash(const void *p, size_t n) { return XXH3_64bits(p, n); }
#endif
#endif
