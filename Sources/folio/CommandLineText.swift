import ArgumentParser
import Foundation

/// The arguments after the program's name, as text. `CommandLine.arguments` replaces bytes that
/// are not UTF-8 with U+FFFD, so a path holding them would name another file: such an argument
/// is refused instead, named with its bad bytes written as `\xNN`.
func commandLineText() throws -> [String] {
    var arguments: [String] = []
    for index in 1..<Int(CommandLine.argc) {
        guard let raw = CommandLine.unsafeArgv[index] else { continue }
        guard let text = String(validatingCString: raw) else {
            let shown = escaped(UnsafeRawBufferPointer(start: raw, count: strlen(raw)))
            throw ValidationError("argument \(index) (\(shown)) is not UTF-8 text; Folio takes paths and values in UTF-8 only")
        }
        arguments.append(text)
    }
    return arguments
}

/// `bytes` as text, each byte that is not part of a UTF-8 character (and each control
/// character) written as `\xNN`.
private func escaped(_ bytes: UnsafeRawBufferPointer) -> String {
    var text = ""
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var at = 0
    func hex(_ byte: UInt8) -> String { "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true) }
    while true {
        switch parser.parseScalar(from: &iterator) {
        case let .valid(encoded):
            let scalar = Unicode.UTF8.decode(encoded)
            text += scalar.value < 0x20 || scalar.value == 0x7F ? hex(UInt8(scalar.value)) : String(Character(scalar))
            at += encoded.count
        case let .error(length):
            text += bytes[at..<(at + length)].map(hex).joined()
            at += length
        case .emptyInput:
            return text
        }
    }
}
