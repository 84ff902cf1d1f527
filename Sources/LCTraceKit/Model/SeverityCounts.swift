extension Severity {
    /// The order every report lists and counts severities in: the most severe first.
    public static let mostSevereFirst: [Severity] = [.error, .warning, .info]
}

/// How many findings of each severity, and how a report says it: "2 errors, 1 warning, 0 info". The one place that
/// words a count of findings, for the run's summary and a session's.
public struct SeverityCounts: Sendable, Equatable {
    private var errors = 0
    private var warnings = 0
    private var info = 0

    public init() {}

    public subscript(severity: Severity) -> Int {
        get {
            switch severity {
            case .error: return errors
            case .warning: return warnings
            case .info: return info
            }
        }
        set {
            switch severity {
            case .error: errors = newValue
            case .warning: warnings = newValue
            case .info: info = newValue
            }
        }
    }

    /// Findings of `severity` or more severe.
    public func atLeast(_ severity: Severity) -> Int {
        Severity.mostSevereFirst.filter { $0 >= severity }.reduce(0) { $0 + self[$1] }
    }

    /// "2 errors, 1 warning, 0 info", the most severe first; without the severities none was found when
    /// `omittingNone` ("2 errors"; empty when there are none at all). `dressed` styles each part ("2 errors") by its
    /// severity, as a terminal's colours do.
    public func sentence(omittingNone: Bool = false, dressed: (Severity, String) -> String = { $1 }) -> String {
        Severity.mostSevereFirst.compactMap { severity in
            let count = self[severity]
            return omittingNone && count == 0 ? nil : dressed(severity, TextFormat.plural(count, severity.rawValue))
        }.joined(separator: ", ")
    }
}
