#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "CTestCompositor.h"

void folio_test_post_error(struct wl_resource *resource, uint32_t code, const char *message) {
    wl_resource_post_error(resource, code, "%s", message);
}

struct destroy_watch {
    struct wl_listener listener;
    void (*notify)(void *context, struct wl_resource *resource);
    void *context;
};

static void destroy_watch_fired(struct wl_listener *listener, void *data) {
    struct destroy_watch *watch = wl_container_of(listener, watch, listener);
    wl_list_remove(&watch->listener.link);
    watch->notify(watch->context, data);
    free(watch);
}

int folio_test_on_destroy(struct wl_resource *resource,
                          void (*notify)(void *context, struct wl_resource *resource),
                          void *context) {
    struct destroy_watch *watch = calloc(1, sizeof *watch);
    if (!watch) return -1;
    watch->listener.notify = destroy_watch_fired;
    watch->notify = notify;
    watch->context = context;
    wl_resource_add_destroy_listener(resource, &watch->listener);
    return 0;
}

int folio_test_listen(const char *path) {
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    if (strlen(path) >= sizeof address.sun_path) { errno = ENAMETOOLONG; return -1; }
    strcpy(address.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    unlink(path);
    if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0 || listen(fd, 16) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}
