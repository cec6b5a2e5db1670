/*
** sha256.h -- SHA-256 (FIPS 180-4): the content hash of the compiled
** tier's objects and of the C they were built from (engines/compiled).
*/
#ifndef GSOLVE_SHA256_H
#define GSOLVE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_BYTES 32
#define SHA256_HEX (2 * SHA256_BYTES + 1)   /* hex digits and the NUL */

typedef struct Sha256 {
  uint32_t h[8];          /* the running hash */
  uint64_t bytes;         /* message length so far */
  unsigned char block[64];
  size_t used;            /* bytes of block filled */
} Sha256;

void sha256_init(Sha256 *s);
void sha256_update(Sha256 *s, const void *data, size_t n);
void sha256_final(Sha256 *s, unsigned char out[SHA256_BYTES]);

/* The hash of data[0..n) as 64 lowercase hex digits into hex. */
void sha256_hex(const void *data, size_t n, char hex[SHA256_HEX]);

/* out[0..SHA256_BYTES) as lowercase hex into hex. */
void sha256_to_hex(const unsigned char out[SHA256_BYTES], char hex[SHA256_HEX]);

#endif
