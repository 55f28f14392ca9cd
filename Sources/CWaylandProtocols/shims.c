#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <time.h>
#include "CWaylandProtocols.h"

static const struct {
    const char *name;
    const struct wl_interface *interface;
} interfaces[] = {
    {"wl_display", &wl_display_interface},
    {"wl_registry", &wl_registry_interface},
    {"wl_callback", &wl_callback_interface},
    {"wl_compositor", &wl_compositor_interface},
    {"wl_shm_pool", &wl_shm_pool_interface},
    {"wl_shm", &wl_shm_interface},
    {"wl_buffer", &wl_buffer_interface},
    {"wl_surface", &wl_surface_interface},
    {"wl_region", &wl_region_interface},
    {"wl_subcompositor", &wl_subcompositor_interface},
    {"wl_subsurface", &wl_subsurface_interface},
    {"wl_seat", &wl_seat_interface},
    {"wl_pointer", &wl_pointer_interface},
    {"wl_keyboard", &wl_keyboard_interface},
    {"wl_touch", &wl_touch_interface},
    {"wl_output", &wl_output_interface},
    {"xdg_wm_base", &xdg_wm_base_interface},
    {"xdg_positioner", &xdg_positioner_interface},
    {"xdg_surface", &xdg_surface_interface},
    {"xdg_toplevel", &xdg_toplevel_interface},
    {"xdg_popup", &xdg_popup_interface},
    {"wp_viewporter", &wp_viewporter_interface},
    {"wp_viewport", &wp_viewport_interface},
    {"wp_presentation", &wp_presentation_interface},
    {"wp_presentation_feedback", &wp_presentation_feedback_interface},
    {"wp_fractional_scale_manager_v1", &wp_fractional_scale_manager_v1_interface},
    {"wp_fractional_scale_v1", &wp_fractional_scale_v1_interface},
    {"zwp_pointer_gestures_v1", &zwp_pointer_gestures_v1_interface},
    {"zwp_pointer_gesture_pinch_v1", &zwp_pointer_gesture_pinch_v1_interface},
    {"zwp_pointer_gesture_swipe_v1", &zwp_pointer_gesture_swipe_v1_interface},
    {"zwp_pointer_gesture_hold_v1", &zwp_pointer_gesture_hold_v1_interface},
    {"zwp_tablet_manager_v2", &zwp_tablet_manager_v2_interface},
    {"zwp_text_input_manager_v3", &zwp_text_input_manager_v3_interface},
    {"zwp_text_input_v3", &zwp_text_input_v3_interface},
    {"zwp_tablet_seat_v2", &zwp_tablet_seat_v2_interface},
    {"zwp_tablet_v2", &zwp_tablet_v2_interface},
    {"zwp_tablet_tool_v2", &zwp_tablet_tool_v2_interface},
};

const struct wl_interface *folio_interface(const char *name) {
    for (size_t i = 0; i < sizeof interfaces / sizeof interfaces[0]; i++) {
        if (strcmp(interfaces[i].name, name) == 0) return interfaces[i].interface;
    }
    return NULL;
}

int folio_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int folio_memfd_seal_shrink(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
}

int folio_timer_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
}

int folio_timer_arm(int fd, int64_t delay_ns) {
    struct itimerspec spec = {0};
    if (delay_ns >= 0) {
        int64_t ns = delay_ns > 0 ? delay_ns : 1; /* an all-zero value would disarm */
        spec.it_value.tv_sec = ns / 1000000000;
        spec.it_value.tv_nsec = ns % 1000000000;
    }
    return timerfd_settime(fd, 0, &spec, NULL);
}

int folio_quit_signals_fd(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

int folio_quit_signals_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    return n == (ssize_t)sizeof info ? (int)info.ssi_signo : 0;
}

/* libwayland's last log line, kept for the protocol error that ends a session: the error event's
 * message reaches a client only through wl_log. */
static char last_wayland_message[512];

static void folio_wayland_log(const char *format, va_list args) {
    va_list copy;
    va_copy(copy, args);
    vsnprintf(last_wayland_message, sizeof last_wayland_message, format, copy);
    va_end(copy);
    size_t length = strlen(last_wayland_message);
    while (length > 0 && last_wayland_message[length - 1] == '\n') last_wayland_message[--length] = '\0';
    /* A protocol error is reported by the client with its object; anything else is shown as before. */
    if (strstr(last_wayland_message, ": error ") == NULL) vfprintf(stderr, format, args);
}

void folio_wayland_log_capture(void) {
    wl_log_set_handler_client(folio_wayland_log);
}

const char *folio_wayland_last_message(void) {
    return last_wayland_message;
}
