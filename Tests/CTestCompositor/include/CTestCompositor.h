#ifndef FOLIO_CTEST_COMPOSITOR_H
#define FOLIO_CTEST_COMPOSITOR_H

/* What the Swift test compositor cannot do on its own with libwayland-server:
 * variadic calls, wl_listener's container_of pattern, and sockaddr_un plumbing. */

#include <wayland-server.h>
#include "xdg-shell-server-protocol.h"
#include "viewporter-server-protocol.h"
#include "presentation-time-server-protocol.h"
#include "fractional-scale-v1-server-protocol.h"
#include "pointer-gestures-v1-server-protocol.h"
#include "tablet-v2-server-protocol.h"
#include "text-input-unstable-v3-server-protocol.h"

/* The real address of a protocol interface descriptor ("wl_compositor", "xdg_wm_base", ...),
 * defined in CWaylandProtocols. wl_global_create and wl_resource_create keep the pointer,
 * and Swift cannot take the address of an extern C global reliably (withUnsafePointer(to:)
 * may hand back a temporary copy). */
const struct wl_interface *folio_interface(const char *name);

/* memfd_create with close-on-exec and sealing allowed, defined in CWaylandProtocols (Swift's
 * Glibc module does not see memfd_create); -1 and errno on failure. */
int folio_memfd_create(const char *name);

/* wl_resource_post_error without the format string (it is variadic, so Swift cannot call it). */
void folio_test_post_error(struct wl_resource *resource, uint32_t code, const char *message);

/* Calls `notify(context, resource)` once, when `resource` is destroyed. The listener is
 * freed after the call. Returns 0, or -1 when out of memory. */
int folio_test_on_destroy(struct wl_resource *resource,
                          void (*notify)(void *context, struct wl_resource *resource),
                          void *context);

/* A listening, close-on-exec Unix stream socket bound at `path` (removed first if stale);
 * -1 and errno on failure. Handed to wl_display_add_socket_fd. */
int folio_test_listen(const char *path);

#endif
