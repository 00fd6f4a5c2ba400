# 05-examples.sh - every example in README and the man pages runs as
# written: each command shown after a "$ " prompt is run, and what it
# prints is the text shown after it.  A case per section of each file.
#
# The examples: README's blocks (lines indented by 4) and the man pages'
# .Bd -literal blocks (roff escapes \e, \& and \- read as man shows them)
# that hold a line beginning "$ ".  A command goes on over the lines
# after it while it ends in \, |, && or ||, a single quote is open, or a
# here-document has not reached its end; the lines up to the next "$ "
# or the end of the block are what it prints: a line beginning with a
# command's name and a colon (ar-add: ...) on standard error, the
# others on standard output, each compared whole and in order.  The exit
# status is not compared (a refusal, exit 1, is an example too); a
# command that fails says so on standard error, which is.  A block
# without a prompt (a file's text, a record, a crontab, a table of
# figures) is not run.
#
# How they run: the commands of one file run in order in a scratch
# directory, as a user would follow it from its top; its HOME and the
# working directory, the stores made there staying from one section to
# the next.  Each section (README's underlined headings, a man page's
# .Sh) starts as a fresh shell does: no AR_STORE, AR_NOW or other
# variable of ar's, only PATH (the commands under test first), HOME and
# LC_ALL; a section must say the store it starts from.  Instead of the
# default store, /var/lib/ar, which is never touched here, AR_STORE
# names a directory that holds no store, and a section fails if a
# command made it.  tests/data is there as in the source tree, for the
# examples "run from the source tree".
#
# What may differ, masked in both the text and the output: the owner's
# uid (owner=, "owner":), which is that of who runs the examples, and
# map_size=, the store's map as the backend grew it.
#
# An example that cannot run here (it needs a PostgreSQL server, a Slurm
# controller, a build) is marked in the paragraph right before its
# block: "(not run by make check: WHY)".  Such a block is listed as a
# skip with its reason, never run.  Every file holds an example that
# runs.

# The files: README and every man page.  EX_SRC and EX_DOCS name others,
# for the case that checks that a wrong example fails.
SRC=$(dirname "$TESTS")
: "${EX_SRC:=$SRC}"
[ -n "$EX_DOCS" ] ||
    EX_DOCS="README $(cd "$SRC" && echo cmd/*.[1-9] format/*.[1-9])"

