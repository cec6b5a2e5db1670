/*
** serve.c -- `gsolve serve [FILE ...]`: an HTTP server (libmicrohttpd)
** for the web explorer of docs/web.md.  It holds no solver: each
** analysis request runs this very program as a child (fork, exec of
** /proc/self/exe) with an argument vector made of checked fields only
** (serve_request.c): the served game's own path, `--position MOVES`,
** `-D NAME=VALUE` for the game's declared parameters, the mode and the
** limits.  The child's JSON is the answer.  A child runs under rlimits
** (address space, CPU), its own --time-limit and a wall clock after
** which it is killed; a rule failing in it, or a crash, is a 4xx or 5xx
** answer and the server goes on.
*/
#define _DEFAULT_SOURCE         /* realpath */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/serve.h"
#include "cli/serve_request.h"
#include "lang/ast.h"
#include "util/clock.h"
#include "util/diag.h"
#include "util/file.h"

#define SERVE_DEFAULT_PORT     8080
#define SERVE_DEFAULT_SECONDS  10      /* --time-limit of an analysis */
#define SERVE_MAX_SECONDS      3600
#define SERVE_DEFAULT_MIB      1024    /* --memory: a child's address space */
#define SERVE_DEFAULT_JOBS     4       /* --jobs: children at once */
#define SERVE_MAX_JOBS         64
#define SERVE_MAX_CONNECTIONS  64      /* connections at once */
#define SERVE_CONN_MEMORY      65536   /* bytes of a request's head, at most */
#define SERVE_MAX_OUTPUT       (16u << 20)   /* bytes a child may print */
#define SERVE_MAX_STDERR       8192
#define SERVE_QUEUE_SECONDS    30      /* a request waits this long for a job */
#define SERVE_MAX_GAMES        256
#define SERVE_MAX_ARGS         (16 + 2 * SERVE_MAX_PARAMS)

/* AddressSanitizer reserves terabytes of address space for its shadow:
** under it (make asan) a child gets no RLIMIT_AS, only its own --memory. */
#if defined(__SANITIZE_ADDRESS__)
#define SERVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SERVE_ASAN 1
#endif
#endif
#ifndef SERVE_ASAN
#define SERVE_ASAN 0
#endif

typedef struct Server {
  ServedGame games[SERVE_MAX_GAMES];
  int ngames;
  char exe[PATH_MAX];             /* this program, for the children */
  char dot[PATH_MAX];             /* Graphviz's dot, or "" */
  char tmpdir[64];                /* the server's own files (strategies, trees) */
  const char *db;                 /* --db FILE: for the first game */
  unsigned seconds;               /* --time-limit */
  long mib;                       /* --memory */
  int jobs;
  sem_t slots;                    /* children that may run at once */
  pthread_mutex_t lock;
  pid_t running[SERVE_MAX_JOBS];  /* children now running, 0: free */
  unsigned long serial;           /* names of temporary files */
  volatile sig_atomic_t stopping;
} Server;

static Server S;

/* ---- children ----------------------------------------------------- */

typedef struct Output {
  char *data;
  size_t len, cap, max;
} Output;

static int out_add(Output *o, const char *b, size_t n) {
  if (o->len + n > o->max) n = o->max - o->len;
  if (o->len + n + 1 > o->cap) {
    size_t cap = o->cap ? o->cap * 2 : 4096;
    while (cap < o->len + n + 1) cap *= 2;
    char *d = realloc(o->data, cap);
    if (d == NULL) return -1;
    o->data = d;
    o->cap = cap;
  }
  memcpy(o->data + o->len, b, n);
  o->len += n;
  o->data[o->len] = '\0';
  return 0;
}

static void track(pid_t pid, pid_t old) {
  pthread_mutex_lock(&S.lock);
  for (int i = 0; i < SERVE_MAX_JOBS; i++)
    if (S.running[i] == old) { S.running[i] = pid; break; }
  pthread_mutex_unlock(&S.lock);
}

enum { CHILD_TIMEOUT = -1000, CHILD_FAILED = -1001 };

