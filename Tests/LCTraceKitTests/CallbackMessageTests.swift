import Testing
@testable import LCTraceKit

/// A message keeps its class, spelling and instance as plain words (`CallbackMessage`): whatever it is given reads
/// back the same, absent or present.
@Suite struct CallbackMessageTests {
    @Test func everyFieldReadsBackAsGiven() throws {
        let names = NameTable()
        // The first of each kind is numbered 0 and the first notice -1; the first id (0) must not read as no instance,
        // nor an address of value 0.
        let classes: [ClassName?] = [nil, try #require(names.className("CartViewController")), try #require(names.className("A"))]
        let spellings: [Spelling?] = [
            nil, try #require(names.spelling("viewDidLoad")),
            try #require(names.notice("Unbalanced calls to begin/end appearance transitions for <C: 0x1>.")),
        ]
        let instances: [InstanceLabel?] = [
            nil,
            .address(InstanceAddress(value: 0, digits: 1)),
            .address(InstanceAddress(value: 0x7fa1, digits: 4)),
            .address(InstanceAddress(value: .max, digits: 16)),
            .id(try #require(names.instanceID("0b5a7c2e-4f1d-4e8a-9c3b-2d6f8e1a0c47"))),
            .id(try #require(names.instanceID("second"))),
        ]
        for callback in [Callback.initialize, .viewDidLoad, .receivedMemoryWarning] {
            for className in classes {
                for spelling in spellings {
                    for instance in instances {
                        let message = CallbackMessage(callback: callback, className: className, spelling: spelling, instance: instance)
                        #expect(message.callback == callback)
                        #expect(message.className == className)
                        #expect(message.spelling == spelling)
                        #expect(message.instance == instance)
                    }
                }
            }
        }
    }

    @Test func namesAndInstanceReadBackAsTheirText() throws {
        let names = NameTable()
        let address = try #require("0x00007Fa1".utf8.withContiguousStorageIfAvailable { bytes in
            InstanceAddress(UnsafeRawBufferPointer(bytes)[...])
        } ?? nil)
        let message = CallbackMessage(callback: .viewWillAppear, className: names.className("CartViewController"),
                                      spelling: names.spelling("viewWillAppear:"), instance: .address(address))
        #expect(names.className(of: message) == "CartViewController")
        #expect(names.spelled(message) == "viewWillAppear:")
        #expect(names.instanceText(message) == "0x00007fa1")
        let marker = CallbackMessage(callback: .main)
        #expect(names.className(of: marker) == nil)
        #expect(names.spelled(marker) == "main()")
        #expect(names.instanceText(marker) == nil)
    }
}
