# ar - advance reservations for compute clusters.  See README.
#
#   make          build the library and the commands into $(B)
#   make demo     replay a real trace excerpt through the commands; its
#                 store stays in $(B)/demo
#   make check    every test, also under ASan+UBSan and on PostgreSQL, and
#                 a short fuzz pass
#   make bench    performance figures (never part of check; check runs
#                 each bench program in a quick mode, without timing);
#                 make garq: GarQ's comparison and the price of slots;
#                 make hostbench: the host model's design study
#   make fuzz     a fuzzing campaign: FUZZ_RUNS executions a target,
#                 within FUZZ_SECONDS in all
#   make install  commands, libraries, headers, pkg-config file and man
#                 pages under $(prefix); make uninstall removes them;
#                 SETGID=group installs the commands setgid to it

CC ?= cc
CFLAGS ?= -O2 -g
prefix ?= /usr/local
bindir = $(prefix)/bin
libdir = $(prefix)/lib
includedir = $(prefix)/include
mandir = $(prefix)/share/man
sysconfdir = $(prefix)/etc
B ?= .build
# The stores a command installed setgid serves (README, "A shared
# store"): fixed when cmd.o is built, so that no caller can name another.
STORES_FILE = $(sysconfdir)/ar/stores

WARN = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
# Without pkg-config, or without a .pc file for LMDB (not every system
# ships one), LMDB is looked for where the compiler looks by itself.
PKG_CONFIG ?= pkg-config
LMDB_CFLAGS = $(shell $(PKG_CONFIG) --cflags lmdb 2>/dev/null)
LMDB_LIBS = $(shell $(PKG_CONFIG) --libs lmdb 2>/dev/null || echo -llmdb)
# The commands are linked statically (STATIC=0 to link dynamically): a
# command is started once per request in scripts, and the dynamic loader
# cost more than a whole ar-search (see the closing note of issue 5).
# -static makes the linker take liblmdb.a for -llmdb.  libpq has no
# static build on Debian (GSSAPI and LDAP have none), so the PostgreSQL
# backend loads libpq.so.5 with dlopen when a command first meets a URI;
# the linker's warning about dlopen in a static program says what that
# needs: the C library the command was built with, which it has here.
STATIC ?= 1
CMD_LINK = $(if $(filter 1,$(STATIC)),-static $(LMDB_LIBS) -lpthread -lm,$(LMDB_LIBS) -lm)
# libpq's header only: the library is loaded when a PostgreSQL store is
# first used (lib/pg/pq.h says why).
# libpq's header, found as LMDB's is: pkg-config, else where pg_config or
# Debian puts it.
PQ_CFLAGS = $(shell $(PKG_CONFIG) --cflags libpq 2>/dev/null || \
	echo -I$$(pg_config --includedir 2>/dev/null || echo /usr/include/postgresql))
# Each layer is compiled with the include path of its own headers and
# of the layers below it, no other: lib/ sees lib/ alone (and its
# backends' system headers), format/ lib/ too, cmd/ all three; so an
# include that reaches a layer up does not compile.  The tests, fuzz
# targets and benchmarks see every layer.
BASE_CFLAGS = $(WARN) -D_DEFAULT_SOURCE $(CPPFLAGS)
LIB_CFLAGS = $(BASE_CFLAGS) -Ilib $(LMDB_CFLAGS) $(PQ_CFLAGS) $(CFLAGS)
FORMAT_CFLAGS = $(BASE_CFLAGS) -Iformat -Ilib $(CFLAGS)
CMD_CFLAGS = $(BASE_CFLAGS) -Icmd -Iformat -Ilib $(CFLAGS)
ALL_CFLAGS = $(BASE_CFLAGS) -Ilib -Iformat -Icmd $(LMDB_CFLAGS) $(PQ_CFLAGS) \
	$(CFLAGS)