/* Runs argv (argv[0] a full path) with the limits; its stdout into out,
** its stderr into err.  Returns its exit status, -signal when a signal
** ended it, CHILD_TIMEOUT when the wall clock did, CHILD_FAILED when it
** could not start. */
static int run_child(char *const argv[], double seconds, Output *out, Output *err) {
  int po[2], pe[2];
  if (pipe(po) != 0) return CHILD_FAILED;
  if (pipe(pe) != 0) {
    close(po[0]); close(po[1]);
    return CHILD_FAILED;
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
    return CHILD_FAILED;
  }
  if (pid == 0) {                 /* async-signal-safe calls only */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    setpgid(0, 0);
    int nul = open("/dev/null", O_RDONLY);
    if (nul >= 0) dup2(nul, 0);
    dup2(po[1], 1);
    dup2(pe[1], 2);
    for (int fd = 3; fd < 1024; fd++) close(fd);
    struct rlimit as = { (rlim_t)S.mib << 20, (rlim_t)S.mib << 20 };
    struct rlimit cpu = { (rlim_t)seconds + 2, (rlim_t)seconds + 4 };
    struct rlimit core = { 0, 0 };
    if (!SERVE_ASAN) setrlimit(RLIMIT_AS, &as);
    setrlimit(RLIMIT_CPU, &cpu);
    setrlimit(RLIMIT_CORE, &core);
    execv(argv[0], argv);
    _exit(127);
  }
  track(pid, 0);
  close(po[1]);
  close(pe[1]);
  double deadline = clock_seconds() + seconds + 2;
  int timed_out = 0, open_fds = 2;
  struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
  char buf[65536];
  while (open_fds > 0) {
    double left = deadline - clock_seconds();
    if (left <= 0 || S.stopping) {
      timed_out = 1;
      break;
    }
    int n = poll(fds, 2, left > 0.25 ? 250 : (int)(left * 1000) + 1);
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; i < 2 && n > 0; i++) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t k = read(fds[i].fd, buf, sizeof buf);
      if (k > 0) {
        Output *o = i == 0 ? out : err;
        if (o->len + (size_t)k > o->max && i == 0) { timed_out = 2; open_fds = 0; break; }
        if (out_add(o, buf, (size_t)k) != 0) { timed_out = 2; open_fds = 0; break; }
      } else if (k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN)) {
        close(fds[i].fd);
        fds[i].fd = -1;
        open_fds--;
      }
    }
  }
  if (timed_out) kill(-pid, SIGKILL), kill(pid, SIGKILL);
  for (int i = 0; i < 2; i++)
    if (fds[i].fd >= 0) close(fds[i].fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  track(0, pid);
  if (timed_out == 1) return CHILD_TIMEOUT;
  if (timed_out == 2) return -SIGXFSZ;
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  return WEXITSTATUS(status) == 127 ? CHILD_FAILED : WEXITSTATUS(status);
}

/* ---- answers ------------------------------------------------------ */

typedef struct Answer {
  int status;
  const char *type;
  char *body;                     /* malloc'ed */
  size_t len;
} Answer;

static void json_escape_to(Output *o, const char *s) {
  out_add(o, "\"", 1);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    char e[8];
    if (c == '"' || c == '\\') { e[0] = '\\'; e[1] = (char)c; out_add(o, e, 2); }
    else if (c == '\n') out_add(o, "\\n", 2);
    else if (c < 0x20) { snprintf(e, sizeof e, "\\u%04x", c); out_add(o, e, 6); }
    else out_add(o, (const char *)&c, 1);
  }
  out_add(o, "\"", 1);
}

static void answer_error(Answer *a, int status, const char *msg) {
  Output o = { NULL, 0, 0, (size_t)1 << 20 };
  char clean[SERVE_MAX_STDERR + 256];
  /* A message may quote what a request said: ASCII alone, so that the
  ** answer is valid JSON (UTF-8) whatever bytes were sent. */
  size_t n = 0;
  for (; msg[n] && n + 1 < sizeof clean; n++) clean[n] = (unsigned char)msg[n] < 0x80 ? msg[n] : '?';
  clean[n] = '\0';
  out_add(&o, "{\"error\":", 9);
  json_escape_to(&o, clean);
  char tail[32];
  snprintf(tail, sizeof tail, ",\"status\":%d}\n", status);
  out_add(&o, tail, strlen(tail));
  a->status = status;
  a->type = "application/json";
  a->body = o.data;
  a->len = o.len;
}

/* A child's stderr made a message: its "gsolve: error: " cut, at most
** a few lines. */
static void child_error(Answer *a, int status, const char *prefix, Output *err) {
  char msg[SERVE_MAX_STDERR + 128];
  const char *e = err->data ? err->data : "";
  const char *cut = strstr(e, DIAG_ERROR_HEAD);
  if (cut == e) e += strlen(DIAG_ERROR_HEAD);
  snprintf(msg, sizeof msg, "%s%s", prefix, e);
  /* The games' folders are the server's business: "nim.game:3:1: ...". */
  for (int i = 0; i < S.ngames; i++) {
    const char *slash = strrchr(S.games[i].path, '/');
    size_t dir = slash ? (size_t)(slash - S.games[i].path) + 1 : 0;
    char *at;
    while (dir > 0 && (at = strstr(msg, S.games[i].path)) != NULL &&
           strncmp(at, S.games[i].path, dir) == 0)
      memmove(at, at + dir, strlen(at + dir) + 1);
  }
  size_t n = strlen(msg);
  while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = '\0';
  answer_error(a, status, msg);
}

