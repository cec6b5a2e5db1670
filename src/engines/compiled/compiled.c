/*
** compiled.c -- the compiled tier (--engine compiled): a game's bytecode
** translated to C (src/vm/aot_gen.c), built by the system's C compiler as
** a shared object, loaded with dlopen and run by the VM in place of its
** interpreter (src/vm/aot.c).
**
** The cache.  Objects are cached under the SHA-256 of their C text and
** the compiler's command line (the text holds the runtime header, so
** gsolve's build, the bytecode and every program table it reads: the
** hash names exactly what the object computes).  The folder is
** $GSOLVE_CACHE, else $XDG_CACHE_HOME/gsolve, else ~/.cache/gsolve, made
** 0700 when missing.  Loading an object runs its code (a constructor runs
** inside dlopen, before any check), so, as ssh and ccache do, the folder
** is used only when it is a folder owned by this user and writable by no
** one else; otherwise one warning, and a private temporary folder
** (mkdtemp, 0700) serves the run and is removed once the object is
** loaded.  With the folder safe, an object is still loaded only if its
** record says this gsolve built it from this C text:
**
**   NAME.so    the object (mode 0600)
**   NAME.sum   its record, written after it through util/file.h:
**                gsolve compiled object 1
**                source <SHA-256 of the C text and the compiler's command>
**                object <SHA-256 of NAME.so's bytes>
**
** so that an object planted in the folder, damaged, or another game's
** renamed (the k=2 Tic-tac-toe object under the k=3 name answered "win in
** 3") is never opened: it is built again, with a warning.
**
** A build happens in a private folder NAME.build-XXXXXX (mkdtemp, 0700)
** inside the cache: the C text (NAME.c, created exclusively, 0600), the
** compiler's output.  The compiler ($GSOLVE_CC, else cc) runs in a process
** group of its own, for at most $GSOLVE_CC_TIMEOUT seconds (default
** AOT_BUILD_SECONDS: then a warning and the VM), and is killed with its
** children on a stop (Ctrl-C, SIGTERM).  The object is loaded from the
** build folder first, so that a compiler that writes junk leaves nothing
** in the cache; then it is made 0600 (whatever the umask), hashed,
** renamed into place and recorded, and the build folder removed, on
** success and on every failure.  With $GSOLVE_KEEP_C set, the C text of
** a newly built object stays beside it (NAME.c).
*/
#include "engines/engines.h"
#include "util/clock.h"
#include "util/file.h"
#include "util/sha256.h"
#include "util/status.h"
#include "util/stop.h"
#include "vm/aot_gen.h"
#include "vm/vm.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define AOT_CFLAGS "-O2", "-shared", "-fPIC", "-w"
#define AOT_BUILD_SECONDS 300          /* a compiler that takes longer is stopped */
#define AOT_MAX_OBJECT (256u << 20)    /* an object larger than this is not hashed */
#define AOT_RECORD_MAGIC "gsolve compiled object 1\n"
#define AOT_DIR 4096                   /* the cache folder's path */
#define AOT_PATH (AOT_DIR + 512)       /* a path in it, or in a build folder of it */

/* One warning per reason and run (the cache folder is looked at by every
** engine made, and GTP makes several). */
static int warned_folder, warned_record;
/* The compiler's error output too goes to /dev/null (an automatic build,
** whose failure is silent: compiled_build_quietly). */
static int cc_silent;

/* The SHA-256 of the C text and the compiler's command line (each
** argument with its NUL), in hex. */
static void hash_source(const char *s, size_t n, const char *const *argv, char hex[SHA256_HEX]) {
  Sha256 h;
  unsigned char out[SHA256_BYTES];
  sha256_init(&h);
  sha256_update(&h, s, n);
  for (int a = 0; argv[a]; a++) sha256_update(&h, argv[a], strlen(argv[a]) + 1);
  sha256_final(&h, out);
  sha256_to_hex(out, hex);
}

/* mkdir -p of a folder path (in place; restores the slashes), each new
** folder 0700.  0 and errno when one cannot be made. */
static int make_dirs(char *path) {
  for (char *c = path + 1; ; c++) {
    if (*c == '/' || *c == 0) {
      char save = *c;
      *c = 0;
      int r = mkdir(path, 0700);
      *c = save;
      if (r != 0 && errno != EEXIST) return 0;
      if (!save) break;
    }
  }
  return 1;
}

