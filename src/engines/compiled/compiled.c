/*
** compiled.c -- the compiled tier (--engine compiled): a game's bytecode
** translated to C (src/vm/aot_gen.c), built by the system's C compiler as
** a shared object, loaded with dlopen and run by the VM in place of its
** interpreter (src/vm/aot.c).
**
** The shared object is cached under the hash of its C text and the
** compiler's command line.  The text holds the runtime header (so
** gsolve's build), the bytecode and every program table it reads, so the
** hash names exactly what the object computes.  The cache directory:
** $GSOLVE_CACHE, else $XDG_CACHE_HOME/gsolve, else ~/.cache/gsolve; one
** that cannot be made or written gives way to a fresh temporary
** directory, removed once the object is loaded.  Objects are written
** under a temporary name and renamed, so concurrent runs never see half
** a file.  The compiler is $GSOLVE_CC, else cc.  With $GSOLVE_KEEP_C set,
** the C text of a newly built object stays beside it (NAME.PID.c).
*/
#include "engines/engines.h"
#include "vm/aot_gen.h"
#include "vm/vm.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define AOT_CFLAGS "-O2", "-shared", "-fPIC", "-w"

/* Two 64-bit FNV-1a hashes with different bases: a 128-bit name. */
static void hash_text(const char *s, size_t n, const char *const *argv, uint64_t h[2]) {
  h[0] = 0xcbf29ce484222325ULL;
  h[1] = 0x84222325cbf29ce4ULL;
  for (int k = 0; k < 2; k++) {
    for (size_t i = 0; i < n; i++) h[k] = (h[k] ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    for (int a = 0; argv[a]; a++)
      for (const char *c = argv[a]; ; c++) {
        h[k] = (h[k] ^ (unsigned char)*c) * 0x100000001b3ULL;
        if (!*c) break;
      }
    h[k] ^= h[k] >> 29;
  }
}

/* mkdir -p of a directory path (in place; restores the slashes). */
static int make_dirs(char *path) {
  for (char *c = path + 1; ; c++) {
    if (*c == '/' || *c == 0) {
      char save = *c;
      *c = 0;
      int r = mkdir(path, 0755);
      *c = save;
      if (r != 0 && errno != EEXIST) return 0;
      if (!save) break;
    }
  }
  return access(path, W_OK | X_OK) == 0;
}

/* The cache directory in dir (made when missing, if make); 0 when none
** can be used. */
static int cache_dir(char *dir, size_t n, int make) {
  const char *env = getenv("GSOLVE_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int len;
  if (env && *env) len = snprintf(dir, n, "%s", env);
  else if (xdg && *xdg) len = snprintf(dir, n, "%s/gsolve", xdg);
  else if (home && *home) len = snprintf(dir, n, "%s/.cache/gsolve", home);
  else return 0;
  if (len <= 0 || (size_t)len >= n) return 0;
  return make ? make_dirs(dir) : 1;
}

/* Runs argv with its output to /dev/null: the exit status, -1 when it could
** not start (errno set). */
static int run_compiler(char *const argv[]) {
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa) != 0) return -1;
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err != 0) { errno = err; return -1; }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 127) { errno = ENOENT; return -1; }   /* a shell's "not found" */
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int write_file(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "w");
  if (!f) return 0;
  int ok = fwrite(text, 1, len, f) == len;
  return fclose(f) == 0 && ok;
}