/* Runs the child for an analysis and makes its answer: its JSON, or an
** error by its exit status. */
static int analyse_why(Answer *a, char *const argv[], Output *out, char *why, size_t why_size);
static int analyse(Answer *a, char *const argv[], Output *out) {
  return analyse_why(a, argv, out, NULL, 0);
}

/* analyse, with the child's stderr (its start) in why when it failed. */
static int analyse_why(Answer *a, char *const argv[], Output *out, char *why, size_t why_size) {
  Output err = { NULL, 0, 0, SERVE_MAX_STDERR };
  /* A job free within SERVE_QUEUE_SECONDS, looked for in slices of
  ** 0.2 s so that a stop (Ctrl-C) does not wait for the queue. */
  double give_up = clock_seconds() + SERVE_QUEUE_SECONDS;
  for (;;) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 200000000L;
    if (until.tv_nsec >= 1000000000L) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000L;
    }
    if (sem_timedwait(&S.slots, &until) == 0) break;
    if (S.stopping || clock_seconds() > give_up) {
      answer_error(a, 503, S.stopping ? "the server is stopping" : "the server is busy: try again");
      return -1;
    }
  }
  int st = run_child(argv, S.seconds, out, &err);
  sem_post(&S.slots);
  char note[128];
  if (st == 0) {
    free(err.data);
    return 0;
  }
  if (why) snprintf(why, why_size, "%s", err.data ? err.data : "");
  if (st == CHILD_TIMEOUT) {
    snprintf(note, sizeof note, "not solved in time (%u s)", S.seconds);
    answer_error(a, 503, note);
  } else if (st == CHILD_FAILED) {
    answer_error(a, 500, "the analysis could not start");
  } else if (st < 0) {
    snprintf(note, sizeof note, "the analysis was stopped by signal %d (the server's memory or "
             "CPU limit): ", -st);
    child_error(a, 503, note, &err);
  } else if (st == EXIT_USAGE) {
    child_error(a, 400, "", &err);
  } else if (st == EXIT_BAD_GAME || st == EXIT_RUNTIME) {
    child_error(a, 422, "", &err);
  } else if (st == EXIT_LIMIT && err.data && strstr(err.data, "time limit")) {
    snprintf(note, sizeof note, "not solved in time (%u s)", S.seconds);
    answer_error(a, 503, note);
  } else if (st == EXIT_LIMIT) {
    child_error(a, 503, "not solved within the limits: ", &err);
  } else {
    child_error(a, 500, "", &err);
  }
  free(err.data);
  return -1;
}

/* The argument vector of a child for the request's game: the program,
** the game's file, then the given arguments, the moves, the parameters. */
typedef struct Argv {
  char *v[SERVE_MAX_ARGS + 1];
  int n;
  char defs[SERVE_MAX_PARAMS][2 * SERVE_MAX_VALUE];
  char seconds[16], memory[24];
} Argv;

static void add(Argv *a, const char *s) {
  if (a->n < SERVE_MAX_ARGS) a->v[a->n++] = (char *)s;
  a->v[a->n] = NULL;
}

static void argv_begin(Argv *a, const Request *q) {
  a->n = 0;
  add(a, S.exe);
  add(a, S.games[q->game].path);
  add(a, "--quiet");
  if (q->moves[0]) {
    add(a, "--position");
    add(a, q->moves);
  }
  for (int i = 0; i < q->nparams; i++) {
    snprintf(a->defs[i], sizeof a->defs[i], "%s=%s", S.games[q->game].params[q->param[i]], q->value[i]);
    add(a, "-D");
    add(a, a->defs[i]);
  }
  snprintf(a->seconds, sizeof a->seconds, "%u", S.seconds);
  snprintf(a->memory, sizeof a->memory, "%ld", S.mib * 3 / 4 > 0 ? S.mib * 3 / 4 : 1);
}

static void add_limits(Argv *a, int memory) {
  add(a, "--time-limit");
  add(a, a->seconds);
  if (memory) {
    add(a, "--memory");
    add(a, a->memory);
  }
}

