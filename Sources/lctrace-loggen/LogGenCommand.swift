import ArgumentParser
import LCTraceKit

/// The command line: which log to write, and how much of it.
@main
struct LogGenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lctrace-loggen",
        abstract: "Writes a deterministic, realistic lifecycle log to standard output, for the benchmark and the tests.",
        discussion: """
            Many app launches, each with launch callbacks, pushes and pops, presents and dismisses, tab switches, \
            backgrounding, memory warnings and ordinary app logging between them. The same options and seed always \
            give the same bytes. Standard output must be a file or a pipe, not a terminal.

            Exit status: 0 when the log is written; 1 when standard output takes no more; 2 on a usage error.
            """)

    @Option(name: .long, help: ArgumentHelp("How much to write: a number of bytes, or with K, M or G (1024, 64K, 100M, 1G).",
                                            valueName: "size"))
    var bytes = ByteCount(100 << 20)

    @Option(name: .long, help: "The seed of the random choices.")
    var seed: UInt64 = 1

    @Option(name: .long, help: "The line format.")
    var format = Format.nslogClassic

    @Option(name: .long, help: ArgumentHelp("The chance of a line of ordinary app logging after each line, at least 0 and below 1.",
                                            valueName: "fraction"))
    var noise = 0.3

    @Option(name: .long, help: ArgumentHelp("""
        classic: many launches of a shop app, for the benchmark; legal: only sequences UIKit produces, with the hard \
        cases for telling instances of one class apart; plant: legal traffic with one deviation of each controller \
        and app rule, each written as `LINE RULE` to the --manifest file.
        """))
    var traffic = Traffic.classic

    @Option(name: .long, help: "How lifecycle messages are written (legal and plant traffic).")
    var style = MessageStyle.arrows

    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("""
        A logging habit of the app (legal and plant traffic; repeatable): no-load (never logs loadView or viewDidLoad), \
        no-dealloc (never logs dealloc), loadview-sometimes (each class logs loadView always or never), \
        memory-warnings-everywhere (a memory warning reaches the tab bar controller too, in the order the controllers \
        were made), same-class-tabs (every tab's root is ListViewController, and pushes repeat the top's class more), \
        many-sheets (FilterViewController sheets presented and dismissed far more often). Plant traffic leaves out the \
        deviations a habit's missing lines could not show.
        """, valueName: "habit"))
    var habit: [LoggingHabit] = []

    @Option(name: .long, help: ArgumentHelp("""
        The app's part of the log's lines, above 0 and at most 1: below 1, other processes (SpringBoard, daemons, the \
        kernel) log around the app, none of them lifecycle callbacks, as in a whole-device log (`log show`, a device \
        console); 0.02 leaves the app about one line in fifty.
        """, valueName: "fraction"))
    var appShare = 1.0

    @Option(name: .long, help: ArgumentHelp("Where plant traffic lists the deviations it planted.", valueName: "file"))
    var manifest: String?

    /// What kind of log to write.
    enum Traffic: String, CaseIterable, ExpressibleByArgument {
        /// Many launches of a shop app, for the benchmark (the format decides the message form).
        case classic
        /// Legal traffic with the hard cases for telling instances of one class apart.
        case legal
        /// Legal traffic with one deviation of each controller and app rule planted at recorded lines.
        case plant
    }

    /// Usage errors and a refused terminal exit with status 2, as lctrace's do.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            CurrentProcess.exit(code.rawValue)
        } catch {
            // --help and --version print and exit 0; anything else is a usage error.
            if exitCode(for: error) == .success { exit(withError: error) }
            StandardStream.error.write(fullMessage(for: error) + "\n")
            CurrentProcess.exit(2)
        }
    }

    func validate() throws {
        guard noise >= 0, noise < 1 else { throw ValidationError("--noise must be at least 0 and below 1, not \(noise)") }
        guard habit.isEmpty || traffic != .classic else { throw ValidationError("--habit needs --traffic legal or plant") }
        guard appShare > 0, appShare <= 1 else { throw ValidationError("--app-share must be above 0 and at most 1, not \(appShare)") }
        guard appShare == 1 || format != .bare else { throw ValidationError("--app-share below 1 needs a format with a process in its header, not bare") }
    }

    func run() throws {
        if StandardStream.output.isTerminal {
            StandardStream.error.write("lctrace-loggen: standard output is a terminal; redirect it to a file or a pipe\n")
            throw ExitCode(2)
        }
        // The other processes draw from a seed of their own, so that the app's lines are the same with them or without.
        let surroundings = appShare < 1
            ? DeviceSurroundings(random: SeededGenerator(state: seed ^ 0x5EED_0F_0DE5_1CE), format: format, appShare: appShare) : nil
        switch traffic {
        case .classic:
            var generator = LogGenerator(random: SeededGenerator(state: seed), format: format, noise: noise)
            generator.out.surroundings = surroundings
            generator.run(until: bytes.value)
        case .legal, .plant:
            var generator = LegalTraffic(random: SeededGenerator(state: seed), header: LineHeader(format: format, process: "ShopApp"),
                                         style: style, noise: noise, plant: traffic == .plant, habits: Set(habit))
            generator.out.surroundings = surroundings
            generator.run(until: bytes.value)
            if let manifest {
                try writeManifest(generator.planted.map { "\($0.line) \($0.rule.rawValue)\n" }.joined(), to: manifest)
            }
        }
    }

    private func writeManifest(_ text: String, to path: String) throws {
        var text = text
        do {
            let fd = try FileDescriptorIO.createForWriting(path)
            defer { FileDescriptorIO.close(fd) }
            try text.withUTF8 { bytes in
                Result { () throws(SystemError) in try FileDescriptorIO.writeAll(fd, UnsafeRawBufferPointer(bytes)) }
            }.get()
        } catch {
            StandardStream.error.write("lctrace-loggen: cannot write \(path): \(error)\n")
            throw ExitCode(2)
        }
    }
}

/// A size in bytes, written as a number of bytes or with K, M or G: `1024`, `64K`, `100M`, `1G`.
struct ByteCount: ExpressibleByArgument {
    let value: Int

    init(_ value: Int) { self.value = value }

    init?(argument: String) {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        if let last = argument.last, let unit = units[last] {
            guard let count = Int(argument.dropLast()) else { return nil }
            value = count * unit
        } else {
            guard let count = Int(argument) else { return nil }
            value = count
        }
    }

    var defaultValueDescription: String { "100M" }
}

extension Format: ExpressibleByArgument {}
extension MessageStyle: ExpressibleByArgument {}
extension LoggingHabit: ExpressibleByArgument {}
