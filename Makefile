# gsolve -- build, test, benchmark.  `make help` lists the targets.

CC      ?= cc
MPICC   ?= mpicc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Wno-unused-parameter
CPPFLAGS = -Isrc -I$(BUILD)
BUILD   := build
LDLIBS  := -lm -pthread -ldl -lglpk -lgmp -lmicrohttpd
# The compact retrograde tables' files compress their value blocks with
# zstd when libzstd-dev is installed (src/retro/compact_db.c); without it
# they are written raw, and a compressed one is refused.
ifneq ($(wildcard /usr/include/zstd.h),)
CPPFLAGS += -DGSOLVE_ZSTD
LDLIBS  += -lzstd
endif
# The Connect Four solver counts threats with popcount: one instruction on
# every x86-64 made since 2008, a library call without -mpopcnt.  (On
# CPPFLAGS, which no make command line here overrides.)
ifeq ($(shell uname -m),x86_64)
$(BUILD)/engines/connect4/c4solve64.o $(BUILD)/engines/connect4/c4solve128.o: CPPFLAGS += -mpopcnt
# The compact tables' Elias-Fano sets count bits on every lookup.
$(BUILD)/retro/efset.o: CPPFLAGS += -mpopcnt
endif
# c4search.h's Lanes, eight words in one 64-byte vector (vector_size(64)),
# go by value to winning_lanes, an inline function of c4solve64.c: GCC then
# notes that "the ABI for passing parameters with 64-byte alignment has
# changed in GCC 4.6".  Nothing outside the file calls it, so no ABI is
# crossed: the note is turned off there, and the build prints no line
# that reads like a warning (tests/t_newuser.sh).
$(BUILD)/engines/connect4/c4solve64.o: CPPFLAGS += -Wno-psabi

GEN_C   := $(BUILD)/parser.c $(BUILD)/lexer.c
# src/ holds one folder per layer (docs/architecture.md), engines one
# folder deeper.
# The MPI build's own files (make mpi) stay out of the plain build.
MPI_SRC := src/retro/retro_mpi.c src/retro/retro_mpi_job.c src/retro/retro_mpi_vector.c src/retro/retro_mpi_db.c \
           src/retro/retro_mpi_compact.c src/cli/main_mpi.c
