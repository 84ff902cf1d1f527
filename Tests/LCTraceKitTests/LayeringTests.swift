import Foundation
import Testing

/// The library's layers depend one way: ingestion, the model and the analysis know nothing of how a report is written
/// or how a run is wired. A file in `Ingestion/`, `Model/`, `Analysis/` or `Platform/` that names a type declared in
/// `Reporters/`, `Rendering/` or `Run/` (outside its comments) breaks the layering.
@Suite struct LayeringTests {
    static let library = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/LCTraceKit")

    static func swiftFiles(in folder: String) throws -> [URL] {
        let directory = library.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// The source without its comments (line comments and documentation), so that prose may name any type.
    static func code(_ file: URL) throws -> String {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let comment = line.range(of: "//") else { return String(line) }
            return String(line[..<comment.lowerBound])
        }.joined(separator: "\n")
    }

    /// The types a folder declares at the top level of its files.
    static func declaredTypes(in folder: String) throws -> Set<String> {
        let declaration = try Regex(#"^(?:public |final |private |fileprivate |indirect )*(?:struct|class|enum|protocol|typealias|actor) ([A-Z][A-Za-z0-9]*)"#)
        var types = Set<String>()
        for file in try swiftFiles(in: folder) {
            for line in try code(file).split(separator: "\n") {
                if let match = line.firstMatch(of: declaration), let name = match.output[1].substring { types.insert(String(name)) }
            }
        }
        return types
    }

    static func words(_ text: String) -> Set<String> {
        Set(text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
    }

    @Test func lowerLayersNameNoReportingOrRunType() throws {
        let upper = try LayeringTests.declaredTypes(in: "Rendering").union(LayeringTests.declaredTypes(in: "Reporters"))
            .union(LayeringTests.declaredTypes(in: "Run"))
        #expect(upper.isSuperset(of: ["Reporter", "TextReporter", "ByteBuffer", "Analyzer", "Recording"]))
        var named: [String] = []
        for folder in ["Ingestion", "Model", "Analysis", "Platform", "Declarations"] {
            for file in try LayeringTests.swiftFiles(in: folder) {
                let found = LayeringTests.words(try LayeringTests.code(file)).intersection(upper)
                if !found.isEmpty { named.append("\(folder)/\(file.lastPathComponent): \(found.sorted().joined(separator: ", "))") }
            }
        }
        #expect(named.isEmpty, "\(named)")
    }

    /// The check itself: a line of code naming a rendering type is caught, the same name in a comment is not.
    @Test func theCheckSeesCodeNotComments() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("layering-\(UUID().uuidString).swift")
        try "let a = 1 // TextReporter\n/// ByteBuffer in prose\nlet b: ByteBuffer\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(LayeringTests.words(try LayeringTests.code(file)).intersection(["TextReporter", "ByteBuffer"]) == ["ByteBuffer"])
    }
}
