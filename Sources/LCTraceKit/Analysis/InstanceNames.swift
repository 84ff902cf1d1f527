/// The names a session gives the controller instances it makes, over the run's `NameTable`: the class's text, and the
/// instance's id (`ControllerReport.id`). The ids of instances known by class alone (`Class`, `Class#2`, …) are made
/// once for each class and number and shared by every session of the input: the sessions of one app make the same
/// instances again, launch after launch, and making each id anew (a text joined and allocated) cost about 550
/// instructions an instance. Ids with an address or an id are made each time; so are numbers past `numbersKept`, and
/// every id once `classesKept` classes have theirs kept: the memory is bounded (32 Ki ids at most).
final class InstanceNames {
    let names: NameTable
    private let numbersKept: Int
    private let classesKept: Int
    /// For each class with ids kept, where its run of `numbersKept` ids starts in `ids` (its number n at start + n - 1),
    /// plus one: 0 for a class with none kept yet.
    ///
    /// Read and changed only by `id(of:className:address:ordinal:)`, which calls nothing that reaches them, on the one
    /// thread analysing the input: not checked for exclusive access at run time (a call into the runtime each).
    @exclusivity(unchecked) private var runs = ClassTable(empty: 0)
    @exclusivity(unchecked) private var ids: [String?] = []

    init(names: NameTable, numbersKept: Int = 32, classesKept: Int = 1_024) {
        self.names = names
        self.numbersKept = numbersKept
        self.classesKept = classesKept
    }

    /// The id of a new instance of the event's class, `ordinal` among the instances with its class and address.
    func id(of message: CallbackMessage, className: String, address: String?, ordinal: Int) -> String {
        guard address == nil, let name = message.className, ordinal >= 1, ordinal <= numbersKept else {
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
