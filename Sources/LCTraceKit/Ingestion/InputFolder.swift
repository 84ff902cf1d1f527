/// A folder named as an input: the log files below it, each read as an input of its own.
///
/// Every file whose name ends in one of `logFileEndings` is read, in subfolders too, sorted by path (byte order) and
/// named by the path it was reached by (`logs/a/app.log`). Hidden entries (a name starting with `.`) are left out,
/// files and folders alike. A symbolic link to a file is read; one to a folder is not followed, so links that loop
/// cannot make the walk endless (and a folder reached twice otherwise, by a bind mount, is listed once). What is below
/// the folder but cannot be read is a problem named on its own line; the walk goes on.
public enum InputFolder {
    /// The endings of the file names read below a folder, compared without regard to ASCII case: logs, text, gzip
    /// data (its first bytes say, not its name), `log show`/`log stream` JSON, and crash reports.
    public static let logFileEndings = [".log", ".txt", ".gz", ".ndjson", ".json", ".crash", ".ips"]

    /// What was found below a folder.
    public struct Listing: Sendable {
        /// The log files, sorted by path (byte order).
        public var files: [String] = []
        /// What could not be read or listed, one line each naming its path (`logs/old: cannot open: Permission
        /// denied`), in path order.
        public var problems: [String] = []
    }

    /// Whether `path` names a macOS log archive, by its name (`….logarchive`, trailing slashes aside).
    public static func isLogArchive(_ path: String) -> Bool {
        hasEnding(Array(trimmingSlashes(path).utf8), ".logarchive")
    }

    /// What to say of a log archive: lctrace cannot read one, and the command that makes a log it reads of it.
    public static func logArchiveProblem(_ path: String) -> String {
        let archive = trimmingSlashes(path)
        let quoted = shellQuoted(archive), converted = shellQuoted(archive + ".ndjson")
        return "\(archive): is a macOS log archive, which lctrace cannot read; convert it with "
            + "`log show --archive \(quoted) --style ndjson > \(converted)` (add --predicate 'process == \"App\"' to keep "
            + "one app's lines) and run lctrace on the .ndjson file"
    }

    /// The log files below `folder`, leaving out the files `leavingOut` names by identity (the run's own reports,
    /// baseline and configuration file, which are not logs even when they sit among them). Throws when `folder` itself
    /// cannot be listed.
    public static func list(_ folder: String, leavingOut: [FileStatus] = []) throws(SystemError) -> Listing {
        let excluded = Set(leavingOut.map { DirectoryListing.Identity(device: $0.device, inode: $0.inode) })
        let root = Array(SystemPath.bytes(folder).dropLast().map { UInt8(bitPattern: $0) })
        var files: [[UInt8]] = []
        var problems: [(path: [UInt8], message: String)] = []
        var visited: Set<DirectoryListing.Identity> = []
        var pending: [[UInt8]] = [root]
        var isRoot = true

        /// Whether the regular file at `path` is one of the excluded ones.
        func isExcluded(_ path: [UInt8]) -> Bool {
            guard !excluded.isEmpty, let found = try? DirectoryListing.kind(ofPath: cString(path), followingLinks: true) else { return false }
            return excluded.contains(found.identity)
        }

        while let directory = pending.popLast() {
            let entries: [DirectoryListing.Entry]
            do {
                // A folder reached again (by a bind mount, or a hard link to a folder) is listed once.
                if let identity = try? DirectoryListing.kind(ofPath: cString(directory), followingLinks: true).identity,
                   !visited.insert(identity).inserted { continue }
                entries = try DirectoryListing.entries(ofDirectory: cString(directory))
            } catch {
                if isRoot { throw error }
                problems.append((directory, "cannot open: \(error)"))
                continue
            }
            isRoot = false
            for entry in entries where entry.name.first != UInt8(ascii: ".") {
                let path = joined(directory, entry.name)
                var kind = entry.kind
                if kind == .unknown {
                    do {
                        kind = try DirectoryListing.kind(ofPath: cString(path), followingLinks: false).kind
                    } catch {
                        if isLogName(entry.name) { problems.append((path, "cannot open: \(error)")) }
                        continue
                    }
                }
                switch kind {
                case .directory:
                    if hasEnding(entry.name, ".logarchive") {
                        problems.append((path, ""))
                    } else {
                        pending.append(path)
                    }
                case .regularFile:
                    if isLogName(entry.name), !isExcluded(path) { files.append(path) }
                case .symbolicLink:
                    // A link to a folder is never followed; a link to a log file is read by the link's path.
                    guard isLogName(entry.name) else { continue }
                    do {
                        switch try DirectoryListing.kind(ofPath: cString(path), followingLinks: true).kind {
                        case .regularFile: if !isExcluded(path) { files.append(path) }
                        case .directory: continue
                        default: problems.append((path, "is not a regular file (a pipe, a socket or a device)"))
                        }
                    } catch {
                        problems.append((path, "cannot open: \(error)"))
                    }
                case .other, .unknown:
                    if isLogName(entry.name) { problems.append((path, "is not a regular file (a pipe, a socket or a device)")) }
                }
            }
        }

        var listing = Listing()
        for path in files.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            if let text = SystemPath.text(ofFound: path) {
                listing.files.append(text)
            } else {
                problems.append((path, "cannot be named: its name is not UTF-8 and reads the same as another path's"))
            }
        }
        for problem in problems.sorted(by: { $0.path.lexicographicallyPrecedes($1.path) }) {
            let text = String(decoding: problem.path, as: UTF8.self)
            listing.problems.append(problem.message.isEmpty ? logArchiveProblem(text) : "\(text): \(problem.message)")
        }
        return listing
    }

    // MARK: Names and paths

    private static func isLogName(_ name: [UInt8]) -> Bool {
        logFileEndings.contains { hasEnding(name, $0) }
    }

    /// Whether `name` ends in `ending` (ASCII), upper or lower case alike, with a name before it.
    private static func hasEnding(_ name: [UInt8], _ ending: String) -> Bool {
        let ending = Array(ending.utf8)
        guard name.count > ending.count else { return false }
        return zip(name.suffix(ending.count), ending).allSatisfy { byte, expected in
            (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) == expected
        }
    }

    /// `folder/name`, with no doubled slash when the folder was given with one at its end.
    private static func joined(_ folder: [UInt8], _ name: [UInt8]) -> [UInt8] {
        folder.last == UInt8(ascii: "/") ? folder + name : folder + [UInt8(ascii: "/")] + name
    }

    private static func cString(_ path: [UInt8]) -> [CChar] {
        path.map { CChar(bitPattern: $0) } + [0]
    }

    private static func trimmingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    /// `path` as a shell word: as it is when it holds only characters no shell treats specially, else in single quotes.
    private static func shellQuoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { scalar in
            (scalar.value >= 0x30 && scalar.value <= 0x39) || (scalar.value >= 0x41 && scalar.value <= 0x5A)
                || (scalar.value >= 0x61 && scalar.value <= 0x7A) || "_./+-@%:,=".unicodeScalars.contains(scalar)
        }
        if plain, !path.isEmpty { return path }
        return "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
