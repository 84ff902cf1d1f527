/// A file a report is written to could not be opened (`--output`, `--reporter NAME=PATH`, `--write-baseline`, a
/// job summary).
public struct OutputFileError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot write \(path): \(reason)" }
}

extension Output {
    /// Buffered writes to standard output.
    public static func standardOutput() -> Output { Output(fileDescriptor: StandardStream.output.fileDescriptor) }

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