# ex_extract FILE DIR: the examples of FILE (README, or a man page) into
# DIR: N.cmd, N.exp for each command, and DIR/plan, a line each of
#   S <tab> SECTION          a section begins
#   C <tab> N <tab> LINE     command N, at line LINE of FILE
#   X <tab> LINE <tab> WHY   a block marked not run
#   E <tab> LINE <tab> WHAT  what cannot be read as an example
ex_extract() {
	awk -v dir="$2" -v man="$(case $1 in *.[1-9]) echo 1 ;; esac)" '
	function plan(s) { print s >(dir "/plan") }
	function quotes(s,    t) { t = s; return gsub(/\047/, "", t) }
	# man shows \e as \, \& as nothing and \- as -; anything else is
	# not what the page means to run.
	function unroff(s, at,    out, c, i) {
		out = ""
		while ((i = index(s, "\\")) > 0) {
			c = substr(s, i + 1, 1)
			out = out substr(s, 1, i - 1)
			if (c == "e") out = out "\\"
			else if (c == "-") out = out "-"
			else if (c != "&")
				plan("E\t" at "\tan escape \\" c " in an example")
			s = substr(s, i + 2)
		}
		return out s
	}
	function block(    i, why, n0, cmd, q, w, end, f) {
		if (nb == 0) return
		for (i = 1; i <= nb && b[i] !~ /^\$ /; i++)
			;
		if (i > nb) { nb = 0; para = ""; return }   # no prompt: not run
		if (i > 1)
			plan("E\t" bl[1] "\ttext before the first command of a block")
		if (match(para, /not run by make check: [^)]*[^) ][^)]*\)/)) {
			why = substr(para, RSTART + 23, RLENGTH - 24)
			plan("X\t" bl[i] "\t" why)
			nb = 0
			para = ""
			return
		}
		while (i <= nb) {
			n++
			n0 = bl[i]
			cmd = substr(b[i], 3)
			q = quotes(cmd)
			for (;;) {
				if (match(b[i], /<<-?[ ]*[\047"]?[A-Za-z_]+/)) {
					w = substr(b[i], RSTART, RLENGTH)
					sub(/^<<-?[ ]*[\047"]?/, "", w)
					for (i++; i <= nb && b[i] != w; i++)
						cmd = cmd "\n" b[i]
					if (i > nb)
						plan("E\t" n0 "\ta here-document with no end " w)
					else
						cmd = cmd "\n" b[i]
					i++
					break
				}
				end = b[i]
				i++
				if (i > nb || (q % 2 == 0 && end !~ /(\\|\||&&)[ ]*$/))
					break
				cmd = cmd "\n" b[i]
				q += quotes(b[i])
			}
			f = dir "/" n
			print cmd >(f ".cmd"); close(f ".cmd")
			printf "" >(f ".exp")
			for (; i <= nb && b[i] !~ /^\$ /; i++)
				print b[i] >(f ".exp")
			close(f ".exp")
			plan("C\t" n "\t" n0)
		}
		nb = 0
		para = ""
	}
	# The paragraph before a block: README'"'"'s last lines of prose.
	function line(s) {
		if (s == "") { prose_blank = 1; return }
		if (prose_blank) para = ""
		prose_blank = 0
		para = para " " s
	}
	# README: an underlined heading, blocks of lines indented by 4.
	!man && /^(---|===)/ && prev != "" && prev !~ /^ / {
		block(); plan("S\t" prev); para = ""; prev = $0; next
	}
	!man && /^    / { b[++nb] = substr($0, 5); bl[nb] = NR; prev = $0; next }
	!man && /^$/ && nb > 0 { b[++nb] = ""; bl[nb] = NR; prev = $0; next }
	!man {
		while (nb > 0 && b[nb] == "") nb--
		block(); line($0); prev = $0; next
	}
	# A man page: .Sh sections, .Bd -literal blocks.
	inblock && /^\.Ed/ { inblock = 0; block(); para = ""; next }
	inblock {
		if (/^\./) plan("E\t" NR "\ta request in an example: " $0)
		b[++nb] = unroff($0, NR); bl[nb] = NR; next
	}
	/^\.Sh / { s = substr($0, 5); gsub(/"/, "", s); plan("S\t" s); para = ""; next }
	/^\.Bd -literal/ { inblock = 1; nb = 0; next }
	/^\.(Pp|Ss)/ { para = ""; next }
	{ para = para " " $0 }
	END { while (nb > 0 && b[nb] == "") nb--; block() }
	' "$1"
}

# ex_split FILE: the text shown after a command, on stdout (FILE.out)
# and stderr (FILE.eout), masked.
EX_MASK='s/owner=[0-9][0-9]*/owner=UID/g; s/"owner":[0-9][0-9]*/"owner":UID/g
s/map_size=[0-9][0-9]*/map_size=SIZE/g'
ex_split() {
	grep -v '^ar-[a-z]*: ' "$1.exp" | sed "$EX_MASK" >"$1.out"
	grep '^ar-[a-z]*: ' "$1.exp" | sed "$EX_MASK" >"$1.eout"
}

# ex_compare DOC N LINE WHICH SHOWN GOT: a command's stdout or stderr
# against the text shown.
ex_compare() {
	sed "$EX_MASK" "$6" >"$6.masked"
	diff -u "$5" "$6.masked" >"$6.diff" && return 0
	fail "$1:$3: \$ $(head -n 1 "$X/$2.cmd")" \
	    "  $4 differs from the text shown (-):"
	sed '1,2d; s/^/    /' "$6.diff" >>"$D/.log"
}

# ex_section: run the commands of the section ($cmds: N:LINE ...) as one
# shell from a fresh environment, then compare each one's output.
ex_section() {
	[ -n "$cmds" ] || return 0
	for c in $cmds; do
		printf '{\n%s\n} </dev/null >%s/%s.got 2>%s/%s.gerr\n' \
		    "$(cat "$X/${c%%:*}.cmd")" "$X" "${c%%:*}" "$X" "${c%%:*}"
	done >"$X/section.sh"
	(cd "$W" && env -i PATH="$PATH" HOME="$W" LC_ALL=C \
	    AR_STORE="$W/no-store-named" sh "$X/section.sh" </dev/null \
	    >"$X/section.out" 2>&1)
	if [ -s "$X/section.out" ]; then
		fail "$doc: the section's shell said:"
		sed 's/^/      /' "$X/section.out" >>"$D/.log"
	fi
	if [ -e "$W/no-store-named" ]; then
		fail "$doc: a command made or used the default store: the section names none"
		rm -rf "$W/no-store-named"
	fi
	for c in $cmds; do
		ex_split "$X/${c%%:*}"
		ex_compare "$doc" "${c%%:*}" "${c#*:}" stdout \
		    "$X/${c%%:*}.out" "$X/${c%%:*}.got"
		ex_compare "$doc" "${c%%:*}" "${c#*:}" stderr \
		    "$X/${c%%:*}.eout" "$X/${c%%:*}.gerr"
	done
	cmds=
}

# ex_skips: the blocks of the section marked not run ($skips: LINE ...),
# listed as skips with their reasons.
ex_skips() {
	for s in $skips; do
		skip "examples: $doc:$s" "not run by make check: $(cat "$X/skip.$s")"
	done
	skips=
}

# ex_doc DOC: every example of DOC, a case per section that has some;
# the blocks marked not run are listed as skips after their section.
ex_doc() {
	doc=$1
	X=$TOP/examples/$(echo "$doc" | tr / _)
	W=$X/home
	mkdir -p "$X" "$W/tests" && ln -s "$DATA" "$W/tests/data"
	ex_extract "$EX_SRC/$doc" "$X"
	cmds= title= skips= ran=0 begun=
	while IFS='	' read -r kind a b; do
		case $kind in
		S)
			ex_section
			ex_skips
			title=$a begun= ;;
		C)
			[ -n "$begun" ] || begin "examples: $doc: $title"
			begun=1
			cmds="$cmds $a:$b"
			ran=$((ran + 1)) ;;
		X)
			printf '%s\n' "$b" >"$X/skip.$a"
			skips="$skips $a" ;;
		E)
			[ -n "$begun" ] || begin "examples: $doc: $title"
			begun=1
			fail "$doc:$a: $b" ;;
		esac
	done <"$X/plan"
	ex_section
	ex_skips
	if [ "$ran" = 0 ]; then
		begin "examples: $doc has examples"
		fail "$doc: no example found that runs"
	fi
}

