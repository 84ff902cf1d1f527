/// Where the app's classes are declared (`--sources DIR`): every Swift `class` (with any modifiers and attributes
/// before it: `final class`, `@MainActor open class`) and Objective-C `@implementation` or `@interface` in the
/// `.swift`, `.m`, `.mm` and `.h` files below the folders given, read once. A finding about a controller then points
/// at the file that declares its class, which is in the repository, where the log is not.
///
/// Folders a build or a package manager fills (`.build`, `Pods`, `Carthage`, `DerivedData`) and hidden ones are not
/// entered. An Objective-C class is where it is implemented when an `@implementation` is found, else where its
/// `@interface` is; a name declared twice (two targets, two modules) is ambiguous, and says so.
public struct ControllerDeclarations: Sendable {
    public struct Declaration: Sendable, Equatable {
        /// As found below the folder given (`App/Screens/DetailViewController.swift` for `--sources App`).
        public var path: String
        public var line: Int
    }

    /// A class's declarations: the implementations when there are any, else the interfaces.
    private var implementations: [String: [Declaration]] = [:]
    private var interfaces: [String: [Declaration]] = [:]
    /// Source files read.
    public private(set) var filesRead = 0

    public init() {}

    /// The declarations of `className`: one, several (ambiguous), or none.
    public func declarations(of className: String) -> [Declaration] {
        implementations[className] ?? interfaces[className] ?? []
    }

    /// The folders whose names a walk does not enter, besides hidden ones.
    static let skippedFolders: Set<String> = [".build", "Pods", "Carthage", "DerivedData", "build", "node_modules"]
    static let sourceEndings = [".swift", ".m", ".mm", ".h"]

    /// Indexes the source files below `folders`. Throws when a folder given cannot be listed.
    public static func index(_ folders: [String]) throws(SystemError) -> ControllerDeclarations {
        var index = ControllerDeclarations()
        for folder in folders {
            for path in try sourceFiles(below: folder) {
                guard let bytes = try? FileDescriptorIO.readFile(atPath: path, limit: 16 << 20) else { continue }
                index.filesRead += 1
                index.read(bytes, path: path)
            }
        }
        return index
    }

    /// Notes the declarations in one file's text.
    mutating func read(_ bytes: [UInt8], path: String) {
        let isSwift = path.hasSuffix(".swift")
        var lineNumber = 0
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            lineNumber += 1
            let line = bytes[start..<end]
            if isSwift {
                if let name = ControllerDeclarations.swiftClassName(line) {
                    implementations[name, default: []].append(Declaration(path: path, line: lineNumber))
                }
            } else if let (name, isImplementation) = ControllerDeclarations.objectiveCClassName(line) {
                if isImplementation {
                    implementations[name, default: []].append(Declaration(path: path, line: lineNumber))
                } else {
                    interfaces[name, default: []].append(Declaration(path: path, line: lineNumber))
                }
            }
            start = end + 1
        }
    }

    /// The class a Swift line declares: `class Name`, after modifiers and attributes, not `class func` or `class var`.
    static func swiftClassName(_ line: ArraySlice<UInt8>) -> String? {
        guard line.count >= 7 else { return nil }
        var text = String(decoding: line, as: UTF8.self)
        // A comment's line is no declaration (`/* … */` and doc comments are written with a `*` or `//` first).
        let start = text.drop { $0 == " " || $0 == "\t" }
        if start.hasPrefix("//") || start.hasPrefix("*") || start.hasPrefix("/*") { return nil }
        // An attribute's arguments (`@available(iOS 15, *)`) are left out, so that the attribute is one word.
        while let open = text.firstIndex(of: "("), let close = text[open...].firstIndex(of: ")"),
              text[..<open].range(of: "class") == nil {
            text.removeSubrange(open...close)
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let classAt = words.firstIndex(of: "class"), classAt + 1 < words.count else { return nil }
        let modifiers: Set<Substring> = ["public", "open", "internal", "fileprivate", "private", "final", "package"]
        guard words[..<classAt].allSatisfy({ modifiers.contains($0) || $0.hasPrefix("@") }) else { return nil }
        let name = words[classAt + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard let first = name.first, first.isLetter || first == "_" else { return nil }
        let members: Set<Substring> = ["func", "var", "let", "subscript", "override", "static", "final", "open", "public"]
        return members.contains(name) ? nil : String(name)
    }

    /// The class an Objective-C line declares, and whether it is its `@implementation` (else its `@interface`; a
    /// category, `@interface Name (Extra)`, is neither).
    static func objectiveCClassName(_ line: ArraySlice<UInt8>) -> (name: String, isImplementation: Bool)? {
        let text = String(decoding: line, as: UTF8.self).drop { $0 == " " || $0 == "\t" }
        let isImplementation = text.hasPrefix("@implementation ")
        guard isImplementation || text.hasPrefix("@interface ") else { return nil }
        let rest = text.drop { $0 != " " }.drop { $0 == " " }
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard let first = name.first, first.isLetter || first == "_" else { return nil }
        if rest.dropFirst(name.count).drop(while: { $0 == " " }).hasPrefix("(") { return nil }
        return (String(name), isImplementation)
    }

    /// The source files below `folder`, sorted, leaving out hidden folders and the ones a build fills.
    static func sourceFiles(below folder: String) throws(SystemError) -> [String] {
        var files: [String] = []
        var pending = [folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder]
        var isRoot = true
        while let directory = pending.popLast() {
            let entries: [DirectoryListing.Entry]
            do {
                entries = try DirectoryListing.entries(ofDirectory: SystemPath.bytes(directory))
            } catch {
                if isRoot { throw error }
                continue
            }
            isRoot = false
            for entry in entries {
                let name = String(decoding: entry.name, as: UTF8.self)
                guard !name.hasPrefix(".") else { continue }
                let path = directory == "/" ? "/" + name : directory + "/" + name
                var kind = entry.kind
                if kind == .unknown { kind = (try? DirectoryListing.kind(ofPath: SystemPath.bytes(path), followingLinks: false).kind) ?? .other }
                switch kind {
                case .directory where !skippedFolders.contains(name): pending.append(path)
                case .regularFile where sourceEndings.contains(where: { name.hasSuffix($0) }): files.append(path)
                default: continue
                }
            }
        }
        return files.sorted()
    }
}
