import ArgumentParser
import LCTraceKit

/// `rules` and `explain` print a document, not a stream.
enum CatalogFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rules lctrace checks, with their severity in this run.")

    @Option(name: .long, help: "Output format: text or json.")
    var format: CatalogFormat = .text

    @OptionGroup var ruleOptions: RuleOptions

    func run() throws {
        let (settings, _) = ruleOptions.settings()
        let output = Output.standardOutput()
        switch format {
        case .text: output.write(RuleCatalogRendering.list(settings: settings))
        case .json: output.write(RuleCatalogRendering.listJSON(settings: settings))
        }
        finishWriting(output)
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain one rule: what it checks, an example log, what UIKit does and why.")

    @Argument(help: ArgumentHelp("A rule id, as `lctrace rules` lists them.", valueName: "rule"),
              completion: .list(Rule.allCases.map(\.rawValue)))
    var rule: String

    @Option(name: .long, help: "Output format: text or json.")
    var format: CatalogFormat = .text

    @OptionGroup var ruleOptions: RuleOptions

    func validate() throws {
        if Rule(rawValue: rule) == nil {
            throw ValidationError("unknown rule '\(rule)'\(Suggestion.hint(for: rule, among: Rule.allCases.map(\.rawValue))); `lctrace rules` lists them.")
        }
    }

    func run() throws {
        let (settings, _) = ruleOptions.settings()
        let rule = Rule(rawValue: rule)!
        let output = Output.standardOutput()
        switch format {
        case .text: output.write(RuleCatalogRendering.explain(rule, settings: settings))
        case .json: output.write(RuleCatalogRendering.explainJSON(rule, settings: settings))
        }
        finishWriting(output)
    }
}
