// Writes a deterministic, realistic lifecycle log of a given size to standard output, for the benchmark and for
// tests: many app launches, each with launch callbacks, pushes and pops, presents and dismisses, tab switches,
// backgrounding, memory warnings and ordinary app logging between them. The same seed always gives the same bytes.
//
//     lctrace-loggen --bytes 100M [--seed 1] [--format nslog-classic|nslog-modern|log-compact|bare] [--noise 0.3]
#if canImport(Glibc)
import Glibc
#endif

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

enum Format: String {
    case nslogClassic = "nslog-classic", nslogModern = "nslog-modern", logCompact = "log-compact", bare
}

/// Buffered standard output.
final class Writer {
    private var buffer: [UInt8] = []
    private(set) var written = 0
    /// Lines written so far: the number of the last one.
    private(set) var lines = 0

    init() { buffer.reserveCapacity(1 << 20) }

    func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        written += text.utf8.count + 1
        lines += 1
        if buffer.count >= 1 << 20 { flush() }
    }

    func flush() {
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { exit(1) }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

struct Options {
    var bytes = 100 << 20
    var seed: UInt64 = 1
    var format = Format.nslogClassic
    var noise = 0.3
    var traffic = Traffic.classic
    var style = MessageStyle.arrows
    var manifest: String?

    /// What kind of log to write.
    enum Traffic: String {
        /// Many launches of a shop app, for the benchmark (the format decides the message form).
        case classic
        /// Legal traffic with the hard cases for telling instances of one class apart.
        case legal
        /// Legal traffic with one deviation of each controller and app rule planted at recorded lines.
        case plant
    }

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let flag = iterator.next() {
            guard let value = iterator.next() else { Options.usage("\(flag) needs a value") }
            switch flag {
            case "--bytes":
                guard let size = Options.size(value) else { Options.usage("bad --bytes \(value)") }
                bytes = size
            case "--seed":
                guard let number = UInt64(value) else { Options.usage("bad --seed \(value)") }
                seed = number
            case "--format":
                guard let choice = Format(rawValue: value) else { Options.usage("bad --format \(value)") }
                format = choice
            case "--noise":
                guard let fraction = Double(value), fraction >= 0, fraction < 1 else { Options.usage("bad --noise \(value)") }
                noise = fraction
            case "--traffic":
                guard let choice = Traffic(rawValue: value) else { Options.usage("bad --traffic \(value)") }
                traffic = choice
            case "--style":
                guard let choice = MessageStyle(rawValue: value) else { Options.usage("bad --style \(value)") }
                style = choice
            case "--manifest":
                manifest = value
            default: Options.usage("unknown flag \(flag)")
            }
        }
    }

    /// `1024`, `64K`, `100M`, `1G`.
    static func size(_ text: String) -> Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        if let last = text.last, let unit = units[last] { return Int(text.dropLast()).map { $0 * unit } }
        return Int(text)
    }

    static func usage(_ message: String) -> Never {
        let text = "lctrace-loggen: \(message)\nusage: lctrace-loggen --bytes SIZE [--seed N] [--format nslog-classic|nslog-modern|log-compact|bare] [--noise FRACTION]\n"
            + "                      [--traffic classic|legal|plant] [--style arrows|objc|swift|swift-address] [--manifest FILE]\n"
            + "  --traffic legal writes only sequences UIKit produces; plant adds one deviation of each rule and writes\n"
            + "  `LINE RULE` for each to the --manifest file.\n"
        _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        exit(2)
    }
}

/// The part of a line before its message, in one of the line formats, for a time, a process and a thread.
struct LineHeader {
    let format: Format
    let process: String

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
        case .logCompact: return "\(date).\(pad(fraction / 1000, 3)) Df \(process)[\(pid):\(String(thread, radix: 16))] [com.example.shop:lifecycle] "
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
        out.line(lineHeader.text(micros: micros, pid: pid, thread: thread) + message)
        let line = out.lines
        while chance(noise) {
            tick(100, 5_000)
            out.line(lineHeader.text(micros: micros, pid: pid) + pick(LogGenerator.noiseLines))
        }
        return line
    }
}

/// One app launch after another until the size is reached.
struct LogGenerator: TrafficWriter {
    var random: SeededGenerator
    let format: Format
    let noise: Double
    let out = Writer()

    var pid = 1000
    var micros: Int64 = 1_707_466_443_000_000  // 2024-02-09 08:14:03 UTC
    let process = "ShopApp"

    static let screens = ["HomeViewController", "CartViewController", "ProductViewController", "SearchViewController",
                          "ProfileViewController", "SettingsViewController", "OrderViewController", "ReviewViewController"]
    static let sheets = ["FilterViewController", "ShareViewController", "LoginViewController"]
    static let noiseLines = [
        "NetworkClient: GET /api/v2/products?page=3 -> 200 (182 ms)",
        "ImageCache: hit ratio 0.93 after 412 lookups",
        "Analytics: event screen_view queued (batch 17)",
        "CoreData: saved 3 objects in 4 ms",
        "Keychain: token refreshed, expires in 3600 s",
        "FeatureFlags: new_checkout=true recommendations=false",
        "Realtime: socket reconnected after 2 attempts",
        "Payments: 3DS challenge presented for order 88123",
    ]