FORMAT_SRC = $(wildcard format/*.c)
LIB_SRC = $(wildcard lib/*.c lib/*/*.c)
CMD_SRC = $(wildcard cmd/ar-*.c)
CMDS = $(CMD_SRC:cmd/%.c=$(B)/bin/%)
MAN1 = $(wildcard cmd/*.1)
MAN5 = format/ar-records.5
MAN7 = cmd/ar-intro.7

FORMAT_OBJ = $(FORMAT_SRC:%.c=$(B)/%.o)
LIB_OBJ = $(LIB_SRC:%.c=$(B)/%.o)
HEADERS = lib/ar.h lib/array.h lib/internal.h lib/kv.h lib/mem/mem.h lib/pg/pq.h \
	format/format.h cmd/cmd.h cmd/chart.h cmd/child.h cmd/slurm.h fuzz/run.h fuzz/message.h

all: $(B)/libar.a $(B)/libar.so $(CMDS)

# Objects made on the way to a command are kept, not deleted as
# intermediate files: they are relinked for fuzzing and benchmarks.
.SECONDARY:

$(B)/lib/%.o: lib/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -c $< -o $@

$(B)/format/%.o: format/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(FORMAT_CFLAGS) -c $< -o $@

$(B)/cmd/%.o: cmd/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CMD_CFLAGS) -c $< -o $@

$(B)/libar.a: $(LIB_OBJ) $(FORMAT_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# The shared library, from objects of its own built with -fPIC.  Its
# soname changes with ABI, which goes up when a program built against an
# older libar.so.$(ABI) would break: a public struct or function changed.
VERSION := $(shell sed -n '/define AR_VERSION/s/[^"]*"\(.*\)"/\1/p' lib/ar.h)
ABI = 1
SONAME = libar.so.$(ABI)
PIC_OBJ = $(LIB_SRC:%.c=$(B)/pic/%.o) $(FORMAT_SRC:%.c=$(B)/pic/%.o)

$(B)/pic/lib/%.o: lib/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -fPIC -c $< -o $@

$(B)/pic/format/%.o: format/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(FORMAT_CFLAGS) -fPIC -c $< -o $@

$(B)/libar.so: $(PIC_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -o $@ $^ \
		$(LMDB_LIBS) -lm

# cmd.o is built again when STORES_FILE changes (make install
# sysconfdir=/etc after make): $(B)/stores-file says what it was built with.
$(B)/cmd/cmd.o: CMD_CFLAGS += -DAR_STORES_FILE='"$(STORES_FILE)"'
$(B)/cmd/cmd.o: $(B)/stores-file

$(B)/stores-file: FORCE
	@mkdir -p $(@D)
	@echo '$(STORES_FILE)' | cmp -s - $@ || echo '$(STORES_FILE)' >$@

FORCE:

# What every command links beside its own main: the driver, the table
# of fields, records to values and back, tables and charts, and the
# name service and Slurm.
CMD_SHARED = cmd/cmd.c cmd/chart.c cmd/child.c cmd/fields.c cmd/records.c \
	cmd/slurm.c

$(B)/bin/%: $(B)/cmd/%.o $(CMD_SHARED:%.c=$(B)/%.o) $(B)/libar.a
	@mkdir -p $(@D)
	$(CC) $(CMD_CFLAGS) $(LDFLAGS) -o $@ $^ $(CMD_LINK)

# Dependencies come from Debian: what is missing is installed.
# build-deps is what make, and so make demo, needs: a C compiler and the
# headers and libraries of LMDB and libpq, looked for as the build looks
# for them; deps adds what the tests and benchmarks need.
APT_MISSING = if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build-deps:
	@missing=""; \
	command -v $(firstword $(CC)) >/dev/null 2>&1 || missing="$$missing gcc"; \
	echo '#include <lmdb.h>' | $(CC) $(LMDB_CFLAGS) -E -x c - \
		>/dev/null 2>&1 || missing="$$missing liblmdb-dev"; \
	echo '#include <libpq-fe.h>' | $(CC) $(PQ_CFLAGS) -E -x c - \
		>/dev/null 2>&1 || missing="$$missing libpq-dev"; \
	$(APT_MISSING)

deps: build-deps
	@missing=""; \
	command -v clang >/dev/null 2>&1 || missing="$$missing clang"; \
	command -v c++ >/dev/null 2>&1 || missing="$$missing g++"; \
	ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a \
		>/dev/null 2>&1 || missing="$$missing libclang-rt-dev"; \
	pkg-config --exists sqlite3 2>/dev/null || missing="$$missing libsqlite3-dev"; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	command -v rsvg-convert >/dev/null 2>&1 || missing="$$missing librsvg2-bin"; \
	pkg-config --exists libpng 2>/dev/null || missing="$$missing libpng-dev"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		missing="$$missing postgresql"; \
	PATH=$$PATH:/usr/sbin; \
	command -v slurmctld >/dev/null 2>&1 || missing="$$missing slurmctld"; \
	command -v scontrol >/dev/null 2>&1 || missing="$$missing slurm-client"; \
	command -v munged >/dev/null 2>&1 || missing="$$missing munge"; \
	ls /usr/lib/*/libnss_wrapper.so >/dev/null 2>&1 || \
		missing="$$missing libnss-wrapper"; \
	$(APT_MISSING)

.PHONY: all build-deps deps demo check test unit floors fuzz-dict e2e crash-test \
	crash-test-partitions crash-test-classes install-test crash san \
	coalloc-test coalloc pg-test pg-suites pg-units pg-e2e pg-faults slurm-rounds \
	fuzz-short fuzz-build fuzz fuzz-fast bench bench-run garq hostbench hosts-test flexbench \
	rmbench compare bench-quick install uninstall clean FORCE

# --- tests ---------------------------------------------------------------

TEST_BINS = $(B)/tests/test_format $(B)/tests/test_lib $(B)/tests/test_price \
	$(B)/tests/test_map $(B)/tests/test_modify $(B)/tests/test_hold \
	$(B)/tests/test_reclaim \
	$(B)/tests/test_report $(B)/tests/test_series $(B)/tests/test_kv \
	$(B)/tests/test_schemes $(B)/tests/test_frames $(B)/tests/test_pools \
	$(B)/tests/test_drain

$(B)/tests/%: tests/%.c tests/helpers.h tests/check.h tests/suite.h $(B)/libar.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests $(LDFLAGS) -o $@ $(filter %.c,$^) $(filter %.o,$^) \
		$(filter %.a,$^) $(LMDB_LIBS) -lm

# The typo rule is tested on the fields the commands know.
$(B)/tests/test_format: $(B)/cmd/fields.o

# Reads the pixels of a rendered chart (librsvg's rsvg-convert draws it).
$(B)/tests/pngpixel: tests/pngpixel.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $$(pkg-config --libs libpng)

# The brute-force model is shared by the model test and the model fuzzer;
# its brute force over pools with the pools test.
$(B)/tests/test_lib: tests/model.c tests/model.h tests/pools.h
$(B)/tests/test_pools: tests/pools.h

# make compare's schemes in memory, against brute force (tests/oracle.c).
$(B)/tests/test_schemes: tests/oracle.c tests/oracle.h tests/bench/plan.c \
	tests/bench/schemes.h

# Each suite's closing "N passed, N failed" line is kept in RESULTS so
# that check can close with the sum of them all.
RESULTS = $(CURDIR)/.build/results

# The suites whose subject is not the disk run on memory stores too
# (--mem): test_lib's algorithms with the model's whole span, and
# test_report only there.
MEM_TESTS = test_lib test_modify test_hold test_reclaim test_series test_report \
	test_pools test_drain

# Each run is a target of its own, unit-NAME or unit-NAME--mem (on
# memory stores), with its log $(B)/tests/NAME.log or NAME--mem.log:
# make -j runs them side by side.
UNIT_RUNS = $(filter-out test_report,$(notdir $(TEST_BINS))) $(MEM_TESTS:%=%--mem)

unit: $(UNIT_RUNS:%=unit-%)

unit-%: $(TEST_BINS)
	@mkdir -p .build
	@echo "== $(B)/tests/$(subst --mem, --mem,$*)"
	@$(B)/tests/$(subst --mem, --mem,$*) >$(B)/tests/$*.log 2>&1; rc=$$?; \
		cat $(B)/tests/$*.log; \
		tail -n 1 $(B)/tests/$*.log >>$(RESULTS); [ $$rc = 0 ]

# Concurrent readers the e2e suite holds at once (fewer under ASan),
# whether the build is sanitized (memory-limit cases then skip), and how
# many of its files run at once (tests/e2e.sh, AR_E2E_JOBS).
E2E_READERS ?= 1000
E2E_SANITIZED ?= 0
E2E_JOBS ?= 2

e2e: $(CMDS) $(B)/tests/txn_hold $(B)/tests/pngpixel
	@mkdir -p .build
	@echo "== tests/e2e.sh ($(B))"
	@AR_BIN=$(CURDIR)/$(B)/bin AR_TESTS=$(CURDIR)/$(B)/tests \
		AR_READERS=$(E2E_READERS) AR_SANITIZED=$(E2E_SANITIZED) \
		AR_E2E_JOBS=$(E2E_JOBS) sh tests/e2e.sh >$(B)/e2e.log 2>&1; rc=$$?; \
		grep -v '^ok ' $(B)/e2e.log; tail -n 1 $(B)/e2e.log >>$(RESULTS); \
		exit $$rc

# Writers killed at random moments: CRASH_ROUNDS rounds (make crash: 500),
# on a store of partitions, then on one pool with price classes.
CRASH_ROUNDS ?= 30
CRASH_DELAY_MS ?= 300
# With price classes writers refuse sooner: kill them sooner too; but a
# sanitized writer's start dominates, and it gets the whole delay.
CRASH_CLASSES_DELAY_MS ?= $$(( $(CRASH_DELAY_MS) / 3 + 1 ))

# The two runs are targets of their own (make -j runs them side by side),
# each with its log: $(B)/crash-partitions.log, $(B)/crash-classes.log.
crash-test: crash-test-partitions crash-test-classes

crash-test-partitions: $(B)/tests/test_crash $(CMDS)
	@mkdir -p .build
	@echo "== tests/test_crash.c ($(CRASH_ROUNDS) rounds, partitions, $(B))"
	@$(B)/tests/test_crash $(B)/bin $(CRASH_ROUNDS) 20261121 \
		$(CRASH_DELAY_MS) partitions >$(B)/crash-partitions.log 2>&1; \
		rc=$$?; cat $(B)/crash-partitions.log; \
		tail -n 1 $(B)/crash-partitions.log >>$(RESULTS); exit $$rc

crash-test-classes: $(B)/tests/test_crash $(CMDS)
	@mkdir -p .build
	@echo "== tests/test_crash.c ($(CRASH_ROUNDS) rounds, price classes, $(B))"
	@$(B)/tests/test_crash $(B)/bin $(CRASH_ROUNDS) 20261122 \
		$(CRASH_CLASSES_DELAY_MS) classes >$(B)/crash-classes.log 2>&1; \
		rc=$$?; cat $(B)/crash-classes.log; \
		tail -n 1 $(B)/crash-classes.log >>$(RESULTS); exit $$rc

crash:
	$(MAKE) crash-test CRASH_ROUNDS=500

# The README's coalloc script on three stores, killed at random moments:
# COALLOC_ROUNDS rounds (make coalloc: 300).
COALLOC_ROUNDS ?= 20
COALLOC_DELAY_MS ?= 40

$(B)/tests/coalloc.sh: README
	@mkdir -p $(@D)
	awk '/^    #!\/bin\/sh$$/ { on = 1 } on { print substr($$0, 5) } \
		/^    # end of coalloc$$/ { on = 0 }' README >$@

coalloc-test: $(B)/tests/test_coalloc $(B)/tests/coalloc.sh $(CMDS)
	@mkdir -p .build
	@echo "== tests/test_coalloc.c ($(COALLOC_ROUNDS) rounds, $(B))"
	@$(B)/tests/test_coalloc $(B)/tests/coalloc.sh $(CURDIR)/$(B)/bin \
		$(COALLOC_ROUNDS) 20261123 $(COALLOC_DELAY_MS) \
		>$(B)/coalloc.log 2>&1; rc=$$?; cat $(B)/coalloc.log; \
		tail -n 1 $(B)/coalloc.log >>$(RESULTS); exit $$rc

coalloc:
	$(MAKE) coalloc-test COALLOC_ROUNDS=300

# make install and uninstall into a scratch DESTDIR, programs built as C
# and C++ against what they install, and a build without pkg-config;
# and the commands installed setgid, used by an unprivileged user.
install-test: all
	@mkdir -p .build
	@echo "== tests/packaging.sh tests/setgid.sh ($(B))"
	@MAKE='$(MAKE)' CC='$(CC)' CFLAGS='$(CFLAGS)' LDFLAGS='$(LDFLAGS)' \
		STATIC='$(STATIC)' AR_BIN=$(CURDIR)/$(B)/bin AR_E2E_JOBS=$(E2E_JOBS) \
		sh tests/e2e.sh tests/packaging.sh tests/setgid.sh \
		>$(B)/packaging.log 2>&1; rc=$$?; \
		grep -v '^ok ' $(B)/packaging.log; \
		tail -n 1 $(B)/packaging.log >>$(RESULTS); exit $$rc

# Every call in lib/ goes down the stack of floors lib/internal.h names,
# or sideways, never up: read from the objects' symbols.
floors: $(LIB_OBJ)
	@echo "== tests/floors.sh ($(B)/lib)"
	@sh tests/floors.sh $(B)/lib >$(B)/floors.log 2>&1; rc=$$?; \
		cat $(B)/floors.log; tail -n 1 $(B)/floors.log >>$(RESULTS); \
		exit $$rc

# fuzz/cmd.dict holds every option and every field read (tests/fuzzdict.sh).
fuzz-dict:
	@mkdir -p $(B); echo "== tests/fuzzdict.sh"
	@sh tests/fuzzdict.sh >$(B)/fuzzdict.log 2>&1; rc=$$?; \
		cat $(B)/fuzzdict.log; tail -n 1 $(B)/fuzzdict.log >>$(RESULTS); \
		exit $$rc

test: unit hosts-test floors fuzz-dict e2e crash-test coalloc-test install-test

# ar-map --slurm against a throwaway slurmctld (tests/slurm.sh):
# SLURM_ROUNDS random rounds, the exporter SIGKILLed at random moments
# and the controller stopped now and then; after every round Slurm holds
# exactly the plan.  The e2e suite runs 3 rounds; make slurm-rounds 100.
SLURM_ROUNDS ?= 100

slurm-rounds: all
	@why=$$(sh tests/slurm.sh can) || { echo "slurm-rounds: skipped: $$why"; exit 0; }; \
	dir=$$(mktemp -d $${TMPDIR:-/tmp}/ar-slurm.XXXXXX) || exit 3; \
	trap 'sh tests/slurm.sh stop '"$$dir/ctld"'; rm -rf '"$$dir" EXIT; \
	trap 'exit 130' INT TERM; \
	conf=$$(sh tests/slurm.sh start "$$dir/ctld") || exit 3; \
	PATH=$(CURDIR)/$(B)/bin:$$PATH SLURM_CONF=$$conf AR_STORE=$$dir/store \
		sh tests/slurm-rounds.sh $(SLURM_ROUNDS) 20261126

# A throwaway PostgreSQL cluster (tests/pg.sh) for as long as the targets
# in PG_SUITES run, its URI in AR_TEST_PG; stopped and removed however
# they end.  With AR_TEST_PG already set, that server is used instead.
PG_SUITES ?= pg-suites

pg-test:
	@if [ -n "$$AR_TEST_PG" ]; then exec $(MAKE) $(PG_SUITES); fi; \
	dir=$$(mktemp -d $${TMPDIR:-/tmp}/ar-pg.XXXXXX) || exit 3; \
	trap 'sh tests/pg.sh stop '"$$dir" EXIT; trap 'exit 130' INT TERM; \
	uri=$$(sh tests/pg.sh start "$$dir") || exit 3; \
	echo "== PostgreSQL at $$uri"; \
	$(MAKE) $(PG_SUITES) AR_TEST_PG="$$uri"

# On PostgreSQL (make pg-test starts the server): the backend's
# conformance test, the model test, the pools test and the drain test,
# one after another, beside the end-to-end suite (their stores' names
# are their own).
pg-suites: pg-units pg-e2e

pg-units: $(B)/tests/test_kv $(B)/tests/test_lib $(B)/tests/test_pools \
		$(B)/tests/test_drain
	@mkdir -p .build
	@for t in test_kv "test_lib --pg $$AR_TEST_PG" \
	    "test_pools --pg $$AR_TEST_PG" "test_drain --pg $$AR_TEST_PG"; do \
		echo "== $(B)/tests/$${t%% *} on PostgreSQL"; \
		$(B)/tests/$$t >$(B)/pg.log 2>&1; rc=$$?; \
		grep -v '^ok ' $(B)/pg.log | tail -n 20; \
		tail -n 1 $(B)/pg.log >>$(RESULTS); [ $$rc = 0 ] || exit 1; \
	done

pg-e2e: $(CMDS) $(B)/tests/txn_hold $(B)/tests/pngpixel
	@mkdir -p .build
	@echo "== tests/e2e.sh on PostgreSQL ($(B))"
	@AR_E2E_PG="$$AR_TEST_PG" AR_BIN=$(CURDIR)/$(B)/bin \
		AR_TESTS=$(CURDIR)/$(B)/tests AR_READERS=$(E2E_READERS) \
		AR_SANITIZED=$(E2E_SANITIZED) AR_E2E_JOBS=$(E2E_JOBS) \
		sh tests/e2e.sh >$(B)/e2e-pg.log 2>&1; rc=$$?; \
		grep -v '^ok \|^skip ' $(B)/e2e-pg.log; \
		tail -n 1 $(B)/e2e-pg.log >>$(RESULTS); exit $$rc

# The PostgreSQL backend's fault campaign (tests/pg-faults.sh): clients
# and the server SIGKILLed, a synchronous standby promoted, writers on
# several network namespaces.  PG_FAULTS_PARTS picks some of them (and
# lmdb, the clients part on LMDB); never part of check.
PG_FAULTS_PARTS ?=

pg-faults: deps
	$(MAKE) all
	AR_BIN=$(CURDIR)/$(B)/bin sh tests/pg-faults.sh $(PG_FAULTS_PARTS)

san:
	$(MAKE) B=.build/san CC=clang STATIC=0 CRASH_ROUNDS=10 CRASH_DELAY_MS=4000 \
		CRASH_CLASSES_DELAY_MS=4000 \
		E2E_READERS=300 E2E_SANITIZED=1 \
		CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" test

FUZZ_TARGETS = $(patsubst fuzz/%.c,%,$(wildcard fuzz/fuzz_*.c))
# The targets are built twice from the same rules: under the sanitizers
# into $(B)/fuzz (make fuzz-short, and make fuzz's replay of all it
# keeps), and without them into $(B)/fuzz-fast, make fuzz's throughput
# build (fuzz/campaign.sh; README, Fuzzing): FUZZ_BIN, FZ and FUZZ_SAN
# say which.
FUZZ_BIN = $(B)/fuzz
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all
# -O2: a fifth more executions a second than -O1 (README, Fuzzing).
FUZZ_CFLAGS = -O2 -g $(WARN) -D_DEFAULT_SOURCE -Ilib -Iformat -Icmd -Ifuzz $(LMDB_CFLAGS) \
	$(PQ_CFLAGS) -DAR_STORES_FILE='"$(STORES_FILE)"'
FZ = $(B)/fz
# Everything a target may need, in one archive; each command's main is
# renamed (ar-add's becomes ar_add_main) so fuzz_cmd can call them all.
FUZZ_OBJ = $(LIB_SRC:%.c=$(FZ)/%.o) $(FORMAT_SRC:%.c=$(FZ)/%.o) \
	$(CMD_SHARED:%.c=$(FZ)/%.o) $(CMD_SRC:cmd/%.c=$(FZ)/main/%.o) \
	$(FZ)/fuzz/run.o

$(FZ)/main/%.o: cmd/%.c $(HEADERS)
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_SAN) \
		-Dmain=$(subst -,_,$*)_main -c $< -o $@

