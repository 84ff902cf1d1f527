import Yams

/// A project's `.lctrace.yml`, read with Yams: rule severities and thresholds, and what a CI step would otherwise
/// repeat on every command line.
///
///     severity:
///       possible-leak: off
///       transition-unrecognized: error
///     leak-timeout: 5        # seconds
///     slow-transition: 600   # milliseconds
///     line-format: log-compact          # or pattern: and time-format:
///     process: [ShopApp]                # --process, one or more names
///     fail-on: warning                  # check's --fail-on
///     min-severity: info                # check's --min-severity
///     allow-empty-input: true           # check's --allow-empty-input
///     baseline: ci/lctrace-baseline.json
///     sources: [App]                    # --sources, relative to this file's folder
///     reporters: [xcode, sarif=lctrace.sarif]   # --reporter when none is given; paths relative to this file's folder
///     ignore-classes: [SFSafariViewController, "PH*"]   # --ignore-class
///     against: ci/main.model.json       # --against, relative to this file's folder
///     slower-by: 30                     # --slower-by, percent
///
/// Flags given on the command line win over the file.
public struct ConfigFile: Sendable, Equatable {
    public static let defaultName = ".lctrace.yml"
    public static let keys = ["severity", "leak-timeout", "slow-transition", "line-format", "pattern", "time-format", "process",
                              "fail-on", "min-severity", "allow-empty-input", "baseline", "sources", "reporters", "ignore-classes",
                              "against", "slower-by"]
    /// The largest file read (64 KiB), and the most YAML nodes it may expand to (aliases counted at every use):
    /// a small file of nested aliases would otherwise expand to billions of values.
    public static let maxBytes = 64 << 10
    public static let maxNodes = 10_000

    public var severity: [Rule: Severity?] = [:]
    public var leakTimeoutSeconds: Double?
    public var slowTransitionMs: Double?
    /// A built-in line format's name (`line-format`), or a header pattern with how its time is written.
    public var lineFormat: String?
    public var pattern: String?
    public var timeFormat: String?
    /// The processes whose lines are read (`process`).
    public var processes: [String]?
    /// `fail-on`: `error`, `warning` or `never`.
    public var failOn: String?
    /// `min-severity`: `error`, `warning` or `info`.
    public var minimumSeverity: Severity?
    public var allowEmptyInput: Bool?
    /// The baseline file, as written in the file (a relative path is relative to the file's folder: `baselinePath`).
    public var baseline: String?
    /// The app's source folders (`sources`), as written in the file.
    public var sources: [String]?
    /// The reports written when no `--reporter` is given (`reporters`): `NAME` or `NAME=PATH`, as written in the file.
    public var reporters: [String]?
    /// The classes whose findings are left out (`ignore-classes`).
    public var ignoredClasses: [ClassPattern]?
    /// The model, or log of a good run, the run is held against (`against`), as written in the file.
    public var against: String?
    public var slowerByPercent: Double?

    public init() {}

    /// The project's file for a run in `directory` (the working directory by default): `.lctrace.yml` there, or in
    /// the nearest folder above it, up to the repository's root (the folder holding `.git`) or the file system's;
    /// nil when there is none. The path is relative to `directory` (`.lctrace.yml`, `../../.lctrace.yml`), as it is
    /// named in the reports.
    public static func discover(from directory: String? = nil) -> String? {
        guard let current = WorkingDirectory.path else {
            return FileStatus.exists(atPath: defaultName) ? defaultName : nil
        }
        // Made absolute, so that the walk can go above a relative directory.
        let start = directory.map { $0.hasPrefix("/") ? $0 : current + "/" + $0 } ?? current
        var folder = start.hasSuffix("/") && start.count > 1 ? String(start.dropLast()) : start
        var up = ""
        for _ in 0..<256 {
            if FileStatus.exists(atPath: folder + "/" + defaultName) { return up + defaultName }
            // The repository's root is as far as a project's file is looked for.
            if FileStatus.exists(atPath: folder + "/.git") { return nil }
            guard let slash = folder.lastIndex(of: "/"), folder != "/" else { return nil }
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
            up += "../"
        }
        return nil
    }

