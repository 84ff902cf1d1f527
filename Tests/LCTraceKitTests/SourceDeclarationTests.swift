import Foundation
import Testing
@testable import LCTraceKit

/// `--sources DIR`: the findings about a controller point at the file that declares its class, in the compiler form,
/// SARIF and GitHub annotations.
@Suite(.serialized) struct SourceDeclarationTests {
    /// A small app: a Swift controller, an Objective-C one (interface, category and implementation), a class declared
    /// twice, and the folders a walk leaves alone.
    static func app() throws -> URL {
        let root = TestFiles.root.appendingPathComponent("lctrace-sources-\(UUID().uuidString)")
        let files: [String: String] = [
            "App/Screens/DetailViewController.swift": """
                import UIKit

                @MainActor
                final class DetailViewController: UIViewController {
                    class func make() -> DetailViewController { DetailViewController() }
                }
                """,
            "App/Legacy/ViewController.h": "@interface ViewController : UIViewController\n@end\n",
            "App/Legacy/ViewController.m": "#import \"ViewController.h\"\n@interface ViewController (Private)\n@end\n\n@implementation ViewController\n@end\n",
            "App/Shared/SettingsViewController.swift": "public class SettingsViewController: UIViewController {}\n",
            "App/Admin/SettingsViewController.swift": "open class SettingsViewController: UIViewController {}\n",
            "App/Pods/Vendor/DetailViewController.swift": "class DetailViewController {}\n",
            "App/.build/checkouts/ViewController.swift": "class ViewController {}\n",
            "App/Notes.txt": "class DetailViewController\n",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let log = """
            DetailViewController viewDidLoad()
            DetailViewController viewWillAppear(_:)
            DetailViewController viewDidAppear(_:)
            DetailViewController viewDidAppear(_:)
            ViewController viewDidLoad()
            ViewController viewWillAppear(_:)
            ViewController viewDidAppear(_:)
            ViewController viewDidAppear(_:)
            SettingsViewController viewDidLoad()
            SettingsViewController viewWillAppear(_:)
            SettingsViewController viewDidAppear(_:)
            SettingsViewController viewDidAppear(_:)
            ListViewController viewDidLoad()
            ListViewController viewWillAppear(_:)
            ListViewController viewDidAppear(_:)
            ListViewController viewDidAppear(_:)

            """
        try log.write(to: root.appendingPathComponent("app.log"), atomically: true, encoding: .utf8)
        return root
    }

    @Test func declarationsAreFoundAndTheBuildFoldersLeftAlone() throws {
        let root = try SourceDeclarationTests.app()
        let index = try ControllerDeclarations.index([root.appendingPathComponent("App").path])
        let app = root.appendingPathComponent("App").path
        #expect(index.declarations(of: "DetailViewController") == [.init(path: app + "/Screens/DetailViewController.swift", line: 4)])
        #expect(index.declarations(of: "ViewController") == [.init(path: app + "/Legacy/ViewController.m", line: 5)])
        #expect(index.declarations(of: "SettingsViewController").map(\.path) == [app + "/Admin/SettingsViewController.swift",
                                                                                 app + "/Shared/SettingsViewController.swift"])
        #expect(index.declarations(of: "ListViewController").isEmpty)
        #expect(index.filesRead == 5)
        #expect(ControllerDeclarations.swiftClassName(ArraySlice("    class var shared: A { A() }".utf8)) == nil)
        #expect(ControllerDeclarations.swiftClassName(ArraySlice("@objc(Detail) open class Detail<T>: Base {".utf8)) == "Detail")
        #expect(ControllerDeclarations.swiftClassName(ArraySlice("@available(iOS 15, *) final class Modern: UIViewController {".utf8)) == "Modern")
        #expect(ControllerDeclarations.swiftClassName(ArraySlice(" * class Described in prose".utf8)) == nil)
        #expect(ControllerDeclarations.swiftClassName(ArraySlice("// class Commented".utf8)) == nil)
        #expect(throws: SystemError.self) { try ControllerDeclarations.index([root.appendingPathComponent("missing").path]) }
    }

    @Test func theCIReportsPointAtTheDeclarations() throws {
        let root = try SourceDeclarationTests.app()
        let check = try lctrace(["check", "--fail-on", "never", "--sources", "App", "app.log"], directory: root)
        #expect(check.stdout == """
            app.log:4: warning: [did-appear-twice] viewDidAppear on DetailViewController, which is already visible
            App/Screens/DetailViewController.swift:4: note: DetailViewController is declared here
            app.log:8: warning: [did-appear-twice] viewDidAppear on ViewController, which is already visible
            App/Legacy/ViewController.m:5: note: ViewController is declared here
            app.log:12: warning: [did-appear-twice] viewDidAppear on SettingsViewController, which is already visible
            App/Admin/SettingsViewController.swift:1: note: SettingsViewController is declared here (one of 2 declarations of that name: ambiguous)
            App/Shared/SettingsViewController.swift:1: note: SettingsViewController is declared here (one of 2 declarations of that name: ambiguous)
            app.log:16: warning: [did-appear-twice] viewDidAppear on ListViewController, which is already visible

            """, "\(check.stdout)")

        let annotations = try lctrace(["check", "--fail-on", "never", "--sources", "App", "--reporter", "github-actions", "app.log"],
                                      directory: root).stdout
        #expect(annotations.contains("::warning file=App/Screens/DetailViewController.swift,line=4,title=[did-appear-twice]::"
                                     + "app.log:4: viewDidAppear on DetailViewController, which is already visible"), "\(annotations)")
        // An ambiguous or unknown class stays on the log.
        #expect(annotations.contains("::warning file=app.log,line=12,title=[did-appear-twice]::viewDidAppear on SettingsViewController"))
        #expect(annotations.contains("::warning file=app.log,line=16,"))

        let sarif = try lctrace(["check", "--fail-on", "never", "--sources", "App", "--reporter", "sarif", "app.log"], directory: root)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let results = try #require(((document["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let related = try #require(results.first?["relatedLocations"] as? [[String: Any]])
        let physical = try #require(related.first?["physicalLocation"] as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "App/Screens/DetailViewController.swift")
        #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 4)
        let location = try #require((results.first?["locations"] as? [[String: Any]])?.first)
        #expect((location["logicalLocations"] as? [[String: Any]])?.first?["name"] as? String == "DetailViewController")
        #expect((results[2]["relatedLocations"] as? [Any])?.count == 2)
        #expect(results[3]["relatedLocations"] == nil)

        let codeClimate = try lctrace(["check", "--fail-on", "never", "--sources", "App", "--reporter", "codeclimate", "app.log"], directory: root)
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(codeClimate.stdout.utf8)) as? [[String: Any]])
        let other = try #require(issues.first?["other_locations"] as? [[String: Any]])
        #expect(other.first?["path"] as? String == "App/Screens/DetailViewController.swift")
        #expect((other.first?["lines"] as? [String: Any])?["begin"] as? Int == 4)
        #expect(issues[3]["other_locations"] == nil)

        // A JUnit testcase has no place for a second file: the failure's text carries the note, as the compiler form does.
        let junit = try lctrace(["check", "--fail-on", "warning", "--sources", "App", "--reporter", "junit", "app.log"], directory: root).stdout
        #expect(junit.contains("app.log:4: warning: [did-appear-twice] viewDidAppear on DetailViewController, which is already visible\n"
                               + "  expected: viewWillDisappear before appearing again\n  actual: viewDidAppear\n"
                               + "App/Screens/DetailViewController.swift:4: note: DetailViewController is declared here\n"), "\(junit)")

        // The configuration file names the folders once, relative to its own folder, for a run from a subfolder.
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try "sources: App\n".write(to: root.appendingPathComponent(".lctrace.yml"), atomically: true, encoding: .utf8)
        let logs = root.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: root.appendingPathComponent("app.log"), to: logs.appendingPathComponent("app.log"))
        let configured = try lctrace(["check", "--fail-on", "never", "app.log"], directory: logs)
        #expect(configured.stdout.contains("app.log:4: warning: [did-appear-twice] viewDidAppear on DetailViewController, which is already visible\n"
                                           + "../App/Screens/DetailViewController.swift:4: note: DetailViewController is declared here\n"), "\(configured.stdout)")

        let missing = try lctrace(["check", "--sources", "NoSuchFolder", "app.log"], directory: root)
        #expect(missing.status == 2 && missing.stderr.hasPrefix("lctrace: --sources: NoSuchFolder cannot be listed: "), "\(missing.stderr)")
        if let python = SchemaValidation.python, SchemaValidation.directory != nil {
            let path = root.appendingPathComponent("sources.sarif").path
            try sarif.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            let verdicts = try SchemaValidation.validateJSON([path], schema: try SchemaValidation.schema(SchemaValidation.sarifSchemaName),
                                                              python: python)
            #expect(verdicts[path] == "valid", "\(verdicts)")
        } else {
            #expect(!SchemaValidation.inCI || SchemaValidation.directory == nil, "CI validates the SARIF report against its schema")
        }
    }
}
