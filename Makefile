# Folio: `make run` starts the app (or a headless demo), `make test` runs every test.
# Both install the Debian packages they miss first, so a fresh Debian 12 needs only Swift.

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Build and test needs; the real-compositor tests add weston.
DEB_PACKAGES := pkg-config libwayland-dev wayland-protocols libxkbcommon-dev libpixman-1-dev libpng-dev \
                xkb-data weston

.PHONY: all deps build release run test protocols clean

all: build

deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
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

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Regenerate the committed protocol glue from Debian's wayland-protocols.
protocols: deps
	sh protocols/generate.sh

clean:
	rm -rf .build demo-out
