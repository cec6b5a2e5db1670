/*
** replay.c -- runs files through every fuzz harness without libFuzzer, so
** the corpus and past crashes replay as ordinary tests (make test).
**
**   replay [-t SECONDS] [-h HARNESS]... FILE...
**
** Each file runs in a child process with an alarm of SECONDS (default 20)
** through the harnesses (parse, compile, pipeline, gtp, db, book, position, efg, http: all unless
** -h names some; -h may be repeated): a crash, a
** sanitizer report or a timeout names the file and harness, and the exit
** status is 1.  The last line reads "replayed N input(s)" when all passed.
*/
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int fuzz_parse_one(const uint8_t *data, size_t size);
int fuzz_compile_one(const uint8_t *data, size_t size);
int fuzz_pipeline_one(const uint8_t *data, size_t size);
int fuzz_gtp_one(const uint8_t *data, size_t size);
int fuzz_db_one(const uint8_t *data, size_t size);
int fuzz_book_one(const uint8_t *data, size_t size);
int fuzz_position_one(const uint8_t *data, size_t size);
int fuzz_efg_one(const uint8_t *data, size_t size);
int fuzz_http_one(const uint8_t *data, size_t size);

static const struct {
  const char *name;
  int (*run)(const uint8_t *, size_t);
} harnesses[] = {
  { "parse", fuzz_parse_one },
  { "compile", fuzz_compile_one },
  { "pipeline", fuzz_pipeline_one },
  { "gtp", fuzz_gtp_one },
  { "db", fuzz_db_one },
  { "book", fuzz_book_one },
  { "position", fuzz_position_one },
  { "efg", fuzz_efg_one },
  { "http", fuzz_http_one },
};
#define NHARNESS ((int)(sizeof harnesses / sizeof harnesses[0]))

/* Reads a whole file; NULL (message printed) on failure. */
static uint8_t *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); return NULL; }
  size_t cap = 1 << 16, n = 0, k;
  uint8_t *buf = malloc(cap);
  while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
    n += k;
    if (n == cap) {
      uint8_t *b = realloc(buf, cap *= 2);
      if (!b) { free(buf); buf = NULL; } else buf = b;
    }
  }
  fclose(f);
  if (!buf) fprintf(stderr, "replay: %s: out of memory\n", path);
  *len = n;
  return buf;
}

/* Runs harness h on the file in a child; 0 if it returned normally. */
static int run_one(const char *path, int h, unsigned secs) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) { perror("fork"); return 1; }
  if (pid == 0) {
    size_t len;
    uint8_t *buf = slurp(path, &len);
    if (!buf) _exit(1);
    alarm(secs);
    harnesses[h].run(buf, len);
    free(buf);
    exit(0);      /* exit, not _exit: the leak checker runs at exit */
  }
  int st;
  if (waitpid(pid, &st, 0) < 0) { perror("waitpid"); return 1; }
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return 0;
  if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
    fprintf(stderr, "replay: %s: harness %s: timeout after %u s\n", path, harnesses[h].name, secs);
  else if (WIFSIGNALED(st))
    fprintf(stderr, "replay: %s: harness %s: killed by signal %d\n", path, harnesses[h].name, WTERMSIG(st));
  else
    fprintf(stderr, "replay: %s: harness %s: exit status %d\n", path, harnesses[h].name, WEXITSTATUS(st));
  return 1;
}

int main(int argc, char **argv) {
  unsigned secs = 20;
  int only[NHARNESS] = { 0 }, some = 0, i = 1, failed = 0;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) secs = (unsigned)atoi(argv[++i]);
    else if (strcmp(argv[i], "-h") == 0 && i + 1 < argc) {
      const char *name = argv[++i];
      int found = 0;
      for (int h = 0; h < NHARNESS; h++)
        if (strcmp(name, harnesses[h].name) == 0) only[h] = found = some = 1;
      if (!found) { fprintf(stderr, "replay: no harness '%s'\n", name); return 2; }
    } else if (strcmp(argv[i], "--") == 0) { i++; break; }
    else { fprintf(stderr, "usage: replay [-t SECONDS] [-h parse|compile|pipeline|gtp|db|book|position|http]... FILE...\n"); return 2; }
  }
  int first = i;
  for (; i < argc; i++)
    for (int h = 0; h < NHARNESS; h++)
      if (!some || only[h]) failed += run_one(argv[i], h, secs);
  if (failed) { printf("replay: %d failure(s)\n", failed); return 1; }
  printf("replayed %d input(s)\n", argc - first);
  return 0;
}
