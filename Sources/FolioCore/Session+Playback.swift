import FolioInput
import FolioSketchbook

/// Playing the sheet back: the canvas draws it again stroke by stroke, at the pace it was drawn
/// (fitted to `Playback.longest`), until it ends or any touch, click or key stops it. The book
/// is never touched: nothing is saved and nothing goes on the undo history.
extension Session {
    /// Whether the sheet is playing back.
    public var isPlayingBack: Bool { playback != nil }

    /// Starts playing the sheet back from a blank canvas: only from the idle canvas, with
    /// something on the sheet.
    func beginPlayback() {
        guard mode == .idle, selection == nil, !book.sheet.isBlank else { return }
        toolbar.hide()
        var playback = Playback(strokes: book.sheet.strokes, at: now)
        display.damage.formUnion(playback.drawing.begin(on: display.canvas))
        self.playback = playback
        record("playback.began", at: now)
    }

    /// Draws the playback as of `now`; at its end the canvas shows the whole sheet and it stops.
    func advancePlayback() {
        guard var playback else { return }
        self.playback = nil  // hands the drawing over, so drawing it copies nothing
        let progress = playback.progress(at: now)
        display.damage.formUnion(playback.drawing.draw(progress, of: playback.strokes, on: display.canvas))
        if progress == playback.schedule.end {
            record("playback.ended", at: now)
        } else {
            self.playback = playback
        }
    }

    /// Stops a playback; with `showingSheet`, the canvas shows the sheet as it is at once.
    func stopPlayback(showingSheet: Bool) {
        guard playback != nil else { return }
        playback = nil
        if showingSheet { display.showSheet(book.sheet) }
        record("playback.stopped", at: now)
    }

    /// Whether `event` belongs to the playback rather than the canvas: a touch, click, pen, pinch
    /// or key pressed during it stops it (and the rest of that contact is taken in too).
    func playbackTakes(_ event: InputEvent) -> Bool {
        if stoppedPlayback.takes(event) { return true }
        guard playback != nil, stoppedPlayback.hold(event) else { return false }
        stopPlayback(showingSheet: true)
        return true
    }
}
