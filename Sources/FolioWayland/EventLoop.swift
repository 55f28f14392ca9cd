import CWaylandClient
import CWaylandProtocols
import Glibc

/// The one loop: poll() on the display fd, its timers (timerfds) and a signalfd, with
/// libwayland's prepare_read / read_events / dispatch_pending / flush discipline. It sleeps in
/// poll until the compositor speaks or a timer is due: no busy waiting, no sleeps.
final class EventLoop {
    /// A one-shot timer on the loop (a CLOCK_MONOTONIC timerfd): `fire` runs on the loop when it expires.
    final class Timer {
        fileprivate let fd: Int32
        fileprivate let fire: () -> Void

        fileprivate init(fire: @escaping () -> Void) throws {
            fd = folio_timer_create()
            guard fd >= 0 else { throw WaylandError.system("cannot create a timer: \(String(cString: strerror(errno)))") }
            self.fire = fire
        }

        deinit { close(fd) }

        /// Fires once after `milliseconds` (replacing any earlier deadline); nil disarms.
        func arm(after milliseconds: Double?) {
            let nanoseconds = milliseconds.map { Int64(max(0, $0) * 1_000_000) } ?? -1
            folio_timer_arm(fd, nanoseconds)
        }

        /// What another thread holds to make this timer fire at once.
        var wakeup: LoopWakeup { LoopWakeup(fd: fd) }
    }

    private let display: Display
    private var timers: [Timer] = []
    /// SIGINT, SIGTERM and SIGHUP arrive here instead of killing the process mid-stroke.
    private let quitSignals: Int32
    private var running = false
    private var failure: Error?
    /// Someone asked the process to end (the signal's number): finish and save, then stop.
    var onQuitSignal: ((Int32) -> Void)?

    init(display: Display) throws {
        self.display = display
        quitSignals = folio_quit_signals_fd()
        guard quitSignals >= 0 else {
            throw WaylandError.system("cannot watch for quit signals: \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close(quitSignals)
    }

    /// A new timer, disarmed, watched by this loop for as long as the loop lives.
    func makeTimer(_ fire: @escaping () -> Void) throws -> Timer {
        let timer = try Timer(fire: fire)
        timers.append(timer)
        return timer
    }

    /// Runs until `stop()`; throws when the connection breaks or a handler failed.
    func run() throws {
        running = true
        while running {
            try iterate()
            if let failure { throw failure }
        }
    }

    func stop() {
        running = false
    }

    /// Stops the loop with an error raised inside an event handler (C callbacks cannot throw).
    func fail(_ error: Error) {
        failure = failure ?? error
        running = false
    }

    private func iterate() throws {
        let wl = display.display
        while wl_display_prepare_read(wl) != 0 {
            try display.dispatchPending()
        }
        let flushed: Bool
        do {
            flushed = try display.flush()
        } catch {
            wl_display_cancel_read(wl)
            throw error
        }
        var fds = [
            pollfd(fd: display.fileDescriptor, events: Int16(POLLIN) | (flushed ? 0 : Int16(POLLOUT)), revents: 0),
            pollfd(fd: quitSignals, events: Int16(POLLIN), revents: 0),
        ] + timers.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        if poll(&fds, nfds_t(fds.count), -1) < 0 {
            wl_display_cancel_read(wl)
            if errno == EINTR { return }
            throw WaylandError.system("poll failed: \(String(cString: strerror(errno)))")
        }
        let events = fds[0].revents
        if events & Int16(POLLIN) != 0 {
            if wl_display_read_events(wl) < 0 { throw WaylandError.connectionLost(String(cString: strerror(errno))) }
        } else {
            wl_display_cancel_read(wl)
            if events & Int16(POLLHUP | POLLERR) != 0 { throw WaylandError.connectionLost("the compositor hung up") }
        }
        try display.dispatchPending()
        for (timer, fd) in zip(timers, fds.dropFirst(2)) where fd.revents & Int16(POLLIN) != 0 {
            var expirations: UInt64 = 0
            _ = read(timer.fd, &expirations, MemoryLayout<UInt64>.size)
            timer.fire()
        }
        if fds[1].revents & Int16(POLLIN) != 0 {
            let signal = folio_quit_signals_read(quitSignals)
            if signal != 0 { onQuitSignal?(signal) }
        }
    }
}

/// Wakes the app's loop from another thread (a background queue with news for the screen): the
/// loop's wake-up timer fires at once, on the loop. Arming a timerfd is one system call, safe
/// from any thread; it is held only while the client that made it lives.
public struct LoopWakeup: Sendable {
    fileprivate let fd: Int32

    public func wake() {
        folio_timer_arm(fd, 0)
    }
}
