import FolioGestures
import FolioGeometry
import FolioLayers
import FolioPixels
import FolioShelf
import FolioSketchbook

extension Session {
    /// How long the book takes to fold shut onto the shelf (s): the fold's release from its smallest scale, reversed.
    static let closeDuration = 0.5 / FoldScene.minimumScale

    /// The shelf's view while it is on screen (nil while a book is open, or without a shelf).
    var shownShelf: ShelfView? {
        guard case .shelf = state else { return nil }
        return shelf?.view
    }

    /// Draws the shelf's frame (into `target`, a buffer the compositor will read, if given); what
    /// the book's canvas changed meanwhile is not on screen, so it is not damage.
    func renderShelf(_ view: ShelfView, into target: FrameTarget? = nil) -> Region {
        display.discardDamage()
        guard let target else { return view.render() }
        return view.render(into: target.bitmap, missing: target.missing)
    }

    /// Puts the shelf of `access` on screen in place of the book: the app's start, and
    /// `folio replay --shelf`. From the idle canvas only; returns whether the shelf shows.
    @discardableResult
    public func showShelf(_ access: ShelfAccess) -> Bool {
        guard case .idle = state else { return false }
        let scene = sceneSize
        let view = ShelfView(shelf: access.shelf, width: scene.width, height: scene.height,
                             pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale.factor)
        view.options = pageOptions
        shelf = SessionShelf(access: access, view: view)
        enterShelf()
        return true
    }

    /// The shelf shows: its books read again (a closed book's cover may have changed) and drawn whole.
    private func enterShelf() {
        guard let shelf else { return }
        shelf.openBook = nil
        toolbar.isAway = true
        state = .shelf
        shelf.view.options = pageOptions
        shelf.view.reload()
        shelf.view.damageAll()
        refreshShelfControls()
        record("shelf.shown", at: now)
    }

    /// What a gesture means on the shelf: a contact scrolls it or, as a tap, opens the book under it.
    func shelfTransition(_ gesture: Gesture, at time: Double) {
        guard let view = shelf?.view else { return }
        switch gesture {
        case let .strokeBegan(p), let .eraseBegan(p), let .turnBegan(_, p):
            view.press(at: p, time: time)
        case let .penStrokeBegan(sample):
            view.press(at: sample.point, time: time)
        case let .strokeMoved(p), let .turnMoved(p):
            view.move(to: p, time: time)
        case let .penStrokeMoved(sample):
            view.move(to: sample.point, time: time)
        case .strokeEnded, .turnEnded(cancelled: false):
            if let tap = view.release(time: time) { shelfTap(tap) }
        case let .text(text):
            typeName { $0 + text }
        case let .composing(text):
            if let view = shelf?.view, view.editing != nil { view.composing = text }
        case .command(.deleteBackward):
            typeName { String($0.dropLast()) }
        case .command(.confirm):
            finishName(keep: true)
        case .command(.closeBook):
            finishName(keep: false)
        case .command(.undo):
            shelfTap(.control(.undo))
        case .command(.newSheet):
            shelfTap(.control(.newBook))
        case .strokeWithdrawn, .turnEnded(cancelled: true):
            _ = view.release(time: time, cancelled: true)
        case .command(.quit):
            onRequest?(.quit)
        case .command(.toggleFullscreen):
            onRequest?(.toggleFullscreen)
        default:
            break
        }
    }

    /// A tap on the shelf: a control does its work or waits for a cover; a cover is opened, or
    /// recoloured or deleted when its control waits.
    private func shelfTap(_ tap: ShelfView.Tap) {
        guard let shelf else { return }
        let view = shelf.view, books = shelf.access.shelf
        let waiting = view.choosing
        view.choosing = nil
        // A tap anywhere ends the typing, keeping the name.
        finishName(keep: true)
        switch tap {
        case .control(.newBook):
            changeShelf("book.created") { _ = try books.createBook() }
        case .control(.undo):
            changeShelf("book.restored") {
                guard try books.undoDelete() != nil else { return }
                shelf.deletions -= 1
            }
        case let .control(control):
            view.choosing = waiting == control ? nil : control
        case let .book(book) where waiting == .recolor:
            changeShelf("book.recolored") { try books.setCoverColor(id: book.id, CoverPalette.next(after: book.coverColor)) }
        case let .book(book) where waiting == .rename:
            view.editing = (book.id, book.name)
            record("book.rename.began", at: now)
            onRequest?(.textInput(book.name))
        case let .book(book) where waiting == .delete:
            changeShelf("book.deleted") {
                try books.deleteBook(id: book.id)
                shelf.deletions += 1
            }
        case let .book(book):
            open(book)
        case .nothing:
            break
        }
    }

    /// The longest name a book takes, in characters: typing stops there.
    static let longestName = 100

    /// Changes the name being typed, if any, within `longestName` characters.
    private func typeName(_ change: (String) -> String) {
        guard let view = shelf?.view, let editing = view.editing else { return }
        let name = String(change(editing.name).prefix(Self.longestName))
        view.editing = (editing.id, name)
        onRequest?(.textInput(name))
    }

    /// Ends the typing of a name: kept (given to the shelf, unless blank) or left as it was.
    private func finishName(keep: Bool) {
        guard let view = shelf?.view, let editing = view.editing, let books = shelf?.access.shelf else { return }
        view.editing = nil
        onRequest?(.textInput(nil))
        let name = String(String(editing.name.drop(while: \.isWhitespace).reversed()).drop(while: \.isWhitespace).reversed())
        guard keep, !name.isEmpty else {
            record("book.rename.cancelled", at: now)
            view.reload()
            return
        }
        changeShelf("book.renamed") { try books.rename(id: editing.id, to: name) }
    }