$(FZ)/%.o: %.c $(HEADERS)
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_SAN) -c $< -o $@

# The memory backend the targets run on, and the model fuzz_model checks
# against, are sanitized but not traced: their branches are not what the
# targets explore (tests/test_kv.c tests the backend), and tracing them
# would cost time and fill the corpus with tree shapes and model states.
$(FZ)/lib/mem/%.o: lib/mem/%.c $(HEADERS)
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) $(FUZZ_SAN) -c $< -o $@

$(FZ)/tests/model.o: tests/model.c tests/model.h tests/pools.h $(HEADERS)
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) $(FUZZ_SAN) -c $< -o $@

$(FZ)/libfz.a: $(FUZZ_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_BIN)/%: fuzz/%.c $(FZ)/libfz.a
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) -Itests -fsanitize=fuzzer $(FUZZ_SAN) -o $@ \
		$(filter %.c,$^) $(filter %.o,$^) $(filter %.a,$^) $(LMDB_LIBS) -lm \
		$(FUZZ_WRAP)

# fuzz_model's library is traced for coverage but not for comparisons:
# its input is choices, a number modulo a count, never a value the
# library compares, so the comparisons' hooks, two fifths of an
# execution's time, give its mutations nothing (README, Fuzzing).
FUZZ_MODEL_OBJ = $(patsubst $(FZ)/nocmp/lib/mem/%,$(FZ)/lib/mem/%, \
	$(LIB_SRC:%.c=$(FZ)/nocmp/%.o))

