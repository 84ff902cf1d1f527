/// The names a session gives a controller instance it makes, read from the run's `NameTable`: its class's text, its
/// address or id when the message logs one, and its id in the report (`ControllerReport.id`: `Class`, `Class#2`,
/// `Class@0x…`). The sessions of one app make the same instances launch after launch, so the ids of instances known by
/// class alone are made once for each class and number and shared by every session of the input, rather than joined
/// and allocated for each instance (about 550 instructions). Ids with an address or an id are made each time; so are
/// numbers past `numbersKept`, and every id once `classesKept` classes have theirs kept. What is kept is bounded: the
/// ids (32 Ki by default), and a number for each class up to the highest kept (64 Ki at most, the name table's limit).
final class InstanceNames {
    /// A new instance's names.
    struct Naming {
        var className: String
        var address: String?
        var id: String
    }

    let names: NameTable
    private let numbersKept: Int
    private let classesKept: Int
    /// For each class with ids kept, where its run of `numbersKept` ids starts in `ids` (its number n at start + n - 1),
    /// plus one: 0 for a class with none kept yet.
    ///
    /// Read and changed only by `naming(of:ordinal:)`, which calls nothing that reaches them, on the one thread
    /// analysing the input: not checked for exclusive access at run time (a call into the runtime each).
    @exclusivity(unchecked) private var runs = ClassTable(empty: 0)
    @exclusivity(unchecked) private var ids: [String?] = []

    init(names: NameTable, numbersKept: Int = 32, classesKept: Int = 1_024) {
        self.names = names
        self.numbersKept = numbersKept
        self.classesKept = classesKept
    }

    /// The names of a new instance the message is of, `ordinal` (from 1) among the instances with its class and address.
    @inline(__always)
    func naming(of message: CallbackMessage, ordinal: Int) -> Naming {
        let className = names.className(of: message) ?? "?"
        let address = names.instanceText(message)
        return Naming(className: className, address: address,
                      id: id(of: message.className, text: className, address: address, ordinal: ordinal))
    }

    private func id(of name: ClassName?, text className: String, address: String?, ordinal: Int) -> String {
        guard address == nil, let name, ordinal >= 1, ordinal <= numbersKept else {
            return ControllerReport.id(className: className, address: address, ordinal: ordinal)
        }
        var run = runs[name]
        if run == 0 {
            guard ids.count < classesKept * numbersKept else {
                return ControllerReport.id(className: className, address: nil, ordinal: ordinal)
            }
            run = ids.count + 1
            runs[name] = run
            ids.append(contentsOf: repeatElement(nil, count: numbersKept))
        }
        let place = run - 1 + ordinal - 1
        if let id = ids[place] { return id }
        let id = ControllerReport.id(className: className, address: nil, ordinal: ordinal)
        ids[place] = id
        return id
    }
}
