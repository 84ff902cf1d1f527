import LCTraceKit

/// SplitMix64: tiny, fast and the same on every platform.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The line format of the log written.
enum Format: String, CaseIterable {
    case nslogClassic = "nslog-classic", nslogModern = "nslog-modern", logCompact = "log-compact", bare
}

/// Buffered standard output.
final class Writer {
    private var buffer: [UInt8] = []
    private(set) var written = 0
    /// Lines written so far: the number of the last one.
    private(set) var lines = 0
    /// In a whole-device log, what writes the other processes' lines after each of the app's.
    var surroundings: DeviceSurroundings?

    init() { buffer.reserveCapacity(1 << 20) }

    /// Writes one of the app's lines, logged at `micros`, and in a whole-device log the other processes' lines after
    /// it. Returns the app line's number.
    @discardableResult
    func line(_ text: String, at micros: Int64) -> Int {
        append(text)
        let number = lines
        if surroundings != nil {
            for other in surroundings!.lines(after: micros) { append(other) }
        }
        return number
    }

    private func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        written += text.utf8.count + 1
        lines += 1
        if buffer.count >= 1 << 20 { flush() }
    }

    /// Writes what is buffered; exits with status 1 when standard output takes no more (a closed pipe, a full disk).
    func flush() {
        let written = buffer.withUnsafeBytes { (try? FileDescriptorIO.writeAll(StandardStream.output.fileDescriptor, $0)) != nil }
        if !written { CurrentProcess.exit(1) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The part of a line before its message, in one of the line formats, for a time, a process and a thread.
struct LineHeader {
    let format: Format
    let process: String
    /// The subsystem and category `log` shows (log-compact).
    var subsystem = "com.example.shop:lifecycle"

    /// The process's main thread unless `thread` is given.
    func text(micros: Int64, pid: Int, thread: Int? = nil) -> String {
        let seconds = micros / 1_000_000
        let fraction = micros % 1_000_000
        var days = seconds / 86_400
        let time = seconds % 86_400
        // Civil date from days since 1970 (Howard Hinnant).
        days += 719_468
        let era = days / 146_097
        let doe = days - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        let date = "\(year)-\(pad(month, 2))-\(pad(day, 2)) \(pad(time / 3600, 2)):\(pad(time / 60 % 60, 2)):\(pad(time % 60, 2))"
        let thread = thread ?? pid * 37 + 11
        switch format {
        case .nslogClassic: return "\(date).\(pad(fraction / 1000, 3)) \(process)[\(pid):\(thread)] "
        case .nslogModern: return "\(date).\(pad(fraction, 6))+0000 \(process)[\(pid):\(thread)] "
        case .logCompact: return "\(date).\(pad(fraction / 1000, 3)) Df \(process)[\(pid):\(String(thread, radix: 16))] [\(subsystem)] "
        case .bare: return ""
        }
    }

    /// Whether the lines carry thread ids.
    var hasThreads: Bool { format != .bare }

    private func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

/// What both generators share: a seeded random source, a clock that only moves forward, and lines written with
/// ordinary app logging after them.
protocol TrafficWriter {
    var random: SeededGenerator { get set }
    var micros: Int64 { get set }
    var pid: Int { get }
    var noise: Double { get }
    var out: Writer { get }
    var lineHeader: LineHeader { get }
}

extension TrafficWriter {
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }
    mutating func tick(_ lo: Int64, _ hi: Int64) { micros += Int64.random(in: lo...hi, using: &random) }

    /// Writes `message` a little after the last line (on `thread`, the main thread by default), then ordinary app
    /// logging while a `noise` chance holds. Returns the message's line.
    @discardableResult
    mutating func write(_ message: String, thread: Int? = nil) -> Int {
        tick(200, 3_000)
        let line = out.line(lineHeader.text(micros: micros, pid: pid, thread: thread) + message, at: micros)
        while chance(noise) {
            tick(100, 5_000)
            out.line(lineHeader.text(micros: micros, pid: pid) + pick(LogGenerator.noiseLines), at: micros)
        }
        return line
    }
}
