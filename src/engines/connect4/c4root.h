/*
** c4root.h -- the solver's root (after c4search.h, in the same
** compilation over Word): null-window probes that narrow the root's score
** range, the threads that share them, every root move's score, the
** solver's functions for c4solve.c (c4_impl64, c4_impl128) and, on 64-bit
** words, opening books.
*/

/* negamax where the player to move may be able to win at once. */
static int search(Worker *wk, Word cur, Word mask, int moves, int alpha, int beta) {
  const Solver *s = wk->s;
  if (can_win_now(&s->g, cur, mask)) return (s->g.cells + 1 - moves) / 2;
  if (moves == s->g.cells) return 0;
  return s->negamax(wk, cur, mask, mirror(&s->g, cur), mirror(&s->g, mask),
                    winning_cells(&s->g, cur ^ mask, mask), moves, alpha, beta);
}

/* The middle of the score range [lo, hi] for a null-window probe,
** pulled toward 0 as in Pons' tutorial (probes far from the score are
** cheap); or 0 itself first, which pays only in the first plies
** (ZERO_FIRST_UNTIL): later, quick wins are found faster from above.
** The figures behind this and the constants below: docs/performance.md,
** "The Connect Four engine's constants". */
/* Within a range of at most PLAIN_MIDDLE_SPAN, the plain middle: the
** pull pays while the range is wide, where a probe far from 0 is cheap,
** not in the last steps next to the score. */
#define PLAIN_MIDDLE_SPAN 8
/* Positions of at most ZERO_FIRST_UNTIL stones, once the
** range holds at most WALK_SPAN + 1 scores all on one side of 0: the
** score nearest 0 is asked first ("> lo" for a win, "> hi - 1" for a
** loss), as early scores lie near 0: if it holds, one probe ends the
** search, where the plain middle asks a probe next to the score first
** and then the other (the empty board, whose score is 1: "> 2" then
** "> 1" became "> 1" alone).  A wider span costs nodes on the sets'
** positions of a few stones. */
#define WALK_SPAN 2
/* Positions of at most WALK_ALL_UNTIL stones walk from 0 whatever the
** range: the empty board is worth 1 and the seven positions of one stone
** 2, 1, 0, -1, 0, 1, 2 (John Tromp's values), and a few stones later the
** scores still lie near 0, so after "> 0" the next probe is next to the
** score, where the range's middle asked "> 11", "> 6" and "> 3" before
** "> 1" on the empty board.  Past three stones it no longer pays; a
** score far from 0 pays for it. */
#define WALK_ALL_UNTIL 3
static int middle(int lo, int hi, int zero_first, int stones) {
  if (zero_first && lo <= 0 && hi > 0) return 0;
  if (stones <= WALK_ALL_UNTIL || (stones <= ZERO_FIRST_UNTIL && hi - lo <= WALK_SPAN)) {
    if (lo >= 1) return lo;
    if (hi <= 0) return hi - 1;
  }
  int med = lo + (hi - lo) / 2;
  if (hi - lo <= PLAIN_MIDDLE_SPAN) return med;
  if (med <= 0 && lo / 2 < med) med = lo / 2;
  else if (med >= 0 && hi / 2 > med) med = hi / 2;
  return med;
}

