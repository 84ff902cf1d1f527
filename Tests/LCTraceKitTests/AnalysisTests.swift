import Testing
@testable import LCTraceKit

@Suite struct SeedTraceTests {
    @Test(arguments: ["seed-launch-background-kill.log", "seed-push-pop.log", "seed-present-dismiss.log", "seed-memory-warning.log"])
    func seedTracesAreSilent(_ name: String) throws {
        let result = try analyze(sample: name)
        #expect(result.problems.isEmpty, "\(result.problems.map(\.message))")
        #expect(result.summary?.skippedLines == 0)
        #expect(result.sessions.count == 1)
    }

    @Test func pushAndPop() throws {
        let session = try #require(try analyze(sample: "seed-push-pop.log").sessions.first)
        #expect(session.transitions.map(\.kind) == [.appear, .push, .pop])
        #expect(session.transitions[1].from == "ViewController")
        #expect(session.transitions[1].to == "SecondViewController")
        #expect(session.transitions[1].durationMs == 510)
        #expect(session.controllers.map(\.id) == ["ViewController", "SecondViewController"])
        #expect(session.controllers[0].loadToFirstAppearMs == 11)
        #expect(session.process == "LifeCycle")
        #expect(session.pid == 2044)
    }

    @Test func presentAndDismissWithAGluedLine() throws {
        let result = try analyze(sample: "seed-present-dismiss.log")
        let session = try #require(result.sessions.first)
        #expect(session.transitions.map(\.kind) == [.present, .dismiss])
        #expect(result.inputs.first?.gluedRecords == 1)
        #expect(result.inputs.first?.events == 10)
        #expect(session.controllers[1].events.last?.line == 9)
        #expect(session.controllers[1].events.last?.callback == .viewDidDisappear)
    }

    @Test func memoryWarningReloadIsLegalAndAPop() throws {
        let session = try #require(try analyze(sample: "seed-memory-warning.log").sessions.first)
        #expect(session.transitions.map(\.kind) == [.pop])
        #expect(session.controllers.first { $0.id == "ViewController" }?.events.map(\.callback)
                == [.didReceiveMemoryWarning, .viewDidLoad, .viewWillAppear, .viewDidAppear])
    }

    @Test func launchBackgroundKill() throws {
        let session = try #require(try analyze(sample: "seed-launch-background-kill.log").sessions.first)
        #expect(session.app.finalPhase == .terminated)
        #expect(session.transitions.map(\.kind) == [.appear, .disappear])
        #expect(session.app.events.first?.callback == .main)
    }
}

@Suite struct RuleSampleTests {
    /// Each rule's sample triggers exactly that rule, once, at the line given.
    static let cases: [(Rule, Int, Severity)] = [
        (.didAppearWithoutWillAppear, 6, .error),
        (.didDisappearWithoutWillDisappear, 4, .error),
        (.didAppearTwice, 4, .warning),
        (.unbalancedWillCallback, 3, .warning),
        (.isAppearingOutsideAppearance, 5, .error),
        (.appearanceBeforeViewDidLoad, 2, .error),
        (.viewLoadedTwice, 4, .error),
        (.callbackAfterDealloc, 7, .error),
        (.backgroundWithoutResignActive, 4, .error),
        (.activeFromBackgroundWithoutForeground, 6, .error),
        (.transitionOrder, 8, .warning),
        (.transitionUnrecognized, 8, .warning),
        (.viewUnloadedWhileVisible, 5, .error),
        (.viewReloadedWhileVisible, 5, .warning),
        (.deallocWhileOnScreen, 4, .warning),
        (.didMoveWithoutWillMove, 11, .warning),
        (.unbalancedAppearanceTransition, 4, .warning),
        (.appearanceMethodCalledDirectly, 7, .warning),
        (.presentNotInWindowHierarchy, 2, .warning),
        (.presentWhilePresenting, 7, .warning),
        (.presentWhileTransitioning, 6, .warning),
        (.dismissWhileTransitioning, 6, .warning),
        (.presentOnDetachedController, 5, .warning),
        (.presentAlreadyPresented, 7, .error),
        (.callbackOffMainThread, 6, .error),
        (.possibleLeak, 22, .warning),
        (.willAppearTwice, 4, .warning),
        (.callbackWithoutLiveInstance, 14, .warning),
        (.loadLoop, 6, .warning),
        (.logGap, 9, .info),
        (.viewAppearedTwice, 3, .warning),
        (.viewAppearedWhileCovered, 10, .warning),
        (.stateCallbackBeforeLaunch, 2, .error),
        (.launchRepeated, 5, .error),
        (.unexpectedStateCallback, 3, .warning),
        (.sceneNotConnected, 3, .warning),
        (.appCallbacksWithScenes, 5, .warning),
        (.slowTransition, 8, .warning),
        (.sessionEndedAbruptly, 9, .info),
        (.clockWentBack, 7, .info),
        (.noLifecycleEvents, 1, .warning),
        (.unreadLifecycleLines, 4, .warning),
        (.newTransition, 26, .warning),
        (.newController, 25, .warning),
        (.missingTransition, 1, .warning),
        (.slowerThanModel, 10, .warning),
    ]

