import Foundation
import Testing
@testable import LCTraceKit

/// Generic controller classes (a SwiftUI `UIHostingController<…>` above all), as logged by `print(self, #function)`,
/// `print(type(of: self), #function)` and `NSStringFromClass`: read in every message form, named shortly in reports,
/// and tied to the SwiftUI view they host.
@Suite struct GenericClassNameTests {
    func reported(_ logged: String) -> String {
        Array(logged.utf8).withUnsafeBytes { ReportedClassName.of($0[...]) }
    }

    @Test func writtenGenericNamesAreShortened() {
        let cases: [(String, String)] = [
            ("SwiftUI.UIHostingController<ModifiedContent<DetailView, _EnvironmentKeyWritingModifier<Optional<NSManagedObjectContext>>>>",
             "UIHostingController<DetailView>"),
            ("UIHostingController<SettingsView>", "UIHostingController<SettingsView>"),
            ("SwiftUI.UIHostingController<SwiftUI.AnyView>", "UIHostingController<AnyView>"),
            ("ShopApp.ListController<ShopApp.Product, Optional<ShopApp.Filter>>", "ListController<Product, Filter?>"),
            ("UIHostingController<ModifiedContent<ModifiedContent<RootView, A>, B>>", "UIHostingController<RootView>"),
            ("ShopApp.Table<Dictionary<String, Array<Int>>>", "Table<Dictionary<String, Array<Int>>>"),
            // Not readable as types: the base loses its module, the rest stays as written.
            ("ShopApp.Odd<[String: Int]>", "Odd<[String: Int]>"),
        ]
        for (logged, name) in cases { #expect(reported(logged) == name, "\(logged)") }
        let long = "Host<" + (1...20).map { "ShopApp.Screen\($0)" }.joined(separator: ", ") + ">"
        #expect(reported(long) == "Host<…>")
    }

    @Test func runtimeNamesAreDemangled() {
        let cases: [(String, String)] = [
            ("_TtC7ShopApp14CartController", "CartController"),
            ("_TtCV14__lldb_expr_9010SampleView11Coordinator", "Coordinator"),
            ("_TtGC7SwiftUI19UIHostingControllerV7ShopApp11ProfileView_", "UIHostingController<ProfileView>"),
            ("_TtGC7SwiftUI19UIHostingControllerVS_7AnyView_", "UIHostingController<AnyView>"),
            // ModifiedContent<AnyView, RootModifier>, its module a substitution: the hosted content is AnyView.
            ("_TtGC7SwiftUI19UIHostingControllerGVS_15ModifiedContentVS_7AnyViewVS_12RootModifier__", "UIHostingController<AnyView>"),
            ("_TtGC7ShopApp8ListPageSi_", "ListPage<Int>"),
            ("_TtGC7ShopApp8ListPageGSqCS_7Product__", "ListPage<Product?>"),
        ]
        for (logged, name) in cases { #expect(reported(logged) == name, "\(logged)") }
        // Not a runtime name after all: read as any other name.
        #expect(reported("_TtGC7SwiftUI") == "_TtGC7SwiftUI")
        #expect(reported("_TtGC7SwiftUI19UIHostingControllerV7ShopApp") == "_TtGC7SwiftUI19UIHostingControllerV7ShopApp")
    }

    @Test func aGenericClassIsJudgedByItsBase() {
        #expect(LooseMessageReader.isControllerName("UIHostingController<DetailView>"))
        #expect(!LooseMessageReader.isControllerName("Wrapper<DetailViewController>"))
    }

    @Test(arguments: [true, false])
    func everyMessageFormReadsAGenericClass(fastPath: Bool) throws {
        let cases: [(String, String, String?)] = [
            ("<SwiftUI.UIHostingController<ModifiedContent<DetailView, _EnvironmentKeyWritingModifier<Optional<Store>>>>: 0x7fb1c8c0a200> viewDidAppear(_:)",
             "UIHostingController<DetailView>", "0x7fb1c8c0a200"),
            ("UIHostingController<SettingsView> viewWillAppear(_:)", "UIHostingController<SettingsView>", nil),
            ("UIHostingController<SettingsView> >>>> viewWillAppear:", "UIHostingController<SettingsView>", nil),
            ("-[_TtGC7SwiftUI19UIHostingControllerVS_7AnyView_ viewWillAppear:]", "UIHostingController<AnyView>", nil),
            ("_TtGC7SwiftUI19UIHostingControllerV7ShopApp11ProfileView_ >>>> viewDidAppear:", "UIHostingController<ProfileView>", nil),
            ("UIHostingController<SettingsView> viewDidLoad", "UIHostingController<SettingsView>", nil),
            ("🚀 UIHostingController<SettingsView> -> viewDidLoad", "UIHostingController<SettingsView>", nil),
        ]
        for (text, className, address) in cases {
            let bytes = Array(text.utf8)
            let message = try #require(try bytes.withUnsafeBytes { try MessageParser(fastPath: fastPath).parse($0, message: 0..<bytes.count) },
                                       "\(text)")
            #expect(message.className == className, "\(text)")
            #expect(message.address == address, "\(text)")
        }
        // An unclosed or empty argument list is no class.
        for text in ["Host<Detail viewDidLoad()", "Host<> viewDidLoad()"] {
            let bytes = Array(text.utf8)
            let message = try bytes.withUnsafeBytes { try MessageParser(fastPath: fastPath).parse($0, message: 0..<bytes.count) }
            #expect(message?.className != "Host<Detail" && message?.className != "Host<>", "\(text)")
        }
    }

    @Test func aViewAppearingUnderAPushIsCaughtOnce() throws {
        let result = try analyze(sample: "view-appeared-while-covered.log")
        #expect(result.findings.map(\.rule) == [.viewAppearedWhileCovered])
        let finding = try #require(result.findings.first)
        #expect(finding.line == 10)
        #expect(finding.controller == "DetailView")
        #expect(finding.message.contains("UIHostingController<DetailView>@0x7fa1c8c0a200"))
        #expect(finding.message.contains("viewDidDisappear at line 8"))
        let session = try #require(result.sessions.first)
        #expect(session.controllers.map(\.className) == ["UIHostingController<DetailView>", "DetailView", "CartViewController"])
        #expect(session.viewCount == 1)
        #expect(result.summary?.controllers == 2)
        #expect(result.summary?.views == 1)
    }

    /// The legal orders around a covered hosting controller: popped back to (onAppear after its viewWillAppear), a new
    /// instance of it pushed (onAppear after its viewDidLoad), the view's onAppear before any covering, and a view no
    /// logged controller hosts.
    @Test func legalOrdersAroundAHostingControllerAreSilent() throws {
        let host = "<SwiftUI.UIHostingController<DetailView>: 0x7fa1>"
        let other = "<ShopApp.CartViewController: 0x7fb2>"
        let log = [
            "\(host) viewWillAppear(_:)", "DetailView onAppear", "\(host) viewDidAppear(_:)",
            "\(host) viewWillDisappear(_:)", "\(other) viewWillAppear(_:)", "DetailView onDisappear", "\(host) viewDidDisappear(_:)",
            "\(other) viewDidAppear(_:)",
            "OtherView onAppear",
            // Pop back.
            "\(other) viewWillDisappear(_:)", "\(host) viewWillAppear(_:)", "DetailView onAppear", "\(other) viewDidDisappear(_:)",
            "\(host) viewDidAppear(_:)",
            // Covered again, then a new hosting controller of the same screen is loaded and its view appears.
            "\(host) viewWillDisappear(_:)", "DetailView onDisappear", "\(host) viewDidDisappear(_:)",
            "<SwiftUI.UIHostingController<DetailView>: 0x7fc3> viewDidLoad()", "DetailView onAppear",
            "<SwiftUI.UIHostingController<DetailView>: 0x7fc3> viewWillAppear(_:)",
            "<SwiftUI.UIHostingController<DetailView>: 0x7fc3> viewDidAppear(_:)",
        ].joined(separator: "\n") + "\n"
        let result = try analyze(text: log)
        #expect(!result.findings.contains { $0.rule == .viewAppearedWhileCovered }, "\(result.findings.map(\.message))")
        #expect(!result.findings.contains { $0.severity >= .warning }, "\(result.findings.map(\.message))")
    }
}
