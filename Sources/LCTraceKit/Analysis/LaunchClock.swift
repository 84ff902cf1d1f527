/// The launch's milestones as a session's events pass: main() → the first viewDidAppear, and didFinishLaunching →
/// the first didBecomeActive of the app or a scene.
struct LaunchClock {
    private(set) var timing = LaunchTiming()
    private var mainMicros: Int64?
    private var finishLaunchingMicros: Int64?
    private var sawFirstAppear = false

    @inline(__always)
    mutating func note(_ callback: Callback, micros: Int64?) {
        guard let micros else { return }
        switch callback {
        case .main where mainMicros == nil:
            mainMicros = micros
        case .didFinishLaunching where finishLaunchingMicros == nil:
            finishLaunchingMicros = micros
        case .viewDidAppear where !sawFirstAppear:
            sawFirstAppear = true
            timing.mainToFirstAppearMs = milliseconds(from: mainMicros, to: micros)
        case .applicationDidBecomeActive, .sceneDidBecomeActive:
            if timing.finishLaunchingToActiveMs == nil {
                timing.finishLaunchingToActiveMs = milliseconds(from: finishLaunchingMicros, to: micros)
            }
        default:
            break
        }
    }
}