    /// The legal patterns: each sample must produce no finding at all.
    static let legalSamples = [
        "interactive-pop-cancelled.log", "sheet-present-dismiss.log", "tab-switch.log", "page-view-controller.log",
        "pop-to-root.log", "child-containment.log", "memory-warning-ios5.log", "scene-lifecycle.log", "legal-oddities.log",
    ]

    @Test(arguments: Self.legalSamples)
    func legalSampleIsSilent(_ name: String) throws {
        let result = try analyze(sample: name)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(result.summary?.events ?? 0 > 0)
    }

    @Test func everyRuleHasASample() {
        #expect(Set(Self.cases.map(\.0)) == Set(Rule.allCases))
    }

    @Test(arguments: Self.cases)
    func ruleFiresOnItsSample(_ rule: Rule, line: Int, severity: Severity) throws {
        var options = AnalysisOptions()
        options.rules.slowTransitionMs = 1000
        let result = try analyze(sample: "\(rule.rawValue).log", options: try LCTraceKitTests.options(forSample: "\(rule.rawValue).log", options))
        #expect(result.findings.map(\.rule) == [rule])
        #expect(result.findings.first?.line == line)
        #expect(result.findings.first?.severity == severity)
        #expect(result.findings.first?.input.hasSuffix("\(rule.rawValue).log") == true)
    }
}

@Suite struct SessionTests {
    @Test func mainAndPidChangesStartSessions() throws {
        let text = """
        2016-03-17 16:02:36.940 LifeCycle[2148:117099]  main()
        2016-03-17 16:02:37.329 LifeCycle[2148:117099]  ViewController    >>>>    viewDidLoad
        2016-03-17 16:05:00.000 LifeCycle[2200:120000]  ViewController    >>>>    viewDidLoad
        2016-03-17 16:06:00.000 LifeCycle[2200:120000]  main()
        2016-03-17 16:06:00.100 LifeCycle[2200:120000]  ViewController    >>>>    viewDidLoad
        """
        let result = try analyze(text: text)
        #expect(result.sessions.map(\.pid) == [2148, 2200, 2200])
        #expect(result.sessions.map(\.startLine) == [1, 3, 4])
        #expect(result.sessions.map(\.index) == [1, 2, 3])
        #expect(result.findings.isEmpty)
    }

    @Test func interleavedProcessesKeepTheirOwnSessions() throws {
        let text = """
        2024-02-09 09:14:03.118204+0100 ShopApp[4410:1982201] ProductViewController viewDidLoad()
        2024-02-09 09:14:03.120011+0100 ShopApp[4410:1982201] ProductViewController viewWillAppear(_:)
        2024-02-09 09:14:07.230419+0100 ShopShare[4471:1990012] ShareViewController viewDidLoad()
        2024-02-09 09:14:07.231006+0100 ShopApp[4410:1982201] ProductViewController viewDidAppear(_:)
        2024-02-09 09:14:07.232150+0100 ShopShare[4471:1990012] ShareViewController viewWillAppear(_:)
        2024-02-09 09:14:07.610442+0100 ShopShare[4471:1990012] ShareViewController viewDidAppear(_:)
        2024-02-09 09:14:09.010036+0100 ShopShare[4471:1990012] ShareViewController viewWillDisappear(_:)
        2024-02-09 09:14:09.011590+0100 ShopApp[4410:1982201] ProductViewController viewWillDisappear(_:)
        2024-02-09 09:14:09.405214+0100 ShopShare[4471:1990012] ShareViewController viewDidDisappear(_:)
        2024-02-09 09:14:09.406932+0100 ShopApp[4410:1982201] ProductViewController viewDidDisappear(_:)
        2024-02-09 09:15:00.000000+0100 ShopShare[4502:1990100] ShareViewController viewDidLoad()
        """
        let result = try analyze(text: text)
        // ShopShare's second pid is a new launch of it: its first session ends there; ShopApp's stays open.
        #expect(result.sessions.map(\.pid) == [4471, 4410, 4502])
        #expect(result.sessions.map(\.index) == [2, 1, 3])
        #expect(result.sessions.map(\.startLine) == [3, 1, 11])
        #expect(result.sessions.map(\.endLine) == [9, 10, 11])
        #expect(result.sessions.map { $0.controllers.map(\.className) } == [["ShareViewController"], ["ProductViewController"], ["ShareViewController"]])
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
    }

