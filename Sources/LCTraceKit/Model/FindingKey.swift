/// What a finding is about, whatever the place in the log it was found at: its rule, the controller's class, the
/// base name of its input, and its message with everything that changes from one run to the next (line numbers,
/// times, durations, instance addresses and numbers) normalised away. Baselines and fingerprints are keyed on it, so
/// that a known problem stays known when the log shifts.
public struct FindingKey: Hashable, Sendable, Comparable {
    public var rule: String
    /// The controller's class (`Class` for `Class#2` or `Class@0x…`), or nil for a finding about no controller.
    public var controllerClass: String?
    /// The input's last path component (`<stdin>` for standard input).
    public var input: String
    public var message: String

    public init(rule: String, controllerClass: String?, input: String, message: String) {
        self.rule = rule
        self.controllerClass = controllerClass
        self.input = input
        self.message = message
    }

    public init(_ finding: Finding) {
        self.init(rule: finding.rule.rawValue,
                  controllerClass: finding.controller.map(FindingKey.className(ofController:)),
                  input: FindingKey.baseName(finding.input),
                  message: FindingKey.normalized(finding.message))
    }

    public static func < (lhs: FindingKey, rhs: FindingKey) -> Bool {
        (lhs.input, lhs.rule, lhs.controllerClass ?? "", lhs.message) < (rhs.input, rhs.rule, rhs.controllerClass ?? "", rhs.message)
    }

    /// A stable 64-bit FNV-1a hash of the key, in hex: the same key gives the same fingerprint on every machine.
    public var fingerprint: String {
        FindingKey.fingerprint(of: [rule, controllerClass ?? "", input, message])
    }

    /// A stable 64-bit FNV-1a hash of the parts, in hex (16 digits), each part followed by the unit separator (0x1F).
    static func fingerprint(of parts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            hash = (hash ^ 0x1f) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `Class#2` → `Class`, `Class@0x6000…` → `Class`.
    static func className(ofController id: String) -> String {
        if let cut = id.firstIndex(where: { $0 == "#" || $0 == "@" }) { return String(id[..<cut]) }
        return id
    }

    static func baseName(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }

    /// The message with instance suffixes (`#2`, `@0x…`) dropped, hex addresses written `0x…`, and every other
    /// number that stands alone (a line, a time, a duration) written `#`. Digits inside a name
    /// (`DetailViewController2`) stay.
    static func normalized(_ message: String) -> String {
        let scalars = Array(message.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || scalar == "_" || ("0"..."9").contains(scalar)
        }
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
            isDigit(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let afterName = index > 0 && isNameScalar(scalars[index - 1])
            // `#2` after a name: an instance number, dropped.
            if scalar == "#", afterName, index + 1 < scalars.count, isDigit(scalars[index + 1]) {
                index += 1
                while index < scalars.count, isDigit(scalars[index]) { index += 1 }
                continue
            }
            // `@0x…` after a name: an address, dropped.
            if scalar == "@", afterName, index + 2 < scalars.count, scalars[index + 1] == "0", scalars[index + 2] == "x" {
                index += 3
                while index < scalars.count, isHexDigit(scalars[index]) { index += 1 }
                continue
            }
            if scalar == "0", !afterName, index + 2 < scalars.count, scalars[index + 1] == "x", isHexDigit(scalars[index + 2]) {
                index += 2
                while index < scalars.count, isHexDigit(scalars[index]) { index += 1 }
                out.append(contentsOf: "0x…".unicodeScalars)
                continue
            }
            if isDigit(scalar), !afterName {
                // A number: digits, with separators between digit runs (`12:00:01.250`, `1,250.5`).
                while index < scalars.count {
                    if isDigit(scalars[index]) { index += 1; continue }
                    if [":", ".", ","].contains(scalars[index]), index + 1 < scalars.count, isDigit(scalars[index + 1]) {
                        index += 1
                        continue
                    }
                    break
                }
                out.append("#")
                continue
            }
            out.append(scalar)
            index += 1
        }
        return String(out)
    }
}