$(FZ)/nocmp/%.o: %.c $(HEADERS)
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
		-fno-sanitize-coverage=trace-cmp $(FUZZ_SAN) -c $< -o $@

$(FZ)/libfz-model.a: $(FUZZ_MODEL_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_BIN)/fuzz_model: fuzz/fuzz_model.c $(FZ)/tests/model.o \
	$(FZ)/libfz-model.a tests/helpers.h
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) -Itests -fsanitize=fuzzer $(FUZZ_SAN) -o $@ \
		$(filter %.c,$^) $(filter %.o,$^) $(filter %.a,$^) $(LMDB_LIBS) -lm
# fuzz_cmd answers for scontrol (fuzz/fuzz_cmd.c), fuzz_store for the
# scontrol that is not there (fuzz/fuzz_store.c), and both for getent
# (fuzz/run.c), in the process: no child.
$(FUZZ_BIN)/fuzz_cmd $(FUZZ_BIN)/fuzz_store: FUZZ_WRAP = \
	-Wl,--wrap=child_run,--wrap=nss_name
# fuzz_cmd bounds host lists and usage reports (fuzz/fuzz_cmd.c says
# why).
$(FUZZ_BIN)/fuzz_cmd: FUZZ_WRAP += -Wl,--wrap=ar_hostlist_parse_max \
	-Wl,--wrap=ar_usage
