import Foundation
import Testing
@testable import LCTraceKit

/// Console output shaped like what developers publish (`Fixtures/real-shapes`): every line must be read as its
/// `.expect` file says, with its disposition, controller class and callback.
@Suite struct RealShapesTests {
    static let directory = Fixtures.repositoryRoot.appendingPathComponent("Tests/LCTraceKitTests/Fixtures/real-shapes")

    static var fixtures: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".log") }.map { String($0.dropLast(4)) }.sorted()
    }

    /// A row of an `.expect` file: `LINE<TAB>DISPOSITION<TAB>CLASS<TAB>CALLBACK`, `-` for none.
    struct Expected: Equatable, CustomStringConvertible {
        var line: Int, disposition: String, className: String, callback: String
        var description: String { "\(line) \(disposition) \(className) \(callback)" }
    }

    static func expected(_ name: String) throws -> [Expected] {
        let text = try String(contentsOf: directory.appendingPathComponent(name + ".expect"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { row in
            let cells = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Expected(line: Int(cells[0]) ?? -1, disposition: cells[1], className: cells[2], callback: cells[3])
        }
    }

    /// What lctrace read, in the `.expect` shape: the anonymous class is `-`, UIKit's notices by their short names.
    static func read(_ name: String, jobs: Int = 1) throws -> [Expected] {
        var readings: [Expected] = []
        let analyzer = try Analyzer(options: AnalysisOptions(), sink: RecordingSink())
        analyzer.lineObserver = { reading in
            var className = reading.className ?? "-"
            if className == MessageParser.anonymousClass { className = "-" }
            var callback = reading.callback?.rawValue ?? "-"
            if reading.disposition != "lifecycle", reading.disposition != "notice" { (className, callback) = ("-", "-") }
            if let notice = reading.callback?.noticeName { callback = notice }
            if reading.callback?.family == .marker { className = "-" }
            readings.append(Expected(line: reading.line, disposition: reading.disposition, className: className, callback: callback))
        }
        try analyzer.analyze(.file(directory.appendingPathComponent(name + ".log").path))
        analyzer.finish()
        return readings
    }

    @Test func thereAreFixtures() {
        #expect(Self.fixtures.count >= 15)
    }

    @Test(arguments: Self.fixtures)
    func everyLineIsReadAsExpected(_ name: String) throws {
        let expected = try Self.expected(name)
        let read = try Self.read(name)
        #expect(read.count == expected.count, "\(name): \(read.count) lines read, \(expected.count) expected")
        for (got, want) in zip(read, expected) where got != want {
            Issue.record("\(name).log:\(want.line): read \(got), expected \(want)")
        }
    }
}

extension Callback {
    /// The short names the fixtures give UIKit's notices.
    var noticeName: String? {
        switch self {
        case .unbalancedAppearanceNotice: return "unbalanced-appearance"
        case .appearanceCalledDirectlyNotice: return "appearance-called-directly"
        case .presentNotInWindowNotice: return "present-not-in-window"
        default: return nil
        }
    }
}
