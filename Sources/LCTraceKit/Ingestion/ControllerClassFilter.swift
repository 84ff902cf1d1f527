/// Decides whether init and dealloc belong to a view controller. Every class has them, so a class logging only those
/// (a view's `-[FirstView dealloc]`, a VIPER `Presenter init`) is not taken for a controller. Its init or dealloc is a
/// controller's when the class is named like one (`LooseMessageReader.isControllerName`: `…Controller`, `…VC`), or
/// when the class was seen earlier in the same app launch with a callback only view controllers have (viewDidLoad,
/// viewWillAppear, …).
///
/// One per launch (session), so the answer never depends on how an input was cut into sections.
struct ControllerClassFilter {
    /// Class number (the message parser's) → whether it was seen with a controller-only callback.
    private var seenByKey: [Bool] = []
    /// The same, for classes the parser has no number for.
    private var seenByName: Set<String> = []
    /// Class number → whether it is named like a controller (0: not worked out yet, 1: no, 2: yes).
    private var namedLikeController: [UInt8] = []

    /// Notes a controller-only callback of the message's class.
    @inline(__always)
    mutating func noteControllerCallback(_ message: KeyedMessage, names: MessageParser) {
        let key = Int(message.classKey)
        guard key >= 0 else {
            if let name = names.className(of: message) { seenByName.insert(name) }
            return
        }
        if key >= seenByKey.count { seenByKey.append(contentsOf: repeatElement(false, count: key + 1 - seenByKey.count)) }
        seenByKey[key] = true
    }

    /// Whether an init or dealloc of the message's class is a controller's.
    mutating func acceptsShared(_ message: KeyedMessage, names: MessageParser) -> Bool {
        let key = Int(message.classKey)
        guard key >= 0 else {
            guard let name = names.className(of: message) else { return false }
            return seenByName.contains(name) || LooseMessageReader.isControllerName(name)
        }
        if key < seenByKey.count, seenByKey[key] { return true }
        if key >= namedLikeController.count {
            namedLikeController.append(contentsOf: repeatElement(0, count: key + 1 - namedLikeController.count))
        }
        if namedLikeController[key] == 0 {
            namedLikeController[key] = LooseMessageReader.isControllerName(names.className(forKey: message.classKey)) ? 2 : 1
        }
        return namedLikeController[key] == 2
    }
}