    mutating func run(until bytes: Int) {
        while out.written < bytes { session() }
        out.flush()
    }

    var lineHeader: LineHeader { LineHeader(format: format, process: process) }

    private func header() -> String { lineHeader.text(micros: micros, pid: pid) }

    /// A lifecycle line in one of the message forms apps use.
    private mutating func log(_ className: String, _ objc: String, _ swift: String) {
        let message: String
        switch format {
        case .nslogClassic: message = "\(className)    >>>>    \(objc)"
        case .nslogModern, .logCompact: message = "\(className) \(swift)"
        case .bare: message = "\(className) \(swift)"
        }
        write(message)
    }

    private mutating func controller(_ name: String, _ callback: String) {
        let swift: String
        switch callback {
        case "viewDidLoad", "loadView", "viewWillLayoutSubviews", "viewDidLayoutSubviews", "didReceiveMemoryWarning":
            swift = callback + "()"
        case "dealloc": swift = "deinit"
        default: swift = callback + "(_:)"
        }
        let objc = ["viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"].contains(callback) ? callback + ":" : callback
        log(name, objc, swift)
    }

    private mutating func app(_ objc: String, _ swift: String) { log("AppDelegate", objc, swift) }

    private mutating func session() {
        pid += 1
        tick(5_000_000, 60_000_000)
        out.line(header() + "main()")
        app("application:didFinishLaunchingWithOptions:", "application(_:didFinishLaunchingWithOptions:)")
        app("applicationDidBecomeActive:", "applicationDidBecomeActive(_:)")
        var stack = [pick(LogGenerator.screens)]
        controller(stack[0], "viewDidLoad")
        controller(stack[0], "viewWillAppear")
        controller(stack[0], "viewWillLayoutSubviews")
        controller(stack[0], "viewDidLayoutSubviews")
        controller(stack[0], "viewDidAppear")
        let steps = Int.random(in: 4...40, using: &random)
        for _ in 0..<steps {
            tick(300_000, 4_000_000)
            let roll = Int.random(in: 0..<100, using: &random)
            let top = stack.last!
            switch roll {
            case 0..<35 where stack.count < 6:
                var next = pick(LogGenerator.screens)
                while stack.contains(next) { next = pick(LogGenerator.screens) }
                controller(top, "viewWillDisappear")
                controller(next, "viewDidLoad")
                controller(next, "viewWillAppear")
                controller(top, "viewDidDisappear")
                controller(next, "viewDidAppear")
                stack.append(next)
            case 0..<65 where stack.count > 1:
                let below = stack[stack.count - 2]
                controller(top, "viewWillDisappear")
                controller(below, "viewWillAppear")
                controller(top, "viewDidDisappear")
                controller(below, "viewDidAppear")
                controller(top, "dealloc")
                stack.removeLast()
            case 0..<78:
                let sheet = pick(LogGenerator.sheets)
                controller(sheet, "viewDidLoad")
                controller(top, "viewWillDisappear")
                controller(sheet, "viewWillAppear")
                controller(sheet, "viewDidAppear")
                controller(top, "viewDidDisappear")
                tick(500_000, 3_000_000)
                controller(sheet, "viewWillDisappear")
                controller(top, "viewWillAppear")
                controller(top, "viewDidAppear")
                controller(sheet, "viewDidDisappear")
                controller(sheet, "dealloc")
            case 0..<88:
                app("applicationWillResignActive:", "applicationWillResignActive(_:)")
                app("applicationDidEnterBackground:", "applicationDidEnterBackground(_:)")
                tick(1_000_000, 30_000_000)
                app("applicationWillEnterForeground:", "applicationWillEnterForeground(_:)")
                app("applicationDidBecomeActive:", "applicationDidBecomeActive(_:)")
            case 0..<94:
                out.line(header() + "Received memory warning.")
                app("applicationDidReceiveMemoryWarning:", "applicationDidReceiveMemoryWarning(_:)")
                for name in stack { controller(name, "didReceiveMemoryWarning") }
            default:
                controller(top, "viewWillLayoutSubviews")
                controller(top, "viewDidLayoutSubviews")
            }
        }
        app("applicationWillResignActive:", "applicationWillResignActive(_:)")
        app("applicationDidEnterBackground:", "applicationDidEnterBackground(_:)")
        if chance(0.5) { app("applicationWillTerminate:", "applicationWillTerminate(_:)") }
    }
}

let options = Options(CommandLine.arguments)
switch options.traffic {
case .classic:
    var generator = LogGenerator(random: SeededGenerator(state: options.seed), format: options.format, noise: options.noise)
    generator.run(until: options.bytes)
case .legal, .plant:
    var generator = LegalTraffic(random: SeededGenerator(state: options.seed), header: LineHeader(format: options.format, process: "ShopApp"),
                                 style: options.style, noise: options.noise, plant: options.traffic == .plant)
    generator.run(until: options.bytes)
    if let path = options.manifest {
        let text = generator.planted.map { "\($0.line) \($0.rule.rawValue)\n" }.joined()
        guard let file = fopen(path, "w") else { Options.usage("cannot write \(path)") }
        fputs(text, file)
        fclose(file)
    }
}
