/// A failure to report as one clear line on stderr, with a non-zero exit.
struct FolioError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
