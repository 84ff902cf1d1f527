extension ControllerDeclarations {
    /// The declarations of the class a finding is about (none for a finding about no controller).
    func declarations(of finding: Finding) -> [Declaration] {
        guard let controller = finding.controller else { return [] }
        return declarations(of: FindingKey.className(ofController: controller))
    }

    /// What a note at a declaration says: `DetailViewController is declared here`, and when the name is declared
    /// more than once, that this is one of them.
    static func noteText(className: String, count: Int) -> String {
        "\(className) is declared here" + (count > 1 ? " (one of \(count) declarations of that name: ambiguous)" : "")
    }
}