    @Test func mainEndsEveryOpenSession() throws {
        let text = """
        2024-02-09 09:14:03.118204+0100 ShopApp[4410:1982201] ProductViewController viewDidLoad()
        2024-02-09 09:14:07.230419+0100 ShopShare[4471:1990012] ShareViewController viewDidLoad()
        2024-02-09 09:14:08.000000+0100 ShopApp[4520:1990300] main()
        2024-02-09 09:14:08.100000+0100 ShopShare[4471:1990012] ShareViewController viewWillAppear(_:)
        """
        let result = try analyze(text: text)
        #expect(result.sessions.map(\.pid) == [4410, 4471, 4520, 4471])
        #expect(result.sessions.map(\.index) == [1, 2, 3, 4])
    }

    @Test func noMoreThanEightSessionsStayOpen() throws {
        let lines = (0..<10).map { "2024-02-09 09:14:0\($0).000000+0100 App\($0)[\(100 + $0):1] FeedViewController viewDidLoad()" }
        let result = try analyze(text: (lines + [lines[0]]).joined(separator: "\n"))
        // The ninth process ends the session idle longest (App0's), the tenth App1's; App0 then opens a new one.
        #expect(result.sessions.map(\.pid) == [100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 100])
        #expect(result.sessions.map(\.startLine) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    }

    @Test func bareLogsSplitOnASecondLaunch() throws {
        let text = """
        AppDelegate application(_:didFinishLaunchingWithOptions:)
        ViewController viewDidLoad()
        AppDelegate application(_:didFinishLaunchingWithOptions:)
        ViewController viewDidLoad()
        """
        let result = try analyze(text: text)
        #expect(result.inputs.first?.format == "bare")
        #expect(result.sessions.count == 2)
        #expect(result.problems.isEmpty)
    }

    @Test func bareLogsSplitAtWillFinishLaunchingToo() throws {
        let launch = "AppDelegate application(_:willFinishLaunchingWithOptions:)\nAppDelegate application(_:didFinishLaunchingWithOptions:)\nAppDelegate applicationDidBecomeActive(_:)\n"
        let result = try analyze(text: launch + launch)
        #expect(result.sessions.map(\.startLine) == [1, 4])
        #expect(result.problems.isEmpty)
    }

    @Test func severalInputsKeepTheirNamesAndLineNumbers() throws {
        let result = try analyze(paths: [Fixtures.sample("seed-push-pop.log"), Fixtures.sample("did-appear-twice.log")])
        #expect(result.sessions.map(\.index) == [1, 2])
        #expect(result.sessions[1].input.hasSuffix("did-appear-twice.log"))
        #expect(result.problems.first?.line == 4)
        #expect(result.problems.first?.session == 2)
        #expect(result.summary?.lines == 21)
    }

    @Test func everyLineGetsOneDisposition() throws {
        let text = """
        2016-03-17 16:02:36.940 LifeCycle[2148:117099]  main()

        //启动程序
        2016-03-17 16:02:37.329 LifeCycle[2148:117099]  ViewController    >>>>    viewDidLoad
        2016-03-17 16:02:37.330 LifeCycle[2148:117099]  Loaded 20 items
            ViewController viewWillAppear:
        2016-03-17 16:02:37.331 LifeCycle[2148:117099]  Failed to call viewDidAppear on reload
        """
        let result = try analyze(text: text)
        let summary = try #require(result.summary)
        #expect(summary.lines == 7)
        #expect(summary.parsedLines == 6)
        #expect(summary.skipped(.blank) == 1)
        #expect(summary.skipped(.unrecognized) == 0)
        #expect(summary.lines(.notice) == 1)
        #expect(summary.lines(.lifecycle) == 2)
        #expect(summary.lines(.other) == 2)
        #expect(summary.lines(.unread) == 1)
        #expect(summary.unread.map(\.line) == [7])
        #expect(summary.events == 3)
        #expect(result.sessions.first?.controllers.first?.eventCount == 2)
    }

    @Test func aForcedFormatSkipsLinesOutsideIt() throws {
        let text = """
        2016-03-17 16:02:36.940 LifeCycle[2148:117099]  main()
        //启动程序
        2016-03-17 16:02:37.329 LifeCycle[2148:117099]  ViewController    >>>>    viewDidLoad
        """
        var options = AnalysisOptions()
        options.lineFormat = .fixed(.nslogClassic)
        let summary = try #require(try analyze(text: text, options: options).summary)
        #expect(summary.parsedLines == 2)
        #expect(summary.skipped(.unrecognized) == 1)
    }

    @Test func noEventsKeepsCountsOnly() throws {
        var options = AnalysisOptions()
        options.keepEvents = false
        let session = try #require(try analyze(sample: "seed-push-pop.log", options: options).sessions.first)
        #expect(session.controllers.allSatisfy { $0.events.isEmpty })
        #expect(session.controllers.map(\.eventCount) == [7, 6])
        #expect(session.transitions.count == 3)
    }
}

@Suite struct ControllerIDTests {
    /// An id is the class; then `@` and the address when the log names one (an empty one included); then `#` and the
    /// ordinal when it is not the first: each number of digits, non-ASCII names, and every combination.
    @Test func idsNameClassAddressAndOrdinal() {
        let cases: [(className: String, address: String?, ordinal: Int, id: String)] = [
            ("ListViewController", nil, 1, "ListViewController"),
            ("ListViewController", nil, 2, "ListViewController#2"),
            ("ListViewController", nil, 9, "ListViewController#9"),
            ("ListViewController", nil, 10, "ListViewController#10"),
            ("A", nil, 1_234_567_890, "A#1234567890"),
            ("Shop.CartViewController", "0x7fa1c2d0", 1, "Shop.CartViewController@0x7fa1c2d0"),
            ("Shop.CartViewController", "0x7fa1c2d0", 3, "Shop.CartViewController@0x7fa1c2d0#3"),
            ("VueÉcranPrincipalController", "id-7", 12, "VueÉcranPrincipalController@id-7#12"),
            ("X", "", 1, "X@"),
            ("X", "", 100, "X@#100"),
        ]
        for entry in cases {
            #expect(ControllerReport.id(className: entry.className, address: entry.address, ordinal: entry.ordinal) == entry.id)
        }
    }
}

@Suite struct ContainmentPairTests {
    /// Both containment pairs open and close in the same controller, interleaved: each closing callback is legal while
    /// its own pair is open, and the second close of each is flagged at its line, whatever the other pair's state.
    @Test func eachPairIsKeptApart() throws {
        let text = """
            ContainerViewController viewDidLoad()
            ChildViewController willMove(toParent:)
            ChildViewController beginAppearanceTransition(_:animated:)
            ChildViewController viewDidLoad()
            ChildViewController viewWillAppear(_:)
            ChildViewController viewDidAppear(_:)
            ChildViewController endAppearanceTransition()
            ChildViewController didMove(toParent:)
            ChildViewController endAppearanceTransition()
            ChildViewController didMove(toParent:)
            """
        let result = try analyze(text: text)
        #expect(result.findings.map(\.rule) == [.unbalancedAppearanceTransition, .didMoveWithoutWillMove])
        #expect(result.findings.map(\.line) == [9, 10])
    }
}

@Suite struct ControllerAutomatonTests {
    @Test func flatTablesIndexByCaseOrder() {
        #expect(Callback.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
        #expect(ControllerPhase.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
        #expect(TransitionKind.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
        #expect(ActivityPhase.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
        #expect(ActivityStep.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
        // `CaseOrdinal` reads the case from the enum's one byte.
        #expect([MemoryLayout<Callback>.size, MemoryLayout<ControllerPhase>.size, MemoryLayout<TransitionKind>.size,
                 MemoryLayout<ActivityPhase>.size, MemoryLayout<ActivityStep>.size] == [1, 1, 1, 1, 1])
        for phase in ControllerPhase.allCases {
            for callback in Callback.allCases {
                let expected = ControllerAutomaton.table[phase]?[callback]
                    ?? (phase == .dead ? .violation(.callbackAfterDealloc, next: .dead) : .to(phase))
                #expect(ControllerAutomaton.outcome(of: callback, in: phase) == expected)
            }
        }
    }

    /// The templates' lookup, held in permanent tables with each template's logged calls as bits, answers as the
    /// templates themselves do: for every logged call and every template's shape, the first template of that shape
    /// whose set holds the call.
    @Test func templateLookupAgreesWithTheTemplates() {
        for declared in TransitionKind.allCases {
            for template in TransitionTemplates.all {
                let shape = TransitionShape(template.steps)
                let expected = TransitionTemplates.all.first { TransitionShape($0.steps) == shape && $0.satisfies.contains(declared) }
                #expect(TransitionTemplates.accepts(declared, shape)?.source == expected?.source, "\(declared) \(template.kind)")
            }
            let first = TransitionTemplates.all.first { $0.kind == declared }
            #expect(TransitionTemplates.declared(declared)?.source == first?.source)
            #expect(TransitionTemplates.direction(of: declared) == first?.direction)
        }
    }

    /// The lookup's tables, position by position, are the templates' own: each template's kind, direction and
    /// requirement, and the positions a shape matches are those of the templates of that shape, in table order.
    @Test func templateLookupTablesFollowTheTemplates() {
        let lookup = TemplateLookup.shared
        let all = TransitionTemplates.all
        #expect(lookup.kinds.count == all.count)
        #expect(lookup.kinds.indices.map { lookup.kinds[$0] } == all.map(\.kind))
        #expect(lookup.directions.indices.map { lookup.directions[$0] } == all.map(\.direction))
        #expect(lookup.requirements.indices.map { lookup.requirements[$0] } == all.map(\.requirement))
        for template in all {
            let shape = TransitionShape(template.steps)
            var matched: [Int] = []
            lookup.forEachMatching(shape) { matched.append($0); return true }
            #expect(matched == all.indices.filter { TransitionShape(all[$0].steps) == shape }, "\(template.kind)")
        }
    }

    /// Tables of the kind a `static let` holds, made once for the test run.
    private static let someWords = PermanentTable<UInt32>([7, 0, 42, .max])
    private static let nothing = PermanentTable<UInt8>([])

    @Test func permanentTableHoldsItsElementsInOrder() {
        #expect(Self.someWords.count == 4)
        #expect(Self.someWords.indices.map { Self.someWords[$0] } == [7, 0, 42, .max])
        #expect(Self.nothing.count == 0)
        #expect(Self.nothing.indices.isEmpty)
    }

    /// A appears at launch, then B is pushed over it.
    static let launchThenPush = """
        A viewDidLoad()
        A viewWillAppear(_:)
        A viewDidAppear(_:)
        A viewWillDisappear(_:)
        B viewDidLoad()
        B viewWillAppear(_:)
        A viewDidDisappear(_:)
        B viewDidAppear(_:)
        """

    /// B (on top) starts a swipe back to A, and the user lets go: §5's cancelled interactive pop.
    static let cancelledSwipeBack = """
        B viewWillDisappear(_:)
        A viewWillAppear(_:)
        A viewWillDisappear(_:)
        A viewDidDisappear(_:)
        B viewWillAppear(_:)
        B viewDidAppear(_:)
        """

    @Test func cancelledInteractivePopIsLegal() throws {
        let text = Self.launchThenPush + "\n" + Self.cancelledSwipeBack
        let result = try analyze(text: text)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(result.sessions.first?.transitions.map(\.kind) == [.appear, .push, .interactivePopCancelled])
    }

    @Test func tabSwitchAndPageScrollAreLegal() throws {
        let text = """
        First viewWillAppear(_:)
        First viewDidAppear(_:)
        Second viewWillAppear(_:)
        First viewWillDisappear(_:)
        First viewDidDisappear(_:)
        Second viewDidAppear(_:)
        Third viewWillAppear(_:)
        Second viewWillDisappear(_:)
        Third viewDidAppear(_:)
        Second viewDidDisappear(_:)
        """
        let result = try analyze(text: text)
        #expect(result.findings.isEmpty)
        #expect(result.sessions.first?.transitions.map(\.kind) == [.appear, .tabSwitch, .pageScroll])
    }

    @Test func sameClassPushWithoutAddressesIsASecondInstanceAndLegal() throws {
        let text = """
        Detail viewDidLoad()
        Detail viewWillAppear(_:)
        Detail viewDidAppear(_:)
        Detail viewWillDisappear(_:)
        Detail viewDidLoad()
        Detail viewWillAppear(_:)
        Detail viewDidDisappear(_:)
        Detail viewDidAppear(_:)
        """
        let result = try analyze(text: text)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        let session = try #require(result.sessions.first)
        #expect(session.controllers.map(\.id) == ["Detail", "Detail#2"])
        #expect(session.controllers.map(\.identity) == [.inferred, .inferred])
        #expect(session.transitions.last?.kind == .push)
        #expect(session.transitions.last?.to == "Detail#2")
    }

    @Test func moduleQualifiedAndBareSpellingsAreOneInstance() throws {
        // The parser numbers class names after dropping the module, so both spellings find the same instance.
        let text = """
        -[ShopApp.Detail viewDidLoad]
        Detail >>>> viewWillAppear:
        ShopApp.Detail viewDidAppear(_:)
        Unbalanced calls to begin/end appearance transitions for <ShopApp.Detail>.
        Other viewDidLoad()
        """
        let result = try analyze(text: text)
        let session = try #require(result.sessions.first)
        #expect(session.controllers.map(\.id) == ["Detail", "Other"])
        #expect(session.controllers.first?.eventCount == 4)
        #expect(session.controllers.first?.finalPhase == .visible)
    }

    @Test func deallocatedAddressReusedByANewInstanceIsLegal() throws {
        let text = """
        <App.Detail: 0x1> viewDidLoad()
        <App.Detail: 0x1> deinit
        <App.Detail: 0x1> viewDidLoad()
        <App.Detail: 0x1> viewWillAppear(_:)
        """
        let result = try analyze(text: text)
        #expect(result.problems.isEmpty)
        #expect(result.sessions.first?.controllers.map(\.id) == ["Detail@0x1", "Detail@0x1#2"])
    }

    @Test func logsThatStartLateAreNotFlagged() throws {
        let text = """
        Home viewWillDisappear(_:)
        Detail viewWillAppear(_:)
        Home viewDidDisappear(_:)
        Detail viewDidAppear(_:)
        """
        let result = try analyze(text: text)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        // Read, not passed over: four callbacks of two controllers, one transition between them.
        #expect(result.inputs.first?.lifecycleLines == 4)
        #expect(result.sessions.first?.controllers.map(\.className) == ["Home", "Detail"])
        #expect(result.sessions.first?.transitions.count == 1)
        #expect(result.sessions.first?.transitions.first?.controllers.count == 2)
    }

    @Test func declaredPushThatDisappearsBeforeTheOtherAppearsIsFlagged() throws {
        let text = """
        Home viewDidLoad()
        Home viewWillAppear(_:)
        Home viewDidAppear(_:)
        Nav pushViewController(_:animated:)
        Home viewWillDisappear(_:)
        Home viewDidDisappear(_:)
        Detail viewDidLoad()
        Detail viewWillAppear(_:)
        Detail viewDidAppear(_:)
        """
        let result = try analyze(text: text)
        #expect(result.findings.map(\.rule) == [.transitionOrder])
        #expect(result.findings.first?.line == 6)
        #expect(result.findings.first?.expected == "Detail viewWillAppear")
        #expect(result.findings.first?.actual == "Home viewDidDisappear")
    }

    @Test func declaredPopAcceptsACancelledSwipe() throws {
        let text = Self.launchThenPush + "\nNav popViewController(animated:)\n" + Self.cancelledSwipeBack
        let result = try analyze(text: text)
        #expect(result.findings.isEmpty)
        #expect(result.sessions.first?.transitions.last?.kind == .interactivePopCancelled)
        #expect(result.sessions.first?.transitions.last?.declared == .pop)
    }
}

