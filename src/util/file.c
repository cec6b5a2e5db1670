/*
** file.c -- bounded reading and safe writing of whole files (file.h).
*/
#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

/* ------------------------------------------------------------------ */
/* Reading                                                            */
/* ------------------------------------------------------------------ */

/* The regular files this run has read (device and inode): no writer
** replaces one (--tree-dot GAME.game, --db of the game's own rules). */
static struct { dev_t dev; ino_t ino; } inputs[FILE_MAX_INPUTS];
static int ninputs;

static void note_input(FILE *f) {
  struct stat sb;
  if (ninputs == FILE_MAX_INPUTS || fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) return;
  for (int i = 0; i < ninputs; i++)
    if (inputs[i].dev == sb.st_dev && inputs[i].ino == sb.st_ino) return;
  inputs[ninputs].dev = sb.st_dev;
  inputs[ninputs++].ino = sb.st_ino;
}

static int is_input(const struct stat *sb) {
  for (int i = 0; i < ninputs; i++)
    if (inputs[i].dev == sb->st_dev && inputs[i].ino == sb->st_ino) return 1;
  return 0;
}

int file_open(FileIn *in, const char *path, FILE *err) {
  memset(in, 0, sizeof *in);
  in->path = path;
  if ((in->f = fopen(path, "rb")) == NULL)
    return diag_fail(err, EXIT_IO, "cannot read '%s': %s", path, strerror(errno));
  note_input(in->f);
  return EXIT_OK;
}

/* Room for `need` bytes and the NUL after them. */
static int reserve(FileIn *in, size_t need, FILE *err) {
  if (need < in->cap) return EXIT_OK;
  size_t cap = in->cap ? in->cap : 1 << 16;
  while (cap <= need) cap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
  unsigned char *d = realloc(in->data, cap);
  if (d == NULL)
    return diag_fail(err, EXIT_LIMIT, "out of memory reading '%s' (%zu bytes)", in->path, need);
  in->data = d;
  in->cap = cap;
  return EXIT_OK;
}

int file_fill(FileIn *in, size_t want, FILE *err) {
  int st = reserve(in, in->len, err);
  if (st != EXIT_OK) return st;
  in->data[in->len] = 0;
  while (in->len < want && !in->eof) {
    /* A stop between chunks: an endless input still ends on Ctrl-C. */
    if (stop_requested != STOP_NONE) {
      char msg[160];
      st = stop_message(msg, sizeof msg, in->len, "bytes read");
      return diag_fail(err, st, "reading '%s': %s", in->path, msg);
    }
    size_t chunk = want - in->len < FILE_CHUNK ? want - in->len : FILE_CHUNK;
    if ((st = reserve(in, in->len + chunk, err)) != EXIT_OK) return st;
    size_t got = fread(in->data + in->len, 1, chunk, in->f);
    in->len += got;
    in->data[in->len] = 0;
    if (got < chunk) {
      if (ferror(in->f) && errno == EINTR && stop_requested != STOP_NONE)
        continue;           /* a signal broke a blocked read: the stop above */
      if (ferror(in->f))
        return diag_fail(err, EXIT_IO, "cannot read '%s': %s", in->path, strerror(errno));
      in->eof = 1;
    }
  }
  return EXIT_OK;
}

int file_fill_all(FileIn *in, size_t limit, FILE *err) {
  int st = file_fill(in, limit == SIZE_MAX ? limit : limit + 1, err);
  if (st != EXIT_OK) return st;
  if (in->len > limit) {
    double mib = (double)limit / (1 << 20);
    return diag_fail(err, EXIT_LIMIT, "'%s' is too large (limit %.*f MiB)", in->path,
                     mib == (double)(uint64_t)mib ? 0 : 2, mib);
  }
  return EXIT_OK;
}

void file_close(FileIn *in) {
  if (in->f) fclose(in->f);
  free(in->data);
  memset(in, 0, sizeof *in);
}

int file_read(const char *path, size_t limit, char **data, size_t *len, FILE *err) {
  FileIn in;
  int st = file_open(&in, path, err);
  if (st == EXIT_OK) st = file_fill_all(&in, limit, err);
  if (st == EXIT_OK) {
    *data = (char *)in.data;
    *len = in.len;
    in.data = NULL;
  }
  file_close(&in);
  return st;
}

/* ------------------------------------------------------------------ */
/* Writing                                                            */
/* ------------------------------------------------------------------ */

