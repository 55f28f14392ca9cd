#if FOLIO_FUZZING
import CLibFuzzer
#endif
import Foundation
import FolioSketchbook
import FolioTestSupport

/// The book loader under libFuzzer (`make fuzz`): any bytes as a `book.folio` must load as a
/// book that keeps the format's rules, or be refused as damaged; anything else (a crash, a
/// trap, another error, a sanitizer report) is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBookLoader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    check(bytes)
    // With its checksums made right, an input reaches the record decoders instead of stopping at
    // the first checksum: both must hold.
    check(withChecksumsFixed(bytes))
    return 0
}


func check(_ bytes: [UInt8]) {
    do {
        let book = try BookStore.decode(journal: bytes, path: "fuzz.folio")
        precondition(book.sheets.indices.contains(book.currentSheet), "a loaded book names a sheet it has")
        precondition(book.sheets.count <= 1_000_000, "a loaded book keeps the sheet limit")
        precondition(book.sheets.allSatisfy { Paper.spacingRange.contains($0.paper.spacing) && $0.paper.color <= 0xFF_FFFF
            && $0.paper.forSheet == $0.paper }, "a loaded book's papers keep their ranges")
    } catch let error as BookError {
        guard case .damaged = error else { preconditionFailure("not reported as damage: \(error)") }
    } catch {
        preconditionFailure("not a BookError: \(error)")
    }
}

/// Built for fuzzing (`-D FOLIO_FUZZING`, with -sanitize=fuzzer) libFuzzer runs the loader on
/// its inputs; built without, it loads the files named on its command line the same way, to
/// replay a finding.
@main
struct Fuzz {
    static func main() throws {
        #if FOLIO_FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzBookLoader(data, size) })
        #else
        for path in CommandLine.arguments.dropFirst() {
            check([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            print("\(path): loaded or refused as damaged")
        }
        #endif
    }
}
