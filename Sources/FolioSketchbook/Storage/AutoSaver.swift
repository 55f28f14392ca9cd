import Dispatch

/// Runs work once after a delay: the save queue's clock, or a test's.
public protocol SaveTimer: Sendable {
    func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void)
}

/// A `SaveTimer` on a dispatch queue.
public struct DispatchSaveTimer: SaveTimer {
    public let queue: DispatchQueue

    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = delay.components
        queue.asyncAfter(deadline: .now() + Double(seconds) + Double(attoseconds) / 1e18, execute: work)
    }
}

/// Saves the sketchbook after every change without stalling frames, and makes it durable within
/// a second by group commit: the newest book is handed to a background queue, which appends its
/// record at once (snapshots that arrive meanwhile are coalesced, so the disk sees at most one
/// pending write and always the latest book); the first append after a sync arms the timer, and
/// when it fires one `fdatasync` covers every record appended since. `finish` appends and syncs
/// at once (quit, a signal, the compositor gone).
public final class AutoSaver: Sendable {
    /// How long an appended record may wait for its sync: with the sync's own time (a few ms,
    /// tens on a busy disk) a saved stroke is durable within one second.
    public static let syncDelay = Duration.milliseconds(500)

    private struct State {
        var pending: Sketchbook?
        var saving = false
        var syncArmed = false
        /// The newest save's failure, if it failed; cleared by the next save that works.
        var lastError: BookError?
        /// Whether the current run of failures has been reported: one line per run, and a new
        /// line for a failure after a save that worked.
        var reportedError = false
    }

    private let writer: BookWriter
    private let state = Locked(State())
    private let queue: DispatchQueue
    private let timer: any SaveTimer
    private let report: @Sendable (String) -> Void

    /// `report` gets one line per run of failures; `timer` defaults to the save queue's clock.
    public init(writer: BookWriter, timer: (any SaveTimer)? = nil, report: @escaping @Sendable (String) -> Void) {
        self.writer = writer
        let queue = DispatchQueue(label: "folio.autosave")
        self.queue = queue
        self.timer = timer ?? DispatchSaveTimer(queue: queue)
        self.report = report
    }

    /// Queues `book` to be saved; returns at once.
    public func save(_ book: Sketchbook) {
        let start = state.withLock { state -> Bool in
            state.pending = book
            guard !state.saving else { return false }
            state.saving = true
            return true
        }
        if start { queue.async { self.drain() } }
    }

    /// Writes whatever is pending, syncs it and waits: at quit, or when the compositor is gone.
    /// Throws the failure if the newest book could not be saved durably.
    public func finish(_ book: Sketchbook) throws {
        save(book)
        try queue.sync {
            if let error = state.withLock({ $0.lastError }) { throw error }
            try writer.sync()
        }
    }

    /// Waits until every save handed over so far has been appended (not synced).
    public func waitForAppends() {
        queue.sync {}
    }

    private func drain() {
        while let book = state.withLock({ state -> Sketchbook? in
            defer { state.pending = nil }
            if state.pending == nil { state.saving = false }
            return state.pending
        }) {
            do {
                try writer.append(book)
                state.withLock { state in
                    state.lastError = nil
                    state.reportedError = false
                }
                armSync()
            } catch {
                failed(error)
            }
        }
    }

    /// The first append after a sync starts the clock; appends before it fires share its sync.
    private func armSync() {
        guard writer.hasUnsyncedSaves, state.withLock({ state in
            defer { state.syncArmed = true }
            return !state.syncArmed
        }) else { return }
        timer.after(Self.syncDelay) { self.commit() }
    }

    private func commit() {
        state.withLock { $0.syncArmed = false }
        do {
            try writer.sync()
        } catch {
            // The writer took the unsynced records back: the next save appends them again.
            failed(error)
        }
    }

    private func failed(_ error: Error) {
        let failure = error as? BookError ?? .io(path: writer.store.file.path, reason: "\(error)")
        let first = state.withLock { state -> Bool in
            state.lastError = failure
            defer { state.reportedError = true }
            return !state.reportedError
        }
        // Said once per run of failures; the drawing stays in memory and the next change tries again.
        if first { report("\(failure); the drawing is kept in memory and saving is retried on the next change") }
    }
}