static void answer_output(Answer *a, Output *out, const char *type) {
  a->status = 200;
  a->type = type;
  a->body = out->data;
  a->len = out->len;
  out->data = NULL;
}

/* A temporary file of the server's own: its path in buf. */
static void temp_path(char *buf, size_t size, const char *ext) {
  pthread_mutex_lock(&S.lock);
  unsigned long n = ++S.serial;
  pthread_mutex_unlock(&S.lock);
  snprintf(buf, size, "%s/%lu%s", S.tmpdir, n, ext);
}

/* A strategy file's lines ("P1\tinfo\tmove\tp\tmove\tp") as JSON. */
static void strategy_json(Output *o, FILE *f) {
  char line[8192];
  int first = 1;
  out_add(o, "[", 1);
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    line[strcspn(line, "\n")] = '\0';
    char *field[512];
    int n = 0;
    for (char *s = line; s && n < 512;) {
      field[n++] = s;
      char *t = strchr(s, '\t');
      if (t) *t++ = '\0';
      s = t;
    }
    if (n < 4) continue;
    out_add(o, first ? "{\"player\":" : ",{\"player\":", first ? 10 : 11);
    first = 0;
    json_escape_to(o, field[0]);
    out_add(o, ",\"info\":", 8);
    json_escape_to(o, field[1]);
    out_add(o, ",\"moves\":[", 10);
    for (int k = 2; k + 1 < n; k += 2) {
      char num[64];
      out_add(o, k > 2 ? ",{\"move\":" : "{\"move\":", k > 2 ? 9 : 8);
      json_escape_to(o, field[k]);
      snprintf(num, sizeof num, ",\"probability\":%.9g}", strtod(field[k + 1], NULL));
      out_add(o, num, strlen(num));
    }
    out_add(o, "]}", 2);
  }
  out_add(o, "]", 1);
}

static void games_json(Answer *a) {
  Output o = { NULL, 0, 0, SERVE_MAX_OUTPUT };
  out_add(&o, "{\"games\":[", 10);
  for (int i = 0; i < S.ngames; i++) {
    out_add(&o, i ? ",{\"name\":" : "{\"name\":", i ? 9 : 8);
    json_escape_to(&o, S.games[i].name);
    out_add(&o, ",\"title\":", 9);
    json_escape_to(&o, S.games[i].title);
    out_add(&o, ",\"params\":[", 11);
    for (int k = 0; k < S.games[i].nparams; k++) {
      if (k) out_add(&o, ",", 1);
      json_escape_to(&o, S.games[i].params[k]);
    }
    out_add(&o, "]}", 2);
  }
  out_add(&o, "],\"time_limit\":", 15);
  char tail[64];
  snprintf(tail, sizeof tail, "%u}\n", S.seconds);
  out_add(&o, tail, strlen(tail));
  answer_output(a, &o, "application/json");
}