@Suite struct NamesPastTheNumberingBoundTests {
    /// The parser numbers the first 4096 class names and spellings; later ones travel as text. Reports must name
    /// them the same either way: controllers, findings and the post-mortem's last events.
    @Test func classesPastTheBoundAreNamedAsLogged() throws {
        let header = "2016-03-17 16:02:37.277 LifeCycle[2148:117099] "
        var lines = [header + "main()", header + "AppDelegate >>>> applicationDidBecomeActive:"]
        for number in 0..<4200 {
            lines.append(header + "Screen\(number)ViewController >>>> viewDidLoad")
        }
        // A deviation and a post-mortem on classes past the bound (the session ends in the foreground).
        lines.append(header + "Screen4199ViewController >>>> viewDidAppear:")
        lines.append(header + "Unbalanced calls to begin/end appearance transitions for <Screen4150ViewController: 0x7f8>.")
        let result = try analyze(text: lines.joined(separator: "\n") + "\n")
        let session = try #require(result.sessions.first)
        #expect(session.controllers.count == 4201)
        #expect(session.controllers[4199].className == "Screen4199ViewController")
        #expect(session.controllers[4095].className == "Screen4095ViewController")
        #expect(result.findings.contains { $0.rule == .didAppearWithoutWillAppear && $0.controller == "Screen4199ViewController"
            && $0.message.hasPrefix("viewDidAppear on Screen4199ViewController") })
        #expect(result.findings.contains { $0.rule == .unbalancedAppearanceTransition && $0.controller == "Screen4150ViewController@0x7f8" })
        let postMortem = try #require(result.findings.first { $0.rule == .sessionEndedAbruptly })
        #expect(postMortem.message.contains("line 4202 Screen4199ViewController viewDidLoad, line 4203 Screen4199ViewController viewDidAppear:"))
        #expect(postMortem.message.contains("Unbalanced calls to begin/end appearance transitions for <Screen4150ViewController: 0x7f8>."))
    }
}