    /// Reads and validates the file at `path`.
    public static func load(path: String) throws(ConfigError) -> ConfigFile {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptorIO.readFile(atPath: path, limit: maxBytes)  // one byte more tells a file that is too big
        } catch {
            throw ConfigError(path: path, message: "cannot be read (\(error))")
        }
        guard bytes.count <= maxBytes else { throw ConfigError(path: path, message: "is larger than \(maxBytes >> 10) KiB") }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else {  // decoding replaced what is not UTF-8
            throw ConfigError(path: path, message: "is not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws(ConfigError) -> ConfigFile {
        guard text.utf8.count <= maxBytes else {
            throw ConfigError(path: path, message: "is larger than \(maxBytes >> 10) KiB")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)  // aliases stay shared here; only `any` below would copy them out
        } catch {
            // Yams says where and what on its first two lines, then quotes the line with a caret under it.
            let lines = "\(error)".split(separator: "\n").prefix(2).map { line in
                line.last == ":" ? String(line.dropLast()) : String(line)
            }
            throw ConfigError(path: path, message: "is not valid YAML: " + lines.joined(separator: ": "))
        }
        var budget = maxNodes
        if let root, !fits(root, budget: &budget) {
            throw ConfigError(path: path, message: "expands to more than \(maxNodes) YAML values (nested aliases?)")
        }
        let document = root?.any
        var config = ConfigFile()
        guard let document else { return config }  // an empty file
        guard let top = document as? [String: Any] else {
            throw ConfigError(path: path, message: "must be a mapping with the keys \(keys.joined(separator: ", "))")
        }
        for (key, value) in top {
            switch key {
            case "severity":
                guard let table = value as? [String: Any] else {
                    throw ConfigError(path: path, message: "severity must map rule ids to error, warning, info or off")
                }
                for (id, level) in table {
                    guard let rule = Rule(rawValue: id) else {
                        let hint = Suggestion.hint(for: id, among: Rule.allCases.map(\.rawValue))
                        throw ConfigError(path: path, message: "severity: unknown rule '\(id)'\(hint) (see `lctrace rules`)")
                    }
                    // YAML reads a bare `off` as the boolean false.
                    let text = (level as? Bool) == false ? "off" : "\(level)"
                    guard let severity = RuleSettings.level(text) else {
                        throw ConfigError(path: path, message: "severity of \(id): '\(text)' is not error, warning, info or off")
                    }
                    config.severity[rule] = severity
                }
            case "leak-timeout":
                guard let seconds = number(value) else {
                    throw ConfigError(path: path, message: "leak-timeout must be a number of seconds")
                }
                if let problem = RuleSettings.leakTimeoutProblem(seconds) {
                    throw ConfigError(path: path, message: "leak-timeout \(problem)")
                }
                config.leakTimeoutSeconds = seconds
            case "slow-transition":
                guard let ms = number(value) else {
                    throw ConfigError(path: path, message: "slow-transition must be a number of milliseconds")
                }
                if let problem = RuleSettings.slowTransitionProblem(ms) {
                    throw ConfigError(path: path, message: "slow-transition \(problem)")
                }
                config.slowTransitionMs = ms
            case "line-format":
                guard let name = value as? String, name == "auto" || LineFormat.named(name) != nil else {
                    throw ConfigError(path: path, message: "line-format must be auto or one of "
                                      + LineFormat.builtIn.map(\.name).joined(separator: ", ") + Suggestion.hint(for: "\(value)", among: LineFormat.builtIn.map(\.name)))
                }
                config.lineFormat = name
            case "pattern":
                guard let pattern = value as? String else { throw ConfigError(path: path, message: "pattern must be a string") }
                if let problem = LineFormat.customPatternProblem(pattern) { throw ConfigError(path: path, message: "pattern: \(problem)") }
                config.pattern = pattern
            case "time-format":
                guard let format = value as? String else { throw ConfigError(path: path, message: "time-format must be a string") }
                config.timeFormat = format
            case "process":
                if let name = value as? String {
                    config.processes = [name]
                } else if let names = value as? [Any], names.allSatisfy({ $0 is String }), !names.isEmpty {
                    config.processes = names.map { "\($0)" }
                } else {
                    throw ConfigError(path: path, message: "process must be a process name or a list of them")
                }
            case "fail-on":
                guard let level = value as? String, ["error", "warning", "never"].contains(level) else {
                    throw ConfigError(path: path, message: "fail-on must be error, warning or never")
                }
                config.failOn = level
            case "min-severity":
                guard let level = (value as? String).flatMap(Severity.init(rawValue:)) else {
                    throw ConfigError(path: path, message: "min-severity must be error, warning or info")
                }
                config.minimumSeverity = level
            case "allow-empty-input":
                guard let allowed = value as? Bool else { throw ConfigError(path: path, message: "allow-empty-input must be true or false") }
                config.allowEmptyInput = allowed
            case "baseline":
                guard let baseline = value as? String, !baseline.isEmpty else {
                    throw ConfigError(path: path, message: "baseline must be the path of a baseline file")
                }
                config.baseline = baseline
            case "sources":
                if let folder = value as? String, !folder.isEmpty {
                    config.sources = [folder]
                } else if let folders = value as? [Any], !folders.isEmpty, folders.allSatisfy({ ($0 as? String)?.isEmpty == false }) {
                    config.sources = folders.map { "\($0)" }
                } else {
                    throw ConfigError(path: path, message: "sources must be a folder or a list of them")
                }
            case "reporters":
                guard let requests = strings(value), !requests.isEmpty else {
                    throw ConfigError(path: path, message: "reporters must be a reporter (NAME or NAME=PATH) or a list of them")
                }
                for request in requests {
                    let name = String(request.prefix { $0 != "=" })
                    guard ReportKind(name: name) != nil else {
                        let names = ReportKind.allCases.map(\.rawValue)
                        throw ConfigError(path: path, message: "reporters: unknown reporter '\(name)'\(Suggestion.hint(for: name, among: names)); "
                                          + "the reporters are \(names.joined(separator: ", "))")
                    }
                    if request.hasSuffix("=") { throw ConfigError(path: path, message: "reporters: '\(request)' names no file after '='") }
                }
                config.reporters = requests
            case "ignore-classes":
                guard let names = strings(value), !names.isEmpty else {
                    throw ConfigError(path: path, message: "ignore-classes must be a class name (or pattern with *) or a list of them")
                }
                config.ignoredClasses = names.map(ClassPattern.init)
            case "against":
                guard let against = value as? String, !against.isEmpty else {
                    throw ConfigError(path: path, message: "against must be the path of a model (lctrace learn) or of a log")
                }
                config.against = against
            case "slower-by":
                guard let percent = number(value), percent.isFinite, percent >= 0, percent <= 10_000 else {
                    throw ConfigError(path: path, message: "slower-by must be a percentage from 0 to 10000")
                }
                config.slowerByPercent = percent
            default:
                throw ConfigError(path: path, message: "unknown key '\(key)'\(Suggestion.hint(for: key, among: keys)); expected \(keys.joined(separator: ", "))")
            }
        }
        if config.pattern != nil, config.lineFormat != nil, config.lineFormat != "auto" {
            throw ConfigError(path: path, message: "pattern and line-format cannot both be given")
        }
        if let timeFormat = config.timeFormat {
            guard let pattern = config.pattern else {
                throw ConfigError(path: path, message: "time-format reads the time group of a pattern: give the pattern too")
            }
            if let problem = LineFormat.timeFormatProblem(timeFormat, pattern: pattern) {
                throw ConfigError(path: path, message: "time-format: \(problem)")
            }
        }
        return config
    }