static void handle(const Request *q, Answer *a) {
  Argv av;
  Output out = { NULL, 0, 0, SERVE_MAX_OUTPUT };
  char depth[16], tmp[128], svg[160];
  switch (q->ep) {
  case EP_FILE: {
    const WebFile *f = serve_web_file(q->file);
    a->status = 200;
    a->type = f->type;
    a->len = strlen(f->text);
    a->body = malloc(a->len + 1);
    if (a->body) memcpy(a->body, f->text, a->len + 1);
    else answer_error(a, 500, "out of memory");
    return;
  }
  case EP_GAMES:
    games_json(a);
    return;
  case EP_DESCRIBE:
    argv_begin(&av, q);
    add(&av, "--engine");
    add(&av, "vm");
    add(&av, "--describe");
    add(&av, "--json");
    add_limits(&av, 0);
    break;
  case EP_POSITION:
    argv_begin(&av, q);
    add(&av, "--all-moves");
    add(&av, "--json");
    if (S.db && q->game == 0 && q->nparams == 0) {    /* the database's rules */
      add(&av, "--db");
      add(&av, S.db);
    }
    add_limits(&av, 1);
    break;
  case EP_COMPUTER: {
    /* A level is a depth (gsolve play --level N); a game with chance or
    ** payoffs per move has no depth-limited search: solved exactly then,
    ** as gsolve play does. */
    char why[256];
    for (int exact = q->level == 0; exact < 2; exact++) {
      argv_begin(&av, q);
      add(&av, "--solve");
      add(&av, "--json");
      if (!exact) {
        snprintf(depth, sizeof depth, "%d", q->level);
        add(&av, "--depth");
        add(&av, depth);
      } else if (S.db && q->game == 0 && q->nparams == 0) {
        add(&av, "--db");
        add(&av, S.db);
      }
      add_limits(&av, exact);
      why[0] = '\0';
      if (analyse_why(a, av.v, &out, why, sizeof why) == 0) {
        answer_output(a, &out, "application/json");
        break;
      }
      if (exact || !strstr(why, "--depth takes deterministic games")) break;
      free(a->body);
      a->body = NULL;
      free(out.data);
      out.data = NULL;
      out.len = out.cap = 0;
    }
    free(out.data);
    return;
  }
  case EP_STRATEGY: {
    Request start = *q;
    start.moves[0] = '\0';      /* the strategy of the whole game */
    argv_begin(&av, &start);
    temp_path(tmp, sizeof tmp, ".strategy");
    add(&av, "--solve");             /* auto: lp where the tree is small, else CFR */
    add(&av, "--json");
    add(&av, "--strategy");
    add(&av, tmp);
    add_limits(&av, 0);
    if (analyse(a, av.v, &out) != 0) {
      unlink(tmp);
      free(out.data);
      return;
    }
    FILE *f = fopen(tmp, "r");
    Output o = { NULL, 0, 0, SERVE_MAX_OUTPUT };
    out_add(&o, "{\"strategy\":", 12);
    if (f) {
      strategy_json(&o, f);
      fclose(f);
    } else {
      out_add(&o, "null", 4);
    }
    unlink(tmp);
    out_add(&o, ",\"report\":", 10);
    while (out.len > 0 && out.data[out.len - 1] == '\n') out.len--;
    out_add(&o, out.data ? out.data : "null", out.data ? out.len : 4);
    out_add(&o, "}\n", 2);
    free(out.data);
    answer_output(a, &o, "application/json");
    return;
  }
  case EP_TREE: {
    if (!S.dot[0]) {
      answer_error(a, 501, "drawing a tree needs Graphviz's dot (apt-get install graphviz)");
      return;
    }
    argv_begin(&av, q);
    temp_path(tmp, sizeof tmp, ".dot");
    snprintf(depth, sizeof depth, "%d", q->depth);
    add(&av, "--tree-dot");
    add(&av, tmp);
    add(&av, "--depth");
    add(&av, depth);
    add_limits(&av, 0);
    int st = analyse(a, av.v, &out);
    free(out.data);
    out.data = NULL;
    out.len = out.cap = 0;
    if (st == 0) {
      snprintf(svg, sizeof svg, "-o%s.svg", tmp);
      char *dv[] = { S.dot, "-Tsvg", svg, tmp, NULL };
      Output o2 = { NULL, 0, 0, SERVE_MAX_OUTPUT };
      if (analyse(a, dv, &o2) == 0) {
        char *text = NULL;
        size_t len = 0;
        if (file_read(svg + 2, SERVE_MAX_OUTPUT, &text, &len, NULL) == EXIT_OK) {
          a->status = 200;
          a->type = "image/svg+xml";
          a->body = text;
          a->len = len;
        } else {
          answer_error(a, 500, "dot made no drawing");
        }
      }
      free(o2.data);
      unlink(svg + 2);
    }
    unlink(tmp);
    return;
  }
  default:
    answer_error(a, 404, "no such page");
    return;
  }
  if (analyse(a, av.v, &out) == 0) answer_output(a, &out, "application/json");
  free(out.data);
}

/* ---- HTTP --------------------------------------------------------- */

/* The raw target, before libmicrohttpd decodes it: the parser's input. */
static void *uri_log(void *cls, const char *uri, struct MHD_Connection *c) {
  return strdup(uri);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode toe) {
  free(*con_cls);
  *con_cls = NULL;
}

