/*
** replay.c -- runs files through the fuzz harness without libFuzzer, so
** the corpus and past crashes replay as ordinary tests (make test).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) { perror(argv[i]); return 1; }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
      n += k;
      if (n == cap) { uint8_t *b = realloc(buf, cap *= 2); if (!b) { free(buf); buf = NULL; } else buf = b; }
    }
    fclose(f);
    if (!buf) { fprintf(stderr, "replay: out of memory\n"); return 1; }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
  }
  printf("replayed %d input(s)\n", argc - 1);
  return 0;
}