SRC     := $(filter-out $(MPI_SRC),$(wildcard src/*/*.c src/*/*/*.c))
MAIN    := src/cli/main.c
LIB_SRC := $(filter-out $(MAIN),$(SRC))
OBJ     := $(patsubst src/%.c,$(BUILD)/%.o,$(LIB_SRC)) $(BUILD)/parser.o $(BUILD)/lexer.o $(BUILD)/aot_rt_text.o \
           $(BUILD)/web_files.o
MAIN_O  := $(BUILD)/cli/main.o
DEPS    := $(OBJ:.o=.d) $(MAIN_O:.o=.d)

.PHONY: mpi all test test-full asan tsan bench fuzz fuzz-build demo clean help tools test-tools install uninstall opcode-table man
all: gsolve

help:
	@echo "make            build ./gsolve"
	@echo "make demo       build and solve games/nim.game"
	@echo "make test       the fast test suite (minutes)"
	@echo "make test-full  the fast suite plus the heavy solves"
	@echo "make asan       the test suite under AddressSanitizer + UBSan"
	@echo "make tsan       the threaded Connect Four solver's tests under ThreadSanitizer"
	@echo "make mpi        build ./gsolve-mpi, retrograde analysis over MPI (docs/mpi.md)"
	@echo "make bench      benchmarks (perft throughput, solver node counts)"
	@echo "make install    gsolve, its man page and the games under PREFIX (/usr/local), DESTDIR"
	@echo "make uninstall  remove what make install put there (same PREFIX, DESTDIR)"
	@echo "make opcode-table  docs/language.md's instruction table from src/compiler/opcodes.def"
	@echo "make man        docs/gsolve.1: its option entries made to agree with the options table"
	@echo "make fuzz       libFuzzer on the harnesses (FUZZ_TARGETS), FUZZ_SECS=N seconds each"
	@echo "make clean      remove build products"

# Flex, Bison, GLPK (with GMP: the lp solver's exact arithmetic) and
# libmicrohttpd (gsolve serve): installed with apt-get when missing and
# running as root.
tools:
	@command -v bison >/dev/null && command -v flex >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing flex and bison"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y -qq flex bison >/dev/null; \
	  else echo "gsolve needs flex and bison: sudo apt-get install flex bison" >&2; exit 1; fi; }
	@[ -e /usr/include/glpk.h ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing libglpk-dev (GLPK and GMP: --solver lp)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y -qq libglpk-dev >/dev/null; \
	  else echo "gsolve needs GLPK (--solver lp): sudo apt-get install libglpk-dev" >&2; exit 1; fi; }
	@[ -e /usr/include/microhttpd.h ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing libmicrohttpd-dev"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y -qq libmicrohttpd-dev >/dev/null; \
	  else echo "gsolve serve needs libmicrohttpd: sudo apt-get install libmicrohttpd-dev" >&2; exit 1; fi; }

# The tests drive `gsolve play` in tmux, draw trees with Graphviz's dot, play
# Go against GNU Go (gnugo) over GTP, run the manual's examples with
# python3 and drive gsolve serve's page in headless Chromium (chromium,
# chromium-driver, python3-selenium for Debian's /usr/bin/python3):
# installed like flex and bison; without them those tests say what is
# missing.
test-tools:
	@need=""; command -v tmux >/dev/null || need="$$need tmux"; \
	command -v dot >/dev/null || need="$$need graphviz"; \
	[ -x /usr/games/gnugo ] || command -v gnugo >/dev/null || need="$$need gnugo"; \
	command -v python3 >/dev/null || need="$$need python3"; \
	[ -x /usr/bin/chromium ] || need="$$need chromium"; \
	[ -x /usr/bin/chromedriver ] || need="$$need chromium-driver"; \
	/usr/bin/python3 -c 'import selenium' 2>/dev/null || need="$$need python3-selenium"; \
	if [ -n "$$need" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing$$need"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y -qq $$need >/dev/null; \
	  else echo "some tests need:$$need (sudo apt-get install$$need)" >&2; fi; fi

# make install: the program, its man page and the bundled games under
# PREFIX (default /usr/local), all below DESTDIR when given (for packages:
# make install DESTDIR=/tmp/pkg PREFIX=/usr).  make uninstall removes
# exactly what install put there.
PREFIX ?= /usr/local
BINDIR   = $(DESTDIR)$(PREFIX)/bin
MAN1DIR  = $(DESTDIR)$(PREFIX)/share/man/man1
GAMESDIR = $(DESTDIR)$(PREFIX)/share/gsolve/games
GAMES   := $(wildcard games/*.game)
install: gsolve
	mkdir -p $(BINDIR) $(MAN1DIR) $(GAMESDIR)
	cp gsolve $(BINDIR)/gsolve
	chmod 755 $(BINDIR)/gsolve
	cp docs/gsolve.1 $(MAN1DIR)/gsolve.1
	chmod 644 $(MAN1DIR)/gsolve.1
	cp $(GAMES) $(GAMESDIR)/
	cd $(GAMESDIR) && chmod 644 $(notdir $(GAMES))

uninstall:
	rm -f $(BINDIR)/gsolve $(MAN1DIR)/gsolve.1
	cd $(GAMESDIR) 2>/dev/null && rm -f $(notdir $(GAMES)) || true
	-rmdir $(GAMESDIR) $(DESTDIR)$(PREFIX)/share/gsolve 2>/dev/null

# Grouped targets (&:): one run of bison (or flex) makes both files; with
# a plain rule `make -j2` could run it twice at once and interleave them.
$(BUILD)/parser.c $(BUILD)/parser.h &: grammar/parser.y | $(BUILD) tools
	bison -Wall -Werror -o $(BUILD)/parser.c --header=$(BUILD)/parser.h $<

$(BUILD)/lexer.c $(BUILD)/lexer.h &: grammar/lexer.l $(BUILD)/parser.h | $(BUILD) tools
	flex -o $(BUILD)/lexer.c --header-file=$(BUILD)/lexer.h $<

$(BUILD):
	mkdir -p $(BUILD)

# Generated code is compiled without -Werror on unused functions flex emits.
$(BUILD)/lexer.o: $(BUILD)/lexer.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wno-unused-function -Wno-sign-compare -MMD -MP -c -o $@ $<
$(BUILD)/parser.o: $(BUILD)/parser.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -MMD -MP -c -o $@ $<
# The lp solver includes glpk.h and gmp.h (installed by tools).
$(patsubst src/%.c,$(BUILD)/%.o,$(wildcard src/cfr/lp*.c)): | tools
$(BUILD)/%.o: src/%.c $(BUILD)/parser.h $(BUILD)/lexer.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -MMD -MP -c -o $@ $<

# The compiled tier's runtime header, embedded as a string (src/vm/aot_gen.h)
# so that the installed gsolve needs no source tree.
$(BUILD)/aot_rt_text.c: src/vm/aot_rt.h | $(BUILD)
	{ echo '/* Generated from src/vm/aot_rt.h by the Makefile. */'; \
	  echo 'const char aot_rt_text[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/  "/' -e 's/$$/\\n"/' $<; echo '  ;'; } > $@
$(BUILD)/aot_rt_text.o: $(BUILD)/aot_rt_text.c
	$(CC) $(CFLAGS) -c -o $@ $<

# gsolve serve's page (web/): its files embedded as strings, so that the
# installed gsolve needs no source tree either.
WEB_FILES := $(sort $(wildcard web/*.html web/*.js web/*.css))
$(BUILD)/web_files.c: $(WEB_FILES) Makefile | $(BUILD)
	{ echo '/* Generated from web/ by the Makefile. */'; echo '#include "cli/serve_request.h"'; \
	  i=0; for f in $(WEB_FILES); do echo "static const char file_$$i[] ="; \
	    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/  "/' -e 's/$$/\\n"/' $$f; echo '  ;'; i=$$((i+1)); done; \
	  echo 'const WebFile web_files[] = {'; i=0; for f in $(WEB_FILES); do \
	    case $$f in *.html) t='text/html; charset=utf-8';; *.js) t='text/javascript; charset=utf-8';; \
	      *) t='text/css; charset=utf-8';; esac; \
	    echo "  { \"$${f#web/}\", \"$$t\", file_$$i },"; i=$$((i+1)); done; \
	  echo '  { 0, 0, 0 }'; echo '};'; } > $@
$(BUILD)/web_files.o: $(BUILD)/web_files.c src/cli/serve_request.h
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/libgsolve.a: $(OBJ)
	rm -f $@; ar rcs $@ $^

gsolve: $(MAIN_O) $(BUILD)/libgsolve.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# gsolve-mpi: the same program with the retrograde solver distributed
# over MPI ranks (docs/mpi.md); needs Open MPI's mpicc (libopenmpi-dev).
mpi: gsolve-mpi
gsolve-mpi: $(MPI_SRC) src/cli/main.c $(BUILD)/libgsolve.a $(wildcard src/*/*.h)
	@command -v $(MPICC) >/dev/null || { echo "make mpi needs mpicc: sudo apt-get install libopenmpi-dev openmpi-bin" >&2; exit 1; }
	$(MPICC) $(CPPFLAGS) $(CFLAGS) $(WARN) -Dmain=gsolve_main -c -o $(BUILD)/main-mpi.o src/cli/main.c
	$(MPICC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(MPI_SRC) $(BUILD)/main-mpi.o $(BUILD)/libgsolve.a $(LDLIBS)

# gsolve-mpi with allocation-failure injection (tests/unit/failalloc.c):
# tests/t_mpi.sh runs it with one rank alone out of memory.
$(BUILD)/gsolve-mpi-failalloc: gsolve-mpi tests/unit/failalloc.c
	$(MPICC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(WRAP_ALLOC) -o $@ tests/unit/failalloc.c $(MPI_SRC) $(BUILD)/main-mpi.o $(BUILD)/libgsolve.a $(LDLIBS)

demo: gsolve
	./gsolve games/nim.game --solve

# Unit tests of the solvers against hand-written C engines (tests/unit).
# The search frame and the solvers' rooms (docs/architecture.md).
SOLVER_ROOMS := search solve retro cfr mcts driver
UNIT_SRC := tests/unit/test_solvers.c tests/unit/testgames.c $(filter-out $(MPI_SRC),$(wildcard $(SOLVER_ROOMS:%=src/%/*.c))) \
            src/game/position.c src/game/trap.c src/util/diag.c src/util/json.c src/util/stop.c src/util/file.c \
            src/util/units.c
$(BUILD)/test_solvers: $(UNIT_SRC) $(wildcard tests/unit/*.h src/*.h src/*/*.h) | $(BUILD)
	$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) $(WARN) -o $@ $(UNIT_SRC) $(LDLIBS)

# CFR and the tree expansion on poker engines written in C (tests/unit/test_cfr.c).
CFR_UNIT_SRC := tests/unit/test_cfr.c src/cfr/gametree.c src/cfr/cfr.c src/search/walk.c \
                src/search/progress.c src/game/trap.c src/util/diag.c src/util/stop.c src/util/units.c
$(BUILD)/test_cfr: $(CFR_UNIT_SRC) $(wildcard src/*/*.h) | $(BUILD)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(CFR_UNIT_SRC) $(LDLIBS)

$(BUILD)/test_vm: tests/unit/test_vm.c tests/unit/gametest.h tests/unit/loadgame.h $(BUILD)/libgsolve.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(BUILD)/libgsolve.a $(LDLIBS)

$(BUILD)/test_views: tests/unit/test_views.c tests/unit/gametest.h tests/unit/loadgame.h $(BUILD)/libgsolve.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(BUILD)/libgsolve.a $(LDLIBS)

# Games between computer players, for make bench (tests/bench.sh).
$(BUILD)/match: tests/unit/match.c tests/unit/loadgame.h $(BUILD)/libgsolve.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(BUILD)/libgsolve.a $(LDLIBS)

$(BUILD)/test_native: tests/unit/test_native.c tests/unit/gametest.h tests/unit/loadgame.h $(BUILD)/libgsolve.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(BUILD)/libgsolve.a $(LDLIBS)

$(BUILD)/test_c4table: tests/unit/test_c4table.c $(BUILD)/libgsolve.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(BUILD)/libgsolve.a $(LDLIBS)

# The compact tables' Elias-Fano sets (tests/t_compact.sh).
$(BUILD)/test_efset: tests/unit/test_efset.c $(BUILD)/libgsolve.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(BUILD)/libgsolve.a $(LDLIBS)

# Compact retrograde tables answering random positions (tests/t_compact.sh).
$(BUILD)/compact_query: tests/unit/compact_query.c tests/unit/loadgame.h $(BUILD)/libgsolve.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(BUILD)/libgsolve.a $(LDLIBS)

# gsolve with allocation-failure injection (tests/unit/failalloc.c).
WRAP_ALLOC := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup,--wrap=aligned_alloc,--wrap=posix_memalign
$(BUILD)/gsolve-failalloc: $(MAIN_O) $(BUILD)/libgsolve.a tests/unit/failalloc.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(WRAP_ALLOC) -o $@ tests/unit/failalloc.c $(MAIN_O) $(BUILD)/libgsolve.a $(LDLIBS)

TEST_BINS = $(BUILD)/test_solvers $(BUILD)/test_cfr $(BUILD)/replay $(BUILD)/test_vm $(BUILD)/test_views $(BUILD)/test_native $(BUILD)/test_c4table \
  $(BUILD)/gsolve-failalloc $(BUILD)/compact_query $(BUILD)/test_efset
# gsolve-mpi joins the tests and the bench when Open MPI is installed
# (tests/t_mpi.sh says so loudly when it is not).
MPI_BIN := $(if $(shell command -v $(MPICC) 2>/dev/null),gsolve-mpi $(BUILD)/gsolve-mpi-failalloc)
test: gsolve $(TEST_BINS) $(MPI_BIN) | test-tools
	sh tests/run.sh

test-full: gsolve $(TEST_BINS) $(MPI_BIN) | test-tools
	GSOLVE_FULL=1 sh tests/run.sh

# The whole suite again, built with AddressSanitizer and UBSan in build-asan/.
asan: test-tools
	$(MAKE) BUILD=build-asan CFLAGS="$(ASAN_CFLAGS)" gsolve-asan build-asan/test_solvers build-asan/test_cfr build-asan/replay build-asan/test_vm build-asan/test_views build-asan/test_native build-asan/test_c4table build-asan/gsolve-failalloc build-asan/compact_query build-asan/test_efset
	GSOLVE=./build-asan/gsolve BUILD=build-asan ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 sh tests/run.sh
# The solver's threads share its table: their tests under ThreadSanitizer.
tsan:
	$(MAKE) BUILD=build-tsan CFLAGS="-O1 -g -fsanitize=thread" gsolve-asan build-tsan/test_c4table
	GSOLVE=./build-tsan/gsolve BUILD=build-tsan TSAN_OPTIONS=halt_on_error=1 sh tests/run.sh tests/t_c4solver.sh
# VM_CHECK_STACK: the VM checks every instruction's stack effect against
# src/compiler/opcodes.def (and each frame against the compiler's maxstack).
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all \
               -DVM_CHECK_STACK

gsolve-asan: $(MAIN_O) $(BUILD)/libgsolve.a
	$(CC) $(CFLAGS) -o $(BUILD)/gsolve $^ $(LDLIBS)

# docs/gsolve.1's options kept in step with the options table (src/cli/
# options.c, as --help-options prints it): an entry made from the table
# for each option the man page lacks, none for an option the table no
# longer has (tests/t_help.sh fails while they disagree).
man: gsolve
	python3 tests/gen_man_options.py --update ./gsolve docs/gsolve.1

# docs/language.md's instruction table, printed from src/compiler/opcodes.def
# (tests/t_opcodes.sh fails while they disagree).
opcode-table:
	python3 tests/gen_opcode_table.py --update docs/language.md

bench: gsolve $(BUILD)/match $(MPI_BIN)
	sh tests/bench.sh
	sh tests/bench_connect4.sh
	sh tests/bench_games.sh
	sh tests/bench_chess.sh
	sh tests/bench_compact.sh
	sh tests/bench_compact_cycles.sh
	sh tests/bench_mpi.sh
	sh tests/bench_lp.sh
	sh tests/bench_web.sh
	sh tests/bench_fast.sh

# Fuzzing: eight harnesses under libFuzzer (clang), each for FUZZ_SECS
# seconds: fuzz_parse (lexer and parser), fuzz_compile (parse, check,
# compile, disassemble), fuzz_pipeline (compile, then run the rules on
# the VM and a short bounded search), fuzz_gtp (the input as GTP commands
# to Go and Tic-tac-toe), fuzz_db and fuzz_book (the database and
# opening-book readers), fuzz_position (--fen and --position, and the
# check of the position), fuzz_efg (the Gambit .efg reader, its engine),
# fuzz_http (gsolve serve's request parser).  Seeds: the bundled games, the
# error tests, the malformed inputs and the saved corpus (fuzz/corpus_db,
# fuzz/corpus_book, fuzz/corpus_position, fuzz/corpus_efg and
# fuzz/corpus_http for the last five); new inputs go to
# build-fuzz/corpus-NAME, crashes to build-fuzz/crash-NAME-*.  The fuzz
# build lowers the VM's step budget so runaway rules end quickly.  The
# replay driver runs every harness over files without libFuzzer (make test).
FUZZ_SECS    ?= 60
FUZZ_MAX_LEN ?= 262144
FUZZ_TIMEOUT ?= 10
FUZZ_TARGETS ?= parse compile pipeline gtp db book position efg http
FUZZ_CFLAGS  := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -DVM_MAX_STEPS=100000 -DVM_FUZZ_BUDGET
FUZZ_SEEDS   := games tests/errors tests/malformed fuzz/corpus
# libFuzzer's comparison tracing (trace-cmp) took three quarters of the
# time of a fuzzed game's rules in the VM's loop (a paper soccer input: 13.6
# s, past the 10-second timeout, for 0.35 s in the plain build): the VM
# keeps edge coverage and drops only that tracing, since its comparisons
# are on the game's state, not on the input's bytes.
build-fuzz/vm/%.o: CPPFLAGS += -fno-sanitize-coverage=trace-cmp
fuzz-build: tools
	@command -v clang >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y -qq clang libclang-rt-14-dev >/dev/null; }
	$(MAKE) BUILD=build-fuzz CC=clang CFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link" build-fuzz/libgsolve.a
	for t in $(FUZZ_TARGETS); do \
	  clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -Isrc -Ibuild-fuzz -o build-fuzz/fuzz_$$t fuzz/fuzz_$$t.c build-fuzz/libgsolve.a $(LDLIBS) || exit 1; \
	done

fuzz: fuzz-build
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p build-fuzz/corpus-$$t; \
	  case $$t in db|book|position|efg|http) seeds=fuzz/corpus_$$t; dict= ;; \
	    *) seeds="$(FUZZ_SEEDS)"; dict=-dict=fuzz/game.dict ;; esac; \
	  build-fuzz/fuzz_$$t -max_len=$(FUZZ_MAX_LEN) -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 \
	    -max_total_time=$(FUZZ_SECS) $$dict -artifact_prefix=build-fuzz/crash-$$t- \
	    -print_final_stats=1 build-fuzz/corpus-$$t $$seeds || exit 1; \
	done

FUZZ_HARNESSES := fuzz/fuzz_parse.c fuzz/fuzz_compile.c fuzz/fuzz_pipeline.c fuzz/fuzz_gtp.c \
                  fuzz/fuzz_db.c fuzz/fuzz_book.c fuzz/fuzz_position.c fuzz/fuzz_efg.c \
                  fuzz/fuzz_http.c
$(BUILD)/replay: fuzz/replay.c $(FUZZ_HARNESSES) fuzz/fuzz_checksum.h $(BUILD)/libgsolve.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -DFUZZ_NO_MAIN -o $@ fuzz/replay.c $(FUZZ_HARNESSES) $(BUILD)/libgsolve.a $(LDLIBS)

clean:
	rm -rf build build-asan build-tsan build-fuzz gsolve gsolve-mpi

-include $(DEPS)
