/// Paths as the system calls take them: bytes. A file name need not be UTF-8, but a Swift `String` made from one
/// has U+FFFD where its bytes were not; opened by that text, the file is not found, and a report goes to a file of
/// another name. The command line's arguments are kept as given, so a path that came from one reaches the system
/// call with its bytes unchanged.
enum SystemPath {
    /// The arguments that are not UTF-8, by the text Swift made of them.
    private static let arguments: [String: [CChar]] = {
        var originals: [String: [CChar]] = [:]
        for index in 0..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: argument, count: strlen(argument) + 1))
            let text = String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !text.utf8.elementsEqual(bytes.dropLast().map { UInt8(bitPattern: $0) }) { originals[text] = bytes }
        }
        return originals
    }()

    /// The paths found by listing a folder (`InputFolder`) whose names are not UTF-8, by the text Swift made of them.
    private static let found = Lock<[String: [CChar]]>([:])

    /// The text a path found by listing a folder is named by, the path's bytes kept for `bytes(_:)` when they are not
    /// UTF-8; nil when another path of other bytes already reads as the same text (it could not be told apart).
    static func text(ofFound path: [UInt8]) -> String? {
        let text = String(decoding: path, as: UTF8.self)
        guard !text.utf8.elementsEqual(path) else { return text }
        let bytes = path.map { CChar(bitPattern: $0) } + [0]
        return found.withLock { found in
            if let earlier = found[text] { return earlier == bytes ? text : nil }
            if let argument = arguments[text] { return argument == bytes ? text : nil }
            found[text] = bytes
            return text
        }
    }

    /// The bytes of `path`, nul-terminated: those of the command-line argument it came from, whole or the part after
    /// a UTF-8 prefix (`--reporter json=PATH`, `--output=PATH`), or those of a path found in a folder, or else its UTF-8.
    static func bytes(_ path: String) -> [CChar] {
        guard path.unicodeScalars.contains("\u{FFFD}") else { return Array(path.utf8CString) }
        if let original = arguments[path] { return original }
        if let original = found.withLock({ $0[path] }) { return original }
        for (text, original) in arguments where text.hasSuffix(path) {
            let prefix = Array(text.dropLast(path.count).utf8).map { CChar(bitPattern: $0) }
            if original.starts(with: prefix) { return Array(original.dropFirst(prefix.count)) }
        }
        return Array(path.utf8CString)
    }
}

/// `strlen` without importing the C library into this file's callers.
private func strlen(_ text: UnsafePointer<CChar>) -> Int {
    var count = 0
    while text[count] != 0 { count += 1 }
    return count
}
