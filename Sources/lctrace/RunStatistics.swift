import LCTraceKit

/// `--stats`: throughput and peak memory on stderr at the end of the run.
struct RunStatistics {
    private let start = MonotonicClock.seconds()

    func report(_ summary: RunSummary) -> String {
        let seconds = max(MonotonicClock.seconds() - start, 1e-9)
        let bytes = summary.inputs.reduce(0) { $0 + $1.bytes }
        return "lctrace: \(summary.lines) lines, \(megabytes(bytes)) MB in \(fixed(seconds, 2)) s: "
            + "\(Int(Double(summary.lines) / seconds)) lines/s, \(fixed(Double(bytes) / 1e6 / seconds, 1)) MB/s, "
            + "peak memory \(fixed(Double(CurrentProcess.peakResidentBytes()) / 1_048_576, 1)) MiB\n"
    }

    private func megabytes(_ bytes: Int) -> String { fixed(Double(bytes) / 1e6, 1) }
}

/// A progress line on stderr (bytes read, rate, ETA) when the inputs' regular files come to 64 MiB or more and
/// stderr is a terminal that no report is printed to; never in pipes or CI. One line for the whole run: with several
/// inputs read at once, their bytes are added up from every thread that reads them. It is cleared before any other
/// message, at the end of the reading (which SIGINT and SIGTERM end too), and before a failure is reported.
final class ProgressLine: Sendable {
    static let threshold = 64 << 20
    private let total: Int
    private let started = MonotonicClock.seconds()

    private struct Drawing {
        var bytesRead = 0
        var lastDraw = 0.0
        var drawn = false
    }

    private let drawing = Lock(Drawing())

    /// The progress line of the run under way, cleared when the run fails.
    nonisolated(unsafe) static var current: ProgressLine?

    /// On a terminal, outside CI, and not on the terminal a report is being printed to (`reportOnTerminal`),
    /// where the two would mix.
    static func wanted(reportOnTerminal: Bool) -> Bool {
        StandardStream.error.isTerminal && Environment.value(of: "CI") == nil && !reportOnTerminal
    }

    /// `total`: the bytes expected, the sizes of the inputs that are regular files.
    init(total: Int) {
        self.total = total
    }

    /// Counts bytes just read, from any thread, and redraws at most five times a second.
    func add(_ bytes: Int) {
        guard total >= ProgressLine.threshold, bytes > 0 else { return }
        let total = self.total, started = self.started
        drawing.withLock { drawing in
            drawing.bytesRead += bytes
            let now = MonotonicClock.seconds()
            guard now - drawing.lastDraw >= 0.2 || drawing.bytesRead >= total else { return }
            drawing.lastDraw = now
            let done = min(drawing.bytesRead, total)
            let rate = Double(done) / max(now - started, 1e-3)
            let eta = rate > 0 ? Double(total - done) / rate : 0
            let percent = Double(done) * 100 / Double(total)
            let width = 30
            let filled = min(width, Int(Double(width) * Double(done) / Double(total)))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            StandardStream.error.write("\r\(bar) \(fixed(percent, 0))%  \(fixed(Double(done) / 1_048_576, 0))/\(fixed(Double(total) / 1_048_576, 0)) MiB  \(fixed(rate / 1_048_576, 1)) MiB/s  ETA \(fixed(eta, 0)) s ")
            drawing.drawn = true
        }
    }

    /// Clears the line before anything else is written to stderr.
    func clear() {
        drawing.withLock { drawing in
            if drawing.drawn { StandardStream.error.write("\r\u{1B}[K") }
            drawing.drawn = false
        }
    }
}

/// A number with `digits` decimals.
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    if digits == 0 { return String(Int(rounded)) }
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    }
    return text
}
