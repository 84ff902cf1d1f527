#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LCTraceKit

// A fuzz input is a mode byte followed by a small log; the byte's low bit picks how the log is read, both through
// LCTraceKit's public API (seed files begin with `L` or `A`):
//
// - even (`L`), line by line, twice over: the fast path (the hand-written matchers in front of PCRE2, the automatic
//   format detection with its hint from the line before, the message cache) must read every line exactly as PCRE2
//   alone reads it with no hint: header, format and lifecycle message. A difference is printed and the process traps,
//   so libFuzzer keeps the input as a crash.
// - odd (`A`), as a whole log: an `Analyzer` with the default options analyses it from a temporary file, as
//   `lctrace` analyses a file (gzip input included), into a reporter that discards the report; when the byte's second
//   bit is set too (`C`), into every reporter at once, each writing to memory, and the reports that are JSON must
//   parse.
//
// Compiling the parsers costs far more than reading a small input, so they are kept from input to input, as the
// sections of one long log share them. Each input starts the header recognizers afresh (`reset()`: no hint from the
// input before); the message parsers, which keep the names they read, are made anew every
// `inputsPerMessageParser` inputs of their mode. A difference found line by line is checked again with parsers made
// for the input alone, and only one found again traps, so that such a crash reproduces from its file. An analysis
// shares its message parser's names with the analyses before it; those are only numbers for names, so a crash in an
// analysis is expected to reproduce from its file alone as well.

/// How many inputs of one mode a message parser reads before a new one is made. With inputs of at most 1024 bytes
/// (`-max_len`), 100 inputs name far fewer names than the name table's limit, so the limit is never what decides.
private let inputsPerMessageParser = 100

/// libFuzzer's driver (`-sanitize=fuzzer` links it): parses libFuzzer's flags and calls `body` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The entry point hands over to libFuzzer. An explicit `main` (rather than libFuzzer's own, with only
/// `LLVMFuzzerTestOneInput` defined here) because SwiftPM links an executable target's entry point under a name of
/// its own.
@main
enum LCTraceFuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            fuzzOneInput(UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size))
            return 0
        })
    }
}

/// One fuzz input: its first byte picks the mode, the rest is the log.
private func fuzzOneInput(_ input: UnsafeRawBufferPointer) {
    guard let mode = input.first else { return }
    let log = UnsafeRawBufferPointer(rebasing: input.dropFirst())
    if mode & 1 == 0 {
        compareFastPathWithPCRE2(log)
    } else {
        analyzeAsLog(log, everyReporter: mode & 2 != 0)
    }
}

// MARK: Line by line

/// The fast path and PCRE2 alone, each a header recognizer with the automatic choice of format and a message parser.
private final class LineParsers {
    let fastHeaders: LineHeaderRecognizer
    let plainHeaders: LineHeaderRecognizer
    private(set) var fastMessages = MessageParser()
    private(set) var plainMessages = MessageParser(fastPath: false)
    private var inputs = 0

    init() {
        do {
            fastHeaders = try LineHeaderRecognizer(.automatic)
            plainHeaders = try LineHeaderRecognizer(.automatic, fastPath: false)
        } catch {
            fatalError("lctrace-fuzz: a built-in line format does not compile: \(error)")
        }
    }

    /// Readies the parsers for the next input.
    func startInput() {
        fastHeaders.reset()
        inputs += 1
        if inputs > inputsPerMessageParser {
            fastMessages = MessageParser()
            plainMessages = MessageParser(fastPath: false)
            inputs = 1
        }
    }
}

/// Kept from input to input.
nonisolated(unsafe) private let keptLineParsers = LineParsers()
/// Inputs read differently with the kept parsers only, not with parsers made for them alone.
nonisolated(unsafe) private var differencesNotFoundAgain = 0

/// A line the fast path reads differently from PCRE2 alone.
private struct Difference {
    var what: String
    var lineNumber: Int
    var line: String
    var expected: String
    var actual: String

    var description: String {
        "the fast path reads the \(what) of line \(lineNumber) differently from PCRE2 alone\n"
            + "  line:      \(line)\n  PCRE2:     \(expected)\n  fast path: \(actual)"
    }
}

/// Reads each line of `log` with the fast path and with PCRE2 alone, and traps on a line they read differently.
private func compareFastPathWithPCRE2(_ log: UnsafeRawBufferPointer) {
    guard let difference = firstDifference(in: log, keptLineParsers) else { return }
    if let again = firstDifference(in: log, LineParsers()) {
        fatalError("lctrace-fuzz: \(again.description)")
    }
    // Only after other inputs: what the kept parsers remember made the difference. Not a crash libFuzzer could
    // reproduce from this input alone, so it is only told.
    differencesNotFoundAgain += 1
    print("lctrace-fuzz: not found again with parsers made for this input alone (\(differencesNotFoundAgain) so far): "
          + difference.description)
}

