/// How a class as logged becomes the name reports use: without its module (`ShopApp.CartViewController` →
/// `CartViewController`), a Swift runtime name demangled (`_TtC7ShopApp14CartController` → `CartController`), and a
/// generic class's arguments kept but shortened, so that a SwiftUI hosting controller reads as the screen it hosts:
///
/// - `SwiftUI.UIHostingController<ModifiedContent<DetailView, _EnvironmentKeyWritingModifier<Optional<Store>>>>`
///   → `UIHostingController<DetailView>` (a `ModifiedContent` is its content; modules go)
/// - `_TtGC7SwiftUI19UIHostingControllerV7ShopApp11ProfileView_` → `UIHostingController<ProfileView>`
/// - `Optional<Store>` → `Store?`
///
/// Two hosting controllers of different screens are two classes; a name whose arguments are still longer than
/// `maxArgumentsLength` keeps its base and `<…>`.
enum ReportedClassName {
    static let maxArgumentsLength = 80

    /// The name reports use for the class logged as `bytes`.
    static func of(_ bytes: UnsafeRawBufferPointer.SubSequence) -> String {
        if let demangled = demangled(bytes) { return demangled }
        if bytes.contains(UInt8(ascii: "<")) { return shortened(String(decoding: bytes, as: UTF8.self)) }
        let lastDot = bytes.lastIndex(of: 0x2E)
        let name = lastDot.map { bytes[($0 + 1)...] } ?? bytes
        return String(decoding: name.isEmpty ? bytes : name, as: UTF8.self)
    }

    /// The class without its generic arguments (`UIHostingController<DetailView>` → `UIHostingController`): what a
    /// name is judged by (named like a controller, a delegate).
    static func base(_ name: String) -> Substring {
        name.firstIndex(of: "<").map { name[..<$0] } ?? name[...]
    }

    // MARK: - Written generic names

    /// A generic type written out (`A.B<C, D<E>>`), as a tree.
    private struct WrittenType {
        var name: Substring
        var arguments: [WrittenType]
    }

    /// `text` with every type in it shortened; `text` without its module when it cannot be read as types.
    static func shortened(_ text: String) -> String {
        var rest = text[...]
        guard let type = readType(&rest, depth: 0), rest.allSatisfy(\.isWhitespace) else {
            return String(withoutModule(base(text))) + text[base(text).endIndex...]
        }
        return named(withoutModule(type.name), arguments: type.arguments)
    }

    /// A class's name with its arguments rendered, or `<…>` for arguments longer than `maxArgumentsLength`.
    private static func named(_ base: Substring, arguments: [WrittenType]) -> String {
        guard !arguments.isEmpty else { return String(base) }
        let rendered = arguments.map(render).joined(separator: ", ")
        return base + "<" + (rendered.count > maxArgumentsLength ? "…" : rendered) + ">"
    }

