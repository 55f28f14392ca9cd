# Folio: `make run` starts the app (or a headless demo), `make test` runs every test.
# Both install the Debian packages they miss first, so a fresh Debian 12 needs only Swift.

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Build needs, then the real compositors the tests drive: Weston (screens), KWin (real touch,
# fractional scales) and Mutter (GNOME; pointer and keys through its remote-desktop D-Bus interface).
DEB_PACKAGES := pkg-config libwayland-dev wayland-protocols libxkbcommon-dev libpixman-1-dev libpng-dev \
                libcairo2-dev xkb-data weston libavcodec-dev libavformat-dev libavutil-dev libswscale-dev
# poppler-utils: the PDF export's tests read the PDF back (pdfinfo, pdftoppm); gdb: a protocol
# test that finds the app hung prints its threads' backtraces.
TEST_DEB_PACKAGES := kwin-wayland plasma-wayland-protocols mutter dbus python3-venv poppler-utils gdb
# The KWin touch injector speaks Wayland and D-Bus from Python. Debian's own python3 refuses
# pip installs (PEP 668), so the modules go into a virtual environment inside the build folder,
# and the tests run the injector with its python (FOLIO_TEST_PYTHON).
TEST_PYTHON_PACKAGES := pywayland==0.4.19 jeepney==0.9.0
TEST_VENV := .build/test-python
export FOLIO_TEST_PYTHON := $(CURDIR)/$(TEST_VENV)/bin/python3

.PHONY: all deps test-deps install-debs build release run test sanitize bench-latency fuzz protocols clean

all: build

deps:
	@$(MAKE) --no-print-directory install-debs PACKAGES="$(DEB_PACKAGES)"

test-deps: deps
	@$(MAKE) --no-print-directory install-debs PACKAGES="$(TEST_DEB_PACKAGES)"
	@$(FOLIO_TEST_PYTHON) -c 'import pywayland, jeepney' 2>/dev/null || { \
	    python3 -m venv --clear $(TEST_VENV) && \
	    $(FOLIO_TEST_PYTHON) -m pip install --quiet --disable-pip-version-check $(TEST_PYTHON_PACKAGES); }

install-debs:
	@missing=""; \
	for p in $(PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    echo "make: installing Debian packages:$$missing"; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

run: build
	@sh Tests/Compositors/run-folio.sh "$$($(SWIFT) build --show-bin-path)/folio"

# The renderer's tests run on a release build too: PageImage's vector loops are compiled in
# release builds only (debug builds would run them through unspecialised generics, five times
# slower than the plain loops they use instead), and its tests hold both to the same bytes.
test: test-deps
	sh protocols/generate.sh --check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing
	$(SWIFT) test -c release --skip-build --filter 'PageRenderTests|FolioRenderTests'

# The whole suite under AddressSanitizer (with LeakSanitizer, and UndefinedBehaviorSanitizer in
# the C targets: protocol glue, shims, page kernels, the test compositor), then under
# ThreadSanitizer (render threads, the autosave queue), each in its own build folder. Every
# `folio` the tests start is the sanitized build too; the first report fails the run.
# AddressSanitizer runs on a release build: the code that ships (PageImage's vector loops exist in
# release builds only), in a third of the debug build's time. ThreadSanitizer stays on a debug
# build: a release build inlines the standard library's copy-on-write into instrumented code but
# not the reference counting that orders it, and reports races on correctly locked snapshots. Known
# defects in dependencies are listed in Tests/{lsan,ubsan}-suppressions.txt; LeakSanitizer does
# not print its suppression counts, which would land in the stderr the CLI tests compare.
# FOLIO_SANITIZER tells the few tests that mean nothing there (resident memory under ASan's
# quarantine, frame counts under TSan's slowdown) to skip just that check.
SANITIZER_OPTIONS := ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt:print_suppressions=0 \
                     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$(CURDIR)/Tests/ubsan-suppressions.txt \
                     TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
sanitize: test-deps
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing --sanitize=address -Xcc -fsanitize=undefined \
	    --scratch-path .build-asan
	FOLIO_SANITIZER=address $(SANITIZER_OPTIONS) $(SWIFT) test -c release --skip-build --scratch-path .build-asan
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	FOLIO_SANITIZER=thread $(SANITIZER_OPTIONS) $(SWIFT) test --skip-build --scratch-path .build-tsan

# Input-to-buffer latency (stroke.segment, pinch.frame, startup.first_frame) of the release `folio`
# under the test compositor, beside the memory-copy floor; `folio bench` has the rendering figures.
# folio-latency-bench links libwayland-server, so it is never installed. BENCH_ARGS=--json for JSON.
bench-latency: deps
	$(SWIFT) build -c release --product folio
	$(SWIFT) build -c release --product folio-latency-bench
	"$$($(SWIFT) build -c release --show-bin-path)/folio-latency-bench" $(BENCH_ARGS)

# libFuzzer on the book loader: a million inputs from the seed books in Tests/BookFuzzer/corpus
# (new finds go to .build/fuzz/corpus, crashes to .build/fuzz/). The fuzzer has its own build
# folder: it is built with -sanitize=fuzzer,address and never installed. FUZZ_RUNS to change.
FUZZ_RUNS ?= 1000000
fuzz: deps
	$(SWIFT) build --scratch-path .build/fuzz -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFOLIO_FUZZING \
	    --product folio-book-fuzzer
	mkdir -p .build/fuzz/corpus
	"$$($(SWIFT) build --scratch-path .build/fuzz -c debug --show-bin-path)/folio-book-fuzzer" \
	    -runs=$(FUZZ_RUNS) -seed=1 -max_len=4096 -print_final_stats=1 -artifact_prefix=.build/fuzz/ \
	    .build/fuzz/corpus Tests/BookFuzzer/corpus

# Regenerate the committed protocol glue from Debian's wayland-protocols.
protocols: deps
	sh protocols/generate.sh

clean:
	rm -rf .build .build-asan .build-tsan .build-deb demo-out

# The Debian package (packaging/README.md): `make deb` builds .build-deb/folio_<version>_<arch>.deb,
# `make deb-check` runs lintian and the metadata validators on it and installs it into a clean
# Debian 12 root (made with mmdebstrap, cached under /var/cache/folio-deb-root) to run it there.
DEB_PACKAGING_PACKAGES := debhelper dpkg-dev git xz-utils librsvg2-bin lintian desktop-file-utils appstream \
                          mmdebstrap piuparts

# ARCH=arm64 cross-builds and checks the arm64 package (for Debian 13 and newer) instead, with Debian
# sid's Swift 6.2.3 and a Debian 13 arm64 sysroot made once under /var/cache/folio-arm64
# (packaging/arm64/); its clean root is Debian 13 arm64, run under qemu-user.
# The cross build needs root (mmdebstrap, chroot, mounts).
# ARCH is taken from make's command line only: an ARCH in the environment means other things.
NATIVE_ARCH := $(shell dpkg --print-architecture)
ifneq ($(origin ARCH),command line)
ARCH := $(NATIVE_ARCH)
endif
CROSS_SUDO := $(if $(filter-out $(NATIVE_ARCH),$(ARCH)),$(SUDO))

.PHONY: deb deb-check test-arm64 bench-arm64

deb: deps
	@$(MAKE) --no-print-directory install-debs PACKAGES="$(DEB_PACKAGING_PACKAGES)"
	$(CROSS_SUDO) env SWIFT="$(SWIFT)" ARCH=$(ARCH) sh packaging/build-deb.sh

deb-check: deb
	$(SUDO) env ARCH=$(ARCH) sh packaging/check-deb.sh

# The page kernels' instructions per fold and turn frame (1280×800 and 2560×1600), portable and
# NEON, counted in the arm64 `folio` under qemu-user (packaging/arm64/kernel-instructions.py).
bench-arm64: deps
	@$(MAKE) --no-print-directory install-debs PACKAGES="mmdebstrap file binutils python3"
	$(SUDO) sh packaging/arm64/bench-arm64.sh

# The test suite's kernel, render, storage, replay and CLI tests cross-built for arm64 and run under
# qemu-user, with the arm64 `folio` under the host's headless Weston (packaging/arm64/test-arm64.sh).
test-arm64: deps
	@$(MAKE) --no-print-directory install-debs PACKAGES="mmdebstrap file"
	$(SUDO) sh packaging/arm64/test-arm64.sh