/* The answer (to a HEAD too: libmicrohttpd sends the head alone). */
static enum MHD_Result reply(struct MHD_Connection *c, Answer *a) {
  struct MHD_Response *r = MHD_create_response_from_buffer(a->len, a->body, MHD_RESPMEM_MUST_FREE);
  if (r == NULL) {
    free(a->body);
    return MHD_NO;
  }
  MHD_add_response_header(r, "Content-Type", a->type);
  MHD_add_response_header(r, "Cache-Control", "no-store");
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  MHD_add_response_header(r, "X-Frame-Options", "DENY");
  MHD_add_response_header(r, "Content-Security-Policy",
                          "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:");
  enum MHD_Result ret = MHD_queue_response(c, (unsigned)a->status, r);
  MHD_destroy_response(r);
  return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls) {
  Answer a = { 0, NULL, NULL, 0 };
  char err[SERVE_MAX_ERROR];
  const char *target = *con_cls ? *con_cls : url;
  int head = strcmp(method, "HEAD") == 0;
  if (*upload_data_size != 0) {     /* a body: no page takes one */
    *upload_data_size = 0;
    return MHD_YES;
  }
  if (strcmp(method, "GET") != 0 && !head) {
    answer_error(&a, 405, "only GET and HEAD are answered");
    return reply(c, &a);
  }
  const char *len = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
  if (len && strcmp(len, "0") != 0) {
    answer_error(&a, 413, "a GET request carries no body");
    return reply(c, &a);
  }
  Request *q = malloc(sizeof *q);
  if (q == NULL) return MHD_NO;
  int st = serve_parse(target, strlen(target), S.games, S.ngames, q, err);
  if (st != 200) answer_error(&a, st, err);
  else handle(q, &a);
  free(q);
  if (a.body == NULL) answer_error(&a, 500, "out of memory");
  return reply(c, &a);
}

/* ---- setup -------------------------------------------------------- */

static int usage(const char *fmt, const char *arg) {
  fputs("gsolve serve: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  return EXIT_USAGE;
}

static void help(void) {
  fputs("usage: gsolve serve [FILE ...] [--port N] [--bind ADDR] [--db FILE] [--time-limit S]\n"
        "                    [--memory MB] [--jobs N]\n"
        "  The web explorer of the games in FILE ... (none: the bundled games) on\n"
        "  http://127.0.0.1:8080/ (docs/web.md).  --port 0 takes a free port.\n"
        "  --bind ADDR     listen on ADDR (IPv4 or IPv6) instead of 127.0.0.1, with a warning\n"
        "  --db FILE       a database of the first game (a retrograde solve's --db FILE)\n"
        "  --time-limit S  each analysis, at most S seconds (10)\n"
        "  --memory MB     each analysis, at most MB MiB (1024)\n"
        "  --jobs N        analyses at once (4); further requests wait\n", stdout);
}

static long number(const char *s, long lo, long hi) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi || *s == '+') return -1;
  return v;
}

/* Adds the game in path: its name (the file's), its title and
** parameters (compiled here once: the rules are not run). */
static int add_game(const char *path) {
  char real[PATH_MAX];
  if (S.ngames == SERVE_MAX_GAMES) return usage("more than %s games", "256");
  if (realpath(path, real) == NULL) return usage("cannot open '%s'", path);
  const char *base = strrchr(real, '/');
  base = base ? base + 1 : real;
  size_t n = strlen(base);
  if (n <= 5 || strcmp(base + n - 5, ".game") != 0)
    return usage("'%s': a game file's name ends in .game", path);
  for (size_t i = 0; i + 5 < n; i++)
    if (!((base[i] >= 'a' && base[i] <= 'z') || (base[i] >= 'A' && base[i] <= 'Z') ||
          (base[i] >= '0' && base[i] <= '9') || base[i] == '-' || base[i] == '_'))
      return usage("'%s': a served game's name has letters, digits, - and _ only", path);
  ServedGame *g = &S.games[S.ngames];
  g->name = strndup(base, n - 5);
  g->path = strdup(real);
  for (int i = 0; i < S.ngames; i++)
    if (strcmp(S.games[i].name, g->name) == 0) return usage("two games named '%s'", g->name);
  char *text = NULL;
  size_t len = 0;
  int st;
  if (file_read(real, AST_MAX_SOURCE, &text, &len, stderr) != EXIT_OK) return EXIT_IO;
  Program *p = gs_compile(real, text, len, NULL, 0, stderr, &st);
  free(text);
  if (p == NULL) return st;
  g->title = strdup(gs_game_name(p));
  for (int i = 0; i < p->nparams && i < SERVE_MAX_PARAMS; i++)
    g->params[g->nparams++] = strdup(p->params[i].name);
  gs_program_free(p);
  S.ngames++;
  return EXIT_OK;
}

static int by_name(const void *a, const void *b) {
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  int tx = x && strcmp(x, "tictactoe.game") == 0, ty = y && strcmp(y, "tictactoe.game") == 0;
  if (tx != ty) return ty - tx;
  return strcmp(x ? x : "", y ? y : "");
}