    /// One type from the start of `text`: a name, then its arguments in `<…>`. Nil when it is not one (or nested
    /// deeper than 32).
    private static func readType(_ text: inout Substring, depth: Int) -> WrittenType? {
        guard depth < 32 else { return nil }
        text = text.drop(while: \.isWhitespace)
        let name = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "$" }
        guard !name.isEmpty else { return nil }
        text = text[name.endIndex...]
        var type = WrittenType(name: name, arguments: [])
        guard text.first == "<" else { return type }
        text = text.dropFirst()
        while true {
            guard let argument = readType(&text, depth: depth + 1) else { return nil }
            type.arguments.append(argument)
            text = text.drop(while: \.isWhitespace)
            guard let separator = text.first else { return nil }
            text = text.dropFirst()
            if separator == ">" { return type }
            guard separator == "," else { return nil }
        }
    }

    /// A type argument as reports write it: `ModifiedContent<X, …>` is `X`, `Optional<X>` is `X?`, modules go.
    private static func render(_ type: WrittenType) -> String {
        let name = withoutModule(type.name)
        if name == "ModifiedContent", let content = type.arguments.first { return render(content) }
        if name == "Optional", type.arguments.count == 1 { return render(type.arguments[0]) + "?" }
        guard !type.arguments.isEmpty else { return String(name) }
        return name + "<" + type.arguments.map(render).joined(separator: ", ") + ">"
    }

    private static func withoutModule(_ name: Substring) -> Substring {
        guard let lastDot = name.lastIndex(of: "."), name.index(after: lastDot) < name.endIndex else { return name }
        return name[name.index(after: lastDot)...]
    }

    // MARK: - Swift runtime names

    /// An old-style Swift runtime name (what `NSStringFromClass` gives for a Swift class): `_Tt`, then a nominal type
    /// — the kinds of the nested types (`C` class, `V` struct, `O` enum, `P` protocol), its module and each name as
    /// its length in digits and its characters — or `G`, a generic nominal type, its arguments and `_`. Modules and
    /// types met before may stand as substitutions (`S_`, `S0_`, …), the standard library's as `Si`, `SS`, `Sq`, ….
    /// The name reports use, shortened as a written one; nil when `bytes` are not such a name.
    static func demangled(_ bytes: UnsafeRawBufferPointer.SubSequence) -> String? {
        guard bytes.count > 4, bytes.starts(with: "_Tt".utf8) else { return nil }
        var reader = MangledReader(bytes: bytes, index: bytes.startIndex + 3)
        guard let type = reader.readType(depth: 0), reader.index == bytes.endIndex else { return nil }
        return named(type.name, arguments: type.arguments)
    }

    /// Reads an old-style mangled type, keeping the substitutions it defines.
    private struct MangledReader {
        let bytes: UnsafeRawBufferPointer.SubSequence
        var index: Int
        /// Modules and nominal types in the order they were mangled: what `S_`, `S0_`, `S1_`, … stand for.
        var substitutions: [Substring] = []

        static let standardTypes: [UInt8: Substring] = [
            UInt8(ascii: "i"): "Int", UInt8(ascii: "u"): "UInt", UInt8(ascii: "S"): "String", UInt8(ascii: "b"): "Bool",
            UInt8(ascii: "d"): "Double", UInt8(ascii: "f"): "Float", UInt8(ascii: "a"): "Array", UInt8(ascii: "q"): "Optional",
            UInt8(ascii: "Q"): "ImplicitlyUnwrappedOptional", UInt8(ascii: "s"): "Swift", UInt8(ascii: "o"): "__ObjC",
            UInt8(ascii: "C"): "__C",
        ]

        var current: UInt8? { index < bytes.endIndex ? bytes[index] : nil }

        mutating func readType(depth: Int) -> WrittenType? {
            guard depth < 16, let first = current else { return nil }
            if first == UInt8(ascii: "G") {
                index += 1
                guard var type = readType(depth: depth + 1) else { return nil }
                while current != UInt8(ascii: "_") {
                    guard let argument = readType(depth: depth + 1) else { return nil }
                    type.arguments.append(argument)
                }
                index += 1
                return type
            }
            if first == UInt8(ascii: "S") { return readSubstitution().map { WrittenType(name: $0, arguments: []) } }
            var kinds = 0
            while let byte = current, "CVOP".utf8.contains(byte) {
                kinds += 1
                index += 1
            }
            guard kinds > 0, let module = readContext() else { return nil }
            _ = module
            var name: Substring?
            for _ in 0..<kinds {
                guard let next = readIdentifier() else { return nil }
                name = next
                substitutions.append(next)
            }
            return name.map { WrittenType(name: $0, arguments: []) }
        }

        /// A module: a substitution or an identifier (recorded as one).
        private mutating func readContext() -> Substring? {
            if current == UInt8(ascii: "S") { return readSubstitution() }
            guard let module = readIdentifier() else { return nil }
            substitutions.append(module)
            return module
        }

        /// `S_` (the first substitution), `S<n>_` (the n+2nd), or `S` and a standard library letter.
        private mutating func readSubstitution() -> Substring? {
            index += 1
            guard let byte = current else { return nil }
            index += 1
            if byte == UInt8(ascii: "_") { return substitutions.first }
            if let standard = MangledReader.standardTypes[byte] { return standard }
            guard HandParsers.isDigit(byte) else { return nil }
            var number = Int(byte - 0x30)
            while let digit = current, HandParsers.isDigit(digit), number < 10_000 {
                number = number * 10 + Int(digit - 0x30)
                index += 1
            }
            guard current == UInt8(ascii: "_"), number + 1 < substitutions.count else { return nil }
            index += 1
            return substitutions[number + 1]
        }

        /// A length in digits, then that many characters.
        private mutating func readIdentifier() -> Substring? {
            var length = 0
            while let digit = current, HandParsers.isDigit(digit), length < 10_000 {
                length = length * 10 + Int(digit - 0x30)
                index += 1
            }
            guard length > 0, index + length <= bytes.endIndex else { return nil }
            defer { index += length }
            return Substring(String(decoding: bytes[index..<(index + length)], as: UTF8.self))
        }
    }
}
