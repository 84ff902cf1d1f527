import ArgumentParser
import LCTraceKit

/// Exit codes (documented in the README): 0 the run completed; 1 a finding reached the `--fail-on` severity;
/// 2 a usage error or an input that could not be read.
enum ExitStatus {
    static let completed: Int32 = 0
    static let findingsAtThreshold: Int32 = 1
    static let usageOrInput: Int32 = 2
}

@main
struct LCTrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lctrace",
        abstract: "Reads iOS app lifecycle logs and reports what the view controllers did.",
        discussion: """
            Reads NSLog, syslog or print() lifecycle logs from files or standard input, splits them into app \
            launches, rebuilds each view controller's timeline, classifies transitions (push, pop, present, \
            dismiss and more) and flags orderings UIKit does not produce. `lctrace check` is the same analysis for CI: \
            findings only, in the reports CI systems read.

            Exit status: 0 when the run completes; 1 when a finding reaches the --fail-on severity (for check, \
            error unless told otherwise), unless the run writes a baseline; 2 on a usage error or an input that cannot be read; 130 or 143 when \
            SIGINT or SIGTERM ended the reading of files early (the reports cover what was read).
            """,
        version: LCTraceVersion.current,
        subcommands: [Analyze.self, Check.self, Learn.self, Lines.self, Rules.self, Explain.self],
        defaultSubcommand: Analyze.self)

    static func main() {
        StandardStream.openClosedStandardDescriptors()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let shell = Completions.requestedShell(arguments) {
            print(Completions.script(for: shell), terminator: "")
            exitProcess(ExitStatus.completed)
        }
        if let mistyped = MistypedCommand.check(arguments, commands: configuration.subcommands.map { $0._commandName }) {
            fail(mistyped)
        }
        do {
            var command = try parseCommand(arguments)
            try command.run()
        } catch let code as ExitCode {
            exitProcess(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                exitProcess(ExitStatus.completed)
            }
            // One line: what is wrong, without the usage text (`--help` has it) or a long argument echoed back.
            fail(oneLine(message(for: error)))
        }
    }
}

extension LCTrace {
    /// Parses the command line. The command it runs parses it alone first: the one named first (`lctrace check
    /// app.log`), or the default command when none is named. Parsing through the whole tree gives the same command but
    /// reflects over the default command's options several times whatever the command, which was a third of the
    /// start-up. Whatever the command alone does not take (`help`, `--help`, `--version`, a mistake) is parsed again
    /// through the whole tree, which answers it as it always has: help, a version or the error of the whole tree.
    static func parseCommand(_ arguments: [String]) throws -> ParsableCommand {
        // A request for help parses as a help command of its own, which would name the command alone as the root.
        if let (command, rest) = directCommand(arguments), let parsed = try? command.parseAsRoot(rest),
           type(of: parsed) == command {
            return parsed
        }
        return try parseAsRoot(arguments)
    }

    /// The command to parse `arguments` alone, and the arguments it takes; nil for `lctrace help …`.
    static func directCommand(_ arguments: [String]) -> (ParsableCommand.Type, [String])? {
        guard let first = arguments.first else { return (Analyze.self, arguments) }
        if first == "help" { return nil }
        if let named = configuration.subcommands.first(where: { $0._commandName == first || $0.configuration.aliases.contains(first) }) {
            return (named, Array(arguments.dropFirst()))
        }
        return (Analyze.self, arguments)
    }
}

/// `lctrace explian log.txt`: the default command would read `explian` as a log file. A first argument that is not
/// a file, not an option and not a path, and is a letter or two from a command's name, is taken for that command
/// mistyped.
enum MistypedCommand {
    static func check(_ arguments: [String], commands: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !first.contains("/"), !first.contains("."),
              !commands.contains(first), first != "help", !FileStatus.exists(atPath: first) else { return nil }
        let near = commands.filter { distance(first.lowercased(), $0) <= ($0.count >= 5 ? 2 : 1) }
        guard let nearest = near.min(by: { distance(first, $0) < distance(first, $1) }) else { return nil }
        return "unknown command '\(oneLine(first))'; did you mean '\(nearest)'? (no log file of that name exists either)"
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in 1...b.count {
                let above = row[j]
                row[j] = min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}

/// `message` on one line, at most 600 characters: the lines of a list (argument-parser's "Please provide one of the
/// following:" and its values) joined by commas, and never a 100 KB argument echoed back whole.
func oneLine(_ message: String) -> String {
    let lines = message.split(separator: "\n", omittingEmptySubsequences: true).map { line in
        var line = line.drop { $0 == " " }
        if line.hasPrefix("- ") { line = line.dropFirst(2) }
        return String(line)
    }
    guard var text = lines.first else { return message }
    if lines.count > 1 { text += " " + lines.dropFirst().joined(separator: ", ") }
    return text.count <= 600 ? text : text.prefix(597) + "…"
}

/// Flushes a report and puts it in place; when it could not all be written (a full disk, a closed standard output),
/// says so and exits with status 2, so that a CI job does not take a missing report for a clean one.
func finishWriting(_ output: Output, to destination: String? = nil) {
    finishWriting([(output, destination)])
}

/// `finishWriting` for several outputs: each is written whole (or found to have failed) before the first failure ends
/// the run, so that one report's failure does not cut the others short.
func finishWriting(_ outputs: [(output: Output, path: String?)]) {
    for (output, _) in outputs { output.commit() }
    for (output, destination) in outputs {
        if let failure = output.failure {
            fail("the report\(destination.map { " to \($0)" } ?? "") is incomplete: \(failure)")
        }
    }
}

/// Says what went wrong on stderr and exits with status 2; report files not yet complete are removed, and the files
/// they would have replaced stay as they were. Names and text from the command line or a log in `message` are
/// escaped for the terminal (a newline in a path cannot start a line of its own).
func fail(_ message: String) -> Never {
    ProgressLine.current?.clear()
    ReplacementFile.discardAll()
    StandardStream.error.write("lctrace: \(TerminalText.escaped(message))\n")
    exitProcess(ExitStatus.usageOrInput)
}

func exitProcess(_ status: Int32) -> Never {
    CurrentProcess.exit(status)
}