/* Refuses to replace something that is not a file of the same kind: a
** .game source given as --db must not be overwritten, nor any file this
** run reads, nor a symlink (lstat: the link's target is never touched),
** a folder, a fifo or a device. */
static int check_target(const char *path, const char *magic, size_t magic_len,
                        const char *kind, FILE *err) {
  struct stat sb;
  if (lstat(path, &sb) != 0) {
    if (errno == ENOENT) return EXIT_OK;
    return diag_fail(err, EXIT_IO, "cannot write '%s': %s", path, strerror(errno));
  }
  if (!S_ISREG(sb.st_mode))
    return diag_fail(err, EXIT_USAGE, "'%s' exists and is not a regular file; not replaced",
                     path);
  if (is_input(&sb))
    return diag_fail(err, EXIT_USAGE, "'%s' is a file this run reads; not replaced (choose "
                     "another name)", path);
  if (sb.st_size == 0) return EXIT_OK;
  /* The magic's first bytes tell the kind (a longer magic, such as a
  ** strategy file's text line, is compared as far as the buffer goes). */
  unsigned char head[32];
  size_t want = magic_len < sizeof head ? magic_len : sizeof head;
  FILE *f = fopen(path, "rb");
  size_t got = f ? fread(head, 1, want, f) : 0;
  if (f) fclose(f);
  if (got != want || memcmp(head, magic, want) != 0)
    return diag_fail(err, EXIT_USAGE, "'%s' exists and is not a %s; not replaced (remove it "
                     "or choose another name)", path, kind);
  return EXIT_OK;
}

/* n unpredictable bytes: getrandom, else /dev/urandom, else the clock
** mixed (an old kernel without either). */
static void file_random(void *buf, size_t n) {
  unsigned char *p = buf;
  size_t got = 0;
  while (got < n) {
    ssize_t r = getrandom(p + got, n - got, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += (size_t)r;
  }
  if (got == n) return;
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    while (got < n) {
      ssize_t r = read(fd, p + got, n - got);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      got += (size_t)r;
    }
    close(fd);
  }
  static uint64_t mix;
  for (; got < n; got++) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    mix = (mix ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 32) * 0x9e3779b97f4a7c15ULL;
    p[got] = (unsigned char)(mix >> 56);
  }
}

/* Creates the new file prefix + 16 random hex digits + suffix (O_CREAT,
** O_EXCL, O_NOFOLLOW; `mode`, less the umask) and returns its descriptor,
** with its name in *path (malloc'd); -1 with errno when it cannot. */
static int file_create_unique(const char *prefix, const char *suffix, int mode, char **path) {
  size_t n = strlen(prefix) + strlen(suffix) + 2 * FILE_RANDOM_BYTES + 1;
  if ((*path = malloc(n)) == NULL) { errno = ENOMEM; return -1; }
  for (int tries = 0; tries < 100; tries++) {
    unsigned char r[FILE_RANDOM_BYTES];
    char hex[2 * FILE_RANDOM_BYTES + 1];
    file_random(r, sizeof r);
    for (size_t i = 0; i < sizeof r; i++) snprintf(hex + 2 * i, 3, "%02x", r[i]);
    snprintf(*path, n, "%s%s%s", prefix, hex, suffix);
    int fd = open(*path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
    if (fd >= 0) return fd;
    if (errno != EEXIST) break;
  }
  int e = errno;
  free(*path);
  *path = NULL;
  errno = e;
  return -1;
}

/* Creates the temporary file beside the target: a name no one can guess
** (a planted file or symlink at a predictable name is never reused or
** followed), created exclusively. */
static int create_temporary(FileOut *o, FILE *err) {
  size_t n = strlen(o->path) + 8;
  char *prefix = malloc(n);
  if (prefix == NULL) return diag_out_of_memory(err);
  snprintf(prefix, n, "%s.tmp-", o->path);
  int fd = file_create_unique(prefix, "", 0644, &o->tmp);
  int e = errno;
  free(prefix);
  if (fd >= 0) {
    /* From here a second Ctrl-C removes it (stop.c). */
    stop_set_cleanup(o->tmp);
    if ((o->f = fdopen(fd, "wb")) != NULL) return EXIT_OK;
    e = errno;
    close(fd);
    unlink(o->tmp);
    stop_set_cleanup(NULL);
    free(o->tmp);
    o->tmp = NULL;
  }
  if (e == ENOMEM) return diag_out_of_memory(err);
  return diag_fail(err, EXIT_IO, "cannot write '%s': %s", o->path, strerror(e));
}

int file_create(FileOut *o, const char *path, const char *magic, size_t magic_len,
                const char *kind, FILE *err) {
  memset(o, 0, sizeof *o);
  int st = check_target(path, magic, magic_len, kind, err);
  if (st != EXIT_OK) return st;
  if ((o->path = strdup(path)) == NULL) return diag_out_of_memory(err);
  if ((st = create_temporary(o, err)) != EXIT_OK) file_abort(o);
  return st;
}

void file_abort(FileOut *o) {
  if (o->f) fclose(o->f);
  if (o->tmp && o->f) unlink(o->tmp);
  stop_set_cleanup(NULL);
  free(o->tmp);
  free(o->path);
  memset(o, 0, sizeof *o);
}

/* Syncs the folder holding `path`, so that the rename survives a crash. */
static int sync_folder(const char *path) {
  /* On the stack: the file is in place already, and a failed allocation
  ** here must not turn a written file into an error. */
  char dir[PATH_MAX];
  const char *slash = strrchr(path, '/');
  size_t n = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 1;
  if (n >= sizeof dir) { errno = ENAMETOOLONG; return -1; }
  memcpy(dir, slash ? path : ".", n);
  dir[n] = 0;
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -1;
  /* Some file systems cannot sync a folder (EINVAL): not a failure. */
  int rc = fsync(fd) == 0 || errno == EINVAL ? 0 : -1;
  close(fd);
  return rc;
}

int file_commit(FileOut *o, FILE *err) {
  int e = 0;
  if (fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0) e = errno ? errno : EIO;
  off_t written = ftello(o->f);     /* for a stop's message (it said 0) */
  if (fclose(o->f) != 0 && !e) e = errno;
  o->f = NULL;
  if (!e && stop_requested != STOP_NONE) {
    /* Stopped while writing: no result, the target stays as it was. */
    unlink(o->tmp);
    char msg[160];
    int st = stop_message(msg, sizeof msg, written > 0 ? (uint64_t)written : 0, "bytes written");
    st = diag_fail(err, st, "'%s' not written: %s", o->path, msg);
    o->f = NULL;
    file_abort(o);
    return st;
  }
  if (!e && rename(o->tmp, o->path) != 0) e = errno;
  if (e) {
    unlink(o->tmp);
    int st = diag_fail(err, EXIT_IO, "cannot write '%s': %s", o->path, strerror(e));
    file_abort(o);
    return st;
  }
  stop_set_cleanup(NULL);
  int st = sync_folder(o->path) == 0 ? EXIT_OK
           : diag_fail(err, EXIT_IO, "cannot sync the folder of '%s': %s", o->path,
                       strerror(errno));
  file_abort(o);    /* frees; the temporary name is gone (renamed) */
  return st;
}

/* ------------------------------------------------------------------ */
/* Messages and memory                                                */
/* ------------------------------------------------------------------ */

char *file_escape(const void *s, size_t n, char *buf, size_t size) {
  const unsigned char *p = s;
  size_t w = 0;
  for (size_t i = 0; i < n && size > 0; i++) {
    if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\') {
      if (w + 1 >= size) break;
      buf[w++] = (char)p[i];
    } else {
      if (w + 4 >= size) break;
      snprintf(buf + w, 5, "\\x%02x", p[i]);
      w += 4;
    }
  }
  if (size > 0) buf[w] = 0;
  return buf;
}