/* The bundled games: PREFIX/share/gsolve/games next to an installed
** gsolve, else games/ beside the program or one folder up (the source
** tree: ./gsolve, build-asan/gsolve). */
static int add_bundled(void) {
  char dir[PATH_MAX + 32];
  snprintf(dir, sizeof dir, "%s", S.exe);
  char *slash = strrchr(dir, '/');
  if (slash == NULL) return usage("%s", "cannot find the bundled games");
  *slash = '\0';
  char try1[PATH_MAX + 64], try2[PATH_MAX + 64], try3[PATH_MAX + 64];
  snprintf(try1, sizeof try1, "%s/../share/gsolve/games", dir);
  snprintf(try2, sizeof try2, "%s/games", dir);
  snprintf(try3, sizeof try3, "%s/../games", dir);
  const char *use = access(try1, R_OK) == 0 ? try1 : access(try2, R_OK) == 0 ? try2
                  : access(try3, R_OK) == 0 ? try3 : NULL;
  if (use == NULL) return usage("%s", "no FILE given and no bundled games found");
  /* Every .game there, Tic-tac-toe first (the front page's), then by name. */
  DIR *d = opendir(use);
  if (d == NULL) return usage("cannot list the bundled games in %s", use);
  char *names[SERVE_MAX_GAMES];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL && n < SERVE_MAX_GAMES) {
    size_t len = strlen(e->d_name);
    if (len > 5 && strcmp(e->d_name + len - 5, ".game") == 0) names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, by_name);
  int st = EXIT_OK;
  for (int i = 0; i < n; i++) {
    char path[PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/%s", use, names[i]);
    if (st == EXIT_OK && names[i] && access(path, R_OK) == 0) st = add_game(path);
    free(names[i]);
  }
  if (st != EXIT_OK) return st;
  return S.ngames ? EXIT_OK : usage("%s", "no bundled games found");
}

static void find_dot(void) {
  const char *path = getenv("PATH");
  char buf[PATH_MAX];
  S.dot[0] = '\0';
  if (path == NULL) path = "/usr/bin:/bin";
  while (*path) {
    size_t n = strcspn(path, ":");
    if (n > 0 && n + 5 < sizeof buf) {
      memcpy(buf, path, n);
      strcpy(buf + n, "/dot");
      if (access(buf, X_OK) == 0 && buf[0] == '/') {
        snprintf(S.dot, sizeof S.dot, "%s", buf);
        return;
      }
    }
    path += n + (path[n] == ':');
  }
}

static void cleanup(void) {
  for (int i = 0; i < S.ngames; i++) {
    free(S.games[i].name);
    free(S.games[i].path);
    free(S.games[i].title);
    for (int k = 0; k < S.games[i].nparams; k++) free(S.games[i].params[k]);
  }
  if (S.tmpdir[0]) rmdir(S.tmpdir);
}