@Suite struct LongTimesTests {
    /// Long times (a custom format's, up to 120 bytes) are kept whole wherever a report shows one, also when long and
    /// short times alternate.
    @Test func longAndShortTimesAreKeptWhole() throws {
        let long = { (clock: String) in "2024-02-09 08:14:\(clock)+0100 Central European Standard Time, Berlin office" }
        let short = { (clock: String) in "2024-02-09 08:14:\(clock)" }
        let lines = [(long("39.160"), "main()"), (short("39.170"), "A >>>> viewDidLoad"),
                     (long("39.180"), "A >>>> viewWillAppear:"), (long("39.190"), "A >>>> viewDidAppear:"),
                     (short("39.200"), "B >>>> viewDidLoad"), (long("39.210"), "B >>>> viewWillAppear:"),
                     (short("39.220"), "A >>>> viewWillDisappear:"), (long("39.230"), "B >>>> viewDidAppear:")]
        for count in [lines.count - 1, lines.count] {
            var options = AnalysisOptions()
            options.lineFormat = .fixed(.custom(#"^\[(?<time>[^\]]+)\] (?<message>.*)$"#))
            options.keepEvents = true
            let text = lines.prefix(count).map { "[\($0.0)] \($0.1)" }.joined(separator: "\n") + "\n"
            let session = try #require(try analyze(text: text, options: options).sessions.first)
            #expect(session.startTime?.string == long("39.160"))
            #expect(session.endTime?.string == lines[count - 1].0)
            #expect(session.transitions.first?.startTime?.string == long("39.180"))
            #expect(session.controllers.first?.events.map { $0.time?.string } == [short("39.170"), long("39.180"), long("39.190"), short("39.220")])
        }
    }
}

@Suite struct AddressRoutingTests {
    /// An address names one instance however its hexadecimal digits are cased; another address, or the same digits
    /// padded differently, names another.
    @Test func addressesNameInstances() throws {
        let header = "2016-03-17 16:02:37.277 LifeCycle[2148:117099] "
        let messages = ["<ShopApp.A: 0x7F8A> viewDidLoad()", "<ShopApp.A: 0x7f8a> viewWillAppear(_:)",
                        "<ShopApp.A: 0x07f8a> viewDidLoad()", "<ShopApp.A: 0x7F8A> viewDidAppear(_:)",
                        "<ShopApp.A: 0x1234567890ABCDEF12> viewDidLoad()", "<ShopApp.A: 0x1234567890abcdef12> viewWillAppear(_:)"]
        let result = try analyze(text: messages.map { header + $0 }.joined(separator: "\n") + "\n")
        let session = try #require(result.sessions.first)
        #expect(session.controllers.map(\.id) == ["A@0x7f8a", "A@0x07f8a", "A@0x1234567890abcdef12"])
        #expect(session.controllers.map(\.eventCount) == [3, 1, 2])
    }
}

@Suite struct ClockTests {
    /// The same block pasted twice: the second copy's times are earlier than the first's end.
    @Test func timeGoingBackIsCountedAndDurationsStayPositive() throws {
        let block = """
        2016-03-17 16:02:37.329 LifeCycle[2148:117099]  ViewController    >>>>    viewDidLoad
        2016-03-17 16:02:37.330 LifeCycle[2148:117099]  ViewController    >>>>    viewWillAppear:
        2016-03-17 16:02:37.340 LifeCycle[2148:117099]  ViewController    >>>>    viewDidAppear:
        2016-03-17 16:02:39.000 LifeCycle[2148:117099]  ViewController    >>>>    viewWillDisappear:
        2016-03-17 16:02:39.510 LifeCycle[2148:117099]  ViewController    >>>>    viewDidDisappear:
        """
        let result = try analyze(text: block + "\n" + block.replacingOccurrences(of: "ViewController ", with: "ListViewController "))
        #expect(result.inputs.first?.timeStepsBack == 1)
        #expect(result.inputs.first?.firstTimeStepBack == 6)
        #expect(result.sessions.count == 1)
        let durations = result.sessions.flatMap(\.transitions).compactMap(\.durationMs)
        #expect(durations.count == 4)
        #expect(durations.allSatisfy { $0 >= 0 }, "\(durations)")
        #expect(result.sessions.first.flatMap(\.durationMs).map { $0 >= 0 && $0 < 5000 } == true)
        // Within the second block, times are as logged.
        #expect(result.sessions.flatMap(\.transitions).last?.durationMs == 510)
    }

    @Test func aTimeOfDayPastMidnightKeepsGoing() throws {
        let text = """
        23:59:59.900 ViewController viewWillAppear(_:)
        00:00:00.100 ViewController viewDidAppear(_:)
        """
        let result = try analyze(text: text)
        #expect(result.inputs.first?.timeStepsBack == 1)
        // The step back counts as zero, so the appearance takes no time rather than a negative day.
        #expect(result.sessions.flatMap(\.transitions).first.flatMap(\.durationMs).map { $0 >= 0 } == true)
    }
}

@Suite struct JSONInputTests {
    /// Every line of JSON input is counted once, whatever became of the object it was in.
    @Test func everyLineIsCountedOnce() throws {
        let entry = #"{"eventMessage":"FeedViewController viewDidLoad()","timestamp":"2024-02-09 09:14:03.118204+0100","processID":7,"threadID":31}"#
        let text = """
        [{
          "eventMessage" : "FeedViewController viewWillAppear(_:)",
          "processID" : 7
        },{
          "eventMessage" : "a message cut short by a lost end of line
          "processID" : 7
        }]
        \(entry)
        {
        """
        let result = try analyze(text: text)
        let input = try #require(result.inputs.first)
        #expect(input.lines == 9)
        // The entry at line 4; lines 5–7 are given back (line 5's string never ends on its line), and so is line 9,
        // an object still open when the input ends.
        #expect(input.lifecycleLines == 2)
        #expect(input.skipped[.jsonStructure] == 3)
        #expect(input.otherLines == 4)
        #expect(input.lines == input.parsedLines + input.skippedLines)
        #expect(input.format == "log-json")
        #expect(result.sessions.first?.pid == 7)
    }

    /// A time longer than 120 bytes is cut where a character starts, and the cut is marked.
    @Test func aTimeLongerThanItsRoomIsCutAndMarked() {
        let text = String(repeating: "é", count: 70)
        let time = Array(text.utf8).withUnsafeBytes { TimeText($0) }
        #expect(time.string == String(repeating: "é", count: 58) + "…")
        #expect(time.utf8Count == 119)
        let fits = String(repeating: "9", count: 120)
        #expect(Array(fits.utf8).withUnsafeBytes { TimeText($0) }.string == fits)
    }

    /// A time keeps every byte at every length it has room for, and two times are equal only when their texts are.
    @Test func aTimeKeepsEveryByteAtEveryLength() {
        let digits = Array("0123456789:.-+ TZabcdefghijklmnopqrstuvwxyz".utf8)
        for count in 0...TimeText.capacity {
            let bytes = (0..<count).map { digits[$0 % digits.count] }
            let time = bytes.withUnsafeBytes { TimeText($0) }
            #expect(time.string == String(decoding: bytes, as: UTF8.self), "length \(count)")
            #expect(time.utf8Count == count)
            if count > 0 {
                var changed = bytes
                changed[count - 1] = 0x21
                #expect(changed.withUnsafeBytes { TimeText($0) } != time, "length \(count), last byte changed")
            }
        }
    }
}

/// Call sites that a careless change to a table would break without any other test noticing.
@Suite struct TableCallSiteTests {
    /// A sheet over Home, then a logged `dismiss(animated:completion:)` whose swipe the user lets go: the logged call
    /// is satisfied by the cancelled swipe-to-dismiss, so nothing is reported.
    @Test func aLoggedDismissAcceptsACancelledSheetSwipe() throws {
        let text = """
        Home viewDidLoad()
        Home viewWillAppear(_:)
        Home viewDidAppear(_:)
        Filter viewDidLoad()
        Filter viewWillAppear(_:)
        Filter viewDidAppear(_:)
        Filter dismiss(animated:completion:)
        Filter viewWillDisappear(_:)
        Filter viewWillAppear(_:)
        Filter viewDidAppear(_:)
        """
        let result = try analyze(text: text)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        let last = try #require(result.sessions.first?.transitions.last)
        #expect(last.kind == .sheetDismissCancelled)
        #expect(last.declared == .dismiss)
        #expect(result.inputs.first?.lifecycleLines == 10)
    }

    /// A controller deallocated in each on-screen state: appearing, visible, disappearing.
    @Test(arguments: [(["viewWillAppear(_:)"], "appearing"),
                      (["viewWillAppear(_:)", "viewDidAppear(_:)"], "visible"),
                      (["viewWillAppear(_:)", "viewDidAppear(_:)", "viewWillDisappear(_:)"], "disappearing")])
    func deallocOnScreenIsFlagged(_ callbacks: [String], state: String) throws {
        let lines = ["viewDidLoad()"] + callbacks + ["deinit"]
        let text = lines.map { "<Shop.Detail: 0x600001a2c000> \($0)" }.joined(separator: "\n")
        let result = try analyze(text: text)
        #expect(result.findings.map(\.rule) == [.deallocWhileOnScreen], "\(state): \(result.findings.map(\.message))")
        #expect(result.findings.first?.line == lines.count, "\(state)")
        #expect(result.inputs.first?.lifecycleLines == lines.count, "\(state)")
    }
}

@Suite struct PresentationNoticeTests {
    /// Each of UIKit's presentation notices is a finding on the controller it is about, its message naming the others.
    @Test(arguments: [
        ("present-while-presenting.log", "RatingViewController@0x7fa1c8f0e400",
         "UIKit did not present RatingViewController@0x7fa1c8f0e400 on HomeViewController, which was already presenting PromoViewController"),
        ("present-while-transition-in-progress.log", "RatingViewController@0x7fa1c8f0e400",
         "UIKit did not present RatingViewController@0x7fa1c8f0e400 on HomeViewController: another presentation was in progress"),
        ("dismiss-while-transition-in-progress.log", "HomeViewController@0x7fa1c8e0a200",
         "UIKit did not dismiss from HomeViewController@0x7fa1c8e0a200: a presentation or dismissal was in progress"),
        ("present-on-detached-controller.log", "CardViewController@0x7fa1c8f0f600",
         "CardViewController@0x7fa1c8f0f600 presented a controller while detached (not in a window and not a child of a controller that is)"),
        ("present-already-presented.log", "PromoViewController@0x7fa1c8f0d200",
         "PromoViewController@0x7fa1c8f0d200 was presented again while already presented by HomeViewController: UIKit raised an exception"),
    ])
    func aNoticeIsAFindingOnItsController(_ sample: String, controller: String, message: String) throws {
        let result = try analyze(sample: sample)
        #expect(result.findings.count == 1, "\(result.findings.map(\.message))")
        #expect(result.findings.first?.controller == controller)
        #expect(result.findings.first?.message == message)
        #expect(result.inputs.first?.unreadLines == 0 && result.inputs.first?.noticeLines == 1)
    }

    /// Without the `<Class: 0x…>` forms, or with words that tell another notice, nothing is read as these notices.
    @Test func lookAlikesAreNotNotices() throws {
        let text = """
        Attempt to present the onboarding on first launch while a presentation is in progress
        Presenting view controllers on detached view controllers is discouraged
        HomeViewController viewDidLoad()
        """
        let result = try analyze(text: text)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(result.inputs.first?.noticeLines == 0 && result.inputs.first?.lifecycleLines == 1)
    }
}