/// The first line of `log` that the fast path reads differently from PCRE2 alone, if any.
private func firstDifference(in log: UnsafeRawBufferPointer, _ parsers: LineParsers) -> Difference? {
    parsers.startInput()
    var lineNumber = 0
    var difference: Difference?
    forEachLine(of: log) { line in
        guard difference == nil else { return }
        lineNumber += 1
        func differs(_ what: String, expected: String, actual: String) {
            difference = Difference(what: what, lineNumber: lineNumber,
                                    line: String(decoding: line, as: UTF8.self).debugDescription,
                                    expected: expected, actual: actual)
        }
        // PCRE2 alone, with no hint from the line before: what the line is. A line PCRE2 gives up on (its match or
        // depth limit) has no reading to compare with.
        parsers.plainHeaders.reset()
        guard let expected = try? parsers.plainHeaders.parse(line) else { return }
        let expectedFormat = parsers.plainHeaders.lastFormat.name
        // The fast path, with what the lines before taught it.
        let header: LineHeader?
        do { header = try parsers.fastHeaders.parse(line) } catch {
            return differs("header", expected: "\(expected) (\(expectedFormat))", actual: "\(error)")
        }
        if header != expected || parsers.fastHeaders.lastFormat.name != expectedFormat {
            return differs("header", expected: "\(expected) (\(expectedFormat))",
                           actual: "\(String(describing: header)) (\(parsers.fastHeaders.lastFormat.name))")
        }
        // The message after the header, and the whole line read as a message.
        let ranges = expected.message == 0..<line.count ? [expected.message] : [expected.message, 0..<line.count]
        for range in ranges {
            guard let expectedMessage = try? parsers.plainMessages.parse(line, message: range) else { continue }
            let message: LifecycleMessage?
            do { message = try parsers.fastMessages.parse(line, message: range) } catch {
                return differs("message \(range)", expected: String(describing: expectedMessage), actual: "\(error)")
            }
            if message != expectedMessage {
                return differs("message \(range)", expected: String(describing: expectedMessage),
                               actual: String(describing: message))
            }
        }
    }
    return difference
}

/// Calls `body` with each line of `input` as `LineReader` hands lines out: split at `\n`, a trailing `\r` dropped,
/// the last line possibly without its newline.
private func forEachLine(of input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
    var start = 0
    while start < input.count {
        var end = start
        while end < input.count, input[end] != 0x0A { end += 1 }
        var lineEnd = end
        if lineEnd > start, input[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        body(UnsafeRawBufferPointer(rebasing: input[start..<lineEnd]))
        start = end + 1
    }
}

// MARK: The whole log

/// Where each log is written for the analyzer to read: one temporary file, unlinked at once, rewritten each time.
private let scratch: Int32 = {
    var template = Array("/tmp/lctrace-fuzz-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { fatalError("lctrace-fuzz: cannot create a temporary file: \(String(cString: strerror(errno)))") }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return fd
}()

private let analysisOptions = AnalysisOptions()

/// The analyses' parsers, kept from input to input.
private final class AnalysisParsers {
    let headers: LineHeaderRecognizer
    private var messages = MessageParser(limits: analysisOptions.limits)
    private var analyses = 0

    init() {
        do { headers = try LineHeaderRecognizer(analysisOptions.lineFormat, limits: analysisOptions.limits) } catch {
            fatalError("lctrace-fuzz: a built-in line format does not compile: \(error)")
        }
    }

    /// The message parser for the next analysis.
    func messageParser() -> MessageParser {
        analyses += 1
        if analyses > inputsPerMessageParser {
            messages = MessageParser(limits: analysisOptions.limits)
            analyses = 1
        }
        return messages
    }
}

nonisolated(unsafe) private let analysisParsers = AnalysisParsers()

/// Analyses `input` as a log file, as `lctrace` does with the default options; the report is discarded, or, with
/// `everyReporter`, written by every reporter to memory, and the JSON ones checked.
private func analyzeAsLog(_ input: UnsafeRawBufferPointer, everyReporter: Bool) {
    guard ftruncate(scratch, 0) == 0, lseek(scratch, 0, SEEK_SET) == 0 else {
        fatalError("lctrace-fuzz: cannot rewind the temporary file: \(String(cString: strerror(errno)))")
    }
    var written = 0
    while written < input.count {
        let count = write(scratch, input.baseAddress! + written, input.count - written)
        guard count > 0 else { fatalError("lctrace-fuzz: cannot write the temporary file: \(String(cString: strerror(errno)))") }
        written += count
    }
    guard lseek(scratch, 0, SEEK_SET) == 0 else { fatalError("lctrace-fuzz: cannot rewind the temporary file") }
    let outputs = everyReporter ? ReportKind.allCases.map { ($0, Output()) } : []
    let reports = ReportDelivery(everyReporter
        ? outputs.map { reporter, output in reporter.reporter(output: output, settings: ReportKind.Settings()) }
        : [DiscardingReporter()])
    let analyzer = Analyzer(options: analysisOptions, reports: reports, headerRecognizer: analysisParsers.headers,
                            messageParser: analysisParsers.messageParser())
    // An input the analyzer rejects (gzip data that ends early or does not inflate) is an answer, not a crash.
    try? analyzer.analyze(fileDescriptor: scratch, name: "fuzz.log")
    analyzer.finish()
    for (reporter, output) in outputs where [.json, .sarif, .codeclimate, .chromeTrace].contains(reporter) {
        guard JSONCheck.isValid(Array(output.text.utf8)) else {
            fatalError("lctrace-fuzz: the \(reporter.rawValue) report is not JSON:\n\(output.text)")
        }
    }
}

/// Whether bytes are one JSON document, as Foundation's parser reads it.
private enum JSONCheck {
    static func isValid(_ bytes: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    }
}