/* The cache folder's path into dir; 0 when no variable gives one. */
static int cache_path(char *dir, size_t n) {
  const char *env = getenv("GSOLVE_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int len;
  if (env && *env) len = snprintf(dir, n, "%s", env);
  else if (xdg && *xdg) len = snprintf(dir, n, "%s/gsolve", xdg);
  else if (home && *home) len = snprintf(dir, n, "%s/.cache/gsolve", home);
  else return 0;
  return len > 0 && (size_t)len < n;
}

/* Why the folder dir cannot hold objects to load, or NULL when it can: a
** folder of this user's, writable by no one else, that this user can
** write and search. */
static const char *unsafe_folder(const char *dir, char *buf, size_t n) {
  struct stat sb;
  if (stat(dir, &sb) != 0) {
    snprintf(buf, n, "it cannot be made (%s)", strerror(errno));
    return buf;
  }
  if (!S_ISDIR(sb.st_mode)) return "it is not a folder";
  if (sb.st_uid != geteuid()) return "it belongs to another user";
  if (sb.st_mode & (S_IWGRP | S_IWOTH)) return "others may write to it";
  if (access(dir, W_OK | X_OK) != 0) return "it cannot be written";
  return NULL;
}

/* The cache folder in dir, made when missing if `make`; 0 when there is
** none to use (a warning says why, once, when one is set but unsafe). */
static int cache_dir(char *dir, size_t n, int make) {
  char buf[160];
  if (!cache_path(dir, n)) return 0;
  if (make && !make_dirs(dir)) {
    if (!warned_folder++)
      diag_plain(stderr, "warning", "the compiled tier's cache '%s' cannot be made (%s); "
                 "using a private temporary folder", dir, strerror(errno));
    return 0;
  }
  struct stat sb;
  if (!make && stat(dir, &sb) != 0) return 0;   /* a look: none yet */
  const char *why = unsafe_folder(dir, buf, sizeof buf);
  if (why == NULL) return 1;
  if (!warned_folder++)
    diag_plain(stderr, "warning", "the compiled tier's cache '%s' is not used: %s (it must "
               "be a folder of yours that no one else may write: chmod 700 it, or set "
               "GSOLVE_CACHE)%s", dir, why, make ? "; using a private temporary folder" : "");
  return 0;
}

/* The SHA-256 of the regular file at path (not followed if a symlink,
** owned by this user), in hex; 0 when it cannot be read as such. */
static int hash_object(const char *path, char hex[SHA256_HEX]) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return 0;
  struct stat sb;
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid() ||
      (sb.st_mode & (S_IWGRP | S_IWOTH)) || (uint64_t)sb.st_size > AOT_MAX_OBJECT) {
    close(fd);
    return 0;
  }
  Sha256 h;
  unsigned char buf[1 << 16], out[SHA256_BYTES];
  ssize_t r;
  sha256_init(&h);
  while ((r = read(fd, buf, sizeof buf)) != 0) {
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) { close(fd); return 0; }
    sha256_update(&h, buf, (size_t)r);
  }
  close(fd);
  sha256_final(&h, out);
  sha256_to_hex(out, hex);
  return 1;
}