# ... and parses host lists untraced for comparisons (the object given
# before the archive, so the archive's is not linked): every command
# lays out its store's hosts again, and the comparisons' hooks in that
# parse were most of its cost on a corpus of long lists, for a syntax
# fuzz_hostlist explores with them (README, Fuzzing).
$(FUZZ_BIN)/fuzz_cmd: $(FZ)/nocmp/lib/hostlist.o

# The throughput build: no sanitizer, the rest as above (-O2, asserts,
# the targets' own checks).
fuzz-fast:
	$(MAKE) FUZZ_BIN=$(B)/fuzz-fast FZ=$(B)/fz-fast FUZZ_SAN= \
		$(FUZZ_TARGETS:%=$(B)/fuzz-fast/%)

# make check's short pass: 20 s a target, new inputs kept under $(B),
# not in the corpus; a line per target with its rate (executions per
# second of wall time).  One target after another, or as many at once
# as make -j allows (check: two, each on a CPU of its own, after every
# other part).  fuzz-build builds the targets alone.  Beside the rate of
# the three that run the store, the rate they had in the last campaign
# before the memory backend (each execution a store on disk, sanitized as
# here), and the ratio.
fuzz-short: $(FUZZ_TARGETS:%=fuzz-short-%)

FUZZ_ON_DISK_fuzz_cmd = 800
FUZZ_ON_DISK_fuzz_store = 350
FUZZ_ON_DISK_fuzz_model = 95

