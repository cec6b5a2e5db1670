/*
** file.h -- reading and writing whole files without trusting them.
**
** Reading: a file is read in chunks into memory, never past a limit the
** caller gives (an endless input such as /dev/zero is refused as "too
** large" after limit + 1 bytes), and a stop (Ctrl-C, SIGTERM: util/stop.h)
** is honoured between chunks.  Readers that know a format's size from its
** header read the header first (file_fill), then exactly what it announces.
**
** Writing: every file gsolve writes (databases, strategies, books,
** --tree-dot's drawings, the compiled tier's cache) goes through this
** module.  Into a fresh temporary file beside the target, of a name no
** one can guess (FILE.tmp- and 16 random hex digits), created
** exclusively (O_CREAT|O_EXCL|O_NOFOLLOW: a planted symlink or file is
** never followed or reused), synced, renamed over the target, and the
** folder synced: the target's name never holds a partial file (a full
** disk, a kill), and its old content stays until the new one is
** complete.  The target is replaced only if it is missing, empty or a
** regular file of the same kind (its magic bytes), and never when it is
** a file this run reads (the game's rules, a database, a book): a
** symlink, a folder, a fifo or a device is refused, never followed.  On
** any failure, and on a second Ctrl-C (stop.c), the temporary file is
** removed.
**
** Every function reports its failure on `err` ("gsolve: error: ...") and
** returns an exit status (util/status.h).
*/
#ifndef GSOLVE_FILE_H
#define GSOLVE_FILE_H

#include <stddef.h>
#include <stdio.h>

#define FILE_CHUNK ((size_t)1 << 20)   /* bytes read between stop checks */
#define FILE_MAX_INPUTS 16              /* files read that no writer replaces */
#define FILE_RANDOM_BYTES 8             /* random bytes in a temporary name */

/* A file being read: data[0..len) so far, always NUL-terminated. */
typedef struct FileIn {
  FILE *f;
  const char *path;
  unsigned char *data;
  size_t len, cap;
  int eof;                /* the end of the file was reached */
} FileIn;

/* Opens `path`; EXIT_OK or EXIT_IO.  A regular file opened here is an
** input of the run: file_create refuses it as a target. */
int file_open(FileIn *in, const char *path, FILE *err);

/* Reads until in->len >= want or the end of the file (never more than
** `want` bytes in all).  EXIT_OK, EXIT_IO, EXIT_LIMIT (out of memory) or
** EXIT_INTERRUPTED / EXIT_LIMIT after a stop (util/stop.h). */
int file_fill(FileIn *in, size_t want, FILE *err);

/* Reads to the end of the file; more than `limit` bytes is refused:
** "'PATH' is too large (limit N MiB)", EXIT_LIMIT. */
int file_fill_all(FileIn *in, size_t limit, FILE *err);

/* Closes the file and frees the data (unless taken: set data to NULL). */
void file_close(FileIn *in);

/* The whole file, at most `limit` bytes, NUL-terminated into *data (the
** caller frees it). */
int file_read(const char *path, size_t limit, char **data, size_t *len, FILE *err);

/* A file being written: `f` writes into the temporary file. */
typedef struct FileOut {
  FILE *f;
  char *path;             /* the target */
  char *tmp;              /* the temporary file beside it */
} FileOut;

/* Checks that `path` may be replaced (missing, empty, or a regular file
** that begins with `magic`, of `magic_len` bytes) and creates the
** temporary file.  EXIT_OK, EXIT_IO or EXIT_USAGE (a target of another
** kind, named by `kind`, e.g. "gsolve database"). */
int file_create(FileOut *o, const char *path, const char *magic, size_t magic_len,
                const char *kind, FILE *err);

/* Flushes, syncs and renames the temporary file over the target, then
** syncs the folder.  After a stop, and on any failure, removes the
** temporary file instead (the target is left as it was).  Frees o. */
int file_commit(FileOut *o, FILE *err);

/* Removes the temporary file and frees o (after a failure of the caller). */
void file_abort(FileOut *o);

/* Copies s[0..n) into buf (`size` bytes, NUL-terminated, cut short if
** needed) with every byte outside printable ASCII, and the backslash,
** written as \xHH: text from a file is never echoed raw to a terminal.
** Returns buf. */
char *file_escape(const void *s, size_t n, char *buf, size_t size);

/* The physical memory in bytes (0 if unknown): no table larger than it
** can be loaded, which bounds what a reader accepts. */
size_t file_memory_bytes(void);

/* The memory a new allocation can still have, in bytes (0 if unknown):
** the kernel's estimate of available memory (MemAvailable), or less
** under an address-space limit (ulimit -v), which *limited then says. */
size_t file_memory_free(int *limited);

/* Reports on err that `flag` asked for `mib` MiB that the memory cannot
** give, with what is free: "gsolve: error: out of memory for --tt-size
** 100000: a table of 100000 MiB does not fit (about 2100 MiB free); give
** a smaller --tt-size".  Returns EXIT_LIMIT. */
int file_memory_refused(FILE *err, const char *flag, size_t mib, const char *what);

/* Notes on err (unless NULL) that a table asked for `mib` MiB by --tt-size
** halved until it fitted, to `got` bytes: "gsolve: note: --tt-size 4096
** MiB does not fit in memory (about 2100 MiB free): the table has 2048
** MiB".  Under ulimit -v the table's untouched pages count as used: they
** are added back to what was free. */
void file_memory_shrunk(FILE *err, size_t mib, size_t got);

/* What write(arg, f) writes, as a string to free; NULL when out of
** memory. */
char *file_text_of(void (*write)(void *arg, FILE *f), void *arg);

#endif