    /// `baseline`, as a path from the working directory: a relative path in the file is relative to the file's folder
    /// (`configPath` is the file's own path from the working directory).
    public func baselinePath(configPath: String) -> String? {
        baseline.map { ConfigFile.path($0, besides: configPath) }
    }

    /// `against`, as a path from the working directory, as `baselinePath` gives the baseline.
    public func againstPath(configPath: String) -> String? {
        against.map { ConfigFile.path($0, besides: configPath) }
    }

    /// `reporters`, with each report's path from the working directory, as `baselinePath` gives the baseline.
    public func reporterRequests(configPath: String) -> [String]? {
        reporters.map { requests in
            requests.map { request in
                guard let equals = request.firstIndex(of: "="), request[request.index(after: equals)...] != "-" else { return request }
                return String(request[...equals]) + ConfigFile.path(String(request[request.index(after: equals)...]), besides: configPath)
            }
        }
    }

    /// `sources`, as paths from the working directory, as `baselinePath` gives the baseline.
    public func sourcePaths(configPath: String) -> [String]? {
        sources.map { $0.map { ConfigFile.path($0, besides: configPath) } }
    }

    /// A path written in the file, from the working directory: a relative one is relative to the file's folder.
    private static func path(_ written: String, besides configPath: String) -> String {
        guard !written.hasPrefix("/"), let slash = configPath.lastIndex(of: "/") else { return written }
        return String(configPath[...slash]) + written
    }

    /// The line format the file chooses, if any.
    public var lineFormatChoice: LineFormatChoice? {
        if let pattern { return .fixed(.custom(pattern, timeFormat: timeFormat.flatMap { try? TimeFormat($0) })) }
        if let lineFormat { return LineFormat.named(lineFormat).map { .fixed($0) } ?? .automatic }
        return nil
    }

    /// Whether `node`, with every alias expanded, has at most `budget` nodes; stops counting once it has not.
    private static func fits(_ node: Node, budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch node {
        case .scalar, .alias: return true
        case .sequence(let sequence):
            return sequence.allSatisfy { fits($0, budget: &budget) }
        case .mapping(let mapping):
            return mapping.allSatisfy { fits($0.key, budget: &budget) && fits($0.value, budget: &budget) }
        }
    }

    /// A non-empty string, or a list of them.
    private static func strings(_ value: Any) -> [String]? {
        if let one = value as? String { return one.isEmpty ? nil : [one] }
        guard let list = value as? [Any], list.allSatisfy({ ($0 as? String)?.isEmpty == false }) else { return nil }
        return list.map { "\($0)" }
    }

    private static func number(_ value: Any) -> Double? {
        if let int = value as? Int { return Double(int) }
        return value as? Double
    }

    /// Applies the file on top of `settings`.
    public func apply(to settings: inout RuleSettings) {
        for (rule, severity) in severity { settings.overrides[rule] = .some(severity) }
        if let leakTimeoutSeconds { settings.leakTimeoutSeconds = leakTimeoutSeconds }
        if let slowTransitionMs { settings.slowTransitionMs = slowTransitionMs }
        if let slowerByPercent { settings.slowerThanModelPercent = slowerByPercent }
        if let ignoredClasses { settings.ignoredClasses = ignoredClasses }
    }
}

public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}
