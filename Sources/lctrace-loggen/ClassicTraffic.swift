// The benchmark's traffic: many launches of a shop app, each with launch callbacks, pushes and pops, presents and
// dismisses, tab switches, backgrounding, memory warnings and ordinary app logging between them.

/// One app launch after another until the size is reached.
struct LogGenerator: TrafficWriter {
    var random: SeededGenerator
    let format: Format
    let noise: Double
    let out = Writer()

    var pid = 1000
    var micros: Int64 = 1_707_466_443_000_000  // 2024-02-09 08:14:03 UTC
    let process = "ShopApp"

    static let screens = ["HomeViewController", "CartViewController", "ProductViewController", "SearchViewController",
                          "ProfileViewController", "SettingsViewController", "OrderViewController", "ReviewViewController"]
    static let sheets = ["FilterViewController", "ShareViewController", "LoginViewController"]
    static let noiseLines = [
        "NetworkClient: GET /api/v2/products?page=3 -> 200 (182 ms)",
        "ImageCache: hit ratio 0.93 after 412 lookups",
        "Analytics: event screen_view queued (batch 17)",
        "CoreData: saved 3 objects in 4 ms",
        "Keychain: token refreshed, expires in 3600 s",
        "FeatureFlags: new_checkout=true recommendations=false",
        "Realtime: socket reconnected after 2 attempts",
        "Payments: 3DS challenge presented for order 88123",
    ]

    mutating func run(until bytes: Int) {
        while out.written < bytes { session() }
        out.flush()
    }

    var lineHeader: LineHeader { LineHeader(format: format, process: process) }

    private func header() -> String { lineHeader.text(micros: micros, pid: pid) }

    /// A lifecycle line in one of the message forms apps use.
    private mutating func log(_ className: String, _ objc: String, _ swift: String) {
        let message: String
        switch format {
        case .nslogClassic: message = "\(className)    >>>>    \(objc)"
        case .nslogModern, .logCompact: message = "\(className) \(swift)"
        case .bare: message = "\(className) \(swift)"
        }
        write(message)
    }

    private mutating func controller(_ name: String, _ callback: String) {
        let swift: String
        switch callback {
        case "viewDidLoad", "loadView", "viewWillLayoutSubviews", "viewDidLayoutSubviews", "didReceiveMemoryWarning":
            swift = callback + "()"
        case "dealloc": swift = "deinit"
        default: swift = callback + "(_:)"
        }
        let objc = ["viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"].contains(callback) ? callback + ":" : callback
        log(name, objc, swift)
    }

    private mutating func app(_ objc: String, _ swift: String) { log("AppDelegate", objc, swift) }

    private mutating func session() {
        pid += 1
        tick(5_000_000, 60_000_000)
        out.line(header() + "main()", at: micros)
        app("application:didFinishLaunchingWithOptions:", "application(_:didFinishLaunchingWithOptions:)")
        app("applicationDidBecomeActive:", "applicationDidBecomeActive(_:)")
        var stack = [pick(LogGenerator.screens)]
        controller(stack[0], "viewDidLoad")
        controller(stack[0], "viewWillAppear")
        controller(stack[0], "viewWillLayoutSubviews")
        controller(stack[0], "viewDidLayoutSubviews")
        controller(stack[0], "viewDidAppear")
        let steps = Int.random(in: 4...40, using: &random)
        for _ in 0..<steps {
            tick(300_000, 4_000_000)
            let roll = Int.random(in: 0..<100, using: &random)
            let top = stack.last!
            switch roll {
            case 0..<35 where stack.count < 6:
                var next = pick(LogGenerator.screens)
                while stack.contains(next) { next = pick(LogGenerator.screens) }
                controller(top, "viewWillDisappear")
                controller(next, "viewDidLoad")
                controller(next, "viewWillAppear")
                controller(top, "viewDidDisappear")
                controller(next, "viewDidAppear")
                stack.append(next)
            case 0..<65 where stack.count > 1:
                let below = stack[stack.count - 2]
                controller(top, "viewWillDisappear")
                controller(below, "viewWillAppear")
                controller(top, "viewDidDisappear")
                controller(below, "viewDidAppear")
                controller(top, "dealloc")
                stack.removeLast()
            case 0..<78:
                let sheet = pick(LogGenerator.sheets)
                controller(sheet, "viewDidLoad")
                controller(top, "viewWillDisappear")
                controller(sheet, "viewWillAppear")
                controller(sheet, "viewDidAppear")
                controller(top, "viewDidDisappear")
                tick(500_000, 3_000_000)
                controller(sheet, "viewWillDisappear")
                controller(top, "viewWillAppear")
                controller(top, "viewDidAppear")
                controller(sheet, "viewDidDisappear")
                controller(sheet, "dealloc")
            case 0..<88:
                app("applicationWillResignActive:", "applicationWillResignActive(_:)")
                app("applicationDidEnterBackground:", "applicationDidEnterBackground(_:)")
                tick(1_000_000, 30_000_000)
                app("applicationWillEnterForeground:", "applicationWillEnterForeground(_:)")
                app("applicationDidBecomeActive:", "applicationDidBecomeActive(_:)")
            case 0..<94:
                out.line(header() + "Received memory warning.", at: micros)
                app("applicationDidReceiveMemoryWarning:", "applicationDidReceiveMemoryWarning(_:)")
                for name in stack { controller(name, "didReceiveMemoryWarning") }
            default:
                controller(top, "viewWillLayoutSubviews")
                controller(top, "viewDidLayoutSubviews")
            }
        }
        app("applicationWillResignActive:", "applicationWillResignActive(_:)")
        app("applicationDidEnterBackground:", "applicationDidEnterBackground(_:)")
        if chance(0.5) { app("applicationWillTerminate:", "applicationWillTerminate(_:)") }
    }
}