/* Builds so_path from the C text (through temporary files in dir, renamed
** into place).  EXIT_OK, or a status with the reason in why. */
static int build_object(const char *dir, const char *name, const char *so_path, const char *text, size_t len,
                        const char *cc, char *why, size_t n) {
  char c_path[4200], tmp_so[4200];
  snprintf(c_path, sizeof c_path, "%s/%s.%ld.c", dir, name, (long)getpid());
  snprintf(tmp_so, sizeof tmp_so, "%s/%s.%ld.tmp", dir, name, (long)getpid());
  if (!write_file(c_path, text, len)) {
    remove(c_path);
    snprintf(why, n, "cannot write '%s': %s", c_path, strerror(errno));
    return EXIT_IO;
  }
  char *argv[] = { (char *)cc, AOT_CFLAGS, "-o", tmp_so, c_path, NULL };
  int st = run_compiler(argv);
  if (st != 0) {
    int missing = st < 0;
    if (missing) snprintf(why, n, "no C compiler ('%s': %s; set GSOLVE_CC)", cc, strerror(errno));
    else snprintf(why, n, "the C compiler '%s' failed (status %d) on '%s'", cc, st, c_path);
    if (missing) remove(c_path);
    remove(tmp_so);
    return EXIT_USAGE;
  }
  const char *keep = getenv("GSOLVE_KEEP_C");   /* the C text stays, to read */
  if (!keep || !*keep) remove(c_path);
  if (rename(tmp_so, so_path) != 0) {
    snprintf(why, n, "cannot rename '%s': %s", tmp_so, strerror(errno));
    remove(tmp_so);
    return EXIT_IO;
  }
  return EXIT_OK;
}

static void release_object(void *handle) { dlclose(handle); }

/* dlopen's object at path and its module for p; NULL when it is not one. */
static void *open_object(const char *path, const Program *p, const AotModule **m) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) return NULL;
  const AotModule *(*get)(void);
  *(void **)&get = dlsym(h, "gsolve_aot_module");
  *m = get ? get() : NULL;
  if (!*m || (*m)->abi != AOT_ABI || (*m)->nchunks != p->nchunks) { dlclose(h); return NULL; }
  return h;
}

/* The compiled tier for p: the cached object, else (if build) one built
** now; NULL with *status and the reason in why (EXIT_OK and no reason:
** not cached, and build is 0). */
static Game *compiled_open(const Program *p, int build, char *why, size_t n, int *status) {
  size_t len;
  *status = EXIT_OK;
  *why = 0;
  char *text = aot_generate(p, &len, why, n);
  if (!text) {   /* a look in the cache: a rule the tier cannot take is just not cached */
    *status = strcmp(why, "out of memory") ? build ? EXIT_USAGE : EXIT_OK : EXIT_LIMIT;
    return NULL;
  }
  const char *cc = getenv("GSOLVE_CC");
  if (!cc || !*cc) cc = "cc";
  const char *const key_argv[] = { cc, AOT_CFLAGS, NULL };
  uint64_t h[2];
  hash_text(text, len, key_argv, h);
  char name[64], dir[4096], so_path[4200];
  snprintf(name, sizeof name, "gsolve-%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
  int temp = 0;
  if (!build) {   /* a look in the cache, nothing made */
    const AotModule *m = NULL;
    void *handle = NULL;
    free(text);
    if (cache_dir(dir, sizeof dir, 0)) {
      snprintf(so_path, sizeof so_path, "%s/%s.so", dir, name);
      if (access(so_path, R_OK) == 0) handle = open_object(so_path, p, &m);
    }
    return handle ? vm_new_compiled(p, m, handle, release_object, status) : NULL;
  }
  if (!cache_dir(dir, sizeof dir, 1)) {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/gsolve-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
      snprintf(why, n, "no cache directory and no temporary one: %s", strerror(errno));
      free(text);
      *status = EXIT_IO;
      return NULL;
    }
    temp = 1;
  }
  snprintf(so_path, sizeof so_path, "%s/%s.so", dir, name);
  const AotModule *m = NULL;
  void *handle = temp ? NULL : open_object(so_path, p, &m);
  if (!handle) {
    *status = build_object(dir, name, so_path, text, len, cc, why, n);
    if (*status == EXIT_OK && !(handle = open_object(so_path, p, &m))) {
      const char *err = dlerror();
      snprintf(why, n, "cannot load '%s': %s", so_path, err ? err : "not a module of this gsolve");
      *status = EXIT_IO;
    }
  }
  free(text);
  if (temp) { remove(so_path); rmdir(dir); }   /* a loaded object stays mapped */
  if (!handle) return NULL;
  return vm_new_compiled(p, m, handle, release_object, status);
}

Game *compiled_new(const Program *p, char *why, size_t n, int *status) {
  return compiled_open(p, 1, why, n, status);
}

Game *compiled_cached(const Program *p, int *status) {
  char why[256];
  return compiled_open(p, 0, why, sizeof why, status);
}