    /// Changes the shelf through its seam, then shows it as it is: `event` in the timeline when
    /// the change was made, one line saying why when it could not be.
    private func changeShelf(_ event: String, _ change: () throws -> Void) {
        guard let shelf else { return }
        do {
            try change()
            record(event, at: now)
        } catch {
            onRequest?(.warn("the shelf could not be changed: \(error)"))
        }
        shelf.view.reload()
        refreshShelfControls()
    }

    /// The app's start: the shelf of `access` behind `book`, which is open on the easel at once
    /// (no animation; the books control or Escape closes it onto the shelf). A book that cannot
    /// be read leaves the shelf showing, with one line saying why; false when not on the idle canvas.
    @discardableResult
    public func showShelf(_ access: ShelfAccess, opening book: ShelfBook) -> Bool {
        guard showShelf(access) else { return false }
        guard putOnEasel(book) else { return true }
        toolbar.isAway = false
        state = .idle
        refreshShelfControls()
        record("book.opened", at: now)
        return true
    }

    /// Opens `book` from the shelf: its sheet on the easel, shown by the fold's unfold animation
    /// from the book closed (the fold's smallest scale) to the flat canvas. A book that cannot be
    /// read stays on the shelf, with one line saying why.
    func open(_ book: ShelfBook) {
        // Where its cover lies: the book opens from there.
        let cover = shelf?.view.screenQuad(of: book.id)
        guard putOnEasel(book) else { return }
        fold.open(contents: display.canvas.baked)
        _ = fold.track(FoldScene.minimumScale)
        if let cover {
            let spine = Point(x: (cover.topLeft.x + cover.bottomLeft.x) / 2, y: (cover.topLeft.y + cover.bottomLeft.y) / 2)
            fold.place(spine: spine, height: cover.bottomLeft.y - cover.topLeft.y)
        }
        display.prepare(fold.scene.root)
        state = .unfolding
        record("book.opening", at: now)
        fold.release { [unowned self] in
            state = .idle
            toolbar.isAway = false
            record("book.opened", at: transaction.now)
        }
    }

    /// Reads `book` through the shelf and puts its sheet on the canvas (a new book takes the
    /// default paper); false, with one line saying why, when it cannot be read.
    private func putOnEasel(_ book: ShelfBook) -> Bool {
        guard let shelf else { return false }
        let opened: Sketchbook
        do {
            opened = try shelf.access.open(book)
        } catch {
            onRequest?(.warn("cannot open \(book.name): \(error)"))
            return false
        }
        // Open before the book changes: the toolbar's controls are worked out from both.
        shelf.openBook = book
        shelf.access.shelf.bookOpened(id: book.id)
        self.book = opened
        selection = nil
        _ = paperNewBook()
        display.pictures = shelf.access.pictures(book)
        display.showSheet(self.book.sheet)
        return true
    }

    /// The open book is saved, then folds shut onto the shelf (the fold animation from the flat
    /// canvas to the closed book). Only from the idle canvas, and only with a shelf to go back to;
    /// a book that cannot be saved stays open, with one line saying why.
    func closeBook() {
        guard let shelf, let open = shelf.openBook else { return }
        finishActiveStroke()
        guard case .idle = state else { return }
        do {
            try shelf.access.save(open, book)
        } catch {
            onRequest?(.warn("cannot save \(open.name): \(error)"))
            return
        }
        keepOpenBookPicture()
        toolbar.isAway = true
        fold.open(contents: display.canvas.baked)
        display.prepare(fold.scene.root)
        state = .closingBook
        record("book.closing", at: now)
        transaction.perform(duration: Self.closeDuration, completion: { [unowned self] in
            fold.close()
            record("book.closed", at: transaction.now)
            enterShelf()
        }) {
            fold.scene.setScale(FoldScene.minimumScale)
        }
    }

    /// Book `id`'s cover picture is new: the shelf, if it shows, draws that cover again.
    public func coverRefreshed(id: String) {
        shownShelf?.coverChanged(id: id)
    }

    /// The books control shows only where it can do something: with a book open from a shelf.
    func refreshShelfControls() {
        guard let shelf else { return }
        if shelf.openBook == nil { toolbar.disabled.insert(.books) } else { toolbar.disabled.remove(.books) }
        shelf.view.disabledControls = shelf.deletions > 0 ? [] : [.undo]
    }
}

extension Session {
    /// Saves the book open from the shelf, if any, as closing it would (the app quitting with a
    /// book open, or a replay ending): nothing drawn is lost.
    public func saveOpenShelfBook() throws {
        guard let shelf, let open = shelf.openBook else { return }
        // A book folding shut was saved as it began to close.
        if case .closingBook = state { return }
        finishActiveStroke()
        try shelf.access.save(open, book)
        keepOpenBookPicture()
    }

    /// A big sheet's picture goes with the book it was drawn in, so the book opens at once next
    /// time; only a cache, so a failure is said and nothing more. The shelf keeps no pictures.
    private func keepOpenBookPicture() {
        do {
            try display.keepPicture(of: book)
        } catch {
            onRequest?(.warn("\(error); the sheet will be drawn from its strokes next time"))
        }
        display.pictures = nil
    }
}