/* The exact score by null-window bisection of the root's range (the
** sign only when solve_job set it to -1..1, weak). */
static int solve_position(Worker *wk, Word cur, Word mask, int moves) {
  const Solver *s = wk->s;
  int cells = s->g.cells;
  if (can_win_now(&s->g, cur, mask)) return (cells + 1 - moves) / 2;
  if (s->without & C4_NO_NARROWING) {
    /* One search with the whole window (the range solve_job set, which
    ** nothing changes here): exact, as a result at an end of the window
    ** is that end, no score lying beyond. */
    int lo = s->root.lo, hi = s->root.hi;
    int r = s->negamax(wk, cur, mask, mirror(&s->g, cur), mirror(&s->g, mask),
                    winning_cells(&s->g, cur ^ mask, mask), moves, lo, hi);
    return r < lo ? lo : r > hi ? hi : r;
  }
  /* Null-window probes narrow the root's range (s->root), shared by the
  ** threads, until it holds one score. */
  Root *rt = &wk->s->root;
  Word mcur = mirror(&s->g, cur), mmask = mirror(&s->g, mask);
  Word opp_wins = winning_cells(&s->g, cur ^ mask, mask);
  pthread_mutex_lock(&rt->lock);
  while (rt->lo < rt->hi && !signalled()) {
    int p = middle(rt->lo, rt->hi, rt->zero_pending, rt->stones);
    rt->probing[wk->id] = p;
    __atomic_store_n(&wk->halt, 0, __ATOMIC_RELAXED);
    wk->stopped = 0;
    pthread_mutex_unlock(&rt->lock);
    int r = s->negamax(wk, cur, mask, mcur, mmask, opp_wins, moves, p, p + 1);
    pthread_mutex_lock(&rt->lock);
    rt->probing[wk->id] = NO_PROBE;
    if (stopping(wk)) continue;            /* cut short: r means nothing */
    if (p == 0) rt->zero_pending = 0;
    if (r <= p) { if (r < rt->hi) rt->hi = r; }
    else if (r > rt->lo) rt->lo = r;
    /* The probes whose answer is now known stop. */
    for (int i = 0; i < s->threads; i++)
      if (rt->probing[i] != NO_PROBE && (rt->probing[i] < rt->lo || rt->probing[i] >= rt->hi))
        __atomic_store_n(&rt->w[i].halt, 1, __ATOMIC_RELAXED);
  }
  int score = rt->lo;
  pthread_mutex_unlock(&rt->lock);
  return score;
}

