/*
** failalloc.c -- allocation-failure injection for tests (t_failalloc.sh).
**
** Linked into a test build of gsolve with
**   -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup,
**   --wrap=aligned_alloc,--wrap=posix_memalign
** so that every allocation made by gsolve's own code -- the generated
** lexer and parser included -- goes through the counters below, without a
** change at any call site and with no cost in the real program.
**
**   GSOLVE_FAIL_ALLOC=N        the N-th allocation (from 1) returns NULL,
**                              and only that one; unset or 0: none fails
**   GSOLVE_COUNT_ALLOC=1       print "allocations: K" on stderr at exit
**
** Allocations inside the C library (stdio buffers, ...) are not counted.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
int __real_posix_memalign(void **p, size_t align, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);
int __wrap_posix_memalign(void **p, size_t align, size_t n);

static long fail_at = -1;      /* -1: not read yet */
static long count;

static void report(void) { fprintf(stderr, "allocations: %ld\n", count); }

/* 1 if this allocation must fail. */
static int should_fail(void) {
  if (fail_at < 0) {
    const char *e = getenv("GSOLVE_FAIL_ALLOC");
    fail_at = e ? atol(e) : 0;
    if (fail_at < 0) fail_at = 0;
    const char *c = getenv("GSOLVE_COUNT_ALLOC");
    if (c && *c == '1') atexit(report);
  }
  return ++count == fail_at;
}

void *__wrap_malloc(size_t n) { return should_fail() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) {
  return should_fail() ? NULL : __real_calloc(n, size);
}
void *__wrap_realloc(void *p, size_t n) {
  return should_fail() ? NULL : __real_realloc(p, n);
}
char *__wrap_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = __wrap_malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}
char *__wrap_strndup(const char *s, size_t n) {
  size_t k = strnlen(s, n);
  char *d = __wrap_malloc(k + 1);
  if (d) { memcpy(d, s, k); d[k] = 0; }
  return d;
}
void *__wrap_aligned_alloc(size_t align, size_t n) {
  return should_fail() ? NULL : __real_aligned_alloc(align, n);
}
int __wrap_posix_memalign(void **p, size_t align, size_t n) {
  return should_fail() ? 12 /* ENOMEM */ : __real_posix_memalign(p, align, n);
}
