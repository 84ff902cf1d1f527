/// A file a report is written to could not be opened (`--output`, `--reporter NAME=PATH`, `--write-baseline`, a
/// job summary).
public struct OutputFileError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot write \(path): \(reason)" }
}

extension Output {
    /// Buffered writes to standard output. When it was closed at the start, every write fails as a write to a closed
    /// descriptor does (EBADF), so that the report is known not to have been written.
    public static func standardOutput() -> Output {
        Output(fileDescriptor: StandardStream.output.wasClosed ? -1 : StandardStream.output.fileDescriptor)
    }

    /// Buffered writes to a report file at `path`. A regular file, or a path that names nothing yet, is written
    /// whole beside it and put in its place at `commit()` (see `ReplacementFile`); anything else (`/dev/stdout`, a
    /// pipe, a terminal) is written to as it is.
    public static func replacing(_ path: String) throws(OutputFileError) -> Output {
        if let status = FileStatus(path: path), status.kind != .regularFile {
            if status.kind == .directory { throw OutputFileError(path: path, reason: "Is a directory") }
            return try Output(path: path)
        }
        do {
            return Output(replacement: try ReplacementFile(replacing: path))
        } catch {
            throw OutputFileError(path: path, reason: error.description)
        }
    }

    /// Buffered writes to the file at `path`: created, and emptied first unless `appending`. The descriptor stays
    /// open until the process ends.
    public convenience init(path: String, appending: Bool = false) throws(OutputFileError) {
        do {
            self.init(fileDescriptor: appending ? try FileDescriptorIO.openForAppending(path) : try FileDescriptorIO.createForWriting(path))
        } catch {
            throw OutputFileError(path: path, reason: error.description)
        }
    }
}

/// The files a run reads and the ones it writes, checked together before anything is opened for writing: an output
/// that names a file the run reads would empty it before it is read, and two outputs that name one file would write
/// over each other. Files are compared as the file system knows them (device and inode), so every spelling of one
/// file counts: `./out.x`, a symbolic or hard link, `/dev/stdout`. `/dev/null` may take any number of outputs.
public enum OutputPlan {
    /// Something the run reads or writes: a label for messages (`--reporter sarif=app.log`) and a path, nil for
    /// standard input or output.
    public struct Place: Sendable {
        public var label: String
        public var path: String?
        public init(_ label: String, path: String?) {
            self.label = label
            self.path = path
        }
    }

    /// What is wrong with writing `outputs` in a run that reads `inputs`, or nil when nothing is.
    public static func problem(outputs: [Place], inputs: [Place]) -> String? {
        let discarded = FileStatus(path: "/dev/null").map(Identity.init)
        var written: [(place: Place, identity: Identity)] = []
        for output in outputs {
            guard let identity = identity(output.path, standard: StandardStream.output), identity != discarded else { continue }
            if let earlier = written.first(where: { $0.identity == identity }) {
                return "\(earlier.place.label) and \(output.label) would write to the same file; give each its own path"
            }
            written.append((output, identity))
        }
        for input in inputs {
            // Standard input counts only when it is a file: a pipe cannot be emptied by opening a path.
            if input.path == nil, FileStatus(fileDescriptor: StandardStream.input.fileDescriptor)?.kind != .regularFile { continue }
            guard let identity = identity(input.path, standard: StandardStream.input),
                  let output = written.first(where: { $0.identity == identity }) else { continue }
            return "\(output.place.label) would overwrite \(input.label), which this run reads; write it elsewhere"
        }
        return nil
    }

    /// A file as the file system knows it, or, for a path that names nothing yet, the path it would be made at.
    enum Identity: Equatable {
        case file(device: UInt64, inode: UInt64)
        case toBeMade(String)

        init(_ status: FileStatus) { self = .file(device: status.device, inode: status.inode) }
    }

    static func identity(_ path: String?, standard: StandardStream) -> Identity? {
        guard let path else { return FileStatus(fileDescriptor: standard.fileDescriptor).map(Identity.init) }
        if let status = FileStatus(path: path) { return Identity(status) }
        // Not there yet: the folder as the file system knows it, and the name in it.
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return .toBeMade((ResolvedPath.of(folder) ?? folder) + "/" + name)
    }
}