int serve_main(int argc, char **argv) {
  long port = SERVE_DEFAULT_PORT;
  const char *bind_addr = NULL;
  int st = EXIT_OK;
  memset(&S, 0, sizeof S);
  S.seconds = SERVE_DEFAULT_SECONDS;
  S.mib = SERVE_DEFAULT_MIB;
  S.jobs = SERVE_DEFAULT_JOBS;
  ssize_t n = readlink("/proc/self/exe", S.exe, sizeof S.exe - 1);
  if (n <= 0) return usage("%s", "cannot find this program (/proc/self/exe)");
  S.exe[n] = '\0';
  const char *files[SERVE_MAX_GAMES];
  int nfiles = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int takes = strcmp(a, "--port") == 0 || strcmp(a, "--bind") == 0 || strcmp(a, "--db") == 0 ||
                strcmp(a, "--time-limit") == 0 || strcmp(a, "--memory") == 0 ||
                strcmp(a, "--jobs") == 0;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      help();
      return EXIT_OK;
    }
    if (takes && v == NULL) return usage("option '%s' needs an argument", a);
    if (strcmp(a, "--port") == 0) {
      if ((port = number(v, 0, 65535)) < 0) return usage("--port needs a number from 0 to 65535, not '%s'", v);
    } else if (strcmp(a, "--bind") == 0) {
      bind_addr = v;
    } else if (strcmp(a, "--db") == 0) {
      S.db = v;
      if (access(v, R_OK) != 0) return usage("cannot read the database '%s'", v);
    } else if (strcmp(a, "--time-limit") == 0) {
      long s = number(v, 1, SERVE_MAX_SECONDS);
      if (s < 0) return usage("--time-limit needs a number of seconds from 1 to 3600, not '%s'", v);
      S.seconds = (unsigned)s;
    } else if (strcmp(a, "--memory") == 0) {
      if ((S.mib = number(v, 16, 1L << 20)) < 0) return usage("--memory needs a size in MiB from 16, not '%s'", v);
    } else if (strcmp(a, "--jobs") == 0) {
      long j = number(v, 1, SERVE_MAX_JOBS);
      if (j < 0) return usage("--jobs needs a number from 1 to 64, not '%s'", v);
      S.jobs = (int)j;
    } else if (a[0] == '-' && a[1]) {
      return usage("unknown option '%s' of gsolve serve (try gsolve serve --help)", a);
    } else {
      if (nfiles == SERVE_MAX_GAMES) return usage("more than %s games", "256");
      files[nfiles++] = a;
      continue;
    }
    i++;
  }
  /* An IPv4 address, or an IPv6 one (it has a colon: ::1, ::). */
  const char *addr = bind_addr ? bind_addr : "127.0.0.1";
  int v6 = strchr(addr, ':') != NULL;
  struct sockaddr_in sa;
  struct sockaddr_in6 sa6;
  memset(&sa, 0, sizeof sa);
  memset(&sa6, 0, sizeof sa6);
  sa.sin_family = AF_INET;
  sa.sin_port = htons((uint16_t)port);
  sa6.sin6_family = AF_INET6;
  sa6.sin6_port = htons((uint16_t)port);
  if (v6 ? inet_pton(AF_INET6, addr, &sa6.sin6_addr) != 1 : inet_pton(AF_INET, addr, &sa.sin_addr) != 1)
    return usage("--bind needs an IPv4 or IPv6 address (127.0.0.1, 0.0.0.0, ::1, ::), not '%s'", bind_addr);
  for (int i = 0; i < nfiles && st == EXIT_OK; i++) st = add_game(files[i]);
  if (st == EXIT_OK && nfiles == 0) st = add_bundled();
  if (st != EXIT_OK) {
    cleanup();
    return st;
  }
  find_dot();
  snprintf(S.tmpdir, sizeof S.tmpdir, "/tmp/gsolve-serve-XXXXXX");
  if (mkdtemp(S.tmpdir) == NULL) {
    S.tmpdir[0] = '\0';
    cleanup();
    fprintf(stderr, "gsolve serve: error: cannot make a temporary folder: %s\n", strerror(errno));
    return EXIT_IO;
  }
  pthread_mutex_init(&S.lock, NULL);
  sem_init(&S.slots, 0, (unsigned)S.jobs);

  /* Signals reach the main thread alone, through sigwait (a shell
  ** starts background jobs with SIGINT ignored: set back, or the signal
  ** would be discarded). */
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, NULL);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGPIPE, SIG_IGN);
  struct MHD_Daemon *d = MHD_start_daemon(
      MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | (v6 ? MHD_USE_IPv6 : 0),
      (uint16_t)port, NULL, NULL, &on_request, NULL,
      MHD_OPTION_SOCK_ADDR, v6 ? (struct sockaddr *)&sa6 : (struct sockaddr *)&sa,
      MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_MAX_CONNECTIONS,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_CONN_MEMORY,
      MHD_OPTION_URI_LOG_CALLBACK, uri_log, NULL,
      MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
      MHD_OPTION_END);
  if (d == NULL) {
    fprintf(stderr, "gsolve serve: error: cannot listen on %s%s%s:%ld (in use?)\n",
            v6 ? "[" : "", addr, v6 ? "]" : "", port);
    cleanup();
    return EXIT_IO;
  }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
  unsigned real_port = info ? info->port : (unsigned)port;
  if (bind_addr && strcmp(bind_addr, "127.0.0.1") != 0 && strcmp(bind_addr, "::1") != 0)
    fprintf(stderr, "gsolve serve: warning: listening on %s: anyone who reaches this address can "
            "run analyses here (docs/web.md: behind a proxy, with its own access control)\n", bind_addr);
  printf("gsolve serve: http://%s%s%s:%u/ (%d game%s; Ctrl-C stops)\n", v6 ? "[" : "", addr,
         v6 ? "]" : "", real_port, S.ngames, S.ngames == 1 ? "" : "s");
  fflush(stdout);
  int sig = 0;
  while (sigwait(&set, &sig) != 0) {}
  S.stopping = 1;
  pthread_mutex_lock(&S.lock);
  for (int i = 0; i < SERVE_MAX_JOBS; i++)
    if (S.running[i] > 0) kill(-S.running[i], SIGKILL);
  pthread_mutex_unlock(&S.lock);
  MHD_stop_daemon(d);
  fprintf(stderr, "gsolve serve: stopped\n");
  cleanup();
  return EXIT_OK;
}