size_t file_memory_bytes(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || size <= 0) return 0;
  if ((uint64_t)pages > SIZE_MAX / (uint64_t)size) return SIZE_MAX;
  return (size_t)pages * (size_t)size;
}

size_t file_memory_free(int *limited) {
  size_t avail = 0;
  char line[256];
  FILE *f = fopen("/proc/meminfo", "r");
  *limited = 0;
  if (f != NULL) {
    unsigned long long kib;
    while (fgets(line, sizeof line, f) != NULL)
      if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
        avail = kib > SIZE_MAX / 1024 ? SIZE_MAX : (size_t)kib * 1024;
        break;
      }
    fclose(f);
  }
  if (avail == 0) avail = file_memory_bytes();
  /* Under ulimit -v, the room left in the address space. */
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    size_t used = 0;
    FILE *s = fopen("/proc/self/status", "r");
    if (s != NULL) {
      unsigned long long kib;
      while (fgets(line, sizeof line, s) != NULL)
        if (sscanf(line, "VmSize: %llu kB", &kib) == 1) used = (size_t)kib * 1024;
      fclose(s);
    }
    size_t room = (size_t)rl.rlim_cur > used ? (size_t)rl.rlim_cur - used : 0;
    if (avail == 0 || room < avail) {
      avail = room;
      *limited = 1;
    }
  }
  return avail;
}

int file_memory_refused(FILE *err, const char *flag, size_t mib, const char *what) {
  int limited;
  size_t free_mib = file_memory_free(&limited) >> 20;
  char room[96] = "";
  if (free_mib > 0)
    snprintf(room, sizeof room, " (about %zu MiB %s)", free_mib,
             limited ? "left under the address-space limit, ulimit -v" : "free");
  return diag_fail(err, EXIT_LIMIT, "out of memory for %s %zu: %s of %zu MiB does not fit%s; "
                   "give a smaller %s", flag, mib, what, mib, room, flag);
}

void file_memory_shrunk(FILE *err, size_t mib, size_t got) {
  int limited;
  size_t free_bytes = file_memory_free(&limited);
  if (limited) free_bytes += got;
  diag_plain(err, "note", "--tt-size %zu MiB does not fit in memory (about %zu MiB %s): the table "
             "has %zu MiB", mib, free_bytes >> 20, limited ? "left under ulimit -v" : "free", got >> 20);
}

char *file_text_of(void (*write)(void *arg, FILE *f), void *arg) {
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  if (m == NULL) return NULL;
  write(arg, m);
  if (fclose(m) != 0) {
    free(text);
    return NULL;
  }
  return text;
}
