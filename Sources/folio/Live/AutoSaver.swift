import Dispatch
import FolioSketchbook
import Synchronization

/// Saves the sketchbook after every change without stalling frames: the newest snapshot is
/// handed to a background queue; snapshots that arrive while a save runs are coalesced, so
/// the disk sees at most one pending write and always the latest book.
final class AutoSaver: Sendable {
    private struct State {
        var pending: Sketchbook?
        var saving = false
        var lastError: BookError?
        /// Whether the current run of failures has been reported: one line per run, and a new
        /// line for a failure after a save that worked.
        var reportedError = false
    }

    private let writer: BookWriter
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "folio.autosave")

    init(writer: BookWriter) {
        self.writer = writer
    }

    /// Queues `book` to be saved; returns at once.
    func save(_ book: Sketchbook) {
        let start = state.withLock { state -> Bool in
            state.pending = book
            guard !state.saving else { return false }
            state.saving = true
            return true
        }
        if start { queue.async { self.drain() } }
    }

    /// Writes whatever is pending and waits for it: at quit, or when the compositor is gone.
    /// Throws the last failure if the newest book could not be saved.
    func finish(_ book: Sketchbook) throws {
        save(book)
        queue.sync {}
        if let error = state.withLock({ $0.lastError }) { throw error }
    }

    private func drain() {
        while let book = state.withLock({ state -> Sketchbook? in
            defer { state.pending = nil }
            if state.pending == nil { state.saving = false }
            return state.pending
        }) {
            do {
                try writer.save(book)
                log.debug("saved \(writer.store.file.path): \(book.sheets.count) sheets")
                state.withLock { state in
                    state.lastError = nil
                    state.reportedError = false
                }
            } catch {
                let failure = error as? BookError ?? .io(path: writer.store.file.path, reason: "\(error)")
                let first = state.withLock { state -> Bool in
                    state.lastError = failure
                    defer { state.reportedError = true }
                    return !state.reportedError
                }
                // Said once per run of failures; the drawing stays in memory and the next change tries again.
                if first { warn("\(failure); the drawing is kept in memory and saving is retried on the next change") }
            }
        }
    }
}
