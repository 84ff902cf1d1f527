import ArgumentParser
import LCTraceKit

/// `--process`, `--pid` and `--stdin-name`: which lines of a log are read, and what piped input is called. Shared by
/// `analyze`, `check` and `lines`.
struct InputSelectionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Read only the lines of this process (repeatable), its name exactly as logged (case-sensitive): one app's lines "
            + "in a whole-device log. The other lines are counted as skipped (other-process); a line with no process in "
            + "its header goes with the line before it.",
        valueName: "name"))
    var process: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Read only the lines of this process id (repeatable); with --process, a line must match both.", valueName: "n"))
    var pid: [Int] = []

    @Option(name: .long, help: ArgumentHelp(
        "The name standard input goes by in every report, instead of <stdin> (the file the piped log came from).",
        valueName: "name"))
    var stdinName: String?

    func validate() throws {
        if process.contains(where: { $0.isEmpty || $0.contains(where: \.isNewline) }) {
            throw ValidationError("--process needs a process name, as the log writes it (ShopApp).")
        }
        if let negative = pid.first(where: { $0 < 0 }) { throw ValidationError("--pid \(negative): a process id is 0 or more.") }
        if let stdinName, stdinName.isEmpty || stdinName.contains(where: \.isNewline) {
            throw ValidationError("--stdin-name needs a name on one line.")
        }
    }

    var processFilter: ProcessFilter? { ProcessFilter(names: process, pids: pid) }

    /// The flags' processes, else the configuration file's.
    func processFilter(_ config: LoadedConfig?) -> ProcessFilter? {
        processFilter ?? config?.file.processes.flatMap { ProcessFilter(names: $0, pids: []) }
    }
}

/// The inputs of a run as the command line names them: files, folders (every log below each) and standard input.
struct ReadableInputs {
    var inputs: [RunInput]
    /// What below the folders could not be listed or read, already said on stderr: the run ends with status 2.
    var problems: Int

    var sources: [InputSource] { inputs.map(\.source) }
}

/// The inputs named on the command line (standard input when none), each checked before anything is printed, so that
/// a missing file fails the run at once (status 2) rather than after the reports of the files before it. A folder
/// stands for the log files below it (`InputFolder`), in path order; what below it cannot be read is said on stderr
/// and the run goes on (it ends with status 2), but a folder with no log file, and a log archive, fail the run.
/// `leavingOut`: files the run writes or reads as something else than a log, left out of the folders' listings.
func readableInputs(_ arguments: [String], missingAllowed: Bool = false, foldersAllowed: Bool = true,
                    standardInputName: String? = nil, leavingOut: [FileStatus] = []) -> ReadableInputs {
    let standardInput = standardInputName.map(InputSource.standardInput(named:)) ?? .standardInput
    guard !arguments.isEmpty else { return ReadableInputs(inputs: [RunInput(standardInput)], problems: 0) }
    var readable = ReadableInputs(inputs: [], problems: 0)
    for argument in arguments {
        if argument == "-" {
            readable.inputs.append(RunInput(standardInput))
            continue
        }
        let source = InputSource.file(argument)
        if missingAllowed, FileStatus.isMissing(atPath: argument) {
            readable.inputs.append(RunInput(source))
            continue
        }
        if FileStatus(path: argument)?.kind == .directory {
            if InputFolder.isLogArchive(argument) { fail(InputFolder.logArchiveProblem(argument)) }
            if foldersAllowed {
                let listing: InputFolder.Listing
                do { listing = try InputFolder.list(argument, leavingOut: leavingOut) } catch { fail("\(argument): cannot open: \(error)") }
                for problem in listing.problems {
                    ProgressLine.current?.clear()
                    StandardStream.error.write("lctrace: \(TerminalText.escaped(problem))\n")
                }
                guard !listing.files.isEmpty else {
                    fail("\(argument): is a directory with no log file below it (a name ending "
                         + InputFolder.logFileEndings.joined(separator: ", ") + "; hidden files and folders are left out)")
                }
                readable.inputs += listing.files.map { RunInput(.file($0), isFoundInFolder: true) }
                readable.problems += listing.problems.count
                continue
            }
        }
        do { FileDescriptorIO.close(try source.openDescriptor()) } catch { fail("\(error)") }
        readable.inputs.append(RunInput(source))
    }
    return readable
}

/// Says on stderr that an input found in a folder could not be read, or not to its end (the run goes on).
func reportFailedInput(_ failure: InputFailure) {
    ProgressLine.current?.clear()
    StandardStream.error.write("lctrace: \(TerminalText.escaped(failure.description))\n")
}

/// Ends a run that read everything else with status 2 when some of the inputs found in folders could not be read:
/// the last line on stderr says how many.
func failForUnreadInputs(_ count: Int) {
    guard count > 0 else { return }
    StandardStream.error.write("lctrace: \(count) of the paths below the folders given could not be read (named above); "
                               + "the reports cover the rest\n")
    exitProcess(ExitStatus.usageOrInput)
}