static void *worker_run(void *arg) {
  Worker *wk = arg;
  int r = wk->probe ? search(wk, wk->cur, wk->mask, wk->moves, wk->alpha, wk->beta)
                    : solve_position(wk, wk->cur, wk->mask, wk->moves);
  /* The first to finish unstopped claims the answer. */
  int expected = 0;
  if (!signalled() &&
      __atomic_compare_exchange_n(&wk->s->done, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
    wk->result = r;
    wk->finished = 1;
  }
  return NULL;
}

/* Runs one job on every thread; its result, or stopped (*ok = 0). */
static int run_job(Solver *s, Worker *w, int *ok, uint64_t *nodes, uint64_t *hits) {
  pthread_t tid[MAX_THREADS];
  int started[MAX_THREADS] = { 0 };
  s->done = 0;
  s->root.w = w;
  for (int i = 0; i < s->threads; i++) {
    w[i] = w[0];
    w[i].nodes = w[i].book_hits = 0;
    w[i].finished = 0;
    w[i].near = s->near[i];
    for (int e = 0; e <= s->g.cells; e++)
      w[i].table_at[e] = e < TAIL_EMPTY && !(s->without & C4_NO_BARETAIL) ? NULL
                         : s->near[i] && e < FAR_EMPTY ? s->near[i] : s->tt;
    w[i].id = i;
    w[i].halt = w[i].stopped = 0;
    /* Columns centre first (or left first); thread i > 1 mirrors the
    ** tie-breaks (odd i) or shifts them, to wander elsewhere.  Thread 1
    ** keeps thread 0's: the threads split the work by putting off each
    ** other's children (negamax_on), and on the same order they search
    ** neighbouring subtrees, faster per node. */
    int order[64], k = i >= 2 ? (i / 2) % s->g.w : 0;
    for (int c = 0; c < s->g.w; c++) {
      int col = (s->without & C4_NO_CENTRE) ? c : s->g.w / 2 + (1 - 2 * (c % 2)) * (c + 1) / 2;
      if (i % 2 && i > 1) col = s->g.w - 1 - col;
      order[(c + s->g.w - k) % s->g.w] = col;     /* shifted by k places */
    }
    /* Each cell's column's place in the order. */
    for (int c = 0; c < s->g.w; c++)
      for (int r = 0; r <= s->g.h; r++) w[i].place[order[c] * (s->g.h + 1) + r] = (uint8_t)c;
#if C4W_BITS == 64
    for (int c = 0; c < 8; c++) w[i].lane_cols[c] = c < s->g.w ? column_mask(&s->g, order[c]) : 0;
#endif
  }
  for (int i = 1; i < s->threads; i++)
    started[i] = pthread_create(&tid[i], NULL, worker_run, &w[i]) == 0;
  worker_run(&w[0]);
  int result = 0;
  *ok = 0;
  for (int i = 0; i < s->threads; i++) {
    if (started[i]) pthread_join(tid[i], NULL);
    *nodes += w[i].nodes;
    *hits += w[i].book_hits;
    if (w[i].finished) { result = w[i].result; *ok = 1; }
  }
  return result;
}

/* The first worker of a job on the position (cur, mask) of `moves` stones. */
static void first_worker(Worker *w, Solver *s, Word cur, Word mask, int moves) {
  memset(w, 0, sizeof *w);
  w->s = s;
  w->cur = cur;
  w->mask = mask;
  w->moves = moves;
}

static int solve_job(Solver *s, Word cur, Word mask, int moves, int weak,
                     int *ok, C4Answer *a) {
  Worker w[MAX_THREADS];
  first_worker(&w[0], s, cur, mask, moves);
  /* The root's score range: every score reachable (or -1..1, weak). */
  Root *rt = &s->root;
  rt->lo = weak ? -1 : -(s->g.cells - moves) / 2;
  rt->hi = weak ? 1 : (s->g.cells + 1 - moves) / 2;
  rt->zero_pending = moves <= ZERO_FIRST_UNTIL && rt->lo < 0 && rt->hi > 0;
  rt->stones = moves;
  for (int i = 0; i < MAX_THREADS; i++) rt->probing[i] = NO_PROBE;
  return run_job(s, w, ok, &a->nodes, &a->book_hits);
}

static int probe_job(Solver *s, Word cur, Word mask, int moves, int alpha, int beta,
                     int *ok, C4Answer *a) {
  Worker w[MAX_THREADS];
  first_worker(&w[0], s, cur, mask, moves);
  w[0].probe = 1;
  w[0].alpha = alpha;
  w[0].beta = beta;
  return run_job(s, w, ok, &a->nodes, &a->book_hits);
}

static void solver_free(void *p);

#define MIRROR_LONG_MIB 1024   /* see solver_new */

static void *solver_new(int width, int height, const C4Config *cfg) {
  Solver *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->g.w = width;
  s->g.h = height;
  s->g.cells = width * height;
  for (int col = 0; col < s->g.w; col++) {
    s->g.bottom |= ONE << (col * (s->g.h + 1));
    s->g.board |= column_mask(&s->g, col);
  }
  /* Mirror images share entries up to a third of the board, or 5/8 of
  ** it (26 stones of 42) with a table of MIRROR_LONG_MIB or more, made
  ** for big searches, where it saves nodes; not with the test sets'
  ** 64 MiB, where it saved none. */
  s->mirror_until = cfg->tt_mib >= MIRROR_LONG_MIB ? s->g.cells * 5 / 8 : s->g.cells / 3;
  pthread_mutex_init(&s->root.lock, NULL);
  for (int col = 0; col < s->g.w; col++)
    for (int row = s->g.h % 2; row < s->g.h; row += 2)
      s->g.claim_rows |= ONE << (col * (s->g.h + 1) + row);
  s->vmin = -(s->g.cells / 2) - 1;
  s->span = s->g.cells + 4;
  s->without = cfg->without;
  s->book = cfg->book;
  choose_search(s);
  s->threads = cfg->threads < 1 ? 1 : cfg->threads > MAX_THREADS ? MAX_THREADS : cfg->threads;
  if (!(s->without & C4_NO_TABLE) && (s->tt = c4t_new(cfg->tt_mib)) == NULL) {
    solver_free(s);
    return NULL;
  }
  for (int i = 0; s->tt && cfg->tt_mib >= NEAR_FROM_MIB && i < s->threads; i++)
    if ((s->near[i] = c4t_new(NEAR_MIB)) == NULL) { solver_free(s); return NULL; }
  if (s->threads > 1 && s->tt && (s->busy = calloc((size_t)1 << BUSY_BITS, sizeof *s->busy)) == NULL) {
    solver_free(s);
    return NULL;
  }
  return s;
}

static size_t solver_shrunk_bytes(const void *p) {
  const Solver *s = p;
  return s->tt ? c4t_shrunk_bytes(s->tt) : 0;
}

static void solver_free(void *p) {
  Solver *s = p;
  if (!s) return;
  c4t_free(s->tt);
  for (int i = 0; i < s->threads; i++) c4t_free(s->near[i]);
  free(s->busy);
  pthread_mutex_destroy(&s->root.lock);
  free(s);
}

static void solver_reset(void *p) {
  Solver *s = p;
  if (s->tt) c4t_clear(s->tt);
  for (int i = 0; i < s->threads; i++)
    if (s->near[i]) c4t_clear(s->near[i]);
}

static void solver_touch(void *p, size_t budget) {
  Solver *s = p;
  for (int i = 0; i < s->threads; i++)
    if (s->near[i]) budget -= c4t_touch(s->near[i], budget);
  if (s->tt) c4t_touch(s->tt, budget);
}

/* The solve's progress callback is dropped with the query. */
static int c4_solve_end(Solver *s, int rc) {
  s->query = NULL;
  return rc;
}

static int solver_solve(void *p, const C4Query *q, C4Answer *ans) {
  Solver *s = p;
  if (q->width != s->g.w || q->height != s->g.h) return -1;
  memset(ans, 0, sizeof *ans);
  int cells = s->g.cells, moves = q->moves, ok;
  Word cur = (Word)q->cur, mask = (Word)q->mask;
  s->query = q->progress ? q : NULL;
  memset(&s->progress, 0, sizeof s->progress);
  s->progress.nmoves = popcount_word(possible(&s->g, mask));
  ans->score = solve_job(s, cur, mask, moves, q->weak, &ok, ans);
  if (!ok) return c4_solve_end(s, -2);
  ans->plies = c4_plies_from_score(cells, moves, ans->score);
  /* Every legal move, column order: one that wins at once scores
  ** (cells + 1 - moves) / 2; else minus the child's score.  Without
  ** all_moves, a null window around the root's score tells the optimal
  ** moves (exact) from the others (an upper bound). */
  int root = ans->score;
  for (int col = 0; col < s->g.w && !q->root_only; col++) {
    Word m = possible(&s->g, mask) & column_mask(&s->g, col);
    if (!m) continue;
    s->progress.move = ans->nmoves + 1;
    s->progress.nodes = ans->nodes;
    s->progress.lo = 1;         /* no range: a probe of the move, or ... */
    s->progress.hi = 0;         /* ... its solve, which sets one */
    int v, exact = 1;
    if (winning_cells(&s->g, cur, mask) & m) v = (cells + 1 - moves) / 2;
    else if (moves + 1 == cells) v = 0;
    else if (q->all_moves) v = -solve_job(s, cur ^ mask, mask | m, moves + 1, q->weak, &ok, ans);
    else {
      int r = probe_job(s, cur ^ mask, mask | m, moves + 1, -root, -root + 1, &ok, ans);
      v = r <= -root ? root : -r;
      exact = v == root;
    }
    if (!ok) return c4_solve_end(s, -2);
    if (q->weak) v = v > 0 ? 1 : v < 0 ? -1 : 0;
    ans->col[ans->nmoves] = col;
    ans->move_score[ans->nmoves] = v;
    ans->move_exact[ans->nmoves] = exact;
    ans->nmoves++;
  }
  return c4_solve_end(s, 0);
}

/* ---- opening books (64-bit boards) --------------------------------- */
#if C4W_BITS == 64

typedef struct Pos { uint64_t key, cur, mask; } Pos;

static int by_key(const void *a, const void *b) {
  uint64_t x = ((const Pos *)a)->key, y = ((const Pos *)b)->key;
  return x < y ? -1 : x > y;
}

/* The positions one stone deeper than `in` (none ended), one per key. */
/* The positions one stone deeper than `in`'s, sorted by key without
** repeats; NULL when out of memory or stopped (*stopped set). */
static Pos *next_level(const Solver *s, const Pos *in, size_t n, size_t *out_n, int *stopped) {
  Pos *out = malloc((n * s->g.w + 1) * sizeof *out);
  if (!out) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if ((i & 4095) == 0 && signalled()) { free(out); *stopped = 1; return NULL; }
    uint64_t cur = in[i].cur, mask = in[i].mask, win = winning_cells(&s->g, cur, mask);
    for (int col = 0; col < s->g.w; col++) {
      uint64_t m = possible(&s->g, mask) & column_mask(&s->g, col);
      if (!m || (win & m) || (mask | m) == s->g.board) continue;    /* ends the game */
      Pos p = { 0, cur ^ mask, mask | m };
      p.key = canonical_key(&s->g, p.cur, p.mask);
      out[k++] = p;
    }
  }
  qsort(out, k, sizeof *out, by_key);
  size_t m = 0;
  for (size_t i = 0; i < k; i++)
    if (m == 0 || out[m - 1].key != out[i].key) out[m++] = out[i];
  *out_n = m;
  return out;
}