/* 1 when the record at rec_path says the object at so_path was built by
** gsolve from the source of hash `source` and its bytes still hash to
** what was recorded. */
static int object_recorded(const char *rec_path, const char *so_path, const char *source) {
  char text[512], object[SHA256_HEX], want[256];
  /* Read here, not by file_read: a record read is replaced when its
  ** object is built again (file_create refuses the run's inputs). */
  int fd = open(rec_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t len = read(fd, text, sizeof text);
  close(fd);
  snprintf(want, sizeof want, "%ssource %s\nobject ", AOT_RECORD_MAGIC, source);
  size_t wn = strlen(want);
  return len == (ssize_t)(wn + SHA256_HEX) && memcmp(text, want, wn) == 0 &&
         text[len - 1] == '\n' && hash_object(so_path, object) &&
         memcmp(text + wn, object, SHA256_HEX - 1) == 0;
}

/* Writes the record of an object (util/file.h: a temporary file renamed). */
static int write_record(const char *rec_path, const char *source, const char *object) {
  FileOut o;
  if (file_create(&o, rec_path, AOT_RECORD_MAGIC, strlen(AOT_RECORD_MAGIC), "record of a "
                  "compiled object", stderr) != EXIT_OK)
    return 0;
  fprintf(o.f, "%ssource %s\nobject %s\n", AOT_RECORD_MAGIC, source, object);
  return file_commit(&o, stderr) == EXIT_OK;
}

/* The longest a build may take: $GSOLVE_CC_TIMEOUT seconds, else
** AOT_BUILD_SECONDS. */
static long build_seconds(void) {
  const char *s = getenv("GSOLVE_CC_TIMEOUT");
  char *end;
  long v = s && *s ? strtol(s, &end, 10) : 0;
  return s && *s && *end == 0 && v > 0 && v <= 86400 ? v : AOT_BUILD_SECONDS;
}

enum { CC_OK, CC_MISSING = -1, CC_TIMEOUT = -2, CC_STOPPED = -3 };

/* Runs argv in a process group of its own, with its output to /dev/null,
** for at most `seconds`: its exit status, or CC_MISSING (errno set),
** CC_TIMEOUT or CC_STOPPED (a stop: Ctrl-C, SIGTERM), the group killed. */
static int run_compiler(char *const argv[], long seconds) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  if (posix_spawn_file_actions_init(&fa) != 0) return CC_MISSING;
  if (posix_spawnattr_init(&at) != 0) {
    posix_spawn_file_actions_destroy(&fa);
    return CC_MISSING;
  }
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  if (cc_silent) posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&at, 0);
  pid_t pid;
  int err = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  if (err != 0) { errno = err; return CC_MISSING; }
  stop_set_child(pid);                  /* a second Ctrl-C kills it too */
  struct timespec nap = { 0, 10 * 1000 * 1000 };
  double t0 = clock_seconds();
  int st, r;
  for (;;) {
    r = waitpid(pid, &st, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) break;
    int late = clock_seconds() - t0 >= (double)seconds;
    if (stop_requested != STOP_NONE || late) {
      kill(-pid, SIGKILL);
      while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
      stop_set_child(0);
      return late && stop_requested == STOP_NONE ? CC_TIMEOUT : CC_STOPPED;
    }
    nanosleep(&nap, NULL);
  }
  stop_set_child(0);
  if (r < 0) return 128;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 127) { errno = ENOENT; return CC_MISSING; }   /* a shell's "not found" */
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Removes the build folder and whatever is in it (it holds no folders). */
static void remove_build(const char *bdir) {
  DIR *d = opendir(bdir);
  if (d != NULL) {
    struct dirent *e;
    char path[AOT_PATH];
    while ((e = readdir(d)) != NULL) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      snprintf(path, sizeof path, "%s/%s", bdir, e->d_name);
      unlink(path);
    }
    closedir(d);
  }
  rmdir(bdir);
}

/* Writes the C text into the new file path (exclusively, 0600). */
static int write_source(const char *path, const char *text, size_t len) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return 0;
  size_t done = 0;
  while (done < len) {
    ssize_t w = write(fd, text + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      int e = errno;
      close(fd);
      errno = w == 0 ? EIO : e;
      return 0;
    }
    done += (size_t)w;
  }
  return close(fd) == 0;
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

/* The object in dir for `name` if its record names this source and its
** bytes: opened, else NULL.  An object there without a true record is
** never opened (a warning says so, once). */
static void *open_cached(const char *dir, const char *name, const char *source, const Program *p,
                         const AotModule **m, int build) {
  char so_path[AOT_PATH], rec_path[AOT_PATH];
  snprintf(so_path, sizeof so_path, "%s/%s.so", dir, name);
  snprintf(rec_path, sizeof rec_path, "%s/%s.sum", dir, name);
  struct stat sb;
  if (lstat(so_path, &sb) != 0) return NULL;
  if (!object_recorded(rec_path, so_path, source)) {
    if (!warned_record++)
      diag_plain(stderr, "warning", "'%s' is not an object this gsolve built from these "
                 "rules (its record '%s' is missing or disagrees); not loaded%s", so_path, rec_path,
                 build ? ", built again" : "");
    return NULL;
  }
  return open_object(so_path, p, m);
}

