# packaging.sh - building without pkg-config.  Cases for tests/e2e.sh,
# but not in tests/e2e/ since they run make: make install-test runs them
# apart, as
#
#   AR_BIN=$PWD/.build/bin sh tests/e2e.sh tests/packaging.sh
#
# with MAKE, CC, CFLAGS and LDFLAGS from make.

SRC=$(dirname "$TESTS")
: "${MAKE:=make}" "${CC:=cc}"
VERSION=$(sed -n '/define AR_VERSION/s/[^"]*"\(.*\)"/\1/p' "$SRC/lib/ar.h")

# The pkg-config here fails as it does where LMDB has no .pc file.
begin 'build: without pkg-config LMDB is still found'
mkdir "$D/bin"
printf '#!/bin/sh\nexit 1\n' >"$D/bin/pkg-config"
chmod +x "$D/bin/pkg-config"
run env PATH="$D/bin:$PATH" "$MAKE" -C "$SRC" B="$D/build" all
expect_exit 0
run "$D/build/bin/ar-report" --version
expect_out "ar-report (ar) $VERSION"
