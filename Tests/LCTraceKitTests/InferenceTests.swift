import Foundation
import Testing
@testable import LCTraceKit

/// Telling apart instances of one class logged by class name alone, and the navigation stacks that help.
@Suite struct InferenceTests {
    /// A second FeedViewController pushed onto a FeedViewController, then popped.
    @Test func sameClassPushedAndPoppedIsLegal() throws {
        let lines = ["viewDidLoad", "viewWillAppear:", "viewDidAppear:", "viewWillDisappear:", "loadView", "viewDidLoad",
                     "viewWillAppear:", "viewDidDisappear:", "viewDidAppear:", "viewWillDisappear:", "viewWillAppear:",
                     "viewDidDisappear:", "viewDidAppear:", "dealloc"]
        let times = ["37.329", "37.330", "37.340", "39.000", "39.001", "39.002", "39.003", "39.510", "39.511", "42.000",
                     "42.001", "42.500", "42.501", "42.510"]
        let text = zip(times, lines).map { "2016-03-17 16:02:\($0) LifeCycle[2148:117099]  FeedViewController    >>>>    \($1)" }
            .joined(separator: "\n")
        let result = try analyze(text: text)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        let session = try #require(result.sessions.first)
        #expect(session.transitions.map(\.kind) == [.appear, .push, .pop])
        #expect(session.transitions.map(\.to) == ["FeedViewController", "FeedViewController#2", "FeedViewController"])
        #expect(session.controllers.map(\.finalPhase) == [.visible, .dead])
        #expect(session.controllers[1].firstLine == 5)
    }

    @Test func sameClassPresentedOverItselfAndAsASheetIsLegal() throws {
        let text = """
            A viewDidLoad()
            A viewWillAppear(_:)
            A viewDidAppear(_:)
            A viewDidLoad()
            A viewWillDisappear(_:)
            A viewWillAppear(_:)
            A viewDidAppear(_:)
            A viewDidDisappear(_:)
            A viewDidLoad()
            A viewWillAppear(_:)
            A viewDidAppear(_:)
            A viewWillDisappear(_:)
            A viewWillAppear(_:)
            A viewDidAppear(_:)
            A viewWillDisappear(_:)
            A viewDidDisappear(_:)
            A deinit
            A viewWillDisappear(_:)
            A viewWillAppear(_:)
            A viewDidAppear(_:)
            A viewDidDisappear(_:)
            A deinit
            """
        let result = try analyze(text: text)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        let session = try #require(result.sessions.first)
        #expect(session.transitions.map(\.kind) == [.appear, .present, .sheetPresent, .sheetDismissCancelled, .sheetDismiss, .dismiss])
        #expect(session.controllers.map(\.finalPhase) == [.visible, .dead, .dead])
        #expect(session.controllers.allSatisfy { $0.identity == .inferred })
    }

    /// A tab's pushed controller stays alive while another tab's stack is popped: no leak.
    @Test func aControllerAliveInAnotherTabIsNoLeak() throws {
        let steps = [
            "A viewDidLoad()", "A viewWillAppear(_:)", "A viewDidAppear(_:)",
            "A viewWillDisappear(_:)", "B viewDidLoad()", "B viewWillAppear(_:)", "A viewDidDisappear(_:)", "B viewDidAppear(_:)",
            "C viewDidLoad()", "C viewWillAppear(_:)", "B viewWillDisappear(_:)", "B viewDidDisappear(_:)", "C viewDidAppear(_:)",
            "C viewWillDisappear(_:)", "D viewDidLoad()", "D viewWillAppear(_:)", "C viewDidDisappear(_:)", "D viewDidAppear(_:)",
            "B viewWillAppear(_:)", "D viewWillDisappear(_:)", "D viewDidDisappear(_:)", "B viewDidAppear(_:)",
            "B viewWillDisappear(_:)", "A viewWillAppear(_:)", "B viewDidDisappear(_:)", "A viewDidAppear(_:)", "B deinit",
            "A viewWillLayoutSubviews()",
        ]
        let text = steps.enumerated().map { index, step in
            let name = String(step.prefix(1))
            let micros = 100_000 + index * 500_000
            return String(format: "2024-02-09 09:14:%02d.%06d+0000 ShopApp[4410:1982201] <ShopApp.%@ViewController: 0x60000%@> %@",
                          micros / 1_000_000, micros % 1_000_000, name, name, String(step.dropFirst(2)))
        }.joined(separator: "\n")
        let result = try analyze(text: text)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(result.sessions.first?.transitions.map(\.kind) == [.appear, .push, .tabSwitch, .push, .tabSwitch, .pop])
    }

    /// The controller a pop-to-root takes off without a callback, never deallocated, in a class that logs dealloc.
    @Test func aSilentIntermediateIsReportedAtTheEndAsInfoUnlessAddressed() throws {
        func log(_ name: (String) -> String) -> String {
            [("List", "viewDidLoad()"), ("List", "deinit"),
             ("Root", "viewDidLoad()"), ("Root", "viewWillAppear(_:)"), ("Root", "viewDidAppear(_:)"),
             ("Root", "viewWillDisappear(_:)"), ("List", "viewDidLoad()"), ("List", "viewWillAppear(_:)"),
             ("Root", "viewDidDisappear(_:)"), ("List", "viewDidAppear(_:)"),
             ("List", "viewWillDisappear(_:)"), ("Item", "viewDidLoad()"), ("Item", "viewWillAppear(_:)"),
             ("List", "viewDidDisappear(_:)"), ("Item", "viewDidAppear(_:)"),
             ("Item", "viewWillDisappear(_:)"), ("Root", "viewWillAppear(_:)"), ("Item", "viewDidDisappear(_:)"),
             ("Root", "viewDidAppear(_:)"), ("Item", "deinit")]
                .enumerated().map { index, step in "\(name(step.0 == "List" && index < 2 ? "Old" + step.0 : step.0)) \(step.1)" }
                .joined(separator: "\n")
        }
        // The first List has a class of its own in the addressed log, so that both logs have a List deallocating.
        let byName = try analyze(text: log { $0 == "OldList" ? "List" : $0 })
        #expect(byName.findings.map(\.rule) == [.possibleLeak])
        #expect(byName.findings.first?.severity == .info)
        #expect(byName.findings.first?.line == 19)
        #expect(byName.sessions.first?.transitions.last?.kind == .popToRoot)
        let addresses = ["OldList": "0x10", "List": "0x20", "Root": "0x30", "Item": "0x40"]
        let addressed = try analyze(text: log { "<M.\($0 == "OldList" ? "List" : $0): \(addresses[$0]!)>" })
        #expect(addressed.findings.map(\.rule) == [.possibleLeak])
        #expect(addressed.findings.first?.severity == .warning)
    }
}
