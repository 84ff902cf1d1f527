import Foundation
import Yams

/// A project's `.lctrace.yml`: rule severities and thresholds, read with Yams.
///
///     severity:
///       possible-leak: off
///       transition-unrecognized: error
///     leak-timeout: 5        # seconds
///     slow-transition: 600   # milliseconds
///
/// Flags given on the command line win over the file.
public struct ConfigFile: Sendable, Equatable {
    public static let defaultName = ".lctrace.yml"
    public static let keys = ["severity", "leak-timeout", "slow-transition"]

    public var severity: [Rule: Severity?] = [:]
    public var leakTimeoutSeconds: Double?
    public var slowTransitionMs: Double?

    public init() {}

    /// Reads and validates the file at `path`.
    public static func load(path: String) throws(ConfigError) -> ConfigFile {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError(path: path, message: "cannot be read (\(error.localizedDescription))")
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws(ConfigError) -> ConfigFile {
        let document: Any?
        do {
            document = try Yams.load(yaml: text)
        } catch {
            throw ConfigError(path: path, message: "is not valid YAML: \(error)")
        }
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
                        throw ConfigError(path: path, message: "severity: unknown rule '\(id)' (see `lctrace rules`)")
                    }
                    // YAML reads a bare `off` as the boolean false.
                    let text = (level as? Bool) == false ? "off" : "\(level)"
                    guard let severity = RuleSettings.level(text) else {
                        throw ConfigError(path: path, message: "severity of \(id): '\(text)' is not error, warning, info or off")
                    }
                    config.severity[rule] = severity
                }
            case "leak-timeout":
                guard let seconds = number(value), seconds >= 0 else {
                    throw ConfigError(path: path, message: "leak-timeout must be a number of seconds")
                }
                config.leakTimeoutSeconds = seconds
            case "slow-transition":
                guard let ms = number(value), ms >= 0 else {
                    throw ConfigError(path: path, message: "slow-transition must be a number of milliseconds")
                }
                config.slowTransitionMs = ms
            default:
                throw ConfigError(path: path, message: "unknown key '\(key)'; expected \(keys.joined(separator: ", "))")
            }
        }
        return config
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
    }
}

public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}