/* Builds the object for `name` in dir (the cache, or a private temporary
** folder when `temp`) and opens it: the handle, or NULL with *status and
** the reason in why (*status EXIT_OK: the compiler ran out of time, the
** VM should run instead). */
static void *build_object(const char *dir, int temp, const char *name, const char *source,
                          const char *text, size_t len, const char *cc, const Program *p,
                          const AotModule **m, char *why, size_t n, int *status) {
  char bdir[AOT_DIR + 128], c_path[AOT_PATH], tmp_so[AOT_PATH], so_path[AOT_PATH], rec_path[AOT_PATH];
  snprintf(bdir, sizeof bdir, "%s/%s.build-XXXXXX", dir, name);
  if (!mkdtemp(bdir)) {
    snprintf(why, n, "cannot make a folder in '%s': %s", dir, strerror(errno));
    *status = EXIT_IO;
    return NULL;
  }
  snprintf(c_path, sizeof c_path, "%s/%s.c", bdir, name);
  snprintf(tmp_so, sizeof tmp_so, "%s/%s.so", bdir, name);
  snprintf(so_path, sizeof so_path, "%s/%s.so", dir, name);
  snprintf(rec_path, sizeof rec_path, "%s/%s.sum", dir, name);
  void *handle = NULL;
  if (!write_source(c_path, text, len)) {
    snprintf(why, n, "cannot write '%s': %s", c_path, strerror(errno));
    *status = EXIT_IO;
    goto done;
  }
  char *argv[] = { (char *)cc, AOT_CFLAGS, "-o", tmp_so, c_path, NULL };
  long seconds = build_seconds();
  int st = run_compiler(argv, seconds);
  if (st == CC_MISSING) {
    snprintf(why, n, "no C compiler ('%s': %s; set GSOLVE_CC)", cc, strerror(errno));
    *status = EXIT_USAGE;
    goto done;
  }
  if (st == CC_TIMEOUT) {
    snprintf(why, n, "the C compiler '%s' did not finish in %ld s (stopped; GSOLVE_CC_TIMEOUT "
             "sets the bound)", cc, seconds);
    *status = EXIT_OK;
    goto done;
  }
  if (st == CC_STOPPED) {
    snprintf(why, n, "interrupted while the C compiler ran (stopped); no result");
    *status = EXIT_INTERRUPTED;
    goto done;
  }
  if (st != 0) {
    snprintf(why, n, "the C compiler '%s' failed (status %d)", cc, st);
    *status = EXIT_USAGE;
    goto done;
  }
  /* Owner-only whatever the umask, then loaded from the private folder:
  ** junk never reaches the cache's name. */
  char object[SHA256_HEX];
  int fd = open(tmp_so, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  int ok = fd >= 0 && fchmod(fd, 0600) == 0;
  if (fd >= 0) close(fd);
  if (!ok || !hash_object(tmp_so, object) || !(handle = open_object(tmp_so, p, m))) {
    const char *err = ok ? dlerror() : NULL;
    snprintf(why, n, "the C compiler '%s' made no loadable object: %s", cc,
             err ? err : "not a module of this gsolve");
    *status = EXIT_IO;
    goto done;
  }
  if (!temp) {
    /* The object first, then its record: a run stopped between leaves an
    ** object without a record, which is built again. */
    if (rename(tmp_so, so_path) == 0) write_record(rec_path, source, object);
    const char *keep = getenv("GSOLVE_KEEP_C");   /* the C text stays, to read */
    if (keep && *keep) {
      char kept[AOT_PATH];
      snprintf(kept, sizeof kept, "%s/%s.c", dir, name);
      rename(c_path, kept);
    }
  }
  *status = EXIT_OK;
done:
  remove_build(bdir);       /* a loaded object stays mapped */
  return handle;
}

/* The compiled tier for p: the cached object, else (if build) one built
** now; NULL with *status and the reason in why (EXIT_OK and no reason:
** not cached, and build is 0; EXIT_OK and a reason: built too slowly,
** the VM runs instead). */
static Game *compiled_open(const Program *p, int build, char *why, size_t n, int *status) {
  size_t len;
  *status = EXIT_OK;
  *why = 0;
  char *text = aot_generate(p, &len, why, n, status);
  if (!text) {   /* a look in the cache: a rule the tier cannot take is just not cached */
    if (*status != EXIT_LIMIT && !build) *status = EXIT_OK;
    return NULL;
  }
  const char *cc = getenv("GSOLVE_CC");
  if (!cc || !*cc) cc = "cc";
  const char *const key_argv[] = { cc, AOT_CFLAGS, NULL };
  char source[SHA256_HEX], name[64], dir[AOT_DIR];
  hash_source(text, len, key_argv, source);
  snprintf(name, sizeof name, "gsolve-%.32s", source);
  const AotModule *m = NULL;
  void *handle = NULL;
  int safe = cache_dir(dir, sizeof dir, build);
  if (safe) handle = open_cached(dir, name, source, p, &m, build);
  if (!handle && build) {
    int temp = !safe;
    if (temp) {
      const char *tmp = getenv("TMPDIR");
      snprintf(dir, sizeof dir, "%s/gsolve-XXXXXX", tmp && *tmp ? tmp : "/tmp");
      if (!mkdtemp(dir)) {
        snprintf(why, n, "no cache folder and no temporary one: %s", strerror(errno));
        free(text);
        *status = EXIT_IO;
        return NULL;
      }
    }
    handle = build_object(dir, temp, name, source, text, len, cc, p, &m, why, n, status);
    if (temp) rmdir(dir);
  }
  free(text);
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

Game *compiled_build_quietly(const Program *p, char *why, size_t n, int *status) {
  cc_silent = 1;
  Game *g = compiled_open(p, 1, why, n, status);
  cc_silent = 0;
  return g;
}
