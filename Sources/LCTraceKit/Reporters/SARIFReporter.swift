/// SARIF 2.1.0, for code-scanning dashboards: one run of `lctrace` with the whole rule catalogue, and one result per
/// finding, written as it is decided. The document is closed by `finish`, so memory does not grow with the findings.
///
/// Inputs below the working directory are named relative to it (`uriBaseId` `%SRCROOT%`, which
/// `originalUriBaseIds` gives as the directory's `file://` URI); others by an absolute `file://` URI; standard input
/// as `stdin`. Each result carries the finding's `FindingKey` fingerprint, so that a dashboard tells a finding it
/// knows from a new one when the log only shifted.
public final class SARIFReporter: FindingTagging {
    /// Made of findings and the run's summary: it reads no session report.
    public var readsSessions: Bool { false }

    static var severityWords: KeyPath<SeverityWords, StaticString> { \.sarif }

    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    public static let informationURI = "https://github.com/lctrace/lctrace"
    /// The `partialFingerprints` member that holds `FindingKey.fingerprint`.
    public static let fingerprintName: StaticString = "lctraceFindingKey/v1"

    private let output: Output
    private var locator: InputLocator
    private var resultsWritten = 0
    private var writer = JSONWriter(indent: 4)
    /// Where the findings' classes are declared: each result names them as related and logical locations.
    private let declarations: ControllerDeclarations?
    private static let ruleIndex = Dictionary(uniqueKeysWithValues: RuleCatalog.entries.enumerated().map { ($0.element.rule, $0.offset) })

    /// `failureSeverity` is accepted as by the other CI reports: a SARIF consumer decides from each result's `level`.
    /// `rules` gives each rule's level (or `enabled: false`) in the catalogue. Relative inputs are read from
    /// `workingDirectory` (default: the current directory).
    public init(output: Output, failureSeverity: Severity = .error, rules: RuleSettings = RuleSettings(),
                workingDirectory: String? = nil, declarations: ControllerDeclarations? = nil) {
        self.output = output
        self.declarations = declarations
        locator = InputLocator(workingDirectory: workingDirectory)
        var head = JSONWriter(indent: 3, capacity: 1 << 16)
        output.write("{\n  \"$schema\": \"\(SARIFReporter.schemaURI)\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n      \"tool\": ")
        head.object { w in
            w.key("driver")
            w.object { w in SARIFReporter.driverMembers(rules, into: &w) }
        }
        output.write(head.buffer.bytes)
        output.write(",\n      \"invocations\": [\n        {\n          \"executionSuccessful\": true\n        }\n      ],\n      \"originalUriBaseIds\": ")
        head.reset()
        head.object { w in
            w.key("%SRCROOT%")
            w.object { w in w.member("uri", InputLocation.directoryURI(self.locator.workingDirectory)) }
        }
        output.write(head.buffer.bytes)
        output.write(",\n      \"results\": [")
    }

    private static func driverMembers(_ rules: RuleSettings, into w: inout JSONWriter) {
        w.member("name", "lctrace")
        w.member("version", LCTraceVersion.current)
        w.member("semanticVersion", LCTraceVersion.current)
        w.member("informationUri", informationURI)
        w.key("rules")
        w.objects(RuleCatalog.entries) { entry, w in ruleMembers(entry, rules, into: &w) }
    }

    private static func ruleMembers(_ entry: RuleCatalog.Entry, _ rules: RuleSettings, into w: inout JSONWriter) {
        w.member("id", entry.rule.rawValue)
        w.member("name", upperCamelCase(entry.rule.rawValue))
        w.key("shortDescription")
        w.object { w in w.member("text", entry.summary) }
        w.key("fullDescription")
        w.object { w in w.member("text", entry.explanation) }
        w.key("help")
        w.object { w in
            w.member("text", RuleCatalogRendering.explain(entry.rule, settings: rules))
            w.member("markdown", helpMarkdown(entry))
        }
        w.key("defaultConfiguration")
        w.object { w in
            if rules.isEnabled(entry.rule) {
                w.member("level", level(rules.severity(of: entry.rule) ?? entry.severity))
            } else {
                w.key("enabled")
                w.value(false)
                w.member("level", level(entry.severity))
            }
        }
    }