fuzz-build: $(FUZZ_TARGETS:%=$(B)/fuzz/%)

fuzz-short-%: $(B)/fuzz/%
	@echo "== fuzz $* (20 s)"
	@mkdir -p $(B)/fuzz/$*.corpus
	@dict=; [ -f fuzz/$(*:fuzz_%=%).dict ] && dict=-dict=fuzz/$(*:fuzz_%=%).dict; \
	$(B)/fuzz/$* -max_total_time=20 -print_final_stats=1 -close_fd_mask=3 \
		-artifact_prefix=$(B)/fuzz/$*- $$dict \
		$(B)/fuzz/$*.corpus fuzz/corpus/$(*:fuzz_%=%) 2>$(B)/fuzz/$*.log \
		|| { tail -40 $(B)/fuzz/$*.log; exit 1; }
	@awk -v t=$* -v disk='$(FUZZ_ON_DISK_$*)' '/^Done [0-9]+ runs in/ { \
		s = $$5 > 0 ? $$5 : 1; \
		printf "%s: %d executions in %d s, %d/s", t, $$2, $$5, $$2 / s; \
		if (disk + 0 > 0) printf " (%d/s with a store on disk: %.1fx)", \
			disk, $$2 / s / disk; \
		printf "\n" }' $(B)/fuzz/$*.log
	@grep -E '^#[0-9]+.*DONE' $(B)/fuzz/$*.log | tail -1

# make fuzz: a campaign (fuzz/campaign.sh says how): every target of the
# throughput build until FUZZ_RUNS executions, FUZZ_JOBS at a time (one
# per core), then every input of the corpus replayed under the
# sanitizers, the whole within FUZZ_SECONDS of wall time.  The four fast
# targets first, whose ten million take about 25 minutes of a CPU
# together, so that they reach them whatever the slow ones do; then
# fuzz_cmd as two processes on its corpus, and fuzz_model, the slowest,
# last, with what is left, as six: a part of fuzz_model is about ten
# minutes of a CPU, so both CPUs stay busy to the end (of two halves,
# the second could start half an hour after the first, and run out of
# time while the first's CPU idled).  README, Fuzzing: the rates and
# the arithmetic.  New inputs land in fuzz/corpus/, what they find in
# fuzz/found/.
FUZZ_RUNS ?= 10000000
FUZZ_SECONDS ?= 5400
FUZZ_JOBS ?= 2
FUZZ_QUEUE = fuzz_store fuzz_hostlist \
	$(filter-out fuzz_model fuzz_hostlist fuzz_store fuzz_cmd,$(FUZZ_TARGETS)) \
	fuzz_cmd:2 fuzz_model:6

fuzz: $(FUZZ_TARGETS:%=$(B)/fuzz/%) fuzz-fast
	@FUZZ_BEFORE='$(foreach t,$(FUZZ_TARGETS),$(if $(FUZZ_ON_DISK_$t),$t:$(FUZZ_ON_DISK_$t)))' \
		sh fuzz/campaign.sh $(B)/fuzz-fast $(B)/fuzz $(FUZZ_SECONDS) $(FUZZ_RUNS) \
		$(FUZZ_JOBS) $(FUZZ_QUEUE)

# make check runs its parts two at a time (CHECK_JOBS, one a CPU: this
# machine and CI have two), each part's output shown whole as it ends
# (-Orecurse), with its wall time (.build/check-times), so that what
# makes check long is known without timing it again.  One after another:
# the parts that build into $(B) itself, then the fuzz targets' build
# (into $(B)/fuzz and $(B)/fz); san (into $(B)/san) beside them; and
# fuzz-short last, alone, its targets two at a time, each with a CPU
# of its own as when they ran one after another with nothing beside.
# Within a part, what may run beside each other (a suite's targets, the
# e2e suite's files) takes the second CPU whenever the other part leaves
# it free (make's job server).
CHECK_PARTS = all test bench-quick pg-test fuzz-build san fuzz-short
CHECK_JOBS ?= 2

check: deps
	@mkdir -p .build && rm -f $(RESULTS) .build/check-times
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) -Orecurse \
		$(CHECK_PARTS:%=check-part-%)
	@cat .build/check-times
	@awk '{ p += $$1; f += $$3 } END { print p " passed, " f " failed" }' $(RESULTS)

check-part-%:
	@t0=$$(date +%s); \
	$(MAKE) --no-print-directory $* || exit 1; \
	echo "make $*: $$(( $$(date +%s) - t0 )) s" | tee -a .build/check-times

# The order above.
check-part-test: check-part-all
check-part-bench-quick: check-part-test
check-part-pg-test: check-part-bench-quick
check-part-fuzz-build: check-part-pg-test
check-part-fuzz-short: check-part-fuzz-build check-part-san

# --- demo and bench ------------------------------------------------------

