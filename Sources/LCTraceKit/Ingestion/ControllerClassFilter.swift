/// Decides whether init and dealloc belong to a view controller. Every class has them, so a class logging only those
/// (a view's `-[FirstView dealloc]`, a VIPER `Presenter init`) is not taken for a controller. Its init or dealloc is a
/// controller's when the class is named like one (`LooseMessageReader.isControllerName`: `…Controller`, `…VC`), or
/// when the class was seen earlier in the same app launch with a callback only view controllers have (viewDidLoad,
/// viewWillAppear, …).
///
/// One per launch (session), so the answer never depends on how an input was cut into sections.
struct ControllerClassFilter {
    private struct Known: OptionSet {
        let rawValue: UInt8
        /// Seen with a controller-only callback.
        static let seen = Known(rawValue: 1)
        /// Whether the name looks like a controller's has been worked out, and the answer.
        static let nameChecked = Known(rawValue: 2)
        static let namedLikeController = Known(rawValue: 4)
    }

    private var classes = ClassTable<Known>(empty: [])

    /// Notes a controller-only callback of the class.
    @inline(__always)
    mutating func noteControllerCallback(_ className: ClassName) {
        // Nearly every callback's class is noted already: read first, so that the table is written (and its storage
        // checked for sharing) only the first time.
        guard !classes[className].contains(.seen) else { return }
        _ = classes.update(className) { $0.insert(.seen) }
    }

    /// Whether an init or dealloc of the class is a controller's.
    mutating func acceptsShared(_ className: ClassName, names: NameTable) -> Bool {
        classes.update(className) { known in
            if known.contains(.seen) { return true }
            if !known.contains(.nameChecked) {
                known.insert(.nameChecked)
                if LooseMessageReader.isControllerName(names[className]) { known.insert(.namedLikeController) }
            }
            return known.contains(.namedLikeController)
        }
    }
}
