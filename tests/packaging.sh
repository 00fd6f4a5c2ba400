# packaging.sh - make install and make uninstall, and programs built
# against what they install.  Cases for tests/e2e.sh, but not in
# tests/e2e/ since they run make: make install-test runs them apart, as
#
#   AR_BIN=$PWD/.build/bin sh tests/e2e.sh tests/packaging.sh
#
# with MAKE, CC, CFLAGS and LDFLAGS from make; CXX, if set, is the C++
# compiler (c++ otherwise).  Each case installs into a DESTDIR of its
# own with prefix /usr/local.

SRC=$(dirname "$TESTS")
: "${MAKE:=make}" "${CC:=cc}" "${CXX:=c++}"
VERSION=$(sed -n '/define AR_VERSION/s/[^"]*"\(.*\)"/\1/p' "$SRC/lib/ar.h")
L=/usr/local/lib

# put_in, take_out: make install and make uninstall with DESTDIR $D/root.
put_in() {
	run "$MAKE" -C "$SRC" install DESTDIR="$D/root" prefix=/usr/local
	expect_exit 0
}

take_out() {
	run "$MAKE" -C "$SRC" uninstall DESTDIR="$D/root" prefix=/usr/local
	expect_exit 0
}

# pc ARG ...: pkg-config on what put_in installed, as if $D/root were /.
pc() {
	PKG_CONFIG_PATH=$D/root$L/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D/root \
	    pkg-config "$@"
}

# files: every file and link under $D/root, sorted.
files() {
	run sh -c 'cd "$1" && find . ! -type d | sort' sh "$D/root"
}

# needs: the shared libraries a program needs, by their sonames.
needs() {
	run sh -c 'readelf -d "$1" | sed -n "s/.*(NEEDED).*\[\(libar.*\)\]/\1/p"' \
	    sh "$1"
}

# client [COMPILER-ARG ...]: tests/client.c built into $D/client, run on
# a fresh store ($AR_STORE), and its one reservation granted.
client() {
	run "$@" -o "$D/client" $LDFLAGS
	expect_exit 0
	run env LD_LIBRARY_PATH="$D/root$L" "$D/client" "$AR_STORE"
	expect_exit 0
	expect_out 'id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z free=4 status=granted'
	expect_err
	expect_check
}

begin 'install: the commands, libraries, headers, ar.pc and man pages'
put_in
files
for c in "$SRC"/cmd/ar-*.c; do
	c=${c##*/}
	c=${c%.c}
	echo "./usr/local/bin/$c"
	echo "./usr/local/share/man/man1/$c.1"
done >"$D/expected"
printf '%s\n' ./usr/local/include/ar/ar.h ./usr/local/include/ar/format.h \
    ./usr/local/lib/libar.a ./usr/local/lib/libar.so \
    ./usr/local/lib/libar.so.1 "./usr/local/lib/libar.so.$VERSION" \
    ./usr/local/lib/pkgconfig/ar.pc ./usr/local/share/man/man5/ar-records.5 \
    ./usr/local/share/man/man7/ar-intro.7 >>"$D/expected"
sort -o "$D/expected" "$D/expected"
expect_out <"$D/expected"

begin 'install: libar.so leads to libar.so.VERSION, whose soname is libar.so.1'
put_in
run readlink "$D/root$L/libar.so" "$D/root$L/libar.so.1"
expect_out libar.so.1 "libar.so.$VERSION"
run sh -c 'readelf -d "$1" | sed -n "s/.*(SONAME).*\[\(.*\)\]/\1/p"' \
    sh "$D/root$L/libar.so.$VERSION"
expect_out libar.so.1

begin 'install: ar.pc gives the version, the prefix and the directories'
put_in
run env PKG_CONFIG_PATH="$D/root$L/pkgconfig" sh -c 'pkg-config --modversion ar &&
    for v in prefix libdir includedir; do pkg-config --variable=$v ar; done'
expect_exit 0
expect_out "$VERSION" /usr/local /usr/local/lib /usr/local/include

begin 'pkg-config: a C program links with libar.so.1 and runs'
put_in
client "$CC" $CFLAGS "$SRC/tests/client.c" $(pc --cflags --libs ar)
needs "$D/client"
expect_out libar.so.1

# static_libs: what pkg-config --static says to link, libar and LMDB
# statically; the C library's own (-lpthread, -lm) stay shared, since a
# static libm does not link into a program of the shared C library.
static_libs() {
	own= sys=
	for w in $(pc --static --libs ar); do
		case $w in
		-lpthread | -lm | -lc) sys="$sys $w" ;;
		*) own="$own $w" ;;
		esac
	done
	echo "-Wl,-Bstatic$own -Wl,-Bdynamic$sys"
}

begin 'pkg-config --static: a C program links with libar.a and LMDB'
put_in
client "$CC" $CFLAGS "$SRC/tests/client.c" $(pc --cflags ar) \
    $(static_libs)
needs "$D/client"
expect_out

if command -v "$CXX" >/dev/null 2>&1; then
	begin 'c++: the headers compile as C++ and the program links and runs'
	put_in
	client "$CXX" $CFLAGS -x c++ "$SRC/tests/client.c" -x none \
	    $(pc --cflags --libs ar)
else
	skip 'c++: the headers compile as C++' "no C++ compiler '$CXX'"
fi

begin 'uninstall: removes what install made and nothing else'
mkdir -p "$D/root/usr/local/bin" "$D/root/usr/local/lib/pkgconfig"
: >"$D/root/usr/local/bin/other"
: >"$D/root/usr/local/lib/pkgconfig/other.pc"
put_in
take_out
files
expect_out ./usr/local/bin/other ./usr/local/lib/pkgconfig/other.pc
run test -e "$D/root/usr/local/include/ar"
expect_exit 1

# The pkg-config here fails as it does where LMDB has no .pc file.
begin 'build: without pkg-config LMDB is still found, and ar.pc says -llmdb'
mkdir "$D/bin"
printf '#!/bin/sh\nexit 1\n' >"$D/bin/pkg-config"
chmod +x "$D/bin/pkg-config"
run env PATH="$D/bin:$PATH" "$MAKE" -C "$SRC" B="$D/build" all
expect_exit 0
run "$D/build/bin/ar-report" --version
expect_out "ar-report (ar) $VERSION"
run env PATH="$D/bin:$PATH" "$MAKE" -C "$SRC" B="$D/build" install \
    DESTDIR="$D/root" prefix=/usr/local
expect_exit 0
run grep '^Requires\|^Libs.private' "$D/root$L/pkgconfig/ar.pc"
expect_out 'Libs.private: -llmdb -lpthread -lm'
client "$CC" $CFLAGS "$SRC/tests/client.c" $(pc --cflags ar) \
    $(static_libs)
