extension ControllerDeclarations {
    /// The declarations of the class a finding is about (none for a finding about no controller).
    func declarations(of finding: Finding) -> [Declaration] {
        guard let controller = finding.controller else { return [] }
        return declarations(of: FindingKey.className(ofController: controller))
    }

    /// A note at a declaration of the class a finding is about: where, and what it says.
    struct Note {
        var path: String
        var line: Int
        var text: String
    }

    /// The notes a finding gets in the compiler form and the JUnit failure text: one at each declaration of its class.
    func notes(for finding: Finding) -> [Note] {
        guard let controller = finding.controller else { return [] }
        let className = FindingKey.className(ofController: controller)
        let found = declarations(of: className)
        return found.map { Note(path: $0.path, line: $0.line, text: ControllerDeclarations.noteText(className: className, count: found.count)) }
    }

    /// What a note at a declaration says: `DetailViewController is declared here`, and when the name is declared
    /// more than once, that this is one of them.
    static func noteText(className: String, count: Int) -> String {
        "\(className) is declared here" + (count > 1 ? " (one of \(count) declarations of that name: ambiguous)" : "")
    }
}