/* The book's progress while one of its positions is searched. */
typedef struct BookProgress {
  void (*progress)(int stones, size_t done, size_t positions, uint64_t nodes, void *arg);
  void *arg;
  int stones;
  size_t done, positions;
} BookProgress;

static void book_node_progress(const C4Progress *p, void *arg) {
  BookProgress *b = arg;
  b->progress(b->stones, b->done, b->positions, p->nodes, b->arg);
}

static int solver_make_book(void *sp, int to, C4Book *book, uint64_t *nodes,
                            void (*progress)(int stones, size_t done, size_t positions,
                                             uint64_t nodes, void *arg), void *arg) {
  Solver *s = sp;
  if (to > s->g.cells - 1) to = s->g.cells - 1;
  Pos **level = calloc((size_t)to + 1, sizeof *level);
  size_t *count = calloc((size_t)to + 1, sizeof *count);
  int st = -1, stopped = 0;
  *nodes = 0;
  if (!level || !count || !(level[0] = malloc(sizeof(Pos)))) goto done;
  level[0][0] = (Pos){ 0, 0, 0 };
  count[0] = 1;
  for (int d = 1; d <= to; d++) {
    if (progress) progress(d, 0, 0, 0, arg);
    if (!(level[d] = next_level(s, level[d - 1], count[d - 1], &count[d], &stopped))) {
      if (stopped) st = -2;
      goto done;
    }
  }
  /* Deepest first: each level is then looked up by the next one. */
  const C4Book *saved = s->book;
  s->book = book;
  choose_search(s);
  st = 0;
  BookProgress bp = { progress, arg, 0, 0, 0 };
  C4Query bq;
  memset(&bq, 0, sizeof bq);
  bq.progress = book_node_progress;
  bq.progress_arg = &bp;
  s->query = progress ? &bq : NULL;
  for (int d = to; d >= 0 && st == 0; d--) {
    uint64_t *keys = malloc((count[d] + 1) * sizeof *keys);
    int8_t *scores = malloc(count[d] + 1);
    if (!keys || !scores) st = -1;
    for (size_t i = 0; i < count[d] && st == 0; i++) {
      C4Answer a;
      int ok;
      memset(&a, 0, sizeof a);
      if (progress) progress(d, i, count[d], *nodes, arg);
      bp.stones = d;
      bp.done = i;
      bp.positions = count[d];
      memset(&s->progress, 0, sizeof s->progress);
      s->progress.nodes = *nodes;
      keys[i] = level[d][i].key;
      scores[i] = (int8_t)solve_job(s, level[d][i].cur, level[d][i].mask, d, 0, &ok, &a);
      *nodes += a.nodes;
      if (!ok) st = -2;
    }
    if (st == 0 && c4book_add(book, d, keys, scores, count[d]) != 0) st = -1;
    free(keys);
    free(scores);
  }
  s->book = saved;
  choose_search(s);
  s->query = NULL;
done:
  if (level)
    for (int d = 0; d <= to; d++) free(level[d]);
  free(level);
  free(count);
  return st;
}