begin 'examples: the reader takes commands, their continuations and output, sections and marks'
cat >"$D/README" <<'EOF'
Title
=====

Text before a block that cannot run here (not run by make check: it
needs a server):

    $ never run
    nor this

A block:

    $ printf '%s\n' a |
        cat
    a
    $ wc -l <<'END'
    $ b
    END
    1
    $ echo 'one
    two' \
      three
    one
    two three
    $ ar-add x

    ar-add: line 1: oops
    out
Another
-------

A file, not a command:

    0 3 * * *  ar-del -q --purge
EOF
mkdir "$D/readme"
ex_extract "$D/README" "$D/readme"
run cat "$D/readme/plan"
expect_out <<'EOF'
S	Title
X	7	it needs a server
C	1	12
C	2	15
C	3	19
C	4	24
S	Another
EOF
for k in 1 2 3 4; do
	printf '%s\n' "-- $k" "$(cat "$D/readme/$k.cmd")" "-- shown"
	cat "$D/readme/$k.exp"
done >"$D/cmds"
run cat "$D/cmds"
expect_out <<'EOF'
-- 1
printf '%s\n' a |
    cat
-- shown
a
-- 2
wc -l <<'END'
$ b
END
-- shown
1
-- 3
echo 'one
two' \
  three
-- shown
one
two three
-- 4
ar-add x
-- shown

ar-add: line 1: oops
out
EOF
ex_split "$D/readme/4"
run cat "$D/readme/4.out" "$D/readme/4.eout"
expect_out '' out 'ar-add: line 1: oops'

begin 'examples: the reader takes a man page as man shows it, and says what it cannot read'
cat >"$D/page.1" <<'EOF'
.Sh DESCRIPTION
.Bd -literal -offset indent
record=1
.Ed
.Sh EXAMPLES
Two lines, one command:
.Bd -literal -offset indent
$ printf '%s\en' \e
    x\-y
\&x-y
.Ed
.Pp
Elsewhere
(not run by make check: it needs
a server):
.Bd -literal -offset indent
$ ar-report --store postgresql://db1/ar --check
.Ed
.Pp
Not as man shows it:
.Bd -literal -offset indent
$ echo '\n'
.Pp
.Ed
EOF
mkdir "$D/page"
ex_extract "$D/page.1" "$D/page"
run cat "$D/page/plan"
expect_out <<'EOF'
S	DESCRIPTION
S	EXAMPLES
C	1	8
X	17	it needs a server
E	22	an escape \n in an example
E	23	a request in an example: .Pp
C	2	22
EOF
run cat "$D/page/1.cmd" "$D/page/1.exp"
expect_out "printf '%s\\n' \\" '    x-y' 'x-y'

if [ -z "$EX_NESTED" ]; then
begin 'examples: a section whose output differs, or that names no store, fails, saying where'
mkdir "$D/src"
cat >"$D/src/README" <<'EOF'
Right
-----

    $ echo yes
    yes

Wrong
-----

    $ echo yes
    no
    $ ar-report --create --nodes 4
EOF
run env EX_NESTED=1 EX_SRC="$D/src" EX_DOCS=README sh "$TESTS/e2e.sh" \
    "$TESTS/e2e/05-examples.sh"
expect_exit 1
filter '/^ok /d'
expect_out <<'EOF'
FAIL 4 - examples: README: Wrong
    README: a command made or used the default store: the section names none
    README:10: $ echo yes
      stdout differs from the text shown (-):
    @@ -1 +1 @@
    -no
    +yes
3 passed, 1 failed
EOF
fi

for doc in $EX_DOCS; do
	ex_doc "$doc"
done
