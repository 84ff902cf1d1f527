/// Ties a SwiftUI view to the controller that shows it, where the log names both: a `UIHostingController<DetailView>`
/// (as reports name it) hosts `DetailView`. While that controller is covered — its viewDidDisappear logged, and no
/// appearance of it since — its screen is off the window, so an onAppear of its root view is SwiftUI acting on a view
/// the user cannot see (rule `view-appeared-while-covered`). Navigation logged by SwiftUI views alone tells no
/// covering, and is not judged.
///
/// A plain value: the session hands it each hosting controller's callbacks and each view's onAppear, and it returns
/// the covering an onAppear falls in, if any.
struct HostedViewWatch {
    /// When a hosting controller's root view was covered: the line of its viewDidDisappear and the controller's name.
    struct Covering: Equatable {
        var line: Int
        var controller: String
    }

    private enum Hosted {
        case unchecked
        case nothing
        case view(ClassName)
    }

    /// By controller class: the SwiftUI view it hosts, worked out once per class.
    private var hostedViews = ClassTable<Hosted>(empty: .unchecked)
    /// By view class: the covering of the controller that hosts it, while it lasts.
    private var coverings = ClassTable<Covering?>(empty: nil)
    /// Whether any class seen is a hosting controller: until one is, a view's onAppear is not looked up.
    private var hostsAny = false

    static let hostingClass = "UIHostingController"

    /// The root view a class named as reports name it hosts (`UIHostingController<DetailView>` → `DetailView`); nil
    /// for any other class, and for a root view whose arguments were too long to name (`…`). Compared as bytes: most
    /// classes are not hosting controllers, and are told so at the first byte.
    static func hostedView(byClassNamed name: String) -> Substring? {
        let prefix = hostingClass.utf8.count
        guard name.utf8.starts(with: hostingClass.utf8), name.utf8.dropFirst(prefix).first == UInt8(ascii: "<"),
              name.utf8.last == UInt8(ascii: ">") else { return nil }
        // A root view with arguments of its own, or several, is named as it is written (`List<Row>`).
        let argument = name.dropFirst(hostingClass.count + 1).dropLast()
        return argument.isEmpty || argument == "…" ? nil : argument
    }

    /// Callbacks of a hosting controller that end a covering: it is created, loaded or appears again, or is gone.
    private static func uncovers(_ callback: Callback) -> Bool {
        switch callback {
        case .initialize, .loadView, .viewDidLoad, .viewWillAppear, .viewIsAppearing, .viewDidAppear, .dealloc: return true
        default: return false
        }
    }

    /// A controller's callback, with its phase after it.
    mutating func controller(_ className: ClassName, callback: Callback, phaseAfter: ControllerPhase, line: Int,
                             names: NameTable, controllerName: () -> String) {
        guard case .view(let view) = hosted(by: className, names: names) else { return }
        if callback == .viewDidDisappear, phaseAfter == .hidden {
            coverings[view] = Covering(line: line, controller: controllerName())
        } else if HostedViewWatch.uncovers(callback) {
            coverings[view] = nil
        }
    }

    /// A SwiftUI view's onAppear: the covering of its hosting controller it happened in, if any.
    func viewAppeared(_ className: ClassName) -> Covering? {
        hostsAny ? coverings[className] : nil
    }

    private mutating func hosted(by className: ClassName, names: NameTable) -> Hosted {
        let known = hostedViews[className]
        guard case .unchecked = known else { return known }
        var hosted = Hosted.nothing
        if let argument = HostedViewWatch.hostedView(byClassNamed: names[className]), let view = names.className(String(argument)) {
            hosted = .view(view)
            hostsAny = true
        }
        hostedViews[className] = hosted
        return hosted
    }
}
