/// Where an input is, as the CI reports (SARIF, Code Climate) name it: relative to the working directory when it is
/// below it, so that a report reads the same in every checkout and links to the file in the repository; absolute
/// otherwise. Paths are taken as written, `.` and `..` resolved; only when an input is not below the working directory
/// as written are symbolic links followed on both sides (macOS's `/tmp` is `/private/tmp`, and `getcwd` says the
/// latter), so that an input in the working directory is named relative to it whichever spelling reached lctrace.
struct InputLocation: Equatable {
    enum Place: Equatable {
        /// Below the working directory: the path from it, `/`-separated.
        case relative(String)
        /// Elsewhere: an absolute path.
        case absolute(String)
        case standardInput
    }

    let place: Place

    /// `input` is a display name: a path as given (relative to `workingDirectory`), or `<stdin>`. `workingDirectory`
    /// is absolute (see `workingDirectory(_:)`).
    init(input: String, workingDirectory: String) {
        guard input != InputSource.standardInput.name else { place = .standardInput; return }
        let path = InputLocation.normalized(input.hasPrefix("/") ? input : workingDirectory + "/" + input)
        let directory = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        if path.hasPrefix(directory) {
            place = .relative(String(path.dropFirst(directory.count)))
        } else if let resolved = ResolvedPath.of(path), let resolvedDirectory = ResolvedPath.of(workingDirectory),
                  resolved.hasPrefix(resolvedDirectory.hasSuffix("/") ? resolvedDirectory : resolvedDirectory + "/") {
            place = .relative(String(resolved.dropFirst(resolvedDirectory.count).drop { $0 == "/" }))
        } else {
            place = .absolute(path)
        }
    }

    /// The path a report names: relative or absolute, or `<stdin>`.
    var path: String {
        switch place {
        case .relative(let path), .absolute(let path): return path
        case .standardInput: return InputSource.standardInput.name
        }
    }

    /// A URI reference: the relative path percent-encoded (to be resolved against the working directory's URI), a
    /// `file://` URI for an absolute path, or `stdin` for standard input.
    var uri: String {
        switch place {
        case .relative(let path): return InputLocation.percentEncoded(path)
        case .absolute(let path): return "file://" + InputLocation.percentEncoded(path)
        case .standardInput: return "stdin"
        }
    }

    /// The directory relative inputs are read from, absolute and normalised: `given` (relative to the current
    /// directory if it is relative), or the current directory.
    static func workingDirectory(_ given: String?) -> String {
        if let given, given.hasPrefix("/") { return normalized(given) }
        let current = WorkingDirectory.path ?? "/"
        guard let given else { return normalized(current) }
        return normalized(current + "/" + given)
    }

    /// `file:///the/directory/`: an absolute directory as a URI, ending in `/` so that relative references resolve
    /// inside it.
    static func directoryURI(_ directory: String) -> String {
        let uri = "file://" + percentEncoded(normalized(directory))
        return uri.hasSuffix("/") ? uri : uri + "/"
    }

    /// An absolute path with `.`, `..` and repeated slashes resolved.
    static func normalized(_ absolutePath: String) -> String {
        var parts: [Substring] = []
        for part in absolutePath.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Every byte of the UTF-8 path but the unreserved characters of RFC 3986 and `/` written `%XX`: valid in any
    /// path of a URI reference (a `:` in a first segment would otherwise read as a scheme).
    static func percentEncoded(_ path: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += byte < 0x10 ? "%0" + hex : "%" + hex
            }
        }
        return encoded
    }
}

/// The location of the input being read, made once per input: findings come input by input.
struct InputLocator {
    let workingDirectory: String
    private var last: (input: String, location: InputLocation)?

    /// `workingDirectory` as `InputLocation.workingDirectory(_:)` takes it.
    init(workingDirectory: String?) {
        self.workingDirectory = InputLocation.workingDirectory(workingDirectory)
    }

    mutating func location(of input: String) -> InputLocation {
        if let last, last.input == input { return last.location }
        let location = InputLocation(input: input, workingDirectory: workingDirectory)
        last = (input, location)
        return location
    }
}
