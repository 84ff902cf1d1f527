import Testing
@testable import LCTraceKit

/// The ids of controller instances kept for all the sessions of an input (`InstanceNames`) are the ids made anew each
/// time (`ControllerReport.id`), whatever order the classes and numbers come in, past what is kept, and with addresses.
@Suite struct InstanceNamesTests {
    private static func message(_ className: String, in names: NameTable) -> CallbackMessage {
        CallbackMessage(callback: .viewDidLoad, className: names.className(className), spelling: nil, instance: nil)
    }

    @Test func keptIdsAreTheIdsMadeEachTime() {
        let names = NameTable()
        // Room for four numbers of two classes: the third class and the numbers past four are made each time.
        let instanceNames = InstanceNames(names: names, numbersKept: 4, classesKept: 2)
        let classes = ["FirstViewController", "DetailViewController", "SettingsViewController"]
        for _ in 0..<2 {
            for ordinal in [1, 3, 2, 5, 4, 1, 6, 2] {
                for className in classes {
                    let id = instanceNames.id(of: Self.message(className, in: names), className: className, address: nil, ordinal: ordinal)
                    #expect(id == ControllerReport.id(className: className, address: nil, ordinal: ordinal))
                }
            }
        }
    }

    @Test func anAddressedInstanceIsNamedByItsAddress() {
        let names = NameTable()
        let instanceNames = InstanceNames(names: names)
        let message = Self.message("CartViewController", in: names)
        #expect(instanceNames.id(of: message, className: "CartViewController", address: nil, ordinal: 2) == "CartViewController#2")
        #expect(instanceNames.id(of: message, className: "CartViewController", address: "0x7fa1", ordinal: 2) == "CartViewController@0x7fa1#2")
        #expect(instanceNames.id(of: message, className: "CartViewController", address: "0x7fa1", ordinal: 1) == "CartViewController@0x7fa1")
        #expect(instanceNames.id(of: message, className: "CartViewController", address: nil, ordinal: 1) == "CartViewController")
    }
}