# The demo's store stays in $(B)/demo to be explored.
demo: build-deps
	$(MAKE) all
	@AR_BIN=$(CURDIR)/$(B)/bin DEMO_DIR=$(CURDIR)/$(B)/demo sh tests/demo.sh

SQLITE_CFLAGS = $(shell $(PKG_CONFIG) --cflags sqlite3 2>/dev/null)
SQLITE_LIBS = $(shell $(PKG_CONFIG) --libs sqlite3 2>/dev/null || echo -lsqlite3)
BENCH_SRC = $(addprefix tests/bench/,bench.c replay.c trace.c floor.c \
	compare.c arstore.c sqlite.c cmds.c curve.c usage.c mapping.c modify.c \
	hold.c pgcost.c) $(HOSTS_SRC)

$(B)/bench/bench: $(BENCH_SRC) tests/bench/bench.h tests/bench/hosts.h $(B)/libar.a $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SQLITE_CFLAGS) $(LDFLAGS) -o $@ $(BENCH_SRC) \
		$(B)/libar.a $(LMDB_LIBS) $(SQLITE_LIBS) -lm

$(B)/bench/true: tests/bench/true.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

# BENCH_QUICK=1: the first 50k requests of one trace.  On a throwaway
# PostgreSQL cluster (make pg-test), or the server AR_TEST_PG names.
bench: deps
	$(MAKE) all $(B)/bench/bench $(B)/bench/true
	$(MAKE) pg-test PG_SUITES=bench-run

bench-run:
	AR_BENCH_PG="$$AR_TEST_PG" BENCH_QUICK=$(BENCH_QUICK) $(B)/bench/bench \
		$(B)/bin $(B)/bench/true ../shared/traces

# GarQ's comparison (its sections 3 and 5): the floor's array, a sorted
# linked list, a segment tree and a calendar queue on the traces, beside
# ar; how they grow; and the price of slots against an exact model.
GARQ_SRC = $(addprefix tests/bench/,garq.c replay.c trace.c floor.c \
	compare.c arstore.c cmds.c curve.c list.c segtree.c calendar.c \
	growth.c exact.c)

$(B)/bench/garq: $(GARQ_SRC) tests/bench/bench.h $(B)/libar.a $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(GARQ_SRC) $(B)/libar.a \
		$(LMDB_LIBS) -lm

# BENCH_QUICK=1: the first 50k requests of one trace; TRACES: where the
# traces are.
TRACES ?= ../shared/traces

garq: deps
	$(MAKE) all $(B)/bench/garq
	BENCH_QUICK=$(BENCH_QUICK) $(B)/bench/garq $(TRACES)

# The host model's design study (issue 23): prototypes of admission exact
# with respect to hosts, on the traces beside the floor and the library,
# and a brute force on small plans; tests/test_hosts.c checks that what
# they grant is exact.  BENCH_QUICK=1: the first requests of one trace.
HOSTS_SRC = $(addprefix tests/bench/,hostlib.c hostcheck.c hostsweep.c hostpools.c \
	hostprofile.c hostbitmap.c hostbrute.c)
HOSTBENCH_SRC = tests/bench/hostbench.c $(HOSTS_SRC) $(addprefix tests/bench/,\
	replay.c trace.c floor.c compare.c arstore.c mapping.c cmds.c)

$(B)/bench/hostbench: $(HOSTBENCH_SRC) tests/bench/hosts.h tests/bench/bench.h \
		$(B)/libar.a $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(HOSTBENCH_SRC) $(B)/libar.a \
		$(LMDB_LIBS) -lm

hostbench: deps
	$(MAKE) all $(B)/bench/hostbench
	$(MAKE) hosts-test
	BENCH_QUICK=$(BENCH_QUICK) $(B)/bench/hostbench $(TRACES)

# The prototypes' own tests: what they grant is exact.
$(B)/tests/test_hosts: $(HOSTS_SRC) tests/bench/trace.c tests/bench/hosts.h \
	tests/bench/bench.h
$(B)/tests/test_hosts: ALL_CFLAGS += -Itests/bench

hosts-test: $(B)/tests/test_hosts
	@mkdir -p .build
	@echo "== $(B)/tests/test_hosts"
	@$(B)/tests/test_hosts >$(B)/tests/test_hosts.log 2>&1; rc=$$?; \
		cat $(B)/tests/test_hosts.log; \
		tail -n 1 $(B)/tests/test_hosts.log >>$(RESULTS); exit $$rc

# Umar's thesis, Tables 6.1 and 6.2: fixed, first fit, FCFS-EDS, FCFS-LRH
# on the same generated workloads (tests/bench/argen.c prints them).
FLEX_DEPS = tests/bench/flex.h $(B)/libar.a $(HEADERS)