    /// SARIF's level for a severity (`SeverityWords`): error, warning, note.
    static func level(_ severity: Severity) -> String { "\(word(for: severity))" }

    /// `did-appear-twice` → `DidAppearTwice`.
    static func upperCamelCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private static func helpMarkdown(_ entry: RuleCatalog.Entry) -> String {
        """
        \(entry.explanation)

        **What UIKit does:** \(entry.uikit)

        Example that triggers it:

        ```
        \(entry.example)
        ```
        """
    }

    public func finding(_ finding: Finding) {
        writer.reset()
        writer.object { w in resultMembers(finding, into: &w) }
        output.write(resultsWritten == 0 ? "\n        " : ",\n        ")
        output.write(writer.buffer.bytes)
        resultsWritten += 1
    }

    private func resultMembers(_ finding: Finding, into w: inout JSONWriter) {
        w.member("ruleId", finding.rule.rawValue)
        w.member("ruleIndex", SARIFReporter.ruleIndex[finding.rule]!)
        w.member("level", SARIFReporter.level(finding.severity))
        w.key("message")
        w.object { w in w.member("text", finding.message) }
        let place = locator.location(of: finding.input)
        w.key("locations")
        w.array { w in
            w.object { w in
                // A finding about a whole input is at its first line.
                SARIFReporter.physicalLocation(place, line: max(finding.line, 1), into: &w)
                // With the sources indexed, the controller's class, as a logical location of the finding.
                if declarations != nil, let controller = finding.controller {
                    w.key("logicalLocations")
                    w.array { w in w.object { w in
                        w.member("name", FindingKey.className(ofController: controller))
                        w.member("kind", "type")
                    } }
                }
            }
        }
        if let declarations, let controller = finding.controller {
            let className = FindingKey.className(ofController: controller)
            let found = declarations.declarations(of: finding)
            if !found.isEmpty {
                w.key("relatedLocations")
                w.array { w in
                    for (index, declaration) in found.enumerated() {
                        let source = locator.location(of: declaration.path)
                        w.object { w in
                            w.member("id", index + 1)
                            SARIFReporter.physicalLocation(source, line: declaration.line, into: &w)
                            w.key("message")
                            w.object { w in w.member("text", ControllerDeclarations.noteText(className: className, count: found.count)) }
                        }
                    }
                }
            }
        }
        w.key("partialFingerprints")
        w.object { w in w.member(SARIFReporter.fingerprintName, FindingKey(finding).fingerprint) }
        w.key("properties")
        w.object { w in
            if finding.session > 0 { w.member("session", finding.session) }
            if let controller = finding.controller { w.member("controller", controller) }
            if let expected = finding.expected { w.member("expected", expected) }
            if let actual = finding.actual { w.member("actual", actual) }
        }
    }

    /// A `physicalLocation` member: the file (relative to `%SRCROOT%` when below the working directory; standard input
    /// described as such) and the line.
    private static func physicalLocation(_ place: InputLocation, line: Int, into w: inout JSONWriter) {
        w.key("physicalLocation")
        w.object { w in
            w.key("artifactLocation")
            w.object { w in
                w.member("uri", place.uri)
                if case .relative = place.place { w.member("uriBaseId", "%SRCROOT%") }
                if place.place == .standardInput {
                    w.key("description")
                    w.object { w in w.member("text", "standard input") }
                }
            }
            w.key("region")
            w.object { w in w.member("startLine", line) }
        }
    }

    public func finish(_ summary: RunSummary) {
        output.write(resultsWritten == 0 ? "]\n    }\n  ]\n}\n" : "\n      ]\n    }\n  ]\n}\n")
        output.flush()
    }
}
