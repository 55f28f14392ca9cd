import ArgumentParser
import FolioFiles
import FolioShelf

/// `folio books`: the shelf as one line of JSON, after moving the single book of Folio 0.1 onto it.
struct BooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "books",
        abstract: "List the shelf of books as JSON: {\"books\": [{\"name\": …, \"path\": …, \"sheets\": N, \"strokes\": K}, ...]}.",
        discussion: "Books are listed newest first. The single book of Folio 0.1, if still in $XDG_DATA_HOME/folio, is moved onto the shelf first.")

    func run() throws {
        let library = try makeLibrary(dataFolder: nil)
        defer { library.close() }
        var json = "{\"books\":["
        for (index, book) in library.books.enumerated() {
            json += index == 0 ? "{" : ",{"
            json += "\"name\":\(Self.quoted(book.name)),\"path\":\(Self.quoted(book.path)),"
            json += "\"sheets\":\(book.sheets),\"strokes\":\(book.strokes)}"
        }
        print(json + "]}")
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let digits = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