$(B)/bench/argen: tests/bench/argen.c $(FLEX_DEPS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ tests/bench/argen.c \
		$(B)/libar.a $(LMDB_LIBS) -lm

FLEX_RUN = tests/bench/argen.c tests/bench/flexrun.c

$(B)/bench/flexbench: tests/bench/flexbench.c $(FLEX_RUN) $(FLEX_DEPS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -DARGEN_LIB -o $@ \
		tests/bench/flexbench.c $(FLEX_RUN) $(B)/libar.a $(LMDB_LIBS) -lm

flexbench: deps
	$(MAKE) all $(B)/bench/argen $(B)/bench/flexbench
	$(B)/bench/flexbench

# Umar's thesis, sections 6.6 and 6.7: the revenue of FCFS-EDS without
# price classes, with them at the initial booking limits, and with the
# limits updated by EMSR-b, on the same generated workloads.
$(B)/bench/rmbench: tests/bench/rmbench.c $(FLEX_RUN) $(FLEX_DEPS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -DARGEN_LIB -o $@ \
		tests/bench/rmbench.c $(FLEX_RUN) $(B)/libar.a $(LMDB_LIBS) -lm

rmbench: deps
	$(MAKE) all $(B)/bench/rmbench
	$(B)/bench/rmbench

# Seed 004's schemes (tests/bench/schemes.h reads them): FCFS rigid,
# FCFS-EDS, RSPB, ORR, TARR and DRR on the thesis's generated workloads
# and COMPARE_DAYS days of two traces in TRACES (1000: the whole of
# both), by the seed's AWT and RIT; each through the library too (RSPB,
# ORR, TARR and DRR on the workloads of MPI jobs), hashed against the
# memory's.
COMPARE_DAYS ?= 365
SCHEMES_SRC = $(addprefix tests/bench/,schemes.c plan.c trace.c) $(FLEX_RUN)

$(B)/bench/schemes: $(SCHEMES_SRC) tests/bench/schemes.h tests/bench/bench.h \
		$(FLEX_DEPS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -DARGEN_LIB -o $@ $(SCHEMES_SRC) \
		$(B)/libar.a $(LMDB_LIBS) -lm

compare: deps
	$(MAKE) all $(B)/bench/schemes
	$(B)/bench/schemes --days $(COMPARE_DAYS) $(TRACES)

# Every program under tests/bench (a file with a main) built, and each
# run in a quick mode (tests/bench-quick.sh): a few seconds each, in
# make check, so that no bench target rots unseen.
BENCH_PROGS = $(patsubst tests/bench/%.c,$(B)/bench/%,\
	$(shell grep -l '^main[^[:alnum:]_]' tests/bench/*.c))

bench-quick: $(CMDS) $(BENCH_PROGS)
	@mkdir -p .build
	@echo "== tests/bench-quick.sh ($(B))"
	@AR_BIN=$(CURDIR)/$(B)/bin AR_BENCH=$(CURDIR)/$(B)/bench \
		sh tests/e2e.sh tests/bench-quick.sh >$(B)/bench-quick.log 2>&1; \
		rc=$$?; grep -v '^ok ' $(B)/bench-quick.log; \
		tail -n 1 $(B)/bench-quick.log >>$(RESULTS); exit $$rc

# --- install -------------------------------------------------------------

# What install puts where, so that uninstall removes exactly that.
INST_BIN = $(addprefix $(DESTDIR)$(bindir)/,$(notdir $(CMDS)))
INST_LIB = $(addprefix $(DESTDIR)$(libdir)/,libar.a libar.so $(SONAME) \
	libar.so.$(VERSION) pkgconfig/ar.pc)
INST_INC = $(DESTDIR)$(includedir)/ar/ar.h $(DESTDIR)$(includedir)/ar/format.h
INST_MAN = $(addprefix $(DESTDIR)$(mandir)/man1/,$(notdir $(MAN1))) \
	$(addprefix $(DESTDIR)$(mandir)/man5/,$(notdir $(MAN5))) \
	$(addprefix $(DESTDIR)$(mandir)/man7/,$(notdir $(MAN7)))

# The pkg-config file names LMDB as a package where it has a .pc file,
# and as a plain -llmdb where it has none.  SETGID=group (a name or a
# number) installs the commands setgid to the group that owns the shared
# stores, which no user is in; they serve the stores $(STORES_FILE)
# lists (README, "A shared store").  The mode is set after the group,
# which clears it.
install: all
	mkdir -p $(DESTDIR)$(bindir) $(DESTDIR)$(libdir)/pkgconfig \
		$(DESTDIR)$(includedir)/ar $(DESTDIR)$(mandir)/man1 \
		$(DESTDIR)$(mandir)/man5 $(DESTDIR)$(mandir)/man7
	cp $(CMDS) $(DESTDIR)$(bindir)/
	$(if $(SETGID),chgrp $(SETGID) $(INST_BIN) && chmod 2755 $(INST_BIN))
	cp $(B)/libar.a $(DESTDIR)$(libdir)/
	rm -f $(DESTDIR)$(libdir)/libar.so.$(VERSION)
	cp $(B)/libar.so $(DESTDIR)$(libdir)/libar.so.$(VERSION)
	ln -sf libar.so.$(VERSION) $(DESTDIR)$(libdir)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(libdir)/libar.so
	if $(PKG_CONFIG) --exists lmdb 2>/dev/null; then \
		req='Requires.private: lmdb' libs='-lpthread -lm'; \
	else req= libs='-llmdb -lpthread -lm'; fi; \
	printf '%s\n' 'prefix=$(prefix)' 'libdir=$(libdir)' \
		'includedir=$(includedir)' '' 'Name: ar' \
		'Description: advance reservations for compute clusters' \
		'Version: $(VERSION)' 'Cflags: -I$${includedir}' \
		'Libs: -L$${libdir} -lar' "Libs.private: $$libs" "$$req" \
		>$(DESTDIR)$(libdir)/pkgconfig/ar.pc
	cp lib/ar.h format/format.h $(DESTDIR)$(includedir)/ar/
	cp $(MAN1) $(DESTDIR)$(mandir)/man1/
	cp $(MAN5) $(DESTDIR)$(mandir)/man5/
	cp $(MAN7) $(DESTDIR)$(mandir)/man7/

# include/ar is kept if it holds other files than ours.
uninstall:
	rm -f $(INST_BIN) $(INST_LIB) $(INST_INC) $(INST_MAN)
	rmdir $(DESTDIR)$(includedir)/ar 2>/dev/null || :

clean:
	rm -rf .build
