#ifndef FOLIO_CWAYLAND_PROTOCOLS_H
#define FOLIO_CWAYLAND_PROTOCOLS_H

#include <stdint.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "pointer-gestures-v1-client-protocol.h"
#include "tablet-v2-client-protocol.h"
#include "text-input-unstable-v3-client-protocol.h"

/* The real address of a protocol interface descriptor, by its name ("wl_compositor",
 * "xdg_wm_base", ...), or NULL. Swift cannot take the address of an extern C global
 * reliably (it may hand back a temporary copy), and wl_registry_bind keeps the pointer. */
const struct wl_interface *folio_interface(const char *name);

/* memfd_create with MFD_CLOEXEC | MFD_ALLOW_SEALING; -1 and errno on failure.
 * Swift's Glibc module does not see memfd_create (it needs _GNU_SOURCE). */
int folio_memfd_create(const char *name);

/* Seals a memfd against shrinking (so the compositor's mapping stays valid); 0 or -1. */
int folio_memfd_seal_shrink(int fd);

/* A CLOCK_MONOTONIC timerfd (non-blocking, close-on-exec); -1 and errno on failure.
 * Swift's Glibc module does not export <sys/timerfd.h>. */
int folio_timer_create(void);

/* Arms the timer to fire once after delay_ns (0 fires at once); a negative delay disarms it. */
int folio_timer_arm(int fd, int64_t delay_ns);

/* Blocks SIGINT, SIGTERM and SIGHUP for this thread (and the threads it starts later) and
 * returns a non-blocking signalfd that reports them, so a quit request reaches the event loop
 * as an ordinary event; -1 and errno on failure. Swift's Glibc module lacks <sys/signalfd.h>. */
int folio_quit_signals_fd(void);

/* Reads one pending signal from that fd: its number, or 0 when none is pending. */
int folio_quit_signals_read(int fd);

/* Routes libwayland's log through Folio: the line a protocol error carries is kept for
 * folio_wayland_last_message (and not printed), every other line goes to stderr as before. */
void folio_wayland_log_capture(void);

/* The last line libwayland logged since folio_wayland_log_capture, without its newline ("" if none). */
const char *folio_wayland_last_message(void);

#endif