/* A position's score from its moves' book scores, as the search defines
** it: a winning move now, (cells + 1 - stones) / 2; else the best of the
** moves, a move that fills the board a draw (0), any other the negated
** score of the position it leads to.  INT_MIN when a move's position is
** not in the book. */
static int score_from_children(const Solver *s, const C4Book *book, Word cur, Word mask,
                               int stones) {
  const Shape *g = &s->g;
  if (can_win_now(g, cur, mask)) return (g->cells + 1 - stones) / 2;
  int best = INT_MIN;
  for (int col = 0; col < g->w; col++) {
    Word m = possible(g, mask) & column_mask(g, col);
    int v;
    if (!m) continue;
    if ((mask | m) == g->board) v = 0;
    else if (c4book_get(book, canonical_key(g, cur ^ mask, mask | m), &v)) v = -v;
    else return INT_MIN;
    if (v > best) best = v;
  }
  return best;
}

/* Checks a book read from a file against the rules: it holds exactly the
** positions of 0..to stones reachable from the empty board (as
** solver_make_book lists them), and the score of each position of fewer
** than `to` stones is the one its moves' scores give
** (score_from_children).  The last level's scores are searches the book
** saves and are taken as they are.  0, -1 out of memory, -2 stopped, or
** 1 with *why. */
static int solver_check_book(void *sp, const C4Book *book, const char **why) {
  Solver *s = sp;
  int to = book->to, st = 0, stopped = 0;
  if (book->from != 0 || to > s->g.cells - 1) { *why = "its levels are not 0..N stones"; return 1; }
  Pos *level = malloc(sizeof *level), *next = NULL;
  size_t n = 1, total = 0;
  if (!level) return -1;
  level[0] = (Pos){ 0, 0, 0 };
  level[0].key = canonical_key(&s->g, 0, 0);
  for (int d = 0; d <= to && st == 0; d++) {
    for (size_t i = 0; i < n && st == 0; i++) {
      int v;
      int want = d < to ? score_from_children(s, book, level[i].cur, level[i].mask, d) : 0;
      if (!c4book_get(book, level[i].key, &v) || want == INT_MIN) {
        *why = "a position is missing";
        st = 1;
      } else if (d < to && v != want) {
        *why = "a position's score disagrees with its moves' scores";
        st = 1;
      }
    }
    total += n;
    if (st != 0 || d == to) break;
    if (!(next = next_level(s, level, n, &n, &stopped))) st = stopped ? -2 : -1;
    free(level);
    level = next;
  }
  free(level);
  if (st == 0 && total != book->n) { *why = "it holds positions that are not reachable"; st = 1; }
  return st;
}
#endif

#if C4W_BITS == 64
const C4Impl c4_impl64 = {
  solver_new, solver_free, solver_reset, solver_touch, solver_shrunk_bytes, solver_solve,
  solver_make_book, solver_check_book
};
#else
const C4Impl c4_impl128 = {
  solver_new, solver_free, solver_reset, solver_touch, solver_shrunk_bytes, solver_solve, NULL,
  NULL
};
#endif
