import Testing
@testable import LCTraceKit

/// The names a session gives a new controller instance (`InstanceNames`): ids kept for all the sessions of an input are
/// the ids made anew each time (`ControllerReport.id`), whatever order the classes and numbers come in, past what is
/// kept, for a class numbered late, with an address, and with no class.
@Suite struct InstanceNamesTests {
    private static func message(_ className: String?, in names: NameTable, instance: InstanceLabel? = nil) -> CallbackMessage {
        CallbackMessage(callback: .viewDidLoad, className: className.flatMap { names.className($0) }, spelling: nil, instance: instance)
    }

    @Test func keptIdsAreTheIdsMadeEachTime() {
        let names = NameTable()
        // Numbered late: the table of runs by class is sparse below it.
        for number in 0..<300 { _ = names.className("Filler\(number)ViewController") }
        // Room for four numbers of two classes: the third class and the numbers past four are made each time.
        let naming = InstanceNames(names: names, numbersKept: 4, classesKept: 2)
        let classes = ["FirstViewController", "Filler299ViewController", "SettingsViewController"]
        for _ in 0..<2 {
            for ordinal in [1, 3, 2, 5, 4, 1, 6, 2] {
                for className in classes {
                    let made = naming.naming(of: Self.message(className, in: names), ordinal: ordinal)
                    #expect(made.id == ControllerReport.id(className: className, address: nil, ordinal: ordinal))
                    #expect(made.className == className)
                    #expect(made.address == nil)
                }
            }
        }
    }

    @Test func anAddressedInstanceIsNamedByItsAddress() throws {
        let names = NameTable()
        let naming = InstanceNames(names: names)
        let address = try #require("0x7FA1".utf8CString.withUnsafeBytes { bytes in
            InstanceAddress(UnsafeRawBufferPointer(rebasing: bytes[..<6])[...])
        })
        let addressed = Self.message("CartViewController", in: names, instance: .address(address))
        #expect(naming.naming(of: Self.message("CartViewController", in: names), ordinal: 2).id == "CartViewController#2")
        #expect(naming.naming(of: addressed, ordinal: 2).id == "CartViewController@0x7fa1#2")
        #expect(naming.naming(of: addressed, ordinal: 1).id == "CartViewController@0x7fa1")
        #expect(naming.naming(of: addressed, ordinal: 1).address == "0x7fa1")
        #expect(naming.naming(of: Self.message("CartViewController", in: names), ordinal: 1).id == "CartViewController")
    }

    @Test func aMessageWithNoClassNamesItsInstanceQuestionMark() {
        let names = NameTable()
        let naming = InstanceNames(names: names)
        for ordinal in [1, 2, 1, 3] {
            let made = naming.naming(of: Self.message(nil, in: names), ordinal: ordinal)
            #expect(made.className == "?")
            #expect(made.id == ControllerReport.id(className: "?", address: nil, ordinal: ordinal))
        }
    }
}
