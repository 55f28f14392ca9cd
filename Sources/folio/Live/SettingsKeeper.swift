import FolioCore
import FolioFiles
import FolioSettings

/// A session's settings: read from `config.toml` at start (each problem one line on stderr, the
/// default used), applied to the session, and the toolbar's ink choices written back as they
/// change. A file Folio could not read cleanly is left as its owner wrote it: choices are then
/// kept for this run only, and that is said once.
final class SettingsKeeper {
    private let file: SettingsFile
    private var settings: Settings
    private let writable: Bool
    private var toldNotWritten = false

    init(file: SettingsFile) {
        self.file = file
        let (settings, problems) = file.load()
        self.settings = settings
        writable = problems.isEmpty
        for problem in problems { warn(problem) }
    }

    /// The keeper of the default `config.toml`; nil, said in one line, when there is no config
    /// folder to find it in: the defaults are used and nothing is written.
    static func forDefaultFile() -> SettingsKeeper? {
        do {
            return SettingsKeeper(file: SettingsFile(path: try SettingsFile.defaultPath(in: .current())))
        } catch {
            warn("\(error), so there is no settings file; the default settings are used for this run")
            return nil
        }
    }

    func apply(to session: Session) {
        session.applyChoices(palette: settings.palette, ink: settings.ink)
        session.configure(edgeTurn: settings.edgeTurn, pinch: settings.pinch, foldPerspective: settings.perspective)
        session.penOnly = settings.penOnly
        session.barrelButtonErases = settings.barrelButton == .eraser
        session.tapUndo = settings.tapUndo
        session.holdToShape = settings.holdToShape
        session.predictsInk = settings.prediction
        session.useDefaultPaper(settings.paper)
    }

    /// Whether a live stroke's frames are committed just before the compositor's deadline.
    var lateCommits: Bool { settings.lateCommits }

    /// The toolbar's colour, width or paper changed: written back.
    func choicesChanged(in session: Session) {
        settings.ink = session.tools.ink
        settings.paper = session.paper
        guard writable else {
            if !toldNotWritten { warn("\(file.path) has problems (said above), so the toolbar's choices are not written to it") }
            toldNotWritten = true
            return
        }
        do {
            try file.save(settings)
        } catch {
            warn("\(error); the toolbar's choices are kept for this run")
        }
    }
}
